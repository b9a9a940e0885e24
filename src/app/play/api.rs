//! The HTTP API the page uses (docs/playing.md, "The HTTP API"): JSON in and out; a
//! refused request is a 4xx with `{"error": "..."}` and leaves the game unchanged.

use std::collections::HashMap;
use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tiny_http::{Header, Method, Request, Response};

use super::deal::Table;
use super::session::{ApiError, Game};

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");

/// The largest request body read.
const MAX_BODY: u64 = 64 * 1024;

pub struct App {
    t: &'static Table,
    games: Mutex<HashMap<u64, Arc<Mutex<Game>>>>,
    next: AtomicU64,
}

type Answer = Result<(u16, Value), ApiError>;

impl App {
    pub fn new(t: &'static Table) -> App {
        App {
            t,
            games: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
        }
    }

    pub fn handle(&self, mut req: Request) {
        let url = req.url().split('?').next().unwrap_or("").to_string();
        let method = req.method().clone();
        let page = |body: &str, kind: &str| {
            Response::from_string(body).with_header(header("Content-Type", kind))
        };
        let resp = match (&method, url.as_str()) {
            (Method::Get, "/") => page(PAGE, "text/html; charset=utf-8"),
            (Method::Get, "/page.js") => page(SCRIPT, "text/javascript; charset=utf-8"),
            (Method::Get, "/page.css") => page(STYLE, "text/css; charset=utf-8"),
            _ if url.starts_with("/api/") => {
                let mut body = String::new();
                let read = req
                    .as_reader()
                    .take(MAX_BODY)
                    .read_to_string(&mut body)
                    .map_err(|e| ApiError::new(400, format!("unreadable body: {e}")));
                let (status, v) = match read.and_then(|_| self.api(&method, &url, &body)) {
                    Ok(a) => a,
                    Err(e) => (e.status, json!({"error": e.message})),
                };
                Response::from_string(v.to_string())
                    .with_status_code(status)
                    .with_header(header("Content-Type", "application/json"))
            }
            _ => Response::from_string(format!("no page {url}"))
                .with_status_code(404)
                .with_header(header("Content-Type", "text/plain; charset=utf-8")),
        };
        // A client that went away is no error of the server's.
        let _ = req.respond(resp.with_header(header("Cache-Control", "no-store")));
    }

    fn api(&self, method: &Method, url: &str, body: &str) -> Answer {
        let parts: Vec<&str> = url.trim_end_matches('/').split('/').skip(2).collect();
        match (method, parts.as_slice()) {
            (Method::Post, ["games"]) => self.new_game(body),
            (Method::Get, ["games", id]) => self.with(id, |g| Ok((200, g.json()))),
            (Method::Post, ["games", id, "choose"]) => self.with(id, |g| {
                let (n, k) = choice(body)?;
                g.choose(n, k)?;
                Ok((200, g.json()))
            }),
            (Method::Post, ["games", id, "advice"]) => self.with(id, |g| {
                g.ask_advice()?;
                Ok((202, g.advice_json()))
            }),
            (Method::Get, ["games", id, "advice"]) => self.with(id, |g| Ok((200, g.advice_json()))),
            (Method::Post, ["games", id, "abandon"]) => self.with(id, |g| {
                g.abandon()?;
                Ok((200, g.json()))
            }),
            (Method::Get, ["config"]) => Ok((
                200,
                json!({
                    "mode": if self.t.matchup() { "matchup" } else { "solo" },
                    "advisor": self.t.advisor.as_ref().map(|a| a.to_string()),
                    "name": self.t.name,
                    "seed": self.t.seed,
                }),
            )),
            _ => Err(ApiError::new(
                404,
                format!(
                    "no such request: {method} {url} (expected POST /api/games, GET /api/games/ID, POST /api/games/ID/choose, POST or GET /api/games/ID/advice, POST /api/games/ID/abandon)"
                ),
            )),
        }
    }

    /// `POST /api/games`, body empty or `{"game_index": I}`: a new game of the table's
    /// seed, game I or the next deal.
    fn new_game(&self, body: &str) -> Answer {
        let index = if body.trim().is_empty() {
            None
        } else {
            let v: Value = serde_json::from_str(body).map_err(|e| {
                ApiError::new(
                    400,
                    format!("malformed body: expected nothing or JSON {{\"game_index\": I}}: {e}"),
                )
            })?;
            match v.get("game_index") {
                None | Some(Value::Null) => None,
                Some(i) => Some(i.as_u64().ok_or_else(|| {
                    ApiError::new(
                        400,
                        format!("game_index: expected a whole number >= 0, got {i}"),
                    )
                })?),
            }
        };
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let index = index.unwrap_or_else(|| self.t.next_index());
        let g = Game::new(self.t, id, index).map_err(|e| {
            ApiError::new(
                500,
                format!(
                    "the game could not start: {}",
                    crate::job::error::message(&e)
                ),
            )
        })?;
        let v = g.json();
        self.games
            .lock()
            .map_err(|_| ApiError::new(500, "the server's game list is broken"))?
            .insert(id, Arc::new(Mutex::new(g)));
        Ok((201, v))
    }

    /// Answers with game `id`, locked: 404 when there is none.
    fn with(&self, id: &str, f: impl FnOnce(&mut Game) -> Answer) -> Answer {
        let unknown = || ApiError::new(404, format!("no game {id} on this server"));
        let id: u64 = id.parse().map_err(|_| unknown())?;
        let g = self
            .games
            .lock()
            .map_err(|_| ApiError::new(500, "the server's game list is broken"))?
            .get(&id)
            .cloned()
            .ok_or_else(unknown)?;
        let mut g = g
            .lock()
            .map_err(|_| ApiError::new(500, "this game failed on an earlier request"))?;
        f(&mut g)
    }
}

/// The body of a choice: `{"decision": N, "index": K}`.
fn choice(body: &str) -> Result<(u64, usize), ApiError> {
    let expected = "expected JSON {\"decision\": N, \"index\": K}, N the decision's number and K the option's index";
    let v: Value = serde_json::from_str(body)
        .map_err(|e| ApiError::new(400, format!("malformed body: {expected}: {e}")))?;
    let field = |k: &str| {
        v.get(k).and_then(Value::as_u64).ok_or_else(|| {
            ApiError::new(
                400,
                format!("malformed body: no whole number \"{k}\": {expected}"),
            )
        })
    };
    let n = field("decision")?;
    let k = field("index")?;
    Ok((n, usize::try_from(k).unwrap_or(usize::MAX)))
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}
