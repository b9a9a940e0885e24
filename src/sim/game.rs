//! Plays one game to the end with a policy.
//!
//! Layer: part of [`crate::sim`]; may use `cards`, `deck`, `engine`, `policy`, `stats` and nothing
//! else of the crate.

use crate::cards::db::CardDb;
use crate::engine::event::{NoObserver, Observer};
use crate::engine::setup::{Matchup, SetupStreams, new_game};
use crate::engine::view::View;
use crate::engine::{
    ChoiceList, GameState, Outcome, Step, advance, apply_unchecked, legal_choices,
};
use crate::policy::Policy;

use super::seed::GameSeeds;
use crate::stats::accum::GameTally;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub outcome: Outcome,
    pub days: u8,
    pub played: [u64; 2],
    pub plays: [u16; 2],
    /// The engine failed during the game: more reactions triggered at once than its queue
    /// holds, so some were never resolved (`GameState::overflow`). The game was played to
    /// its end and its outcome counts, but its result is not a rules-faithful one: runs
    /// count such games (`engine_errors` in `summary`) and name the first.
    pub engine_error: bool,
}

impl GameResult {
    /// The result as the accumulator sees it; `game` is the game's index in its
    /// configuration (kept when the game had an engine error).
    pub fn tally(&self, game: u64) -> GameTally {
        GameTally {
            outcome: self.outcome.index(),
            win: self.outcome.is_win(),
            days: self.days,
            played: self.played,
            plays: self.plays,
            engine_error: self.engine_error.then_some(game),
        }
    }
}

/// Plays a game from setup to the end. `buf` is reused between decisions and games.
pub fn play_game<P: Policy + ?Sized, O: Observer>(
    db: &CardDb,
    m: &Matchup<'_>,
    seeds: &GameSeeds,
    policy: &mut P,
    buf: &mut ChoiceList,
    obs: &mut O,
) -> GameResult {
    // The state is set up where it is played (no copy of it through `start_game`'s pair).
    let mut rng = GameSeeds::rng(seeds.events);
    let mut s = set_up(db, m, seeds, &mut rng, obs);
    let mut prng = seeds.policy_rng();
    finish_game(db, &mut s, &mut rng, policy, &mut prng, buf, obs)
}

/// Sets a game up from its seeds: the state, and the stream of its dice and reshuffles.
pub fn start_game<O: Observer>(
    db: &CardDb,
    m: &Matchup<'_>,
    seeds: &GameSeeds,
    obs: &mut O,
) -> (GameState, crate::engine::GameRng) {
    let mut rng = GameSeeds::rng(seeds.events);
    let s = set_up(db, m, seeds, &mut rng, obs);
    (s, rng)
}

/// [`start_game`]'s state, with the stream of its dice and reshuffles (`seeds.events`)
/// given: returned into the caller's place for it.
#[inline]
fn set_up<O: Observer>(
    db: &CardDb,
    m: &Matchup<'_>,
    seeds: &GameSeeds,
    rng: &mut crate::engine::GameRng,
    obs: &mut O,
) -> GameState {
    let mut setup = GameSeeds::rng(seeds.setup);
    let mut conf = GameSeeds::rng(seeds.confluence);
    new_game(
        db,
        m,
        SetupStreams {
            setup: &mut setup,
            confluence: &mut conf,
        },
        rng,
        obs,
    )
}

/// Plays an already set-up game to its end.
pub fn finish_game<P: Policy + ?Sized, O: Observer>(
    db: &CardDb,
    s: &mut GameState,
    rng: &mut crate::engine::GameRng,
    policy: &mut P,
    prng: &mut crate::policy::PolicyRng,
    buf: &mut ChoiceList,
    obs: &mut O,
) -> GameResult {
    loop {
        match advance(s, db, rng, obs) {
            Step::Over(outcome) => {
                return GameResult {
                    outcome,
                    days: s.day,
                    played: s.played.0,
                    plays: s.plays.0,
                    engine_error: s.overflow,
                };
            }
            Step::Stopped => unreachable!("advance never stops early"),
            Step::Decide => {
                legal_choices(s, db, buf);
                debug_assert!(!buf.is_empty(), "decision {:?} with no options", s.decision);
                let k = if buf.len() == 1 {
                    0
                } else {
                    policy.choose(&View::new(s, db), buf, prng)
                };
                apply_unchecked(s, db, rng, obs, buf[k]);
            }
        }
    }
}

/// Plays a game from setup to the end, showing `watch` each decision (the player's view,
/// its options and the option the policy chose) before it is applied: the training
/// commands record positions and ask their teachers there. With `ask_forced` the policy is
/// asked at decisions with one option too (it may draw from its stream there, so a
/// recorder's games depend on it); otherwise, as [`finish_game`], the one option is taken.
pub fn play_watched<P: Policy + ?Sized>(
    db: &CardDb,
    m: &Matchup<'_>,
    seeds: &GameSeeds,
    policy: &mut P,
    ask_forced: bool,
    buf: &mut ChoiceList,
    mut watch: impl FnMut(&View<'_>, &ChoiceList, usize),
) -> Outcome {
    let (mut s, mut rng) = start_game(db, m, seeds, &mut NoObserver);
    let mut prng = seeds.policy_rng();
    loop {
        match advance(&mut s, db, &mut rng, &mut NoObserver) {
            Step::Over(outcome) => return outcome,
            Step::Stopped => unreachable!("advance never stops early"),
            Step::Decide => {
                legal_choices(&s, db, buf);
                let view = View::new(&s, db);
                let k = if ask_forced || buf.len() > 1 {
                    policy.choose(&view, buf, &mut prng)
                } else {
                    0
                };
                watch(&view, buf, k);
                apply_unchecked(&mut s, db, &mut rng, &mut NoObserver, buf[k]);
            }
        }
    }
}
