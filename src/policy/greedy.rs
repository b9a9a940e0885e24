//! `greedy`: a casual player who plays to Overcome, one decision at a time, no look-ahead.
//!
//! - **Opening Mana / Expand.** Puts its most expensive cards into Mana (Expand only while
//!   it has fewer than 5 orbs and at least 3 cards in hand).
//! - **Turn.** Scores every playable card by how much of an expedition's missing F/M/O it
//!   would cover (with a large bonus when that clears the expedition, a Gigantic character
//!   counting in both), minus its cost; a card from Reserve pays a small penalty for
//!   becoming Fleeting. Spells and Landmarks get a small flat score while some expedition
//!   still lacks statistics. It passes when nothing scores above zero. It does not use
//!   quick actions.
//! - **Targets.** Reads the effect that follows the target choice: boosts and protective
//!   statuses go on its own character in the neediest expedition; removal and harmful
//!   statuses go on the opposing object with the largest statistics.
//! - **Other choices.** "May": yes. Modes: the first. Dice: the highest. Clean-up: keeps
//!   the Reserve cards with the best statistics for their Reserve cost.

use super::needs::{Needs, card_stats};
use super::{Policy, PolicyRng, argmax_by, card_of, routine};
use crate::cards::effect::{Dest, Op};
use crate::cards::types::*;
use crate::engine::Choice;
use crate::engine::choice::Alt;
use crate::engine::state::{Decision, ObjId};
use crate::engine::view::View;

pub struct Greedy;

/// Whether an effect that follows a target choice helps or hurts its target.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Intent {
    Friendly,
    Hostile,
    Neutral,
}

/// For a `select_exp` choice ("target Expedition"), what the expedition is for, read from
/// the op after it: moving it back, or discarding, exhausting or putting to sleep its
/// characters, is hostile (an opposing expedition is the one to choose); a boost or a move
/// forward is friendly. Neutral for any other decision.
pub fn exp_intent<const N: usize, const M: usize>(view: &View<'_, N, M>) -> Intent {
    let Some(f) = view.frame() else {
        return Intent::Neutral;
    };
    let db = view.db();
    let ab = db.abilities[f.ability as usize];
    if !matches!(db.op(&ab, f.pc), Op::SelectExp { .. }) || f.pc + 1 >= ab.len {
        return Intent::Neutral;
    }
    match db.op(&ab, f.pc + 1) {
        Op::MoveExp { forward: true, .. } => Intent::Friendly,
        Op::MoveExp { forward: false, .. } => Intent::Hostile,
        _ => target_intent(view),
    }
}

/// Reads the op after the pending `Select` to guess what the target is for.
pub fn target_intent<const N: usize, const M: usize>(view: &View<'_, N, M>) -> Intent {
    let Some(f) = view.frame() else {
        return Intent::Neutral;
    };
    let db = view.db();
    let ab = db.abilities[f.ability as usize];
    if f.pc + 1 >= ab.len {
        return Intent::Neutral;
    }
    match db.op(&ab, f.pc + 1) {
        Op::Boost { .. } | Op::Counters { .. } | Op::Ready { .. } => Intent::Friendly,
        Op::Gain { status, .. } => {
            if status & (kw::ASLEEP | kw::FLEETING) != 0 {
                Intent::Hostile
            } else {
                Intent::Friendly
            }
        }
        Op::Move { dest, .. } => match dest {
            Dest::Reserve
            | Dest::ReserveExhausted
            | Dest::Hand
            | Dest::DeckTop
            | Dest::DeckAtX
            | Dest::DeckBottom
            | Dest::Discard
            | Dest::Sacrifice
            | Dest::Mana
            | Dest::ManaReady => Intent::Hostile,
        },
        Op::Exhaust { .. } | Op::Lose { .. } => Intent::Hostile,
        _ => Intent::Neutral,
    }
}

/// Reserve value of a card: statistics for their Reserve cost.
pub fn reserve_value<const N: usize, const M: usize>(view: &View<'_, N, M>, id: ObjId) -> i32 {
    let def = view.card(id);
    let st = def.stats.clamp_zero().sum() as i32;
    let base = if def.kind.is_character() { st * 10 } else { 25 };
    base / (def.reserve_cost as i32 + 1)
}

impl Greedy {
    fn turn<const N: usize, const M: usize>(view: &View<'_, N, M>, options: &[Choice]) -> usize {
        let needs = Needs::of(view);
        let lacking = Exp::BOTH.iter().any(|&e| !needs.clear(e));
        let mut best = 0;
        let mut best_s = 0i32;
        // A card's options are listed together (each expedition, each way to pay): its
        // cost, statistics and Gigantic are read once for all of them.
        let mut cost_of: Option<((ObjId, bool), u8)> = None;
        let mut stats_of: Option<(ObjId, Stats, bool)> = None;
        for (i, c) in options.iter().enumerate() {
            let s = match *c {
                Choice::Play {
                    obj,
                    from_reserve,
                    exp,
                    alt,
                } => {
                    let def = view.card(obj);
                    let mut play_cost = |from_reserve: bool| match cost_of {
                        Some((key, c)) if key == (obj, from_reserve) => c,
                        _ => {
                            let c = view.play_cost(obj, from_reserve);
                            cost_of = Some(((obj, from_reserve), c));
                            c
                        }
                    };
                    let cost = match alt {
                        Alt::None => play_cost(from_reserve) as i32,
                        Alt::HandCost => play_cost(false) as i32,
                        Alt::Free => 0,
                        Alt::Less(n) | Alt::Cheaper(n) => {
                            play_cost(from_reserve).saturating_sub(n) as i32
                        }
                        Alt::Scout => def.scout as i32 + 3,
                        Alt::Discard(_) | Alt::Exhaust(_) | Alt::Sacrifice(_) => {
                            play_cost(from_reserve) as i32 + 2
                        }
                    };
                    if def.kind.is_character() {
                        let (st, gig) = match stats_of {
                            Some((id, st, gig)) if id == obj => (st, gig),
                            _ => {
                                let st = card_stats(view, obj);
                                let gig = view.has_kw(obj, kw::GIGANTIC);
                                stats_of = Some((obj, st, gig));
                                (st, gig)
                            }
                        };
                        let mut score = 0;
                        for e in Exp::BOTH {
                            if e == exp || gig {
                                let (g, clears) = needs.gain(e, st);
                                score += g as i32 * 10 + if clears { 100 } else { 0 };
                            }
                        }
                        if score == 0 {
                            continue;
                        }
                        score - cost - if from_reserve { 3 } else { 0 }
                    } else if lacking && exp == Exp::Hero {
                        8 - cost
                    } else {
                        continue;
                    }
                }
                _ => continue,
            };
            if s > best_s {
                best_s = s;
                best = i;
            }
        }
        // Pass (or, for a free play, Done) when nothing scores above zero.
        if best_s <= 0 {
            options
                .iter()
                .position(|c| matches!(c, Choice::Pass | Choice::Done))
                .unwrap_or(0)
        } else {
            best
        }
    }

    fn target<const N: usize, const M: usize>(view: &View<'_, N, M>, options: &[Choice]) -> usize {
        let intent = target_intent(view);
        let needs = Needs::of(view);
        let done = options.iter().position(|c| *c == Choice::Done);
        let score = |c: &Choice| -> i32 {
            let Some(id) = card_of(c) else {
                return 0;
            };
            let o = view.obj(id);
            let mine = o.side == view.me();
            let size = view.stats(id).clamp_zero().sum() as i32;
            match (intent, mine) {
                (Intent::Friendly, true) => {
                    let need = needs.deficit(o.exp).sum() as i32;
                    100 + need * 10 + size
                }
                (Intent::Hostile, false) => 100 + size * 10 + view.card(id).reserve_cost as i32,
                (Intent::Neutral, _) => 50,
                _ => -100 - size,
            }
        };
        let best = argmax_by(options, score);
        match done {
            Some(d) if score(&options[best]) <= 0 => d,
            _ => best,
        }
    }
}

impl<const N: usize, const M: usize> Policy<N, M> for Greedy {
    fn choose(&mut self, view: &View<'_, N, M>, options: &[Choice], _rng: &mut PolicyRng) -> usize {
        self.decide(view, options)
    }
}

impl Greedy {
    /// The choice at a table of any size (its [`Policy`] at two seats and at four).
    pub fn decide<const N: usize, const M: usize>(
        &mut self,
        view: &View<'_, N, M>,
        options: &[Choice],
    ) -> usize {
        if options.len() == 1 {
            return 0;
        }
        match view.decision() {
            Decision::Turn | Decision::PlayFree => Self::turn(view, options),
            Decision::SetupMana => argmax_by(options, |c| {
                card_of(c).map_or(i32::MIN, |id| {
                    let d = view.card(id);
                    d.hand_cost as i32 * 100 - d.stats.sum() as i32
                })
            }),
            Decision::Expand => {
                let (orbs, _) = view.mana(view.me());
                if orbs >= 5 || view.hand().len() < 3 {
                    return options.iter().position(|c| *c == Choice::Done).unwrap_or(0);
                }
                argmax_by(options, |c| {
                    card_of(c).map_or(i32::MIN, |id| view.card(id).hand_cost as i32)
                })
            }
            Decision::Target => Self::target(view, options),
            Decision::Expedition => {
                let needs = Needs::of(view);
                // "Target Expedition" moves back / loses its characters: an opposing one,
                // the one facing the expedition that needs most.
                let hostile = exp_intent(view) == Intent::Hostile;
                argmax_by(options, |c| match *c {
                    Choice::OpposingExp(e) if hostile => 1 + needs.deficit(e).sum() as i32,
                    Choice::Exp(_) if hostile => -2,
                    Choice::Exp(e) if !needs.clear(e) => needs.deficit(e).sum() as i32,
                    _ => -1,
                })
            }
            Decision::May | Decision::Mode | Decision::Die => {
                routine(view.decision(), options).unwrap_or(0)
            }
            Decision::HandCard => argmax_by(options, |c| {
                card_of(c).map_or(i32::MIN, |id| -(view.card(id).reserve_cost as i32))
            }),
            Decision::ResupplyPick => argmax_by(options, |c| {
                card_of(c).map_or(i32::MIN, |id| reserve_value(view, id))
            }),
            Decision::ReserveCard | Decision::CleanupReserve => argmax_by(options, |c| {
                card_of(c).map_or(i32::MIN, |id| -reserve_value(view, id))
            }),
            // Free for All only (never asked with two seats).
            Decision::Seat => super::seat_choice(view, options),
            Decision::CleanupLandmark => argmax_by(options, |c| {
                card_of(c).map_or(i32::MIN, |id| -(view.card(id).hand_cost as i32))
            }),
            Decision::Sacrifice => argmax_by(options, |c| {
                card_of(c).map_or(i32::MIN, |id| {
                    let o = view.obj(id);
                    if o.is_token() {
                        1000
                    } else {
                        -(view.card(id).hand_cost as i32)
                    }
                })
            }),
            Decision::RestOrder => super::rest_order(view, options),
            Decision::None => 0,
        }
    }
}
