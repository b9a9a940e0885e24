//! The parallel runner: N games per configuration on a rayon pool, statistics accumulated
//! per worker and merged, optional per-game rows streamed in ordered chunks.

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
        },
        r.tally(),
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

/// Runs every configuration of the plan. `progress` is called with the number of games
/// finished after each chunk; `sink`, when given, receives every game in index order.
/// Each configuration is compared game by game with its baseline (see [`baselines`]), whose
/// results on the same game indices are kept as a bit set while its group runs.
pub fn run<E: Send>(
    plan: &RunPlan<'_>,
    progress: &(dyn Fn(u64) + Sync),
    mut sink: Option<GameSink<'_, E>>,
) -> Result<RunResult, E> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()
        .expect("thread pool");
    let base = baselines(&plan.configs);
    let pdata = PolicyData::new(plan.db);
    // Baselines first, so that their results exist when the others are paired with them.
    let mut order: Vec<usize> = (0..plan.configs.len()).collect();
    order.sort_by_key(|&i| (base[i], i != base[i], i));
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
        let pair: Option<&[u64]> = if is_base {
            None
        } else {
            bits[base[ci]].as_deref()
        };
        let won = |g: u64, p: &[u64]| p[(g / 64) as usize] & (1 << (g % 64)) != 0;
        let mut own_bits: Vec<u64> = Vec::new();
        let mut acc = Accum::default();
        let mut start = 0;
        while start < plan.games {
            let end = (start + CHUNK).min(plan.games);
            let game = |w: &mut Worker, g: u64| {
                play_one(plan, &m, &canon, ci as u32, w, plan.first_game + g)
            };
            match sink.as_mut() {
                Some(sink) => {
                    let rows: Vec<(GameRow, GameTally)> = pool.install(|| {
                        (start..end)
                            .into_par_iter()
                            .map_init(new_worker, |w, g| game(w, g))
                            .collect()
                    });
                    let mut chunk = [0u64; CHUNK_WORDS];
                    for (k, (_, t)) in rows.iter().enumerate() {
                        acc.push(t);
                        let g = start + k as u64;
                        if is_base && t.win {
                            chunk[k / 64] |= 1 << (k % 64);
                        }
                        if let Some(p) = pair {
                            acc.push_pair(t.win, won(g, p));
                        }
                    }
                    if is_base {
                        own_bits.extend_from_slice(&chunk[..(end - start).div_ceil(64) as usize]);
                    }
                    let only_rows: Vec<GameRow> = rows.into_iter().map(|(r, _)| r).collect();
                    sink(&only_rows)?;
                }
                None => {
                    let (chunk_acc, chunk_bits) = pool.install(|| {
                        (start..end)
                            .into_par_iter()
                            .fold(
                                || {
                                    (
                                        Accum::default(),
                                        vec![0u64; if is_base { CHUNK_WORDS } else { 0 }],
                                        new_worker(),
                                    )
                                },
                                |(mut a, mut b, mut w), g| {
                                    let (_, t) = game(&mut w, g);
                                    a.push(&t);
                                    let k = (g - start) as usize;
                                    if is_base && t.win {
                                        b[k / 64] |= 1 << (k % 64);
                                    }
                                    if let Some(p) = pair {
                                        a.push_pair(t.win, won(g, p));
                                    }
                                    (a, b, w)
                                },
                            )
                            .map(|(a, b, _)| (a, b))
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
                    acc += &chunk_acc;
                    if is_base {
                        own_bits
                            .extend_from_slice(&chunk_bits[..(end - start).div_ceil(64) as usize]);
                    }
                }
            }
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
