//! # confluence-sim
//!
//! A Monte Carlo simulator for *Altered Confluence*, the fan-made solo mode of the Altered
//! trading card game: a player deck races an automated 55-card Confluence deck.
//!
//! Layers, each depending only on those above it:
//!
//! - [`cards`]: the card pool (facts), the effect language and the compiled card table;
//! - [`deck`]: player decks and Confluence decks;
//! - [`engine`]: the rules as a resumable state machine with no I/O;
//! - [`policy`]: player policies, pure functions of what the player can see;
//! - [`sim`]: seeding and the parallel runner;
//! - [`stats`]: accumulators and intervals;
//! - [`export`]: CSV and Parquet;
//! - [`report`]: the HTML and Markdown report with SVG charts, from a run's outputs;
//! - [`app`]: the command-line interface;
//! - [`fuzz`]: the parsers' fuzzing entry points (`fuzz/`, `tests/fuzz_smoke.rs`).

pub mod analysis;
pub mod app;
pub mod cards;
pub mod deck;
pub mod engine;
pub mod error;
pub mod export;
pub mod fuzz;
pub mod gamelog;
pub mod policy;
pub mod report;
pub mod scenario;
pub mod sim;
pub mod stats;
pub mod suggest;
