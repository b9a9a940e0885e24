//! `confluence-sim sensitivity` through the binary: the grid's edits played on the
//! baseline's games (a row equals a `run` with that edit, game for game), ranked by effect,
//! the same bytes on 1 and 2 threads.

use std::path::Path;

mod common;
use common::{names, sim};

fn sensitivity(dir: &Path, threads: &str) {
    sim()
        .args([
            "sensitivity",
            "--only",
            "Gloom Wisp",
            "--policy",
            "greedy",
            "--games",
            "150",
            "--seed",
            "5",
            "-q",
            "--threads",
            threads,
            "--out",
        ])
        .arg(dir)
        .assert()
        .success();
}

fn table(p: &Path) -> (csv::StringRecord, Vec<csv::StringRecord>) {
    let text = std::fs::read_to_string(p).unwrap();
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let h = rdr.headers().unwrap().clone();
    (h, rdr.records().map(|r| r.unwrap()).collect())
}

/// (wins, games) of the summary row of a `run` of 150 games with these flags.
fn run_row(extra: &[&str]) -> (String, String) {
    run_games("150", extra)
}

/// (wins, games) of the summary row of a `run` of `games` games with these flags.
fn run_games(games: &str, extra: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    sim()
        .args([
            "run", "--policy", "greedy", "--games", games, "--seed", "5", "-q", "--out",
        ])
        .arg(dir.path())
        .args(extra)
        .assert()
        .success();
    let (h, rows) = table(&dir.path().join("summary.csv"));
    assert_eq!(rows.len(), 1);
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    (
        rows[0][col("wins")].to_string(),
        rows[0][col("games")].to_string(),
    )
}

#[test]
fn sensitivity_plays_each_edit_on_the_baselines_games_the_same_on_any_thread_count() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    sensitivity(a.path(), "1");
    sensitivity(b.path(), "2");
    assert_eq!(
        names(a.path()),
        ["meta.json", "sensitivity.csv", "sensitivity.parquet"]
    );
    for f in ["sensitivity.csv", "sensitivity.parquet"] {
        let x = std::fs::read(a.path().join(f)).unwrap();
        let y = std::fs::read(b.path().join(f)).unwrap();
        assert!(x == y, "{f} differs between 1 and 2 threads");
    }
    let (h, rows) = table(&a.path().join("sensitivity.csv"));
    let col = |n: &str| {
        h.iter()
            .position(|x| x == n)
            .unwrap_or_else(|| panic!("no column {n}"))
    };
    let t = confluence_sim::export::parquet::read(&a.path().join("sensitivity.parquet")).unwrap();
    assert_eq!(t.rows(), rows.len(), "CSV and Parquet hold the same rows");
    // Every edit of Gloom Wisp and its rare twin, at all commons and at all rares.
    let edits: std::collections::BTreeSet<&str> = rows.iter().map(|r| &r[col("edit")]).collect();
    assert_eq!(rows.len(), 2 * edits.len());
    for e in [
        "Gloom Wisp: forest +1",
        "Gloom Wisp: water -1",
        "Gloom Wisp: cost +1",
        "Gloom Wisp: midnight water",
        "Gloom Wisp: defender on",
        "Gloom Wisp: rare",
        "Gloom Wisp (rare): persistent off",
    ] {
        assert!(edits.contains(e), "{e} is in the grid");
    }
    assert!(edits.iter().all(|e| e.starts_with("Gloom Wisp")));
    // A null bound (no variation in the games: issue 48, item 4) reads as NaN.
    let f = |r: &csv::StringRecord, c: &str| {
        let s = &r[col(c)];
        if s.is_empty() {
            f64::NAN
        } else {
            s.parse::<f64>().unwrap()
        }
    };
    for (i, r) in rows.iter().enumerate() {
        // Ranked by the size of the effect within each mix.
        let rank: usize = r[col("rank")].parse().unwrap();
        if i > 0 && rows[i - 1][col("rare_count")] == r[col("rare_count")] {
            assert_eq!(rank, rows[i - 1][col("rank")].parse::<usize>().unwrap() + 1);
            assert!(f(&rows[i - 1], "diff").abs() >= f(r, "diff").abs());
        } else {
            assert_eq!(rank, 1);
        }
        if f(r, "diff_lo").is_nan() {
            // No interval only where the games show no variation: the same result in
            // every paired game, so the win rates are the baseline's.
            assert!(f(r, "diff_hi").is_nan() && f(r, "diff") == 0.0, "{r:?}");
        } else {
            assert!(f(r, "diff_lo") <= f(r, "diff") && f(r, "diff") <= f(r, "diff_hi"));
        }
        // The paired difference is the difference of the win rates (same games).
        assert!((f(r, "win_rate") - f(r, "baseline_win_rate") - f(r, "diff")).abs() < 1e-9);
        // A rare's edit leaves the all-commons deck as it was: the baseline's games.
        // So does a common replaced by its rare when the mix holds that rare.
        let rares = &r[col("rare_count")];
        if (r[col("card")].ends_with("(rare)") && rares == "0")
            || (&r[col("edit")] == "Gloom Wisp: rare" && rares == "15")
        {
            assert_eq!(&r[col("unchanged")], "true");
            assert_eq!(f(r, "diff"), 0.0);
            assert!(
                f(r, "diff_lo").is_nan() && f(r, "diff_hi").is_nan(),
                "{r:?}"
            );
        } else {
            assert_eq!(&r[col("unchanged")], "false", "{:?}", r);
        }
    }
    // A row is a `run` with that edit, game for game; the baseline is a run without.
    let row = |edit: &str, rares: &str| {
        rows.iter()
            .find(|r| &r[col("edit")] == edit && &r[col("rare_count")] == rares)
            .unwrap()
    };
    for (edit, rares) in [
        ("Gloom Wisp: forest +1", "0"),
        ("Gloom Wisp (rare): midnight hero", "15"),
    ] {
        let r = row(edit, rares);
        let (wins, games) = run_row(&["--rares", rares, "--edit", edit]);
        assert_eq!(
            (&r[col("wins")], &r[col("games")]),
            (wins.as_str(), games.as_str()),
            "{edit}"
        );
        let (bw, bg) = run_row(&["--rares", rares]);
        let base = bw.parse::<f64>().unwrap() / bg.parse::<f64>().unwrap();
        assert!((f(r, "baseline_win_rate") - base).abs() < 1e-12);
    }
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(a.path().join("meta.json")).unwrap())
            .unwrap();
    assert_eq!(meta["kind"], "sensitivity");
    assert_eq!(meta["grid"].as_u64().unwrap() as usize, edits.len());
}

/// The report of a sensitivity directory: one tornado chart per deck, policy and mix, one
/// bar per edit that changes the mix (largest effects first), each bar's numbers the
/// table's.
#[test]
fn the_report_of_a_sensitivity_directory_draws_a_tornado_per_mix() {
    let d = tempfile::tempdir().unwrap();
    sensitivity(d.path(), "2");
    sim().arg("report").arg(d.path()).assert().success();
    let (h, rows) = table(&d.path().join("sensitivity.csv"));
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    for (i, rares) in ["0", "15"].iter().enumerate() {
        let svg =
            std::fs::read_to_string(d.path().join(format!("charts/sensitivity_{}.svg", i + 1)))
                .unwrap_or_else(|e| panic!("chart {}: {e}", i + 1));
        let want: Vec<&csv::StringRecord> = rows
            .iter()
            .filter(|r| &r[col("rare_count")] == *rares && &r[col("unchanged")] == "false")
            .take(20)
            .collect();
        let bars: Vec<&str> = svg.split("<rect data-edit=\"").skip(1).collect();
        assert_eq!(bars.len(), want.len(), "{rares} rares: one bar per edit");
        for (b, r) in bars.iter().zip(&want) {
            let attr = |name: &str| {
                let k = format!("{name}=\"");
                let s = &b[b.find(&k).unwrap() + k.len()..];
                s[..s.find('"').unwrap()].to_string()
            };
            assert_eq!(
                attr("data-diff").parse::<f64>().unwrap(),
                r[col("diff")].parse::<f64>().unwrap()
            );
            // A null bound (no variation in the games) is NaN in the chart.
            let lo: f64 = attr("data-lo").parse().unwrap();
            match r[col("diff_lo")].parse::<f64>() {
                Ok(x) => assert_eq!(lo, x),
                Err(_) => assert!(lo.is_nan() && r[col("diff_lo")].is_empty()),
            }
            assert!(b.starts_with(&r[col("edit")].replace('"', "&quot;")));
        }
    }
    let html = std::fs::read_to_string(d.path().join("report.html")).unwrap();
    assert!(html.contains("Sensitivity: which single change moves the win rate most"));
    assert!(d.path().join("report.md").is_file());
}

/// `--target`: the single edits closest to the target, then pairs of the edits that move
/// the win rate most towards it, each pair a `run` with both edits, game for game.
#[test]
fn a_target_lists_the_closest_single_edits_and_plays_pairs_on_the_same_games() {
    let d = tempfile::tempdir().unwrap();
    sim()
        .args([
            "sensitivity",
            "--only",
            "Gloom Wisp",
            "--policy",
            "greedy",
            "--games",
            "150",
            "--seed",
            "5",
            "--rares",
            "0",
            "--target",
            "0.05",
            "--pairs-of",
            "3",
            "-q",
            "--out",
        ])
        .arg(d.path())
        .assert()
        .success();
    let (h, rows) = table(&d.path().join("sensitivity_target.csv"));
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let f = |r: &csv::StringRecord, c: &str| r[col(c)].parse::<f64>().unwrap();
    let singles: Vec<_> = rows
        .iter()
        .filter(|r| &r[col("kind")] == "single")
        .collect();
    let pairs: Vec<_> = rows.iter().filter(|r| &r[col("kind")] == "pair").collect();
    assert_eq!(singles.len(), 10);
    assert!(
        singles
            .windows(2)
            .all(|w| f(w[0], "distance") <= f(w[1], "distance"))
    );
    assert!(!pairs.is_empty() && pairs.len() <= 3, "{}", pairs.len());
    assert!(
        pairs
            .windows(2)
            .all(|w| f(w[0], "distance") <= f(w[1], "distance"))
    );
    for p in &pairs {
        // A pair is two edits of the grid applied in order.
        let edits: Vec<&str> = p[col("edits")].split(" + ").collect();
        assert_eq!(edits.len(), 2);
        let (wins, games) = run_row(&["--rares", "0", "--edit", edits[0], "--edit", edits[1]]);
        assert_eq!(
            (&p[col("wins")], &p[col("games")]),
            (wins.as_str(), games.as_str()),
            "{}",
            &p[col("edits")]
        );
        assert!(f(p, "diff") - (f(p, "win_rate") - f(p, "baseline_win_rate")) < 1e-9);
    }
    // A target outside 0 to 1 is a bad flag: exit 2, nothing written.
    let out = d.path().join("bad");
    sim()
        .args([
            "sensitivity",
            "--only",
            "Gloom Wisp",
            "--target",
            "1.5",
            "-q",
            "--out",
        ])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--target 1.5"));
    assert!(!out.exists());
}

/// A grid of Gloom Wisp's edits (greedy, all rares, 800 games), raced as `extra` says.
fn raced(dir: &Path, threads: &str, extra: &[&str]) -> (csv::StringRecord, Vec<csv::StringRecord>) {
    sim()
        .args([
            "sensitivity",
            "--only",
            "Gloom Wisp",
            "--policy",
            "greedy",
            "--rares",
            "15",
            "--games",
            "800",
            "--seed",
            "5",
            "-q",
            "--threads",
            threads,
        ])
        .args(extra)
        .arg("--out")
        .arg(dir)
        .assert()
        .success();
    table(&dir.join("sensitivity.csv"))
}

/// Racing: the same bytes on 1 and 2 threads; each row's `games` and `stopped_early` right
/// (a stopped row is a `run` of that many games with the edit); the edits that played on
/// equal the unraced grid's; an edit that clearly matters is never stopped (and a control
/// with an absurd `--negligible` shows that the check can fail).
#[test]
fn racing_stops_only_negligible_edits_the_same_on_any_thread_count() {
    let (a, b, full, wide) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    // Stages of 200, 400 and 800 games; an edit stops when its effect is shown to be within
    // ±2 points.
    let race = ["--race-games", "200", "--negligible", "2"];
    let (h, rows) = raced(a.path(), "1", &race);
    raced(b.path(), "2", &race);
    for f in ["sensitivity.csv", "sensitivity.parquet"] {
        let x = std::fs::read(a.path().join(f)).unwrap();
        let y = std::fs::read(b.path().join(f)).unwrap();
        assert!(x == y, "{f} differs between 1 and 2 threads");
    }
    let col = |n: &str| {
        h.iter()
            .position(|x| x == n)
            .unwrap_or_else(|| panic!("no column {n}"))
    };
    let f = |r: &csv::StringRecord, c: &str| r[col(c)].parse::<f64>().unwrap();
    let games = |r: &csv::StringRecord| r[col("games")].parse::<u64>().unwrap();
    let (_, unraced) = raced(full.path(), "2", &["--no-race"]);
    let mut stopped = 0;
    let mut played = 800; // the baseline's games
    for r in &rows {
        let is_stopped = &r[col("stopped_early")] == "true";
        assert!([200, 400, 800].contains(&games(r)), "{r:?}");
        assert_eq!(is_stopped, games(r) < 800, "{r:?}");
        if &r[col("unchanged")] == "true" {
            assert!(!is_stopped);
        } else {
            played += games(r);
        }
        // The difference is over the row's own games, paired with the baseline's.
        assert!((f(r, "win_rate") - f(r, "baseline_win_rate") - f(r, "diff")).abs() < 1e-9);
        let twin = unraced
            .iter()
            .find(|u| u[col("edit")] == r[col("edit")])
            .unwrap();
        assert_eq!(&twin[col("games")], "800");
        assert_eq!(&twin[col("stopped_early")], "false");
        if is_stopped {
            stopped += 1;
            assert!(f(r, "diff").abs() < 0.02, "{r:?}");
        } else {
            for c in ["wins", "diff", "diff_lo", "diff_hi", "baseline_win_rate"] {
                assert_eq!(&r[col(c)], &twin[col(c)], "{c} of {}", &r[col("edit")]);
            }
        }
    }
    assert!(
        stopped > 0 && stopped < rows.len(),
        "{stopped} rows stopped"
    );
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(a.path().join("meta.json")).unwrap())
            .unwrap();
    assert_eq!(meta["games_played"].as_u64().unwrap(), played);
    assert_eq!(meta["race"]["stages"], serde_json::json!([200, 400, 800]));
    // A stopped row is a `run` with its edit on its games; its baseline, one without.
    let r = rows
        .iter()
        .find(|r| &r[col("stopped_early")] == "true")
        .unwrap();
    let n = r[col("games")].to_string();
    let (wins, g) = run_games(&n, &["--rares", "15", "--edit", &r[col("edit")]]);
    assert_eq!(
        (&r[col("wins")], &r[col("games")]),
        (wins.as_str(), g.as_str())
    );
    let (bw, bg) = run_games(&n, &["--rares", "15"]);
    let base = bw.parse::<f64>().unwrap() / bg.parse::<f64>().unwrap();
    assert!((f(r, "baseline_win_rate") - base).abs() < 1e-12);
    // Making Gloom Wisp Gigantic clearly matters (about -5 points on these games): it plays
    // every game. The control stops everything within ±20 points, this edit included.
    let matters = |rows: &[csv::StringRecord]| {
        let r = rows
            .iter()
            .find(|r| &r[col("edit")] == "Gloom Wisp: gigantic on")
            .unwrap();
        (games(r), f(r, "diff"))
    };
    let (g, d) = matters(&rows);
    assert!(d < -0.02, "the effect is large here: {d}");
    assert_eq!(g, 800, "racing stopped an edit that matters");
    let (_, control) = raced(
        wide.path(),
        "2",
        &["--race-games", "200", "--negligible", "20"],
    );
    assert_eq!(matters(&control).0, 200, "the control stops it");
    // A negligible band of 0 or of 100 points and more is a bad flag: exit 2, nothing
    // written; so is --no-race with a racing flag.
    for bad in [
        &["--negligible", "0"][..],
        &["--no-race", "--race-games", "100"],
    ] {
        let out = a.path().join("bad");
        sim()
            .args(["sensitivity", "--only", "Gloom Wisp", "-q", "--out"])
            .arg(&out)
            .args(bad)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(bad[0]));
        assert!(!out.exists());
    }
}
