//! Properties over many games. Debug builds (and so `cargo test`) run the invariant checker
//! after every engine step; a violation panics, and these tests report the seed and game
//! index that broke it.

use std::panic::{AssertUnwindSafe, catch_unwind};

use rayon::prelude::*;

mod common;
use common::{Setup, matchup, setup};

use confluence_sim::deck::RareMix;
use confluence_sim::engine::ChoiceList;
use confluence_sim::engine::event::NoObserver;
use confluence_sim::policy::{PolicyData, PolicySpec};
use confluence_sim::sim::{GameSeeds, play_game};

/// Plays `games` games per (deck, policy, mix) and returns the first failure, if any, with
/// what it takes to reproduce it.
fn first_failure(
    s: &Setup,
    policies: &[&str],
    mixes: &[RareMix],
    games: u64,
    seed: u64,
) -> Option<String> {
    let mut jobs = Vec::new();
    for (d, deck) in s.decks.iter().enumerate() {
        for p in policies {
            for &mix in mixes {
                jobs.push((d, deck, *p, mix));
            }
        }
    }
    jobs.par_iter().find_map_any(|&(_, deck, policy, mix)| {
        let spec: PolicySpec = policy.parse().unwrap();
        let conf = s.confluence.cards_for(mix);
        let m = matchup(deck, s, &conf);
        let mut buf = ChoiceList::new();
        let mut pol = spec.build(&PolicyData::new(&s.lib.db));
        (0..games).find_map(|i| {
            let seeds = GameSeeds::new(seed, i);
            let r = catch_unwind(AssertUnwindSafe(|| {
                play_game(&s.lib.db, &m, &seeds, &mut pol, &mut buf, &mut NoObserver)
            }));
            let failed = match r {
                Ok(r) if r.engine_error => Some(
                    "engine error: more reactions triggered at once than the engine queues"
                        .to_string(),
                ),
                Ok(_) => None,
                Err(e) => Some(
                    e.downcast_ref::<String>()
                        .cloned()
                        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default(),
                ),
            };
            failed.map(|msg| {
                format!(
                    "{msg}\n  reproduce: confluence-sim replay --player {} --policy {policy} --rare-set '{}' --seed {seed} --game-index {i}",
                    deck.path.display(),
                    s.confluence.mix_names(mix, &s.lib.db).join(",")
                )
            })
        })
    })
}

#[test]
fn a_hundred_thousand_games_keep_every_invariant() {
    let s = setup();
    // 6 starter decks x 4 policies x 2 mixes x 2,100 games = 100,800 games.
    let mixes = [RareMix(0), RareMix::all(s.confluence.rares.len())];
    let policies = ["greedy", "random", "planner", "expert"];
    if let Some(f) = first_failure(&s, &policies, &mixes, 2_100, 20_261_122) {
        panic!("invariant broken: {f}");
    }
}

#[test]
fn the_same_seeds_replay_the_same_game() {
    let s = setup();
    let deck = &s.decks[0];
    let conf = s.confluence.cards_for(RareMix(0b101));
    let m = matchup(deck, &s, &conf);
    for policy in ["greedy", "random", "planner", "expert"] {
        let spec: PolicySpec = policy.parse().unwrap();
        for i in 0..50 {
            let seeds = GameSeeds::new(99, i);
            let mut buf = ChoiceList::new();
            let a = play_game(
                &s.lib.db,
                &m,
                &seeds,
                &mut spec.build(&PolicyData::new(&s.lib.db)),
                &mut buf,
                &mut NoObserver,
            );
            let b = play_game(
                &s.lib.db,
                &m,
                &seeds,
                &mut spec.build(&PolicyData::new(&s.lib.db)),
                &mut buf,
                &mut NoObserver,
            );
            assert_eq!(a, b, "{policy} game {i} differs between two plays");
        }
    }
}

#[test]
fn rare_swaps_keep_common_random_numbers() {
    // A rare sits in its twin's deck position: with one rare swapped, game i's adventure and
    // both decks' orders are the same, so most games of the two mixes start identically.
    let s = setup();
    let deck = &s.decks[1];
    let run = |mix: RareMix| {
        let conf = s.confluence.cards_for(mix);
        let m = matchup(deck, &s, &conf);
        let spec: PolicySpec = "greedy".parse().unwrap();
        (0..400)
            .map(|i| {
                let mut buf = ChoiceList::new();
                play_game(
                    &s.lib.db,
                    &m,
                    &GameSeeds::new(5, i),
                    &mut spec.build(&PolicyData::new(&s.lib.db)),
                    &mut buf,
                    &mut NoObserver,
                )
            })
            .collect::<Vec<_>>()
    };
    let base = run(RareMix(0));
    let one = run(RareMix(1));
    let same = base
        .iter()
        .zip(&one)
        .filter(|(a, b)| a.outcome == b.outcome && a.days == b.days)
        .count();
    assert!(
        same > 300,
        "only {same} of 400 games agree with one rare swapped"
    );
}
