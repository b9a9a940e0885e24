//! The advisor: each legal option's estimated win probability, with a 95% interval, from
//! rollouts on samples of what the person cannot see. Every option is played on the same
//! samples (paired), then the advisor spec's rollout policy (a search's, or the policy
//! itself) plays both seats to the end (head to head, the opponent policy's rollout policy
//! plays seat B). Runs on a worker thread: the server answers meanwhile.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use serde_json::{Value, json};

use super::Later;
use super::deal::Table;
use crate::cards::types::Side;
use crate::engine::event::NoObserver;
use crate::engine::view::View;
use crate::engine::{
    Choice, ChoiceList, GameRng, GameState, Step, advance, apply_unchecked, legal_choices,
};
use crate::policy::{AnyPolicy, Policy, PolicyRng, PolicySpec};
use crate::sim::seed::splitmix64;
use crate::stats::interval::wilson;

/// Samples at least, and at most, per option; the time after which no new sample starts
/// once the least is reached.
const MIN_SAMPLES: u32 = 16;
const MAX_SAMPLES: u32 = 400;
const BUDGET: Duration = Duration::from_secs(4);

/// Starts the estimates of `options` at `s` (the person's decision `n`) on a thread.
pub fn start(
    t: &'static Table,
    spec: PolicySpec,
    s: GameState,
    options: Vec<Choice>,
    seed: u64,
    n: u64,
) -> Later {
    let out: Later = Arc::new(Mutex::new(None));
    let slot = out.clone();
    std::thread::spawn(move || {
        let v = estimate(t, &spec, &s, &options, seed, n);
        if let Ok(mut o) = slot.lock() {
            *o = Some(v);
        }
    });
    out
}

/// Every option's estimate as the page shows it: `p` (a day-cap draw counts half), `lo`
/// and `hi` (a 95% Wilson interval) and the samples played.
fn estimate(
    t: &Table,
    spec: &PolicySpec,
    s: &GameState,
    options: &[Choice],
    seed: u64,
    n: u64,
) -> Value {
    let db = t.db();
    let view = View::new(s, db);
    let det = view.determinizer();
    let me = view.me();
    let mut mine = spec.rollout_spec().build(&t.data);
    // Solo the Confluence plays itself; this one is never asked.
    let mut theirs = if t.matchup() {
        t.opponent_policy.rollout_spec().build(&t.data)
    } else {
        spec.rollout_spec().build(&t.data)
    };
    let mut points = vec![0u64; options.len()];
    let mut samples = 0u32;
    let mut buf = ChoiceList::new();
    let start = Instant::now();
    while samples < MAX_SAMPLES && (samples < MIN_SAMPLES || start.elapsed() < BUDGET) {
        let k = splitmix64(seed ^ splitmix64(samples as u64));
        let g = det.sample(&mut GameRng::seed_from_u64(k));
        for (i, &c) in options.iter().enumerate() {
            points[i] += rollout(t, g, c, me, k, [&mut mine, &mut theirs], &mut buf);
        }
        samples += 1;
    }
    let text = |c: Choice| crate::gamelog::describe_choice(db, s, c);
    let list: Vec<Value> = options
        .iter()
        .zip(&points)
        .enumerate()
        .map(|(i, (&c, &p))| {
            // Half-points: a win 2, a draw 1; the interval counts a draw as half a win.
            let iv = wilson(p.div_ceil(2), samples as u64, 0.95);
            json!({
                "index": i,
                "text": text(c),
                "p": p as f64 / (2.0 * samples as f64),
                "lo": iv.lo,
                "hi": iv.hi,
                "samples": samples,
            })
        })
        .collect();
    json!({"decision": n, "advisor": spec.to_string(), "estimates": list})
}

/// Plays `first` on sample `g`, then the rollout policies to the end: half-points for
/// side `me` (a win 2, a day-cap draw 1, a loss 0).
fn rollout(
    t: &Table,
    mut g: GameState,
    first: Choice,
    me: Side,
    seed: u64,
    policies: [&mut AnyPolicy; 2],
    buf: &mut ChoiceList,
) -> u64 {
    let db = t.db();
    let mut rng = GameRng::seed_from_u64(seed);
    let mut prng = PolicyRng::seed_from_u64(seed ^ 0x5ea5c4);
    let [mine, theirs] = policies;
    apply_unchecked(&mut g, db, &mut rng, &mut NoObserver, first);
    loop {
        match advance(&mut g, db, &mut rng, &mut NoObserver) {
            Step::Decide => {
                legal_choices(&g, db, buf);
                if buf.is_empty() {
                    return 0;
                }
                let k = if buf.len() == 1 {
                    0
                } else if g.decider == me || !t.matchup() {
                    mine.choose(&View::new(&g, db), buf, &mut prng)
                } else {
                    theirs.choose(&View::new(&g, db), buf, &mut prng)
                };
                apply_unchecked(&mut g, db, &mut rng, &mut NoObserver, buf[k]);
            }
            Step::Over(o) => {
                return if t.matchup() {
                    match o.winner() {
                        Some(w) if w == me => 2,
                        None => 1,
                        _ => 0,
                    }
                } else if o.is_win() {
                    2
                } else if o == crate::engine::Outcome::DayCap {
                    1
                } else {
                    0
                };
            }
            Step::Stopped => return 0,
        }
    }
}
