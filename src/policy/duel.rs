//! Head to head only: what the careful players (`planner`, and `expert` through it) play
//! once their plan for Dusk is made or out of reach, where against the Confluence they
//! would pass.
//!
//! Against the Confluence only statistics for Dusk count, so the planner passes as soon
//! as its expeditions are clear. Against a player, a pass gives the opponent the rest of
//! the Afternoon, and what the planner leaves in hand is what wins a duel over several
//! days: Landmarks (they stay), cards that draw, spells that move an expedition or take
//! an opposing character away, and characters that stop the opposing expedition facing
//! one of its own from moving forward (the opponent scores what its expeditions advance;
//! a Defender does that in an expedition that was not going to move anyway). Nothing here
//! runs in Confluence mode, so no solo decision changes.
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

use super::needs::{Needs, duel_total};
use super::profile::Profiles;
use crate::cards::types::*;
use crate::engine::Choice;
use crate::engine::choice::Alt;
use crate::engine::duel::terrains_won;
use crate::engine::state::Decision;
use crate::engine::view::View;

/// Would the opposing expedition facing `e` move forward at Dusk if this side's
/// expedition `e` had `add` more? (Holding effects are not read: a cautious guess.)
pub fn opposing_advances<const N: usize, const M: usize>(
    view: &View<'_, N, M>,
    e: Exp,
    add: Stats,
) -> bool {
    let mine = duel_total(view, view.me(), e) + add;
    let (side, fe) = view.across(e);
    let theirs = duel_total(view, side, fe);
    terrains_won(theirs, mine, view.their_terrains(e), false) != 0
}

/// The best play that is not part of a plan for Dusk, or `None` when nothing is worth
/// playing (then the player passes).
pub fn extra<const N: usize, const M: usize>(
    view: &View<'_, N, M>,
    prof: &Profiles,
    options: &[Choice],
    needs: &Needs,
) -> Option<usize> {
    let free = view.decision() == Decision::PlayFree;
    let mana = view.mana(view.me()).1;
    let them_in_play = Exp::BOTH.iter().any(|&e| {
        let (side, fe) = view.across(e);
        !view.expedition(side, fe).is_empty()
    });
    let waits_for_orbs = view
        .hand()
        .iter()
        .chain(view.reserve(view.me()))
        .any(|&id| prof.card(view.obj(id).card).conditional);
    let mut best: Option<(usize, i32)> = None;
    for (k, c) in options.iter().enumerate() {
        let Choice::Play {
            obj,
            from_reserve,
            exp,
            alt,
        } = *c
        else {
            continue;
        };
        let cost = match alt {
            Alt::Free => 0,
            Alt::None => view.play_cost(obj, from_reserve),
            Alt::HandCost => view.play_cost(obj, false),
            Alt::Less(n) | Alt::Cheaper(n) => view.play_cost(obj, from_reserve).saturating_sub(n),
            // Scouting and costs paid in cards are left to the plan.
            Alt::Scout | Alt::Discard(_) | Alt::Exhaust(_) | Alt::Sacrifice(_) => continue,
        };
        if !free && cost > mana {
            continue;
        }
        let def = view.card(obj);
        let cp = prof.card(view.obj(obj).card);
        let p = cp.play[from_reserve as usize];
        let worth = cp.worth as i32;
        let s = match def.kind {
            CardKind::Landmark => {
                if view.landmarks(view.me()).len() >= view.landmark_limit() as usize {
                    continue;
                }
                30 + worth
            }
            CardKind::ExpeditionPermanent => 20 + worth,
            CardKind::Spell => {
                // Removal with nothing to remove would hit one of the player's own.
                if p.removal.is_some() && !them_in_play {
                    continue;
                }
                // With free mana, an orb from the deck is a card lost, unless a card in
                // hand or Reserve waits for orbs to be playable.
                if p.ramp && view.free_mana() && !waits_for_orbs {
                    continue;
                }
                10 + worth + 5 * p.draws as i32
            }
            CardKind::Character | CardKind::Token => {
                let gig = def.keywords & kw::GIGANTIC != 0;
                let add = p.body;
                let stops = |e: Exp| {
                    (e == exp || gig)
                        && opposing_advances(view, e, Stats::ZERO)
                        && !opposing_advances(view, e, add)
                };
                let blocks = Exp::BOTH.iter().filter(|&&e| stops(e)).count() as i32;
                if def.keywords & kw::DEFENDER != 0 {
                    // A Defender holds its own expedition: only where that one does not
                    // move today anyway, and only against an opposing expedition that would.
                    if needs.clear(exp) || !opposing_advances(view, exp, Stats::ZERO) {
                        continue;
                    }
                    5 + 20 * blocks
                } else if blocks > 0 {
                    20 * blocks + add.sum() as i32
                } else {
                    continue;
                }
            }
            _ => continue,
        };
        let s = s - if free { 0 } else { cost as i32 } - 3 * from_reserve as i32;
        if s > 0 && best.is_none_or(|(_, b)| s > b) {
            best = Some((k, s));
        }
    }
    best.map(|(k, _)| k)
}
