//! Writes a game record (docs/outputs.md, "Game records"): the header, the game's records,
//! and an optional last line, whole or not at all (a temporary file renamed into place).
//!
//! `play`'s own minimal writer, in this one function, until the shared record module
//! (header type and helpers, `replay --file`) takes its place.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use serde_json::Value;

pub fn write(path: &Path, header: &Value, records: &[Value], tail: Option<&Value>) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("--games-dir {}", dir.display()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("--games-dir {}", dir.display()))?;
    {
        let mut out = std::io::BufWriter::new(tmp.as_file_mut());
        for r in std::iter::once(header).chain(records).chain(tail) {
            writeln!(out, "{r}")?;
        }
        out.flush()?;
    }
    tmp.persist(path)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}
