//! The report of a `confluence-sim ffa` directory: [`FfaModel`] is a [`Report`], in the
//! same three steps as the run, matchup and Booster War reports, framed and rendered the
//! same way:
//!
//! 1. [`FfaInputs::read`] ([`inputs`]) reads `pods.parquet` and `meta.json`, checking that
//!    every seating seats its pod's four entries once and that the counts add up;
//! 2. [`FfaModel::build`] ([`model`]) totals the games per entry, seat and pod and fits the
//!    Plackett–Luce rating (the one `ratings.csv` holds: the same pods, the same fit);
//! 3. [`sections::page`] writes the findings, the ranking and its chart, the pods, the
//!    seats and their chart, draws and length, and the run.
//!
//! `ffa` writes this report itself at the end of a run, from the tables it has just made
//! ([`document`]); `confluence-sim report DIR` writes it again from the files.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

pub mod inputs;
pub mod model;
pub mod sections;

use std::path::Path;

use crate::error::ReportError;
use crate::export::Table;

pub use inputs::FfaInputs;
pub use model::FfaModel;
pub use sections::{ENTRIES_FILE, SEATS_FILE};

use super::document::Document;
use super::skeleton::{Page, Report};

/// The schema version of `pods.parquet` (and `.csv`).
pub const PODS_SCHEMA_VERSION: u32 = 1;
/// The schema version of `ratings.csv`.
pub const RATINGS_SCHEMA_VERSION: u32 = 1;
/// The rating's prior: its weight in virtual wins and games (see
/// [`crate::stats::plackett_luce`]).
pub const PRIOR: f64 = 1.0;

impl Report for FfaModel {
    /// A directory of `confluence-sim ffa` (and not of a run).
    fn recognises(dir: &Path) -> bool {
        dir.join("pods.parquet").is_file() && !dir.join("summary.parquet").is_file()
    }

    fn owns_chart(name: &str) -> bool {
        name == ENTRIES_FILE || name == SEATS_FILE
    }

    /// See [`FfaInputs::read`] and [`FfaModel::build`].
    fn read(dir: &Path, _target: f64) -> Result<FfaModel, ReportError> {
        Ok(FfaModel::build(&FfaInputs::read(dir)?))
    }

    fn page(&self) -> Page {
        sections::page(self)
    }
}

/// The report of the ffa run whose pods table and meta.json are `pods` and `meta`, to be
/// written into `dir`: the document and the warnings about its inputs.
///
/// # Errors
///
/// See [`FfaInputs::of`].
pub fn document(
    dir: &Path,
    pods: &Table,
    meta: Option<&serde_json::Value>,
) -> Result<(Document, Vec<String>), ReportError> {
    Ok(FfaModel::build(&FfaInputs::of(dir, pods, meta)?)
        .page()
        .document())
}
