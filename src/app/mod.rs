//! The command-line application: argument parsing, loading with clear errors, the
//! commands, and what they print. The only layer that knows clap and the terminal.
//!
//! Layer: may use every other module; none uses it (but `fuzz`).

mod bench;
mod booster_war;
mod cards;
pub mod cli;
mod compare;
mod disagree;
mod error;
pub mod experiment;
mod job;
mod ladder;
pub mod load;
pub(crate) mod matchup;
mod merge;
mod meta;
pub mod mixes;
mod outputs;
mod replay;
mod report;
mod run;
mod scenario;
mod shard;
pub mod spec;
pub mod summary;
mod train;
mod train_value;
mod tune;

use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command};
pub use error::{Usage, exit_code, is_usage, message, usage};

/// Runs the program; errors are printed as `confluence-sim: error: ...` and exit 1 (a bad
/// file or a failed run) or 2 (a bad flag value).
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(a) => run::run(a),
        Command::Cards(a) => cards::cards(a),
        Command::Replay(a) => replay::replay(a),
        Command::Scenario(a) => scenario::scenario(a),
        Command::Tune(a) => tune::tune(a),
        Command::Bench(a) => bench::bench(a),
        Command::Report(a) => report::report(a),
        Command::Ladder(a) => ladder::ladder(a),
        Command::Compare(a) => compare::compare(a),
        Command::Disagree(a) => disagree::disagree(a),
        Command::TrainExpert(a) => train::train(a),
        Command::TrainValue(a) => train_value::train_value(a),
        Command::Merge(a) => merge::merge(a),
        Command::Matchup(a) => matchup::matchup(a),
        Command::BoosterWar(a) => booster_war::booster_war(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A run stopped by a signal said what it kept.
            if let Some(run::Interrupted(sig)) = e.downcast_ref::<run::Interrupted>() {
                return ExitCode::from(128u8.saturating_add(*sig as u8));
            }
            // A closed pipe (e.g. `| head`) is not an error.
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("confluence-sim: error: {}", message(&e));
            ExitCode::from(exit_code(&e))
        }
    }
}
