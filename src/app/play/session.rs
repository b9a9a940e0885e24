//! One game being played: the engine's state, its streams and log, and the decision the
//! person is asked. The engine decides everything else: forced decisions (one option) and,
//! head to head, the opponent policy's (from seat B's policy stream, as `replay --mode
//! matchup` plays them), so that a deal and the person's choices give the game again.

use std::path::PathBuf;
use std::time::Instant;

use serde_json::{Value, json};

use super::super::records;
use super::deal::Table;
use super::{advisor, table};
use crate::cards::types::Side;
use crate::engine::view::View;
use crate::engine::{
    Choice, ChoiceList, GameRng, GameState, Outcome, Step, advance, apply_unchecked, legal_choices,
};
use crate::gamelog::{GameLog, describe_choice};
use crate::policy::{AnyPolicy, Policy, PolicyRng};
use crate::sim::GameSeeds;
use crate::sim::duel::seat_policy_rngs;

/// An answer the API refuses: its HTTP status and what was expected.
#[derive(Debug)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
}

impl ApiError {
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

use super::Later;

pub struct Game {
    t: &'static Table,
    pub id: u64,
    pub index: u64,
    seeds: GameSeeds,
    s: GameState,
    rng: GameRng,
    /// Seat B's policy stream and policy (head to head).
    prng: PolicyRng,
    opponent: Option<AnyPolicy>,
    log: GameLog<'static>,
    buf: ChoiceList,
    /// Decisions made so far, both seats' and forced ones: the next decision's number.
    n: u32,
    /// The person is asked decision `n` (its options are `buf`).
    waiting: bool,
    asked: Instant,
    /// The advisor's estimates for decision `n`, and whether they were shown.
    advice: Option<Later>,
    advice_shown: bool,
    outcome: Option<Outcome>,
    unfinished: Option<String>,
    header: Value,
    path: PathBuf,
    others: Option<Later>,
}

impl Game {
    /// Deals game `index` of the table's seed and plays it to the person's first decision;
    /// the record is written at once.
    pub fn new(t: &'static Table, id: u64, index: u64) -> anyhow::Result<Game> {
        let db = t.db();
        let seeds = GameSeeds::new(t.seed, index);
        let mut log = if t.matchup() {
            let hero = |k: usize| db.card(t.loaded.players[k].hero).name.clone();
            GameLog::duel(
                db,
                [format!("A ({}, you)", hero(0)), format!("B ({})", hero(1))],
            )
        } else {
            GameLog::new(db)
        }
        .seen_by(Side::Player);
        let (s, rng) = t.deal(&seeds, index, &mut log);
        let started = chrono::Utc::now();
        let stem: String = t
            .name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let path = t.games_dir.join(format!(
            "{stem}-seed{}-game{index}-{}.jsonl",
            t.seed,
            started.format("%Y%m%dT%H%M%S%.3f")
        ));
        let mut g = Game {
            t,
            id,
            index,
            seeds,
            s,
            rng,
            prng: seat_policy_rngs(&seeds)[1].clone(),
            opponent: t.matchup().then(|| t.opponent_policy.build(&t.data)),
            log,
            buf: ChoiceList::new(),
            n: 0,
            waiting: false,
            asked: Instant::now(),
            advice: None,
            advice_shown: false,
            outcome: None,
            unfinished: None,
            header: t
                .header(
                    index,
                    started.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                )
                .to_json(),
            path,
            others: None,
        };
        g.run();
        g.write()?;
        Ok(g)
    }

    pub fn over(&self) -> bool {
        self.outcome.is_some() || self.unfinished.is_some()
    }

    /// Plays on until the person is asked or the game ends.
    fn run(&mut self) {
        let db = self.t.db();
        while !self.waiting && !self.over() {
            match advance(&mut self.s, db, &mut self.rng, &mut self.log) {
                Step::Over(o) => {
                    self.outcome = Some(o);
                    self.others = Some(super::others::start(self.t, self.index));
                }
                Step::Stopped => self.unfinished = Some("the engine stopped the game".into()),
                Step::Decide => {
                    legal_choices(&self.s, db, &mut self.buf);
                    if self.buf.is_empty() {
                        self.unfinished = Some(format!("decision {} offered no option", self.n));
                    } else if self.buf.len() == 1 {
                        self.take(0, None);
                    } else if self.s.decider != Side::Player
                        && let Some(p) = &mut self.opponent
                    {
                        let k = p.choose(&View::new(&self.s, db), &self.buf, &mut self.prng);
                        self.take(k, None);
                    } else {
                        self.waiting = true;
                        self.asked = Instant::now();
                        self.advice = None;
                        self.advice_shown = false;
                    }
                }
            }
        }
    }

    /// Takes option `k` of the pending decision, noting it in the log with what the
    /// record adds (docs/outputs.md, "Game records").
    fn take(&mut self, k: usize, seconds: Option<f64>) {
        let advice = seconds.is_some() && self.advice_shown;
        self.log
            .recorded_decision(&self.s, &self.buf, k, self.n, seconds, advice);
        self.n += 1;
        let c = self.buf[k];
        apply_unchecked(&mut self.s, self.t.db(), &mut self.rng, &mut self.log, c);
    }

    /// The person's answer `index` to decision `n`.
    pub fn choose(&mut self, n: u64, index: usize) -> Result<(), ApiError> {
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        if self.over() {
            return Err(ApiError::new(409, "the game is over: nothing is asked"));
        }
        if n != self.n || !self.waiting {
            return Err(ApiError::new(
                409,
                format!(
                    "decision {n} is not the one asked: decision {} is (an earlier answer, from this page or another, was already taken)",
                    self.n
                ),
            ));
        }
        if index >= self.buf.len() {
            return Err(ApiError::new(
                400,
                format!(
                    "option {index} is not legal at decision {n}: give an index from 0 to {}",
                    self.buf.len() - 1
                ),
            ));
        }
        let seconds = (self.asked.elapsed().as_secs_f64() * 1000.0).round() / 1000.0;
        self.waiting = false;
        self.take(index, Some(seconds));
        self.run();
        self.write_or_note();
        Ok(())
    }

    /// Stops the game; its record is marked unfinished (never counted as a loss).
    pub fn abandon(&mut self) -> Result<(), ApiError> {
        if self.over() {
            return Err(ApiError::new(409, "the game is over already"));
        }
        self.waiting = false;
        self.unfinished = Some("abandoned".into());
        self.write_or_note();
        Ok(())
    }

    /// Starts the advisor on the decision asked (once per decision).
    pub fn ask_advice(&mut self) -> Result<(), ApiError> {
        let Some(spec) = &self.t.advisor else {
            return Err(ApiError::new(
                403,
                "the advisor is off in this session (play --no-advisor)",
            ));
        };
        if !self.waiting || self.over() {
            return Err(ApiError::new(
                409,
                "no decision is asked: nothing to advise on",
            ));
        }
        if self.advice.is_none() {
            self.advice = Some(advisor::start(
                self.t,
                spec.clone(),
                self.s,
                self.buf.to_vec(),
                self.seeds.game ^ u64::from(self.n),
                u64::from(self.n),
            ));
        }
        Ok(())
    }

    /// The advisor's estimates for the decision asked (`status`: none, running or ready);
    /// once ready they count as shown.
    pub fn advice_json(&mut self) -> Value {
        let Some(later) = &self.advice else {
            return json!({"status": "none", "decision": self.n});
        };
        let ready = later.lock().map(|v| v.clone()).unwrap_or(None);
        match ready {
            Some(v) => {
                self.advice_shown = true;
                json!({"status": "ready", "decision": self.n, "options": v})
            }
            None => json!({"status": "running", "decision": self.n}),
        }
    }

    /// What the person sees: the table from their side, the decision asked, the log, and
    /// the result.
    pub fn json(&self) -> Value {
        let db = self.t.db();
        let decision = (self.waiting && !self.over()).then(|| {
            let options: Vec<Value> = self
                .buf
                .iter()
                .enumerate()
                .map(|(k, &c)| option_json(db, &self.s, k, c))
                .collect();
            json!({
                "n": self.n,
                "kind": format!("{:?}", self.s.decision),
                "options": options,
            })
        });
        let result = self.outcome.map(|o| {
            let (won, words) = if self.t.matchup() {
                match o.winner() {
                    Some(Side::Player) => (Some(true), "you won".to_string()),
                    Some(_) => (Some(false), "the opponent won".to_string()),
                    None => (None, format!("a draw ({})", o.cause().replace('_', " "))),
                }
            } else {
                (
                    o.is_win().then_some(true).or(o.is_loss().then_some(false)),
                    format!("{} ({})", o.result(), o.cause().replace('_', " ")),
                )
            };
            json!({"won": won, "result": o.result(), "cause": o.cause(), "words": words, "days": self.s.day})
        });
        let others = self
            .others
            .as_ref()
            .and_then(|l| l.lock().ok().and_then(|v| v.clone()));
        json!({
            "id": self.id,
            "seed": self.t.seed,
            "game_index": self.index,
            "mode": if self.t.matchup() { "matchup" } else { "solo" },
            "advisor": self.t.advisor.as_ref().map(|a| a.to_string()),
            "record": self.path.display().to_string(),
            "table": table::visible(self.t, &self.s),
            "decision": decision,
            "log": self.log.lines,
            "result": result,
            "unfinished": self.unfinished,
            "others": others,
        })
    }

    /// Writes the record: the header, the log's records, and the last line (`end`, made by
    /// the log, or `unfinished` while the game is played or after it was abandoned).
    fn write(&self) -> anyhow::Result<()> {
        let mut lines = Vec::with_capacity(self.log.records.len() + 2);
        lines.push(self.header.clone());
        lines.extend(self.log.records.iter().cloned());
        if self.outcome.is_none() {
            lines.push(crate::record::unfinished(
                self.n as usize,
                self.unfinished.as_deref().unwrap_or(
                    "still being played (or the server stopped, or the page was closed, before the end)",
                ),
            ));
        }
        records::write_atomic(&self.path, &lines)
    }

    /// [`Game::write`] from a request: a failure is printed on the terminal (the game goes
    /// on; the next decision writes the whole record again).
    fn write_or_note(&self) {
        if let Err(e) = self.write() {
            eprintln!(
                "confluence-sim: warning: {}",
                crate::job::error::message(&e)
            );
        }
    }
}

/// An option as the page shows it: its words, and the card or expedition it names (the
/// page selects the option when that card or expedition is clicked).
fn option_json(db: &crate::cards::db::CardDb, s: &GameState, k: usize, c: Choice) -> Value {
    let mut v = json!({"index": k, "text": describe_choice(db, s, c)});
    let o = v.as_object_mut().expect("an object");
    match c {
        Choice::Play { obj, exp, .. } => {
            o.insert("card".into(), json!(obj));
            if db.card(s.obj(obj).card).kind.goes_to_expedition() {
                o.insert("expedition".into(), json!(exp.name()));
            }
        }
        Choice::Quick { obj, .. } | Choice::Card(obj) => {
            o.insert("card".into(), json!(obj));
        }
        Choice::Exp(e) => {
            o.insert("expedition".into(), json!(e.name()));
        }
        Choice::OpposingExp(e) => {
            o.insert("expedition".into(), json!(e.name()));
            o.insert("opposing".into(), json!(true));
        }
        _ => {}
    }
    v
}
