//! `play` through its HTTP API, on the real binary: a whole solo game and a whole
//! head-to-head game, bad requests refused with a 4xx and the game unchanged, two answers
//! to one decision, the advisor, an abandoned game, and the records re-played.

use serde_json::{Value, json};

mod common;
mod play_support;
use play_support::{raw, record_of, request, start};

const BR: &str = "decks/player/BR_kojo_booda.txt";
const AX: &str = "decks/player/AX_sierra_oddball.txt";

fn new_game(addr: &str, body: Option<&str>) -> Value {
    let (status, g) = request(addr, "POST", "/api/games", body);
    assert_eq!(status, 201, "{g}");
    g
}

#[test]
fn a_whole_solo_game_is_played_recorded_and_replays() {
    let srv = start(&["--player", BR, "--seed", "7", "--no-advisor"]);
    let g = new_game(&srv.addr, None);
    // The next deal of an empty games directory is game 0.
    assert_eq!(g["game_index"], 0);
    assert_eq!(g["mode"], "solo");
    let t = &g["table"];
    // Only what the player sees: the Confluence's hand is a count.
    assert!(t["them"]["hand"].is_null());
    assert!(t["them"]["hand_size"].as_u64().unwrap() > 0);
    assert!(!t["me"]["hand"].as_array().unwrap().is_empty());
    assert_eq!(t["regions"].as_array().unwrap().len(), 8);
    assert!(t["darkness"].is_object());
    let card = &t["me"]["hand"][0];
    for k in [
        "name",
        "kind",
        "rarity",
        "hand_cost",
        "reserve_cost",
        "stats",
        "abilities",
        "statuses",
    ] {
        assert!(!card[k].is_null(), "a card shows {k}: {card}");
    }
    let end = play_support::play_out(&srv.addr, g, 11);
    assert!(end["result"]["result"].is_string());
    assert!(end["decision"].is_null());
    let (path, record) = record_of(&srv.games, 0);
    let h = &record[0];
    assert_eq!(h["mode"], "solo");
    assert_eq!(h["seat"], "a");
    assert_eq!(h["player"], "anonymous");
    assert_eq!(h["player_deck"], BR);
    assert_eq!(h["confluence"], "decks/confluence/reference.toml");
    assert_eq!(h["advisor"], false);
    assert_eq!(h["seed"], 7);
    assert!(h["started"].as_str().unwrap().ends_with('Z'));
    assert_eq!(h["version"], env!("CARGO_PKG_VERSION"));
    let people: Vec<&Value> = record
        .iter()
        .filter(|r| r["event"] == "decision" && !r["seconds"].is_null())
        .collect();
    assert!(!people.is_empty());
    for r in &people {
        assert_eq!(r["side"], "a");
        assert_eq!(r["advice"], false);
        assert!(r["options"].as_u64().unwrap() >= 2);
    }
    let replayed = play_support::replay(&path);
    assert_eq!(replayed["result"], end["result"]["result"]);
    // calibrate reads the records of people as it reads those of policies.
    let out = tempfile::tempdir().unwrap();
    common::sim()
        .args(["calibrate", "--bootstrap", "0", "-q", "--out"])
        .arg(out.path())
        .arg(&srv.games)
        .assert()
        .success();
    let csv = std::fs::read_to_string(out.path().join("calibration.csv")).unwrap();
    assert!(csv.contains("anonymous"), "{csv}");
    // A second game is the next deal.
    let g2 = new_game(&srv.addr, None);
    assert_eq!(g2["game_index"], 1);
}

#[test]
fn a_whole_head_to_head_game_is_played_and_replays() {
    let srv = start(&[
        "--mode",
        "matchup",
        "--player",
        BR,
        "--opponent",
        AX,
        "--opponent-policy",
        "planner",
        "--seed",
        "3",
        "--game-index",
        "5",
        "--name",
        "Ada",
        "--no-advisor",
    ]);
    let g = new_game(&srv.addr, None);
    assert_eq!(g["game_index"], 5);
    assert_eq!(g["mode"], "matchup");
    assert!(g["table"]["them"]["hand"].is_null());
    assert!(g["table"]["darkness"].is_null());
    let end = play_support::play_out(&srv.addr, g, 5);
    let (path, record) = record_of(&srv.games, 5);
    let h = &record[0];
    assert_eq!(h["mode"], "matchup");
    assert_eq!(h["player"], "Ada");
    assert_eq!(h["opponent"]["player_deck"], AX);
    assert_eq!(h["opponent"]["policy"], "planner");
    // The opponent's decisions are recorded too, without seconds.
    let theirs = record
        .iter()
        .filter(|r| r["event"] == "decision" && r["side"] == "b")
        .count();
    assert!(theirs > 0);
    assert!(
        record
            .iter()
            .filter(|r| r["event"] == "decision" && r["side"] == "b")
            .all(|r| r["seconds"].is_null())
    );
    // The simulated players in seat A on the same deal, one game each.
    let id = end["id"].as_u64().unwrap();
    let others = loop {
        let (_, g) = request(&srv.addr, "GET", &format!("/api/games/{id}"), None);
        if g["others"]["done"] == true {
            break g["others"]["players"].clone();
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    let names: Vec<&str> = others
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["policy"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["greedy", "planner", "expert", "search"]);
    assert!(others.as_array().unwrap().iter().all(|p| p["games"] == 1));
    let winner = play_support::replay(&path)["winner"].clone();
    let expected = match end["result"]["won"].as_bool() {
        Some(true) => json!("a"),
        Some(false) => json!("b"),
        None => Value::Null,
    };
    assert_eq!(winner, expected);
}

#[test]
fn bad_requests_are_refused_and_leave_the_game_unchanged() {
    let srv = start(&["--player", BR, "--seed", "2", "--no-advisor"]);
    let addr = srv.addr.as_str();
    let g = new_game(addr, None);
    let id = g["id"].as_u64().unwrap();
    let path = format!("/api/games/{id}");
    let choose = format!("/api/games/{id}/choose");
    let n = g["decision"]["n"].as_u64().unwrap();
    let k = g["decision"]["options"].as_array().unwrap().len();
    let before = request(addr, "GET", &path, None).1;
    let refused = |status: u16, body: &str, words: &str| {
        let (s, v) = request(addr, "POST", &choose, Some(body));
        assert_eq!(s, status, "{body}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains(words),
            "{body}: {v} should say {words}"
        );
        assert_eq!(
            request(addr, "GET", &path, None).1,
            before,
            "{body} changed the game"
        );
    };
    refused(
        400,
        &json!({"decision": n, "index": k}).to_string(),
        "not legal",
    );
    refused(
        409,
        &json!({"decision": n + 1, "index": 0}).to_string(),
        "not the one asked",
    );
    refused(400, "{not json", "malformed body");
    refused(
        400,
        &json!({"decision": "x", "index": 0}).to_string(),
        "decision",
    );
    refused(400, &json!({"decision": n}).to_string(), "index");
    refused(400, "", "malformed body");
    // Unknown games and requests.
    let (s, v) = request(addr, "GET", "/api/games/999999", None);
    assert_eq!(s, 404);
    assert!(v["error"].as_str().unwrap().contains("no game 999999"));
    let (s, _) = request(addr, "POST", "/api/games/abc/choose", Some("{}"));
    assert_eq!(s, 404);
    let (s, v) = request(addr, "DELETE", &path, None);
    assert_eq!(s, 404);
    assert!(v["error"].as_str().unwrap().contains("expected"));
    let (s, _) = raw(addr, "GET", "/nowhere", None);
    assert_eq!(s, 404);
    let (s, v) = request(addr, "POST", "/api/games", Some("[1"));
    assert_eq!(s, 400, "{v}");
    // The advisor is off in this session.
    let (s, v) = request(addr, "POST", &format!("{path}/advice"), None);
    assert_eq!(s, 403, "{v}");
    assert_eq!(request(addr, "GET", &path, None).1, before);
    // Two tabs answer the same decision: the first answer counts, the second gets 409.
    let body = json!({"decision": n, "index": 0}).to_string();
    let (s1, after) = request(addr, "POST", &choose, Some(&body));
    assert_eq!(s1, 200);
    let (s2, v) = request(addr, "POST", &choose, Some(&body));
    assert_eq!(s2, 409, "{v}");
    assert_eq!(request(addr, "GET", &path, None).1, after);
    // Abandoned: the record says unfinished, and the game takes no more answers.
    let (s, v) = request(addr, "POST", &format!("{path}/abandon"), None);
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["unfinished"], "abandoned");
    let next = after["decision"]["n"].as_u64().unwrap();
    let (s, _) = request(
        addr,
        "POST",
        &choose,
        Some(&json!({"decision": next, "index": 0}).to_string()),
    );
    assert_eq!(s, 409);
    let (path, record) = record_of(&srv.games, g["game_index"].as_u64().unwrap());
    let last = record.last().unwrap();
    assert_eq!(last["event"], "unfinished");
    assert_eq!(last["reason"], "abandoned");
    assert_eq!(last["decisions"], json!(next));
    // An unfinished record re-plays up to its last decision.
    common::sim()
        .args(["replay", "--file"])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicates::str::contains("unfinished"));
}

#[test]
fn the_advisor_estimates_every_option_with_an_interval() {
    let srv = start(&["--player", BR, "--seed", "4", "--advisor", "greedy"]);
    let addr = srv.addr.as_str();
    let g = new_game(addr, None);
    let id = g["id"].as_u64().unwrap();
    let n = g["decision"]["n"].as_u64().unwrap();
    let k = g["decision"]["options"].as_array().unwrap().len();
    let (s, v) = request(addr, "POST", &format!("/api/games/{id}/advice"), None);
    assert_eq!(s, 202, "{v}");
    // The server answers while the advisor thinks.
    assert_eq!(
        request(addr, "GET", &format!("/api/games/{id}"), None).0,
        200
    );
    let advice = loop {
        let (s, v) = request(addr, "GET", &format!("/api/games/{id}/advice"), None);
        assert_eq!(s, 200);
        if v["status"] == "ready" {
            break v;
        }
        assert_eq!(v["status"], "running");
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    let est = advice["options"]["estimates"].as_array().unwrap();
    assert_eq!(est.len(), k);
    for (i, e) in est.iter().enumerate() {
        assert_eq!(e["index"], json!(i));
        let (p, lo, hi) = (
            e["p"].as_f64().unwrap(),
            e["lo"].as_f64().unwrap(),
            e["hi"].as_f64().unwrap(),
        );
        assert!(
            (0.0..=1.0).contains(&p) && lo <= p + 1e-9 && p <= hi + 1e-9,
            "{e}"
        );
        assert!(e["samples"].as_u64().unwrap() >= 16);
    }
    let (s, _) = request(
        addr,
        "POST",
        &format!("/api/games/{id}/choose"),
        Some(&json!({"decision": n, "index": 0}).to_string()),
    );
    assert_eq!(s, 200);
    let (_, record) = record_of(&srv.games, 0);
    assert_eq!(record[0]["advisor"], true);
    let d = record.iter().find(|r| r["n"] == json!(n)).unwrap();
    assert_eq!(d["advice"], true);
}

#[test]
fn a_port_in_use_and_bad_flags_are_clear_errors() {
    let srv = start(&["--no-advisor"]);
    let port = srv.addr.rsplit(':').next().unwrap().to_string();
    common::sim()
        .args(["play", "--no-browser", "--port", &port])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("in use"));
    common::sim()
        .args(["play", "--no-browser", "--mode", "matchup"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--opponent"));
    common::sim()
        .args(["play", "--no-browser", "--listen", "localhost:80"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--listen"));
    common::sim()
        .args(["play", "--no-browser", "--policy", "greedy"])
        .assert()
        .code(2);
}

#[test]
fn card_texts_are_shown_beside_the_encoding() {
    let dir = tempfile::tempdir().unwrap();
    let texts = dir.path().join("texts.jsonl");
    std::fs::write(
        &texts,
        "{\"ref\": \"ALT_CORE_B_BR_01_C\", \"main_effect_en\": \"Words of this test.\", \"echo_effect_en\": null}\n",
    )
    .unwrap();
    let srv = start(&[
        "--player",
        BR,
        "--no-advisor",
        "--card-texts",
        texts.to_str().unwrap(),
    ]);
    let g = new_game(&srv.addr, None);
    let hero = &g["table"]["me"]["hero"];
    assert_eq!(hero["reference"], "ALT_CORE_B_BR_01_C");
    assert_eq!(hero["text"], "Words of this test.");
    assert!(!hero["abilities"].as_array().unwrap().is_empty());
    // A card file that is not JSON Lines is refused, naming the file and the line.
    std::fs::write(&texts, "{\"ref\": \"x\"}\nnot json\n").unwrap();
    common::sim()
        .args([
            "play",
            "--no-browser",
            "--card-texts",
            texts.to_str().unwrap(),
        ])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("texts.jsonl line 2"));
}
