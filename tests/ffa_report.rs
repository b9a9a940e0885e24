//! The Free for All report (issue 48 item 6, issue 50 item 5), through the real binary on
//! a tiny run: `ffa` writes report.md, report.html and two charts in the report skeleton
//! the other reports share; their figures are those of ratings.csv and pods.csv;
//! `confluence-sim report DIR` writes the same report again from the files; a damaged
//! table is an error naming the file; `ffa` runs again over its own directory.

use std::collections::BTreeMap;
use std::path::Path;

mod common;
use common::{names, sim};

type Row = BTreeMap<String, String>;

fn read_csv(path: &Path) -> Vec<Row> {
    let mut rdr = csv::Reader::from_path(path).unwrap();
    let headers: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    rdr.records()
        .map(|r| {
            headers
                .iter()
                .cloned()
                .zip(r.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The `data-*` attribute `attr` of every bar of a chart, in drawing order.
fn bars(svg: &str, attr: &str) -> Vec<String> {
    let key = format!("{attr}=\"");
    svg.split("<rect ")
        .filter(|r| r.starts_with("data-label="))
        .map(|r| {
            let at = r.find(&key).unwrap() + key.len();
            r[at..].split('"').next().unwrap().to_string()
        })
        .collect()
}

#[test]
fn ffa_writes_its_report_and_report_writes_it_again_from_the_files() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("ffa");
    // Five decks: five pods, 24 seatings of 2 games each.
    sim()
        .args(["ffa", "--games", "2", "--seed", "4", "-q"])
        .args(["--player", "decks/player/AX_sierra_oddball.txt"])
        .args(["--player", "decks/player/BR_kojo_booda.txt"])
        .args(["--player", "decks/player/LY_nevenka_blotch.txt"])
        .args(["--player", "decks/player/MU_teija_nauraa.txt"])
        .args(["--player", "decks/player/OR_sigismar_wingspan.txt"])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    assert_eq!(
        names(&out.join("charts")),
        ["ffa_entries.svg", "ffa_seats.svg"]
    );
    let md = read(&out.join("report.md"));
    let html = read(&out.join("report.html"));
    // The skeleton: title, key findings first, the run last, the shared footer.
    assert!(md.starts_with("# Free for All report\n"), "{md}");
    let headings: Vec<&str> = md.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(
        headings,
        [
            "## Key findings",
            "## Ranking",
            "## Pods",
            "## Seats",
            "## Draws and length",
            "## The run"
        ]
    );
    assert!(
        md.contains("from the files of a Free for All directory"),
        "{md}"
    );
    assert!(md.contains("![Share of its games each entry won](charts/ffa_entries.svg)"));
    // The HTML inlines both charts.
    assert_eq!(html.matches("<svg ").count(), 2, "{html}");
    assert!(html.contains("Free for All report"));

    // The ranking is ratings.csv's: the same order, wins and strengths, and the chart's
    // bars are its win shares, exactly.
    let ratings = read_csv(&out.join("ratings.csv"));
    assert_eq!(ratings.len(), 5);
    let svg = read(&out.join("charts/ffa_entries.svg"));
    assert_eq!(
        bars(&svg, "data-value"),
        ratings
            .iter()
            .map(|r| r["win_share"].clone())
            .collect::<Vec<_>>(),
        "the bars are the win shares, strongest first"
    );
    assert_eq!(
        bars(&svg, "data-label"),
        ratings
            .iter()
            .map(|r| r["hero"].replace('&', "&amp;"))
            .collect::<Vec<_>>()
    );
    let table: Vec<&str> = md
        .lines()
        .skip_while(|l| !l.starts_with("| Rank | Entry |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(table.len(), 5, "{md}");
    for (row, r) in table.iter().zip(&ratings) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let theta: f64 = r["log_strength"].parse().unwrap();
        let (lo, hi): (f64, f64) = (
            r["log_strength_lo"].parse().unwrap(),
            r["log_strength_hi"].parse().unwrap(),
        );
        assert_eq!(cells[1], r["rank"]);
        assert_eq!(cells[2], r["hero"]);
        assert_eq!(cells[4], r["wins"]);
        assert_eq!(
            cells[7],
            format!("{:.2} [{:.2},\u{a0}{:.2}]", theta.exp(), lo.exp(), hi.exp())
        );
    }

    // The seats: their wins are those of pods.csv.
    let pods = read_csv(&out.join("pods.csv"));
    let seats = read(&out.join("charts/ffa_seats.svg"));
    for (s, share) in bars(&seats, "data-value").iter().enumerate() {
        let (mut games, mut wins) = (0u64, 0u64);
        for r in pods.iter().filter(|r| r["seat"] == s.to_string()) {
            games += r["games"].parse::<u64>().unwrap();
            wins += r["wins"].parse::<u64>().unwrap();
        }
        assert_eq!(games, 5 * 24 * 2);
        let w: f64 = share.parse().unwrap();
        assert!((w - wins as f64 / games as f64).abs() < 1e-12, "seat {s}");
    }

    // `report` writes the same report from the files.
    let before: Vec<Vec<u8>> = ["report.md", "report.html", "charts/ffa_entries.svg"]
        .iter()
        .map(|f| std::fs::read(out.join(f)).unwrap())
        .collect();
    for f in ["report.md", "report.html"] {
        std::fs::remove_file(out.join(f)).unwrap();
    }
    std::fs::remove_dir_all(out.join("charts")).unwrap();
    let o = sim().arg("report").arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("and 2 chart(s)"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for (f, b) in ["report.md", "report.html", "charts/ffa_entries.svg"]
        .iter()
        .zip(&before)
    {
        assert!(
            std::fs::read(out.join(f)).unwrap() == *b,
            "{f}: report writes another one"
        );
    }

    // A damaged table: an error naming it, exit 1, the report left as it was.
    std::fs::write(out.join("pods.parquet"), b"not parquet").unwrap();
    let o = sim().arg("report").arg(&out).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("pods.parquet"), "{err}");
    assert_eq!(std::fs::read(out.join("report.md")).unwrap(), before[0]);

    // ffa runs again over its own directory (its tables are outputs of confluence-sim,
    // which a command replaces), as the committed example is regenerated.
    let o = sim()
        .args(["ffa", "--games", "1", "-q"])
        .args(["--player", "decks/player/AX_sierra_oddball.txt"])
        .args(["--player", "decks/player/BR_kojo_booda.txt"])
        .args(["--player", "decks/player/LY_nevenka_blotch.txt"])
        .args(["--player", "decks/player/MU_teija_nauraa.txt"])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(read_csv(&out.join("ratings.csv")).len(), 4);
}
