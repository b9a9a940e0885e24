//! The deck comparison: every deck's win rate side by side.

use super::{deck_groups, decks_by_strength, policy_color};
use crate::report::document::*;
use crate::report::findings;
use crate::report::model::{Model, Pooled};
use crate::report::svg;

fn rate_cell(p: &Pooled) -> Rich {
    Rich::text(rate_ci(&p.rate))
}

pub(super) fn comparison_section(m: &Model) -> Section {
    let order = decks_by_strength(m);
    let point = |p: &Pooled| svg::RatePoint {
        rares: p.rare_count,
        y: p.rate.estimate,
        lo: p.rate.lo,
        hi: p.rate.hi,
    };
    let comp: Vec<svg::CompDeck> = order
        .iter()
        .map(|(stem, name)| svg::CompDeck {
            name: name.clone(),
            rows: deck_groups(m, stem)
                .into_iter()
                .rev()
                .map(|g| svg::CompRow {
                    series: g.label(),
                    policy: g.policy.clone(),
                    color: policy_color(m, &g.policy),
                    fewest: point(g.fewest()),
                    most: g.most().map(point),
                })
                .collect(),
        })
        .collect();
    let title = "Win rate by deck and policy".to_string();
    let chart = Chart {
        file: "deck_comparison.svg".into(),
        svg: svg::comparison_chart(&title, &comp, Some(m.target)),
        title,
    };
    let mut blocks = vec![Block::Paragraph(Rich::text(
        "Each deck, strongest first, with each policy: the pooled win rate with the fewest rares of the run (filled dot) and with the most (hollow dot), each with its 95% interval.",
    ))];
    blocks.push(Block::Figure {
        chart,
        caption: Rich::text(format!(
            "Sorted by the strongest policy's win rate with the fewest rares; the dashed line is the target, {}.",
            pct(m.target)
        )),
    });
    // One row per deck: each policy's win rates and the skill gap.
    let players = m.players();
    let gaps = findings::skill_gaps(m);
    let fewest_n = m
        .groups
        .iter()
        .map(|g| g.fewest().rare_count)
        .min()
        .unwrap_or(0);
    let most_n = m
        .groups
        .iter()
        .filter_map(|g| g.most().map(|x| x.rare_count))
        .max();
    let mut header = vec!["Deck".to_string()];
    let mut numeric = vec![false];
    for p in &m.policies {
        header.push(format!("{p}, {fewest_n} rares"));
        numeric.push(true);
        if let Some(n) = most_n {
            header.push(format!("{p}, {n} rares"));
            numeric.push(true);
        }
    }
    if !gaps.is_empty() {
        header.push(format!("Skill gap, {fewest_n} rares"));
        numeric.push(true);
        if let Some(n) = most_n {
            header.push(format!("Skill gap, {n} rares"));
            numeric.push(true);
        }
    }
    let mut rows = Vec::new();
    for (stem, name) in &order {
        let mut row = vec![Rich::text(name.clone())];
        for p in &m.policies {
            let g = m.group(stem, p);
            let at = |n: u32| {
                g.and_then(|g| g.by_rares.iter().find(|x| x.rare_count == n))
                    .map_or_else(|| Rich::text("—"), |x| Rich::text(pct(x.rate.estimate)))
            };
            row.push(at(fewest_n));
            if let Some(n) = most_n {
                row.push(at(n));
            }
        }
        if !gaps.is_empty() {
            let gap = gaps.iter().find(|x| &x.deck == stem);
            let cell = |g: Option<findings::Gap>| {
                g.map_or_else(|| Rich::text("—"), |g| Rich::text(findings::gap_ci(&g)))
            };
            let pick = |n: u32| {
                gap.and_then(|x| {
                    [x.fewest, x.most]
                        .into_iter()
                        .flatten()
                        .find(|g| g.rare_count == n)
                })
            };
            row.push(cell(pick(fewest_n)));
            if let Some(n) = most_n {
                row.push(cell(pick(n)));
            }
        }
        rows.push(row);
    }
    blocks.push(Block::Table(DocTable {
        header,
        numeric,
        rows,
    }));
    if !gaps.is_empty() {
        let pairs: Vec<String> = {
            let mut v: Vec<String> = Vec::new();
            for g in &gaps {
                let s = format!("{} − {}", g.strong, g.weak);
                if !v.contains(&s) {
                    v.push(s);
                }
            }
            v
        };
        blocks.push(Block::Note(
            Rich::default()
                .t("Skill gap: the strongest policy's win rate minus the weakest's (")
                .code(pairs.join(", "))
                .t("), with a 95% interval that treats their games as independent (they share game seeds, so it is conservative). Policies rank random < greedy < planner < expert < search; a bound such as clairvoyant is left out."),
        ));
    } else if players.len() < 2 {
        blocks.push(Block::Note(Rich::text(
            "One player policy in this run: no skill gap to show.",
        )));
    }
    // The long table: one row per deck and policy.
    let mut long = Vec::new();
    for (stem, _) in &order {
        for g in deck_groups(m, stem) {
            let f = g.fewest();
            let diff = match (&g.diff, g.most()) {
                (Some(d), Some(_)) => {
                    Rich::text(format!("{} {}", pp(d.diff), pct_interval_pp(d.lo, d.hi)))
                }
                _ => Rich::text("—"),
            };
            long.push(vec![
                Rich::text(g.deck_name.clone()),
                Rich::text(g.policy.clone()),
                Rich::text(f.rare_count.to_string()),
                rate_cell(f),
                Rich::text(g.most().map_or("—".into(), |x| x.rare_count.to_string())),
                g.most().map_or_else(|| Rich::text("—"), rate_cell),
                diff,
                Rich::text(format!("{:.2}", g.days_mean_fewest)),
                Rich::text(
                    g.most()
                        .map_or("—".into(), |_| format!("{:.2}", g.days_mean_most)),
                ),
            ]);
        }
    }
    let mut folded = vec![Block::Table(DocTable {
        header: [
            "Deck",
            "Policy",
            "Fewest rares",
            "Win rate",
            "Most rares",
            "Win rate",
            "Paired difference",
            "Mean days, fewest",
            "Mean days, most",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![false, false, true, true, true, true, true, true, true],
        rows: long,
    })];
    if m.has_diffs {
        let bases: Vec<u32> = {
            let mut v: Vec<u32> = m
                .groups
                .iter()
                .filter_map(|g| g.diff.as_ref())
                .flat_map(|d| d.baseline_rares.clone())
                .collect();
            v.sort();
            v.dedup();
            v
        };
        let baseline = if bases.is_empty() {
            // One mix per deck and policy: each configuration is its own baseline.
            "its baseline's (the first configuration of its deck and policy; this run has one rare mix each, so there is no difference to show)".to_string()
        } else if bases == [0] {
            "its all-common baseline's".to_string()
        } else {
            format!(
                "its baseline's (the run has no all-common configuration for every deck and policy: the baselines have {} rares, the first configuration of each group)",
                bases
                    .iter()
                    .map(|b| b.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        folded.push(Block::Note(Rich::text(format!(
            "The paired difference comes from diffs.parquet: the configuration's win rate minus {baseline}, on the same games (common random numbers), with its 95% interval in percentage points. With several configurations at the highest rare count it is their games-weighted mean, and the interval is the mean of their bounds, which is conservative: the spread of a mean of correlated differences is never more than the mean of their spreads."
        ))));
    } else {
        folded.push(Block::Note(
            Rich::default()
                .t("The paired difference needs ")
                .code("diffs.parquet")
                .t(", which this run did not write; the two win rates above are independent estimates, and their intervals overlap more than a paired comparison would."),
        ));
    }
    blocks.push(Block::Details {
        summary: "Every deck and policy: intervals, paired difference, mean days".into(),
        blocks: folded,
    });
    Section {
        id: "decks".into(),
        title: "Deck comparison".into(),
        blocks,
    }
}
