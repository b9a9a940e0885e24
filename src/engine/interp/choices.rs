//! Ops that wait on a choice (rolls, selections, cards from hand, sacrifices, the Mana
//! replacement's question), and the answers recorded into the running frame.

use super::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    pub(super) fn exec_roll(&mut self, f: &Frame) -> Flow {
        let extra = self.side_has_static(f.controller, |s| matches!(s, Static::ExtraDie));
        // Raising the die by 1 (roll_plus_one) is asked once the die is kept.
        let plus_one = !self.s.scripted(f.controller)
            && self.side_has_static(f.controller, |s| matches!(s, Static::RollPlusOne));
        let who = f.controller;
        let ask_plus = |this: &mut Self, v: u8| {
            let fr = this.frame_mut();
            fr.x = v as i16;
            fr.step = 2;
            this.ask(Decision::May, who);
            Flow::Wait
        };
        match f.step {
            0 => {
                let a: u8 = self.rng.random_range(1..=6);
                if !extra || self.s.scripted(f.controller) {
                    return if plus_one {
                        ask_plus(self, a)
                    } else {
                        self.rolled(a)
                    };
                }
                let b: u8 = self.rng.random_range(1..=6);
                let fr = self.frame_mut();
                fr.dice = [a, b];
                fr.step = 1;
                self.ask(Decision::Die, f.controller);
                Flow::Wait
            }
            // The choice stored the kept die in x.
            1 if plus_one => ask_plus(self, f.x as u8),
            _ => self.rolled(f.x as u8),
        }
    }

    fn rolled(&mut self, v: u8) -> Flow {
        let side = self.s.frame().map(|f| f.controller).unwrap_or(Side::Player);
        self.frame_mut().x = v as i16;
        self.s.today.last_roll[side] = v;
        if O::ENABLED {
            self.emit(Event::Roll { side, value: v });
        }
        let top = self.s.side(side).deck.last().unwrap_or(NO_OBJ);
        self.fire(Fire::Rolled { side, top });
        Flow::Next
    }
    /// `Op::Select`: fills `it` one target at a time.
    pub(super) fn exec_select(&mut self, f: &Frame, op: Op) -> Flow {
        let Op::Select {
            filter,
            min,
            max,
            total_cost,
            total_of,
            by_opponent,
        } = op
        else {
            unreachable!("exec_select runs Op::Select only");
        };
        if f.step == 0 {
            let fr = self.frame_mut();
            fr.it.clear();
            fr.step = 1;
        }
        loop {
            let f = *self.s.frame().expect("frame");
            if f.it.len() >= max as usize {
                return Flow::Next;
            }
            let mut cands = Targets::new();
            self.s
                .select_candidates(self.db, &f, filter, total_cost, total_of, &mut cands);
            if cands.is_empty() {
                return Flow::Next;
            }
            let chooser = if by_opponent {
                self.opp_of(&f)
            } else {
                f.controller
            };
            if self.s.scripted(chooser) {
                // The Confluence takes the leftmost legal target, as many as allowed.
                let id = cands.first().expect("non-empty");
                self.choose_target(id);
            } else {
                let _ = min;
                self.ask(Decision::Target, chooser);
                return Flow::Wait;
            }
        }
    }

    /// `select_exp`: the player chooses among the expeditions of `whose` side(s); the
    /// Confluence takes the Threatened one, on the player's side unless only its own may be
    /// chosen (D-entry "select_exp"). No expedition is ever ahead (A18).
    pub(super) fn exec_select_exp(&mut self, f: &Frame, whose: Whose, ahead: bool) -> Flow {
        if ahead {
            self.frame_mut().sel_exp = NO_SEL;
            return Flow::Next;
        }
        if self.s.scripted(f.controller) {
            let side = if whose == Whose::Yours {
                Side::Confluence
            } else {
                Side::Player
            };
            self.frame_mut().sel_exp = side.index() as u8 * 2 + self.s.threatened.index() as u8;
            Flow::Next
        } else {
            self.ask(Decision::Expedition, f.controller);
            Flow::Wait
        }
    }

    /// Adds a target to the running selection, paying its Tough when it is opposing.
    pub(in crate::engine) fn choose_target(&mut self, id: ObjId) {
        let f = *self.s.frame().expect("frame");
        let o = *self.s.obj(id);
        if o.side != f.controller && !f.free {
            let t = self.s.tough(self.db, id);
            let s = self.s.side_mut(f.controller);
            s.mana_ready = s.mana_ready.saturating_sub(t);
        }
        let _ = self.frame_mut().it.push(id);
    }

    /// Cards from hand, side by side (`step` = sides done, `count` = cards of this side):
    /// the player chooses, the Confluence gives the top of its hand.
    pub(super) fn exec_from_hand(
        &mut self,
        f: &Frame,
        who: Who,
        dest: Dest,
        n: u8,
        keep: bool,
    ) -> Flow {
        let sides = self.sides_of(who, f.controller);
        let mut step = f.step as usize;
        let mut count = f.count;
        loop {
            let Some(side) = sides.get(step) else {
                return Flow::Next;
            };
            let side = Side::of_seat(side);
            if count >= n || self.s.side(side).hand.is_empty() {
                step += 1;
                count = 0;
                let fr = self.frame_mut();
                fr.step = step as u8;
                fr.count = 0;
                continue;
            }
            if self.s.scripted(side) {
                let top = self
                    .s
                    .side(Side::Confluence)
                    .hand
                    .first()
                    .expect("non-empty");
                self.hand_card_to(top, dest);
                if keep {
                    let _ = self.frame_mut().it.push(top);
                }
                count += 1;
                self.frame_mut().count = count;
            } else {
                self.ask(Decision::HandCard, side);
                return Flow::Wait;
            }
        }
    }

    /// Each side of `who` sacrifices a character (the player chooses; the Confluence by its
    /// rule); the choices are made in initiative order and happen together.
    pub(super) fn exec_sacrifice(&mut self, f: &Frame, who: Who) -> Flow {
        if f.step == 0 {
            let fr = self.frame_mut();
            fr.it.clear();
            fr.step = 1;
            fr.count = 0;
        }
        let sides = self.sides_of(who, f.controller);
        loop {
            let k = self.s.frame().expect("frame").count as usize;
            let Some(side) = sides.get(k) else { break };
            let side = Side::of_seat(side);
            let has_char = self.s.side(side).exp.iter().any(|l| {
                l.iter()
                    .any(|id| self.db.card(self.s.obj(id).card).kind.is_character())
            });
            if !has_char {
                self.frame_mut().count += 1;
                continue;
            }
            if self.s.scripted(side) {
                if let Some(id) = self.confluence_sacrifice_choice() {
                    let _ = self.frame_mut().it.push(id);
                }
                self.frame_mut().count += 1;
            } else {
                self.ask(Decision::Sacrifice, side);
                return Flow::Wait;
            }
        }
        let chosen = self.s.frame().expect("frame").it;
        if let Some(id) = chosen.iter().find(|&id| self.s.must_ask_mana(self.db, id)) {
            self.ask_mana(id);
            return Flow::Wait;
        }
        for id in chosen.iter() {
            self.move_obj(id, Dest::Sacrifice);
        }
        Flow::Next
    }

    /// Asks the player whether `id`, about to leave the Expedition zone, goes to Mana
    /// instead; the answer is recorded on the card (`answer_mana`).
    pub(super) fn ask_mana(&mut self, id: ObjId) {
        self.s.obj_mut(id).flags |= flag::MANA_ASKING;
        let side = self.s.obj(id).side;
        self.ask(Decision::May, side);
    }

    /// Records the player's answer for the card being asked about; returns it.
    fn answer_mana(&mut self, yes: bool) -> Option<ObjId> {
        let id = (0..M)
            .map(|i| i as ObjId)
            .find(|&i| self.s.obj(i).has(flag::MANA_ASKING))?;
        let o = self.s.obj_mut(id);
        o.flags &= !flag::MANA_ASKING;
        o.flags |= flag::MANA_ASKED;
        if yes {
            o.flags |= flag::MANA_YES;
        }
        Some(id)
    }
    /// Applies the player's answer to a decision raised inside a running ability.
    pub(in crate::engine) fn apply_in_frame(&mut self, choice: Choice) {
        let f = *self.s.frame().expect("frame decision without frame");
        let ab = self.db.abilities[f.ability as usize];
        let op = self.db.op(&ab, f.pc);
        let decision = self.s.decision;
        self.s.decision = Decision::None;
        // A "you may put me in Mana instead" answer, whatever op asked it.
        if decision == Decision::May
            && let Some(id) = self.answer_mana(choice == Choice::Yes)
        {
            // A card sacrificed as a cost is paid now that the answer is known.
            if matches!(op, Op::Pay { .. }) && f.step > 0 {
                self.pay_card(Decision::Sacrifice, id);
                self.frame_mut().count += 1;
            }
            return;
        }
        match decision {
            Decision::Seat | Decision::Target | Decision::Expedition => {
                self.answer_target(decision, choice, op)
            }
            Decision::May | Decision::Mode | Decision::Die => {
                self.answer_may_or_mode(&f, decision, choice, op)
            }
            _ => self.answer_card(decision, choice, op),
        }
    }

    /// An answer that names an object, an expedition or a seat.
    #[inline]
    fn answer_target(&mut self, decision: Decision, choice: Choice, op: Op) {
        match (decision, choice, op) {
            // Free for All: the opponent this effect concerns; the op that asked runs again.
            (Decision::Seat, Choice::Seat(seat), _) => self.frame_mut().opp = seat,
            (Decision::Target, Choice::Card(id), Op::OpponentSelect { .. }) => {
                let fr = self.frame_mut();
                let _ = fr.it.push(id);
                fr.pc += 1;
                fr.step = 0;
            }
            (Decision::Target, Choice::Card(id), Op::AugmentAny { .. }) => self.augment_chosen(id),
            (Decision::Target, Choice::Card(id), _) => self.choose_target(id),
            (Decision::Target, Choice::Done, Op::RevealPut { .. }) => {
                // Done choosing: put the chosen cards in expeditions.
                self.frame_mut().step = 2;
            }
            (Decision::Target, Choice::Done, _) => {
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
            }
            (
                Decision::Expedition,
                Choice::Exp(e) | Choice::OpposingExp(e),
                Op::SelectExp { .. },
            ) => {
                // Relative to the side choosing: its own expeditions, or its opponent's.
                let opposing = matches!(choice, Choice::OpposingExp(_));
                // With four seats the opposing expedition is the one across the lane.
                let (side, e) = if !opposing {
                    (self.s.decider, e)
                } else if N == 2 {
                    (self.s.decider.other(), e)
                } else {
                    self.s
                        .facing_of(self.s.decider, e)
                        .unwrap_or((self.s.decider, e))
                };
                let fr = self.frame_mut();
                fr.sel_exp = side as u8 * 2 + e.index() as u8;
                fr.pc += 1;
                fr.step = 0;
            }
            (Decision::Expedition, Choice::Exp(e), _) => self.frame_mut().exp_reg = Some(e),
            (
                Decision::Expedition,
                Choice::OpposingExp(e),
                Op::Token { .. } | Op::MoveExp { .. },
            ) => {
                // An opposing target expedition (head to head, D60); `step` 1 tells the op
                // whose it is.
                let fr = self.frame_mut();
                fr.exp_reg = Some(e);
                fr.step = 1;
            }
            other => debug_assert!(false, "unexpected frame answer {other:?}"),
        }
    }

    /// A yes or no, a mode or a die.
    #[inline]
    fn answer_may_or_mode(&mut self, f: &Frame, decision: Decision, choice: Choice, op: Op) {
        match (decision, choice, op) {
            (Decision::May, yes_no, Op::May { skip }) => {
                let fr = self.frame_mut();
                fr.did = yes_no == Choice::Yes;
                fr.pc = if fr.did { fr.pc + 1 } else { skip };
                fr.step = 0;
            }
            (Decision::May, yes_no, Op::Pay { cost, skip }) => {
                if yes_no == Choice::Yes {
                    self.pay_simple(f.controller, f.source, &cost);
                    let fr = self.frame_mut();
                    fr.step = 2;
                    fr.count = 0;
                } else {
                    let fr = self.frame_mut();
                    fr.did = false;
                    fr.pc = skip;
                    fr.step = 0;
                }
            }
            (Decision::May, yes_no, Op::TopPlayOrHand) => {
                // The revealed card not played: into the hand, or left on top of the deck.
                if yes_no == Choice::Yes
                    && let Some(id) = f.it.first()
                {
                    self.move_to(id, Zone::Hand, Exp::Hero, Why::Effect, false);
                }
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
            }
            (Decision::May, yes_no, Op::ActivateJEach { .. }) => {
                if yes_no == Choice::Yes
                    && let Some(id) = f.it.first()
                {
                    self.trigger_own(id, NO_OBJ, |t| *t == Trigger::Played(PlayFrom::Any));
                }
                self.frame_mut().count += 1;
            }
            (Decision::Mode, Choice::Mode(k), Op::PlaceMarker { .. } | Op::MoveMarker { .. }) => {
                self.s.apply_marker(f, op, k);
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
            }
            (Decision::Mode, Choice::Mode(k), Op::ActivateRAsMine { .. }) => {
                if let Some(id) = f.it.first() {
                    self.queue_r_as_mine(f, id, k);
                }
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
            }
            (Decision::Mode, Choice::Mode(k), _) => {
                let fr = self.frame_mut();
                fr.pc += 1 + k as u16;
                fr.step = 0;
            }
            (Decision::May, yes_no, Op::Roll) => {
                if yes_no == Choice::Yes {
                    self.frame_mut().x += 1;
                }
            }
            (Decision::Die, Choice::Mode(v), _) => {
                let fr = self.frame_mut();
                fr.x = v as i16;
            }
            other => debug_assert!(false, "unexpected frame answer {other:?}"),
        }
    }

    /// An answer that picks a card: to keep from a Resupply, from hand, to sacrifice, to play, or
    /// to pay a cost with.
    #[inline]
    fn answer_card(&mut self, decision: Decision, choice: Choice, op: Op) {
        match (decision, choice, op) {
            (Decision::ResupplyPick, Choice::Card(keep), op) => {
                let side = self.s.obj(keep).side;
                let d = self.s.side(side).deck;
                let other = (0..2)
                    .map(|k| d.as_slice()[d.len() - 1 - k])
                    .find(|&x| x != keep)
                    .expect("two revealed cards");
                self.move_to(keep, Zone::Reserve, Exp::Hero, Why::Resupply, false);
                let fr = self.frame_mut();
                fr.it.clear();
                let _ = fr.it.push(keep);
                if matches!(
                    op,
                    Op::Resupply {
                        exhausted: true,
                        ..
                    }
                ) {
                    self.s.obj_mut(keep).flags |= flag::EXHAUSTED;
                    self.fire(Fire::ExhaustedInReserve { side });
                }
                self.move_to(other, Zone::Discard, Exp::Hero, Why::Resupply, false);
                self.fire(Fire::Drew { side });
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
            }
            // An opponent's "may" declined: this chooser puts nothing.
            (Decision::HandCard, Choice::Done, Op::FromHand { n, may: true, .. }) => {
                self.frame_mut().count = n;
            }
            (Decision::HandCard, Choice::Card(id), Op::FromHand { dest, keep, .. }) => {
                self.hand_card_to(id, dest);
                if keep {
                    let _ = self.frame_mut().it.push(id);
                }
                self.frame_mut().count += 1;
            }
            (Decision::Sacrifice, Choice::Card(id), Op::SacrificeHighest { .. }) => {
                self.move_obj(id, Dest::Sacrifice);
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
            }
            (Decision::Sacrifice, Choice::Card(id), Op::SacrificeOne { .. }) => {
                let fr = self.frame_mut();
                let _ = fr.it.push(id);
                fr.count += 1;
            }
            (Decision::PlayFree, Choice::Done, Op::Rush { .. }) => {
                let fr = self.frame_mut();
                fr.did = false;
                fr.pc += 1;
                fr.step = 0;
            }
            (
                Decision::PlayFree,
                Choice::Play {
                    obj,
                    from_reserve,
                    exp,
                    alt,
                },
                Op::Rush { .. },
            ) => {
                // Move on before playing: a Spell starts its own (nested) ability.
                let fr = self.frame_mut();
                fr.did = true;
                fr.pc += 1;
                fr.step = 0;
                self.play_card(obj, from_reserve, exp, None, alt);
            }
            (Decision::PlayFree, Choice::Done, Op::TopPlayOrHand) => {
                // Not played: next, whether it goes to the hand.
                self.frame_mut().step = 1;
            }
            (Decision::PlayFree, Choice::Play { obj, exp, .. }, Op::TopPlayOrHand) => {
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
                self.play_card(obj, false, exp, None, Alt::Free);
            }
            (Decision::PlayFree, Choice::Done, _) => self.frame_mut().count += 1,
            (
                Decision::PlayFree,
                Choice::Play {
                    obj,
                    from_reserve,
                    exp,
                    alt,
                },
                _,
            ) => {
                // Move on before playing: a Spell starts its own (nested) ability.
                let fr = self.frame_mut();
                fr.count += 1;
                fr.did = true;
                fr.it.clear();
                let _ = fr.it.push(obj);
                // A card of the opponent's Reserve (`play_now(it)`, Brainwash) is borrowed by
                // the side that answers this decision.
                self.take_control(obj, self.s.decider);
                self.play_card(obj, from_reserve, exp, None, alt);
            }
            (Decision::Sacrifice, Choice::Card(id), Op::Pay { .. })
                if self.s.must_ask_mana(self.db, id) =>
            {
                self.ask_mana(id);
            }
            (
                Decision::HandCard | Decision::ReserveCard | Decision::Sacrifice,
                Choice::Card(id),
                Op::Pay { .. } | Op::PayCards { .. },
            ) => {
                self.pay_card(decision, id);
                self.frame_mut().count += 1;
            }
            other => debug_assert!(false, "unexpected frame answer {other:?}"),
        }
    }

    /// An opponent selects one of its objects (the first that matches, for the Confluence).
    pub(super) fn exec_opponent_select(&mut self, f: &Frame, filter: FilterId) -> Flow {
        let db = self.db;
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

    /// The first side of `who` sacrifices its highest-cost match (asked on a tie; the
    /// Confluence breaks it by its rule).
    pub(super) fn exec_sacrifice_highest(&mut self, f: &Frame, who: Who, filter: FilterId) -> Flow {
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
}
