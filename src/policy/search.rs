//! `search`: determinized Monte Carlo over the planner.
//!
//! At each Afternoon turn with a real choice it takes a few candidate actions (the
//! planner's own pick first, the first plays of its alternative plans, passing, then the
//! other plays), and for each of `rollouts` samples it deals the hidden information anew
//! ([`View::determinize`]: both deck orders, the Confluence's hand and face-down Mana, the
//! unrevealed Tumult cards), plays every candidate on that same sample with the same dice,
//! and lets the planner finish the game. The candidate with the most wins is played (ties go
//! to the earlier candidate, so the planner's pick wins ties). Every other decision is the
//! planner's.
//!
//! It reads only the [`View`]: a sample is drawn from what the player has seen, with the
//! policy's own random stream, so permuting the hidden order of the real game changes
//! nothing it does.

use arrayvec::ArrayVec;
use rand::{RngExt, SeedableRng};

use super::planner::Planner;
use super::{Policy, PolicyRng};
use crate::engine::event::NoObserver;
use crate::engine::state::Decision;
use crate::engine::view::View;
use crate::engine::{
    Choice, ChoiceList, GameRng, GameState, Step, advance, apply_unchecked, legal_choices,
};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Samples of the hidden information per decision; each candidate is played out once
    /// per sample.
    pub rollouts: u32,
    /// Candidate actions per decision.
    pub width: u8,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            rollouts: 32,
            width: 4,
        }
    }
}

pub struct Search {
    planner: Planner,
    pub params: SearchParams,
    buf: Box<ChoiceList>,
}

/// A rollout's result in half-points: a win 2, a day-cap draw 1, a loss 0.
fn points(g: &GameState) -> u32 {
    match g.outcome {
        Some(o) if o.is_win() => 2,
        Some(crate::engine::Outcome::DayCap) => 1,
        _ => 0,
    }
}

impl Search {
    pub fn new(planner: Planner, params: SearchParams) -> Search {
        Search {
            planner,
            params,
            buf: Box::new(ChoiceList::new()),
        }
    }

    /// Plays `first` on `g`, then the planner to the end.
    fn rollout(&mut self, view: &View<'_>, mut g: GameState, first: Choice, seed: u64) -> u32 {
        let db = view.db();
        let mut rng = GameRng::seed_from_u64(seed);
        let mut prng = PolicyRng::seed_from_u64(seed ^ 0x5ea5c4);
        apply_unchecked(&mut g, db, &mut rng, &mut NoObserver, first);
        loop {
            match advance(&mut g, db, &mut rng, &mut NoObserver) {
                Step::Decide => {
                    legal_choices(&g, db, &mut self.buf);
                    let k = if self.buf.len() == 1 {
                        0
                    } else {
                        self.planner
                            .choose(&View::new(&g, db), &self.buf, &mut prng)
                    };
                    let c = self.buf[k];
                    apply_unchecked(&mut g, db, &mut rng, &mut NoObserver, c);
                }
                Step::Over(_) | Step::Stopped => return points(&g),
            }
        }
    }

    /// Candidate option indices, best guess first.
    fn candidates(&self, view: &View<'_>, options: &[Choice], out: &mut ArrayVec<usize, 16>) {
        let width = (self.params.width as usize).clamp(1, 16);
        let push = |k: usize, out: &mut ArrayVec<usize, 16>| {
            if out.len() < width && !out.contains(&k) {
                out.push(k);
            }
        };
        for k in self.planner.ranked(view, options) {
            push(k, out);
        }
        for k in 0..options.len() {
            push(k, out);
        }
    }
}

impl Policy for Search {
    fn choose(&mut self, view: &View<'_>, options: &[Choice], rng: &mut PolicyRng) -> usize {
        if options.len() == 1 {
            return 0;
        }
        if !matches!(view.decision(), Decision::Turn) || self.params.rollouts == 0 {
            return self.planner.choose(view, options, rng);
        }
        let mut cands: ArrayVec<usize, 16> = ArrayVec::new();
        self.candidates(view, options, &mut cands);
        if cands.len() == 1 {
            return cands[0];
        }
        let mut score = [0u32; 16];
        for _ in 0..self.params.rollouts {
            let seed: u64 = rng.random();
            let g = view.determinize(&mut GameRng::seed_from_u64(seed));
            for (j, &k) in cands.iter().enumerate() {
                score[j] += self.rollout(view, g, options[k], seed);
            }
        }
        let mut best = 0;
        for j in 1..cands.len() {
            if score[j] > score[best] {
                best = j;
            }
        }
        cands[best]
    }
}
