//! Costs and playability: what playing a card costs, what may be played now and from
//! where, the Reserve limit, the Mana replacement, and whether a cost can be paid.

use super::*;

impl<const N: usize, const M: usize> GameState<N, M> {
    /// The cost to play `id` from hand or reserve, with static changes and this turn's
    /// reductions, never below zero (where the expedition it goes to is not yet known).
    pub fn play_cost(&self, db: &CardDb, id: ObjId, from_reserve: bool) -> u8 {
        self.play_cost_in(db, id, from_reserve, None)
    }

    /// The card has a cost that depends on the expedition it is played into.
    pub fn cost_depends_on_exp(&self, db: &CardDb, id: ObjId) -> bool {
        let def = db.card(self.obj(id).card);
        def.trigger_mask & tmask::STATIC != 0
            && db.abilities_of(self.obj(id).card).iter().any(|ab| {
                matches!(
                    ab.trigger,
                    Trigger::Static(
                        Static::CostInEmptyExp(_)
                            | Static::CostInContactExp(_)
                            | Static::CostInStartExp(_)
                    )
                )
            })
    }

    /// The cost to play `id` into expedition `exp` (`None`: not known, or not played into
    /// an expedition).
    #[inline]
    pub fn play_cost_in(&self, db: &CardDb, id: ObjId, from_reserve: bool, exp: Option<Exp>) -> u8 {
        if self.variant.free_mana {
            return 0;
        }
        // Most of the time nothing changes a cost: the card has no static ability, no
        // object in play has one, and no "next card you play" modifier waits. Then the
        // cost is the printed one (what the full reading below finds too).
        let def = db.card(self.obj(id).card);
        if def.trigger_mask & tmask::STATIC == 0 && !self.any_statics() && self.n_mods == 0 {
            return if from_reserve {
                def.reserve_cost
            } else {
                def.hand_cost
            };
        }
        self.play_cost_read(db, id, from_reserve, exp)
    }

    /// [`Self::play_cost_in`] read in full: the card's own statics, the auras of every
    /// side, this turn's modifiers and the opponents' floors.
    #[inline(never)]
    fn play_cost_read(&self, db: &CardDb, id: ObjId, from_reserve: bool, exp: Option<Exp>) -> u8 {
        let o = self.obj(id);
        let def = db.card(o.card);
        let mut base = if from_reserve {
            def.reserve_cost
        } else {
            def.hand_cost
        } as i16;
        let mut delta = 0i16;
        if def.trigger_mask & tmask::STATIC != 0 {
            for ab in db.abilities_of(o.card) {
                match ab.trigger {
                    Trigger::Static(Static::Cost(d))
                        if self.eval_cond(db, ab.cond, &Ctx::of(o.side, id)) =>
                    {
                        delta += d as i16;
                    }
                    Trigger::Static(Static::CostPer(d, c))
                        if self.eval_cond(db, ab.cond, &Ctx::of(o.side, id)) =>
                    {
                        delta += d as i16 * self.count(db, c, &Ctx::of(o.side, id));
                    }
                    _ => {}
                }
                if let (Trigger::Static(Static::CostInEmptyExp(d)), Some(e)) = (ab.trigger, exp)
                    && !self.side(o.side).exp[e.index()]
                        .iter()
                        .any(|x| db.card(self.obj(x).card).kind.is_character())
                {
                    delta += d as i16;
                }
                if let (Trigger::Static(Static::CostInContactExp(d)), Some(e)) = (ab.trigger, exp)
                    && self.in_contact_of(db, o.side, e)
                {
                    delta += d as i16;
                }
                if let (Trigger::Static(Static::CostInStartExp(d)), Some(e)) = (ab.trigger, exp)
                    && self.in_start_region(o.side, e)
                {
                    delta += d as i16;
                }
            }
        }
        // Reductions with a floor (`min M`) apply first; other effects may reduce the
        // cost further.
        let floored =
            |base: i16, n: u8, min: u8| -> i16 { (base - n as i16).max(base.min(min as i16)) };
        let side = self.side(o.side);
        // Cost auras of the card's own side (none to read without statics).
        if self.statics[o.side] > 0 {
            for &l in side
                .landmarks
                .as_slice()
                .iter()
                .chain(side.exp[0].as_slice())
                .chain(side.exp[1].as_slice())
                .chain(std::iter::once(&side.hero))
            {
                let lo = self.obj(l);
                if db.card(lo.card).trigger_mask & tmask::STATIC == 0 {
                    continue;
                }
                for ab in db.abilities_of(lo.card) {
                    match ab.trigger {
                        Trigger::Static(Static::CostAura(f, d))
                            if self.matches_card(db, db.filter(f), id, lo.side)
                                && self.eval_cond(db, ab.cond, &Ctx::of(lo.side, l)) =>
                        {
                            delta += d as i16;
                        }
                        Trigger::Static(Static::CostAuraMin(f, n, min))
                            if l != id
                                && self.matches_card(db, db.filter(f), id, lo.side)
                                && self.eval_cond(db, ab.cond, &Ctx::of(lo.side, l)) =>
                        {
                            base = floored(base, n, min);
                        }
                        _ => {}
                    }
                }
            }
        }
        // Cost auras that reach every player's cards: the opponents' auras that
        // do not only concern their own cards. (Two seats: the one opponent, the code
        // as it was before four seats, which the solo hot path keeps.)
        if N == 2 {
            let other = o.side.other();
            if self.statics[other] > 0 {
                self.opponent_auras(db, id, other, &mut base, &mut delta);
            }
        } else {
            let (opps, n_opps) = self.opponents_list(o.side);
            for &other in &opps[..n_opps] {
                if self.statics[other] > 0 {
                    self.opponent_auras(db, id, other, &mut base, &mut delta);
                }
            }
        }
        for m in self.mods() {
            if m.side == o.side
                && (m.discount != 0 || m.flags & modflag::FREE != 0)
                && self.matches_card(db, db.filter(m.filter), id, o.side)
            {
                if m.flags & modflag::FREE != 0 {
                    // Free, but never below an opponent's "can't cost less than N".
                    return self.cost_floor(db, id);
                }
                // Several "the next ... costs N less" stack on the same card.
                if m.min > 0 {
                    base = floored(base, m.discount.max(0) as u8, m.min);
                } else {
                    delta -= m.discount as i16;
                }
            }
        }
        let cost = (base + delta).max(0) as u8;
        cost.max(self.cost_floor(db, id))
    }

    /// The least that playing card `id` may cost: the opponents' "... can't cost less than
    /// N" (Robin Hood), which also holds for a card played for free or for less by an
    /// effect (0 when no opponent has such a static). An inlined test (with two seats: no
    /// static of the opponent's in play, no floor), the reading out of line.
    #[inline(always)]
    pub fn cost_floor(&self, db: &CardDb, id: ObjId) -> u8 {
        // Booster War's free mana: nothing costs anything, so no floor applies (D50).
        if self.variant.free_mana {
            return 0;
        }
        if N == 2 && self.statics[self.obj(id).side.other()] == 0 {
            return 0;
        }
        self.cost_floor_read(db, id)
    }

    /// [`Self::cost_floor`] past its test.
    #[inline(never)]
    fn cost_floor_read(&self, db: &CardDb, id: ObjId) -> u8 {
        let side = self.obj(id).side;
        if N == 2 {
            return self.opponent_min_cost(db, id, side.other());
        }
        let (opps, n_opps) = self.opponents_list(side);
        let mut floor = 0;
        for &other in &opps[..n_opps] {
            if self.statics[other] > 0 {
                floor = floor.max(self.opponent_min_cost(db, id, other));
            }
        }
        floor
    }

    /// What playing `id` by an effect costs that plays it `less` cheaper (`playflag::FREE`:
    /// for free; 0: its full cost), never below [`Self::cost_floor`].
    pub fn cost_paying_less(&self, db: &CardDb, id: ObjId, from_reserve: bool, less: u8) -> u8 {
        if less == playflag::FREE {
            self.cost_floor(db, id)
        } else {
            self.play_cost(db, id, from_reserve)
                .saturating_sub(less)
                .max(self.cost_floor(db, id))
        }
    }

    /// The cost auras of `other`'s objects that reach card `id` (not "your ... cost").
    #[inline]
    fn opponent_auras(&self, db: &CardDb, id: ObjId, other: Side, base: &mut i16, delta: &mut i16) {
        self.each_static_of(db, other, |l, st, _| match st {
            Static::CostAura(f, d)
                if db.filter(f).whose != Whose::Yours
                    && self.matches_card(db, db.filter(f), id, other) =>
            {
                *delta += d as i16;
            }
            Static::CostAuraMin(f, n, min)
                if db.filter(f).whose != Whose::Yours
                    && self.matches_card(db, db.filter(f), id, other) =>
            {
                let _ = l;
                // As `floored` in `play_cost_in`.
                *base = (*base - n as i16).max((*base).min(min as i16));
            }
            _ => {}
        });
    }

    /// The least cost `other`'s statics impose on card `id` ("opponents' ... cost at
    /// least N"), 0 if none.
    #[inline]
    fn opponent_min_cost(&self, db: &CardDb, id: ObjId, other: Side) -> u8 {
        let mut floor = 0;
        self.each_static_of(db, other, |l, st, _| {
            if let Static::OpponentMinCost(f, n) = st
                && self.matches_card(db, db.filter(f), id, self.obj(l).side)
            {
                floor = floor.max(n);
            }
        });
        floor
    }

    /// Calls `f` with each static ability of a side's objects in play (the object, the
    /// ability, its condition) until `f` returns true; whether one did.
    pub(in crate::engine) fn any_static_of(
        &self,
        db: &CardDb,
        side: Side,
        mut f: impl FnMut(ObjId, Static, CondId) -> bool,
    ) -> bool {
        let s = self.side(side);
        let ids = std::iter::once(s.hero)
            .chain(s.landmarks.iter())
            .chain(s.exp[0].iter())
            .chain(s.exp[1].iter());
        for id in ids {
            let c = self.obj(id).card;
            if db.card(c).trigger_mask & tmask::STATIC == 0 {
                continue;
            }
            for ab in db.abilities_of(c) {
                if let Trigger::Static(st) = ab.trigger
                    && ab.active != ActiveIn::Reserve
                    && f(id, st, ab.cond)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Calls `f` with each static ability of a side's objects in play (the object, the
    /// ability, its condition).
    pub(in crate::engine) fn each_static_of(
        &self,
        db: &CardDb,
        side: Side,
        mut f: impl FnMut(ObjId, Static, CondId),
    ) {
        self.any_static_of(db, side, |id, st, cond| {
            f(id, st, cond);
            false
        });
    }

    /// The cards `side` may play now for an `Op::PlayFree` (filter, less, exp, flags) of the
    /// running frame `f`: `out(card, from_reserve, expedition)` for each way (Landmarks and
    /// Spells: the Hero expedition). Cards come from the zones the filter names (or the
    /// frame's `me` / `it`), must be playable, affordable when played for N less (at full
    /// cost, `less` 0, the caller checks the ways to pay), and Reserve cards ready unless a
    /// `play_exhausted` static allows them.
    pub fn play_now_options(
        &self,
        db: &CardDb,
        f: &Frame,
        side: Side,
        (filter, less, exp, flags): (FilterId, u8, Option<Exp>, u8),
        mut out: impl FnMut(ObjId, bool, Exp),
    ) {
        let fl = db.filter(filter);
        let s = self.side(side);
        let ready = s.mana_ready;
        let mut consider = |id: ObjId| {
            let o = self.obj(id);
            let from_reserve = match o.zone {
                // A revealed top card played by `play_now(it)` (The Wayfarer, R1): from the
                // deck, so not "from hand" ({H} stays off).
                Zone::Hand | Zone::Deck => false,
                Zone::Reserve => true,
                _ => return,
            };
            let allowed = if from_reserve && o.has(flag::EXHAUSTED) {
                self.exhausted_play_exps(db, id)
            } else {
                0b11
            } & self.start_region_exps(db, id, side);
            // Another side's card only from its Reserve, as `it` (Brainwash: "a Character
            // in any Reserve").
            if (o.side != side && o.zone != Zone::Reserve)
                || allowed == 0
                || !self.matches_card(db, fl, id, f.controller)
                || !fl.cost_within_x(db.card(o.card).hand_cost, f.x)
                || !self.playable(db, id)
                || (less != 0 && self.cost_paying_less(db, id, from_reserve, less) > ready)
            {
                return;
            }
            let kind = db.card(o.card).kind;
            if kind.goes_to_expedition() {
                for e in Exp::BOTH {
                    if exp.is_none_or(|x| x == e)
                        && allowed & (1 << e.index()) != 0
                        && !s.exp[e.index()].is_full()
                    {
                        out(id, from_reserve, e);
                    }
                }
            } else if matches!(kind, CardKind::Spell | CardKind::Landmark) {
                out(id, from_reserve, Exp::Hero);
            }
        };
        if flags & playflag::ME != 0 {
            let o = self.obj(f.source);
            if o.ts == f.source_ts {
                consider(f.source);
            }
        } else if flags & playflag::IT != 0 {
            for id in f.it.iter() {
                consider(id);
            }
        } else {
            if fl.zones & fzone::HAND != 0 {
                for id in s.hand.iter() {
                    consider(id);
                }
            }
            if fl.zones & fzone::RESERVE != 0 {
                for id in s.reserve.iter() {
                    consider(id);
                }
            }
        }
    }

    /// How many {R} abilities card `id` has (printed, wherever it is).
    pub fn r_abilities(&self, db: &CardDb, id: ObjId) -> u8 {
        db.abilities_of(self.obj(id).card)
            .iter()
            .filter(|ab| ab.trigger == Trigger::Played(PlayFrom::Reserve))
            .count() as u8
    }

    /// `side`'s expedition `e` stands in a starting region (region 0 or 7, where the Hero
    /// and the Companion expeditions start).
    pub fn in_start_region(&self, side: Side, e: Exp) -> bool {
        matches!(self.pos_of(side).get(e), 0 | 7)
    }

    /// The expeditions (bit 0 Hero, bit 1 Companion) of `side` into which card `id` may be
    /// played as far as a `no_start_exp` static of its own says (all, without one).
    pub fn start_region_exps(&self, db: &CardDb, id: ObjId, side: Side) -> u8 {
        let card = self.obj(id).card;
        if db.card(card).trigger_mask & tmask::STATIC == 0
            || !db
                .abilities_of(card)
                .iter()
                .any(|ab| ab.trigger == Trigger::Static(Static::NotInStartExp))
        {
            return 0b11;
        }
        let mut mask = 0;
        for e in Exp::BOTH {
            if !self.in_start_region(side, e) {
                mask |= 1 << e.index();
            }
        }
        mask
    }

    /// The expeditions (bit 0 Hero, bit 1 Companion; Spells and Landmarks use bit 0) into
    /// which the exhausted Reserve card `id` may be played: a `play_exhausted` static (in
    /// play, or a support ability of a ready Reserve card), `mine` limiting it to the
    /// source's expedition.
    pub fn exhausted_play_exps(&self, db: &CardDb, id: ObjId) -> u8 {
        let side = self.obj(id).side;
        let mut mask = 0u8;
        let mut visit = |src: ObjId, in_reserve: bool| {
            let so = self.obj(src);
            let def = db.card(so.card);
            if def.trigger_mask & tmask::STATIC == 0 || (in_reserve && so.has(flag::EXHAUSTED)) {
                return;
            }
            for ab in db.abilities_of(so.card) {
                let Trigger::Static(Static::PlayExhausted(f, mine)) = ab.trigger else {
                    continue;
                };
                if (ab.active == ActiveIn::Reserve) != in_reserve
                    || !self.matches_card(db, db.filter(f), id, side)
                    || !self.eval_cond(db, ab.cond, &Ctx::of(side, src))
                {
                    continue;
                }
                mask |= match (mine, so.zone) {
                    (false, _) => 0b11,
                    (true, Zone::Expedition) if self.has_kw(db, src, kw::GIGANTIC) => 0b11,
                    (true, Zone::Expedition) => 1 << so.exp.index(),
                    (true, _) => 0,
                };
            }
        };
        let s = self.side(side);
        if self.statics[side] > 0 {
            visit(s.hero, false);
            for l in [&s.landmarks, &s.exp[0], &s.exp[1]] {
                for x in l.iter() {
                    visit(x, false);
                }
            }
        }
        for x in s.reserve.iter() {
            if x != id {
                visit(x, true);
            }
        }
        if !db.card(self.obj(id).card).kind.goes_to_expedition() && mask != 0 {
            mask = 0b11;
        }
        mask
    }

    /// The Reserve limit of a side now: its hero's, changed by `your_reserve_limit`
    /// statics whose condition holds.
    pub fn reserve_limit(&self, db: &CardDb, side: Side) -> u8 {
        let mut limit = self.side(side).reserve_limit as i16;
        if self.statics[side] > 0 {
            let s = self.side(side);
            for l in std::iter::once(s.hero)
                .chain(s.landmarks.iter())
                .chain(s.exp[0].iter())
                .chain(s.exp[1].iter())
            {
                let c = self.obj(l).card;
                if db.card(c).trigger_mask & tmask::STATIC == 0 {
                    continue;
                }
                for ab in db.abilities_of(c) {
                    if let Trigger::Static(Static::YourReserveLimit(n)) = ab.trigger
                        && ab.active != ActiveIn::Reserve
                        && self.eval_cond(db, ab.cond, &Ctx::of(side, l))
                    {
                        limit += n as i16;
                    }
                }
            }
        }
        limit.clamp(0, 255) as u8
    }

    /// The replacement that sends me to my owner's Mana zone instead of leaving the
    /// Expedition zone applies to this card in an expedition now (a "may" one only
    /// when the Confluence controls it, or when the player answered yes).
    #[inline]
    pub fn leave_to_mana(&self, db: &CardDb, id: ObjId) -> bool {
        let o = self.obj(id);
        if o.zone != Zone::Expedition || db.card(o.card).trigger_mask & tmask::STATIC == 0 {
            return false;
        }
        self.leave_to_mana_read(db, id)
    }

    /// [`Self::leave_to_mana`] for a card in an expedition with static abilities.
    #[inline(never)]
    fn leave_to_mana_read(&self, db: &CardDb, id: ObjId) -> bool {
        let o = self.obj(id);
        db.abilities_of(o.card).iter().any(|ab| match ab.trigger {
            Trigger::Static(Static::LeaveToMana { may }) => {
                (!may || self.scripted(o.side) || o.has(flag::MANA_YES))
                    && self.eval_cond(db, ab.cond, &Ctx::of(o.side, id))
            }
            _ => false,
        })
    }

    /// The player must still be asked whether this card, about to leave the Expedition
    /// zone, goes to Mana instead (the optional form of the Mana replacement).
    pub fn must_ask_mana(&self, db: &CardDb, id: ObjId) -> bool {
        let o = self.obj(id);
        o.zone == Zone::Expedition
            && !self.scripted(o.side)
            && !o.has(flag::MANA_ASKED)
            && db.card(o.card).trigger_mask & tmask::STATIC != 0
            && db.abilities_of(o.card).iter().any(|ab| {
                matches!(
                    ab.trigger,
                    Trigger::Static(Static::LeaveToMana { may: true })
                ) && self.eval_cond(db, ab.cond, &Ctx::of(o.side, id))
            })
    }

    /// A side's Reserve is over its limit at Clean-up: `reserve_limit` (the hero's limit
    /// plus "your Reserve limit is increased" statics whose condition holds) changed by
    /// `delta` (every player's `reserve_limit` statics); cards that "don't count towards
    /// your Reserve limit" (a support ability: not while exhausted) are skipped; each "you
    /// may keep one more card if it's exhausted" static keeps one more exhausted card.
    pub fn reserve_over_limit(&self, db: &CardDb, side: Side, delta: i16) -> bool {
        let s = self.side(side);
        let limit = self.reserve_limit(db, side) as i16 + delta;
        let mut extra_exhausted = 0i16;
        if self.statics[side] > 0 {
            self.each_static_of(db, side, |_, st, _| {
                if st == Static::ExtraExhaustedReserve {
                    extra_exhausted += 1;
                }
            });
        }
        let mut counted = 0i16;
        let mut exhausted = 0i16;
        for id in s.reserve.iter() {
            let o = self.obj(id);
            let ex = o.has(flag::EXHAUSTED);
            let skipped =
                !ex && db.card(o.card).trigger_mask & tmask::STATIC != 0
                    && db.abilities_of(o.card).iter().any(|ab| {
                        matches!(ab.trigger, Trigger::Static(Static::NotCountedInReserve))
                    });
            if !skipped {
                counted += 1;
                exhausted += ex as i16;
            }
        }
        counted > limit.max(0) + extra_exhausted.min(exhausted)
    }

    /// Whether a static "I can only be played if ..." allows playing `id` now.
    pub fn playable(&self, db: &CardDb, id: ObjId) -> bool {
        let o = self.obj(id);
        if db.card(o.card).trigger_mask & tmask::STATIC == 0 {
            return true;
        }
        db.abilities_of(o.card).iter().all(|ab| {
            !matches!(ab.trigger, Trigger::Static(Static::PlayableIf))
                || self.eval_cond(db, ab.cond, &Ctx::of(o.side, id))
        })
    }

    /// The player's cards a "play for free" effect may play: from hand, and from Reserve
    /// (ready cards) when the filter names `in_reserve`; `true` = from Reserve.
    pub fn play_free_candidates<'a>(
        &'a self,
        db: &'a CardDb,
        f: &'a Filter,
        controller: Side,
    ) -> impl Iterator<Item = (ObjId, bool)> + 'a {
        let player = self.side(if self.mode.versus() {
            controller
        } else {
            Side::Player
        });
        let hand = f.zones & fzone::RESERVE == 0 || f.zones & fzone::HAND != 0;
        let reserve = f.zones & fzone::RESERVE != 0;
        player
            .hand
            .iter()
            .filter(move |_| hand)
            .map(|id| (id, false))
            .chain(
                player
                    .reserve
                    .iter()
                    .filter(move |&id| reserve && !self.obj(id).has(flag::EXHAUSTED))
                    .map(|id| (id, true)),
            )
            .filter(move |&(id, _)| {
                self.matches_card(db, f, id, controller) && self.playable(db, id)
            })
    }

    /// A side has a static ability matching `pred` on its hero or an object in play.
    pub fn side_has_static(&self, db: &CardDb, side: Side, pred: impl Fn(&Static) -> bool) -> bool {
        if self.statics[side] == 0 {
            return false;
        }
        self.any_static_of(db, side, |_, st, _| pred(&st))
    }
    /// Can this side pay a cost for an ability of `source` right now?
    pub fn can_pay(&self, db: &CardDb, side: Side, source: ObjId, c: &Cost) -> bool {
        let s = self.side(side);
        let o = self.obj(source);
        (s.mana_ready >= c.mana || self.variant.free_mana)
            && (!c.exhaust || !o.has(flag::EXHAUSTED))
            && (!c.discard_me || o.zone == Zone::Reserve)
            && o.counters >= c.counters
            && s.reserve.len() >= c.discard_reserve as usize + usize::from(c.discard_me)
            && s.hand.len() >= c.discard_hand as usize
            && (c.sacrifice == 0 || self.can_sacrifice(db, side, c.sacrifice))
    }

    /// The objects of `side` in play matching the filter (for the ability `ctx` describes)
    /// with the highest Base Cost: the Reserve Cost if Fleeting, else the Hand Cost.
    pub fn highest_base_cost(
        &self,
        db: &CardDb,
        side: Side,
        filter: FilterId,
        ctx: &Ctx,
    ) -> crate::engine::list::List<64> {
        let mut out = crate::engine::list::List::new();
        let mut best = 0u8;
        let s = self.side(side);
        for id in s.exp[0]
            .iter()
            .chain(s.exp[1].iter())
            .chain(s.landmarks.iter())
        {
            if !self.matches(db, db.filter(filter), id, ctx) {
                continue;
            }
            let def = db.card(self.obj(id).card);
            let cost = if self.has_kw(db, id, kw::FLEETING) {
                def.reserve_cost
            } else {
                def.hand_cost
            };
            if out.is_empty() || cost > best {
                out.clear();
                best = cost;
            }
            if cost == best {
                let _ = out.push(id);
            }
        }
        out
    }

    /// This side controls an object of these `fkind` kinds it could sacrifice.
    pub fn can_sacrifice(&self, db: &CardDb, side: Side, kinds: u8) -> bool {
        let s = self.side(side);
        s.exp[0]
            .iter()
            .chain(s.exp[1].iter())
            .chain(s.landmarks.iter())
            .any(|x| kind_bit(db.card(self.obj(x).card).kind) & kinds != 0)
    }
}
