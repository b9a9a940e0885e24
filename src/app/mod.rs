//! The command-line application: argument parsing and the commands, each of which turns
//! its flags into the run layer's configuration ([`crate::job`]), calls it, and prints. The
//! only layer that knows clap.
//!
//! Layer: may use every other module; none uses it.

mod bench;
mod booster_war;
mod calibrate;
mod cards;
pub mod cli;
mod compare;
mod disagree;
mod ffa;
mod ladder;
mod matchup;
mod merge;
mod optimize;
mod play;
mod records;
mod replay;
mod report;
mod run;
mod scenario;
mod selfplay;
mod sensitivity;
mod terminal;
mod train;
mod train_policy;
mod train_value;
mod tune;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::job::error::{exit_code, message};
use cli::{Cli, Command};

/// Runs the program; errors are printed as `confluence-sim: error: ...` and exit 1 (a bad
/// file or a failed run) or 2 (a bad flag value).
pub fn main() -> ExitCode {
    let cli = parse_cli();
    let result = match cli.command {
        Command::Run(a) => run::run(a),
        Command::Cards(a) => cards::cards(a),
        Command::Replay(a) => replay::replay(a),
        Command::Calibrate(a) => calibrate::calibrate(a),
        Command::Scenario(a) => scenario::scenario(a),
        Command::Tune(a) => tune::tune(a),
        Command::Bench(a) => bench::bench(a),
        Command::Report(a) => report::report(a),
        Command::Ladder(a) => ladder::ladder(a),
        Command::Compare(a) => compare::compare(a),
        Command::Sensitivity(a) => sensitivity::sensitivity(a),
        Command::Disagree(a) => disagree::disagree(a),
        Command::TrainExpert(a) => train::train(a),
        Command::TrainValue(a) => train_value::train_value(a),
        Command::TrainPolicy(a) => train_policy::train_policy(a),
        Command::Merge(a) => match crate::job::shard::merged_kind(&a.shards).as_str() {
            "matchup" => matchup::merge(a),
            "booster-war" => booster_war::merge(a),
            "ffa" => ffa::merge(a),
            _ => merge::merge(a),
        },
        Command::Matchup(a) => matchup::matchup(a),
        Command::BoosterWar(a) => booster_war::booster_war(a),
        Command::Optimize(a) => optimize::optimize(a),
        Command::Ffa(a) => ffa::ffa(a),
        Command::Play(a) => play::play(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A run stopped by a signal said what it kept.
            if let Some(crate::job::checkpoint::Interrupted(sig)) =
                e.downcast_ref::<crate::job::checkpoint::Interrupted>()
            {
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

/// The command line, parsed. A negative number (`--games -1`) is read as a value, not as a
/// flag, so that a count refuses it with "must be ≥ 0" rather than clap's "unexpected
/// argument '-1'"; flags that take negative numbers (edits, thresholds) still get them.
fn parse_cli() -> Cli {
    let mut cmd = negatives_as_values(Cli::command());
    let parsed = cmd
        .try_get_matches_from_mut(std::env::args_os())
        .and_then(|m| Cli::from_arg_matches(&m));
    match parsed {
        Ok(cli) => cli,
        Err(e) => negative_count(&e)
            .map(|msg| clap::Error::raw(clap::error::ErrorKind::ValueValidation, msg))
            .unwrap_or(e)
            .format(&mut cmd)
            .exit(),
    }
}

/// Every argument that takes a value, in every subcommand, accepts a negative number.
fn negatives_as_values(mut cmd: clap::Command) -> clap::Command {
    let ids: Vec<String> = cmd
        .get_arguments()
        .filter(|a| a.get_action().takes_values())
        .map(|a| a.get_id().to_string())
        .collect();
    for id in ids {
        cmd = cmd.mut_arg(id, |a| a.allow_negative_numbers(true));
    }
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in subs {
        cmd = cmd.mut_subcommand(name, negatives_as_values);
    }
    cmd
}

/// "--games -1: must be ≥ 0" for a negative number given to an unsigned count (clap's own
/// words are "invalid digit found in string").
fn negative_count(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let value = match e.get(ContextKind::InvalidValue)? {
        ContextValue::String(v) => v.clone(),
        _ => return None,
    };
    let negative = value.strip_prefix('-')?.parse::<f64>().is_ok();
    let unsigned = std::error::Error::source(e)
        .is_some_and(|s| s.to_string() == "invalid digit found in string");
    if !(negative && unsigned) {
        return None;
    }
    let arg = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(a)) => a.split(' ').next().unwrap_or(a).to_string(),
        _ => "the value".into(),
    };
    Some(format!("{arg} {value}: must be ≥ 0\n"))
}

#[cfg(test)]
mod tests {
    /// The command files, one per subcommand, on top.
    const COMMANDS: [&str; 21] = [
        "bench",
        "booster_war",
        "calibrate",
        "cards",
        "compare",
        "disagree",
        "ffa",
        "ladder",
        "matchup",
        "merge",
        "optimize",
        "play",
        "replay",
        "report",
        "run",
        "scenario",
        "sensitivity",
        "train",
        "train_policy",
        "train_value",
        "tune",
    ];
    /// The modules below them, which they share (the run layer, loading, experiment files,
    /// checkpoints, shards and outputs, is `crate::job`).
    const SHARED: [&str; 5] = ["cli", "mod", "records", "selfplay", "terminal"];

    /// The sibling modules a file of src/app names through `super::`.
    fn uses(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (i, _) in text.match_indices("super::") {
            let rest = &text[i + 7..];
            let items: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                group[..group.find('}').unwrap_or(group.len())]
                    .split(',')
                    .collect()
            } else {
                vec![rest]
            };
            for item in items {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                out.push(name);
            }
        }
        out
    }

    #[test]
    fn no_command_file_uses_another_and_shared_modules_use_none() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter_map(|n| n.strip_suffix(".rs").map(String::from))
            .collect();
        files.sort();
        for f in &files {
            assert!(
                COMMANDS.contains(&f.as_str()) != SHARED.contains(&f.as_str()),
                "src/app/{f}.rs: say whether it is a command or a shared module"
            );
            let text = std::fs::read_to_string(dir.join(format!("{f}.rs"))).unwrap();
            for used in uses(&text) {
                assert!(
                    used == *f || !COMMANDS.contains(&used.as_str()) || *f == "mod",
                    "src/app/{f}.rs uses the command file {used}.rs: move what they share below the commands"
                );
            }
        }
    }
}
