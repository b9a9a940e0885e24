//! `confluence-sim report DIR`.

use std::path::Path;

use anyhow::{Result, bail};

use super::cli::ReportArgs;
use crate::job::outputs::CHECKPOINT;

pub fn report(a: ReportArgs) -> Result<()> {
    if !(a.target > 0.0 && a.target < 1.0) {
        anyhow::bail!(
            "--target {}: expected a win rate between 0 and 1 (e.g. 0.5)",
            a.target
        );
    }
    advise_unreportable(&a.dir)?;
    let written = crate::report::write_report(&a.dir, a.target)?;
    for w in &written.warnings {
        eprintln!("confluence-sim: warning: {w}");
    }
    let html = a.dir.join("report.html");
    let charts = written
        .files
        .iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("charts")))
        .count();
    eprintln!(
        "confluence-sim: wrote {}, {} and {charts} chart(s) in {}",
        html.display(),
        a.dir.join("report.md").display(),
        a.dir.join("charts").display()
    );
    Ok(())
}

/// A directory holding a shard's state or an unfinished run's checkpoint, and no tables,
/// is not a run to report: say what to do with it.
fn advise_unreportable(dir: &Path) -> Result<()> {
    let has_tables = ["summary.parquet", "summary.csv", "pods.parquet"]
        .iter()
        .any(|f| dir.join(f).is_file());
    if has_tables {
        return Ok(());
    }
    let shard = dir.join("shard.json");
    if shard.is_file() {
        let which = crate::job::checkpoint::which_shard(dir);
        bail!(
            "{d}: it holds {which} of a sharded run, which has no tables of its own; merge the shards first (`confluence-sim merge {d} ... --out DIR`), then report the merged run (`confluence-sim report DIR`)",
            d = dir.display()
        );
    }
    if dir.join(CHECKPOINT).join("run.json").is_file() {
        bail!(
            "{d}: it holds an unfinished run, which has no tables yet; continue it with `{}`, then report it",
            crate::job::checkpoint::resume_command(dir),
            d = dir.display()
        );
    }
    if let Some(holds) = other_outputs(dir) {
        bail!(
            "{d}: it holds {holds}; report writes report.html and report.md from the outputs of run, matchup, booster-war, ffa or sensitivity (in a directory of their own)",
            d = dir.display()
        );
    }
    Ok(())
}

/// What a directory of a command that `report` does not read holds, by the `kind` of its
/// meta.json (so that the advice is never to run over it).
fn other_outputs(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("meta.json")).ok()?;
    let meta: serde_json::Value = serde_json::from_str(&text).ok()?;
    let holds = match meta.get("kind")?.as_str()? {
        "ffa" => {
            "the outputs of ffa without pods.parquet, which its report reads (pods.csv and ratings.csv: tables to read as they are)"
        }
        "tune" => {
            "the outputs of tune (tune_candidates.csv, tune_rares.csv, tune_screening.csv: the mixes closest to its target, a table to read as it is)"
        }
        "compare" => "the outputs of compare (compare.csv, games.csv: a table to read as it is)",
        "ladder" => "the outputs of ladder (ladder.csv: a table to read as it is)",
        "optimize" => {
            "the outputs of optimize (best_deck.txt, optimize.csv, trajectory.csv: the deck it found and how)"
        }
        _ => return None,
    };
    Some(holds.to_string())
}
