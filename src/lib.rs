//! # confluence-sim
//!
//! A Monte Carlo simulator for *Altered Confluence*, the fan-made solo mode of the Altered
//! trading card game: a player deck races an automated 55-card Confluence deck.
//!
//! Modules, from the bottom up; each uses only modules above it in this list (its own doc
//! comment names them), so the rules know nothing of policies, policies nothing of the
//! runner, and only [`app`] knows the command line:
//!
//! - [`error`]: the library's error types (every message names file, line and value);
//! - [`cards`]: the card pool (facts), the effect language and the compiled card table;
//! - [`suggest`]: "did you mean": the closest known card or rare name;
//! - [`deck`]: player decks, Confluence decks and Booster War boosters;
//! - [`engine`]: the rules as a resumable state machine with no I/O;
//! - [`policy`]: player policies, functions of what the player can see;
//! - [`gamelog`]: the readable and JSON Lines game log (`replay`, `scenario`);
//! - [`scenario`]: scenario files: a position, steps and expectations;
//! - [`stats`]: accumulators, intervals, regressions and the Plackett–Luce fit (Bradley–Terry with tables of two);
//! - [`sim`]: seeding, one game and the parallel runners, checkpoints and shards;
//! - [`export`]: the table model, CSV and Parquet, the atomic output directory;
//! - [`analysis`]: the per-card, paired-difference and rare-effect tables of a run;
//! - [`report`]: the HTML and Markdown reports with SVG charts, from a run's files;
//! - [`job`]: the run layer: a run's configuration as plain data, loading, planning,
//!   shards, checkpoints, merge and the outputs, free of the command line;
//! - [`design`]: the design algorithms (`tune`, `sensitivity` with its racing, `optimize`),
//!   plain configuration in and plain results out;
//! - [`app`]: the command-line interface;
//! - [`fuzz`]: the parsers' fuzzing entry points (`fuzz/`, `tests/fuzz_smoke.rs`).
//!
//! Playing one game from Rust: `examples/one_game.rs`, shown in `docs/development.md`.

pub mod analysis;
pub mod app;
pub mod cards;
pub mod deck;
pub mod design;
pub mod engine;
pub mod error;
pub mod export;
pub mod fuzz;
pub mod gamelog;
pub mod job;
pub mod policy;
pub mod record;
pub mod report;
pub mod scenario;
pub mod sim;
pub mod stats;
pub mod suggest;
