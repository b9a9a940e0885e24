//! Expeditions, the Darkness and regions: terrain from statics, what blocks or lifts a
//! move, behind, Progressing and placement icons.

use super::*;

thread_local! {
    /// Set while [`GameState::progressing_now`] works out Dusk (a recursion guard).
    static JUDGING_DUSK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl<const N: usize, const M: usize> GameState<N, M> {
    /// Calls `f` with each static ability of an object in either side's expeditions that
    /// `keep` selects and whose condition holds. Only the selected statics' conditions are
    /// read (a terrain static's reader must not evaluate "behind", which reads the terrain).
    #[inline]
    fn each_expedition_static(
        &self,
        db: &CardDb,
        keep: impl Fn(&Static) -> bool,
        f: impl FnMut(&Obj, Static),
    ) {
        // Inlined: with no static in play (most of the time) this test is the whole call.
        if !self.any_statics() {
            return;
        }
        self.walk_expedition_statics(db, keep, f);
    }

    /// [`Self::each_expedition_static`] past its test.
    #[inline(never)]
    fn walk_expedition_statics(
        &self,
        db: &CardDb,
        keep: impl Fn(&Static) -> bool,
        mut f: impl FnMut(&Obj, Static),
    ) {
        for side in const { Side::seats::<N>() } {
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
        let mut out = ByExp([false, false]);
        self.each_expedition_static(
            db,
            |st| matches!(st, Static::NoForward(_)),
            |o, st| {
                let Static::NoForward(at) = st else { return };
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

    /// [`Self::static_no_forward`] with four seats: a "can't move forward" static blocks
    /// its controller's expedition it names and the expedition across that one's lane.
    fn static_no_forward_at(&self, db: &CardDb, side: Side, e: Exp) -> bool {
        let mut blocked = false;
        self.each_expedition_static(
            db,
            |st| matches!(st, Static::NoForward(_)),
            |o, st| {
                let Static::NoForward(at) = st else { return };
                let named = match at {
                    ExpRef::Mine => ByExp([o.exp == Exp::Hero, o.exp == Exp::Companion]),
                    ExpRef::Other => ByExp([o.exp != Exp::Hero, o.exp != Exp::Companion]),
                    ExpRef::Fixed(x) => ByExp([x == Exp::Hero, x == Exp::Companion]),
                    _ => ByExp([true, true]),
                };
                for x in Exp::BOTH {
                    if named.get(x)
                        && ((o.side == side && x == e)
                            || self.facing_of(o.side, x) == Some((side, e)))
                    {
                        blocked = true;
                    }
                }
            },
        );
        blocked
    }

    /// `side`'s expedition `e` is In Contact: head-to-head, an opposing expedition stands
    /// in its region (digest 5.19); in either mode, a static of an object in it says it is
    /// considered In Contact (Reka Headset). Against the Confluence no expedition is
    /// otherwise In Contact (the Darkness reaching a player's region ends the game, A3).
    /// In Free for All the opposing expeditions are those of the seats its expeditions
    /// face (its neighbours still playing; F8).
    pub fn in_contact_of(&self, db: &CardDb, side: Side, e: Exp) -> bool {
        let met = self.mode.versus() && {
            let me = self.pos_of(side).get(e);
            let meets = |them: Side| Exp::BOTH.iter().any(|&x| self.pos_of(them).get(x) == me);
            if N == 2 {
                meets(side.other())
            } else {
                Exp::BOTH.iter().any(|&mine| {
                    self.facing_of(side, mine)
                        .is_some_and(|(them, _)| meets(them))
                })
            }
        };
        met || self.exp_has_static(db, side, e, |st| matches!(st, Static::ConsideredInContact))
    }

    /// An object of `side` in its expedition `e` has a static matching `pred` (its
    /// condition holding).
    pub fn exp_has_static(
        &self,
        db: &CardDb,
        side: Side,
        e: Exp,
        pred: impl Fn(&Static) -> bool,
    ) -> bool {
        if self.statics[side] == 0 {
            return false;
        }
        let mut found = false;
        self.each_expedition_static(db, pred, |o, _| found |= o.side == side && o.exp == e);
        found
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
        self.dusk_extra_forward_of(db, Side::Player, e)
    }

    /// The same for one side's expedition (head-to-head: either seat's Sleigh).
    pub fn dusk_extra_forward_of(&self, db: &CardDb, side: Side, e: Exp) -> u8 {
        let mut n = 0;
        self.each_expedition_static(
            db,
            |st| matches!(st, Static::DuskExtraForward),
            |o, _| n += (o.side == side && o.exp == e) as u8,
        );
        n
    }

    /// Head-to-head and Free for All: the terrain types that `side`'s expedition `e`,
    /// standing in a region with terrains `region`, must win to move forward at this Dusk:
    /// the "only thanks to {X}, when in an {X} region" statics (`darkness_only_due`) of the
    /// objects in the expedition facing it across its lane (Will-o'-the-Wisp).
    /// 0: no such limit.
    pub fn duel_only_due_to(&self, db: &CardDb, side: Side, e: Exp, region: u8) -> u8 {
        // The expedition across the lane (with two seats, the same one of the other seat).
        let Some((seat, fe)) = self.table.facing(side.seat(), e) else {
            return 0;
        };
        let facing = Side::of_seat(seat);
        let mut need = 0u8;
        self.each_expedition_static(
            db,
            |st| matches!(st, Static::DarknessOnlyDueTo(_)),
            |o, st| {
                if let Static::DarknessOnlyDueTo(t) = st
                    && o.side == facing
                    && o.exp == fe
                    && region & t != 0
                {
                    need |= t;
                }
            },
        );
        need
    }

    /// The player's expedition can't move forward now.
    pub fn expedition_blocked(&self, db: &CardDb, e: Exp) -> bool {
        self.today.seats[Side::Player].no_forward.get(e) || self.static_no_forward(db).get(e)
    }

    /// One side's expedition can't move forward now. Head-to-head, a "can't move forward"
    /// static blocks that expedition of its controller and the opposing one facing it
    /// (Issitoq: its controller's other expedition and the opposing one across from it, D47), as it blocks
    /// the player's expedition and the Darkness facing it in the Confluence mode.
    pub fn expedition_blocked_of(&self, db: &CardDb, side: Side, e: Exp) -> bool {
        match self.mode {
            Mode::Duel | Mode::FreeForAll => {
                self.today.seats[side].no_forward.get(e)
                    || if N == 2 {
                        self.static_no_forward(db).get(e)
                    } else {
                        self.static_no_forward_at(db, side, e)
                    }
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
    /// (D8: Defender stops only that, on either side; effects still move it). It is judged
    /// at Dusk, with the cards in play then (`Today::defended`, set by Dusk from
    /// [`GameState::confluence_defender_faces`] and a cleared player Defender expedition):
    /// Rest may have sent the Defender away before Midnight.
    pub fn darkness_defended(&self, e: Exp) -> bool {
        self.today.defended.get(e)
    }

    /// A Confluence Defender faces this player expedition now: one in the Confluence
    /// expedition facing it, or a Gigantic Character with Defender in either (it faces both).
    pub fn confluence_defender_faces(&self, db: &CardDb, e: Exp) -> bool {
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
    /// A player expedition is "behind" when the Darkness stands right behind it and the
    /// revealed Midnight card will advance that Darkness (FAQ "Expedition is Behind").
    pub fn is_behind(&self, db: &CardDb, e: Exp) -> bool {
        self.darkness_adjacent(e) && self.midnight_target(db) == Some(e)
    }

    /// A side's expedition is behind: in Confluence mode the player's, against the
    /// Darkness; head-to-head, when the opposing expedition has travelled strictly further
    /// (digest 5.19; never in the Arena).
    pub fn is_behind_of(&self, db: &CardDb, side: Side, e: Exp) -> bool {
        if self.exp_has_static(db, side, e, |st| matches!(st, Static::ConsideredBehind)) {
            return true;
        }
        match self.mode {
            Mode::Confluence => side == Side::Player && self.is_behind(db, e),
            Mode::Duel | Mode::FreeForAll => {
                !self.arena
                    && self.facing_of(side, e).is_some_and(|(them, f)| {
                        self.progress_of(them, f) > self.progress_of(side, e)
                    })
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
            return self.today.seats[Side::Player].advanced;
        }
        if JUDGING_DUSK.get() {
            return ByExp([false, false]);
        }
        JUDGING_DUSK.set(true);
        let r = crate::engine::overcome::progressing(self, db);
        JUDGING_DUSK.set(false);
        r
    }

    /// Resolves a placement icon to an expedition; ties and no-match go to the Threatened one.
    /// `progressing` says whether an expedition counts as Progressing at this moment.
    pub fn icon_target(
        &self,
        db: &CardDb,
        icon: Placement,
        progressing: impl Fn(&GameState<N, M>, Exp) -> bool,
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
}
