//! `confluence-sim run`: from flags or an experiment file to a job, then the job to outputs.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::cli::RunArgs;
use super::experiment;
use super::load::{self, Loaded};
use super::meta;
use super::mixes;
use super::summary::{RunMeta, summary_table};
use crate::analysis::{RunData, cards_table, diffs_table, rares_table};
use crate::deck::RareMix;
use crate::export::parquet::BatchWriter;
use crate::export::{ColumnData, OutputSet, Table};
use crate::sim::{ConfigSpec, GameRow, RunPlan};
use crate::stats::Accum;
use crate::stats::interval::{games_for_half_width, wilson};

pub const GAMES_SCHEMA_VERSION: u32 = 1;

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
}

fn games_table(rows: &[GameRow]) -> Table {
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![GAMES_SCHEMA_VERSION; rows.len()]),
    )
    .push(
        "config_id",
        ColumnData::U32(rows.iter().map(|r| r.config).collect()),
    )
    .push(
        "game_index",
        ColumnData::U64(rows.iter().map(|r| r.game).collect()),
    )
    .push(
        "game_seed",
        ColumnData::U64(rows.iter().map(|r| r.seed).collect()),
    )
    .push(
        "result",
        ColumnData::Str(
            rows.iter()
                .map(|r| r.outcome.result().to_string())
                .collect(),
        ),
    )
    .push(
        "cause",
        ColumnData::Str(rows.iter().map(|r| r.outcome.cause().to_string()).collect()),
    )
    .push(
        "days",
        ColumnData::U32(rows.iter().map(|r| r.days as u32).collect()),
    )
    .push(
        "player_plays",
        ColumnData::U32(rows.iter().map(|r| r.player_plays as u32).collect()),
    )
    .push(
        "confluence_plays",
        ColumnData::U32(rows.iter().map(|r| r.confluence_plays as u32).collect()),
    );
    t
}

pub fn progress_bar(total: u64, quiet: bool) -> ProgressBar {
    let pb = ProgressBar::new(total);
    if quiet || !std::io::stderr().is_terminal() {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        pb.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games ({per_sec}, eta {eta})")
                .expect("valid template"),
        );
    }
    pb
}

/// The widest 95% half-width of the win rate over these configurations.
pub fn widest_half_width(accums: &[Accum]) -> f64 {
    accums
        .iter()
        .map(|a| {
            let i = wilson(a.outcomes[0] + a.outcomes[1], a.games, 0.95);
            (i.hi - i.lo) / 2.0
        })
        .fold(0.0, f64::max)
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
        return Err(super::usage(format!(
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

pub fn run(a: RunArgs) -> Result<()> {
    let job = match &a.experiment {
        Some(path) => experiment::job(path, &a)?,
        None => {
            let loaded = load::load(&a.m)?;
            let mixes = mixes::mixes(
                &loaded.confluence,
                &loaded.lib.db,
                &a.m.rares,
                &a.m.rare_sets,
                a.m.subsets,
                a.seed,
            )?;
            let games = a.games.unwrap_or_else(|| games_for_half_width(0.01, 0.95));
            let configs = loaded.players.len() * loaded.policies.len() * mixes.len();
            total_games(games, configs)
                .map_err(|e| super::usage(format!("--games {games}: {e}")))?;
            Job {
                loaded,
                mixes,
                games: GamesRule::Fixed(games),
                seed: a.seed,
                day_cap: a.m.day_cap,
                out: a.out.clone(),
                threads: default_threads(a.threads)?,
                per_game: a.per_game,
                quiet: a.quiet,
                experiment: None,
            }
        }
    };
    execute(job)
}

/// Runs a job and writes all its outputs.
pub fn execute(job: Job) -> Result<()> {
    let loaded = &job.loaded;
    for w in &loaded.warnings {
        eprintln!("confluence-sim: warning: {w}");
    }
    for deck in &loaded.players {
        let n = load::non_exact(&loaded.lib, deck);
        if n > 0 {
            eprintln!(
                "confluence-sim: warning: {} holds {n} card(s) whose abilities are not fully encoded; they play with what is encoded (see `confluence-sim cards coverage`)",
                deck.path.display()
            );
        }
    }
    let mut configs = Vec::new();
    for player in 0..loaded.players.len() {
        for policy in 0..loaded.policies.len() {
            for &mix in &job.mixes {
                configs.push(ConfigSpec {
                    player,
                    policy,
                    mix,
                });
            }
        }
    }
    // The progress total, checked before anything is written.
    let per_config = match job.games {
        GamesRule::Fixed(g) => g,
        GamesRule::Precision { max, .. } => max,
    };
    let total_hint = total_games(per_config, configs.len()).map_err(anyhow::Error::msg)?;
    // Check the output directory before running anything.
    let mut out =
        OutputSet::new(&job.out).with_context(|| format!("--out {}", job.out.display()))?;
    let mut plan = RunPlan {
        db: &loaded.lib.db,
        players: &loaded.players,
        confluence: &loaded.confluence,
        policies: &loaded.policies,
        configs,
        games: 0,
        first_game: 0,
        seed: job.seed,
        threads: job.threads,
        day_cap: job.day_cap,
    };
    let (first_batch, total_hint) = match job.games {
        GamesRule::Fixed(g) => (g, total_hint),
        GamesRule::Precision { batch, max, .. } => (batch.min(max), total_hint),
    };
    let pb = progress_bar(total_hint, job.quiet);
    let started = Instant::now();
    let progress = |n: u64| pb.inc(n);
    let mut writer = if job.per_game {
        let file = out
            .create("games.parquet")?
            .try_clone()
            .context("games.parquet")?;
        Some(BatchWriter::new(std::io::BufWriter::new(file)))
    } else {
        None
    };
    let mut accums = vec![Accum::default(); plan.configs.len()];
    let mut stop_note = String::new();
    plan.games = first_batch;
    loop {
        let result = match writer.as_mut() {
            Some(w) => {
                let mut sink = |rows: &[GameRow]| w.write(&games_table(rows));
                crate::sim::run(&plan, &progress, Some(&mut sink))
                    .map_err(|e| anyhow::anyhow!("writing games.parquet: {e}"))?
            }
            None => {
                crate::sim::run::<String>(&plan, &progress, None).map_err(|e| anyhow::anyhow!(e))?
            }
        };
        for (acc, r) in accums.iter_mut().zip(&result.accums) {
            *acc += r;
        }
        plan.first_game += plan.games;
        let GamesRule::Precision {
            half_width,
            max,
            batch,
        } = job.games
        else {
            break;
        };
        let widest = widest_half_width(&accums);
        if widest <= half_width {
            stop_note = format!(
                "precision reached: every configuration's 95% half-width is at most {half_width} (widest {widest:.4}) after {} games each",
                plan.first_game
            );
            break;
        }
        if plan.first_game >= max {
            stop_note = format!(
                "stopped at the cap of {max} games per configuration; the widest 95% half-width is {widest:.4} (target {half_width})"
            );
            break;
        }
        plan.games = batch.min(max - plan.first_game);
    }
    if let Some(w) = writer {
        w.finish()
            .map_err(|e| anyhow::anyhow!("writing games.parquet: {e}"))?;
    }
    pb.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();
    let total: u64 = accums.iter().map(|a| a.games).sum();
    let meta_in = RunMeta {
        lib: &loaded.lib,
        players: &loaded.players,
        confluence: &loaded.confluence,
        policies: &loaded.policies,
        seed: job.seed,
        day_cap: job.day_cap,
    };
    let table = summary_table(&meta_in, &plan.configs, &accums);
    let data = RunData {
        db: &loaded.lib.db,
        players: &loaded.players,
        confluence: &loaded.confluence,
        policies: &loaded.policies,
        configs: &plan.configs,
        accums: &accums,
    };
    out.write_csv("summary.csv", &table)?;
    out.write_parquet("summary.parquet", &table)?;
    let cards = cards_table(&data);
    out.write_csv("cards.csv", &cards)?;
    out.write_parquet("cards.parquet", &cards)?;
    let diffs = diffs_table(&data);
    out.write_csv("diffs.csv", &diffs)?;
    out.write_parquet("diffs.parquet", &diffs)?;
    let rares = rares_table(&data);
    out.write_csv("rares.csv", &rares)?;
    out.write_parquet("rares.parquet", &rares)?;
    let games_note = match job.games {
        GamesRule::Fixed(g) => format!("{g} per configuration"),
        GamesRule::Precision { .. } => stop_note.clone(),
    };
    let m = meta::meta(
        &meta_in,
        job.experiment.as_deref(),
        &games_note,
        plan.configs.len(),
    );
    let f = out.create("meta.json")?;
    serde_json::to_writer_pretty(&mut *f, &m).context("meta.json")?;
    let written = out.commit()?;
    if !job.quiet {
        print_summary(&table);
    }
    if !stop_note.is_empty() {
        eprintln!("confluence-sim: {stop_note}");
    }
    eprintln!(
        "confluence-sim: {total} games in {elapsed:.1}s ({:.0} games/s on {} thread(s)); wrote {} files in {}",
        total as f64 / elapsed.max(1e-9),
        job.threads,
        written.len(),
        job.out.display()
    );
    Ok(())
}

fn print_summary(t: &Table) {
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
    let (deck, policy, mix) = (get_s("player_deck"), get_s("policy"), get_s("rare_mix"));
    let (rate, lo, hi, days) = (
        get_f("win_rate"),
        get_f("win_rate_lo"),
        get_f("win_rate_hi"),
        get_f("days_mean"),
    );
    let (rares, games) = (get_u("rare_count"), get_u("games"));
    println!(
        "{:<28} {:<8} {:>5} {:>8} {:>8} {:>17} {:>5}  rares",
        "player deck", "policy", "rares", "games", "win", "95% interval", "days"
    );
    for i in 0..t.rows() {
        let mix_short = if mix[i].chars().count() > 40 {
            format!("{}...", mix[i].chars().take(37).collect::<String>())
        } else {
            mix[i].clone()
        };
        println!(
            "{:<28} {:<8} {:>5} {:>8} {:>7.1}% [{:>5.1}%, {:>5.1}%] {:>5.1}  {}",
            deck[i],
            policy[i],
            rares[i],
            games[i],
            rate[i] * 100.0,
            lo[i] * 100.0,
            hi[i] * 100.0,
            days[i],
            mix_short
        );
    }
}
