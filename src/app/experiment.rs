//! Experiment files: a TOML description of decks, policies, rare mixes and how many games,
//! run with `confluence-sim run --experiment FILE`. Format in README ("Experiments").

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use super::cli::RunArgs;
use super::load::{self, Loaded};
use super::mixes;
use super::run::{GamesRule, Job, default_threads};
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
}

fn greedy() -> Vec<String> {
    vec!["greedy".into()]
}
fn reference() -> String {
    "decks/confluence/reference.toml".into()
}
fn one() -> u64 {
    1
}
fn thirty() -> u8 {
    30
}
fn cards_dir() -> String {
    "decks/cards".into()
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

/// A path in an experiment file: relative to the current directory when it exists there,
/// else to the experiment file's directory.
fn resolve(file: &Path, p: &str) -> PathBuf {
    let direct = PathBuf::from(p);
    if direct.exists() || direct.is_absolute() {
        return direct;
    }
    file.parent().unwrap_or(Path::new(".")).join(p)
}

fn mixes_of(m: &Mixes, deck: &ConfluenceDeck, loaded: &Loaded, seed: u64) -> Result<Vec<RareMix>> {
    let n = deck.rares.len();
    let sets: Vec<String> = m.sets.iter().map(|s| s.join(",")).collect();
    let mut out = if m.counts.is_empty() && sets.is_empty() {
        Vec::new()
    } else {
        mixes::mixes(deck, &loaded.lib.db, &m.counts, &sets, m.subsets, seed)?
    };
    let mut add = |x: RareMix| {
        if !out.contains(&x) {
            out.push(x);
        }
    };
    if m.all_subsets {
        for bits in 0..(1u32 << n) {
            add(RareMix(bits as u16));
        }
    }
    for w in &m.one_at_a_time {
        match w.as_str() {
            "from_common" => {
                add(RareMix(0));
                for j in 0..n {
                    add(RareMix(1 << j));
                }
            }
            "from_rare" => {
                let all = RareMix::all(n);
                add(all);
                for j in 0..n {
                    add(RareMix(all.0 & !(1 << j)));
                }
            }
            other => {
                bail!("mixes.one_at_a_time: '{other}' (expected \"from_common\" or \"from_rare\")")
            }
        }
    }
    if out.is_empty() {
        bail!("[mixes] names no mix (give counts, sets, all_subsets or one_at_a_time)");
    }
    Ok(out)
}

/// Reads an experiment file into a job. Command-line --out, --threads, --per-game and
/// --quiet still apply.
pub fn job(path: &Path, a: &RunArgs) -> Result<Job> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading experiment {}", path.display()))?;
    let f: File = toml::from_str(&text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start].bytes().filter(|&b| b == b'\n').count() + 1)
            .unwrap_or(0);
        anyhow::anyhow!("{}:{line}: {}", path.display(), e.message().trim())
    })?;
    let m = super::cli::MatchArgs {
        players: f.players.iter().map(|p| resolve(path, p)).collect(),
        confluence: resolve(path, &f.confluence),
        policies: f.policies.clone(),
        rares: Vec::new(),
        rare_sets: Vec::new(),
        subsets: f.mixes.subsets,
        day_cap: f.day_cap,
        allow_illegal: a.m.allow_illegal,
        cards: resolve(path, &f.cards),
    };
    let loaded = load::load(&m).with_context(|| format!("experiment {}", path.display()))?;
    let mixes = mixes_of(&f.mixes, &loaded.confluence, &loaded, f.seed)
        .with_context(|| format!("experiment {}", path.display()))?;
    let games = match (f.games.per_config, f.games.target_half_width) {
        (Some(g), None) if g > 0 => GamesRule::Fixed(g),
        (None, Some(h)) if h > 0.0 && h < 0.5 => GamesRule::Precision {
            half_width: h,
            max: f.games.max_per_config.max(1),
            batch: f.games.batch.max(1),
        },
        _ => bail!(
            "{}: [games] needs either per_config = N (N > 0) or target_half_width = H (0 < H < 0.5), not both",
            path.display()
        ),
    };
    let out = if a.out != Path::new("reports/latest") {
        a.out.clone()
    } else {
        f.out
            .as_deref()
            .map(PathBuf::from)
            .unwrap_or_else(|| a.out.clone())
    };
    Ok(Job {
        loaded,
        mixes,
        games,
        seed: f.seed,
        day_cap: f.day_cap,
        out,
        threads: default_threads(a.threads)?,
        per_game: a.per_game,
        quiet: a.quiet,
        experiment: Some(f.name),
        source: m,
        shard: None,
    })
}
