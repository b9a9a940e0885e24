//! Keywords, statuses and statistics an object has now: printed, gained, or from statics.

use super::*;

impl<const N: usize, const M: usize> GameState<N, M> {
    /// Keyword or status bits an object has: printed, gained, or granted by a static aura.
    #[inline]
    pub fn has_kw(&self, db: &CardDb, id: ObjId, bits: u32) -> bool {
        let bits = Self::not_lost(self.obj(id), bits);
        self.has_kw_base(db, id, bits)
            || (self.statics[self.obj(id).side] > 0 && self.aura_bits(db, id) & bits != 0)
    }

    /// Every keyword and status bit an object has now (printed, gained, from auras).
    pub fn kw_bits(&self, db: &CardDb, id: ObjId) -> u32 {
        let o = self.obj(id);
        let mut bits = o.flags | (db.card(o.card).keywords & !kw::ENTRY_STATUS);
        if self.statics[o.side] > 0 {
            bits |= self.aura_bits(db, id);
        }
        bits
    }

    /// Printed and gained keywords only. Printed Asleep/Anchored are statuses the object
    /// enters with (see play.rs); after that only its flags say whether it still has them.
    #[inline]
    fn has_kw_base(&self, db: &CardDb, id: ObjId, bits: u32) -> bool {
        let o = self.obj(id);
        let bits = Self::not_lost(o, bits);
        (o.flags | (db.card(o.card).keywords & !kw::ENTRY_STATUS)) & bits != 0
    }

    /// Whether an object's Base Cost is its Reserve Cost: in Reserve, played from Reserve,
    /// or Fleeting in play; otherwise it is its Hand Cost (a Spell being played from hand
    /// counts its Hand Cost even when Fleeting is printed on it).
    pub fn base_is_reserve(&self, db: &CardDb, id: ObjId) -> bool {
        let o = self.obj(id);
        match o.zone {
            Zone::Reserve => true,
            Zone::Expedition | Zone::Landmarks => {
                o.has(flag::FROM_RESERVE) || self.has_kw(db, id, kw::FLEETING)
            }
            Zone::Limbo => o.has(flag::FROM_RESERVE),
            _ => false,
        }
    }

    /// The cost a filter's `cost<=N` words compare: the Hand Cost, or the Base Cost.
    #[inline]
    pub(super) fn filter_cost(&self, db: &CardDb, f: &Filter, id: ObjId) -> u8 {
        let def = db.card(self.obj(id).card);
        if f.base_cost && self.base_is_reserve(db, id) {
            def.reserve_cost
        } else {
            def.hand_cost
        }
    }

    /// A card in Reserve (about to be played from there) or played from Reserve.
    #[inline]
    pub(super) fn played_from_reserve(&self, id: ObjId) -> bool {
        let o = self.obj(id);
        o.zone == Zone::Reserve || o.has(flag::FROM_RESERVE)
    }

    /// Drops Fleeting from the asked bits when the object lost it.
    #[inline]
    fn not_lost(o: &crate::engine::state::Obj, bits: u32) -> u32 {
        if o.flags & flag::LOST_FLEETING != 0 {
            bits & !kw::FLEETING
        } else {
            bits
        }
    }

    #[inline]
    pub(super) fn has_kw_in(&self, db: &CardDb, id: ObjId, bits: u32, ctx: &Ctx) -> bool {
        if ctx.base_only {
            self.has_kw_base(db, id, bits)
        } else {
            self.has_kw(db, id, bits)
        }
    }

    /// Keyword bits granted by static abilities (auras, conditional keywords).
    fn aura_bits(&self, db: &CardDb, id: ObjId) -> u32 {
        let o = self.obj(id);
        let mut bits = 0;
        let def = db.card(o.card);
        if def.trigger_mask & tmask::STATIC != 0
            && matches!(o.zone, Zone::Expedition | Zone::Landmarks)
        {
            for ab in db.abilities_of(o.card) {
                if let Trigger::Static(Static::Keyword(b)) = ab.trigger
                    && self.eval_cond(db, ab.cond, &Ctx::base(o.side, id))
                {
                    bits |= b;
                }
            }
        }
        // Auras reach objects in play, and Spells as they resolve (in Limbo).
        let limbo = o.zone == Zone::Limbo;
        if !matches!(o.zone, Zone::Expedition | Zone::Landmarks) && !limbo {
            return bits;
        }
        self.each_static_of(db, o.side, |l, st, cond| {
            if let Static::KeywordAura(f, b) = st
                && if limbo {
                    self.matches_card(db, db.filter(f), id, o.side)
                } else {
                    self.matches(db, db.filter(f), id, &Ctx::base(o.side, l))
                }
                && self.eval_cond(db, cond, &Ctx::base(o.side, l))
            {
                bits |= b;
            }
        });
        bits
    }

    /// Tough of an object in play (printed, gained, or from an aura); 0 elsewhere.
    pub fn tough(&self, db: &CardDb, id: ObjId) -> u8 {
        let o = self.obj(id);
        // Unlimited mana waives Tough, an extra cost in mana (digest §7.4).
        if !matches!(o.zone, Zone::Expedition | Zone::Landmarks) || self.variant.free_mana {
            return 0;
        }
        let mut t = db.card(o.card).tough.max(o.tough);
        let (min_cost, day_t) = self.today.day_tough[o.side];
        if day_t > 0 && db.card(o.card).kind.is_character() && db.card(o.card).hand_cost >= min_cost
        {
            t = t.max(day_t);
        }
        if self.statics[o.side] == 0 {
            return t;
        }
        self.each_static_of(db, o.side, |l, st, _| match st {
            Static::ToughAura(f, n)
                if self.matches(db, db.filter(f), id, &Ctx::base(o.side, l)) =>
            {
                t = t.max(n);
            }
            Static::ToughCount(c) if l == id => {
                t = t.max(self.count(db, c, &Ctx::base(o.side, l)).clamp(0, 30) as u8);
            }
            _ => {}
        });
        t
    }

    /// Statistics with boosts (all equal to the highest under a "level" static).
    #[inline]
    pub fn stats(&self, db: &CardDb, id: ObjId) -> Stats {
        let o = self.obj(id);
        let st = db.card(o.card).stats.plus_all(o.boosts as i16);
        if self.statics[o.side] > 0 && self.levelled(db, id) {
            let h = st.f.max(st.m).max(st.o);
            return Stats { f: h, m: h, o: h };
        }
        st
    }

    /// A static of its controller's says this object's Forest, Mountain and Water are equal
    /// to its highest statistic.
    fn levelled(&self, db: &CardDb, id: ObjId) -> bool {
        let o = self.obj(id);
        if o.zone != Zone::Expedition {
            return false;
        }
        self.any_static_of(db, o.side, |l, st, cond| {
            matches!(st, Static::LevelStats(f) if if f == ME_FILTER {
                l == id
            } else {
                self.matches(db, db.filter(f), id, &Ctx::base(o.side, l))
            }) && self.eval_cond(db, cond, &Ctx::base(o.side, l))
        })
    }

    /// The {J}, {H} and {R} abilities of this character can't activate: an opposing object
    /// it faces has "the abilities of Characters facing me can't activate".
    #[inline]
    pub fn silenced(&self, db: &CardDb, id: ObjId) -> bool {
        if N != 2 {
            return self.silenced_at_table(db, id);
        }
        let o = self.obj(id);
        let other = o.side.other();
        if o.zone != Zone::Expedition
            || !db.card(o.card).kind.is_character()
            || self.statics[other] == 0
        {
            return false;
        }
        self.silenced_read(db, id)
    }

    /// [`Self::silenced`] for a character in an expedition facing statics (two seats).
    #[inline(never)]
    fn silenced_read(&self, db: &CardDb, id: ObjId) -> bool {
        let o = self.obj(id);
        let other = o.side.other();
        let gig = |x: ObjId| self.has_kw(db, x, kw::GIGANTIC);
        for e in 0..2 {
            for l in self.side(other).exp[e].iter() {
                let lo = self.obj(l);
                if db.card(lo.card).trigger_mask & tmask::STATIC == 0
                    || !(lo.exp == o.exp || gig(l) || gig(id))
                {
                    continue;
                }
                for ab in db.abilities_of(lo.card) {
                    if ab.trigger == Trigger::Static(Static::SilenceFacing)
                        && self.eval_cond(db, ab.cond, &Ctx::base(other, l))
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// [`Self::silenced`] with four seats: the opposing objects it faces are those in the
    /// expedition across the lane from its own (from each of its seat's two, for a Gigantic
    /// character; a Gigantic object faces from both of its seat's).
    fn silenced_at_table(&self, db: &CardDb, id: ObjId) -> bool {
        let o = self.obj(id);
        if o.zone != Zone::Expedition || !db.card(o.card).kind.is_character() {
            return false;
        }
        let gig = |x: ObjId| self.has_kw(db, x, kw::GIGANTIC);
        let mine: &[Exp] = if gig(id) {
            &Exp::BOTH
        } else {
            std::slice::from_ref(&o.exp)
        };
        for &e in mine {
            let Some((other, f)) = self.facing_of(o.side, e) else {
                continue;
            };
            if self.statics[other] == 0 {
                continue;
            }
            for theirs in Exp::BOTH {
                for l in self.side(other).exp[theirs as usize].iter() {
                    let lo = self.obj(l);
                    if db.card(lo.card).trigger_mask & tmask::STATIC == 0
                        || !(lo.exp == f || gig(l))
                    {
                        continue;
                    }
                    for ab in db.abilities_of(lo.card) {
                        if ab.trigger == Trigger::Static(Static::SilenceFacing)
                            && self.eval_cond(db, ab.cond, &Ctx::base(other, l))
                        {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// The object counts in this expedition's sums at Dusk (Gigantic counts in both).
    #[inline]
    pub fn counts_in(&self, db: &CardDb, id: ObjId, e: Exp) -> bool {
        let o = self.obj(id);
        o.zone == Zone::Expedition && (o.exp == e || self.has_kw(db, id, kw::GIGANTIC))
    }
}
