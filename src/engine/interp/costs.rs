//! Costs paid inside an effect (`pay(...) {...}`) and the simple parts of any cost.

use super::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// Optional cost inside an effect. Steps: 0 ask, then card choices for the parts that
    /// need them (reserve discard, hand discard, sacrifice).
    pub(super) fn exec_pay(&mut self, f: &Frame, cost: Cost, skip: u16) -> Flow {
        match f.step {
            0 => {
                if !self.s.can_pay(self.db, f.controller, f.source, &cost) {
                    self.frame_mut().did = false;
                    return Flow::Goto(skip);
                }
                match self.s.scripted(f.controller) {
                    false => {
                        self.ask(Decision::May, f.controller);
                        Flow::Wait
                    }
                    true => {
                        self.pay_simple(f.controller, f.source, &cost);
                        let fr = self.frame_mut();
                        fr.step = 2;
                        fr.count = 0;
                        self.exec_pay(&self.s.frame().copied().expect("frame"), cost, skip)
                    }
                }
            }
            _ => {
                // Card-choice parts, in order: reserve discards, hand discards, a sacrifice.
                let side = f.controller;
                let c = f.count;
                let (need_res, need_hand, need_sac) = (
                    cost.discard_reserve,
                    cost.discard_hand,
                    (cost.sacrifice != 0) as u8,
                );
                let decision = if c < need_res {
                    Decision::ReserveCard
                } else if c < need_res + need_hand {
                    Decision::HandCard
                } else if c < need_res + need_hand + need_sac {
                    Decision::Sacrifice
                } else {
                    self.frame_mut().did = true;
                    return Flow::Next;
                };
                if self.s.scripted(side) {
                    let s = self.s.side(side);
                    let id = match decision {
                        Decision::ReserveCard => s.reserve.first(),
                        Decision::HandCard => s.hand.first(),
                        _ if cost.sacrifice & fkind::CHARACTER != 0 => {
                            self.confluence_sacrifice_choice()
                        }
                        _ => self.confluence_sacrifice_permanent(cost.sacrifice),
                    };
                    if let Some(id) = id {
                        self.pay_card(decision, id);
                    }
                    self.frame_mut().count += 1;
                    return self.exec_pay(&self.s.frame().copied().expect("frame"), cost, skip);
                }
                self.ask(decision, side);
                Flow::Wait
            }
        }
    }

    /// Pays mana, exhaust, counters and discard-me parts of a cost.
    pub(in crate::engine) fn pay_simple(&mut self, side: Side, source: ObjId, c: &Cost) {
        if !self.s.variant.free_mana {
            let s = self.s.side_mut(side);
            s.mana_ready -= c.mana;
        }
        let o = self.s.obj_mut(source);
        if c.exhaust {
            o.flags |= flag::EXHAUSTED;
        }
        o.counters -= c.counters;
        let exhausted_in_reserve = c.exhaust && o.zone == Zone::Reserve;
        if exhausted_in_reserve {
            self.fire(Fire::ExhaustedInReserve { side });
        }
        if c.discard_me {
            self.move_to(source, Zone::Discard, Exp::Hero, Why::Cost, false);
        }
    }

    pub(super) fn pay_card(&mut self, decision: Decision, id: ObjId) {
        match decision {
            Decision::ReserveCard => self.move_to(id, Zone::Discard, Exp::Hero, Why::Cost, false),
            Decision::HandCard => self.move_to(id, Zone::Discard, Exp::Hero, Why::Cost, false),
            _ => {
                self.move_obj(id, Dest::Sacrifice);
            }
        }
    }
}
