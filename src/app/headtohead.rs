//! What `matchup`, `booster-war` and `ffa` share to be resumed, sharded and merged as `run`
//! is: the description of a head-to-head run (its command, flags and the files it read),
//! the checkpointed loop around its games, and the tallies of a set of its shards.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::checkpoint::{Checkpoint, SPEC, kind_of, read_spec};
use super::cli::{MergeArgs, ModelArgs, ScaleArgs};
use super::job::progress_bar;
use super::outputs::{CHECKPOINT, Guard, output_dir};
use super::shard::{Shard, ShardSet, read_slice};
use super::spec::{DataFile, FORMAT, RunSpec, data_file};
use crate::export::{ColumnData, OutputDir, Table};
use crate::sim::Stop;
use crate::sim::state::{LogReader, LogWriter, StateError};
use crate::sim::tally::{Tally, TallyUnit};

/// A head-to-head run as its checkpoint and its shards record it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DuelSpec {
    pub format: u32,
    /// The command: `matchup`, `booster-war` or `ffa`.
    pub kind: String,
    pub version: String,
    pub seed: u64,
    /// Games per configuration (a pair of entries, a variant) of the whole run.
    pub games: u64,
    /// The command's flags that decide its results, paths made absolute.
    pub settings: Value,
    /// Every file the run read, with the hash of its content.
    pub files: Vec<DataFile>,
    pub shard: Option<Shard>,
}

impl DuelSpec {
    /// The description of a `kind` run with these flags (`settings`, paths already made
    /// absolute) that read `files`.
    pub fn new<A: Serialize>(
        kind: &str,
        seed: u64,
        games: u64,
        settings: &A,
        files: &[&Path],
        shard: Option<Shard>,
    ) -> Result<DuelSpec> {
        Ok(DuelSpec {
            format: FORMAT,
            kind: kind.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            seed,
            games,
            settings: serde_json::to_value(settings).expect("flags serialize"),
            files: files.iter().map(|p| data_file(p)).collect::<Result<_>>()?,
            shard,
        })
    }

    /// Its JSON, as `run.json` and `shard.json` hold it (without the final newline).
    pub fn text(&self) -> String {
        serde_json::to_string_pretty(self).expect("a spec serializes")
    }

    /// Reads a description of a `kind` run from its JSON, checking that this version wrote
    /// it and that the files it read are unchanged.
    pub fn of(v: &Value, kind: &str, path: &Path) -> Result<DuelSpec> {
        if kind_of(v) != kind {
            bail!(
                "{}: describes a {} run, not a {kind} run",
                path.display(),
                kind_of(v)
            );
        }
        let spec: DuelSpec = serde_json::from_value(v.clone()).with_context(|| {
            format!(
                "{}: not a run description written by confluence-sim {}",
                path.display(),
                env!("CARGO_PKG_VERSION")
            )
        })?;
        if spec.format != FORMAT || spec.version != env!("CARGO_PKG_VERSION") {
            bail!(
                "{}: made by confluence-sim {}, this is {}: results would not be the same",
                path.display(),
                spec.version,
                env!("CARGO_PKG_VERSION")
            );
        }
        RunSpec::check_unchanged(&spec.files)?;
        Ok(spec)
    }

    /// The flags it records.
    pub fn settings<A: DeserializeOwned>(&self) -> Result<A> {
        serde_json::from_value(self.settings.clone()).context("the flags a run recorded")
    }
}

/// A path made absolute, as a description records the files it names (data built into
/// the binary as `builtin:NAME`).
pub fn absolute(p: &Path) -> Result<PathBuf> {
    if let super::builtin::Source::Builtin(_) = super::builtin::locate(p) {
        return Ok(super::builtin::recorded(p));
    }
    std::fs::canonicalize(p).with_context(|| format!("{}", p.display()))
}

/// A head-to-head command's flags: those that decide its results (recorded, serialized)
/// and those that only say where and how it runs.
pub trait Flags: Serialize + DeserializeOwned + Clone {
    /// The command's name, as descriptions record it.
    const KIND: &'static str;
    /// `--out`, `--threads`, `--quiet`, `--shard` and `--force`, `--resume`.
    #[allow(clippy::type_complexity)]
    fn run_flags(
        &mut self,
    ) -> (
        &mut PathBuf,
        &mut Option<usize>,
        &mut bool,
        &mut ScaleArgs,
        &mut Option<PathBuf>,
    );
    /// Its model files.
    fn models(&mut self) -> &mut ModelArgs;
}

/// Implements [`Flags`] for a command's arguments, which name their flags alike (`out`,
/// `threads`, `quiet`, `scale`, `resume`, `models`).
macro_rules! impl_flags {
    ($args:ty, $kind:literal) => {
        impl super::headtohead::Flags for $args {
            const KIND: &'static str = $kind;

            fn run_flags(
                &mut self,
            ) -> (
                &mut std::path::PathBuf,
                &mut Option<usize>,
                &mut bool,
                &mut super::cli::ScaleArgs,
                &mut Option<std::path::PathBuf>,
            ) {
                (
                    &mut self.out,
                    &mut self.threads,
                    &mut self.quiet,
                    &mut self.scale,
                    &mut self.resume,
                )
            }

            fn models(&mut self) -> &mut super::cli::ModelArgs {
                &mut self.models
            }
        }
    };
}
pub(super) use impl_flags;

/// With `--resume DIR`, the flags of the unfinished run in DIR instead (with this
/// command line's `--threads` and `--quiet`).
pub fn resume<A: Flags>(a: &mut A) -> Result<()> {
    let (_, threads, quiet, _, resume) = a.run_flags();
    let Some(dir) = resume.take() else {
        return Ok(());
    };
    let (threads, quiet) = (*threads, *quiet);
    let (mut r, shard): (A, _) = resumed(&dir, A::KIND)?;
    let (o, t, q, scale, _) = r.run_flags();
    (*o, *t, *q, scale.shard) = (dir, threads, quiet, shard);
    *a = r;
    Ok(())
}

/// The description of a run with flags `a`: the files named by `paths` and its model
/// files made absolute, and hashed as the files it reads.
pub fn describe<A: Flags>(
    a: &A,
    seed: u64,
    games: u64,
    paths: impl FnOnce(&mut A) -> Vec<&mut PathBuf>,
) -> Result<DuelSpec> {
    let mut s = a.clone();
    let shard = s.run_flags().3.shard;
    let mut files = Vec::new();
    for p in paths(&mut s) {
        *p = absolute(p)?;
        files.push(p.clone());
    }
    let m = s.models();
    for p in [&mut m.expert_weights, &mut m.value_weights]
        .into_iter()
        .flatten()
    {
        *p = absolute(p)?;
        files.push(p.clone());
    }
    let files: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    DuelSpec::new(A::KIND, seed, games, &s, &files, shard)
}

/// The flags of the unfinished `kind` run in `dir` (`--resume DIR`), checked, and its
/// shard.
pub fn resumed<A: DeserializeOwned>(dir: &Path, kind: &str) -> Result<(A, Option<Shard>)> {
    let p = dir.join(CHECKPOINT).join(SPEC);
    if !p.exists() {
        bail!(
            "--resume {}: no unfinished run there ({} does not exist; a run that finished removes its checkpoint)",
            dir.display(),
            p.display()
        );
    }
    let v = read_spec(&p)?;
    if kind_of(&v) != kind {
        bail!(
            "--resume {}: it holds an unfinished {}; continue it with `confluence-sim {} --resume {}`",
            dir.display(),
            kind_of(&v),
            kind_of(&v),
            dir.display()
        );
    }
    let spec = DuelSpec::of(&v, kind, &p).with_context(|| format!("--resume {}", dir.display()))?;
    Ok((spec.settings()?, spec.shard))
}

/// Where a head-to-head run goes and how it shows its progress.
pub struct Exec<'a> {
    pub out: &'a Path,
    pub spec: &'a DuelSpec,
    /// Configurations (pairs, variants).
    pub configs: usize,
    pub force: bool,
    pub quiet: bool,
    /// What a configuration is, for the messages ("pair", "variant").
    pub config_word: &'a str,
}

impl<'a> Exec<'a> {
    /// `configs`: how many configurations, and what one is called.
    pub fn new(
        out: &'a Path,
        spec: &'a DuelSpec,
        configs: (usize, &'a str),
        force: bool,
        quiet: bool,
    ) -> Exec<'a> {
        Exec {
            out,
            spec,
            configs: configs.0,
            force,
            quiet,
            config_word: configs.1,
        }
    }
}

/// What a whole run did (a shard reports nothing).
pub struct Done {
    /// Games in its tables.
    pub games: u64,
    /// Games played by this process (not those found in the checkpoint).
    pub played: u64,
    pub elapsed: f64,
    /// Files written.
    pub written: usize,
}

impl Done {
    /// The closing line on stderr: `what` the run was (its first words), then its games,
    /// time, speed and files.
    pub fn report(&self, what: &str, threads: usize, out: &std::path::Path) {
        eprintln!(
            "confluence-sim: {what}, {}; wrote {} files in {}",
            super::job::games_and_speed(self.games, self.played, self.elapsed, threads),
            self.written,
            out.display()
        );
    }
}

/// The warning for a head-to-head run some of whose games had an engine error (more
/// reactions triggered at once than the engine queues), or `None` when none did: the
/// count, the `table` whose `engine_errors` column counts them, and the lowest failed game
/// of the first configuration (named by `name`) that has one, however the run was split.
pub fn engine_error_note(
    errors: &[crate::sim::tally::EngineErrors],
    table: &str,
    name: impl Fn(usize) -> String,
) -> Option<String> {
    let total: u64 = errors.iter().map(|e| e.count).sum();
    let (c, game) = errors
        .iter()
        .enumerate()
        .find_map(|(c, e)| e.first.map(|g| (c, g)))?;
    Some(format!(
        "warning: {total} game(s) had an engine error (more reactions triggered at once than the engine queues, so some were never resolved): they are counted in their outcomes but do not follow the rules; `engine_errors` in {table} counts them. The first: game {game} of {}",
        name(c)
    ))
}

/// What a command writes at the end of a whole run: its tables and meta.json, from the
/// tallies (returning what its terminal summary shows besides them), and that summary.
pub struct Outputs<W, P> {
    pub write: W,
    pub print: P,
}

/// Runs a head-to-head job as `run` runs one: its finished units in a checkpoint in
/// `--out` (continued when the same run is started again, refused when another is there
/// unless `--force`), a signal saving what is done, and a shard's state written as the
/// shard's files. `play` plays the games: `(first game, games per configuration,
/// progress, stop, log)`; a whole run's outputs are written by `outputs` while the
/// checkpoint is still held. `None` for a shard.
pub fn execute<T, F, S, W, P>(e: &Exec<'_>, play: F, outputs: Outputs<W, P>) -> Result<Option<Done>>
where
    T: Tally,
    W: FnOnce(&mut OutputDir, &[T]) -> Result<S>,
    P: FnOnce(&S, &[T]),
    F: FnOnce(
        u64,
        u64,
        &(dyn Fn(u64) + Sync),
        &AtomicBool,
        &mut LogWriter<TallyUnit<T>>,
    ) -> Result<Vec<T>, Stop<StateError>>,
{
    let games = e.spec.games;
    let (lo, hi) = e.spec.shard.map_or((0, games), |s| s.range(games));
    drop(output_dir(
        e.out,
        Guard {
            force: Some(e.force),
            resumes: true,
        },
    )?);
    let text = e.spec.text();
    let checkpoint = Checkpoint::take(e.out, &text, e.force)?;
    // Whatever fails from here on, the checkpoint keeps the finished games: say so.
    play_and_write(e, play, outputs, checkpoint, &text, (lo, hi))
        .map_err(|err| super::checkpoint::kept(err, e.out))
}

/// [`execute`] once the checkpoint is taken: plays the games of `lo..hi` and writes the
/// outputs.
fn play_and_write<T, F, S, W, P>(
    e: &Exec<'_>,
    play: F,
    outputs: Outputs<W, P>,
    checkpoint: Checkpoint,
    text: &str,
    (lo, hi): (u64, u64),
) -> Result<Option<Done>>
where
    T: Tally,
    W: FnOnce(&mut OutputDir, &[T]) -> Result<S>,
    P: FnOnce(&S, &[T]),
    F: FnOnce(
        u64,
        u64,
        &(dyn Fn(u64) + Sync),
        &AtomicBool,
        &mut LogWriter<TallyUnit<T>>,
    ) -> Result<Vec<T>, Stop<StateError>>,
{
    let mut log = LogWriter::<TallyUnit<T>>::open(&checkpoint.dir, false)?;
    let kept = log.kept_games();
    if kept > 0 {
        eprintln!(
            "confluence-sim: continuing the unfinished run in {}: {kept} games already played",
            e.out.display()
        );
    }
    // The caller checked that the games of all configurations fit in 64 bits.
    let pb = progress_bar((hi - lo).saturating_mul(e.configs as u64), e.quiet);
    let started = Instant::now();
    let result = play(lo, hi - lo, &|n| pb.inc(n), &checkpoint.stop, &mut log);
    pb.finish_and_clear();
    let tallies = match result {
        Ok(t) => t,
        Err(Stop::Interrupted) => {
            log.sync()?;
            let done = log.kept_games() + log.new_games();
            return Err(checkpoint.interrupted(e.out, done));
        }
        Err(Stop::Error(err)) => return Err(err.into()),
    };
    log.sync()?;
    let played = log.new_games();
    drop(log);
    let elapsed = started.elapsed().as_secs_f64();
    let Some(sh) = e.spec.shard else {
        let written = write_outputs(
            e.out,
            None,
            e.quiet,
            |out| (outputs.write)(out, &tallies),
            |summary| (outputs.print)(summary, &tallies),
        )?;
        drop(checkpoint);
        return Ok(Some(Done {
            games: tallies.iter().map(Tally::games).sum(),
            played,
            elapsed,
            written,
        }));
    };
    let mut out = OutputDir::new(e.out).with_context(|| format!("--out {}", e.out.display()))?;
    checkpoint.write_shard(&mut out, text, false)?;
    out.commit()?;
    eprintln!(
        "confluence-sim: shard {sh}: games {lo}..{hi} of each {}; merge the {} shards with `confluence-sim merge`",
        e.config_word, sh.count
    );
    Ok(None)
}

/// The description of the whole `kind` run whose shards `set` holds, checked.
pub fn whole_spec(set: &ShardSet, kind: &str) -> Result<DuelSpec> {
    let first = &set.shards[0].0;
    DuelSpec::of(&set.whole(), kind, &first.join("shard.json"))
        .with_context(|| format!("the run of shard {}", first.display()))
}

/// The tallies of the `configs` configurations of the run `spec` whose shards `set`
/// holds, after checking that each shard holds every game of its slice.
pub fn merged<T: Tally>(
    set: &ShardSet,
    spec: &DuelSpec,
    configs: usize,
    zero: impl Fn() -> T,
) -> Result<Vec<T>> {
    let mut tallies: Vec<T> = (0..configs).map(|_| zero()).collect();
    for (dir, v) in &set.shards {
        let r = LogReader::<TallyUnit<T>>::open(dir, false)
            .with_context(|| format!("shard {}", dir.display()))?;
        let range = super::checkpoint::shard_of(v)
            .expect("a shard")
            .range(spec.games);
        read_slice(dir, &r, configs, range, |u| {
            tallies[u.config as usize].add(&u.tally)
        })?;
    }
    Ok(tallies)
}

/// The end of a head-to-head command: writes its outputs into `out` (the directory
/// replaced whole) with `write`, then prints their summary with `print` unless `quiet`;
/// returns the number of files written.
pub fn write_outputs<S>(
    out: &Path,
    guard: Option<Guard>,
    quiet: bool,
    write: impl FnOnce(&mut OutputDir) -> Result<S>,
    print: impl FnOnce(&S),
) -> Result<usize> {
    let mut dir = match guard {
        Some(g) => output_dir(out, g)?,
        None => OutputDir::new(out).with_context(|| format!("--out {}", out.display()))?,
    };
    let summary = write(&mut dir)?;
    let written = dir.commit()?;
    if !quiet {
        print(&summary);
    }
    Ok(written.len())
}

/// `merge` of a head-to-head command's shards: the shards and the whole run's description
/// (checked), and the flags of the run with merge's `--out`, `--quiet` and `--force`
/// (set through [`Flags`]).
pub fn merge_start<A: Flags>(m: &MergeArgs) -> Result<(ShardSet, DuelSpec, A)> {
    let set = ShardSet::read(&m.shards, &m.out)?;
    let spec = whole_spec(&set, A::KIND)?;
    let mut a: A = spec.settings()?;
    let (out, _, quiet, _, _) = a.run_flags();
    (*out, *quiet) = (m.out.clone(), m.quiet);
    Ok((set, spec, a))
}

/// The end of a merge: the outputs written (as [`write_outputs`], refusing an `--out` that
/// holds finished work unless `--force`) and what was merged said.
pub fn merge_end<T: Tally, S>(
    m: &MergeArgs,
    set: &ShardSet,
    tallies: &[T],
    outputs: Outputs<impl FnOnce(&mut OutputDir, &[T]) -> Result<S>, impl FnOnce(&S, &[T])>,
) -> Result<()> {
    let guard = Guard {
        force: Some(m.force),
        resumes: false,
    };
    let written = write_outputs(
        &m.out,
        Some(guard),
        m.quiet,
        |out| (outputs.write)(out, tallies),
        |summary| (outputs.print)(summary, tallies),
    )?;
    let total: u64 = tallies.iter().map(Tally::games).sum();
    eprintln!(
        "confluence-sim: merged {} shards ({total} games); wrote {written} files in {}",
        set.count,
        m.out.display()
    );
    Ok(())
}

/// What the ranking tables of `matchup` and `ffa` say about each entry.
pub(super) struct EntryInfo {
    pub deck: String,
    pub hero: String,
    pub policy: String,
}

/// A ranking table's first columns, shared by `matchup` and `ffa`: the schema, then per
/// entry in `order` (strongest first) its rank, index, deck, hero and policy.
pub(super) fn entry_columns(
    schema: u32,
    order: &[usize],
    ranks: &[usize],
    info: &[EntryInfo],
) -> Table {
    let strs = |f: &dyn Fn(&EntryInfo) -> String| {
        ColumnData::Str(order.iter().map(|&i| f(&info[i])).collect())
    };
    let mut t = Table::new();
    t.push("schema_version", ColumnData::U32(vec![schema; order.len()]))
        .push(
            "rank",
            ColumnData::U32(order.iter().map(|&i| ranks[i] as u32).collect()),
        )
        .push(
            "entry",
            ColumnData::U32(order.iter().map(|&i| i as u32).collect()),
        )
        .push("deck", strs(&|e| e.deck.clone()))
        .push("hero", strs(&|e| e.hero.clone()))
        .push("policy", strs(&|e| e.policy.clone()));
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::tally::EngineErrors;

    #[test]
    fn the_engine_error_note_names_the_count_and_the_first_failed_game() {
        let name = |i: usize| format!("pair {i}");
        assert_eq!(
            engine_error_note(&[EngineErrors::default(); 2], "t", name),
            None
        );
        let mut errs = [EngineErrors::default(); 3];
        errs[1].push(40);
        errs[1].push(7);
        errs[2].push(1);
        let note = engine_error_note(&errs, "matchups", name).expect("a note");
        assert!(note.contains("3 game(s) had an engine error"), "{note}");
        assert!(note.contains("in matchups counts them"), "{note}");
        assert!(note.ends_with("game 7 of pair 1"), "{note}");
    }
}
