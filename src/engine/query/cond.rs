//! Conditions and counts: evaluating `if ...` and the amounts that count things.

use super::*;

impl<const N: usize, const M: usize> GameState<N, M> {
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
            Count::LastRoll => self.today.last_roll[ctx.controller] as i16,
            Count::OpponentHandSize => self.side(self.opponent_in(ctx)).hand.len() as i16,
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
            Count::ExpsInContact => Exp::BOTH
                .iter()
                .filter(|&&e| {
                    !self.scripted(ctx.controller) && self.in_contact_of(db, ctx.controller, e)
                })
                .count() as i16,
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
            // "Your" expeditions: head to head and at four seats the controller's; in solo
            // the player's (the Confluence's cards stand with the player's expeditions).
            Count::RegionsBetween => {
                let side = if self.mode.versus() {
                    ctx.controller
                } else {
                    Side::Player
                };
                let pos = self.pos_of(side);
                (pos.get(Exp::Companion) - pos.get(Exp::Hero) - 1).max(0) as i16
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
                self.mode.versus()
                    && !self.arena
                    && self.source_exp(ctx).is_some_and(|e| {
                        self.facing_of(ctx.controller, e).is_some_and(|(them, f)| {
                            self.progress_of(ctx.controller, e) > self.progress_of(them, f)
                        })
                    })
            }
            Cond::InContact => self
                .source_exp(ctx)
                .is_some_and(|e| self.in_contact_of(db, ctx.controller, e)),
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
            Cond::FacingTerrain(t) => self.source_exp(ctx).is_some_and(|e| {
                self.facing_of(ctx.controller, e).is_some_and(|(them, f)| {
                    self.region_terrains(db, self.region_of(them, f)) & t != 0
                })
            }),
            Cond::SingleTerrain => self.source_exp(ctx).is_some_and(|e| {
                self.region_terrains(db, self.region_of(ctx.controller, e))
                    .count_ones()
                    == 1
            }),
            // The card a player plays resolves after its turn's phase moved to `TurnEnd`:
            // still that player's turn (D65, as a Gift's "during your turn", D24).
            Cond::YourTurn => {
                matches!(
                    self.phase,
                    Phase::Turn
                        | Phase::TurnEnd
                        | Phase::ConfluenceQuick(_)
                        | Phase::ConfluencePlay
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
}
