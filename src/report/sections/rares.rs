//! Which rares make the game hardest.

use super::{deck_groups, decks_by_strength};
use crate::report::document::*;
use crate::report::model::Model;
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
    for (stem, _) in decks_by_strength(m) {
        for g in deck_groups(m, &stem) {
            if g.rares.is_empty() {
                cells.push(vec![Block::Note(Rich::text(format!(
                    "{}: rares.parquet has no rows for this deck and policy.",
                    g.label()
                )))]);
                continue;
            }
            let bars: Vec<svg::Bar> = g
                .rares
                .iter()
                .map(|r| svg::Bar {
                    label: r.rare.clone(),
                    value: r.effect,
                    lo: r.effect_lo,
                    hi: r.effect_hi,
                })
                .collect();
            let title = format!("Effect of each rare: {}", g.label());
            let chart = Chart {
                file: format!("rare_impact_{}.svg", g.number),
                svg: svg::effect_chart(&title, &bars),
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
            let hardest = &g.rares[0];
            let caption = Rich::default()
                .t(format!(
                    "Hardest: {} ({} {}). Bars: the estimated effect; whiskers: its 95% interval. Method: ",
                    hardest.rare,
                    pp(hardest.effect),
                    pct_interval_pp(hardest.effect_lo, hardest.effect_hi),
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
