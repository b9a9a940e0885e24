//! The deck optimizer's search: local search over one-card swaps
//! ([`crate::deck::swap`]), each round racing a batch of candidate swaps against the current
//! deck on paired games (the same game indices and seeds for every deck), dropping half of
//! them after each stage (successive halving), then confirming the survivor on fresh games;
//! restarts from a perturbed best deck once every swap of the current deck has been raced
//! without one being kept. Then the start and the best deck are measured again on game
//! indices the search never played.
//!
//! Game indices: the search takes fresh blocks from 0 upwards (each stage, each
//! confirmation: no game decides twice), and stays below [`MEASURE_FIRST`], where the final
//! measurement begins; its budget (`games`) is counted in games played by all decks.
//! Everything random (which swaps race, the restarts' swaps) comes from the seed, so the same
//! plan gives the same result on any thread count.
//!
//! The outputs (the best deck read back, the measurement, the tables) are in [`tables`].
//!
//! Layer: part of [`crate::design`].

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

pub mod tables;

use crate::cards::db::CardDb;
use crate::cards::effect::CardIdx;
use crate::deck::swap::{Swap, SwapPool, legal_swaps};
use crate::engine::ChoiceList;
use crate::engine::event::NoObserver;
use crate::engine::setup::Matchup;
use crate::policy::{Models, PolicyData, PolicySpec};
use crate::sim::play_game;
use crate::sim::seed::{GameSeeds, splitmix64};
use crate::stats::interval::paired;

/// The first game index of the final measurement; the search's games all lie below it.
pub const MEASURE_FIRST: u64 = 1 << 48;

/// The normal quantile of the one-sided 97.5% test that keeps a swap (and a restart's deck).
const Z: f64 = super::Z;

/// Plays decks of one hero against one Confluence deck with one policy.
pub struct Player<'a> {
    pub db: &'a CardDb,
    pub hero: CardIdx,
    pub confluence_hero: CardIdx,
    pub confluence_cards: Vec<CardIdx>,
    pub policy: &'a PolicySpec,
    pub models: Models<'a>,
    pub seed: u64,
    pub day_cap: u8,
    pub threads: usize,
}

/// Wins of several decks on the same games.
struct Pool<'a> {
    p: &'a Player<'a>,
    data: PolicyData,
    threads: rayon::ThreadPool,
}

impl<'a> Pool<'a> {
    fn new(p: &'a Player<'a>) -> Pool<'a> {
        Pool {
            p,
            data: PolicyData::for_run(p.db, p.models),
            threads: rayon::ThreadPoolBuilder::new()
                .num_threads(p.threads)
                .build()
                .expect("thread pool"),
        }
    }

    /// Each deck's wins on games `first..first + n`, in game order.
    fn play(&self, decks: &[&[CardIdx]], first: u64, n: u64) -> Vec<Vec<bool>> {
        let p = self.p;
        let total = decks.len() as u64 * n;
        let flat: Vec<bool> = self.threads.install(|| {
            (0..total)
                .into_par_iter()
                .map_init(
                    || (p.policy.build(&self.data), ChoiceList::new()),
                    |(policy, buf), k| {
                        let m = Matchup {
                            player_hero: p.hero,
                            player_cards: decks[(k / n) as usize],
                            confluence_hero: p.confluence_hero,
                            confluence_cards: &p.confluence_cards,
                            day_cap: p.day_cap,
                        };
                        let seeds = GameSeeds::new(p.seed, first + k % n);
                        play_game(p.db, &m, &seeds, policy, buf, &mut NoObserver)
                            .outcome
                            .is_win()
                    },
                )
                .collect()
        });
        flat.chunks(n.max(1) as usize)
            .map(<[bool]>::to_vec)
            .collect()
    }
}

/// How the search spends its games.
#[derive(Clone, Debug)]
pub struct SearchParams {
    /// Most games the search plays (all decks counted).
    pub games: u64,
    /// Candidate swaps raced per round.
    pub batch: usize,
    /// Games per deck in a round's first stage (doubled at each stage).
    pub stage_games: u64,
    /// Games per deck of a confirmation (the survivor against the current deck).
    pub confirm: u64,
    /// Random swaps that start a restart from the best deck.
    pub kick: usize,
    pub seed: u64,
}

/// What a step of the search did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// A round: candidates raced, the survivor confirmed (kept or not).
    Round,
    /// A restart: the best deck with random swaps.
    Restart,
    /// A restart's local optimum confirmed against the best deck (kept or not).
    Challenge,
}

impl StepKind {
    pub fn name(&self) -> &'static str {
        match self {
            StepKind::Round => "round",
            StepKind::Restart => "restart",
            StepKind::Challenge => "challenge",
        }
    }
}

/// One row of the trajectory.
#[derive(Clone, Debug)]
pub struct Step {
    pub step: u32,
    /// 0 for the first descent, then one more per restart.
    pub restart: u32,
    pub kind: StepKind,
    /// The swaps: the survivor of a round, the random swaps of a restart.
    pub swaps: Vec<Swap>,
    pub candidates: u32,
    /// Games this step played (all decks).
    pub games: u64,
    /// The search's games so far, this step's included.
    pub total_games: u64,
    /// The game indices this step used: `first_game..end_game`.
    pub first_game: u64,
    pub end_game: u64,
    /// The current deck's (a challenge: the best deck's) wins in the confirmation.
    pub base_wins: u64,
    /// The survivor's (a challenge: the restart's deck's) wins in the same games.
    pub wins: u64,
    /// Games per deck of the confirmation.
    pub confirm_games: u64,
    /// Paired difference (survivor minus current): mean and standard error.
    pub diff: (f64, f64),
    pub accepted: bool,
}

/// What the search found.
pub struct SearchResult {
    pub best: Vec<CardIdx>,
    pub steps: Vec<Step>,
    /// Games the search played.
    pub games: u64,
    /// One past the largest game index the search used (0: none).
    pub end_game: u64,
    /// Why it stopped: "budget", "stopped" (the caller's stop) or "no swap".
    pub stop: &'static str,
}

/// The search's state between steps.
struct State<'a> {
    pool: Pool<'a>,
    offers: &'a SwapPool,
    params: &'a SearchParams,
    rng: Xoshiro256PlusPlus,
    next_game: u64,
    games: u64,
    steps: Vec<Step>,
}

impl State<'_> {
    /// A fresh block of `n` game indices.
    fn block(&mut self, n: u64) -> u64 {
        let first = self.next_game;
        self.next_game += n;
        assert!(
            self.next_game <= MEASURE_FIRST,
            "the search's games stay below the measurement's"
        );
        first
    }

    fn play(
        &mut self,
        decks: &[&[CardIdx]],
        n: u64,
        progress: &mut dyn FnMut(u64),
    ) -> (u64, Vec<Vec<bool>>) {
        let first = self.block(n);
        let r = self.pool.play(decks, first, n);
        let g = decks.len() as u64 * n;
        self.games += g;
        progress(g);
        (first, r)
    }

    fn swaps(&mut self, cards: &[CardIdx]) -> Vec<Swap> {
        let p = self.pool.p;
        let mut s = legal_swaps(p.hero, cards, self.offers, p.db);
        s.shuffle(&mut self.rng);
        s
    }

    /// Games a round of `k` candidates plays, confirmation included.
    fn round_cost(&self, k: usize) -> u64 {
        round_cost(self.params, k)
    }

    /// Races `cands` against `cur`; returns the survivor's step (not yet numbered).
    fn round(&mut self, cur: &[CardIdx], cands: &[Swap], progress: &mut dyn FnMut(u64)) -> Step {
        let decks: Vec<Vec<CardIdx>> = cands.iter().map(|s| s.apply(cur)).collect();
        let (games0, first0) = (self.games, self.next_game);
        // Sum of paired differences (candidate minus current) over the stages so far.
        let mut score = vec![0i64; cands.len()];
        let mut alive: Vec<usize> = (0..cands.len()).collect();
        let mut n = self.params.stage_games;
        while alive.len() > 1 {
            let mut ds: Vec<&[CardIdx]> = vec![cur];
            ds.extend(alive.iter().map(|&i| decks[i].as_slice()));
            let (_, w) = self.play(&ds, n, progress);
            for (j, &i) in alive.iter().enumerate() {
                score[i] += w[j + 1]
                    .iter()
                    .zip(&w[0])
                    .fold(0i64, |s, (a, b)| s + *a as i64 - *b as i64);
            }
            // Every survivor has played the same games, so the sums compare; ties keep the
            // earlier candidate.
            alive.sort_by(|&a, &b| score[b].cmp(&score[a]).then(a.cmp(&b)));
            alive.truncate(alive.len().div_ceil(2));
            n *= 2;
        }
        let s = alive[0];
        let (_, w) = self.play(&[cur, &decks[s]], self.params.confirm, progress);
        let (kind, swaps) = (StepKind::Round, vec![cands[s]]);
        self.step(kind, swaps, cands.len() as u32, games0, first0, &w)
    }

    /// The step that ends on a confirmation: `w[1]`'s deck against `w[0]`'s on the same
    /// games, kept when the paired difference clears its interval; the games counted from
    /// `games0`, the step's first game index `first_game`.
    fn step(
        &self,
        kind: StepKind,
        swaps: Vec<Swap>,
        candidates: u32,
        games0: u64,
        first_game: u64,
        w: &[Vec<bool>],
    ) -> Step {
        let diff = paired(&w[0], &w[1]);
        Step {
            step: 0,
            restart: 0,
            kind,
            swaps,
            candidates,
            games: self.games - games0,
            total_games: self.games,
            first_game,
            end_game: self.next_game,
            base_wins: w[0].iter().filter(|&&x| x).count() as u64,
            wins: w[1].iter().filter(|&&x| x).count() as u64,
            confirm_games: self.params.confirm,
            diff,
            accepted: diff.0 - Z * diff.1 > 0.0,
        }
    }

    /// The restart's deck `local` against the best deck, on fresh games.
    fn challenge(
        &mut self,
        best: &[CardIdx],
        local: &[CardIdx],
        progress: &mut dyn FnMut(u64),
    ) -> Step {
        let games0 = self.games;
        let (first, w) = self.play(&[best, local], self.params.confirm, progress);
        self.step(StepKind::Challenge, Vec::new(), 1, games0, first, &w)
    }

    fn push(&mut self, mut s: Step, restart: u32) -> &Step {
        s.step = self.steps.len() as u32 + 1;
        s.restart = restart;
        self.steps.push(s);
        self.steps.last().expect("just pushed")
    }
}

fn same_deck(a: &[CardIdx], b: &[CardIdx]) -> bool {
    let (mut x, mut y) = (a.to_vec(), b.to_vec());
    x.sort_unstable();
    y.sort_unstable();
    x == y
}

/// Runs the search from `start`. `progress` gets the games of each stage as they finish;
/// `on_step` each step, with the best deck's last estimate; `stop` is asked before each step
/// (a wall-clock limit: the result then depends on the machine's speed).
/// Games a round of `k` candidates plays with `params`, confirmation included: the least
/// budget (`games`) that plays a round at all.
pub fn round_cost(params: &SearchParams, k: usize) -> u64 {
    let (mut alive, mut n, mut total) = (k, params.stage_games, 0u64);
    while alive > 1 {
        total = total.saturating_add((alive as u64 + 1).saturating_mul(n));
        alive = alive.div_ceil(2);
        n = n.saturating_mul(2);
    }
    total.saturating_add(params.confirm.saturating_mul(2))
}

pub fn search(
    player: &Player<'_>,
    offers: &SwapPool,
    start: &[CardIdx],
    params: &SearchParams,
    progress: &mut dyn FnMut(u64),
    on_step: &mut dyn FnMut(&Step),
    stop: &dyn Fn() -> bool,
) -> SearchResult {
    let mut st = State {
        pool: Pool::new(player),
        offers,
        params,
        rng: Xoshiro256PlusPlus::seed_from_u64(splitmix64(params.seed ^ 0x0b71_3123)),
        next_game: 0,
        games: 0,
        steps: Vec::new(),
    };
    let mut best = start.to_vec();
    let mut cur = start.to_vec();
    let mut restart = 0u32;
    let mut queue = st.swaps(&cur);
    let why = loop {
        if stop() {
            break "stopped";
        }
        // A restart's descent keeps enough budget to challenge the best deck at the end.
        let reserve = if restart > 0 { 2 * params.confirm } else { 0 };
        if queue.is_empty() {
            // Every swap of the current deck was raced and none was kept: a local optimum.
            if restart > 0 {
                if !same_deck(&cur, &best) {
                    let s = st.challenge(&best, &cur, progress);
                    if s.accepted {
                        best = cur.clone();
                    }
                    on_step(st.push(s, restart));
                }
            } else {
                best = cur.clone();
            }
            // Restart: the best deck with `kick` random swaps.
            cur = best.clone();
            let mut kicks = Vec::new();
            for _ in 0..params.kick {
                let Some(&s) = st.swaps(&cur).first() else {
                    break;
                };
                cur = s.apply(&cur);
                kicks.push(s);
            }
            if kicks.is_empty() {
                break "no swap";
            }
            restart += 1;
            let s = Step {
                step: 0,
                restart: 0,
                kind: StepKind::Restart,
                swaps: kicks,
                candidates: 0,
                games: 0,
                total_games: st.games,
                first_game: st.next_game,
                end_game: st.next_game,
                base_wins: 0,
                wins: 0,
                confirm_games: 0,
                diff: (0.0, 0.0),
                accepted: true,
            };
            on_step(st.push(s, restart));
            queue = st.swaps(&cur);
            continue;
        }
        let k = params.batch.min(queue.len());
        if st
            .games
            .saturating_add(st.round_cost(k))
            .saturating_add(reserve)
            > params.games
        {
            break "budget";
        }
        let cands: Vec<Swap> = queue.drain(..k).collect();
        let s = st.round(&cur, &cands, progress);
        if s.accepted {
            cur = s.swaps[0].apply(&cur);
            if restart == 0 {
                best = cur.clone();
            }
            queue = st.swaps(&cur);
        }
        on_step(st.push(s, restart));
    };
    // A restart's deck, better than the best one? (The budget kept room to ask.)
    if restart > 0
        && !same_deck(&cur, &best)
        && st.games.saturating_add(2 * params.confirm) <= params.games
    {
        let s = st.challenge(&best, &cur, progress);
        if s.accepted {
            best = cur.clone();
        }
        on_step(st.push(s, restart));
    }
    SearchResult {
        best,
        games: st.games,
        end_game: st.next_game,
        steps: st.steps,
        stop: why,
    }
}

/// The final measurement: each deck's wins on games `MEASURE_FIRST..MEASURE_FIRST + n`,
/// which the search never played.
pub fn measure(player: &Player<'_>, decks: &[&[CardIdx]], n: u64) -> Vec<Vec<bool>> {
    Pool::new(player).play(decks, MEASURE_FIRST, n)
}
