//! The win rate against the number of rares, and the rare mixes that come closest to the
//! target.

use super::{deck_groups, decks_by_strength, policy_color};
use crate::report::document::*;
use crate::report::findings;
use crate::report::model::{Group, Model};
use crate::report::svg;

fn win_rate_series(m: &Model, g: &Group) -> svg::LineSeries {
    svg::LineSeries {
        name: g.label(),
        color: policy_color(m, &g.policy),
        points: g
            .by_rares
            .iter()
            .map(|p| svg::LinePoint {
                x: p.rare_count,
                y: p.rate.estimate,
                lo: p.rate.lo,
                hi: p.rate.hi,
                games: p.games,
                configs: p.configs,
            })
            .collect(),
        dots: g
            .rows
            .iter()
            .map(|&r| {
                let c = &m.configs[r];
                svg::ConfigDot {
                    config_id: c.config_id,
                    x: c.rare_count,
                    y: c.win_rate,
                    lo: c.win_rate_lo,
                    hi: c.win_rate_hi,
                    mix: c.rare_mix.join("; "),
                }
            })
            .collect(),
    }
}

/// The file of deck `stem`'s win-rate panel: numbered by the deck's order of appearance.
fn panel_file(m: &Model, stem: &str) -> String {
    let i = m.decks.iter().position(|(s, _)| s == stem).unwrap_or(0);
    format!("win_rate_{}.svg", i + 1)
}

pub(super) fn win_rate_section(m: &Model) -> Section {
    let order = decks_by_strength(m);
    let all: Vec<(String, Vec<svg::LineSeries>, Vec<String>)> = order
        .iter()
        .map(|(stem, name)| {
            let groups = deck_groups(m, stem);
            (
                name.clone(),
                groups.iter().map(|g| win_rate_series(m, g)).collect(),
                groups.iter().map(|g| g.policy.clone()).collect(),
            )
        })
        .collect();
    let flat: Vec<&svg::LineSeries> = all.iter().flat_map(|x| &x.1).collect();
    let range = svg::fitted_range(&flat, Some(m.target));
    let charts: Vec<Chart> = order
        .iter()
        .zip(&all)
        .map(|((stem, _), (name, series, labels))| {
            let title = format!("Win rate: {name}");
            Chart {
                file: panel_file(m, stem),
                svg: svg::win_rate_panel(&title, series, labels, range, Some(m.target)),
                title,
            }
        })
        .collect();
    let mut blocks = vec![Block::Paragraph(Rich::text(
        "One panel per player deck, strongest first, and one line per policy: the win rate pooled over every configuration with that number of rares (their wins over their games), its 95% Wilson interval as a band, and each configuration (rare mix) as a small dot.",
    ))];
    blocks.push(Block::Panels {
        charts,
        caption: Rich::text(format!(
            "Win rate (y, from {} to {}, the same in every panel) against the number of rares swapped into the Confluence deck (x); the dashed line is the target, {}.",
            pct(range.0),
            pct(range.1),
            pct(m.target)
        )),
    });
    let mut rows = Vec::new();
    for g in &m.groups {
        for p in &g.by_rares {
            rows.push(vec![
                Rich::text(g.deck_name.clone()),
                Rich::text(g.policy.clone()),
                Rich::text(p.rare_count.to_string()),
                Rich::text(p.configs.to_string()),
                Rich::text(thousands(p.games)),
                Rich::text(pct(p.rate.estimate)),
                Rich::text(pct_interval(p.rate.lo, p.rate.hi)),
            ]);
        }
    }
    blocks.push(Block::Details {
        summary: format!(
            "The numbers behind the panels ({})",
            plural(rows.len(), "row", "rows")
        ),
        blocks: vec![Block::Table(DocTable {
            header: [
                "Deck",
                "Policy",
                "Rares",
                "Configs",
                "Games",
                "Win rate",
                "95% interval",
            ]
            .map(String::from)
            .to_vec(),
            numeric: vec![false, false, true, true, true, true, true],
            rows,
        })],
    });
    Section {
        id: "win-rate".into(),
        title: "Win rate against the number of rares".into(),
        blocks,
    }
}

/// How many configurations per (deck, policy) the folded target table lists.
const TARGET_ROWS: usize = 3;

/// Per deck and policy, the rare mixes whose win rate is closest to the target.
pub(super) fn target_section(m: &Model) -> Section {
    let t = m.target;
    let universe = findings::rare_universe(m);
    let mut blocks = vec![Block::Paragraph(
        Rich::default()
            .t(format!(
                "Per player deck and policy, the configuration of this run whose win rate is closest to {} (set with ",
                pct(t)
            ))
            .code("confluence-sim report --target P")
            .t("), and whether its 95% interval contains it. A long rare mix is shortened: click it for its rares (")
            .code("summary.csv")
            .t(" lists each in full, ")
            .code("rare_mix")
            .t("). To search more mixes than the run holds, use ")
            .code(format!("confluence-sim tune --target {t}"))
            .t("."),
    )];
    let contains = |i: usize| {
        let c = &m.configs[i];
        c.win_rate_lo <= t && t <= c.win_rate_hi
    };
    let mut rows = Vec::new();
    let mut more = Vec::new();
    for (stem, _) in decks_by_strength(m) {
        for g in deck_groups(m, &stem) {
            let (best, side) = findings::closest(m, g, t);
            let c = &m.configs[best];
            rows.push(vec![
                Rich::text(g.deck_name.clone()),
                Rich::text(g.policy.clone()),
                findings::mix_rich(&c.rare_mix, &universe),
                Rich::text(format!(
                    "{} {}",
                    pct(c.win_rate),
                    pct_interval(c.win_rate_lo, c.win_rate_hi)
                )),
                Rich::text(match side {
                    Some(false) => "no: every mix is below".to_string(),
                    Some(true) => "no: every mix is above".to_string(),
                    None if contains(best) => "yes".to_string(),
                    None => "no".to_string(),
                }),
            ]);
            let mut idx: Vec<usize> = g.rows.clone();
            idx.sort_by(|&a, &b| {
                let (x, y) = (&m.configs[a], &m.configs[b]);
                (x.win_rate - t)
                    .abs()
                    .total_cmp(&(y.win_rate - t).abs())
                    .then(x.config_id.cmp(&y.config_id))
            });
            for &i in idx.iter().take(TARGET_ROWS) {
                let c = &m.configs[i];
                more.push(vec![
                    Rich::text(g.deck_name.clone()),
                    Rich::text(g.policy.clone()),
                    Rich::text(c.config_id.to_string()),
                    findings::mix_rich(&c.rare_mix, &universe),
                    Rich::text(format!(
                        "{} {}",
                        pct(c.win_rate),
                        pct_interval(c.win_rate_lo, c.win_rate_hi)
                    )),
                    Rich::text(if contains(i) { "yes" } else { "no" }),
                ]);
            }
        }
    }
    let head = format!("Contains {}", pct(t));
    blocks.push(Block::Table(DocTable {
        header: ["Deck", "Policy", "Closest mix", "Win rate", &head]
            .map(String::from)
            .to_vec(),
        numeric: vec![false, false, false, true, false],
        rows,
    }));
    blocks.push(Block::Details {
        summary: format!(
            "The {TARGET_ROWS} closest configurations of each deck and policy ({})",
            plural(more.len(), "row", "rows")
        ),
        blocks: vec![Block::Table(DocTable {
            header: ["Deck", "Policy", "Config", "Rare mix", "Win rate", &head]
                .map(String::from)
                .to_vec(),
            numeric: vec![false, false, true, false, true, false],
            rows: more,
        })],
    });
    Section {
        id: "target".into(),
        title: format!("Which mixes give {}", pct(t)),
        blocks,
    }
}
