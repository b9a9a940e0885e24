//! One-ply lookahead on the value model: each option is valued by the model's win
//! probability at the player's next decision after it (its afterstate, past the
//! Confluence's moves and any chance in between), averaged over samples of the hidden
//! information drawn from the player's view ([`View::determinize`]). Every option is played
//! on the same samples with the same dice, so their differences are paired. A game that
//! ends on the way is valued by its outcome.
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

use rand::{RngExt, SeedableRng};

use super::{N_IN, ValueNet, encode};
use crate::engine::event::NoObserver;
use crate::engine::view::View;
use crate::engine::{
    Choice, ChoiceList, GameRng, GameState, Step, advance, apply_unchecked, legal_choices,
};
use crate::policy::PolicyRng;

/// Most samples per decision.
pub const MAX_SAMPLES: u32 = 64;

/// Value of `g` from the player's side once the engine stops at their next decision with
/// a real choice (forced moves are played on), or the outcome of a finished game.
fn settle(
    g: &mut GameState,
    view: &View<'_>,
    rng: &mut GameRng,
    net: &ValueNet,
    buf: &mut ChoiceList,
) -> f32 {
    let db = view.db();
    loop {
        match advance(g, db, rng, &mut NoObserver) {
            Step::Decide => {
                legal_choices(g, db, buf);
                if buf.len() == 1 {
                    let c = buf[0];
                    apply_unchecked(g, db, rng, &mut NoObserver, c);
                    continue;
                }
                let mut x = [0f32; N_IN];
                encode(&View::new(g, db), &mut x);
                return net.prob(&x);
            }
            Step::Over(_) | Step::Stopped => {
                return super::outcome_value(g.outcome);
            }
        }
    }
}

/// Fills `out[k]` with option `k`'s mean afterstate value over `samples` samples.
pub fn values(
    view: &View<'_>,
    options: &[Choice],
    net: &ValueNet,
    samples: u32,
    rng: &mut PolicyRng,
    buf: &mut ChoiceList,
    out: &mut [f32],
) {
    let db = view.db();
    out[..options.len()].fill(0.0);
    for _ in 0..samples.max(1) {
        let seed: u64 = rng.random();
        let base = view.determinize(&mut GameRng::seed_from_u64(seed));
        for (k, &c) in options.iter().enumerate() {
            let mut g = base;
            let mut grng = GameRng::seed_from_u64(seed ^ 0xa5a5);
            apply_unchecked(&mut g, db, &mut grng, &mut NoObserver, c);
            out[k] += settle(&mut g, view, &mut grng, net, buf);
        }
    }
}
