//! Issue 48, item 4, for `compare`, `sensitivity` and `optimize`: where the games show no
//! variation (a deck that never wins: a day cap of 1 caps every game, so every paired game
//! gives the same result and `stats::interval::paired` gives a standard error of 0), no
//! zero-width interval is shown as certain: n/a with the reason on the terminal, null in
//! the CSV, a sentence in the report.

use std::path::Path;

mod common;
use common::sim;

const NEVER: [&str; 4] = [
    "--player",
    "decks/player/BR_kojo_booda.txt",
    "--day-cap",
    "1",
];

fn table(p: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(p).unwrap();
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let h = rdr.headers().unwrap().clone();
    rdr.records()
        .map(|r| {
            let r = r.unwrap();
            h.iter()
                .zip(r.iter())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn stdout(args: &[&str], out: &Path) -> String {
    let o = sim().args(args).arg("--out").arg(out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn compare_without_variation_has_no_interval() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("compare");
    let args = [
        &["compare"][..],
        &NEVER,
        &[
            "--policy", "greedy", "--policy", "planner", "--rares", "0", "--games", "20",
        ],
    ]
    .concat();
    let text = stdout(&args, &out);
    let rows = table(&out.join("compare.csv"));
    let planner = rows.iter().find(|r| r["policy"] == "planner").unwrap();
    assert_eq!(planner["wins"], "0");
    for c in ["diff_lo", "diff_hi", "diff_prev_lo", "diff_prev_hi"] {
        assert_eq!(planner[c], "", "{c} is null, not a zero-width bound");
    }
    assert_eq!(planner["diff"], "0");
    assert!(text.contains("n/a: no variation"), "{text}");
    assert!(
        text.contains("every paired game gave the same result"),
        "{text}"
    );
    assert!(!text.contains("[  +0.0,   +0.0]"), "{text}");
}

#[test]
fn sensitivity_without_variation_has_no_interval_and_its_report_says_why() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("sens");
    let args = [
        &["sensitivity"][..],
        &NEVER,
        &[
            "--rares",
            "0",
            "--games",
            "20",
            "--only",
            "Gloom Wisp",
            "--policy",
            "greedy",
        ],
    ]
    .concat();
    let text = stdout(&args, &out);
    let rows = table(&out.join("sensitivity.csv"));
    assert!(!rows.is_empty());
    for r in &rows {
        assert_eq!(
            (r["diff_lo"].as_str(), r["diff_hi"].as_str()),
            ("", ""),
            "{r:?}"
        );
    }
    assert!(text.contains("n/a: no variation"), "{text}");
    assert!(
        text.contains("every paired game gave the same result"),
        "{text}"
    );
    sim().arg("report").arg(&out).assert().success();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("interval n/a: no variation in the games"),
        "{md}"
    );
    assert!(!md.contains("[+0.0,\u{a0}+0.0]"), "{md}");
    let svg = std::fs::read_to_string(out.join("charts/sensitivity_1.svg")).unwrap();
    assert!(svg.contains("(interval n/a: no variation)"), "{svg}");
    assert!(
        !svg.contains("[NaN") && !svg.contains("[+0.0, +0.0]"),
        "{svg}"
    );
}

#[test]
fn optimize_without_variation_has_no_interval() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("opt");
    let args = [
        &["optimize"][..],
        &NEVER,
        &[
            "--policy",
            "greedy",
            "--games",
            "400",
            "--batch",
            "2",
            "--stage-games",
            "10",
            "--confirm",
            "20",
            "--measure",
            "20",
        ],
    ]
    .concat();
    let text = stdout(&args, &out);
    let rows = table(&out.join("optimize.csv"));
    let best = rows.iter().find(|r| r["deck"] == "best").unwrap();
    assert_eq!(
        (best["diff_lo"].as_str(), best["diff_hi"].as_str()),
        ("", "")
    );
    for r in table(&out.join("trajectory.csv")) {
        if r["confirm_games"] != "0" {
            assert_eq!(
                (r["diff_lo"].as_str(), r["diff_hi"].as_str()),
                ("", ""),
                "{r:?}"
            );
        }
    }
    assert!(
        text.contains("interval n/a: every paired game gave the same result"),
        "{text}"
    );
}
