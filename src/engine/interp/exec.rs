//! The dispatch of one op: each operation of the effect language, the simple ones done
//! in place, the ones with steps or choices handed to the files beside this one.

use super::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    pub(super) fn exec(&mut self, op: Op, f: &Frame) -> Flow {
        let db = self.db;
        // Free for All: an op naming "an opponent" runs once its controller chose which.
        let chosen;
        let f = if N != 2 && f.opp == NO_SEAT && names_opponent(&op) {
            if !self.choose_opponent(f) {
                return Flow::Wait;
            }
            chosen = *self.s.frame().expect("frame");
            &chosen
        } else {
            f
        };
        match op {
            Op::Select { .. } => self.exec_select(f, op),
            Op::SelectExp { whose, ahead } => self.exec_select_exp(f, whose, ahead),
            Op::OpponentSelect { filter } => {
                let mut first = NO_OBJ;
                let mut any = false;
                // With four seats the chosen opponent picks among its own only.
                let chooser = self.opp_of(f);
                let s = &*self.s;
                self.s
                    .for_each_candidate(db, db.filter(filter), &self.ctx(f), |id| {
                        if N != 2 && s.obj(id).side != chooser {
                            return;
                        }
                        if !any {
                            first = id;
                            any = true;
                        }
                    });
                self.frame_mut().it.clear();
                if !any {
                    return Flow::Next;
                }
                if self.s.scripted(chooser) {
                    let _ = self.frame_mut().it.push(first);
                    Flow::Next
                } else {
                    self.ask(Decision::Target, chooser);
                    Flow::Wait
                }
            }
            Op::Boost { obj, n, max } => {
                let max = self.support_max(f, max);
                for id in self.resolve_objs(obj, f).iter() {
                    let n = self.amount_for(n, f, id);
                    // "Up to a max of N" never takes boosts away.
                    let n = if max > 0 && n > 0 {
                        n.min(max as i16 - self.s.obj(id).boosts as i16).max(0)
                    } else {
                        n
                    };
                    self.boost(id, n);
                }
                Flow::Next
            }
            Op::Counters { obj, n, max } => {
                let max = self.support_max(f, max);
                let n = self.amount(n, f);
                for id in self.resolve_objs(obj, f).iter() {
                    // "Up to a max of N" never takes counters away.
                    let n = if max > 0 && n > 0 {
                        n.min(max as i16 - self.s.obj(id).counters as i16).max(0)
                    } else {
                        n
                    };
                    if n != 0 {
                        self.add_counters(id, n);
                    }
                }
                Flow::Next
            }
            Op::SpendCounter { obj } => {
                for id in self.resolve_objs(obj, f).iter() {
                    let o = *self.s.obj(id);
                    if o.boosts > 0 {
                        self.boost(id, -1);
                    } else if o.counters > 0 {
                        self.s.obj_mut(id).counters -= 1;
                    }
                }
                Flow::Next
            }
            Op::Augment { obj } => {
                for id in self.resolve_objs(obj, f).iter() {
                    self.augment(id);
                }
                Flow::Next
            }
            Op::AugmentAny { filter } => self.exec_augment_any(filter),
            Op::Draw { who, n } => {
                let n = self.amount(n, f).max(0) as u8;
                for side in self.sides_of(who, f.controller).iter() {
                    let side = Side::of_seat(side);
                    self.draw(side, n);
                    self.fire(Fire::Drew { side });
                }
                Flow::Next
            }
            Op::Resupply {
                who,
                exhausted,
                keep,
            } => {
                // The Ouroboros (R2): the player's own Resupply reveals two and keeps one.
                if who == Who::You
                    && !self.s.scripted(f.controller)
                    && self
                        .side_has_static(f.controller, |st| matches!(st, Static::ResupplyRevealTwo))
                {
                    return self.exec_resupply_two(f.controller, exhausted);
                }
                for side in self.sides_of(who, f.controller).iter() {
                    let side = Side::of_seat(side);
                    let put = self.resupply(side, exhausted);
                    // Your own Resupply (or `resupply(it)`): the card put in Reserve
                    // becomes `it`.
                    if keep || who == Who::You {
                        let fr = self.frame_mut();
                        fr.it.clear();
                        if let Some(id) = put {
                            let _ = fr.it.push(id);
                        }
                    }
                    self.fire(Fire::Drew { side });
                }
                Flow::Next
            }
            Op::RevealTop => {
                let top = self.take_top(f.controller);
                let fr = self.frame_mut();
                fr.it.clear();
                if let Some(id) = top {
                    let _ = fr.it.push(id);
                    if f.controller == Side::Player || self.s.mode.versus() {
                        self.s.obj_mut(id).flags |= flag::KNOWN;
                    }
                }
                Flow::Next
            }
            Op::Token {
                card,
                at,
                n,
                opposing,
                after_rest,
            } => {
                let Some(exps) = self.resolve_exps(at, f) else {
                    return Flow::Wait;
                };
                // Head to head, target Expedition may have been an opposing one (D60).
                let opposing =
                    opposing || (matches!(at, ExpRef::Target | ExpRef::AnyOf(_)) && f.step == 1);
                let side = self.exp_side(at, f, opposing);
                self.frame_mut().it.clear();
                for e in exps.iter() {
                    if after_rest {
                        // Created after Rest (night.rs); two waiting batches at most.
                        let meta = n | (e << 4) | ((f.controller as u8) << 5);
                        if let Some(slot) = self.s.today.after_rest.iter_mut().find(|s| s.1 == 0) {
                            *slot = (card, meta);
                        }
                        continue;
                    }
                    let e = if e == 0 { Exp::Hero } else { Exp::Companion };
                    let (side, e) = self.across(side, f, opposing, at, e);
                    for _ in 0..n {
                        if let Some(t) = self.create_token(side, card, e) {
                            let _ = self.frame_mut().it.push(t);
                            // "The next Character that joins my Expedition gains N boosts".
                            if self.s.n_mods > 0 {
                                let (boosts, ..) = self.consume_mods(t, side, Some(e), false, true);
                                if boosts > 0 {
                                    self.boost(t, boosts as i16);
                                }
                            }
                            self.fire(Fire::Joined { obj: t });
                            self.fire(Fire::TokenCreated {
                                side: f.controller,
                                obj: t,
                            });
                            self.fire(Fire::Received { side });
                        }
                    }
                }
                Flow::Next
            }
            Op::LandmarkToken { card, whose, n } => {
                let mut sides = List::<4>::new();
                match whose {
                    PlayerRef::You => {
                        let _ = sides.push(f.controller as u8);
                    }
                    PlayerRef::Opponent => {
                        let _ = sides.push(self.opp_of(f) as u8);
                    }
                    PlayerRef::Each => sides = self.sides_of(Who::Each, f.controller),
                    PlayerRef::OfIt => {
                        if let Some(id) = f.it.first() {
                            let _ = sides.push(self.s.obj(id).side as u8);
                        }
                    }
                }
                for side in sides.iter() {
                    let side = Side::of_seat(side);
                    for _ in 0..n {
                        self.create_landmark_token(side, card);
                    }
                }
                Flow::Next
            }
            Op::Move { obj, dest } => {
                let objs = self.resolve_objs(obj, f);
                // "You may put me in Mana instead": ask before anything moves.
                if let Some(id) = objs.iter().find(|&id| self.s.must_ask_mana(db, id)) {
                    self.ask_mana(id);
                    return Flow::Wait;
                }
                let mut moved = false;
                for id in objs.iter() {
                    moved |= self.move_obj(id, dest);
                    // The Xth position from the top: it went on top, then X - 1 cards above it.
                    let o = *self.s.obj(id);
                    if dest == Dest::DeckAtX && o.zone == Zone::Deck {
                        let deck = self.s.side_mut(o.side).deck.as_mut_slice();
                        let k = (f.x.max(1) as usize).min(deck.len());
                        let n = deck.len();
                        deck[n - k..].rotate_right(1);
                    }
                }
                // "Sacrifice ... If you do": whether anything was sacrificed.
                if dest == Dest::Sacrifice {
                    self.frame_mut().did = moved;
                }
                Flow::Next
            }
            Op::Gain { obj, status, tough } => {
                for id in self.resolve_objs(obj, f).iter() {
                    let o = self.s.obj_mut(id);
                    if !matches!(
                        o.zone,
                        Zone::Expedition | Zone::Landmarks | Zone::Reserve | Zone::Limbo
                    ) {
                        continue;
                    }
                    if tough > 0 {
                        o.tough = o.tough.max(tough);
                    }
                    self.gain_status(id, status);
                }
                Flow::Next
            }
            Op::Lose { obj, status } => {
                for id in self.resolve_objs(obj, f).iter() {
                    let o = self.s.obj_mut(id);
                    o.flags &= !status;
                    // Printed or granted Fleeting is lost too (digest 5.1).
                    if status & kw::FLEETING != 0 {
                        o.flags |= flag::LOST_FLEETING;
                    }
                    if O::ENABLED {
                        self.emit(Event::Status {
                            obj: id,
                            bits: status,
                            gained: false,
                        });
                    }
                }
                Flow::Next
            }
            Op::Exhaust { obj } => {
                for id in self.resolve_objs(obj, f).iter() {
                    let o = self.s.obj_mut(id);
                    let was = o.has(flag::EXHAUSTED);
                    o.flags |= flag::EXHAUSTED;
                    if o.zone == Zone::Reserve && !was {
                        self.fire(Fire::ExhaustedInReserve { side: f.controller });
                    }
                }
                Flow::Next
            }
            Op::Ready { obj } => {
                for id in self.resolve_objs(obj, f).iter() {
                    self.s.obj_mut(id).flags &= !flag::EXHAUSTED;
                }
                Flow::Next
            }
            Op::Discount {
                filter,
                n,
                min,
                afternoon,
            } => {
                self.push_mod(TurnMod {
                    side: f.controller,
                    filter,
                    discount: n,
                    boosts: 0,
                    status: 0,
                    flags: if afternoon { modflag::AFTERNOON } else { 0 },
                    min,
                    place: 0,
                });
                Flow::Next
            }
            Op::NextBoost { filter, n, place } => {
                if let Some(place) = self.mod_place(f, place) {
                    self.push_mod(TurnMod {
                        side: f.controller,
                        filter,
                        discount: 0,
                        boosts: n,
                        status: 0,
                        flags: 0,
                        min: 0,
                        place,
                    });
                }
                Flow::Next
            }
            Op::ManaFromDeck { who, exhausted } => {
                for side in self.sides_of(who, f.controller).iter() {
                    let side = Side::of_seat(side);
                    if let Some(id) = self.take_top(side) {
                        self.put_in_mana(id, !exhausted, Why::Effect);
                    }
                }
                Flow::Next
            }
            Op::NextGain { filter, status } => {
                self.push_mod(TurnMod {
                    side: f.controller,
                    filter,
                    discount: 0,
                    boosts: 0,
                    status,
                    flags: 0,
                    min: 0,
                    place: 0,
                });
                Flow::Next
            }
            Op::NextLose { filter, status } => {
                self.push_mod(TurnMod {
                    side: f.controller,
                    filter,
                    discount: 0,
                    boosts: 0,
                    status,
                    flags: modflag::LOSE_STATUS,
                    min: 0,
                    place: 0,
                });
                Flow::Next
            }
            Op::DayTough {
                who,
                min_cost,
                tough,
            } => {
                for side in self.sides_of(who, f.controller).iter() {
                    self.s.today.day_tough[Side::of_seat(side)] = (min_cost, tough);
                }
                Flow::Next
            }
            Op::NextMod { filter, flags } => {
                self.push_mod(TurnMod {
                    side: f.controller,
                    filter,
                    discount: 0,
                    boosts: 0,
                    status: 0,
                    flags,
                    min: 0,
                    place: 0,
                });
                Flow::Next
            }
            Op::NextActivateR { filter, place } => {
                if let Some(place) = self.mod_place(f, place) {
                    self.push_mod(TurnMod {
                        side: f.controller,
                        filter,
                        discount: 0,
                        boosts: 0,
                        status: 0,
                        flags: modflag::ACTIVATE_R,
                        min: 0,
                        place,
                    });
                }
                Flow::Next
            }
            Op::NextFree { filter } => {
                self.push_mod(TurnMod {
                    side: f.controller,
                    filter,
                    discount: 0,
                    boosts: 0,
                    status: 0,
                    flags: modflag::FREE,
                    min: 0,
                    place: 0,
                });
                Flow::Next
            }
            Op::SacrificeOne { who } => self.exec_sacrifice(f, who),
            Op::SacrificeHighest { who, filter } => {
                let Some(side) = self.sides_of(who, f.controller).first() else {
                    return Flow::Next;
                };
                let side = Side::of_seat(side);
                let tied = self.s.highest_base_cost(self.db, side, filter, &f.ctx());
                let pick = match (tied.len(), self.s.scripted(side)) {
                    (0, _) => return Flow::Next,
                    (1, _) => tied.first(),
                    (_, false) => {
                        self.ask(Decision::Sacrifice, side);
                        return Flow::Wait;
                    }
                    // The Confluence's tie-break (FAQ "Sacrifice"): the Threatened side's,
                    // then the leftmost.
                    (_, true) => tied.iter().min_by_key(|&id| {
                        let o = self.s.obj(id);
                        (
                            !(o.zone == Zone::Expedition && o.exp == self.s.threatened),
                            o.ts,
                        )
                    }),
                };
                if let Some(id) = pick {
                    self.move_obj(id, Dest::Sacrifice);
                }
                Flow::Next
            }
            Op::PlayFree {
                who,
                filter,
                less,
                exp,
                flags,
            } => self.exec_play_free(f, who, filter, less, exp, flags),
            Op::Rush { hand_cost } => self.exec_rush(f, hand_cost),
            Op::TopPlayOrHand => self.exec_top_play_or_hand(f),
            Op::BlockForward { at, opposing } => {
                let Some(exps) = self.resolve_exps(at, f) else {
                    return Flow::Wait;
                };
                let target = if opposing {
                    self.opp_of(f)
                } else {
                    f.controller
                };
                for e in exps.iter() {
                    let e = if e == 0 { Exp::Hero } else { Exp::Companion };
                    let (target, e) = self.across(target, f, opposing, at, e);
                    match (self.s.mode, target) {
                        (Mode::Confluence, Side::Confluence) => {
                            self.s.today.dark_blocked.set(e, true)
                        }
                        _ => self.s.today.seats[target].no_forward.set(e, true),
                    }
                }
                Flow::Next
            }
            Op::LoseMana { n } => {
                // Orbs are interchangeable: exhausted ones go first, so the ready count only
                // drops when no exhausted orb is left (detach clamps it).
                for _ in 0..n {
                    let Some(id) = self.s.side(f.controller).mana.last() else {
                        break;
                    };
                    self.move_to(id, Zone::Discard, Exp::Hero, Why::Effect, false);
                }
                Flow::Next
            }
            Op::ReadyMana { n } => {
                let s = self.s.side_mut(f.controller);
                s.mana_ready = (s.mana_ready + n).min(s.mana.len() as u8);
                Flow::Next
            }
            Op::FromHand {
                who, dest, n, keep, ..
            } => {
                if keep && f.step == 0 && f.count == 0 {
                    self.frame_mut().it.clear();
                }
                self.exec_from_hand(f, who, dest, n, keep)
            }
            Op::MoveExp {
                at,
                opposing,
                forward,
            } => {
                let Some(exps) = self.resolve_exps(at, f) else {
                    return Flow::Wait;
                };
                // Head to head, target Expedition may have been an opposing one (D60).
                let opposing =
                    opposing || (matches!(at, ExpRef::Target | ExpRef::AnyOf(_)) && f.step == 1);
                let target = self.exp_side(at, f, opposing);
                let before = (self.s.pos, self.s.dark);
                for e in exps.iter() {
                    let e = if e == 0 { Exp::Hero } else { Exp::Companion };
                    let (target, e) = self.across(target, f, opposing, at, e);
                    if self.s.scripted(target) {
                        self.move_darkness(e, forward);
                    } else {
                        self.move_expedition_of(target, e, forward);
                    }
                    if self.s.outcome.is_some() {
                        break;
                    }
                }
                // "If it does": an expedition moved (a move that ends the game ends the frame).
                if self.s.outcome.is_none() {
                    self.frame_mut().did = (self.s.pos, self.s.dark) != before;
                }
                Flow::Next
            }
            Op::Switch { obj } => {
                for id in self.resolve_objs(obj, f).iter() {
                    let o = *self.s.obj(id);
                    if o.zone != Zone::Expedition {
                        continue;
                    }
                    let to = o.exp.other();
                    if self.s.side(o.side).exp[to.index()].is_full() {
                        continue;
                    }
                    self.s.side_mut(o.side).exp[o.exp.index()].remove_item(id);
                    let ts = self.s.next_ts();
                    let ob = self.s.obj_mut(id);
                    ob.exp = to;
                    ob.ts = ts;
                    let _ = self.s.side_mut(o.side).exp[to.index()].push(id);
                }
                Flow::Next
            }
            Op::Defect { obj } => {
                for id in self.resolve_objs(obj, f).iter() {
                    self.defect(id);
                }
                Flow::Next
            }
            Op::TakeControl { obj } => {
                let to = f.controller;
                let src = *self.s.obj(f.source);
                for id in self.resolve_objs(obj, f).iter() {
                    let o = *self.s.obj(id);
                    if o.side == to {
                        continue;
                    }
                    let kind = self.db.card(o.card).kind;
                    let exp = match (o.zone, kind) {
                        (Zone::Landmarks, _) => {
                            if self.s.side(to).landmarks.is_full() {
                                continue;
                            }
                            self.s.side_mut(o.side).landmarks.remove_item(id);
                            let _ = self.s.side_mut(to).landmarks.push(id);
                            o.exp
                        }
                        (Zone::Expedition, crate::cards::types::CardKind::ExpeditionPermanent) => {
                            let e = if src.zone == Zone::Expedition && src.side == to {
                                src.exp
                            } else {
                                o.exp
                            };
                            if self.s.side(to).exp[e.index()].is_full() {
                                continue;
                            }
                            self.s.side_mut(o.side).exp[o.exp.index()].remove_item(id);
                            let _ = self.s.side_mut(to).exp[e.index()].push(id);
                            e
                        }
                        _ => continue,
                    };
                    self.hand_over(id, to, exp);
                }
                Flow::Next
            }
            Op::SwapBoosts { obj } => {
                let objs = self.resolve_objs(obj, f);
                if let (Some(a), Some(b)) = (objs.get(0), objs.get(1)) {
                    let (ba, bb) = (self.s.obj(a).boosts as i16, self.s.obj(b).boosts as i16);
                    self.boost(a, bb - ba);
                    self.boost(b, ba - bb);
                }
                Flow::Next
            }
            Op::ToDeckAt { obj, n } => {
                let n = self.amount(n, f).max(1) as usize;
                for id in self.resolve_objs(obj, f).iter() {
                    if self.move_obj(id, Dest::DeckTop) && self.s.obj(id).zone == Zone::Deck {
                        // The deck's top is the end of its list.
                        let side = self.s.obj(id).side;
                        let deck = &mut self.s.side_mut(side).deck;
                        deck.remove_item(id);
                        let at = deck.len().saturating_sub(n - 1);
                        let _ = deck.insert(at, id);
                    }
                }
                Flow::Next
            }
            Op::ActivateJ { obj, reserve } => {
                let from = if reserve {
                    PlayFrom::Reserve
                } else {
                    PlayFrom::Any
                };
                for id in self.resolve_objs(obj, f).iter() {
                    if matches!(self.s.obj(id).zone, Zone::Expedition | Zone::Landmarks)
                        && !self.s.silenced(db, id)
                    {
                        self.trigger_own(id, NO_OBJ, |t| *t == Trigger::Played(from));
                    }
                }
                Flow::Next
            }
            Op::ActivateRAsMine { obj } => {
                let Some(id) = self.resolve_objs(obj, f).first() else {
                    return Flow::Next;
                };
                let n = self.s.r_abilities(db, id);
                if n == 0 {
                    return Flow::Next;
                }
                if n == 1 || self.s.scripted(f.controller) {
                    self.queue_r_as_mine(f, id, 0);
                    return Flow::Next;
                }
                let fr = self.frame_mut();
                fr.it.clear();
                let _ = fr.it.push(id);
                self.ask(Decision::Mode, f.controller);
                Flow::Wait
            }
            Op::ActivateJEach { filter } => {
                // `count` walks the matching objects that have {J} abilities, oldest first.
                let mut next = NO_OBJ;
                let mut k = 0;
                let ctx = self.ctx(f);
                self.s
                    .for_each_candidate(db, db.filter(filter), &ctx, |id| {
                        let c = self.s.obj(id).card;
                        let has_j = db
                            .abilities_of(c)
                            .iter()
                            .any(|ab| ab.trigger == Trigger::Played(PlayFrom::Any));
                        if has_j && next == NO_OBJ {
                            if k == f.count {
                                next = id;
                            }
                            k += 1;
                        }
                    });
                if next == NO_OBJ {
                    return Flow::Next;
                }
                if self.s.scripted(f.controller) {
                    self.trigger_own(next, NO_OBJ, |t| *t == Trigger::Played(PlayFrom::Any));
                    self.frame_mut().count += 1;
                    Flow::Moved
                } else {
                    let fr = self.frame_mut();
                    fr.it.clear();
                    let _ = fr.it.push(next);
                    self.ask(Decision::May, f.controller);
                    Flow::Wait
                }
            }
            Op::AfterYou => {
                if self.s.phase == Phase::Turn && self.s.to_act == f.controller {
                    self.s.phase = Phase::TurnEnd;
                    if O::ENABLED {
                        self.emit(Event::AfterYou { side: f.controller });
                    }
                }
                Flow::Next
            }
            Op::DelayRest => {
                self.s.obj_mut(f.source).flags |= flag::DELAY_REST;
                self.s.rest_armed = true;
                Flow::Next
            }
            Op::RevealPut {
                n,
                k,
                filter,
                status,
            } => self.exec_reveal_put(f, n, k, filter, status),
            Op::PlaceMarker { .. } | Op::MoveMarker { .. } => {
                let Some(first) = self.s.marker_options(f, op).first() else {
                    return Flow::Next;
                };
                // The Confluence takes the first option (its first marker, leftmost region).
                if self.s.scripted(f.controller) {
                    self.s.apply_marker(f, op, first);
                    Flow::Next
                } else {
                    self.ask(Decision::Mode, f.controller);
                    Flow::Wait
                }
            }
            Op::WinGame => {
                self.end(match (self.s.mode, f.controller) {
                    (Mode::Confluence, Side::Player) => Outcome::WinByCard,
                    (Mode::Confluence, _) => Outcome::LossByCard,
                    (_, side) => Outcome::seat_wins(side),
                });
                Flow::Next
            }
            Op::Pass => {
                let afternoon = matches!(
                    self.s.phase,
                    Phase::Turn
                        | Phase::TurnEnd
                        | Phase::ConfluenceQuick(_)
                        | Phase::ConfluencePlay
                );
                let can = afternoon && !self.s.has_passed(f.controller);
                if can {
                    self.pass(f.controller);
                    // Passing in its own turn (a quick action) ends that turn.
                    if self.s.phase == Phase::Turn && self.s.to_act == f.controller {
                        self.s.phase = Phase::TurnEnd;
                    }
                }
                self.frame_mut().did = can;
                Flow::Next
            }
            Op::Ascend { at } => {
                let Some(exps) = self.resolve_exps(at, f) else {
                    return Flow::Wait;
                };
                // Only the player's expeditions have a terrain to skip (the Darkness is the
                // Confluence's expedition); head-to-head, either seat's.
                let side = self.exp_side(at, f, false);
                if !self.s.scripted(side) {
                    let instead =
                        self.side_has_static(side, |st| matches!(st, Static::AscendResupply));
                    for e in exps.iter() {
                        let e = Exp::BOTH[e as usize];
                        if instead && self.s.ascended(side, e) {
                            self.resupply(side, false);
                            self.fire(Fire::Drew { side });
                        } else {
                            self.s.today.seats[side].ascend.set(e, true);
                        }
                    }
                }
                Flow::Next
            }
            Op::BecomeFirst { who } => {
                let side = match who {
                    Who::Opponent => self.opp_of(f),
                    _ => f.controller,
                };
                if self.s.first_player() != side {
                    // The Confluence mode's Threatened expedition goes with the token.
                    self.s.threatened = self.s.threatened.other();
                    self.s.first = side;
                    if O::ENABLED {
                        self.emit(Event::FirstPlayer { side });
                    }
                }
                Flow::Next
            }
            Op::EachPasses => {
                let table = self.s.table;
                for side in table.sides_from(f.controller) {
                    if !self.s.has_passed(side) {
                        self.pass(side);
                    }
                }
                Flow::Next
            }
            Op::Roll => self.exec_roll(f),
            Op::SetX(a) => {
                let x = self.amount(a, f);
                self.frame_mut().x = x;
                Flow::Next
            }
            Op::May { skip } => {
                let _ = skip;
                if self.s.scripted(f.controller) {
                    self.frame_mut().did = true;
                    Flow::Next
                } else {
                    self.ask(Decision::May, f.controller);
                    Flow::Wait
                }
            }
            Op::Pay { cost, skip } => self.exec_pay(f, cost, skip),
            Op::PayCards { cost } => {
                if f.step == 0 {
                    let fr = self.frame_mut();
                    fr.step = 2;
                    fr.count = 0;
                }
                let f = *self.s.frame().expect("frame");
                self.exec_pay(&f, cost, f.pc + 1)
            }
            Op::JumpUnless { cond, to } => {
                if self.s.eval_cond(db, cond, &self.ctx(f)) {
                    Flow::Next
                } else {
                    Flow::Goto(to)
                }
            }
            Op::Jump { to } => Flow::Goto(to),
            Op::LoopStart { n, end } => {
                let n = self.amount(n, f);
                if n <= 0 {
                    return Flow::Goto(end);
                }
                self.frame_mut().loops = n.min(255) as u8;
                Flow::Next
            }
            Op::LoopNext { to } => {
                let fr = self.frame_mut();
                if fr.loops > 1 {
                    fr.loops -= 1;
                    Flow::Goto(to)
                } else {
                    fr.loops = 0;
                    Flow::Next
                }
            }
            Op::Choose { .. } => {
                if self.s.scripted(f.controller) {
                    Flow::Goto(f.pc + 1)
                } else {
                    self.ask(Decision::Mode, f.controller);
                    Flow::Wait
                }
            }
        }
    }

    /// The "up to a max of N" of a boost or counter gain (0: none): a static may let the
    /// support abilities of cards in Reserve go past it (`u8::MAX`: ignore it).
    fn support_max(&self, f: &Frame, max: u8) -> u8 {
        if max == 0 || self.db.abilities[f.ability as usize].active != ActiveIn::Reserve {
            return max;
        }
        let mut over = 0u8;
        self.s.each_static_of(self.db, f.controller, |_, st, _| {
            if let Static::SupportOverMax(k) = st {
                over = over.max(k);
            }
        });
        if over == u8::MAX {
            0
        } else {
            max.saturating_add(over)
        }
    }
}
