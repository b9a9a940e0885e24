//! `confluence-sim merge`: the shards of one run into the outputs of the whole run, the
//! same bytes as one unsharded run.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use super::cli::MergeArgs;
use crate::job::outputs::{Guard, output_dir, write_games, write_tables};
use crate::job::plan::{GamesRule, print_summary};
use crate::job::shard::{ShardSet, read_slice};
use crate::job::spec::RunSpec;
use crate::sim::ConfigSpec;
use crate::sim::state::StateReader;
use crate::stats::Accum;

pub fn merge(a: MergeArgs) -> Result<()> {
    let set = ShardSet::read(&a.shards, &a.out)?;
    let count = set.count;
    let first_dir = set.shards[0].0.clone();
    let mut shards: Vec<(PathBuf, RunSpec)> = Vec::new();
    for (dir, v) in &set.shards {
        let spec: RunSpec = serde_json::from_value(v.clone()).with_context(|| {
            format!(
                "{}: not a run description written by confluence-sim {}",
                dir.join("shard.json").display(),
                env!("CARGO_PKG_VERSION")
            )
        })?;
        shards.push((dir.clone(), spec));
    }
    let first = shards[0].1.clone();
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
        let range = s.shard.expect("a shard").range(games);
        read_slice(dir, &r, configs.len(), range, |u| {
            accums[u.config as usize] += &u.accum
        })?;
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
