//! After a game: how the simulated players did on the same deal, each playing it from the
//! start. Solo, each plays the deal several times, the first with the policy stream `run`
//! gives the game and the others with other policy streams (the deal, decks and dice stay
//! the deal's; only the policy's own random choices differ, so a policy that never
//! randomises plays the same game each time). Head to head, each plays seat A once, against
//! the opponent policy, as `matchup` plays the deal (the strong player is `search` there).

use std::sync::{Arc, Mutex};

use rand::SeedableRng;
use serde_json::{Value, json};

use super::Later;
use super::deal::Table;
use crate::engine::ChoiceList;
use crate::engine::event::NoObserver;
use crate::policy::{PolicyRng, PolicySpec};
use crate::sim::GameSeeds;
use crate::sim::duel::{DuelGame, DuelRules, play_duel_with};
use crate::sim::game::{finish_game, start_game};
use crate::sim::seed::splitmix64;

/// The simulated players compared, and how many times each plays a solo deal.
const PLAYERS: [(&str, u32); 4] = [
    ("greedy", 20),
    ("planner", 20),
    ("expert", 20),
    ("fastsearch", 20),
];

/// Head to head the strong player is the default `search`: `fastsearch` reads the policy
/// network, distilled from solo games, which `matchup` refuses.
const DUEL_PLAYERS: [&str; 4] = ["greedy", "planner", "expert", "search"];

/// Starts the comparison on deal `index` on a thread; the page shows each row as it comes.
pub fn start(t: &'static Table, index: u64) -> Later {
    let out: Later = Arc::new(Mutex::new(Some(json!({"done": false, "players": []}))));
    let slot = out.clone();
    std::thread::spawn(move || {
        let mut rows = Vec::new();
        for (k, (name, samples)) in PLAYERS.into_iter().enumerate() {
            let name = if t.matchup() { DUEL_PLAYERS[k] } else { name };
            rows.push(play(t, name, samples, index));
            if let Ok(mut o) = slot.lock() {
                *o = Some(json!({"done": rows.len() == PLAYERS.len(), "players": rows}));
            }
        }
    });
    out
}

/// One simulated player's games on the deal.
fn play(t: &Table, name: &str, samples: u32, index: u64) -> Value {
    let Ok(spec) = name.parse::<PolicySpec>() else {
        return json!({"policy": name, "error": "not a policy"});
    };
    let db = t.db();
    let seeds = GameSeeds::new(t.seed, index);
    let mut buf = ChoiceList::new();
    let mut policy = spec.build(&t.data);
    if t.matchup() {
        let game = DuelGame {
            seats: t.seats(),
            first: Table::first_seat(index),
            rules: DuelRules::standard(t.day_cap),
            seeds: &seeds,
        };
        let mut theirs = t.opponent_policy.build(&t.data);
        let r = play_duel_with(
            db,
            &game,
            [&mut policy, &mut theirs],
            &mut buf,
            &mut NoObserver,
            |_, _, _, _| {},
        );
        let (won, words) = match r.winner {
            Some(0) => (1, "won"),
            Some(_) => (0, "lost"),
            None => (0, "drew"),
        };
        return json!({"policy": name, "spec": spec.to_string(), "games": 1, "won": won,
                      "first": words, "days": r.days});
    }
    let m = t.solo();
    let (mut won, mut first) = (0, String::new());
    for k in 0..samples {
        let (mut s, mut rng) = start_game(db, &m, &seeds, &mut NoObserver);
        let mut prng = if k == 0 {
            seeds.policy_rng()
        } else {
            PolicyRng::seed_from_u64(splitmix64(seeds.policy ^ splitmix64(k as u64)))
        };
        let r = finish_game(
            db,
            &mut s,
            &mut rng,
            &mut policy,
            &mut prng,
            &mut buf,
            &mut NoObserver,
        );
        won += r.outcome.is_win() as u32;
        if k == 0 {
            first = format!("{} in {} days", r.outcome.result(), r.days);
        }
    }
    json!({"policy": name, "spec": spec.to_string(), "games": samples, "won": won, "first": first})
}
