//! Night: Rest, Clean-up and Midnight, for both sides.

use super::Engine;
use super::event::{Event, Observer, Why};
use super::list::List;
use super::state::*;
use crate::cards::effect::*;
use crate::cards::types::*;

impl<O: Observer> Engine<'_, O> {
    /// Rest: characters go to Reserve (Fleeting ones to the discard pile; tokens cease),
    /// except Asleep and Anchored ones (which stay and lose the status) and Eternal ones.
    /// Confluence characters also stay when Constant, or Persistent and not overcome.
    /// Expedition permanents leave only if the player expedition they belong to (or face)
    /// moved forward today (digest 3.5, A6, A7); a Constant one never leaves.
    pub(super) fn rest(&mut self) {
        for side in [Side::Player, Side::Confluence] {
            for e in Exp::BOTH {
                let list: List<64> = self.s.side(side).exp[e.index()];
                for id in list.iter() {
                    self.rest_one(id, side, e);
                }
            }
        }
        // Overcome marks belong to this Dusk only.
        for o in self.s.objs.iter_mut() {
            o.flags &= !(flag::OVERCOME_HERO | flag::OVERCOME_COMPANION);
        }
    }

    fn rest_one(&mut self, id: ObjId, side: Side, e: Exp) {
        let db = self.db;
        let def = db.card(self.s.obj(id).card);
        let has = |s: &GameState, b| s.has_kw(db, id, b);
        if def.kind == CardKind::ExpeditionPermanent {
            let leaves = self.s.today.moved.get(e)
                && !has(self.s, kw::CONSTANT)
                && (!has(self.s, kw::PERSISTENT) || self.overcome(id));
            if leaves {
                self.leave_for_reserve(id);
            }
            return;
        }
        // Asleep and Anchored each keep the character in play and are lost; with both, both go.
        let o = self.s.obj_mut(id);
        if o.flags & (kw::ASLEEP | kw::ANCHORED) != 0 {
            o.flags &= !(kw::ASLEEP | kw::ANCHORED);
            return;
        }
        if has(self.s, kw::ETERNAL) {
            return;
        }
        if side == Side::Confluence
            && (has(self.s, kw::CONSTANT) || (has(self.s, kw::PERSISTENT) && !self.overcome(id)))
        {
            return;
        }
        self.leave_for_reserve(id);
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

    /// From the Expedition zone to Reserve at Rest (or the discard pile if Fleeting).
    fn leave_for_reserve(&mut self, id: ObjId) {
        let fleeting = self.s.has_kw(self.db, id, kw::FLEETING);
        let e = self.s.obj(id).exp;
        if fleeting {
            self.move_to(id, Zone::Discard, e, Why::Rest, false);
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

    /// Clean-up. The player discards down to the hero's limits by choice (asked one card at
    /// a time); the Confluence discards its leftmost excess Reserve cards and its lowest
    /// Hand Cost excess Landmarks (ties: leftmost, A20). Returns false while waiting.
    pub(super) fn cleanup(&mut self) -> bool {
        let p = self.s.side(Side::Player);
        if p.reserve.len() > p.reserve_limit as usize {
            self.s.decision = Decision::CleanupReserve;
            return false;
        }
        if p.landmarks.len() > p.landmark_limit as usize {
            self.s.decision = Decision::CleanupLandmark;
            return false;
        }
        loop {
            let c = self.s.side(Side::Confluence);
            if c.reserve.len() <= c.reserve_limit as usize {
                break;
            }
            let id = c.reserve.first().expect("over the limit");
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
    pub(super) fn midnight(&mut self) {
        let card = self.s.midnight_card;
        if card != NO_OBJ {
            let icon = self.db.card(self.s.obj(card).card).midnight;
            let e = self
                .s
                .icon_target(self.db, icon, |st, e| st.today.advanced.get(e));
            let blocked = self.s.darkness_blocked(self.db, e) || self.only_due_to_blocks(e);
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
            if self.s.outcome.is_some() {
                return;
            }
            self.move_to(card, Zone::Discard, Exp::Hero, Why::Midnight, false);
        }
        if let Some(top) = self.take_top(Side::Confluence) {
            self.move_to(top, Zone::Midnight, Exp::Hero, Why::Midnight, false);
            if O::ENABLED {
                self.emit(Event::NewMidnightCard { card: top });
            }
        }
    }

    /// Will-o'-the-Wisp: "an expedition facing me in O can't move forward except due to O".
    /// The Darkness on that side may advance only if the player failed to overcome every
    /// O requirement facing that expedition (FAQ "The Confluence's Expedition").
    fn only_due_to_blocks(&self, e: Exp) -> bool {
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
