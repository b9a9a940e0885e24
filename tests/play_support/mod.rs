//! What the `play` tests share: the server started as a child process, a tiny HTTP client
//! on a TCP stream, and a game record re-played by `replay --file`.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

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

/// Re-plays a record with `replay --file` (which deals the game of its header again,
/// checks every decision's legal options against the engine's and applies its choices):
/// it must end as the record says. Returns the re-played `end` record.
pub fn replay(path: &Path) -> Value {
    let out = common::sim()
        .args(["replay", "--json", "--file"])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "replay --file {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let end: Value = serde_json::from_str(text.lines().last().expect("a record")).unwrap();
    assert_eq!(end["event"], "end", "{}", path.display());
    assert_eq!(Some(&end), read_record(path).last(), "the record's own end");
    end
}
