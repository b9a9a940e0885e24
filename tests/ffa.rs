//! `confluence-sim ffa` driven as a binary: its files and columns, the rows adding up
//! (each game has at most one winner; wins, draws and losses make each seat's games; every
//! entry in every seat alike), the ratings against the pods, 1 and 2 threads byte for byte,
//! and bad input (exit code, message, no output directory).
//!
//! Nothing here depends on who wins, only on structure and determinism.

use std::collections::BTreeMap;
use std::path::Path;

mod common;
use common::{names, sim};

const BR: &str = "decks/player/BR_kojo_booda.txt";
const AX: &str = "decks/player/AX_sierra_oddball.txt";
const LY: &str = "decks/player/LY_nevenka_blotch.txt";
const MU: &str = "decks/player/MU_teija_nauraa.txt";
const OR: &str = "decks/player/OR_sigismar_wingspan.txt";

const POD_COLUMNS: [&str; 18] = [
    "schema_version",
    "pod",
    "seating",
    "seat",
    "entry",
    "deck",
    "hero",
    "policy",
    "games",
    "wins",
    "draws",
    "losses",
    "win_share",
    "days_mean",
    "arena_games",
    "engine_errors",
    "seed",
    "day_cap",
];

type Row = BTreeMap<String, String>;

fn read_csv(path: &Path) -> (Vec<String>, Vec<Row>) {
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

fn u(r: &Row, k: &str) -> u64 {
    r[k].parse().unwrap_or_else(|_| panic!("{k} = {:?}", r[k]))
}

fn f(r: &Row, k: &str) -> f64 {
    r[k].parse().unwrap_or_else(|_| panic!("{k} = {:?}", r[k]))
}

fn ffa(args: &[&str], out: &Path) {
    sim()
        .arg("ffa")
        .args(args)
        .arg("-q")
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

#[test]
fn the_tables_add_up() {
    let dir = tempfile::tempdir().unwrap();
    // Two decks by two policies: four entries, one pod, 24 seatings of 3 games.
    ffa(
        &[
            "--player", BR, "--player", AX, "--policy", "greedy", "--policy", "planner", "--games",
            "3", "--seed", "5",
        ],
        dir.path(),
    );
    assert_eq!(
        names(dir.path()),
        vec![
            "charts",
            "meta.json",
            "pods.csv",
            "pods.parquet",
            "ratings.csv",
            "report.html",
            "report.md"
        ]
    );
    assert_eq!(
        names(&dir.path().join("charts")),
        vec!["ffa_entries.svg", "ffa_seats.svg"]
    );
    let (headers, rows) = read_csv(&dir.path().join("pods.csv"));
    assert_eq!(headers, POD_COLUMNS);
    assert_eq!(rows.len(), 24 * 4, "one row per seating and seat");
    let t = confluence_sim::export::parquet::read(&dir.path().join("pods.parquet")).unwrap();
    let cols: Vec<&str> = t.columns.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(cols, POD_COLUMNS, "CSV and Parquet carry the same columns");
    assert_eq!(t.rows(), rows.len());
    // Per seating: the four seats hold the four entries, count the same games, and the
    // wins of the four seats and the draws make the games (at most one winner a game).
    let mut by_seating: BTreeMap<u64, Vec<&Row>> = BTreeMap::new();
    for r in &rows {
        by_seating.entry(u(r, "seating")).or_default().push(r);
    }
    assert_eq!(by_seating.len(), 24);
    let mut seats_of = BTreeMap::<u64, Vec<u64>>::new();
    let mut wins_of = BTreeMap::<u64, u64>::new();
    let mut decided = 0;
    for (s, rs) in &by_seating {
        assert_eq!(rs.len(), 4);
        let games = u(rs[0], "games");
        assert_eq!(games, 3);
        let draws = u(rs[0], "draws");
        let mut entries: Vec<u64> = rs.iter().map(|r| u(r, "entry")).collect();
        entries.sort();
        assert_eq!(entries, [0, 1, 2, 3], "seating {s}");
        let mut seats: Vec<u64> = rs.iter().map(|r| u(r, "seat")).collect();
        seats.sort();
        assert_eq!(seats, [0, 1, 2, 3]);
        let wins: u64 = rs.iter().map(|r| u(r, "wins")).sum();
        assert_eq!(
            wins + draws,
            games,
            "seating {s}: one winner a game or a draw"
        );
        decided += wins;
        for r in rs {
            assert_eq!(u(r, "games"), games);
            assert_eq!(u(r, "draws"), draws);
            assert_eq!(u(r, "wins") + u(r, "draws") + u(r, "losses"), games);
            assert!((f(r, "win_share") - u(r, "wins") as f64 / games as f64).abs() < 1e-12);
            assert!(f(r, "days_mean") >= 1.0);
            assert_eq!((u(r, "seed"), u(r, "day_cap"), u(r, "pod")), (5, 30, 0));
            seats_of
                .entry(u(r, "entry"))
                .or_default()
                .push(u(r, "seat"));
            *wins_of.entry(u(r, "entry")).or_default() += u(r, "wins");
        }
    }
    assert!(decided > 0, "no game was won");
    // Every entry sits in every seat 6 times.
    for (e, seats) in &seats_of {
        for s in 0..4 {
            assert_eq!(seats.iter().filter(|&&x| x == s).count(), 6, "entry {e}");
        }
    }
    // Entries: decks in --player order, each with the policies in --policy order.
    let entry_of: BTreeMap<u64, (String, String)> = rows
        .iter()
        .map(|r| (u(r, "entry"), (r["deck"].clone(), r["policy"].clone())))
        .collect();
    assert_eq!(entry_of[&1], ("BR_kojo_booda".into(), "planner".into()));
    assert_eq!(entry_of[&2], ("AX_sierra_oddball".into(), "greedy".into()));
    // The ratings: one row per entry, ranked, its games and wins those of the pods.
    let (_, ratings) = read_csv(&dir.path().join("ratings.csv"));
    assert_eq!(ratings.len(), 4);
    for (k, r) in ratings.iter().enumerate() {
        assert_eq!(u(r, "rank"), k as u64 + 1);
        let e = u(r, "entry");
        assert_eq!(u(r, "games"), 72);
        assert_eq!(u(r, "wins"), wins_of[&e]);
        let (lo, x, hi) = (
            f(r, "log_strength_lo"),
            f(r, "log_strength"),
            f(r, "log_strength_hi"),
        );
        assert!(lo < x && x < hi, "{r:?}");
        if k > 0 {
            assert!(f(&ratings[k - 1], "log_strength") >= x, "strongest first");
        }
    }
    let mean: f64 = ratings.iter().map(|r| f(r, "log_strength")).sum::<f64>() / 4.0;
    assert!(mean.abs() < 1e-9, "log-strengths are centred: {mean}");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("meta.json")).unwrap())
            .unwrap();
    assert_eq!(meta["kind"], "ffa");
    assert_eq!(meta["seed"], 5);
    assert_eq!(meta["games"], 72);
    assert_eq!(meta["pods"], 1);
    assert!(meta["git_commit"].is_string() || meta["git_commit"].is_null());
    assert!(meta["command"].as_str().unwrap().contains("ffa"));
    let report = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    for heading in [
        "## Key findings",
        "## Ranking",
        "## Pods",
        "## Seats",
        "## Draws and length",
        "## The run",
    ] {
        assert!(report.contains(heading), "report.md lacks {heading}");
    }
}

/// meta.json without the moment it was written.
fn meta_without_time(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("meta.json"))
        .unwrap()
        .lines()
        .filter(|l| !l.contains("\"created\"") && !l.contains("\"command\""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn one_and_two_threads_write_the_same_bytes() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // Five entries: five pods, 120 configurations of 2 games.
    let args = [
        "--player", BR, "--player", AX, "--player", LY, "--player", MU, "--player", OR, "--games",
        "2", "--seed", "9",
    ];
    ffa(&[&args[..], &["--threads", "1"]].concat(), a.path());
    ffa(&[&args[..], &["--threads", "2"]].concat(), b.path());
    for f in [
        "pods.csv",
        "pods.parquet",
        "ratings.csv",
        "charts/ffa_entries.svg",
        "charts/ffa_seats.svg",
    ] {
        assert_eq!(
            std::fs::read(a.path().join(f)).unwrap(),
            std::fs::read(b.path().join(f)).unwrap(),
            "{f} differs between 1 and 2 threads"
        );
    }
    assert_eq!(meta_without_time(a.path()), meta_without_time(b.path()));
    // The report, but for the moment and the command line it names.
    let report = |d: &Path| {
        std::fs::read_to_string(d.join("report.md"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("- **Created:**") && !l.starts_with("- **Command:**"))
            .map(|l| l.replace(&d.display().to_string(), "DIR"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(report(a.path()), report(b.path()));
    let (_, rows) = read_csv(&a.path().join("pods.csv"));
    assert_eq!(rows.len(), 5 * 24 * 4);
    // Another seed plays other games.
    let c = tempfile::tempdir().unwrap();
    ffa(
        &[&args[..8], &["--games", "2", "--seed", "10"]].concat(),
        c.path(),
    );
    assert_ne!(
        std::fs::read(a.path().join("pods.csv")).unwrap(),
        std::fs::read(c.path().join("pods.csv")).unwrap()
    );
}

#[test]
fn bad_input_gets_its_exit_code_a_clear_message_and_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let bad_deck = dir.path().join("broken.txt");
    std::fs::write(&bad_deck, "1 No Such Card Anywhere\n").unwrap();
    let bad = bad_deck.to_str().unwrap();
    let four = [
        "--player", BR, "--player", AX, "--player", LY, "--player", MU,
    ];
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        // The value model and the policy network value positions against the Confluence.
        (
            [&four[..], &["--policy", "search:horizon=1"]].concat(),
            2,
            "drop horizon=",
        ),
        (
            [&four[..], &["--policy", "expert:net=1"]].concat(),
            2,
            "policy network",
        ),
        (
            [&four[..], &["--expert-weights", "no/such/weights.toml"]].concat(),
            1,
            "no/such/weights.toml",
        ),
        (
            [&four[..], &["--policy", "wizard"]].concat(),
            2,
            "unknown policy",
        ),
        (
            vec!["--player", BR, "--player", AX],
            2,
            "at least 4 entries",
        ),
        ([&four[..], &["--games", "0"]].concat(), 2, "--games"),
        ([&four[..], &["--bogus"]].concat(), 2, "--bogus"),
        (
            vec![
                "--player", BR, "--player", AX, "--player", LY, "--player", bad,
            ],
            1,
            "broken.txt",
        ),
        (
            vec![
                "--player",
                BR,
                "--player",
                AX,
                "--player",
                LY,
                "--player",
                "no/such/deck.txt",
            ],
            1,
            "no/such/deck.txt",
        ),
    ];
    for (args, code, says) in cases {
        let out = dir.path().join("out");
        let output = sim()
            .arg("ffa")
            .args(&args)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: expected '{says}' in\n{err}");
        assert!(!out.exists(), "{args:?} left an output directory");
    }
}

/// `expert`, `search` and `clairvoyant` play Free for All (a small search budget: debug
/// builds), and `--expert-weights` is read: the committed file named explicitly gives the
/// same tables as the embedded one.
#[test]
fn the_strong_policies_and_expert_weights_play_ffa() {
    let a = tempfile::tempdir().unwrap();
    let args = [
        "--player",
        BR,
        "--player",
        AX,
        "--policy",
        "expert",
        "--policy",
        "search:rollouts=2,width=2",
        "--games",
        "1",
        "--seed",
        "4",
    ];
    ffa(&args, a.path());
    let (_, rows) = read_csv(&a.path().join("pods.csv"));
    assert_eq!(rows.len(), 24 * 4);
    let policies: std::collections::BTreeSet<_> =
        rows.iter().map(|r| r["policy"].clone()).collect();
    assert_eq!(
        policies.into_iter().collect::<Vec<_>>(),
        ["expert", "search:rollouts=2,width=2"]
    );
    let b = tempfile::tempdir().unwrap();
    ffa(
        &[
            &args[..],
            &["--expert-weights", "decks/policies/expert.toml"],
        ]
        .concat(),
        b.path(),
    );
    for file in ["pods.csv", "ratings.csv"] {
        assert_eq!(
            std::fs::read(a.path().join(file)).unwrap(),
            std::fs::read(b.path().join(file)).unwrap(),
            "{file}"
        );
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(b.path().join("meta.json")).unwrap()).unwrap();
    assert!(
        meta.to_string().contains("expert.toml"),
        "meta.json does not name the weights file"
    );
    // Weights that score every option alike play other games: the file is read.
    let flat = a.path().join("flat.toml");
    std::fs::write(&flat, "[mana]\n[turn]\n").unwrap();
    let d = tempfile::tempdir().unwrap();
    ffa(
        &[&args[..], &["--expert-weights", flat.to_str().unwrap()]].concat(),
        d.path(),
    );
    assert_ne!(
        std::fs::read(a.path().join("pods.csv")).unwrap(),
        std::fs::read(d.path().join("pods.csv")).unwrap(),
        "other expert weights played the same games"
    );
    let c = tempfile::tempdir().unwrap();
    ffa(
        &[
            "--player",
            BR,
            "--player",
            AX,
            "--policy",
            "clairvoyant:rollouts=1,width=2",
            "--policy",
            "greedy",
            "--games",
            "1",
        ],
        c.path(),
    );
}
