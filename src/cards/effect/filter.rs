//! Filters and conditions: which objects an ability looks at, and when it may apply.

use super::{CondId, FilterId};
use crate::cards::types::Exp;

/// Where an ability works from. Most work in play; support abilities work from Reserve.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ActiveIn {
    Play,
    Reserve,
    /// Heroes and abilities that say nothing about zones but trigger from anywhere
    /// (e.g. "when I go to Reserve").
    Anywhere,
}

/// Whose objects a filter accepts, relative to the ability's controller.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Whose {
    Any,
    Yours,
    Opposing,
}

pub mod fkind {
    pub const CHARACTER: u8 = 1 << 0;
    pub const LANDMARK: u8 = 1 << 1;
    pub const EXP_PERMANENT: u8 = 1 << 2;
    pub const SPELL: u8 = 1 << 3;
    pub const TOKEN: u8 = 1 << 4;
    pub const PERMANENT: u8 = LANDMARK | EXP_PERMANENT;
    pub const CARD: u8 = CHARACTER | PERMANENT | SPELL;
    /// Hero cards (in the Hero zone, which counts as in play); never part of `CARD`.
    pub const HERO: u8 = 1 << 5;
}

pub mod fzone {
    pub const EXPEDITION: u8 = 1 << 0;
    pub const LANDMARKS: u8 = 1 << 1;
    pub const RESERVE: u8 = 1 << 2;
    pub const HAND: u8 = 1 << 3;
    /// Only for `it_is(...)` on a revealed deck card.
    pub const DECK: u8 = 1 << 4;
    pub const IN_PLAY: u8 = EXPEDITION | LANDMARKS;
}

/// Which expedition an object must be in, relative to the ability's source.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Where {
    Anywhere,
    /// In the source's expedition (either side's objects there).
    MyExpedition,
    /// In the source's controller's other expedition.
    OtherExpedition,
    /// Facing the source (the opposing objects of the same expedition).
    FacingMe,
    /// In the expedition chosen by the running ability's `select_exp` (either side's).
    Selected,
}

/// A set of objects: card kinds, controller, zones and simple properties.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// `fkind` bits; a card matches if its kind is one of them.
    pub kinds: u8,
    pub whose: Whose,
    /// `fzone` bits.
    pub zones: u8,
    pub place: Where,
    /// Any of these subtype bits (0 = no subtype requirement).
    pub subtypes: u64,
    /// None of these subtype bits ("non-Illusion").
    pub not_subtypes: u64,
    pub cost_min: u8,
    pub cost_max: u8,
    /// No statistic (with boosts) over this ("with no statistic over N"); MAX = any.
    pub stat_max: u8,
    /// Hand cost at most `x` plus this (`cost<=x+N`; `i8::MIN`: no such bound).
    pub cost_max_x: i8,
    /// Statuses/keywords it must have (`kw` bits).
    pub with: u32,
    /// Statuses/keywords it must not have.
    pub without: u32,
    /// Not the source itself.
    pub other: bool,
    /// Only tokens / only non-tokens.
    pub token: Option<bool>,
    /// Has at least one boost / has none.
    pub boosted: Option<bool>,
    /// Has at least one counter of any kind (boost or named) / has none.
    pub countered: Option<bool>,
    /// Exhausted / ready.
    pub exhausted: Option<bool>,
    /// Has a printed (base) statistic of 0 / has none.
    pub zero_stat: Option<bool>,
    /// Stands in an expedition whose region has one of these terrains (0 = any).
    pub region_terrain: u8,
    /// Stands in one of your Ascended expeditions.
    pub ascended: bool,
    /// `cost_min`/`cost_max` compare the Base Cost (Reserve Cost when in Reserve, played
    /// from Reserve or Fleeting in play; Hand Cost otherwise) instead of the Hand Cost.
    pub base_cost: bool,
    /// Stands in an expedition whose region has a single terrain type.
    pub single_terrain: bool,
    /// Played (or about to be played) from Reserve / from hand.
    pub from_reserve: Option<bool>,
    /// Stands in an expedition whose region has a terrain for which its printed (base)
    /// statistic is 0.
    pub zero_stat_here: bool,
    /// Stands in a player expedition that is behind (FAQ "Expedition is Behind").
    pub in_behind: bool,
}

impl Filter {
    /// The `cost<=x+N` bound, for a card of this hand cost when the ability's x is `x`.
    #[inline]
    pub fn cost_within_x(&self, hand_cost: u8, x: i16) -> bool {
        self.cost_max_x == i8::MIN || (hand_cost as i16) <= x + self.cost_max_x as i16
    }
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            kinds: fkind::CHARACTER,
            whose: Whose::Any,
            zones: fzone::IN_PLAY,
            place: Where::Anywhere,
            subtypes: 0,
            not_subtypes: 0,
            cost_min: 0,
            cost_max: u8::MAX,
            stat_max: u8::MAX,
            cost_max_x: i8::MIN,
            with: 0,
            without: 0,
            other: false,
            token: None,
            boosted: None,
            countered: None,
            exhausted: None,
            zero_stat: None,
            region_terrain: 0,
            ascended: false,
            base_cost: false,
            single_terrain: false,
            from_reserve: None,
            zero_stat_here: false,
            in_behind: false,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cmp {
    Ge,
    Le,
    Eq,
    Gt,
    Lt,
}

impl Cmp {
    #[inline]
    pub fn test(self, a: i16, b: i16) -> bool {
        match self {
            Cmp::Ge => a >= b,
            Cmp::Le => a <= b,
            Cmp::Eq => a == b,
            Cmp::Gt => a > b,
            Cmp::Lt => a < b,
        }
    }
}

/// A number read from the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Count {
    /// Objects matching a filter.
    Objects(FilterId),
    /// Your mana orbs (ready or not).
    ManaOrbs,
    HandSize,
    ReserveSize,
    /// My counters.
    MyCounters,
    /// My boosts.
    MyBoosts,
    /// The boosts I had when I last left the Expedition zone (counted per boost by a
    /// leave reaction).
    MyLeftBoosts,
    /// The X register (last die roll or computed number).
    X,
    /// Your last die result today (read by "when you roll" reactions).
    LastRoll,
    /// Cards in the opponent's hand.
    OpponentHandSize,
    /// The current day.
    Day,
    /// Your expeditions standing in a region with this terrain.
    ExpsInTerrain(u8),
    /// Every expedition (yours and the opposing ones, which stand in the same regions, FAQ
    /// "The Confluence's Expedition") in a region with this terrain.
    AllExpsInTerrain(u8),
    /// Base statistics of 0 among the characters you control (one character may have two).
    ZeroStats,
    /// Regions strictly between your Hero and Companion expeditions (0 when adjacent).
    RegionsBetween,
    /// Visible regions with a single terrain type.
    SingleTerrainRegions,
    /// Counters on your hero.
    HeroCounters,
    /// Your Ascended expeditions.
    AscendedExps,
    /// Your expeditions that are In Contact.
    ExpsInContact,
    /// The Hand Cost of the selected object (`it`).
    ItCost,
    /// Boosts on the objects matching a filter, added up.
    BoostsOf(FilterId),
    /// Printed (base) statistics of 0 among the objects matching a filter, added up.
    ZeroStatsOf(FilterId),
    /// The boosts of the object an op is acting on (`boost(each ..., its_boosts)`).
    ItsBoosts,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cond {
    True,
    /// You are the first player (the player is first when the Companion is Threatened).
    FirstPlayer,
    Compare(Count, Cmp, i16),
    /// Two amounts compared (a revealed card's Hand Cost against the die kept).
    CompareCounts(Count, Cmp, Count),
    /// My expedition is behind / ahead / in contact with the opposing one.
    Behind,
    /// Each of your expeditions is behind ("behind or tied" reads "behind", A18).
    AllBehind,
    /// That expedition of yours is behind (for cards outside the expeditions).
    BehindExp(Exp),
    Ahead,
    InContact,
    /// The previous optional cost or action was done.
    Did,
    /// Neither of your expeditions advanced at this Dusk.
    NoneAdvanced,
    /// The source has these status bits.
    MeHas(u32),
    /// The source had these status bits when it last left play (last known information).
    MeHad(u32),
    /// The source is in its owner's Mana zone.
    MeInMana,
    MeBoosted,
    /// The source was played with its own alternative cost (`alt_less`), until it changes
    /// zones.
    PaidLess,
    /// The source's region has this terrain.
    MyTerrain(u8),
    /// The region of the expedition facing the source has this terrain ("if I'm facing an
    /// Expedition in {O}"): head to head the opponent's expedition on the source's side;
    /// in the Confluence mode the Confluence's expedition stands in the player's region.
    FacingTerrain(u8),
    /// The source's region has a single terrain type.
    SingleTerrain,
    /// The source's expedition Ascends (until Rest).
    MyExpAscends,
    /// The last die roll is in lo..=hi.
    Roll(u8, u8),
    Afternoon,
    /// It is the controller's own turn.
    YourTurn,
    /// The selected object (`it`) matches a filter.
    ItMatches(FilterId),
    /// You control an object matching the filter (shorthand for a count >= 1).
    Control(FilterId),
    /// You control distinct objects, one matching each of the first `n` filters (Lyra
    /// Festival: three Characters, one per status).
    Distinct([FilterId; 3], u8),
    Not(CondId),
    And(CondId, CondId),
    Or(CondId, CondId),
}
