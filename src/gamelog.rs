//! A game log: an [`Observer`] that turns engine events into readable lines and into JSON
//! Lines records (schema in docs/outputs.md, "Replay JSON"). Used by `replay` and `scenario`.
//!
//! Layer: may use `cards`, `engine`, `record` and nothing else of the crate.

use serde_json::{Value, json};

use crate::cards::db::CardDb;
use crate::cards::types::*;
use crate::engine::Choice;
use crate::engine::duel::{DuelDusk, DuelExpReport, FfaDusk, terrains_won};
use crate::engine::event::{ConfluenceAction, Event, Observer, Why};
use crate::engine::overcome::ExpReport;
use crate::engine::state::*;
use crate::engine::table::{Verdict, advance, qualifies};

/// A choice in words ("play Kappa from hand into the hero expedition").
pub fn describe_choice<const N: usize, const M: usize>(
    db: &CardDb,
    s: &GameState<N, M>,
    c: Choice,
) -> String {
    let name = |id: ObjId| db.card(s.obj(id).card).name.clone();
    match c {
        Choice::Pass => "pass".into(),
        Choice::Play {
            obj,
            from_reserve,
            exp,
            alt,
        } => {
            let kind = db.card(s.obj(obj).card).kind;
            format!(
                "play {} from {}{}{}",
                name(obj),
                if from_reserve { "reserve" } else { "hand" },
                if kind.goes_to_expedition() {
                    format!(" into the {} expedition", exp.name())
                } else {
                    String::new()
                },
                match alt {
                    crate::engine::choice::Alt::None => String::new(),
                    crate::engine::choice::Alt::Scout => " (Scout)".into(),
                    crate::engine::choice::Alt::Discard(r) =>
                        format!(" (discarding {} from Reserve to pay less)", name(r)),
                    crate::engine::choice::Alt::Exhaust(r) =>
                        format!(" (exhausting {} in Reserve to pay less)", name(r)),
                    crate::engine::choice::Alt::Sacrifice(r) =>
                        format!(" (sacrificing {} to pay less)", name(r)),
                    crate::engine::choice::Alt::Free => " for free".into(),
                    crate::engine::choice::Alt::HandCost => " paying its Hand Cost".into(),
                    crate::engine::choice::Alt::Less(n)
                    | crate::engine::choice::Alt::Cheaper(n) => format!(" for {n} less"),
                }
            )
        }
        Choice::Quick { obj, ability } => format!("use ability {ability} of {}", name(obj)),
        Choice::Card(id) => name(id),
        Choice::Exp(e) => format!("the {} expedition", e.name()),
        Choice::OpposingExp(e) => format!("the Confluence's {} expedition", e.name()),
        Choice::Yes => "yes".into(),
        Choice::No => "no".into(),
        Choice::Mode(k) => format!("option {k}"),
        Choice::Done => "done".into(),
        Choice::Seat(seat) => format!("seat {seat} as the opponent"),
    }
}

pub struct GameLog<'a> {
    db: &'a CardDb,
    pub lines: Vec<String>,
    pub records: Vec<Value>,
    last_phase: &'static str,
    /// A head-to-head or Free for All game's seats as the log names them (seat A first).
    seats: Option<Vec<String>>,
    /// The side whose eyes the lines are for ([`GameLog::seen_by`]); `None`: the replay's
    /// lines, which hide only the Confluence's hidden cards (solo) or nothing.
    viewer: Option<Side>,
}

fn stats_json(s: Stats) -> Value {
    json!({"f": s.f, "m": s.m, "o": s.o})
}

/// One expedition's line of a Dusk report, head to head or at four seats: its totals
/// `against` those it faces, what it wins, and whether it moves forward or why not.
fn dusk_line(side: &str, e: Exp, x: &DuelExpReport, against: String) -> String {
    let mut held = Vec::new();
    if x.defender {
        held.push("held by a Defender".to_string());
    }
    if x.blocked {
        held.push("blocked by an effect".to_string());
    }
    if x.only_due_to != 0 && x.won & x.only_due_to == 0 {
        held.push(format!(
            "may move only due to {}",
            terrain::describe(x.only_due_to)
        ));
    }
    format!(
        "  {side}'s {} expedition, region {} ({}): {} against {against}{}: wins {} => {}",
        e.name(),
        x.region,
        terrain::describe(x.terrains),
        x.mine,
        if x.ascended {
            " (Ascended: ties win)"
        } else {
            ""
        },
        if x.won == 0 {
            "nothing".to_string()
        } else {
            terrain::describe(x.won)
        },
        if x.advances {
            "moves forward".to_string()
        } else if held.is_empty() {
            "stays".to_string()
        } else {
            format!("stays ({})", held.join(", "))
        }
    )
}

fn zone_name(z: Zone) -> &'static str {
    z.name()
}

fn why_name(w: Why) -> &'static str {
    match w {
        Why::Setup => "setup",
        Why::Draw => "draw",
        Why::Expand => "expand",
        Why::Play => "play",
        Why::Effect => "effect",
        Why::Rest => "rest",
        Why::Cleanup => "cleanup",
        Why::Midnight => "midnight",
        Why::Refill => "refill",
        Why::CannotPay => "cannot_pay",
        Why::Cost => "cost",
        Why::Resupply => "resupply",
        Why::Sabotage => "sabotage",
    }
}

pub fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::SetupMana => "setup",
        Phase::Morning | Phase::Expand | Phase::ConfluenceDraw => "morning",
        // Noon reactions resolve just after the Noon step, before the first turn.
        Phase::Noon | Phase::AfternoonStart => "noon",
        Phase::Turn | Phase::ConfluenceQuick(_) | Phase::ConfluencePlay | Phase::TurnEnd => {
            "afternoon"
        }
        Phase::Dusk | Phase::Progress => "dusk",
        Phase::Night | Phase::Rest | Phase::Cleanup | Phase::Midnight => "night",
    }
}

impl<'a> GameLog<'a> {
    pub fn new(db: &'a CardDb) -> GameLog<'a> {
        GameLog {
            db,
            lines: Vec::new(),
            records: Vec::new(),
            last_phase: "",
            seats: None,
            viewer: None,
        }
    }

    /// The same log, whose lines show only what `side` sees (`play` shows them to a
    /// person): face-down regions without their terrains, other sides' cards going to a
    /// hidden zone, and other sides' choices of hidden cards, as "a face-down card". The
    /// JSON records stay whole.
    pub fn seen_by(self, side: Side) -> GameLog<'a> {
        GameLog {
            viewer: Some(side),
            ..self
        }
    }

    /// Whether the lines hide object `id` of the state: the viewer cannot see it.
    fn hides<const N: usize, const M: usize>(&self, s: &GameState<N, M>, id: ObjId) -> bool {
        self.viewer.is_some_and(|v| {
            let o = s.obj(id);
            o.side != v && !o.has(flag::KNOWN)
        })
    }

    /// The log of a head-to-head game, naming its seats (seat A first): both seats'
    /// decisions, expeditions and Dusks, and every card (nothing is hidden).
    pub fn duel(db: &'a CardDb, seats: [String; 2]) -> GameLog<'a> {
        GameLog {
            seats: Some(seats.into()),
            ..GameLog::new(db)
        }
    }

    /// The log of a Free for All game, naming its four seats (seat A first): every seat's
    /// decisions, expeditions, Dusks and day ends, and every card (nothing is hidden).
    pub fn ffa(db: &'a CardDb, seats: [String; 4]) -> GameLog<'a> {
        GameLog {
            seats: Some(seats.into()),
            ..GameLog::new(db)
        }
    }

    fn name<const N: usize, const M: usize>(&self, s: &GameState<N, M>, id: ObjId) -> String {
        if id == NO_OBJ {
            return "-".into();
        }
        self.db.card(s.obj(id).card).name.clone()
    }

    fn card<const N: usize, const M: usize>(&self, s: &GameState<N, M>, id: ObjId) -> Value {
        json!({"id": id, "name": self.name(s, id)})
    }

    fn side_name(&self, side: Side) -> &str {
        match (&self.seats, side) {
            (Some(n), _) => &n[side.index()],
            (None, Side::Player) => "Player",
            (None, _) => "Confluence",
        }
    }

    /// A side as the JSON names it: "player" and "confluence", or in a head-to-head game
    /// "a" and "b" (and on, seat by seat).
    fn side_key(&self, side: Side) -> &'static str {
        match self.seats {
            Some(_) => ["a", "b", "c", "d"][side.index()],
            None => side.name(),
        }
    }

    fn push<const N: usize, const M: usize>(
        &mut self,
        s: &GameState<N, M>,
        kind: &str,
        mut v: Value,
        line: String,
    ) {
        if let Value::Object(m) = &mut v {
            m.insert("day".into(), json!(s.day));
            m.insert("phase".into(), json!(phase_name(s.phase)));
            m.insert("event".into(), json!(kind));
        }
        self.records.push(v);
        if !line.is_empty() {
            let phase = phase_name(s.phase);
            if phase != self.last_phase && kind != "day_start" && kind != "setup" && kind != "end" {
                self.lines.push(format!("- {phase} -"));
                self.last_phase = phase;
            }
            self.lines.push(line);
        }
    }

    /// Notes a player decision (made outside the engine, by the policy).
    pub fn decision<const N: usize, const M: usize>(
        &mut self,
        s: &GameState<N, M>,
        options: usize,
        choice: Choice,
    ) {
        let text = describe_choice(self.db, s, choice);
        let named = match choice {
            Choice::Card(id) | Choice::Play { obj: id, .. } | Choice::Quick { obj: id, .. } => {
                Some(id)
            }
            _ => None,
        };
        let seen = match named {
            Some(id) if self.viewer.is_some_and(|v| v != s.decider) && self.hides(s, id) => {
                "a face-down card".to_string()
            }
            _ => text.clone(),
        };
        let shown = match s.decision {
            // Plays, passes and moves are logged by the engine's own events.
            Decision::Turn
            | Decision::SetupMana
            | Decision::Expand
            | Decision::CleanupReserve
            | Decision::CleanupLandmark => String::new(),
            d => format!(
                "    {} decides ({}, {}): {seen}",
                if self.seats.is_some() {
                    self.side_name(s.decider)
                } else {
                    "Player"
                },
                words(&format!("{d:?}")),
                if options == 1 {
                    "1 option".to_string()
                } else {
                    format!("{options} options")
                }
            ),
        };
        self.push(
            s,
            "decision",
            json!({"decision": format!("{:?}", s.decision), "options": options, "choice": text}),
            shown,
        );
        let side = self.side_key(s.decider);
        if self.seats.is_some()
            && let Some(Value::Object(m)) = self.records.last_mut()
        {
            m.insert("side".into(), json!(side));
        }
    }

    /// [`decision`](Self::decision) as a game record keeps it (crate::record): also the
    /// decision's number `n`, whose it is (`a`, `b`), every legal option in words, the
    /// index chosen, the seconds a person took and whether advice was on screen.
    #[allow(clippy::too_many_arguments)]
    pub fn recorded_decision<const N: usize, const M: usize>(
        &mut self,
        s: &GameState<N, M>,
        options: &[Choice],
        index: usize,
        n: u32,
        seconds: Option<f64>,
        advice: bool,
    ) {
        self.decision(s, options.len(), options[index]);
        let legal = options
            .iter()
            .map(|&c| describe_choice(self.db, s, c))
            .collect();
        let side = ["a", "b", "c", "d"][s.decider.index()];
        let extra = crate::record::decision_fields(n, side, legal, index, seconds, advice);
        if let (Some(Value::Object(m)), Value::Object(x)) = (self.records.last_mut(), extra) {
            m.extend(x);
        }
    }

    /// A side's expedition positions as JSON.
    fn positions<const N: usize, const M: usize>(&self, s: &GameState<N, M>, side: Side) -> Value {
        let p = s.pos_of(side);
        json!({"hero": p.get(Exp::Hero), "companion": p.get(Exp::Companion)})
    }

    /// A head-to-head Dusk as JSON and lines: each seat's expeditions against the
    /// opposing ones (the totals compared per terrain of the region, what is won, what
    /// holds it), or the Arena's totals.
    fn duel_dusk(&self, r: &DuelDusk) -> (Value, String) {
        let seat = |k: usize| {
            if k == 0 {
                Side::Player
            } else {
                Side::Confluence
            }
        };
        if r.arena {
            let mut lines =
                vec!["Dusk in the Arena: all characters' totals compared per terrain:".to_string()];
            for k in 0..2 {
                lines.push(format!(
                    "  {}: {} wins {} ({} terrain(s))",
                    self.side_name(seat(k)),
                    r.arena_totals[k],
                    terrain::describe(r.arena_won[k]),
                    r.arena_won[k].count_ones()
                ));
            }
            let v = json!({"arena": true,
                "totals": {"a": stats_json(r.arena_totals[0]), "b": stats_json(r.arena_totals[1])},
                "won": {"a": terrain::describe(r.arena_won[0]), "b": terrain::describe(r.arena_won[1])}});
            return (v, lines.join("\n"));
        }
        let mut lines =
            vec!["Dusk: each expedition against the opposing one on its track:".to_string()];
        let mut exps = Vec::new();
        for k in 0..2 {
            for e in Exp::BOTH {
                let x = &r.exps[k][e.index()];
                lines.push(dusk_line(
                    self.side_name(seat(k)),
                    e,
                    x,
                    x.theirs.to_string(),
                ));
                exps.push(json!({
                    "side": self.side_key(seat(k)),
                    "expedition": e.name(),
                    "region": x.region,
                    "terrains": terrain::describe(x.terrains),
                    "totals": stats_json(x.mine),
                    "opposing_totals": stats_json(x.theirs),
                    "won": terrain::describe(x.won),
                    "ascended": x.ascended,
                    "defender": x.defender,
                    "blocked": x.blocked,
                    "only_due_to": terrain::describe(x.only_due_to),
                    "advances": x.advances,
                }));
            }
        }
        (
            json!({"arena": false, "expeditions": exps}),
            lines.join("\n"),
        )
    }

    /// The seats of a bit set as the JSON names them, seat A first.
    fn keys(&self, mask: u8) -> Vec<&'static str> {
        (0..4u8)
            .filter(|k| mask & 1 << k != 0)
            .map(|k| self.side_key(Side::of_seat(k)))
            .collect()
    }

    /// The seats of a bit set as the lines name them ("A (Hero) and C (Hero)").
    fn names_of(&self, mask: u8) -> String {
        let v: Vec<&str> = (0..4u8)
            .filter(|k| mask & 1 << k != 0)
            .map(|k| self.side_name(Side::of_seat(k)))
            .collect();
        v.join(" and ")
    }

    /// A Free for All Dusk as JSON and lines: each expedition of every seat still playing
    /// against the one across its lane (which that is, the totals compared per terrain of
    /// the region, what is won, what holds it), or in the Arena every seat's totals, the
    /// terrains each wins alone and what the table decides.
    fn ffa_dusk<const N: usize, const M: usize>(
        &self,
        s: &GameState<N, M>,
        r: &FfaDusk,
    ) -> (Value, String) {
        let seats: Vec<Side> = (0..4u8)
            .filter(|k| r.playing & 1 << k != 0)
            .map(Side::of_seat)
            .collect();
        if r.arena {
            let mut lines = vec![
                "Dusk in the Arena: every seat's characters' totals compared per terrain:"
                    .to_string(),
            ];
            let mut totals = serde_json::Map::new();
            let mut won = serde_json::Map::new();
            for &side in &seats {
                let k = side.index();
                // A terrain goes to a total of at least 1 above every other seat's.
                let w = seats
                    .iter()
                    .filter(|&&o| o != side)
                    .fold(terrain::ALL, |w, &o| {
                        w & terrains_won(
                            r.arena_totals[k],
                            r.arena_totals[o.index()],
                            terrain::ALL,
                            false,
                        )
                    });
                lines.push(format!(
                    "  {}: {} wins {} ({} terrain(s))",
                    self.side_name(side),
                    r.arena_totals[k],
                    terrain::describe(w),
                    w.count_ones()
                ));
                totals.insert(self.side_key(side).into(), stats_json(r.arena_totals[k]));
                won.insert(self.side_key(side).into(), json!(terrain::describe(w)));
            }
            let verdict = s.table.arena_dusk(&r.arena_totals);
            let (v, said) = self.verdict_json(verdict, "another Arena day for every seat");
            lines.push(format!("  => {said}"));
            let rec = json!({"arena": true, "playing": self.keys(r.playing),
                "totals": totals, "won": won, "verdict": v});
            return (rec, lines.join("\n"));
        }
        let mut lines = vec!["Dusk: each expedition against the one across its lane:".to_string()];
        let mut exps = Vec::new();
        for &side in &seats {
            for e in Exp::BOTH {
                let x = &r.exps[side.index()][e.index()];
                let across = r.across[side.index()][e.index()];
                let against = match across {
                    Some((seat, fe)) => format!(
                        "{} ({}'s {} expedition)",
                        x.theirs,
                        self.side_name(Side::of_seat(seat)),
                        fe.name()
                    ),
                    None => format!("{} (no expedition across)", x.theirs),
                };
                lines.push(dusk_line(self.side_name(side), e, x, against));
                exps.push(json!({
                    "side": self.side_key(side),
                    "expedition": e.name(),
                    "region": x.region,
                    "terrains": terrain::describe(x.terrains),
                    "totals": stats_json(x.mine),
                    "across": across.map(|(seat, fe)| json!({
                        "side": self.side_key(Side::of_seat(seat)),
                        "expedition": fe.name(),
                    })),
                    "opposing_totals": stats_json(x.theirs),
                    "won": terrain::describe(x.won),
                    "ascended": x.ascended,
                    "defender": x.defender,
                    "blocked": x.blocked,
                    "only_due_to": terrain::describe(x.only_due_to),
                    "advances": x.advances,
                }));
            }
        }
        (
            json!({"arena": false, "playing": self.keys(r.playing), "expeditions": exps}),
            lines.join("\n"),
        )
    }

    /// A Free for All verdict as JSON and in words; `go_on` says what `Continue` means.
    fn verdict_json(&self, v: Verdict, go_on: &str) -> (Value, String) {
        match v {
            Verdict::Continue => (json!({"result": "continue"}), go_on.to_string()),
            Verdict::Wins(seat) => {
                let side = Side::of_seat(seat);
                (
                    json!({"result": "wins", "winner": self.side_key(side)}),
                    format!("{} wins", self.side_name(side)),
                )
            }
            Verdict::Arena(keep) => (
                json!({"result": "arena", "seats": self.keys(keep)}),
                format!(
                    "{} play an Arena day; the other seats leave the game",
                    self.names_of(keep)
                ),
            ),
        }
    }

    /// Free for All's end of a day: every seat's positions, whether its expeditions met or
    /// crossed, how far it advanced, and what the table decides.
    fn ffa_day_end<const N: usize, const M: usize>(
        &self,
        s: &GameState<N, M>,
        verdict: Verdict,
    ) -> (Value, String) {
        let mut pos = serde_json::Map::new();
        let mut met = serde_json::Map::new();
        let mut adv = serde_json::Map::new();
        let mut parts = Vec::new();
        for k in 0..N as u8 {
            let side = Side::of_seat(k);
            let p = s.pos_of(side);
            let key = self.side_key(side);
            pos.insert(key.into(), self.positions(s, side));
            met.insert(key.into(), json!(qualifies(p)));
            adv.insert(key.into(), json!(advance(p)));
            if s.table.is_playing(k) {
                parts.push(format!(
                    "{} Hero {}, Companion {} ({})",
                    self.side_name(side),
                    p.get(Exp::Hero),
                    p.get(Exp::Companion),
                    if qualifies(p) {
                        format!("met, advance {}", advance(p))
                    } else {
                        "apart".to_string()
                    }
                ));
            }
        }
        let (v, said) = self.verdict_json(verdict, "the next day");
        (
            json!({"positions": pos, "met": met, "advance": adv,
                   "playing": self.keys(s.table.playing()), "verdict": v,
                   "day_cap": s.day_cap}),
            format!("Day end: {}; => {said}", parts.join("; ")),
        )
    }

    fn exp_report<const N: usize, const M: usize>(
        &self,
        s: &GameState<N, M>,
        e: Exp,
        r: &ExpReport,
    ) -> (Value, Vec<String>) {
        let facing: Vec<Value> = r
            .facing
            .iter()
            .map(|f| {
                json!({
                    "id": f.obj, "name": self.name(s, f.obj),
                    "f": f.req.f, "m": f.req.m, "o": f.req.o,
                    "asleep": f.asleep, "gigantic": f.gigantic,
                    "persistent": f.persistent, "constant": f.constant,
                    "overcome": f.overcome,
                })
            })
            .collect();
        let v = json!({
            "expedition": e.name(),
            "region": r.region,
            "terrains": terrain::describe(s.region_terrains(self.db, r.region as usize)),
            "requirement": terrain::describe(r.requirement),
            "added": terrain::describe(r.added),
            "totals": stats_json(r.totals),
            "facing": facing,
            "ascend": r.ascend,
            "defender": r.defender,
            "terrain_paid": r.terrain_paid,
            "remaining": stats_json(r.remaining),
            "cleared": r.cleared,
            "advanced": r.advanced,
            "why": r.verdict.describe(),
            "due_to": terrain::describe(r.due_to),
        });
        let mut lines = vec![format!(
            "  {} expedition, region {} ({}): player's totals {}",
            e.name(),
            r.region,
            terrain::describe(s.region_terrains(self.db, r.region as usize)),
            r.totals
        )];
        for f in &r.facing {
            let mut tags = Vec::new();
            if f.asleep {
                tags.push("asleep: not counted");
            }
            if f.gigantic {
                tags.push("gigantic");
            }
            if f.persistent {
                tags.push("persistent");
            }
            if f.constant {
                tags.push("constant");
            }
            lines.push(format!(
                "    facing {} {}{}: {}",
                self.name(s, f.obj),
                f.req,
                if tags.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", tags.join(", "))
                },
                if f.asleep {
                    "ignored"
                } else if f.overcome {
                    "overcome"
                } else {
                    "NOT overcome"
                }
            ));
        }
        lines.push(format!(
            "    terrain to pay: {}{}; left after subtracting: {}",
            terrain::describe(r.requirement),
            if r.ascend { " (Ascended: skipped)" } else { "" },
            r.remaining
        ));
        lines.push(format!(
            "    => {}",
            if r.advanced {
                "advances".to_string()
            } else {
                format!("stays: {}", r.verdict.describe())
            }
        ));
        (v, lines)
    }
}

impl<const N: usize, const M: usize> Observer<N, M> for GameLog<'_> {
    const ENABLED: bool = true;

    fn event(&mut self, s: &GameState<N, M>, ev: &Event<'_>) {
        match ev {
            Event::Setup | Event::Arena | Event::DayStart { .. } | Event::Reveal { .. } => {
                self.day_event(s, ev)
            }
            Event::Moved { .. }
            | Event::ConfluenceReveals { .. }
            | Event::ConfluenceTurn { .. }
            | Event::Play { .. }
            | Event::Quick { .. }
            | Event::Ability { .. } => self.play_event(s, ev),
            Event::Boost { .. }
            | Event::Status { .. }
            | Event::Token { .. }
            | Event::LandmarkToken { .. }
            | Event::TokenGone { .. }
            | Event::Roll { .. }
            | Event::Pass { .. }
            | Event::AfterYou { .. }
            | Event::FirstPlayer { .. } => self.effect_event(s, ev),
            Event::ExpeditionMoved { .. }
            | Event::DuelDusk(_)
            | Event::FfaDusk(_)
            | Event::FfaDayEnd { .. }
            | Event::DuelDayEnd { .. }
            | Event::DarknessMoved { .. }
            | Event::Dusk(_)
            | Event::Midnight { .. }
            | Event::NewMidnightCard { .. }
            | Event::Refill { .. }
            | Event::End { .. } => self.dusk_event(s, ev),
        }
    }
}

impl GameLog<'_> {
    /// The adventure laid out, the Arena, a day's start and a Tumult card revealed.
    fn day_event<const N: usize, const M: usize>(&mut self, s: &GameState<N, M>, ev: &Event<'_>) {
        match ev {
            Event::Setup => {
                let a = &s.adventure;
                let regions: Vec<Value> = (0..8)
                    .map(|r| json!({"region": r, "terrains": terrain::describe(a.terrain[r]), "revealed": a.is_revealed(r)}))
                    .collect();
                let laid: Vec<String> = (0..8)
                    .map(|r| match (a.is_revealed(r), self.viewer) {
                        (true, _) => format!("{r}:{}", terrain::describe(a.terrain[r])),
                        (false, None) => format!("{r}:{}(face down)", terrain::describe(a.terrain[r])),
                        (false, Some(_)) => format!("{r}:face down"),
                    })
                    .collect();
                self.push(
                    s,
                    "setup",
                    json!({"adventure": regions, "darkness": {"hero": s.dark.get(Exp::Hero), "companion": s.dark.get(Exp::Companion)}}),
                    format!(
                        "Adventure as laid out: {}\nDarkness behind the Hero (at -1) and behind the Companion (at 8).",
                        laid.join("  ")
                    ),
                );
            }
            Event::Arena if N > 2 => {
                let keep = s.table.playing();
                self.push(
                    s,
                    "arena",
                    json!({"seats": self.keys(keep)}),
                    format!(
                        "The furthest seats went equally far: {} play the Arena tiebreaker; the other seats leave the game.",
                        self.names_of(keep)
                    ),
                );
            }
            Event::Arena => self.push(
                s,
                "arena",
                json!({"score_a": s.score(Side::Player), "score_b": s.score(Side::Confluence)}),
                format!(
                    "The expeditions met with equal scores ({} each): the Arena tiebreaker starts.",
                    s.score(Side::Player)
                ),
            ),
            Event::DayStart { day } if N > 2 => {
                let mut pos = serde_json::Map::new();
                let mut parts = Vec::new();
                for k in 0..N as u8 {
                    let side = Side::of_seat(k);
                    pos.insert(self.side_key(side).into(), self.positions(s, side));
                    if s.table.is_playing(k) {
                        let p = s.pos_of(side);
                        parts.push(format!(
                            "{}: Hero {}, Companion {}",
                            self.side_name(side),
                            p.get(Exp::Hero),
                            p.get(Exp::Companion)
                        ));
                    }
                }
                self.push(
                    s,
                    "day_start",
                    json!({"first_player": self.side_key(s.first_player()), "positions": pos,
                           "playing": self.keys(s.table.playing()), "arena": s.arena}),
                    format!(
                        "\n=== Day {day} === first player: {}. {}{}",
                        self.side_name(s.first_player()),
                        parts.join("; "),
                        if s.arena { " (Arena)" } else { "" }
                    ),
                );
            }
            Event::DayStart { day } if self.seats.is_some() => {
                let pos = |side: Side| {
                    let p = s.pos_of(side);
                    (p.get(Exp::Hero), p.get(Exp::Companion))
                };
                let (a, b) = (pos(Side::Player), pos(Side::Confluence));
                self.push(
                    s,
                    "day_start",
                    json!({"first_player": self.side_key(s.first_player()),
                           "positions": {"a": self.positions(s, Side::Player), "b": self.positions(s, Side::Confluence)},
                           "arena": s.arena}),
                    format!(
                        "\n=== Day {day} === first player: {}. {}: Hero {}, Companion {}; {}: Hero {}, Companion {}{}",
                        self.side_name(s.first_player()),
                        self.side_name(Side::Player),
                        a.0,
                        a.1,
                        self.side_name(Side::Confluence),
                        b.0,
                        b.1,
                        if s.arena { " (Arena)" } else { "" }
                    ),
                );
            }
            Event::DayStart { day } => self.push(
                s,
                "day_start",
                json!({"threatened": s.threatened.name(), "first_player": s.first_player().name()}),
                format!(
                    "\n=== Day {day} === Threatened: {} expedition; first player: {}. Positions: Hero {}, Companion {}; Darkness {} / {}",
                    s.threatened.name(),
                    self.side_name(s.first_player()),
                    s.pos[Side::Player].get(Exp::Hero),
                    s.pos[Side::Player].get(Exp::Companion),
                    s.dark.get(Exp::Hero),
                    s.dark.get(Exp::Companion)
                ),
            ),
            Event::Reveal { slot } => {
                let r1 = 2 * *slot as usize + 1;
                self.push(
                    s,
                    "reveal",
                    json!({"slot": slot, "regions": [
                        {"region": r1, "terrains": terrain::describe(s.adventure.terrain[r1])},
                        {"region": r1 + 1, "terrains": terrain::describe(s.adventure.terrain[r1 + 1])}]}),
                    format!(
                        "  Tumult card revealed: region {r1} is {}, region {} is {}",
                        terrain::describe(s.adventure.terrain[r1]),
                        r1 + 1,
                        terrain::describe(s.adventure.terrain[r1 + 1])
                    ),
                );
            }
            _ => unreachable!("{ev:?} is not a day event"),
        }
    }

    /// Cards moving between zones, the Confluence's turn, cards played and abilities resolving.
    fn play_event<const N: usize, const M: usize>(&mut self, s: &GameState<N, M>, ev: &Event<'_>) {
        match ev {
            Event::Moved { obj, side, from, to, why } => {
                let hidden = self.seats.is_none()
                    && *side == Side::Confluence
                    && matches!(to, Zone::Hand | Zone::Deck | Zone::Mana)
                    && !s.obj(*obj).has(flag::KNOWN);
                let name = if hidden { "a face-down card".to_string() } else { self.name(s, *obj) };
                let seen = if self.viewer.is_some_and(|v| v != *side)
                    && matches!(to, Zone::Hand | Zone::Deck | Zone::Mana)
                    && self.hides(s, *obj)
                {
                    "a face-down card".to_string()
                } else {
                    name.clone()
                };
                let line = match why {
                    Why::Play => String::new(),
                    _ => format!(
                        "  {}: {} {} -> {} ({})",
                        self.side_name(*side),
                        seen,
                        zone_name(*from),
                        zone_name(*to),
                        why_name(*why)
                    ),
                };
                self.push(
                    s,
                    "moved",
                    json!({"card": {"id": obj, "name": name}, "side": self.side_key(*side), "from": zone_name(*from), "to": zone_name(*to), "why": why_name(*why)}),
                    line,
                );
            }
            Event::ConfluenceReveals { obj, cost, ready_mana, playable } => self.push(
                s,
                "confluence_reveals",
                json!({"card": self.card(s, *obj), "cost": cost, "ready_mana": ready_mana, "playable": playable}),
                format!(
                    "  Confluence reveals the top card of its hand: {} (cost {cost}, {ready_mana} ready mana): {}",
                    self.name(s, *obj),
                    if *playable { "plays it" } else { "cannot pay, goes to Mana (ready)" }
                ),
            ),
            Event::ConfluenceTurn { hand, ready_mana, reserve, action } => {
                let list = |l: &[(ObjId, u8)]| -> Vec<Value> {
                    l.iter().map(|&(id, c)| json!({"id": id, "name": self.name(s, id), "cost": c})).collect()
                };
                let (kind, card) = match action {
                    ConfluenceAction::PlayFromHand(id) => ("play_from_hand", Some(*id)),
                    ConfluenceAction::PlayFromReserve(id) => ("play_from_reserve", Some(*id)),
                    ConfluenceAction::Pass => ("pass", None),
                };
                let line = match action {
                    ConfluenceAction::PlayFromReserve(id) => format!(
                        "  Confluence's hand is empty: plays {} from Reserve (highest Reserve cost it can pay; reserve was [{}])",
                        self.name(s, *id),
                        reserve.iter().map(|&(r, c)| format!("{} ({c})", self.name(s, r))).collect::<Vec<_>>().join(", ")
                    ),
                    ConfluenceAction::Pass => "  Confluence passes (empty hand, nothing affordable in Reserve).".into(),
                    ConfluenceAction::PlayFromHand(_) => String::new(),
                };
                self.push(
                    s,
                    "confluence_turn",
                    json!({"hand": list(hand), "ready_mana": ready_mana, "reserve": list(reserve),
                           "action": {"type": kind, "card": card.map(|c| self.card(s, c))}}),
                    line,
                );
            }
            Event::Play { obj, side, from, exp, cost, placement } => {
                let def = self.db.card(s.obj(*obj).card);
                let place = match (exp, placement) {
                    (Some(e), Some((icon, fell_back))) => format!(
                        " facing the {} expedition (placement: {}{})",
                        e.name(),
                        icon.name(),
                        if *fell_back { "; no expedition qualifies, so the Threatened one" } else { "" }
                    ),
                    (Some(e), None) => format!(" into the {} expedition", e.name()),
                    _ => String::new(),
                };
                self.push(
                    s,
                    "play",
                    json!({"card": self.card(s, *obj), "type": def.kind.name(), "side": self.side_key(*side), "from": zone_name(*from),
                           "expedition": exp.map(|e| e.name()), "cost": cost,
                           "placement": placement.map(|(p, f)| json!({"rule": p.name(), "fell_back_to_threatened": f}))}),
                    format!(
                        "  {} plays {} ({}{}) from {} for {cost} mana{place}",
                        self.side_name(*side),
                        def.name,
                        def.kind.name(),
                        if def.kind.is_character() || def.kind == CardKind::ExpeditionPermanent {
                            format!(" {}", def.stats)
                        } else {
                            String::new()
                        },
                        zone_name(*from)
                    ),
                );
            }
            Event::Quick { obj, side, ability } => self.push(
                s,
                "quick",
                json!({"card": self.card(s, *obj), "side": self.side_key(*side), "ability": ability}),
                format!("  {} uses a quick action of {}", self.side_name(*side), self.name(s, *obj)),
            ),
            Event::Ability { obj, side, ability } => {
                let ab = self.db.abilities[*ability as usize];
                let text = self
                    .db
                    .card(s.obj(*obj).card)
                    .lines
                    .get(ab.line as usize)
                    .cloned()
                    .unwrap_or_default();
                self.push(
                    s,
                    "ability",
                    json!({"card": self.card(s, *obj), "side": self.side_key(*side), "ability": text}),
                    format!("    {}'s ability resolves: {text}", self.name(s, *obj)),
                );
            }
            _ => unreachable!("{ev:?} is not a play event"),
        }
    }

    /// What effects do: boosts, statuses, tokens, rolls, passing and the first player token.
    fn effect_event<const N: usize, const M: usize>(
        &mut self,
        s: &GameState<N, M>,
        ev: &Event<'_>,
    ) {
        match ev {
            Event::Boost { obj, n } => self.push(
                s,
                "boost",
                json!({"card": self.card(s, *obj), "boosts": n, "now": s.obj(*obj).boosts}),
                format!("    {} gains {n} boost(s) (now {})", self.name(s, *obj), s.stats(self.db, *obj)),
            ),
            Event::Status { obj, bits, gained } => self.push(
                s,
                "status",
                json!({"card": self.card(s, *obj), "status": kw::describe(*bits), "gained": gained}),
                format!(
                    "    {} {} {}",
                    self.name(s, *obj),
                    if *gained { "gains" } else { "loses" },
                    kw::describe(*bits).join(", ")
                ),
            ),
            Event::Token { obj, side, exp } => self.push(
                s,
                "token",
                json!({"card": self.card(s, *obj), "side": self.side_key(*side), "expedition": exp.name()}),
                format!(
                    "    {} creates a {} {} token in the {} expedition",
                    self.side_name(*side),
                    self.name(s, *obj),
                    s.stats(self.db, *obj),
                    exp.name()
                ),
            ),
            Event::LandmarkToken { obj, side } => self.push(
                s,
                "landmark_token",
                json!({"card": self.card(s, *obj), "side": self.side_key(*side)}),
                format!(
                    "    {} creates a {} token in its Landmarks",
                    self.side_name(*side),
                    self.name(s, *obj)
                ),
            ),
            Event::TokenGone { obj } => self.push(
                s,
                "token_gone",
                json!({"card": self.card(s, *obj)}),
                format!("    token {} leaves play and ceases to exist", self.name(s, *obj)),
            ),
            Event::Roll { side, value } => self.push(
                s,
                "roll",
                json!({"side": self.side_key(*side), "value": value}),
                format!("    {} rolls a die: {value}", self.side_name(*side)),
            ),
            Event::Pass { side } => self.push(
                s,
                "pass",
                json!({"side": self.side_key(*side)}),
                if self.seats.is_some() {
                    format!("  {} passes.", self.side_name(*side))
                } else if *side == Side::Player {
                    "  Player passes.".into()
                } else {
                    String::new()
                },
            ),
            Event::AfterYou { side } => self.push(
                s,
                "after_you",
                json!({"side": self.side_key(*side)}),
                format!("  {} ends its turn (After You)", self.side_name(*side)),
            ),
            Event::FirstPlayer { side } => self.push(
                s,
                "first_player",
                json!({"side": self.side_key(*side)}),
                format!("    {} becomes first player", self.side_name(*side)),
            ),
            _ => unreachable!("{ev:?} is not an effect event"),
        }
    }

    /// Expeditions and the Darkness moving, Dusk, a day's end, the night and the game's end.
    fn dusk_event<const N: usize, const M: usize>(&mut self, s: &GameState<N, M>, ev: &Event<'_>) {
        match ev {
            Event::ExpeditionMoved { side, exp, from, to } if self.seats.is_some() => self.push(
                s,
                "expedition_moved",
                json!({"side": self.side_key(*side), "expedition": exp.name(), "from": from, "to": to}),
                format!("  {}'s {} expedition moves from region {from} to {to}", self.side_name(*side), exp.name()),
            ),
            Event::ExpeditionMoved { exp, from, to, .. } => self.push(
                s,
                "expedition_moved",
                json!({"expedition": exp.name(), "from": from, "to": to}),
                format!("  {} expedition moves from region {from} to {to}", exp.name()),
            ),
            Event::DuelDusk(r) => {
                let (v, line) = self.duel_dusk(r);
                self.push(s, "duel_dusk", v, line);
            }
            Event::FfaDusk(r) => {
                let (v, line) = self.ffa_dusk(s, r);
                self.push(s, "ffa_dusk", v, line);
            }
            Event::FfaDayEnd { verdict } => {
                let (v, line) = self.ffa_day_end(s, *verdict);
                self.push(s, "day_end", v, line);
            }
            Event::DuelDayEnd { scores, met } => {
                let said = |k: usize| if met[k] { "met" } else { "apart" };
                self.push(
                    s,
                    "day_end",
                    json!({"scores": {"a": scores[0], "b": scores[1]}, "met": {"a": met[0], "b": met[1]}, "arena": s.arena,
                           "positions": {"a": self.positions(s, Side::Player), "b": self.positions(s, Side::Confluence)},
                           "last_day": s.variant.last_day, "day_cap": s.day_cap}),
                    format!(
                        "Day end: scores {} {}, {} {} (expeditions {} / {}){}",
                        self.side_name(Side::Player),
                        scores[0],
                        self.side_name(Side::Confluence),
                        scores[1],
                        said(0),
                        said(1),
                        if s.arena { "; in the Arena" } else { "" }
                    ),
                );
            }
            Event::DarknessMoved { exp, from, to } => self.push(
                s,
                "darkness_moved",
                json!({"side": exp.name(), "from": from, "to": to}),
                format!("  Darkness behind the {} expedition moves from {from} to {to}", exp.name()),
            ),
            Event::Dusk(report) => {
                let mut exps = Vec::new();
                let mut lines = vec!["Dusk:".to_string()];
                for e in Exp::BOTH {
                    let (v, l) = self.exp_report(s, e, &report.exps[e.index()]);
                    exps.push(v);
                    lines.extend(l);
                }
                self.push(s, "dusk", json!({"expeditions": exps}), lines.join("\n"));
            }
            Event::Midnight { card, indication, side, blocked, before, after } => self.push(
                s,
                "midnight",
                json!({"card": self.card(s, *card), "indication": indication.name(), "side": side.map(|e| e.name()),
                       "blocked": blocked,
                       "before": {"hero": before[0], "companion": before[1]},
                       "after": {"hero": after[0], "companion": after[1]}}),
                format!(
                    "  Midnight: {} (indication: {}) {} the Darkness behind the {} expedition: {} -> {}",
                    self.name(s, *card),
                    indication.name(),
                    if *blocked { "cannot advance" } else { "advances" },
                    side.map_or("?", |e| e.name()),
                    side.map_or(0, |e| before[e.index()]),
                    side.map_or(0, |e| after[e.index()])
                ),
            ),
            Event::NewMidnightCard { card } => {
                let ind = self.db.card(s.obj(*card).card).midnight;
                self.push(
                    s,
                    "new_midnight_card",
                    json!({"card": self.card(s, *card), "indication": ind.name()}),
                    format!("  New Midnight card: {} (indication: {})", self.name(s, *card), ind.name()),
                );
            }
            Event::Refill { cards } => self.push(
                s,
                "refill",
                json!({"cards": cards}),
                format!("  Deck empty: {cards} cards of the discard pile shuffled into a new deck"),
            ),
            Event::End { outcome, day } if self.seats.is_some() => {
                let winner = outcome.winner();
                self.push(
                    s,
                    "end",
                    json!({"result": outcome.result(), "cause": outcome.cause(), "days": day,
                           "winner": winner.map(|w| self.side_key(w))}),
                    match winner {
                        Some(w) => format!("\n=== End on day {day}: {} wins ===", self.side_name(w)),
                        None => format!("\n=== End on day {day}: a draw ({}) ===", outcome.cause().replace('_', " ")),
                    },
                );
            }
            Event::End { outcome, day } => self.push(
                s,
                "end",
                json!({"result": outcome.result(), "cause": outcome.cause(), "days": day}),
                format!("\n=== End on day {day}: {} ({}) ===", outcome.result(), outcome.cause().replace('_', " ")),
            ),
            _ => unreachable!("{ev:?} is not a dusk event"),
        }
    }
}

/// A CamelCase name as lowercase words: `RestOrder` is "rest order".
fn words(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push(' ');
        }
        out.extend(c.to_lowercase());
    }
    out
}
