//! The one interpreter that runs every ability: a program counter over compiled ops.
//!
//! A running ability is a [`Frame`] in the state. An op that needs the player's choice
//! sets `state.decision` and returns [`Flow::Wait`]; [`Engine::apply_in_frame`] records the
//! answer in the frame and the same op runs again. The Confluence's choices are made here
//! by its fixed rules: leftmost legal target, the Threatened expedition, "may" always
//! taken, the first mode, the top card of its hand.
//!
//! This file runs frames and reads operands; `exec` dispatches each op (and runs the ops of
//! the program's flow: X, "may", jumps, loops, modes), and the ops live by what they touch:
//! `counters` (boosts, statuses, counters), `deck_mana` (draws, resupplies, Mana), `tokens`,
//! `moves` (objects between zones and expeditions, control), `expeditions` (expeditions and
//! regions), `lasting` (modifiers for the next cards), `activate` (abilities activated by an
//! effect), `turns` (passing, the first player, winning), `play`, `costs`, and `choices` (ops
//! that wait on a decision, and the answers).

mod activate;
mod choices;
mod costs;
mod counters;
mod deck_mana;
mod exec;
mod expeditions;
mod lasting;
mod moves;
mod play;
mod tokens;
mod turns;

use rand::RngExt;

use super::Engine;
use super::choice::{Alt, Choice};
use super::event::{Event, Observer, Why};
use super::list::List;
use super::query::Ctx;
use super::state::*;
use super::triggers::Fire;
use crate::cards::effect::*;
use crate::cards::types::{Exp, Side, kw};

pub(super) enum Flow {
    Next,
    Goto(u16),
    Wait,
    /// The op already moved its own program counter (it started a nested ability).
    Moved,
}

/// Objects an op acts on.
type Targets = List<64>;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// Starts a queued reaction if its condition holds now.
    pub(super) fn start_pending(&mut self, p: Pending) {
        let today = &mut self.s.today;
        today.reactions = today.reactions.saturating_add(1);
        if today.reactions > 1000 {
            return; // S1 1.4.6: nothing is forever
        }
        let ab = self.db.abilities[p.ability as usize];
        let ctx = Ctx {
            controller: p.controller,
            source: p.source,
            x: 0,
            did: false,
            it: p.event_obj,
            base_only: false,
            sel_exp: NO_SEL,
            opp: NO_SEAT,
        };
        if !self.s.eval_cond(self.db, ab.cond, &ctx) {
            return;
        }
        self.begin(p.ability, p.source, p.controller, p.event_obj, NO_OBJ);
        if p.free && self.s.depth > 0 {
            let d = self.s.depth as usize;
            self.s.frames[d - 1].free = true;
        }
    }

    /// Makes an ability the running frame.
    pub(super) fn begin(
        &mut self,
        ability: u16,
        source: ObjId,
        controller: Side,
        event_obj: ObjId,
        spell: ObjId,
    ) {
        if self.s.depth as usize >= MAX_FRAMES {
            // Nesting deeper than any card needs: the ability is skipped (a Spell is put away).
            if spell != NO_OBJ {
                self.put_away_spell(spell);
            }
            return;
        }
        if O::ENABLED {
            self.emit(Event::Ability {
                obj: source,
                side: controller,
                ability,
            });
        }
        let mut it = List::new();
        if event_obj != NO_OBJ {
            let _ = it.push(event_obj);
        }
        let d = self.s.depth as usize;
        self.s.depth += 1;
        self.s.frames[d] = Frame {
            ability,
            pc: 0,
            source,
            source_ts: self.s.obj(source).ts,
            controller,
            event_obj,
            it,
            exp_reg: None,
            sel_exp: NO_SEL,
            x: 0,
            did: false,
            spell,
            step: 0,
            count: 0,
            dice: [0; 2],
            free: false,
            cursor: 0,
            loops: 0,
            opp: NO_SEAT,
        };
    }

    pub(super) fn run_frame(&mut self) {
        loop {
            let d = self.s.depth as usize;
            if d == 0 {
                return;
            }
            let f = self.s.frames[d - 1];
            let ab = self.db.abilities[f.ability as usize];
            if f.pc >= ab.len {
                self.finish_frame();
                continue;
            }
            let op = self.db.op(&ab, f.pc);
            let flow = self.exec(op, &f);
            if self.s.outcome.is_some() || self.s.depth < d as u8 {
                return;
            }
            // The flow applies to the frame that ran the op, even if it started a nested one.
            // An op's multi-step state (step, count) belongs to that op only.
            let fr = &mut self.s.frames[d - 1];
            match flow {
                Flow::Next => {
                    fr.pc += 1;
                    fr.step = 0;
                    fr.count = 0;
                }
                Flow::Goto(t) => {
                    fr.pc = t;
                    fr.step = 0;
                    fr.count = 0;
                }
                Flow::Moved => {}
                Flow::Wait => return,
            }
        }
    }

    fn finish_frame(&mut self) {
        let d = self.s.depth as usize;
        let f = self.s.frames[d - 1];
        self.s.depth -= 1;
        if f.spell != NO_OBJ {
            self.put_away_spell(f.spell);
        }
    }

    /// A resolved Spell goes to Reserve (exhausted if Cooldown), or to the discard pile if
    /// Fleeting (played from Reserve, or printed Fleeting).
    pub(super) fn put_away_spell(&mut self, spell: ObjId) {
        // Its own effect may have put it elsewhere ("then put me in your Mana zone").
        if self.s.obj(spell).zone != Zone::Limbo {
            return;
        }
        let fleeting = self.s.has_kw(self.db, spell, kw::FLEETING);
        let cooldown = self.s.has_kw(self.db, spell, kw::COOLDOWN);
        if fleeting {
            self.move_to(spell, Zone::Discard, Exp::Hero, Why::Play, false);
        } else {
            self.move_to(spell, Zone::Reserve, Exp::Hero, Why::Play, false);
            if cooldown {
                self.s.obj_mut(spell).flags |= flag::EXHAUSTED;
            }
        }
    }

    fn ctx(&self, f: &Frame) -> Ctx {
        f.ctx()
    }

    fn frame_mut(&mut self) -> &mut Frame {
        let d = self.s.depth as usize;
        assert!(d > 0, "no running frame");
        &mut self.s.frames[d - 1]
    }

    /// The source is still the object that created the ability (not moved since).
    fn source_alive(&self, f: &Frame) -> bool {
        let o = self.s.obj(f.source);
        o.ts == f.source_ts && o.zone != Zone::None
    }

    fn resolve_objs(&self, obj: ObjRef, f: &Frame) -> Targets {
        let mut out = Targets::new();
        match obj {
            ObjRef::Me => {
                if self.source_alive(f) {
                    let _ = out.push(f.source);
                }
            }
            ObjRef::It => {
                for id in f.it.iter() {
                    let _ = out.push(id);
                }
            }
            ObjRef::Event => {
                if f.event_obj != NO_OBJ {
                    let _ = out.push(f.event_obj);
                }
            }
            ObjRef::Each(fid) => {
                let ctx = self.ctx(f);
                self.s
                    .for_each_candidate(self.db, self.db.filter(fid), &ctx, |id| {
                        let _ = out.push(id);
                    });
            }
        }
        out
    }

    fn amount(&self, a: Amount, f: &Frame) -> i16 {
        match a {
            Amount::Const(n) => n as i16,
            Amount::Count(c) => self.s.count(self.db, c, &self.ctx(f)),
            Amount::Neg(c) => -self.s.count(self.db, c, &self.ctx(f)),
            Amount::Plus(c, n) => self.s.count(self.db, c, &self.ctx(f)) + n as i16,
        }
    }

    /// An amount read for one object an op acts on (`its_boosts`).
    fn amount_for(&self, a: Amount, f: &Frame, id: ObjId) -> i16 {
        let (Amount::Count(c) | Amount::Neg(c) | Amount::Plus(c, _)) = a else {
            return self.amount(a, f);
        };
        let ctx = Ctx {
            it: id,
            ..self.ctx(f)
        };
        let n = self.s.count(self.db, c, &ctx);
        match a {
            Amount::Neg(_) => -n,
            Amount::Plus(_, k) => n + k as i16,
            _ => n,
        }
    }

    /// The side whose expedition(s) an op names: the `select_exp` choice's side, else the
    /// opponent's for `opposing` ops, else the controller's.
    fn exp_side(&self, at: ExpRef, f: &Frame, opposing: bool) -> Side {
        if at == ExpRef::Selected && f.sel_exp != NO_SEL {
            Side::of_seat(f.sel_exp / 2)
        } else if opposing {
            self.opp_of(f)
        } else {
            f.controller
        }
    }

    /// Where an op acts for expedition `e` of `side` (from [`Self::exp_side`]): with four
    /// seats an `opposing` op (not a `select_exp` choice) acts on the expedition across the
    /// lane from the controller's `e` ("the opposing expedition"); with two seats `side`
    /// is already the other seat and `e` the same expedition.
    #[inline]
    fn across(&self, side: Side, f: &Frame, opposing: bool, at: ExpRef, e: Exp) -> (Side, Exp) {
        if N == 2 || !opposing || (at == ExpRef::Selected && f.sel_exp != NO_SEL) {
            return (side, e);
        }
        self.s.facing_of(f.controller, e).unwrap_or((side, e))
    }

    /// The opponent an effect concerns: with two seats the other seat; in Free for All the
    /// one its controller chose ([`Self::choose_opponent`], run before any op that
    /// [`names_opponent`]), or the first opponent clockwise when no op asked.
    #[inline]
    fn opp_of(&self, f: &Frame) -> Side {
        self.s.opponent_in(&f.ctx())
    }

    /// Free for All: settles which opponent the running effect concerns. One opponent
    /// left: that one. Several: asks the controller (`Decision::Seat`) and returns false;
    /// the answer lands in `Frame::opp` and the op runs again.
    fn choose_opponent(&mut self, f: &Frame) -> bool {
        let mut opps = self.s.table.opponents(f.controller);
        match (opps.next(), opps.next()) {
            (Some(only), None) => {
                self.frame_mut().opp = only.seat();
                true
            }
            (None, _) => {
                // Nobody else plays (the game is over): the effect concerns no one else.
                self.frame_mut().opp = f.controller.seat();
                true
            }
            _ => {
                self.ask(Decision::Seat, f.controller);
                false
            }
        }
    }

    /// The expedition(s) an op names; `None` in the slot means "ask first".
    fn resolve_exps(&mut self, at: ExpRef, f: &Frame) -> Option<List<2>> {
        let mut out = List::<2>::new();
        let src = self.s.obj(f.source);
        let push = |l: &mut List<2>, e: Exp| {
            let _ = l.push(e as u8);
        };
        match at {
            ExpRef::Mine => {
                // A Gigantic character's expedition is both of them (S3 7.4.3.f). In a reaction
                // to leaving the Expedition zone, my expedition is the one I left (D35).
                let left = src.zone != Zone::Expedition
                    && self.db.abilities[f.ability as usize].trigger
                        == Trigger::When(EventKind::LeaveExpedition)
                    && self.db.card(src.card).kind.goes_to_expedition();
                if src.zone == Zone::Expedition || left {
                    if self.s.has_kw(self.db, f.source, kw::GIGANTIC) {
                        push(&mut out, Exp::Hero);
                        push(&mut out, Exp::Companion);
                    } else {
                        push(&mut out, src.exp);
                    }
                }
            }
            ExpRef::Other => {
                if src.zone == Zone::Expedition && !self.s.has_kw(self.db, f.source, kw::GIGANTIC) {
                    push(&mut out, src.exp.other());
                }
            }
            ExpRef::Fixed(e) => push(&mut out, e),
            ExpRef::Selected => {
                if f.sel_exp != NO_SEL {
                    push(&mut out, Exp::BOTH[(f.sel_exp % 2) as usize]);
                }
            }
            ExpRef::Each => {
                push(&mut out, Exp::Hero);
                push(&mut out, Exp::Companion);
            }
            ExpRef::Left => {
                // The expedition it was in when it left (both, if it was Gigantic).
                if src.zone != Zone::Expedition {
                    if src.left_kw as u32 & kw::GIGANTIC != 0 {
                        push(&mut out, Exp::Hero);
                        push(&mut out, Exp::Companion);
                    } else {
                        push(&mut out, src.exp);
                    }
                }
            }
            ExpRef::OfIt => {
                if let Some(id) = f.it.first() {
                    let o = self.s.obj(id);
                    // A character this effect has just moved out of play (a token put where
                    // the discarded character stood, D35): the expedition it
                    // was in (a card keeps it until it is played again).
                    let left = matches!(o.zone, Zone::Discard | Zone::Reserve | Zone::None)
                        && self.db.card(o.card).kind.goes_to_expedition();
                    if o.zone == Zone::Expedition || left {
                        push(&mut out, o.exp);
                    }
                }
            }
            // Head to head, either player's expedition of that kind (D60): the choice is
            // the controller's (`Choice::Exp` or `Choice::OpposingExp` of that kind).
            ExpRef::AnyOf(_) if self.s.mode.versus() && !self.s.scripted(f.controller) => {
                match f.exp_reg {
                    Some(x) => {
                        push(&mut out, x);
                        self.frame_mut().exp_reg = None;
                    }
                    None => {
                        self.ask(Decision::Expedition, f.controller);
                        return None;
                    }
                }
            }
            ExpRef::AnyOf(e) => push(&mut out, e),
            ExpRef::Target => match f.exp_reg {
                Some(e) => {
                    push(&mut out, e);
                    self.frame_mut().exp_reg = None;
                }
                None if self.s.scripted(f.controller) => push(&mut out, self.s.threatened),
                None => {
                    self.ask(Decision::Expedition, f.controller);
                    return None;
                }
            },
        }
        Some(out)
    }

    /// Queues the `k`-th {R} ability of card `id` as an ability of the running frame's
    /// source (Thomas Edison uses a discarded card's {R} as its own).
    fn queue_r_as_mine(&mut self, f: &Frame, id: ObjId, k: u8) {
        let def = self.db.card(self.s.obj(id).card);
        let Some(ab_idx) = (def.ab_start..def.ab_start + def.ab_len)
            .filter(|&a| {
                self.db.abilities[a as usize].trigger == Trigger::Played(PlayFrom::Reserve)
            })
            .nth(k as usize)
        else {
            return;
        };
        let me = self.s.obj(f.source);
        self.push_pending(Pending {
            ability: ab_idx,
            source: f.source,
            source_ts: me.ts,
            controller: f.controller,
            event_obj: NO_OBJ,
            free: false,
        });
    }

    /// The `modplace` bits of a modifier as it is created: `MINE` becomes the expedition
    /// the source stands in (None when it stands in none: "my Expedition" is then no
    /// expedition, and the modifier is not created).
    fn mod_place(&self, f: &Frame, place: u8) -> Option<u8> {
        if place & modplace::MINE == 0 {
            return Some(place);
        }
        let o = self.s.obj(f.source);
        if o.zone != Zone::Expedition {
            return None;
        }
        let e = match o.exp {
            Exp::Hero => modplace::HERO,
            Exp::Companion => modplace::COMPANION,
        };
        Some(place & !modplace::MINE | e)
    }

    /// Adds a "the next card you play" modifier (at most 8 wait at once; more are dropped).
    fn push_mod(&mut self, m: TurnMod) {
        let i = self.s.n_mods as usize;
        if i < self.s.mods.len() {
            self.s.mods[i] = m;
            self.s.n_mods += 1;
        }
    }

    fn sides_of(&self, who: Who, controller: Side) -> List<4> {
        let mut l = List::new();
        match who {
            Who::You => {
                let _ = l.push(controller as u8);
            }
            Who::Opponent => {
                let opp = match self.s.frame() {
                    Some(f) => self.opp_of(f),
                    None => self.s.opponent_in(&Ctx::of(controller, NO_OBJ)),
                };
                let _ = l.push(opp as u8);
            }
            Who::Each => {
                for side in self.s.table.sides_from(self.s.initiative()) {
                    let _ = l.push(side as u8);
                }
            }
        }
        l
    }
    /// Whether any of a side's objects in play has a static ability matching `pred`.
    pub(super) fn side_has_static(&self, side: Side, pred: impl Fn(&Static) -> bool) -> bool {
        self.s.side_has_static(self.db, side, pred)
    }
}

/// Whether an op concerns "an opponent" (a player other than its controller, chosen in
/// Free for All before the op runs): ops of `Who::Opponent` or `PlayerRef::Opponent`, an
/// opponent's choice, a selection the opponent makes. Opposing expeditions are not: they
/// are the ones across the lanes.
fn names_opponent(op: &Op) -> bool {
    match *op {
        Op::OpponentSelect { .. } => true,
        Op::Select { by_opponent, .. } | Op::Choose { by_opponent, .. } => by_opponent,
        Op::LandmarkToken { whose, .. } => whose == PlayerRef::Opponent,
        Op::Draw { who, .. }
        | Op::Resupply { who, .. }
        | Op::ManaFromDeck { who, .. }
        | Op::FromHand { who, .. }
        | Op::DayTough { who, .. }
        | Op::SacrificeOne { who, .. }
        | Op::SacrificeHighest { who, .. }
        | Op::PlayFree { who, .. }
        | Op::BecomeFirst { who, .. } => who == Who::Opponent,
        _ => false,
    }
}
