//! The game state: a plain `Copy` value with fixed-capacity zones and no heap data.
//!
//! Every physical card is an object slot (player cards first, then the Confluence's, then
//! token slots). A slot keeps its id when the card changes zones; "a new zone is a new
//! object" is modelled by a fresh timestamp and by clearing statuses and counters.
//!
//! Layer: part of [`crate::engine`]; may use `cards` and nothing else of the crate.

use super::list::List;
pub use super::list::{NO_OBJ, ObjId};
use crate::cards::effect::CardIdx;
use crate::cards::types::{ByExp, Exp, Seats, Side};

/// No expedition chosen by `select_exp`.
pub const NO_SEL: u8 = u8::MAX;
/// No opponent chosen yet for a running effect (`Frame::opp`).
pub const NO_SEAT: u8 = u8::MAX;

/// Object slots: each side's cards (hero included, at most 64 each) then token slots.
pub const MAX_OBJS: usize = 192;
pub const TOKEN_BASE: usize = 128;

/// Zone capacity. A side owns at most 64 cards, so every card zone fits; expeditions also
/// hold tokens, whose creation fails quietly when an expedition is full.
pub const ZONE_CAP: usize = 64;
pub type Zone64 = List<ZONE_CAP>;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum Zone {
    /// A free token slot, or a card not in this game.
    #[default]
    None,
    Deck,
    Hand,
    Reserve,
    Landmarks,
    Expedition,
    Mana,
    Discard,
    HeroZone,
    Limbo,
    Midnight,
}

impl Zone {
    pub fn name(self) -> &'static str {
        match self {
            Zone::None => "none",
            Zone::Deck => "deck",
            Zone::Hand => "hand",
            Zone::Reserve => "reserve",
            Zone::Landmarks => "landmarks",
            Zone::Expedition => "expedition",
            Zone::Mana => "mana",
            Zone::Discard => "discard",
            Zone::HeroZone => "hero",
            Zone::Limbo => "limbo",
            Zone::Midnight => "midnight",
        }
    }
}

/// Object flags. The low bits are the `kw` statuses (fleeting, anchored, asleep, ...) an
/// object has gained; the high bits are engine bookkeeping.
pub mod flag {
    pub use crate::cards::types::kw::*;
    pub const EXHAUSTED: u32 = 1 << 16;
    pub const TOKEN: u32 = 1 << 17;
    /// The player has seen this card's identity (for determinization).
    pub const KNOWN: u32 = 1 << 18;
    /// Overcome at this Dusk, facing the Hero / Companion expedition.
    pub const OVERCOME_HERO: u32 = 1 << 19;
    pub const OVERCOME_COMPANION: u32 = 1 << 20;
    /// Going to Reserve at this Rest, its place in the order not yet chosen.
    pub const RESTING: u32 = 1 << 21;
    /// It lost Fleeting, a printed or granted one included (digest 5.1).
    pub const LOST_FLEETING: u32 = 1 << 22;
    /// Its after-Rest ability (`night_after_rest`) triggered this Night and waits for the end
    /// of Rest (kept when the card changes zones at Rest).
    pub const AFTER_REST: u32 = 1 << 23;
    /// Its `after_rest` abilities trigger after this Night's Rest (`delay_rest`). Kept
    /// when the card changes zones (it usually goes to Reserve at that Rest).
    pub const DELAY_REST: u32 = 1 << 24;
    /// "You may put me in Mana instead": the controller has answered (MANA_YES: yes), or
    /// is being asked about this card (MANA_ASKING), for the move about to happen.
    pub const MANA_ASKED: u32 = 1 << 25;
    pub const MANA_YES: u32 = 1 << 26;
    pub const MANA_ASKING: u32 = 1 << 27;
    /// Played from Reserve (until it changes zones): its Base Cost is its Reserve Cost.
    pub const FROM_RESERVE: u32 = 1 << 28;
    /// Played with its own alternative cost (`alt_less`), until it changes zones.
    pub const PAID_LESS: u32 = 1 << 29;
    /// A card controlled by the side that does not own it (it defected, or was played from
    /// the opponent's Reserve): `side` is its controller, the other side its owner. Only in
    /// play (or Limbo); it goes back to its owner's zones when it leaves play.
    pub const BORROWED: u32 = 1 << 30;
    /// Statuses that belong to one object and are lost when the card changes zones.
    pub const ZONE_LOCAL: u32 = FLEETING
        | ANCHORED
        | ASLEEP
        | ETERNAL
        | GIGANTIC
        | DEFENDER
        | SEASONED
        | PERSISTENT
        | CONSTANT
        | TOUGH
        | EXHAUSTED
        | OVERCOME_HERO
        | OVERCOME_COMPANION
        | FROM_RESERVE
        | PAID_LESS
        | MANA_ASKED
        | MANA_YES
        | MANA_ASKING
        | LOST_FLEETING;
}

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Obj {
    pub card: CardIdx,
    pub flags: u32,
    pub ts: u16,
    pub zone: Zone,
    pub side: Side,
    /// The expedition, when in the Expedition zone (for the Confluence: the player
    /// expedition it faces).
    pub exp: Exp,
    pub boosts: u8,
    pub counters: u8,
    /// Tough granted by an effect (printed Tough is on the card).
    pub tough: u8,
    /// Last known information from when it last left play (Expedition or Landmark zone):
    /// its boosts and its statuses and keywords (the low `kw` bits). `exp` keeps the
    /// expedition it left. These fill the struct's padding: `Obj` stays 16 bytes.
    pub left_boosts: u8,
    pub left_kw: u8,
}

impl Obj {
    #[inline]
    pub fn has(&self, f: u32) -> bool {
        self.flags & f != 0
    }
    #[inline]
    pub fn is_token(&self) -> bool {
        self.flags & flag::TOKEN != 0
    }
}

/// One side's zones. Orders: deck top = last; the Confluence's hand top = first; Reserve,
/// Landmarks and expeditions in Silver Rule order (first = leftmost = oldest).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SideState {
    pub deck: Zone64,
    pub hand: Zone64,
    pub reserve: Zone64,
    pub landmarks: Zone64,
    pub exp: [Zone64; 2],
    pub mana: Zone64,
    pub discard: Zone64,
    pub hero: ObjId,
    pub mana_ready: u8,
    pub reserve_limit: u8,
    pub landmark_limit: u8,
}

impl SideState {
    /// Its objects in play: the hero, then both expeditions, then the landmarks.
    pub fn in_play(&self) -> impl Iterator<Item = ObjId> + '_ {
        std::iter::once(self.hero)
            .chain(self.exp[0].iter())
            .chain(self.exp[1].iter())
            .chain(self.landmarks.iter())
    }
}

/// The Adventure: 8 regions (0 = Hero region, 7 = Companion region).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Adventure {
    /// Printed terrain bits of each region.
    pub terrain: [u8; 8],
    /// Which Tumult card (0 = F|M+O, 1 = M|F+O, 2 = O|F+M) sits in slot k (regions 2k+1, 2k+2).
    pub tumult: [u8; 3],
    /// Slot k's single-terrain half faces the Companion end (region 2k+2).
    pub flipped: [bool; 3],
    /// Bit k: Tumult slot k has been revealed.
    pub revealed: u8,
    /// Terrain types added to a region by effects (their points pay any requirement).
    pub added: [u8; 8],
    /// Non-zero: the region's terrain was replaced by these types only (a Terrain Marker:
    /// one type).
    pub replaced: [u8; 8],
    /// Each hero's Terrain Markers not yet placed: terrain bits, three a seat (seat 0, the
    /// player's, in bits 0-2; seat 1's in bits 3-5; Free for All's seats 2 and 3 above;
    /// see [`Adventure::supply_of`]).
    pub supply: u16,
}

impl Adventure {
    /// The Terrain Markers `side`'s hero has not placed yet (terrain bits).
    #[inline]
    pub fn supply_of(&self, side: Side) -> u8 {
        ((self.supply >> (3 * side.index())) & 0b111) as u8
    }

    /// Gives `side`'s hero these Terrain Markers (terrain bits) or, `give` false, takes
    /// them away.
    #[inline]
    pub fn set_supply(&mut self, side: Side, bits: u8, give: bool) {
        let b = ((bits & 0b111) as u16) << (3 * side.index());
        if give {
            self.supply |= b;
        } else {
            self.supply &= !b;
        }
    }

    pub const TUMULT_CARDS: [(u8, u8); 3] = {
        use crate::cards::types::terrain::*;
        [
            (FOREST, MOUNTAIN | WATER),
            (MOUNTAIN, FOREST | WATER),
            (WATER, FOREST | MOUNTAIN),
        ]
    };

    /// Lays out the printed terrains from the tumult order and orientations.
    pub fn layout(tumult: [u8; 3], flipped: [bool; 3]) -> Adventure {
        use crate::cards::types::terrain::ALL;
        let mut terrain = [ALL; 8];
        for k in 0..3 {
            let (single, double) = Self::TUMULT_CARDS[tumult[k] as usize];
            let (a, b) = if flipped[k] {
                (double, single)
            } else {
                (single, double)
            };
            terrain[2 * k + 1] = a;
            terrain[2 * k + 2] = b;
        }
        Adventure {
            terrain,
            tumult,
            flipped,
            revealed: 0,
            added: [0; 8],
            replaced: [0; 8],
            supply: 0,
        }
    }

    /// The region is visible (end regions always; tumult halves once revealed).
    #[inline]
    pub fn is_revealed(&self, region: usize) -> bool {
        region == 0 || region == 7 || self.revealed & (1 << ((region - 1) / 2)) != 0
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The player puts 3 of their 6 opening cards into Mana.
    SetupMana,
    Morning,
    Expand,
    ConfluenceDraw,
    Noon,
    AfternoonStart,
    /// `to_act` takes a turn.
    Turn,
    /// The Confluence uses its quick actions (cursor over its candidate abilities).
    ConfluenceQuick(u16),
    ConfluencePlay,
    TurnEnd,
    Dusk,
    Progress,
    Night,
    Rest,
    Cleanup,
    Midnight,
}

/// What the engine is waiting for the player to decide.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    None,
    /// Choose an opening card to put into Mana (asked three times).
    SetupMana,
    /// Put a card from hand into Mana, or not.
    Expand,
    /// Afternoon: a quick action, a card to play, or pass.
    Turn,
    /// A target for the running ability (or Done when enough are chosen).
    Target,
    /// An expedition for the running ability.
    Expedition,
    /// A "may" or an optional cost: yes or no.
    May,
    /// A mode of a "choose one".
    Mode,
    /// Which die to keep when rolling an extra die.
    Die,
    /// A card from hand to play for free (or Done to play none).
    PlayFree,
    /// A card from hand for the running ability (or a cost).
    HandCard,
    /// A card from Reserve for a cost.
    ReserveCard,
    /// Which of the two revealed top cards goes to Reserve (the other is discarded).
    ResupplyPick,
    /// A character to sacrifice for a cost.
    Sacrifice,
    /// Rest: the next of a side's cards to enter its Reserve (S0, Silver Rule: the player
    /// orders simultaneous moves; the order decides what Clean-up discards as leftmost).
    RestOrder,
    /// Clean-up: a Reserve card to discard (asked until at the limit).
    CleanupReserve,
    /// Clean-up: a Landmark to discard.
    CleanupLandmark,
    /// Free for All: which opponent an effect that names "an opponent" or "the opposing"
    /// expedition concerns, asked of its controller once per effect (never with two seats,
    /// where it is the one opponent).
    Seat,
}

/// A triggered ability waiting to resolve.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    pub ability: u16,
    pub source: ObjId,
    pub source_ts: u16,
    pub controller: Side,
    pub event_obj: ObjId,
    /// From a card played for free: its targets' Tough is waived.
    pub free: bool,
}

/// The ability being resolved: a program counter into its body and a few registers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub ability: u16,
    pub pc: u16,
    pub source: ObjId,
    pub source_ts: u16,
    pub controller: Side,
    pub event_obj: ObjId,
    /// Objects selected by the last `Select`.
    pub it: List<{ crate::cards::effect::MAX_TARGETS }>,
    /// A chosen expedition, consumed by the op that asked for it.
    pub exp_reg: Option<Exp>,
    /// The expedition chosen by `select_exp`: side index * 2 + expedition index, or
    /// `NO_SEL`.
    pub sel_exp: u8,
    pub x: i16,
    pub did: bool,
    /// A Spell in Limbo, put away when the body ends.
    pub spell: ObjId,
    /// Multi-step op in progress (selection, optional cost payment, repeated choices).
    pub step: u8,
    pub count: u8,
    /// Dice rolled for an extra-die choice.
    pub dice: [u8; 2],
    /// From a card played for free: its targets' Tough is waived (digest 5.6).
    pub free: bool,
    /// Any number of targets, chosen one at a time: only objects with a later timestamp
    /// are still offered.
    pub cursor: u16,
    /// Repetitions left of a `repeat AMOUNT` loop (of a `repeat any` loop: rounds left
    /// before its guard, 255 at its start).
    pub loops: u8,
    /// Free for All: the opponent this effect concerns, once its controller chose it
    /// (`NO_SEAT` before; with two seats never read: the one opponent).
    pub opp: u8,
}

impl Frame {
    pub const EMPTY: Frame = Frame {
        ability: 0,
        pc: 0,
        source: NO_OBJ,
        source_ts: 0,
        controller: Side::Player,
        event_obj: NO_OBJ,
        it: List::new(),
        exp_reg: None,
        sel_exp: NO_SEL,
        x: 0,
        did: false,
        spell: NO_OBJ,
        step: 0,
        count: 0,
        dice: [0; 2],
        free: false,
        cursor: 0,
        loops: 0,
        opp: NO_SEAT,
    };
}

/// Abilities can nest (an ability that plays a Spell for free): at most this deep.
pub const MAX_FRAMES: usize = 4;

/// Per-turn cost reductions and boosts ("the next Permanent you play this turn ...").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TurnMod {
    pub side: Side,
    pub filter: u16,
    pub discount: i8,
    pub boosts: i8,
    /// Statuses the next matching character gains (or, with `lose`, the next matching
    /// card loses).
    pub status: u32,
    /// `modflag` bits: lasts the whole Afternoon, loses Fleeting, activates {R}, free.
    pub flags: u8,
    /// The discount never takes the cost below this (0: no minimum).
    pub min: u8,
    /// `modplace` bits: only a character going into that expedition of the side takes it
    /// (none: any), and a token created there takes it too ("the next Character that
    /// joins my Expedition").
    pub place: u8,
}

impl TurnMod {
    /// A modifier of `side`'s for the cards matching `filter` that does nothing yet: each
    /// op sets the fields it means (`TurnMod { boosts: n, ..TurnMod::of(side, filter) }`).
    pub fn of(side: Side, filter: u16) -> TurnMod {
        TurnMod {
            side,
            filter,
            discount: 0,
            boosts: 0,
            status: 0,
            flags: 0,
            min: 0,
            place: 0,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player's expeditions met or crossed.
    WinMet,
    /// The Confluence had to draw with an empty deck and an empty discard pile.
    WinDeckOut,
    /// The Darkness behind the Hero expedition caught it.
    LossHeroDarkness,
    /// The Darkness behind the Companion expedition caught it.
    LossCompanionDarkness,
    /// The day cap was reached without a result.
    DayCap,
    /// A card's ability won the game for the player ("You win the game": Lyra Festival).
    WinByCard,
    /// A card's ability won the game for the Confluence.
    LossByCard,
    /// Head-to-head: the first seat (side `Player`) won; the second seat won. A drawn
    /// head-to-head game ends with `DayCap`. Not in [`Outcome::ALL`], the Confluence
    /// mode's outcomes that the run statistics count.
    FirstSeatWins,
    SecondSeatWins,
    /// Free for All: the third seat won; the fourth seat won.
    ThirdSeatWins,
    FourthSeatWins,
}

impl Outcome {
    pub const ALL: [Outcome; 7] = [
        Outcome::WinMet,
        Outcome::WinDeckOut,
        Outcome::LossHeroDarkness,
        Outcome::LossCompanionDarkness,
        Outcome::DayCap,
        Outcome::WinByCard,
        Outcome::LossByCard,
    ];

    pub fn is_win(self) -> bool {
        matches!(
            self,
            Outcome::WinMet | Outcome::WinDeckOut | Outcome::WinByCard | Outcome::FirstSeatWins
        )
    }

    pub fn is_loss(self) -> bool {
        matches!(
            self,
            Outcome::LossHeroDarkness
                | Outcome::LossCompanionDarkness
                | Outcome::LossByCard
                | Outcome::SecondSeatWins
                | Outcome::ThirdSeatWins
                | Outcome::FourthSeatWins
        )
    }

    pub fn result(self) -> &'static str {
        if self.is_win() {
            "win"
        } else if self.is_loss() {
            "loss"
        } else {
            "day_cap"
        }
    }

    pub fn cause(self) -> &'static str {
        match self {
            Outcome::WinMet => "expeditions_met",
            Outcome::WinDeckOut => "confluence_deck_out",
            Outcome::LossHeroDarkness => "hero_darkness",
            Outcome::LossCompanionDarkness => "companion_darkness",
            Outcome::DayCap => "day_cap",
            Outcome::WinByCard => "card_win",
            Outcome::LossByCard => "card_loss",
            Outcome::FirstSeatWins => "first_seat_wins",
            Outcome::SecondSeatWins => "second_seat_wins",
            Outcome::ThirdSeatWins => "third_seat_wins",
            Outcome::FourthSeatWins => "fourth_seat_wins",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// Head-to-head and Free for All: the outcome in which `side` wins.
    pub fn seat_wins(side: Side) -> Outcome {
        match side {
            Side::Player => Outcome::FirstSeatWins,
            Side::Confluence => Outcome::SecondSeatWins,
            Side::Seat2 => Outcome::ThirdSeatWins,
            Side::Seat3 => Outcome::FourthSeatWins,
        }
    }

    /// Head-to-head and Free for All: the winning side (`None`: not a seat's win).
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::FirstSeatWins => Some(Side::Player),
            Outcome::SecondSeatWins => Some(Side::Confluence),
            Outcome::ThirdSeatWins => Some(Side::Seat2),
            Outcome::FourthSeatWins => Some(Side::Seat3),
            _ => None,
        }
    }
}

/// What happened today that later steps read.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Today<const N: usize = 2> {
    /// Each seat's expeditions (in Confluence mode seat 0's, the player's; the Confluence's
    /// expedition permanents read the player expedition they face).
    pub seats: Seats<SeatToday, N>,
    /// It overcame everything including the terrain at this Dusk.
    pub cleared: ByExp<bool>,
    /// The Darkness cannot advance on this side today (an effect).
    pub dark_blocked: ByExp<bool>,
    /// Held at this Dusk: a player Defender expedition cleared, or a "can't move forward
    /// except due to X" limit was met; the Darkness on that side does not advance at the
    /// coming Midnight.
    pub defended: ByExp<bool>,
    /// Terrain types whose every requirement facing this expedition (objects and region)
    /// was overcome at this Dusk (for "moves forward except due to").
    pub fully_overcome: ByExp<u8>,
    /// Bits per seat (character, permanent, spell; four a seat): a card matching a "first
    /// ... each Afternoon" trigger was played.
    pub first_play_seen: u16,
    /// Quick actions used today (a loop guard, S1 1.4.6).
    pub quick_uses: u16,
    /// Reactions resolved today (a loop guard, S1 1.4.6).
    pub reactions: u16,
    /// Cards each side played today (a loop guard under unlimited mana, D51).
    pub plays: Seats<u8, N>,
    /// Per side, "this Day, Characters with Hand Cost N or more you control are Tough T":
    /// (N, T), T = 0 for none.
    pub day_tough: Seats<(u8, u8), N>,
    /// Tokens to create after this day's Rest ("... in target Expedition after Rest"):
    /// (token card, n | expedition << 4 | side << 5); n = 0 is an empty slot.
    pub after_rest: [(u16, u8); 2],
    /// Each side's last die result today (for "when you roll ... if the result is N+").
    pub last_roll: Seats<u8, N>,
}

/// What happened today to one seat's expeditions.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatToday {
    /// It moved forward today (at Dusk or by an effect).
    pub moved: ByExp<bool>,
    /// It advanced at this Dusk (Midnight "Progressing", interpretation A16).
    pub advanced: ByExp<bool>,
    /// It Ascends until Rest.
    pub ascend: ByExp<bool>,
    /// It can't move forward for the rest of the day.
    pub no_forward: ByExp<bool>,
}

/// Which game is played. The engine is one set of rules; the mode says which side is
/// scripted and how a day ends.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Mode {
    /// Altered Confluence: the player against the scripted Confluence side.
    #[default]
    Confluence,
    /// Standard Altered, one player against another: both sides are policy-driven.
    Duel,
    /// Free for All (digest §7.1, §7.3): four players, each racing its two neighbours.
    FreeForAll,
}

impl Mode {
    /// Every seat is a player (head to head, Free for All): no side is scripted, and the
    /// players' expeditions race one another's rather than the Darkness.
    #[inline]
    pub fn versus(self) -> bool {
        self != Mode::Confluence
    }
}

/// The rule changes of a head-to-head variant (Booster War, digest §7.4). The default is
/// the standard game (and the Confluence mode, which never sets one).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Unlimited mana: every cost in mana is 0, Tough is waived, and no card goes to Mana
    /// (neither on day 1 nor at Expand; D49) unless `mana_setup`.
    pub free_mana: bool,
    /// Under unlimited mana, day 1's Mana and Expand still happen (the seed's "usual
    /// rules" read literally; `booster-war --day-one-mana`): Mana Orbs then count where a
    /// card counts them (Tomoe Gozen).
    pub mana_setup: bool,
    /// Cards each player draws in the Morning; 0 = the standard 2.
    pub morning_draw: u8,
    /// The game ends after this day (0 = no such end): the higher score wins; a tie plays
    /// one more day with no draws, and a tie after it goes to the Arena (D50).
    pub last_day: u8,
}

impl Variant {
    /// Booster War (seed 003): unlimited mana, 3 cards each Morning, 4 days.
    pub const BOOSTER_WAR: Variant = Variant {
        free_mana: true,
        mana_setup: false,
        morning_draw: 3,
        last_day: 4,
    };
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameState<const N: usize = 2, const M: usize = MAX_OBJS> {
    pub objs: [Obj; M],
    pub sides: Seats<SideState, N>,
    /// First object id of each side's cards, and how many cards (hero included).
    pub first_obj: Seats<u8, N>,
    pub n_cards: Seats<u8, N>,
    pub adventure: Adventure,
    /// Each seat's expedition regions: Hero moves 0 → 7, Companion 7 → 0 (in Confluence
    /// mode only seat 0, the player, has expeditions).
    pub pos: Seats<ByExp<i8>, N>,
    /// Darkness positions: behind the Hero at -1 (moving up), behind the Companion at 8.
    pub dark: ByExp<i8>,
    pub mode: Mode,
    /// Head-to-head: the variant's rule changes (none in the standard game).
    pub variant: Variant,
    /// The side that makes the pending decision (always the player in Confluence mode).
    pub decider: Side,
    /// Head-to-head: the scores tied at the end of a day; the Arena tiebreaker is on.
    pub arena: bool,
    /// The seats and which of them still play: who faces whom, and the tiebreaker's verdicts.
    pub table: super::table::Table,
    /// Head-to-head: the seat whose turn it is in a phase each seat goes through in turn
    /// (setup Mana, Expand), counted clockwise from the first player (0: the first player).
    pub seat_step: u8,
    /// The Confluence mode's Threatened expedition; it alternates each Morning, and head to
    /// head it still does (the policies' features read it), following the token.
    pub threatened: Exp,
    /// The first player (who holds the first-player token): it passes left each Morning
    /// (digest §7.1; with two seats, to the other seat).
    pub first: Side,
    pub day: u8,
    pub day_cap: u8,
    pub phase: Phase,
    pub to_act: Side,
    /// The seats that passed this Afternoon, a bit per seat ([`GameState::has_passed`]).
    pub passed: u8,
    pub decision: Decision,
    /// Running abilities, innermost last (`depth` of them).
    pub frames: [Frame; MAX_FRAMES],
    pub depth: u8,
    pub pending: [Pending; 32],
    pub n_pending: u8,
    pub midnight_card: ObjId,
    pub ts: u16,
    pub outcome: Option<Outcome>,
    /// The end has been reported to the observer.
    pub end_reported: bool,
    pub today: Today<N>,
    pub mods: [TurnMod; 8],
    pub n_mods: u8,
    pub setup_left: u8,
    /// Bit per deck slot (object id minus the side's first id) that was played this game.
    pub played: Seats<u64, N>,
    /// Cards played this game, per side.
    pub plays: Seats<u16, N>,
    /// Objects in play (hero, expeditions, landmarks) with static abilities, per side. When
    /// zero, the engine skips every scan for auras, cost and terrain statics.
    pub statics: Seats<u8, N>,
    /// Per side, the `fire_class` bits some of its objects may listen to: the union over
    /// the cards of every object it has had (a superset, never less), so `fire` skips a
    /// side that cannot react to what happened without walking its objects.
    pub listen: Seats<u32, N>,
    /// Rest has marked the cards whose order into Reserve the player chooses.
    pub rest_asked: bool,
    /// More reactions triggered at once than the queue holds: some were not queued. An
    /// error, not a rule (D13): a game that sets it is an engine error
    /// (`sim::GameResult::engine_error`, counted by runs in `summary`), and the scenario
    /// runner refuses it unless the scenario expects `engine_error`.
    pub overflow: bool,
    /// Some object carries `AFTER_REST` or `DELAY_REST`: the scans after Rest are needed
    /// (without it every Night would scan every object twice, a measurable cost).
    pub rest_armed: bool,
    /// The Rest order chosen so far (both sides' cards, each side's in order).
    pub rest_order: super::list::List<64>,
}

impl GameState {
    /// The first player that goes with a Threatened expedition: the player when it is the
    /// Companion's (the Confluence mode's day 1; scenarios give the Threatened side). Two
    /// seats only: the Threatened expedition is the Confluence mode's.
    #[inline]
    pub fn first_with(threatened: Exp) -> Side {
        match threatened {
            Exp::Companion => Side::Player,
            Exp::Hero => Side::Confluence,
        }
    }
}

impl<const N: usize, const M: usize> GameState<N, M> {
    /// The first token slot: after every seat's cards (64 a seat with two seats, 48 with
    /// four, so that object ids stay one byte).
    pub const TOKEN_BASE: usize = if N == 2 { TOKEN_BASE } else { 48 * N };

    #[inline]
    pub fn obj(&self, id: ObjId) -> &Obj {
        &self.objs[id as usize]
    }

    #[inline]
    pub fn obj_mut(&mut self, id: ObjId) -> &mut Obj {
        &mut self.objs[id as usize]
    }

    /// The seat whose zones an object goes back to: its controller, unless it is borrowed
    /// (it defected, or was played from another seat's Reserve). With two seats the owner
    /// of a borrowed card is the other seat; with more, the seat whose object ids hold it.
    #[inline]
    pub fn owner_of(&self, id: ObjId) -> Side {
        let o = self.obj(id);
        if o.flags & flag::BORROWED == 0 {
            return o.side;
        }
        if N == 2 {
            return o.side.other();
        }
        for seat in 0..N as u8 {
            let side = Side::of_seat(seat);
            let first = self.first_obj[side];
            if id >= first && id - first < self.n_cards[side] {
                return side;
            }
        }
        // A borrowed token has no seat's id: it ceases to exist when it leaves play.
        o.side
    }

    /// The seat and expedition facing `side`'s expedition `e` across its lane: with two
    /// seats the other seat's same expedition (the Confluence mode's too), with four
    /// through the table (`None` when no other seat plays).
    #[inline]
    pub fn facing_of(&self, side: Side, e: Exp) -> Option<(Side, Exp)> {
        if N == 2 {
            return Some((side.other(), e));
        }
        let (seat, f) = self.table.facing(side.seat(), e)?;
        Some((Side::of_seat(seat), f))
    }

    /// Every opponent of `side` still playing, clockwise after it, and how many there are:
    /// whose statics reach `side`'s cards ("opposing", "an opponent's"). With two seats the
    /// other seat alone, a constant the compiler sees through.
    #[inline]
    pub fn opponents_list(&self, side: Side) -> ([Side; 3], usize) {
        let mut out = [side; 3];
        if N == 2 {
            out[0] = side.other();
            return (out, 1);
        }
        let mut n = 0;
        for s in self.table.opponents(side) {
            out[n] = s;
            n += 1;
        }
        (out, n)
    }

    /// The opponent an effect run with `ctx` concerns: with two seats the other seat; in
    /// Free for All the one its controller chose (`Frame::opp`), or, before any choice (a
    /// static's condition read outside an effect), the first opponent clockwise.
    #[inline]
    pub(in crate::engine) fn opponent_in(&self, ctx: &super::query::Ctx) -> Side {
        if N == 2 {
            return ctx.controller.other();
        }
        if ctx.opp != NO_SEAT {
            return Side::of_seat(ctx.opp);
        }
        self.table
            .opponents(ctx.controller)
            .next()
            .unwrap_or(ctx.controller)
    }

    #[inline]
    pub fn side(&self, s: Side) -> &SideState {
        &self.sides[s]
    }

    #[inline]
    pub fn side_mut(&mut self, s: Side) -> &mut SideState {
        &mut self.sides[s]
    }

    /// True for the side whose choices follow fixed rules inside the engine (the
    /// Confluence); every other side's choices are asked of its policy.
    #[inline]
    pub fn scripted(&self, side: Side) -> bool {
        self.mode == Mode::Confluence && side == Side::Confluence
    }

    /// A side's expedition regions (in Confluence mode only the player has expeditions).
    #[inline]
    pub fn pos_of(&self, side: Side) -> ByExp<i8> {
        self.pos[side]
    }

    #[inline]
    pub fn pos_of_mut(&mut self, side: Side) -> &mut ByExp<i8> {
        &mut self.pos[side]
    }

    /// The region a side's expedition stands in (the player's, in Confluence mode, for the
    /// Confluence side too: its cards face the player's expeditions).
    #[inline]
    pub fn region_of(&self, side: Side, e: Exp) -> usize {
        match self.mode {
            Mode::Duel | Mode::FreeForAll => self.pos_of(side).get(e) as usize,
            Mode::Confluence => self.pos[Side::Player].get(e) as usize,
        }
    }

    /// A side's expedition is Ascended until Rest.
    #[inline]
    pub fn ascended(&self, side: Side, e: Exp) -> bool {
        self.today.seats[side].ascend.get(e)
    }

    /// A side's expedition advanced at this Dusk.
    #[inline]
    pub fn advanced(&self, side: Side, e: Exp) -> bool {
        self.today.seats[side].advanced.get(e)
    }

    /// Regions a side's expedition has travelled from its start.
    #[inline]
    pub fn progress_of(&self, side: Side, e: Exp) -> i8 {
        let p = self.pos_of(side).get(e);
        match e {
            Exp::Hero => p,
            Exp::Companion => 7 - p,
        }
    }

    /// Head-to-head score (digest §4): Hero distance from region 0 plus Companion distance
    /// from region 7.
    #[inline]
    pub fn score(&self, side: Side) -> i8 {
        self.progress_of(side, Exp::Hero) + self.progress_of(side, Exp::Companion)
    }

    /// Who holds the first-player token. In the Confluence mode the player is first player
    /// exactly when the Companion expedition is Threatened (the invariant checker holds
    /// the two together with two seats).
    #[inline]
    pub fn first_player(&self) -> Side {
        self.first
    }

    /// `side` has passed this Afternoon.
    #[inline]
    pub fn has_passed(&self, side: Side) -> bool {
        self.passed & side.bit() != 0
    }

    /// Every seat still playing has passed: the Afternoon is over.
    #[inline]
    pub fn all_passed(&self) -> bool {
        let p = self.table.playing();
        self.passed & p == p
    }

    /// Whose reactions resolve first: the side taking its turn in the Afternoon, else the
    /// first player (initiative, S1 1.4.5).
    #[inline]
    pub fn initiative(&self) -> Side {
        match self.phase {
            Phase::Turn | Phase::ConfluenceQuick(_) | Phase::ConfluencePlay => self.to_act,
            _ => self.first_player(),
        }
    }

    #[inline]
    pub fn next_ts(&mut self) -> u16 {
        self.ts = self.ts.wrapping_add(1);
        self.ts
    }

    /// The innermost running ability, if any.
    #[inline]
    pub fn frame(&self) -> Option<&Frame> {
        (self.depth > 0).then(|| &self.frames[self.depth as usize - 1])
    }

    pub fn pending(&self) -> &[Pending] {
        &self.pending[..self.n_pending as usize]
    }

    pub fn mods(&self) -> &[TurnMod] {
        &self.mods[..self.n_mods as usize]
    }

    /// The zone list an object in `zone` of `side` lives in.
    pub fn zone_list(&self, side: Side, zone: Zone, exp: Exp) -> Option<&Zone64> {
        let s = self.side(side);
        Some(match zone {
            Zone::Deck => &s.deck,
            Zone::Hand => &s.hand,
            Zone::Reserve => &s.reserve,
            Zone::Landmarks => &s.landmarks,
            Zone::Expedition => &s.exp[exp.index()],
            Zone::Mana => &s.mana,
            Zone::Discard => &s.discard,
            _ => return None,
        })
    }

    pub fn zone_list_mut(&mut self, side: Side, zone: Zone, exp: Exp) -> Option<&mut Zone64> {
        let s = self.side_mut(side);
        Some(match zone {
            Zone::Deck => &mut s.deck,
            Zone::Hand => &mut s.hand,
            Zone::Reserve => &mut s.reserve,
            Zone::Landmarks => &mut s.landmarks,
            Zone::Expedition => &mut s.exp[exp.index()],
            Zone::Mana => &mut s.mana,
            Zone::Discard => &mut s.discard,
            _ => return None,
        })
    }

    /// Deck slot of a card object, for the per-game "played" bit sets.
    #[inline]
    pub fn slot_of(&self, id: ObjId) -> Option<usize> {
        let o = self.obj(id);
        if o.is_token() {
            return None;
        }
        let first = self.first_obj[o.side] as usize;
        let idx = id as usize;
        (idx > first && idx < first + self.n_cards[o.side] as usize).then(|| idx - first - 1)
    }

    /// Whether any object in play has static abilities (auras, terrain, blocks...).
    #[inline]
    pub fn any_statics(&self) -> bool {
        self.statics != Seats([0; N])
    }

    /// Each hero's Terrain Markers at the start of the game (a hero that starts with a
    /// {V}, an {M} and an {O} marker): head to head and in Free for All every seat's (D47).
    pub fn start_markers(&mut self, db: &crate::cards::db::CardDb) {
        for side in const { Side::seats::<N>() } {
            let hero = self.side(side).hero;
            for ab in db.abilities_of(self.obj(hero).card) {
                if let crate::cards::effect::Trigger::Static(
                    crate::cards::effect::Static::StartMarkers(t),
                ) = ab.trigger
                {
                    self.adventure.set_supply(side, t, true);
                }
            }
        }
    }

    /// Recounts `statics` and `listen` from scratch (after building a state by hand).
    pub fn recount_statics(&mut self, db: &crate::cards::db::CardDb) {
        self.statics = Seats([0; N]);
        self.listen = Seats([0; N]);
        for o in self.objs.iter() {
            if o.zone != Zone::None {
                self.listen[o.side] |= db.card(o.card).fire_mask;
            }
            if matches!(o.zone, Zone::Expedition | Zone::Landmarks | Zone::HeroZone)
                && db.card(o.card).trigger_mask & crate::cards::effect::tmask::STATIC != 0
            {
                self.statics[o.side] += 1;
            }
        }
    }

    /// The region a player expedition stands in.
    #[inline]
    pub fn region(&self, e: Exp) -> usize {
        self.pos[Side::Player].get(e) as usize
    }

    /// Regions travelled by a player expedition from its start.
    #[inline]
    pub fn progress(&self, e: Exp) -> i8 {
        match e {
            Exp::Hero => self.pos[Side::Player].get(e),
            Exp::Companion => 7 - self.pos[Side::Player].get(e),
        }
    }

    /// The Darkness stands in the region right behind the expedition.
    #[inline]
    pub fn darkness_adjacent(&self, e: Exp) -> bool {
        match e {
            Exp::Hero => self.dark.get(e) == self.pos[Side::Player].get(e) - 1,
            Exp::Companion => self.dark.get(e) == self.pos[Side::Player].get(e) + 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_stay_small() {
        // The last known information (`left_boosts`, `left_kw`) fills padding.
        assert_eq!(std::mem::size_of::<Obj>(), 16);
        // The "next card you play" modifiers keep their flags in one byte.
        assert!(std::mem::size_of::<TurnMod>() <= 12);
    }

    /// Free for All's state: four seats and 255 object slots, the ids still one byte, and
    /// the engine's entry points built for it (a generic item the four-seat game cannot
    /// use would fail here, not in step 3's first game).
    #[test]
    fn four_seats_build() {
        use crate::cards::db::CardDb;
        use crate::engine::{GameRng, Step, event::NoObserver, view::View};
        type Ffa = GameState<4, 255>;
        let s = Ffa::empty();
        assert_eq!(s.table.seats(), 4);
        assert_eq!(Ffa::TOKEN_BASE, 192);
        assert_eq!(GameState::<2>::TOKEN_BASE, TOKEN_BASE);
        assert!(Ffa::TOKEN_BASE < 255 && usize::from(NO_OBJ) == 255);
        assert_eq!(s.objs.len(), 255);
        assert_eq!(s.sides.iter().count(), 4);
        let _: fn(&mut Ffa, &CardDb, &mut GameRng, &mut NoObserver) -> Step =
            crate::engine::advance;
        let _: fn(&mut Ffa, &CardDb, &mut GameRng, &mut NoObserver, crate::engine::Choice) =
            crate::engine::apply_unchecked;
        let _: fn(&Ffa, &CardDb, &mut crate::engine::ChoiceList) = crate::engine::legal_choices;
        fn deal<'a>(v: &View<'a, 4, 255>, rng: &mut GameRng) -> Ffa {
            v.determinize(rng)
        }
        let _: fn(&View<'_, 4, 255>, &mut GameRng) -> Ffa = deal;
        // A borrowed card goes back to the seat whose ids hold it, not to "the other".
        let mut s = Ffa::empty();
        for seat in 0..4u8 {
            let side = Side::of_seat(seat);
            s.first_obj[side] = 40 * seat;
            s.n_cards[side] = 40;
        }
        s.objs[85].side = Side::Player;
        s.objs[85].flags |= flag::BORROWED;
        assert_eq!(s.owner_of(85), Side::Seat2);
        s.objs[85].flags &= !flag::BORROWED;
        assert_eq!(s.owner_of(85), Side::Player);
        // Seat 1's view: its opponents clockwise after it, and who faces its expeditions.
        s.decider = Side::Confluence;
        let db = CardDb::new();
        let v = View::new(&s, &db);
        let them: Vec<Side> = v.opponents().collect();
        assert_eq!(them, [Side::Seat2, Side::Seat3, Side::Player]);
        assert_eq!(v.facing(Exp::Hero), Some((Side::Player, Exp::Hero)));
        assert_eq!(
            v.facing(Exp::Companion),
            Some((Side::Seat2, Exp::Companion))
        );
        s.table.keep_only(0b0110);
        let v = View::new(&s, &db);
        assert_eq!(v.opponents().collect::<Vec<_>>(), [Side::Seat2]);
        assert_eq!(v.facing(Exp::Hero), Some((Side::Seat2, Exp::Hero)));
        // The two-seat state is the one every mode so far plays, at its old size.
        assert!(std::mem::size_of::<Ffa>() > std::mem::size_of::<GameState>());
    }
}
