//! Small value types shared by the card data, the effect language and the engine.
//!
//! Layer: part of [`crate::cards`]; may use `error` and nothing else of the crate.

use std::fmt;

/// A seat at the table, numbered clockwise from 0 (`engine::table`). The two sides of a
/// Confluence game are seats 0 (the player) and 1 (the Confluence), the two seats of a
/// head-to-head game too; Free for All adds seats 2 and 3 (docs/free-for-all.md).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Side {
    #[default]
    Player = 0,
    Confluence = 1,
    /// Free for All's third seat.
    Seat2 = 2,
    /// Free for All's fourth seat.
    Seat3 = 3,
}

impl Side {
    /// The two seats of the solo and the two-player game.
    pub const BOTH: [Side; 2] = [Side::Player, Side::Confluence];
    /// Every seat of a four-seat table.
    pub const ALL: [Side; 4] = [Side::Player, Side::Confluence, Side::Seat2, Side::Seat3];

    /// The first `N` seats, every seat of a table of `N` (`BOTH` for two): engine loops
    /// over every seat read it as `const { Side::seats::<N>() }`, which gives the
    /// two-seat game the same loop as `BOTH`.
    pub const fn seats<const N: usize>() -> [Side; N] {
        let mut out = [Side::Player; N];
        let mut i = 0;
        while i < N {
            out[i] = Side::ALL[i];
            i += 1;
        }
        out
    }

    /// The other side of a two-seat game. Only two-seat code may ask (the Confluence mode,
    /// head to head); with four seats the opponent, the facing expedition and the order of
    /// seats come from the table (`engine::table`).
    #[inline]
    pub fn other(self) -> Side {
        debug_assert!(self.seat() < 2, "{self:?} has no one other side");
        match self {
            Side::Player => Side::Confluence,
            Side::Confluence => Side::Player,
            Side::Seat2 => Side::Seat3,
            Side::Seat3 => Side::Seat2,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side of a seat (0 to 3).
    #[inline]
    pub fn of_seat(seat: u8) -> Side {
        debug_assert!(seat < 4, "there is no seat {seat}");
        match seat & 3 {
            0 => Side::Player,
            1 => Side::Confluence,
            2 => Side::Seat2,
            _ => Side::Seat3,
        }
    }

    /// This side's seat at the table (`engine::table`).
    #[inline]
    pub fn seat(self) -> u8 {
        self as u8
    }

    /// This side's bit in a set of seats (a bit per seat).
    #[inline]
    pub fn bit(self) -> u8 {
        1 << self as u8
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Player => "player",
            Side::Confluence => "confluence",
            Side::Seat2 => "seat2",
            Side::Seat3 => "seat3",
        }
    }
}

/// One of a player's two expeditions. The Confluence's objects are grouped by the player
/// expedition they face, so the same type names "the Hero side" for both.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Exp {
    #[default]
    Hero = 0,
    Companion = 1,
}

impl Exp {
    pub const BOTH: [Exp; 2] = [Exp::Hero, Exp::Companion];

    #[inline]
    pub fn other(self) -> Exp {
        match self {
            Exp::Hero => Exp::Companion,
            Exp::Companion => Exp::Hero,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Exp::Hero => "hero",
            Exp::Companion => "companion",
        }
    }
}

/// One value per seat, indexed by [`Side`] (`N` seats, 2 or 4). The index is masked by
/// the seat count, a power of two, so a read needs no bounds check: the engine reads a
/// seat's zones, listeners and statics at every event, and a check there costs the solo
/// game measurably. A seat beyond `N` is an engine bug, caught in debug builds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Seats<T, const N: usize = 2>(pub [T; N]);

impl<T: Copy + Default, const N: usize> Default for Seats<T, N> {
    fn default() -> Self {
        Seats([T::default(); N])
    }
}

impl<T, const N: usize> Seats<T, N> {
    /// Every seat's value, seat 0 first.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    #[inline]
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.0.iter_mut()
    }
}

impl<T, const N: usize> std::ops::Index<Side> for Seats<T, N> {
    type Output = T;

    #[inline]
    fn index(&self, s: Side) -> &T {
        debug_assert!(s.index() < N, "{s:?} at a table of {N} seats");
        &self.0[s.index() & (N - 1)]
    }
}

impl<T, const N: usize> std::ops::IndexMut<Side> for Seats<T, N> {
    #[inline]
    fn index_mut(&mut self, s: Side) -> &mut T {
        debug_assert!(s.index() < N, "{s:?} at a table of {N} seats");
        &mut self.0[s.index() & (N - 1)]
    }
}

/// A pair of values, one per expedition, read with `get(exp)` (like shakmaty's `ByColor`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct ByExp<T>(pub [T; 2]);

impl<T: Copy> ByExp<T> {
    #[inline]
    pub fn get(&self, e: Exp) -> T {
        self.0[e.index()]
    }
    #[inline]
    pub fn set(&mut self, e: Exp, v: T) {
        self.0[e.index()] = v;
    }
}

impl<T> ByExp<T> {
    #[inline]
    pub fn get_mut(&mut self, e: Exp) -> &mut T {
        &mut self.0[e.index()]
    }
}

/// Terrain bits: a region's terrains, or a terrain named by a card.
pub mod terrain {
    pub const FOREST: u8 = 1;
    pub const MOUNTAIN: u8 = 2;
    pub const WATER: u8 = 4;
    pub const ALL: u8 = 7;

    /// "F", "M+O", ... for logs and reports.
    pub fn describe(bits: u8) -> String {
        let mut out = Vec::new();
        if bits & FOREST != 0 {
            out.push("F");
        }
        if bits & MOUNTAIN != 0 {
            out.push("M");
        }
        if bits & WATER != 0 {
            out.push("O");
        }
        if out.is_empty() {
            "-".to_string()
        } else {
            out.join("+")
        }
    }

    pub fn parse(s: &str) -> Option<u8> {
        match s.to_ascii_lowercase().as_str() {
            "f" | "forest" => Some(FOREST),
            "m" | "mountain" => Some(MOUNTAIN),
            "o" | "w" | "water" | "ocean" => Some(WATER),
            _ => None,
        }
    }
}

/// Forest / Mountain / Water statistics. Sums of many objects fit easily in `i16`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Hash)]
pub struct Stats {
    pub f: i16,
    pub m: i16,
    pub o: i16,
}

impl Stats {
    pub const ZERO: Stats = Stats { f: 0, m: 0, o: 0 };

    pub const fn new(f: i16, m: i16, o: i16) -> Stats {
        Stats { f, m, o }
    }

    #[inline]
    pub fn plus_all(self, n: i16) -> Stats {
        Stats::new(self.f + n, self.m + n, self.o + n)
    }

    /// Every component at least zero.
    #[inline]
    pub fn fits(self) -> bool {
        self.f >= 0 && self.m >= 0 && self.o >= 0
    }

    /// `b` can be subtracted without a component going below zero.
    #[inline]
    pub fn covers(self, b: Stats) -> bool {
        self.f >= b.f && self.m >= b.m && self.o >= b.o
    }

    #[inline]
    pub fn get(self, t: u8) -> i16 {
        match t {
            terrain::FOREST => self.f,
            terrain::MOUNTAIN => self.m,
            _ => self.o,
        }
    }

    pub fn sum(self) -> i16 {
        self.f + self.m + self.o
    }

    pub fn clamp_zero(self) -> Stats {
        Stats::new(self.f.max(0), self.m.max(0), self.o.max(0))
    }
}

impl std::ops::Add for Stats {
    type Output = Stats;
    #[inline]
    fn add(self, b: Stats) -> Stats {
        Stats::new(self.f + b.f, self.m + b.m, self.o + b.o)
    }
}

impl std::ops::Sub for Stats {
    type Output = Stats;
    #[inline]
    fn sub(self, b: Stats) -> Stats {
        Stats::new(self.f - b.f, self.m - b.m, self.o - b.o)
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.f, self.m, self.o)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Faction {
    Axiom,
    Bravos,
    Lyra,
    Muna,
    Ordis,
    Yzmir,
    Neutral,
    /// The Confluence's own cards.
    Confluence,
}

impl Faction {
    pub fn parse(code: &str) -> Option<Faction> {
        Some(match code {
            "AX" => Faction::Axiom,
            "BR" => Faction::Bravos,
            "LY" => Faction::Lyra,
            "MU" => Faction::Muna,
            "OR" => Faction::Ordis,
            "YZ" => Faction::Yzmir,
            "NE" | "" => Faction::Neutral,
            "CONFLUENCE" => Faction::Confluence,
            _ => return None,
        })
    }

    pub fn code(self) -> &'static str {
        match self {
            Faction::Axiom => "AX",
            Faction::Bravos => "BR",
            Faction::Lyra => "LY",
            Faction::Muna => "MU",
            Faction::Ordis => "OR",
            Faction::Yzmir => "YZ",
            Faction::Neutral => "NE",
            Faction::Confluence => "CONFLUENCE",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rarity {
    Common,
    Rare,
    Unique,
    Exalted,
}

impl Rarity {
    pub fn parse(s: &str) -> Option<Rarity> {
        Some(match s.to_ascii_uppercase().as_str() {
            "COMMON" | "C" => Rarity::Common,
            "RARE" | "R" => Rarity::Rare,
            "UNIQUE" | "U" => Rarity::Unique,
            "EXALTED" | "E" => Rarity::Exalted,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Rarity::Common => "common",
            Rarity::Rare => "rare",
            Rarity::Unique => "unique",
            Rarity::Exalted => "exalted",
        }
    }
}

/// What a card is, as far as the rules care.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CardKind {
    Character,
    Spell,
    Landmark,
    ExpeditionPermanent,
    Hero,
    Token,
    /// A Permanent token created in a Landmark zone (Aerolith, Manaseed); never in a deck.
    LandmarkToken,
    /// Mana tokens of later sets; never in a deck.
    OtherToken,
}

impl CardKind {
    pub fn parse_pool(s: &str) -> Option<CardKind> {
        Some(match s {
            "CHARACTER" => CardKind::Character,
            "SPELL" => CardKind::Spell,
            "LANDMARK_PERMANENT" | "PERMANENT" => CardKind::Landmark,
            "EXPEDITION_PERMANENT" => CardKind::ExpeditionPermanent,
            "HERO" => CardKind::Hero,
            "TOKEN" => CardKind::Token,
            "TOKEN_LANDMARK_PERMANENT" => CardKind::LandmarkToken,
            "TOKEN_MANA" => CardKind::OtherToken,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            CardKind::Character => "character",
            CardKind::Spell => "spell",
            CardKind::Landmark => "landmark",
            CardKind::ExpeditionPermanent => "expedition permanent",
            CardKind::Hero => "hero",
            CardKind::Token => "token",
            CardKind::LandmarkToken => "landmark token",
            CardKind::OtherToken => "token (non-character)",
        }
    }

    /// Characters and tokens live in expeditions and have statistics.
    #[inline]
    pub fn is_character(self) -> bool {
        matches!(self, CardKind::Character | CardKind::Token)
    }

    #[inline]
    pub fn is_permanent(self) -> bool {
        matches!(self, CardKind::Landmark | CardKind::ExpeditionPermanent)
    }

    /// Played into an expedition (and so needs an expedition choice / placement rule).
    #[inline]
    pub fn goes_to_expedition(self) -> bool {
        matches!(
            self,
            CardKind::Character | CardKind::ExpeditionPermanent | CardKind::Token
        )
    }
}

/// Which player expedition a Confluence card faces when played (its placement icon), and
/// which Darkness a Midnight card advances (interpretation A1 reads the same icon set).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Placement {
    #[default]
    Threatened,
    Hero,
    Companion,
    Forest,
    Mountain,
    Water,
    Progressing,
}

impl Placement {
    pub const ALL: [Placement; 7] = [
        Placement::Threatened,
        Placement::Hero,
        Placement::Companion,
        Placement::Forest,
        Placement::Mountain,
        Placement::Water,
        Placement::Progressing,
    ];

    pub fn parse(s: &str) -> Option<Placement> {
        Some(match s.to_ascii_lowercase().as_str() {
            "threatened" => Placement::Threatened,
            "hero" => Placement::Hero,
            "companion" => Placement::Companion,
            "forest" | "f" => Placement::Forest,
            "mountain" | "m" => Placement::Mountain,
            "water" | "ocean" | "o" => Placement::Water,
            "progressing" => Placement::Progressing,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Placement::Threatened => "threatened",
            Placement::Hero => "hero",
            Placement::Companion => "companion",
            Placement::Forest => "forest",
            Placement::Mountain => "mountain",
            Placement::Water => "water",
            Placement::Progressing => "progressing",
        }
    }

    pub fn terrain(self) -> Option<u8> {
        match self {
            Placement::Forest => Some(terrain::FOREST),
            Placement::Mountain => Some(terrain::MOUNTAIN),
            Placement::Water => Some(terrain::WATER),
            _ => None,
        }
    }
}

/// Printed keywords and granted statuses, as bit flags.
pub mod kw {
    pub const FLEETING: u32 = 1 << 0;
    pub const ANCHORED: u32 = 1 << 1;
    pub const ASLEEP: u32 = 1 << 2;
    pub const ETERNAL: u32 = 1 << 3;
    pub const GIGANTIC: u32 = 1 << 4;
    pub const DEFENDER: u32 = 1 << 5;
    pub const SEASONED: u32 = 1 << 6;
    pub const PERSISTENT: u32 = 1 << 7;
    pub const CONSTANT: u32 = 1 << 8;
    pub const COOLDOWN: u32 = 1 << 9;
    pub const TOUGH: u32 = 1 << 10;
    pub const SCOUT: u32 = 1 << 11;
    /// Printed keywords that are statuses given on entering play, then lost normally.
    pub const ENTRY_STATUS: u32 = ASLEEP | ANCHORED;

    pub const NAMES: [(&str, u32); 12] = [
        ("fleeting", FLEETING),
        ("anchored", ANCHORED),
        ("asleep", ASLEEP),
        ("eternal", ETERNAL),
        ("gigantic", GIGANTIC),
        ("defender", DEFENDER),
        ("seasoned", SEASONED),
        ("persistent", PERSISTENT),
        ("constant", CONSTANT),
        ("cooldown", COOLDOWN),
        ("tough", TOUGH),
        ("scout", SCOUT),
    ];

    pub fn parse(name: &str) -> Option<u32> {
        NAMES.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
    }

    pub fn describe(bits: u32) -> Vec<&'static str> {
        NAMES
            .iter()
            .filter(|(_, b)| bits & b != 0)
            .map(|(n, _)| *n)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn seats_are_indexed_by_side() {
        let mut two = Seats([1u8, 2]);
        two[Side::Confluence] = 5;
        assert_eq!(two[Side::Player], 1);
        assert_eq!(two.0, [1, 5]);
        let four = Seats::<u8, 4>([0, 1, 2, 3]);
        for side in Side::ALL {
            assert_eq!(four[side], side.seat());
            assert_eq!(Side::of_seat(side.seat()), side);
            assert_eq!(side.bit(), 1 << side.index());
        }
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "at a table of 2 seats")]
    fn a_third_seat_at_a_two_seat_table_is_caught() {
        let two = Seats([0u8; 2]);
        let _ = two[Side::Seat2];
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "no one other side")]
    fn other_is_for_two_seats_only() {
        let _ = Side::Seat2.other();
    }

    #[test]
    fn stats_cover_and_fit() {
        let t = Stats::new(6, 5, 4);
        assert!(t.covers(Stats::new(2, 2, 1)));
        assert!(!t.covers(Stats::new(3, 1, 5)));
        assert!((t - Stats::new(6, 5, 4)).fits());
        assert!(!(t - Stats::new(7, 0, 0)).fits());
    }

    #[test]
    fn terrain_describes_bits() {
        assert_eq!(terrain::describe(terrain::MOUNTAIN | terrain::WATER), "M+O");
        assert_eq!(terrain::describe(terrain::ALL), "F+M+O");
    }
}
