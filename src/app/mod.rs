//! The command-line application: argument parsing, loading with clear errors, the
//! commands, and what they print. The only layer that knows clap and the terminal.

mod bench;
mod booster_war;
mod cards;
pub mod cli;
mod compare;
mod disagree;
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
mod tune;

use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command};

/// A bad flag value (or a bad combination of flags): printed like any other error, but the
/// program exits 2, as clap does for its own usage errors (README, "Exit codes").
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// A usage error (exit code 2) with this message.
pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Usage(msg.into()))
}

/// Whether an error is a usage error (exit code 2) rather than a bad file or a failed run.
pub fn is_usage(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.is::<Usage>())
}

/// The message of an error and its causes, `outer: inner: ...`, each cause once: a cause
/// whose text the message already holds (an I/O error that its wrapper prints itself) is
/// not repeated.
pub fn message(e: &anyhow::Error) -> String {
    let mut msg = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if text.is_empty() || msg.contains(&text) {
            continue;
        }
        if !msg.is_empty() {
            msg.push_str(": ");
        }
        msg.push_str(&text);
    }
    msg
}

/// The exit code of an error: 2 for a usage error, 1 for a bad file or a failed run.
pub fn exit_code(e: &anyhow::Error) -> u8 {
    if is_usage(e) { 2 } else { 1 }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cause_already_in_the_message_is_not_repeated() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let e = anyhow::Error::new(crate::error::DeckError::Io {
            path: "x.txt".into(),
            source: io,
        })
        .context("loading x");
        assert_eq!(message(&e), "loading x: x.txt: No such file");
        assert_eq!(exit_code(&e), 1);
    }

    #[test]
    fn usage_errors_exit_2_even_under_context() {
        let e = usage("--games 0: expected at least 1").context("run");
        assert_eq!(exit_code(&e), 2);
        assert_eq!(message(&e), "run: --games 0: expected at least 1");
    }
}
