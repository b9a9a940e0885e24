//! `planner`: a careful player who plans each Afternoon around Dusk.
//!
//! - **Turn.** It works out what each expedition still lacks (facing objects plus region
//!   terrain, minus its characters) and which expedition the Darkness reaches tonight (the
//!   revealed Midnight card names it). It then plans, with the ready Mana and the cards in
//!   hand and Reserve, how to clear both expeditions, only the Hero one, or only the
//!   Companion one, counting each card's own boosts, tokens, boosts for a target and
//!   removal of a facing object. Plans are valued by the expeditions they clear: one the
//!   Darkness would catch tonight counts most, and clearing enough to make the expeditions
//!   meet wins outright. It plays the first card of the best plan; it does not spend cards
//!   on an expedition it cannot clear.
//! - **Holding the Afternoon.** Once its expeditions are clear it keeps taking turns while
//!   the Confluence has not passed, adding small cards to the expedition it most needs to
//!   keep, so that it can answer what the Confluence plays next (a player who passes gets
//!   no more turns that day). It keeps `keep` Mana for those answers.
//! - **Support.** It discards a Reserve card for "the next character gets N boosts" just
//!   before the character it plans to play, when those boosts finish the expedition.
//! - **Mana and Expand.** At setup it puts its most expensive cards into Mana; it Expands
//!   every morning (until it has `mana` orbs) with a card it could not afford even after
//!   expanding, else with its least useful card.
//! - **Targets.** Boosts go to the character whose expedition they help most; removal goes
//!   to the facing object whose absence helps most.
//! - **Clean-up.** It keeps the Reserve cards that are worth most when played from there.

use std::sync::Arc;

use arrayvec::ArrayVec;

use super::greedy::{Intent, exp_intent, target_intent};
use super::needs::Needs;
use super::profile::{PlayProfile, Profiles};
use super::{Policy, PolicyRng, argmax_by, card_of, routine};
use crate::cards::effect::Op;
use crate::cards::types::*;
use crate::engine::Choice;
use crate::engine::choice::Alt;
use crate::engine::state::{Decision, ObjId};
use crate::engine::view::View;

/// Tunable parameters (`planner:keep=2,mana=6`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlannerParams {
    /// Mana kept back for answers while holding the Afternoon.
    pub keep: u8,
    /// Expand until the player has this many Mana orbs.
    pub mana: u8,
}

impl Default for PlannerParams {
    fn default() -> Self {
        PlannerParams { keep: 0, mana: 10 }
    }
}

#[derive(Clone)]
pub struct Planner {
    prof: Arc<Profiles>,
    pub params: PlannerParams,
}

const NONE: u16 = u16::MAX;
const TIE_BIGGER: bool = false;

/// One way of playing one card this turn.
#[derive(Copy, Clone, Debug)]
struct Item {
    /// Option index for each expedition (`NONE` when it cannot go there); Spells and
    /// Landmarks have a single option, stored for both.
    opt: [u16; 2],
    cost: u8,
    character: bool,
    gigantic: bool,
    p: PlayProfile,
    /// Statistics of the best opposing object its removal could take from each expedition.
    removal: [Stats; 2],
}

/// What a plan achieves and how it starts.
#[derive(Copy, Clone, Debug, Default)]
struct Plan {
    cleared: [bool; 2],
    mana: u8,
    /// (item index, expedition) of its first play.
    first: Option<(usize, Exp)>,
    /// Deficit left in the first play's expedition once that play is made.
    after_first: Stats,
}

/// The facts of the current day every decision reads.
pub(super) struct Day {
    pub(super) needs: Needs,
    weight: [i32; 2],
    /// Expeditions the player has a character in.
    pub(super) has_char: [bool; 2],
    /// The expedition tonight's Midnight card threatens, when known.
    pub(super) target: Option<Exp>,
}

fn covered(rem: Stats, add: Stats) -> i16 {
    rem.sum() - (rem - add).clamp_zero().sum()
}

impl Planner {
    pub fn new(prof: Arc<Profiles>, params: PlannerParams) -> Planner {
        Planner { prof, params }
    }

    fn day<const N: usize, const M: usize>(&self, view: &View<'_, N, M>) -> Day {
        let needs = Needs::of(view);
        let mut weight = [10i32; 2];
        let target = view.midnight_target();
        for e in Exp::BOTH {
            let gap = view.darkness_gap(e);
            if target == Some(e) {
                weight[e.index()] += match gap {
                    ..=1 => 1000,
                    2 => 5,
                    _ => 0,
                };
            } else if gap <= 1 {
                // Tomorrow's Midnight card is unknown: an expedition right in front of
                // the Darkness is worth moving anyway, more than one the Darkness only
                // approaches tonight (measured: these weights beat equal ones by about
                // two points of win rate with the reference matchup).
                weight[e.index()] += 20;
            }
        }
        Day {
            needs,
            weight,
            has_char: super::needs::has_character(view),
            target,
        }
    }

    /// The value of clearing these expeditions today.
    fn value<const N: usize, const M: usize>(
        view: &View<'_, N, M>,
        day: &Day,
        cleared: [bool; 2],
    ) -> i32 {
        let n = cleared.iter().filter(|&&c| c).count() as i8;
        let mut v: i32 = Exp::BOTH
            .iter()
            .filter(|e| cleared[e.index()])
            .map(|e| day.weight[e.index()])
            .sum();
        if n > 0 && n >= view.distance_to_meet() {
            v += 100_000;
        }
        v
    }

    fn items<const N: usize, const M: usize>(
        &self,
        view: &View<'_, N, M>,
        options: &[Choice],
        out: &mut ArrayVec<Item, 48>,
    ) {
        for (i, c) in options.iter().enumerate() {
            let Choice::Play {
                obj,
                from_reserve,
                exp,
                alt,
            } = *c
            else {
                continue;
            };
            // Scouting and discounts by discard are left to other policies.
            if matches!(
                alt,
                Alt::Scout | Alt::Discard(_) | Alt::Exhaust(_) | Alt::Sacrifice(_)
            ) {
                continue;
            }
            // The same card into the other expedition: one item, two options (its cost does
            // not depend on the expedition).
            if let Some(it) = out.iter_mut().find(|it| {
                let o = it.opt[0].min(it.opt[1]);
                o != NONE
                    && matches!(options[o as usize], Choice::Play { obj: o2, from_reserve: r2, alt: a2, .. }
                        if o2 == obj && r2 == from_reserve && a2 == alt)
            }) {
                it.opt[exp.index()] = i as u16;
                continue;
            }
            let cost = match alt {
                Alt::Free => 0,
                Alt::Less(n) | Alt::Cheaper(n) => {
                    view.play_cost(obj, from_reserve).saturating_sub(n)
                }
                Alt::HandCost => view.play_cost(obj, false),
                _ => view.play_cost(obj, from_reserve),
            };
            let def = view.card(obj);
            let character = def.kind.is_character();
            if character && def.keywords & kw::DEFENDER != 0 {
                continue;
            }
            let p = self.prof.card(view.obj(obj).card).play[from_reserve as usize];
            let mut opt = [NONE; 2];
            if def.kind.goes_to_expedition() {
                opt[exp.index()] = i as u16;
            } else {
                opt = [i as u16; 2];
            }
            let mut removal = [Stats::ZERO; 2];
            if let Some(f) = p.removal {
                for e in Exp::BOTH {
                    let mut best = Stats::ZERO;
                    let (side, fe) = view.across(e);
                    for &id in view.expedition(side, fe) {
                        if view.has_kw(id, kw::ASLEEP)
                            || !view.matches_card(f, id)
                            || view.tough(id) as u16 + cost as u16 > view.mana(view.me()).1 as u16
                        {
                            continue;
                        }
                        let st = view.stats(id).clamp_zero();
                        if st.sum() > best.sum() {
                            best = st;
                        }
                    }
                    removal[e.index()] = best;
                }
            }
            if out
                .try_push(Item {
                    opt,
                    cost,
                    character,
                    gigantic: def.kind.is_character() && def.keywords & kw::GIGANTIC != 0,
                    p,
                    removal,
                })
                .is_err()
            {
                break;
            }
        }
    }

    /// What item `it` adds to expedition `e` and to the other one, if played for `e`.
    fn contribution(it: &Item, e: Exp, has_char: [bool; 2]) -> Option<(Stats, Stats)> {
        if it.opt[e.index()] == NONE {
            return None;
        }
        let b = |n: i16| Stats::new(n, n, n);
        let mut here = it.removal[e.index()];
        let mut other = it.p.token_other;
        if it.character {
            here = here + it.p.body + it.p.token_here + b(it.p.boost_target);
            if has_char[e.index()] {
                here = here + b(it.p.boost_each_here);
            }
            if it.gigantic {
                other = other + it.p.body;
            }
        } else {
            here = here + it.p.token_here;
            if has_char[e.index()] {
                here = here + b(it.p.boost_target) + b(it.p.boost_each_here);
            }
        }
        Some((here, other))
    }

    /// Greedy cover of the expeditions in `want` with the Mana at hand.
    fn cover(items: &[Item], day: &Day, mana: u8, want: [bool; 2]) -> Plan {
        let mut rem = [
            day.needs.deficit(Exp::Hero),
            day.needs.deficit(Exp::Companion),
        ];
        for e in Exp::BOTH {
            if !want[e.index()] {
                rem[e.index()] = Stats::ZERO;
            }
        }
        let mut has_char = day.has_char;
        let mut left = mana;
        let mut used: u64 = 0;
        let mut plan = Plan::default();
        for _ in 0..8 {
            if rem[0] == Stats::ZERO && rem[1] == Stats::ZERO {
                break;
            }
            let mut best: Option<(usize, Exp, Stats, Stats)> = None;
            let mut best_s = 0i32;
            for (i, it) in items.iter().enumerate() {
                if used & (1 << i) != 0 || it.cost > left {
                    continue;
                }
                for e in Exp::BOTH {
                    let Some((here, other)) = Self::contribution(it, e, has_char) else {
                        continue;
                    };
                    let o = e.other();
                    let g = covered(rem[e.index()], here) + covered(rem[o.index()], other);
                    if g <= 0 {
                        continue;
                    }
                    let finishes = [(e, here), (o, other)]
                        .iter()
                        .filter(|(x, add)| {
                            rem[x.index()] != Stats::ZERO
                                && (rem[x.index()] - *add).clamp_zero() == Stats::ZERO
                        })
                        .count() as i32;
                    let s = g as i32 * 60 / (it.cost as i32 + 1) + finishes * 25
                        - (here.sum() - covered(rem[e.index()], here)) as i32;
                    if s > best_s {
                        best_s = s;
                        best = Some((i, e, here, other));
                    }
                }
            }
            let Some((i, e, here, other)) = best else {
                break;
            };
            used |= 1 << i;
            left -= items[i].cost;
            let o = e.other();
            rem[e.index()] = (rem[e.index()] - here).clamp_zero();
            rem[o.index()] = (rem[o.index()] - other).clamp_zero();
            if items[i].character {
                has_char[e.index()] = true;
            }
            if plan.first.is_none() {
                plan.first = Some((i, e));
                plan.after_first = rem[e.index()];
            }
        }
        for e in Exp::BOTH {
            plan.cleared[e.index()] = want[e.index()] && rem[e.index()] == Stats::ZERO;
        }
        plan.mana = mana - left;
        plan
    }

    /// The three plans (clear both, only Hero, only Companion) and their values.
    fn plans<const N: usize, const M: usize>(
        &self,
        view: &View<'_, N, M>,
        day: &Day,
        items: &[Item],
    ) -> [(Plan, i32); 3] {
        let mana = if view.decision() == Decision::PlayFree {
            0
        } else {
            view.mana(view.me()).1
        };
        // An expedition already clear changes nothing in a cover but its `cleared` flag:
        // the plans that differ only there are worked out once.
        let clear = Exp::BOTH.map(|e| day.needs.deficit(e) == Stats::ZERO);
        let mut memo: [Option<Plan>; 4] = [None; 4];
        [[true, true], [true, false], [false, true]].map(|want| {
            let key = [want[0] && !clear[0], want[1] && !clear[1]];
            let slot = key[0] as usize | (key[1] as usize) << 1;
            let mut plan = *memo[slot].get_or_insert_with(|| Self::cover(items, day, mana, key));
            for e in Exp::BOTH {
                if clear[e.index()] {
                    plan.cleared[e.index()] = want[e.index()];
                }
            }
            // A plan that leaves one of its expeditions short wastes what it spent there;
            // the single-expedition plans cover that case.
            if plan.cleared != want {
                return (plan, -1);
            }
            (plan, Self::value(view, day, plan.cleared))
        })
    }

    fn turn<const N: usize, const M: usize>(
        &self,
        view: &View<'_, N, M>,
        options: &[Choice],
        pass: usize,
    ) -> usize {
        let day = self.day(view);
        let mut items: ArrayVec<Item, 48> = ArrayVec::new();
        self.items(view, options, &mut items);
        let plans = self.plans(view, &day, &items);
        self.pick(view, options, pass, &day, &items, &plans)
    }

    fn pick<const N: usize, const M: usize>(
        &self,
        view: &View<'_, N, M>,
        options: &[Choice],
        pass: usize,
        day: &Day,
        items: &[Item],
        plans: &[(Plan, i32); 3],
    ) -> usize {
        let free = view.decision() == Decision::PlayFree;
        let mut best = 0;
        for j in 1..3 {
            let (p, v) = plans[j];
            let (b, bv) = plans[best];
            let tie = v == bv && p.mana == b.mana;
            let bigger = |p: &Plan| -> i16 {
                Exp::BOTH
                    .iter()
                    .filter(|e| p.cleared[e.index()])
                    .map(|&e| day.needs.deficit(e).sum())
                    .sum()
            };
            if v > bv
                || (v == bv && p.mana < b.mana)
                || (tie && TIE_BIGGER && bigger(&p) > bigger(&b))
            {
                best = j;
            }
        }
        let (plan, value) = plans[best];
        // Instead of passing: head to head, what is left to play once Dusk is planned
        // (nothing in solo play).
        let stop = || {
            if super::needs::head_to_head(view) {
                super::duel::extra(view, &self.prof, options, &day.needs).unwrap_or(pass)
            } else {
                pass
            }
        };
        if value <= 0 {
            return stop();
        }
        if let Some((i, e)) = plan.first {
            let it = &items[i];
            // A support boost that finishes this expedition together with this character.
            if it.character
                && view.pending_next_boosts() == 0
                && plan.after_first != Stats::ZERO
                && !free
            {
                for (k, c) in options.iter().enumerate() {
                    if let Choice::Quick { obj, ability } = *c
                        && let Some((a, n)) = self.prof.card(view.obj(obj).card).support_boost
                        && a == ability
                        && (plan.after_first - Stats::new(n, n, n)).clamp_zero() == Stats::ZERO
                    {
                        return k;
                    }
                }
            }
            return it.opt[e.index()] as usize;
        }
        // The planned expeditions are already clear.
        if free || super::needs::opponents_passed(view) {
            return stop();
        }
        let mana = view.mana(view.me()).1;
        self.hold(view, day, items, plan.cleared, mana)
            .unwrap_or_else(stop)
    }

    /// Options worth comparing at a turn, the planner's own pick first: the first plays of
    /// its three plans, holding the Afternoon, and passing.
    pub fn ranked<const N: usize, const M: usize>(
        &self,
        view: &View<'_, N, M>,
        options: &[Choice],
    ) -> ArrayVec<usize, 8> {
        self.ranked_with_day(view, options).0
    }

    /// [`Planner::ranked`], and the facts of the day it read (for callers that need them
    /// too, so they are computed once).
    pub(super) fn ranked_with_day<const N: usize, const M: usize>(
        &self,
        view: &View<'_, N, M>,
        options: &[Choice],
    ) -> (ArrayVec<usize, 8>, Day) {
        let mut out: ArrayVec<usize, 8> = ArrayVec::new();
        let pass = options
            .iter()
            .position(|c| matches!(c, Choice::Pass | Choice::Done))
            .unwrap_or(0);
        let day = self.day(view);
        let mut items: ArrayVec<Item, 48> = ArrayVec::new();
        self.items(view, options, &mut items);
        let plans = self.plans(view, &day, &items);
        let mut push = |k: usize| {
            if !out.contains(&k) {
                let _ = out.try_push(k);
            }
        };
        push(self.pick(view, options, pass, &day, &items, &plans));
        for (p, _) in &plans {
            if let Some((i, e)) = p.first {
                push(items[i].opt[e.index()] as usize);
            }
        }
        if let Some(k) = self.hold(view, &day, &items, [true, true], view.mana(view.me()).1) {
            push(k);
        }
        push(pass);
        (out, day)
    }

    /// A small play that keeps the Afternoon going while the Confluence still plays,
    /// strengthening the cleared expedition that matters most.
    fn hold<const N: usize, const M: usize>(
        &self,
        view: &View<'_, N, M>,
        day: &Day,
        items: &[Item],
        cleared: [bool; 2],
        mana: u8,
    ) -> Option<usize> {
        let e = Exp::BOTH
            .into_iter()
            .filter(|e| cleared[e.index()])
            .max_by_key(|e| {
                (
                    day.weight[e.index()],
                    (*e == view.threatened()) as i32,
                    -(e.index() as i32),
                )
            })?;
        let mut best: Option<(usize, i32)> = None;
        for it in items {
            if it.cost + self.params.keep > mana || !it.character {
                continue;
            }
            let Some((here, _)) = Self::contribution(it, e, day.has_char) else {
                continue;
            };
            // Cheapest first, then the most statistics.
            let s = -(it.cost as i32) * 100 + here.sum() as i32;
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((it.opt[e.index()] as usize, s));
            }
        }
        best.map(|(k, _)| k)
    }

    fn target<const N: usize, const M: usize>(
        &self,
        view: &View<'_, N, M>,
        options: &[Choice],
    ) -> usize {
        let day = self.day(view);
        let intent = target_intent(view);
        let amount = self.boost_amount(view);
        let done = options.iter().position(|c| *c == Choice::Done);
        let mut best = 0usize;
        let mut best_s = i32::MIN;
        for (k, c) in options.iter().enumerate() {
            let Choice::Card(id) = *c else { continue };
            let o = view.obj(id);
            let mine = o.side == view.me();
            let in_exp = o.zone == crate::engine::state::Zone::Expedition;
            let s = match (intent, mine) {
                (Intent::Friendly, true) => {
                    let add = Stats::new(amount, amount, amount);
                    let gig = view.has_kw(id, kw::GIGANTIC);
                    let mut s = 1;
                    for e in Exp::BOTH {
                        if in_exp && (e == o.exp || gig) {
                            let d = day.needs.deficit(e);
                            let g = covered(d, add) as i32;
                            let clears = d != Stats::ZERO && (d - add).clamp_zero() == Stats::ZERO;
                            s += day.weight[e.index()] * (g + if clears { 100 } else { 0 });
                        }
                    }
                    s
                }
                (Intent::Hostile, false) => {
                    if in_exp {
                        let st = view.stats(id).clamp_zero();
                        let d = day.needs.deficit(o.exp);
                        let g = covered(d, st) as i32;
                        let clears = d != Stats::ZERO && (d - st).clamp_zero() == Stats::ZERO;
                        1 + day.weight[o.exp.index()] * (g + if clears { 100 } else { 0 })
                            + st.sum() as i32
                    } else {
                        1 + view.card(id).reserve_cost as i32
                    }
                }
                (Intent::Neutral, _) => 1,
                _ => -1000 - view.stats(id).clamp_zero().sum() as i32,
            };
            if s > best_s {
                best_s = s;
                best = k;
            }
        }
        match done {
            Some(d) if best_s <= 0 => d,
            _ => best,
        }
    }

    /// The boost the running ability gives its target, when it gives one.
    fn boost_amount<const N: usize, const M: usize>(&self, view: &View<'_, N, M>) -> i16 {
        let Some(f) = view.frame() else { return 1 };
        let db = view.db();
        let ab = db.abilities[f.ability as usize];
        if f.pc + 1 < ab.len
            && let Op::Boost {
                n: crate::cards::effect::Amount::Const(n),
                ..
            } = db.op(&ab, f.pc + 1)
        {
            return n as i16;
        }
        1
    }

    fn worth<const N: usize, const M: usize>(&self, view: &View<'_, N, M>, id: ObjId) -> i32 {
        self.prof.card(view.obj(id).card).worth as i32
    }

    fn reserve_worth<const N: usize, const M: usize>(
        &self,
        view: &View<'_, N, M>,
        id: ObjId,
    ) -> i32 {
        self.prof.card(view.obj(id).card).reserve_worth as i32
    }
}

impl<const N: usize, const M: usize> Policy<N, M> for Planner {
    fn choose(&mut self, view: &View<'_, N, M>, options: &[Choice], _rng: &mut PolicyRng) -> usize {
        self.decide(view, options)
    }
}

impl Planner {
    /// The choice at a table of any size (its [`Policy`] at two seats and at four).
    pub fn decide<const N: usize, const M: usize>(
        &mut self,
        view: &View<'_, N, M>,
        options: &[Choice],
    ) -> usize {
        if options.len() == 1 {
            return 0;
        }
        let stop = || {
            options
                .iter()
                .position(|c| matches!(c, Choice::Pass | Choice::Done))
                .unwrap_or(0)
        };
        match view.decision() {
            Decision::Turn | Decision::PlayFree => self.turn(view, options, stop()),
            Decision::SetupMana => {
                // Bank the most expensive cards (the weakest first): the cheap ones are
                // what can be played on the first days.
                argmax_by(options, |c| {
                    card_of(c).map_or(i32::MIN, |id| {
                        let cost = view.card(id).hand_cost as i32;
                        cost * 100 - view.card(id).stats.sum() as i32
                    })
                })
            }
            Decision::Expand => {
                let (orbs, _) = view.mana(view.me());
                if orbs >= self.params.mana || view.hand().len() < 2 {
                    return stop();
                }
                argmax_by(options, |c| {
                    card_of(c).map_or(i32::MIN, |id| {
                        let cost = view.card(id).hand_cost;
                        // A card it could not afford even after this Expand waits longest.
                        (cost > orbs + 1) as i32 * 100 - self.worth(view, id)
                    })
                })
            }
            Decision::Target => self.target(view, options),
            Decision::Expedition => {
                let day = self.day(view);
                // "Target Expedition" moves back / loses its characters: an opposing one,
                // the one facing the expedition that matters most today.
                let hostile = exp_intent(view) == Intent::Hostile;
                argmax_by(options, |c| match *c {
                    Choice::OpposingExp(e) if hostile => {
                        day.weight[e.index()] * 10 + day.needs.deficit(e).sum() as i32
                    }
                    Choice::Exp(_) if hostile => i32::MIN,
                    Choice::Exp(e) if !day.needs.clear(e) => {
                        day.weight[e.index()] * 10 + day.needs.deficit(e).sum() as i32
                    }
                    Choice::Exp(e) => day.weight[e.index()],
                    _ => i32::MIN,
                })
            }
            Decision::May | Decision::Mode | Decision::Die => {
                routine(view.decision(), options).unwrap_or(0)
            }
            Decision::HandCard => argmax_by(options, |c| {
                card_of(c).map_or(i32::MIN, |id| -self.worth(view, id))
            }),
            Decision::ResupplyPick => argmax_by(options, |c| {
                card_of(c).map_or(i32::MIN, |id| self.reserve_worth(view, id))
            }),
            Decision::ReserveCard | Decision::CleanupReserve => argmax_by(options, |c| {
                card_of(c).map_or(i32::MIN, |id| -self.reserve_worth(view, id))
            }),
            // Free for All only (never asked with two seats).
            Decision::Seat => super::seat_choice(view, options),
            Decision::CleanupLandmark => argmax_by(options, |c| {
                card_of(c).map_or(i32::MIN, |id| -self.worth(view, id))
            }),
            Decision::Sacrifice => argmax_by(options, |c| {
                card_of(c).map_or(i32::MIN, |id| {
                    if view.obj(id).is_token() {
                        1000
                    } else {
                        -self.worth(view, id)
                    }
                })
            }),
            Decision::RestOrder => super::rest_order(view, options),
            Decision::None => 0,
        }
    }
}
