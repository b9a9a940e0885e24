//! The dispatch of one op: each operation of the effect language handed to the function
//! that runs it, in the file beside this one that holds its family (the module's doc lists
//! them); the ops of the program's flow (X, "may", costs in cards, jumps, loops, modes) are
//! run here.

use super::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    pub(super) fn exec(&mut self, op: Op, f: &Frame) -> Flow {
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
            Op::OpponentSelect { filter } => self.exec_opponent_select(f, filter),
            Op::Boost { obj, n, max } => self.exec_boost(f, obj, n, max),
            Op::Counters { obj, n, max } => self.exec_counters(f, obj, n, max),
            Op::SpendCounter { obj } => self.exec_spend_counter(f, obj),
            Op::Augment { obj } => self.exec_augment(f, obj),
            Op::AugmentAny { filter } => self.exec_augment_any(filter),
            Op::Draw { who, n } => self.exec_draw(f, who, n),
            Op::Resupply {
                who,
                exhausted,
                keep,
            } => self.exec_resupply(f, who, exhausted, keep),
            Op::RevealTop => self.exec_reveal_top(f),
            Op::Token {
                card,
                at,
                n,
                opposing,
                after_rest,
            } => self.exec_token(f, card, at, n, opposing, after_rest),
            Op::LandmarkToken { card, whose, n } => self.exec_landmark_token(f, card, whose, n),
            Op::Move { obj, dest } => self.exec_move(f, obj, dest),
            Op::Gain { obj, status, tough } => self.exec_gain(f, obj, status, tough),
            Op::Lose { obj, status } => self.exec_lose(f, obj, status),
            Op::Exhaust { obj } => self.exec_exhaust(f, obj),
            Op::Ready { obj } => self.exec_ready(f, obj),
            Op::Discount {
                filter,
                n,
                min,
                afternoon,
            } => self.exec_discount(f, filter, n, min, afternoon),
            Op::NextBoost { filter, n, place } => self.exec_next_boost(f, filter, n, place),
            Op::ManaFromDeck { who, exhausted } => self.exec_mana_from_deck(f, who, exhausted),
            Op::NextGain { filter, status } => self.exec_next_gain(f, filter, status),
            Op::NextLose { filter, status } => self.exec_next_lose(f, filter, status),
            Op::DayTough {
                who,
                min_cost,
                tough,
            } => self.exec_day_tough(f, who, min_cost, tough),
            Op::NextMod { filter, flags } => self.exec_next_mod(f, filter, flags),
            Op::NextActivateR { filter, place } => self.exec_next_activate_r(f, filter, place),
            Op::SacrificeOne { who } => self.exec_sacrifice(f, who),
            Op::SacrificeHighest { who, filter } => self.exec_sacrifice_highest(f, who, filter),
            Op::PlayFree {
                who,
                filter,
                less,
                exp,
                flags,
            } => self.exec_play_free(f, who, filter, less, exp, flags),
            Op::Rush { hand_cost } => self.exec_rush(f, hand_cost),
            Op::TopPlayOrHand => self.exec_top_play_or_hand(f),
            Op::BlockForward { at, opposing } => self.exec_block_forward(f, at, opposing),
            Op::LoseMana { n } => self.exec_lose_mana(f, n),
            Op::ReadyMana { n } => self.exec_ready_mana(f, n),
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
            } => self.exec_move_exp(f, at, opposing, forward),
            Op::Switch { obj } => self.exec_switch(f, obj),
            Op::Defect { obj } => self.exec_defect(f, obj),
            Op::TakeControl { obj } => self.exec_take_control(f, obj),
            Op::SwapBoosts { obj } => self.exec_swap_boosts(f, obj),
            Op::ToDeckAt { obj, n } => self.exec_to_deck_at(f, obj, n),
            Op::ActivateJ { obj, reserve } => self.exec_activate_j(f, obj, reserve),
            Op::ActivateRAsMine { obj } => self.exec_activate_r_as_mine(f, obj),
            Op::ActivateJEach { filter } => self.exec_activate_j_each(f, filter),
            Op::AfterYou => self.exec_after_you(f),
            Op::DelayRest => self.exec_delay_rest(f),
            Op::RevealPut {
                n,
                k,
                filter,
                status,
            } => self.exec_reveal_put(f, n, k, filter, status),
            Op::PlaceMarker { .. } | Op::MoveMarker { .. } => self.exec_marker(f, op),
            Op::WinGame => self.exec_win_game(f),
            Op::Pass => self.exec_pass(f),
            Op::Ascend { at } => self.exec_ascend(f, at),
            Op::BecomeFirst { who } => self.exec_become_first(f, who),
            Op::EachPasses => self.exec_each_passes(f),
            Op::Roll => self.exec_roll(f),
            Op::SetX(a) => self.exec_set_x(f, a),
            Op::May { .. } => self.exec_may(f),
            Op::Pay { cost, skip } => self.exec_pay(f, cost, skip),
            Op::PayCards { cost } => self.exec_pay_cards(f, cost),
            Op::JumpUnless { cond, to } => self.exec_jump_unless(f, cond, to),
            Op::Jump { to } => Flow::Goto(to),
            Op::LoopStart { n, end } => self.exec_loop_start(f, n, end),
            Op::LoopAny { .. } => self.exec_loop_any(),
            Op::LoopNext { to, any } => self.exec_loop_next(to, any),
            Op::Choose { by_opponent, .. } => self.exec_choose(f, by_opponent),
        }
    }

    /// X set for the rest of the ability.
    fn exec_set_x(&mut self, f: &Frame, a: Amount) -> Flow {
        let x = self.amount(a, f);
        self.frame_mut().x = x;
        Flow::Next
    }

    /// "You may": asked of the player, always taken by the Confluence.
    fn exec_may(&mut self, f: &Frame) -> Flow {
        if self.s.scripted(f.controller) {
            self.frame_mut().did = true;
            Flow::Next
        } else {
            self.ask(Decision::May, f.controller);
            Flow::Wait
        }
    }

    /// A cost in cards paid (its card choices first).
    fn exec_pay_cards(&mut self, f: &Frame, cost: Cost) -> Flow {
        if f.step == 0 {
            let fr = self.frame_mut();
            fr.step = 2;
            fr.count = 0;
        }
        let f = *self.s.frame().expect("frame");
        self.exec_pay(&f, cost, f.pc + 1)
    }

    /// Jumps unless the condition holds.
    fn exec_jump_unless(&mut self, f: &Frame, cond: CondId, to: u16) -> Flow {
        let db = self.db;
        if self.s.eval_cond(db, cond, &self.ctx(f)) {
            Flow::Next
        } else {
            Flow::Goto(to)
        }
    }

    /// A loop of N rounds begins (none: jump past its end).
    fn exec_loop_start(&mut self, f: &Frame, n: Amount, end: u16) -> Flow {
        let n = self.amount(n, f);
        if n <= 0 {
            return Flow::Goto(end);
        }
        self.frame_mut().loops = n.min(255) as u8;
        Flow::Next
    }

    /// A `repeat any` loop begins: its first round, with `did` cleared. `loops` counts the
    /// rounds down from 255, a guard against a body that can always be taken (a `may`
    /// the Confluence always takes, with nothing to pay): no card's "any number" comes
    /// near it.
    fn exec_loop_any(&mut self) -> Flow {
        let fr = self.frame_mut();
        fr.did = false;
        fr.loops = u8::MAX;
        Flow::Next
    }

    /// A loop's end: back to its start while rounds are left; after a `repeat any`, while
    /// the round just run took its `may` or `pay` (`did`), with `did` cleared again.
    fn exec_loop_next(&mut self, to: u16, any: bool) -> Flow {
        let fr = self.frame_mut();
        if fr.loops > 1 && (!any || fr.did) {
            fr.loops -= 1;
            if any {
                fr.did = false;
            }
            Flow::Goto(to)
        } else {
            fr.loops = 0;
            Flow::Next
        }
    }

    /// Modes: the player chooses, the Confluence takes the first. `by_opponent`: the
    /// controller's opponent chooses (`opponent_choose`).
    fn exec_choose(&mut self, f: &Frame, by_opponent: bool) -> Flow {
        let chooser = if by_opponent {
            self.opp_of(f)
        } else {
            f.controller
        };
        if self.s.scripted(chooser) {
            Flow::Goto(f.pc + 1)
        } else {
            self.ask(Decision::Mode, chooser);
            Flow::Wait
        }
    }
}
