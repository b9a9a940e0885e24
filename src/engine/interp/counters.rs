//! Boosts, statuses and counters: adding and removing them, and Augment.

use super::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// Adds (or removes) boosts on a character in play, or on a card in Reserve (support
    /// abilities; a card leaving the Reserve keeps its counters, digest 5.5).
    pub(in crate::engine) fn boost(&mut self, id: ObjId, n: i16) {
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
    pub(in crate::engine) fn gain_status(&mut self, id: ObjId, status: u32) {
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
    /// Gains (or, negative, loses) named counters.
    pub(super) fn add_counters(&mut self, id: ObjId, n: i16) {
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
        for side in const { Side::seats::<N>() } {
            if self.s.statics[side] == 0 {
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
    pub(super) fn augment(&mut self, id: ObjId) {
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
    pub(super) fn exec_augment_any(&mut self, filter: FilterId) -> Flow {
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
    pub(in crate::engine) fn augment_chosen(&mut self, id: ObjId) {
        self.choose_target(id);
        let ts = self.s.obj(id).ts;
        self.augment(id);
        let fr = self.frame_mut();
        fr.it.clear();
        fr.cursor = ts;
    }

    /// Boosts, up to a max (which a static may raise for support abilities).
    pub(super) fn exec_boost(&mut self, f: &Frame, obj: ObjRef, n: Amount, max: u8) -> Flow {
        let max = self.support_max(f, max);
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

    /// Counters added to each object, up to a max (which a static may raise for support
    /// abilities, as a boost's).
    pub(super) fn exec_counters(&mut self, f: &Frame, obj: ObjRef, n: Amount, max: u8) -> Flow {
        let max = self.support_max(f, max);
        let n = self.amount(n, f);
        for id in self.resolve_objs(obj, f).iter() {
            // "Up to a max of N" never takes counters away.
            let n = if max > 0 && n > 0 {
                n.min(max as i16 - self.s.obj(id).counters as i16).max(0)
            } else {
                n
            };
            if n != 0 {
                self.add_counters(id, n);
            }
        }
        Flow::Next
    }

    /// The "up to a max of N" of a boost or counter gain (0: none): a static may let the
    /// support abilities of cards in Reserve go past it (`u8::MAX`: ignore it).
    fn support_max(&self, f: &Frame, max: u8) -> u8 {
        if max == 0 || self.db.abilities[f.ability as usize].active != ActiveIn::Reserve {
            return max;
        }
        let mut over = 0u8;
        self.s.each_static_of(self.db, f.controller, |_, st, _| {
            if let Static::SupportOverMax(k) = st {
                over = over.max(k);
            }
        });
        if over == u8::MAX {
            0
        } else {
            max.saturating_add(over)
        }
    }

    /// One boost (or else one counter) spent from each object.
    pub(super) fn exec_spend_counter(&mut self, f: &Frame, obj: ObjRef) -> Flow {
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

    /// Augment on each object.
    pub(super) fn exec_augment(&mut self, f: &Frame, obj: ObjRef) -> Flow {
        for id in self.resolve_objs(obj, f).iter() {
            self.augment(id);
        }
        Flow::Next
    }

    /// A status (and Tough) gained by each object in play or in Reserve.
    pub(super) fn exec_gain(&mut self, f: &Frame, obj: ObjRef, status: u32, tough: u8) -> Flow {
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

    /// A status lost by each object.
    pub(super) fn exec_lose(&mut self, f: &Frame, obj: ObjRef, status: u32) -> Flow {
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

    /// Each object exhausted.
    pub(super) fn exec_exhaust(&mut self, f: &Frame, obj: ObjRef) -> Flow {
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

    /// Each object readied.
    pub(super) fn exec_ready(&mut self, f: &Frame, obj: ObjRef) -> Flow {
        for id in self.resolve_objs(obj, f).iter() {
            self.s.obj_mut(id).flags &= !flag::EXHAUSTED;
        }
        Flow::Next
    }

    /// Two objects' boosts swapped.
    pub(super) fn exec_swap_boosts(&mut self, f: &Frame, obj: ObjRef) -> Flow {
        let objs = self.resolve_objs(obj, f);
        if let (Some(a), Some(b)) = (objs.get(0), objs.get(1)) {
            let (ba, bb) = (self.s.obj(a).boosts as i16, self.s.obj(b).boosts as i16);
            self.boost(a, bb - ba);
            self.boost(b, ba - bb);
        }
        Flow::Next
    }
}
