//! `confluence-sim scenario FILE`.

use std::io::Write;

use anyhow::{Result, bail};

use super::cli::ScenarioArgs;
use crate::gamelog::GameLog;
use crate::job::load;
use crate::scenario::Scenario;

pub fn scenario(a: ScenarioArgs) -> Result<()> {
    let lib = load::library(&a.cards)?;
    let mut sc = Scenario::load(&a.file, &lib)?;
    // The log borrows the scenario's card table; run on a copy of it.
    let db = sc.db.clone();
    let mut log = GameLog::new(&db);
    sc.run(&mut log)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let state = sc.state_json();
    if a.json {
        for r in &log.records {
            writeln!(out, "{r}")?;
        }
        writeln!(
            out,
            "{}",
            serde_json::json!({"event": "state", "state": state})
        )?;
    } else {
        writeln!(out, "{}", serde_json::to_string_pretty(&state)?)?;
    }
    out.flush()?;
    if a.log {
        for l in &log.lines {
            eprintln!("{l}");
        }
    }
    let diff = sc.check();
    if !diff.is_empty() {
        bail!(
            "{}: {} expectation(s) do not hold:\n  {}",
            a.file.display(),
            diff.len(),
            diff.join("\n  ")
        );
    }
    if !sc.expect.is_empty() {
        eprintln!(
            "{}: {} expectation(s) hold",
            a.file.display(),
            sc.expect.len()
        );
    }
    Ok(())
}
