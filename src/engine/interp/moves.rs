//! Moving objects between zones, expeditions and the Darkness between regions, revealing
//! regions, and resupplying from the deck.

use super::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// The character joins the expedition facing it under the other side's control,
    /// keeping its statuses and boosts; a card becomes borrowed (its owner's zones stay its
    /// destinations) or, defecting back, its owner's again. False when it could not (not in
    /// an expedition, or no room there).
    pub(in crate::engine) fn defect(&mut self, id: ObjId) -> bool {
        let o = *self.s.obj(id);
        if o.zone != Zone::Expedition {
            return false;
        }
        // It joins the expedition facing it: with four seats across its lane.
        let (to, exp) = if N == 2 {
            (o.side.other(), o.exp)
        } else {
            match self.s.facing_of(o.side, o.exp) {
                Some(across) => across,
                None => return false,
            }
        };
        if self.s.side(to).exp[exp.index()].is_full() {
            return false;
        }
        self.s.side_mut(o.side).exp[o.exp.index()].remove_item(id);
        let _ = self.s.side_mut(to).exp[exp.index()].push(id);
        self.hand_over(id, to, exp);
        self.fire(Fire::Joined { obj: id });
        true
    }

    /// Hands `id`, already moved into side `to`'s lists where it stands in `exp`, to that
    /// side (Defect, take control): the sides' static and listener counts follow it, it
    /// gets a new timestamp, and a card becomes borrowed (its owner's zones stay its
    /// destinations) or, going back, its owner's again.
    pub(in crate::engine) fn hand_over(&mut self, id: ObjId, to: Side, exp: Exp) {
        let o = *self.s.obj(id);
        // Four seats: a card may pass from seat to seat; it is borrowed while its
        // controller is not its owner (with two seats, every hand-over toggles that).
        let owner = if N == 2 { to } else { self.s.owner_of(id) };
        if self.db.card(o.card).trigger_mask & tmask::STATIC != 0 {
            self.s.statics[o.side] -= 1;
            self.s.statics[to] += 1;
        }
        self.s.listen[to] |= self.db.card(o.card).fire_mask;
        let ts = self.s.next_ts();
        let ob = self.s.obj_mut(id);
        ob.side = to;
        ob.exp = exp;
        ob.ts = ts;
        if !o.is_token() {
            if N == 2 {
                ob.flags ^= flag::BORROWED;
            } else if to == owner {
                ob.flags &= !flag::BORROWED;
            } else {
                ob.flags |= flag::BORROWED;
            }
        }
        if O::ENABLED {
            self.emit(Event::Moved {
                obj: id,
                side: to,
                from: o.zone,
                to: o.zone,
                why: Why::Effect,
            });
        }
    }

    /// Don Juan's replacement (`static defect_instead(STATUS)`): `id`, about to move from an
    /// expedition into its Reserve (not when Fleeting sends it to the discard pile), gains
    /// the statuses and defects in its place. True when that happened.
    pub(in crate::engine) fn reserve_to_defect(&mut self, id: ObjId) -> bool {
        let o = *self.s.obj(id);
        if o.zone != Zone::Expedition || self.db.card(o.card).trigger_mask & tmask::STATIC == 0 {
            return false;
        }
        let Some(status) = self
            .db
            .abilities_of(o.card)
            .iter()
            .find_map(|ab| match ab.trigger {
                Trigger::Static(Static::DefectInstead(s)) => Some(s),
                _ => None,
            })
        else {
            return false;
        };
        if status != 0 {
            self.gain_status(id, status);
        }
        self.defect(id);
        true
    }

    /// Sends an object somewhere by an effect, with its leave triggers. False when it
    /// could not move (gone, or already there).
    pub(in crate::engine) fn move_obj(&mut self, id: ObjId, dest: Dest) -> bool {
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
        if from_exp && zone == Zone::Reserve && self.reserve_to_defect(id) {
            return true;
        }
        // Sacrifice triggers that read the object as it was in play (last known
        // information): "When you sacrifice a ...", "When I'm sacrificed, if I was ...".
        let mut sacrificed_as = 0u32;
        if dest == Dest::Sacrifice {
            self.fire(Fire::Sacrificed { obj: id });
            let def = self.db.card(o.card);
            let ctx = crate::engine::query::Ctx::of(o.side, id);
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
    pub(in crate::engine) fn move_expedition(&mut self, e: Exp, forward: bool) {
        self.move_expedition_of(Side::Player, e, forward);
    }

    /// Moves one side's expedition (head-to-head: either seat's). Nothing moves in the
    /// Arena (digest 5.18).
    pub(in crate::engine) fn move_expedition_of(&mut self, side: Side, e: Exp, forward: bool) {
        if self.s.arena {
            return;
        }
        if self.step_expedition_of(side, e, forward) && forward {
            self.s.today.seats[side].moved.set(e, true);
            self.fire(Fire::ExpMoved { side, exp: e });
        }
        self.check_caught();
    }

    /// Moves a player expedition one region without "moves forward" triggers (one more
    /// region of the same move). False when it could not move.
    pub(in crate::engine) fn step_expedition(&mut self, e: Exp, forward: bool) -> bool {
        self.step_expedition_of(Side::Player, e, forward)
    }

    pub(in crate::engine) fn step_expedition_of(
        &mut self,
        side: Side,
        e: Exp,
        forward: bool,
    ) -> bool {
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
        if O::ENABLED && (side == Side::Player || self.s.mode.versus()) {
            self.emit(Event::ExpeditionMoved {
                side,
                exp: e,
                from,
                to,
            });
        }
        true
    }

    pub(in crate::engine) fn reveal(&mut self, region: usize) {
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
    pub(in crate::engine) fn move_darkness(&mut self, e: Exp, forward: bool) {
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
    pub(in crate::engine) fn check_caught(&mut self) {
        if self.s.outcome.is_some() || self.s.mode.versus() {
            return;
        }
        if self.s.dark.get(Exp::Hero) >= self.s.pos[Side::Player].get(Exp::Hero) {
            self.end(Outcome::LossHeroDarkness);
        } else if self.s.dark.get(Exp::Companion) <= self.s.pos[Side::Player].get(Exp::Companion) {
            self.end(Outcome::LossCompanionDarkness);
        }
    }

    /// Reveals the top two cards of the player's deck; the player keeps one in Reserve and
    /// discards the other (one card revealed: it goes to Reserve).
    /// `exhausted`: the kept card enters exhausted ("resupply exhausted").
    pub(super) fn exec_resupply_two(&mut self, side: Side, exhausted: bool) -> Flow {
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

    /// Objects moved to a destination (asking first about the Mana replacement).
    pub(super) fn exec_move(&mut self, f: &Frame, obj: ObjRef, dest: Dest) -> Flow {
        let db = self.db;
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

    /// Characters switched to their side's other expedition, where there is room.
    pub(super) fn exec_switch(&mut self, f: &Frame, obj: ObjRef) -> Flow {
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

    /// Characters defecting to the other side.
    pub(super) fn exec_defect(&mut self, f: &Frame, obj: ObjRef) -> Flow {
        for id in self.resolve_objs(obj, f).iter() {
            self.defect(id);
        }
        Flow::Next
    }

    /// Landmarks and expedition permanents taken under the controller's control.
    pub(super) fn exec_take_control(&mut self, f: &Frame, obj: ObjRef) -> Flow {
        let to = f.controller;
        let src = *self.s.obj(f.source);
        for id in self.resolve_objs(obj, f).iter() {
            let o = *self.s.obj(id);
            if o.side == to {
                continue;
            }
            let kind = self.db.card(o.card).kind;
            let exp = match (o.zone, kind) {
                (Zone::Landmarks, _) => {
                    if self.s.side(to).landmarks.is_full() {
                        continue;
                    }
                    self.s.side_mut(o.side).landmarks.remove_item(id);
                    let _ = self.s.side_mut(to).landmarks.push(id);
                    o.exp
                }
                (Zone::Expedition, crate::cards::types::CardKind::ExpeditionPermanent) => {
                    let e = if src.zone == Zone::Expedition && src.side == to {
                        src.exp
                    } else {
                        o.exp
                    };
                    if self.s.side(to).exp[e.index()].is_full() {
                        continue;
                    }
                    self.s.side_mut(o.side).exp[o.exp.index()].remove_item(id);
                    let _ = self.s.side_mut(to).exp[e.index()].push(id);
                    e
                }
                _ => continue,
            };
            self.hand_over(id, to, exp);
            self.fire(Fire::Joined { obj: id });
        }
        Flow::Next
    }

    /// Objects put Nth from the top of their deck.
    pub(super) fn exec_to_deck_at(&mut self, f: &Frame, obj: ObjRef, n: Amount) -> Flow {
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
}
