//! Output directories and the outputs of a run.
//!
//! Every command that writes a directory (`run`, `merge`, `report`, `matchup`,
//! `booster-war`, `ladder`, `compare`, `tune`, `sensitivity`, `optimize`) writes it through one mechanism,
//! [`OutputDir`]: every file goes into a temporary directory beside `--out`, which then
//! replaces `--out` whole in one step; a failure or an interruption leaves the old directory
//! as it was. [`output_dir`] checks `--out` first, the same way for every command: it may be
//! new, empty or hold only confluence-sim's outputs (never a file the user put there), it
//! may not be the working directory or above it, and finished work in it (a finished
//! shard, an unfinished run's checkpoint) is replaced only with `--force`. (`report` writes
//! into the run directory it reads, carrying the run's files over.)
//!
//! Then the outputs of a run from its statistics and its stored per-game rows: what `run`
//! writes at its end and `merge` writes from shards, through the same code, so that both
//! give the same bytes.
//!
//! Layer: part of [`crate::job`].

use std::path::Path;

use anyhow::{Context, Result};

pub use super::checkpoint::CHECKPOINT;
use super::meta;
use super::plan::Job;
use super::summary::{RunMeta, summary_table};
use crate::analysis::{RunData, cards_table, diffs_table, rares_table, table_notes};
use crate::export::parquet::BatchWriter;
use crate::export::{ColumnData, OutputDir, Table};
use crate::sim::runner::CHUNK;
use crate::sim::state::StateReader;
use crate::sim::{ConfigSpec, GameRow, run_order};
use crate::stats::Accum;

pub const GAMES_SCHEMA_VERSION: u32 = 1;

/// What an output directory may hold: the outputs of any command, a report, a checkpoint
/// or a shard's state, and the temporary files of older versions. A command replaces a
/// directory holding only these, and refuses one holding anything else.
pub fn is_output_name(name: &str) -> bool {
    const NAMES: [&str; 55] = [
        "summary.csv",
        "summary.parquet",
        "cards.csv",
        "cards.parquet",
        "diffs.csv",
        "diffs.parquet",
        "rares.csv",
        "rares.parquet",
        "meta.json",
        "games.parquet",
        "report.html",
        "report.md",
        "charts",
        "checkpoint",
        "shard.json",
        "units.log",
        "games.bin",
        "matchups.csv",
        "matchups.parquet",
        "ranking.csv",
        "ranking.parquet",
        "pods.csv",
        "pods.parquet",
        "ratings.csv",
        "booster_war.csv",
        "booster_war.parquet",
        "factions.csv",
        "factions.parquet",
        "heroes.csv",
        "heroes.parquet",
        "card_effects.csv",
        "card_effects.parquet",
        "ladder.csv",
        "ladder.parquet",
        "compare.csv",
        "compare.parquet",
        "games.csv",
        "tune_candidates.csv",
        "tune_candidates.parquet",
        "tune_rares.csv",
        "tune_rares.parquet",
        "tune_screening.csv",
        "tune_screening.parquet",
        "sensitivity.csv",
        "sensitivity.parquet",
        "sensitivity_target.csv",
        "sensitivity_target.parquet",
        "best_deck.txt",
        "optimize.csv",
        "optimize.parquet",
        "trajectory.csv",
        "trajectory.parquet",
        "calibration.csv",
        "calibration.json",
        "calibration.md",
    ];
    NAMES.contains(&name) || (name.starts_with('.') && name.ends_with(".tmp"))
}

/// Checks that `dir` is new, empty, or holds only outputs of confluence-sim, and that it is
/// not the working directory, one of its parents or `/` (a usage error: the directory is
/// replaced whole).
pub fn check_replaceable(dir: &Path) -> Result<()> {
    check_not_above_cwd(dir)?;
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    let mut foreign: Vec<String> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !is_output_name(n))
        .collect();
    foreign.sort();
    if let Some(first) = foreign.first() {
        anyhow::bail!(
            "--out {}: the directory holds {first}{}, which confluence-sim did not write; the output directory is replaced whole, so give a new or empty one (or remove it)",
            dir.display(),
            if foreign.len() > 1 {
                format!(" (and {} more)", foreign.len() - 1)
            } else {
                String::new()
            }
        );
    }
    Ok(())
}

/// `--out DIR` may not be the working directory, one of its parents or `/`: the output
/// directory is replaced whole.
fn check_not_above_cwd(dir: &Path) -> Result<()> {
    let Ok(canon) = std::fs::canonicalize(dir) else {
        // A directory that does not exist yet is below no existing one's replacement.
        return Ok(());
    };
    let cwd = std::env::current_dir().and_then(std::fs::canonicalize).ok();
    let what = if canon.parent().is_none() {
        "is the root directory".to_string()
    } else if cwd.as_ref() == Some(&canon) {
        "is the working directory".to_string()
    } else if cwd.is_some_and(|c| c.starts_with(&canon)) {
        format!("is {}, a parent of the working directory", canon.display())
    } else {
        return Ok(());
    };
    Err(super::error::usage(format!(
        "--out {}: {what}; the output directory is replaced whole, so give a directory of its own (e.g. --out reports/latest)",
        dir.display()
    )))
}

/// Refuses an output directory that holds a finished shard (`shard.json`): replacing it
/// would destroy work that only `merge` reads. `--force` (`Some(true)`) replaces it anyway;
/// `None`: the command has no `--force`.
pub fn check_no_shard(dir: &Path, force: Option<bool>) -> Result<()> {
    let p = dir.join("shard.json");
    if force == Some(true) || !p.is_file() {
        return Ok(());
    }
    let which = super::checkpoint::which_shard(dir);
    anyhow::bail!(
        "--out {d}: it holds {which} of a sharded run (shard.json), finished work that this would replace; merge the shards with `confluence-sim merge {d} ... --out DIR`, give another --out{}",
        or_force(force),
        d = dir.display()
    );
}

/// Refuses an output directory that holds an unfinished run's checkpoint, which
/// `run --resume` continues. `--force` (`Some(true)`) replaces it anyway.
pub fn check_no_checkpoint(dir: &Path, force: Option<bool>) -> Result<()> {
    let ck = dir.join(CHECKPOINT);
    if force == Some(true) || !ck.join(super::checkpoint::SPEC).is_file() {
        return Ok(());
    }
    anyhow::bail!(
        "--out {d}: it holds an unfinished run ({}), work that this would replace; continue it with `{}`, give another --out{}",
        ck.display(),
        super::checkpoint::resume_command(dir),
        or_force(force),
        d = dir.display()
    );
}

/// The end of a refusal: how to replace the directory anyway.
fn or_force(force: Option<bool>) -> &'static str {
    match force {
        Some(_) => ", or add --force to replace it",
        None => " (or remove it)",
    }
}

/// What a command may replace in its `--out` beyond confluence-sim's own outputs.
#[derive(Clone, Copy, Debug)]
pub struct Guard {
    /// `Some(f)`: the command's `--force` flag (with it, finished work is replaced);
    /// `None`: the command has none.
    pub force: Option<bool>,
    /// The command continues an unfinished run in `--out` itself (`run`), so a checkpoint
    /// is no reason to refuse it.
    pub resumes: bool,
}

impl Guard {
    /// A command without `--force` that continues nothing.
    pub const PLAIN: Guard = Guard {
        force: None,
        resumes: false,
    };
}

/// Checks `dir` as a command's `--out` (see the module's documentation) and prepares its
/// replacement: the [`OutputDir`] the command fills and commits. A command that runs for a
/// while checks first (dropping this one) and calls [`OutputDir::new`] when its outputs
/// are ready.
pub fn output_dir(dir: &Path, guard: Guard) -> Result<OutputDir> {
    check_replaceable(dir)?;
    check_no_shard(dir, guard.force)?;
    if !guard.resumes {
        check_no_checkpoint(dir, guard.force)?;
    }
    OutputDir::new(dir).with_context(|| format!("--out {}", dir.display()))
}

pub fn games_table(rows: &[GameRow]) -> Table {
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

/// Writes `games.parquet` from the stored rows of `sources` (a run's checkpoint, or the
/// shards of a run in order): configuration by configuration in run order, each in game
/// order, in row groups of [`CHUNK`] games counted from the configuration's first game.
pub fn write_games(
    out: &mut OutputDir,
    configs: &[ConfigSpec],
    sources: &mut [StateReader],
) -> Result<()> {
    let file = out.create("games.parquet")?;
    let mut w = BatchWriter::new(std::io::BufWriter::new(file));
    let err = |e: String| anyhow::anyhow!("writing games.parquet: {e}");
    // Per source, per configuration: its records, in game order.
    let index: Vec<Vec<Vec<usize>>> = sources
        .iter()
        .map(|s| {
            let mut by = vec![Vec::new(); configs.len()];
            for (k, r) in s.records.iter().enumerate() {
                if let Some(v) = by.get_mut(r.unit.config as usize) {
                    v.push(k);
                }
            }
            for v in &mut by {
                v.sort_by_key(|&k| s.records[k].unit.start);
            }
            by
        })
        .collect();
    let mut buf: Vec<GameRow> = Vec::with_capacity(CHUNK as usize);
    for ci in run_order(configs) {
        for (s, idx) in sources.iter_mut().zip(&index) {
            for &k in &idx[ci] {
                let rec = s.records[k].clone();
                let mut rows = s.rows(&rec)?;
                while !rows.is_empty() {
                    let take = (CHUNK as usize - buf.len()).min(rows.len());
                    buf.extend(rows.drain(..take));
                    if buf.len() == CHUNK as usize {
                        w.write(&games_table(&buf)).map_err(err)?;
                        buf.clear();
                    }
                }
            }
        }
        if !buf.is_empty() {
            w.write(&games_table(&buf)).map_err(err)?;
            buf.clear();
        }
    }
    w.finish().map_err(err)
}

/// Writes the tables (CSV and Parquet) and `meta.json` of a run into `out`; returns the
/// summary table.
pub fn write_tables(
    out: &mut OutputDir,
    job: &Job,
    configs: &[ConfigSpec],
    accums: &[Accum],
    games_note: &str,
) -> Result<Table> {
    let loaded = &job.loaded;
    let meta_in = RunMeta {
        lib: &loaded.lib,
        players: &loaded.players,
        confluence: &loaded.confluence,
        policies: &loaded.policies,
        seed: job.seed,
        day_cap: job.day_cap,
        expert_weights: job.source.expert_weights.as_deref(),
        value_weights: job.source.value_weights.as_deref(),
        edits: &loaded.edits,
    };
    let table = summary_table(&meta_in, configs, accums);
    let data = RunData {
        db: &loaded.lib.db,
        players: &loaded.players,
        confluence: &loaded.confluence,
        policies: &loaded.policies,
        configs,
        accums,
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
    for note in table_notes(&data) {
        eprintln!("confluence-sim: note: {note}");
    }
    let m = meta::meta(
        &meta_in,
        job.experiment.as_deref(),
        games_note,
        configs.len(),
    );
    let mut f = out.create("meta.json")?;
    serde_json::to_writer_pretty(&mut f, &m).context("meta.json")?;
    Ok(table)
}

/// Writes a one-file output (a weights file) whole or not at all: into a temporary file
/// beside it, then renamed over it.
pub fn write_whole(out: &std::path::Path, text: &str) -> Result<()> {
    let dir = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let mut tmp =
        tempfile::NamedTempFile::new_in(dir).with_context(|| format!("--out {}", out.display()))?;
    std::io::Write::write_all(&mut tmp, text.as_bytes())?;
    tmp.persist(out)
        .with_context(|| format!("writing {}", out.display()))?;
    Ok(())
}
