//! Error types of the library modules. Every message names the file, the line and the value
//! at fault, and says what was expected.
//!
//! Layer: uses no other module of the crate.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum CardError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}:{line}: {msg}", path.display())]
    Pool {
        path: PathBuf,
        line: u64,
        msg: String,
    },
    #[error("{}:{line}: {reference}: {msg}", path.display())]
    Encoding {
        path: PathBuf,
        line: usize,
        reference: String,
        msg: String,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum DeckError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A line that cannot be read at all (syntax, unknown card).
    #[error("{}:{line}: {msg}", path.display())]
    Line {
        path: PathBuf,
        line: usize,
        msg: String,
    },
    /// A deck-building rule is broken; `--allow-illegal` downgrades these to warnings.
    #[error("{}{}: illegal deck: {rule}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Rule {
        path: PathBuf,
        line: Option<usize>,
        rule: String,
    },
}

impl DeckError {
    /// Broken deck-building rules can be simulated anyway; syntax errors cannot.
    pub fn is_rule(&self) -> bool {
        matches!(self, DeckError::Rule { .. })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("cannot write {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}: {msg}", path.display())]
    Format { path: PathBuf, msg: String },
    #[error("cannot read {}: {msg}", path.display())]
    Read { path: PathBuf, msg: String },
}

/// Errors of `confluence-sim report`: every message names the file and says what the
/// report expected to find there.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error(
        "{} not found: the report reads the outputs of a run; run `confluence-sim run --out {}` (or `confluence-sim matchup --out {}`, or `confluence-sim booster-war --out {}`) first",
        path.display(),
        dir.display(),
        dir.display(),
        dir.display()
    )]
    MissingSummary { path: PathBuf, dir: PathBuf },
    #[error("cannot read {}: {msg}; {expected}", path.display())]
    Read {
        path: PathBuf,
        msg: String,
        expected: String,
    },
    #[error("{}: {msg}", path.display())]
    Content { path: PathBuf, msg: String },
    #[error(transparent)]
    Export(#[from] ExportError),
}
