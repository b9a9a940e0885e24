//! Features of an option, for the `expert`'s learned scores: a few numbers per option that
//! a player can read off the table (costs, statistics, what an expedition still lacks, the
//! Darkness), plus the planner's own opinion. Cheap: no simulation, no allocation.
//!
//! Two families: putting a card into Mana (setup and Expand), and the Afternoon turn. The
//! names are the keys of `decks/policies/expert.toml`.
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

use arrayvec::ArrayVec;

use super::needs::Needs;
use super::profile::Profiles;
use crate::cards::types::*;
use crate::engine::Choice;
use crate::engine::state::Decision;
use crate::engine::view::View;

pub const MANA_NAMES: [&str; 15] = [
    "done",
    "done_x_orbs",
    "done_x_hand",
    "character",
    "spell",
    "permanent",
    "hand_cost",
    "reserve_cost",
    "stats",
    "stats_per_cost",
    "unaffordable",
    "worth",
    "draws",
    "duplicate",
    "planner_pick",
];
pub const MANA_F: usize = MANA_NAMES.len();

pub const TURN_NAMES: [&str; 23] = [
    "pass",
    "pass_x_confluence_passed",
    "pass_x_mana",
    "quick",
    "from_reserve",
    "character",
    "spell",
    "cost",
    "cost_share",
    "midnight_target",
    "darkness_adjacent",
    "threatened",
    "deficit",
    "covered",
    "clears",
    "already_clear",
    "other_in_danger",
    "stats",
    "draws",
    "removal",
    "clears_x_meet",
    "planner_pick",
    "planner_ranked",
];
pub const TURN_F: usize = TURN_NAMES.len();

pub type ManaFeatures = [f32; MANA_F];
pub type TurnFeatures = [f32; TURN_F];

/// Which family a decision belongs to, if any.
pub fn family(d: Decision) -> Option<Family> {
    match d {
        Decision::SetupMana | Decision::Expand => Some(Family::Mana),
        Decision::Turn => Some(Family::Turn),
        _ => None,
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Family {
    Mana,
    Turn,
}

/// Features of every option of a "card into Mana" decision.
pub fn mana<const N: usize, const M: usize>(
    view: &View<'_, N, M>,
    prof: &Profiles,
    options: &[Choice],
    pick: usize,
    out: &mut ArrayVec<ManaFeatures, 64>,
) {
    let (orbs, _) = view.mana(view.me());
    let hand = view.hand();
    for (k, c) in options.iter().enumerate() {
        let mut f = [0f32; MANA_F];
        f[14] = (k == pick) as u8 as f32;
        match *c {
            Choice::Card(id) => {
                let def = view.card(id);
                let p = prof.card(view.obj(id).card);
                let stats = def.stats.clamp_zero().sum() as f32;
                f[3] = def.kind.is_character() as u8 as f32;
                f[4] = (def.kind == CardKind::Spell) as u8 as f32;
                f[5] = matches!(def.kind, CardKind::Landmark | CardKind::ExpeditionPermanent) as u8
                    as f32;
                f[6] = def.hand_cost as f32 / 5.0;
                f[7] = def.reserve_cost as f32 / 5.0;
                f[8] = stats / 10.0;
                f[9] = stats / (def.hand_cost as f32 + 1.0) / 3.0;
                f[10] = (def.hand_cost > orbs + 1) as u8 as f32;
                f[11] = p.worth as f32 / 10.0;
                f[12] = p.play[0].draws as f32;
                f[13] = (hand
                    .iter()
                    .filter(|&&o| o != id && view.card(o).name == def.name)
                    .count()
                    > 0) as u8 as f32;
            }
            _ => {
                f[0] = 1.0;
                f[1] = orbs as f32 / 10.0;
                f[2] = hand.len() as f32 / 8.0;
            }
        }
        let _ = out.try_push(f);
    }
}

/// What the turn features read once per decision.
pub struct TurnCtx {
    needs: Needs,
    target: Option<Exp>,
    has_char: [bool; 2],
    mana: u8,
    confluence_passed: bool,
    meet: i8,
}

impl TurnCtx {
    /// `day` is what the planner read of the view (computed once for both).
    pub(super) fn new<const N: usize, const M: usize>(
        view: &View<'_, N, M>,
        day: &super::planner::Day,
    ) -> TurnCtx {
        TurnCtx {
            needs: day.needs,
            target: day.target,
            has_char: day.has_char,
            mana: view.mana(view.me()).1,
            // Every opponent has passed (the Confluence, or the one or three players).
            confluence_passed: super::needs::opponents_passed(view),
            meet: view.distance_to_meet(),
        }
    }
}

/// Features of one option of an Afternoon turn. `ranked` is the planner's short list,
/// its pick first.
pub fn turn<const N: usize, const M: usize>(
    view: &View<'_, N, M>,
    prof: &Profiles,
    ctx: &TurnCtx,
    options: &[Choice],
    k: usize,
    ranked: &[usize],
) -> TurnFeatures {
    let mut f = [0f32; TURN_F];
    f[21] = (ranked.first() == Some(&k)) as u8 as f32;
    f[22] = ranked.contains(&k) as u8 as f32;
    match options[k] {
        Choice::Pass | Choice::Done => {
            f[0] = 1.0;
            f[1] = ctx.confluence_passed as u8 as f32;
            f[2] = ctx.mana as f32 / 5.0;
        }
        Choice::Quick { .. } => f[3] = 1.0,
        Choice::Play {
            obj,
            from_reserve,
            exp,
            ..
        } => {
            let def = view.card(obj);
            let p = prof.card(view.obj(obj).card).play[from_reserve as usize];
            let cost = view.play_cost(obj, from_reserve);
            f[4] = from_reserve as u8 as f32;
            f[5] = def.kind.is_character() as u8 as f32;
            f[6] = (def.kind == CardKind::Spell) as u8 as f32;
            f[7] = cost as f32 / 5.0;
            f[8] = cost as f32 / (ctx.mana.max(1)) as f32;
            // Spells and Landmarks name the Hero expedition; judge them by the one their
            // boosts would help (the one with a character and the larger deficit).
            let e = if def.kind.goes_to_expedition() {
                exp
            } else {
                *Exp::BOTH
                    .iter()
                    .max_by_key(|e| {
                        (
                            ctx.has_char[e.index()],
                            ctx.needs.deficit(**e).sum(),
                            -(e.index() as i16),
                        )
                    })
                    .unwrap_or(&Exp::Hero)
            };
            let b = |n: i16| Stats::new(n, n, n);
            let mut add = p.token_here;
            if def.kind.is_character() {
                add = add + p.body + b(p.boost_target);
            } else if ctx.has_char[e.index()] {
                add = add + b(p.boost_target);
            }
            if ctx.has_char[e.index()] || def.kind.is_character() {
                add = add + b(p.boost_each_here);
            }
            let d = ctx.needs.deficit(e);
            let after = (d - add).clamp_zero();
            f[9] = (ctx.target == Some(e)) as u8 as f32;
            f[10] = (view.darkness_gap(e) <= 1) as u8 as f32;
            f[11] = (view.threatened() == e) as u8 as f32;
            f[12] = d.sum() as f32 / 5.0;
            f[13] = (d.sum() - after.sum()) as f32 / 5.0;
            let clears = d != Stats::ZERO && after == Stats::ZERO;
            f[14] = clears as u8 as f32;
            f[15] = (d == Stats::ZERO) as u8 as f32;
            let o = e.other();
            f[16] = (ctx.target == Some(o)
                && view.darkness_gap(o) <= 1
                && ctx.needs.deficit(o) != Stats::ZERO) as u8 as f32;
            f[17] = def.stats.clamp_zero().sum() as f32 / 10.0;
            f[18] = p.draws as f32;
            f[19] = p.removal.is_some() as u8 as f32;
            f[20] = (clears && ctx.meet <= 2) as u8 as f32;
        }
        _ => {}
    }
    f
}

/// The learned per-card preferences: one weight per card name for playing it from hand,
/// playing it from Reserve, putting it into Mana, and using one of its quick actions.
pub const CARD_SLOTS: usize = 4;
pub const SLOT_HAND: usize = 0;
pub const SLOT_RESERVE: usize = 1;
pub const SLOT_MANA: usize = 2;
pub const SLOT_QUICK: usize = 3;

/// The card an option plays or banks and the slot of its learned preference, if any.
pub fn card_slot<const N: usize, const M: usize>(
    view: &View<'_, N, M>,
    c: &Choice,
) -> Option<(crate::cards::effect::CardIdx, usize)> {
    match *c {
        Choice::Play {
            obj, from_reserve, ..
        } => Some((
            view.obj(obj).card,
            if from_reserve {
                SLOT_RESERVE
            } else {
                SLOT_HAND
            },
        )),
        Choice::Card(id) => Some((view.obj(id).card, SLOT_MANA)),
        Choice::Quick { obj, .. } => Some((view.obj(obj).card, SLOT_QUICK)),
        _ => None,
    }
}

/// A linear score.
#[inline]
pub fn dot(w: &[f32], f: &[f32]) -> f32 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}
