//! The Confluence's fixed behaviour: its turn algorithm (S0 "The Confluence's Turn",
//! digest §6.4), placement (§6.8), extra costs, and sacrifice choice (FAQ "Sacrifice").

use super::Engine;
use super::choice::Alt;
use super::event::{ConfluenceAction, Event, Observer, Why};
use super::list::List;
use super::overcome;
use super::query::Ctx;
use super::state::*;
use super::triggers::Fire;
use crate::cards::effect::*;
use crate::cards::types::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// The quick action at position `cursor` of the Confluence's candidates, in Noon order:
    /// hero, characters in expeditions (left to right), landmarks, Reserve cards (A10).
    pub(super) fn confluence_quick_candidate(&self, cursor: u16) -> Option<(ObjId, u8)> {
        let side = self.s.side(Side::Confluence);
        // Most of the time none of its objects has a quick or support ability: say so
        // before listing and sorting the expeditions (the lists one by one, as
        // `queue_timed` tests them).
        let has = |ids: &[ObjId]| {
            ids.iter().any(|&id| {
                self.db.card(self.s.obj(id).card).trigger_mask & (tmask::QUICK | tmask::SUPPORT)
                    != 0
            })
        };
        if !(has(std::slice::from_ref(&side.hero))
            || has(side.exp[0].as_slice())
            || has(side.exp[1].as_slice())
            || has(side.landmarks.as_slice())
            || has(side.reserve.as_slice()))
        {
            return None;
        }
        let mut exp: List<64> = List::new();
        for e in 0..2 {
            for id in side.exp[e].iter() {
                let _ = exp.push(id);
            }
        }
        exp.as_mut_slice()
            .sort_unstable_by_key(|&id| self.s.obj(id).ts);
        let mut n = 0u16;
        let groups: [(&[ObjId], bool); 4] = [
            (std::slice::from_ref(&side.hero), false),
            (exp.as_slice(), false),
            (side.landmarks.as_slice(), false),
            (side.reserve.as_slice(), true),
        ];
        for (ids, reserve) in groups {
            for &id in ids {
                let def = self.db.card(self.s.obj(id).card);
                if def.trigger_mask & (tmask::QUICK | tmask::SUPPORT) == 0 {
                    continue;
                }
                for (k, ab) in self.db.abilities_of(self.s.obj(id).card).iter().enumerate() {
                    let fits = match ab.trigger {
                        Trigger::Quick(_) => !reserve,
                        Trigger::Support(_) => reserve,
                        _ => false,
                    };
                    if fits {
                        if n == cursor {
                            return Some((id, k as u8));
                        }
                        n += 1;
                    }
                }
            }
        }
        None
    }

    /// A10: the Confluence uses every quick action it can pay for, each once per turn.
    #[inline(never)]
    pub(super) fn confluence_quick(&mut self, cursor: u16) {
        let mut c = cursor;
        while let Some((id, k)) = self.confluence_quick_candidate(c) {
            c += 1;
            let o = *self.s.obj(id);
            let ab = self.db.abilities_of(o.card)[k as usize];
            let cost = match ab.trigger {
                Trigger::Quick(c) | Trigger::Support(c) => c,
                _ => continue,
            };
            if (o.zone == Zone::Reserve && o.has(flag::EXHAUSTED))
                || !self.s.can_pay(self.db, Side::Confluence, id, &cost)
                || !self
                    .s
                    .eval_cond(self.db, ab.cond, &Ctx::of(Side::Confluence, id))
            {
                continue;
            }
            self.s.phase = Phase::ConfluenceQuick(c);
            self.activate(id, k);
            return;
        }
        self.s.phase = Phase::ConfluencePlay;
    }

    /// Extra cost of playing a Confluence card: the Tough of the target its first targeting
    /// effect would take (the leftmost one it can pay for). `None` when the card has a
    /// mandatory target it cannot pay for: the card is then unplayable (FAQ "Additional
    /// Costs").
    fn confluence_extra_cost(&self, id: ObjId, from_reserve: bool, budget: u8) -> Option<u8> {
        let o = self.s.obj(id);
        let def = self.db.card(o.card);
        for ab in self.db.abilities_of(o.card) {
            let applies = match ab.trigger {
                Trigger::Spell => def.kind == CardKind::Spell,
                Trigger::Played(PlayFrom::Any) => true,
                Trigger::Played(PlayFrom::Hand) => !from_reserve,
                Trigger::Played(PlayFrom::Reserve) => from_reserve,
                _ => false,
            };
            if !applies {
                continue;
            }
            for pc in 0..ab.len {
                if let Op::Select { filter, min, .. } = self.db.op(ab, pc) {
                    let ctx = Ctx::of(Side::Confluence, id);
                    let (mut any, mut payable) = (false, None);
                    self.s
                        .for_each_candidate(self.db, self.db.filter(filter), &ctx, |t| {
                            any = true;
                            let tough = if self.s.obj(t).side != Side::Confluence {
                                self.s.tough(self.db, t)
                            } else {
                                0
                            };
                            if payable.is_none() && tough <= budget {
                                payable = Some(tough);
                            }
                        });
                    return match (any, payable) {
                        (_, Some(t)) => Some(t),
                        (false, None) => Some(0),
                        (true, None) if min == 0 => Some(0),
                        (true, None) => None,
                    };
                }
            }
        }
        Some(0)
    }

    /// Which player expedition a Confluence card faces: its placement icon, with ties and
    /// no match going to the Threatened expedition.
    pub(super) fn placement(&self, id: ObjId) -> (Exp, Placement, bool) {
        let icon = self.db.card(self.s.obj(id).card).placement;
        let prog = if icon == Placement::Progressing {
            overcome::progressing(self.s, self.db)
        } else {
            ByExp([false, false])
        };
        let e = self.s.icon_target(self.db, icon, |_, e| prog.get(e));
        let matched = match icon {
            Placement::Threatened | Placement::Hero | Placement::Companion => true,
            Placement::Progressing => prog.get(e),
            _ => {
                let t = icon.terrain().expect("terrain icon");
                self.s.region_terrains(self.db, self.s.region(e)) & t != 0
            }
        };
        (e, icon, !matched)
    }

    /// Plays a card of the Confluence's hand for free (an effect let it), by its placement.
    fn confluence_play_it(&mut self, id: ObjId, from_reserve: bool) {
        let (exp, icon, fell_back) = self.placement(id);
        self.play_card(id, from_reserve, exp, Some((icon, fell_back)), Alt::None);
    }

    /// The Confluence's play step: top card of hand if affordable, else into Mana and look
    /// again (A9); with an empty hand, the most expensive affordable Reserve card (ties:
    /// leftmost); otherwise it passes.
    #[inline(never)]
    pub(super) fn confluence_play(&mut self) {
        // Snapshot for the log only (the observer is compiled away in simulations).
        let mut hand_costs = [(NO_OBJ, 0u8); 64];
        let mut reserve_costs = [(NO_OBJ, 0u8); 64];
        let (mut nh, mut nr) = (0, 0);
        let start_mana = self.s.side(Side::Confluence).mana_ready;
        if O::ENABLED {
            let side = *self.s.side(Side::Confluence);
            for id in side.hand.iter() {
                hand_costs[nh] = (id, self.s.play_cost(self.db, id, false));
                nh += 1;
            }
            for id in side.reserve.iter() {
                reserve_costs[nr] = (id, self.s.play_cost(self.db, id, true));
                nr += 1;
            }
        }
        let action;
        loop {
            let side = self.s.side(Side::Confluence);
            let Some(top) = side.hand.first() else {
                action = self.confluence_from_reserve();
                break;
            };
            let ready = side.mana_ready;
            self.s.obj_mut(top).flags |= flag::KNOWN;
            let cost = self.s.play_cost(self.db, top, false);
            let extra = if cost <= ready {
                self.confluence_extra_cost(top, false, ready - cost)
            } else {
                None
            };
            let playable = extra.is_some();
            if O::ENABLED {
                self.emit(Event::ConfluenceReveals {
                    obj: top,
                    cost: cost + extra.unwrap_or(0),
                    ready_mana: ready,
                    playable,
                });
            }
            if playable {
                self.confluence_play_it(top, false);
                action = ConfluenceAction::PlayFromHand(top);
                break;
            }
            self.put_in_mana(top, true, Why::CannotPay);
        }
        if O::ENABLED {
            self.emit(Event::ConfluenceTurn {
                hand: &hand_costs[..nh],
                ready_mana: start_mana,
                reserve: &reserve_costs[..nr],
                action,
            });
        }
        if self.s.phase == Phase::ConfluencePlay {
            self.s.phase = Phase::TurnEnd;
        }
    }

    /// Rush for the Confluence: it plays its top hand card if it can pay for it; with an
    /// empty hand, its most expensive affordable Reserve card (ties: leftmost). A card it
    /// cannot pay for stays in its hand: this is no turn (D31). Returns whether it played.
    pub(super) fn confluence_rush(&mut self) -> bool {
        let side = self.s.side(Side::Confluence);
        let ready = side.mana_ready;
        let Some(top) = side.hand.first() else {
            if let Some(id) = self.confluence_best_reserve() {
                self.confluence_play_it(id, true);
                return true;
            }
            return false;
        };
        let cost = self.s.play_cost(self.db, top, false);
        if cost <= ready
            && self
                .confluence_extra_cost(top, false, ready - cost)
                .is_some()
        {
            self.confluence_play_it(top, false);
            return true;
        }
        false
    }

    /// The Confluence's most expensive affordable ready Reserve card (ties: leftmost).
    fn confluence_best_reserve(&self) -> Option<ObjId> {
        let side = self.s.side(Side::Confluence);
        let ready = side.mana_ready;
        let mut best: Option<(ObjId, u8)> = None;
        for id in side.reserve.iter() {
            if self.s.obj(id).has(flag::EXHAUSTED) {
                continue;
            }
            let cost = self.s.play_cost(self.db, id, true);
            if cost > ready || self.confluence_extra_cost(id, true, ready - cost).is_none() {
                continue;
            }
            let rc = self.db.card(self.s.obj(id).card).reserve_cost;
            if best.is_none_or(|(_, b)| rc > b) {
                best = Some((id, rc));
            }
        }
        best.map(|(id, _)| id)
    }

    fn confluence_from_reserve(&mut self) -> ConfluenceAction {
        match self.confluence_best_reserve() {
            Some(id) => {
                self.confluence_play_it(id, true);
                ConfluenceAction::PlayFromReserve(id)
            }
            None => {
                self.pass(Side::Confluence);
                ConfluenceAction::Pass
            }
        }
    }

    pub(super) fn pass(&mut self, side: Side) {
        self.s.passed |= side.bit();
        if O::ENABLED {
            self.emit(Event::Pass { side });
        }
        // It passes first when no other seat still playing has passed.
        if self.s.passed & self.s.table.playing() & !side.bit() == 0 {
            self.fire(Fire::PassedFirst { side });
        }
    }

    /// FAQ "Sacrifice": the cheapest (Hand Cost) Confluence character in an expedition
    /// facing a player expedition that is not Progressing; ties go to the Threatened side,
    /// then the leftmost. When every character (or none) faces a non-Progressing
    /// expedition, choose among all of them (A19).
    pub(super) fn confluence_sacrifice_choice(&self) -> Option<ObjId> {
        let prog = overcome::progressing(self.s, self.db);
        let side = self.s.side(Side::Confluence);
        let chars = |only_non_prog: bool| {
            let mut best: Option<(u8, bool, u16, ObjId)> = None;
            for e in Exp::BOTH {
                if only_non_prog && prog.get(e) {
                    continue;
                }
                for id in side.exp[e.index()].iter() {
                    let def = self.db.card(self.s.obj(id).card);
                    if !def.kind.is_character() {
                        continue;
                    }
                    // Smaller key wins: cost, then Threatened side, then oldest.
                    let key = (def.hand_cost, e != self.s.threatened, self.s.obj(id).ts, id);
                    if best.is_none_or(|b| key < b) {
                        best = Some(key);
                    }
                }
            }
            best.map(|b| b.3)
        };
        chars(true).or_else(|| chars(false))
    }

    /// The Permanent the Confluence sacrifices for a cost of these kinds: its lowest Hand
    /// Cost one, leftmost on ties (as its Clean-up discards Landmarks, A20).
    pub(super) fn confluence_sacrifice_permanent(&self, kinds: u8) -> Option<ObjId> {
        let side = self.s.side(Side::Confluence);
        let mut best: Option<(u8, u16, ObjId)> = None;
        for id in side
            .landmarks
            .iter()
            .chain(side.exp[0].iter())
            .chain(side.exp[1].iter())
        {
            let def = self.db.card(self.s.obj(id).card);
            if super::query::kind_bit(def.kind) & kinds == 0 {
                continue;
            }
            let key = (def.hand_cost, self.s.obj(id).ts, id);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
        best.map(|b| b.2)
    }
}
