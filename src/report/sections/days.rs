//! How long games last: the day games end on, and how they end.

use super::{deck_groups, decks_by_strength};
use crate::report::document::*;
use crate::report::model::{Group, Model, Outcomes};
use crate::report::svg;

fn days_cell(g: &Group) -> Vec<Block> {
    let fewest_n = g.fewest().rare_count;
    let (mut low, mut high) = (0, 0);
    let series: Vec<svg::HistSeries> = g
        .day_series
        .iter()
        .map(|s| {
            let color = if s.rare_count == fewest_n {
                low += 1;
                svg::LOW_COLORS[(low - 1) % svg::LOW_COLORS.len()]
            } else {
                high += 1;
                svg::HIGH_COLORS[(high - 1) % svg::HIGH_COLORS.len()]
            };
            svg::HistSeries {
                name: s.label.clone(),
                color,
                config_ids: s.config_ids.clone(),
                counts: s.histogram.clone(),
                games: s.outcomes.games,
            }
        })
        .collect();
    let title = format!("Day the game ended: {}", g.label());
    let chart = Chart {
        file: format!("days_{}.svg", g.number),
        svg: svg::day_histogram(&title, &series),
        title,
    };
    let pooled_mixes = g
        .day_series
        .iter()
        .filter(|s| s.rare_count > 0 && s.mixes.len() > 1)
        .count();
    let caption = Rich::text(if pooled_mixes == 0 {
        "Bars: share of games that ended on each day.".to_string()
    } else {
        "Bars: share of games that ended on each day; several mixes with the same number of rares are pooled or shown side by side.".to_string()
    });
    let mut blocks = vec![Block::Figure { chart, caption }];
    type Count = fn(&Outcomes) -> u64;
    let outcome_rows: [(&str, Count); 9] = [
        ("Won", |o| o.wins()),
        ("…by meeting the expeditions", |o| o.wins_expeditions_met),
        ("…by Confluence deck-out", |o| o.wins_confluence_deck_out),
        ("…by a card's ability", |o| o.wins_by_card),
        ("Lost", |o| o.losses()),
        ("…to the hero's Darkness", |o| o.losses_hero_darkness),
        ("…to the companion's Darkness", |o| {
            o.losses_companion_darkness
        }),
        ("…to a card's ability", |o| o.losses_by_card),
        ("Stopped at the day cap", |o| o.day_caps),
    ];
    // The card-ability rows only where some game ended so (Lyra Festival).
    let by_card = |o: &Outcomes| o.wins_by_card + o.losses_by_card;
    let any_by_card = g.day_series.iter().any(|s| by_card(&s.outcomes) > 0);
    let mut rows = vec![
        std::iter::once(Rich::text("Games"))
            .chain(
                g.day_series
                    .iter()
                    .map(|s| Rich::text(thousands(s.outcomes.games))),
            )
            .collect::<Vec<_>>(),
    ];
    for (label, get) in outcome_rows {
        if label.contains("card's ability") && !any_by_card {
            continue;
        }
        rows.push(
            std::iter::once(Rich::text(label))
                .chain(
                    g.day_series
                        .iter()
                        .map(|s| Rich::text(share(get(&s.outcomes), s.outcomes.games))),
                )
                .collect(),
        );
    }
    blocks.push(Block::Table(DocTable {
        header: std::iter::once("Outcome".to_string())
            .chain(g.day_series.iter().map(|s| s.label.clone()))
            .collect(),
        numeric: std::iter::once(false)
            .chain(g.day_series.iter().map(|_| true))
            .collect(),
        rows,
    }));
    let caps: u64 = g.day_series.iter().map(|s| s.outcomes.day_caps).sum();
    if caps > 0 {
        blocks.push(Block::Note(Rich::text(format!(
            "{} stopped at the day cap without a result; they count as neither wins nor losses, and the win rate counts them as not won.",
            plural(caps as usize, "game", "games")
        ))));
    }
    blocks
}

pub(super) fn days_section(m: &Model) -> Section {
    let mut blocks = vec![Block::Paragraph(Rich::text(
        "The day on which games ended, as a share of each configuration's games, with the fewest and with the most rares side by side, and how the games ended: one chart and table per deck and policy, folded below.",
    ))];
    let mut summary = Vec::new();
    for (stem, _) in decks_by_strength(m) {
        for g in deck_groups(m, &stem) {
            summary.push(vec![
                Rich::text(g.deck_name.clone()),
                Rich::text(g.policy.clone()),
                Rich::text(format!("{:.2}", g.days_mean_fewest)),
                Rich::text(
                    g.most()
                        .map_or("—".into(), |_| format!("{:.2}", g.days_mean_most)),
                ),
            ]);
        }
    }
    let cells: Vec<Vec<Block>> = decks_by_strength(m)
        .iter()
        .flat_map(|(stem, _)| deck_groups(m, stem))
        .map(days_cell)
        .collect();
    blocks.push(Block::Details {
        summary: format!(
            "Mean days, and the day histograms of the {}",
            plural(m.groups.len(), "deck and policy", "decks and policies")
        ),
        blocks: vec![
            Block::Table(DocTable {
                header: [
                    "Deck",
                    "Policy",
                    "Mean days, fewest rares",
                    "Mean days, most rares",
                ]
                .map(String::from)
                .to_vec(),
                numeric: vec![false, false, true, true],
                rows: summary,
            }),
            Block::Grid(cells),
        ],
    });
    Section {
        id: "days".into(),
        title: "How long games last".into(),
        blocks,
    }
}
