//! The Free for All runner: pods of four entries (a player deck with a policy), each pod
//! played in every seating of its four entries, the games counted per pod, seating and
//! seat on a rayon pool.
//!
//! **Pods.** With `n` entries, every 4-subset of them is a pod (`n` choose 4, in
//! lexicographic order; [`pods`]): every entry meets every other as often, and a ranking
//! fitted to the pods compares all of them on the same footing.
//!
//! **Seatings.** A pod plays all 24 orders of its four entries round the table
//! ([`SEATINGS`]): each of the 6 orders round the ring (member 0 first) in its 4
//! rotations. So each entry sits in every seat equally often (the seat effect cancels out
//! of its totals and can be read on its own), and sits beside each of the others on
//! either side equally often (a seat's Hero expedition races its right neighbour and its
//! Companion expedition its left one: docs/free-for-all.md).
//!
//! **Games.** A configuration is a (pod, seating); game `g` of it has seat `g % 4` first on
//! day 1 and draws every random number from (seed, configuration, `g`) alone
//! ([`FfaSeeds::new`]), so the results are the same on any number of threads. Tallies are
//! integer counts, merged in a fixed order ([`run_slices`]).
//!
//! Layer: part of [`crate::sim`]; may use `cards`, `deck`, `engine`, `policy`, `stats` and nothing
//! else of the crate.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use super::duel::DuelSeat;
use super::runner::Stop;
use super::seed::splitmix64;
use super::state::{Cursor, LogWriter, StateError, put};
use super::tally::{EngineErrors, Play, Slices, Tally, TallyUnit, run_slices};
use crate::cards::db::CardDb;
use crate::cards::types::Side;
use crate::engine::event::{NoObserver, Observer};
use crate::engine::ffa::{FfaSetup, FfaState, FfaView, new_ffa};
use crate::engine::{Choice, ChoiceList, GameRng, Step, advance, apply_unchecked, legal_choices};
use crate::policy::{AnyPolicy, Policy, PolicyData, PolicyKind, PolicyRng, PolicySpec};

/// Games per unit of work: the grain of the parallel loop and of the checkpoint (part of
/// a run's state: changing it makes older checkpoints unreadable).
pub const UNIT: u64 = 256;

/// Seats at a Free for All table.
pub const SEATS: usize = 4;

/// The orders of a pod's four members round the table: `SEATINGS[k][s]` is the member
/// at seat `s` in seating `k`. Seating `4 r + t` is ring order `r` (the 6 orders that
/// start with member 0) turned `t` seats clockwise (member `ring[0]` at seat `t`).
pub const SEATINGS: [[u8; 4]; 24] = {
    const RINGS: [[u8; 4]; 6] = [
        [0, 1, 2, 3],
        [0, 1, 3, 2],
        [0, 2, 1, 3],
        [0, 2, 3, 1],
        [0, 3, 1, 2],
        [0, 3, 2, 1],
    ];
    let mut out = [[0u8; 4]; 24];
    let mut k = 0;
    while k < 24 {
        let (r, t) = (k / 4, k % 4);
        let mut s = 0;
        while s < 4 {
            out[k][s] = RINGS[r][(s + 4 - t) % 4];
            s += 1;
        }
        k += 1;
    }
    out
};

/// Every 4-subset of `n` entries, in lexicographic order (none with fewer than 4).
pub fn pods(n: usize) -> Vec<[usize; 4]> {
    let mut out = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    out.push([a, b, c, d]);
                }
            }
        }
    }
    out
}

/// The number of pods of `n` entries (`n` choose 4), without listing them; `None` when it
/// does not fit.
pub fn pod_count(n: usize) -> Option<u64> {
    let n = n as u128;
    if n < 4 {
        return Some(0);
    }
    u64::try_from(n * (n - 1) * (n - 2) * (n - 3) / 24).ok()
}

/// The seat that is first player on day 1 in game `g` of every configuration.
pub fn first_seat(g: u64) -> u8 {
    (g % SEATS as u64) as u8
}

/// The streams of one Free for All game: the Adventure and seat 0's deck from the first
/// deck stream (as [`new_ffa`] takes them), each other seat's deck from its own, the
/// dice and reshuffles from `events`, each seat's policy from its own.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FfaSeeds {
    pub decks: [u64; 4],
    pub events: u64,
    pub policies: [u64; 4],
}

impl FfaSeeds {
    /// The streams of game `g` of configuration `config` (pod × seating) of a run seeded
    /// with `seed`.
    pub fn new(seed: u64, config: u64, g: u64) -> FfaSeeds {
        let key = splitmix64(seed ^ splitmix64(config ^ 0xff_a000_0000));
        let game = splitmix64(key ^ splitmix64(g));
        let at = |salt: u64, k: usize| splitmix64(game ^ salt ^ ((k as u64) << 20));
        FfaSeeds {
            decks: std::array::from_fn(|k| at(0x5e7, k)),
            events: at(0xe7e7, 0),
            policies: std::array::from_fn(|k| at(0x9011, k)),
        }
    }
}

/// How a Free for All game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FfaResult {
    /// The winning seat; `None` = a draw (the day cap was reached).
    pub winner: Option<u8>,
    /// The seat that was first player on day 1.
    pub first: u8,
    pub days: u8,
    /// The game went to the Arena tiebreaker.
    pub arena: bool,
    /// More reactions triggered at once than the engine queues (see
    /// [`super::duel::DuelResult::engine_error`]).
    pub engine_error: bool,
}

/// Plays one Free for All game: seat `k` brings `seats[k]` and plays `policies[k]`, seat
/// `first` is first player on day 1, every random draw comes from `seeds`. Each policy
/// sees only its own seat's view; `buf` is reused between decisions.
pub fn play_ffa(
    db: &CardDb,
    seats: [DuelSeat<'_>; 4],
    first: u8,
    day_cap: u8,
    seeds: &FfaSeeds,
    policies: [&mut AnyPolicy; 4],
    buf: &mut ChoiceList,
) -> FfaResult {
    let game = FfaGame {
        seats,
        first,
        day_cap,
        seeds,
        mirror_lanes: false,
    };
    play_ffa_with(db, &game, policies, buf, &mut NoObserver, |_, _, _, _| {})
}

/// One Free for All game as [`play_ffa`] takes it.
#[derive(Copy, Clone, Debug)]
pub struct FfaGame<'a> {
    /// What each seat brings.
    pub seats: [DuelSeat<'a>; 4],
    /// The first player on day 1.
    pub first: u8,
    pub day_cap: u8,
    pub seeds: &'a FfaSeeds,
    /// The lanes laid out the other way round the table (`FfaSetup::mirror_lanes`): an
    /// experiment, not a rule; `false` in every command.
    pub mirror_lanes: bool,
}

/// [`play_ffa`] watched: `obs` sees every event and `decided` every decision, with the
/// state before it, the number of options and the choice (`replay` writes its log so).
/// The same streams in the same order as [`play_ffa`]: the same game.
pub fn play_ffa_with<O: Observer<4, 255>>(
    db: &CardDb,
    g: &FfaGame<'_>,
    policies: [&mut AnyPolicy; 4],
    buf: &mut ChoiceList,
    obs: &mut O,
    mut decided: impl FnMut(&mut O, &FfaState, usize, Choice),
) -> FfaResult {
    let (seeds, first) = (g.seeds, g.first);
    let mut decks: [GameRng; 4] = seeds.decks.map(super::GameSeeds::rng);
    let mut rng = super::GameSeeds::rng(seeds.events);
    let mut prng: [PolicyRng; 4] = seeds
        .policies
        .map(<PolicyRng as rand::SeedableRng>::seed_from_u64);
    let f = FfaSetup {
        heroes: g.seats.map(|s| s.hero),
        cards: g.seats.map(|s| s.cards),
        first: Side::of_seat(first),
        day_cap: g.day_cap,
        mirror_lanes: g.mirror_lanes,
    };
    let [d0, d1, d2, d3] = &mut decks;
    let mut s = new_ffa(db, &f, [d0, d1, d2, d3], &mut rng, obs);
    loop {
        match advance(&mut s, db, &mut rng, obs) {
            Step::Over(outcome) => {
                return FfaResult {
                    winner: outcome.winner().map(|side| side.seat()),
                    first,
                    days: s.day,
                    arena: s.arena,
                    engine_error: s.overflow,
                };
            }
            Step::Stopped => unreachable!("advance never stops early"),
            Step::Decide => {
                legal_choices(&s, db, buf);
                debug_assert!(!buf.is_empty(), "decision {:?} with no options", s.decision);
                let seat = s.decider.index();
                let k = if buf.len() == 1 {
                    0
                } else {
                    let view = FfaView::new(&s, db);
                    policies[seat].choose(&view, buf, &mut prng[seat])
                };
                decided(obs, &s, buf.len(), buf[k]);
                apply_unchecked(&mut s, db, &mut rng, obs, buf[k]);
            }
        }
    }
}

/// The games of one configuration (pod × seating), counted by seat.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FfaTally {
    pub games: u64,
    /// Games won by each seat.
    pub wins: [u64; 4],
    /// Games that reached the day cap with no winner.
    pub draws: u64,
    /// Games won by the seat that was first player on day 1.
    pub first_wins: u64,
    /// Games that went to the Arena tiebreaker.
    pub arenas: u64,
    /// Sum of the days played.
    pub days: u64,
    pub engine_errors: EngineErrors,
}

impl FfaTally {
    /// Counts one game.
    pub fn push(&mut self, r: &FfaResult) {
        self.games += 1;
        match r.winner {
            Some(w) => {
                self.wins[w as usize & 3] += 1;
                self.first_wins += (w == r.first) as u64;
            }
            None => self.draws += 1,
        }
        self.arenas += r.arena as u64;
        self.days += r.days as u64;
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

impl Tally for FfaTally {
    /// "CSF1".
    const MAGIC: u32 = 0x3146_5343;

    fn add(&mut self, o: &FfaTally) {
        self.games += o.games;
        for k in 0..4 {
            self.wins[k] += o.wins[k];
        }
        self.draws += o.draws;
        self.first_wins += o.first_wins;
        self.arenas += o.arenas;
        self.days += o.days;
        self.engine_errors.add(&o.engine_errors);
    }

    fn games(&self) -> u64 {
        self.games
    }

    fn encode(&self, p: &mut Vec<u8>) {
        for v in [
            self.games,
            self.draws,
            self.first_wins,
            self.arenas,
            self.days,
        ]
        .into_iter()
        .chain(self.wins)
        {
            put(p, v);
        }
        self.engine_errors.encode(p);
    }

    fn decode(c: &mut Cursor<'_>) -> Option<FfaTally> {
        let (games, draws, first_wins, arenas, days) =
            (c.get()?, c.get()?, c.get()?, c.get()?, c.get()?);
        Some(FfaTally {
            games,
            draws,
            first_wins,
            arenas,
            days,
            wins: [c.get()?, c.get()?, c.get()?, c.get()?],
            engine_errors: EngineErrors::decode(c)?,
        })
    }
}

/// What a Free for All run plays: its entries' pods, in every seating.
pub type FfaPlan<'a> = super::matchup::EntryPlan<'a>;

/// One worker's policies, per seat, built on first use, and its choice buffer. A seat's
/// policy is keyed by its spec's index; a search's, which plays the other seats in its
/// rollouts by their policies, by the specs of the whole table ([`table_key`]).
struct Worker<'a> {
    data: &'a PolicyData,
    specs: &'a [PolicySpec],
    seats: [BTreeMap<usize, AnyPolicy>; 4],
    buf: ChoiceList,
}

/// The key of seat `seat`'s policy in a worker's cache when seat `t` plays spec
/// `table[t]` of `n` specs: the spec's index, or for a search `n` plus the table's specs
/// as a number in base `n` (its rollouts depend on them).
fn table_key(specs: &[PolicySpec], table: [usize; 4], seat: usize) -> usize {
    let n = specs.len();
    let k = table[seat];
    if matches!(
        specs[k].kind,
        PolicyKind::Search | PolicyKind::Clairvoyant | PolicyKind::Skill
    ) {
        n + table.iter().fold(0, |acc, &t| acc * n + t)
    } else {
        k
    }
}

/// Plays every configuration of the run (pod `c / 24`, seating `c % 24`, pods as
/// [`pods`] lists them), `plan.games` games each, and returns their tallies in that
/// order. The units `log` holds are not played again; each unit played is recorded there
/// (see [`run_slices`]). `progress` is called with the games finished after each unit.
pub fn run_ffa(
    plan: &FfaPlan<'_>,
    progress: &(dyn Fn(u64) + Sync),
    stop: Option<&AtomicBool>,
    log: &mut LogWriter<TallyUnit<FfaTally>>,
) -> Result<Vec<FfaTally>, Stop<StateError>> {
    let pods = pods(plan.entries.len());
    let data = PolicyData::for_run(plan.db, plan.models);
    let new_worker = || Worker {
        data: &data,
        specs: plan.policies,
        seats: std::array::from_fn(|_| BTreeMap::new()),
        buf: ChoiceList::new(),
    };
    let game = |w: &mut Worker<'_>, c: usize, g: u64, t: &mut FfaTally| {
        let (pod, seating) = (&pods[c / SEATINGS.len()], &SEATINGS[c % SEATINGS.len()]);
        let entry = |s: usize| &plan.entries[pod[seating[s] as usize]];
        let seat = |s: usize| {
            let d = &plan.decks[entry(s).deck];
            DuelSeat {
                hero: d.hero,
                cards: &d.cards,
                ordered: false,
            }
        };
        let Worker {
            data,
            specs,
            seats,
            buf,
        } = w;
        // Each seat's policy, from that seat's own set (four distinct borrows).
        let table: [usize; 4] = std::array::from_fn(|s| entry(s).policy);
        let mut s = 0;
        let policies = seats.each_mut().map(|pols| {
            let seat = s;
            s += 1;
            pols.entry(table_key(specs, table, seat))
                .or_insert_with(|| {
                    specs[table[seat]]
                        .build_ffa_at(data, seat, table.map(|k| &specs[k]))
                        .expect("the command accepts only policies that play Free for All")
                })
        });
        let r = play_ffa(
            plan.db,
            std::array::from_fn(seat),
            first_seat(g),
            plan.day_cap,
            &FfaSeeds::new(plan.seed, c as u64, g),
            policies,
            buf,
        );
        t.push(&r);
        if r.engine_error {
            t.engine_errors.push(g);
        }
    };
    let slices = Slices {
        configs: pods.len() * SEATINGS.len(),
        first_game: plan.first_game,
        games: plan.games,
        unit: UNIT,
        threads: plan.threads,
    };
    let play = Play {
        zero: &FfaTally::default,
        worker: &new_worker,
        game: &game,
    };
    run_slices(&slices, &play, progress, stop, log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seating_puts_each_member_in_each_seat_and_beside_each_other_alike() {
        let mut seat_count = [[0u32; 4]; 4];
        // right[a][b]: member b sits at a's left (the next seat clockwise).
        let mut left_of = [[0u32; 4]; 4];
        let mut seen = std::collections::HashSet::new();
        for s in SEATINGS {
            assert!(seen.insert(s), "seating {s:?} twice");
            let mut members = s;
            members.sort();
            assert_eq!(members, [0, 1, 2, 3], "{s:?} is not an order of the pod");
            for k in 0..4 {
                seat_count[s[k] as usize][k] += 1;
                left_of[s[k] as usize][s[(k + 1) % 4] as usize] += 1;
            }
        }
        assert!(
            seat_count.iter().flatten().all(|&c| c == 6),
            "{seat_count:?}"
        );
        for a in 0..4 {
            for b in 0..4 {
                assert_eq!(left_of[a][b], if a == b { 0 } else { 8 }, "{left_of:?}");
            }
        }
        // Seating 4r + t turns ring r by t seats: member ring[0] = 0 sits at seat t.
        assert_eq!(SEATINGS[0], [0, 1, 2, 3]);
        assert_eq!(SEATINGS[1], [3, 0, 1, 2]);
        assert_eq!(SEATINGS[4 * 5 + 2], [2, 1, 0, 3]);
    }

    #[test]
    fn pods_are_every_four_subset() {
        assert!(pods(3).is_empty());
        assert_eq!(pods(4), vec![[0, 1, 2, 3]]);
        assert_eq!(pods(6).len(), 15);
        assert_eq!(pods(6)[14], [2, 3, 4, 5]);
        for n in [0, 3, 4, 6, 12] {
            assert_eq!(pod_count(n), Some(pods(n).len() as u64));
        }
    }

    #[test]
    fn streams_differ_by_configuration_game_and_seat() {
        let a = FfaSeeds::new(1, 0, 0);
        assert_eq!(a, FfaSeeds::new(1, 0, 0));
        assert_ne!(a, FfaSeeds::new(1, 1, 0));
        assert_ne!(a, FfaSeeds::new(1, 0, 1));
        assert_ne!(a, FfaSeeds::new(2, 0, 0));
        assert_ne!(a.decks[0], a.decks[1]);
        assert_ne!(a.policies[2], a.policies[3]);
    }

    #[test]
    fn a_tally_round_trips_and_adds_up() {
        let mut t = FfaTally::default();
        for (winner, first) in [(Some(0), 0), (Some(3), 1), (None, 2), (Some(3), 3)] {
            t.push(&FfaResult {
                winner,
                first,
                days: 5,
                arena: winner.is_none(),
                engine_error: false,
            });
        }
        assert_eq!(t.wins, [1, 0, 0, 2]);
        assert_eq!((t.games, t.draws, t.first_wins, t.arenas), (4, 1, 2, 1));
        assert_eq!(t.wins.iter().sum::<u64>() + t.draws, t.games);
        t.engine_errors.push(9);
        let mut p = Vec::new();
        t.encode(&mut p);
        let back = FfaTally::decode(&mut Cursor { b: &p }).expect("decodes");
        assert_eq!(back, t);
        let mut two = t;
        two.add(&t);
        assert_eq!(two.games, 8);
        assert_eq!(two.wins, [2, 0, 0, 4]);
    }
}
