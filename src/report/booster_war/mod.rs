//! The report of a `confluence-sim booster-war` directory: [`WarModel`] is a [`Report`], in
//! the same three steps as the run and matchup reports, framed and rendered the same way:
//!
//! 1. [`WarInputs::read`] ([`inputs`], [`meta`]) reads `booster_war.parquet`,
//!    `factions.parquet`, `heroes.parquet`, `card_effects.parquet` and `meta.json`,
//!    checking every column and that the counts add up to each variant's games;
//! 2. [`WarModel::build`] ([`model`]) lays out, per variant, the faction matrix, the Heroes
//!    best first and the cards by effect, and picks what the findings name;
//! 3. [`sections::page`] writes the key findings ([`findings`]), the faction heatmaps
//!    (the shared [`super::heatmap`]), the Heroes, the cards and the run.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

pub mod findings;
pub mod inputs;
pub mod meta;
pub mod model;
pub mod sections;

use std::path::Path;

use crate::error::ReportError;

pub use inputs::WarInputs;
pub use model::WarModel;

use super::skeleton::{Page, Report};

/// The schema version of the four tables (`.parquet` and `.csv`).
pub const WAR_SCHEMA_VERSION: u32 = 2;

/// The prefix of the faction heatmaps' file names under `charts/`.
const CHART_PREFIX: &str = "booster_war_factions_";

/// The file name of a variant's faction heatmap under `charts/`.
pub fn chart_file(variant: &str) -> String {
    format!("{CHART_PREFIX}{variant}.svg")
}

/// Whether a variant's name can go into a file name: lowercase letters, digits, `_`, `-`.
pub(crate) fn plain_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

impl Report for WarModel {
    /// A directory of `confluence-sim booster-war` (and not of a run).
    fn recognises(dir: &Path) -> bool {
        dir.join("booster_war.parquet").is_file() && !dir.join("summary.parquet").is_file()
    }

    /// The faction heatmaps (see [`chart_file`]).
    fn owns_chart(name: &str) -> bool {
        name.strip_prefix(CHART_PREFIX)
            .and_then(|r| r.strip_suffix(".svg"))
            .is_some_and(plain_name)
    }

    /// See [`WarInputs::read`] and [`WarModel::build`].
    fn read(dir: &Path, _target: f64) -> Result<WarModel, ReportError> {
        Ok(WarModel::build(&WarInputs::read(dir)?))
    }

    fn page(&self) -> Page {
        sections::page(self)
    }
}
