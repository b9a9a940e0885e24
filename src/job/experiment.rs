//! Experiment files: a TOML description of decks, policies, rare mixes and how many games,
//! run with `confluence-sim run --experiment FILE`. Format in docs/balancing.md ("Experiments").
//!
//! Layer: part of [`crate::job`].

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Deserialize;

use super::builtin;
use super::config::{Outputs, Play};
use super::load::{self, Loaded};
use super::mixes;
use super::plan::{GamesRule, Job, default_threads};
use crate::deck::confluence::MAX_RARES;
use crate::deck::{ConfluenceDeck, RareMix};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: String,
    #[serde(default)]
    #[allow(dead_code)]
    description: String,
    players: Vec<String>,
    #[serde(default = "greedy")]
    policies: Vec<String>,
    #[serde(default = "reference")]
    confluence: String,
    #[serde(default = "one")]
    seed: u64,
    #[serde(default = "thirty")]
    day_cap: u8,
    #[serde(default)]
    out: Option<String>,
    #[serde(default = "cards_dir")]
    cards: String,
    games: Games,
    mixes: Mixes,
    /// What-if edits, applied in order (`[[edit]]` tables).
    #[serde(default, rename = "edit")]
    edits: Vec<toml::Spanned<crate::deck::edit::FileEdit>>,
}

fn greedy() -> Vec<String> {
    vec!["greedy".into()]
}
fn reference() -> String {
    super::builtin::CONFLUENCE.into()
}
fn one() -> u64 {
    1
}
fn thirty() -> u8 {
    30
}
fn cards_dir() -> String {
    super::builtin::CARDS.into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Games {
    per_config: Option<u64>,
    target_half_width: Option<f64>,
    #[serde(default = "max_games")]
    max_per_config: u64,
    #[serde(default = "batch")]
    batch: u64,
}

fn max_games() -> u64 {
    100_000
}
fn batch() -> u64 {
    2_000
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Mixes {
    #[serde(default)]
    counts: Vec<String>,
    #[serde(default = "three")]
    subsets: u32,
    #[serde(default)]
    all_subsets: bool,
    /// "from_common" and/or "from_rare".
    #[serde(default)]
    one_at_a_time: Vec<String>,
    #[serde(default)]
    sets: Vec<Vec<String>>,
}

fn three() -> u32 {
    3
}

/// A path in an experiment file: relative to the current directory when it exists there
/// (on disk or built in), else to the experiment file's directory. The paths of a built-in
/// experiment name built-in files.
fn resolve(file: &Path, p: &str) -> PathBuf {
    let direct = PathBuf::from(p);
    if let builtin::Source::Builtin(name) = builtin::locate(file) {
        let beside = Path::new(&name).parent().unwrap_or(Path::new("")).join(p);
        for c in [direct.as_path(), beside.as_path()] {
            if let Some(n) = builtin::name_of(c) {
                return PathBuf::from(format!("{}{n}", builtin::PREFIX));
            }
        }
    }
    if builtin::exists(&direct) || direct.is_absolute() {
        return direct;
    }
    file.parent().unwrap_or(Path::new(".")).join(p)
}

/// The line of the first `key = ...` (or `[key]`) in the file, for errors about a value
/// that TOML parsed but the experiment refuses; 0 when it is not written (a default).
fn line_of_key(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            let l = l.trim_start();
            l.strip_prefix(key).is_some_and(|rest| {
                let rest = rest.trim_start();
                rest.starts_with('=') || rest.starts_with(']')
            }) || l
                .strip_prefix('[')
                .is_some_and(|r| r.trim_start().starts_with(key))
        })
        .map_or(0, |i| i + 1)
}

/// An experiment file, read and checked as far as it can be without loading its decks.
pub struct Experiment {
    file: File,
    games: GamesRule,
    /// Rare counts as written, with their lines (checked against the deck's rares later).
    counts: Vec<String>,
    /// The `[[edit]]` tables, read, with their lines.
    edits: Vec<(usize, crate::deck::Edit)>,
}

/// Reads the text of an experiment file: TOML syntax, unknown keys, and every value that
/// can be checked without the decks (games, policies, mixes). `path` names the file in
/// errors, with the line of the value at fault.
pub fn parse(text: &str, path: &Path) -> Result<Experiment> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text); // a byte-order mark
    let f: File = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| {
                text[..s.start.min(text.len())]
                    .bytes()
                    .filter(|&b| b == b'\n')
                    .count()
                    + 1
            })
            .unwrap_or(0);
        anyhow::anyhow!("{}:{line}: {}", path.display(), e.message().trim())
    })?;
    let at = |key: &str, msg: String| {
        anyhow::anyhow!("{}:{}: {msg}", path.display(), line_of_key(text, key))
    };
    if f.players.is_empty() {
        return Err(at(
            "players",
            "players = []: name at least one player deck".into(),
        ));
    }
    if f.policies.is_empty() {
        return Err(at(
            "policies",
            "policies = []: name at least one policy (or leave the key out for greedy)".into(),
        ));
    }
    let mut specs: Vec<crate::policy::PolicySpec> = Vec::new();
    for p in &f.policies {
        let spec = p
            .parse::<crate::policy::PolicySpec>()
            .map_err(|e| at("policies", format!("policies: '{p}': {e}")))?;
        if specs.contains(&spec) {
            return Err(at(
                "policies",
                format!("policies: '{p}' is given twice; give each policy once"),
            ));
        }
        specs.push(spec);
    }
    if f.day_cap == 0 {
        return Err(at("day_cap", "day_cap = 0: expected 1 to 250 days".into()));
    }
    if f.day_cap > 250 {
        return Err(at(
            "day_cap",
            format!("day_cap = {}: expected 1 to 250 days", f.day_cap),
        ));
    }
    let g = &f.games;
    let games = match (g.per_config, g.target_half_width) {
        (Some(0), None) => {
            return Err(at(
                "per_config",
                "per_config = 0: expected at least 1 game".into(),
            ));
        }
        (Some(n), None) => GamesRule::Fixed(n),
        (None, Some(h)) => {
            if !(h > 0.0 && h < 0.5) {
                return Err(at(
                    "target_half_width",
                    format!(
                        "target_half_width = {h}: expected a number strictly between 0 and 0.5"
                    ),
                ));
            }
            if g.max_per_config == 0 {
                return Err(at(
                    "max_per_config",
                    "max_per_config = 0: expected at least 1 game".into(),
                ));
            }
            if g.batch == 0 {
                return Err(at("batch", "batch = 0: expected at least 1 game".into()));
            }
            GamesRule::Precision {
                half_width: h,
                max: g.max_per_config,
                batch: g.batch,
            }
        }
        _ => {
            return Err(at(
                "games",
                "[games] needs either per_config = N (N > 0) or target_half_width = H (0 < H < 0.5), not both".into(),
            ));
        }
    };
    let m = &f.mixes;
    for c in &m.counts {
        mixes::parse_counts(c, MAX_RARES)
            .map_err(|e| at("counts", format!("mixes.counts: '{c}': {e}")))?;
    }
    if m.subsets == 0 {
        return Err(at(
            "subsets",
            "mixes.subsets = 0: expected at least 1".into(),
        ));
    }
    for w in &m.one_at_a_time {
        if w != "from_common" && w != "from_rare" {
            return Err(at(
                "one_at_a_time",
                format!("mixes.one_at_a_time: '{w}' (expected \"from_common\" or \"from_rare\")"),
            ));
        }
    }
    for set in &m.sets {
        if set.iter().all(|n| n.trim().is_empty()) {
            return Err(at(
                "sets",
                "mixes.sets: an empty set names no rare (for all commons use counts = [\"0\"])"
                    .into(),
            ));
        }
    }
    if m.counts.is_empty() && m.sets.is_empty() && !m.all_subsets && m.one_at_a_time.is_empty() {
        return Err(at(
            "mixes",
            "[mixes] names no mix (give counts, sets, all_subsets or one_at_a_time)".into(),
        ));
    }
    let counts = m.counts.clone();
    let edits = crate::deck::edit::parse_tables(&f.edits, text)
        .map_err(|(line, msg)| anyhow::anyhow!("{}:{line}: {msg}", path.display()))?;
    Ok(Experiment {
        file: f,
        games,
        counts,
        edits,
    })
}

fn mixes_of(
    x: &Experiment,
    deck: &ConfluenceDeck,
    loaded: &Loaded,
) -> Result<Vec<RareMix>, String> {
    let m = &x.file.mixes;
    let n = deck.rares.len();
    let mut counts = Vec::new();
    for c in &x.counts {
        counts.push(
            mixes::parse_counts(c, n)
                .map_err(|e| format!("mixes.counts: '{c}': {e} (the deck has {n} rares)"))?,
        );
    }
    let mut out = mixes::counted(n, &counts, m.subsets, x.file.seed);
    let mut add = |x: RareMix| {
        if !out.contains(&x) {
            out.push(x);
        }
    };
    for set in &m.sets {
        let names: Vec<String> = set
            .iter()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        add(deck
            .mix_from_names(&names, &loaded.lib.db)
            .map_err(|e| format!("mixes.sets: {e}"))?);
    }
    if m.all_subsets {
        for bits in 0..(1u32 << n) {
            add(RareMix(bits as u16));
        }
    }
    for w in &m.one_at_a_time {
        let all = RareMix::all(n);
        add(if w == "from_common" { RareMix(0) } else { all });
        for j in 0..n {
            add(if w == "from_common" {
                RareMix(1 << j)
            } else {
                RareMix(all.0 & !(1 << j))
            });
        }
    }
    Ok(out)
}

/// Reads an experiment file into a job. What the file does not say comes from the command
/// line: of `given`, the calibrated players, `allow_illegal`, the model files and the
/// edits (applied after the file's); `outputs` (its `out` yields to the file's when it is
/// the default, reports/latest). Everything wrong in the file (or in the files it names) is
/// a file error (exit 1), never a usage error.
pub fn job(path: &Path, given: &Play, outputs: &Outputs) -> Result<Job> {
    let (shown, text) =
        builtin::read(path).with_context(|| format!("reading experiment {}", path.display()))?;
    let x = parse(&text, &shown)?;
    let f = &x.file;
    let m = Play {
        players: f.players.iter().map(|p| resolve(path, p)).collect(),
        confluence: resolve(path, &f.confluence),
        policies: f.policies.clone(),
        calibrated: given.calibrated.clone(),
        rares: Vec::new(),
        rare_sets: Vec::new(),
        subsets: f.mixes.subsets,
        day_cap: f.day_cap,
        allow_illegal: given.allow_illegal,
        cards: resolve(path, &f.cards),
        expert_weights: given.expert_weights.clone(),
        value_weights: given.value_weights.clone(),
        edits: given.edits.clone(),
    };
    let file_error = |e: anyhow::Error| {
        anyhow::anyhow!(
            "experiment {}: {}",
            path.display(),
            super::error::message(&e)
        )
    };
    let first = x
        .edits
        .iter()
        .map(|(line, edit)| load::SourcedEdit {
            edit: edit.clone(),
            origin: format!("{}:{line}: [[edit]] \"{edit}\"", path.display()),
            flag: false,
        })
        .collect();
    let loaded = load::load_with(&m, first).map_err(file_error)?;
    let mixes = mixes_of(&x, &loaded.confluence, &loaded)
        .map_err(|e| anyhow::anyhow!("experiment {}: {e}", path.display()))?;
    let out = if outputs.out != Path::new("reports/latest") {
        outputs.out.clone()
    } else {
        f.out
            .as_deref()
            .map(PathBuf::from)
            .unwrap_or_else(|| outputs.out.clone())
    };
    Ok(Job {
        loaded,
        mixes,
        games: x.games.clone(),
        seed: f.seed,
        day_cap: f.day_cap,
        out,
        threads: default_threads(outputs.threads)?,
        per_game: outputs.per_game,
        quiet: outputs.quiet,
        experiment: Some(f.name.clone()),
        source: m,
        shard: None,
    })
}
