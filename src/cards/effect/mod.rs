//! The compiled effect language: what one interpreter in the engine executes.
//!
//! Abilities are written as text in the card data files (see `dsl.rs` and
//! `decks/cards/EFFECTS.md`), validated at load and compiled once into these small `Copy`
//! values. An ability is a trigger, an optional condition and a body: a slice of [`Op`]s in
//! one shared arena, with jumps for `may`, `if`, `choose` and dice branches. Conditions,
//! filters and token definitions live in side arenas referenced by `u16` ids so that an `Op`
//! stays small.
//!
//! Layer: part of [`crate::cards`]; may use `error` and nothing else of the crate.

pub type CardIdx = u16;
pub type FilterId = u16;
pub type CondId = u16;

mod event;
mod filter;
mod op;

pub use event::*;
pub use filter::*;
pub use op::*;
