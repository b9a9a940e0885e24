//! Filters: which objects and cards match one, the candidates of a running selection,
//! and the options of Terrain Marker ops.

use super::*;

impl<const N: usize, const M: usize> GameState<N, M> {
    /// Candidates for a running `Select`, in Silver Rule order, not yet chosen, within the
    /// total cap (of hand costs, or with `total_of` 1/2/3 of Forest/Mountain/Water), and
    /// whose Tough (if opposing) the controller can pay.
    pub fn select_candidates<const K: usize>(
        &self,
        db: &CardDb,
        f: &Frame,
        filter: FilterId,
        total_cost: u8,
        total_of: u8,
        out: &mut crate::engine::list::List<K>,
    ) {
        let ctx = f.ctx();
        let value = |id: ObjId| -> u16 {
            match total_of {
                0 => db.card(self.obj(id).card).hand_cost as u16,
                k => {
                    let st = self.stats(db, id).clamp_zero();
                    [st.f, st.m, st.o][(k - 1) as usize] as u16
                }
            }
        };
        let spent: u16 = f.it.iter().map(value).sum();
        let mana = self.side(f.controller).mana_ready;
        self.for_each_candidate(db, db.filter(filter), &ctx, |id| {
            if f.it.contains(id) {
                return;
            }
            if total_cost != u8::MAX && spent + value(id) > total_cost as u16 {
                return;
            }
            if self.obj(id).side != f.controller && !f.free && self.tough(db, id) > mana {
                return;
            }
            let _ = out.push(id);
        });
    }

    /// Legal picks of a running "augment any number": select candidates (Tough payable)
    /// after the cursor, in Silver Rule order.
    pub fn augment_candidates<const K: usize>(
        &self,
        db: &CardDb,
        f: &Frame,
        filter: FilterId,
        out: &mut crate::engine::list::List<K>,
    ) {
        let mut all: crate::engine::list::List<64> = crate::engine::list::List::new();
        self.select_candidates(db, f, filter, u8::MAX, 0, &mut all);
        for id in all.iter() {
            if self.obj(id).ts > f.cursor {
                let _ = out.push(id);
            }
        }
    }

    /// The revealed cards (the top `f.count` of the controller's deck) a "reveal and put"
    /// effect may still choose: matching the filter, not chosen yet, top first.
    pub fn reveal_candidates(
        &self,
        db: &CardDb,
        f: &Frame,
        filter: FilterId,
    ) -> crate::engine::list::List<16> {
        let mut out = crate::engine::list::List::new();
        let deck = &self.side(f.controller).deck;
        let shown = (f.count as usize).min(deck.len());
        for &id in deck.as_slice()[deck.len() - shown..].iter().rev() {
            if !f.it.contains(id) && self.matches_card(db, db.filter(filter), id, f.controller) {
                let _ = out.push(id);
            }
        }
        out
    }

    /// The options of a Terrain Marker op, as mode numbers: placing, terrain index * 8 +
    /// visible region; moving, the region the marker comes from (any but the source's).
    pub fn marker_options(&self, f: &Frame, op: Op) -> crate::engine::list::List<32> {
        let mut out = crate::engine::list::List::new();
        match op {
            Op::PlaceMarker { terrain } => {
                let types = match terrain {
                    0 => self.adventure.supply_of(f.controller),
                    t => t,
                };
                for t in 0..3u8 {
                    if types & (1 << t) != 0 {
                        for r in (0..8).filter(|&r| self.adventure.is_revealed(r)) {
                            let _ = out.push(t * 8 + r as u8);
                        }
                    }
                }
            }
            Op::MoveMarker { terrain } => {
                let src = self.obj(f.source);
                if src.zone == Zone::Expedition && (src.side == Side::Player || self.mode.versus())
                {
                    let here = self.region_of(src.side, src.exp);
                    for r in (0..8).filter(|&r| r != here) {
                        if self.adventure.replaced[r] == terrain {
                            let _ = out.push(r as u8);
                        }
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// Carries out option `k` of a Terrain Marker op (see [`GameState::marker_options`]).
    pub fn apply_marker(&mut self, f: &Frame, op: Op, k: u8) {
        match op {
            Op::PlaceMarker { terrain } => {
                let bit = 1u8 << (k / 8);
                self.adventure.replaced[(k % 8) as usize] = bit;
                if terrain == 0 {
                    self.adventure.set_supply(f.controller, bit, false);
                }
            }
            Op::MoveMarker { terrain } => {
                let src = self.obj(f.source);
                let here = self.region_of(src.side, src.exp);
                self.adventure.replaced[k as usize] = 0;
                self.adventure.replaced[here] = terrain;
            }
            _ => {}
        }
    }
    /// A card (in hand or reserve, about to be played) matches a filter's card properties.
    pub fn matches_card(&self, db: &CardDb, f: &Filter, id: ObjId, controller: Side) -> bool {
        let o = self.obj(id);
        let def = db.card(o.card);
        card_kinds(def) & f.kinds != 0
            && (f.subtypes == 0 || def.subtypes & f.subtypes != 0)
            && def.subtypes & f.not_subtypes == 0
            && f.zero_stat
                .is_none_or(|z| (def.stats.f == 0 || def.stats.m == 0 || def.stats.o == 0) == z)
            && (f.cost_min..=f.cost_max).contains(&self.filter_cost(db, f, id))
            && f.from_reserve
                .is_none_or(|r| self.played_from_reserve(id) == r)
            && match f.whose {
                Whose::Any => true,
                Whose::Yours => o.side == controller,
                Whose::Opposing => o.side != controller,
            }
    }

    /// Does object `id` match filter `f` for an ability controlled by `ctx.controller`
    /// whose source is `ctx.source`?
    pub fn matches(&self, db: &CardDb, f: &Filter, id: ObjId, ctx: &Ctx) -> bool {
        let o = self.obj(id);
        let zone_bit = match o.zone {
            Zone::Expedition => fzone::EXPEDITION,
            Zone::Landmarks => fzone::LANDMARKS,
            Zone::Reserve => fzone::RESERVE,
            Zone::Hand => fzone::HAND,
            Zone::Deck => fzone::DECK,
            // The Hero zone counts as in play (only `hero` filters take heroes).
            Zone::HeroZone => fzone::IN_PLAY,
            _ => return false,
        };
        if f.zones & zone_bit == 0 {
            return false;
        }
        let def = db.card(o.card);
        if card_kinds(def) & f.kinds == 0 {
            return false;
        }
        match f.whose {
            Whose::Any => {}
            Whose::Yours => {
                if o.side != ctx.controller {
                    return false;
                }
            }
            Whose::Opposing => {
                if o.side == ctx.controller {
                    return false;
                }
            }
        }
        if f.other && id == ctx.source {
            return false;
        }
        if f.subtypes != 0 && def.subtypes & f.subtypes == 0 {
            return false;
        }
        if def.subtypes & f.not_subtypes != 0 {
            return false;
        }
        if !(f.cost_min..=f.cost_max).contains(&self.filter_cost(db, f, id)) {
            return false;
        }
        if let Some(r) = f.from_reserve
            && self.played_from_reserve(id) != r
        {
            return false;
        }
        if f.ascended
            && (o.zone != Zone::Expedition
                || self.scripted(o.side)
                || !(self.ascended(o.side, o.exp)
                    || (self.has_kw_in(db, id, kw::GIGANTIC, ctx)
                        && (self.ascended(o.side, Exp::Hero)
                            || self.ascended(o.side, Exp::Companion)))))
        {
            return false;
        }
        if !f.cost_within_x(def.hand_cost, ctx.x) {
            return false;
        }
        if let Some(t) = f.token
            && o.is_token() != t
        {
            return false;
        }
        if f.stat_max != u8::MAX {
            let st = self.stats(db, id);
            let m = f.stat_max as i16;
            if st.f > m || st.m > m || st.o > m {
                return false;
            }
        }
        if let Some(b) = f.boosted
            && (o.boosts > 0) != b
        {
            return false;
        }
        if let Some(c) = f.countered
            && (o.boosts > 0 || o.counters > 0) != c
        {
            return false;
        }
        if let Some(e) = f.exhausted
            && o.has(flag::EXHAUSTED) != e
        {
            return false;
        }
        if let Some(z) = f.zero_stat {
            let st = def.stats;
            if (st.f == 0 || st.m == 0 || st.o == 0) != z {
                return false;
            }
        }
        if f.with != 0 && !self.has_kw_in(db, id, f.with, ctx) {
            return false;
        }
        if f.without != 0 && self.has_kw_in(db, id, f.without, ctx) {
            return false;
        }
        self.matches_where(db, f, id, ctx)
    }

    /// The rest of [`Self::matches`]: the filter's conditions on where the object is (its
    /// region's terrains, Ascended, behind) and on the expedition it shares, or not, with the
    /// source.
    #[inline]
    fn matches_where(&self, db: &CardDb, f: &Filter, id: ObjId, ctx: &Ctx) -> bool {
        let o = self.obj(id);
        let def = db.card(o.card);
        if f.region_terrain != 0
            && (o.zone != Zone::Expedition
                || self.region_terrains(db, self.region_of(o.side, o.exp)) & f.region_terrain == 0)
        {
            return false;
        }
        if f.single_terrain
            && (o.zone != Zone::Expedition
                || self
                    .region_terrains(db, self.region_of(o.side, o.exp))
                    .count_ones()
                    != 1)
        {
            return false;
        }
        if f.ascended
            && (o.zone != Zone::Expedition
                || self.scripted(o.side)
                || !self.ascended(o.side, o.exp))
        {
            return false;
        }
        if f.zero_stat_here {
            // A terrain of its region for which its printed statistic is 0.
            if o.zone != Zone::Expedition {
                return false;
            }
            let t = self.region_terrains(db, self.region_of(o.side, o.exp));
            let st = def.stats;
            let zero = (t & terrain::FOREST != 0 && st.f == 0)
                || (t & terrain::MOUNTAIN != 0 && st.m == 0)
                || (t & terrain::WATER != 0 && st.o == 0);
            if !zero {
                return false;
            }
        }
        // Only a player expedition can be behind (FAQ "Expedition is Behind").
        if f.in_behind
            && (o.zone != Zone::Expedition
                || self.scripted(o.side)
                || !self.is_behind_of(db, o.side, o.exp))
        {
            return false;
        }
        match f.place {
            Where::Anywhere => true,
            Where::Selected => {
                ctx.sel_exp != NO_SEL
                    && o.zone == Zone::Expedition
                    && o.side.index() as u8 == ctx.sel_exp / 2
                    && (o.exp.index() as u8 == ctx.sel_exp % 2
                        || self.has_kw_in(db, id, kw::GIGANTIC, ctx))
            }
            Where::MyExpedition | Where::FacingMe | Where::OtherExpedition => {
                let src = self.obj(ctx.source);
                if o.zone != Zone::Expedition || src.zone != Zone::Expedition {
                    return false;
                }
                // A Gigantic object is in both of its controller's expeditions (S3 7.4.3): it
                // shares an expedition with anything of its side, faces everything opposing,
                // and has no "other" expedition.
                let gig = |x: ObjId| self.has_kw_in(db, x, kw::GIGANTIC, ctx);
                let same = o.exp == src.exp || gig(id) || gig(ctx.source);
                match f.place {
                    Where::MyExpedition => same && o.side == src.side,
                    Where::FacingMe => same && o.side != src.side,
                    _ => o.exp != src.exp && o.side == src.side && !gig(id) && !gig(ctx.source),
                }
            }
        }
    }

    /// Whether distinct objects match each filter, one per filter (Hall's condition: every
    /// set of filters is matched by at least as many objects as it has filters).
    pub(super) fn distinct_matches(&self, db: &CardDb, filters: &[FilterId], ctx: &Ctx) -> bool {
        // Each candidate with the bit set of the filters it matches.
        let mut objs = [(NO_OBJ, 0u8); 64];
        let mut n = 0;
        for (k, &fid) in filters.iter().enumerate() {
            self.for_each_candidate(db, db.filter(fid), ctx, |id| {
                if let Some(o) = objs[..n].iter_mut().find(|o| o.0 == id) {
                    o.1 |= 1 << k;
                } else if n < objs.len() {
                    objs[n] = (id, 1 << k);
                    n += 1;
                }
            });
        }
        (1u8..1 << filters.len()).all(|set| {
            let covered = objs[..n].iter().filter(|o| o.1 & set != 0).count();
            covered >= set.count_ones() as usize
        })
    }

    /// Calls `f` for every object in the zones a filter looks at, in Silver Rule order
    /// (by timestamp, oldest first, across zones).
    pub fn for_each_candidate(
        &self,
        db: &CardDb,
        filter: &Filter,
        ctx: &Ctx,
        mut f: impl FnMut(ObjId),
    ) {
        let mut buf = [NO_OBJ; 128];
        let mut n = 0;
        for side in const { Side::seats::<N>() } {
            match filter.whose {
                Whose::Yours if side != ctx.controller => continue,
                Whose::Opposing if side == ctx.controller => continue,
                _ => {}
            }
            let s = self.side(side);
            let mut add = |l: &crate::engine::state::Zone64| {
                for id in l.iter() {
                    if n < buf.len() && self.matches(db, filter, id, ctx) {
                        buf[n] = id;
                        n += 1;
                    }
                }
            };
            if filter.zones & fzone::EXPEDITION != 0 {
                add(&s.exp[0]);
                add(&s.exp[1]);
            }
            if filter.zones & fzone::LANDMARKS != 0 {
                add(&s.landmarks);
            }
            if filter.zones & fzone::RESERVE != 0 {
                add(&s.reserve);
            }
            if filter.zones & fzone::HAND != 0 {
                add(&s.hand);
            }
            if filter.kinds & fkind::HERO != 0
                && s.hero != NO_OBJ
                && n < buf.len()
                && self.matches(db, filter, s.hero, ctx)
            {
                buf[n] = s.hero;
                n += 1;
            }
        }
        let found = &mut buf[..n];
        found.sort_unstable_by_key(|&id| self.obj(id).ts);
        for &id in found.iter() {
            f(id);
        }
    }
}
