//! `confluence-sim report DIR`.

use std::path::Path;

use anyhow::{Result, bail};

use super::cli::ReportArgs;
use super::outputs::CHECKPOINT;

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
    let has_tables = ["summary.parquet", "summary.csv"]
        .iter()
        .any(|f| dir.join(f).is_file());
    if has_tables {
        return Ok(());
    }
    let shard = dir.join("shard.json");
    if shard.is_file() {
        let which = super::checkpoint::which_shard(dir);
        bail!(
            "{d}: it holds {which} of a sharded run, which has no tables of its own; merge the shards first (`confluence-sim merge {d} ... --out DIR`), then report the merged run (`confluence-sim report DIR`)",
            d = dir.display()
        );
    }
    if dir.join(CHECKPOINT).join("run.json").is_file() {
        bail!(
            "{d}: it holds an unfinished run, which has no tables yet; continue it with `{}`, then report it",
            super::checkpoint::resume_command(dir),
            d = dir.display()
        );
    }
    Ok(())
}
