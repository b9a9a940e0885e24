//! The one head-to-head runner of `matchup`, `booster-war` and `ffa`: the description of
//! such a run (its command, settings and the files it read: [`DuelSpec`]), what a command
//! supplies ([`HeadToHead`]: its set-up, games, tallies and outputs), and what the runner
//! does the same for all three, as `run` does it: `--resume`, the checkpointed loop around
//! the games, a shard's state, and the merge of a set of shards through the code that
//! writes a whole run's outputs. The entries that `matchup` and `ffa` share (each deck
//! with each policy) are loaded by [`Field::load`] and open their ranking tables with
//! [`entry_columns`].
//!
//! Layer: part of [`crate::job`].

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::checkpoint::{Checkpoint, SPEC, kind_of, read_spec};
use super::config::{Entries, Merge, Models, Place, Request};
use super::load;
use super::outputs::{CHECKPOINT, Guard, output_dir};
use super::plan::{default_threads, games_and_speed, progress_bar};
use super::shard::{Shard, ShardSet, read_slice};
use super::spec::{DataFile, FORMAT, RunSpec, data_file};
use crate::cards::Library;
use crate::deck::PlayerDeck;
use crate::export::{ColumnData, OutputDir, Table};
use crate::policy::value::ValueNet;
use crate::policy::{ExpertWeights, PolicySpec};
use crate::sim::Stop;
use crate::sim::matchup::{Entry, EntryPlan};
use crate::sim::state::{LogReader, LogWriter, StateError};
use crate::sim::tally::{Tally, TallyUnit};
/// A head-to-head run as its checkpoint and its shards record it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DuelSpec {
    pub format: u32,
    /// The command: `matchup`, `booster-war` or `ffa`.
    pub kind: String,
    pub version: String,
    /// [`crate::sim::GAMES_VERSION`], as a run's description records it.
    #[serde(default)]
    pub games_version: Option<u32>,
    pub seed: u64,
    /// Games per configuration (a pair of entries, a variant) of the whole run.
    pub games: u64,
    /// What decides its results (the command's settings), paths made absolute.
    pub settings: Value,
    /// Every file the run read, with the hash of its content.
    pub files: Vec<DataFile>,
    pub shard: Option<Shard>,
}

impl DuelSpec {
    /// The description of a `kind` run with these settings (paths already made
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
            games_version: Some(crate::sim::GAMES_VERSION),
            seed,
            games,
            settings: serde_json::to_value(settings).expect("settings serialize"),
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

    /// The settings it records.
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

/// A head-to-head command, as the one runner ([`run`], [`merge`]) drives it: `Self` is
/// what a run needs besides its games (the settings checked, the card data, the decks or
/// boosters), made by [`HeadToHead::prepare`] for a run and again for a merge.
pub trait HeadToHead: Sized {
    /// What decides its results, as its checkpoint and shards record it.
    type Settings: Serialize + DeserializeOwned + Clone;
    /// The counts of one configuration (a pair of entries, a variant, a pod's seating).
    type Tally: Tally;
    /// What the terminal summary shows besides the tallies (a fitted ranking).
    type Summary;
    /// The command's name, as descriptions record it.
    const KIND: &'static str;
    /// What a configuration is, for the messages ("pair", "variant", "seating").
    const CONFIG_WORD: &'static str;

    /// Checks the settings and loads what they name (usage errors first, then files).
    fn prepare(s: &Self::Settings) -> Result<Self>;
    /// The base seed and the games per configuration.
    fn seed_and_games(s: &Self::Settings) -> (u64, u64);
    /// The files the run reads besides its models, in the order its description records
    /// them (made absolute there).
    fn files(s: &mut Self::Settings) -> Vec<&mut PathBuf>;
    /// Its model files.
    fn models(s: &mut Self::Settings) -> &mut Models;
    /// How many configurations a run plays.
    fn configs(&self) -> usize;
    /// An empty tally.
    fn zero(&self) -> Self::Tally;
    /// What to say once the run is described, before its games (nothing by default).
    fn started(&self, _s: &Self::Settings) {}
    /// Plays `slice` of every configuration's games.
    fn play(
        &self,
        s: &Self::Settings,
        slice: Slice,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
        log: &mut LogWriter<TallyUnit<Self::Tally>>,
    ) -> Result<Vec<Self::Tally>, Stop<StateError>>;
    /// Writes the tables and meta.json of a finished run (or of its merged shards).
    fn write(
        &self,
        s: &Self::Settings,
        out: &mut OutputDir,
        tallies: &[Self::Tally],
    ) -> Result<Self::Summary>;
    /// What the run was, the first words of its closing line.
    fn what(&self, s: &Self::Settings) -> String;
}

/// The games a process plays of every configuration: `games` from `first_game` on, on
/// `threads` worker threads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Slice {
    pub first_game: u64,
    pub games: u64,
    pub threads: usize,
}

/// How a command prints its summary on the terminal: from what it prepared, the settings,
/// its summary and the tallies (not called with `--quiet`).
pub trait Print<H: HeadToHead>: FnOnce(&H, &H::Settings, &H::Summary, &[H::Tally]) {}
impl<H: HeadToHead, F: FnOnce(&H, &H::Settings, &H::Summary, &[H::Tally])> Print<H> for F {}

/// Runs a head-to-head command as `run` runs one: with `--resume DIR`, the settings of the
/// unfinished run in DIR; its finished units in a checkpoint in `--out` (continued when
/// the same run is started again, refused when another is there unless `--force`), a
/// signal saving what is done, and a shard's state written as the shard's files; a whole
/// run's outputs written while the checkpoint is still held, then `print`ed.
pub fn run<H: HeadToHead>(req: Request<H::Settings>, print: impl Print<H>) -> Result<()> {
    let (settings, place) = resolve::<H>(req)?;
    let threads = default_threads(place.threads)?;
    let h = H::prepare(&settings)?;
    let spec = describe::<H>(&settings, place.shard)?;
    h.started(&settings);
    let Some(done) = execute(&h, &settings, &spec, &place, threads, print)? else {
        return Ok(());
    };
    eprintln!(
        "confluence-sim: {}, {}; wrote {} files in {}",
        h.what(&settings),
        games_and_speed(done.games, done.played, done.elapsed, threads),
        done.written,
        place.out.display()
    );
    Ok(())
}

/// The settings and place of a request: its own, or with `--resume DIR` those of the
/// unfinished run in DIR (with the request's `threads` and `quiet`).
fn resolve<H: HeadToHead>(req: Request<H::Settings>) -> Result<(H::Settings, Place)> {
    let Some(dir) = req.resume else {
        return Ok((req.settings, req.place));
    };
    let (settings, shard) = resumed(&dir, H::KIND)?;
    let place = Place {
        out: dir,
        threads: req.place.threads,
        quiet: req.place.quiet,
        shard,
        force: false,
    };
    Ok((settings, place))
}

/// The description of a run with settings `s`: the files it reads and its model files
/// made absolute, and hashed as the files it reads.
fn describe<H: HeadToHead>(s: &H::Settings, shard: Option<Shard>) -> Result<DuelSpec> {
    let mut s = s.clone();
    let (seed, games) = H::seed_and_games(&s);
    let mut files = Vec::new();
    for p in H::files(&mut s) {
        *p = absolute(p)?;
        files.push(p.clone());
    }
    let m = H::models(&mut s);
    for p in [&mut m.expert_weights, &mut m.value_weights]
        .into_iter()
        .flatten()
    {
        *p = absolute(p)?;
        files.push(p.clone());
    }
    let files: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    DuelSpec::new(H::KIND, seed, games, &s, &files, shard)
}

/// The settings of the unfinished `kind` run in `dir` (`--resume DIR`), checked, and its
/// shard.
fn resumed<A: DeserializeOwned>(dir: &Path, kind: &str) -> Result<(A, Option<Shard>)> {
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

/// What a whole run did (a shard reports nothing).
struct Done {
    /// Games in its tables.
    games: u64,
    /// Games played by this process (not those found in the checkpoint).
    played: u64,
    elapsed: f64,
    /// Files written.
    written: usize,
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

/// [`run`] once the run is described: takes the checkpoint in `--out`, plays the games of
/// this process's slice and writes the outputs. `None` for a shard.
fn execute<H: HeadToHead>(
    h: &H,
    s: &H::Settings,
    spec: &DuelSpec,
    place: &Place,
    threads: usize,
    print: impl Print<H>,
) -> Result<Option<Done>> {
    let out = place.out.as_path();
    drop(output_dir(
        out,
        Guard {
            force: Some(place.force),
            resumes: true,
        },
    )?);
    let text = spec.text();
    let checkpoint = Checkpoint::take(out, &text, place.force)?;
    // Whatever fails from here on, the checkpoint keeps the finished games: say so.
    play_and_write(h, s, spec, place, threads, print, checkpoint, &text)
        .map_err(|err| super::checkpoint::kept(err, out))
}

/// [`execute`] once the checkpoint is taken: plays the games of the slice and writes the
/// outputs.
#[allow(clippy::too_many_arguments)]
fn play_and_write<H: HeadToHead>(
    h: &H,
    s: &H::Settings,
    spec: &DuelSpec,
    place: &Place,
    threads: usize,
    print: impl Print<H>,
    checkpoint: Checkpoint,
    text: &str,
) -> Result<Option<Done>> {
    let out = place.out.as_path();
    let games = spec.games;
    let (lo, hi) = spec.shard.map_or((0, games), |s| s.range(games));
    let mut log = LogWriter::<TallyUnit<H::Tally>>::open(&checkpoint.dir, false)?;
    let kept = log.kept_games();
    if kept > 0 {
        eprintln!(
            "confluence-sim: continuing the unfinished run in {}: {kept} games already played",
            out.display()
        );
    }
    // `prepare` checked that the games of all configurations fit in 64 bits.
    let pb = progress_bar((hi - lo).saturating_mul(h.configs() as u64), place.quiet);
    let started = Instant::now();
    let slice = Slice {
        first_game: lo,
        games: hi - lo,
        threads,
    };
    let result = h.play(s, slice, &|n| pb.inc(n), &checkpoint.stop, &mut log);
    pb.finish_and_clear();
    let tallies = match result {
        Ok(t) => t,
        Err(Stop::Interrupted) => {
            log.sync()?;
            let done = log.kept_games() + log.new_games();
            return Err(checkpoint.interrupted(out, done));
        }
        Err(Stop::Error(err)) => return Err(err.into()),
    };
    log.sync()?;
    let played = log.new_games();
    drop(log);
    let elapsed = started.elapsed().as_secs_f64();
    let Some(sh) = spec.shard else {
        let written = write_outputs(h, s, out, None, place.quiet, &tallies, print)?;
        drop(checkpoint);
        return Ok(Some(Done {
            games: tallies.iter().map(Tally::games).sum(),
            played,
            elapsed,
            written,
        }));
    };
    let mut dir = OutputDir::new(out).with_context(|| format!("--out {}", out.display()))?;
    checkpoint.write_shard(&mut dir, text, false)?;
    dir.commit()?;
    eprintln!(
        "confluence-sim: shard {sh}: games {lo}..{hi} of each {}; merge the {} shards with `confluence-sim merge`",
        H::CONFIG_WORD,
        sh.count
    );
    Ok(None)
}

/// The description of the whole `kind` run whose shards `set` holds, checked.
fn whole_spec(set: &ShardSet, kind: &str) -> Result<DuelSpec> {
    let first = &set.shards[0].0;
    DuelSpec::of(&set.whole(), kind, &first.join("shard.json"))
        .with_context(|| format!("the run of shard {}", first.display()))
}

/// The tallies of the `configs` configurations of the run `spec` whose shards `set`
/// holds, after checking that each shard holds every game of its slice.
fn merged<T: Tally>(
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
/// replaced whole; checked by `guard` first when given), then prints their summary unless
/// `quiet`; returns the number of files written.
#[allow(clippy::too_many_arguments)]
fn write_outputs<H: HeadToHead>(
    h: &H,
    s: &H::Settings,
    out: &Path,
    guard: Option<Guard>,
    quiet: bool,
    tallies: &[H::Tally],
    print: impl Print<H>,
) -> Result<usize> {
    let mut dir = match guard {
        Some(g) => output_dir(out, g)?,
        None => OutputDir::new(out).with_context(|| format!("--out {}", out.display()))?,
    };
    let summary = h.write(s, &mut dir, tallies)?;
    let written = dir.commit()?;
    if !quiet {
        print(h, s, &summary, tallies);
    }
    Ok(written.len())
}

/// `merge` of a head-to-head command's shards: the shards and the whole run's description
/// checked, the tallies of every shard's slice added up, and the outputs of the whole run
/// written (refusing an `--out` that holds finished work unless `--force`) through the
/// code that writes them at the end of a run.
pub fn merge<H: HeadToHead>(m: &Merge, print: impl Print<H>) -> Result<()> {
    let set = ShardSet::read(&m.shards, &m.out)?;
    let spec = whole_spec(&set, H::KIND)?;
    let s: H::Settings = spec.settings()?;
    let h = H::prepare(&s)?;
    let tallies = merged(&set, &spec, h.configs(), || h.zero())?;
    let guard = Guard {
        force: Some(m.force),
        resumes: false,
    };
    let written = write_outputs(&h, &s, &m.out, Some(guard), m.quiet, &tallies, print)?;
    let total: u64 = tallies.iter().map(Tally::games).sum();
    eprintln!(
        "confluence-sim: merged {} shards ({total} games); wrote {written} files in {}",
        set.count,
        m.out.display()
    );
    Ok(())
}

/// The card data and the models of a head-to-head run.
pub struct Base {
    pub lib: Library,
    /// `--expert-weights`, when given.
    pub expert: Option<ExpertWeights>,
    /// `--value-weights`, when given.
    pub value: Option<ValueNet>,
}

impl Base {
    /// Loads the card data in `cards` and the model files of `models`.
    pub fn load(cards: &Path, models: &Models) -> Result<Base> {
        Ok(Base {
            lib: load::library(cards)?,
            expert: load::expert_weights(models.expert_weights.as_deref())?,
            value: load::value_weights(models.value_weights.as_deref())?,
        })
    }

    /// The models the games are played with.
    pub fn models(&self) -> crate::policy::Models<'_> {
        crate::policy::Models {
            expert: self.expert.as_ref(),
            value: self.value.as_ref(),
        }
    }
}

/// What `matchup` and `ffa` play: the card data and models, the decks, the policies and
/// the entries (each deck with each policy, deck by deck).
pub struct Field {
    pub base: Base,
    pub decks: Vec<PlayerDeck>,
    pub policies: Vec<PolicySpec>,
    pub entries: Vec<Entry>,
    /// What the tables say of each entry.
    pub info: Vec<EntryInfo>,
}

impl Field {
    /// Loads the card data, the models and the decks of `s` (saying what is wrong with a
    /// deck that `allow_illegal` lets through, and which cards are not fully encoded) and
    /// makes the entries of the decks and `policies`. `check` may refuse a deck, before
    /// the warning about its encoding.
    pub fn load(
        s: &Entries,
        policies: Vec<PolicySpec>,
        check: impl Fn(&PlayerDeck) -> Result<()>,
    ) -> Result<Field> {
        let base = Base::load(&s.cards, &s.models)?;
        let lib = &base.lib;
        let mut warnings = Vec::new();
        let decks = load::player_decks(lib, &s.players, s.allow_illegal, &mut warnings)?;
        for w in &warnings {
            eprintln!("confluence-sim: warning: {w}");
        }
        for d in &decks {
            check(d)?;
            let k = load::non_exact(lib, d);
            if k > 0 {
                eprintln!(
                    "confluence-sim: warning: {} holds {k} card(s) whose abilities are not fully encoded; they play with what is encoded (see `confluence-sim cards coverage`)",
                    d.path.display()
                );
            }
        }
        let entries: Vec<Entry> = (0..decks.len())
            .flat_map(|deck| (0..policies.len()).map(move |policy| Entry { deck, policy }))
            .collect();
        let info: Vec<EntryInfo> = entries
            .iter()
            .map(|e| EntryInfo {
                deck: decks[e.deck].name.clone(),
                hero: lib.db.card(decks[e.deck].hero).name.clone(),
                policy: policies[e.policy].to_string(),
            })
            .collect();
        Ok(Field {
            base,
            decks,
            policies,
            entries,
            info,
        })
    }

    /// What the games of `slice` play, at two seats (`sim::matchup`) or four
    /// (`sim::ffa`).
    pub fn plan(&self, s: &Entries, slice: Slice) -> EntryPlan<'_> {
        EntryPlan {
            db: &self.base.lib.db,
            decks: &self.decks,
            policies: &self.policies,
            entries: self.entries.clone(),
            first_game: slice.first_game,
            games: slice.games,
            seed: s.seed,
            threads: slice.threads,
            day_cap: s.day_cap,
            models: self.base.models(),
        }
    }

    /// The entries as meta.json lists them.
    pub fn entries_json(&self) -> Vec<Value> {
        self.info
            .iter()
            .enumerate()
            .map(|(i, e)| json!({"entry": i, "deck": e.deck, "hero": e.hero, "policy": e.policy}))
            .collect()
    }

    /// The decks as meta.json lists them.
    pub fn decks_json(&self) -> Vec<Value> {
        let lib = &self.base.lib;
        self.decks
            .iter()
            .map(|d| {
                json!({
                    "deck": d.name,
                    "hero": lib.db.card(d.hero).name,
                    "cards": d.cards.len() + 1,
                    "not_exact": load::non_exact(lib, d),
                })
            })
            .collect()
    }
}

/// What the ranking tables of `matchup` and `ffa` say about each entry.
pub struct EntryInfo {
    pub deck: String,
    pub hero: String,
    pub policy: String,
}

/// A ranking table's first columns, shared by `matchup` and `ffa`: the schema, then per
/// entry in `order` (strongest first) its rank, index, deck, hero and policy.
pub fn entry_columns(schema: u32, order: &[usize], ranks: &[usize], info: &[EntryInfo]) -> Table {
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
