//! The parallel runner: N games per configuration on a rayon pool, statistics accumulated
//! per worker and merged, optional per-game rows streamed in ordered chunks.
//!
//! Layer: part of [`crate::sim`]; may use `cards`, `deck`, `engine`, `policy`, `stats` and nothing
//! else of the crate.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::game::play_game;
use super::seed::GameSeeds;
use crate::cards::db::CardDb;
use crate::cards::effect::CardIdx;
use crate::deck::{ConfluenceDeck, PlayerDeck, RareMix};
use crate::engine::event::NoObserver;
use crate::engine::setup::Matchup;
use crate::engine::{ChoiceList, Outcome};
use crate::policy::{AnyPolicy, PolicyData, PolicySpec};
use crate::stats::Accum;
use crate::stats::accum::GameTally;

/// Games per chunk: the unit of progress reporting and of per-game output (one Parquet row
/// group), so memory stays flat however many games run.
pub const CHUNK: u64 = 1 << 15;

/// One configuration: player deck × policy × rare mix (against the plan's Confluence deck).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigSpec {
    pub player: usize,
    pub policy: usize,
    pub mix: RareMix,
}

pub struct RunPlan<'a> {
    pub db: &'a CardDb,
    pub players: &'a [PlayerDeck],
    pub confluence: &'a ConfluenceDeck,
    pub policies: &'a [PolicySpec],
    pub configs: Vec<ConfigSpec>,
    pub games: u64,
    /// Index of the first game (a later batch of an adaptive run continues the indices).
    pub first_game: u64,
    pub seed: u64,
    pub threads: usize,
    pub day_cap: u8,
    /// Models instead of the committed ones (`--expert-weights`, `--value-weights`).
    pub models: crate::policy::Models<'a>,
}

/// One game, as written to `games.parquet`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub config: u32,
    pub game: u64,
    pub seed: u64,
    pub outcome: Outcome,
    pub days: u8,
    pub player_plays: u16,
    pub confluence_plays: u16,
    /// The game had an engine error ([`super::GameResult::engine_error`]).
    pub engine_error: bool,
}

pub struct RunResult {
    /// One accumulator per configuration, in plan order.
    pub accums: Vec<Accum>,
}

struct Worker {
    policy: AnyPolicy,
    buf: ChoiceList,
}

/// For each deck slot, the first slot holding a card of the same name: "played" bits are
/// folded onto it, so per-card statistics count games in which at least one copy was played.
pub fn canonical_slots(db: &CardDb, cards: &[CardIdx]) -> [u8; 64] {
    let mut out = [0u8; 64];
    for (i, &c) in cards.iter().enumerate().take(64) {
        let name = &db.card(c).name;
        out[i] = cards
            .iter()
            .position(|&d| &db.card(d).name == name)
            .unwrap_or(i) as u8;
    }
    out
}

fn fold_copies(bits: u64, canon: &[u8; 64]) -> u64 {
    let mut out = 0;
    let mut b = bits;
    while b != 0 {
        let i = b.trailing_zeros() as usize;
        out |= 1u64 << canon[i];
        b &= b - 1;
    }
    out
}

fn play_one(
    plan: &RunPlan<'_>,
    m: &Matchup<'_>,
    canon: &[[u8; 64]; 2],
    config: u32,
    w: &mut Worker,
    game: u64,
) -> (GameRow, GameTally) {
    let seeds = GameSeeds::new(plan.seed, game);
    let mut r = play_game(
        plan.db,
        m,
        &seeds,
        &mut w.policy,
        &mut w.buf,
        &mut NoObserver,
    );
    r.played = [
        fold_copies(r.played[0], &canon[0]),
        fold_copies(r.played[1], &canon[1]),
    ];
    (
        GameRow {
            config,
            game,
            seed: seeds.game,
            outcome: r.outcome,
            days: r.days,
            player_plays: r.plays[0],
            confluence_plays: r.plays[1],
            engine_error: r.engine_error,
        },
        r.tally(game),
    )
}

impl RunPlan<'_> {
    /// The Confluence cards of a configuration, slot by slot.
    pub fn confluence_cards(&self, c: &ConfigSpec) -> Vec<CardIdx> {
        self.confluence.cards_for(c.mix)
    }
}

/// Receives the per-game rows of each chunk, in game order.
pub type GameSink<'a, E> = &'a mut dyn FnMut(&[GameRow]) -> Result<(), E>;

/// Games per chunk as 64-bit words of a win bit set.
const CHUNK_WORDS: usize = (CHUNK / 64) as usize;

/// The configuration each one is paired with: the all-common configuration of the same
/// player deck and policy (or, without one, the first of them).
pub fn baselines(configs: &[ConfigSpec]) -> Vec<usize> {
    configs
        .iter()
        .map(|c| {
            let same = |d: &&ConfigSpec| d.player == c.player && d.policy == c.policy;
            configs
                .iter()
                .position(|d| same(&d) && d.mix == RareMix(0))
                .or_else(|| configs.iter().position(|d| same(&d)))
                .expect("a configuration is in its own group")
        })
        .collect()
}

/// The order in which the configurations of a plan run: each baseline before the
/// configurations paired with it (see [`baselines`]).
pub fn run_order(configs: &[ConfigSpec]) -> Vec<usize> {
    let base = baselines(configs);
    let mut order: Vec<usize> = (0..configs.len()).collect();
    order.sort_by_key(|&i| (base[i], i != base[i], i));
    order
}

/// A finished unit of work: games `start..end` (absolute indices) of one configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub config: u32,
    pub start: u64,
    pub end: u64,
    pub accum: Accum,
    /// For a baseline configuration, its wins as a bit set (bit `k` of word `k / 64`: game
    /// `start + k` was won); empty for the others.
    pub wins: Vec<u64>,
}

/// What a checkpointed run does around the games: which units are already done, where
/// finished units go, and how large a unit is.
pub trait Units {
    type Error;
    /// Games per unit (a multiple of 64).
    fn unit_games(&self) -> u64;
    /// Whether finished units need their per-game rows.
    fn want_rows(&self) -> bool;
    /// The unit of `config` that starts at game `start`, if an earlier run finished it.
    fn done(&mut self, config: u32, start: u64) -> Option<Unit>;
    /// Records a unit just played; `rows` is empty unless [`Units::want_rows`].
    fn finished(&mut self, unit: &Unit, rows: &[GameRow]) -> Result<(), Self::Error>;
}

/// Why [`run_units`] stopped before the end.
#[derive(Debug)]
pub enum Stop<E> {
    /// The stop flag was raised: the units finished so far were recorded.
    Interrupted,
    Error(E),
}

/// Runs every configuration of the plan. `progress` is called with the number of games
/// finished after each chunk; `sink`, when given, receives every game in index order.
/// Each configuration is compared game by game with its baseline (see [`baselines`]), whose
/// results on the same game indices are kept as a bit set while its group runs.
pub fn run<E: Send>(
    plan: &RunPlan<'_>,
    progress: &(dyn Fn(u64) + Sync),
    sink: Option<GameSink<'_, E>>,
) -> Result<RunResult, E> {
    struct SinkUnits<'a, E> {
        sink: Option<GameSink<'a, E>>,
    }
    impl<E> Units for SinkUnits<'_, E> {
        type Error = E;
        fn unit_games(&self) -> u64 {
            CHUNK
        }
        fn want_rows(&self) -> bool {
            self.sink.is_some()
        }
        fn done(&mut self, _: u32, _: u64) -> Option<Unit> {
            None
        }
        fn finished(&mut self, _: &Unit, rows: &[GameRow]) -> Result<(), E> {
            match self.sink.as_mut() {
                Some(s) => s(rows),
                None => Ok(()),
            }
        }
    }
    let mut units = SinkUnits { sink };
    match run_units(plan, progress, None, &mut units) {
        Ok(r) => Ok(r),
        Err(Stop::Error(e)) => Err(e),
        Err(Stop::Interrupted) => unreachable!("no stop flag"),
    }
}

/// [`run`] in units: games `first_game + k * unit .. ` of each configuration, in
/// [`run_order`]. A unit that `units` already holds is not played again (its statistics and
/// baseline wins are taken from it), so a run can continue where an interrupted one stopped
/// with the same results. When `stop` is raised, the games under way are abandoned and the
/// run returns [`Stop::Interrupted`] after the last unit it recorded.
pub fn run_units<U: Units>(
    plan: &RunPlan<'_>,
    progress: &(dyn Fn(u64) + Sync),
    stop: Option<&AtomicBool>,
    units: &mut U,
) -> Result<RunResult, Stop<U::Error>> {
    let unit = units.unit_games().clamp(64, CHUNK) / 64 * 64;
    let want_rows = units.want_rows();
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()
        .expect("thread pool");
    let base = baselines(&plan.configs);
    let pdata = PolicyData::for_run(plan.db, plan.models);
    // Baselines first, so that their results exist when the others are paired with them.
    let order = run_order(&plan.configs);
    let mut accums = vec![Accum::default(); plan.configs.len()];
    let mut bits: Vec<Option<Vec<u64>>> = vec![None; plan.configs.len()];
    for &ci in &order {
        let c = &plan.configs[ci];
        let deck = &plan.players[c.player];
        let conf_cards = plan.confluence_cards(c);
        let m = Matchup {
            player_hero: deck.hero,
            player_cards: &deck.cards,
            confluence_hero: plan.confluence.hero,
            confluence_cards: &conf_cards,
            day_cap: plan.day_cap,
        };
        let canon = [
            canonical_slots(plan.db, &deck.cards),
            canonical_slots(plan.db, &conf_cards),
        ];
        let spec = &plan.policies[c.policy];
        let new_worker = || Worker {
            policy: spec.build(&pdata),
            buf: ChoiceList::new(),
        };
        let is_base = base[ci] == ci;
        let won = |g: u64, p: &[u64]| p[(g / 64) as usize] & (1 << (g % 64)) != 0;
        let mut own_bits: Vec<u64> = Vec::new();
        let mut acc = Accum::default();
        let mut start = 0;
        while start < plan.games {
            let end = (start + unit).min(plan.games);
            let words = (end - start).div_ceil(64) as usize;
            if let Some(u) = units.done(ci as u32, plan.first_game + start) {
                debug_assert_eq!(u.end, plan.first_game + end, "unit bounds");
                acc += &u.accum;
                if is_base {
                    let mut w = u.wins;
                    w.resize(words, 0);
                    own_bits.extend_from_slice(&w);
                }
                progress(end - start);
                start = end;
                continue;
            }
            if stopped() {
                return Err(Stop::Interrupted);
            }
            let pair: Option<&[u64]> = if is_base {
                None
            } else {
                bits[base[ci]].as_deref()
            };
            let game = |w: &mut Worker, g: u64| {
                play_one(plan, &m, &canon, ci as u32, w, plan.first_game + g)
            };
            let mut chunk_acc = Accum::default();
            let mut chunk_bits = vec![0u64; if is_base { words } else { 0 }];
            let mut rows_out: Vec<GameRow> = Vec::new();
            if want_rows {
                let rows: Vec<Option<(GameRow, GameTally)>> = pool.install(|| {
                    (start..end)
                        .into_par_iter()
                        .map_init(new_worker, |w, g| (!stopped()).then(|| game(w, g)))
                        .collect()
                });
                if stopped() {
                    return Err(Stop::Interrupted);
                }
                rows_out.reserve(rows.len());
                for (k, r) in rows.into_iter().enumerate() {
                    let (row, t) = r.expect("not stopped");
                    chunk_acc.push(&t);
                    let g = start + k as u64;
                    if is_base && t.win {
                        chunk_bits[k / 64] |= 1 << (k % 64);
                    }
                    if let Some(p) = pair {
                        chunk_acc.push_pair(t.win, won(g, p));
                    }
                    rows_out.push(row);
                }
            } else {
                let (a, b) = pool.install(|| {
                    (start..end)
                        .into_par_iter()
                        .fold(
                            // Boxed: the fold hands its state from game to game by value,
                            // and the accumulator and the worker are kilobytes each.
                            || {
                                Box::new((
                                    Accum::default(),
                                    vec![0u64; if is_base { CHUNK_WORDS } else { 0 }],
                                    new_worker(),
                                ))
                            },
                            |mut st, g| {
                                if stopped() {
                                    return st;
                                }
                                let (a, b, w) = &mut *st;
                                let (_, t) = game(w, g);
                                a.push(&t);
                                let k = (g - start) as usize;
                                if is_base && t.win {
                                    b[k / 64] |= 1 << (k % 64);
                                }
                                if let Some(p) = pair {
                                    a.push_pair(t.win, won(g, p));
                                }
                                st
                            },
                        )
                        .map(|st| {
                            let (a, b, _) = *st;
                            (a, b)
                        })
                        .reduce(
                            || {
                                (
                                    Accum::default(),
                                    vec![0u64; if is_base { CHUNK_WORDS } else { 0 }],
                                )
                            },
                            |(a1, mut b1), (a2, b2)| {
                                for (x, y) in b1.iter_mut().zip(&b2) {
                                    *x |= y;
                                }
                                (a1.merge(a2), b1)
                            },
                        )
                });
                if stopped() {
                    return Err(Stop::Interrupted);
                }
                chunk_acc = a;
                if is_base {
                    chunk_bits.copy_from_slice(&b[..words]);
                }
            }
            acc += &chunk_acc;
            if is_base {
                own_bits.extend_from_slice(&chunk_bits);
            }
            let u = Unit {
                config: ci as u32,
                start: plan.first_game + start,
                end: plan.first_game + end,
                accum: chunk_acc,
                wins: chunk_bits,
            };
            units.finished(&u, &rows_out).map_err(Stop::Error)?;
            progress(end - start);
            start = end;
        }
        if is_base {
            bits[ci] = Some(own_bits);
        }
        accums[ci] = acc;
        // A group's bits are no longer needed once its last member ran.
        if order.iter().rev().find(|&&j| base[j] == base[ci]) == Some(&ci) {
            bits[base[ci]] = None;
        }
    }
    Ok(RunResult { accums })
}
