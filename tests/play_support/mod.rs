//! What the `play` tests share: the server started as a child process, a tiny HTTP client
//! on a TCP stream, and a game record re-played through the engine.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use confluence_sim::engine::event::NoObserver;
use confluence_sim::engine::{ChoiceList, Step, advance, apply_unchecked, legal_choices};
use confluence_sim::gamelog::describe_choice;
use confluence_sim::sim::GameSeeds;

use super::common;

/// A `play` server on a free port, killed when dropped.
pub struct Server {
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    pub games: PathBuf,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `play --no-browser --port 0` with `args` and a fresh --games-dir, and reads the
/// address it prints.
pub fn start(args: &[&str]) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("played");
    let mut child = Command::new(env!("CARGO_BIN_EXE_confluence-sim"))
        .current_dir(common::root())
        .args(["play", "--no-browser", "--port", "0", "--games-dir"])
        .arg(&games)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the binary starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let addr = loop {
        line.clear();
        assert!(
            out.read_line(&mut line).unwrap() > 0,
            "play ended without printing its address"
        );
        if let Some(rest) = line.split("http://").nth(1) {
            break rest.trim().trim_end_matches('/').to_string();
        }
    };
    // Keep reading what it prints, so that it never blocks on a full pipe.
    std::thread::spawn(move || {
        let mut sink = String::new();
        let _ = out.read_to_string(&mut sink);
    });
    Server {
        child,
        addr,
        games,
        _dir: dir,
    }
}

/// One HTTP/1.0 request; the status and the body as JSON (`Null` if it is not JSON).
pub fn request(addr: &str, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
    let (status, text) = raw(addr, method, path, body);
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// One HTTP/1.0 request; the status and the body as text.
pub fn raw(addr: &str, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("the server answers");
    let body = body.unwrap_or("");
    write!(
        s,
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, body.to_string())
}

/// Plays a game through the API to its end, choosing by a fixed sequence of indices;
/// returns the last state.
pub fn play_out(addr: &str, mut state: Value, seed: u64) -> Value {
    let mut x = seed;
    let id = state["id"].as_u64().unwrap();
    let mut guard = 0;
    while state["result"].is_null() {
        let d = &state["decision"];
        assert!(d.is_object(), "no result and no decision: {state}");
        let n = d["n"].as_u64().unwrap();
        let k = d["options"].as_array().unwrap().len() as u64;
        assert!(
            k >= 2,
            "a decision with one option is the engine's, not the person's"
        );
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let index = (x >> 33) % k;
        let (status, next) = request(
            addr,
            "POST",
            &format!("/api/games/{id}/choose"),
            Some(&json!({"decision": n, "index": index}).to_string()),
        );
        assert_eq!(status, 200, "{next}");
        assert!(next["decision"].is_null() || next["decision"]["n"].as_u64().unwrap() > n);
        state = next;
        guard += 1;
        assert!(guard < 5000, "the game never ended");
    }
    state
}

/// The lines of a record as JSON.
pub fn read_record(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The one record in `dir` whose header has game index `index`.
pub fn record_of(dir: &Path, index: u64) -> (PathBuf, Vec<Value>) {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let r = read_record(&p);
        if r[0]["game_index"] == json!(index) {
            found.push((p, r));
        }
    }
    assert_eq!(
        found.len(),
        1,
        "one record of game {index} in {}",
        dir.display()
    );
    found.remove(0)
}

/// Re-plays a record of the starter decks against the all-commons reference Confluence (or
/// of two starter decks head to head) from its header and its choices: at every decision
/// the engine's legal options must be the record's, and the game must end as recorded.
/// Returns the end record's `result` (solo) or `winner` (head to head).
pub fn replay(record: &[Value]) -> Value {
    let h = &record[0];
    assert_eq!(h["event"], "record");
    assert_eq!(h["format"], 1);
    let s = common::setup();
    let db = &s.lib.db;
    let deck = |file: &Value| {
        let name = Path::new(file.as_str().unwrap())
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        s.decks
            .iter()
            .find(|d| d.name == name)
            .expect("a starter deck")
    };
    let seed = h["seed"].as_u64().unwrap();
    let index = h["game_index"].as_u64().unwrap();
    let seeds = GameSeeds::new(seed, index);
    let day_cap = h["day_cap"].as_u64().unwrap() as u8;
    let mine = deck(&h["player_deck"]);
    assert_eq!(h["deck"]["hero"], db.card(mine.hero).reference.as_str());
    let conf = s
        .confluence
        .cards_for(confluence_sim::deck::confluence::RareMix(0));
    let (mut g, mut rng) = if h["mode"] == "matchup" {
        let other = deck(&h["opponent"]["player_deck"]);
        fn seat(d: &confluence_sim::deck::PlayerDeck) -> confluence_sim::sim::duel::DuelSeat<'_> {
            confluence_sim::sim::duel::DuelSeat {
                hero: d.hero,
                cards: &d.cards,
                ordered: false,
            }
        }
        confluence_sim::sim::duel::start_duel(
            db,
            [seat(mine), seat(other)],
            confluence_sim::sim::matchup::first_seat(index),
            confluence_sim::sim::duel::DuelRules::standard(day_cap),
            &seeds,
            &mut NoObserver,
        )
    } else {
        assert_eq!(h["rares"], json!([]));
        let mut m = common::matchup(mine, &s, &conf);
        m.day_cap = day_cap;
        confluence_sim::sim::start_game(db, &m, &seeds, &mut NoObserver)
    };
    let decisions: Vec<&Value> = record.iter().filter(|r| r["event"] == "decision").collect();
    let mut buf = ChoiceList::new();
    let mut n = 0;
    loop {
        match advance(&mut g, db, &mut rng, &mut NoObserver) {
            Step::Over(o) => {
                assert_eq!(
                    n,
                    decisions.len(),
                    "the game ended before the record's decisions did"
                );
                let end = record.last().unwrap();
                assert_eq!(end["event"], "end");
                if h["mode"] == "matchup" {
                    let w = o.winner().map(|s| ["a", "b"][s.index()]);
                    assert_eq!(end["winner"], json!(w), "{end}");
                    return end["winner"].clone();
                }
                assert_eq!(end["result"], o.result(), "{end}");
                return end["result"].clone();
            }
            Step::Stopped => panic!("the engine stopped"),
            Step::Decide => {
                legal_choices(&g, db, &mut buf);
                let d = decisions
                    .get(n)
                    .unwrap_or_else(|| panic!("no record of decision {n}"));
                assert_eq!(d["n"], json!(n));
                let legal: Vec<String> = buf.iter().map(|&c| describe_choice(db, &g, c)).collect();
                assert_eq!(d["legal"], json!(legal), "decision {n}");
                assert_eq!(d["options"], json!(buf.len()));
                let k = d["index"].as_u64().unwrap() as usize;
                assert_eq!(d["choice"], json!(legal[k]));
                if buf.len() == 1 {
                    assert!(d["seconds"].is_null());
                }
                apply_unchecked(&mut g, db, &mut rng, &mut NoObserver, buf[k]);
                n += 1;
            }
        }
    }
}
