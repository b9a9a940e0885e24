//! The player's options at each decision point, written into a reused buffer.
//!
//! Layer: part of [`crate::engine`]; may use `cards` and nothing else of the crate.

use arrayvec::ArrayVec;

use super::flow::{MAX_FREE_PLAYS_PER_DAY, MAX_QUICK_PER_DAY};
use super::list::List;
use super::query::Ctx;
use super::state::*;
use crate::cards::db::CardDb;
use crate::cards::effect::*;
use crate::cards::types::*;

/// How a card is paid for when it is not simply its Hand or Reserve cost.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Alt {
    None,
    /// Scout X from hand: pay X; the card gains "{H}: send me to Reserve".
    Scout,
    /// Discard this Reserve card to reduce the cost (e.g. Paint Prison).
    Discard(ObjId),
    /// Exhaust this ready Reserve card to reduce the cost (Moth Decoy).
    Exhaust(ObjId),
    /// Sacrifice this Permanent to reduce the cost (Detonation).
    Sacrifice(ObjId),
    /// Played for free by an effect.
    Free,
    /// Played by an effect for N less than its cost.
    Less(u8),
    /// Its own "you may play me for N less" (`alt_less`), which its effect may restrict.
    Cheaper(u8),
    /// Played from Reserve for the Hand Cost rather than the Reserve Cost (a Rush that
    /// allows it); it is still played from Reserve.
    HandCost,
}

impl Alt {
    /// How a card played by `Op::PlayFree` with this `less` is paid.
    pub fn paying_less(less: u8) -> Alt {
        match less {
            playflag::FREE => Alt::Free,
            0 => Alt::None,
            n => Alt::Less(n),
        }
    }
}

/// One option of a decision. Small and `Copy`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    Pass,
    /// Play a card from hand or Reserve into an expedition (the expedition is ignored for
    /// Landmarks and Spells, and is then always `Hero`).
    Play {
        obj: ObjId,
        from_reserve: bool,
        exp: Exp,
        alt: Alt,
    },
    /// Use the quick action (or support ability) number `ability` of `obj`.
    Quick {
        obj: ObjId,
        ability: u8,
    },
    Card(ObjId),
    Exp(Exp),
    /// The opponent's expedition on that side (for the Confluence: the Darkness there).
    OpposingExp(Exp),
    Yes,
    No,
    Mode(u8),
    /// Stop choosing (enough targets, or no card for Expand).
    Done,
    /// Free for All: this seat is the opponent the effect concerns (`Decision::Seat`).
    Seat(u8),
}

/// Enough for a full hand played into either expedition plus the Reserve and quick actions.
pub type ChoiceList = ArrayVec<Choice, 256>;

#[inline]
fn push(out: &mut ChoiceList, c: Choice) {
    let _ = out.try_push(c);
}

pub(super) fn legal<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    out: &mut ChoiceList,
) {
    out.clear();
    let player = s.side(s.decider);
    match s.decision {
        Decision::None => {}
        Decision::SetupMana | Decision::HandCard => {
            // An opponent's "may" (`opponent_hand_to_reserve(1, may)`) may be declined.
            if s.decision == Decision::HandCard
                && let Some(f) = s.frame()
                && let Op::FromHand { may: true, .. } =
                    db.op(&db.abilities[f.ability as usize], f.pc)
            {
                push(out, Choice::Done);
            }
            for id in player.hand.iter() {
                push(out, Choice::Card(id));
            }
        }
        Decision::Expand => {
            push(out, Choice::Done);
            for id in player.hand.iter() {
                push(out, Choice::Card(id));
            }
        }
        Decision::Turn => turn_options(s, db, out),
        Decision::Target => target_options(s, db, out),
        Decision::PlayFree => play_free_options(s, db, out),
        Decision::Expedition => expedition_options(s, db, out),
        Decision::May => {
            push(out, Choice::Yes);
            push(out, Choice::No);
        }
        Decision::Mode => mode_options(s, db, out),
        Decision::Die => {
            let f = s.frame().expect("die decision without frame");
            push(out, Choice::Mode(f.dice[0]));
            if f.dice[1] != f.dice[0] {
                push(out, Choice::Mode(f.dice[1]));
            }
        }
        Decision::ResupplyPick => {
            // The two revealed top cards of the player's deck.
            let d = &player.deck;
            for k in 0..d.len().min(2) {
                push(out, Choice::Card(d.as_slice()[d.len() - 1 - k]));
            }
        }
        Decision::ReserveCard | Decision::CleanupReserve => {
            for id in player.reserve.iter() {
                push(out, Choice::Card(id));
            }
        }
        Decision::RestOrder => {
            for side in const { Side::seats::<N>() } {
                let waiting = super::night::rest_waiting(s, side);
                if !waiting.is_empty() {
                    for id in waiting.iter() {
                        push(out, Choice::Card(id));
                    }
                    break;
                }
            }
        }
        Decision::CleanupLandmark => {
            for id in player.landmarks.iter() {
                push(out, Choice::Card(id));
            }
        }
        Decision::Seat => {
            for side in s.table.opponents(s.decider) {
                push(out, Choice::Seat(side.seat()));
            }
        }
        Decision::Sacrifice => sacrifice_options(s, db, out),
    }
}

/// The options of a target decision: the candidates of the running ability's `Select`
/// (or of an op that chooses like one), and `Done` where stopping is allowed.
fn target_options<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    out: &mut ChoiceList,
) {
    let f = s.frame().expect("target decision without frame");
    let ab = db.abilities[f.ability as usize];
    // The player chooses one of their own for an opponent's effect (no Tough).
    if let Op::OpponentSelect { filter } = db.op(&ab, f.pc) {
        // With four seats the chosen opponent picks among its own only.
        s.for_each_candidate(db, db.filter(filter), &f.ctx(), |id| {
            if N == 2 || s.obj(id).side == s.decider {
                push(out, Choice::Card(id))
            }
        });
        return;
    }
    if let Op::AugmentAny { filter } = db.op(&ab, f.pc) {
        // Any number: stop at any time.
        push(out, Choice::Done);
        let mut cands: List<64> = List::new();
        s.augment_candidates(db, f, filter, &mut cands);
        for id in cands.iter() {
            push(out, Choice::Card(id));
        }
        return;
    }
    if let Op::RevealPut { filter, .. } = db.op(&ab, f.pc) {
        push(out, Choice::Done);
        for id in s.reveal_candidates(db, f, filter).iter() {
            push(out, Choice::Card(id));
        }
        return;
    }
    let Op::Select {
        filter,
        min,
        total_cost,
        total_of,
        ..
    } = db.op(&ab, f.pc)
    else {
        return;
    };
    let mut cands: List<64> = List::new();
    s.select_candidates(db, f, filter, total_cost, total_of, &mut cands);
    if f.it.len() >= min as usize || cands.is_empty() {
        push(out, Choice::Done);
    }
    for id in cands.iter() {
        push(out, Choice::Card(id));
    }
}

/// The options of a play-for-free decision (a Rush, the revealed top card, `Op::PlayFree`).
fn play_free_options<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    out: &mut ChoiceList,
) {
    let player = s.side(s.decider);
    let f = s.frame().expect("play-free decision without frame");
    let ab = db.abilities[f.ability as usize];
    match db.op(&ab, f.pc) {
        Op::Rush { hand_cost } => {
            push(out, Choice::Done);
            rush_plays(s, db, hand_cost, out);
        }
        // The revealed top card of the deck (`it`), for free.
        Op::TopPlayOrHand => {
            push(out, Choice::Done);
            if let Some(id) = f.it.first()
                && s.playable(db, id)
                && s.cost_floor(db, id) <= player.mana_ready
            {
                let kind = db.card(s.obj(id).card).kind;
                if kind.goes_to_expedition() {
                    for e in Exp::BOTH {
                        if !player.exp[e.index()].is_full() {
                            push(
                                out,
                                Choice::Play {
                                    obj: id,
                                    from_reserve: false,
                                    exp: e,
                                    alt: Alt::Free,
                                },
                            );
                        }
                    }
                } else if matches!(kind, CardKind::Spell | CardKind::Landmark) {
                    push(
                        out,
                        Choice::Play {
                            obj: id,
                            from_reserve: false,
                            exp: Exp::Hero,
                            alt: Alt::Free,
                        },
                    );
                }
            }
        }
        _ => play_now_choices(s, db, f, out),
    }
}

/// The options of an expedition decision: the decider's own expeditions, or either
/// side's where the op allows.
fn expedition_options<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    out: &mut ChoiceList,
) {
    // `select_exp` (and head to head a token in target Expedition) may offer either
    // side's expeditions; other ops the player's own.
    let whose = s
        .frame()
        .map(|f| db.op(&db.abilities[f.ability as usize], f.pc))
        .and_then(|op| match op {
            Op::SelectExp { whose, .. } => Some(whose),
            // Head to head, a token "in target Expedition" may be created in an
            // opposing one, and "target Expedition moves forward" may be an
            // opposing one (D60).
            Op::Token {
                at: ExpRef::Target,
                opposing: false,
                after_rest: false,
                ..
            }
            | Op::MoveExp {
                at: ExpRef::Target,
                opposing: false,
                ..
            } if s.mode.versus() => Some(Whose::Any),
            _ => None,
        })
        .unwrap_or(Whose::Yours);
    // "A Hero (Companion) Expedition" head to head: either player's of that kind.
    let only = s
        .frame()
        .map(|f| db.op(&db.abilities[f.ability as usize], f.pc))
        .and_then(|op| match op {
            Op::Token {
                at: ExpRef::AnyOf(e),
                ..
            }
            | Op::MoveExp {
                at: ExpRef::AnyOf(e),
                ..
            } => Some(e),
            _ => None,
        });
    if let Some(e) = only {
        push(out, Choice::Exp(e));
        push(out, Choice::OpposingExp(e));
        return;
    }
    if whose != Whose::Opposing {
        push(out, Choice::Exp(Exp::Hero));
        push(out, Choice::Exp(Exp::Companion));
    }
    if whose != Whose::Yours {
        push(out, Choice::OpposingExp(Exp::Hero));
        push(out, Choice::OpposingExp(Exp::Companion));
    }
}

/// The options of a mode decision: a "choose one", an {R} ability to activate, a Terrain
/// Marker.
fn mode_options<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    out: &mut ChoiceList,
) {
    let f = s.frame().expect("mode decision without frame");
    let ab = db.abilities[f.ability as usize];
    match db.op(&ab, f.pc) {
        Op::Choose { n, .. } => {
            for k in 0..n {
                push(out, Choice::Mode(k));
            }
        }
        // Which {R} ability of `it` to activate.
        Op::ActivateRAsMine { .. } => {
            if let Some(id) = f.it.first() {
                for k in 0..s.r_abilities(db, id) {
                    push(out, Choice::Mode(k));
                }
            }
        }
        op => {
            for k in s.marker_options(f, op).iter() {
                push(out, Choice::Mode(k));
            }
        }
    }
}

/// The options of a sacrifice for a cost.
fn sacrifice_options<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    out: &mut ChoiceList,
) {
    let player = s.side(s.decider);
    // A cost names what it sacrifices; "sacrifices a character" otherwise.
    let f = s.frame().expect("sacrifice decision without frame");
    let ab = db.abilities[f.ability as usize];
    let kinds = match db.op(&ab, f.pc) {
        Op::Pay { cost, .. } if cost.sacrifice != 0 => cost.sacrifice,
        Op::SacrificeHighest { filter, .. } => {
            // Only the objects tied for the highest Base Cost.
            for id in s.highest_base_cost(db, s.decider, filter, &f.ctx()).iter() {
                push(out, Choice::Card(id));
            }
            return;
        }
        _ => fkind::CHARACTER,
    };
    for id in player.exp[0]
        .iter()
        .chain(player.exp[1].iter())
        .chain(player.landmarks.iter())
    {
        if super::query::kind_bit(db.card(s.obj(id).card).kind) & kinds != 0 {
            push(out, Choice::Card(id));
        }
    }
}

/// The options of an `Op::PlayFree` decision of the running frame `f`: the ways to play
/// each card it allows (at full cost, every way to pay: the cost, Scout, a discard), and
/// `Done` when the play is optional or nothing can be played.
pub(super) fn play_now_choices<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    f: &Frame,
    out: &mut ChoiceList,
) {
    out.clear();
    let ab = db.abilities[f.ability as usize];
    let Op::PlayFree {
        filter,
        less,
        exp,
        flags,
        ..
    } = db.op(&ab, f.pc)
    else {
        return;
    };
    let mut alts: ArrayVec<Alt, 66> = ArrayVec::new();
    s.play_now_options(
        db,
        f,
        s.decider,
        (filter, less, exp, flags),
        |obj, from_reserve, exp| {
            alts.clear();
            if less == 0 {
                let into = db
                    .card(s.obj(obj).card)
                    .kind
                    .goes_to_expedition()
                    .then_some(exp);
                pay_options(s, db, obj, from_reserve, into, &mut alts);
            } else {
                alts.push(Alt::paying_less(less));
            }
            for &alt in &alts {
                push(
                    out,
                    Choice::Play {
                        obj,
                        from_reserve,
                        exp,
                        alt,
                    },
                );
            }
        },
    );
    // An optional play can be declined; a mandatory one only when nothing qualifies.
    if flags & playflag::OPTIONAL != 0 || out.is_empty() {
        out.insert(0, Choice::Done);
    }
}

/// The ways `id` can be paid for now, with their costs.
fn pay_options<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    id: ObjId,
    from_reserve: bool,
    exp: Option<Exp>,
    out: &mut ArrayVec<Alt, 66>,
) {
    let ready = s.side(s.decider).mana_ready;
    let cost = s.play_cost_in(db, id, from_reserve, exp);
    if cost <= ready {
        out.push(Alt::None);
    }
    // A cheaper way to pay still pays an opponent's "can't cost less than N".
    let floor = s.cost_floor(db, id);
    let def = db.card(s.obj(id).card);
    if !from_reserve && def.scout > 0 && def.scout < cost && def.scout.max(floor) <= ready {
        out.push(Alt::Scout);
    }
    if def.trigger_mask & tmask::STATIC != 0 {
        for ab in db.abilities_of(s.obj(id).card) {
            // Offered whenever legal, also when the full cost could be paid.
            if let Trigger::Static(Static::DiscardDiscount(n)) = ab.trigger
                && cost.saturating_sub(n).max(floor) <= ready
            {
                for r in s.side(s.decider).reserve.iter() {
                    if r != id && !out.is_full() {
                        out.push(Alt::Discard(r));
                    }
                }
            }
            if let Trigger::Static(Static::ExhaustDiscount(n)) = ab.trigger
                && cost.saturating_sub(n).max(floor) <= ready
            {
                for r in s.side(s.decider).reserve.iter() {
                    if r != id && !s.obj(r).has(flag::EXHAUSTED) && !out.is_full() {
                        out.push(Alt::Exhaust(r));
                    }
                }
            }
            if let Trigger::Static(Static::AltLess(n)) = ab.trigger
                && cost.saturating_sub(n).max(floor) <= ready
                && !out.is_full()
            {
                out.push(Alt::Cheaper(n));
            }
            if let Trigger::Static(Static::SacrificeDiscount(n)) = ab.trigger
                && cost.saturating_sub(n).max(floor) <= ready
            {
                let p = s.side(s.decider);
                for r in p
                    .landmarks
                    .iter()
                    .chain(p.exp[0].iter())
                    .chain(p.exp[1].iter())
                {
                    let permanent =
                        super::query::kind_bit(db.card(s.obj(r).card).kind) & fkind::PERMANENT != 0;
                    if permanent && !out.is_full() {
                        out.push(Alt::Sacrifice(r));
                    }
                }
            }
        }
    }
}

/// The cards the player could play now for a Rush, appended to `out`: those of
/// [`legal_plays`], and with `hand_cost` also each ready Reserve card for its Hand Cost
/// (rather than the Reserve Cost), where that can be paid.
pub(super) fn rush_plays<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    hand_cost: bool,
    out: &mut ChoiceList,
) {
    legal_plays(s, db, out);
    if !hand_cost {
        return;
    }
    let p = s.side(s.decider);
    for id in p.reserve.iter() {
        let o = s.obj(id);
        if o.has(flag::EXHAUSTED) || !s.playable(db, id) {
            continue;
        }
        let kind = db.card(o.card).kind;
        let to_exp = kind.goes_to_expedition();
        if !to_exp && !matches!(kind, CardKind::Spell | CardKind::Landmark) {
            continue;
        }
        let allowed = s.start_region_exps(db, id, s.decider);
        for e in Exp::BOTH {
            // Spells and Landmarks are offered once (as the Hero expedition, as elsewhere).
            let open = if to_exp {
                !p.exp[e.index()].is_full() && allowed & (1 << e.index()) != 0
            } else {
                e == Exp::Hero
            };
            if !open {
                continue;
            }
            let at = to_exp.then_some(e);
            if s.play_cost_in(db, id, false, at) <= p.mana_ready {
                push(
                    out,
                    Choice::Play {
                        obj: id,
                        from_reserve: true,
                        exp: e,
                        alt: Alt::HandCost,
                    },
                );
            }
        }
    }
}

/// The cards the player could play now, as on their turn (for Rush), appended to `out`.
pub(super) fn legal_plays<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    out: &mut ChoiceList,
) {
    let mut all = ChoiceList::new();
    turn_options(s, db, &mut all);
    for c in all {
        if matches!(c, Choice::Play { .. }) {
            push(out, c);
        }
    }
}

fn turn_options<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    out: &mut ChoiceList,
) {
    push(out, Choice::Pass);
    let p = s.side(s.decider);
    let mut alts: ArrayVec<Alt, 66> = ArrayVec::new();
    // Unlimited mana: a loop guard on plays, as S1 1.4.6 has on quick actions (D51).
    let plays_left = !s.variant.free_mana || s.today.plays[s.decider] < MAX_FREE_PLAYS_PER_DAY;
    let lists: &[(&Zone64, bool)] = if plays_left {
        &[(&p.hand, false), (&p.reserve, true)]
    } else {
        &[]
    };
    for &(list, from_reserve) in lists {
        for id in list.iter() {
            let o = s.obj(id);
            let allowed = if from_reserve && o.has(flag::EXHAUSTED) {
                s.exhausted_play_exps(db, id)
            } else {
                0b11
            } & s.start_region_exps(db, id, s.decider);
            if allowed == 0 {
                continue;
            }
            if !s.playable(db, id) {
                continue;
            }
            let kind = db.card(o.card).kind;
            if kind.goes_to_expedition() && s.cost_depends_on_exp(db, id) {
                // Its cost depends on the expedition: the ways to pay, expedition by expedition.
                for e in Exp::BOTH {
                    alts.clear();
                    pay_options(s, db, id, from_reserve, Some(e), &mut alts);
                    for &alt in &alts {
                        if allowed & (1 << e.index()) != 0 && !p.exp[e.index()].is_full() {
                            push(
                                out,
                                Choice::Play {
                                    obj: id,
                                    from_reserve,
                                    exp: e,
                                    alt,
                                },
                            );
                        }
                    }
                }
                continue;
            }
            alts.clear();
            pay_options(s, db, id, from_reserve, None, &mut alts);
            for &alt in &alts {
                if kind.goes_to_expedition() {
                    for e in Exp::BOTH {
                        if allowed & (1 << e.index()) != 0 && !p.exp[e.index()].is_full() {
                            push(
                                out,
                                Choice::Play {
                                    obj: id,
                                    from_reserve,
                                    exp: e,
                                    alt,
                                },
                            );
                        }
                    }
                } else if matches!(kind, CardKind::Spell | CardKind::Landmark) {
                    push(
                        out,
                        Choice::Play {
                            obj: id,
                            from_reserve,
                            exp: Exp::Hero,
                            alt,
                        },
                    );
                }
            }
        }
    }
    if s.today.quick_uses >= MAX_QUICK_PER_DAY {
        return;
    }
    let mut visit = |id: ObjId, in_reserve: bool| {
        let o = s.obj(id);
        let def = db.card(o.card);
        if def.trigger_mask & (tmask::QUICK | tmask::SUPPORT) == 0 {
            return;
        }
        if in_reserve && o.has(flag::EXHAUSTED) {
            return;
        }
        for (k, ab) in db.abilities_of(o.card).iter().enumerate() {
            let cost = match (ab.trigger, in_reserve) {
                (Trigger::Quick(c), false) | (Trigger::Support(c), true) => c,
                _ => continue,
            };
            if s.can_pay(db, s.decider, id, &cost)
                && s.eval_cond(db, ab.cond, &Ctx::of(s.decider, id))
            {
                push(
                    out,
                    Choice::Quick {
                        obj: id,
                        ability: k as u8,
                    },
                );
            }
        }
    };
    visit(p.hero, false);
    for e in 0..2 {
        for id in p.exp[e].iter() {
            visit(id, false);
        }
    }
    for id in p.landmarks.iter() {
        visit(id, false);
    }
    for id in p.reserve.iter() {
        visit(id, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_stay_small() {
        assert!(
            std::mem::size_of::<Choice>() <= 8,
            "{}",
            std::mem::size_of::<Choice>()
        );
    }
}
