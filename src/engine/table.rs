//! The table: which seats are still playing, their clockwise order, which expedition faces
//! which (the lanes), and who wins at the end of a Free for All day or an Arena day
//! (digest §7.1, §7.3; docs/free-for-all.md). Pure functions of the seat count and the
//! seats still playing, so the two-player game and Free for All read one description.
//!
//! Seats are numbered clockwise from 0: `Side::Player` is seat 0, `Side::Confluence` seat 1.
//!
//! Layer: part of [`crate::engine`]; may use `cards` and nothing else of the crate.

use crate::cards::types::{ByExp, Exp, Side, Stats, terrain};

/// The seats of a game and which of them are still playing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Table {
    /// 2 (the solo game, head to head) or 4 (Free for All).
    n: u8,
    /// Bit per seat still in the game (Free for All's tiebreaker removes seats).
    playing: u8,
    /// How many seats are still playing.
    live: u8,
    /// From each seat, the seats still playing clockwise (that seat first when it plays),
    /// two bits a seat, the first in the low bits: every event walks the seats in the
    /// order of its initiative, so the order is read, not computed ([`Order`]). Rebuilt
    /// only when a seat leaves.
    orders: [u8; 4],
    /// The lanes of the whole ring: `lanes[s][e]` is the seat whose expedition `e` faces
    /// seat `s`'s expedition `e` while every seat plays (`ring_facing`), read, not
    /// computed, since Dusk, In Contact and every "opposing" read it.
    lanes: [[u8; 2]; 4],
}

/// What the end of a day decides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Nobody has won: the next day, with the same seats.
    Continue,
    /// This seat wins.
    Wins(u8),
    /// An Arena day with only these seats (bit per seat); the others leave the game.
    Arena(u8),
}

impl Table {
    /// A table of `n` seats (2 or 4), all playing. Its orders are written out (every game
    /// starts one; `build_orders` gives the same, as a test checks).
    pub const fn new(n: u8) -> Table {
        assert!(n == 2 || n == 4, "a table has 2 or 4 seats");
        let orders = if n == 2 {
            // From seat 0: 0, 1; from seat 1: 1, 0.
            [0b01_00, 0b00_01, 0, 0]
        } else {
            [0b11_10_01_00, 0b00_11_10_01, 0b01_00_11_10, 0b10_01_00_11]
        };
        // Hero lanes pair `s` and `s xor 1`; Companion lanes each seat and its other
        // neighbour (RULES.md F1). Two seats: each faces the other.
        let lanes = if n == 2 {
            [[1, 1], [0, 0], [0, 0], [0, 0]]
        } else {
            [[1, 3], [0, 2], [3, 1], [2, 0]]
        };
        Table {
            n,
            playing: (1 << n) - 1,
            live: n,
            orders,
            lanes,
        }
    }

    /// Lays the lanes out the other way round the table: Hero lanes pair seats 1–2 and
    /// 3–0, Companion lanes 0–1 and 2–3, so that an even seat's Hero expedition races the
    /// seat before it in the turn order and an odd seat's the seat after it (RULES.md F1
    /// has it the other way). Nothing else changes. **Not a rule**: the experiment that
    /// tells the four-seat parity effect of the layout from one of the seat numbers
    /// (docs/free-for-all.md, "The seat effect"; `tests/ffa_lanes.rs`). With two seats
    /// it changes nothing.
    pub fn mirror_lanes(&mut self) {
        for l in &mut self.lanes {
            l.swap(0, 1);
        }
    }

    /// Fills `orders` and `live` from `playing`.
    fn build_orders(&mut self) {
        self.live = self.playing.count_ones() as u8;
        for first in 0..self.n {
            self.orders[first as usize] = self
                .clockwise_from(first)
                .enumerate()
                .fold(0, |bits, (k, s)| bits | s << (2 * k));
        }
    }

    /// The number of seats, playing or not.
    #[inline]
    pub fn seats(self) -> u8 {
        self.n
    }

    /// The seats still playing, a bit per seat.
    #[inline]
    pub fn playing(self) -> u8 {
        self.playing
    }

    #[inline]
    pub fn is_playing(self, seat: u8) -> bool {
        self.playing & (1 << seat) != 0
    }

    /// Only the seats of `mask` go on playing (Free for All's tiebreaker).
    pub fn keep_only(&mut self, mask: u8) {
        self.playing &= mask;
        self.build_orders();
    }

    /// The next seat clockwise that is still playing (the seat itself if it is alone).
    pub fn left(self, seat: u8) -> u8 {
        self.after(seat).next().unwrap_or(seat)
    }

    /// The seats still playing, clockwise from `first` (included when it plays): the order
    /// of turns, of Setup and Expand, and of initiative among the others.
    #[inline]
    pub fn clockwise_from(self, first: u8) -> Clockwise {
        Clockwise::new(first, self.n, self.playing)
    }

    /// The seats still playing clockwise after `seat`, itself left out (whether or not it
    /// plays).
    #[inline]
    pub fn after(self, seat: u8) -> Clockwise {
        let next = if seat + 1 == self.n { 0 } else { seat + 1 };
        Clockwise::new(next, self.n, self.playing & !(1 << seat))
    }

    /// The opponents of `side` still playing, clockwise after it (two seats: the other).
    #[inline]
    pub fn opponents(self, side: Side) -> impl Iterator<Item = Side> {
        self.after(side.seat()).map(Side::of_seat)
    }

    /// The sides still playing, clockwise from `first` (included when it plays): the order
    /// of reactions from the initiative, of turns, of Setup and Expand
    /// ([`Table::clockwise_from`], read from the table).
    #[inline]
    pub fn sides_from(self, first: Side) -> Order {
        Order {
            seats: self.orders[first.index()],
            left: self.live,
        }
    }

    /// The next side clockwise after `side` that is still playing and for which `open`
    /// holds (`None`: no other side): whose turn follows in the Afternoon.
    #[inline]
    pub fn next_after(self, side: Side, open: impl Fn(Side) -> bool) -> Option<Side> {
        self.sides_from(side).find(|&s| s != side && open(s))
    }

    /// The seat and expedition across the lane from `seat`'s expedition `e` among all seats
    /// of the ring: Hero lanes pair seats `s` and `s xor 1`; Companion lanes pair each seat
    /// with its other neighbour. Two seats: Hero faces Hero, Companion faces Companion.
    #[inline]
    fn ring_facing(self, seat: u8, e: Exp) -> (u8, Exp) {
        (self.lanes[seat as usize][e.index()], e)
    }

    /// The expedition facing `seat`'s expedition `e`: across its lane, or, where that seat
    /// has left the game, what faced that seat's other expedition (its two lanes join, so
    /// a Companion may face a Hero). `None` when no other seat is playing.
    pub fn facing(self, seat: u8, e: Exp) -> Option<(u8, Exp)> {
        let (mut t, mut f) = self.ring_facing(seat, e);
        // Each step crosses one absent seat; at most every other seat is absent.
        for _ in 0..self.n {
            if t == seat {
                return None;
            }
            if self.is_playing(t) {
                return Some((t, f));
            }
            (t, f) = self.ring_facing(t, f.other());
        }
        None
    }

    /// Free for All's end of a day (digest §7.3): the seats whose Hero and Companion
    /// expeditions stand in one region or have passed each other qualify. One wins; of
    /// several, the one that advanced furthest wins ("went further than needed"); several
    /// that advanced equally far play an Arena day among them, and every other seat leaves.
    /// `pos[s]` is seat `s`'s regions (Hero from 0, Companion from 7).
    pub fn day_end(self, pos: &[ByExp<i8>]) -> Verdict {
        let mut best = i8::MIN;
        let mut furthest = 0u8;
        for s in self.clockwise_from(0) {
            let p = pos[s as usize];
            if !qualifies(p) {
                continue;
            }
            let a = advance(p);
            if a > best {
                (best, furthest) = (a, 0);
            }
            if a == best {
                furthest |= 1 << s;
            }
        }
        match furthest.count_ones() {
            0 => Verdict::Continue,
            1 => Verdict::Wins(furthest.trailing_zeros() as u8),
            _ => Verdict::Arena(furthest),
        }
    }

    /// An Arena Dusk among the seats still playing (digest §4, §7.3): `totals[s]` is seat
    /// `s`'s sum of all its characters. A terrain goes to a total of at least 1 higher than
    /// every other seat's; the one seat that wins the most terrains wins. Otherwise the
    /// seats that had a best total somewhere (at least 1, beaten by no seat, ties included)
    /// play another day: `Arena` of them, or `Continue` when that is every seat still
    /// playing or no seat has a total of 1 anywhere. (Such a set never holds one seat
    /// alone: a seat alone at the top of a terrain wins it.)
    pub fn arena_dusk(self, totals: &[Stats]) -> Verdict {
        let mut won = [0u8; 4];
        let mut best = 0u8;
        for t in [terrain::FOREST, terrain::MOUNTAIN, terrain::WATER] {
            let top = self
                .clockwise_from(0)
                .map(|s| totals[s as usize].get(t))
                .max()
                .unwrap_or(0);
            if top < 1 {
                continue;
            }
            let at_top = self
                .clockwise_from(0)
                .filter(|&s| totals[s as usize].get(t) == top)
                .fold(0u8, |m, s| m | 1 << s);
            best |= at_top;
            if at_top.count_ones() == 1 {
                won[at_top.trailing_zeros() as usize] += 1;
            }
        }
        let most = self
            .clockwise_from(0)
            .map(|s| won[s as usize])
            .max()
            .unwrap_or(0);
        let winners = self
            .clockwise_from(0)
            .filter(|&s| won[s as usize] == most)
            .fold(0u8, |m, s| m | 1 << s);
        if most > 0 && winners.count_ones() == 1 {
            Verdict::Wins(winners.trailing_zeros() as u8)
        } else if best == 0 || best == self.playing {
            Verdict::Continue
        } else {
            Verdict::Arena(best)
        }
    }
}

/// The seats still playing in clockwise order (`Table::clockwise_from`). Every event
/// walks the seats in this order, so a step is a few bit operations: the bits of the seats
/// left to visit, rotated so that `first` is bit 0.
#[derive(Copy, Clone, Debug)]
pub struct Clockwise {
    first: u8,
    n: u8,
    rest: u8,
}

impl Clockwise {
    #[inline]
    fn new(first: u8, n: u8, playing: u8) -> Clockwise {
        let (p, full) = (playing as u16, (1u16 << n) - 1);
        let rest = ((p >> first) | (p << (n - first))) & full;
        Clockwise {
            first,
            n,
            rest: rest as u8,
        }
    }
}

impl Iterator for Clockwise {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.rest == 0 {
            return None;
        }
        let k = self.rest.trailing_zeros() as u8;
        self.rest &= self.rest - 1;
        let s = self.first + k;
        Some(if s >= self.n { s - self.n } else { s })
    }
}

/// The sides still playing in clockwise order from one of them ([`Table::sides_from`]): a
/// step is a shift of the order the table keeps.
#[derive(Copy, Clone, Debug)]
pub struct Order {
    seats: u8,
    left: u8,
}

impl Iterator for Order {
    type Item = Side;

    #[inline]
    fn next(&mut self) -> Option<Side> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let s = self.seats & 3;
        self.seats >>= 2;
        Some(Side::of_seat(s))
    }
}

/// The seat's Hero and Companion expeditions stand in one region or have passed each other.
#[inline]
pub fn qualifies(pos: ByExp<i8>) -> bool {
    pos.get(Exp::Hero) >= pos.get(Exp::Companion)
}

/// How far a seat has advanced: its Hero expedition's distance from region 0 plus its
/// Companion expedition's from region 7 (the two-player score; 7 when they just met).
#[inline]
pub fn advance(pos: ByExp<i8>) -> i8 {
    pos.get(Exp::Hero) + (7 - pos.get(Exp::Companion))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Exp::{Companion as C, Hero as H};

    fn at(hero: i8, companion: i8) -> ByExp<i8> {
        ByExp([hero, companion])
    }

    #[test]
    fn two_seats_face_as_in_the_standard_game() {
        let t = Table::new(2);
        for s in 0..2 {
            for e in Exp::BOTH {
                assert_eq!(t.facing(s, e), Some((1 - s, e)));
            }
        }
        assert_eq!(t.clockwise_from(1).collect::<Vec<_>>(), [1, 0]);
        assert_eq!(t.left(0), 1);
        assert_eq!(t.left(1), 0);
    }

    #[test]
    fn four_seats_race_each_neighbour_on_one_lane() {
        let t = Table::new(4);
        let expect = [
            ((0, H), (1, H)),
            ((1, C), (2, C)),
            ((2, H), (3, H)),
            ((3, C), (0, C)),
        ];
        for ((a, ea), (b, eb)) in expect {
            assert_eq!(t.facing(a, ea), Some((b, eb)), "{a} {ea:?}");
            assert_eq!(t.facing(b, eb), Some((a, ea)), "{b} {eb:?}");
        }
        // Each seat's two expeditions face its two neighbours, one each.
        for s in 0..4u8 {
            let (x, _) = t.facing(s, H).unwrap();
            let (y, _) = t.facing(s, C).unwrap();
            let mut got = [x, y];
            got.sort();
            let mut neighbours = [(s + 1) % 4, (s + 3) % 4];
            neighbours.sort();
            assert_eq!(got, neighbours, "seat {s}");
        }
    }

    #[test]
    fn mirrored_lanes_turn_the_layout_by_one_seat() {
        let mut m = Table::new(4);
        m.mirror_lanes();
        let t = Table::new(4);
        // Seat s of the mirrored table faces as seat s - 1 of the standard one, relabelled.
        for s in 0..4u8 {
            for e in Exp::BOTH {
                let (o, f) = t.facing((s + 3) % 4, e).unwrap();
                assert_eq!(m.facing(s, e), Some(((o + 1) % 4, f)), "{s} {e:?}");
            }
        }
        assert_eq!(m.facing(0, H), Some((3, H)));
        assert_eq!(m.facing(0, C), Some((1, C)));
        // The turn order is untouched; two seats face as in the standard game.
        assert_eq!(m.clockwise_from(2).collect::<Vec<_>>(), [2, 3, 0, 1]);
        let mut m2 = Table::new(2);
        m2.mirror_lanes();
        for s in 0..2 {
            for e in Exp::BOTH {
                assert_eq!(m2.facing(s, e), Some((1 - s, e)));
            }
        }
    }

    #[test]
    fn the_token_passes_left_and_turns_go_clockwise() {
        let t = Table::new(4);
        assert_eq!(t.left(3), 0);
        assert_eq!(t.clockwise_from(2).collect::<Vec<_>>(), [2, 3, 0, 1]);
        let mut t = t;
        t.keep_only(0b1010);
        assert_eq!(t.left(1), 3);
        assert_eq!(t.left(3), 1);
        // A token on a seat that left passes to the next seat still playing.
        assert_eq!(t.left(0), 1);
        assert_eq!(t.clockwise_from(2).collect::<Vec<_>>(), [3, 1]);
    }

    #[test]
    fn the_written_orders_are_the_built_ones() {
        for n in [2, 4] {
            let t = Table::new(n);
            let mut built = t;
            built.build_orders();
            assert_eq!(t, built, "{n} seats");
        }
    }

    #[test]
    fn the_kept_orders_are_the_clockwise_ones() {
        let seats = |o: Order| o.map(Side::seat).collect::<Vec<_>>();
        let t2 = Table::new(2);
        assert_eq!(seats(t2.sides_from(Side::Player)), [0, 1]);
        assert_eq!(seats(t2.sides_from(Side::Confluence)), [1, 0]);
        for mask in 1..16u8 {
            let mut t = Table::new(4);
            t.keep_only(mask);
            for first in Side::ALL {
                let want = t.clockwise_from(first.seat()).collect::<Vec<_>>();
                assert_eq!(
                    seats(t.sides_from(first)),
                    want,
                    "{mask:04b} from {first:?}"
                );
            }
        }
        let mut t = Table::new(4);
        t.keep_only(0b1101);
        assert_eq!(seats(t.sides_from(Side::Confluence)), [2, 3, 0]);
        assert_eq!(seats(t.sides_from(Side::Seat3)), [3, 0, 2]);
    }

    #[test]
    fn the_next_seat_in_turn_skips_those_that_passed() {
        let t = Table::new(4);
        let passed = [false, true, true, false];
        let open = |s: Side| !passed[s.index()];
        // Seat 0 (Player) played: seats 1 and 2 passed, so seat 3 is next; after seat 3,
        // seat 0 again.
        assert_eq!(t.after(0).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(t.after(3).collect::<Vec<_>>(), [0, 1, 2]);
        let t2 = Table::new(2);
        assert_eq!(
            t2.next_after(Side::Player, |_| true),
            Some(Side::Confluence)
        );
        assert_eq!(t2.next_after(Side::Player, open), None);
        assert_eq!(t2.next_after(Side::Confluence, open), Some(Side::Player));
    }

    #[test]
    fn lanes_join_over_a_seat_that_left() {
        // Seats 0 and 2 remain: what faced seat 1 (0's Hero, 2's Companion) now faces each
        // other, a Hero facing a Companion; likewise over seat 3.
        let mut t = Table::new(4);
        t.keep_only(0b0101);
        assert_eq!(t.facing(0, H), Some((2, C)));
        assert_eq!(t.facing(2, C), Some((0, H)));
        assert_eq!(t.facing(0, C), Some((2, H)));
        assert_eq!(t.facing(2, H), Some((0, C)));
        // Neighbours 0 and 1 remain: their Hero lane stands, their Companions join over 2, 3.
        let mut t = Table::new(4);
        t.keep_only(0b0011);
        assert_eq!(t.facing(0, H), Some((1, H)));
        assert_eq!(t.facing(0, C), Some((1, C)));
        assert_eq!(t.facing(1, C), Some((0, C)));
        // Three remain: the ring closes over the gap.
        let mut t = Table::new(4);
        t.keep_only(0b0111);
        assert_eq!(t.facing(2, H), Some((0, C)));
        assert_eq!(t.facing(0, C), Some((2, H)));
        assert_eq!(t.facing(1, C), Some((2, C)));
        // Alone: nothing faces it.
        let mut t = Table::new(4);
        t.keep_only(0b0100);
        assert_eq!(t.facing(2, H), None);
    }

    #[test]
    fn the_first_to_meet_wins() {
        let t = Table::new(4);
        let pos = [at(3, 5), at(4, 4), at(2, 6), at(0, 7)];
        assert_eq!(t.day_end(&pos), Verdict::Wins(1));
        let pos = [at(3, 5), at(3, 4), at(2, 6), at(0, 7)];
        assert_eq!(t.day_end(&pos), Verdict::Continue);
    }

    #[test]
    fn further_than_needed_wins_among_several() {
        let t = Table::new(4);
        // Seat 3 crossed (advance 8), seat 0 just met (7).
        let pos = [at(4, 4), at(3, 6), at(1, 6), at(5, 4)];
        assert_eq!(t.day_end(&pos), Verdict::Wins(3));
    }

    #[test]
    fn equal_meetings_go_to_the_arena_among_the_furthest() {
        let t = Table::new(4);
        let pos = [at(4, 4), at(3, 3), at(5, 4), at(5, 4)];
        // Seats 2 and 3 went one region further than needed, equally: they play on.
        assert_eq!(t.day_end(&pos), Verdict::Arena(0b1100));
        let pos = [at(4, 4), at(3, 3), at(2, 6), at(1, 7)];
        assert_eq!(t.day_end(&pos), Verdict::Arena(0b0011));
        // Seats that left do not qualify.
        let mut t = t;
        t.keep_only(0b0010);
        assert_eq!(t.day_end(&pos), Verdict::Wins(1));
    }

    #[test]
    fn arena_most_terrains_wins() {
        let t = Table::new(4);
        let totals = [
            Stats::new(5, 1, 0),
            Stats::new(2, 4, 0),
            Stats::new(5, 0, 3),
            Stats::new(1, 1, 1),
        ];
        // Forest: 0 and 2 tie at the top; Mountain: 1; Water: 2. Seats 1 and 2 win one
        // terrain each: 0, 1 and 2 had a best total, seat 3 none and leaves.
        assert_eq!(t.arena_dusk(&totals), Verdict::Arena(0b0111));
        let totals = [
            Stats::new(5, 1, 0),
            Stats::new(2, 4, 0),
            Stats::new(6, 0, 3),
            Stats::new(1, 1, 1),
        ];
        assert_eq!(t.arena_dusk(&totals), Verdict::Wins(2));
    }

    #[test]
    fn arena_ties_keep_the_best_totals() {
        let mut t = Table::new(4);
        t.keep_only(0b1011);
        // Seats 0 and 3 tie on Forest and on Water; seat 1 is behind everywhere and
        // leaves. Seat 2 left before: its total does not count.
        let totals = [
            Stats::new(3, 0, 2),
            Stats::new(1, 0, 1),
            Stats::new(9, 9, 9),
            Stats::new(3, 0, 2),
        ];
        assert_eq!(t.arena_dusk(&totals), Verdict::Arena(0b1001));
        // Nobody has a total of 1 anywhere: all play on.
        let zero = [Stats::ZERO; 4];
        assert_eq!(t.arena_dusk(&zero), Verdict::Continue);
    }

    #[test]
    fn two_seat_arena_matches_the_standard_game() {
        // Head to head: more terrains won wins; otherwise both play on.
        let t = Table::new(2);
        let a = [Stats::new(3, 1, 0), Stats::new(1, 1, 2)];
        assert_eq!(t.arena_dusk(&a), Verdict::Continue);
        let b = [Stats::new(3, 2, 0), Stats::new(1, 1, 2)];
        assert_eq!(t.arena_dusk(&b), Verdict::Wins(0));
        let c = [Stats::new(3, 1, 2), Stats::new(3, 1, 2)];
        assert_eq!(t.arena_dusk(&c), Verdict::Continue);
    }
}
