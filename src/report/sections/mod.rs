//! Step 3: the model laid out as a [`Document`], section by section.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use super::document::*;
use super::findings;
use super::model::{Group, Model};
use super::skeleton::Page;
use super::svg;

mod cards;
mod comparison;
mod days;
mod rares;
mod win_rate;

use cards::cards_section;
use comparison::comparison_section;
use days::days_section;
use rares::rares_section;
use win_rate::{target_section, win_rate_section};

fn games_per_config(m: &Model) -> String {
    let min = m.configs.iter().map(|c| c.games).min().unwrap_or(0);
    let max = m.configs.iter().map(|c| c.games).max().unwrap_or(0);
    if min == max {
        format!("{} games per configuration", thousands(min))
    } else {
        format!(
            "{} to {} games per configuration",
            thousands(min),
            thousands(max)
        )
    }
}

fn lead(m: &Model) -> Rich {
    let decks: Vec<String> = m.decks.iter().map(|(_, name)| name.clone()).collect();
    let policies = m.policies.clone();
    let confluence = m.distinct(|c| c.confluence_deck.clone());
    let confluence = if confluence.iter().all(|c| c.is_empty()) {
        m.meta
            .as_ref()
            .and_then(|x| x.confluence_deck.clone())
            .unwrap_or_else(|| "the Confluence deck".into())
    } else {
        join_and(&confluence)
    };
    let min_r = m.configs.iter().map(|c| c.rare_count).min().unwrap_or(0);
    let max_r = m.configs.iter().map(|c| c.rare_count).max().unwrap_or(0);
    let rares = if min_r == max_r {
        format!(
            "with {} swapped in",
            plural(min_r as usize, "rare", "rares")
        )
    } else {
        format!("with {min_r} to {max_r} of its rares swapped in")
    };
    let seeds = m.distinct(|c| c.seed.to_string());
    let caps = m.distinct(|c| c.day_cap.to_string());
    let edits = m.meta.as_ref().map(|x| x.edits.clone()).unwrap_or_default();
    let edited = if edits.is_empty() {
        String::new()
    } else {
        format!(
            " The cards were changed by what-if edits (the card files were not): {}.",
            edits.join("; ")
        )
    };
    Rich::default()
        .t("This report covers ")
        .strong(thousands(m.total_games()))
        .t(format!(
            " simulated games of Altered Confluence: the player deck{} {} played by the {} {} against the Confluence deck ",
            if decks.len() == 1 { "" } else { "s" },
            join_and(&decks),
            join_and(&policies),
            if policies.len() == 1 { "policy" } else { "policies" },
        ))
        .strong(confluence)
        .t(format!(
            " {rares}, in {} ({}), seed {}, day cap {}.",
            plural(m.configs.len(), "configuration", "configurations"),
            games_per_config(m),
            seeds.join(", "),
            caps.join(", "),
        ))
        .t(edited)
}

fn metadata(m: &Model) -> Vec<Block> {
    let meta = m.meta.clone().unwrap_or_default();
    let unknown = || Rich::text("not recorded");
    let mut facts = Vec::new();
    let tool = match &meta.version {
        Some(v) => Rich::default().t(format!("confluence-sim {v}")),
        None => unknown(),
    };
    facts.push(("Simulator version".to_string(), tool));
    facts.push((
        "Git commit".to_string(),
        meta.git_commit
            .as_ref()
            .map_or_else(unknown, |c| Rich::default().code(c.clone())),
    ));
    facts.push((
        "Created".to_string(),
        meta.created.clone().map_or_else(unknown, Rich::text),
    ));
    if let Some(c) = &meta.command {
        facts.push(("Command".to_string(), Rich::default().code(c.clone())));
    }
    if let Some(e) = &meta.experiment {
        facts.push(("Experiment".to_string(), Rich::text(e.clone())));
    }
    if !meta.edits.is_empty() {
        facts.push((
            "What-if edits".to_string(),
            Rich::text(meta.edits.join("; ")),
        ));
    }
    let seeds = m.distinct(|c| c.seed.to_string());
    facts.push((
        "Seed".to_string(),
        Rich::text(meta.seed.clone().unwrap_or_else(|| seeds.join(", "))),
    ));
    facts.push((
        "Games".to_string(),
        Rich::text(match &meta.games {
            Some(g) => format!("{g} ({} games in all)", thousands(m.total_games())),
            None => format!(
                "{} ({} games in all)",
                games_per_config(m),
                thousands(m.total_games())
            ),
        }),
    ));
    let caps = m.distinct(|c| c.day_cap.to_string());
    facts.push((
        "Day cap".to_string(),
        Rich::text(meta.day_cap.clone().unwrap_or_else(|| caps.join(", "))),
    ));
    // Card coverage, per player deck.
    let decks = m.distinct(|c| c.player_deck.clone());
    let mut coverage = Vec::new();
    for d in &decks {
        let row = m
            .configs
            .iter()
            .find(|c| &c.player_deck == d)
            .expect("a listed deck has a row");
        let md = meta.decks.iter().find(|x| &x.deck == d);
        let not_exact = md
            .and_then(|x| x.not_exact)
            .unwrap_or(row.player_cards_not_exact);
        let cards = md.and_then(|x| x.cards);
        let what = match (not_exact, cards) {
            (0, Some(n)) => format!("all {n} cards fully encoded"),
            (0, None) => "every card fully encoded".to_string(),
            (k, Some(n)) => format!("{k} of {n} cards not fully encoded"),
            (k, None) => format!("{} not fully encoded", plural(k as usize, "card", "cards")),
        };
        let name = m
            .decks
            .iter()
            .find(|(stem, _)| stem == d)
            .map_or(d.clone(), |(stem, name)| format!("{name} ({stem})"));
        coverage.push(format!("{name}: {what}"));
    }
    facts.push(("Card coverage".to_string(), Rich::text(coverage.join("; "))));
    let mut files = vec!["summary.parquet".to_string()];
    for (has, name) in [
        (m.has_cards, "cards.parquet"),
        (m.has_rares, "rares.parquet"),
        (m.has_diffs, "diffs.parquet"),
        (m.meta.is_some(), "meta.json"),
    ] {
        if has {
            files.push(name.to_string());
        }
    }
    facts.push(("Files read".to_string(), Rich::text(files.join(", "))));
    let mut blocks = vec![Block::Facts(facts)];
    let failed: u64 = m.configs.iter().map(|c| c.engine_errors).sum();
    blocks.extend(engine_error_note(
        failed,
        "below",
        "summary.csv",
        "configuration",
    ));
    if m.meta.is_none() {
        blocks.push(Block::Note(
            Rich::text("No meta.json in the run directory: the version, commit and date of the run are not known; the other facts come from summary.parquet.")
        ));
    }
    blocks
}

/// The colour of a policy: its place among the run's policies (weakest first), the same in
/// every chart.
fn policy_color(m: &Model, policy: &str) -> &'static str {
    svg::color(m.policies.iter().position(|p| p == policy).unwrap_or(0))
}

/// The decks in the order the comparison shows them: by the strongest player policy's win
/// rate with the fewest rares, highest first (decks it did not play last, in run order).
fn decks_by_strength(m: &Model) -> Vec<(String, String)> {
    let key = |stem: &str| -> f64 {
        for p in m.players().into_iter().rev() {
            if let Some(g) = m.group(stem, p) {
                return g.fewest().rate.estimate;
            }
        }
        f64::NEG_INFINITY
    };
    let mut v = m.decks.clone();
    v.sort_by(|a, b| key(&b.0).total_cmp(&key(&a.0)));
    v
}

/// The groups of one deck, policies weakest first.
fn deck_groups<'a>(m: &'a Model, stem: &str) -> Vec<&'a Group> {
    m.policies.iter().filter_map(|p| m.group(stem, p)).collect()
}

/// Lays the model out as headings, paragraphs, tables and figures (with their charts):
/// the key findings first, then the charts that show them, the long tables folded, and
/// the run's metadata last.
pub fn page(m: &Model) -> Page {
    Page {
        title: "Confluence simulation report",
        lead: lead(m),
        findings: findings::findings(m),
        sections: vec![
            comparison_section(m),
            win_rate_section(m),
            target_section(m),
            rares_section(m),
            days_section(m),
            cards_section(m),
        ],
        run: metadata(m),
        source: "the run directory",
        methods: "Intervals are 95% Wilson score intervals (Wilson 1927; Brown, Cai & DasGupta 2001) unless a file gives its own.",
        warnings: m.warnings.clone(),
    }
}

/// The note a report adds when `failed` games ended on an engine error (none when 0):
/// they count in the figures `where_` (above or below) but do not follow the rules; `table`'s
/// `engine_errors` column counts them `per` row.
pub(crate) fn engine_error_note(
    failed: u64,
    where_: &str,
    table: &str,
    per: &str,
) -> Option<Block> {
    (failed > 0).then(|| {
        Block::Note(Rich::text(format!(
            "{} had an engine error (more reactions triggered at once than the engine queues, so some were never resolved): they are counted in the figures {where_} but do not follow the rules. `engine_errors` in {table} counts them per {per}.",
            plural(failed as usize, "game", "games")
        )))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Inputs;
    use crate::report::findings::tests::row;

    fn notes(summary: Vec<crate::report::ConfigRow>) -> String {
        let m = Model::build(
            &Inputs {
                dir: "x".into(),
                summary,
                cards: None,
                rares: None,
                diffs: None,
                meta: None,
            },
            0.4,
        );
        metadata(&m)
            .iter()
            .filter_map(|b| match b {
                Block::Note(r) => Some(r.plain()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn the_metadata_notes_engine_errors_only_when_some_game_had_one() {
        let clean = vec![row(0, "A", "greedy", 0, 500), row(1, "A", "greedy", 1, 400)];
        assert!(!notes(clean.clone()).contains("engine error"));
        let mut failed = clean;
        failed[1].engine_errors = 3;
        let n = notes(failed);
        assert!(n.contains("3 games had an engine error"), "{n}");
    }
}
