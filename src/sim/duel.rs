//! One head-to-head game (standard Altered, two player decks, each with its policy).
//!
//! PLACEHOLDER (helper branch only): the lead engineer replaces this file with the real
//! engine-backed implementation when merging; the signature below is the contract.

use crate::cards::db::CardDb;
use crate::cards::effect::CardIdx;
use crate::engine::ChoiceList;
use crate::policy::AnyPolicy;

use super::seed::GameSeeds;

/// One seat of a head-to-head game: a player deck (hero and the other cards).
#[derive(Copy, Clone, Debug)]
pub struct DuelSeat<'a> {
    pub hero: CardIdx,
    pub cards: &'a [CardIdx],
}

/// How a head-to-head game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DuelResult {
    /// The winning seat (0 = seat A, 1 = seat B); `None` = a draw (the day cap was reached).
    pub winner: Option<u8>,
    /// The seat that was first player on day 1.
    pub first: u8,
    /// Days played.
    pub days: u8,
    /// Cards played by each seat.
    pub plays: [u16; 2],
}

/// Plays one head-to-head game from setup to the end. `first` is the seat that plays first
/// on day 1; every random draw comes from `seeds`; `buf` is reused between decisions.
pub fn play_duel(
    _db: &CardDb,
    seats: [DuelSeat<'_>; 2],
    first: u8,
    day_cap: u8,
    seeds: &GameSeeds,
    _policies: [&mut AnyPolicy; 2],
    _buf: &mut ChoiceList,
) -> DuelResult {
    // PLACEHOLDER: a deterministic pseudo-result so the runner can be built and tested.
    let h = seeds.game ^ (seats[0].cards.len() as u64) << 8 ^ seats[1].cards.len() as u64;
    let r = h % 7;
    DuelResult {
        winner: match r {
            0 => None,
            1..=3 => Some(first),
            _ => Some(1 - first),
        },
        first,
        days: 3 + (h % 5) as u8,
        plays: [10, 10],
    }
}
