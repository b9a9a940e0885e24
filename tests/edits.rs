//! What-if edits through the binary: `--edit`, `--edits FILE` and an experiment's
//! `[[edit]]` tables change exactly the card named, are recorded, and bad ones are refused
//! with the usual exit codes, writing nothing. (Each kind of edit is pinned card field by
//! card field by the unit tests of `src/deck/edit.rs`.)

use std::path::Path;

mod common;
use common::{names, sim};

fn run(dir: &Path, extra: &[&str]) {
    sim()
        .args(["run", "--games", "300", "--seed", "3", "-q"])
        .args(extra)
        .arg("--out")
        .arg(dir)
        .assert()
        .success();
}

fn read(dir: &Path, f: &str) -> String {
    std::fs::read_to_string(dir.join(f)).unwrap()
}

fn meta_edits(dir: &Path) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(&read(dir, "meta.json")).unwrap();
    v["edits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap().to_string())
        .collect()
}

/// The columns of summary.csv that say how the games went (not which mix they were).
fn outcomes(csv: &str) -> Vec<Vec<String>> {
    let mut rdr = csv::Reader::from_reader(csv.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let keep: Vec<usize> = [
        "games",
        "wins",
        "losses",
        "day_caps",
        "day_histogram",
        "player_plays_mean",
    ]
    .iter()
    .filter_map(|c| h.iter().position(|x| x == *c))
    .collect();
    assert!(keep.len() >= 5, "{h:?}");
    rdr.records()
        .map(|r| {
            let r = r.unwrap();
            keep.iter().map(|&i| r[i].to_string()).collect()
        })
        .collect()
}

#[test]
fn an_edit_to_the_value_a_card_has_plays_the_same_games() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    run(a.path(), &["--rares", "0", "--rares", "15"]);
    run(
        b.path(),
        &[
            "--rares",
            "0",
            "--rares",
            "15",
            "--edit",
            "Gloom Wisp: forest 1",
            "--edit",
            "Kappa: mountain 4",
        ],
    );
    for f in ["summary.csv", "cards.csv", "diffs.csv"] {
        assert_eq!(read(a.path(), f), read(b.path(), f), "{f}");
    }
    assert_eq!(
        meta_edits(b.path()),
        ["Gloom Wisp: forest 1", "Kappa: mountain 4"]
    );
    assert!(meta_edits(a.path()).is_empty());
}

#[test]
fn a_common_replaced_by_its_rare_plays_as_the_mix_with_that_rare() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    run(a.path(), &["--rare-set", "Drowned Acolyte"]);
    run(
        b.path(),
        &["--rares", "0", "--edit", "Drowned Acolyte: rare"],
    );
    assert_eq!(
        outcomes(&read(a.path(), "summary.csv")),
        outcomes(&read(b.path(), "summary.csv"))
    );
}

#[test]
fn edits_change_the_games_and_are_recorded_in_meta_and_the_report() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    run(a.path(), &["--rares", "0"]);
    run(
        b.path(),
        &[
            "--rares",
            "0",
            "--edit",
            "Gloom Wisp: forest +3",
            "--edit",
            "Gloom Wisp: defender on",
        ],
    );
    assert_ne!(
        outcomes(&read(a.path(), "summary.csv")),
        outcomes(&read(b.path(), "summary.csv"))
    );
    assert_eq!(
        meta_edits(b.path()),
        ["Gloom Wisp: forest +3", "Gloom Wisp: defender on"]
    );
    sim().arg("report").arg(b.path()).assert().success();
    let md = read(b.path(), "report.md");
    assert!(
        md.contains("What-if edits")
            && md.contains("Gloom Wisp: forest +3; Gloom Wisp: defender on"),
        "the report names the edits"
    );
}

#[test]
fn edit_files_and_experiment_tables_give_the_same_runs_as_flags() {
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("what-if.toml");
    std::fs::write(
        &file,
        "[[edit]]\ncard = \"Gloom Wisp\"\nchange = \"forest +2\"\n\n[[edit]]\ncard = \"Cinder Moth (rare)\"\nchange = \"midnight water\"\n",
    )
    .unwrap();
    let root = common::root();
    let exp = work.path().join("exp.toml");
    std::fs::write(
        &exp,
        format!(
            "name = \"what-if\"\nplayers = [\"{}\"]\nseed = 3\n[games]\nper_config = 300\n[mixes]\ncounts = [\"0\", \"15\"]\n\n[[edit]]\ncard = \"Gloom Wisp\"\nchange = \"forest +2\"\n[[edit]]\ncard = \"Cinder Moth (rare)\"\nchange = \"midnight water\"\n",
            root.join("decks/player/BR_kojo_booda.txt").display()
        ),
    )
    .unwrap();
    let (a, b, c) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let both = ["--rares", "0", "--rares", "15"];
    run(
        a.path(),
        &[
            &both[..],
            &[
                "--edit",
                "Gloom Wisp: forest +2",
                "--edit",
                "Cinder Moth (rare): midnight water",
            ],
        ]
        .concat(),
    );
    run(
        b.path(),
        &[&both[..], &["--edits", file.to_str().unwrap()]].concat(),
    );
    sim()
        .args(["run", "-q", "--experiment"])
        .arg(&exp)
        .arg("--out")
        .arg(c.path())
        .assert()
        .success();
    let want = [
        "Gloom Wisp: forest +2",
        "Cinder Moth (rare): midnight water",
    ];
    for d in [&a, &b, &c] {
        assert_eq!(meta_edits(d.path()), want);
    }
    assert_eq!(read(a.path(), "summary.csv"), read(b.path(), "summary.csv"));
    assert_eq!(
        outcomes(&read(a.path(), "summary.csv")),
        outcomes(&read(c.path(), "summary.csv"))
    );
}

/// A bad edit: the exit code, the message, and nothing written.
fn refused(code: i32, args: &[&str], needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let games: &[&str] = if args.contains(&"--experiment") {
        &[]
    } else {
        &["--games", "10"]
    };
    let assert = sim()
        .args(args)
        .args(games)
        .args(["-q", "--out"])
        .arg(&out)
        .assert()
        .failure()
        .code(code);
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    for n in needles {
        assert!(err.contains(n), "{args:?}: stderr lacks {n:?}:\n{err}");
    }
    assert!(names(&out).is_empty(), "{args:?} wrote {:?}", names(&out));
}

#[test]
fn bad_edits_are_refused_and_write_nothing() {
    // Flags: exit 2.
    refused(
        2,
        &["run", "--edit", "Glom Wisp: forest -1"],
        &[
            "--edit \"Glom Wisp: forest -1\"",
            "unknown card 'Glom Wisp'",
            "did you mean 'Gloom Wisp'?",
        ],
    );
    refused(
        2,
        &["run", "--edit", "Gloom Wisp: forrest -1"],
        &["unknown change 'forrest'", "did you mean 'forest'?"],
    );
    refused(
        2,
        &["run", "--edit", "Gloom Wisp: mountain -1"],
        &["Mountain would be -1", "from 0 to 30"],
    );
    refused(
        2,
        &["run", "--edit", "Gloom Wisp forest -1"],
        &["CARD: CHANGE"],
    );
    refused(
        2,
        &[
            "compare",
            "--policy",
            "greedy",
            "--policy",
            "random",
            "--edit",
            "Kappa: midnight water",
        ],
        &["only Confluence cards have a Midnight indication"],
    );
    refused(
        2,
        &["tune", "--target", "0.5", "--edit", "Gloom Wisp: remove"],
        &["a Confluence deck keeps its 55 cards"],
    );
    refused(
        2,
        &["run", "--edit", "Kappa: remove"],
        &["after the edits", "at least 39", "--allow-illegal"],
    );
    refused(
        2,
        &["sensitivity", "--only", "Glom Wisp"],
        &["--only Glom Wisp", "did you mean 'Gloom Wisp'?"],
    );
    // Files: exit 1, with the line.
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("bad.toml");
    std::fs::write(
        &file,
        "[[edit]]\ncard = \"Gloom Wisp\"\nchange = \"forest -1\"\n\n[[edit]]\ncard = \"Gloom Wisp\"\nchange = \"shiny on\"\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    refused(
        1,
        &["run", "--edits", f],
        &["bad.toml:5", "unknown change 'shiny'"],
    );
    std::fs::write(
        &file,
        "[[edit]]\ncard = \"Glom Wisp\"\nchange = \"forest -1\"\n",
    )
    .unwrap();
    refused(
        1,
        &["run", "--edits", f],
        &["bad.toml:1", "did you mean 'Gloom Wisp'?"],
    );
    std::fs::write(
        &file,
        "[[edit]]\ncard = \"Gloom Wisp\"\nhow = \"forest -1\"\n",
    )
    .unwrap();
    refused(1, &["run", "--edits", f], &["bad.toml", "how"]);
    refused(
        1,
        &["run", "--edits", "no/such/edits.toml"],
        &["no/such/edits.toml"],
    );
    let exp = work.path().join("exp.toml");
    std::fs::write(
        &exp,
        format!(
            "name = \"x\"\nplayers = [\"{}\"]\n[games]\nper_config = 10\n[mixes]\ncounts = [\"0\"]\n\n[[edit]]\ncard = \"Gloom Wisp\"\nchange = \"water +40\"\n",
            common::root().join("decks/player/BR_kojo_booda.txt").display()
        ),
    )
    .unwrap();
    refused(
        1,
        &["run", "--experiment", exp.to_str().unwrap()],
        &["exp.toml:8", "out of range"],
    );
    std::fs::write(
        &exp,
        format!(
            "name = \"x\"\nplayers = [\"{}\"]\n[games]\nper_config = 10\n[mixes]\ncounts = [\"0\"]\n\n[[edit]]\ncard = \"Gloom Wisp\"\nchange = \"swap Kappa\"\n",
            common::root().join("decks/player/BR_kojo_booda.txt").display()
        ),
    )
    .unwrap();
    refused(
        1,
        &["run", "--experiment", exp.to_str().unwrap()],
        &["exp.toml:8", "swapped for another card of its deck"],
    );
}

#[test]
fn compare_and_tune_record_their_edits() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    sim()
        .args([
            "compare",
            "--player",
            "decks/player/BR_kojo_booda.txt",
            "--policy",
            "greedy",
            "--policy",
            "random",
            "--games",
            "50",
            "--rares",
            "0",
            "-q",
            "--edit",
            "Gloom Wisp: water +1",
            "--out",
        ])
        .arg(a.path())
        .assert()
        .success();
    assert_eq!(meta_edits(a.path()), ["Gloom Wisp: water +1"]);
    sim()
        .args([
            "tune",
            "--target",
            "0.4",
            "--games",
            "30",
            "--subsets",
            "1",
            "--candidates",
            "1",
            "--confirm",
            "30",
            "-q",
            "--edit",
            "Gloom Wisp: water +1",
            "--out",
        ])
        .arg(b.path())
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "What-if edits: Gloom Wisp: water +1.",
        ));
    assert_eq!(meta_edits(b.path()), ["Gloom Wisp: water +1"]);
}

#[test]
fn replay_with_an_edit_ends_as_that_game_of_the_edited_run() {
    let dir = tempfile::tempdir().unwrap();
    let edit = [
        "--edit",
        "Hollow Sentinel: gigantic on",
        "--edit",
        "Kappa: swap 1 Bravos Vanguard",
    ];
    sim()
        .args([
            "run",
            "--games",
            "30",
            "--rares",
            "0",
            "--seed",
            "3",
            "-q",
            "--per-game",
        ])
        .args(edit)
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success();
    let t = confluence_sim::export::parquet::read(&dir.path().join("games.parquet")).unwrap();
    let (
        Some(confluence_sim::export::ColumnData::Str(results)),
        Some(confluence_sim::export::ColumnData::U32(days)),
    ) = (t.column("result"), t.column("days"))
    else {
        panic!("games.parquet columns")
    };
    for i in [0usize, 17, 29] {
        let out = sim()
            .args([
                "replay",
                "--rares",
                "0",
                "--seed",
                "3",
                "--json",
                "--game-index",
            ])
            .arg(i.to_string())
            .args(edit)
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let end: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(end["result"], results[i].as_str(), "game {i}");
        assert_eq!(end["days"], days[i], "game {i}");
    }
}
