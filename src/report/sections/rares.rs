//! Which rares make the game hardest.

use super::{deck_groups, decks_by_strength};
use crate::report::document::*;
use crate::report::inputs::RareRow;
use crate::report::model::{Group, Model};
use crate::report::svg;

pub(super) fn rares_section(m: &Model) -> Section {
    let mut blocks = Vec::new();
    if !m.has_rares {
        blocks.push(Block::Note(
            Rich::default()
                .t("This section needs a sweep over rare mixes: ")
                .code("rares.parquet")
                .t(" is not in the run directory. It estimates each rare's effect from many mixes, for example from ")
                .code("confluence-sim run --rares 0..=15 --subsets 5")
                .t("."),
        ));
        return Section {
            id: "rares".into(),
            title: "Which rares make it hardest".into(),
            blocks,
        };
    }
    blocks.push(Block::Paragraph(Rich::text(
        "The change in win rate when a rare replaces its common twin, in percentage points, with its 95% interval; the most negative (the rare that makes the Confluence hardest) comes first. One chart per deck and policy, decks strongest first; the numbers are folded under each chart.",
    )));
    let mut cells = Vec::new();
    let bars_of = |g: &crate::report::model::Group| -> Vec<svg::Bar> {
        g.rares
            .iter()
            .map(|r| svg::Bar {
                label: r.rare.clone(),
                value: r.effect,
                lo: r.effect_lo,
                hi: r.effect_hi,
            })
            .collect()
    };
    for (stem, _) in decks_by_strength(m) {
        // One x scale for the deck's charts: a bar's length means the same in each.
        let groups = deck_groups(m, &stem);
        let all: Vec<svg::Bar> = groups.iter().flat_map(|g| bars_of(g)).collect();
        let range = svg::effect_range(&all);
        for g in groups {
            if g.rares.is_empty() {
                cells.push(vec![Block::Note(Rich::text(format!(
                    "{}: rares.parquet has no rows for this deck and policy{}.",
                    g.label(),
                    why_no_rares(g)
                )))]);
                continue;
            }
            let bars = bars_of(g);
            let title = format!("Effect of each rare: {}", g.label());
            let chart = Chart {
                file: format!("rare_impact_{}.svg", g.number),
                svg: svg::effect_chart(&title, &bars, range),
                title,
            };
            let methods: Vec<String> = {
                let mut v: Vec<String> = Vec::new();
                for r in &g.rares {
                    if !v.contains(&r.method) {
                        v.push(r.method.clone());
                    }
                }
                v
            };
            let caption = Rich::default()
                .t(format!(
                    "{} Bars: the estimated effect; whiskers: its 95% interval; the charts of one deck share one scale. Method: ",
                    hardest_caption(&g.rares),
                ))
                .code(methods.join(", "))
                .t(".");
            let table = Block::Table(DocTable {
                header: ["Rare", "Effect", "95% interval", "Configs", "Games"]
                    .map(String::from)
                    .to_vec(),
                numeric: vec![false, true, true, true, true],
                rows: g
                    .rares
                    .iter()
                    .map(|r| {
                        vec![
                            Rich::text(r.rare.clone()),
                            Rich::text(pp(r.effect)),
                            Rich::text(pct_interval_pp(r.effect_lo, r.effect_hi)),
                            Rich::text(thousands(r.configs)),
                            Rich::text(thousands(r.games)),
                        ]
                    })
                    .collect(),
            });
            cells.push(vec![
                Block::Figure { chart, caption },
                Block::Details {
                    summary: format!("Numbers: {}", g.label()),
                    blocks: vec![table],
                },
            ]);
        }
    }
    blocks.push(Block::Grid(cells));
    Section {
        id: "rares".into(),
        title: "Which rares make it hardest".into(),
        blocks,
    }
}

/// The caption's first sentence: the hardest rare (the most negative effect, rows sorted
/// so) when its whole 95% interval is below zero; else that no rare is distinguishable from
/// no effect.
fn hardest_caption(rares: &[RareRow]) -> String {
    match rares.first() {
        Some(h) if h.effect_hi < 0.0 => format!(
            "Hardest: {} ({} {}).",
            h.rare,
            pp(h.effect),
            pct_interval_pp(h.effect_lo, h.effect_hi),
        ),
        _ => "Hardest: none is distinguishable from no effect (every 95% interval includes zero or lies above it).".to_string(),
    }
}

/// Why a group has no rare effects, where its games say: it lost (or won) every game, so
/// no rare can be told from another (issue 48, item 4).
fn why_no_rares(g: &Group) -> String {
    let (wins, games) = g
        .by_rares
        .iter()
        .fold((0, 0), |(w, n), p| (w + p.wins, n + p.games));
    match (wins, games) {
        (_, 0) => String::new(),
        (0, n) => format!(": it lost all its {n} games, so no rare can be told from another"),
        (w, n) if w == n => {
            format!(": it won all its {n} games, so no rare can be told from another")
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::findings::tests::{rare, with_rares};

    /// The `width` of each bar of the chart in `file`, by rare.
    fn bar_widths(s: &Section, file: &str) -> Vec<(String, f64)> {
        let svg = s
            .blocks
            .iter()
            .flat_map(Block::charts)
            .find(|c| c.file == file)
            .expect("the chart")
            .svg
            .clone();
        svg.split("<rect data-label=\"")
            .skip(1)
            .map(|r| {
                let label = r[..r.find('"').unwrap()].to_string();
                let w = &r[r.find(" width=\"").unwrap() + 8..];
                (label, w[..w.find('"').unwrap()].parse().unwrap())
            })
            .collect()
    }

    fn captions(s: &Section) -> Vec<String> {
        let mut out = Vec::new();
        for b in &s.blocks {
            if let Block::Grid(cells) = b {
                for c in cells.iter().flatten() {
                    if let Block::Figure { caption, .. } = c {
                        out.push(caption.plain());
                    }
                }
            }
        }
        out
    }

    #[test]
    fn one_decks_charts_share_one_scale_and_name_a_hardest_rare_only_when_it_is_one() {
        // greedy: a tiny effect whose interval includes zero; planner: a large one.
        let m = with_rares(vec![
            rare("A", "greedy", "R1", -0.001, 0.002),
            rare("A", "planner", "R1", -0.05, 0.01),
        ]);
        let s = rares_section(&m);
        let small = bar_widths(&s, "rare_impact_1.svg");
        let large = bar_widths(&s, "rare_impact_2.svg");
        // -0.1 pp is drawn a fiftieth as long as -5 pp, not as long.
        let ratio = small[0].1 / large[0].1;
        assert!((ratio - 0.02).abs() < 0.005, "{small:?} {large:?}");
        let c = captions(&s);
        assert!(
            c[0].starts_with("Hardest: none is distinguishable from no effect"),
            "greedy: {c:?}"
        );
        assert!(
            c[1].starts_with("Hardest: R1 (−5.0\u{a0}pp"),
            "planner: {c:?}"
        );
    }
}
