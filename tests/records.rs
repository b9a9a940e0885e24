//! Game records (docs/outputs.md, "Game records") through the binary: `replay --json`
//! writes one, `replay --file` deals its game again and re-plays its choices to the same
//! end, and a record that is not its game's is refused with the line that differs.

use predicates::prelude::*;
use serde_json::Value;

mod common;
use common::sim;

const BR: &str = "decks/player/BR_kojo_booda.txt";
const AX: &str = "decks/player/AX_sierra_oddball.txt";

fn stdout(args: &[&str]) -> String {
    let out = sim().args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

fn solo_record(policy: &str, game: &str) -> String {
    solo_record_with(policy, game, "0")
}

fn solo_record_with(policy: &str, game: &str, rares: &str) -> String {
    stdout(&[
        "replay",
        "--player",
        BR,
        "--policy",
        policy,
        "--rares",
        rares,
        "--seed",
        "3",
        "--game-index",
        game,
        "--json",
    ])
}

/// With rares and an edit, the header names them, and the record re-plays byte for byte.
#[test]
fn a_record_with_rares_and_edits_replays() {
    let text = stdout(&[
        "replay",
        "--player",
        BR,
        "--policy",
        "greedy",
        "--rares",
        "15",
        "--seed",
        "4",
        "--edit",
        "Gloom Wisp: forest -1",
        "--json",
    ]);
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["rares"].as_array().unwrap().len(), 15);
    assert_eq!(first["edits"][0], "Gloom Wisp: forest -1");
    let dir = tempfile::tempdir().unwrap();
    let f = write(&dir, "rares.jsonl", &text);
    assert_eq!(stdout(&["replay", "--file", &f, "--json"]), text);
    assert_ne!(
        solo_record_with("greedy", "0", "15"),
        solo_record("greedy", "0")
    );
}

#[test]
fn a_solo_record_replays_to_the_same_records() {
    let text = solo_record("planner", "2");
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["event"], "record");
    assert_eq!(first["player"], "planner");
    assert_eq!(first["mode"], "solo");
    assert!(first["rares"].as_array().unwrap().is_empty());
    let decisions: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["event"] == "decision")
        .collect();
    assert!(decisions.len() > 20);
    for (n, d) in decisions.iter().enumerate() {
        assert_eq!(d["n"], n);
        assert_eq!(d["side"], "a");
        let legal = d["legal"].as_array().unwrap();
        assert_eq!(legal.len() as u64, d["options"].as_u64().unwrap());
        assert_eq!(legal[d["index"].as_u64().unwrap() as usize], d["choice"]);
    }
    let dir = tempfile::tempdir().unwrap();
    let f = write(&dir, "game.jsonl", &text);
    // Re-played from its header and choices: the very same records, byte for byte.
    assert_eq!(stdout(&["replay", "--file", &f, "--json"]), text);
    // And as text, the same log as the replay's, after the heading.
    let a = stdout(&[
        "replay",
        "--player",
        BR,
        "--policy",
        "planner",
        "--rares",
        "0",
        "--seed",
        "3",
        "--game-index",
        "2",
    ]);
    let b = stdout(&["replay", "--file", &f]);
    assert_eq!(
        a.lines().skip(1).collect::<Vec<_>>(),
        b.lines().skip(1).collect::<Vec<_>>()
    );
}

#[test]
fn a_matchup_record_replays_to_the_same_end() {
    let text = stdout(&[
        "replay",
        "--mode",
        "matchup",
        "--player",
        AX,
        "--player",
        BR,
        "--policy",
        "greedy",
        "--policy",
        "planner",
        "--seed",
        "5",
        "--game-index",
        "1",
        "--json",
    ]);
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["event"], "record");
    assert_eq!(first["mode"], "matchup");
    assert_eq!(first["opponent"]["policy"], "planner");
    let dir = tempfile::tempdir().unwrap();
    let f = write(&dir, "duel.jsonl", &text);
    let again = stdout(&["replay", "--file", &f, "--json"]);
    let events = |t: &str| -> Vec<Value> {
        t.lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|r| r["event"] != "game")
            .collect()
    };
    assert_eq!(events(&again), events(&text));
}

#[test]
fn a_record_that_is_not_its_game_is_refused() {
    let text = solo_record("greedy", "0");
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Another choice at a decision with several options: the game goes elsewhere, and the
    // record's later decisions (or its end) no longer match.
    let (k, d) = lines
        .iter()
        .enumerate()
        .find_map(|(k, l)| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["event"] == "decision" && v["options"].as_u64().unwrap() > 2).then_some((k, v))
        })
        .unwrap();
    let mut changed = d.clone();
    let other = (d["index"].as_u64().unwrap() + 1) % d["options"].as_u64().unwrap();
    changed["index"] = other.into();
    let mut bad = lines.clone();
    let s = changed.to_string();
    bad[k] = &s;
    let f = write(&dir, "changed.jsonl", &(bad.join("\n") + "\n"));
    sim()
        .args(["replay", "--file", &f])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("changed.jsonl:"));
    // A legal list that is not the engine's names the line.
    let mut changed = d.clone();
    changed["legal"][0] = "fly to the moon".into();
    let s = changed.to_string();
    let mut bad = lines.clone();
    bad[k] = &s;
    let f = write(&dir, "legal.jsonl", &(bad.join("\n") + "\n"));
    sim()
        .args(["replay", "--file", &f])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!("legal.jsonl:{}:", k + 1)))
        .stderr(predicate::str::contains("fly to the moon"));
    // Cut after that decision: shown up to there, and said to be unfinished.
    let cut = lines[..=k].join("\n") + "\n";
    let f = write(&dir, "cut.jsonl", &cut);
    sim()
        .args(["replay", "--file", &f])
        .assert()
        .success()
        .stdout(predicate::str::contains("unfinished"));
    // Not a record at all.
    let f = write(&dir, "junk.jsonl", "{\"event\":\"setup\"}\n");
    sim()
        .args(["replay", "--file", &f])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("junk.jsonl:1:"));
    // A deck file that is no longer the recorded deck.
    let mut head: Value = serde_json::from_str(lines[0]).unwrap();
    head["deck"]["cards"][0] = "ALT_CORE_B_AX_04_C".into();
    let s = head.to_string();
    let mut bad = lines.clone();
    bad[0] = &s;
    let f = write(&dir, "deck.jsonl", &(bad.join("\n") + "\n"));
    sim()
        .args(["replay", "--file", &f])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is not the deck"));
}

/// `replay --records DIR --games N` writes one record per game, the same bytes on any
/// number of threads, each the record `replay --json` writes for its game.
#[test]
fn records_of_many_games_are_the_replays_of_each() {
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    for (dir, threads) in [(&one, "1"), (&two, "2")] {
        sim()
            .args([
                "replay", "--player", BR, "--policy", "greedy", "--seed", "6",
            ])
            .args(["--game-index", "10", "--games", "3", "--threads", threads])
            .arg("--records")
            .arg(dir.path())
            .assert()
            .success();
    }
    let names = common::names(one.path());
    assert_eq!(
        names,
        [
            "greedy-s6-g10.jsonl",
            "greedy-s6-g11.jsonl",
            "greedy-s6-g12.jsonl"
        ]
    );
    for (g, n) in names.iter().enumerate() {
        let a = std::fs::read_to_string(one.path().join(n)).unwrap();
        assert_eq!(a, std::fs::read_to_string(two.path().join(n)).unwrap());
        let idx = (10 + g).to_string();
        let single = stdout(&[
            "replay",
            "--player",
            BR,
            "--policy",
            "greedy",
            "--seed",
            "6",
            "--game-index",
            &idx,
            "--json",
        ]);
        assert_eq!(a, single);
    }
}
