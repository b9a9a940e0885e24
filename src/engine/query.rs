//! Read-only questions about the state: effective keywords, statistics, costs, filters,
//! conditions and counts. Shared by the engine, the legal-move generator and the policies.

use super::state::*;
use crate::cards::db::CardDb;
use crate::cards::effect::*;
use crate::cards::types::*;

thread_local! {
    /// Set while [`GameState::progressing_now`] works out Dusk (a recursion guard).
    static JUDGING_DUSK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// What a condition or filter is evaluated relative to.
#[derive(Copy, Clone, Debug)]
pub struct Ctx {
    pub controller: Side,
    pub source: ObjId,
    pub x: i16,
    pub did: bool,
    pub it: ObjId,
    /// Evaluating a static's own condition: keywords are read without statics, so that
    /// "I am Gigantic if I am Fleeting" cannot recurse.
    pub base_only: bool,
    /// The expedition chosen by `select_exp` (`Frame::sel_exp`), or `NO_SEL`.
    pub sel_exp: u8,
}

impl Ctx {
    pub fn of(controller: Side, source: ObjId) -> Ctx {
        Ctx {
            controller,
            source,
            x: 0,
            did: false,
            it: NO_OBJ,
            base_only: false,
            sel_exp: NO_SEL,
        }
    }

    fn base(controller: Side, source: ObjId) -> Ctx {
        Ctx {
            base_only: true,
            ..Ctx::of(controller, source)
        }
    }
}

impl Frame {
    pub fn ctx(&self) -> Ctx {
        Ctx {
            controller: self.controller,
            source: self.source,
            x: self.x,
            did: self.did,
            it: self.it.first().unwrap_or(NO_OBJ),
            base_only: false,
            sel_exp: self.sel_exp,
        }
    }
}

/// Terrain modifications from static abilities in play, per region.
#[derive(Copy, Clone, Default)]
pub struct TerrainMods {
    pub added: [u8; 8],
    pub replaced: [u8; 8],
}

impl GameState {
    /// Calls `f` with each static ability of an object in either side's expeditions that
    /// `keep` selects and whose condition holds. Only the selected statics' conditions are
    /// read (a terrain static's reader must not evaluate "behind", which reads the terrain).
    fn each_expedition_static(
        &self,
        db: &CardDb,
        keep: impl Fn(&Static) -> bool,
        mut f: impl FnMut(&Obj, Static),
    ) {
        if !self.any_statics() {
            return;
        }
        for side in Side::BOTH {
            let st = self.side(side);
            for e in 0..2 {
                for id in st.exp[e].iter() {
                    let o = self.obj(id);
                    if db.card(o.card).trigger_mask & tmask::STATIC == 0 {
                        continue;
                    }
                    for ab in db.abilities_of(o.card) {
                        let Trigger::Static(sa) = ab.trigger else {
                            continue;
                        };
                        if keep(&sa) && self.eval_cond(db, ab.cond, &Ctx::base(o.side, id)) {
                            f(o, sa);
                        }
                    }
                }
            }
        }
    }

    /// Terrain changes from statics of objects in the expeditions ("my region is also F",
    /// "all regions are O"), on top of the adventure's own (markers, one-shot effects).
    pub fn terrain_mods(&self, db: &CardDb) -> TerrainMods {
        let mut m = TerrainMods {
            added: self.adventure.added,
            replaced: self.adventure.replaced,
        };
        let mut all = 0u8;
        self.each_expedition_static(
            db,
            |st| {
                matches!(
                    st,
                    Static::TerrainAdd(_) | Static::TerrainSet(_) | Static::AllRegions(_)
                )
            },
            |o, st| {
                let r = self.region_of(o.side, o.exp);
                match st {
                    Static::TerrainAdd(t) => m.added[r] |= t,
                    Static::TerrainSet(t) => m.replaced[r] = t,
                    Static::AllRegions(t) => all = t,
                    _ => {}
                }
            },
        );
        if all != 0 {
            m.replaced = [all; 8];
        }
        m
    }

    /// Sides where a static ability prevents moving forward: both the player's expedition
    /// and the Darkness on that side (a card that freezes your other Expedition together
    /// with the one opposite it).
    pub fn static_no_forward(&self, db: &CardDb) -> ByExp<bool> {
        self.static_no_forward_by(db, None)
    }

    /// The "can't move forward" statics of every object, or of one side's objects only
    /// (head-to-head, D47).
    fn static_no_forward_by(&self, db: &CardDb, only: Option<Side>) -> ByExp<bool> {
        let mut out = ByExp([false, false]);
        self.each_expedition_static(
            db,
            |st| matches!(st, Static::NoForward(_)),
            |o, st| {
                let Static::NoForward(at) = st else { return };
                if only.is_some_and(|side| o.side != side) {
                    return;
                }
                match at {
                    ExpRef::Mine => out.set(o.exp, true),
                    ExpRef::Other => out.set(o.exp.other(), true),
                    ExpRef::Fixed(x) => out.set(x, true),
                    _ => {
                        out.set(Exp::Hero, true);
                        out.set(Exp::Companion, true);
                    }
                }
            },
        );
        out
    }

    /// A static of the player's objects in this expedition lets it advance even past its
    /// Defender characters (Mobile Armory, Sunisa).
    pub fn defender_lifted(&self, db: &CardDb, e: Exp) -> bool {
        self.defender_lifted_side(db, Side::Player, e)
    }

    /// Head-to-head: a static of `side`'s objects in this expedition lets it advance past
    /// its Defenders.
    pub fn defender_lifted_side(&self, db: &CardDb, side: Side, e: Exp) -> bool {
        let mut lifted = false;
        self.each_expedition_static(
            db,
            |st| matches!(st, Static::DefenderNoBlock),
            |o, _| lifted |= o.side == side && o.exp == e,
        );
        lifted
    }

    /// How many "it moves forward one more region instead" statics the player's objects
    /// in this expedition have (The Magic Sleigh).
    pub fn dusk_extra_forward(&self, db: &CardDb, e: Exp) -> u8 {
        let mut n = 0;
        self.each_expedition_static(
            db,
            |st| matches!(st, Static::DuskExtraForward),
            |o, _| n += (o.side == Side::Player && o.exp == e) as u8,
        );
        n
    }

    /// The player's expedition can't move forward now.
    pub fn expedition_blocked(&self, db: &CardDb, e: Exp) -> bool {
        self.today.no_forward.get(e) || self.static_no_forward(db).get(e)
    }

    /// One side's expedition can't move forward now. Head-to-head, a "can't move forward"
    /// static blocks the expeditions of its own controller (D47).
    pub fn expedition_blocked_of(&self, db: &CardDb, side: Side, e: Exp) -> bool {
        match self.mode {
            Mode::Duel => {
                let today = match side {
                    Side::Player => self.today.no_forward,
                    Side::Confluence => self.today.b.no_forward,
                };
                today.get(e) || self.static_no_forward_by(db, Some(side)).get(e)
            }
            Mode::Confluence => self.expedition_blocked(db, e),
        }
    }

    /// The Darkness on this side can't advance now: a day-long block or a static block
    /// (FAQ: an effect preventing a Confluence expedition from advancing stops it). These
    /// stop every move, an effect's as well as Midnight's.
    pub fn darkness_blocked(&self, db: &CardDb, e: Exp) -> bool {
        self.today.dark_blocked.get(e) || self.static_no_forward(db).get(e)
    }

    /// Defender keeps the Darkness on this side in place at Midnight, its Dusk movement
    /// (D8: Defender stops only that, on either side; effects still move it): a player
    /// Defender expedition that cleared this Dusk, or a Confluence Defender facing that
    /// expedition, a Gigantic one facing both.
    pub fn darkness_defended(&self, db: &CardDb, e: Exp) -> bool {
        if self.today.defended.get(e) {
            return true;
        }
        let conf = self.side(Side::Confluence);
        Exp::BOTH.iter().any(|&x| {
            conf.exp[x.index()].iter().any(|id| {
                self.has_kw(db, id, kw::DEFENDER)
                    && (x == e
                        || (db.card(self.obj(id).card).kind.is_character()
                            && self.has_kw(db, id, kw::GIGANTIC)))
            })
        })
    }

    /// Terrain a region asks to be paid at Dusk, and the terrain types added to it.
    pub fn region_requirement(&self, db: &CardDb, region: usize) -> (u8, u8) {
        let m = self.terrain_mods(db);
        let base = if m.replaced[region] != 0 {
            m.replaced[region]
        } else {
            self.adventure.terrain[region]
        };
        (base, m.added[region])
    }

    /// The terrains a region counts as having (placement icons, "terrain of my region").
    pub fn region_terrains(&self, db: &CardDb, region: usize) -> u8 {
        let (req, added) = self.region_requirement(db, region);
        req | added
    }

    /// Candidates for a running `Select`, in Silver Rule order, not yet chosen, within the
    /// total cap (of hand costs, or with `total_of` 1/2/3 of Forest/Mountain/Water), and
    /// whose Tough (if opposing) the controller can pay.
    pub fn select_candidates<const N: usize>(
        &self,
        db: &CardDb,
        f: &Frame,
        filter: FilterId,
        total_cost: u8,
        total_of: u8,
        out: &mut super::list::List<N>,
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
    pub fn augment_candidates<const N: usize>(
        &self,
        db: &CardDb,
        f: &Frame,
        filter: FilterId,
        out: &mut super::list::List<N>,
    ) {
        let mut all: super::list::List<64> = super::list::List::new();
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
    ) -> super::list::List<16> {
        let mut out = super::list::List::new();
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
    pub fn marker_options(&self, f: &Frame, op: Op) -> super::list::List<32> {
        let mut out = super::list::List::new();
        match op {
            Op::PlaceMarker { terrain } => {
                let types = match (terrain, f.controller) {
                    (0, Side::Player) => self.adventure.supply,
                    (0, Side::Confluence) => 0,
                    (t, _) => t,
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
                if src.zone == Zone::Expedition && src.side == Side::Player {
                    let here = self.region(src.exp);
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
                    self.adventure.supply &= !bit;
                }
            }
            Op::MoveMarker { terrain } => {
                let here = self.region(self.obj(f.source).exp);
                self.adventure.replaced[k as usize] = 0;
                self.adventure.replaced[here] = terrain;
            }
            _ => {}
        }
    }

    /// Keyword or status bits an object has: printed, gained, or granted by a static aura.
    #[inline]
    pub fn has_kw(&self, db: &CardDb, id: ObjId, bits: u32) -> bool {
        let bits = Self::not_lost(self.obj(id), bits);
        self.has_kw_base(db, id, bits)
            || (self.statics[self.obj(id).side.index()] > 0 && self.aura_bits(db, id) & bits != 0)
    }

    /// Every keyword and status bit an object has now (printed, gained, from auras).
    pub fn kw_bits(&self, db: &CardDb, id: ObjId) -> u32 {
        let o = self.obj(id);
        let mut bits = o.flags | (db.card(o.card).keywords & !kw::ENTRY_STATUS);
        if self.statics[o.side.index()] > 0 {
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
    fn filter_cost(&self, db: &CardDb, f: &Filter, id: ObjId) -> u8 {
        let def = db.card(self.obj(id).card);
        if f.base_cost && self.base_is_reserve(db, id) {
            def.reserve_cost
        } else {
            def.hand_cost
        }
    }

    /// A card in Reserve (about to be played from there) or played from Reserve.
    #[inline]
    fn played_from_reserve(&self, id: ObjId) -> bool {
        let o = self.obj(id);
        o.zone == Zone::Reserve || o.has(flag::FROM_RESERVE)
    }

    /// Drops Fleeting from the asked bits when the object lost it.
    #[inline]
    fn not_lost(o: &super::state::Obj, bits: u32) -> u32 {
        if o.flags & flag::LOST_FLEETING != 0 {
            bits & !kw::FLEETING
        } else {
            bits
        }
    }

    #[inline]
    fn has_kw_in(&self, db: &CardDb, id: ObjId, bits: u32, ctx: &Ctx) -> bool {
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
        let (min_cost, day_t) = self.today.day_tough[o.side.index()];
        if day_t > 0 && db.card(o.card).kind.is_character() && db.card(o.card).hand_cost >= min_cost
        {
            t = t.max(day_t);
        }
        if self.statics[o.side.index()] == 0 {
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
        if self.statics[o.side.index()] > 0 && self.levelled(db, id) {
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
    pub fn silenced(&self, db: &CardDb, id: ObjId) -> bool {
        let o = self.obj(id);
        let other = o.side.other();
        if o.zone != Zone::Expedition
            || !db.card(o.card).kind.is_character()
            || self.statics[other.index()] == 0
        {
            return false;
        }
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

    /// The object counts in this expedition's sums at Dusk (Gigantic counts in both).
    #[inline]
    pub fn counts_in(&self, db: &CardDb, id: ObjId, e: Exp) -> bool {
        let o = self.obj(id);
        o.zone == Zone::Expedition && (o.exp == e || self.has_kw(db, id, kw::GIGANTIC))
    }

    /// The cost to play `id` from hand or reserve, with static changes and this turn's
    /// reductions, never below zero (where the expedition it goes to is not yet known).
    pub fn play_cost(&self, db: &CardDb, id: ObjId, from_reserve: bool) -> u8 {
        self.play_cost_in(db, id, from_reserve, None)
    }

    /// The card has a cost that depends on the expedition it is played into.
    pub fn cost_depends_on_exp(&self, db: &CardDb, id: ObjId) -> bool {
        let def = db.card(self.obj(id).card);
        def.trigger_mask & tmask::STATIC != 0
            && db
                .abilities_of(self.obj(id).card)
                .iter()
                .any(|ab| matches!(ab.trigger, Trigger::Static(Static::CostInEmptyExp(_))))
    }

    /// The cost to play `id` into expedition `exp` (`None`: not known, or not played into
    /// an expedition).
    pub fn play_cost_in(&self, db: &CardDb, id: ObjId, from_reserve: bool, exp: Option<Exp>) -> u8 {
        if self.variant.free_mana {
            return 0;
        }
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
            }
        }
        // Reductions with a floor (`min M`) apply first; other effects may reduce the
        // cost further.
        let floored =
            |base: i16, n: u8, min: u8| -> i16 { (base - n as i16).max(base.min(min as i16)) };
        let side = self.side(o.side);
        // Cost auras of the card's own side (none to read without statics).
        if self.statics[o.side.index()] > 0 {
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
        // Cost auras that reach every player's cards: the opponent's auras that
        // do not only concern their own cards.
        let other = o.side.other();
        if self.statics[other.index()] > 0 {
            self.each_static_of(db, other, |l, st, _| match st {
                Static::CostAura(f, d)
                    if db.filter(f).whose != Whose::Yours
                        && self.matches_card(db, db.filter(f), id, other) =>
                {
                    delta += d as i16;
                }
                Static::CostAuraMin(f, n, min)
                    if db.filter(f).whose != Whose::Yours
                        && self.matches_card(db, db.filter(f), id, other) =>
                {
                    let _ = l;
                    base = floored(base, n, min);
                }
                _ => {}
            });
        }
        for m in self.mods() {
            if m.side == o.side
                && (m.discount != 0 || m.flags & modflag::FREE != 0)
                && self.matches_card(db, db.filter(m.filter), id, o.side)
            {
                if m.flags & modflag::FREE != 0 {
                    return 0;
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
        let other = o.side.other();
        if self.statics[other.index()] == 0 {
            return cost;
        }
        let mut floor = 0;
        self.each_static_of(db, other, |l, st, _| {
            if let Static::OpponentMinCost(f, n) = st
                && self.matches_card(db, db.filter(f), id, self.obj(l).side)
            {
                floor = floor.max(n);
            }
        });
        cost.max(floor)
    }

    /// Calls `f` with each static ability of a side's objects in play (the object, the
    /// ability, its condition) until `f` returns true; whether one did.
    pub(super) fn any_static_of(
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
    pub(super) fn each_static_of(
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
            };
            // Another side's card only from its Reserve, as `it` (Brainwash: "a Character
            // in any Reserve").
            if (o.side != side && o.zone != Zone::Reserve)
                || allowed == 0
                || !self.matches_card(db, fl, id, f.controller)
                || !fl.cost_within_x(db.card(o.card).hand_cost, f.x)
                || !self.playable(db, id)
                || (less != playflag::FREE
                    && less != 0
                    && self.play_cost(db, id, from_reserve).saturating_sub(less) > ready)
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
        if self.statics[side.index()] > 0 {
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
        if self.statics[side.index()] > 0 {
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
    pub fn leave_to_mana(&self, db: &CardDb, id: ObjId) -> bool {
        let o = self.obj(id);
        if o.zone != Zone::Expedition || db.card(o.card).trigger_mask & tmask::STATIC == 0 {
            return false;
        }
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
        if self.statics[side.index()] > 0 {
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
        let player = self.side(if self.mode == Mode::Duel {
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
        if self.statics[side.index()] == 0 {
            return false;
        }
        self.any_static_of(db, side, |_, st, _| pred(&st))
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
    fn distinct_matches(&self, db: &CardDb, filters: &[FilterId], ctx: &Ctx) -> bool {
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
        for side in Side::BOTH {
            match filter.whose {
                Whose::Yours if side != ctx.controller => continue,
                Whose::Opposing if side == ctx.controller => continue,
                _ => {}
            }
            let s = self.side(side);
            let mut add = |l: &super::state::Zone64| {
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

    pub fn count(&self, db: &CardDb, c: Count, ctx: &Ctx) -> i16 {
        let side = self.side(ctx.controller);
        match c {
            Count::Objects(fid) => {
                let mut n = 0;
                self.for_each_candidate(db, db.filter(fid), ctx, |_| n += 1);
                n
            }
            Count::ManaOrbs => side.mana.len() as i16,
            Count::HandSize => side.hand.len() as i16,
            Count::ReserveSize => side.reserve.len() as i16,
            Count::MyCounters => self.obj(ctx.source).counters as i16,
            Count::MyBoosts => self.obj(ctx.source).boosts as i16,
            Count::MyLeftBoosts => self.obj(ctx.source).left_boosts as i16,
            Count::X => ctx.x,
            Count::LastRoll => self.today.last_roll[ctx.controller.index()] as i16,
            Count::OpponentHandSize => self.side(ctx.controller.other()).hand.len() as i16,
            Count::Day => self.day as i16,
            Count::ExpsInTerrain(t) => Exp::BOTH
                .iter()
                .filter(|&&e| self.region_terrains(db, self.region_of(ctx.controller, e)) & t != 0)
                .count() as i16,
            Count::AllExpsInTerrain(t) => 2 * self.count(db, Count::ExpsInTerrain(t), ctx),
            Count::ZeroStats => {
                let mut n = 0;
                for e in 0..2 {
                    for id in side.exp[e].iter() {
                        let def = db.card(self.obj(id).card);
                        if def.kind.is_character() {
                            let st = def.stats;
                            n += (st.f == 0) as i16 + (st.m == 0) as i16 + (st.o == 0) as i16;
                        }
                    }
                }
                n
            }
            Count::HeroCounters => self.obj(side.hero).counters as i16,
            Count::AscendedExps => Exp::BOTH
                .iter()
                .filter(|&&e| !self.scripted(ctx.controller) && self.ascended(ctx.controller, e))
                .count() as i16,
            Count::ItCost => {
                if ctx.it == NO_OBJ {
                    0
                } else {
                    db.card(self.obj(ctx.it).card).hand_cost as i16
                }
            }
            Count::SingleTerrainRegions => (0..8)
                .filter(|&r| {
                    self.adventure.is_revealed(r) && self.region_terrains(db, r).count_ones() == 1
                })
                .count() as i16,
            Count::RegionsBetween => {
                (self.pos.get(Exp::Companion) - self.pos.get(Exp::Hero) - 1).max(0) as i16
            }
            Count::BoostsOf(fid) => {
                let mut n = 0;
                self.for_each_candidate(db, db.filter(fid), ctx, |id| {
                    n += self.obj(id).boosts as i16
                });
                n
            }
            Count::ZeroStatsOf(fid) => {
                let mut n = 0;
                self.for_each_candidate(db, db.filter(fid), ctx, |id| {
                    let st = db.card(self.obj(id).card).stats;
                    n += (st.f == 0) as i16 + (st.m == 0) as i16 + (st.o == 0) as i16;
                });
                n
            }
            Count::ItsBoosts => {
                if ctx.it == NO_OBJ {
                    0
                } else {
                    self.obj(ctx.it).boosts as i16
                }
            }
        }
    }

    /// The source's expedition (for "my expedition" conditions), if it is in one.
    fn source_exp(&self, ctx: &Ctx) -> Option<Exp> {
        let o = self.obj(ctx.source);
        (o.zone == Zone::Expedition).then_some(o.exp)
    }

    /// A player expedition is "behind" when the Darkness stands right behind it and the
    /// revealed Midnight card will advance that Darkness (FAQ "Expedition is Behind").
    pub fn is_behind(&self, db: &CardDb, e: Exp) -> bool {
        self.darkness_adjacent(e) && self.midnight_target(db) == Some(e)
    }

    /// A side's expedition is behind: in Confluence mode the player's, against the
    /// Darkness; head-to-head, when the opposing expedition has travelled strictly further
    /// (digest 5.19; never in the Arena).
    pub fn is_behind_of(&self, db: &CardDb, side: Side, e: Exp) -> bool {
        match self.mode {
            Mode::Confluence => side == Side::Player && self.is_behind(db, e),
            Mode::Duel => {
                !self.arena && self.progress_of(side.other(), e) > self.progress_of(side, e)
            }
        }
    }

    /// Which Darkness the current Midnight card would advance (interpretation A1), ignoring
    /// blocks. `None` before the first Midnight card is revealed.
    pub fn midnight_target(&self, db: &CardDb) -> Option<Exp> {
        if self.midnight_card == NO_OBJ {
            return None;
        }
        let icon = db.card(self.obj(self.midnight_card).card).midnight;
        let prog = if icon == Placement::Progressing {
            self.progressing_now(db)
        } else {
            ByExp([false, false])
        };
        Some(self.icon_target(db, icon, |_, e| prog.get(e)))
    }

    /// The expeditions that count as Progressing now: from Night on, those that advanced at
    /// today's Dusk (A1, A16); before that, those that would advance if Dusk started now
    /// (S0 "Placement Rules"). Working out Dusk reads statistics, which may read "behind",
    /// which reads this: inside that preview no expedition counts as Progressing.
    pub fn progressing_now(&self, db: &CardDb) -> ByExp<bool> {
        if matches!(
            self.phase,
            Phase::Night | Phase::Rest | Phase::Cleanup | Phase::Midnight
        ) {
            return self.today.advanced;
        }
        if JUDGING_DUSK.get() {
            return ByExp([false, false]);
        }
        JUDGING_DUSK.set(true);
        let r = super::overcome::progressing(self, db);
        JUDGING_DUSK.set(false);
        r
    }

    /// Resolves a placement icon to an expedition; ties and no-match go to the Threatened one.
    /// `progressing` says whether an expedition counts as Progressing at this moment.
    pub fn icon_target(
        &self,
        db: &CardDb,
        icon: Placement,
        progressing: impl Fn(&GameState, Exp) -> bool,
    ) -> Exp {
        let q = |e: Exp| match icon {
            Placement::Threatened => e == self.threatened,
            Placement::Hero => e == Exp::Hero,
            Placement::Companion => e == Exp::Companion,
            Placement::Forest | Placement::Mountain | Placement::Water => {
                let t = icon.terrain().expect("terrain icon");
                self.region_terrains(db, self.region(e)) & t != 0
            }
            Placement::Progressing => progressing(self, e),
        };
        match (q(Exp::Hero), q(Exp::Companion)) {
            (true, false) => Exp::Hero,
            (false, true) => Exp::Companion,
            _ => self.threatened,
        }
    }

    pub fn eval_cond(&self, db: &CardDb, id: CondId, ctx: &Ctx) -> bool {
        match db.cond(id) {
            Cond::True => true,
            Cond::FirstPlayer => self.first_player() == ctx.controller,
            Cond::Compare(c, cmp, n) => cmp.test(self.count(db, c, ctx), n),
            Cond::CompareCounts(a, cmp, b) => {
                cmp.test(self.count(db, a, ctx), self.count(db, b, ctx))
            }
            // Player expeditions are behind only against the Darkness; the Confluence's
            // expeditions are never behind (A18 reads "ahead" the same way). Head-to-head,
            // against the opposing expedition (digest 5.19).
            Cond::Behind => {
                !self.scripted(ctx.controller)
                    && self
                        .source_exp(ctx)
                        .is_some_and(|e| self.is_behind_of(db, ctx.controller, e))
            }
            Cond::BehindExp(e) => {
                !self.scripted(ctx.controller) && self.is_behind_of(db, ctx.controller, e)
            }
            Cond::AllBehind => {
                !self.scripted(ctx.controller)
                    && Exp::BOTH
                        .iter()
                        .all(|&e| self.is_behind_of(db, ctx.controller, e))
            }
            Cond::Ahead => {
                self.mode == Mode::Duel
                    && !self.arena
                    && self.source_exp(ctx).is_some_and(|e| {
                        self.progress_of(ctx.controller, e)
                            > self.progress_of(ctx.controller.other(), e)
                    })
            }
            Cond::InContact => {
                self.mode == Mode::Duel
                    && self.source_exp(ctx).is_some_and(|e| {
                        let me = self.pos_of(ctx.controller).get(e);
                        Exp::BOTH
                            .iter()
                            .any(|&x| self.pos_of(ctx.controller.other()).get(x) == me)
                    })
            }
            Cond::Did => ctx.did,
            Cond::NoneAdvanced => {
                !self.scripted(ctx.controller)
                    && !self.advanced(ctx.controller, Exp::Hero)
                    && !self.advanced(ctx.controller, Exp::Companion)
            }
            Cond::MeHas(b) => self.has_kw_in(db, ctx.source, b, ctx),
            Cond::MeHad(b) => self.obj(ctx.source).left_kw as u32 & b != 0,
            Cond::MeInMana => self.obj(ctx.source).zone == Zone::Mana,
            Cond::MeBoosted => self.obj(ctx.source).boosts > 0,
            Cond::PaidLess => self.obj(ctx.source).has(flag::PAID_LESS),
            Cond::MyExpAscends => self.source_exp(ctx).is_some_and(|e| {
                !self.scripted(ctx.controller) && self.ascended(ctx.controller, e)
            }),
            Cond::MyTerrain(t) => self.source_exp(ctx).is_some_and(|e| {
                self.region_terrains(db, self.region_of(ctx.controller, e)) & t != 0
            }),
            Cond::SingleTerrain => self.source_exp(ctx).is_some_and(|e| {
                self.region_terrains(db, self.region_of(ctx.controller, e))
                    .count_ones()
                    == 1
            }),
            Cond::YourTurn => {
                matches!(
                    self.phase,
                    Phase::Turn | Phase::ConfluenceQuick(_) | Phase::ConfluencePlay
                ) && self.to_act == ctx.controller
            }
            // A range ending at 6 stands for "6 or more": a raised result above 6 is in it.
            Cond::Roll(lo, hi) => {
                (lo as i16..=hi as i16).contains(&ctx.x) || (hi == 6 && ctx.x > 6)
            }
            Cond::Afternoon => matches!(
                self.phase,
                Phase::Turn | Phase::TurnEnd | Phase::ConfluenceQuick(_) | Phase::ConfluencePlay
            ),
            Cond::ItMatches(f) => ctx.it != NO_OBJ && self.matches(db, db.filter(f), ctx.it, ctx),
            Cond::Control(f) => {
                let mut any = false;
                self.for_each_candidate(db, db.filter(f), ctx, |_| any = true);
                any
            }
            Cond::Distinct(fs, n) => self.distinct_matches(db, &fs[..n as usize], ctx),
            Cond::Not(c) => !self.eval_cond(db, c, ctx),
            Cond::And(a, b) => self.eval_cond(db, a, ctx) && self.eval_cond(db, b, ctx),
            Cond::Or(a, b) => self.eval_cond(db, a, ctx) || self.eval_cond(db, b, ctx),
        }
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
    ) -> super::list::List<64> {
        let mut out = super::list::List::new();
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

/// The kinds a card counts as: its own and those a static adds ("I'm also considered a
/// Spell").
#[inline]
pub fn card_kinds(def: &crate::cards::db::CardDef) -> u8 {
    kind_bit(def.kind) | def.also_kinds
}

#[inline]
pub fn kind_bit(k: CardKind) -> u8 {
    match k {
        CardKind::Character => fkind::CHARACTER,
        CardKind::Token => fkind::CHARACTER | fkind::TOKEN,
        CardKind::Landmark => fkind::LANDMARK,
        CardKind::ExpeditionPermanent => fkind::EXP_PERMANENT,
        CardKind::Spell => fkind::SPELL,
        CardKind::Hero => fkind::HERO,
        CardKind::LandmarkToken => fkind::LANDMARK | fkind::TOKEN,
        CardKind::OtherToken => 0,
    }
}
