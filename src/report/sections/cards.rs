//! The cards of each deck.

use super::{deck_groups, decks_by_strength};
use crate::report::document::*;
use crate::report::findings;
use crate::report::inputs::CardRow;
use crate::report::model::Model;

fn card_table(cards: &[&CardRow]) -> DocTable {
    DocTable {
        header: [
            "Card",
            "Copies",
            "Play rate",
            "Win rate when played",
            "Win rate when not played",
            "Games played",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![false, true, true, true, true, true],
        rows: cards
            .iter()
            .map(|c| {
                vec![
                    Rich::text(c.card.clone()),
                    Rich::text(c.copies.to_string()),
                    Rich::text(pct(c.play_rate)),
                    Rich::text(pct(c.win_rate_when_played)),
                    Rich::text(pct(c.win_rate_when_not_played)),
                    Rich::text(thousands(c.games_played)),
                ]
            })
            .collect(),
    }
}

pub(super) fn cards_section(m: &Model) -> Section {
    let mut blocks = Vec::new();
    if !m.has_cards {
        blocks.push(Block::Note(
            Rich::default()
                .t("This section needs ")
                .code("cards.parquet")
                .t(" (play rates and win rates per card), which is not in the run directory."),
        ));
        return Section {
            id: "cards".into(),
            title: "Cards".into(),
            blocks,
        };
    }
    blocks.push(Block::Paragraph(Rich::text(format!(
        "For the configuration with the fewest rares (all commons, when the run has it) of each deck and policy: how often each card was played (share of games with at least one copy played), and the win rate of the games in which it was, and was not, played; sorted by play rate, folded per deck and policy. A card played in more winning games is not necessarily stronger: cards drawn in long games are played more often. The key findings list the cards played in under {} of games.",
        pct(findings::RARELY_PLAYED)
    ))));
    for (stem, _) in decks_by_strength(m) {
        for g in deck_groups(m, &stem) {
            let c = m
                .configs
                .iter()
                .find(|c| c.config_id == g.cards_config)
                .expect("the cards configuration is in the summary");
            let summary = format!(
                "{}, {} (config {})",
                g.label(),
                if c.rare_count == 0 {
                    "all commons".to_string()
                } else {
                    plural(c.rare_count as usize, "rare", "rares")
                },
                c.config_id
            );
            let mut inner = Vec::new();
            if g.cards.is_empty() {
                inner.push(Block::Note(Rich::text(format!(
                    "cards.parquet has no rows for config {}.",
                    c.config_id
                ))));
            } else {
                for (side, title) in [
                    ("confluence", "Confluence cards"),
                    ("player", "Player's cards"),
                ] {
                    let rows: Vec<&CardRow> = g.cards.iter().filter(|c| c.side == side).collect();
                    inner.push(Block::Heading {
                        level: 4,
                        text: title.into(),
                    });
                    if rows.is_empty() {
                        inner.push(Block::Note(Rich::text("No rows.")));
                    } else {
                        inner.push(Block::Table(card_table(&rows)));
                    }
                }
            }
            blocks.push(Block::Details {
                summary,
                blocks: inner,
            });
        }
    }
    Section {
        id: "cards".into(),
        title: "Cards".into(),
        blocks,
    }
}
