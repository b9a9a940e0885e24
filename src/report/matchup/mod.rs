//! The report of a `confluence-sim matchup` directory: [`MatchupModel`] is a
//! [`Report`], in the same three steps as the run report, framed and rendered the same way:
//!
//! 1. [`MatchupInputs::read`] ([`inputs`]) reads `matchups.parquet`, `ranking.parquet` and
//!    `meta.json`, checking that every ordered pair of entries has one row and that the
//!    two rows of a pair count the same games;
//! 2. [`MatchupModel::build`] ([`model`]) orders the entries by their ranking, names them
//!    as the run report names decks, and lays out the matrix of win rates;
//! 3. [`sections::page`] writes the findings ("which deck beats which"), the heatmap
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

use super::skeleton::{Page, Report};

/// The schema version of `matchups.parquet` (and `.csv`).
pub const MATCHUPS_SCHEMA_VERSION: u32 = 2;
/// The schema version of `ranking.parquet` (and `.csv`).
pub const RANKING_SCHEMA_VERSION: u32 = 1;

impl Report for MatchupModel {
    /// A directory of `confluence-sim matchup` (and not of a run).
    fn recognises(dir: &Path) -> bool {
        dir.join("matchups.parquet").is_file() && !dir.join("summary.parquet").is_file()
    }

    fn owns_chart(name: &str) -> bool {
        name == HEATMAP_FILE
    }

    /// See [`MatchupInputs::read`] and [`MatchupModel::build`].
    fn read(dir: &Path, _target: f64) -> Result<MatchupModel, ReportError> {
        Ok(MatchupModel::build(&MatchupInputs::read(dir)?))
    }

    fn page(&self) -> Page {
        sections::page(self)
    }
}
