//! The instructions of an ability body ([`Op`]), what they act on, and the compiled
//! [`Ability`] itself.

use super::{ActiveIn, CardIdx, CondId, Cost, Count, FilterId, Trigger, Whose};
use crate::cards::types::Exp;

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
    /// A count plus a number (`counters+2`: "X+2, where X is my number of counters").
    Plus(Count, i8),
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
    /// "A Hero (Companion) Expedition" (The Reunion): head to head the controller chooses
    /// their own or the opponent's (D60); in the Confluence mode the controller's own.
    AnyOf(Exp),
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
    /// Gain (or, negative, lose) named counters, never above `max` when it is non-zero (a
    /// support ability's "up to a max of N", which `support_over_max` may raise).
    Counters {
        obj: ObjRef,
        n: Amount,
        max: u8,
    },
    /// Spend one counter of any kind from each object (a boost if it has one, else a named
    /// counter).
    SpendCounter {
        obj: ObjRef,
    },
    /// \[Augment\]: each object that has counters gains one more of each kind it has.
    Augment {
        obj: ObjRef,
    },
    /// \[Augment\] any number of target objects matching the filter: the controller picks
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
        /// `modplace` bits.
        place: u8,
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
        /// An opponent's "may" (`opponent_hand_to_reserve(1, may)`): the player may decline;
        /// the Confluence always does it, as with `may { ... }`.
        may: bool,
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
        /// `modplace` bits.
        place: u8,
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
    /// `hand_cost`: a card played from Reserve this way may cost its Hand Cost rather than
    /// the Reserve Cost.
    Rush {
        hand_cost: bool,
    },
    /// Reveal your deck's top card; the player may play it at no cost (not from hand: no {H}
    /// abilities); if not, the player may put it into the hand, else it stays on top.
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
    /// Take control of Permanents: a Landmark joins your Landmarks; an Expedition
    /// Permanent joins my expedition (the one I stand in; else the one it stands in). A card
    /// becomes borrowed (its owner's zones stay its destinations), as with `Defect`.
    TakeControl {
        obj: ObjRef,
    },
    /// I activate one of the {R} abilities of the (first) object as if it were mine: its
    /// source is me (the player chooses which when it has several; the Confluence takes
    /// the first). The object may be anywhere (a card just discarded).
    ActivateRAsMine {
        obj: ObjRef,
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
    /// `repeat any { ... }` ("any number of"): the body runs at least once and again while
    /// `did` holds at its end (its `may` or `pay` was taken), so declining, or a cost that
    /// cannot be paid, ends it. `did` is cleared as each round begins. The body ends with a
    /// `LoopNext`; `end` is past it.
    LoopAny {
        end: u16,
    },
    /// Back to `to` (the body's start) while repetitions remain (`any`, the end of a
    /// `LoopAny`: while the round just run set `did`). The parser marks `any` so that the
    /// interpreter need not look back at the loop's head.
    LoopNext {
        to: u16,
        any: bool,
    },
    /// Choose one of `n` modes; the `n` ops that follow are `Jump`s to each mode. The
    /// controller chooses, or with `by_opponent` its opponent (`opponent_choose`).
    Choose {
        n: u8,
        by_opponent: bool,
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
