//! Head-to-head Altered (digest §1–4): setting up a game between two player decks, standard
//! Dusk progress, the end-of-day victory check and the Arena tiebreaker. Everything else
//! (the day, playing cards, every ability) is the same engine as the Confluence mode; the
//! mode only says that neither side is scripted.
//!
//! Layer: part of [`crate::engine`]; may use `cards` and nothing else of the crate.

// The Dusk reports are the events' payloads (`engine::event`); named here too, beside the
// Dusk that fills them.
pub use super::event::{DuelDusk, DuelExpReport, FfaDusk};
use super::event::{Event, Observer};
use super::state::*;
use super::table::Verdict;
use super::triggers::Fire;
use super::{Engine, GameRng};
use crate::cards::db::CardDb;
use crate::cards::effect::CardIdx;
use crate::cards::types::*;

/// The two decks of a head-to-head game: seat A is side `Player`, seat B side `Confluence`
/// (the engine's second side; in this mode it is a player like the first).
#[derive(Copy, Clone, Debug)]
pub struct DuelSetup<'a> {
    pub heroes: [CardIdx; 2],
    pub cards: [&'a [CardIdx]; 2],
    /// The first player on day 1.
    pub first: Side,
    pub day_cap: u8,
    /// The variant's rule changes (Booster War), none in the standard game.
    pub variant: Variant,
    /// Each seat's deck keeps the order of its list, the first card on top (Booster War's
    /// technical variant); otherwise it is shuffled.
    pub ordered: [bool; 2],
}

/// Sets up a head-to-head game (digest §1): the Adventure, both decks shuffled (each from its
/// own stream), 6 cards drawn by each player, up to the first player's first Mana choice.
pub fn new_duel<O: Observer>(
    db: &CardDb,
    d: &DuelSetup<'_>,
    streams: [&mut GameRng; 2],
    rng: &mut GameRng,
    obs: &mut O,
) -> GameState {
    let [setup, second] = streams;
    let mut s = GameState::empty();
    s.mode = Mode::Duel;
    s.variant = d.variant;
    s.day_cap = d.day_cap;
    s.lay_out(
        db,
        [setup, second],
        (d.heroes[0], d.cards[0]),
        (d.heroes[1], d.cards[1]),
        [!d.ordered[0], !d.ordered[1]],
    );
    // `threatened` follows the token as in the Confluence mode (the policies read it).
    s.first = d.first;
    s.threatened = match d.first {
        Side::Player => Exp::Companion,
        _ => Exp::Hero,
    };
    open_table(&mut s, db, rng, obs);
    s
}

/// The opening of every head-to-head table, two seats or four (digest §1): the setup event,
/// 6 cards drawn by each seat clockwise from the first player, then the first player's
/// first Mana choice.
pub(super) fn open_table<O: Observer<N, M>, const N: usize, const M: usize>(
    s: &mut GameState<N, M>,
    db: &CardDb,
    rng: &mut GameRng,
    obs: &mut O,
) {
    let mut e = Engine { s, db, rng, obs };
    if O::ENABLED {
        e.emit(Event::Setup);
    }
    let first = e.s.first_player();
    for side in e.s.table.sides_from(first) {
        e.draw(side, 6);
    }
    s.phase = Phase::SetupMana;
    s.setup_left = 3;
    s.seat_step = 0;
}

/// One side's F/M/O in an expedition at Dusk (digest §4): its characters there and its
/// Gigantic ones, boosts included, Asleep ones not at all; also whether a Defender there
/// holds it. In the Arena, every character counts and Gigantic ones twice.
fn totals<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    side: Side,
    e: Option<Exp>,
) -> (Stats, bool) {
    let mut t = Stats::ZERO;
    let mut defender = false;
    let st = s.side(side);
    for x in 0..2 {
        for id in st.exp[x].iter() {
            if !db.card(s.obj(id).card).kind.is_character() {
                continue;
            }
            let times = match e {
                Some(e) if !s.counts_in(db, id, e) => continue,
                Some(_) => 1,
                None if s.has_kw(db, id, kw::GIGANTIC) => 2,
                None => 1,
            };
            if s.has_kw(db, id, kw::DEFENDER) {
                defender = true;
            }
            if s.has_kw(db, id, kw::ASLEEP) {
                continue;
            }
            for _ in 0..times {
                t = t + s.stats(db, id).clamp_zero();
            }
        }
    }
    (t, defender)
}

/// The terrain types of `region` that `mine` wins against `theirs`: at least 1 and strictly
/// more; an Ascended expedition also wins a tie of at least 1 (digest §4, 5.15).
pub fn terrains_won(mine: Stats, theirs: Stats, region: u8, ascend: bool) -> u8 {
    let mut won = 0u8;
    for t in [terrain::FOREST, terrain::MOUNTAIN, terrain::WATER] {
        let (m, o) = (mine.get(t), theirs.get(t));
        if region & t != 0 && m >= 1 && (m > o || (ascend && m == o)) {
            won |= t;
        }
    }
    won
}

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// Progress (digest §4): each expedition that wins a terrain of its region against the
    /// opposing expedition, and is not held, moves forward one region; all together. In the
    /// Arena, whoever wins more terrains with their total wins the game.
    #[inline(never)]
    pub(super) fn duel_progress(&mut self) {
        let db = self.db;
        if self.s.arena && self.s.mode == Mode::FreeForAll {
            self.ffa_arena_dusk();
            return;
        }
        if self.s.arena {
            let a = totals(self.s, db, Side::Player, None).0;
            let b = totals(self.s, db, Side::Confluence, None).0;
            if O::ENABLED {
                let all = terrain::ALL;
                let (ta, tb) = (
                    terrains_won(a, b, all, false),
                    terrains_won(b, a, all, false),
                );
                let r = DuelDusk {
                    arena: true,
                    arena_totals: [a, b],
                    arena_won: [ta, tb],
                    ..DuelDusk::default()
                };
                self.emit(Event::DuelDusk(&r));
            }
            match self.s.table.arena_dusk(&[a, b]) {
                Verdict::Wins(seat) => {
                    self.end(Outcome::seat_wins(Side::of_seat(seat)));
                    return;
                }
                // Two seats never part: with equal counts of terrains won, both had a
                // best total somewhere, or neither had.
                Verdict::Arena(keep) => self.seats_leave(keep),
                Verdict::Continue => {}
            }
            self.s.phase = Phase::Night;
            return;
        }
        // Per seat (four at most) and expedition; the seats still playing, clockwise from
        // the first player (the order in which the moves' reactions queue and the Tumult
        // cards turn; RULES.md F8), two seats as four.
        let mut won = [[0u8; 2]; 4];
        let mut go = [[false; 2]; 4];
        let mut report = DuelDusk::default();
        let mut table = FfaDusk {
            playing: self.s.table.playing(),
            ..FfaDusk::default()
        };
        let seats = self.s.table.sides_from(self.s.first_player());
        for side in seats {
            for e in Exp::BOTH {
                let region = self.s.pos_of(side).get(e) as usize;
                let terr = self.s.region_terrains(db, region);
                let (mine, defender) = totals(self.s, db, side, Some(e));
                // The expedition across the lane (the same expedition of the other seat).
                let across = self.s.table.facing(side.seat(), e);
                let theirs = match across {
                    Some((seat, fe)) => totals(self.s, db, Side::of_seat(seat), Some(fe)).0,
                    None => Stats::ZERO,
                };
                let ascended = self.s.ascended(side, e);
                let w = terrains_won(mine, theirs, terr, ascended);
                // A Will-o'-the-Wisp facing it (Dusk moves only thanks to {X} in an {X}
                // region): winning other terrains only does not move it.
                let need = self.s.duel_only_due_to(db, side, e, terr);
                let defender = defender && !self.s.defender_lifted_side(db, side, e);
                let blocked = self.s.expedition_blocked_of(db, side, e);
                let held = defender || blocked || (need != 0 && w & need == 0);
                won[side.index()][e.index()] = w;
                go[side.index()][e.index()] = w != 0 && !held;
                if O::ENABLED {
                    let r = DuelExpReport {
                        region: region as u8,
                        terrains: terr,
                        mine,
                        theirs,
                        won: w,
                        ascended,
                        defender,
                        blocked,
                        only_due_to: need,
                        advances: w != 0 && !held,
                    };
                    if N == 2 {
                        report.exps[side.index()][e.index()] = r;
                    } else {
                        table.exps[side.index()][e.index()] = r;
                        table.across[side.index()][e.index()] = across;
                    }
                }
            }
        }
        if O::ENABLED {
            if N == 2 {
                self.emit(Event::DuelDusk(&report));
            } else {
                self.emit(Event::FfaDusk(&table));
            }
        }
        for side in seats {
            for e in Exp::BOTH {
                let adv = go[side.index()][e.index()];
                self.s.today.seats[side].advanced.set(e, adv);
            }
        }
        // All advancing expeditions move together: no move changes another's verdict.
        for side in seats {
            for e in Exp::BOTH {
                if go[side.index()][e.index()] {
                    self.move_expedition_of(side, e, true);
                    // "It moves forward one more region instead" (The Magic Sleigh).
                    for _ in 0..self.s.dusk_extra_forward_of(db, side, e) {
                        if self.s.outcome.is_none() {
                            self.step_expedition_of(side, e, true);
                            self.check_caught();
                        }
                    }
                    self.fire(Fire::ExpMovedDue {
                        side,
                        exp: e,
                        due: won[side.index()][e.index()],
                    });
                } else {
                    self.fire(Fire::ExpFailed { side, exp: e });
                }
            }
        }
        self.s.phase = Phase::Night;
    }

    /// The end of a day (digest §4): when some player's expeditions have met or crossed,
    /// the higher score wins; equal scores start the Arena tiebreaker. Otherwise, or in a
    /// tie, the next day (a draw at the day cap). Booster War (D50) also ends after its
    /// last day by score, and a tie at the end of that day plays one more day, met
    /// expeditions or not (seed 003: "an additional day is played"), before the Arena.
    #[inline(never)]
    pub(super) fn duel_day_end(&mut self) {
        if self.s.mode == Mode::FreeForAll {
            self.ffa_day_end();
            return;
        }
        let met = |s: &GameState<N, M>, side: Side| {
            let p = s.pos_of(side);
            p.get(Exp::Hero) >= p.get(Exp::Companion)
        };
        if O::ENABLED {
            self.emit(Event::DuelDayEnd {
                scores: [self.s.score(Side::Player), self.s.score(Side::Confluence)],
                met: [met(self.s, Side::Player), met(self.s, Side::Confluence)],
            });
        }
        if !self.s.arena {
            let last = self.s.variant.last_day;
            let over = last > 0 && self.s.day >= last;
            if over || met(self.s, Side::Player) || met(self.s, Side::Confluence) {
                if self.won_by_score() {
                    return;
                }
                // Tied: the extra day after Booster War's last day comes first.
                if !(last > 0 && self.s.day == last) {
                    self.start_arena();
                }
            }
        }
        if self.s.day >= self.s.day_cap {
            self.end(Outcome::DayCap);
        } else {
            self.s.phase = Phase::Morning;
        }
    }

    /// Free for All's end of a day (digest §7.3, RULES.md F3): the seat whose
    /// expeditions met or crossed wins; of several, the one that went furthest; several
    /// that went equally far play an Arena day among them and the others leave the game.
    /// In the Arena the day ends only at the day cap: its Dusk decides.
    fn ffa_day_end(&mut self) {
        if !self.s.arena {
            let verdict = self.s.table.day_end(&self.s.pos.0);
            if O::ENABLED {
                self.emit(Event::FfaDayEnd { verdict });
            }
            match verdict {
                Verdict::Wins(seat) => {
                    self.end(Outcome::seat_wins(Side::of_seat(seat)));
                    return;
                }
                Verdict::Arena(keep) => {
                    self.seats_leave(keep);
                    self.start_arena();
                }
                Verdict::Continue => {}
            }
        }
        if self.s.day >= self.s.day_cap {
            self.end(Outcome::DayCap);
        } else {
            self.s.phase = Phase::Morning;
        }
    }

    /// Every seat outside `keep` (bit per seat) leaves the game: the table closes over it,
    /// and a pass it made no longer counts.
    fn seats_leave(&mut self, keep: u8) {
        self.s.table.keep_only(keep);
        self.s.passed &= keep;
    }

    /// Free for All's Arena Dusk (digest §7.3, RULES.md F5): each seat still playing sums
    /// all its characters; the seat that wins the most terrains wins, otherwise those with
    /// a best total play on (every seat, when none has one).
    fn ffa_arena_dusk(&mut self) {
        let mut t = [Stats::ZERO; 4];
        for side in self.s.table.sides_from(Side::Player) {
            t[side.index()] = totals(self.s, self.db, side, None).0;
        }
        if O::ENABLED {
            self.emit(Event::FfaDusk(&FfaDusk {
                arena: true,
                playing: self.s.table.playing(),
                arena_totals: t,
                ..FfaDusk::default()
            }));
        }
        match self.s.table.arena_dusk(&t[..N]) {
            Verdict::Wins(seat) => {
                self.end(Outcome::seat_wins(Side::of_seat(seat)));
                return;
            }
            Verdict::Arena(keep) => self.seats_leave(keep),
            Verdict::Continue => {}
        }
        self.s.phase = Phase::Night;
    }

    /// Ends the game if the scores differ (digest §4): the higher one wins.
    fn won_by_score(&mut self) -> bool {
        let (a, b) = (self.s.score(Side::Player), self.s.score(Side::Confluence));
        if a == b {
            return false;
        }
        let winner = if a > b {
            Side::Player
        } else {
            Side::Confluence
        };
        self.end(Outcome::seat_wins(winner));
        true
    }

    /// Equal scores: the Arena tiebreaker from the next day on.
    fn start_arena(&mut self) {
        self.s.arena = true;
        if O::ENABLED {
            self.emit(Event::Arena);
        }
    }
}

#[cfg(test)]
mod tests {
    //! Free for All's Dusk, day end and Arena through the engine, with four seats (RULES.md
    //! F3, F4, F5); the table's verdicts alone are `table::tests`.
    use super::*;
    use crate::engine::event::NoObserver;
    use rand::SeedableRng;

    type Ffa = GameState<4, 255>;

    /// An empty four-seat table at `phase`, every expedition at its start.
    fn ffa(phase: Phase) -> Ffa {
        let mut s = Ffa::empty();
        s.mode = Mode::FreeForAll;
        s.phase = phase;
        s
    }

    /// Runs one step of the day (Dusk's Progress or the end of the day) on `s`. Dusk reads
    /// the regions' cards, so it takes the real card table.
    fn step(s: &mut Ffa) {
        let db = match s.phase {
            Phase::Progress => {
                let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("decks/cards");
                crate::cards::Library::load(&dir)
                    .expect("the card table")
                    .db
            }
            _ => CardDb::new(),
        };
        let mut rng = GameRng::seed_from_u64(0);
        let mut e = Engine {
            s,
            db: &db,
            rng: &mut rng,
            obs: &mut NoObserver,
        };
        match e.s.phase {
            Phase::Progress => e.duel_progress(),
            _ => e.duel_day_end(),
        }
    }

    fn at(hero: i8, companion: i8) -> ByExp<i8> {
        ByExp([hero, companion])
    }

    #[test]
    fn the_one_seat_that_met_wins() {
        let mut s = ffa(Phase::Midnight);
        s.pos.0 = [at(3, 5), at(2, 6), at(4, 4), at(1, 7)];
        step(&mut s);
        assert_eq!(s.outcome, Some(Outcome::ThirdSeatWins));
    }

    #[test]
    fn nobody_met_the_next_day_then_the_cap() {
        let mut s = ffa(Phase::Midnight);
        s.pos.0 = [at(3, 5), at(2, 6), at(3, 4), at(1, 7)];
        step(&mut s);
        assert_eq!((s.outcome, s.phase), (None, Phase::Morning));
        s.day = s.day_cap;
        step(&mut s);
        assert_eq!(s.outcome, Some(Outcome::DayCap));
    }

    #[test]
    fn further_than_needed_wins_among_several() {
        // Seat 1 met exactly (advance 7), seat 3 crossed (5 + 4 = 9), seat 0 not at all.
        let mut s = ffa(Phase::Midnight);
        s.pos.0 = [at(3, 5), at(4, 4), at(2, 6), at(5, 3)];
        step(&mut s);
        assert_eq!(s.outcome, Some(Outcome::FourthSeatWins));
    }

    #[test]
    fn equally_furthest_play_the_arena_alone() {
        // Seats 0 and 3 both advanced 7 (seat 3's Hero one region further, its Companion
        // one less): neither went further; seats 1 and 2 did not meet and leave.
        let mut s = ffa(Phase::Midnight);
        s.pos.0 = [at(4, 4), at(3, 5), at(2, 6), at(5, 5)];
        step(&mut s);
        assert_eq!(s.outcome, None);
        assert!(s.arena);
        let playing: Vec<u8> = (0..4).filter(|&k| s.table.is_playing(k)).collect();
        assert_eq!(playing, [0, 3]);
        assert_eq!(s.phase, Phase::Morning);
        // The Arena's Dusk with no characters anywhere: nobody has a best total, both play
        // on (F5), and the end of that day decides nothing by positions.
        s.phase = Phase::Progress;
        step(&mut s);
        assert_eq!((s.outcome, s.phase), (None, Phase::Night));
        assert!(s.table.is_playing(0) && s.table.is_playing(3));
        s.phase = Phase::Midnight;
        step(&mut s);
        assert_eq!((s.outcome, s.phase), (None, Phase::Morning));
    }

    #[test]
    fn reactions_resolve_clockwise_from_the_initiative() {
        // RULES.md F8: seat 2 has the initiative; queued in seat order (as a loop over the
        // seats fires them), seat 2's resolve first, then seat 3's, seat 0's, seat 1's.
        let mut s = ffa(Phase::Night);
        s.first = Side::Seat2;
        for (k, seat) in [0u8, 1, 3, 2, 0, 3].into_iter().enumerate() {
            s.pending[k] = Pending {
                ability: k as u16,
                source: NO_OBJ,
                source_ts: 0,
                controller: Side::of_seat(seat),
                event_obj: NO_OBJ,
                free: false,
            };
        }
        s.n_pending = 6;
        let db = CardDb::new();
        let mut rng = GameRng::seed_from_u64(0);
        let mut e = Engine {
            s: &mut s,
            db: &db,
            rng: &mut rng,
            obs: &mut NoObserver,
        };
        let order: Vec<u16> = std::iter::from_fn(|| e.take_pending())
            .map(|p| p.ability)
            .collect();
        // Seat 2's (3), seat 3's (2, 5), seat 0's (0, 4), seat 1's (1).
        assert_eq!(order, [3, 2, 5, 0, 4, 1]);
    }

    #[test]
    fn an_empty_dusk_moves_no_seat() {
        // Four seats' Dusk goes through every lane; with no characters nothing wins a
        // terrain, so no expedition moves and each failed to (its triggers would fire).
        let mut s = ffa(Phase::Progress);
        step(&mut s);
        assert_eq!(s.phase, Phase::Night);
        assert!(s.pos.iter().all(|&p| p == at(0, 7)));
        assert!(s.today.seats.iter().all(|t| !t.advanced.get(Exp::Hero)));
    }
}
