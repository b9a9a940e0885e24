//! `confluence-sim matchup` driven as a binary: the shape of its tables, the two rows of a
//! pair counting the same games, determinism across thread counts, its errors (each with
//! its exit code, and the output directory left as it was) and its report.
//!
//! Nothing here depends on who wins: only on structure, complementarity, determinism and
//! error handling, so the tests hold for any head-to-head engine.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use confluence_sim::export::ColumnData;

mod common;
use common::{names, root, sim};

const BR: &str = "decks/player/BR_kojo_booda.txt";
const AX: &str = "decks/player/AX_sierra_oddball.txt";

const MATCHUP_COLUMNS: [&str; 22] = [
    "schema_version",
    "entry_a",
    "deck_a",
    "hero_a",
    "policy_a",
    "entry_b",
    "deck_b",
    "hero_b",
    "policy_b",
    "games",
    "wins_a",
    "wins_b",
    "draws",
    "win_rate_a",
    "win_rate_a_lo",
    "win_rate_a_hi",
    "first_player_wins",
    "first_player_win_rate",
    "days_mean",
    "engine_errors",
    "seed",
    "day_cap",
];

const RANKING_COLUMNS: [&str; 17] = [
    "schema_version",
    "rank",
    "entry",
    "deck",
    "hero",
    "policy",
    "games",
    "score",
    "log_strength",
    "log_strength_lo",
    "log_strength_hi",
    "strength",
    "strength_lo",
    "strength_hi",
    "win_vs_average",
    "win_vs_average_lo",
    "win_vs_average_hi",
];

/// Runs `matchup` with `args` into `out`, quietly, and checks that it succeeded.
fn matchup(args: &[&str], out: &Path) {
    sim()
        .arg("matchup")
        .args(args)
        .arg("-q")
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

/// A CSV file as a header and rows of named cells.
fn read_csv(path: &Path) -> (Vec<String>, Vec<BTreeMap<String, String>>) {
    let mut rdr = csv::Reader::from_path(path).unwrap();
    let headers: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    let rows = rdr
        .records()
        .map(|r| {
            let r = r.unwrap();
            headers
                .iter()
                .cloned()
                .zip(r.iter().map(String::from))
                .collect()
        })
        .collect();
    (headers, rows)
}

fn u(r: &BTreeMap<String, String>, k: &str) -> u64 {
    r[k].parse().unwrap_or_else(|_| panic!("{k} = {:?}", r[k]))
}

fn f(r: &BTreeMap<String, String>, k: &str) -> f64 {
    r[k].parse().unwrap_or_else(|_| panic!("{k} = {:?}", r[k]))
}

/// Two decks by two policies: four entries, ten pairs, sixteen ordered rows.
fn four_entries(out: &Path, games: &str) {
    matchup(
        &[
            "--player", BR, "--player", AX, "--policy", "greedy", "--policy", "random", "--games",
            games, "--seed", "3",
        ],
        out,
    );
}

#[test]
fn one_row_per_ordered_pair_with_the_documented_columns() {
    let dir = tempfile::tempdir().unwrap();
    four_entries(dir.path(), "40");
    assert_eq!(
        names(dir.path()),
        vec![
            "matchups.csv",
            "matchups.parquet",
            "meta.json",
            "ranking.csv",
            "ranking.parquet"
        ]
    );
    let (headers, rows) = read_csv(&dir.path().join("matchups.csv"));
    assert_eq!(headers, MATCHUP_COLUMNS);
    assert_eq!(rows.len(), 16, "4 entries: every ordered pair once");
    let t = confluence_sim::export::parquet::read(&dir.path().join("matchups.parquet")).unwrap();
    let cols: Vec<&str> = t.columns.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        cols, MATCHUP_COLUMNS,
        "CSV and Parquet carry the same columns"
    );
    assert_eq!(t.rows(), 16);
    match t.column("games") {
        Some(ColumnData::U64(v)) => assert!(v.iter().all(|&g| g == 40)),
        other => panic!("games: {other:?}"),
    }
    let pairs: BTreeSet<(u64, u64)> = rows
        .iter()
        .map(|r| (u(r, "entry_a"), u(r, "entry_b")))
        .collect();
    assert_eq!(pairs.len(), 16);
    for a in 0..4 {
        assert!(pairs.contains(&(a, a)), "the mirror pair of entry {a}");
    }
    // Entries: decks in --player order, each with the policies in --policy order.
    let entry: BTreeMap<u64, (String, String)> = rows
        .iter()
        .map(|r| {
            (
                u(r, "entry_a"),
                (r["deck_a"].clone(), r["policy_a"].clone()),
            )
        })
        .collect();
    assert_eq!(entry[&0], ("BR_kojo_booda".into(), "greedy".into()));
    assert_eq!(entry[&1], ("BR_kojo_booda".into(), "random".into()));
    assert_eq!(entry[&2], ("AX_sierra_oddball".into(), "greedy".into()));
    assert_eq!(entry[&3], ("AX_sierra_oddball".into(), "random".into()));
    for r in &rows {
        assert!(!r["hero_a"].is_empty());
        let games = u(r, "games");
        assert_eq!(games, 40);
        assert_eq!(u(r, "wins_a") + u(r, "wins_b") + u(r, "draws"), games);
        assert!(u(r, "first_player_wins") <= games - u(r, "draws"));
        let (lo, p, hi) = (
            f(r, "win_rate_a_lo"),
            f(r, "win_rate_a"),
            f(r, "win_rate_a_hi"),
        );
        assert!(0.0 <= lo && lo <= p && p <= hi && hi <= 1.0, "{r:?}");
        assert!((p - u(r, "wins_a") as f64 / games as f64).abs() < 1e-12);
        let fp = f(r, "first_player_win_rate");
        assert!((fp - u(r, "first_player_wins") as f64 / games as f64).abs() < 1e-12);
        assert!(f(r, "days_mean") >= 1.0);
        assert_eq!((u(r, "seed"), u(r, "day_cap")), (3, 30));
    }
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("meta.json")).unwrap())
            .unwrap();
    assert_eq!(meta["kind"], "matchup");
    assert_eq!(meta["seed"], 3);
    assert_eq!(meta["games_per_pair"], 40);
    assert_eq!(meta["pairs"], 10);
    assert_eq!(meta["entries"].as_array().unwrap().len(), 4);
}

#[test]
fn the_two_rows_of_a_pair_count_the_same_games_from_each_side() {
    let dir = tempfile::tempdir().unwrap();
    four_entries(dir.path(), "60");
    let (_, rows) = read_csv(&dir.path().join("matchups.csv"));
    let by: BTreeMap<(u64, u64), &BTreeMap<String, String>> = rows
        .iter()
        .map(|r| ((u(r, "entry_a"), u(r, "entry_b")), r))
        .collect();
    for (&(a, b), r) in &by {
        let s = by[&(b, a)];
        assert_eq!(u(r, "games"), u(s, "games"));
        assert_eq!(u(r, "draws"), u(s, "draws"));
        assert_eq!(u(r, "first_player_wins"), u(s, "first_player_wins"));
        assert_eq!(r["days_mean"], s["days_mean"]);
        assert_eq!(r["first_player_win_rate"], s["first_player_win_rate"]);
        assert_eq!(r["deck_a"], s["deck_b"]);
        assert_eq!(r["policy_a"], s["policy_b"]);
        if a != b {
            assert_eq!(u(r, "wins_a"), u(s, "wins_b"), "({a},{b})");
            assert_eq!(u(r, "wins_b"), u(s, "wins_a"), "({a},{b})");
            let draws = u(r, "draws") as f64 / u(r, "games") as f64;
            let sum = f(r, "win_rate_a") + f(s, "win_rate_a") + draws;
            assert!((sum - 1.0).abs() < 1e-12, "({a},{b}): {sum}");
        }
    }
}

#[test]
fn the_ranking_has_one_row_per_entry_strongest_first() {
    let dir = tempfile::tempdir().unwrap();
    four_entries(dir.path(), "40");
    let (headers, rows) = read_csv(&dir.path().join("ranking.csv"));
    assert_eq!(headers, RANKING_COLUMNS);
    assert_eq!(rows.len(), 4);
    let ranks: Vec<u64> = rows.iter().map(|r| u(r, "rank")).collect();
    assert_eq!(ranks, vec![1, 2, 3, 4]);
    let entries: BTreeSet<u64> = rows.iter().map(|r| u(r, "entry")).collect();
    assert_eq!(entries, (0..4).collect());
    let mut previous = f64::INFINITY;
    let mut sum = 0.0;
    for r in &rows {
        let (lo, t, hi) = (
            f(r, "log_strength_lo"),
            f(r, "log_strength"),
            f(r, "log_strength_hi"),
        );
        assert!(lo <= t && t <= hi, "{r:?}");
        assert!(t <= previous, "sorted by strength");
        previous = t;
        sum += t;
        assert!((f(r, "strength") - t.exp()).abs() < 1e-9);
        let w = f(r, "win_vs_average");
        assert!(f(r, "win_vs_average_lo") <= w && w <= f(r, "win_vs_average_hi"));
        // Three opponents (the mirror pair is not counted), 40 games each.
        assert_eq!(u(r, "games"), 120);
        let score = f(r, "score");
        assert!((0.0..=1.0).contains(&score));
    }
    assert!(sum.abs() < 1e-9, "log-strengths are centred: {sum}");
    let t = confluence_sim::export::parquet::read(&dir.path().join("ranking.parquet")).unwrap();
    let cols: Vec<&str> = t.columns.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(cols, RANKING_COLUMNS);
}

#[test]
fn one_and_two_threads_give_identical_outputs() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    // More games than one unit of work (1,024), so the units split differently.
    for (dir, threads) in [(&a, "1"), (&b, "2")] {
        matchup(
            &[
                "--player",
                BR,
                "--player",
                AX,
                "--policy",
                "greedy",
                "--games",
                "1500",
                "--seed",
                "11",
                "--threads",
                threads,
            ],
            dir.path(),
        );
    }
    for f in [
        "matchups.csv",
        "matchups.parquet",
        "ranking.csv",
        "ranking.parquet",
    ] {
        let x = std::fs::read(a.path().join(f)).unwrap();
        let y = std::fs::read(b.path().join(f)).unwrap();
        assert!(x == y, "{f} differs between 1 and 2 threads");
    }
}

#[test]
fn one_entry_plays_its_mirror_pair_only() {
    let dir = tempfile::tempdir().unwrap();
    matchup(&["--player", BR, "--games", "10"], dir.path());
    let (_, rows) = read_csv(&dir.path().join("matchups.csv"));
    assert_eq!(rows.len(), 1);
    assert_eq!((u(&rows[0], "entry_a"), u(&rows[0], "entry_b")), (0, 0));
    assert_eq!(rows[0]["policy_a"], "greedy", "the default policy");
    let (_, ranking) = read_csv(&dir.path().join("ranking.csv"));
    assert_eq!(ranking.len(), 1);
    assert_eq!(u(&ranking[0], "rank"), 1);
}

/// Every file under `dir`, with its bytes, sorted.
fn listing(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(root: &Path, rel: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        let Ok(rd) = std::fs::read_dir(root.join(rel)) else {
            return;
        };
        for e in rd {
            let e = e.unwrap();
            let r = rel.join(e.file_name());
            if e.path().is_dir() {
                out.push((r.display().to_string() + "/", Vec::new()));
                walk(root, &r, out);
            } else {
                out.push((r.display().to_string(), std::fs::read(e.path()).unwrap()));
            }
        }
    }
    let mut v = Vec::new();
    walk(dir, Path::new(""), &mut v);
    v.sort();
    v
}

#[test]
fn bad_input_gets_its_exit_code_and_leaves_the_outputs_as_they_were() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    // The outputs of an earlier run, which a failed run must leave as they are.
    matchup(&["--player", BR, "--games", "4"], &out);
    let before = listing(&out);
    let fixture = |p: &str| root().join("tests/fixtures/decks").join(p);
    let malformed = fixture("malformed.txt");
    let too_few = fixture("too_few.txt");
    let other_br = tmp.path().join("BR_kojo_booda.txt");
    std::fs::copy(root().join(BR), &other_br).unwrap();
    let cases: Vec<(Vec<String>, i32, Vec<&str>)> = vec![
        (vec!["--games", "0"], 2, vec!["--games", "'0'"]),
        (
            vec!["--policy", "search:horizon=1"],
            2,
            vec![
                "--policy search:horizon=1",
                "matchup plays the search's rollouts to the end",
            ],
        ),
        (
            vec!["--policy", "expert:value=2"],
            2,
            vec!["matchup cannot use the value model's lookahead"],
        ),
        (
            vec!["--policy", "expert:net=1"],
            2,
            vec!["matchup cannot use the policy network"],
        ),
        (
            vec!["--policy", "search:net=1"],
            2,
            vec!["matchup cannot use the policy network"],
        ),
        (
            vec!["--policy", "wizard"],
            2,
            vec!["--policy wizard", "unknown policy"],
        ),
        (
            vec!["--policy", "greedy:depth=2"],
            2,
            vec!["no parameter 'depth'"],
        ),
        (
            vec!["--policy", "greedy", "--policy", "greedy"],
            2,
            vec!["--policy greedy: given twice"],
        ),
        (vec!["--threads", "0"], 2, vec!["--threads 0"]),
        (vec!["--day-cap", "0"], 2, vec!["--day-cap", "'0'"]),
        (vec!["--day-cap", "251"], 2, vec!["--day-cap"]),
        (vec!["--games", "x"], 2, vec!["--games", "'x'"]),
        (vec!["--player", BR, "--player", BR], 2, vec!["given twice"]),
        (
            vec![
                "--games",
                "18446744073709551615",
                "--player",
                BR,
                "--player",
                AX,
            ],
            2,
            vec!["--games 18446744073709551615", "more than"],
        ),
        (
            vec!["--player", "no/such/deck.txt"],
            1,
            vec!["no/such/deck.txt"],
        ),
        (
            vec!["--player", malformed.to_str().unwrap()],
            1,
            vec!["malformed.txt:7:", "not a card count"],
        ),
        (
            vec!["--player", too_few.to_str().unwrap()],
            1,
            vec!["too_few.txt", "at least 39"],
        ),
    ]
    .into_iter()
    .map(|(a, code, says)| (a.into_iter().map(String::from).collect(), code, says))
    .collect();
    let mut cases = cases;
    cases.push((
        vec![
            "--player".into(),
            BR.into(),
            "--player".into(),
            other_br.display().to_string(),
        ],
        2,
        vec!["two decks named BR_kojo_booda"],
    ));
    let mut failures = Vec::new();
    for (args, code, says) in &cases {
        let mut cmd = sim();
        cmd.arg("matchup");
        // A case with no --player of its own plays one deck.
        if !args.iter().any(|a| a == "--player") {
            cmd.args(["--player", BR]);
        }
        cmd.args(args);
        if !args.iter().any(|a| a == "--games") {
            cmd.args(["--games", "4"]);
        }
        let output = cmd.args(["-q", "--out"]).arg(&out).output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr).into_owned();
        if output.status.code() != Some(*code) {
            failures.push(format!(
                "{args:?}: exit {:?}, expected {code}\n{err}",
                output.status.code()
            ));
            continue;
        }
        for s in says {
            if !err.contains(s) {
                failures.push(format!("{args:?}: the message lacks {s:?}:\n{err}"));
            }
        }
        if err.contains("panicked") {
            failures.push(format!("{args:?}: a panic:\n{err}"));
        }
        if listing(&out) != before {
            failures.push(format!("{args:?}: --out was touched"));
        }
        if names(tmp.path()) != vec!["BR_kojo_booda.txt", "out"] {
            failures.push(format!(
                "{args:?}: something was left beside --out: {:?}",
                names(tmp.path())
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn no_player_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    sim()
        .args(["matchup", "--games", "4", "-q", "--out"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("at least one --player"));
    assert!(!out.exists());
}

#[test]
fn a_directory_holding_other_files_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    sim()
        .args(["matchup", "--player", BR, "--games", "4", "-q", "--out"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(predicates::str::contains("notes.txt"));
    assert_eq!(names(dir.path()), vec!["notes.txt"]);
}

#[test]
fn the_report_of_a_matchup_shows_every_pair_with_its_numbers() {
    let dir = tempfile::tempdir().unwrap();
    four_entries(dir.path(), "40");
    sim().arg("report").arg(dir.path()).assert().success();
    assert_eq!(
        names(dir.path()),
        vec![
            "charts",
            "matchups.csv",
            "matchups.parquet",
            "meta.json",
            "ranking.csv",
            "ranking.parquet",
            "report.html",
            "report.md"
        ]
    );
    assert_eq!(
        names(&dir.path().join("charts")),
        vec!["matchup_heatmap.svg"]
    );
    let svg = std::fs::read_to_string(dir.path().join("charts/matchup_heatmap.svg")).unwrap();
    let (_, rows) = read_csv(&dir.path().join("matchups.csv"));
    let cell = regex::Regex::new(
        r#"data-kind="cell" [^>]*data-entry-a="(\d+)" data-entry-b="(\d+)" data-rate="([^"]+)" data-lo="([^"]+)" data-hi="([^"]+)" data-games="(\d+)""#,
    )
    .unwrap();
    let cells: Vec<_> = cell.captures_iter(&svg).collect();
    assert_eq!(cells.len(), 16, "one cell per ordered pair");
    for c in &cells {
        let (a, b): (u64, u64) = (c[1].parse().unwrap(), c[2].parse().unwrap());
        let r = rows
            .iter()
            .find(|r| u(r, "entry_a") == a && u(r, "entry_b") == b)
            .unwrap();
        for (k, col) in [
            (3, "win_rate_a"),
            (4, "win_rate_a_lo"),
            (5, "win_rate_a_hi"),
        ] {
            let x: f64 = c[k].parse().unwrap();
            assert!((x - f(r, col)).abs() < 1e-12, "({a},{b}) {col}");
        }
        assert_eq!(c[6].parse::<u64>().unwrap(), u(r, "games"));
    }
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    for s in [
        "# Head-to-head matchup report",
        "## Key findings",
        "Which deck beats which",
        "## Who beats whom",
        "## Ranking",
        "charts/matchup_heatmap.svg",
        "Kojo & Booda · greedy",
    ] {
        assert!(md.contains(s), "report.md lacks {s:?}");
    }
    let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    assert_eq!(html.matches("data-kind=\"cell\"").count(), 16);
    // A second report replaces the first, chart included, and keeps the run's files.
    let csv = std::fs::read(dir.path().join("matchups.csv")).unwrap();
    sim().arg("report").arg(dir.path()).assert().success();
    assert_eq!(std::fs::read(dir.path().join("matchups.csv")).unwrap(), csv);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("charts/matchup_heatmap.svg")).unwrap(),
        svg
    );
}

#[test]
fn a_matchup_directory_missing_its_ranking_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    four_entries(dir.path(), "8");
    std::fs::remove_file(dir.path().join("ranking.parquet")).unwrap();
    let before = listing(dir.path());
    sim()
        .arg("report")
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(predicates::str::contains("ranking.parquet"));
    assert_eq!(listing(dir.path()), before);
}
