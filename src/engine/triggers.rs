//! Queuing triggered abilities. Reactions wait in `pending` and resolve one at a time when
//! no ability is running; the side with initiative resolves all of its own first.

use super::Engine;
use super::event::Observer;
use super::query::{Ctx, card_kinds};
use super::state::*;
use crate::cards::effect::*;
use crate::cards::types::{Exp, Side};

/// Something that happened that "When ..." abilities may listen to. (`Received`: a token
/// was created under that side's control, by anyone.)
#[derive(Copy, Clone, Debug)]
pub(super) enum Fire {
    Played {
        card: ObjId,
        from_reserve: bool,
    },
    /// A character or permanent left an expedition (already moved, or ceased as a token).
    LeftExpedition {
        obj: ObjId,
        token: bool,
    },
    Joined {
        obj: ObjId,
    },
    Rolled {
        side: Side,
        /// The top card of the roller's deck as the die was rolled (the card The Wayfarer
        /// reveals), the reaction's `event`.
        top: ObjId,
    },
    /// An expedition of `side` (in Confluence mode always the player's).
    ExpFailed {
        side: Side,
        exp: Exp,
    },
    ExpMoved {
        side: Side,
        exp: Exp,
    },
    ExpMovedDue {
        side: Side,
        exp: Exp,
        due: u8,
    },
    ReserveLeft {
        side: Side,
    },
    Discarded {
        obj: ObjId,
    },
    /// `side` created the token `obj` (in its own expedition or, head to head, in an
    /// opponent's: then `obj` is the opponent's).
    TokenCreated {
        side: Side,
        obj: ObjId,
    },
    Received {
        side: Side,
    },
    Boosted {
        obj: ObjId,
    },
    /// An object gained these statuses.
    Gained {
        obj: ObjId,
        bits: u32,
    },
    /// An object is being sacrificed (fired while it is still in play).
    Sacrificed {
        obj: ObjId,
    },
    /// A card went from a side's deck or hand to its Reserve.
    CardToReserve {
        side: Side,
    },
    /// A side exhausted a card in a Reserve.
    ExhaustedInReserve {
        side: Side,
    },
    PassedFirst {
        side: Side,
    },
    Drew {
        side: Side,
    },
}

impl Fire {
    /// Its `fire_class` bit.
    #[inline]
    fn class(&self) -> u32 {
        use fire_class::*;
        match self {
            Fire::Played { .. } => PLAYED,
            Fire::LeftExpedition { .. } => LEFT_EXPEDITION,
            Fire::Joined { .. } => JOINED,
            Fire::Rolled { .. } => ROLLED,
            Fire::ExpFailed { .. } => EXP_FAILED,
            Fire::ExpMoved { .. } => EXP_MOVED,
            Fire::ExpMovedDue { .. } => EXP_MOVED_DUE,
            Fire::ReserveLeft { .. } => RESERVE_LEFT,
            Fire::Discarded { .. } => DISCARDED,
            Fire::TokenCreated { .. } => TOKEN_CREATED,
            Fire::Received { .. } => RECEIVED,
            Fire::Boosted { .. } => BOOSTED,
            Fire::Gained { .. } => GAINED,
            Fire::Sacrificed { .. } => SACRIFICED,
            Fire::CardToReserve { .. } => CARD_TO_RESERVE,
            Fire::ExhaustedInReserve { .. } => EXHAUSTED_IN_RESERVE,
            Fire::PassedFirst { .. } => PASSED_FIRST,
            Fire::Drew { .. } => DREW,
        }
    }
}

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    pub(super) fn push_pending(&mut self, p: Pending) {
        let n = self.s.n_pending as usize;
        if n < self.s.pending.len() {
            self.s.pending[n] = p;
            self.s.n_pending += 1;
        } else {
            self.s.overflow = true;
        }
    }

    /// The next reaction: the first queued one of the side with initiative, else of the
    /// next seat clockwise from it that has one (digest §3: simultaneous choices go in
    /// initiative order; RULES.md F8). With two seats that is the other seat's first, which
    /// is the first queued.
    pub(super) fn take_pending(&mut self) -> Option<Pending> {
        let n = self.s.n_pending as usize;
        if n == 0 {
            return None;
        }
        let ini = self.s.initiative();
        let first_of = |side: Side| (0..n).find(|&i| self.s.pending[i].controller == side);
        let i = if N == 2 {
            first_of(ini).unwrap_or(0)
        } else {
            // Not the queue's order: events fired in a loop over the seats (Dusk, Rest)
            // queue seat 0's reactions first, whoever has the initiative.
            self.s.table.sides_from(ini).find_map(first_of).unwrap_or(0)
        };
        let p = self.s.pending[i];
        self.s.pending.copy_within(i + 1..n, i);
        self.s.n_pending -= 1;
        Some(p)
    }

    /// Queues an object's own abilities whose trigger satisfies `pred`.
    pub(super) fn trigger_own(
        &mut self,
        id: ObjId,
        event_obj: ObjId,
        pred: impl Fn(&Trigger) -> bool,
    ) {
        let o = *self.s.obj(id);
        let def = self.db.card(o.card);
        if def.ab_len == 0 {
            return;
        }
        for k in 0..def.ab_len {
            let ab_idx = def.ab_start + k;
            let ab = &self.db.abilities[ab_idx as usize];
            if pred(&ab.trigger) {
                self.push_pending(Pending {
                    ability: ab_idx,
                    source: id,
                    source_ts: o.ts,
                    controller: o.side,
                    event_obj,
                    free: false,
                });
            }
        }
    }

    /// Queues the {J}/{H}/{R} abilities that the statics of its side's objects in play grant
    /// to the just-played `id` (`grant(FILTER)`); `id` is their source.
    pub(super) fn trigger_granted(&mut self, id: ObjId, pred: impl Fn(PlayFrom) -> bool) {
        let side = self.s.obj(id).side;
        if self.s.statics[side] == 0 {
            return;
        }
        // The lists walked, as they stand now (not a copy of the whole side).
        let st = self.s.side(side);
        let (hero, landmarks, exps) = (st.hero, st.landmarks, st.exp);
        let ts = self.s.obj(id).ts;
        let holders = std::iter::once(hero)
            .chain(landmarks.iter())
            .chain(exps[0].iter())
            .chain(exps[1].iter());
        for l in holders {
            let def = self.db.card(self.s.obj(l).card);
            if def.trigger_mask & tmask::STATIC == 0 {
                continue;
            }
            for k in 0..def.ab_len {
                let ab_idx = def.ab_start + k;
                if let Trigger::Static(Static::Grant(f, from)) =
                    self.db.abilities[ab_idx as usize].trigger
                    && pred(from)
                    && self
                        .s
                        .matches(self.db, self.db.filter(f), id, &Ctx::of(side, l))
                {
                    self.push_pending(Pending {
                        ability: ab_idx,
                        source: id,
                        source_ts: ts,
                        controller: side,
                        event_obj: NO_OBJ,
                        free: false,
                    });
                }
            }
        }
    }

    /// Calls `f` on every object whose abilities can listen now to occurrences of the
    /// `fire_class` bits `class`: heroes, characters and permanents in play, and Reserve
    /// cards (for abilities active in Reserve).
    fn listeners(&self, side: Side, class: u32, mut f: impl FnMut(ObjId, bool)) {
        let s = self.s.side(side);
        let mut visit = |id: ObjId, in_reserve: bool| {
            if self.db.card(self.s.obj(id).card).fire_mask & class != 0 {
                f(id, in_reserve);
            }
        };
        visit(s.hero, false);
        for e in 0..2 {
            for id in s.exp[e].iter() {
                visit(id, false);
            }
        }
        for id in s.landmarks.iter() {
            visit(id, false);
        }
        for id in s.reserve.iter() {
            if !self.s.obj(id).has(flag::EXHAUSTED) {
                visit(id, true);
            }
        }
    }

    /// Queues every "When ..." ability that listens to `ev`. More than the queue holds is
    /// an error (`overflow`), never a silent drop.
    #[inline]
    pub(super) fn fire(&mut self, ev: Fire) {
        // Only listeners with an ability of this class of occurrence are read (most events
        // have none: then no seat is walked at all, and this test, inlined at each call,
        // is all an event costs); debug builds read all of them and check that none else
        // reacts.
        let listening = self.listening();
        self.fire_if(listening, ev);
    }

    /// The `fire_class` bits some seat listens to now (what [`Self::fire`] tests).
    #[inline]
    pub(super) fn listening(&self) -> u32 {
        self.s.listen.0.iter().fold(0, |a, &l| a | l)
    }

    /// [`Self::fire`] with its test on `listening`, read by the caller before: for a
    /// caller that fires several events with nothing in between that could change what
    /// the seats listen to (only objects coming into the game add to it).
    #[inline]
    pub(super) fn fire_if(&mut self, listening: u32, ev: Fire) {
        if !cfg!(debug_assertions) && listening & ev.class() == 0 {
            return;
        }
        self.fire_listeners(ev);
    }

    /// [`Self::fire`] past its test: walks the seats that may react.
    #[inline(never)]
    fn fire_listeners(&mut self, ev: Fire) {
        let class = if cfg!(debug_assertions) {
            u32::MAX
        } else {
            ev.class()
        };
        let mut found: [(ObjId, u16, ObjId); 32] = [(0, 0, 0); 32];
        let mut lost = false;
        let mut n = 0;
        // Clockwise from the initiative; every event walks it, so the table keeps it.
        let order = self.s.table.sides_from(self.s.initiative());
        for side in order {
            if !cfg!(debug_assertions) && self.s.listen[side] & ev.class() == 0 {
                continue;
            }
            self.listeners(side, class, |id, in_reserve| {
                let o = self.s.obj(id);
                let def = self.db.card(o.card);
                for k in 0..def.ab_len {
                    let ab_idx = def.ab_start + k;
                    let ab = &self.db.abilities[ab_idx as usize];
                    let Trigger::When(event) = ab.trigger else {
                        continue;
                    };
                    let active = match ab.active {
                        ActiveIn::Reserve => in_reserve,
                        ActiveIn::Play => !in_reserve,
                        ActiveIn::Anywhere => true,
                    };
                    if !active {
                        continue;
                    }
                    if let Some(event_obj) = self.listens(id, event, ev) {
                        debug_assert!(
                            event.fire_classes() & ev.class() != 0,
                            "{event:?} reacted to {ev:?} outside its fire classes"
                        );
                        debug_assert!(
                            self.s.listen[o.side] & ev.class() != 0,
                            "side {:?} reacted to {ev:?} outside `listen`",
                            o.side
                        );
                        if n < found.len() {
                            found[n] = (id, ab_idx, event_obj);
                            n += 1;
                        } else {
                            lost = true;
                        }
                    }
                }
            });
        }
        if lost {
            self.s.overflow = true;
        }
        for &(id, ab_idx, event_obj) in &found[..n] {
            let o = *self.s.obj(id);
            self.push_pending(Pending {
                ability: ab_idx,
                source: id,
                source_ts: o.ts,
                controller: o.side,
                event_obj,
                free: false,
            });
        }
    }

    /// Does listener `id` with trigger `event` react to `ev`? Returns the event object.
    fn listens(&self, id: ObjId, event: EventKind, ev: Fire) -> Option<ObjId> {
        let me = self.s.obj(id);
        let db = self.db;
        let ctx = Ctx::of(me.side, id);
        let in_exp = |e: Exp| {
            me.zone == Zone::Expedition && (me.exp == e || self.s.has_kw(db, id, flag::GIGANTIC))
        };
        match (event, ev) {
            (EventKind::YouPlay(f), Fire::Played { card, .. }) => (self.s.obj(card).side
                == me.side
                && card != id
                && self.s.matches_card(db, db.filter(f), card, me.side))
            .then_some(card),
            (EventKind::YouPlayFromReserve(f), Fire::Played { card, from_reserve }) => {
                (from_reserve
                    && self.s.obj(card).side == me.side
                    && card != id
                    && self.s.matches_card(db, db.filter(f), card, me.side))
                .then_some(card)
            }
            (EventKind::LeavesYourExpeditions(f), Fire::LeftExpedition { obj, token }) => {
                let fl = db.filter(f);
                (self.s.obj(obj).side == me.side
                    && fl.token.is_none_or(|t| t == token)
                    && self.s.matches_card(db, fl, obj, me.side))
                .then_some(obj)
            }
            (EventKind::YouPlayFirst(f), Fire::Played { card, .. }) => {
                let c = self.s.obj(card);
                let kinds = card_kinds(db.card(c.card)) & db.filter(f).kinds;
                (c.side == me.side
                    && self.s.matches_card(db, db.filter(f), card, me.side)
                    && self.s.today.first_play_seen & kinds_mask(me.side, kinds) == 0)
                    .then_some(card)
            }
            (
                EventKind::OpponentPlaysFromReserve(f),
                Fire::Played {
                    card,
                    from_reserve: true,
                },
            ) => (self.s.obj(card).side != me.side
                && self.s.matches_card(db, db.filter(f), card, me.side))
            .then_some(card),
            (EventKind::OpponentPlays(f), Fire::Played { card, .. }) => (self.s.obj(card).side
                != me.side
                && self.s.matches_card(db, db.filter(f), card, me.side))
            .then_some(card),
            (EventKind::Joins(f), Fire::Joined { obj }) => (self.s.obj(obj).side == me.side
                && self.s.matches(db, db.filter(f), obj, &ctx))
            .then_some(obj),
            (EventKind::JoinsFacing(f), Fire::Joined { obj }) => {
                // A Gigantic character joins (and faces) both expeditions (S3 7.4.3.h).
                let o = self.s.obj(obj);
                // (A Landmark joins no expedition.)
                let facing = o.zone == Zone::Expedition
                    && (in_exp(o.exp)
                        || (me.zone == Zone::Expedition && self.s.has_kw(db, obj, flag::GIGANTIC)));
                (o.side != me.side && facing && self.s.matches(db, db.filter(f), obj, &ctx))
                    .then_some(obj)
            }
            (EventKind::YouRoll, Fire::Rolled { side, top }) => (side == me.side).then_some(top),
            (EventKind::MyExpFails, Fire::ExpFailed { side, exp }) => {
                (me.side == side && in_exp(exp)).then_some(NO_OBJ)
            }
            (EventKind::MyExpMoves, Fire::ExpMoved { side, exp }) => {
                (me.side == side && in_exp(exp)).then_some(NO_OBJ)
            }
            (EventKind::AscendedMoves { unfaced }, Fire::ExpMoved { side, exp }) => {
                let counts = |e: Exp| {
                    self.s.ascended(side, e) && (!unfaced || !self.faced_by_character(side, e))
                };
                // Expeditions moving together at Dusk trigger it once: the Hero's move stands
                // for both.
                let together = exp == Exp::Companion
                    && self.s.phase == Phase::Progress
                    && self.s.advanced(side, Exp::Hero)
                    && counts(Exp::Hero);
                (me.side == side && counts(exp) && !together).then_some(NO_OBJ)
            }
            (EventKind::MyExpMovesDue(t), Fire::ExpMovedDue { side, exp, due }) => {
                (me.side == side && in_exp(exp) && due & t != 0).then_some(NO_OBJ)
            }
            (EventKind::YourExpMovesDue(t), Fire::ExpMovedDue { side, due, .. }) => {
                (me.side == side && due & t != 0).then_some(NO_OBJ)
            }
            (EventKind::LeavesYourReserve, Fire::ReserveLeft { side }) => {
                (side == me.side).then_some(NO_OBJ)
            }
            (EventKind::CardDiscarded, Fire::Discarded { obj }) => Some(obj),
            (EventKind::YouCreateToken(f), Fire::TokenCreated { side, obj }) => {
                (side == me.side && self.s.matches(db, db.filter(f), obj, &ctx)).then_some(obj)
            }
            (EventKind::YourCharacterBoosted, Fire::Boosted { obj }) => {
                (self.s.obj(obj).side == me.side).then_some(obj)
            }
            (EventKind::IGain(b), Fire::Gained { obj, bits }) => {
                (obj == id && bits & b != 0).then_some(obj)
            }
            (EventKind::YourCharacterGains(b), Fire::Gained { obj, bits }) => {
                let o = self.s.obj(obj);
                (o.side == me.side && bits & b != 0 && db.card(o.card).kind.is_character())
                    .then_some(obj)
            }
            (EventKind::YouSacrifice(f), Fire::Sacrificed { obj }) => {
                (self.s.obj(obj).side == me.side && self.s.matches(db, db.filter(f), obj, &ctx))
                    .then_some(obj)
            }
            (EventKind::YourCardToReserve, Fire::CardToReserve { side }) => {
                (side == me.side).then_some(NO_OBJ)
            }
            (EventKind::YouExhaustInReserve, Fire::ExhaustedInReserve { side }) => {
                (side == me.side).then_some(NO_OBJ)
            }
            (EventKind::YouPassFirst, Fire::PassedFirst { side }) => {
                (side == me.side).then_some(NO_OBJ)
            }
            (EventKind::OpponentDraws, Fire::Drew { side }) => (side != me.side).then_some(NO_OBJ),
            // A Gift: during your turn (your card or action resolving included), an opponent
            // gets a card (draw or Resupply) or a token.
            (EventKind::YouGift, Fire::Drew { side: to } | Fire::Received { side: to }) => {
                let my_turn = matches!(
                    self.s.phase,
                    Phase::Turn
                        | Phase::TurnEnd
                        | Phase::ConfluenceQuick(_)
                        | Phase::ConfluencePlay
                ) && self.s.to_act == me.side;
                (to != me.side && my_turn).then_some(NO_OBJ)
            }
            _ => None,
        }
    }

    /// An opposing character faces this expedition (one in the expedition across from it,
    /// or a Gigantic one of that seat): the Confluence's, the other player's, or with four
    /// seats the one across the lane.
    fn faced_by_character(&self, side: Side, e: Exp) -> bool {
        let Some((them, e)) = self.s.facing_of(side, e) else {
            return false;
        };
        let conf = self.s.side(them);
        Exp::BOTH.iter().any(|&x| {
            conf.exp[x.index()].iter().any(|id| {
                self.db.card(self.s.obj(id).card).kind.is_character()
                    && (x == e || self.s.has_kw(self.db, id, flag::GIGANTIC))
            })
        })
    }

    /// Records the kinds of a card played this Afternoon (for "the first ... each Afternoon").
    pub(super) fn note_first_play(&mut self, card: ObjId) {
        let c = self.s.obj(card);
        let kinds = card_kinds(self.db.card(c.card));
        self.s.today.first_play_seen |= kinds_mask(c.side, kinds);
    }
}

/// `first_play_seen` keeps character/permanent/spell bits per seat, four bits a seat.
#[inline]
fn kinds_mask(side: Side, kinds: u8) -> u16 {
    let k = (kinds & fkind::CHARACTER != 0) as u16
        | (((kinds & fkind::PERMANENT) != 0) as u16) << 1
        | (((kinds & fkind::SPELL) != 0) as u16) << 2;
    k << (side.index() * 4)
}
