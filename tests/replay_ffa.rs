//! `replay --mode ffa` through the binary: the replayed games are the run's (they add up to
//! its `pods.csv` rows, seat by seat), and every Dusk, Arena Dusk and day end of the JSON
//! can be re-derived from the numbers its records hold.

use std::collections::BTreeMap;
use std::path::Path;

use predicates::prelude::*;
use serde_json::Value;

mod common;
use common::sim;

const DECKS: [&str; 4] = [
    "decks/player/AX_sierra_oddball.txt",
    "decks/player/BR_kojo_booda.txt",
    "decks/player/LY_nevenka_blotch.txt",
    "decks/player/MU_teija_nauraa.txt",
];
const KEYS: [&str; 4] = ["a", "b", "c", "d"];

/// The run's --player and --policy flags.
fn entries() -> Vec<String> {
    let mut v = Vec::new();
    for d in DECKS {
        v.extend(["--player".to_string(), d.to_string()]);
    }
    v.extend(["--policy".to_string(), "planner".to_string()]);
    v
}

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

/// The JSON Lines of one replay.
fn replay(args: &[String]) -> Vec<Value> {
    let out = sim()
        .args(["replay", "--mode", "ffa", "--json"])
        .args(args)
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The seat across a seat's expedition's lane at a full table (docs/free-for-all.md,
/// "Lanes"): Hero faces the Hero of `s xor 1`; Companion the Companion of `s + 1` for odd
/// `s`, `s - 1` for even `s`.
fn across_full(seat: usize, exp: &str) -> usize {
    match exp {
        "hero" => seat ^ 1,
        _ if seat % 2 == 1 => (seat + 1) % 4,
        _ => (seat + 3) % 4,
    }
}

/// The terrains of `terrains` (e.g. "F+M") that `mine` wins against every total of
/// `others`: at least 1 and strictly more (or equal, when `ties` win).
fn won(terrains: &str, mine: &Value, others: &[&Value], ties: bool) -> String {
    let mut w = Vec::new();
    for (t, k) in [("F", "f"), ("M", "m"), ("O", "o")] {
        let m = mine[k].as_i64().unwrap();
        if terrains.split('+').any(|s| s == t)
            && m >= 1
            && others.iter().all(|o| {
                let o = o[k].as_i64().unwrap();
                m > o || (ties && m == o)
            })
        {
            w.push(t);
        }
    }
    if w.is_empty() {
        "-".into()
    } else {
        w.join("+")
    }
}

/// A verdict record's meaning: ("continue" | "wins" | "arena", the seats it names).
fn verdict(v: &Value) -> (String, Vec<String>) {
    let r = v["result"].as_str().unwrap().to_string();
    let seats = match r.as_str() {
        "wins" => vec![v["winner"].as_str().unwrap().to_string()],
        "arena" => v["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect(),
        _ => vec![],
    };
    (r, seats)
}

/// What the run's table counts of one game.
struct Game {
    winner: Option<usize>,
    days: u64,
    arena: bool,
}

/// Checks that every Dusk and day end of a replay follows from the numbers its records
/// hold, and returns the game as `pods.csv` counts it.
fn check_and_count(records: &[Value]) -> Game {
    let head = &records[0];
    assert_eq!(head["event"], "game");
    assert_eq!(head["mode"], "ffa");
    let mut arena = false;
    let mut playing: Vec<String> = KEYS.iter().map(|k| k.to_string()).collect();
    let mut expected_end: Option<String> = None;
    let mut dusks = 0;
    for (i, r) in records.iter().enumerate() {
        match r["event"].as_str().unwrap() {
            "ffa_dusk" if r["arena"] == true => {
                arena = true;
                let seats: Vec<String> = r["playing"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect();
                assert_eq!(seats, playing, "{r}");
                let mut count = BTreeMap::new();
                for s in &seats {
                    let others: Vec<&Value> = seats
                        .iter()
                        .filter(|o| *o != s)
                        .map(|o| &r["totals"][o.as_str()])
                        .collect();
                    let w = won("F+M+O", &r["totals"][s.as_str()], &others, false);
                    assert_eq!(r["won"][s.as_str()], w.as_str(), "{r}");
                    count.insert(s.clone(), if w == "-" { 0 } else { w.split('+').count() });
                }
                // The seat that wins the most terrains, alone, wins; otherwise those with a
                // best total somewhere play on (RULES.md F5).
                let most = *count.values().max().unwrap();
                let top: Vec<&String> =
                    count.iter().filter(|c| *c.1 == most).map(|c| c.0).collect();
                let (v, named) = verdict(&r["verdict"]);
                if most > 0 && top.len() == 1 {
                    assert_eq!((v.as_str(), named), ("wins", vec![top[0].clone()]), "{r}");
                    expected_end = Some(top[0].clone());
                } else {
                    let mut best = Vec::new();
                    for s in &seats {
                        let best_somewhere = ["f", "m", "o"].iter().any(|k| {
                            let m = r["totals"][s.as_str()][k].as_i64().unwrap();
                            m >= 1
                                && seats
                                    .iter()
                                    .all(|o| r["totals"][o.as_str()][k].as_i64().unwrap() <= m)
                        });
                        if best_somewhere {
                            best.push(s.clone());
                        }
                    }
                    if best.is_empty() || best.len() == seats.len() {
                        assert_eq!(v, "continue", "{r}");
                    } else {
                        assert_eq!((v.as_str(), &named), ("arena", &best), "{r}");
                        playing = best;
                    }
                }
            }
            "ffa_dusk" => {
                dusks += 1;
                let exps = r["expeditions"].as_array().unwrap();
                assert_eq!(exps.len(), 2 * playing.len(), "{r}");
                let find = |side: &str, exp: &str| {
                    exps.iter()
                        .find(|x| x["side"] == side && x["expedition"] == exp)
                        .unwrap_or_else(|| panic!("no {side} {exp} in {r}"))
                };
                for x in exps {
                    let side = x["side"].as_str().unwrap();
                    let exp = x["expedition"].as_str().unwrap();
                    let seat = KEYS.iter().position(|k| *k == side).unwrap();
                    if playing.len() == 4 {
                        let a = &x["across"];
                        assert_eq!(a["side"], KEYS[across_full(seat, exp)], "{x}");
                        assert_eq!(a["expedition"], exp, "{x}");
                    }
                    // Both sides of a lane report the same totals.
                    if !x["across"].is_null() {
                        let o = find(
                            x["across"]["side"].as_str().unwrap(),
                            x["across"]["expedition"].as_str().unwrap(),
                        );
                        assert_eq!(o["across"]["side"], side, "{x} {o}");
                        assert_eq!(o["totals"], x["opposing_totals"], "{x} {o}");
                    }
                    let terr = x["terrains"].as_str().unwrap();
                    let w = won(
                        terr,
                        &x["totals"],
                        &[&x["opposing_totals"]],
                        x["ascended"] == true,
                    );
                    assert_eq!(x["won"], w.as_str(), "{x}");
                    let due = x["only_due_to"].as_str().unwrap();
                    let due_ok = due == "-" || due.split('+').any(|t| w.split('+').any(|v| v == t));
                    let advances =
                        w != "-" && x["defender"] == false && x["blocked"] == false && due_ok;
                    assert_eq!(x["advances"], advances, "{x}");
                    if advances {
                        let moved = records[i + 1..]
                            .iter()
                            .take_while(|n| n["event"] != "day_end")
                            .any(|n| {
                                n["event"] == "expedition_moved"
                                    && n["side"] == side
                                    && n["expedition"] == exp
                            });
                        assert!(moved, "{x} advances but does not move");
                    }
                }
            }
            "day_end" => {
                let mut best = i64::MIN;
                let mut furthest: Vec<String> = Vec::new();
                for s in &playing {
                    let p = &r["positions"][s.as_str()];
                    let (h, c) = (
                        p["hero"].as_i64().unwrap(),
                        p["companion"].as_i64().unwrap(),
                    );
                    let met = h >= c;
                    let adv = h + 7 - c;
                    assert_eq!(r["met"][s.as_str()], met, "{r}");
                    assert_eq!(r["advance"][s.as_str()], adv, "{r}");
                    if met && adv > best {
                        (best, furthest) = (adv, vec![]);
                    }
                    if met && adv == best {
                        furthest.push(s.clone());
                    }
                }
                let (v, named) = verdict(&r["verdict"]);
                match furthest.len() {
                    0 => assert_eq!(v, "continue", "{r}"),
                    1 => {
                        assert_eq!((v.as_str(), &named), ("wins", &furthest), "{r}");
                        expected_end = Some(furthest[0].clone());
                    }
                    _ => {
                        assert_eq!((v.as_str(), &named), ("arena", &furthest), "{r}");
                        let a = &records[i + 1];
                        assert_eq!(a["event"], "arena", "{a}");
                        assert_eq!(a["seats"], r["verdict"]["seats"], "{a}");
                        playing = furthest;
                    }
                }
            }
            _ => {}
        }
    }
    let end = records.last().unwrap();
    assert_eq!(end["event"], "end");
    assert!(dusks > 0, "a game with no Dusk");
    let winner = end["winner"].as_str().map(String::from);
    // The winner is the one the last verdict named (none at the day cap).
    assert_eq!(winner, expected_end, "{end}");
    Game {
        winner: winner.map(|w| KEYS.iter().position(|k| *k == w).unwrap()),
        days: end["days"].as_u64().unwrap(),
        arena,
    }
}

#[test]
fn replayed_ffa_games_add_up_to_the_runs_rows_and_rederive_from_their_json() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ffa");
    let games = 2u64;
    sim()
        .arg("ffa")
        .args(entries())
        .args(["--games", &games.to_string(), "--seed", "4", "-q", "--out"])
        .arg(&out)
        .assert()
        .success();
    let rows = read_csv(&out.join("pods.csv"));
    assert_eq!(rows.len(), 24 * 4);
    let mut arenas_seen = 0;
    for seating in 0..24u64 {
        let mut wins = [0u64; 4];
        let (mut draws, mut days, mut arenas) = (0, 0, 0);
        for g in 0..games {
            let mut args = entries();
            for (k, v) in [
                ("--seed", 4),
                ("--pod", 0),
                ("--seating", seating),
                ("--game-index", g),
            ] {
                args.extend([k.to_string(), v.to_string()]);
            }
            let records = replay(&args);
            assert_eq!(records[0]["seating"], seating);
            let game = check_and_count(&records);
            match game.winner {
                Some(w) => wins[w] += 1,
                None => draws += 1,
            }
            days += game.days;
            arenas += game.arena as u64;
        }
        arenas_seen += arenas;
        for (seat, won) in wins.iter().enumerate() {
            let row = rows
                .iter()
                .find(|r| r["seating"] == seating.to_string() && r["seat"] == seat.to_string())
                .unwrap();
            assert_eq!(
                row["wins"],
                won.to_string(),
                "seating {seating} seat {seat}"
            );
            assert_eq!(row["draws"], draws.to_string(), "seating {seating}");
            assert_eq!(row["arena_games"], arenas.to_string(), "seating {seating}");
            let mean: f64 = row["days_mean"].parse().unwrap();
            assert!(
                (mean * games as f64 - days as f64).abs() < 1e-6,
                "seating {seating}: {mean} vs {days} days"
            );
        }
    }
    // The JSON's Arena records were checked too, not only the plain days.
    assert!(arenas_seen > 0, "no game of the 48 went to the Arena");
}

#[test]
fn an_ffa_replay_record_names_its_seats_lanes_and_verdicts() {
    let mut args = entries();
    args.extend(["--seating", "5", "--game-index", "3"].map(String::from));
    let records = replay(&args);
    let head = &records[0];
    for k in [
        "seed",
        "pod",
        "seating",
        "game_index",
        "first_player",
        "day_cap",
        "seats",
    ] {
        assert!(!head[k].is_null(), "{k} missing from {head}");
    }
    // Seating 5 is ring [0, 1, 3, 2] turned one seat: members 2, 0, 1, 3 at seats 0 to 3.
    let entries: Vec<u64> = KEYS
        .iter()
        .map(|k| head["seats"][k]["entry"].as_u64().unwrap())
        .collect();
    assert_eq!(entries, [2, 0, 1, 3]);
    assert_eq!(head["first_player"], "d", "game 3: seat 3 first");
    let dusk = records
        .iter()
        .find(|r| r["event"] == "ffa_dusk")
        .expect("a Dusk");
    let x = &dusk["expeditions"][0];
    for k in [
        "side",
        "expedition",
        "region",
        "terrains",
        "totals",
        "across",
        "opposing_totals",
        "won",
        "ascended",
        "defender",
        "blocked",
        "only_due_to",
        "advances",
    ] {
        assert!(x.get(k).is_some(), "{k} missing from {x}");
    }
    let end = records.iter().find(|r| r["event"] == "day_end").unwrap();
    for k in ["positions", "met", "advance", "playing", "verdict"] {
        assert!(end.get(k).is_some(), "{k} missing from {end}");
    }
    check_and_count(&records);
    // The readable log says the same.
    let text = sim()
        .args(["replay", "--mode", "ffa"])
        .args(&args)
        .assert()
        .success();
    let text = String::from_utf8(text.get_output().stdout.clone()).unwrap();
    assert!(text.contains("Dusk: each expedition against the one across its lane"));
    assert!(text.contains("Day end: A ("), "{text}");
    assert!(text.contains("=== End on day"), "{text}");
}

#[test]
fn a_replay_of_a_game_the_run_does_not_have_is_refused() {
    let mut args = entries();
    args.extend(["--pod", "1"].map(String::from));
    sim()
        .args(["replay", "--mode", "ffa"])
        .args(&args)
        .assert()
        .failure()
        .code(2)
        .stderr(predicate::str::contains(
            "--pod 1 is out of range: 4 entries make 1 pods",
        ));
    let mut args = entries();
    args.extend(["--seating", "24"].map(String::from));
    sim()
        .args(["replay", "--mode", "ffa"])
        .args(&args)
        .assert()
        .failure()
        .code(2)
        .stderr(predicate::str::contains("--seating 24 is out of range"));
    sim()
        .args([
            "replay", "--mode", "ffa", "--player", DECKS[0], "--policy", "planner",
        ])
        .assert()
        .failure()
        .code(2)
        .stderr(predicate::str::contains("at least 4 entries"));
}
