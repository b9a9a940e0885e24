//! The optimizer's outputs: the best deck as written and read back, the start and the best
//! deck measured on fresh games ([`Measured`]), and the tables `optimize` (the two decks)
//! and `trajectory` (the search's steps).
//!
//! Layer: part of [`crate::design`].

use std::path::Path;

use anyhow::{Context, Result};

use super::{MEASURE_FIRST, Step, StepKind};
use crate::cards::effect::CardIdx;
use crate::deck::swap;
use crate::deck::{ConfluenceDeck, PlayerDeck, RareMix};
use crate::design::bounds;
use crate::export::{ColumnData, Table};
use crate::job::summary::WinRateColumns;
use crate::stats::interval::{paired, wilson};

/// The columns of `optimize` and `trajectory`.
pub const OPTIMIZE_SCHEMA_VERSION: u32 = 1;

/// The best deck as `best_deck.txt` holds it (the community text format, `header` as its
/// comment lines), and read back as a player who loads that file plays it.
pub fn best_deck(
    hero: CardIdx,
    cards: &[CardIdx],
    header: &[String],
    lib: &crate::cards::Library,
) -> Result<(String, PlayerDeck)> {
    let text = swap::deck_text(hero, cards, &lib.db, header);
    let best = PlayerDeck::parse(&text, Path::new("best_deck.txt"), &lib.pool, &lib.db)
        .context("the best deck, read back")?;
    debug_assert!(
        best.violations(&lib.db).is_empty(),
        "the optimizer keeps decks legal"
    );
    Ok((text, best))
}

/// Rounds whose swap was kept, in every descent (a restart's kept swaps reach the best deck
/// only when its challenge is won).
pub fn kept(steps: &[Step]) -> usize {
    steps
        .iter()
        .filter(|s| s.kind == StepKind::Round && s.accepted)
        .count()
}

/// The start and the best deck on the measurement's games.
pub struct Measured {
    pub wins: [u64; 2],
    pub games: u64,
    /// Best minus start, paired: mean and standard error.
    pub diff: (f64, f64),
}

impl Measured {
    /// From [`super::measure`]'s games of the start and the best deck.
    pub fn new(m: &[Vec<bool>], games: u64) -> Measured {
        let w = |v: &Vec<bool>| v.iter().filter(|&&x| x).count() as u64;
        Measured {
            wins: [w(&m[0]), w(&m[1])],
            games,
            diff: paired(&m[0], &m[1]),
        }
    }
}

/// `optimize`: the start deck (read from `start_file`) and the best deck on the
/// measurement's games.
#[allow(clippy::too_many_arguments)]
pub fn measure_table(
    start_file: &Path,
    seed: u64,
    deck: &PlayerDeck,
    conf: &ConfluenceDeck,
    mix: RareMix,
    policy: &crate::policy::PolicySpec,
    m: &Measured,
    lib: &crate::cards::Library,
) -> Table {
    let db = &lib.db;
    let iv: Vec<_> = m.wins.iter().map(|&w| wilson(w, m.games, 0.95)).collect();
    let two = |s: String| ColumnData::Str(vec![s.clone(), s]);
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![OPTIMIZE_SCHEMA_VERSION; 2]),
    )
    .push("deck", ColumnData::Str(vec!["start".into(), "best".into()]))
    .push(
        "file",
        ColumnData::Str(vec![
            start_file.display().to_string(),
            "best_deck.txt".into(),
        ]),
    )
    .push("player_hero", two(db.card(deck.hero).name.clone()))
    .push("policy", two(policy.to_string()))
    .push("confluence_deck", two(conf.name.clone()))
    .push("rare_count", ColumnData::U32(vec![mix.count(); 2]))
    .push("rares", two(conf.mix_names(mix, db).join(";")))
    .push("games", ColumnData::U64(vec![m.games; 2]))
    .push("wins", ColumnData::U64(m.wins.to_vec()))
    .push_win_rates(&iv)
    .push("first_game", ColumnData::U64(vec![MEASURE_FIRST; 2]))
    .push(
        "end_game",
        ColumnData::U64(vec![MEASURE_FIRST + m.games; 2]),
    )
    .push("diff", ColumnData::F64(vec![0.0, m.diff.0]))
    // No interval (null) where the games show no variation, never a zero-width one.
    .push("diff_lo", ColumnData::F64(vec![0.0, bounds(m.diff).0]))
    .push("diff_hi", ColumnData::F64(vec![0.0, bounds(m.diff).1]))
    .push("seed", ColumnData::U64(vec![seed; 2]));
    t
}

/// `trajectory`: every step of the search.
pub fn trajectory_table(steps: &[Step], db: &crate::cards::CardDb) -> Table {
    let n = steps.len();
    let u64s = |f: &dyn Fn(&Step) -> u64| ColumnData::U64(steps.iter().map(f).collect());
    let f64s = |f: &dyn Fn(&Step) -> f64| ColumnData::F64(steps.iter().map(f).collect());
    // Win rates in the confirmation; a restart plays no game (missing values).
    let rate = |s: &Step, w: u64| {
        if s.confirm_games == 0 {
            f64::NAN
        } else {
            w as f64 / s.confirm_games as f64
        }
    };
    let diff = |s: &Step, k: f64| {
        if s.confirm_games == 0 {
            f64::NAN
        } else if k == 0.0 {
            s.diff.0
        } else if k < 0.0 {
            bounds(s.diff).0
        } else {
            bounds(s.diff).1
        }
    };
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![OPTIMIZE_SCHEMA_VERSION; n]),
    )
    .push(
        "step",
        ColumnData::U32(steps.iter().map(|s| s.step).collect()),
    )
    .push(
        "restart",
        ColumnData::U32(steps.iter().map(|s| s.restart).collect()),
    )
    .push(
        "kind",
        ColumnData::Str(steps.iter().map(|s| s.kind.name().to_string()).collect()),
    )
    .push(
        "swap",
        ColumnData::Str(
            steps
                .iter()
                .map(|s| {
                    s.swaps
                        .iter()
                        .map(|w| w.describe(db))
                        .collect::<Vec<_>>()
                        .join("; ")
                })
                .collect(),
        ),
    )
    .push(
        "candidates",
        ColumnData::U32(steps.iter().map(|s| s.candidates).collect()),
    )
    .push("games", u64s(&|s| s.games))
    .push("total_games", u64s(&|s| s.total_games))
    .push("first_game", u64s(&|s| s.first_game))
    .push("end_game", u64s(&|s| s.end_game))
    .push("confirm_games", u64s(&|s| s.confirm_games))
    .push("current_win_rate", f64s(&|s| rate(s, s.base_wins)))
    .push("candidate_win_rate", f64s(&|s| rate(s, s.wins)))
    .push(
        "estimate",
        f64s(&|s| rate(s, if s.accepted { s.wins } else { s.base_wins })),
    )
    .push("diff", f64s(&|s| diff(s, 0.0)))
    .push("diff_lo", f64s(&|s| diff(s, -1.0)))
    .push("diff_hi", f64s(&|s| diff(s, 1.0)))
    .push(
        "accepted",
        ColumnData::Bool(steps.iter().map(|s| s.accepted).collect()),
    );
    t
}
