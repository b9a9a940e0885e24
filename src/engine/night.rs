//! Night: Rest, Clean-up and Midnight, for both sides.

use super::Engine;
use super::event::{Event, Observer, Why};
use super::list::List;
use super::state::*;
use super::triggers::Fire;
use crate::cards::effect::*;
use crate::cards::types::*;

/// What Rest does to a card in an expedition.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Fate {
    Stay,
    /// Stays, losing Asleep and Anchored.
    LoseStatus,
    /// Goes to its side's Reserve (its place there may be the player's choice).
    Reserve,
    /// Leaves play another way: a Fleeting card to the discard pile, a token ceases.
    Leave,
}

/// This side's cards still waiting for their place in the Rest order.
pub(super) fn rest_waiting<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    side: Side,
) -> List<32> {
    let mut out = List::new();
    for e in Exp::BOTH {
        for id in s.side(side).exp[e.index()].iter() {
            if s.obj(id).has(flag::RESTING) && !out.is_full() {
                let _ = out.push(id);
            }
        }
    }
    out
}

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// Rest: characters go to Reserve (Fleeting ones to the discard pile; tokens cease),
    /// except Asleep and Anchored ones (which stay and lose the status) and Eternal ones.
    /// Confluence characters also stay when Constant, or Persistent and not overcome.
    /// Expedition permanents leave only if the player expedition they belong to (or face)
    /// moved forward today (digest 3.5, A6, A7); a Constant one never leaves.
    ///
    /// The moves are simultaneous: every fate is read before anything moves (a status one
    /// card grants another still counts), and when two or more cards of one side go to its
    /// Reserve the player chooses the order they enter it (S0, Silver Rule), one card at a
    /// time, the player's side first. Returns false while waiting for that choice.
    #[inline(never)]
    pub(super) fn rest(&mut self) -> bool {
        // "You may put me in Mana instead": asked for each leaving card before anything
        // moves (the answer decides whether it is Reserve-bound).
        if !self.s.rest_asked
            && let Some(id) = self.ask_rest_mana()
        {
            let side = self.s.obj(id).side;
            self.ask(Decision::May, side);
            return false;
        }
        if !self.s.rest_asked {
            self.s.rest_asked = true;
            self.s.rest_order.clear();
            for side in const { Side::seats::<N>() } {
                let bound = self.reserve_bound(side);
                if bound.len() >= 2 {
                    for id in bound.iter() {
                        self.s.obj_mut(id).flags |= flag::RESTING;
                    }
                }
            }
        }
        if self.ask_rest_order() {
            return false;
        }
        // Every object in an expedition fits: there are MAX_OBJS of them at most.
        let mut fates: List<M> = List::new();
        let mut kinds = [Fate::Stay; M];
        // The seats' cards leave together; they take their new timestamps (the Silver
        // Rule's order of every later list of candidates) seat by seat in initiative order,
        // clockwise from the first player, in every mode (RULES.md F8): solo, the
        // Confluence's cards first on the days it is first player (the Hero expedition
        // Threatened, S0).
        let first = self.s.first_player().seat() as usize;
        for k in 0..N {
            let side = Side::ALL[(first + k) % N];
            for e in Exp::BOTH {
                for id in self.s.side(side).exp[e.index()].iter() {
                    if !fates.is_full() {
                        kinds[fates.len()] = self.rest_fate(id, side, e);
                        let _ = fates.push(id);
                    }
                }
            }
        }
        // The ordered cards take the places of their side's Reserve-bound cards, in order.
        let order = self.s.rest_order;
        let mut next = [0usize; N];
        for (k, id) in fates.iter().enumerate() {
            let side = self.s.obj(id).side;
            let ordered =
                kinds[k] == Fate::Reserve && order.iter().any(|x| self.s.obj(x).side == side);
            let id = if ordered {
                let pick = order
                    .iter()
                    .filter(|&x| self.s.obj(x).side == side)
                    .nth(next[side.index()])
                    // Past the ordered cards (more than a List holds), the fixed order.
                    .unwrap_or(id);
                next[side.index()] += 1;
                pick
            } else {
                id
            };
            match kinds[k] {
                Fate::Stay => {}
                Fate::LoseStatus => {
                    self.s.obj_mut(id).flags &= !(kw::ASLEEP | kw::ANCHORED);
                }
                Fate::Reserve | Fate::Leave => self.leave_for_reserve(id),
            }
        }
        self.s.rest_asked = false;
        self.s.rest_order.clear();
        // Ascend lasts until Rest (digest §5.15), every seat's: Rest itself still sees it
        // (Eternal granted while the Expedition is Ascended keeps its card), nothing after
        // it does. (Before, head to head, seat 1's Ascend lasted until the next Morning.)
        for seat in self.s.today.seats.0.iter_mut() {
            seat.ascend = ByExp([false, false]);
        }
        self.create_after_rest_tokens();
        // Overcome marks belong to this Dusk only. Dusk marks objects in the Expedition
        // zone, and every way out of it (`move_to`) clears them: the expeditions' lists
        // (every seat's, a defector's too) hold every object that can still carry one.
        let GameState { sides, objs, .. } = &mut *self.s;
        for st in sides.iter() {
            for id in st.exp[0].iter().chain(st.exp[1].iter()) {
                objs[id as usize].flags &= !(flag::OVERCOME_HERO | flag::OVERCOME_COMPANION);
            }
        }
        true
    }

    /// The next player card leaving at this Rest whose "you may put me in Mana instead" is
    /// not answered yet.
    pub(super) fn ask_rest_mana(&self) -> Option<ObjId> {
        for side in const { Side::seats::<N>() } {
            if self.s.scripted(side) {
                continue;
            }
            for e in Exp::BOTH {
                for id in self.s.side(side).exp[e.index()].iter() {
                    if self.s.must_ask_mana(self.db, id)
                        && matches!(self.rest_fate(id, side, e), Fate::Reserve | Fate::Leave)
                    {
                        return Some(id);
                    }
                }
            }
        }
        None
    }

    /// Creates the tokens effects asked for "after Rest" (Thoth), once Rest is done.
    fn create_after_rest_tokens(&mut self) {
        let waiting = self.s.today.after_rest;
        self.s.today.after_rest = Default::default();
        for (card, meta) in waiting {
            let n = meta & 0xF;
            let e = if meta & 0x10 == 0 {
                Exp::Hero
            } else {
                Exp::Companion
            };
            // Two bits of seat (four seats); with two seats the second is never set.
            let side = Side::of_seat((meta >> 5) & 3);
            for _ in 0..n {
                if let Some(t) = self.create_token(side, card, e) {
                    self.fire(Fire::Joined { obj: t });
                    self.fire(Fire::TokenCreated { side, obj: t });
                }
            }
        }
    }

    /// Asks for the next card of the Rest order while two or more of a side's cards await
    /// their place; a side's last one takes the last place. True while a decision is pending.
    fn ask_rest_order(&mut self) -> bool {
        for side in const { Side::seats::<N>() } {
            let waiting = rest_waiting(self.s, side);
            match waiting.len() {
                0 => {}
                1 => {
                    let id = waiting.first().expect("one waiting");
                    self.s.obj_mut(id).flags &= !flag::RESTING;
                    let _ = self.s.rest_order.push(id);
                }
                _ => {
                    self.ask(Decision::RestOrder, side);
                    return true;
                }
            }
        }
        false
    }

    /// The player chose the next card to enter its Reserve at Rest.
    pub(super) fn choose_rest_order(&mut self, id: ObjId) {
        self.s.obj_mut(id).flags &= !flag::RESTING;
        // Two sides of at most 32 marked cards each: the list never overflows.
        let _ = self.s.rest_order.push(id);
    }

    /// This side's cards that go to its Reserve at this Rest (not Fleeting ones, not tokens).
    fn reserve_bound(&self, side: Side) -> List<32> {
        let mut out = List::new();
        for e in Exp::BOTH {
            for id in self.s.side(side).exp[e.index()].iter() {
                if self.rest_fate(id, side, e) == Fate::Reserve && !out.is_full() {
                    let _ = out.push(id);
                }
            }
        }
        out
    }

    /// What Rest does to one card in an expedition (read before anything moves).
    fn rest_fate(&self, id: ObjId, side: Side, e: Exp) -> Fate {
        let db = self.db;
        let s = &*self.s;
        let def = db.card(s.obj(id).card);
        let reserve_or_gone = || {
            if s.has_kw(db, id, kw::FLEETING) || s.obj(id).is_token() {
                Fate::Leave
            } else {
                Fate::Reserve
            }
        };
        // "If I would leave the Expedition zone, put me in Mana instead": not Reserve-bound.
        let leave = || {
            if s.leave_to_mana(db, id) {
                Fate::Leave
            } else {
                reserve_or_gone()
            }
        };
        if def.kind == CardKind::ExpeditionPermanent {
            // Head to head and in Free for All, its own expedition's (RULES.md F9: seats 2
            // and 3 once read seat 0's); the Confluence's reads the player expedition it
            // faces.
            let moved = if s.mode.versus() {
                s.today.seats[side].moved.get(e)
            } else {
                s.today.seats[Side::Player].moved.get(e)
            };
            let leaves = moved
                && !s.has_kw(db, id, kw::CONSTANT)
                && (!s.has_kw(db, id, kw::PERSISTENT) || self.overcome(id));
            return if leaves { leave() } else { Fate::Stay };
        }
        // Asleep and Anchored, printed or granted, each keep the character in play and are
        // lost (a granted one lasts as long as what grants it); with both, both go.
        if s.has_kw(db, id, kw::ASLEEP | kw::ANCHORED) {
            return Fate::LoseStatus;
        }
        if s.has_kw(db, id, kw::ETERNAL) {
            return Fate::Stay;
        }
        if s.scripted(side)
            && (s.has_kw(db, id, kw::CONSTANT)
                || (s.has_kw(db, id, kw::PERSISTENT) && !self.overcome(id)))
        {
            return Fate::Stay;
        }
        leave()
    }

    /// Overcome at this Dusk: on its side, or on both sides for a Gigantic one.
    fn overcome(&self, id: ObjId) -> bool {
        let o = self.s.obj(id);
        if self.s.has_kw(self.db, id, kw::GIGANTIC) {
            o.has(flag::OVERCOME_HERO) && o.has(flag::OVERCOME_COMPANION)
        } else {
            o.has(match o.exp {
                Exp::Hero => flag::OVERCOME_HERO,
                Exp::Companion => flag::OVERCOME_COMPANION,
            })
        }
    }

    /// From the Expedition zone to Reserve at Rest (or the discard pile if Fleeting, or
    /// the Mana zone by a replacement).
    fn leave_for_reserve(&mut self, id: ObjId) {
        let fleeting = self.s.has_kw(self.db, id, kw::FLEETING);
        let e = self.s.obj(id).exp;
        if self.s.leave_to_mana(self.db, id) {
            self.put_in_mana(id, false, Why::Rest);
            self.trigger_own(id, NO_OBJ, |t| {
                matches!(t, Trigger::When(EventKind::LeaveExpedition))
            });
            return;
        }
        if fleeting {
            self.move_to(id, Zone::Discard, e, Why::Rest, false);
        } else if self.reserve_to_defect(id) {
            // "... I gain Fleeting and defect instead": it stays in the Expedition zone.
            return;
        } else {
            self.move_to(id, Zone::Reserve, e, Why::Rest, false);
        }
        self.trigger_own(id, NO_OBJ, |t| {
            matches!(t, Trigger::When(EventKind::LeaveExpedition))
        });
        if !fleeting && self.s.obj(id).zone == Zone::Reserve {
            self.trigger_own(id, NO_OBJ, |t| {
                matches!(
                    t,
                    Trigger::When(EventKind::ToReserve {
                        from_expedition: true
                    })
                )
            });
        }
    }

    /// "All Reserve limits are changed by N": statics of objects in play, and support
    /// statics of ready cards in Reserve (exhausted cards have no support abilities).
    fn reserve_limit_change(&self) -> i16 {
        let (s, db) = (&*self.s, self.db);
        let mut delta = 0i16;
        for side in const { Side::seats::<N>() } {
            let st = s.side(side);
            let in_play = st.exp[0]
                .iter()
                .chain(st.exp[1].iter())
                .chain(st.landmarks.iter());
            let in_reserve = st
                .reserve
                .iter()
                .filter(|&id| !s.obj(id).has(flag::EXHAUSTED));
            for (id, active) in in_play
                .map(|id| (id, ActiveIn::Play))
                .chain(in_reserve.map(|id| (id, ActiveIn::Reserve)))
            {
                let card = s.obj(id).card;
                if db.card(card).trigger_mask & tmask::STATIC == 0 {
                    continue;
                }
                for ab in db.abilities_of(card) {
                    if let Trigger::Static(Static::ReserveLimit(d)) = ab.trigger
                        && ab.active == active
                    {
                        delta += d as i16;
                    }
                }
            }
        }
        delta
    }

    /// Clean-up. The player discards down to the hero's limits by choice (asked one card at
    /// a time); the Confluence discards its leftmost excess Reserve cards and its lowest
    /// Hand Cost excess Landmarks (ties: leftmost, A20). Returns false while waiting.
    #[inline(never)]
    pub(super) fn cleanup(&mut self) -> bool {
        let delta = self.reserve_limit_change();
        // The players discard by choice, the first player first (digest §2); the
        // Confluence by its rule.
        let first = self.s.first_player();
        for side in self.s.table.sides_from(first) {
            if self.s.scripted(side) {
                continue;
            }
            let p = self.s.side(side);
            if self.s.reserve_over_limit(self.db, side, delta) {
                self.ask(Decision::CleanupReserve, side);
                return false;
            }
            if p.landmarks.len() > p.landmark_limit as usize {
                self.ask(Decision::CleanupLandmark, side);
                return false;
            }
        }
        if self.s.mode.versus() {
            return true;
        }
        loop {
            if !self.s.reserve_over_limit(self.db, Side::Confluence, delta) {
                break;
            }
            let c = self.s.side(Side::Confluence);
            let Some(id) = c.reserve.first() else { break };
            self.move_to(id, Zone::Discard, Exp::Hero, Why::Cleanup, false);
        }
        loop {
            let c = self.s.side(Side::Confluence);
            if c.landmarks.len() <= c.landmark_limit as usize {
                break;
            }
            let db = self.db;
            let s = &*self.s;
            let id = c
                .landmarks
                .iter()
                .min_by_key(|&id| (db.card(s.obj(id).card).hand_cost, s.obj(id).ts))
                .expect("over the limit");
            self.move_to(id, Zone::Discard, Exp::Hero, Why::Cleanup, false);
        }
        true
    }

    /// Midnight: the previous Midnight card advances the Darkness it indicates (none on
    /// the first night), goes to the discard pile, and the top card of the Confluence deck
    /// becomes the new Midnight card.
    #[inline(never)]
    pub(super) fn midnight(&mut self) {
        let card = self.s.midnight_card;
        if card != NO_OBJ {
            let icon = self.db.card(self.s.obj(card).card).midnight;
            let e = self.s.icon_target(self.db, icon, |st, e| {
                st.today.seats[Side::Player].advanced.get(e)
            });
            let blocked = self.s.darkness_blocked(self.db, e) || self.s.darkness_defended(e);
            let before = self.s.dark.0;
            if !blocked {
                self.move_darkness(e, true);
            }
            if O::ENABLED {
                let after = self.s.dark.0;
                self.emit(Event::Midnight {
                    card,
                    indication: icon,
                    side: Some(e),
                    blocked,
                    before,
                    after,
                });
            }
            // The card goes to the discard pile whether or not the Darkness caught an
            // expedition (S0 "Midnight").
            self.move_to(card, Zone::Discard, Exp::Hero, Why::Midnight, false);
            if self.s.outcome.is_some() {
                return;
            }
        }
        if let Some(top) = self.take_top(Side::Confluence) {
            self.move_to(top, Zone::Midnight, Exp::Hero, Why::Midnight, false);
            if O::ENABLED {
                self.emit(Event::NewMidnightCard { card: top });
            }
        }
    }

    /// "... after Rest": queues the `after_rest` abilities that `delay_rest` armed, the side
    /// with initiative first.
    #[inline(never)]
    pub(super) fn queue_delayed_rest(&mut self) {
        let first = self.s.initiative();
        for side in self.s.table.sides_from(first) {
            for i in 0..M {
                let o = self.s.objs[i];
                if o.side == side && o.has(flag::DELAY_REST) {
                    self.s.objs[i].flags &= !flag::DELAY_REST;
                    self.trigger_own(i as ObjId, NO_OBJ, |t| *t == Trigger::Delayed);
                }
            }
        }
    }

    /// Will-o'-the-Wisp: "an expedition facing me in O can't move forward except due to O".
    /// The Darkness on that side may advance only if the player failed to overcome every
    /// O requirement facing that expedition (FAQ "The Confluence's Expedition").
    pub(super) fn only_due_to_blocks(&self, e: Exp) -> bool {
        // Only a static ability of the player's in play can: none, no walk.
        if self.s.statics[Side::Player] == 0 {
            return false;
        }
        let db = self.db;
        let region_t = self.s.region_terrains(db, self.s.region(e));
        let overcome = self.s.today.fully_overcome.get(e);
        self.s.side(Side::Player).exp.iter().flat_map(|l| l.iter()).any(|id| {
            let o = self.s.obj(id);
            if !self.s.counts_in(db, id, e) || db.card(o.card).trigger_mask & tmask::STATIC == 0 {
                return false;
            }
            db.abilities_of(o.card).iter().any(|ab| {
                matches!(ab.trigger, Trigger::Static(Static::DarknessOnlyDueTo(t)) if region_t & t != 0 && overcome & t != 0)
            })
        })
    }
}
