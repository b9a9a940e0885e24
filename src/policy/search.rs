//! `search`: determinized Monte Carlo over the expert, at every decision, with racing.
//!
//! At every decision with a real choice (setup Mana, Expand, Afternoon turns, targets,
//! expeditions, "may" choices, modes, dice, costs, clean-up) it takes up to `width`
//! candidate options: the expert's best ones by its own scores, then the planner's
//! (`rank=1`, the default with a horizon), or the expert's pick then the planner's ranking
//! (`rank=0`, and the search without a horizon). Then, sample after
//! sample, it deals the hidden information anew ([`View::determinize`]: both deck orders,
//! the Confluence's hand and face-down Mana, the unrevealed Tumult cards), plays every
//! surviving candidate on that same sample with the same dice, and lets the expert finish
//! the game (the planner with `expert=0`: the better the player who finishes the imagined
//! games, the better the search judges a move; measured, the expert's rollouts win up to
//! 15 points more than the planner's at the same budget).
//!
//! Racing instead of equal budgets (the idea of successive halving and of racing
//! algorithms for bandits): the results are compared pairwise on the shared samples, and a
//! candidate is dropped as soon as its paired deficit to the leader is clear (more than
//! `Z` standard errors, or more than what the samples left could make up). The decision
//! ends when one candidate is left, when every candidate has had exactly the same result
//! on every sample so far (the choice does not matter here), or after `rollouts` samples.
//! Most decisions are settled in a few samples, so the budget goes to the close ones.
//!
//! By default a rollout stops at the first decision of the next day and the value model
//! scores the position reached (`horizon=1`), with up to 48 samples per decision (24 with
//! `rank=0`): a sample then costs a day instead of a game and its result is a probability
//! instead of a win or a loss, so the search is stronger per second (measured against the
//! full rollouts of `search:horizon=0,rollouts=192`: docs/studies/2026-11-26-horizon.md and
//! docs/studies/2026-11-27-convergence.md). `horizon=0` plays to the end as the
//! search did before; with planner rollouts (`expert=0`) and for `clairvoyant` that stays
//! the default, with 12 samples.
//!
//! It reads only the [`View`]: a sample is drawn from what the player has seen, with the
//! policy's own random stream, so permuting the hidden order of the real game changes
//! nothing it does. The `clairvoyant` variant is the exception, and says so in its name:
//! it plays its rollouts from the true state (both deck orders and the Confluence's hand),
//! an upper bound on what any player could do, not a player.

use arrayvec::ArrayVec;
use rand::{RngExt, SeedableRng};

use super::config::Decisions;
use super::expert::Expert;
use super::planner::Planner;
use super::value::ValueNet;
use super::{AnyPolicy, Policy, PolicyRng, Seated};
use crate::cards::types::Side;
use crate::engine::event::NoObserver;
use crate::engine::state::Decision;
use crate::engine::view::View;
use crate::engine::{
    Choice, ChoiceList, GameRng, GameState, Step, advance, apply_unchecked, legal_choices,
};

/// Most candidates compared at one decision.
pub const MAX_WIDTH: usize = 16;

/// Most options [`Search::values`] plays out at one decision (the rest take the lowest
/// value played).
pub const MAX_VALUED: usize = 32;

/// Samples before the first comparison, and between two comparisons.
/// (Measured on the starter decks: checking from the 4th sample, calling candidates equal
/// after 8 identical samples and dropping at 2 standard errors win as much as later and
/// stricter checks, at about two thirds of their cost.)
const FIRST_CHECK: u32 = 4;
const CHECK_EVERY: u32 = 4;
/// Samples after which candidates that have never differed are called equal.
const TIE_AFTER: u32 = 8;
/// Standard errors by which a candidate must trail the leader to be dropped.
const Z: f64 = 2.0;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Most samples of the hidden information per decision; each surviving candidate is
    /// played out once per sample.
    pub rollouts: u32,
    /// `rollouts` head to head and at four seats, where the rollouts play to the end: the
    /// same unless the spec leaves `rollouts` to its default, which is smaller there
    /// ([`SearchParams::default_versus_rollouts`]).
    pub versus_rollouts: u32,
    /// Most candidate options per decision.
    pub width: u8,
    /// Rollouts start from the true state instead of a sample (the `clairvoyant` bound).
    pub clairvoyant: bool,
    /// Rollouts and the first candidate follow the `expert` (the default) instead of the
    /// planner.
    pub expert: bool,
    /// Which decisions are searched (the cards into Mana, the Afternoon turns, every other
    /// decision). The others are left to the rollout policy. A tool for finding where the
    /// search's strength comes from.
    pub only: Decisions,
    /// 0: rollouts play to the end of the game. D: they stop at the first decision with a
    /// choice once D days have ended after the decision's day, and the value model scores
    /// the position reached (default 1 with expert rollouts, 0 otherwise).
    pub horizon: u8,
    /// The candidates follow the expert's own ranking of the options (its best ones first,
    /// then the planner's), instead of its pick then the planner's ranking (`rank=0`).
    /// The default with a horizon; without one (`horizon=0`) the search stays as it was.
    /// (Measured against `search:horizon=0,rollouts=192`: at 24 samples and width 5,
    /// 2.8 points below pooled over the twelve starter rows instead of 4.2; at 4 samples
    /// and width 2, 7.9 instead of 14.7: docs/studies/2026-11-27-convergence.md, "What
    /// else was tried", and CHANGELOG.md.)
    pub rank: bool,
    /// Decisions whose rollouts go one day further than `horizon`, with twice the samples
    /// or `drollouts`. `deep`, `narrow` and `dwidth` apply only where the value model
    /// scores the rollouts (a solo game with a horizon). Default [`DEEP`] with a horizon.
    pub deep: Decisions,
    /// Most samples at the `deep` decisions (0: twice `rollouts`).
    pub drollouts: u32,
    /// Candidates at the `narrow` decisions (0: `width`).
    pub dwidth: u8,
    /// Decisions that take `dwidth` candidates (none: the `deep` ones). Default [`NARROW`]
    /// with a horizon.
    pub narrow: Decisions,
    /// Percent: where the candidates' ranking (the expert's, or the policy network's with
    /// `net`; `rank=1` only) gives its first option at least this probability, that option
    /// is played without a search (0, the default: always search). Measured: a gate of 70
    /// saved about a tenth of the time, one of 50 lost about 4 points
    /// (docs/studies/2026-11-26-network-in-search.md).
    pub gate: u8,
    /// Points of win rate (percent) by which another candidate must lead the first guess
    /// to be played instead of it (0, the default: the leader, however small its lead).
    pub margin: u8,
    /// Points of win rate (percent): where a race ends with its two best candidates closer
    /// than this, the two are played again on fresh samples a day further than the race
    /// looked, `drollouts` of them (0: twice `rollouts`), and the better there is played
    /// (0, the default: never). Only where the value model scores the rollouts.
    pub close: u8,
    /// Percent: the `deep` decisions look their extra day only where the value model gives
    /// the position a win probability between this and 100 less this, where the game is in
    /// doubt (0, the default: everywhere). `deepsearch` is `fastsearch` with a second day
    /// where the value model of the network's games says 10% to 90%
    /// (docs/studies/2026-11-27-deepsearch.md).
    pub doubt: u8,
    /// Percent: where the value model gives the position a win probability below this or
    /// above 100 less this (the game as good as settled), the best first guess is played
    /// without a search (0, the default: always search). Solo games with a value model
    /// only.
    pub settled: u8,
}

/// Every kind of decision is searched.
pub const SEARCH_ALL: Decisions = Decisions::ALL;

/// The default `deep` with a horizon: the cards into Mana and the Afternoon turns look a
/// day further, with twice the samples. With [`NARROW`] and [`DWIDTH`] (two candidates
/// at the Mana decisions) the default search is as strong as `search:horizon=0,rollouts=192`
/// on the convergence study's games, where one day for every decision was 2.3 points below
/// it (docs/studies/2026-11-27-convergence.md, "Deeper where it pays").
pub const DEEP: Decisions = Decisions::MANA.union(Decisions::TURNS);
/// The default `narrow` with a horizon: the cards into Mana.
pub const NARROW: Decisions = Decisions::MANA;
/// The default `dwidth` with a horizon.
pub const DWIDTH: u8 = 2;

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::defaults(false, true)
    }
}

impl SearchParams {
    /// The defaults of `search` (expert rollouts scored by the value model at the end of
    /// the decision's day), of `search:expert=0` (planner rollouts to the end: the value
    /// model values the expert's and the search's continuation, not the planner's) and of
    /// the `clairvoyant` bound (rollouts to the end from the true state, as it was
    /// measured). The number of samples follows [`SearchParams::default_rollouts`].
    pub fn defaults(clairvoyant: bool, expert: bool) -> SearchParams {
        let horizon = (expert && !clairvoyant) as u8;
        let ranked = horizon > 0;
        SearchParams {
            rollouts: Self::default_rollouts(horizon),
            versus_rollouts: Self::default_versus_rollouts(horizon),
            width: 5,
            clairvoyant,
            expert,
            only: SEARCH_ALL,
            horizon,
            rank: horizon > 0,
            deep: if ranked { DEEP } else { Decisions::NONE },
            drollouts: 0,
            dwidth: if ranked { DWIDTH } else { 0 },
            narrow: if ranked { NARROW } else { Decisions::NONE },
            gate: 0,
            margin: 0,
            close: 0,
            doubt: 0,
            settled: 0,
        }
    }

    /// Samples a day further (`deep`, `close`): `drollouts`, or twice `rollouts`.
    pub fn deep_rollouts(&self) -> u32 {
        match self.drollouts {
            0 => self.rollouts * 2,
            n => n,
        }
    }

    /// Samples per decision unless `rollouts` says otherwise: 48 when the value model scores
    /// truncated rollouts and the expert ranks the candidates (a sample costs about a day;
    /// with [`DEEP`], 96 at the cards into Mana and the turns; 24 with `rank=0`), 12 when
    /// they play to the end (so `search:horizon=0` is the
    /// search as it was before the horizon became the default). (48 rather than 24: the
    /// default of 2026-11-27 with 24 samples was 0.1 points below
    /// `search:horizon=0,rollouts=192` pooled but 3.5 below on one row, and doubling it
    /// gained 1.1; docs/studies/2026-11-27-convergence.md.)
    pub fn default_rollouts(horizon: u8) -> u32 {
        if horizon > 0 { 48 } else { 12 }
    }

    /// Samples per decision head to head and at four seats unless `rollouts` says
    /// otherwise: there the rollouts play to the end whatever the horizon, and the search
    /// stays the one measured there, 24 samples with a horizon (the default) and 12
    /// without.
    pub fn default_versus_rollouts(horizon: u8) -> u32 {
        if horizon > 0 { 24 } else { 12 }
    }
}

pub struct Search {
    planner: Planner,
    /// Scores truncated rollouts (`horizon`).
    value: Option<std::sync::Arc<ValueNet>>,
    /// The rollout policy when `params.expert` is set.
    expert: Option<Expert>,
    /// The player that proposes the candidates, and decides where the search does not
    /// (`only`), when it is not the rollout policy (`search:net=1`: `expert:net=1`, with
    /// expert rollouts; `search:net=2`: the expert, with the network's rollouts).
    ranker: Option<Expert>,
    pub params: SearchParams,
    buf: Box<ChoiceList>,
    last: Estimates,
    /// [`Search::values`]' buffers, kept between decisions: the options in the ranker's
    /// order and the points each valued option scored.
    order: Vec<usize>,
    sums: Vec<f64>,
    /// The opponents' policies in the rollouts (the search's own rollout policy plays a
    /// seat that has none).
    opponents: Opponents,
}

/// Who plays the other seats in a search's rollouts: head to head the opponent's policy,
/// in Free for All each other seat's (indexed by seat; the search's own seat has none).
#[derive(Default)]
struct Opponents {
    two: Option<Box<AnyPolicy>>,
    four: Option<Box<[Option<AnyPolicy>; 4]>>,
}

impl Opponents {
    /// The pick of the policy that plays the deciding seat, if that seat has one.
    #[inline]
    fn pick<const N: usize, const M: usize>(
        &mut self,
        view: &View<'_, N, M>,
        options: &[Choice],
        rng: &mut PolicyRng,
    ) -> Option<usize>
    where
        for<'v> View<'v, N, M>: Seated<'v>,
    {
        let player = if view.two_seat().is_some() {
            self.two.as_deref_mut()
        } else {
            self.four.as_mut()?[view.me().index() & 3].as_mut()
        };
        player.map(|o| o.choose(view, options, rng))
    }
}

/// What the last searched decision found: per candidate, its option index, the samples it
/// was played on and its mean result (a win rate; a day-cap draw counts half). For tools
/// that study the search (`confluence-sim disagree`).
#[derive(Clone, Debug, Default)]
pub struct Estimates {
    pub candidates: ArrayVec<(usize, u32, f64), MAX_WIDTH>,
    /// Samples drawn in all.
    pub samples: u32,
}

/// A rollout's result in half-points for side `me`: a win 2, a day-cap draw 1, a loss 0
/// (head to head and in Free for All, a win is `me`'s; with two seats `versus` is the
/// duel's test, as no two-seat game is a Free for All).
fn points<const N: usize, const M: usize>(g: &GameState<N, M>, me: Side) -> u32 {
    match g.outcome {
        Some(o) if g.mode.versus() && o.winner() == Some(me) => 2,
        Some(o) if !g.mode.versus() && o.is_win() => 2,
        Some(crate::engine::Outcome::DayCap) => 1,
        _ => 0,
    }
}

/// Paired results of the candidates of one decision, sample by sample.
struct Race {
    n: u32,
    alive: u16,
    /// Samples each candidate was played on.
    samples: [u32; MAX_WIDTH],
    /// Total points of each candidate over the samples it was alive for (all of them:
    /// a dropped candidate stops counting, and is never compared again). Half-points, as
    /// [`points`] gives them; whole outcomes keep these sums exact in `f64`.
    score: [f64; MAX_WIDTH],
    /// Sum of squared paired differences, for i < j.
    sq: [[f64; MAX_WIDTH]; MAX_WIDTH],
}

impl Race {
    fn new(k: usize) -> Race {
        Race {
            n: 0,
            alive: ((1u32 << k) - 1) as u16,
            samples: [0; MAX_WIDTH],
            score: [0.0; MAX_WIDTH],
            sq: [[0.0; MAX_WIDTH]; MAX_WIDTH],
        }
    }

    fn is_alive(&self, j: usize) -> bool {
        self.alive & (1 << j) != 0
    }

    fn push(&mut self, x: &[f64; MAX_WIDTH], k: usize) {
        self.n += 1;
        for i in 0..k {
            if !self.is_alive(i) {
                continue;
            }
            self.score[i] += x[i];
            self.samples[i] += 1;
            for j in i + 1..k {
                if self.is_alive(j) {
                    let d = x[i] - x[j];
                    self.sq[i][j] += d * d;
                }
            }
        }
    }

    /// The best candidate so far (the earliest on ties).
    fn leader(&self, k: usize) -> usize {
        self.best_but(k, None).expect("a candidate is alive")
    }

    /// The best alive candidate other than `but` (the earliest on ties). The alive ones
    /// were all played on the same samples, so their totals rank them as their means do.
    fn best_but(&self, k: usize, but: Option<usize>) -> Option<usize> {
        (0..k)
            .filter(|&j| self.is_alive(j) && Some(j) != but)
            .fold(None, |b: Option<usize>, j| match b {
                Some(b) if self.score[b] >= self.score[j] => Some(b),
                _ => Some(j),
            })
    }

    /// The mean result of candidate `j`, a win rate.
    fn mean(&self, j: usize) -> f64 {
        self.score[j] / (2.0 * self.samples[j].max(1) as f64)
    }

    /// The leader, unless the first candidate (the best first guess) is alive and trails
    /// it by no more than `margin` (a win rate): then the first.
    fn pick(&self, k: usize, margin: f64) -> usize {
        let l = self.leader(k);
        if l != 0 && self.is_alive(0) && self.mean(l) - self.mean(0) <= margin {
            0
        } else {
            l
        }
    }

    /// The two best alive candidates by mean result and the gap between them, where two
    /// are alive and their results ever differed.
    fn best_two(&self, k: usize) -> Option<(usize, usize, f64)> {
        let a = self.leader(k);
        let b = self.best_but(k, Some(a))?;
        // Two that never differed are alike (often the same play in another order).
        if self.sq[a.min(b)][a.max(b)] == 0.0 {
            return None;
        }
        Some((a, b, self.mean(a) - self.mean(b)))
    }

    /// Drops the candidates that clearly trail the leader; true when the race is over.
    fn settle(&mut self, k: usize, samples_left: u32) -> bool {
        let l = self.leader(k);
        let n = self.n as f64;
        let mut all_equal = true;
        for j in 0..k {
            if j == l || !self.is_alive(j) {
                continue;
            }
            let sq = self.sq[l.min(j)][l.max(j)];
            all_equal &= sq == 0.0;
            let lead = self.score[l] - self.score[j];
            if lead == 0.0 {
                continue;
            }
            let mean = lead / n;
            let var = (sq / n - mean * mean).max(0.0);
            let clear = mean > Z * (var / n).sqrt();
            let unreachable = lead > 2.0 * samples_left as f64;
            if clear || unreachable {
                self.alive &= !(1 << j);
            }
        }
        self.alive.count_ones() == 1 || (all_equal && self.n >= TIE_AFTER)
    }
}

/// The rollout policy's pick: the expert's, or the planner's with `expert=0`. (Fields, not
/// `&mut self`, so that the options may be the search's own buffer.)
fn rollout_pick<'v, const N: usize, const M: usize>(
    expert: &mut Option<Expert>,
    planner: &mut Planner,
    view: &View<'v, N, M>,
    options: &[Choice],
    rng: &mut PolicyRng,
) -> usize
where
    View<'v, N, M>: Seated<'v>,
{
    match expert {
        Some(e) => e.decide(view, options, rng),
        None => planner.decide(view, options),
    }
}

impl Search {
    /// `expert` plays the rollouts and proposes the first candidate when it is given.
    pub fn new(planner: Planner, expert: Option<Expert>, params: SearchParams) -> Search {
        Search {
            planner,
            value: None,
            expert,
            ranker: None,
            params,
            buf: Box::new(ChoiceList::new()),
            last: Estimates::default(),
            order: Vec::new(),
            sums: Vec::new(),
            opponents: Opponents::default(),
        }
    }

    /// Head to head: the policy that plays the opponent's seat in the rollouts.
    pub fn with_opponent(mut self, opponent: AnyPolicy) -> Search {
        self.opponents.two = Some(Box::new(opponent));
        self
    }

    /// Free for All: the policy that plays each seat in the rollouts (`None` at the
    /// search's own seat, which its rollout policy plays).
    pub fn with_ffa_opponents(mut self, opponents: [Option<AnyPolicy>; 4]) -> Search {
        self.opponents.four = Some(Box::new(opponents));
        self
    }

    /// The player whose ranking gives the candidates, instead of the rollout policy's.
    pub fn with_ranker(mut self, ranker: Expert) -> Search {
        self.ranker = Some(ranker);
        self
    }

    /// The value model that scores truncated rollouts.
    pub fn with_value(mut self, net: std::sync::Arc<ValueNet>) -> Search {
        self.value = Some(net);
        self
    }

    /// What the last decision that was searched found.
    pub fn estimates(&self) -> &Estimates {
        &self.last
    }

    /// Plays `first` on `g`, then the rollout policy (planner or expert) to the end, or,
    /// with a `horizon`, until that many days have ended, where the value model scores the
    /// position. In half-points: a win 2, a draw 1, a loss 0, a value `v` 2v.
    fn rollout<const N: usize, const M: usize>(
        &mut self,
        view: &View<'_, N, M>,
        mut g: GameState<N, M>,
        first: Choice,
        seed: u64,
        horizon: u8,
    ) -> f64
    where
        for<'v> View<'v, N, M>: Seated<'v>,
    {
        let db = view.db();
        let mut rng = GameRng::seed_from_u64(seed);
        let mut prng = PolicyRng::seed_from_u64(seed ^ 0x5ea5c4);
        let mut opp_rng = PolicyRng::seed_from_u64(seed ^ 0x0dd0_5eed);
        let me = view.me();
        apply_unchecked(&mut g, db, &mut rng, &mut NoObserver, first);
        let last_day = view.day().saturating_add(horizon);
        loop {
            match advance(&mut g, db, &mut rng, &mut NoObserver) {
                Step::Decide => {
                    legal_choices(&g, db, &mut self.buf);
                    let at = View::new(&g, db);
                    // The value model scores Confluence positions: head to head and in
                    // Free for All the rollouts play to the end.
                    if let Some(net) = &self.value
                        && horizon > 0
                        && !g.mode.versus()
                        && g.day >= last_day
                        && self.buf.len() > 1
                        && let Some(two) = at.two_seat()
                    {
                        return 2.0 * net.value(two) as f64;
                    }
                    let k = if self.buf.len() == 1 {
                        0
                    } else if g.decider != me
                        && let Some(k) = self.opponents.pick(&at, &self.buf, &mut opp_rng)
                    {
                        k
                    } else {
                        rollout_pick(
                            &mut self.expert,
                            &mut self.planner,
                            &at,
                            &self.buf,
                            &mut prng,
                        )
                    };
                    let c = self.buf[k];
                    apply_unchecked(&mut g, db, &mut rng, &mut NoObserver, c);
                }
                Step::Over(_) | Step::Stopped => return points(&g, me) as f64,
            }
        }
    }

    /// Candidate option indices, best guess first: when the expert plays the rollouts, its
    /// best options by its own scores (`rank`) or its pick (the ranker's, when one is
    /// given); at a turn the planner's ranked plays, elsewhere its pick; then the other
    /// options in order. Returns the ranking's probability of its first option
    /// ([`Expert::ranked`]), where it has one.
    fn candidates<'v, const N: usize, const M: usize>(
        &mut self,
        view: &View<'v, N, M>,
        options: &[Choice],
        rng: &mut PolicyRng,
        out: &mut ArrayVec<usize, MAX_WIDTH>,
    ) -> Option<f32>
    where
        View<'v, N, M>: Seated<'v>,
    {
        let width = (self.params.width as usize).clamp(1, MAX_WIDTH);
        let push = |k: usize, out: &mut ArrayVec<usize, MAX_WIDTH>| {
            if out.len() < width && !out.contains(&k) {
                out.push(k);
            }
        };
        let mut sure = None;
        if let Some(e) = self.ranker.as_mut().or(self.expert.as_mut()) {
            if self.params.rank {
                let mut r: ArrayVec<usize, MAX_WIDTH> = ArrayVec::new();
                sure = e.ranked(view, options, rng, &mut r);
                for k in r {
                    push(k, out);
                }
            } else {
                push(e.decide(view, options, rng), out);
            }
        }
        if matches!(view.decision(), Decision::Turn | Decision::PlayFree) {
            for k in self.planner.ranked(view, options) {
                push(k, out);
            }
        } else {
            push(self.planner.decide(view, options), out);
        }
        for k in 0..options.len() {
            push(k, out);
        }
        sure
    }
}

impl<const N: usize, const M: usize> Policy<N, M> for Search
where
    for<'v> View<'v, N, M>: Seated<'v>,
{
    fn choose(&mut self, view: &View<'_, N, M>, options: &[Choice], rng: &mut PolicyRng) -> usize {
        self.decide(view, options, rng)
    }
}

impl Search {
    /// The choice at a table of any size (its [`Policy`] at two seats and at four): the rollouts play the
    /// table the view shows, two seats or four.
    pub fn decide<'v, const N: usize, const M: usize>(
        &mut self,
        view: &View<'v, N, M>,
        options: &[Choice],
        rng: &mut PolicyRng,
    ) -> usize
    where
        for<'w> View<'w, N, M>: Seated<'w>,
    {
        if options.len() == 1 {
            return 0;
        }
        let plain = if view.mode().versus() {
            self.params.versus_rollouts
        } else {
            self.params.rollouts
        };
        if plain == 0 || !self.params.only.contains(view.decision()) || self.settled_here(view) {
            // Unsearched: the best first guess decides (the ranker's, else the rollout
            // policy's).
            if let Some(r) = &mut self.ranker {
                return r.decide(view, options, rng);
            }
            return rollout_pick(&mut self.expert, &mut self.planner, view, options, rng);
        }
        let mut cands: ArrayVec<usize, MAX_WIDTH> = ArrayVec::new();
        let sure = self.candidates(view, options, rng, &mut cands);
        // `deep`, `narrow` and `dwidth` apply where the value model ends the rollouts (a
        // solo game with a horizon): head to head the rollouts play to the end, and the
        // default search there stays the 24-sample, five-candidate one it was measured as.
        let scored = self.scored(view);
        let deep = self.deep_here(view);
        let narrow = scored
            && if self.params.narrow.is_empty() {
                deep
            } else {
                self.params.narrow.contains(view.decision())
            };
        if narrow && self.params.dwidth > 0 {
            cands.truncate(self.params.dwidth as usize);
        }
        let k = cands.len();
        self.last.candidates.clear();
        self.last.samples = 0;
        let gated =
            self.params.gate > 0 && sure.is_some_and(|p| p * 100.0 >= self.params.gate as f32);
        if k == 1 || gated {
            return cands[0];
        }
        let mut race = Race::new(k);
        let horizon = self.params.horizon + deep as u8;
        let budget = if deep {
            self.params.deep_rollouts()
        } else {
            plain
        };
        self.run_race(view, options, &cands, &mut race, budget, horizon, rng);
        self.last.candidates.clear();
        self.last.samples = race.n;
        for (j, &c) in cands.iter().enumerate() {
            self.last
                .candidates
                .push((c, race.samples[j], race.mean(j)));
        }
        let margin = self.params.margin as f64 / 100.0;
        // A close finish between the two best is played again, a day further.
        if scored
            && self.params.close > 0
            && let Some((a, b, gap)) = race.best_two(k)
            && gap < self.params.close as f64 / 100.0
        {
            let two = [cands[a.min(b)], cands[a.max(b)]];
            let mut again = Race::new(2);
            let budget = self.params.deep_rollouts();
            self.run_race(view, options, &two, &mut again, budget, horizon + 1, rng);
            return two[again.pick(2, margin)];
        }
        cands[race.pick(k, margin)]
    }

    /// Whether the value model ends the rollouts here (a solo game with a horizon).
    fn scored<const N: usize, const M: usize>(&self, view: &View<'_, N, M>) -> bool {
        self.params.horizon > 0 && self.value.is_some() && !view.mode().versus()
    }

    /// Whether the value model finds the game as good as settled here (`settled`).
    fn settled_here<'v, const N: usize, const M: usize>(&self, view: &View<'v, N, M>) -> bool
    where
        View<'v, N, M>: Seated<'v>,
    {
        if self.params.settled == 0 || view.mode().versus() {
            return false;
        }
        let (Some(net), Some(two)) = (&self.value, view.two_seat()) else {
            return false;
        };
        let v = net.value(two) * 100.0;
        let s = self.params.settled as f32;
        v < s || v > 100.0 - s
    }

    /// Whether this decision's rollouts look a day further (`deep`, `doubt`).
    fn deep_here<'v, const N: usize, const M: usize>(&self, view: &View<'v, N, M>) -> bool
    where
        View<'v, N, M>: Seated<'v>,
    {
        let mut deep = self.scored(view) && self.params.deep.contains(view.decision());
        // A second day costs several times a day's samples: with `doubt`, only where the
        // value model finds the game in doubt (a won or lost position seldom turns on it).
        if deep
            && self.params.doubt > 0
            && let (Some(net), Some(two)) = (&self.value, view.two_seat())
        {
            let v = net.value(two) * 100.0;
            let d = self.params.doubt as f32;
            deep = v > d && v < 100.0 - d;
        }
        deep
    }

    /// The estimated win probability, in points (0 to 100, a day-cap draw counting half),
    /// of every option in `options`, written to `out[i]` for option `i` (`out` at least as
    /// long as `options`); returns the samples each valued option was played on.
    ///
    /// What [`Search::decide`] estimates for its candidates, without its race: every
    /// option is played on the same samples of the hidden cards (drawn from the view by
    /// [`View::determinizer`], as the search's are: blind) with the same dice and the same
    /// rollout streams (common random numbers, so the differences between options are
    /// far less noisy than the values), as deep and with as many samples as the search
    /// gives the decision (`rollouts`, or `deep`'s a day further), none dropped. The
    /// search's `width`, `narrow`, `gate`, `margin`, `close`, `only` and `settled` do not
    /// apply: every option is valued, at least one sample each.
    ///
    /// At most [`MAX_VALUED`] options are played: the ranker's best ones first (the order
    /// the search takes its candidates in, up to `MAX_WIDTH`), then the others in the
    /// engine's order; any option beyond is given the lowest value played (the ranker
    /// put it below all of them). [`Search::value_order`] gives that order, best guess
    /// first. Deterministic given `rng`; no allocation once the buffers have grown to the
    /// largest decision seen.
    pub fn values<'v, const N: usize, const M: usize>(
        &mut self,
        view: &View<'v, N, M>,
        options: &[Choice],
        rng: &mut PolicyRng,
        out: &mut [f64],
    ) -> u32
    where
        for<'w> View<'w, N, M>: Seated<'w>,
    {
        let n = options.len();
        assert!(out.len() >= n, "one value per option");
        let mut cands: ArrayVec<usize, MAX_WIDTH> = ArrayVec::new();
        let width = self.params.width;
        self.params.width = MAX_WIDTH as u8;
        self.candidates(view, options, rng, &mut cands);
        self.params.width = width;
        self.order.clear();
        self.order.extend_from_slice(&cands);
        for k in 0..n {
            if !cands.contains(&k) {
                self.order.push(k);
            }
        }
        let valued = n.min(MAX_VALUED);
        let deep = self.deep_here(view);
        let plain = if view.mode().versus() {
            self.params.versus_rollouts
        } else {
            self.params.rollouts
        };
        let budget = if deep {
            self.params.deep_rollouts()
        } else {
            plain
        }
        .max(1);
        let horizon = self.params.horizon + deep as u8;
        self.sums.clear();
        self.sums.resize(valued, 0.0);
        let det = (!self.params.clairvoyant).then(|| view.determinizer());
        for _ in 0..budget {
            let seed: u64 = rng.random();
            let g = match &det {
                Some(d) => d.sample(&mut GameRng::seed_from_u64(seed)),
                None => view.clairvoyant_state(),
            };
            for j in 0..valued {
                let c = options[self.order[j]];
                self.sums[j] += self.rollout(view, g, c, seed, horizon);
            }
        }
        // Half-points over `budget` samples to points.
        let scale = 50.0 / budget as f64;
        let mut lowest = f64::INFINITY;
        for j in 0..valued {
            let v = self.sums[j] * scale;
            out[self.order[j]] = v;
            lowest = lowest.min(v);
        }
        for &k in &self.order[valued..] {
            out[k] = lowest;
        }
        budget
    }

    /// The options of the last [`Search::values`] call, the ranker's best guess first
    /// (every option once).
    pub fn value_order(&self) -> &[usize] {
        &self.order
    }

    /// Plays the candidates `cands` on up to `budget` samples of the hidden cards, each
    /// rollout `horizon` days deep, dropping those that clearly trail.
    #[allow(clippy::too_many_arguments)]
    fn run_race<const N: usize, const M: usize>(
        &mut self,
        view: &View<'_, N, M>,
        options: &[Choice],
        cands: &[usize],
        race: &mut Race,
        budget: u32,
        horizon: u8,
        rng: &mut PolicyRng,
    ) where
        for<'w> View<'w, N, M>: Seated<'w>,
    {
        let k = cands.len();
        let mut x = [0f64; MAX_WIDTH];
        // The hidden lists gathered and sorted once for all the samples of this decision.
        let det = (!self.params.clairvoyant).then(|| view.determinizer());
        for done in 1..=budget {
            let seed: u64 = rng.random();
            let g = match &det {
                Some(d) => d.sample(&mut GameRng::seed_from_u64(seed)),
                None => view.clairvoyant_state(),
            };
            for (j, &c) in cands.iter().enumerate() {
                if race.is_alive(j) {
                    x[j] = self.rollout(view, g, options[c], seed, horizon);
                }
            }
            race.push(&x, k);
            // No check after the last sample: it would only drop the trailing candidates,
            // which a close finish (`close`) still compares.
            if done >= FIRST_CHECK
                && done < budget
                && (done - FIRST_CHECK).is_multiple_of(CHECK_EVERY)
                && race.settle(k, budget - done)
            {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn race_of(results: &[[u32; 2]]) -> Race {
        let mut r = Race::new(2);
        for s in results {
            let mut x = [0.0; MAX_WIDTH];
            x[0] = s[0] as f64;
            x[1] = s[1] as f64;
            r.push(&x, 2);
        }
        r
    }

    #[test]
    fn a_clearly_worse_candidate_is_dropped() {
        let mut r = race_of(&[[2, 0]; 8]);
        assert!(r.settle(2, 100));
        assert_eq!(r.leader(2), 0);
        assert!(!r.is_alive(1));
    }

    #[test]
    fn a_close_race_goes_on() {
        let mut results = vec![[2, 2]; 6];
        results.push([2, 0]);
        results.push([0, 2]);
        let mut r = race_of(&results);
        assert!(!r.settle(2, 100));
        assert!(r.is_alive(0) && r.is_alive(1));
    }

    #[test]
    fn equal_candidates_stop_after_enough_samples_and_the_first_wins() {
        let mut r = race_of(&[[2, 2]; 4]);
        assert!(!r.settle(2, 100), "too early to call them equal");
        let mut r = race_of(&[[0, 0]; 8]);
        assert!(r.settle(2, 100));
        assert_eq!(r.leader(2), 0);
    }

    #[test]
    fn a_small_lead_over_the_first_guess_is_not_enough_with_a_margin() {
        // Candidate 1 wins 5 of 8 where the first guess wins 4: a lead of 12.5 points.
        let mut results = vec![[2, 2]; 4];
        results.extend([[0, 2], [0, 0], [0, 0], [0, 0]]);
        let r = race_of(&results);
        assert_eq!(r.leader(2), 1);
        assert_eq!(r.pick(2, 0.0), 1, "no margin: the leader");
        assert_eq!(r.pick(2, 0.125), 0, "a lead of no more than the margin");
        assert_eq!(r.pick(2, 0.12), 1, "a lead beyond it");
        // A margin keeps only the first guess: between two others the leader stays.
        let mut r = Race::new(3);
        for x in [[0.0, 2.0, 0.0], [0.0, 2.0, 2.0], [0.0, 0.0, 0.0]] {
            let mut v = [0.0; MAX_WIDTH];
            v[..3].copy_from_slice(&x);
            r.push(&v, 3);
        }
        assert_eq!(r.pick(3, 0.5), 1);
    }

    #[test]
    fn the_best_two_are_found_unless_they_never_differed() {
        let r = race_of(&[[2, 1], [1, 1], [0, 1]]);
        let (a, b, gap) = r.best_two(2).unwrap();
        assert_eq!((a, b), (0, 1));
        assert!(gap.abs() < 1e-12, "equal means: {gap}");
        let r = race_of(&[[2, 0], [2, 2]]);
        assert_eq!(r.best_two(2).map(|t| (t.0, t.1)), Some((0, 1)));
        assert!((r.best_two(2).unwrap().2 - 0.5).abs() < 1e-12);
        // Alike on every sample: nothing to settle by looking further.
        assert!(race_of(&[[2, 2], [0, 0], [1, 1]]).best_two(2).is_none());
        // One candidate alive: no second.
        let mut r = race_of(&[[2, 0]; 8]);
        r.settle(2, 100);
        assert!(r.best_two(2).is_none());
    }

    #[test]
    fn a_lead_that_cannot_be_made_up_ends_the_race() {
        // One loss in eight is not a clear deficit, but with no sample left it cannot be
        // made up.
        let mut results = vec![[2, 2]; 6];
        results.push([2, 0]);
        results.push([0, 0]);
        let mut r = race_of(&results);
        assert!(!r.settle(2, 100));
        assert!(r.settle(2, 0));
        assert_eq!(r.leader(2), 0);
    }
}
