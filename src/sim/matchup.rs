//! The head-to-head runner: every pair of entries (a player deck with a policy), mirror
//! pairs included, plays the same games on a rayon pool, and the results are counted per
//! pair.
//!
//! Game `g` of a pair puts entry A in seat 0 and entry B in seat 1, with seat `g % 2`
//! first on day 1 (so each seat is first in half the games, to within one) and the seeds
//! of game `g` of the run ([`GameSeeds::new`]`(seed, g)`): every pair sees the same deals
//! and dice streams at the same game index (common random numbers). The counts are
//! integers merged in a fixed order, so the results are the same on any number of threads.
//!
//! Layer: part of [`crate::sim`]; may use `cards`, `deck`, `engine`, `policy`, `stats` and nothing
//! else of the crate.

use std::sync::atomic::AtomicBool;

use super::duel::{DuelResult, DuelRules, DuelSeat, play_duel};
use super::runner::Stop;
use super::seed::GameSeeds;
use super::state::{Cursor, LogWriter, StateError, put};
use super::tally::{EngineErrors, Play, Slices, Tally, TallyUnit, run_slices};
use crate::cards::db::CardDb;
use crate::deck::PlayerDeck;
use crate::engine::ChoiceList;
use crate::policy::{AnyPolicy, PolicyData, PolicySpec};

/// Games per unit of work: the grain of the parallel loop, of progress reports and of the
/// checkpoint (part of a run's state: changing it makes older checkpoints unreadable).
pub const UNIT: u64 = 1024;

/// One entry of a matchup run: a player deck played by a policy.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Index into [`EntryPlan::decks`].
    pub deck: usize,
    /// Index into [`EntryPlan::policies`].
    pub policy: usize,
}

/// What a run of entries plays, at two seats (a matchup: every pair) or at four (Free for
/// All: every pod, [`super::ffa::run_ffa`]).
pub struct EntryPlan<'a> {
    pub db: &'a CardDb,
    pub decks: &'a [PlayerDeck],
    /// The policies (at four seats, those that play Free for All, `PolicyKind::plays_ffa`;
    /// checked by the caller).
    pub policies: &'a [PolicySpec],
    pub entries: Vec<Entry>,
    /// The first game of each configuration (pair, pod seating) this run plays (a shard's
    /// slice starts after 0).
    pub first_game: u64,
    /// Games per configuration this run plays, from `first_game` on.
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub day_cap: u8,
    /// Models instead of the committed ones (`--expert-weights`, `--value-weights`).
    pub models: crate::policy::Models<'a>,
}

/// What a matchup run plays.
pub type MatchupPlan<'a> = EntryPlan<'a>;

/// The games of one pair of entries, counted from seat A's side (seat 0 = entry A).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PairTally {
    pub games: u64,
    /// Games won by each seat.
    pub wins: [u64; 2],
    /// Games that reached the day cap with no winner.
    pub draws: u64,
    /// Games won by the seat that was first player on day 1.
    pub first_wins: u64,
    /// Games in which seat A was first player on day 1.
    pub a_first: u64,
    /// Sum of the days played.
    pub days: u64,
    /// Cards played by each seat.
    pub plays: [u64; 2],
    /// Games with an engine error.
    pub engine_errors: EngineErrors,
}

impl PairTally {
    /// Counts one game.
    pub fn push(&mut self, r: &DuelResult) {
        self.games += 1;
        match r.winner {
            Some(w) => {
                self.wins[(w & 1) as usize] += 1;
                if w == r.first {
                    self.first_wins += 1;
                }
            }
            None => self.draws += 1,
        }
        if r.first == 0 {
            self.a_first += 1;
        }
        self.days += r.days as u64;
        self.plays[0] += r.plays[0] as u64;
        self.plays[1] += r.plays[1] as u64;
    }

    /// The sum of two tallies.
    pub fn merge(mut self, o: &PairTally) -> PairTally {
        self.games += o.games;
        self.wins[0] += o.wins[0];
        self.wins[1] += o.wins[1];
        self.draws += o.draws;
        self.first_wins += o.first_wins;
        self.a_first += o.a_first;
        self.days += o.days;
        self.plays[0] += o.plays[0];
        self.plays[1] += o.plays[1];
        self.engine_errors.add(&o.engine_errors);
        self
    }

    /// The same games counted from seat B's side.
    pub fn swapped(&self) -> PairTally {
        PairTally {
            wins: [self.wins[1], self.wins[0]],
            a_first: self.games - self.a_first,
            plays: [self.plays[1], self.plays[0]],
            ..*self
        }
    }

    /// Mean number of days per game (NaN with no games).
    pub fn days_mean(&self) -> f64 {
        if self.games == 0 {
            f64::NAN
        } else {
            self.days as f64 / self.games as f64
        }
    }
}

impl Tally for PairTally {
    /// "CSP1".
    const MAGIC: u32 = 0x3150_5343;

    fn add(&mut self, o: &PairTally) {
        *self = self.merge(o);
    }

    fn games(&self) -> u64 {
        self.games
    }

    fn encode(&self, p: &mut Vec<u8>) {
        for v in [
            self.games,
            self.wins[0],
            self.wins[1],
            self.draws,
            self.first_wins,
            self.a_first,
            self.days,
            self.plays[0],
            self.plays[1],
        ] {
            put(p, v);
        }
        self.engine_errors.encode(p);
    }

    fn decode(c: &mut Cursor<'_>) -> Option<PairTally> {
        Some(PairTally {
            games: c.get()?,
            wins: [c.get()?, c.get()?],
            draws: c.get()?,
            first_wins: c.get()?,
            a_first: c.get()?,
            days: c.get()?,
            plays: [c.get()?, c.get()?],
            engine_errors: EngineErrors::decode(c)?,
        })
    }
}

/// Every unordered pair of `n` entries, mirror pairs included, in the order they are
/// played and reported: `(0,0), (0,1), ..., (0,n-1), (1,1), (1,2), ...`.
pub fn pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n).flat_map(|a| (a..n).map(move |b| (a, b))).collect()
}

/// The seat that is first player on day 1 in game `g` of every pair.
pub fn first_seat(g: u64) -> u8 {
    (g % 2) as u8
}

/// One worker's policies (built on first use, one per seat, policy and opposing policy,
/// so that a mirror pair has two and a search knows whom it plays) and choice buffer.
struct Worker<'a> {
    data: &'a PolicyData,
    specs: &'a [PolicySpec],
    seats: [Vec<Option<AnyPolicy>>; 2],
    buf: ChoiceList,
}

/// Plays every pair of [`pairs`]`(plan.entries.len())`, `plan.games` games each from
/// `plan.first_game` on, and returns their tallies in that order. The units `log` holds
/// are not played again; each unit played is recorded there (see [`run_slices`]).
/// `progress` is called with the number of games finished after each unit of work.
pub fn run_matchups(
    plan: &MatchupPlan<'_>,
    progress: &(dyn Fn(u64) + Sync),
    stop: Option<&AtomicBool>,
    log: &mut LogWriter<TallyUnit<PairTally>>,
) -> Result<Vec<PairTally>, Stop<StateError>> {
    let pairs = pairs(plan.entries.len());
    let data = PolicyData::for_run(plan.db, plan.models);
    let seat = |e: &Entry| {
        let d = &plan.decks[e.deck];
        DuelSeat {
            hero: d.hero,
            cards: &d.cards,
            ordered: false,
        }
    };
    let n_pol = plan.policies.len();
    let new_worker = || Worker {
        data: &data,
        specs: plan.policies,
        seats: [
            (0..n_pol * n_pol).map(|_| None).collect(),
            (0..n_pol * n_pol).map(|_| None).collect(),
        ],
        buf: ChoiceList::new(),
    };
    let game = |w: &mut Worker<'_>, p: usize, g: u64, t: &mut PairTally| {
        let (a, b) = pairs[p];
        let (ea, eb) = (&plan.entries[a], &plan.entries[b]);
        let Worker {
            data,
            specs,
            seats: [s0, s1],
            buf,
        } = w;
        let (sa, sb) = (&specs[ea.policy], &specs[eb.policy]);
        let pa =
            s0[ea.policy * n_pol + eb.policy].get_or_insert_with(|| sa.build_against(data, sb));
        let pb =
            s1[eb.policy * n_pol + ea.policy].get_or_insert_with(|| sb.build_against(data, sa));
        let r = play_duel(
            plan.db,
            [seat(ea), seat(eb)],
            first_seat(g),
            DuelRules::standard(plan.day_cap),
            &GameSeeds::new(plan.seed, g),
            [pa, pb],
            buf,
        );
        t.push(&r);
        if r.engine_error {
            t.engine_errors.push(g);
        }
    };
    let slices = Slices {
        configs: pairs.len(),
        first_game: plan.first_game,
        games: plan.games,
        unit: UNIT,
        threads: plan.threads,
    };
    let play = Play {
        zero: &PairTally::default,
        worker: &new_worker,
        game: &game,
    };
    run_slices(&slices, &play, progress, stop, log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_cover_every_unordered_pair_once_mirrors_included() {
        assert_eq!(pairs(0), vec![]);
        assert_eq!(pairs(1), vec![(0, 0)]);
        assert_eq!(
            pairs(3),
            vec![(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]
        );
        assert_eq!(pairs(6).len(), 21);
    }

    #[test]
    fn the_first_player_alternates_with_the_game_index() {
        assert_eq!((0..4).map(first_seat).collect::<Vec<_>>(), vec![0, 1, 0, 1]);
    }

    #[test]
    fn a_tally_counts_from_either_seat() {
        let mut t = PairTally::default();
        for (winner, first) in [(Some(0), 0), (Some(1), 0), (None, 1), (Some(1), 1)] {
            t.push(&DuelResult {
                winner,
                first,
                days: 4,
                plays: [3, 5],
                played: [0, 0],
                arena: false,
                engine_error: false,
            });
        }
        assert_eq!(t.games, 4);
        assert_eq!(t.wins, [1, 2]);
        assert_eq!(t.draws, 1);
        assert_eq!(t.first_wins, 2);
        assert_eq!(t.a_first, 2);
        assert_eq!(t.days_mean(), 4.0);
        let s = t.swapped();
        assert_eq!(s.wins, [2, 1]);
        assert_eq!(s.plays, [20, 12]);
        assert_eq!((s.draws, s.first_wins, s.games), (1, 2, 4));
        assert_eq!(s.swapped(), t);
        assert_eq!(PairTally::default().merge(&t), t);
    }
}
