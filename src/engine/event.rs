//! Events the engine reports to an [`Observer`]. Observers are static type parameters with
//! `ENABLED = false` for the hot path, so the simulation loop builds no events at all.
//!
//! Layer: part of [`crate::engine`]; may use `cards` and nothing else of the crate.

use super::overcome::DuskReport;
use super::state::{GameState, MAX_OBJS, ObjId, Outcome, Zone};
use super::table::Verdict;
use crate::cards::types::{Exp, Placement, Side, Stats};

/// Why a card went where it went.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Why {
    Setup,
    Draw,
    Expand,
    Play,
    Effect,
    Rest,
    Cleanup,
    Midnight,
    Refill,
    /// The Confluence could not pay for the top card of its hand.
    CannotPay,
    Cost,
    Resupply,
    Sabotage,
}

/// The action the Confluence took on one turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ConfluenceAction {
    /// Played the top card of its hand.
    PlayFromHand(ObjId),
    /// Played this Reserve card (highest Reserve cost it could afford, leftmost on ties).
    PlayFromReserve(ObjId),
    Pass,
}

#[derive(Clone, Debug)]
pub enum Event<'a> {
    Setup,
    /// Head-to-head: the scores tied when the expeditions met; the Arena tiebreaker starts.
    Arena,
    DayStart {
        day: u8,
    },
    Reveal {
        slot: u8,
    },
    Moved {
        obj: ObjId,
        side: Side,
        from: Zone,
        to: Zone,
        why: Why,
    },
    /// The Confluence revealed the top card of its hand.
    ConfluenceReveals {
        obj: ObjId,
        cost: u8,
        ready_mana: u8,
        playable: bool,
    },
    /// The Confluence's state at the start of its turn (cards with the cost it would pay:
    /// Hand Cost in hand, Reserve Cost in Reserve, after modifiers), and what it did.
    ConfluenceTurn {
        hand: &'a [(ObjId, u8)],
        ready_mana: u8,
        reserve: &'a [(ObjId, u8)],
        action: ConfluenceAction,
    },
    Play {
        obj: ObjId,
        side: Side,
        from: Zone,
        exp: Option<Exp>,
        cost: u8,
        /// Confluence placement: the rule used and whether it fell back to Threatened.
        placement: Option<(Placement, bool)>,
    },
    Quick {
        obj: ObjId,
        side: Side,
        ability: u8,
    },
    Ability {
        obj: ObjId,
        side: Side,
        ability: u16,
    },
    Boost {
        obj: ObjId,
        n: i16,
    },
    Status {
        obj: ObjId,
        bits: u32,
        gained: bool,
    },
    Token {
        obj: ObjId,
        side: Side,
        exp: Exp,
    },
    /// A Permanent token created in a side's Landmarks.
    LandmarkToken {
        obj: ObjId,
        side: Side,
    },
    TokenGone {
        obj: ObjId,
    },
    Roll {
        side: Side,
        value: u8,
    },
    Pass {
        side: Side,
    },
    AfterYou {
        side: Side,
    },
    /// A side became first player by an effect (the Threatened expedition flipped).
    FirstPlayer {
        side: Side,
    },
    ExpeditionMoved {
        /// Whose expedition (always the player's in the Confluence mode).
        side: Side,
        exp: Exp,
        from: i8,
        to: i8,
    },
    DarknessMoved {
        exp: Exp,
        from: i8,
        to: i8,
    },
    Dusk(&'a DuskReport),
    /// Head-to-head Dusk: each seat's expeditions against the opposing ones that share
    /// their tracks (or, in the Arena, the totals compared), before anything moves.
    DuelDusk(&'a DuelDusk),
    /// Free for All's Dusk: every seat's expeditions against those across their lanes (or,
    /// in the Arena, the totals compared), before anything moves.
    FfaDusk(&'a FfaDusk),
    /// Head-to-head: the end of a day, before the victory check: the scores and whether
    /// each seat's expeditions have met.
    DuelDayEnd {
        scores: [i8; 2],
        met: [bool; 2],
    },
    /// Free for All: the end of a day outside the Arena, before its verdict applies (every
    /// seat's positions are the state's): who won, which seats go to the Arena, or the
    /// next day.
    FfaDayEnd {
        verdict: Verdict,
    },
    Midnight {
        card: ObjId,
        indication: Placement,
        side: Option<Exp>,
        blocked: bool,
        before: [i8; 2],
        after: [i8; 2],
    },
    NewMidnightCard {
        card: ObjId,
    },
    Refill {
        cards: u8,
    },
    End {
        outcome: Outcome,
        day: u8,
    },
}

pub trait Observer<const N: usize = 2, const M: usize = MAX_OBJS> {
    /// False for observers that ignore events; the engine then builds none.
    const ENABLED: bool;
    fn event(&mut self, state: &GameState<N, M>, ev: &Event<'_>);
}

/// Ignores everything; compiles away.
pub struct NoObserver;

impl<const N: usize, const M: usize> Observer<N, M> for NoObserver {
    const ENABLED: bool = false;
    #[inline(always)]
    fn event(&mut self, _: &GameState<N, M>, _: &Event<'_>) {}
}

/// One expedition at a head-to-head Dusk, against the opposing expedition on its track.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct DuelExpReport {
    pub region: u8,
    /// The region's terrain types.
    pub terrains: u8,
    /// Its side's totals there, and the opposing expedition's.
    pub mine: Stats,
    pub theirs: Stats,
    /// The terrains it wins (more than the opponent, at least 1; equal counts when
    /// Ascended).
    pub won: u8,
    pub ascended: bool,
    /// A Defender there holds it.
    pub defender: bool,
    /// An effect prevents it from moving forward.
    pub blocked: bool,
    /// It may move only due to these terrains (a Will-o'-the-Wisp facing it), 0 if any.
    pub only_due_to: u8,
    /// It moves forward.
    pub advances: bool,
}

/// A head-to-head Dusk: per seat (0 = A) and expedition, or in the Arena the seats'
/// totals and the terrains each wins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DuelDusk {
    pub arena: bool,
    pub exps: [[DuelExpReport; 2]; 2],
    pub arena_totals: [Stats; 2],
    pub arena_won: [u8; 2],
}

/// A Free for All Dusk (four seats): per seat and expedition against the expedition
/// across its lane, which that is, and in the Arena every seat's totals. Only the seats in
/// `playing` are filled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FfaDusk {
    pub arena: bool,
    /// Bit per seat still playing.
    pub playing: u8,
    pub exps: [[DuelExpReport; 2]; 4],
    /// The seat and expedition across each seat's expedition's lane (`None`: no seat).
    pub across: [[Option<(u8, Exp)>; 2]; 4],
    pub arena_totals: [Stats; 4],
}
