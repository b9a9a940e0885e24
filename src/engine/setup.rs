//! Setting up a game (S0 "Setup", digest §6.1).
//!
//! Layer: part of [`crate::engine`]; may use `cards` and nothing else of the crate.

use rand::RngExt;

use super::event::{Event, Observer};
use super::state::*;
use super::{Engine, GameRng};
use crate::cards::db::CardDb;
use crate::cards::effect::CardIdx;
use crate::cards::types::*;

/// What one game is played with.
#[derive(Copy, Clone, Debug)]
pub struct Matchup<'a> {
    pub player_hero: CardIdx,
    pub player_cards: &'a [CardIdx],
    pub confluence_hero: CardIdx,
    pub confluence_cards: &'a [CardIdx],
    pub day_cap: u8,
}

/// The random streams of one game. Setup (adventure, then the player's deck) and the
/// Confluence's deck order come from their own streams so that a game index sees the same
/// shuffles in every configuration that shares those decks (common random numbers); a rare
/// takes its common twin's deck position.
pub struct SetupStreams<'a> {
    pub setup: &'a mut GameRng,
    pub confluence: &'a mut GameRng,
}

impl<const N: usize, const M: usize> GameState<N, M> {
    /// An empty state with nothing in any zone.
    pub fn empty() -> Self {
        let pending = Pending {
            ability: 0,
            source: NO_OBJ,
            source_ts: 0,
            controller: Side::Player,
            event_obj: NO_OBJ,
            free: false,
        };
        let m = TurnMod {
            side: Side::Player,
            filter: 0,
            discount: 0,
            boosts: 0,
            status: 0,
            flags: 0,
            min: 0,
            place: 0,
        };
        GameState {
            objs: [Obj::default(); M],
            sides: Seats([SideState::default(); N]),
            first_obj: Seats([0; N]),
            n_cards: Seats([0; N]),
            adventure: Adventure::layout([0, 1, 2], [false; 3]),
            pos: Seats([ByExp([0, 7]); N]),
            dark: ByExp([-1, 8]),
            mode: Mode::Confluence,
            variant: Variant::default(),
            decider: Side::Player,
            arena: false,
            table: super::table::Table::new(N as u8),
            seat_step: 0,
            threatened: Exp::Hero,
            first: Side::Confluence,
            day: 1,
            day_cap: 30,
            phase: Phase::SetupMana,
            to_act: Side::Confluence,
            passed: 0,
            decision: Decision::None,
            frames: [Frame::EMPTY; MAX_FRAMES],
            depth: 0,
            pending: [pending; 32],
            n_pending: 0,
            midnight_card: NO_OBJ,
            ts: 0,
            outcome: None,
            end_reported: false,
            today: Today::default(),
            mods: [m; 8],
            n_mods: 0,
            setup_left: 3,
            played: Seats([0; N]),
            plays: Seats([0; N]),
            statics: Seats([0; N]),
            listen: Seats([0; N]),
            rest_asked: false,
            overflow: false,
            rest_armed: false,
            rest_order: super::list::List::new(),
        }
    }

    /// Creates the objects of both sides: each hero in its Hero zone and every card in its
    /// owner's deck in the given order (last = top).
    pub fn place_decks(
        &mut self,
        db: &CardDb,
        player: (CardIdx, &[CardIdx]),
        confluence: (CardIdx, &[CardIdx]),
    ) {
        self.place_seats(db, &[player, confluence]);
    }

    /// Creates the objects of every seat, `decks[k]` being seat `k`'s hero and cards: each
    /// hero in its Hero zone and every card in its owner's deck in the given order (last =
    /// top). Object ids follow the seats and, within a seat, the hero then the list. The
    /// state must be empty ([`GameState::empty`]): the counts of statics and listeners are
    /// those of the objects placed (as [`GameState::recount_statics`] would find them).
    pub fn place_seats(&mut self, db: &CardDb, decks: &[(CardIdx, &[CardIdx])]) {
        self.statics = Seats([0; N]);
        self.listen = Seats([0; N]);
        debug_assert_eq!(decks.len(), N);
        // Two seats keep 64 slots a seat; four, 48 (hero included), so that ids fit a byte.
        let per_seat = Self::TOKEN_BASE / N;
        let mut next = 0usize;
        for (k, &(hero, cards)) in decks.iter().enumerate() {
            let side = Side::of_seat(k as u8);
            assert!(
                cards.len() < per_seat,
                "a side brings at most {} cards",
                per_seat - 1
            );
            self.first_obj[side] = next as u8;
            self.n_cards[side] = (cards.len() + 1) as u8;
            let hero_def = db.card(hero);
            let st = self.side_mut(side);
            st.hero = next as ObjId;
            st.reserve_limit = hero_def.reserve_limit;
            st.landmark_limit = hero_def.landmark_limit;
            self.objs[next] = Obj {
                card: hero,
                zone: Zone::HeroZone,
                side,
                flags: flag::KNOWN,
                ..Obj::default()
            };
            // The hero is the one object in play; every object listens where it is.
            let mut listen = hero_def.fire_mask;
            if hero_def.trigger_mask & crate::cards::effect::tmask::STATIC != 0 {
                self.statics[side] += 1;
            }
            next += 1;
            let first_card = next;
            // The deck's slots in one go (one bounds check for them all).
            for (o, &c) in self.objs[next..next + cards.len()].iter_mut().zip(cards) {
                *o = Obj {
                    card: c,
                    zone: Zone::Deck,
                    side,
                    ..Obj::default()
                };
                listen |= db.card(c).fire_mask;
            }
            next += cards.len();
            self.listen[side] |= listen;
            // The deck list in one go: the ids in order (capacity checked above).
            let ok = self
                .side_mut(side)
                .deck
                .push_range(first_card as ObjId, next as ObjId);
            debug_assert!(ok);
        }
        debug_assert!(next <= Self::TOKEN_BASE);
        #[cfg(debug_assertions)]
        {
            let mut copy = *self;
            copy.recount_statics(db);
            debug_assert_eq!((copy.statics, copy.listen), (self.statics, self.listen));
        }
    }
}

impl GameState {
    /// What every game's setup shares: the Adventure (three Tumult cards in random order
    /// and orientation, from `streams[0]`), both sides' objects, the heroes' starting
    /// counters and Terrain Markers, and each deck shuffled from its own stream.
    pub(super) fn lay_out(
        &mut self,
        db: &CardDb,
        streams: [&mut GameRng; 2],
        first: (CardIdx, &[CardIdx]),
        second: (CardIdx, &[CardIdx]),
        shuffle: [bool; 2],
    ) {
        self.lay_out_seats(db, streams, [first, second], shuffle);
    }
}

impl<const N: usize, const M: usize> GameState<N, M> {
    /// [`Self::lay_out`] for every seat of the table: seat `k` brings `decks[k]` and
    /// shuffles its deck from `streams[k]` (unless `shuffle[k]` is false), after
    /// `streams[0]` laid out the Adventure.
    pub(super) fn lay_out_seats(
        &mut self,
        db: &CardDb,
        streams: [&mut GameRng; N],
        decks: [(CardIdx, &[CardIdx]); N],
        shuffle: [bool; N],
    ) {
        let setup = &mut *streams[0];
        let mut tumult = [0u8, 1, 2];
        super::shuffle::shuffle(&mut tumult, setup);
        let flipped = [
            setup.random::<bool>(),
            setup.random::<bool>(),
            setup.random::<bool>(),
        ];
        self.adventure = Adventure::layout(tumult, flipped);
        // Object ids follow the deck lists (so per-card statistics can map them back); the
        // shuffle permutes positions only, so a rare sits where its common twin would.
        self.place_seats(db, &decks);
        for side in const { Side::seats::<N>() } {
            let hero = self.side(side).hero;
            if let Some(n) = start_counters(db, self.obj(hero).card) {
                self.obj_mut(hero).counters = n;
            }
        }
        // Each hero's Terrain Markers (the Confluence's hero has none; D47 head to head).
        self.start_markers(db);
        for (i, rng) in streams.into_iter().enumerate() {
            let deck = self.sides.0[i].deck.as_mut_slice();
            if shuffle[i] {
                super::shuffle::shuffle(deck, rng);
            } else {
                // An ordered deck: the list's first card on top (the deck's last slot).
                deck.reverse();
            }
        }
    }
}

/// The counters a hero begins the game with ("I begin the game with N counters"), if its
/// card says so.
pub fn start_counters(db: &CardDb, hero: CardIdx) -> Option<u8> {
    db.abilities_of(hero)
        .iter()
        .find_map(|ab| match ab.trigger {
            crate::cards::effect::Trigger::Static(crate::cards::effect::Static::StartCounters(
                n,
            )) => Some(n),
            _ => None,
        })
}

/// Sets up a game up to the player's first decision (which 3 opening cards go to Mana).
pub fn new_game<O: Observer>(
    db: &CardDb,
    m: &Matchup<'_>,
    streams: SetupStreams<'_>,
    rng: &mut GameRng,
    obs: &mut O,
) -> GameState {
    let mut s = GameState::empty();
    s.day_cap = m.day_cap;
    s.lay_out(
        db,
        [streams.setup, streams.confluence],
        (m.player_hero, m.player_cards),
        (m.confluence_hero, m.confluence_cards),
        [true, true],
    );
    let mut e = Engine {
        s: &mut s,
        db,
        rng,
        obs,
    };
    if O::ENABLED {
        e.emit(Event::Setup);
    }
    // The player draws 6 (3 go to Mana at the first decision).
    e.draw(Side::Player, 6);
    // The Confluence: 3 face-down Mana orbs, 1 card in hand, 1 face up in Reserve.
    for _ in 0..3 {
        if let Some(id) = e.take_top(Side::Confluence) {
            e.put_in_mana(id, true, super::event::Why::Setup);
        }
    }
    e.draw(Side::Confluence, 1);
    if let Some(id) = e.take_top(Side::Confluence) {
        e.move_to(
            id,
            Zone::Reserve,
            Exp::Hero,
            super::event::Why::Setup,
            false,
        );
    }
    s.threatened = Exp::Hero;
    s.first = GameState::first_with(s.threatened);
    s.phase = Phase::SetupMana;
    s.setup_left = 3;
    s
}
