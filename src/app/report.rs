//! `confluence-sim report DIR`.

use anyhow::Result;

use super::cli::ReportArgs;

pub fn report(a: ReportArgs) -> Result<()> {
    if !(a.target > 0.0 && a.target < 1.0) {
        anyhow::bail!(
            "--target {}: expected a win rate between 0 and 1 (e.g. 0.5)",
            a.target
        );
    }
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
