//! The design algorithms, callable from the library: which rare mix gives a target win rate
//! ([`tune`]), which single change to a Confluence card moves the win rate most, raced
//! ([`sensitivity`]), and a player deck improved by one-card swaps ([`optimize`]). Each takes
//! plain configuration (the decks as [`crate::job::load`] loads them, counts, a seed) and
//! returns plain results and the tables of its outputs; none parses flags, prints or writes
//! files: the commands of [`crate::app`] do, and hear of the games played through a
//! [`Progress`].
//!
//! Layer: may use `cards`, `deck`, `engine`, `export`, `job`, `policy`, `sim`, `stats` and
//! `suggest`, and nothing else of the crate.

pub mod optimize;
pub mod sensitivity;
pub mod tune;

use crate::stats::interval::paired_bounds;

/// What a design algorithm says while it runs: the games it has played, and (when racing
/// stops some of its work early) at most how many are left.
pub trait Progress: Sync {
    /// `games` more games were played.
    fn played(&self, games: u64);
    /// At most `games` games are left to play (fewer than announced: raced edits stopped).
    fn left(&self, _games: u64) {}
}

/// A function of the games played is a progress that ignores what is left.
impl<F: Fn(u64) + Sync> Progress for F {
    fn played(&self, games: u64) {
        self(games)
    }
}

/// No progress to tell.
pub struct Silent;

impl Progress for Silent {
    fn played(&self, _games: u64) {}
}

/// The normal quantile of a two-sided 95% interval.
pub const Z: f64 = 1.959964;

/// A paired difference's 95% bounds, null (NaN) when its games show no variation (an
/// unchanged edit's own games, or a change that changed no game's result).
pub fn bounds(d: (f64, f64)) -> (f64, f64) {
    paired_bounds(d, Z).unwrap_or((f64::NAN, f64::NAN))
}
