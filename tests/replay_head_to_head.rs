//! `replay --mode matchup` and `--mode booster-war` through the binary: the replayed games
//! add up to the run's tables, and the JSON's Dusks and day ends can be re-derived from
//! what each record holds.

use std::collections::HashMap;
use std::path::Path;

use predicates::prelude::*;
use serde_json::Value;

mod common;
use common::sim;

const AX: &str = "decks/player/AX_sierra_oddball.txt";
const BR: &str = "decks/player/BR_kojo_booda.txt";

/// One CSV file as rows of column name to value.
fn csv_rows(path: &Path) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| {
            head.iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

/// The JSON Lines of one replay.
fn replay(args: &[&str]) -> Vec<Value> {
    let out = sim()
        .arg("replay")
        .args(args)
        .arg("--json")
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// What the run's table counts of one game: (winner seat, first player, days, Arena,
/// played a day after the last).
struct Game {
    winner: Option<String>,
    first: String,
    days: u64,
    arena: bool,
}

/// Checks that every Dusk and day end of a replay follows from the numbers its record
/// holds, and returns the game as the tables count it.
fn check_and_count(records: &[Value]) -> Game {
    // A matchup's replay is a game record: its header first (docs/outputs.md, "Game
    // records"), then the game's description.
    let records = match records[0]["event"].as_str() {
        Some("record") => &records[1..],
        _ => records,
    };
    let head = &records[0];
    assert_eq!(head["event"], "game");
    let seats = ["a", "b"];
    let mut arena = false;
    let mut last_day_end: Option<&Value> = None;
    let mut last_arena_dusk: Option<&Value> = None;
    let mut dusks = 0;
    for (i, r) in records.iter().enumerate() {
        match r["event"].as_str().unwrap() {
            "duel_dusk" if r["arena"] == true => {
                arena = true;
                last_arena_dusk = Some(r);
            }
            "duel_dusk" => {
                dusks += 1;
                let exps = r["expeditions"].as_array().unwrap();
                assert_eq!(exps.len(), 4, "two seats, two expeditions each");
                for x in exps {
                    let terr = x["terrains"].as_str().unwrap();
                    let ascended = x["ascended"] == true;
                    let mut won = Vec::new();
                    for (t, k) in [("F", "f"), ("M", "m"), ("O", "o")] {
                        let (m, o) = (
                            x["totals"][k].as_i64().unwrap(),
                            x["opposing_totals"][k].as_i64().unwrap(),
                        );
                        if terr.split('+').any(|s| s == t)
                            && m >= 1
                            && (m > o || (ascended && m == o))
                        {
                            won.push(t);
                        }
                    }
                    let won = if won.is_empty() {
                        "-".to_string()
                    } else {
                        won.join("+")
                    };
                    assert_eq!(x["won"], won.as_str(), "{x}");
                    let due = x["only_due_to"].as_str().unwrap();
                    let due_ok =
                        due == "-" || due.split('+').any(|t| won.split('+').any(|w| w == t));
                    let advances =
                        won != "-" && x["defender"] == false && x["blocked"] == false && due_ok;
                    assert_eq!(x["advances"], advances, "{x}");
                    // An expedition that advances moves forward before the day ends.
                    if advances {
                        let moved = records[i + 1..]
                            .iter()
                            .take_while(|n| n["event"] != "day_end")
                            .any(|n| {
                                n["event"] == "expedition_moved"
                                    && n["side"] == x["side"]
                                    && n["expedition"] == x["expedition"]
                            });
                        assert!(moved, "{x} advances but does not move");
                    }
                }
            }
            "day_end" => {
                for s in seats {
                    let p = &r["positions"][s];
                    let (h, c) = (
                        p["hero"].as_i64().unwrap(),
                        p["companion"].as_i64().unwrap(),
                    );
                    assert_eq!(r["scores"][s].as_i64().unwrap(), h + 7 - c, "{r}");
                    assert_eq!(r["met"][s] == true, h >= c, "{r}");
                }
                last_day_end = Some(r);
            }
            _ => {}
        }
    }
    assert!(dusks > 0, "no Dusk in the replay");
    let end = records.last().unwrap();
    assert_eq!(end["event"], "end");
    let winner = end["winner"].as_str().map(String::from);
    // The day's end decides the game by score, or the Arena by the terrains won.
    if let Some(w) = &winner {
        let other = if w == "a" { "b" } else { "a" };
        if let Some(d) = last_arena_dusk.filter(|_| arena) {
            let n = |s: &str| {
                d["won"][s]
                    .as_str()
                    .unwrap()
                    .split('+')
                    .filter(|t| *t != "-")
                    .count()
            };
            assert!(n(w) > n(other), "{d}");
        } else {
            let d = last_day_end.expect("a day end");
            assert!(
                d["scores"][w.as_str()].as_i64() > d["scores"][other].as_i64(),
                "{d}"
            );
        }
    }
    Game {
        winner,
        first: head["first_player"].as_str().unwrap().to_string(),
        days: end["days"].as_u64().unwrap(),
        arena,
    }
}

/// Sums the games: (wins of seat A, wins of B, draws, first player's wins, days, Arena).
fn tally(games: &[Game]) -> (u64, u64, u64, u64, u64, u64) {
    let mut t = (0, 0, 0, 0, 0, 0);
    for g in games {
        match g.winner.as_deref() {
            Some("a") => t.0 += 1,
            Some(_) => t.1 += 1,
            None => t.2 += 1,
        }
        t.3 += (g.winner.as_deref() == Some(g.first.as_str())) as u64;
        t.4 += g.days;
        t.5 += g.arena as u64;
    }
    t
}

fn num(row: &HashMap<String, String>, col: &str) -> u64 {
    row[col].parse().unwrap()
}

/// Replays games `0..games` (`args` and `--game-index`), checks each, and checks that
/// they add up to `row` of the run's table, whose win columns are named `wins`.
fn replays_add_up(args: &[&str], games: u64, row: &HashMap<String, String>, wins: [&str; 3]) {
    let played: Vec<Game> = (0..games)
        .map(|g| {
            let g = g.to_string();
            check_and_count(&replay(&[args, &["--game-index", g.as_str()]].concat()))
        })
        .collect();
    let t = tally(&played);
    let want = wins.map(|c| num(row, c));
    assert_eq!([t.0, t.1, t.2], want, "{args:?}");
    assert_eq!(t.3, num(row, "first_player_wins"), "{args:?}");
    let days: f64 = row["days_mean"].parse().unwrap();
    assert!((t.4 as f64 / games as f64 - days).abs() < 1e-9, "{args:?}");
    if let Some(a) = row.get("arena_games") {
        assert_eq!(t.5, a.parse::<u64>().unwrap(), "{args:?}");
    }
}

#[test]
fn replayed_matchup_games_add_up_to_the_runs_row() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m");
    let games = 8u64;
    sim()
        .args([
            "matchup", "--player", AX, "--player", BR, "--policy", "greedy",
        ])
        .args(["--games", &games.to_string(), "--seed", "3", "-q", "--out"])
        .arg(&out)
        .assert()
        .success();
    let rows = csv_rows(&out.join("matchups.csv"));
    let row = rows
        .iter()
        .find(|r| r["entry_a"] == "0" && r["entry_b"] == "1")
        .unwrap();
    let args = ["--mode", "matchup", "--player", AX, "--player", BR];
    let args = [&args[..], &["--policy", "greedy", "--seed", "3"]].concat();
    replays_add_up(&args, games, row, ["wins_a", "wins_b", "draws"]);
}

#[test]
fn replayed_booster_war_games_add_up_to_the_runs_rows_in_both_variants() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("w");
    let games = 6u64;
    sim()
        .args(["booster-war", "--policy", "greedy", "--seed", "2", "-q"])
        .args(["--games", &games.to_string(), "--out"])
        .arg(&out)
        .assert()
        .success();
    for row in csv_rows(&out.join("booster_war.csv")) {
        let args = ["--mode", "booster-war", "--policy", "greedy", "--seed", "2"];
        let args = [&args[..], &["--variant", row["variant"].as_str()]].concat();
        replays_add_up(&args, games, &row, ["seat_a_wins", "seat_b_wins", "draws"]);
    }
}

#[test]
fn the_readable_replay_shows_each_seats_dusk_and_the_winner() {
    let out = sim()
        .args([
            "replay", "--mode", "matchup", "--player", AX, "--player", BR,
        ])
        .args([
            "--policy",
            "greedy",
            "--policy",
            "planner",
            "--game-index",
            "1",
        ])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.starts_with("Matchup game 1 of seed 1"), "{text}");
    assert!(
        text.contains("Seat A: AX_sierra_oddball (Sierra & Oddball), greedy"),
        "{text}"
    );
    assert!(
        text.contains("Seat B: BR_kojo_booda (Kojo & Booda), planner"),
        "{text}"
    );
    assert!(
        text.contains("Dusk: each expedition against the opposing one"),
        "{text}"
    );
    assert!(
        text.contains("A (Sierra & Oddball)'s hero expedition, region 0"),
        "{text}"
    );
    assert!(
        text.contains("B (Kojo & Booda) decides") || text.contains("B (Kojo & Booda) plays"),
        "{text}"
    );
    assert!(text.contains("Day end: scores"), "{text}");
    assert!(text.contains("=== End on day"), "{text}");
}

#[test]
fn head_to_head_replays_refuse_flags_that_name_no_game() {
    for (args, says) in [
        (vec!["--mode", "matchup"], "give one or two --player"),
        (
            vec![
                "--mode", "matchup", "--player", AX, "--player", BR, "--player", AX,
            ],
            "give one or two --player",
        ),
        (
            vec![
                "--mode",
                "matchup",
                "--player",
                AX,
                "--policy",
                "search:horizon=1",
            ],
            "plays the search's rollouts to the end of the game",
        ),
        (
            vec!["--mode", "booster-war", "--variant", "both"],
            "a game is played in one variant",
        ),
        (
            vec!["--mode", "booster-war", "--player", AX],
            "give no --player",
        ),
        (
            vec!["--mode", "booster-war", "--set", "NOPE"],
            "describes no booster of that set",
        ),
    ] {
        sim()
            .arg("replay")
            .args(&args)
            .assert()
            .failure()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
}
