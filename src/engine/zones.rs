//! Moving objects between zones: the only code that edits zone lists.

use super::Engine;
use super::event::{Event, Observer, Why};
use super::state::*;
use crate::cards::effect::{CardIdx, EventKind, Trigger, tmask};
use crate::cards::types::{Exp, Side};

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// Takes an object out of its zone list (it stays "in" its zone field until placed).
    pub(super) fn detach(&mut self, id: ObjId) {
        let o = *self.s.obj(id);
        self.detach_known(id, o);
    }

    /// [`Self::detach`] for a caller that has read the object `o` already.
    #[inline]
    fn detach_known(&mut self, id: ObjId, o: Obj) {
        if let Some(l) = self.s.zone_list_mut(o.side, o.zone, o.exp) {
            l.remove_item(id);
        }
        match o.zone {
            Zone::Midnight => self.s.midnight_card = NO_OBJ,
            Zone::Mana => {
                let s = self.s.side_mut(o.side);
                s.mana_ready = s.mana_ready.min(s.mana.len() as u8);
            }
            _ => {}
        }
    }

    /// `controller` takes a card of the other side's Reserve to play it (Brainwash): it
    /// leaves its owner's Reserve for Limbo, borrowed, and is then played as the
    /// controller's.
    pub(super) fn take_control(&mut self, id: ObjId, controller: Side) {
        let o = *self.s.obj(id);
        if o.side == controller {
            return;
        }
        self.detach(id);
        let ob = self.s.obj_mut(id);
        ob.side = controller;
        ob.flags ^= flag::BORROWED;
        ob.zone = Zone::Limbo;
        if o.zone == Zone::Reserve {
            self.fire(super::triggers::Fire::ReserveLeft { side: o.side });
        }
    }

    /// Moves an object to one of its owner's zones (cards always go to their owner's
    /// zones). Leaving the Expedition or Landmark zone loses boosts and counters (a
    /// Seasoned character keeps its boosts on the way to Reserve); a token that leaves the
    /// Expedition zone ceases to exist. The moved card is a new object: new timestamp, no
    /// statuses. `top` puts it on top of a deck or at the top of the Confluence's hand.
    pub(super) fn move_to(&mut self, id: ObjId, to: Zone, exp: Exp, why: Why, top: bool) {
        let before = *self.s.obj(id);
        self.detach_known(id, before);
        // What the seats listen to, for the events below (a move adds no listener).
        let listening = self.listening();
        let leaving_play = matches!(before.zone, Zone::Expedition | Zone::Landmarks);
        let seasoned = leaving_play && self.s.has_kw(self.db, id, flag::SEASONED);
        if leaving_play {
            // What "when I leave ..." abilities know about the card that left.
            let kw = self.s.kw_bits(self.db, id);
            let o = self.s.obj_mut(id);
            o.left_boosts = before.boosts;
            o.left_kw = (kw & 0xFF) as u8;
        }
        let in_play = |z: Zone| matches!(z, Zone::Expedition | Zone::Landmarks | Zone::HeroZone);
        if self.db.card(before.card).trigger_mask & tmask::STATIC != 0
            && in_play(before.zone) != in_play(to)
        {
            let n = &mut self.s.statics[before.side];
            if in_play(to) {
                *n += 1;
            } else {
                *n -= 1;
            }
        }
        if before.zone == Zone::Expedition && to != Zone::Expedition {
            // For `when leaves(FILTER)`: every way out, tokens included.
            self.fire_if(
                listening,
                super::triggers::Fire::LeftExpedition {
                    obj: id,
                    token: before.is_token(),
                },
            );
        }
        // A token that leaves play (its Expedition or Landmark zone) ceases to exist.
        if before.is_token()
            && matches!(before.zone, Zone::Expedition | Zone::Landmarks)
            && to != before.zone
        {
            let o = self.s.obj_mut(id);
            o.zone = Zone::None;
            o.flags = 0;
            if O::ENABLED {
                self.emit(Event::TokenGone { obj: id });
            }
            return;
        }
        let ts = self.s.next_ts();
        let owner = self.s.owner_of(id);
        let versus = self.s.mode.versus();
        let o = self.s.obj_mut(id);
        // A borrowed card that leaves play goes to its owner's zone, whichever personal zone
        // it is sent to (the reminder text of Defect and Brainwash).
        if o.flags & flag::BORROWED != 0
            && !matches!(to, Zone::Expedition | Zone::Landmarks | Zone::Limbo)
        {
            o.side = owner;
            o.flags &= !flag::BORROWED;
        }
        o.flags &= !flag::ZONE_LOCAL;
        if leaving_play {
            o.counters = 0;
            if !(seasoned && to == Zone::Reserve) {
                o.boosts = 0;
            }
        }
        o.tough = 0;
        // Cards in hidden zones are not objects (S2 2.1.g): nothing stays on them.
        if matches!(to, Zone::Deck | Zone::Hand | Zone::Mana) {
            o.boosts = 0;
            o.counters = 0;
        }
        o.zone = to;
        o.exp = exp;
        o.ts = ts;
        // What the player can see: visible zones, and their own hand.
        let side = o.side;
        match to {
            Zone::Reserve
            | Zone::Landmarks
            | Zone::Expedition
            | Zone::Discard
            | Zone::Midnight
            | Zone::Limbo => o.flags |= flag::KNOWN,
            // Solo, the player's own hand (head to head a hand is its owner's alone).
            Zone::Hand if side == Side::Player && !versus => o.flags |= flag::KNOWN,
            Zone::Deck => o.flags &= !flag::KNOWN,
            _ => {}
        }
        match to {
            Zone::Midnight => self.s.midnight_card = id,
            Zone::Limbo | Zone::None | Zone::HeroZone => {}
            _ => {
                let list = self
                    .s
                    .zone_list_mut(side, to, exp)
                    .expect("card zones have lists");
                // The Confluence's hand top and a deck's bottom are the front of their lists.
                let at_front = (top && to == Zone::Hand) || (!top && to == Zone::Deck);
                let ok = if at_front {
                    list.insert(0, id)
                } else {
                    list.push(id)
                };
                debug_assert!(ok, "zone {to:?} full");
            }
        }
        if O::ENABLED {
            self.emit(Event::Moved {
                obj: id,
                side,
                from: before.zone,
                to,
                why,
            });
        }
        // "When a card leaves your Reserve": every way out (play, costs, Sabotage, Clean-up).
        if before.zone == Zone::Reserve {
            self.fire_if(listening, super::triggers::Fire::ReserveLeft { side });
        }
        // "When I go to Reserve from anywhere".
        if to == Zone::Reserve && self.db.card(before.card).trigger_mask & tmask::WHEN != 0 {
            self.trigger_own(id, NO_OBJ, |t| {
                matches!(t, Trigger::When(EventKind::ToReserveAny))
            });
        }
        // For `when leave_landmarks`: every way out.
        if before.zone == Zone::Landmarks && to != Zone::Landmarks {
            self.trigger_own(id, NO_OBJ, |t| {
                matches!(
                    t,
                    crate::cards::effect::Trigger::When(
                        crate::cards::effect::EventKind::LeaveLandmarks
                    )
                )
            });
        }
        // Trigger for a card entering Reserve out of your deck or hand (Resupply, effects, costs).
        if to == Zone::Reserve && matches!(before.zone, Zone::Deck | Zone::Hand) {
            self.fire_if(listening, super::triggers::Fire::CardToReserve { side });
        }
        if to == Zone::Discard {
            self.fire_if(listening, super::triggers::Fire::Discarded { obj: id });
        }
    }

    /// Puts a card into its owner's Mana zone as an orb, ready or exhausted.
    pub(super) fn put_in_mana(&mut self, id: ObjId, ready: bool, why: Why) {
        let side = self.s.obj(id).side;
        let from = self.s.obj(id).zone;
        // The orb keeps `exp`: the expedition a card that left play was in.
        let exp = self.s.obj(id).exp;
        self.move_to(id, Zone::Mana, exp, why, false);
        // Face down: from the deck it is unseen; a revealed card stays known.
        if from == Zone::Deck
            || (from == Zone::Hand && why == Why::Setup && side == Side::Confluence)
        {
            self.s.obj_mut(id).flags &= !flag::KNOWN;
        }
        if ready {
            self.s.side_mut(side).mana_ready += 1;
        }
    }

    /// Shuffles the discard pile into an empty deck. False when there is nothing to shuffle.
    pub(super) fn refill(&mut self, side: Side) -> bool {
        let n = self.s.side(side).discard.len();
        if n == 0 {
            return false;
        }
        let s = self.s.side_mut(side);
        let mut ids = s.discard;
        s.discard.clear();
        super::shuffle::shuffle(ids.as_mut_slice(), self.rng);
        for id in ids.iter() {
            let ts = self.s.next_ts();
            let o = self.s.obj_mut(id);
            o.zone = Zone::Deck;
            o.flags &= !(flag::ZONE_LOCAL | flag::KNOWN);
            o.boosts = 0;
            o.counters = 0;
            o.ts = ts;
            let ok = self.s.side_mut(side).deck.push(id);
            debug_assert!(ok);
        }
        if O::ENABLED {
            self.emit(Event::Refill { cards: n as u8 });
        }
        true
    }

    /// Takes the top card of a deck, refilling from the discard pile when empty. When the
    /// Confluence cannot, it loses (FAQ "The Confluence's Deck").
    pub(super) fn take_top(&mut self, side: Side) -> Option<ObjId> {
        if self.s.side(side).deck.is_empty() && !self.refill(side) {
            // The Confluence running out is the player's win (S0); a player with no card
            // left draws nothing (digest §2, head-to-head).
            if self.s.scripted(side) && self.s.outcome.is_none() {
                self.end(Outcome::WinDeckOut);
            }
            return None;
        }
        self.s.side(side).deck.last()
    }

    /// Draws `n` cards. The Confluence's draws go to the bottom of its hand, in order.
    pub(super) fn draw(&mut self, side: Side, n: u8) {
        for _ in 0..n {
            let Some(id) = self.take_top(side) else {
                return;
            };
            self.move_to(id, Zone::Hand, Exp::Hero, Why::Draw, false);
            // Solo, the Confluence's drawn cards are face down again; head to head a card
            // revealed on top of a deck stays known to every seat once drawn.
            if side == Side::Confluence && !self.s.mode.versus() {
                self.s.obj_mut(id).flags &= !flag::KNOWN;
            }
        }
    }

    /// Resupply: the top card of the deck into Reserve (refilling an empty deck first).
    /// Exhausted Resupply puts it there, then exhausts it: the resupplying side exhausts a
    /// card in Reserve (D20).
    pub(super) fn resupply(&mut self, side: Side, exhausted: bool) -> Option<ObjId> {
        if self.s.side(side).deck.is_empty() && !self.refill(side) {
            return None;
        }
        let id = self.s.side(side).deck.last().expect("refilled");
        self.move_to(id, Zone::Reserve, Exp::Hero, Why::Resupply, false);
        if exhausted {
            self.s.obj_mut(id).flags |= flag::EXHAUSTED;
            self.fire(super::triggers::Fire::ExhaustedInReserve { side });
        }
        Some(id)
    }

    /// Creates a token character in an expedition. None when no slot or room is left.
    pub(super) fn create_token(&mut self, side: Side, card: CardIdx, exp: Exp) -> Option<ObjId> {
        let slot = (GameState::<N, M>::TOKEN_BASE..M)
            .find(|&i| self.s.objs[i].zone == Zone::None)? as ObjId;
        if self.s.side(side).exp[exp.index()].is_full() {
            return None;
        }
        let ts = self.s.next_ts();
        *self.s.obj_mut(slot) = Obj {
            card,
            flags: flag::TOKEN | flag::KNOWN,
            ts,
            zone: Zone::Expedition,
            side,
            exp,
            boosts: 0,
            counters: 0,
            tough: 0,
            left_boosts: 0,
            left_kw: 0,
        };
        let ok = self.s.side_mut(side).exp[exp.index()].push(slot);
        debug_assert!(ok);
        if self.db.card(card).trigger_mask & tmask::STATIC != 0 {
            self.s.statics[side] += 1;
        }
        self.s.listen[side] |= self.db.card(card).fire_mask;
        if O::ENABLED {
            self.emit(Event::Token {
                obj: slot,
                side,
                exp,
            });
        }
        Some(slot)
    }

    /// Creates a Permanent token in a side's Landmarks. None when no slot or room is left.
    pub(super) fn create_landmark_token(&mut self, side: Side, card: CardIdx) -> Option<ObjId> {
        let slot = (GameState::<N, M>::TOKEN_BASE..M)
            .find(|&i| self.s.objs[i].zone == Zone::None)? as ObjId;
        if self.s.side(side).landmarks.is_full() {
            return None;
        }
        let ts = self.s.next_ts();
        *self.s.obj_mut(slot) = Obj {
            card,
            flags: flag::TOKEN | flag::KNOWN,
            ts,
            zone: Zone::Landmarks,
            side,
            exp: Exp::Hero,
            boosts: 0,
            counters: 0,
            tough: 0,
            left_boosts: 0,
            left_kw: 0,
        };
        let ok = self.s.side_mut(side).landmarks.push(slot);
        debug_assert!(ok);
        if self.db.card(card).trigger_mask & tmask::STATIC != 0 {
            self.s.statics[side] += 1;
        }
        self.s.listen[side] |= self.db.card(card).fire_mask;
        if O::ENABLED {
            self.emit(Event::LandmarkToken { obj: slot, side });
        }
        Some(slot)
    }

    pub(super) fn end(&mut self, o: Outcome) {
        if self.s.outcome.is_some() {
            return;
        }
        // The phase stays where the game ended (the log reports it).
        self.s.outcome = Some(o);
        self.s.decision = Decision::None;
        self.s.depth = 0;
        self.s.n_pending = 0;
    }
}
