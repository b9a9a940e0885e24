//! The Booster War runner (seed 003, digest §7.4): each game opens two boosters of a set,
//! each player's Hero comes out of its booster and the rest is its deck, and the game is
//! played with Booster War's rules ([`Variant::BOOSTER_WAR`]). Results are counted per
//! variant, per faction pair, per Hero and per card.
//!
//! Game `g` opens the same two boosters in both variants (common random numbers, from
//! the game's seed), and seat `g % 2` is first player on day 1. The counts are integer
//! sums, so the results are the same on any number of threads.
//!
//! Layer: part of [`crate::sim`]; may use `cards`, `deck`, `engine`, `policy`, `stats` and nothing
//! else of the crate.

use std::sync::atomic::AtomicBool;

use rand::SeedableRng;

use super::duel::{DuelResult, DuelRules, DuelSeat, play_duel};
use super::runner::Stop;
use super::seed::{GameSeeds, splitmix64};
use super::state::{Cursor, LogWriter, StateError, put};
use super::tally::{EngineErrors, Play, Slices, Tally, TallyUnit, run_slices};
use crate::cards::db::CardDb;
use crate::cards::types::Faction;
use crate::deck::booster::{Booster, BoosterPool};
use crate::engine::{ChoiceList, GameRng, Variant};
use crate::policy::deck_order::order_booster_deck;
use crate::policy::{AnyPolicy, PolicyData, PolicyRng, PolicySpec};

/// Games per unit of work: the grain of the parallel loop, of progress reports and of the
/// checkpoint (part of a run's state: changing it makes older checkpoints unreadable).
pub const UNIT: u64 = 512;

/// The two variants of seed 003.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Build {
    /// The least technical variant: the booster shuffled into a deck.
    Shuffled,
    /// The most technical variant: the player stacks its booster in the order it chooses
    /// ([`order_booster_deck`]).
    Ordered,
}

impl Build {
    pub const ALL: [Build; 2] = [Build::Shuffled, Build::Ordered];

    pub fn name(self) -> &'static str {
        match self {
            Build::Shuffled => "shuffled",
            Build::Ordered => "ordered",
        }
    }
}

/// The player factions, in the order of the faction tables (a Hero's faction is its
/// booster's); index 6 holds anything else.
pub const FACTIONS: [Faction; 6] = [
    Faction::Axiom,
    Faction::Bravos,
    Faction::Lyra,
    Faction::Muna,
    Faction::Ordis,
    Faction::Yzmir,
];
const N_FACTIONS: usize = FACTIONS.len() + 1;

pub fn faction_slot(f: Faction) -> usize {
    FACTIONS
        .iter()
        .position(|&x| x == f)
        .unwrap_or(FACTIONS.len())
}

/// What a Booster War run plays.
pub struct WarPlan<'a> {
    pub db: &'a CardDb,
    pub pool: &'a BoosterPool,
    pub policy: &'a PolicySpec,
    pub builds: Vec<Build>,
    /// The first game of each variant this run plays (a shard's slice starts after 0).
    pub first_game: u64,
    /// Games per variant this run plays, from `first_game` on.
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub day_cap: u8,
    /// The rules: [`Variant::BOOSTER_WAR`], with or without day 1's Mana and Expand.
    pub rules: Variant,
    /// Models instead of the committed ones (`--expert-weights`, `--value-weights`).
    pub models: crate::policy::Models<'a>,
}

/// Games, wins and draws of one side of something (a faction pair, a Hero).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
}

impl Wdl {
    fn push(&mut self, won: bool, draw: bool) {
        self.games += 1;
        self.wins += won as u64;
        self.draws += draw as u64;
    }

    fn add(&mut self, o: &Wdl) {
        self.games += o.games;
        self.wins += o.wins;
        self.draws += o.draws;
    }

    /// Games lost.
    pub fn losses(&self) -> u64 {
        self.games - self.wins - self.draws
    }
}

/// One card's sides: in how many sides' boosters it was, how many played it, and their
/// wins.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CardTally {
    /// Sides (a player in a game) whose booster held it.
    pub held: u64,
    /// Sides that played it at least once.
    pub played: u64,
    /// Wins of the sides that held it, and of those that played it.
    pub wins_held: u64,
    pub wins_played: u64,
}

/// The games of one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarTally {
    pub games: u64,
    /// Games won by each seat.
    pub wins: [u64; 2],
    /// Games with no winner at the day cap.
    pub draws: u64,
    /// Games won by the first player of day 1.
    pub first_wins: u64,
    /// Sum of the days played.
    pub days: u64,
    /// Games tied after the last day, which played the extra day.
    pub extra_day: u64,
    /// Games that went to the Arena tiebreaker.
    pub arena: u64,
    /// Cards played, both seats.
    pub plays: u64,
    /// `factions[a * 7 + b]`: a side whose Hero is of faction `a` against one of faction `b`.
    pub factions: Vec<Wdl>,
    /// Per Hero of the pool (`BoosterPool::heroes` order).
    pub heroes: Vec<Wdl>,
    /// Per card of the pool (`BoosterPool::commons` then `rares`).
    pub cards: Vec<CardTally>,
    /// Games with an engine error.
    pub engine_errors: EngineErrors,
}

impl WarTally {
    pub fn new(pool: &BoosterPool) -> WarTally {
        WarTally {
            games: 0,
            wins: [0; 2],
            draws: 0,
            first_wins: 0,
            days: 0,
            extra_day: 0,
            arena: 0,
            plays: 0,
            factions: vec![Wdl::default(); N_FACTIONS * N_FACTIONS],
            heroes: vec![Wdl::default(); pool.heroes.len()],
            cards: vec![CardTally::default(); pool.commons.len() + pool.rares.len()],
            engine_errors: EngineErrors::default(),
        }
    }

    /// Adds another tally of the same pool.
    pub fn merge(&mut self, o: &WarTally) {
        self.games += o.games;
        self.wins[0] += o.wins[0];
        self.wins[1] += o.wins[1];
        self.draws += o.draws;
        self.first_wins += o.first_wins;
        self.days += o.days;
        self.extra_day += o.extra_day;
        self.arena += o.arena;
        self.plays += o.plays;
        self.engine_errors.add(&o.engine_errors);
        for (a, b) in self.factions.iter_mut().zip(&o.factions) {
            a.add(b);
        }
        for (a, b) in self.heroes.iter_mut().zip(&o.heroes) {
            a.add(b);
        }
        for (a, b) in self.cards.iter_mut().zip(&o.cards) {
            a.held += b.held;
            a.played += b.played;
            a.wins_held += b.wins_held;
            a.wins_played += b.wins_played;
        }
    }

    /// Mean days per game (NaN with none).
    pub fn days_mean(&self) -> f64 {
        self.days as f64 / self.games as f64
    }
}

impl Tally for WarTally {
    /// "CSW1".
    const MAGIC: u32 = 0x3157_5343;

    fn add(&mut self, o: &WarTally) {
        self.merge(o);
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
            self.days,
            self.extra_day,
            self.arena,
            self.plays,
        ] {
            put(p, v);
        }
        for w in [&self.factions, &self.heroes] {
            put(p, w.len() as u64);
            for x in w.iter() {
                put(p, x.games);
                put(p, x.wins);
                put(p, x.draws);
            }
        }
        put(p, self.cards.len() as u64);
        for c in &self.cards {
            put(p, c.held);
            put(p, c.played);
            put(p, c.wins_held);
            put(p, c.wins_played);
        }
        self.engine_errors.encode(p);
    }

    fn decode(c: &mut Cursor<'_>) -> Option<WarTally> {
        let mut t = WarTally {
            games: c.get()?,
            wins: [c.get()?, c.get()?],
            draws: c.get()?,
            first_wins: c.get()?,
            days: c.get()?,
            extra_day: c.get()?,
            arena: c.get()?,
            plays: c.get()?,
            factions: Vec::new(),
            heroes: Vec::new(),
            cards: Vec::new(),
            engine_errors: EngineErrors::default(),
        };
        // Lengths beyond the payload's size are damage, not something to allocate.
        let len = |c: &mut Cursor<'_>| c.get().filter(|&n| n <= c.b.len() as u64);
        for k in 0..2 {
            let n = len(c)?;
            let v = (0..n)
                .map(|_| {
                    Some(Wdl {
                        games: c.get()?,
                        wins: c.get()?,
                        draws: c.get()?,
                    })
                })
                .collect::<Option<Vec<Wdl>>>()?;
            if k == 0 {
                t.factions = v;
            } else {
                t.heroes = v;
            }
        }
        let n = len(c)?;
        t.cards = (0..n)
            .map(|_| {
                Some(CardTally {
                    held: c.get()?,
                    played: c.get()?,
                    wins_held: c.get()?,
                    wins_played: c.get()?,
                })
            })
            .collect::<Option<Vec<CardTally>>>()?;
        t.engine_errors = EngineErrors::decode(c)?;
        Some(t)
    }
}

/// Where each card and Hero of the pool sits in the tallies.
struct Slots {
    card: Vec<u32>,
    hero: Vec<u32>,
}

impl Slots {
    const NONE: u32 = u32::MAX;

    fn new(db: &CardDb, pool: &BoosterPool) -> Slots {
        let n = db.cards.len();
        let mut card = vec![Self::NONE; n];
        for (i, &c) in pool.commons.iter().chain(&pool.rares).enumerate() {
            card[c as usize] = i as u32;
        }
        let mut hero = vec![Self::NONE; n];
        for (i, &c) in pool.heroes.iter().enumerate() {
            hero[c as usize] = i as u32;
        }
        Slots { card, hero }
    }
}

/// The two boosters of game `seeds`, seat A's first (the same in every variant).
pub fn open_boosters(pool: &BoosterPool, seeds: &GameSeeds, out: &mut [Booster; 2]) {
    let mut rng = GameRng::seed_from_u64(splitmix64(seeds.game ^ 0xb005_7e25));
    for b in out.iter_mut() {
        pool.open(&mut rng, b);
    }
}

/// The seat that is first player on day 1 in game `g`.
pub fn first_seat(g: u64) -> u8 {
    (g % 2) as u8
}

/// One worker's two policies (one per seat), choice buffer and boosters.
struct Worker {
    policies: [AnyPolicy; 2],
    buf: ChoiceList,
    boosters: [Booster; 2],
}

/// The two boosters of game `seeds` of variant `build` as dealt: opened, and for the
/// ordered variant each stacked by `policy` (decks in play order).
pub fn deal(
    db: &CardDb,
    pool: &BoosterPool,
    policy: &PolicySpec,
    build: Build,
    seeds: &GameSeeds,
    out: &mut [Booster; 2],
) {
    open_boosters(pool, seeds, out);
    if build == Build::Ordered {
        for (k, b) in out.iter_mut().enumerate() {
            let mut rng = PolicyRng::seed_from_u64(splitmix64(seeds.policy ^ (0x0de7 + k as u64)));
            order_booster_deck(db, policy.kind, &mut b.cards, &mut rng);
        }
    }
}

/// Plays game `g` of variant `build`; leaves the two boosters as dealt in the worker and
/// returns the result.
fn play_one(plan: &WarPlan<'_>, w: &mut Worker, build: Build, g: u64) -> DuelResult {
    let seeds = GameSeeds::new(plan.seed, g);
    deal(
        plan.db,
        plan.pool,
        plan.policy,
        build,
        &seeds,
        &mut w.boosters,
    );
    let [b0, b1] = &w.boosters;
    let ordered = build == Build::Ordered;
    let seats = [b0, b1].map(|b| DuelSeat {
        hero: b.hero,
        cards: &b.cards,
        ordered,
    });
    let [p0, p1] = &mut w.policies;
    play_duel(
        plan.db,
        seats,
        first_seat(g),
        DuelRules {
            day_cap: plan.day_cap,
            variant: plan.rules,
        },
        &seeds,
        [p0, p1],
        &mut w.buf,
    )
}

fn count(t: &mut WarTally, slots: &Slots, db: &CardDb, boosters: &[Booster; 2], r: &DuelResult) {
    t.games += 1;
    match r.winner {
        Some(w) => {
            t.wins[w as usize] += 1;
            t.first_wins += (w == r.first) as u64;
        }
        None => t.draws += 1,
    }
    let last = Variant::BOOSTER_WAR.last_day;
    t.days += r.days as u64;
    t.extra_day += (r.days > last) as u64;
    t.arena += r.arena as u64;
    t.plays += r.plays[0] as u64 + r.plays[1] as u64;
    let fac = |b: &Booster| faction_slot(db.card(b.hero).faction);
    for seat in 0..2 {
        let (me, them) = (&boosters[seat], &boosters[1 - seat]);
        let won = r.winner == Some(seat as u8);
        let draw = r.winner.is_none();
        t.factions[fac(me) * N_FACTIONS + fac(them)].push(won, draw);
        let h = slots.hero[me.hero as usize];
        if h != Slots::NONE {
            t.heroes[h as usize].push(won, draw);
        }
        for (k, &c) in me.cards.iter().enumerate() {
            let i = slots.card[c as usize];
            if i == Slots::NONE {
                continue;
            }
            let ct = &mut t.cards[i as usize];
            ct.held += 1;
            ct.wins_held += won as u64;
            if r.played[seat] >> k & 1 != 0 {
                ct.played += 1;
                ct.wins_played += won as u64;
            }
        }
    }
}

/// Plays `plan.games` games of each variant of `plan.builds` from `plan.first_game` on
/// and returns their tallies in that order. The units `log` holds are not played again;
/// each unit played is recorded there (see [`run_slices`]). `progress` is called with the
/// number of games finished after each unit.
pub fn run_booster_war(
    plan: &WarPlan<'_>,
    progress: &(dyn Fn(u64) + Sync),
    stop: Option<&AtomicBool>,
    log: &mut LogWriter<TallyUnit<WarTally>>,
) -> Result<Vec<WarTally>, Stop<StateError>> {
    let data = PolicyData::for_run(plan.db, plan.models);
    let slots = Slots::new(plan.db, plan.pool);
    let new_worker = || Worker {
        policies: [
            plan.policy.build_against(&data, plan.policy),
            plan.policy.build_against(&data, plan.policy),
        ],
        buf: ChoiceList::new(),
        boosters: [Booster::default(), Booster::default()],
    };
    let game = |w: &mut Worker, b: usize, g: u64, t: &mut WarTally| {
        let r = play_one(plan, w, plan.builds[b], g);
        count(t, &slots, plan.db, &w.boosters, &r);
        if r.engine_error {
            t.engine_errors.push(g);
        }
    };
    let slices = Slices {
        configs: plan.builds.len(),
        first_game: plan.first_game,
        games: plan.games,
        unit: UNIT,
        threads: plan.threads,
    };
    let play = Play {
        zero: &|| WarTally::new(plan.pool),
        worker: &new_worker,
        game: &game,
    };
    run_slices(&slices, &play, progress, stop, log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factions_have_their_own_slots_and_the_rest_shares_one() {
        assert_eq!(faction_slot(Faction::Axiom), 0);
        assert_eq!(faction_slot(Faction::Yzmir), 5);
        assert_eq!(faction_slot(Faction::Neutral), 6);
        assert_eq!(Build::ALL.map(Build::name), ["shuffled", "ordered"]);
    }
}
