//! What a run is, as stored beside its state (`checkpoint/run.json`, `shard.json`): the
//! settings that decide its results and the content hashes of the files it read. A resumed
//! run, the shards of one run and a merge all check against it.
//!
//! Layer: part of [`crate::job`].

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use super::config::{Edits, Play};
use super::load::{self, DEFAULT_PLAYER};
use super::plan::{GamesRule, Job};
pub use super::shard::Shard;
use crate::deck::RareMix;

pub const FORMAT: u32 = 1;

/// A file (or directory) a run read, with the hash of its content.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataFile {
    pub path: PathBuf,
    pub blake3: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GamesSpec {
    PerConfig(u64),
    TargetHalfWidth {
        half_width: f64,
        max_per_config: u64,
        batch: u64,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSpec {
    pub format: u32,
    pub version: String,
    /// [`crate::sim::GAMES_VERSION`]: a checkpoint or shard of another version of the games
    /// is refused (one written before it was recorded has none; JSON compares it as null).
    #[serde(default)]
    pub games_version: Option<u32>,
    pub experiment: Option<String>,
    pub players: Vec<DataFile>,
    pub confluence: DataFile,
    pub cards: DataFile,
    pub allow_illegal: bool,
    pub policies: Vec<String>,
    /// The rare mixes, as masks (bit i: the i-th rare of the Confluence deck, by name).
    pub mixes: Vec<u16>,
    pub games: GamesSpec,
    pub seed: u64,
    pub day_cap: u8,
    pub per_game: bool,
    pub shard: Option<Shard>,
    /// `--expert-weights`, if given (absent in specs written before it existed).
    #[serde(default)]
    pub expert_weights: Option<DataFile>,
    /// `--value-weights`, if given (absent when not given, so specs read as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_weights: Option<DataFile>,
    /// The what-if edits, in order, as `CARD: CHANGE` (absent when there are none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edits: Vec<String>,
}

fn hash_tree(root: &Path, rel: &Path, h: &mut blake3::Hasher) -> std::io::Result<()> {
    let dir = root.join(rel);
    let mut entries: Vec<_> = std::fs::read_dir(&dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let r = rel.join(e.file_name());
        if e.file_type()?.is_dir() {
            hash_tree(root, &r, h)?;
        } else if r.extension().is_some_and(|x| x == "md") {
            // Documentation beside the data (decks/cards/EFFECTS.md) does not change results.
            continue;
        } else {
            let bytes = std::fs::read(e.path())?;
            let name = r.to_string_lossy();
            h.update(&(name.len() as u64).to_le_bytes());
            h.update(name.as_bytes());
            h.update(&(bytes.len() as u64).to_le_bytes());
            h.update(&bytes);
        }
    }
    Ok(())
}

/// The path (absolute, or `builtin:NAME` for data built into the binary) and content hash
/// of a file, or of every file under a directory.
pub fn data_file(p: &Path) -> Result<DataFile> {
    if let super::builtin::Source::Builtin(name) = super::builtin::locate(p) {
        let hash = super::builtin::hash(&name).ok_or_else(|| super::builtin::missing(&name))?;
        return Ok(DataFile {
            path: super::builtin::recorded(p),
            blake3: hash.to_hex().to_string(),
        });
    }
    let path = std::fs::canonicalize(p).with_context(|| format!("{}", p.display()))?;
    let hash = if path.is_dir() {
        let mut h = blake3::Hasher::new();
        hash_tree(&path, Path::new(""), &mut h).with_context(|| format!("{}", p.display()))?;
        h.finalize()
    } else {
        blake3::hash(&std::fs::read(&path).with_context(|| format!("{}", p.display()))?)
    };
    Ok(DataFile {
        path,
        blake3: hash.to_hex().to_string(),
    })
}

impl RunSpec {
    pub fn of(job: &Job) -> Result<RunSpec> {
        let m = &job.source;
        let players: Vec<PathBuf> = if m.players.is_empty() {
            vec![PathBuf::from(DEFAULT_PLAYER)]
        } else {
            m.players.clone()
        };
        Ok(RunSpec {
            format: FORMAT,
            version: env!("CARGO_PKG_VERSION").into(),
            games_version: Some(crate::sim::GAMES_VERSION),
            experiment: job.experiment.clone(),
            players: players
                .iter()
                .map(|p| data_file(p))
                .collect::<Result<_>>()?,
            confluence: data_file(&m.confluence)?,
            cards: data_file(&m.cards)?,
            allow_illegal: m.allow_illegal,
            policies: job.loaded.policies.iter().map(|p| p.to_string()).collect(),
            mixes: job.mixes.iter().map(|m| m.0).collect(),
            games: match job.games {
                GamesRule::Fixed(g) => GamesSpec::PerConfig(g),
                GamesRule::Precision {
                    half_width,
                    max,
                    batch,
                } => GamesSpec::TargetHalfWidth {
                    half_width,
                    max_per_config: max,
                    batch,
                },
            },
            seed: job.seed,
            day_cap: job.day_cap,
            per_game: job.per_game,
            shard: job.shard,
            expert_weights: m.expert_weights.as_deref().map(data_file).transpose()?,
            value_weights: m.value_weights.as_deref().map(data_file).transpose()?,
            edits: job.loaded.edits.iter().map(|e| e.to_string()).collect(),
        })
    }

    /// Reads a spec file.
    pub fn read(path: &Path) -> Result<RunSpec> {
        let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
        let spec: RunSpec = serde_json::from_str(&text).with_context(|| {
            format!(
                "{}: not a run description written by confluence-sim {}",
                path.display(),
                env!("CARGO_PKG_VERSION")
            )
        })?;
        if spec.format != FORMAT {
            bail!(
                "{}: format {} (this confluence-sim reads format {FORMAT})",
                path.display(),
                spec.format
            );
        }
        Ok(spec)
    }

    /// Writes the spec as `path`, by way of a temporary name.
    pub fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).expect("a spec serializes");
        super::checkpoint::write_spec(path, &text)
    }

    /// The first setting in which two specs differ, as "name: a vs b", or `None`.
    pub fn difference(&self, o: &RunSpec, ignore_shard: bool) -> Option<String> {
        let a = serde_json::to_value(self).expect("serializes");
        let b = serde_json::to_value(o).expect("serializes");
        super::checkpoint::difference(&a, &b, ignore_shard)
    }

    /// Checks that none of these files changed since a run read them.
    pub fn check_unchanged<'a>(files: impl IntoIterator<Item = &'a DataFile>) -> Result<()> {
        for f in files {
            let now = data_file(&f.path).with_context(|| "a file the run read is gone")?;
            if now.blake3 != f.blake3 {
                bail!(
                    "{} changed since the run started (its content hash differs): results would not be the same",
                    f.path.display()
                );
            }
        }
        Ok(())
    }

    /// The job this spec describes, after checking that the files it read are unchanged.
    pub fn job(&self, out: PathBuf, threads: usize, quiet: bool) -> Result<Job> {
        if self.version != env!("CARGO_PKG_VERSION") {
            bail!(
                "made by confluence-sim {}, this is {}: results would not be the same",
                self.version,
                env!("CARGO_PKG_VERSION")
            );
        }
        RunSpec::check_unchanged(
            self.players
                .iter()
                .chain([&self.confluence, &self.cards])
                .chain(&self.expert_weights)
                .chain(&self.value_weights),
        )?;
        let source = Play {
            players: self.players.iter().map(|f| f.path.clone()).collect(),
            confluence: self.confluence.path.clone(),
            policies: self.policies.clone(),
            calibrated: None,
            rares: Vec::new(),
            rare_sets: Vec::new(),
            subsets: 3,
            day_cap: self.day_cap,
            allow_illegal: self.allow_illegal,
            cards: self.cards.path.clone(),
            expert_weights: self.expert_weights.as_ref().map(|f| f.path.clone()),
            value_weights: self.value_weights.as_ref().map(|f| f.path.clone()),
            edits: Edits {
                edit: self.edits.clone(),
                edits_file: None,
            },
        };
        let loaded = load::load(&source)?;
        let n = loaded.confluence.rares.len();
        let mut mixes = Vec::new();
        for &m in &self.mixes {
            if n < 16 && (m as u32) >> n != 0 {
                bail!("rare mix {m:#x} names more rares than the Confluence deck has ({n})");
            }
            mixes.push(RareMix(m));
        }
        let games = match self.games {
            GamesSpec::PerConfig(g) => GamesRule::Fixed(g),
            GamesSpec::TargetHalfWidth {
                half_width,
                max_per_config,
                batch,
            } => GamesRule::Precision {
                half_width,
                max: max_per_config,
                batch,
            },
        };
        Ok(Job {
            loaded,
            mixes,
            games,
            seed: self.seed,
            day_cap: self.day_cap,
            out,
            threads,
            per_game: self.per_game,
            quiet,
            experiment: self.experiment.clone(),
            source,
            shard: self.shard,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(edits: &[&str]) -> RunSpec {
        let f = |p: &str| DataFile {
            path: PathBuf::from(p),
            blake3: "0".into(),
        };
        RunSpec {
            format: FORMAT,
            version: "0".into(),
            games_version: None,
            experiment: None,
            players: vec![f("a.txt")],
            confluence: f("c.toml"),
            cards: f("cards"),
            allow_illegal: false,
            policies: vec!["greedy".into()],
            mixes: vec![0],
            games: GamesSpec::PerConfig(10),
            seed: 1,
            day_cap: 30,
            per_game: false,
            shard: None,
            expert_weights: None,
            value_weights: None,
            edits: edits.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn edits_are_part_of_a_runs_settings_and_absent_when_there_are_none() {
        let none = serde_json::to_string(&spec(&[])).unwrap();
        assert!(
            !none.contains("edits"),
            "a spec without edits reads as before"
        );
        let back: RunSpec = serde_json::from_str(&none).unwrap();
        assert!(back.edits.is_empty());
        let one = spec(&["Gloom Wisp: forest -1"]);
        let text = serde_json::to_string(&one).unwrap();
        assert_eq!(serde_json::from_str::<RunSpec>(&text).unwrap(), one);
        let d = one.difference(&spec(&[]), false).unwrap();
        assert!(d.starts_with("edits: "), "{d}");
        let d = one
            .difference(&spec(&["Gloom Wisp: forest +1"]), false)
            .unwrap();
        assert!(d.contains("forest -1") && d.contains("forest +1"), "{d}");
    }
}
