//! Playing a card, for either side: pay, move, statuses on arrival, and the triggers.

use super::Engine;
use super::choice::Alt;
use super::event::{Event, Observer, Why};
use super::state::*;
use super::triggers::Fire;
use crate::cards::effect::*;
use crate::cards::types::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// Plays `id` from hand or Reserve into expedition `exp` (ignored for Landmarks and
    /// Spells). The cost must have been checked by the caller.
    pub(super) fn play_card(
        &mut self,
        id: ObjId,
        from_reserve: bool,
        exp: Exp,
        placement: Option<(Placement, bool)>,
        alt: Alt,
    ) {
        let o = *self.s.obj(id);
        let side = o.side;
        let def = self.db.card(o.card);
        let kind = def.kind;
        let at = kind.goes_to_expedition().then_some(exp);
        let cost = self.pay_play(id, from_reserve, at, alt);
        let (boosts, statuses, lost, mflags) = self.consume_mods(
            id,
            side,
            kind.goes_to_expedition().then_some(exp),
            from_reserve,
            false,
        );
        // Free by an effect, or by a "next card is free" modifier: its targets'
        // Tough is waived (D10).
        let free = alt == Alt::Free || mflags & modflag::FREE != 0;
        // A modifier may give a card played from hand its {R} reactions.
        let as_reserve = from_reserve || mflags & modflag::ACTIVATE_R != 0;
        let lose_fleeting = mflags & modflag::LOSE_FLEETING != 0
            || (mflags & modflag::LOSE_FLEETING_HAND != 0 && !from_reserve);
        let lost = lost | if lose_fleeting { kw::FLEETING } else { 0 };
        if let Some(slot) = self.s.slot_of(id) {
            self.s.played[side] |= 1u64 << slot;
        }
        self.s.plays[side] += 1;
        let today = &mut self.s.today.plays[side];
        *today = today.saturating_add(1);
        if O::ENABLED {
            self.emit(Event::Play {
                obj: id,
                side,
                from: o.zone,
                exp: kind.goes_to_expedition().then_some(exp),
                cost,
                placement,
            });
        }
        // {H}: played from hand (not from the deck, e.g. a revealed top card).
        let from_hand = o.zone == Zone::Hand;
        let played_trigger = |t: &Trigger| match t {
            Trigger::Played(PlayFrom::Any) => true,
            Trigger::Played(PlayFrom::Hand) => from_hand,
            Trigger::Played(PlayFrom::Reserve) => as_reserve,
            _ => false,
        };
        match kind {
            CardKind::Character | CardKind::ExpeditionPermanent | CardKind::Token => {
                self.move_to(id, Zone::Expedition, exp, Why::Play, false);
                let printed = def.keywords & (kw::ASLEEP | kw::ANCHORED);
                // A printed Asleep/Anchored is a status the object enters with.
                self.s.obj_mut(id).flags |= printed;
                if from_reserve {
                    self.s.obj_mut(id).flags |= flag::FROM_RESERVE;
                }
                if matches!(alt, Alt::Cheaper(_)) {
                    self.s.obj_mut(id).flags |= flag::PAID_LESS;
                }
                // Played from Reserve it gains Fleeting (BGA gives expedition permanents
                // Fleeting too), and statuses from "the next Character you play ... gains":
                // gains that replacements and "when I gain" abilities see; "... loses
                // Fleeting" removes the one from Reserve.
                let gained = (statuses | if from_reserve { kw::FLEETING } else { 0 }) & !lost;
                if gained != 0 {
                    self.gain_status(id, gained);
                }
                let ob = self.s.obj_mut(id);
                ob.flags &= !lost;
                if lost & kw::FLEETING != 0 {
                    ob.flags |= flag::LOST_FLEETING;
                }
                if boosts > 0 && kind.is_character() {
                    self.boost(id, boosts as i16);
                }
                let before = self.s.n_pending;
                if !self.s.silenced(self.db, id) {
                    self.trigger_own(id, NO_OBJ, played_trigger);
                    self.trigger_granted(id, |from| played_trigger(&Trigger::Played(from)));
                }
                self.mark_free(before, free);
                if alt == Alt::Scout {
                    // Scout: the card gains "{H}: send me to Reserve".
                    let ts = self.s.obj(id).ts;
                    self.push_pending(Pending {
                        ability: self.db.scout_ability,
                        source: id,
                        source_ts: ts,
                        controller: side,
                        event_obj: NO_OBJ,
                        free: false,
                    });
                }
                self.fire_played(id, from_reserve);
                // A Character or an Expedition Permanent joins the expedition.
                self.fire(Fire::Joined { obj: id });
            }
            CardKind::Landmark => {
                self.move_to(id, Zone::Landmarks, Exp::Hero, Why::Play, false);
                let before = self.s.n_pending;
                self.trigger_own(id, NO_OBJ, played_trigger);
                self.trigger_granted(id, |from| played_trigger(&Trigger::Played(from)));
                self.mark_free(before, free);
                self.fire_played(id, from_reserve);
                self.fire(Fire::Joined { obj: id });
            }
            CardKind::Spell => {
                self.move_to(id, Zone::Limbo, Exp::Hero, Why::Play, false);
                let ob = self.s.obj_mut(id);
                if from_reserve {
                    ob.flags |= kw::FLEETING | flag::FROM_RESERVE;
                }
                if matches!(alt, Alt::Cheaper(_)) {
                    ob.flags |= flag::PAID_LESS;
                }
                ob.flags &= !lost;
                if lost & kw::FLEETING != 0 {
                    ob.flags |= flag::LOST_FLEETING;
                }
                self.fire_played(id, from_reserve);
                let spell_ability = (0..def.ab_len)
                    .map(|k| def.ab_start + k)
                    .find(|&a| self.db.abilities[a as usize].trigger == Trigger::Spell);
                match spell_ability {
                    Some(a) => {
                        self.begin(a, id, side, NO_OBJ, id);
                        if free && self.s.depth > 0 {
                            let d = self.s.depth as usize;
                            self.s.frames[d - 1].free = true;
                        }
                    }
                    None => self.put_away_spell(id),
                }
            }
            CardKind::Hero | CardKind::LandmarkToken | CardKind::OtherToken => {
                debug_assert!(false, "cannot play a {kind:?}");
            }
        }
        self.note_first_play(id);
    }

    /// Pays for playing `id` (into expedition `at`, for a card that goes to one): the
    /// alternative's own cost (a card of the Reserve exhausted, discarded or sacrificed),
    /// then the mana, its cost by the alternative used. Returns the mana paid.
    #[inline]
    fn pay_play(&mut self, id: ObjId, from_reserve: bool, at: Option<Exp>, alt: Alt) -> u8 {
        let o = *self.s.obj(id);
        let side = o.side;
        let def = self.db.card(o.card);
        // However it is paid, never below an opponent's "can't cost less than N".
        let cost = match alt {
            Alt::None => self.s.play_cost_in(self.db, id, from_reserve, at),
            Alt::Scout => def.scout,
            Alt::Free => 0,
            Alt::Less(n) => self
                .s
                .play_cost(self.db, id, from_reserve)
                .saturating_sub(n),
            Alt::Cheaper(n) => self
                .s
                .play_cost_in(self.db, id, from_reserve, at)
                .saturating_sub(n),
            Alt::HandCost => self.s.play_cost_in(self.db, id, false, at),
            Alt::Discard(_) | Alt::Exhaust(_) | Alt::Sacrifice(_) => {
                let n = self
                    .db
                    .abilities_of(o.card)
                    .iter()
                    .find_map(|ab| match (ab.trigger, alt) {
                        (Trigger::Static(Static::DiscardDiscount(n)), Alt::Discard(_))
                        | (Trigger::Static(Static::ExhaustDiscount(n)), Alt::Exhaust(_))
                        | (Trigger::Static(Static::SacrificeDiscount(n)), Alt::Sacrifice(_)) => {
                            Some(n)
                        }
                        _ => None,
                    })
                    .unwrap_or(0);
                self.s
                    .play_cost_in(self.db, id, from_reserve, at)
                    .saturating_sub(n)
            }
        }
        .max(self.s.cost_floor(self.db, id));
        if let Alt::Exhaust(r) = alt {
            self.s.obj_mut(r).flags |= flag::EXHAUSTED;
            self.fire(Fire::ExhaustedInReserve { side });
        }
        if let Alt::Discard(r) = alt {
            self.move_to(r, Zone::Discard, Exp::Hero, Why::Cost, false);
        }
        if let Alt::Sacrifice(r) = alt {
            self.move_obj(r, Dest::Sacrifice);
        }
        let s = self.s.side_mut(side);
        debug_assert!(s.mana_ready >= cost, "play without mana");
        s.mana_ready -= cost;
        cost
    }

    /// A card played for free waives its targets' Tough (digest 5.6): mark the reactions it
    /// just queued.
    fn mark_free(&mut self, from: u8, free: bool) {
        if free {
            for p in &mut self.s.pending[from as usize..self.s.n_pending as usize] {
                p.free = true;
            }
        }
    }

    /// "When a card is played" events (from Reserve too: `from_reserve` tells).
    fn fire_played(&mut self, id: ObjId, from_reserve: bool) {
        self.fire(Fire::Played {
            card: id,
            from_reserve,
        });
    }

    /// Takes this turn's "the next ... you play" effects that apply to `id`, played into
    /// expedition `exp` (a filter's terrain, as in "in {V}", is that expedition's region);
    /// returns the boosts and statuses it gains, those it loses, and its `modflag` effects
    /// (an {R} activation for a card played from hand is not taken by one played from
    /// Reserve). A modifier for one expedition (`modplace`) is taken only by a card going
    /// there; a `token` just created takes only the modifiers for characters that join.
    pub(super) fn consume_mods(
        &mut self,
        id: ObjId,
        side: Side,
        exp: Option<Exp>,
        from_reserve: bool,
        token: bool,
    ) -> (i8, u32, u32, u8) {
        let mut boosts = 0;
        let mut statuses = 0;
        let mut lost = 0;
        let mut flags = 0;
        let mut i = 0;
        while i < self.s.n_mods as usize {
            let m = self.s.mods[i];
            let f = self.db.filter(m.filter);
            let terrain_ok = f.region_terrain == 0
                || exp.is_some_and(|e| {
                    self.s.region_terrains(self.db, self.s.region_of(side, e)) & f.region_terrain
                        != 0
                });
            let exps = m.place & (modplace::HERO | modplace::COMPANION);
            let place_ok = exps == 0
                || exp.is_some_and(|e| {
                    exps & match e {
                        Exp::Hero => modplace::HERO,
                        Exp::Companion => modplace::COMPANION,
                    } != 0
                });
            if m.side == side
                && terrain_ok
                && place_ok
                && (!token || m.place & modplace::JOINS != 0)
                && !(m.flags & modflag::ACTIVATE_R != 0 && from_reserve)
                && self.s.matches_card(self.db, f, id, side)
            {
                boosts += m.boosts;
                if m.flags & modflag::LOSE_STATUS != 0 {
                    lost |= m.status;
                } else {
                    statuses |= m.status;
                }
                flags |= m.flags;
                let n = self.s.n_mods as usize;
                self.s.mods.copy_within(i + 1..n, i);
                self.s.n_mods -= 1;
            } else {
                i += 1;
            }
        }
        (boosts, statuses, lost, flags)
    }

    /// Activates a quick action (or a support ability) of `id`: pays, then resolves.
    pub(super) fn activate(&mut self, id: ObjId, k: u8) {
        let o = *self.s.obj(id);
        let def = self.db.card(o.card);
        let ab_idx = def.ab_start + k as u16;
        let ab = self.db.abilities[ab_idx as usize];
        let cost = match ab.trigger {
            Trigger::Quick(c) | Trigger::Support(c) => c,
            _ => {
                debug_assert!(false, "not a quick action");
                return;
            }
        };
        self.s.today.quick_uses = self.s.today.quick_uses.saturating_add(1);
        if O::ENABLED {
            self.emit(Event::Quick {
                obj: id,
                side: o.side,
                ability: k,
            });
        }
        self.pay_simple(o.side, id, &cost);
        self.begin(ab_idx, id, o.side, NO_OBJ, NO_OBJ);
    }
}
