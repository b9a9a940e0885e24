//! What a run needs (`Job`, from flags or a file) and the pieces every command that plays
//! games shares: worker threads, the progress bar, game totals and the summary table.
//! Below the commands: it uses no command file.
//!
//! Layer: part of [`crate::job`].

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::config::Play;
use super::load::Loaded;
use super::shard::Shard;
use crate::deck::RareMix;
use crate::export::{ColumnData, Table};
use crate::stats::Accum;
use crate::stats::interval::wilson;

/// How many games each configuration plays.
#[derive(Clone, Debug, PartialEq)]
pub enum GamesRule {
    Fixed(u64),
    /// Batches until every configuration's 95% half-width is at most `half_width`, or each
    /// configuration has played `max` games.
    Precision {
        half_width: f64,
        max: u64,
        batch: u64,
    },
}

/// Everything a run needs, from flags or from an experiment file.
pub struct Job {
    pub loaded: Loaded,
    pub mixes: Vec<RareMix>,
    pub games: GamesRule,
    pub seed: u64,
    pub day_cap: u8,
    pub out: PathBuf,
    pub threads: usize,
    pub per_game: bool,
    pub quiet: bool,
    pub experiment: Option<String>,
    /// The decks, policies and card data the job was loaded from (recorded so that a
    /// resumed run, a shard and a merge can check and reload them).
    pub source: Play,
    /// Play only this slice of every configuration's games.
    pub shard: Option<Shard>,
}

impl Job {
    /// A configuration in the words `replay` takes: deck, policy, mix index and seed.
    pub fn config_name(&self, c: &crate::sim::ConfigSpec) -> String {
        let mix = self.mixes.iter().position(|&m| m == c.mix).unwrap_or(0);
        format!(
            "player deck {}, policy {}, --mix-index {mix}, --seed {}",
            self.loaded.players[c.player].name, self.loaded.policies[c.policy], self.seed
        )
    }

    /// Prints [`engine_error_note`] for these configurations, if any game failed.
    pub fn warn_engine_errors(&self, configs: &[crate::sim::ConfigSpec], accums: &[Accum]) {
        if let Some(note) = engine_error_note(accums, "summary", |i| self.config_name(&configs[i]))
        {
            eprintln!("confluence-sim: {note}");
        }
    }
}

pub fn progress_bar(total: u64, quiet: bool) -> ProgressBar {
    styled_bar(
        total,
        quiet,
        "{bar:40} {pos}/{len} games ({rate}, eta {eta})",
    )
}

/// [`progress_bar`] followed by a message the command updates (`optimize`: the best deck so
/// far).
pub fn progress_bar_with_message(total: u64, quiet: bool) -> ProgressBar {
    styled_bar(
        total,
        quiet,
        "{bar:40} {pos}/{len} games ({rate}, eta {eta}) {msg}",
    )
}

fn styled_bar(total: u64, quiet: bool, template: &str) -> ProgressBar {
    let pb = ProgressBar::new(total);
    if quiet || !std::io::stderr().is_terminal() {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        pb.set_style(
            ProgressStyle::with_template(template)
                .expect("valid template")
                // Whole games per second ("47,021 games/s"), not indicatif's "47020.5996/s".
                .with_key(
                    "rate",
                    |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(
                            w,
                            "{} games/s",
                            crate::report::thousands(state.per_sec().round() as u64)
                        );
                    },
                ),
        );
    }
    pb
}

/// The widest 95% half-width of the win rate over these configurations.
pub fn widest_half_width(accums: &[Accum]) -> f64 {
    accums
        .iter()
        .map(|a| {
            let i = wilson(a.won(), a.games, 0.95);
            (i.hi - i.lo) / 2.0
        })
        .fold(0.0, f64::max)
}

/// The warning that names the games in which the engine failed (more reactions triggered
/// at once than its queue holds; see `sim::GameResult::engine_error`), or `None` when no
/// game did. `name` describes a configuration by its index. The first game named is the
/// lowest-index failed game of the first configuration that has one, the same however the
/// run was split into threads, shards or resumed parts. `table` is the output table whose
/// `engine_errors` column counts them.
pub fn engine_error_note(
    accums: &[Accum],
    table: &str,
    name: impl Fn(usize) -> String,
) -> Option<String> {
    let total: u64 = accums.iter().map(|a| a.engine_errors).sum();
    let (c, a) = accums
        .iter()
        .enumerate()
        .find(|(_, a)| a.engine_errors > 0)?;
    let game = a.first_engine_error().expect("it has errors");
    Some(format!(
        "warning: {total} game(s) had an engine error (more reactions triggered at once than the engine queues, so some were never resolved): they are counted in their outcomes but do not follow the rules; `engine_errors` in {table} counts them per configuration. The first: game {game} of configuration {c} ({}); replay it with `--game-index {game}`",
        name(c)
    ))
}

/// The most worker threads a run may ask for: far above any machine's useful count, low
/// enough that a typo (`--threads 10000`) cannot exhaust the machine.
pub const MAX_THREADS: usize = 256;

/// `--threads`, or all cores: 0 or more than [`MAX_THREADS`] is a usage error; more than
/// the machine's cores is allowed with a warning (results do not depend on it).
pub fn default_threads(t: Option<usize>) -> Result<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let Some(threads) = t else {
        return Ok(cores.min(MAX_THREADS));
    };
    if threads == 0 || threads > MAX_THREADS {
        return Err(super::error::usage(format!(
            "--threads {threads}: expected 1 to {MAX_THREADS} worker threads (this machine has {cores} core(s))"
        )));
    }
    if threads > cores {
        eprintln!(
            "confluence-sim: warning: --threads {threads} is more than the {cores} core(s) of this machine; the results are the same, the run is not faster"
        );
    }
    Ok(threads)
}

/// Games per configuration × configurations, or an error when the product does not fit in
/// 64 bits (`--games 18446744073709551615` with a sweep).
pub fn total_games(per_config: u64, configs: usize) -> Result<u64, String> {
    per_config.checked_mul(configs as u64).ok_or_else(|| {
        format!(
            "{per_config} games per configuration x {configs} configurations is more than {} games in all",
            u64::MAX
        )
    })
}

pub fn print_summary(t: &Table) {
    let get_s = |n: &str| match t.column(n) {
        Some(ColumnData::Str(v)) => v.clone(),
        _ => vec![],
    };
    let get_f = |n: &str| match t.column(n) {
        Some(ColumnData::F64(v)) => v.clone(),
        _ => vec![],
    };
    let get_u = |n: &str| match t.column(n) {
        Some(ColumnData::U32(v)) => v.iter().map(|&x| x as u64).collect(),
        Some(ColumnData::U64(v)) => v.clone(),
        _ => vec![],
    };
    let (stem, hero) = (get_s("player_deck"), get_s("player_hero"));
    let (policy, mix) = (get_s("policy"), get_s("rare_mix"));
    // Decks by hero, as the report names them (with the file stem where two share one).
    let pairs: Vec<(String, String)> = stem.iter().cloned().zip(hero.iter().cloned()).collect();
    let names = crate::report::deck_names(&pairs);
    let deck: Vec<&String> = stem.iter().map(|s| &names[s]).collect();
    let (rate, lo, hi, days) = (
        get_f("win_rate"),
        get_f("win_rate_lo"),
        get_f("win_rate_hi"),
        get_f("days_mean"),
    );
    let (rares, games) = (get_u("rare_count"), get_u("games"));
    // Columns as wide as their widest value (a long policy spec, a long deck name); a long
    // rare mix by a label, named in full under the table.
    let dw = super::summary::width("player deck", deck.iter().map(|s| s.as_str())).max(28);
    let pw = super::summary::width("policy", policy.iter().map(|s| s.as_str())).max(8);
    let (mixes, legend) = super::summary::mix_labels(&mix, 40);
    println!(
        "{:<dw$} {:<pw$} {:>5} {:>8} {:>8} {:>17} {:>5}  rares",
        "player deck", "policy", "rares", "games", "win", "95% interval", "days"
    );
    for i in 0..t.rows() {
        println!(
            "{:<dw$} {:<pw$} {:>5} {:>8} {:>7.1}% [{:>5.1}%, {:>5.1}%] {:>5.1}  {}",
            deck[i],
            policy[i],
            rares[i],
            games[i],
            rate[i] * 100.0,
            lo[i] * 100.0,
            hi[i] * 100.0,
            days[i],
            mixes[i]
        );
    }
    if !legend.is_empty() {
        println!("rare mixes:");
        for l in legend {
            println!("  {l}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::accum::GameTally;

    fn with_errors(games: &[u64]) -> Accum {
        let mut a = Accum::default();
        for &g in games {
            a.push(&GameTally {
                outcome: 0,
                win: true,
                days: 4,
                played: [0; 2],
                plays: [0; 2],
                engine_error: Some(g),
            });
        }
        a
    }

    #[test]
    fn the_engine_error_note_names_the_count_and_the_first_failed_game() {
        let name = |i: usize| format!("config {i}");
        assert_eq!(
            engine_error_note(&vec![Accum::default(); 3], "summary", name),
            None
        );
        let accums = [Accum::default(), with_errors(&[90, 12]), with_errors(&[5])];
        let note = engine_error_note(&accums, "summary", name).expect("a note");
        assert!(note.contains("3 game(s) had an engine error"), "{note}");
        assert!(
            note.contains("game 12 of configuration 1 (config 1)"),
            "{note}"
        );
        assert!(note.contains("--game-index 12"), "{note}");
    }
}

/// The closing line's count and speed: `N games in T s (S games/s on K thread(s))` for a run
/// that played its games now; a resumed run counts the games it found in its checkpoint
/// apart and gives the speed of those it played (none played: no speed, never "0 games/s").
pub fn games_and_speed(total: u64, played: u64, elapsed: f64, threads: usize) -> String {
    let kept = total.saturating_sub(played);
    if kept == 0 {
        format!(
            "{total} games in {elapsed:.1}s ({:.0} games/s on {threads} thread(s))",
            played as f64 / elapsed.max(1e-9)
        )
    } else if played == 0 {
        format!("{total} games, all from the checkpoint (none left to play)")
    } else {
        format!(
            "{total} games ({kept} from the checkpoint; {played} played now in {elapsed:.1}s, {:.0} games/s on {threads} thread(s))",
            played as f64 / elapsed.max(1e-9)
        )
    }
}

#[cfg(test)]
mod speed_tests {
    use super::games_and_speed;

    #[test]
    fn a_resumed_run_gives_the_speed_of_the_games_it_played() {
        assert_eq!(
            games_and_speed(600, 600, 2.0, 2),
            "600 games in 2.0s (300 games/s on 2 thread(s))"
        );
        assert_eq!(
            games_and_speed(600, 200, 2.0, 2),
            "600 games (400 from the checkpoint; 200 played now in 2.0s, 100 games/s on 2 thread(s))"
        );
        let none = games_and_speed(600, 0, 0.1, 2);
        assert_eq!(
            none,
            "600 games, all from the checkpoint (none left to play)"
        );
        assert!(!none.contains("games/s"));
    }
}
