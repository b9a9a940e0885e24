//! The day: Morning, Noon, Afternoon, Dusk and Night as a resumable state machine, and the
//! player's top-level decisions.

use super::Engine;
use super::choice::Choice;
use super::event::{Event, Observer, Why};
use super::list::List;
use super::overcome;
use super::state::*;
use super::triggers::Fire;
use crate::cards::effect::*;
use crate::cards::types::*;

/// Safety net against loops of free quick actions (S1 1.4.6 allows 100 per action per day).
pub const MAX_QUICK_PER_DAY: u16 = 200;

/// Under unlimited mana (Booster War), the cards a player may play in a day: free cards
/// that return to hand could otherwise be replayed forever (D51, after S1 1.4.6's 100
/// uses of a quick action per day).
pub const MAX_FREE_PLAYS_PER_DAY: u8 = 100;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    pub(super) fn step_phase(&mut self) {
        match self.s.phase {
            Phase::SetupMana => {
                let who = self.seat_in_turn();
                // Unlimited mana: no card goes to Mana (D49), unless the variant keeps it.
                if self.s.variant.free_mana && !self.s.variant.mana_setup {
                    self.s.setup_left = 0;
                }
                if self.s.setup_left > 0 && !self.s.side(who).hand.is_empty() {
                    self.ask(Decision::SetupMana, who);
                } else if self.s.mode.versus() && self.later_seat_waits() {
                    // Head-to-head: the next player clockwise puts its 3 cards in Mana.
                    self.s.seat_step += 1;
                    self.s.setup_left = 3;
                } else {
                    // Day 1 has no Morning: straight to Noon.
                    self.s.seat_step = 0;
                    self.s.phase = Phase::Noon;
                }
            }
            Phase::Morning => self.morning(),
            Phase::Expand => {
                let who = self.seat_in_turn();
                // Unlimited mana: Mana Orbs pay for nothing, so nobody Expands (D49),
                // unless the variant keeps day 1's Mana and Expand.
                if self.s.variant.free_mana && !self.s.variant.mana_setup {
                    self.expand_done();
                    return;
                }
                // Expand may take the deck's top card into Mana rather than a card from
                // hand: Expand becomes a yes/no choice.
                if self.side_has_static(who, |st| matches!(st, Static::ExpandFromDeck)) {
                    let side = self.s.side(who);
                    if side.deck.is_empty() && side.discard.is_empty() {
                        self.expand_done();
                    } else {
                        self.ask(Decision::May, who);
                    }
                    return;
                }
                if self.s.side(who).hand.is_empty() {
                    self.expand_done();
                } else {
                    self.ask(Decision::Expand, who);
                }
            }
            Phase::ConfluenceDraw => {
                // Drawn cards go under whatever the Confluence still holds.
                self.draw(Side::Confluence, 2);
                self.fire(Fire::Drew {
                    side: Side::Confluence,
                });
                if self.s.outcome.is_none() {
                    self.s.phase = Phase::Noon;
                }
            }
            Phase::Noon => {
                self.queue_timed(Trigger::Noon);
                self.s.phase = Phase::AfternoonStart;
            }
            Phase::AfternoonStart => {
                self.s.passed = 0;
                self.s.to_act = self.s.first_player();
                self.s.phase = Phase::Turn;
            }
            Phase::Turn => {
                // Turns go clockwise among the seats that have not passed (with two seats,
                // they alternate until one passes).
                if self.s.all_passed() {
                    self.s.phase = Phase::Dusk;
                    return;
                }
                if self.s.has_passed(self.s.to_act) {
                    let passed = self.s.passed;
                    if let Some(next) = self
                        .s
                        .table
                        .next_after(self.s.to_act, |s| passed & s.bit() == 0)
                    {
                        self.s.to_act = next;
                    }
                }
                let side = self.s.to_act;
                if self.s.scripted(side) {
                    self.s.phase = Phase::ConfluenceQuick(0);
                } else {
                    self.ask(Decision::Turn, side);
                }
            }
            Phase::ConfluenceQuick(c) => self.confluence_quick(c),
            Phase::ConfluencePlay => self.confluence_play(),
            Phase::TurnEnd => {
                let side = self.s.to_act;
                self.clear_mods(side);
                let passed = self.s.passed;
                if let Some(next) = self.s.table.next_after(side, |s| passed & s.bit() == 0) {
                    self.s.to_act = next;
                }
                self.s.phase = Phase::Turn;
            }
            Phase::Dusk => {
                // The Afternoon is over: no "next card you play" modifier outlives it.
                self.s.n_mods = 0;
                self.queue_timed(Trigger::Dusk);
                self.s.phase = Phase::Progress;
            }
            Phase::Progress if self.s.mode.versus() => self.duel_progress(),
            Phase::Progress => self.progress(),
            Phase::Night => {
                self.queue_timed(Trigger::Night);
                self.mark_after_rest();
                self.s.phase = Phase::Rest;
            }
            Phase::Rest => {
                if self.rest() {
                    if self.s.rest_armed {
                        self.s.rest_armed = false;
                        self.queue_after_rest();
                        self.queue_delayed_rest();
                    }
                    self.s.phase = Phase::Cleanup;
                }
            }
            Phase::Cleanup => {
                if self.cleanup() {
                    self.s.phase = Phase::Midnight;
                }
            }
            Phase::Midnight if self.s.mode.versus() => self.duel_day_end(),
            Phase::Midnight => {
                self.midnight();
                if self.s.outcome.is_none() {
                    if self.s.day >= self.s.day_cap {
                        self.end(Outcome::DayCap);
                    } else {
                        self.s.phase = Phase::Morning;
                    }
                }
            }
        }
    }

    #[inline(never)]
    fn morning(&mut self) {
        let keep = const { Side::seats::<N>() }
            .into_iter()
            .any(|side| self.side_has_static(side, |st| matches!(st, Static::KeepExhausted)));
        let db = self.db;
        let s = &mut *self.s;
        s.day += 1;
        s.threatened = s.threatened.other();
        s.first = Side::of_seat(s.table.left(s.first.seat()));
        s.today = Today::default();
        s.n_mods = 0;
        // Prepare: ready orbs and exhausted cards of both sides.
        for side in const { Side::seats::<N>() } {
            let st = s.side_mut(side);
            st.mana_ready = st.mana.len() as u8;
        }
        // The objects in those zones are the ones their lists hold (walking the lists, not
        // every object slot, is what keeps a Morning cheap).
        for side in const { Side::seats::<N>() } {
            // Split borrows: the lists are read, the objects written (no copy of the side).
            let GameState { sides, objs, .. } = &mut *s;
            let st = &sides[side];
            for id in st.in_play() {
                objs[id as usize].flags &= !flag::EXHAUSTED;
            }
            for id in st.reserve.iter() {
                let o = &mut objs[id as usize];
                if !(keep && db.card(o.card).kind.is_character()) {
                    o.flags &= !flag::EXHAUSTED;
                }
            }
        }
        if O::ENABLED {
            let day = self.s.day;
            self.emit(Event::DayStart { day });
        }
        let first = self.s.first_player();
        for side in self.s.table.sides_from(first) {
            if self.s.scripted(side) {
                continue;
            }
            let v = self.s.variant;
            if v.last_day > 0 && self.s.day > v.last_day {
                // Booster War's extra day is played with the cards left: no draw (D50).
                continue;
            }
            let n = if self.side_has_static(side, |st| matches!(st, Static::DrawOneInMorning)) {
                1
            } else if v.morning_draw > 0 {
                v.morning_draw
            } else {
                2
            };
            self.draw(side, n);
            self.fire(Fire::Drew { side });
        }
        self.s.seat_step = 0;
        self.s.phase = Phase::Expand;
    }

    /// Asks `who` to decide. In Confluence mode the player makes every choice the engine
    /// asks (the order of the Confluence's cards at Rest included).
    pub(super) fn ask(&mut self, d: Decision, who: Side) {
        self.s.decision = d;
        self.s.decider = if self.s.mode.versus() {
            who
        } else {
            Side::Player
        };
    }

    /// The side whose turn it is in a phase each player goes through in turn (setup Mana,
    /// Expand): the player in Confluence mode; head-to-head the first player, then the
    /// others clockwise (`seat_step` counts them).
    fn seat_in_turn(&self) -> Side {
        match self.s.mode {
            Mode::Confluence => Side::Player,
            Mode::Duel | Mode::FreeForAll => {
                let first = self.s.first_player();
                let k = self.s.seat_step as usize;
                self.s.table.sides_from(first).nth(k).unwrap_or(first)
            }
        }
    }

    /// Head-to-head: a seat after the one in turn still goes through this phase.
    fn later_seat_waits(&self) -> bool {
        let first = self.s.first_player();
        self.s.table.sides_from(first).count() > self.s.seat_step as usize + 1
    }

    /// One side's Expand is over: the next player's, or the Confluence's draw, or Noon.
    fn expand_done(&mut self) {
        match self.s.mode {
            Mode::Confluence => self.s.phase = Phase::ConfluenceDraw,
            Mode::Duel | Mode::FreeForAll if self.later_seat_waits() => self.s.seat_step += 1,
            Mode::Duel | Mode::FreeForAll => {
                self.s.seat_step = 0;
                self.s.phase = Phase::Noon;
            }
        }
    }

    /// Queues At Noon / At Dusk / At Night abilities: the first player's first (A21); each
    /// side in the order hero, expedition characters (left to right), landmarks, Reserve.
    fn queue_timed(&mut self, trigger: Trigger) {
        let bit = trigger.mask_bit();
        let first = self.s.first_player();
        for side in self.s.table.sides_from(first) {
            // Most sides have no such ability at most moments: skip the copy and the sort.
            let st = self.s.side(side);
            // The lists one by one (a chain of iterators costs more than the walk itself).
            let has = |ids: &[ObjId]| {
                ids.iter()
                    .any(|&id| self.db.card(self.s.obj(id).card).trigger_mask & bit != 0)
            };
            let listens = has(std::slice::from_ref(&st.hero))
                || has(st.exp[0].as_slice())
                || has(st.exp[1].as_slice())
                || has(st.landmarks.as_slice())
                || has(st.reserve.as_slice());
            if !listens {
                continue;
            }
            // The lists as they stand now (triggering changes nothing in them, but the
            // walk must not see a change if it did): the lists walked, not the whole side.
            let (hero, landmarks, reserve) = (st.hero, st.landmarks, st.reserve);
            let mut exp: List<128> = List::new();
            for e in 0..2 {
                for id in st.exp[e].iter() {
                    let _ = exp.push(id);
                }
            }
            exp.as_mut_slice()
                .sort_unstable_by_key(|&id| self.s.obj(id).ts);
            let groups: [(&[ObjId], bool); 4] = [
                (std::slice::from_ref(&hero), false),
                (exp.as_slice(), false),
                (landmarks.as_slice(), false),
                (reserve.as_slice(), true),
            ];
            for (ids, reserve) in groups {
                for &id in ids {
                    let o = *self.s.obj(id);
                    if self.db.card(o.card).trigger_mask & bit == 0 {
                        continue;
                    }
                    if reserve && o.has(flag::EXHAUSTED) {
                        continue;
                    }
                    self.trigger_own(id, NO_OBJ, |t| *t == trigger);
                    // Keep only abilities that work from where the object is.
                    self.drop_inactive(id, reserve);
                }
            }
        }
    }

    /// At Night: marks the objects in play whose "... after Rest" abilities trigger now.
    #[inline(never)]
    fn mark_after_rest(&mut self) {
        let db = self.db;
        for side in const { Side::seats::<N>() } {
            // Split borrows: the lists are read, the objects written (no copy of the side).
            let GameState {
                sides,
                objs,
                rest_armed,
                ..
            } = &mut *self.s;
            for id in sides[side].in_play() {
                let o = &mut objs[id as usize];
                if db.card(o.card).trigger_mask & tmask::AFTER_REST != 0 {
                    o.flags |= flag::AFTER_REST;
                    *rest_armed = true;
                }
            }
        }
    }

    /// After Rest: queues the marked abilities (first player's side first), wherever their
    /// cards went at Rest.
    #[inline(never)]
    fn queue_after_rest(&mut self) {
        let first = self.s.first_player();
        for side in self.s.table.sides_from(first) {
            for id in 0..M {
                let id = id as ObjId;
                let o = *self.s.obj(id);
                if o.side != side || !o.has(flag::AFTER_REST) {
                    continue;
                }
                self.s.obj_mut(id).flags &= !flag::AFTER_REST;
                if o.zone == Zone::None {
                    continue;
                }
                self.trigger_own(id, NO_OBJ, |t| *t == Trigger::AfterRest);
            }
        }
    }

    /// Removes just-queued abilities of `id` that do not work in its current zone.
    fn drop_inactive(&mut self, id: ObjId, in_reserve: bool) {
        let mut i = 0;
        while i < self.s.n_pending as usize {
            let p = self.s.pending[i];
            let active = self.db.abilities[p.ability as usize].active;
            let ok = match active {
                ActiveIn::Play => !in_reserve,
                ActiveIn::Reserve => in_reserve,
                ActiveIn::Anywhere => true,
            };
            if p.source == id && !ok {
                let n = self.s.n_pending as usize;
                self.s.pending.copy_within(i + 1..n, i);
                self.s.n_pending -= 1;
            } else {
                i += 1;
            }
        }
    }

    /// A turn ends: that side's "this turn" modifiers expire ("this Afternoon" ones stay
    /// until Dusk).
    fn clear_mods(&mut self, side: Side) {
        let mut i = 0;
        while i < self.s.n_mods as usize {
            // An Afternoon-long modifier lasts until used or until Dusk.
            if self.s.mods[i].side == side && self.s.mods[i].flags & modflag::AFTERNOON == 0 {
                let n = self.s.n_mods as usize;
                self.s.mods.copy_within(i + 1..n, i);
                self.s.n_mods -= 1;
            } else {
                i += 1;
            }
        }
    }

    /// Dusk: work out Overcome for both expeditions, move the advancing ones together, then
    /// check the win (interpretation A4: before Midnight).
    #[inline(never)]
    fn progress(&mut self) {
        // Filled in this frame (no copy of the report out of `evaluate`).
        let mut report = overcome::DuskReport::empty();
        overcome::evaluate_into(self.s, self.db, &mut report);
        if O::ENABLED {
            self.emit(Event::Dusk(&report));
        }
        for e in Exp::BOTH {
            let r = &report.exps[e.index()];
            let bit = match e {
                Exp::Hero => flag::OVERCOME_HERO,
                Exp::Companion => flag::OVERCOME_COMPANION,
            };
            for f in &r.facing {
                if f.overcome {
                    self.s.obj_mut(f.obj).flags |= bit;
                }
            }
            self.s.today.seats[Side::Player].advanced.set(e, r.advanced);
            self.s.today.cleared.set(e, r.cleared);
            self.s
                .today
                .fully_overcome
                .set(e, overcome::fully_overcome(r));
            // A cleared player Defender expedition, or a Confluence Defender facing it
            // now, holds this side's Darkness at tonight's Midnight (D8): judged here,
            // since Rest may send the Confluence's Defender away before Midnight.
            if (r.cleared && r.defender) || self.s.confluence_defender_faces(self.db, e) {
                self.s.today.defended.set(e, true);
            }
        }
        // "No moving forward at Dusk except thanks to X" (Will-o'-the-Wisp) is judged now,
        // with the cards in play at Dusk and the region faced, and holds that Darkness at
        // tonight's Midnight (D16), as a cleared Defender expedition does.
        for e in Exp::BOTH {
            if self.only_due_to_blocks(e) {
                self.s.today.defended.set(e, true);
            }
        }
        for e in Exp::BOTH {
            let r = &report.exps[e.index()];
            if r.advanced {
                self.move_expedition(e, true);
                // "It moves forward one more region instead" (The Magic Sleigh).
                for _ in 0..self.s.dusk_extra_forward(self.db, e) {
                    if self.s.outcome.is_none() && self.step_expedition(e, true) {
                        self.check_caught();
                    }
                }
                if r.due_to != 0 {
                    self.fire(Fire::ExpMovedDue {
                        side: Side::Player,
                        exp: e,
                        due: r.due_to,
                    });
                }
            } else {
                self.fire(Fire::ExpFailed {
                    side: Side::Player,
                    exp: e,
                });
            }
        }
        if self.s.pos[Side::Player].get(Exp::Hero) >= self.s.pos[Side::Player].get(Exp::Companion) {
            self.end(Outcome::WinMet);
            return;
        }
        self.s.phase = Phase::Night;
    }

    /// Applies a choice to the pending decision.
    pub(super) fn apply(&mut self, c: Choice) {
        match self.s.decision {
            Decision::None => debug_assert!(false, "no decision pending"),
            Decision::SetupMana => {
                self.s.decision = Decision::None;
                if let Choice::Card(id) = c {
                    self.put_in_mana(id, true, Why::Setup);
                    self.s.setup_left -= 1;
                }
            }
            Decision::Expand => {
                self.s.decision = Decision::None;
                if let Choice::Card(id) = c {
                    self.put_in_mana(id, true, Why::Expand);
                }
                self.expand_done();
            }
            Decision::Turn => {
                self.s.decision = Decision::None;
                match c {
                    Choice::Pass => {
                        self.pass(self.s.decider);
                        self.s.phase = Phase::TurnEnd;
                    }
                    Choice::Play {
                        obj,
                        from_reserve,
                        exp,
                        alt,
                    } => {
                        self.play_card(obj, from_reserve, exp, None, alt);
                        self.s.phase = Phase::TurnEnd;
                    }
                    Choice::Quick { obj, ability } => self.activate(obj, ability),
                    _ => debug_assert!(false, "bad turn choice {c:?}"),
                }
            }
            Decision::RestOrder => {
                self.s.decision = Decision::None;
                if let Choice::Card(id) = c {
                    self.choose_rest_order(id);
                }
            }
            Decision::May if self.s.depth == 0 && self.s.phase == Phase::Rest => {
                // "You may put me in Mana instead" for a card leaving at Rest.
                self.s.decision = Decision::None;
                if let Some(id) = self.ask_rest_mana() {
                    let o = self.s.obj_mut(id);
                    o.flags |= flag::MANA_ASKED;
                    if c == Choice::Yes {
                        o.flags |= flag::MANA_YES;
                    }
                }
            }
            Decision::May if self.s.depth == 0 && self.s.phase == Phase::Expand => {
                self.s.decision = Decision::None;
                if c == Choice::Yes
                    && let Some(id) = self.take_top(self.s.decider)
                {
                    self.put_in_mana(id, true, Why::Expand);
                }
                self.expand_done();
            }
            Decision::CleanupReserve | Decision::CleanupLandmark => {
                self.s.decision = Decision::None;
                if let Choice::Card(id) = c {
                    self.move_to(id, Zone::Discard, Exp::Hero, Why::Cleanup, false);
                }
            }
            _ => self.apply_in_frame(c),
        }
    }
}
