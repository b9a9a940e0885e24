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
use crate::policy::{AnyPolicy, PolicySpec};
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

fn play_one(
    plan: &RunPlan<'_>,
    m: &Matchup<'_>,
    config: u32,
    w: &mut Worker,
    game: u64,
) -> (GameRow, GameTally) {
    let seeds = GameSeeds::new(plan.seed, game);
    let r = play_game(
        plan.db,
        m,
        &seeds,
        &mut w.policy,
        &mut w.buf,
        &mut NoObserver,
    );
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

/// Runs every configuration of the plan. `progress` is called with the number of games
/// finished after each chunk; `sink`, when given, receives every game in index order.
pub fn run<E: Send>(
    plan: &RunPlan<'_>,
    progress: &(dyn Fn(u64) + Sync),
    mut sink: Option<GameSink<'_, E>>,
) -> Result<RunResult, E> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()
        .expect("thread pool");
    let mut accums = Vec::with_capacity(plan.configs.len());
    for (ci, c) in plan.configs.iter().enumerate() {
        let deck = &plan.players[c.player];
        let conf_cards = plan.confluence_cards(c);
        let m = Matchup {
            player_hero: deck.hero,
            player_cards: &deck.cards,
            confluence_hero: plan.confluence.hero,
            confluence_cards: &conf_cards,
            day_cap: plan.day_cap,
        };
        let spec = &plan.policies[c.policy];
        let new_worker = || Worker {
            policy: spec.build(),
            buf: ChoiceList::new(),
        };
        let mut acc = Accum::default();
        let mut start = 0;
        while start < plan.games {
            let end = (start + CHUNK).min(plan.games);
            match sink.as_mut() {
                Some(sink) => {
                    let rows: Vec<(GameRow, GameTally)> = pool.install(|| {
                        (start..end)
                            .into_par_iter()
                            .map_init(new_worker, |w, g| play_one(plan, &m, ci as u32, w, g))
                            .collect()
                    });
                    for (_, t) in &rows {
                        acc.push(t);
                    }
                    let only_rows: Vec<GameRow> = rows.into_iter().map(|(r, _)| r).collect();
                    sink(&only_rows)?;
                }
                None => {
                    let chunk = pool.install(|| {
                        (start..end)
                            .into_par_iter()
                            .fold(
                                || (Accum::default(), new_worker()),
                                |(mut a, mut w), g| {
                                    let (_, t) = play_one(plan, &m, ci as u32, &mut w, g);
                                    a.push(&t);
                                    (a, w)
                                },
                            )
                            .map(|(a, _)| a)
                            .reduce(Accum::default, Accum::merge)
                    });
                    acc += &chunk;
                }
            }
            progress(end - start);
            start = end;
        }
        accums.push(acc);
    }
    Ok(RunResult { accums })
}
