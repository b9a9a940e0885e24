//! Model files named on the command line (`--value-weights`), the value model's training
//! options (`train-value --at`, `--rollouts`) and `compare --reuse`, through the binary.

use std::path::Path;

use predicates::prelude::*;

mod common;
use common::{root, sim};

/// `compare` of the Bravos starter, all commons, with `extra` flags; returns compare.csv
/// without the two columns that say how the rows were had (speed, reused).
fn compare(out: &Path, policies: &[&str], games: &str, extra: &[&str]) -> String {
    let mut c = sim();
    c.args([
        "compare",
        "--player",
        "decks/player/BR_kojo_booda.txt",
        "--rares",
        "0",
    ]);
    for p in policies {
        c.args(["--policy", p]);
    }
    c.args(["--games", games, "-q", "--out"])
        .arg(out)
        .args(extra)
        .assert()
        .success();
    let mut r = csv::Reader::from_path(out.join("compare.csv")).unwrap();
    let head = r.headers().unwrap().clone();
    let keep: Vec<usize> = (0..head.len())
        .filter(|&i| !matches!(&head[i], "games_per_second" | "reused"))
        .collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            keep.iter()
                .map(|&i| rec[i].to_string())
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn compare_reuses_the_games_of_an_earlier_run() {
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    compare(&first, &["greedy", "planner"], "120", &[]);
    let games = std::fs::read_to_string(first.join("games.csv")).unwrap();
    assert!(games.starts_with("schema_version,player_deck,rare_mix,policy,game_index,won\n"));
    assert_eq!(games.lines().count(), 1 + 2 * 120);
    // Fewer games, the baseline taken from the first run: the same table as playing it.
    let reused = tmp.path().join("reused");
    let with = compare(
        &reused,
        &["greedy", "random"],
        "80",
        &["--reuse", first.to_str().unwrap()],
    );
    let played = compare(&tmp.path().join("played"), &["greedy", "random"], "80", &[]);
    assert_eq!(with, played);
    let csv = std::fs::read_to_string(reused.join("compare.csv")).unwrap();
    let flags: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap())
        .collect();
    assert_eq!(
        flags,
        ["true", "false"],
        "greedy reused, random played:\n{csv}"
    );
    // More games than the earlier run holds: played again.
    let more = tmp.path().join("more");
    compare(
        &more,
        &["greedy", "random"],
        "150",
        &["--reuse", first.to_str().unwrap()],
    );
    let csv = std::fs::read_to_string(more.join("compare.csv")).unwrap();
    assert!(csv.lines().skip(1).all(|l| l.ends_with(",false")), "{csv}");
}

#[test]
fn compare_refuses_games_that_are_not_the_same() {
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    compare(&first, &["greedy", "random"], "20", &[]);
    let out = tmp.path().join("out");
    let base = [
        "compare",
        "--player",
        "decks/player/BR_kojo_booda.txt",
        "--rares",
        "0",
        "--policy",
        "greedy",
        "--policy",
        "random",
        "--games",
        "20",
        "-q",
    ];
    sim()
        .args(base)
        .args(["--seed", "2", "--reuse"])
        .arg(&first)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "played with --seed 1, this run has 2",
        ));
    assert!(!out.exists());
    // A broken games file is named with its line.
    let games = first.join("games.csv");
    let text = std::fs::read_to_string(&games).unwrap();
    std::fs::write(&games, text.replacen(",greedy,3,", ",greedy,7,", 1)).unwrap();
    sim()
        .args(base)
        .arg("--reuse")
        .arg(&first)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "games.csv line 5: game_index 7, expected 3",
        ));
    assert!(!out.exists());
}

#[test]
fn value_weights_from_a_file_replace_the_embedded_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let policies = ["greedy", "search:horizon=1,rollouts=4,width=3"];
    let embedded = compare(&tmp.path().join("a"), &policies, "24", &[]);
    let committed = root().join("decks/policies/value.toml");
    let same = compare(
        &tmp.path().join("b"),
        &policies,
        "24",
        &["--value-weights", committed.to_str().unwrap()],
    );
    assert_eq!(
        embedded, same,
        "the committed file plays as the embedded copy"
    );
    // A model that values every position alike (all weights 0): the search can no longer
    // tell its candidates apart at the horizon, and plays other games.
    let mut flat = confluence_sim::policy::value::ValueNet::embedded();
    flat.w1
        .iter_mut()
        .chain(&mut flat.w2)
        .for_each(|w| *w = 0.0);
    let file = tmp.path().join("flat.toml");
    std::fs::write(&file, flat.to_toml("a flat model")).unwrap();
    let other = compare(
        &tmp.path().join("c"),
        &policies,
        "24",
        &["--value-weights", file.to_str().unwrap()],
    );
    assert_ne!(embedded, other);
    let meta = std::fs::read_to_string(tmp.path().join("c/meta.json")).unwrap();
    assert!(meta.contains("flat.toml"), "{meta}");
    // Not a value model: a clear error, exit 1, nothing written.
    let bad = tmp.path().join("bad.toml");
    std::fs::write(&bad, "hidden = 3\n").unwrap();
    let out = tmp.path().join("d");
    sim()
        .args([
            "run",
            "--policy",
            "search:horizon=1",
            "--rares",
            "0",
            "--games",
            "2",
            "-q",
        ])
        .arg("--value-weights")
        .arg(&bad)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "not a value model as train-value writes",
        ));
    assert!(!out.exists());
}

#[test]
fn train_value_labels_day_starts_by_rollouts_the_same_on_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let train = |name: &str, threads: &str, rollouts: &str| {
        let out = dir.path().join(name);
        sim()
            .args([
                "train-value",
                "--player",
                "decks/player/BR_kojo_booda.txt",
                "--games",
                "30",
                "--every",
                "1",
                "--at",
                "day-start",
                "--rollouts",
                rollouts,
                "--hidden",
                "4",
                "--epochs",
                "2",
                "--threads",
                threads,
                "-q",
                "--out",
            ])
            .arg(&out)
            .assert()
            .success();
        std::fs::read_to_string(&out).unwrap()
    };
    let text = train("a.toml", "1", "3");
    assert!(
        text.contains("--every 1 --at day-start --rollouts 3 --rollout-policy expert"),
        "{text}"
    );
    assert_eq!(train("b.toml", "2", "3"), text);
    // The rollouts' labels are not the games' outcomes: other data, other weights.
    let outcomes = train("c.toml", "2", "0");
    let data = |t: &str| {
        t.lines()
            .find(|l| l.starts_with("# Data:"))
            .unwrap()
            .to_string()
    };
    assert_ne!(data(&outcomes), data(&text));
}
