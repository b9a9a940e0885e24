//! `--shard I/N`: one slice of every configuration's games, for runs split across
//! machines and merged afterwards; and what every merge checks first: that the shards it is
//! given are the slices of one run, each once, none missing, each holding its whole slice.
//!
//! Layer: part of [`crate::job`].

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::checkpoint::{difference, kind_of, read_spec, shard_of};
use crate::sim::state::{LogReader, LogUnit};

/// Shard `index` of `count` (0-based: `0/4` .. `3/4`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' (expected I/N with 0 <= I < N, e.g. 0/4; I counts from 0)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse::<u64>().map_err(|_| bad())?,
            n.trim().parse::<u64>().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// The games of each configuration this shard plays: `[index * g / count, (index + 1)
    /// * g / count)`.
    pub fn range(&self, games: u64) -> (u64, u64) {
        let at = |i: u64| ((i as u128 * games as u128) / self.count as u128) as u64;
        (at(self.index), at(self.index + 1))
    }
}

/// The command whose shards `dirs` are (the first one's `kind`; `run` when it is not a
/// shard at all, so that `run`'s merge explains what is wrong).
pub fn merged_kind(dirs: &[PathBuf]) -> String {
    dirs.first()
        .and_then(|d| read_spec(&d.join("shard.json")).ok())
        .map_or_else(|| "run".to_string(), |v| kind_of(&v).to_string())
}

/// The shards of one run, in order, with their descriptions; and their count.
pub struct ShardSet {
    pub shards: Vec<(PathBuf, Value)>,
    pub count: u64,
}

impl ShardSet {
    /// Reads `dirs`' descriptions and checks that they are every shard of one run, once
    /// each, and that `out` is none of them.
    pub fn read(dirs: &[PathBuf], out: &Path) -> Result<ShardSet> {
        // The output may not be one of the inputs: the merge would replace a shard it reads.
        if let Ok(o) = std::fs::canonicalize(out)
            && let Some(dir) = dirs
                .iter()
                .find(|d| std::fs::canonicalize(d).is_ok_and(|d| d == o))
        {
            return Err(super::error::usage(format!(
                "--out {}: it is one of the shards being merged ({}); give the merge a directory of its own, e.g. --out merged",
                out.display(),
                dir.display()
            )));
        }
        let mut shards: Vec<(PathBuf, Value, Shard)> = Vec::new();
        for dir in dirs {
            let p = dir.join("shard.json");
            if !p.exists() {
                bail!(
                    "{}: not a finished shard (no shard.json; a shard is the --out of `confluence-sim run --shard I/N` (or of matchup or booster-war), written when it finishes)",
                    dir.display()
                );
            }
            let spec = read_spec(&p)?;
            let Some(sh) = shard_of(&spec) else {
                bail!("{}: describes a run that is not a shard", p.display());
            };
            shards.push((dir.clone(), spec, sh));
        }
        let (first_dir, first, first_shard) = shards[0].clone();
        let count = first_shard.count;
        for (dir, s, sh) in &shards[1..] {
            if let Some(d) = difference(&first, s, true) {
                bail!(
                    "{} and {} are not shards of the same run: {d}",
                    first_dir.display(),
                    dir.display()
                );
            }
            if sh.count != count {
                bail!(
                    "{} is a shard of {count} and {} a shard of {}: not the same run",
                    first_dir.display(),
                    dir.display(),
                    sh.count
                );
            }
        }
        let mut seen: Vec<Vec<&PathBuf>> = vec![Vec::new(); count as usize];
        for (dir, _, sh) in &shards {
            seen[sh.index as usize].push(dir);
        }
        let dup: Vec<String> = seen
            .iter()
            .enumerate()
            .filter(|(_, d)| d.len() > 1)
            .map(|(i, d)| {
                format!(
                    "shard {i}/{count} is given {} times ({})",
                    d.len(),
                    d.iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
            .collect();
        if !dup.is_empty() {
            bail!("{}", dup.join("; "));
        }
        let missing: Vec<String> = seen
            .iter()
            .enumerate()
            .filter(|(_, d)| d.is_empty())
            .map(|(i, _)| format!("{i}/{count}"))
            .collect();
        if !missing.is_empty() {
            bail!(
                "missing {} of the {count} shards: {}",
                missing.len(),
                missing.join(", ")
            );
        }
        shards.sort_by_key(|(_, _, sh)| sh.index);
        Ok(ShardSet {
            shards: shards.into_iter().map(|(d, v, _)| (d, v)).collect(),
            count,
        })
    }

    /// The first shard's description, as the whole run's (no shard).
    pub fn whole(&self) -> Value {
        let mut v = self.shards[0].1.clone();
        if let Some(m) = v.as_object_mut() {
            m.insert("shard".into(), Value::Null);
        }
        v
    }
}

/// Checks that shard `dir`'s state holds every game of its slice (`range`, of `games`
/// per configuration) of each of `configs` configurations, once, in order; calls `add`
/// with each unit.
pub fn read_slice<U: LogUnit>(
    dir: &Path,
    r: &LogReader<U>,
    configs: usize,
    (lo, hi): (u64, u64),
    mut add: impl FnMut(&U),
) -> Result<()> {
    let mut next = vec![lo; configs];
    for rec in &r.records {
        let (config, start, end) = rec.unit.span();
        let c = config as usize;
        if c >= configs || start != next[c] || end > hi {
            bail!(
                "{}: games {start}..{end} of configuration {config} do not follow the shard's slice {lo}..{hi} (a damaged or foreign units.log)",
                dir.display(),
            );
        }
        next[c] = end;
        add(&rec.unit);
    }
    if r.damaged() || next.iter().any(|&n| n != hi) {
        bail!(
            "{}: the shard is incomplete or damaged (its units.log does not hold every game of its slice); run it again",
            dir.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_from_zero_and_cover_every_game_once() {
        assert_eq!("0/4".parse::<Shard>(), Ok(Shard { index: 0, count: 4 }));
        assert!("4/4".parse::<Shard>().is_err());
        assert!("1/0".parse::<Shard>().is_err());
        assert!("1".parse::<Shard>().is_err());
        assert!("-1/3".parse::<Shard>().is_err());
        for n in [1u64, 2, 3, 7] {
            for g in [0u64, 1, 5, 700, 9604] {
                let mut next = 0;
                for i in 0..n {
                    let (a, b) = Shard { index: i, count: n }.range(g);
                    assert_eq!(a, next);
                    next = b;
                }
                assert_eq!(next, g);
            }
        }
    }
}
