//! Running games: seeds, one game, and the parallel runner. The only module that uses
//! rayon or derives seeds.
//!
//! Layer: may use `cards`, `deck`, `engine`, `policy`, `stats` and nothing else of the crate.

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
