//! The rules engine: a resumable state machine over [`GameState`].
//!
//! The engine never decides for the player. [`advance`] runs every forced step until the
//! player must choose (or the game ends); [`legal_choices`] lists the options; [`apply`]
//! takes one. The Confluence's choices follow its fixed rules inside the engine. Every
//! ability of every card is run by one interpreter (`interp.rs`) from compiled data.
//!
//! The engine does no I/O; randomness comes from the caller's [`GameRng`].
//!
//! Layer: may use `cards` and nothing else of the crate.

pub mod choice;
pub mod duel;
pub mod event;
pub mod ffa;
pub mod invariants;
pub mod list;
pub mod overcome;
pub mod setup;
pub mod shuffle;
pub mod state;
pub mod table;
pub mod view;

mod confluence;
mod flow;
mod interp;
mod night;
mod play;
mod query;
mod triggers;
mod zones;

use crate::cards::db::CardDb;
pub use choice::{Choice, ChoiceList};
use event::Observer;
pub use state::{Decision, GameState, Mode, ObjId, Outcome, Phase, Variant};

/// The random stream the engine draws dice and reshuffles from.
pub type GameRng = rand_xoshiro::Xoshiro256PlusPlus;

/// What [`advance`] stopped for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The player must choose: see `state.decision` and [`legal_choices`].
    Decide,
    Over(Outcome),
    /// [`advance_until`]'s stop condition held between two steps of the day.
    Stopped,
}

/// A choice that is not among the legal ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal choice {choice:?} for decision {decision:?} on day {day}")]
pub struct IllegalChoice {
    pub choice: Choice,
    pub decision: Decision,
    pub day: u8,
}

pub(crate) struct Engine<
    'a,
    O: Observer<N, M>,
    const N: usize = 2,
    const M: usize = { state::MAX_OBJS },
> {
    pub s: &'a mut GameState<N, M>,
    pub db: &'a CardDb,
    pub rng: &'a mut GameRng,
    pub obs: &'a mut O,
}

/// Runs forced steps until the player must decide or the game is over.
pub fn advance<O: Observer<N, M>, const N: usize, const M: usize>(
    s: &mut GameState<N, M>,
    db: &CardDb,
    rng: &mut GameRng,
    obs: &mut O,
) -> Step {
    Engine { s, db, rng, obs }.advance()
}

/// Like [`advance`], but also stops (before the next step of the day, with no ability
/// running or waiting) as soon as `stop` holds. Used to run scenarios phase by phase.
pub fn advance_until<O: Observer<N, M>, const N: usize, const M: usize>(
    s: &mut GameState<N, M>,
    db: &CardDb,
    rng: &mut GameRng,
    obs: &mut O,
    stop: &dyn Fn(&GameState<N, M>) -> bool,
) -> Step {
    Engine { s, db, rng, obs }.run(Some(stop))
}

/// Applies a choice after checking that it is legal.
pub fn apply<O: Observer<N, M>, const N: usize, const M: usize>(
    s: &mut GameState<N, M>,
    db: &CardDb,
    rng: &mut GameRng,
    obs: &mut O,
    choice: Choice,
) -> Result<(), IllegalChoice> {
    let mut legal = ChoiceList::new();
    legal_choices(s, db, &mut legal);
    if !legal.contains(&choice) {
        return Err(IllegalChoice {
            choice,
            decision: s.decision,
            day: s.day,
        });
    }
    Engine { s, db, rng, obs }.apply(choice);
    Ok(())
}

/// Applies a choice taken from [`legal_choices`] (checked in debug builds and with the
/// `invariants` feature).
pub fn apply_unchecked<O: Observer<N, M>, const N: usize, const M: usize>(
    s: &mut GameState<N, M>,
    db: &CardDb,
    rng: &mut GameRng,
    obs: &mut O,
    choice: Choice,
) {
    #[cfg(any(debug_assertions, feature = "invariants"))]
    {
        let mut legal = ChoiceList::new();
        legal_choices(s, db, &mut legal);
        assert!(
            legal.contains(&choice),
            "illegal choice {choice:?} for {:?}",
            s.decision
        );
    }
    Engine { s, db, rng, obs }.apply(choice);
}

/// The legal options of the pending decision (empty when none is pending).
pub fn legal_choices<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    out: &mut ChoiceList,
) {
    choice::legal(s, db, out);
}

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    fn advance(&mut self) -> Step {
        self.run(None)
    }

    fn run(&mut self, stop: Option<&dyn Fn(&GameState<N, M>) -> bool>) -> Step {
        loop {
            if self.s.decision != Decision::None {
                return Step::Decide;
            }
            if let Some(o) = self.s.outcome {
                // Reported here, after whatever event ended the game.
                if O::ENABLED && !self.s.end_reported {
                    self.s.end_reported = true;
                    let day = self.s.day;
                    self.emit(event::Event::End { outcome: o, day });
                }
                return Step::Over(o);
            }
            if self.s.depth > 0 {
                self.run_frame();
                continue;
            }
            if let Some(p) = self.take_pending() {
                self.start_pending(p);
                continue;
            }
            if stop.is_some_and(|f| f(self.s)) {
                return Step::Stopped;
            }
            self.step_phase();
            #[cfg(any(debug_assertions, feature = "invariants"))]
            invariants::assert_ok(self.s, self.db);
        }
    }

    #[inline]
    fn emit(&mut self, ev: event::Event<'_>) {
        if O::ENABLED {
            self.obs.event(self.s, &ev);
        }
    }
}
