//! The report of a `confluence-sim matchup` directory, in the same three steps as the run
//! report, with the same [`Document`] renderers:
//!
//! 1. [`MatchupInputs::read`] ([`inputs`]) reads `matchups.parquet`, `ranking.parquet` and
//!    `meta.json`, checking that every ordered pair of entries has one row and that the
//!    two rows of a pair count the same games;
//! 2. [`MatchupModel::build`] ([`model`]) orders the entries by their ranking, names them
//!    as the run report names decks, and lays out the matrix of win rates;
//! 3. [`sections::document`] writes the findings ("which deck beats which"), the heatmap
//!    ([`super::heatmap`]) and the ranking table.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

pub mod inputs;
pub mod model;
pub mod sections;

use std::path::Path;

use crate::error::ReportError;

pub use inputs::MatchupInputs;
pub use model::MatchupModel;
pub use sections::HEATMAP_FILE;

use super::Document;

/// The schema version of `matchups.parquet` (and `.csv`).
pub const MATCHUPS_SCHEMA_VERSION: u32 = 1;
/// The schema version of `ranking.parquet` (and `.csv`).
pub const RANKING_SCHEMA_VERSION: u32 = 1;

/// Whether `dir` holds the outputs of `confluence-sim matchup` (and not those of a run).
pub fn is_matchup_dir(dir: &Path) -> bool {
    dir.join("matchups.parquet").is_file() && !dir.join("summary.parquet").is_file()
}

/// Reads a matchup directory and lays its report out; returns the document and the
/// warnings about its inputs.
///
/// # Errors
///
/// See [`MatchupInputs::read`].
pub fn build(dir: &Path) -> Result<(Document, Vec<String>), ReportError> {
    let inputs = MatchupInputs::read(dir)?;
    let model = MatchupModel::build(&inputs);
    Ok((sections::document(&model), model.warnings))
}
