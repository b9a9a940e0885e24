//! Events, triggers and static abilities: when an ability applies, and the small flag sets
//! (trigger masks, modifiers, play flags) that go with them.

use super::{Count, ExpRef, FilterId};
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
    /// An object matching the filter joins your expeditions or Landmarks: a Character or a
    /// Permanent played or created there, a Character that defects to you, a Permanent you
    /// take control of.
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
    /// You create a token matching the filter (a token character: tokens in expeditions), in
    /// any expedition, an opponent's included (D60); the event object is the token created.
    /// A token that joins your expeditions some other way (an opponent's, one that defects)
    /// is not one you create (D62).
    YouCreateToken(FilterId),
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
            EventKind::YouCreateToken(_) => TOKEN_CREATED,
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
    /// I cost this much more (negative: less) to play into an expedition of yours that is
    /// In Contact ("you may play me for N less in an Expedition that's In Contact").
    CostInContactExp(i8),
    /// I cost this much more (negative: less) to play into an expedition of yours that
    /// stands in a starting region (region 0 or 7: where the expeditions start).
    CostInStartExp(i8),
    /// I can't be played into an expedition of yours that stands in a starting region.
    NotInStartExp,
    /// The expedition I stand in, with its characters, counts as In Contact.
    ConsideredInContact,
    /// My expedition is considered behind (even if it is tied or ahead).
    ConsideredBehind,
    /// Replacement: about to move from an expedition into Reserve, I gain these statuses
    /// (Fleeting) and defect in its place.
    DefectInstead(u32),
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
    /// Optional discount: exhaust one of your ready Reserve cards and I cost N less (offered
    /// as its own play option, like `DiscardDiscount`).
    ExhaustDiscount(u8),
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

/// Where a "the next Character ..." modifier applies (`TurnMod::place`,
/// `Op::NextBoost`/`Op::NextActivateR`).
pub mod modplace {
    /// Only into the side's Hero expedition.
    pub const HERO: u8 = 1 << 0;
    /// Only into the side's Companion expedition.
    pub const COMPANION: u8 = 1 << 1;
    /// A token created there takes it too ("joins", not only "is played").
    pub const JOINS: u8 = 1 << 2;
    /// (In an op) only into the expedition of the ability's source, read as it resolves:
    /// becomes `HERO` or `COMPANION`.
    pub const MINE: u8 = 1 << 3;
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
