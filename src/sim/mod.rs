//! Running games: seeds, one game, and the parallel runner. The only module that uses
//! rayon or derives seeds.

pub mod game;
pub mod runner;
pub mod seed;

pub use game::{GameResult, play_game};
pub use runner::{ConfigSpec, GameRow, RunPlan, RunResult, run};
pub use seed::GameSeeds;
