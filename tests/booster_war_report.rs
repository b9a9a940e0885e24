//! `confluence-sim report` on a `confluence-sim booster-war` directory: drives the real
//! binary on a small real run (300 games per variant, played once and copied for each
//! test) and checks the report's sections, its numbers against the CSV tables, and the
//! errors on a directory missing a file or a column.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use confluence_sim::export::{Table, parquet};
use predicates::prelude::*;

mod common;
use common::sim;

/// The run, played once per test process.
fn played() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        sim()
            .args(["booster-war", "--games", "300", "-q", "--out"])
            .arg(dir.path())
            .assert()
            .success();
        dir
    })
    .path()
}

/// A fresh copy of the run, for one test to report on or break.
fn copy() -> tempfile::TempDir {
    let to = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(played()).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, to.path().join(p.file_name().unwrap())).unwrap();
    }
    to
}

/// Every file under `dir`, with its size, relative to `dir`.
fn listing(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let len = p.metadata().unwrap().len();
                out.push((p.strip_prefix(dir).unwrap().to_path_buf(), len));
            }
        }
    }
    out.sort();
    out
}

/// A CSV file as rows of named fields.
fn read_csv(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut rdr = csv::Reader::from_path(path).unwrap();
    let headers: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    rdr.records()
        .map(|r| {
            let r = r.unwrap();
            headers
                .iter()
                .cloned()
                .zip(r.iter().map(String::from))
                .collect()
        })
        .collect()
}

fn num(r: &BTreeMap<String, String>, k: &str) -> f64 {
    r[k].parse().unwrap_or_else(|_| panic!("{k}: {:?}", r[k]))
}

/// A rate as the report writes it.
fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

#[test]
fn the_report_of_a_booster_war_has_its_sections_and_numbers() {
    let dir = copy();
    sim().arg("report").arg(dir.path()).assert().success();
    let charts: Vec<_> = listing(&dir.path().join("charts"))
        .into_iter()
        .map(|(p, _)| p.display().to_string())
        .collect();
    assert_eq!(
        charts,
        [
            "booster_war_factions_ordered.svg",
            "booster_war_factions_shuffled.svg"
        ]
    );
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    for s in [
        "# Booster War report",
        "## Key findings",
        "### Shuffled boosters",
        "### Ordered boosters",
        "## Factions",
        "## Heroes",
        "## Cards",
        "## The run",
        "Shuffled boosters and ordered boosters compared: the first player won",
        "draws count as not won",
        "charts/booster_war_factions_shuffled.svg",
        "played by at least 50 sides",
        "booster-war --games 300",
    ] {
        assert!(md.contains(s), "report.md lacks {s:?}");
    }
    for s in ["Key findings", "Factions", "Heroes", "Cards", "The run"] {
        assert!(
            html.contains(&format!(">{s}</h2>")),
            "report.html lacks {s:?}"
        );
    }
    // The first player's rate of each variant, with its interval, as booster_war.csv has it.
    for r in read_csv(&dir.path().join("booster_war.csv")) {
        let rate = format!(
            "{} [{},\u{a0}{}]",
            pct(num(&r, "first_player_win_rate")),
            pct(num(&r, "first_player_win_rate_lo")),
            pct(num(&r, "first_player_win_rate_hi"))
        );
        let sentence = format!("The first player on day 1 won **{rate}** of the 300 games");
        assert!(md.contains(&sentence), "report.md lacks {sentence:?}");
        assert!(html.contains(&rate), "report.html lacks {rate:?}");
    }
    // Every Hero of each variant has a row.
    let heroes = read_csv(&dir.path().join("heroes.csv"));
    assert!(!heroes.is_empty());
    for h in &heroes {
        assert!(md.contains(&format!("| {} |", h["hero"])), "{}", h["hero"]);
    }
    // The heatmap's cells carry the numbers of factions.csv.
    let svg = std::fs::read_to_string(dir.path().join("charts/booster_war_factions_shuffled.svg"))
        .unwrap();
    let cell = regex::Regex::new(
        r#"data-kind="cell" [^>]*data-faction-a="(\w+)" data-faction-b="(\w+)" data-rate="([^"]+)" data-lo="([^"]+)" data-hi="([^"]+)" data-games="(\d+)""#,
    )
    .unwrap();
    let rows: Vec<_> = read_csv(&dir.path().join("factions.csv"))
        .into_iter()
        .filter(|r| r["variant"] == "shuffled")
        .collect();
    let cells: Vec<_> = cell.captures_iter(&svg).collect();
    assert_eq!(
        cells.len(),
        rows.len(),
        "one cell per faction pair that met"
    );
    for c in &cells {
        let r = rows
            .iter()
            .find(|r| r["faction_a"] == c[1] && r["faction_b"] == c[2])
            .unwrap();
        for (k, col) in [
            (3, "win_rate_a"),
            (4, "win_rate_a_lo"),
            (5, "win_rate_a_hi"),
        ] {
            let x: f64 = c[k].parse().unwrap();
            assert!((x - num(r, col)).abs() < 1e-9, "{}/{} {col}", &c[1], &c[2]);
        }
        assert_eq!(c[6].parse::<f64>().unwrap(), num(r, "games"));
    }
    // A second report replaces the first and keeps the run's files.
    let csv = std::fs::read(dir.path().join("heroes.csv")).unwrap();
    sim().arg("report").arg(dir.path()).assert().success();
    assert_eq!(std::fs::read(dir.path().join("heroes.csv")).unwrap(), csv);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("report.md")).unwrap(),
        md
    );
}

#[test]
fn a_booster_war_directory_missing_a_column_is_an_error_naming_it() {
    let dir = copy();
    let path = dir.path().join("heroes.parquet");
    let t = parquet::read(&path).unwrap();
    let mut cut = Table::new();
    for (name, col) in t.columns.iter().filter(|(n, _)| n != "win_rate") {
        cut.push(name, col.clone());
    }
    assert!(cut.column("win_rate").is_none() && cut.column("win_rate_lo").is_some());
    parquet::write(&cut, std::fs::File::create(&path).unwrap()).unwrap();
    let before = listing(dir.path());
    sim()
        .arg("report")
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "heroes.parquet: no column `win_rate`",
        ));
    assert_eq!(listing(dir.path()), before, "no report files written");
}

#[test]
fn a_booster_war_directory_missing_a_table_is_an_error_naming_it() {
    let dir = copy();
    std::fs::remove_file(dir.path().join("heroes.parquet")).unwrap();
    let before = listing(dir.path());
    sim()
        .arg("report")
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains("heroes.parquet: not found"))
        .stderr(predicate::str::contains(
            "confluence-sim booster-war --out DIR",
        ));
    assert_eq!(listing(dir.path()), before, "no report files written");
}

#[test]
fn a_booster_war_directory_whose_counts_disagree_is_an_error() {
    let dir = copy();
    // Card effects of a variant the run did not play.
    let path = dir.path().join("card_effects.parquet");
    let mut t = parquet::read(&path).unwrap();
    for (name, col) in &mut t.columns {
        if name == "variant"
            && let confluence_sim::export::ColumnData::Str(v) = col
        {
            v[0] = "sorted".into();
        }
    }
    parquet::write(&t, std::fs::File::create(&path).unwrap()).unwrap();
    let before = listing(dir.path());
    sim()
        .arg("report")
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains("card_effects.parquet"))
        .stderr(predicate::str::contains(
            "variant `sorted`, which booster_war.parquet does not have",
        ));
    assert_eq!(listing(dir.path()), before, "no report files written");
}
