//! One head-to-head game (standard Altered, two player decks, each with its policy).
//!
//! Layer: part of [`crate::sim`]; may use `cards`, `deck`, `engine`, `policy`, `stats` and nothing
//! else of the crate.

use crate::cards::db::CardDb;
use crate::cards::effect::CardIdx;
use crate::cards::types::Side;
use crate::engine::duel::{DuelSetup, new_duel};
use crate::engine::event::{NoObserver, Observer};
use crate::engine::view::View;
use crate::engine::{
    Choice, ChoiceList, GameRng, GameState, Step, Variant, advance, apply_unchecked, legal_choices,
};
use crate::policy::{AnyPolicy, Policy, PolicyRng};

use super::seed::{GameSeeds, splitmix64};

/// One seat of a head-to-head game: a player deck (hero and the other cards).
#[derive(Copy, Clone, Debug)]
pub struct DuelSeat<'a> {
    pub hero: CardIdx,
    pub cards: &'a [CardIdx],
    /// The deck keeps the order of `cards`, the first on top (Booster War's technical
    /// variant); otherwise it is shuffled.
    pub ordered: bool,
}

/// The rules of a head-to-head game: the day cap and the variant (Booster War's changes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DuelRules {
    pub day_cap: u8,
    pub variant: Variant,
}

impl DuelRules {
    /// The standard game with a day cap.
    pub fn standard(day_cap: u8) -> DuelRules {
        DuelRules {
            day_cap,
            variant: Variant::default(),
        }
    }
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
    /// Per seat, a bit per card of its list (`cards[k]` = bit k) that it played.
    pub played: [u64; 2],
    /// The game went to the Arena tiebreaker.
    pub arena: bool,
    /// More reactions triggered at once than the engine queues, so some were never
    /// resolved (`GameState::overflow`): the game was played to its end but does not follow
    /// the rules. `matchup` and `booster-war` count such games (`engine_errors`).
    pub engine_error: bool,
}

fn side_of(seat: u8) -> Side {
    if seat == 0 {
        Side::Player
    } else {
        Side::Confluence
    }
}

/// The streams of one head-to-head game: the Adventure and seat A's deck from the setup
/// stream, seat B's deck from the second deck stream, each seat's policy from its own.
pub fn start_duel<O: Observer>(
    db: &CardDb,
    seats: [DuelSeat<'_>; 2],
    first: u8,
    rules: DuelRules,
    seeds: &GameSeeds,
    obs: &mut O,
) -> (GameState, GameRng) {
    let mut setup = GameSeeds::rng(seeds.setup);
    let mut second = GameSeeds::rng(seeds.confluence);
    let mut rng = GameSeeds::rng(seeds.events);
    let d = DuelSetup {
        heroes: [seats[0].hero, seats[1].hero],
        cards: [seats[0].cards, seats[1].cards],
        first: side_of(first),
        day_cap: rules.day_cap,
        variant: rules.variant,
        ordered: [seats[0].ordered, seats[1].ordered],
    };
    let s = new_duel(db, &d, [&mut setup, &mut second], &mut rng, obs);
    (s, rng)
}

/// Plays one head-to-head game from setup to the end. `first` is the seat that plays first
/// on day 1; every random draw comes from `seeds`; `buf` is reused between decisions.
pub fn play_duel(
    db: &CardDb,
    seats: [DuelSeat<'_>; 2],
    first: u8,
    rules: DuelRules,
    seeds: &GameSeeds,
    policies: [&mut AnyPolicy; 2],
    buf: &mut ChoiceList,
) -> DuelResult {
    let game = DuelGame {
        seats,
        first,
        rules,
        seeds,
    };
    play_duel_with(db, &game, policies, buf, &mut NoObserver, |_, _, _, _| {})
}

/// What decides a head-to-head game: the seats, the first player, the rules and the seeds.
#[derive(Copy, Clone, Debug)]
pub struct DuelGame<'a> {
    pub seats: [DuelSeat<'a>; 2],
    pub first: u8,
    pub rules: DuelRules,
    pub seeds: &'a GameSeeds,
}

/// The policy streams of a head-to-head game's two seats (seat A's first): a game played
/// with the same choices draws the same policy decisions (`play` plays seat B so).
pub fn seat_policy_rngs(seeds: &GameSeeds) -> [PolicyRng; 2] {
    [
        seeds.policy_rng(),
        <PolicyRng as rand::SeedableRng>::seed_from_u64(splitmix64(seeds.policy ^ 0xb)),
    ]
}

/// [`play_duel`] watched: `obs` sees every event and `decided` every decision, with the
/// state before it, the legal options and the index chosen (`replay` writes its log so).
pub fn play_duel_with<O: Observer>(
    db: &CardDb,
    g: &DuelGame<'_>,
    policies: [&mut AnyPolicy; 2],
    buf: &mut ChoiceList,
    obs: &mut O,
    mut decided: impl FnMut(&mut O, &GameState, &[Choice], usize),
) -> DuelResult {
    let (seeds, first) = (g.seeds, g.first);
    let (mut s, mut rng) = start_duel(db, g.seats, first, g.rules, seeds, obs);
    let mut prng = seat_policy_rngs(seeds);
    let [pa, pb] = policies;
    loop {
        match advance(&mut s, db, &mut rng, obs) {
            Step::Over(outcome) => {
                return DuelResult {
                    engine_error: s.overflow,
                    winner: outcome.winner().map(|side| side.index() as u8),
                    first,
                    days: s.day,
                    plays: s.plays.0,
                    played: s.played.0,
                    arena: s.arena,
                };
            }
            Step::Stopped => unreachable!("advance never stops early"),
            Step::Decide => {
                legal_choices(&s, db, buf);
                debug_assert!(!buf.is_empty(), "decision {:?} with no options", s.decision);
                let seat = s.decider.index();
                let k = if buf.len() == 1 {
                    0
                } else {
                    let view = View::new(&s, db);
                    match seat {
                        0 => pa.choose(&view, buf, &mut prng[0]),
                        _ => pb.choose(&view, buf, &mut prng[1]),
                    }
                };
                decided(obs, &s, buf, k);
                apply_unchecked(&mut s, db, &mut rng, obs, buf[k]);
            }
        }
    }
}
