//! What `train-expert`, `train-policy` and `train-value` share: one game per task on a
//! pool of worker threads, with a progress bar, collected in task order so that the data
//! do not depend on the thread count.

use anyhow::{Context, Result};
use rayon::prelude::*;

use crate::cards::effect::CardIdx;
use crate::deck::RareMix;
use crate::engine::ChoiceList;
use crate::engine::view::View;
use crate::job::plan::{default_threads, progress_bar};
use crate::policy::PolicyRng;
use crate::sim::GameSeeds;

/// `one(task)` for every task, on `threads` worker threads (`--threads`; all cores when
/// `None`), in task order.
pub fn each_task<T: Sync, R: Send>(
    tasks: &[T],
    threads: Option<usize>,
    quiet: bool,
    one: impl Fn(&T) -> R + Sync + Send,
) -> Result<Vec<R>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(default_threads(threads)?)
        .build()
        .context("thread pool")?;
    let pb = progress_bar(tasks.len() as u64, quiet);
    let out = pool.install(|| {
        tasks
            .par_iter()
            .map(|t| {
                let r = one(t);
                pb.inc(1);
                r
            })
            .collect()
    });
    pb.finish_and_clear();
    Ok(out)
}

/// A game of [`both_mixes`]: deck, mix (0 all commons, 1 all rares), game index.
pub type MixTask = (usize, usize, u64);

/// The games `train-expert` and `train-policy` study: every deck of the run at all commons
/// and at all rares, `games` each, as (deck, mix, game) tasks in that order, with the
/// Confluence's cards of the two mixes (indexed by the task's mix).
pub fn both_mixes(
    loaded: &crate::job::load::Loaded,
    games: u64,
) -> (Vec<MixTask>, [Vec<CardIdx>; 2]) {
    let mixes = [RareMix(0), RareMix::all(loaded.confluence.rares.len())];
    let tasks = (0..loaded.players.len())
        .flat_map(|d| (0..mixes.len()).flat_map(move |x| (0..games).map(move |g| (d, x, g))))
        .collect();
    (tasks, mixes.map(|mx| loaded.confluence.cards_for(mx)))
}

/// The seeds of task (deck `d`, mix `x`, game `g`) of [`both_mixes`]: each has its own.
pub fn both_mixes_seeds(seed: u64, (d, x, g): MixTask) -> GameSeeds {
    GameSeeds::new(seed, ((d * 2 + x) as u64) << 32 | g)
}

/// Task `task` of [`both_mixes`] (`cards`: its two mixes' Confluence cards) played by
/// `player` (asked at every decision, as the training commands always did), showing `ask`
/// each decision with the teacher's own stream, drawn from the game's seeds.
pub fn taught_game(
    loaded: &crate::job::load::Loaded,
    cards: &[Vec<CardIdx>; 2],
    day_cap: u8,
    seed: u64,
    task: MixTask,
    player: &mut crate::policy::AnyPolicy,
    mut ask: impl FnMut(&View<'_>, &ChoiceList, &mut PolicyRng),
) {
    let (d, x, _) = task;
    let mt = loaded.matchup(d, &cards[x], day_cap);
    let seeds = both_mixes_seeds(seed, task);
    let mut srng = GameSeeds::rng(seeds.policy ^ 0x7a11);
    let mut buf = ChoiceList::new();
    crate::sim::play_watched(
        &loaded.lib.db,
        &mt,
        &seeds,
        player,
        true,
        &mut buf,
        |view, options, _| ask(view, options, &mut srng),
    );
}
