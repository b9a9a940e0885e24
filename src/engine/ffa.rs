//! Free for All's setup (digest §7.1; docs/free-for-all.md): four player decks laid out
//! into a four-seat state, each seat drawing 6, up to the first player's first Mana
//! choice. Everything after the setup is the one engine with `Mode::FreeForAll`.
//!
//! Layer: part of [`crate::engine`]; may use `cards` and nothing else of the crate.

use super::GameRng;
use super::event::Observer;
use super::state::*;
use crate::cards::db::CardDb;
use crate::cards::effect::CardIdx;
use crate::cards::types::*;

/// A Free for All game's state: four seats and 255 object slots (48 a seat, then tokens).
pub type FfaState = GameState<4, 255>;

/// One seat's view of a Free for All game (what its policy reads).
pub type FfaView<'a> = super::view::View<'a, 4, 255>;

/// The most cards a seat brings to Free for All besides its hero: four seats' cards and
/// heroes must fit the object ids below the token slots (48 a seat).
pub const FFA_MAX_CARDS: usize = FfaState::TOKEN_BASE / 4 - 1;

/// The four decks of a Free for All game, seat `k` bringing `heroes[k]` and `cards[k]`.
#[derive(Copy, Clone, Debug)]
pub struct FfaSetup<'a> {
    pub heroes: [CardIdx; 4],
    pub cards: [&'a [CardIdx]; 4],
    /// The first player on day 1; the token passes left (clockwise) each Morning.
    pub first: Side,
    pub day_cap: u8,
    /// The lanes laid out the other way round the table ([`super::table::Table::mirror_lanes`]):
    /// an experiment, not a rule; `false` in every command.
    pub mirror_lanes: bool,
}

/// Sets up a Free for All game: the Adventure (from `streams[0]`), each seat's deck
/// shuffled from its own stream, 6 cards drawn by each seat clockwise from the first
/// player, up to the first player's first Mana choice.
///
/// # Panics
/// When a seat brings more than [`FFA_MAX_CARDS`] cards (the loader refuses such a deck
/// with its file and line first).
pub fn new_ffa<O: Observer<4, 255>>(
    db: &CardDb,
    f: &FfaSetup<'_>,
    streams: [&mut GameRng; 4],
    rng: &mut GameRng,
    obs: &mut O,
) -> FfaState {
    let mut s = FfaState::empty();
    s.mode = Mode::FreeForAll;
    s.day_cap = f.day_cap;
    let decks: [(CardIdx, &[CardIdx]); 4] = std::array::from_fn(|k| (f.heroes[k], f.cards[k]));
    s.lay_out_seats(db, streams, decks, [true; 4]);
    s.first = f.first;
    // The Threatened expedition is the Confluence mode's; it has no meaning at four seats.
    s.threatened = Exp::Hero;
    if f.mirror_lanes {
        s.table.mirror_lanes();
    }
    super::duel::open_table(&mut s, db, rng, obs);
    s
}
