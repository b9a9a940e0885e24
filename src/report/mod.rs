//! `confluence-sim report DIR`: an HTML and a Markdown report, with SVG charts, from the
//! Parquet outputs of a run.
//!
//! Every report follows one skeleton ([`skeleton`]): its model is a [`Report`] that reads
//! a directory, builds itself and lays itself out as a [`Page`], which the shared frame
//! turns into a [`Document`]. For the run report the three steps are:
//!
//! 1. [`Inputs::read`] ([`inputs`]) reads `summary.parquet` (required) and the optional
//!    `cards.parquet`, `rares.parquet`, `diffs.parquet` and `meta.json` into typed rows,
//!    checking every column and schema version with messages that name the file;
//! 2. [`Model::build`] ([`model`]) groups the configurations by (player deck, policy),
//!    names the decks by hero, orders the policies by strength and computes what the report
//!    shows: pooled win rates with Wilson intervals, the deck comparison, the day
//!    histograms, the rare effects and the card tables; [`findings`] turns it into the key
//!    findings and their caveats;
//! 3. [`sections::page`] lays the model out as a [`Page`], framed as a [`Document`]
//!    ([`mod@document`]) of headings, paragraphs, lists, tables, figures and folded
//!    details, which [`html::render`] and [`markdown::render`] write out. Both formats come
//!    from the same document, so they say the same things; the charts are drawn once by
//!    [`svg`] and inlined in the HTML, linked from the Markdown.
//!
//! [`write_report`] does all of it and writes the files atomically through
//! [`OutputDir`]: everything is rendered in memory first, and the directory is replaced by
//! one holding the run's files and the new report only when every file was written.
//!
//! A directory written by `confluence-sim matchup` (`matchups.parquet`, no
//! `summary.parquet`) gets the head-to-head report of [`matchup`] instead, through the same
//! skeleton, frame, renderers and atomic writing; one written by `confluence-sim
//! booster-war` (`booster_war.parquet`, no `summary.parquet`) gets the Booster War report
//! of [`booster_war`]; one written by `confluence-sim sensitivity` (`sensitivity.parquet`)
//! gets the tornado charts of [`sensitivity`]; one written by `confluence-sim ffa`
//! (`pods.parquet`) gets the Free for All report of [`ffa`].
//!
//! This module depends on [`crate::export`] and [`crate::stats`] only.
//!
//! Layer: may use `error`, `export`, `stats` and nothing else of the crate.

pub mod booster_war;
pub mod document;
pub mod ffa;
pub mod findings;
pub mod heatmap;
pub mod html;
pub mod inputs;
pub mod markdown;
pub mod matchup;
pub mod model;
pub mod sections;
pub mod sensitivity;
pub mod skeleton;
pub mod svg;

use std::path::{Path, PathBuf};

use crate::error::ReportError;
use crate::export::OutputDir;

pub use document::*;
pub use inputs::*;
pub use model::*;
pub use skeleton::{Page, Report, lay_out};

use booster_war::WarModel;
use ffa::FfaModel;
use matchup::MatchupModel;
use sensitivity::SensModel;

/// The schema version of the tables this report reads (cards, rares, diffs).
pub const SCHEMA_VERSION: u32 = 1;
/// The schema version of the summary table (2: wins and losses by a card's ability; 3:
/// `engine_errors`). The report also reads version 2, as no engine errors.
pub const SUMMARY_SCHEMA_VERSION: u32 = 3;

/// Confidence level of every interval the report computes itself.
pub const LEVEL: f64 = 0.95;

/// What [`write_report`] wrote.
#[derive(Debug)]
pub struct Written {
    pub files: Vec<PathBuf>,
    pub warnings: Vec<String>,
}

impl Report for Model {
    /// A run's directory: the report every directory gets that no other report
    /// recognises (without `summary.parquet`, reading it says what is missing).
    fn recognises(dir: &Path) -> bool {
        dir.join("summary.parquet").is_file()
    }

    fn owns_chart(name: &str) -> bool {
        let numbered = |prefix: &str| {
            name.strip_prefix(prefix)
                .and_then(|r| r.strip_suffix(".svg"))
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        };
        // `win_rate_by_rares.svg` is the single chart of earlier versions: removed as stale.
        name == "win_rate_by_rares.svg"
            || name == "deck_comparison.svg"
            || numbered("win_rate_")
            || numbered("rare_impact_")
            || numbered("days_")
    }

    /// See [`Inputs::read`] and [`Model::build`].
    fn read(dir: &Path, target: f64) -> Result<Model, ReportError> {
        Ok(Model::build(&Inputs::read(dir)?, target))
    }

    fn page(&self) -> Page {
        sections::page(self)
    }
}

/// Whether a file under `charts/` is one of any report's (and may be replaced).
fn is_report_chart(name: &str) -> bool {
    Model::owns_chart(name)
        || MatchupModel::owns_chart(name)
        || WarModel::owns_chart(name)
        || SensModel::owns_chart(name)
        || FfaModel::owns_chart(name)
}

/// Reads the run in `dir` and writes `report.html`, `report.md` and `charts/*.svg` there:
/// the matchup report for a `confluence-sim matchup` directory, the Booster War report for
/// a `confluence-sim booster-war` one, the Free for All report for a `confluence-sim ffa`
/// one, the run report otherwise. Everything is rendered
/// before the first file is created, and the directory is replaced in one step by a new
/// one holding the run's files and the whole new report (see [`OutputDir`]), so a failure
/// leaves the old report. Charts of an earlier report that this one no longer has are left
/// out.
///
/// # Errors
///
/// See [`Report::read`]; and any error writing the files.
pub fn write_report(dir: &Path, target: f64) -> Result<Written, ReportError> {
    let (doc, warnings) = if MatchupModel::recognises(dir) {
        lay_out::<MatchupModel>(dir, target)?
    } else if WarModel::recognises(dir) {
        lay_out::<WarModel>(dir, target)?
    } else if SensModel::recognises(dir) {
        lay_out::<SensModel>(dir, target)?
    } else if FfaModel::recognises(dir) {
        lay_out::<FfaModel>(dir, target)?
    } else {
        lay_out::<Model>(dir, target)?
    };
    write_document(dir, &doc, warnings)
}

/// Renders `doc` and replaces `dir` with its files and the report (see [`write_report`]).
fn write_document(
    dir: &Path,
    doc: &Document,
    warnings: Vec<String>,
) -> Result<Written, ReportError> {
    let html = html::render(doc);
    let md = markdown::render(doc);
    let charts = doc.charts();
    // The directory is replaced in one step: the run's files (and anything else) carried
    // over, the report's own files new, charts of an earlier report that this one no
    // longer has left out.
    let mut out = OutputDir::new(dir)?;
    out.carry(&|p: &Path| {
        let own = p == Path::new("report.md")
            || p == Path::new("report.html")
            || (p.parent() == Some(Path::new("charts"))
                && p.file_name()
                    .is_some_and(|f| is_report_chart(&f.to_string_lossy())));
        !own
    })?;
    for c in &charts {
        out.write_bytes(&format!("charts/{}", c.file), c.standalone().as_bytes())?;
    }
    out.write_bytes("report.md", md.as_bytes())?;
    out.write_bytes("report.html", html.as_bytes())?;
    let files = out.commit()?;
    Ok(Written { files, warnings })
}

/// Writes `doc` into the output set `out` of a command that writes its report with its
/// tables (`ffa`): `report.md`, `report.html` and its charts under `charts/`.
///
/// # Errors
///
/// Any error writing the files.
pub fn write_into(out: &mut OutputDir, doc: &Document) -> Result<(), ReportError> {
    for c in &doc.charts() {
        out.write_bytes(&format!("charts/{}", c.file), c.standalone().as_bytes())?;
    }
    out.write_bytes("report.md", markdown::render(doc).as_bytes())?;
    out.write_bytes("report.html", html::render(doc).as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_only_its_own_chart_names() {
        assert!(is_report_chart("win_rate_by_rares.svg"));
        assert!(is_report_chart("rare_impact_12.svg"));
        assert!(is_report_chart("days_1.svg"));
        assert!(is_report_chart("win_rate_3.svg"));
        assert!(is_report_chart("deck_comparison.svg"));
        assert!(is_report_chart("matchup_heatmap.svg"));
        assert!(is_report_chart("booster_war_factions_shuffled.svg"));
        assert!(is_report_chart("booster_war_factions_ordered.svg"));
        assert!(!is_report_chart("booster_war_factions_.svg"));
        assert!(!is_report_chart("booster_war_factions_A b.svg"));
        assert!(!is_report_chart("win_rate_.svg"));
        assert!(!is_report_chart("days_.svg"));
        assert!(!is_report_chart("days_x.svg"));
        assert!(!is_report_chart("my_chart.svg"));
        assert!(is_report_chart("ffa_entries.svg"));
        assert!(is_report_chart("ffa_seats.svg"));
        assert!(!is_report_chart("ffa_pods.svg"));
        assert!(is_report_chart("sensitivity_2.svg"));
        assert!(!is_report_chart("sensitivity_.svg"));
    }
}
