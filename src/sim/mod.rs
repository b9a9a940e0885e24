//! Running games: seeds, one game, and the parallel runner. The only module that uses
//! rayon or derives seeds.
//!
//! Layer: may use `cards`, `deck`, `engine`, `policy`, `stats` and nothing else of the crate.

/// The version of the games: bumped whenever a change makes the same flags and seed play
/// other games (a rule, a card's encoding, a policy's choice, the order of a deck). Outputs
/// that later runs read back record it (`games_version` in a compare's meta.json), and
/// `compare --reuse` refuses games of another version: they would not be this binary's.
/// `tests/games_version.rs` pins a fingerprint of a few hundred games beside it, and a hash
/// of every card's encoding and facts (the starters' games play few of the pool's cards),
/// so that a change of the games cannot land without a bump. 1: until 2026-11-29 (and
/// every output that does not record it); 2: a deck in canonical order, solo Rest in initiative order,
/// Sakarabru's Fury (common) and the hostile "target Expedition" of greedy and planner;
/// 3: the Skybound Lucans as printed (`repeat any`), which changes a training deck's games
/// and so the committed models retrained on them (with it, what changed the CORE Booster
/// War's games after version 2 without a bump, most likely encodings of cards no starter
/// plays: the hash came after).
pub const GAMES_VERSION: u32 = 3;

pub mod booster_war;
pub mod duel;
pub mod ffa;
pub mod game;
pub mod matchup;
pub mod runner;
pub mod seed;
pub mod state;
pub mod tally;

pub use game::{GameResult, finish_game, play_game, play_watched, start_game};
pub use runner::{
    ConfigSpec, GameRow, RunPlan, RunResult, Stop, Unit, Units, run, run_order, run_units,
};
pub use seed::GameSeeds;
