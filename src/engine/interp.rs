//! The one interpreter that runs every ability: a program counter over compiled ops.
//!
//! A running ability is a [`Frame`] in the state. An op that needs the player's choice
//! sets `state.decision` and returns [`Flow::Wait`]; [`Engine::apply_in_frame`] records the
//! answer in the frame and the same op runs again. The Confluence's choices are made here
//! by its fixed rules: leftmost legal target, the Threatened expedition, "may" always
//! taken, the first mode, the top card of its hand.

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

impl<O: Observer> Engine<'_, O> {
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
        }
    }

    /// An amount read for one object an op acts on (`its_boosts`).
    fn amount_for(&self, a: Amount, f: &Frame, id: ObjId) -> i16 {
        let (Amount::Count(c) | Amount::Neg(c)) = a else {
            return self.amount(a, f);
        };
        let ctx = Ctx {
            it: id,
            ..self.ctx(f)
        };
        let n = self.s.count(self.db, c, &ctx);
        if matches!(a, Amount::Neg(_)) { -n } else { n }
    }

    /// The side whose expedition(s) an op names: the `select_exp` choice's side, else the
    /// opponent's for `opposing` ops, else the controller's.
    fn exp_side(&self, at: ExpRef, f: &Frame, opposing: bool) -> Side {
        if at == ExpRef::Selected && f.sel_exp != NO_SEL {
            if f.sel_exp / 2 == 0 {
                Side::Player
            } else {
                Side::Confluence
            }
        } else if opposing {
            f.controller.other()
        } else {
            f.controller
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

    fn exec(&mut self, op: Op, f: &Frame) -> Flow {
        let db = self.db;
        match op {
            Op::Select { .. } => self.exec_select(f, op),
            Op::SelectExp { whose, ahead } => self.exec_select_exp(f, whose, ahead),
            Op::OpponentSelect { filter } => {
                let mut first = NO_OBJ;
                let mut any = false;
                self.s
                    .for_each_candidate(db, db.filter(filter), &self.ctx(f), |id| {
                        if !any {
                            first = id;
                            any = true;
                        }
                    });
                self.frame_mut().it.clear();
                if !any {
                    return Flow::Next;
                }
                if self.s.scripted(f.controller.other()) {
                    let _ = self.frame_mut().it.push(first);
                    Flow::Next
                } else {
                    self.ask(Decision::Target, f.controller.other());
                    Flow::Wait
                }
            }
            Op::Boost { obj, n, max } => {
                // A static may let support abilities of cards in Reserve go past it.
                let max = if max > 0 && db.abilities[f.ability as usize].active == ActiveIn::Reserve
                {
                    let mut over = 0u8;
                    self.s.each_static_of(db, f.controller, |_, st, _| {
                        if let Static::SupportOverMax(k) = st {
                            over = over.max(k);
                        }
                    });
                    if over == u8::MAX {
                        0
                    } else {
                        max.saturating_add(over)
                    }
                } else {
                    max
                };
                for id in self.resolve_objs(obj, f).iter() {
                    let n = self.amount_for(n, f, id);
                    // "Up to a max of N" never takes boosts away.
                    let n = if max > 0 && n > 0 {
                        n.min(max as i16 - self.s.obj(id).boosts as i16).max(0)
                    } else {
                        n
                    };
                    self.boost(id, n);
                }
                Flow::Next
            }
            Op::Counters { obj, n } => {
                let n = self.amount(n, f);
                for id in self.resolve_objs(obj, f).iter() {
                    self.add_counters(id, n);
                }
                Flow::Next
            }
            Op::SpendCounter { obj } => {
                for id in self.resolve_objs(obj, f).iter() {
                    let o = *self.s.obj(id);
                    if o.boosts > 0 {
                        self.boost(id, -1);
                    } else if o.counters > 0 {
                        self.s.obj_mut(id).counters -= 1;
                    }
                }
                Flow::Next
            }
            Op::Augment { obj } => {
                for id in self.resolve_objs(obj, f).iter() {
                    self.augment(id);
                }
                Flow::Next
            }
            Op::AugmentAny { filter } => self.exec_augment_any(filter),
            Op::Draw { who, n } => {
                let n = self.amount(n, f).max(0) as u8;
                for side in self.sides_of(who, f.controller).iter() {
                    let side = if side == 0 {
                        Side::Player
                    } else {
                        Side::Confluence
                    };
                    self.draw(side, n);
                    self.fire(Fire::Drew { side });
                }
                Flow::Next
            }
            Op::Resupply {
                who,
                exhausted,
                keep,
            } => {
                // The Ouroboros (R2): the player's own Resupply reveals two and keeps one.
                if who == Who::You
                    && !self.s.scripted(f.controller)
                    && self
                        .side_has_static(f.controller, |st| matches!(st, Static::ResupplyRevealTwo))
                {
                    return self.exec_resupply_two(f.controller, exhausted);
                }
                for side in self.sides_of(who, f.controller).iter() {
                    let side = if side == 0 {
                        Side::Player
                    } else {
                        Side::Confluence
                    };
                    let put = self.resupply(side, exhausted);
                    // Your own Resupply (or `resupply(it)`): the card put in Reserve
                    // becomes `it`.
                    if keep || who == Who::You {
                        let fr = self.frame_mut();
                        fr.it.clear();
                        if let Some(id) = put {
                            let _ = fr.it.push(id);
                        }
                    }
                    self.fire(Fire::Drew { side });
                }
                Flow::Next
            }
            Op::RevealTop => {
                let top = self.take_top(f.controller);
                let fr = self.frame_mut();
                fr.it.clear();
                if let Some(id) = top {
                    let _ = fr.it.push(id);
                    if f.controller == Side::Player || self.s.mode == Mode::Duel {
                        self.s.obj_mut(id).flags |= flag::KNOWN;
                    }
                }
                Flow::Next
            }
            Op::Token {
                card,
                at,
                n,
                opposing,
                after_rest,
            } => {
                let Some(exps) = self.resolve_exps(at, f) else {
                    return Flow::Wait;
                };
                let side = self.exp_side(at, f, opposing);
                self.frame_mut().it.clear();
                for e in exps.iter() {
                    if after_rest {
                        // Created after Rest (night.rs); two waiting batches at most.
                        let meta = n | (e << 4) | ((f.controller as u8) << 5);
                        if let Some(slot) = self.s.today.after_rest.iter_mut().find(|s| s.1 == 0) {
                            *slot = (card, meta);
                        }
                        continue;
                    }
                    let e = if e == 0 { Exp::Hero } else { Exp::Companion };
                    for _ in 0..n {
                        if let Some(t) = self.create_token(side, card, e) {
                            let _ = self.frame_mut().it.push(t);
                            self.fire(Fire::Joined { obj: t });
                            self.fire(Fire::TokenCreated { side: f.controller });
                            self.fire(Fire::Received { side });
                        }
                    }
                }
                Flow::Next
            }
            Op::LandmarkToken { card, whose, n } => {
                let mut sides = List::<2>::new();
                match whose {
                    PlayerRef::You => {
                        let _ = sides.push(f.controller as u8);
                    }
                    PlayerRef::Opponent => {
                        let _ = sides.push(f.controller.other() as u8);
                    }
                    PlayerRef::Each => sides = self.sides_of(Who::Each, f.controller),
                    PlayerRef::OfIt => {
                        if let Some(id) = f.it.first() {
                            let _ = sides.push(self.s.obj(id).side as u8);
                        }
                    }
                }
                for side in sides.iter() {
                    let side = if side == 0 {
                        Side::Player
                    } else {
                        Side::Confluence
                    };
                    for _ in 0..n {
                        self.create_landmark_token(side, card);
                    }
                }
                Flow::Next
            }
            Op::Move { obj, dest } => {
                let objs = self.resolve_objs(obj, f);
                // "You may put me in Mana instead": ask before anything moves.
                if let Some(id) = objs.iter().find(|&id| self.s.must_ask_mana(db, id)) {
                    self.ask_mana(id);
                    return Flow::Wait;
                }
                let mut moved = false;
                for id in objs.iter() {
                    moved |= self.move_obj(id, dest);
                    // The Xth position from the top: it went on top, then X - 1 cards above it.
                    let o = *self.s.obj(id);
                    if dest == Dest::DeckAtX && o.zone == Zone::Deck {
                        let deck = self.s.side_mut(o.side).deck.as_mut_slice();
                        let k = (f.x.max(1) as usize).min(deck.len());
                        let n = deck.len();
                        deck[n - k..].rotate_right(1);
                    }
                }
                // "Sacrifice ... If you do": whether anything was sacrificed.
                if dest == Dest::Sacrifice {
                    self.frame_mut().did = moved;
                }
                Flow::Next
            }
            Op::Gain { obj, status, tough } => {
                for id in self.resolve_objs(obj, f).iter() {
                    let o = self.s.obj_mut(id);
                    if !matches!(
                        o.zone,
                        Zone::Expedition | Zone::Landmarks | Zone::Reserve | Zone::Limbo
                    ) {
                        continue;
                    }
                    if tough > 0 {
                        o.tough = o.tough.max(tough);
                    }
                    self.gain_status(id, status);
                }
                Flow::Next
            }
            Op::Lose { obj, status } => {
                for id in self.resolve_objs(obj, f).iter() {
                    let o = self.s.obj_mut(id);
                    o.flags &= !status;
                    // Printed or granted Fleeting is lost too (digest 5.1).
                    if status & kw::FLEETING != 0 {
                        o.flags |= flag::LOST_FLEETING;
                    }
                    if O::ENABLED {
                        self.emit(Event::Status {
                            obj: id,
                            bits: status,
                            gained: false,
                        });
                    }
                }
                Flow::Next
            }
            Op::Exhaust { obj } => {
                for id in self.resolve_objs(obj, f).iter() {
                    let o = self.s.obj_mut(id);
                    let was = o.has(flag::EXHAUSTED);
                    o.flags |= flag::EXHAUSTED;
                    if o.zone == Zone::Reserve && !was {
                        self.fire(Fire::ExhaustedInReserve { side: f.controller });
                    }
                }
                Flow::Next
            }
            Op::Ready { obj } => {
                for id in self.resolve_objs(obj, f).iter() {
                    self.s.obj_mut(id).flags &= !flag::EXHAUSTED;
                }
                Flow::Next
            }
            Op::Discount {
                filter,
                n,
                min,
                afternoon,
            } => {
                self.push_mod(TurnMod {
                    side: f.controller,
                    filter,
                    discount: n,
                    boosts: 0,
                    status: 0,
                    flags: if afternoon { modflag::AFTERNOON } else { 0 },
                    min,
                });
                Flow::Next
            }
            Op::NextBoost { filter, n } => {
                self.push_mod(TurnMod {
                    side: f.controller,
                    filter,
                    discount: 0,
                    boosts: n,
                    status: 0,
                    flags: 0,
                    min: 0,
                });
                Flow::Next
            }
            Op::ManaFromDeck { who, exhausted } => {
                for side in self.sides_of(who, f.controller).iter() {
                    let side = if side == 0 {
                        Side::Player
                    } else {
                        Side::Confluence
                    };
                    if let Some(id) = self.take_top(side) {
                        self.put_in_mana(id, !exhausted, Why::Effect);
                    }
                }
                Flow::Next
            }
            Op::NextGain { filter, status } => {
                self.push_mod(TurnMod {
                    side: f.controller,
                    filter,
                    discount: 0,
                    boosts: 0,
                    status,
                    flags: 0,
                    min: 0,
                });
                Flow::Next
            }
            Op::NextLose { filter, status } => {
                self.push_mod(TurnMod {
                    side: f.controller,
                    filter,
                    discount: 0,
                    boosts: 0,
                    status,
                    flags: modflag::LOSE_STATUS,
                    min: 0,
                });
                Flow::Next
            }
            Op::DayTough {
                who,
                min_cost,
                tough,
            } => {
                for side in self.sides_of(who, f.controller).iter() {
                    self.s.today.day_tough[side as usize] = (min_cost, tough);
                }
                Flow::Next
            }
            Op::NextMod { filter, flags } => {
                self.push_mod(TurnMod {
                    side: f.controller,
                    filter,
                    discount: 0,
                    boosts: 0,
                    status: 0,
                    flags,
                    min: 0,
                });
                Flow::Next
            }
            Op::NextActivateR { filter } | Op::NextFree { filter } => {
                self.push_mod(TurnMod {
                    side: f.controller,
                    filter,
                    discount: 0,
                    boosts: 0,
                    status: 0,
                    flags: if matches!(op, Op::NextFree { .. }) {
                        modflag::FREE
                    } else {
                        modflag::ACTIVATE_R
                    },
                    min: 0,
                });
                Flow::Next
            }
            Op::SacrificeOne { who } => self.exec_sacrifice(f, who),
            Op::SacrificeHighest { who, filter } => {
                let Some(side) = self.sides_of(who, f.controller).first() else {
                    return Flow::Next;
                };
                let side = if side == 0 {
                    Side::Player
                } else {
                    Side::Confluence
                };
                let tied = self.s.highest_base_cost(self.db, side, filter, &f.ctx());
                let pick = match (tied.len(), self.s.scripted(side)) {
                    (0, _) => return Flow::Next,
                    (1, _) => tied.first(),
                    (_, false) => {
                        self.ask(Decision::Sacrifice, side);
                        return Flow::Wait;
                    }
                    // The Confluence's tie-break (FAQ "Sacrifice"): the Threatened side's,
                    // then the leftmost.
                    (_, true) => tied.iter().min_by_key(|&id| {
                        let o = self.s.obj(id);
                        (
                            !(o.zone == Zone::Expedition && o.exp == self.s.threatened),
                            o.ts,
                        )
                    }),
                };
                if let Some(id) = pick {
                    self.move_obj(id, Dest::Sacrifice);
                }
                Flow::Next
            }
            Op::PlayFree {
                who,
                filter,
                less,
                exp,
                flags,
            } => self.exec_play_free(f, who, filter, less, exp, flags),
            Op::Rush => self.exec_rush(f),
            Op::TopPlayOrHand => self.exec_top_play_or_hand(f),
            Op::BlockForward { at, opposing } => {
                let Some(exps) = self.resolve_exps(at, f) else {
                    return Flow::Wait;
                };
                let target = if opposing {
                    f.controller.other()
                } else {
                    f.controller
                };
                for e in exps.iter() {
                    let e = if e == 0 { Exp::Hero } else { Exp::Companion };
                    match (self.s.mode, target) {
                        (_, Side::Player) => self.s.today.no_forward.set(e, true),
                        (Mode::Duel, Side::Confluence) => self.s.today.b.no_forward.set(e, true),
                        (_, Side::Confluence) => self.s.today.dark_blocked.set(e, true),
                    }
                }
                Flow::Next
            }
            Op::LoseMana { n } => {
                // Orbs are interchangeable: exhausted ones go first, so the ready count only
                // drops when no exhausted orb is left (detach clamps it).
                for _ in 0..n {
                    let Some(id) = self.s.side(f.controller).mana.last() else {
                        break;
                    };
                    self.move_to(id, Zone::Discard, Exp::Hero, Why::Effect, false);
                }
                Flow::Next
            }
            Op::ReadyMana { n } => {
                let s = self.s.side_mut(f.controller);
                s.mana_ready = (s.mana_ready + n).min(s.mana.len() as u8);
                Flow::Next
            }
            Op::FromHand { who, dest, n, keep } => {
                if keep && f.step == 0 && f.count == 0 {
                    self.frame_mut().it.clear();
                }
                self.exec_from_hand(f, who, dest, n, keep)
            }
            Op::MoveExp {
                at,
                opposing,
                forward,
            } => {
                let Some(exps) = self.resolve_exps(at, f) else {
                    return Flow::Wait;
                };
                let target = self.exp_side(at, f, opposing);
                let before = (self.s.pos, self.s.dark, self.s.pos_b);
                for e in exps.iter() {
                    let e = if e == 0 { Exp::Hero } else { Exp::Companion };
                    if self.s.scripted(target) {
                        self.move_darkness(e, forward);
                    } else {
                        self.move_expedition_of(target, e, forward);
                    }
                    if self.s.outcome.is_some() {
                        break;
                    }
                }
                // "If it does": an expedition moved (a move that ends the game ends the frame).
                if self.s.outcome.is_none() {
                    self.frame_mut().did = (self.s.pos, self.s.dark, self.s.pos_b) != before;
                }
                Flow::Next
            }
            Op::Switch { obj } => {
                for id in self.resolve_objs(obj, f).iter() {
                    let o = *self.s.obj(id);
                    if o.zone != Zone::Expedition {
                        continue;
                    }
                    let to = o.exp.other();
                    if self.s.side(o.side).exp[to.index()].is_full() {
                        continue;
                    }
                    self.s.side_mut(o.side).exp[o.exp.index()].remove_item(id);
                    let ts = self.s.next_ts();
                    let ob = self.s.obj_mut(id);
                    ob.exp = to;
                    ob.ts = ts;
                    let _ = self.s.side_mut(o.side).exp[to.index()].push(id);
                }
                Flow::Next
            }
            Op::Defect { obj } => {
                // The character joins the expedition facing it under the other side's control,
                // keeping its statuses and boosts; a card becomes borrowed (its owner's zones
                // stay its destinations) or, defecting back, its owner's again.
                for id in self.resolve_objs(obj, f).iter() {
                    let o = *self.s.obj(id);
                    if o.zone != Zone::Expedition {
                        continue;
                    }
                    let to = o.side.other();
                    if self.s.side(to).exp[o.exp.index()].is_full() {
                        continue;
                    }
                    self.s.side_mut(o.side).exp[o.exp.index()].remove_item(id);
                    let _ = self.s.side_mut(to).exp[o.exp.index()].push(id);
                    if self.db.card(o.card).trigger_mask & tmask::STATIC != 0 {
                        self.s.statics[o.side.index()] -= 1;
                        self.s.statics[to.index()] += 1;
                    }
                    self.s.listen[to.index()] |= self.db.card(o.card).fire_mask;
                    let ts = self.s.next_ts();
                    let ob = self.s.obj_mut(id);
                    ob.side = to;
                    ob.ts = ts;
                    if !o.is_token() {
                        ob.flags ^= flag::BORROWED;
                    }
                    if O::ENABLED {
                        self.emit(Event::Moved {
                            obj: id,
                            side: to,
                            from: Zone::Expedition,
                            to: Zone::Expedition,
                            why: Why::Effect,
                        });
                    }
                    self.fire(Fire::Joined { obj: id });
                }
                Flow::Next
            }
            Op::SwapBoosts { obj } => {
                let objs = self.resolve_objs(obj, f);
                if let (Some(a), Some(b)) = (objs.get(0), objs.get(1)) {
                    let (ba, bb) = (self.s.obj(a).boosts as i16, self.s.obj(b).boosts as i16);
                    self.boost(a, bb - ba);
                    self.boost(b, ba - bb);
                }
                Flow::Next
            }
            Op::ToDeckAt { obj, n } => {
                let n = self.amount(n, f).max(1) as usize;
                for id in self.resolve_objs(obj, f).iter() {
                    if self.move_obj(id, Dest::DeckTop) && self.s.obj(id).zone == Zone::Deck {
                        // The deck's top is the end of its list.
                        let side = self.s.obj(id).side;
                        let deck = &mut self.s.side_mut(side).deck;
                        deck.remove_item(id);
                        let at = deck.len().saturating_sub(n - 1);
                        let _ = deck.insert(at, id);
                    }
                }
                Flow::Next
            }
            Op::ActivateJ { obj, reserve } => {
                let from = if reserve {
                    PlayFrom::Reserve
                } else {
                    PlayFrom::Any
                };
                for id in self.resolve_objs(obj, f).iter() {
                    if matches!(self.s.obj(id).zone, Zone::Expedition | Zone::Landmarks)
                        && !self.s.silenced(db, id)
                    {
                        self.trigger_own(id, NO_OBJ, |t| *t == Trigger::Played(from));
                    }
                }
                Flow::Next
            }
            Op::ActivateJEach { filter } => {
                // `count` walks the matching objects that have {J} abilities, oldest first.
                let mut next = NO_OBJ;
                let mut k = 0;
                let ctx = self.ctx(f);
                self.s
                    .for_each_candidate(db, db.filter(filter), &ctx, |id| {
                        let c = self.s.obj(id).card;
                        let has_j = db
                            .abilities_of(c)
                            .iter()
                            .any(|ab| ab.trigger == Trigger::Played(PlayFrom::Any));
                        if has_j && next == NO_OBJ {
                            if k == f.count {
                                next = id;
                            }
                            k += 1;
                        }
                    });
                if next == NO_OBJ {
                    return Flow::Next;
                }
                if self.s.scripted(f.controller) {
                    self.trigger_own(next, NO_OBJ, |t| *t == Trigger::Played(PlayFrom::Any));
                    self.frame_mut().count += 1;
                    Flow::Moved
                } else {
                    let fr = self.frame_mut();
                    fr.it.clear();
                    let _ = fr.it.push(next);
                    self.ask(Decision::May, f.controller);
                    Flow::Wait
                }
            }
            Op::AfterYou => {
                if self.s.phase == Phase::Turn && self.s.to_act == f.controller {
                    self.s.phase = Phase::TurnEnd;
                    if O::ENABLED {
                        self.emit(Event::AfterYou { side: f.controller });
                    }
                }
                Flow::Next
            }
            Op::DelayRest => {
                self.s.obj_mut(f.source).flags |= flag::DELAY_REST;
                self.s.rest_armed = true;
                Flow::Next
            }
            Op::RevealPut {
                n,
                k,
                filter,
                status,
            } => self.exec_reveal_put(f, n, k, filter, status),
            Op::PlaceMarker { .. } | Op::MoveMarker { .. } => {
                let Some(first) = self.s.marker_options(f, op).first() else {
                    return Flow::Next;
                };
                // The Confluence takes the first option (its first marker, leftmost region).
                if self.s.scripted(f.controller) {
                    self.s.apply_marker(f, op, first);
                    Flow::Next
                } else {
                    self.ask(Decision::Mode, f.controller);
                    Flow::Wait
                }
            }
            Op::WinGame => {
                self.end(match (self.s.mode, f.controller) {
                    (Mode::Duel, side) => Outcome::seat_wins(side),
                    (_, Side::Player) => Outcome::WinByCard,
                    (_, Side::Confluence) => Outcome::LossByCard,
                });
                Flow::Next
            }
            Op::Pass => {
                let afternoon = matches!(
                    self.s.phase,
                    Phase::Turn
                        | Phase::TurnEnd
                        | Phase::ConfluenceQuick(_)
                        | Phase::ConfluencePlay
                );
                let can = afternoon && !self.s.passed[f.controller.index()];
                if can {
                    self.pass(f.controller);
                    // Passing in its own turn (a quick action) ends that turn.
                    if self.s.phase == Phase::Turn && self.s.to_act == f.controller {
                        self.s.phase = Phase::TurnEnd;
                    }
                }
                self.frame_mut().did = can;
                Flow::Next
            }
            Op::Ascend { at } => {
                let Some(exps) = self.resolve_exps(at, f) else {
                    return Flow::Wait;
                };
                // Only the player's expeditions have a terrain to skip (the Darkness is the
                // Confluence's expedition); head-to-head, either seat's.
                let side = self.exp_side(at, f, false);
                if !self.s.scripted(side) {
                    let instead =
                        self.side_has_static(side, |st| matches!(st, Static::AscendResupply));
                    for e in exps.iter() {
                        let e = Exp::BOTH[e as usize];
                        if instead && self.s.ascended(side, e) {
                            self.resupply(side, false);
                            self.fire(Fire::Drew { side });
                        } else {
                            match side {
                                Side::Player => self.s.today.ascend.set(e, true),
                                Side::Confluence => self.s.today.b.ascend.set(e, true),
                            }
                        }
                    }
                }
                Flow::Next
            }
            Op::BecomeFirst { who } => {
                let side = match who {
                    Who::Opponent => f.controller.other(),
                    _ => f.controller,
                };
                if self.s.first_player() != side {
                    self.s.threatened = self.s.threatened.other();
                    if O::ENABLED {
                        self.emit(Event::FirstPlayer { side });
                    }
                }
                Flow::Next
            }
            Op::EachPasses => {
                for side in [f.controller, f.controller.other()] {
                    if !self.s.passed[side.index()] {
                        self.pass(side);
                    }
                }
                Flow::Next
            }
            Op::Roll => self.exec_roll(f),
            Op::SetX(a) => {
                let x = self.amount(a, f);
                self.frame_mut().x = x;
                Flow::Next
            }
            Op::May { skip } => {
                let _ = skip;
                if self.s.scripted(f.controller) {
                    self.frame_mut().did = true;
                    Flow::Next
                } else {
                    self.ask(Decision::May, f.controller);
                    Flow::Wait
                }
            }
            Op::Pay { cost, skip } => self.exec_pay(f, cost, skip),
            Op::PayCards { cost } => {
                if f.step == 0 {
                    let fr = self.frame_mut();
                    fr.step = 2;
                    fr.count = 0;
                }
                let f = *self.s.frame().expect("frame");
                self.exec_pay(&f, cost, f.pc + 1)
            }
            Op::JumpUnless { cond, to } => {
                if self.s.eval_cond(db, cond, &self.ctx(f)) {
                    Flow::Next
                } else {
                    Flow::Goto(to)
                }
            }
            Op::Jump { to } => Flow::Goto(to),
            Op::LoopStart { n, end } => {
                let n = self.amount(n, f);
                if n <= 0 {
                    return Flow::Goto(end);
                }
                self.frame_mut().loops = n.min(255) as u8;
                Flow::Next
            }
            Op::LoopNext { to } => {
                let fr = self.frame_mut();
                if fr.loops > 1 {
                    fr.loops -= 1;
                    Flow::Goto(to)
                } else {
                    fr.loops = 0;
                    Flow::Next
                }
            }
            Op::Choose { .. } => {
                if self.s.scripted(f.controller) {
                    Flow::Goto(f.pc + 1)
                } else {
                    self.ask(Decision::Mode, f.controller);
                    Flow::Wait
                }
            }
        }
    }

    /// Adds a "the next card you play" modifier (at most 8 wait at once; more are dropped).
    fn push_mod(&mut self, m: TurnMod) {
        let i = self.s.n_mods as usize;
        if i < self.s.mods.len() {
            self.s.mods[i] = m;
            self.s.n_mods += 1;
        }
    }

    fn sides_of(&self, who: Who, controller: Side) -> List<2> {
        let mut l = List::new();
        match who {
            Who::You => {
                let _ = l.push(controller as u8);
            }
            Who::Opponent => {
                let _ = l.push(controller.other() as u8);
            }
            Who::Each => {
                let ini = self.s.initiative();
                let _ = l.push(ini as u8);
                let _ = l.push(ini.other() as u8);
            }
        }
        l
    }

    /// Adds (or removes) boosts on a character in play, or on a card in Reserve (support
    /// abilities; a card leaving the Reserve keeps its counters, digest 5.5).
    pub(super) fn boost(&mut self, id: ObjId, n: i16) {
        if n > 0 && self.counters_blocked(id) {
            return;
        }
        let o = self.s.obj_mut(id);
        if !matches!(o.zone, Zone::Expedition | Zone::Reserve) || n == 0 {
            return;
        }
        o.boosts = (o.boosts as i16 + n).clamp(0, 250) as u8;
        if O::ENABLED {
            self.emit(Event::Boost { obj: id, n });
        }
        if n > 0 {
            self.fire(Fire::Boosted { obj: id });
        }
    }

    /// Gains statuses, through "if I would gain X, ... instead" replacements, then fires
    /// "when ... gains X" for the statuses it did not have (or may regain).
    pub(super) fn gain_status(&mut self, id: ObjId, status: u32) {
        let o = *self.s.obj(id);
        let def = self.db.card(o.card);
        let mut bits = status;
        let mut boosts = 0u8;
        let mut regain = 0u32;
        if def.trigger_mask & tmask::STATIC != 0
            && matches!(o.zone, Zone::Expedition | Zone::Landmarks)
        {
            for ab in self.db.abilities_of(o.card) {
                match ab.trigger {
                    Trigger::Static(Static::GainInstead {
                        from,
                        to,
                        boosts: b,
                    }) if bits & from != 0 => {
                        bits = (bits & !from) | to;
                        boosts = boosts.saturating_add(b);
                    }
                    Trigger::Static(Static::Regain(r)) => regain |= r,
                    _ => {}
                }
            }
        }
        let had = self.s.kw_bits(self.db, id);
        let new = (bits & !had) | (bits & regain);
        let o = self.s.obj_mut(id);
        o.flags |= bits;
        if bits & kw::FLEETING != 0 {
            o.flags &= !flag::LOST_FLEETING;
        }
        if O::ENABLED && bits != 0 {
            self.emit(Event::Status {
                obj: id,
                bits,
                gained: true,
            });
        }
        if boosts > 0 {
            self.boost(id, boosts as i16);
        }
        if new & 0xFF != 0 {
            self.fire(Fire::Gained { obj: id, bits: new });
        }
    }

    /// Sends an object somewhere by an effect, with its leave triggers. A card leaving
    /// the Expedition zone may be put in Mana instead by its own replacement static. False
    /// when it could not move (gone, or already there).
    /// Gains (or, negative, loses) named counters.
    fn add_counters(&mut self, id: ObjId, n: i16) {
        if n > 0 && self.counters_blocked(id) {
            return;
        }
        let o = self.s.obj_mut(id);
        let before = o.counters;
        o.counters = (o.counters as i16 + n).clamp(0, 255) as u8;
        let after = o.counters;
        // "When I gain my Nth counter".
        if after > before {
            self.trigger_own(id, NO_OBJ, |t| {
                matches!(t, Trigger::When(EventKind::CountersReach(k)) if before < *k && *k <= after)
            });
        }
    }

    /// A static "... can't gain counters" (of either side) applies to the object.
    fn counters_blocked(&self, id: ObjId) -> bool {
        let mut blocked = false;
        for side in Side::BOTH {
            if self.s.statics[side.index()] == 0 {
                continue;
            }
            self.s.each_static_of(self.db, side, |src, st, _| {
                if let Static::NoCounters(fid) = st
                    && self
                        .s
                        .matches(self.db, self.db.filter(fid), id, &Ctx::of(side, src))
                {
                    blocked = true;
                }
            });
        }
        blocked
    }

    /// [Augment] (digest 5.5): a card in play or in Reserve (never a Hero) that has counters
    /// gains one more of each kind it has (D32).
    fn augment(&mut self, id: ObjId) {
        let o = *self.s.obj(id);
        if !matches!(o.zone, Zone::Expedition | Zone::Landmarks | Zone::Reserve)
            || self.db.card(o.card).kind == crate::cards::types::CardKind::Hero
        {
            return;
        }
        if o.boosts > 0 {
            self.boost(id, 1);
        }
        if o.counters > 0 {
            self.add_counters(id, 1);
        }
    }

    /// Augment with any number of targets: the controller picks them one at a time
    /// (each offered once, in Silver Rule order, `cursor` = the last one's timestamp) and
    /// each is augmented when chosen. The Confluence augments every legal one of its own.
    fn exec_augment_any(&mut self, filter: FilterId) -> Flow {
        loop {
            let f = *self.s.frame().expect("frame");
            let mut cands = Targets::new();
            self.s.augment_candidates(self.db, &f, filter, &mut cands);
            if cands.is_empty() {
                return Flow::Next;
            }
            match self.s.scripted(f.controller) {
                false => {
                    self.ask(Decision::Target, f.controller);
                    return Flow::Wait;
                }
                true => {
                    let own = cands
                        .iter()
                        .find(|&id| self.s.obj(id).side == Side::Confluence);
                    let Some(id) = own else {
                        return Flow::Next;
                    };
                    self.augment_chosen(id);
                }
            }
        }
    }

    /// One pick of "augment any number": pay its Tough, augment it, move the cursor.
    pub(super) fn augment_chosen(&mut self, id: ObjId) {
        self.choose_target(id);
        let ts = self.s.obj(id).ts;
        self.augment(id);
        let fr = self.frame_mut();
        fr.it.clear();
        fr.cursor = ts;
    }

    /// Sends an object somewhere by an effect, with its leave triggers. False when it
    /// could not move (gone, or already there).
    pub(super) fn move_obj(&mut self, id: ObjId, dest: Dest) -> bool {
        let o = *self.s.obj(id);
        if matches!(o.zone, Zone::None | Zone::HeroZone) {
            return false;
        }
        let from_exp = o.zone == Zone::Expedition;
        // "If I would leave the Expedition zone, put me in Mana instead".
        let to_mana = from_exp && self.s.leave_to_mana(self.db, id);
        let fleeting = from_exp && self.s.has_kw(self.db, id, kw::FLEETING);
        let (zone, top) = match dest {
            _ if to_mana => (Zone::Mana, false),
            Dest::Reserve | Dest::ReserveExhausted if fleeting => (Zone::Discard, false),
            Dest::Reserve | Dest::ReserveExhausted => (Zone::Reserve, false),
            Dest::Hand => (Zone::Hand, false),
            Dest::DeckTop | Dest::DeckAtX => (Zone::Deck, true),
            Dest::DeckBottom => (Zone::Deck, false),
            Dest::Discard | Dest::Sacrifice => (Zone::Discard, false),
            Dest::Mana | Dest::ManaReady => (Zone::Mana, false),
        };
        if zone == o.zone {
            return false;
        }
        // Sacrifice triggers that read the object as it was in play (last known
        // information): "When you sacrifice a ...", "When I'm sacrificed, if I was ...".
        let mut sacrificed_as = 0u32;
        if dest == Dest::Sacrifice {
            self.fire(Fire::Sacrificed { obj: id });
            let def = self.db.card(o.card);
            let ctx = super::query::Ctx::of(o.side, id);
            for k in 0..def.ab_len.min(32) {
                let ab = &self.db.abilities[(def.ab_start + k) as usize];
                if let Trigger::When(EventKind::SacrificedAs(fid)) = ab.trigger
                    && self.s.matches(self.db, self.db.filter(fid), id, &ctx)
                {
                    sacrificed_as |= 1 << k;
                }
            }
        }
        if zone == Zone::Mana {
            self.put_in_mana(id, dest == Dest::ManaReady, Why::Effect);
        } else {
            self.move_to(id, zone, o.exp, Why::Effect, top);
            if dest == Dest::ReserveExhausted && self.s.obj(id).zone == Zone::Reserve {
                self.s.obj_mut(id).flags |= flag::EXHAUSTED;
            }
        }
        if from_exp {
            self.trigger_own(id, NO_OBJ, |t| {
                matches!(t, Trigger::When(EventKind::LeaveExpedition))
            });
        }
        if dest == Dest::Sacrifice {
            self.trigger_own(id, NO_OBJ, |t| {
                matches!(t, Trigger::When(EventKind::Sacrificed))
            });
            if sacrificed_as != 0 {
                let def = self.db.card(o.card);
                let ts = self.s.obj(id).ts;
                for k in 0..def.ab_len.min(32) {
                    if sacrificed_as & (1 << k) != 0 {
                        self.push_pending(Pending {
                            ability: def.ab_start + k,
                            source: id,
                            source_ts: ts,
                            controller: o.side,
                            event_obj: NO_OBJ,
                            free: false,
                        });
                    }
                }
            }
        }
        if zone == Zone::Reserve && self.s.obj(id).zone == Zone::Reserve {
            self.trigger_own(id, NO_OBJ, |t| {
                matches!(t, Trigger::When(EventKind::ToReserve { from_expedition }) if *from_expedition == from_exp)
            });
        }
        true
    }

    /// Moves a player expedition one region (never past its ends) and reveals what it enters.
    pub(super) fn move_expedition(&mut self, e: Exp, forward: bool) {
        self.move_expedition_of(Side::Player, e, forward);
    }

    /// Moves one side's expedition (head-to-head: either seat's). Nothing moves in the
    /// Arena (digest 5.18).
    pub(super) fn move_expedition_of(&mut self, side: Side, e: Exp, forward: bool) {
        if self.s.arena {
            return;
        }
        if self.step_expedition_of(side, e, forward) && forward {
            match side {
                Side::Player => self.s.today.moved.set(e, true),
                Side::Confluence => self.s.today.b.moved.set(e, true),
            }
            self.fire(Fire::ExpMoved { side, exp: e });
        }
        self.check_caught();
    }

    /// Moves a player expedition one region without "moves forward" triggers (one more
    /// region of the same move). False when it could not move.
    pub(super) fn step_expedition(&mut self, e: Exp, forward: bool) -> bool {
        self.step_expedition_of(Side::Player, e, forward)
    }

    pub(super) fn step_expedition_of(&mut self, side: Side, e: Exp, forward: bool) -> bool {
        let from = self.s.pos_of(side).get(e);
        let step: i8 = match (e, forward) {
            (Exp::Hero, true) | (Exp::Companion, false) => 1,
            _ => -1,
        };
        let to = from + step;
        let start = if e == Exp::Hero { 0 } else { 7 };
        let far = 7 - start;
        if (forward && from == far) || (!forward && from == start) || !(0..=7).contains(&to) {
            return false;
        }
        if forward && self.s.expedition_blocked_of(self.db, side, e) {
            return false;
        }
        self.s.pos_of_mut(side).set(e, to);
        self.reveal(to as usize);
        if O::ENABLED && side == Side::Player {
            self.emit(Event::ExpeditionMoved { exp: e, from, to });
        }
        true
    }

    pub(super) fn reveal(&mut self, region: usize) {
        if (1..=6).contains(&region) {
            let slot = (region - 1) / 2;
            if self.s.adventure.revealed & (1 << slot) == 0 {
                self.s.adventure.revealed |= 1 << slot;
                if O::ENABLED {
                    self.emit(Event::Reveal { slot: slot as u8 });
                }
            }
        }
    }

    /// Moves a Darkness one region (forward toward the player's expedition, or back, never
    /// past its start), then checks whether it caught the expedition.
    pub(super) fn move_darkness(&mut self, e: Exp, forward: bool) {
        let from = self.s.dark.get(e);
        let (start, dir): (i8, i8) = if e == Exp::Hero { (-1, 1) } else { (8, -1) };
        let to = if forward { from + dir } else { from - dir };
        let to = if e == Exp::Hero {
            to.max(start)
        } else {
            to.min(start)
        };
        if to == from || (forward && self.s.darkness_blocked(self.db, e)) {
            return;
        }
        self.s.dark.set(e, to);
        if O::ENABLED {
            self.emit(Event::DarknessMoved { exp: e, from, to });
        }
        self.check_caught();
    }

    /// The player loses when a Darkness enters the region of the expedition on its side
    /// (interpretation A3).
    pub(super) fn check_caught(&mut self) {
        if self.s.outcome.is_some() || self.s.mode == Mode::Duel {
            return;
        }
        if self.s.dark.get(Exp::Hero) >= self.s.pos.get(Exp::Hero) {
            self.end(Outcome::LossHeroDarkness);
        } else if self.s.dark.get(Exp::Companion) <= self.s.pos.get(Exp::Companion) {
            self.end(Outcome::LossCompanionDarkness);
        }
    }

    /// Reveals the top two cards of the player's deck; the player keeps one in Reserve and
    /// discards the other (one card revealed: it goes to Reserve).
    /// `exhausted`: the kept card enters exhausted ("resupply exhausted").
    fn exec_resupply_two(&mut self, side: Side, exhausted: bool) -> Flow {
        let deck_len = self.s.side(side).deck.len();
        if deck_len < 2 && !self.refill(side) && deck_len == 0 {
            return Flow::Next;
        }
        let d = self.s.side(side).deck;
        if d.len() == 1 {
            let put = self.resupply(side, exhausted);
            let fr = self.frame_mut();
            fr.it.clear();
            if let Some(id) = put {
                let _ = fr.it.push(id);
            }
            self.fire(Fire::Drew { side });
            return Flow::Next;
        }
        for k in 0..2 {
            let id = d.as_slice()[d.len() - 1 - k];
            // Revealed: both players see it.
            self.s.obj_mut(id).flags |= flag::KNOWN;
        }
        self.ask(Decision::ResupplyPick, side);
        Flow::Wait
    }

    fn exec_roll(&mut self, f: &Frame) -> Flow {
        let extra = self.side_has_static(f.controller, |s| matches!(s, Static::ExtraDie));
        // Raising the die by 1 (roll_plus_one) is asked once the die is kept.
        let plus_one = !self.s.scripted(f.controller)
            && self.side_has_static(f.controller, |s| matches!(s, Static::RollPlusOne));
        let who = f.controller;
        let ask_plus = |this: &mut Self, v: u8| {
            let fr = this.frame_mut();
            fr.x = v as i16;
            fr.step = 2;
            this.ask(Decision::May, who);
            Flow::Wait
        };
        match f.step {
            0 => {
                let a: u8 = self.rng.random_range(1..=6);
                if !extra || self.s.scripted(f.controller) {
                    return if plus_one {
                        ask_plus(self, a)
                    } else {
                        self.rolled(a)
                    };
                }
                let b: u8 = self.rng.random_range(1..=6);
                let fr = self.frame_mut();
                fr.dice = [a, b];
                fr.step = 1;
                self.ask(Decision::Die, f.controller);
                Flow::Wait
            }
            // The choice stored the kept die in x.
            1 if plus_one => ask_plus(self, f.x as u8),
            _ => self.rolled(f.x as u8),
        }
    }

    fn rolled(&mut self, v: u8) -> Flow {
        let side = self.s.frame().map(|f| f.controller).unwrap_or(Side::Player);
        self.frame_mut().x = v as i16;
        self.s.today.last_roll[side.index()] = v;
        if O::ENABLED {
            self.emit(Event::Roll { side, value: v });
        }
        let top = self.s.side(side).deck.last().unwrap_or(NO_OBJ);
        self.fire(Fire::Rolled { side, top });
        Flow::Next
    }

    /// Whether any of a side's objects in play has a static ability matching `pred`.
    pub(super) fn side_has_static(&self, side: Side, pred: impl Fn(&Static) -> bool) -> bool {
        self.s.side_has_static(self.db, side, pred)
    }

    /// `Op::Select`: fills `it` one target at a time.
    fn exec_select(&mut self, f: &Frame, op: Op) -> Flow {
        let Op::Select {
            filter,
            min,
            max,
            total_cost,
            total_of,
            by_opponent,
        } = op
        else {
            unreachable!("exec_select runs Op::Select only");
        };
        if f.step == 0 {
            let fr = self.frame_mut();
            fr.it.clear();
            fr.step = 1;
        }
        loop {
            let f = *self.s.frame().expect("frame");
            if f.it.len() >= max as usize {
                return Flow::Next;
            }
            let mut cands = Targets::new();
            self.s
                .select_candidates(self.db, &f, filter, total_cost, total_of, &mut cands);
            if cands.is_empty() {
                return Flow::Next;
            }
            let chooser = if by_opponent {
                f.controller.other()
            } else {
                f.controller
            };
            if self.s.scripted(chooser) {
                // The Confluence takes the leftmost legal target, as many as allowed.
                let id = cands.first().expect("non-empty");
                self.choose_target(id);
            } else {
                let _ = min;
                self.ask(Decision::Target, chooser);
                return Flow::Wait;
            }
        }
    }

    /// `select_exp`: the player chooses among the expeditions of `whose` side(s); the
    /// Confluence takes the Threatened one, on the player's side unless only its own may be
    /// chosen (D-entry "select_exp"). No expedition is ever ahead (A18).
    fn exec_select_exp(&mut self, f: &Frame, whose: Whose, ahead: bool) -> Flow {
        if ahead {
            self.frame_mut().sel_exp = NO_SEL;
            return Flow::Next;
        }
        if self.s.scripted(f.controller) {
            let side = if whose == Whose::Yours {
                Side::Confluence
            } else {
                Side::Player
            };
            self.frame_mut().sel_exp = side.index() as u8 * 2 + self.s.threatened.index() as u8;
            Flow::Next
        } else {
            self.ask(Decision::Expedition, f.controller);
            Flow::Wait
        }
    }

    /// Adds a target to the running selection, paying its Tough when it is opposing.
    pub(super) fn choose_target(&mut self, id: ObjId) {
        let f = *self.s.frame().expect("frame");
        let o = *self.s.obj(id);
        if o.side != f.controller && !f.free {
            let t = self.s.tough(self.db, id);
            let s = self.s.side_mut(f.controller);
            s.mana_ready = s.mana_ready.saturating_sub(t);
        }
        let _ = self.frame_mut().it.push(id);
    }

    /// Cards from hand, side by side (`step` = sides done, `count` = cards of this side):
    /// the player chooses, the Confluence gives the top of its hand.
    fn exec_from_hand(&mut self, f: &Frame, who: Who, dest: Dest, n: u8, keep: bool) -> Flow {
        let sides = self.sides_of(who, f.controller);
        let mut step = f.step as usize;
        let mut count = f.count;
        loop {
            let Some(side) = sides.get(step) else {
                return Flow::Next;
            };
            let side = if side == 0 {
                Side::Player
            } else {
                Side::Confluence
            };
            if count >= n || self.s.side(side).hand.is_empty() {
                step += 1;
                count = 0;
                let fr = self.frame_mut();
                fr.step = step as u8;
                fr.count = 0;
                continue;
            }
            if self.s.scripted(side) {
                let top = self
                    .s
                    .side(Side::Confluence)
                    .hand
                    .first()
                    .expect("non-empty");
                self.hand_card_to(top, dest);
                if keep {
                    let _ = self.frame_mut().it.push(top);
                }
                count += 1;
                self.frame_mut().count = count;
            } else {
                self.ask(Decision::HandCard, side);
                return Flow::Wait;
            }
        }
    }

    /// Each side of `who` sacrifices a character (the player chooses; the Confluence by its
    /// rule); the choices are made in initiative order and happen together.
    fn exec_sacrifice(&mut self, f: &Frame, who: Who) -> Flow {
        if f.step == 0 {
            let fr = self.frame_mut();
            fr.it.clear();
            fr.step = 1;
            fr.count = 0;
        }
        let sides = self.sides_of(who, f.controller);
        loop {
            let k = self.s.frame().expect("frame").count as usize;
            let Some(side) = sides.get(k) else { break };
            let side = if side == 0 {
                Side::Player
            } else {
                Side::Confluence
            };
            let has_char = self.s.side(side).exp.iter().any(|l| {
                l.iter()
                    .any(|id| self.db.card(self.s.obj(id).card).kind.is_character())
            });
            if !has_char {
                self.frame_mut().count += 1;
                continue;
            }
            if self.s.scripted(side) {
                if let Some(id) = self.confluence_sacrifice_choice() {
                    let _ = self.frame_mut().it.push(id);
                }
                self.frame_mut().count += 1;
            } else {
                self.ask(Decision::Sacrifice, side);
                return Flow::Wait;
            }
        }
        let chosen = self.s.frame().expect("frame").it;
        if let Some(id) = chosen.iter().find(|&id| self.s.must_ask_mana(self.db, id)) {
            self.ask_mana(id);
            return Flow::Wait;
        }
        for id in chosen.iter() {
            self.move_obj(id, Dest::Sacrifice);
        }
        Flow::Next
    }

    /// Asks the player whether `id`, about to leave the Expedition zone, goes to Mana
    /// instead; the answer is recorded on the card (`answer_mana`).
    fn ask_mana(&mut self, id: ObjId) {
        self.s.obj_mut(id).flags |= flag::MANA_ASKING;
        let side = self.s.obj(id).side;
        self.ask(Decision::May, side);
    }

    /// Records the player's answer for the card being asked about; returns it.
    fn answer_mana(&mut self, yes: bool) -> Option<ObjId> {
        let id = (0..MAX_OBJS)
            .map(|i| i as ObjId)
            .find(|&i| self.s.obj(i).has(flag::MANA_ASKING))?;
        let o = self.s.obj_mut(id);
        o.flags &= !flag::MANA_ASKING;
        o.flags |= flag::MANA_ASKED;
        if yes {
            o.flags |= flag::MANA_YES;
        }
        Some(id)
    }

    /// Playing a card immediately for free (for each player: the controller first), for N
    /// less, or at full cost (Rush with a filter, D33). The player chooses (or
    /// not); the Confluence reveals from the top of its hand until a card qualifies, plays
    /// it and shuffles its hand (FAQ "Play Limitations"). The played card becomes `it`.
    fn exec_play_free(
        &mut self,
        f: &Frame,
        who: Who,
        filter: FilterId,
        less: u8,
        exp: Option<Exp>,
        flags: u8,
    ) -> Flow {
        let mut sides = List::<2>::new();
        if who != Who::Opponent {
            let _ = sides.push(f.controller as u8);
        }
        if who != Who::You {
            let _ = sides.push(f.controller.other() as u8);
        }
        let k = f.count as usize;
        if k == 0 {
            self.frame_mut().did = false;
        }
        let Some(side) = sides.get(k) else {
            return Flow::Next;
        };
        let side = if side == 0 {
            Side::Player
        } else {
            Side::Confluence
        };
        match self.s.scripted(side) {
            false => {
                // The options are the deciding side's: set it before listing them.
                self.s.decider = side;
                let mut options = super::choice::ChoiceList::new();
                super::choice::play_now_choices(self.s, self.db, f, &mut options);
                if options.iter().any(|c| *c != Choice::Done) {
                    self.ask(Decision::PlayFree, side);
                    return Flow::Wait;
                }
                self.frame_mut().count += 1;
                Flow::Moved
            }
            true => {
                self.frame_mut().count += 1;
                let mut found = None;
                if flags & (playflag::ME | playflag::IT) != 0 {
                    self.s.play_now_options(
                        self.db,
                        f,
                        Side::Confluence,
                        (filter, less, exp, flags),
                        |id, r, _| {
                            if less == playflag::FREE
                                || self.s.play_cost(self.db, id, r).saturating_sub(less)
                                    <= self.s.side(Side::Confluence).mana_ready
                            {
                                found = found.or(Some((id, r)));
                            }
                        },
                    );
                } else {
                    let hand = self.s.side(Side::Confluence).hand;
                    let ready = self.s.side(Side::Confluence).mana_ready;
                    found = hand
                        .iter()
                        .find(|&id| {
                            self.s
                                .matches_card(self.db, self.db.filter(filter), id, f.controller)
                                && (less == playflag::FREE
                                    || self.s.play_cost(self.db, id, false).saturating_sub(less)
                                        <= ready)
                        })
                        .map(|id| (id, false));
                }
                if let Some((id, from_reserve)) = found {
                    self.take_control(id, Side::Confluence);
                    self.s.obj_mut(id).flags |= flag::KNOWN;
                    let fr = self.frame_mut();
                    fr.did = true;
                    fr.it.clear();
                    let _ = fr.it.push(id);
                    let (e, icon, fell_back) = self.placement(id);
                    let alt = Alt::paying_less(less);
                    self.play_card(
                        id,
                        from_reserve,
                        exp.unwrap_or(e),
                        Some((icon, fell_back)),
                        alt,
                    );
                }
                if flags & (playflag::ME | playflag::IT) == 0 {
                    // The revealed hand is shuffled face down again.
                    let rng = &mut *self.rng;
                    let side = self.s.side_mut(Side::Confluence);
                    rand::seq::SliceRandom::shuffle(side.hand.as_mut_slice(), rng);
                    let hand = self.s.side(Side::Confluence).hand;
                    for id in hand.iter() {
                        self.s.obj_mut(id).flags &= !flag::KNOWN;
                    }
                }
                Flow::Moved
            }
        }
    }

    /// "Reveal the top N cards of your deck, put up to K matching in your expeditions, they
    /// gain S, discard the others". Steps: 1 choosing (`count` = cards revealed and still
    /// in the deck, `it` = chosen), 2 putting the chosen one by one (an expedition each),
    /// 3 discarding the rest.
    fn exec_reveal_put(&mut self, f: &Frame, n: u8, k: u8, filter: FilterId, status: u32) -> Flow {
        let side = f.controller;
        if f.step == 0 {
            let deck = self.s.side(side).deck;
            let shown = (n as usize).min(deck.len());
            for &id in &deck.as_slice()[deck.len() - shown..] {
                self.s.obj_mut(id).flags |= flag::KNOWN;
            }
            let fr = self.frame_mut();
            fr.it.clear();
            fr.count = shown as u8;
            fr.step = 1;
        }
        loop {
            let f = *self.s.frame().expect("frame");
            match f.step {
                1 => {
                    let cands = self.s.reveal_candidates(self.db, &f, filter);
                    if f.it.len() >= k as usize || cands.is_empty() {
                        self.frame_mut().step = 2;
                        continue;
                    }
                    if self.s.scripted(side) {
                        // The Confluence takes the topmost matching cards.
                        let _ = self.frame_mut().it.push(cands.first().expect("non-empty"));
                    } else {
                        self.ask(Decision::Target, side);
                        return Flow::Wait;
                    }
                }
                2 => {
                    let Some(id) = f.it.first() else {
                        self.frame_mut().step = 3;
                        continue;
                    };
                    let e = match f.exp_reg {
                        Some(e) => e,
                        None if self.s.scripted(side) => self.s.threatened,
                        None => {
                            self.ask(Decision::Expedition, side);
                            return Flow::Wait;
                        }
                    };
                    let fr = self.frame_mut();
                    fr.exp_reg = None;
                    fr.it.remove_item(id);
                    if self.s.side(side).exp[e.index()].is_full() {
                        continue;
                    }
                    let fr = self.frame_mut();
                    fr.count = fr.count.saturating_sub(1);
                    self.move_to(id, Zone::Expedition, e, Why::Effect, false);
                    self.s.obj_mut(id).flags |= status;
                    if !self.s.silenced(self.db, id) {
                        self.trigger_own(id, NO_OBJ, |t| *t == Trigger::Played(PlayFrom::Any));
                    }
                    if self.db.card(self.s.obj(id).card).kind.is_character() {
                        self.fire(Fire::Joined { obj: id });
                    }
                }
                _ => {
                    let deck = self.s.side(side).deck;
                    let shown = (f.count as usize).min(deck.len());
                    for &id in deck.as_slice()[deck.len() - shown..].iter().rev() {
                        self.move_to(id, Zone::Discard, Exp::Hero, Why::Effect, false);
                    }
                    return Flow::Next;
                }
            }
        }
    }

    /// Rush: the player may play another card now, paying for it (a `PlayFree` decision
    /// whose options are the turn's plays); the Confluence plays as on its turn (D31).
    fn exec_rush(&mut self, f: &Frame) -> Flow {
        match self.s.scripted(f.controller) {
            false => {
                self.s.decider = f.controller;
                let mut opts = super::choice::ChoiceList::new();
                super::choice::legal_plays(self.s, self.db, &mut opts);
                if opts.is_empty() {
                    self.frame_mut().did = false;
                    return Flow::Next;
                }
                self.ask(Decision::PlayFree, f.controller);
                Flow::Wait
            }
            true => {
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
                fr.count = 0;
                let played = self.confluence_rush();
                self.frame_mut().did = played;
                Flow::Moved
            }
        }
    }

    /// Reveal your deck's top card; the player may play it at no cost (from the deck: no {H}
    /// abilities), otherwise it joins the hand. The revealed card is `it` while the choice
    /// is made. The Confluence always plays it.
    fn exec_top_play_or_hand(&mut self, f: &Frame) -> Flow {
        let side = f.controller;
        let Some(id) = self.take_top(side) else {
            return Flow::Next;
        };
        self.s.obj_mut(id).flags |= flag::KNOWN;
        let fr = self.frame_mut();
        fr.it.clear();
        let _ = fr.it.push(id);
        match self.s.scripted(side) {
            false => {
                let kind = self.db.card(self.s.obj(id).card).kind;
                let room = !kind.goes_to_expedition()
                    || Exp::BOTH
                        .iter()
                        .any(|e| !self.s.side(side).exp[e.index()].is_full());
                if !self.s.playable(self.db, id) || !room {
                    self.move_to(id, Zone::Hand, Exp::Hero, Why::Effect, false);
                    return Flow::Next;
                }
                self.ask(Decision::PlayFree, side);
                Flow::Wait
            }
            true => {
                self.frame_mut().pc += 1;
                let (e, icon, fell_back) = self.placement(id);
                self.play_card(id, false, e, Some((icon, fell_back)), Alt::Free);
                Flow::Moved
            }
        }
    }

    fn hand_card_to(&mut self, id: ObjId, dest: Dest) {
        match dest {
            Dest::Reserve => {
                self.move_to(id, Zone::Reserve, Exp::Hero, Why::Effect, false);
                self.trigger_own(id, NO_OBJ, |t| {
                    matches!(
                        t,
                        Trigger::When(EventKind::ToReserve {
                            from_expedition: false
                        })
                    )
                });
            }
            Dest::Mana => self.put_in_mana(id, false, Why::Effect),
            Dest::DeckTop => self.move_to(id, Zone::Deck, Exp::Hero, Why::Effect, true),
            Dest::DeckBottom => self.move_to(id, Zone::Deck, Exp::Hero, Why::Effect, false),
            _ => self.move_to(id, Zone::Discard, Exp::Hero, Why::Effect, false),
        }
    }

    /// Optional cost inside an effect. Steps: 0 ask, then card choices for the parts that
    /// need them (reserve discard, hand discard, sacrifice).
    fn exec_pay(&mut self, f: &Frame, cost: Cost, skip: u16) -> Flow {
        match f.step {
            0 => {
                if !self.s.can_pay(self.db, f.controller, f.source, &cost) {
                    self.frame_mut().did = false;
                    return Flow::Goto(skip);
                }
                match self.s.scripted(f.controller) {
                    false => {
                        self.ask(Decision::May, f.controller);
                        Flow::Wait
                    }
                    true => {
                        self.pay_simple(f.controller, f.source, &cost);
                        let fr = self.frame_mut();
                        fr.step = 2;
                        fr.count = 0;
                        self.exec_pay(&self.s.frame().copied().expect("frame"), cost, skip)
                    }
                }
            }
            _ => {
                // Card-choice parts, in order: reserve discards, hand discards, a sacrifice.
                let side = f.controller;
                let c = f.count;
                let (need_res, need_hand, need_sac) = (
                    cost.discard_reserve,
                    cost.discard_hand,
                    (cost.sacrifice != 0) as u8,
                );
                let decision = if c < need_res {
                    Decision::ReserveCard
                } else if c < need_res + need_hand {
                    Decision::HandCard
                } else if c < need_res + need_hand + need_sac {
                    Decision::Sacrifice
                } else {
                    self.frame_mut().did = true;
                    return Flow::Next;
                };
                if self.s.scripted(side) {
                    let s = self.s.side(side);
                    let id = match decision {
                        Decision::ReserveCard => s.reserve.first(),
                        Decision::HandCard => s.hand.first(),
                        _ if cost.sacrifice & fkind::CHARACTER != 0 => {
                            self.confluence_sacrifice_choice()
                        }
                        _ => self.confluence_sacrifice_permanent(cost.sacrifice),
                    };
                    if let Some(id) = id {
                        self.pay_card(decision, id);
                    }
                    self.frame_mut().count += 1;
                    return self.exec_pay(&self.s.frame().copied().expect("frame"), cost, skip);
                }
                self.ask(decision, side);
                Flow::Wait
            }
        }
    }

    /// Pays mana, exhaust, counters and discard-me parts of a cost.
    pub(super) fn pay_simple(&mut self, side: Side, source: ObjId, c: &Cost) {
        if !self.s.variant.free_mana {
            let s = self.s.side_mut(side);
            s.mana_ready -= c.mana;
        }
        let o = self.s.obj_mut(source);
        if c.exhaust {
            o.flags |= flag::EXHAUSTED;
        }
        o.counters -= c.counters;
        let exhausted_in_reserve = c.exhaust && o.zone == Zone::Reserve;
        if exhausted_in_reserve {
            self.fire(Fire::ExhaustedInReserve { side });
        }
        if c.discard_me {
            self.move_to(source, Zone::Discard, Exp::Hero, Why::Cost, false);
        }
    }

    fn pay_card(&mut self, decision: Decision, id: ObjId) {
        match decision {
            Decision::ReserveCard => self.move_to(id, Zone::Discard, Exp::Hero, Why::Cost, false),
            Decision::HandCard => self.move_to(id, Zone::Discard, Exp::Hero, Why::Cost, false),
            _ => {
                self.move_obj(id, Dest::Sacrifice);
            }
        }
    }

    /// Applies the player's answer to a decision raised inside a running ability.
    pub(super) fn apply_in_frame(&mut self, choice: Choice) {
        let f = *self.s.frame().expect("frame decision without frame");
        let ab = self.db.abilities[f.ability as usize];
        let op = self.db.op(&ab, f.pc);
        let decision = self.s.decision;
        self.s.decision = Decision::None;
        // A "you may put me in Mana instead" answer, whatever op asked it.
        if decision == Decision::May
            && let Some(id) = self.answer_mana(choice == Choice::Yes)
        {
            // A card sacrificed as a cost is paid now that the answer is known.
            if matches!(op, Op::Pay { .. }) && f.step > 0 {
                self.pay_card(Decision::Sacrifice, id);
                self.frame_mut().count += 1;
            }
            return;
        }
        match (decision, choice, op) {
            (Decision::Target, Choice::Card(id), Op::OpponentSelect { .. }) => {
                let fr = self.frame_mut();
                let _ = fr.it.push(id);
                fr.pc += 1;
                fr.step = 0;
            }
            (Decision::Target, Choice::Card(id), Op::AugmentAny { .. }) => self.augment_chosen(id),
            (Decision::Target, Choice::Card(id), _) => self.choose_target(id),
            (Decision::Target, Choice::Done, Op::RevealPut { .. }) => {
                // Done choosing: put the chosen cards in expeditions.
                self.frame_mut().step = 2;
            }
            (Decision::Target, Choice::Done, _) => {
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
            }
            (
                Decision::Expedition,
                Choice::Exp(e) | Choice::OpposingExp(e),
                Op::SelectExp { .. },
            ) => {
                // Relative to the side choosing: its own expeditions, or its opponent's.
                let opposing = matches!(choice, Choice::OpposingExp(_));
                let side = if opposing {
                    self.s.decider.other()
                } else {
                    self.s.decider
                } as u8;
                let fr = self.frame_mut();
                fr.sel_exp = side * 2 + e.index() as u8;
                fr.pc += 1;
                fr.step = 0;
            }
            (Decision::Expedition, Choice::Exp(e), _) => self.frame_mut().exp_reg = Some(e),
            (Decision::May, yes_no, Op::May { skip }) => {
                let fr = self.frame_mut();
                fr.did = yes_no == Choice::Yes;
                fr.pc = if fr.did { fr.pc + 1 } else { skip };
                fr.step = 0;
            }
            (Decision::May, yes_no, Op::Pay { cost, skip }) => {
                if yes_no == Choice::Yes {
                    self.pay_simple(f.controller, f.source, &cost);
                    let fr = self.frame_mut();
                    fr.step = 2;
                    fr.count = 0;
                } else {
                    let fr = self.frame_mut();
                    fr.did = false;
                    fr.pc = skip;
                    fr.step = 0;
                }
            }
            (Decision::May, yes_no, Op::ActivateJEach { .. }) => {
                if yes_no == Choice::Yes
                    && let Some(id) = f.it.first()
                {
                    self.trigger_own(id, NO_OBJ, |t| *t == Trigger::Played(PlayFrom::Any));
                }
                self.frame_mut().count += 1;
            }
            (Decision::Mode, Choice::Mode(k), Op::PlaceMarker { .. } | Op::MoveMarker { .. }) => {
                self.s.apply_marker(&f, op, k);
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
            }
            (Decision::Mode, Choice::Mode(k), _) => {
                let fr = self.frame_mut();
                fr.pc += 1 + k as u16;
                fr.step = 0;
            }
            (Decision::May, yes_no, Op::Roll) => {
                if yes_no == Choice::Yes {
                    self.frame_mut().x += 1;
                }
            }
            (Decision::Die, Choice::Mode(v), _) => {
                let fr = self.frame_mut();
                fr.x = v as i16;
            }
            (Decision::ResupplyPick, Choice::Card(keep), op) => {
                let side = self.s.obj(keep).side;
                let d = self.s.side(side).deck;
                let other = (0..2)
                    .map(|k| d.as_slice()[d.len() - 1 - k])
                    .find(|&x| x != keep)
                    .expect("two revealed cards");
                self.move_to(keep, Zone::Reserve, Exp::Hero, Why::Resupply, false);
                let fr = self.frame_mut();
                fr.it.clear();
                let _ = fr.it.push(keep);
                if matches!(
                    op,
                    Op::Resupply {
                        exhausted: true,
                        ..
                    }
                ) {
                    self.s.obj_mut(keep).flags |= flag::EXHAUSTED;
                }
                self.move_to(other, Zone::Discard, Exp::Hero, Why::Resupply, false);
                self.fire(Fire::Drew { side });
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
            }
            (Decision::HandCard, Choice::Card(id), Op::FromHand { dest, keep, .. }) => {
                self.hand_card_to(id, dest);
                if keep {
                    let _ = self.frame_mut().it.push(id);
                }
                self.frame_mut().count += 1;
            }
            (Decision::Sacrifice, Choice::Card(id), Op::SacrificeHighest { .. }) => {
                self.move_obj(id, Dest::Sacrifice);
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
            }
            (Decision::Sacrifice, Choice::Card(id), Op::SacrificeOne { .. }) => {
                let fr = self.frame_mut();
                let _ = fr.it.push(id);
                fr.count += 1;
            }
            (Decision::PlayFree, Choice::Done, Op::Rush) => {
                let fr = self.frame_mut();
                fr.did = false;
                fr.pc += 1;
                fr.step = 0;
            }
            (
                Decision::PlayFree,
                Choice::Play {
                    obj,
                    from_reserve,
                    exp,
                    alt,
                },
                Op::Rush,
            ) => {
                // Move on before playing: a Spell starts its own (nested) ability.
                let fr = self.frame_mut();
                fr.did = true;
                fr.pc += 1;
                fr.step = 0;
                self.play_card(obj, from_reserve, exp, None, alt);
            }
            (Decision::PlayFree, Choice::Done, Op::TopPlayOrHand) => {
                // Not played: it goes to the hand.
                if let Some(id) = f.it.first() {
                    self.move_to(id, Zone::Hand, Exp::Hero, Why::Effect, false);
                }
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
            }
            (Decision::PlayFree, Choice::Play { obj, exp, .. }, Op::TopPlayOrHand) => {
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
                self.play_card(obj, false, exp, None, Alt::Free);
            }
            (Decision::PlayFree, Choice::Done, _) => self.frame_mut().count += 1,
            (
                Decision::PlayFree,
                Choice::Play {
                    obj,
                    from_reserve,
                    exp,
                    alt,
                },
                _,
            ) => {
                // Move on before playing: a Spell starts its own (nested) ability.
                let fr = self.frame_mut();
                fr.count += 1;
                fr.did = true;
                fr.it.clear();
                let _ = fr.it.push(obj);
                // A card of the opponent's Reserve (`play_now(it)`, Brainwash) is borrowed by
                // the side that answers this decision.
                self.take_control(obj, self.s.decider);
                self.play_card(obj, from_reserve, exp, None, alt);
            }
            (Decision::Sacrifice, Choice::Card(id), Op::Pay { .. })
                if self.s.must_ask_mana(self.db, id) =>
            {
                self.ask_mana(id);
            }
            (
                Decision::HandCard | Decision::ReserveCard | Decision::Sacrifice,
                Choice::Card(id),
                Op::Pay { .. } | Op::PayCards { .. },
            ) => {
                self.pay_card(decision, id);
                self.frame_mut().count += 1;
            }
            other => debug_assert!(false, "unexpected frame answer {other:?}"),
        }
    }
}
