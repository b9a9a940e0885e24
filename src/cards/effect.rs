//! The compiled effect language: what one interpreter in the engine executes.
//!
//! Abilities are written as text in the card data files (see `dsl.rs` and
//! `decks/cards/EFFECTS.md`), validated at load and compiled once into these small `Copy`
//! values. An ability is a trigger, an optional condition and a body: a slice of [`Op`]s in
//! one shared arena, with jumps for `may`, `if`, `choose` and dice branches. Conditions,
//! filters and token definitions live in side arenas referenced by `u16` ids so that an `Op`
//! stays small.

use super::types::Exp;

pub type CardIdx = u16;
pub type FilterId = u16;
pub type CondId = u16;

/// Where a played card came from ({J} = any, {H} = hand, {R} = reserve).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlayFrom {
    Any,
    Hand,
    Reserve,
}

/// The costs of a quick action or of an optional "pay" inside an effect.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Cost {
    /// Mana orbs to exhaust.
    pub mana: u8,
    /// {T}: exhaust the source.
    pub exhaust: bool,
    /// {D}: discard the source from Reserve.
    pub discard_me: bool,
    /// Spend this many of the source's counters.
    pub counters: u8,
    /// Discard this many cards of your Reserve (chosen by the controller).
    pub discard_reserve: u8,
    /// Discard this many cards of your hand (chosen by the controller).
    pub discard_hand: u8,
    /// Sacrifice one of your objects of these `fkind` kinds (0: none; `CHARACTER` by
    /// default, `PERMANENT` for "sacrifice a Permanent"), chosen by the controller.
    pub sacrifice: u8,
}

/// Events that "When ..." abilities listen to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// I leave the Expedition zone (any way, including Rest).
    LeaveExpedition,
    /// I leave the Landmark zone (any way).
    LeaveLandmarks,
    /// A character matching the filter leaves your expeditions (the event object is it;
    /// it has already left, so the filter reads its card and whether it was a token).
    LeavesYourExpeditions(FilterId),
    /// I go to Reserve; `from_expedition` false = from hand.
    ToReserve { from_expedition: bool },
    /// I go to Reserve from anywhere (the deck, hand, play, Limbo...).
    ToReserveAny,
    /// I am sacrificed.
    Sacrificed,
    /// I am sacrificed while I matched the filter, read just before I left (last known
    /// information: a sacrifice trigger that needs me not Fleeting).
    SacrificedAs(FilterId),
    /// You sacrifice an object matching the filter (read just before it left; the event
    /// object is the sacrificed card).
    YouSacrifice(FilterId),
    /// I gain my Nth counter (my counters go from below N to N or more).
    CountersReach(u8),
    /// One of your cards enters your Reserve, coming from your deck or your hand.
    YourCardToReserve,
    /// You play a card matching the filter (the played card is the event object).
    YouPlay(FilterId),
    /// You play a card matching the filter from your Reserve.
    YouPlayFromReserve(FilterId),
    /// The first card matching the filter that you play each Afternoon.
    YouPlayFirst(FilterId),
    /// An opponent plays a card matching the filter.
    OpponentPlays(FilterId),
    /// An opponent plays a card matching the filter from Reserve.
    OpponentPlaysFromReserve(FilterId),
    /// A character matching the filter joins your expeditions (played or created).
    Joins(FilterId),
    /// A character matching the filter joins the expedition facing me.
    JoinsFacing(FilterId),
    /// You roll one or more dice.
    YouRoll,
    /// At Dusk, my expedition does not move forward.
    MyExpFails,
    /// My expedition moves forward (at Dusk or by an effect).
    MyExpMoves,
    /// One or more of your Ascended expeditions move forward (once for those moving together
    /// at Dusk); `unfaced`: only one with no character facing it counts.
    AscendedMoves { unfaced: bool },
    /// My expedition moves forward at Dusk due to a terrain (it paid its region with it).
    MyExpMovesDue(u8),
    /// One of your expeditions moves forward at Dusk due to a terrain.
    YourExpMovesDue(u8),
    /// In the Afternoon, one of the cards in your Reserve leaves it.
    LeavesYourReserve,
    /// A card joins a discard pile (any player's; tokens never do).
    CardDiscarded,
    /// You create a token character.
    YouCreateToken,
    /// A character you control gains one or more boosts (event object = it).
    YourCharacterBoosted,
    /// I gain one of these statuses (`kw` bits).
    IGain(u32),
    /// A character you control gains one of these statuses (event object = it).
    YourCharacterGains(u32),
    /// You exhaust a card in a Reserve (by an effect or a cost).
    YouExhaustInReserve,
    /// You pass, and the opponent has not passed yet.
    YouPassFirst,
    /// An opponent draws a card or Resupplies.
    OpponentDraws,
    /// A Gift of yours: during your turn an opponent gets a card (drawn or Resupplied) or a
    /// token.
    YouGift,
}

/// Classes of occurrences that "When ..." abilities of other objects listen to (the
/// engine's `Fire`), one bit each, so the engine can skip a listener whose abilities cannot
/// react to what happened.
pub mod fire_class {
    pub const PLAYED: u32 = 1 << 0;
    pub const LEFT_EXPEDITION: u32 = 1 << 1;
    pub const JOINED: u32 = 1 << 2;
    pub const ROLLED: u32 = 1 << 3;
    pub const EXP_FAILED: u32 = 1 << 4;
    pub const EXP_MOVED: u32 = 1 << 5;
    pub const EXP_MOVED_DUE: u32 = 1 << 6;
    pub const RESERVE_LEFT: u32 = 1 << 7;
    pub const DISCARDED: u32 = 1 << 8;
    pub const TOKEN_CREATED: u32 = 1 << 9;
    pub const RECEIVED: u32 = 1 << 10;
    pub const BOOSTED: u32 = 1 << 11;
    pub const GAINED: u32 = 1 << 12;
    pub const SACRIFICED: u32 = 1 << 13;
    pub const CARD_TO_RESERVE: u32 = 1 << 14;
    pub const EXHAUSTED_IN_RESERVE: u32 = 1 << 15;
    pub const PASSED_FIRST: u32 = 1 << 16;
    pub const DREW: u32 = 1 << 17;
}

impl EventKind {
    /// The `fire_class` bits of the occurrences this event can match; 0 for the events of
    /// the object itself ("I leave", "I am sacrificed"...), which it queues on its own.
    /// The engine checks in debug builds that no listener reacts outside these bits.
    pub fn fire_classes(&self) -> u32 {
        use fire_class::*;
        match self {
            EventKind::YouPlay(_)
            | EventKind::YouPlayFromReserve(_)
            | EventKind::YouPlayFirst(_)
            | EventKind::OpponentPlays(_)
            | EventKind::OpponentPlaysFromReserve(_) => PLAYED,
            EventKind::LeavesYourExpeditions(_) => LEFT_EXPEDITION,
            EventKind::Joins(_) | EventKind::JoinsFacing(_) => JOINED,
            EventKind::YouRoll => ROLLED,
            EventKind::MyExpFails => EXP_FAILED,
            EventKind::MyExpMoves | EventKind::AscendedMoves { .. } => EXP_MOVED,
            EventKind::MyExpMovesDue(_) | EventKind::YourExpMovesDue(_) => EXP_MOVED_DUE,
            EventKind::LeavesYourReserve => RESERVE_LEFT,
            EventKind::CardDiscarded => DISCARDED,
            EventKind::YouCreateToken => TOKEN_CREATED,
            EventKind::YourCharacterBoosted => BOOSTED,
            EventKind::IGain(_) | EventKind::YourCharacterGains(_) => GAINED,
            EventKind::YouSacrifice(_) => SACRIFICED,
            EventKind::YourCardToReserve => CARD_TO_RESERVE,
            EventKind::YouExhaustInReserve => EXHAUSTED_IN_RESERVE,
            EventKind::YouPassFirst => PASSED_FIRST,
            EventKind::OpponentDraws => DREW,
            EventKind::YouGift => DREW | RECEIVED,
            EventKind::LeaveExpedition
            | EventKind::LeaveLandmarks
            | EventKind::ToReserve { .. }
            | EventKind::ToReserveAny
            | EventKind::Sacrificed
            | EventKind::SacrificedAs(_)
            | EventKind::CountersReach(_) => 0,
        }
    }
}

/// Passive abilities read by the engine where they apply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Static {
    /// I cost this much more (negative: less) to play, while the condition holds.
    Cost(i8),
    /// I cost this much more (negative: less) for each unit of the count.
    CostPer(i8, Count),
    /// I cost this much more (negative: less) to play into an expedition of yours with no
    /// characters.
    CostInEmptyExp(i8),
    /// Objects matching the filter that you control have Tough N.
    ToughAura(FilterId, u8),
    /// I have Tough X, X counted from my controller's view ("Tough X, where X is ...").
    ToughCount(Count),
    /// Exhausted characters in Reserve (every player's) remain exhausted during Morning.
    KeepExhausted,
    /// My expedition can move forward even past Defender characters (while the ability's
    /// condition holds).
    DefenderNoBlock,
    /// Opponents' matching cards have a minimum cost of N when played (Robin Hood).
    OpponentMinCost(FilterId, u8),
    /// Objects matching the filter that you control gain these keyword bits (also your
    /// Spells as they resolve: a keyword for your cheap Spells, say).
    KeywordAura(FilterId, u32),
    /// Objects matching the filter that you control have this ability (an ability granted
    /// to your characters, say): a {J}/{H}/{R} ability (the body) whose source is the
    /// played object.
    Grant(FilterId, PlayFrom),
    /// Objects matching the filter (either side's, read from my controller's view) can't
    /// gain counters (boosts or named counters).
    NoCounters(FilterId),
    /// The "up to a max of N" limit in the support abilities of your cards in Reserve allows N + this
    /// many (255: no maximum).
    SupportOverMax(u8),
    /// The Forest, Mountain and Water of matching objects you control (of me, with
    /// [`ME_FILTER`]) are equal to their highest statistic.
    LevelStats(FilterId),
    /// Characters facing me have their {J}, {H} and {R} abilities switched off.
    SilenceFacing,
    /// I am also considered a card of these `fkind` kinds, even when not in play.
    AlsoKind(u8),
    /// If one of your Ascended expeditions would Ascend again, Resupply instead.
    AscendResupply,
    /// I have these keyword bits while the ability's condition holds.
    Keyword(u32),
    /// When you roll dice, roll one more and ignore one of your choice.
    ExtraDie,
    /// Its player may raise each die they roll by 1.
    RollPlusOne,
    /// During Morning, draw only one card.
    DrawOneInMorning,
    /// Every player's Reserve limit changes by this much (read at Clean-up).
    ReserveLimit(i8),
    /// Optional discount: discard one of your Reserve cards and I cost N less (an alternative
    /// way to pay, offered as its own play option).
    DiscardDiscount(u8),
    /// Optional discount: sacrifice one of your Permanents and I cost N less (offered as its
    /// own play option, like `DiscardDiscount`).
    SacrificeDiscount(u8),
    /// "You may play me for N less": an alternative cost offered as its own play option;
    /// the effect reads `paid_less` for what the cheaper play restricts.
    AltLess(u8),
    /// Replaces Resupply: reveal your deck's two top cards, one goes to Reserve and the
    /// other to the discard pile.
    ResupplyRevealTwo,
    /// Cards matching the filter that you play cost this much more (negative: less).
    CostAura(FilterId, i8),
    /// Cards matching the filter that you play cost N less, down to a minimum of M (a
    /// reduction that never takes the cost below M; other effects may reduce it further).
    CostAuraMin(FilterId, u8, u8),
    /// I begin the game with N counters (heroes).
    StartCounters(u8),
    /// I begin the game with one Terrain Marker of each of these terrains (heroes).
    StartMarkers(u8),
    /// I can only be played while the ability's condition holds.
    PlayableIf,
    /// You may play exhausted cards matching the filter from your Reserve (`true`: only
    /// into my expedition). As a support ability it works from Reserve.
    PlayExhausted(FilterId, bool),
    /// Replacement: when I would leave the Expedition zone (while the condition holds), I go
    /// to my owner's Mana zone instead (an exhausted orb, D37). `may`: the controller
    /// chooses when it would leave (the Confluence always does it).
    LeaveToMana { may: bool },
    /// "If I would gain status `from`, I gain status `to` (and/or `boosts` boosts) instead".
    GainInstead { from: u32, to: u32, boosts: u8 },
    /// "I can gain this status even if I already have it" (its "when I gain" triggers).
    Regain(u32),
    /// Your Reserve limit is increased by N (while the condition holds).
    YourReserveLimit(i8),
    /// At Clean-up, one extra exhausted card may stay in your Reserve beyond the limit.
    ExtraExhaustedReserve,
    /// (Support, in Reserve) I don't count towards your Reserve limit.
    NotCountedInReserve,
    /// During Morning, Expand puts the top card of your deck into Mana instead of a card
    /// from your hand.
    ExpandFromDeck,
    /// My region also has these terrains (their points pay any requirement there).
    TerrainAdd(u8),
    /// My region (and so the region of the expedition facing me) has only these terrains.
    TerrainSet(u8),
    /// Every region has only these terrains.
    AllRegions(u8),
    /// This expedition of yours, and the opposing expedition facing it, can't move forward.
    NoForward(ExpRef),
    /// Replacement: at Dusk, when my Expedition would advance, it advances by one extra
    /// region (the player's expedition I am in).
    DuskExtraForward,
    /// The opposing expedition facing me may only move forward (the Darkness advance) if the
    /// player failed to overcome every requirement of this terrain facing my expedition.
    DarknessOnlyDueTo(u8),
}

/// The filter id of [`Static::LevelStats`] that means "me".
pub const ME_FILTER: FilterId = FilterId::MAX;

/// When an ability applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Trigger {
    /// A Spell's effect as it resolves.
    Spell,
    /// {J} / {H} / {R}: I am played (or enter play).
    Played(PlayFrom),
    Noon,
    Dusk,
    Night,
    /// An At Night ability whose effect waits until after Rest: triggers At Night (I must be in play then) and resolves
    /// after Rest, before Clean-up, wherever I am by then.
    AfterRest,
    /// Armed by `delay_rest`: resolves after Rest ("... after Rest"), wherever I am then.
    Delayed,
    /// A quick action of an object in play ({T} and/or mana, counters...).
    Quick(Cost),
    /// A support quick action of a card in Reserve ({D} and/or other costs).
    Support(Cost),
    When(EventKind),
    Static(Static),
}

impl Trigger {
    /// Bit used in `CardDef::trigger_mask` so the engine can skip cards quickly.
    pub fn mask_bit(&self) -> u32 {
        match self {
            Trigger::Spell => 1 << 0,
            Trigger::Played(_) => 1 << 1,
            Trigger::Noon => 1 << 2,
            Trigger::Dusk => 1 << 3,
            Trigger::Night => 1 << 4,
            Trigger::Delayed => 1 << 10,
            Trigger::Quick(_) => 1 << 5,
            Trigger::Support(_) => 1 << 6,
            Trigger::When(_) => 1 << 7,
            Trigger::Static(_) => 1 << 8,
            Trigger::AfterRest => 1 << 9,
        }
    }
}

pub mod tmask {
    pub const SPELL: u32 = 1 << 0;
    pub const PLAYED: u32 = 1 << 1;
    pub const NOON: u32 = 1 << 2;
    pub const DUSK: u32 = 1 << 3;
    pub const NIGHT: u32 = 1 << 4;
    pub const QUICK: u32 = 1 << 5;
    pub const SUPPORT: u32 = 1 << 6;
    pub const WHEN: u32 = 1 << 7;
    pub const STATIC: u32 = 1 << 8;
    pub const AFTER_REST: u32 = 1 << 9;
    pub const DELAYED: u32 = 1 << 10;
}

/// Effects of a "the next card you play" modifier (`Op::NextMod`, `TurnMod::flags`).
pub mod modflag {
    /// It lasts until used or until the Afternoon ends (not only this turn).
    pub const AFTERNOON: u8 = 1 << 0;
    /// The card loses Fleeting.
    pub const LOSE_FLEETING: u8 = 1 << 1;
    /// The card activates its {R} abilities (as if played from Reserve).
    pub const ACTIVATE_R: u8 = 1 << 2;
    /// The card is played for free (its targets' Tough is waived, D10).
    pub const FREE: u8 = 1 << 3;
    /// The card loses Fleeting if it is played from hand.
    pub const LOSE_FLEETING_HAND: u8 = 1 << 4;
    /// The modifier's `status` bits are lost by the card instead of gained.
    pub const LOSE_STATUS: u8 = 1 << 5;
}

/// Options of `Op::PlayFree`.
pub mod playflag {
    /// "You may": the player may decline even when a card qualifies.
    pub const OPTIONAL: u8 = 1 << 0;
    /// The card to play is the ability's source.
    pub const ME: u8 = 1 << 1;
    /// The card to play is the selected object (`it`).
    pub const IT: u8 = 1 << 2;
    /// `less` value meaning "for free".
    pub const FREE: u8 = u8::MAX;
}

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

/// Which object(s) an op acts on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ObjRef {
    /// The ability's source.
    Me,
    /// The object(s) selected by the last `Select`.
    It,
    /// The object the trigger event is about (the card played, the character that joined).
    Event,
    /// Every object matching a filter (no targeting).
    Each(FilterId),
}

/// A number in an op.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Amount {
    Const(i8),
    Count(Count),
    /// Minus a count (`-its_boosts`).
    Neg(Count),
}

/// Who an op concerns.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Who {
    You,
    Opponent,
    Each,
}

/// Whose zone an op puts something in (a Landmark token).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlayerRef {
    You,
    Opponent,
    Each,
    /// The controller of the selected object (`it`), or its owner once it left play.
    OfIt,
}

/// Which expedition(s) an op concerns.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExpRef {
    /// The source's expedition.
    Mine,
    /// The controller's other expedition.
    Other,
    Fixed(Exp),
    /// Both of the controller's expeditions.
    Each,
    /// Chosen by the controller (the Confluence chooses the Threatened one).
    Target,
    /// The expedition of the selected object (`it`).
    OfIt,
    /// The expedition the source was in when it last left the Expedition zone.
    Left,
    /// The expedition chosen by `select_exp`, on whichever side it is.
    Selected,
}

/// Where a moved object goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dest {
    Reserve,
    /// To Reserve, then exhausted ("send to Reserve ..., then exhaust them").
    ReserveExhausted,
    Hand,
    DeckTop,
    /// The Xth position from the top of its owner's deck, X the `x` register (a die).
    DeckAtX,
    DeckBottom,
    Discard,
    /// Sacrifice: discard from play (tokens cease to exist), with "when sacrificed" triggers.
    Sacrifice,
    /// Face down into its owner's mana zone (exhausted).
    Mana,
    /// Face down into its owner's mana zone, ready.
    ManaReady,
}

/// The most objects one selection holds ("any number of target ...").
pub const MAX_TARGETS: usize = 16;

/// One instruction of an ability body. Jumps are absolute indices into the ability's body.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Choose between `min` and `max` objects matching the filter into `it`.
    /// `total_cost` caps the sum of their hand costs (Kraken's Wrath), or with `total_of`
    /// 1/2/3 the sum of their Forest/Mountain/Water (Avalanche).
    /// `by_opponent`: the controller's opponent makes the choice (a card may let the opponent
    /// pick one of your Reserve cards).
    Select {
        filter: FilterId,
        min: u8,
        max: u8,
        total_cost: u8,
        total_of: u8,
        by_opponent: bool,
    },
    /// Choose an expedition of `whose` side(s) for the ops that follow (`selected`,
    /// `in_selected`); `ahead`: only an expedition that is ahead (never one, A18).
    SelectExp {
        whose: Whose,
        ahead: bool,
    },
    /// The opponent chooses one object matching the filter (read from the controller's
    /// view) into `it`: "each player chooses a Character they control" (not a target: no
    /// Tough). The Confluence chooses the leftmost.
    OpponentSelect {
        filter: FilterId,
    },
    /// Gain boosts (lose them if negative), never above `max` when it is non-zero.
    Boost {
        obj: ObjRef,
        n: Amount,
        max: u8,
    },
    /// Gain (or, negative, lose) named counters.
    Counters {
        obj: ObjRef,
        n: Amount,
    },
    /// Spend one counter of any kind from each object (a boost if it has one, else a named
    /// counter).
    SpendCounter {
        obj: ObjRef,
    },
    /// [Augment]: each object that has counters gains one more of each kind it has.
    Augment {
        obj: ObjRef,
    },
    /// [Augment] any number of target objects matching the filter: the controller picks
    /// them one at a time, in Silver Rule order, each augmented as it is chosen.
    AugmentAny {
        filter: FilterId,
    },
    Draw {
        who: Who,
        n: Amount,
    },
    Resupply {
        who: Who,
        exhausted: bool,
        /// The card put in Reserve becomes `it` (`resupply(it)`).
        keep: bool,
    },
    /// Reveal the top card of your deck: it becomes `it` (refilling an empty deck first).
    RevealTop,
    /// Create tokens; `opposing`: in the opponent's expedition(s) on those sides, for them.
    /// The created tokens become `it`. `after_rest`: the expedition is chosen now, the
    /// tokens are created after this day's Rest.
    Token {
        card: CardIdx,
        at: ExpRef,
        n: u8,
        opposing: bool,
        after_rest: bool,
    },
    /// Create Permanent tokens in a player's Landmarks.
    LandmarkToken {
        card: CardIdx,
        whose: PlayerRef,
        n: u8,
    },
    Move {
        obj: ObjRef,
        dest: Dest,
    },
    Gain {
        obj: ObjRef,
        status: u32,
        tough: u8,
    },
    Lose {
        obj: ObjRef,
        status: u32,
    },
    Exhaust {
        obj: ObjRef,
    },
    Ready {
        obj: ObjRef,
    },
    /// The next card matching the filter you play this turn (`afternoon`: this Afternoon)
    /// costs `n` less, down to a minimum of `min` (0: none).
    Discount {
        filter: FilterId,
        n: i8,
        min: u8,
        afternoon: bool,
    },
    /// The next character matching the filter you play this turn gains `n` boosts.
    NextBoost {
        filter: FilterId,
        n: i8,
    },
    /// Put the top card of a deck into its owner's mana zone.
    ManaFromDeck {
        who: Who,
        exhausted: bool,
    },
    /// Discard N of your mana orbs (exhausted ones first).
    LoseMana {
        n: u8,
    },
    /// Ready N of your exhausted mana orbs.
    ReadyMana {
        n: u8,
    },
    /// Put cards from a hand into another zone (the owner chooses; the Confluence gives the
    /// top of its hand).
    FromHand {
        who: Who,
        dest: Dest,
        n: u8,
        /// The moved cards become `it` (`hand_to_reserve(1, it)`).
        keep: bool,
    },
    /// The next character matching the filter you play this turn gains these statuses.
    NextGain {
        filter: FilterId,
        status: u32,
    },
    /// "This Day, Characters with Hand Cost `min_cost` or more that `who` controls are
    /// Tough `tough`".
    DayTough {
        who: Who,
        min_cost: u8,
        tough: u8,
    },
    /// The next card matching the filter you play this turn loses these statuses (e.g.
    /// the Fleeting of a card played from Reserve).
    NextLose {
        filter: FilterId,
        status: u32,
    },
    /// The next character matching the filter you play from hand this turn activates its
    /// {R} abilities.
    NextActivateR {
        filter: FilterId,
    },
    /// The next card matching the filter you play this turn is free (no cost; its targets'
    /// Tough is waived, digest 5.6).
    NextFree {
        filter: FilterId,
    },
    /// The next card matching the filter you play this turn gets the `modflag` effects
    /// (loses Fleeting, activates its {R} abilities, is free).
    NextMod {
        filter: FilterId,
        flags: u8,
    },
    /// Characters of `who` are sacrificed: the player chooses one of theirs, the Confluence
    /// follows its sacrifice rule; all happen together.
    SacrificeOne {
        who: Who,
    },
    /// `who` sacrifices the object matching the filter it controls with the highest Base
    /// Cost (Reserve Cost if Fleeting, else Hand Cost); among ties the player chooses, the
    /// Confluence takes the Threatened side's, then the leftmost.
    SacrificeHighest {
        who: Who,
        filter: FilterId,
    },
    /// `who` may immediately play a card matching the filter (the controller first), from
    /// the zones the filter names (hand by default for `play_free`, hand and Reserve for
    /// `play_now` and `rush`), for `less` less (`FREE`: for free), into `exp` when it is
    /// set. `flags` (`playflag`): optional, the card is `me` / `it`. The played card becomes
    /// `it` and `did` says whether one was played. The Confluence reveals from the top of
    /// its hand until one qualifies, plays it, then shuffles its hand (FAQ "Play
    /// Limitations").
    PlayFree {
        who: Who,
        filter: FilterId,
        less: u8,
        exp: Option<Exp>,
        flags: u8,
    },
    /// Rush: you may immediately play another card (paying for it). Sets `did`. The
    /// Confluence plays as on its turn, without putting unaffordable cards into Mana.
    Rush,
    /// Reveal your deck's top card; the player may play it at no cost (not from hand: no {H}
    /// abilities), otherwise it joins the hand.
    TopPlayOrHand,
    /// The expedition(s) (or, `opposing`, the opposing ones on those sides) can't move
    /// forward for the rest of the day.
    BlockForward {
        at: ExpRef,
        opposing: bool,
    },
    /// Move an expedition forward (or backward). `opposing`: the opponent's expedition on
    /// that side (for the Confluence, the Darkness). Sets `did` when one moved ("if it
    /// does").
    MoveExp {
        at: ExpRef,
        opposing: bool,
        forward: bool,
    },
    Switch {
        obj: ObjRef,
    },
    /// Token characters defect: each joins the expedition facing it, changing controllers.
    Defect {
        obj: ObjRef,
    },
    /// The first two objects exchange their boosts.
    SwapBoosts {
        obj: ObjRef,
    },
    /// Put the object in its owner's deck, at the Nth position from the top (the bottom
    /// when the deck is shorter).
    ToDeckAt {
        obj: ObjRef,
        n: Amount,
    },
    AfterYou,
    /// The controller wins the game ("You win the game": Lyra Festival); controlled by the
    /// Confluence, the player loses.
    WinGame,
    /// The controller passes for the rest of the Afternoon ("You may pass"); sets `did`
    /// to whether it could.
    Pass,
    /// `who` becomes first player (in this mode the First Player marker moves: the other
    /// expedition becomes Threatened).
    BecomeFirst {
        who: Who,
    },
    /// Each player passes, you first.
    EachPasses,
    /// Activate the {J} abilities (`reserve`: the {R} abilities) of the object(s).
    ActivateJ {
        obj: ObjRef,
        reserve: bool,
    },
    /// For each object matching the filter (in Silver Rule order), you may activate its {J}
    /// abilities (objects without any are skipped; the Confluence always does).
    ActivateJEach {
        filter: FilterId,
    },
    /// Reveal the top `n` cards of your deck, choose up to `k` matching ones and put them in
    /// your expeditions (you choose each one's); they gain `status`; discard the others.
    /// The cards are put, not played: their {J} abilities activate, not {H} or {R}.
    RevealPut {
        n: u8,
        k: u8,
        filter: FilterId,
        status: u32,
    },
    /// Place a Terrain Marker on a visible region the controller chooses: a new one of this
    /// terrain, or (terrain 0) one of the controller's hero's markers. The region is only
    /// that terrain while the marker is there; a region holds one marker (a new one replaces
    /// it).
    PlaceMarker {
        terrain: u8,
    },
    /// Move a Terrain Marker of this terrain from a region the controller chooses to the
    /// source's region.
    MoveMarker {
        terrain: u8,
    },
    /// The expedition(s) Ascend until Rest (an opposing one, the Darkness, has no terrain
    /// to skip).
    Ascend {
        at: ExpRef,
    },
    /// Arm the source's `after_rest` abilities: they trigger once, after this Night's Rest.
    DelayRest,
    /// Roll a die into X (with "when you roll" triggers).
    Roll,
    /// X = amount.
    SetX(Amount),
    /// Ask the controller; on "no" jump. Sets `did`.
    May {
        skip: u16,
    },
    /// Optionally pay a cost; on "no" or when it cannot be paid, jump. Sets `did`.
    Pay {
        cost: Cost,
        skip: u16,
    },
    /// The card parts (discards, a sacrifice) of a quick action's cost, paid as it
    /// resolves: the controller chooses the cards.
    PayCards {
        cost: Cost,
    },
    JumpUnless {
        cond: CondId,
        to: u16,
    },
    Jump {
        to: u16,
    },
    /// `repeat AMOUNT { ... }`: the amount is read once; none: jump to `end`. The body ends
    /// with a `LoopNext`.
    LoopStart {
        n: Amount,
        end: u16,
    },
    /// Back to `to` (the body's start) while repetitions remain.
    LoopNext {
        to: u16,
    },
    /// Choose one of `n` modes; the `n` ops that follow are `Jump`s to each mode.
    Choose {
        n: u8,
    },
}

/// One compiled ability of a card.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ability {
    pub trigger: Trigger,
    pub active: ActiveIn,
    pub cond: CondId,
    /// Body: `ops[start..start+len]` of the effect arena.
    pub start: u16,
    pub len: u16,
    /// Index of the source line in the card's encoding (for display).
    pub line: u8,
}

/// A token that effects can create.
#[derive(Clone, Debug)]
pub struct TokenDef {
    pub card: CardIdx,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ops_stay_small() {
        // The interpreter copies ops out of the arena; keep them at most 16 bytes.
        assert!(
            std::mem::size_of::<Op>() <= 16,
            "{}",
            std::mem::size_of::<Op>()
        );
        assert!(std::mem::size_of::<Ability>() <= 24);
    }
}
