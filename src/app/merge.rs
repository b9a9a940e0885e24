//! `confluence-sim merge`: the shards of one run into the outputs of the whole run, the
//! same bytes as one unsharded run.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use super::cli::MergeArgs;
use super::job::{GamesRule, print_summary};
use super::outputs::{Guard, output_dir, write_games, write_tables};
use super::spec::RunSpec;
use crate::sim::ConfigSpec;
use crate::sim::state::StateReader;
use crate::stats::Accum;

pub fn merge(a: MergeArgs) -> Result<()> {
    // The output may not be one of the inputs: the merge would replace a shard it reads.
    if let Ok(out) = std::fs::canonicalize(&a.out)
        && let Some(dir) = a
            .shards
            .iter()
            .find(|d| std::fs::canonicalize(d).is_ok_and(|d| d == out))
    {
        return Err(super::usage(format!(
            "--out {}: it is one of the shards being merged ({}); give the merge a directory of its own, e.g. --out merged",
            a.out.display(),
            dir.display()
        )));
    }
    // Every shard's description, and that they are the slices of one run.
    let mut shards: Vec<(PathBuf, RunSpec)> = Vec::new();
    for dir in &a.shards {
        let p = dir.join("shard.json");
        if !p.exists() {
            bail!(
                "{}: not a finished shard (no shard.json; a shard is the --out of `confluence-sim run --shard I/N`, written when it finishes)",
                dir.display()
            );
        }
        let spec = RunSpec::read(&p)?;
        if spec.shard.is_none() {
            bail!("{}: describes a run that is not a shard", p.display());
        }
        shards.push((dir.clone(), spec));
    }
    let (first_dir, first) = shards[0].clone();
    let count = first.shard.expect("checked").count;
    for (dir, s) in &shards[1..] {
        if let Some(d) = first.difference(s, true) {
            bail!(
                "{} and {} are not shards of the same run: {d}",
                first_dir.display(),
                dir.display()
            );
        }
        let c = s.shard.expect("checked").count;
        if c != count {
            bail!(
                "{} is a shard of {count} and {} a shard of {c}: not the same run",
                first_dir.display(),
                dir.display()
            );
        }
    }
    let mut seen: Vec<Vec<&PathBuf>> = vec![Vec::new(); count as usize];
    for (dir, s) in &shards {
        seen[s.shard.expect("checked").index as usize].push(dir);
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
    shards.sort_by_key(|(_, s)| s.shard.expect("checked").index);
    let mut spec = first.clone();
    spec.shard = None;
    let job = spec
        .job(a.out.clone(), 1, a.quiet)
        .with_context(|| format!("the run of shard {}", first_dir.display()))?;
    let GamesRule::Fixed(games) = job.games else {
        bail!("the shards describe a precision-target run, which cannot be sharded");
    };
    let mut configs = Vec::new();
    for player in 0..job.loaded.players.len() {
        for policy in 0..job.loaded.policies.len() {
            for &mix in &job.mixes {
                configs.push(ConfigSpec {
                    player,
                    policy,
                    mix,
                });
            }
        }
    }
    // Each shard must hold every game of its slice of every configuration, once.
    let mut readers = Vec::new();
    let mut accums = vec![Accum::default(); configs.len()];
    for (dir, s) in &shards {
        let r = StateReader::open(dir, spec.per_game)
            .with_context(|| format!("shard {}", dir.display()))?;
        let (lo, hi) = s.shard.expect("checked").range(games);
        let mut next = vec![lo; configs.len()];
        for rec in &r.records {
            let u = &rec.unit;
            let c = u.config as usize;
            if c >= configs.len() || u.start != next[c] || u.end > hi {
                bail!(
                    "{}: games {}..{} of configuration {} do not follow the shard's slice {lo}..{hi} (a damaged or foreign units.log)",
                    dir.display(),
                    u.start,
                    u.end,
                    u.config
                );
            }
            next[c] = u.end;
            accums[c] += &u.accum;
        }
        if r.damaged() || next.iter().any(|&n| n != hi) {
            bail!(
                "{}: the shard is incomplete or damaged (its units.log does not hold every game of its slice); run it again",
                dir.display()
            );
        }
        readers.push(r);
    }
    let mut out = output_dir(
        &a.out,
        Guard {
            force: Some(a.force),
            resumes: false,
        },
    )?;
    let table = write_tables(
        &mut out,
        &job,
        &configs,
        &accums,
        &format!("{games} per configuration"),
    )?;
    if spec.per_game {
        write_games(&mut out, &configs, &mut readers)?;
    }
    let written = out.commit()?;
    if !a.quiet {
        print_summary(&table);
    }
    job.warn_engine_errors(&configs, &accums);
    let total: u64 = accums.iter().map(|a| a.games).sum();
    eprintln!(
        "confluence-sim: merged {count} shards ({total} games); wrote {} files in {}",
        written.len(),
        a.out.display()
    );
    Ok(())
}
