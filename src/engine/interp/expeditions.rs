//! Expeditions and regions: moving them, blocking their way forward, ascending, and the
//! markers placed in regions.

use super::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// Expeditions that may not move forward this day.
    pub(super) fn exec_block_forward(&mut self, f: &Frame, at: ExpRef, opposing: bool) -> Flow {
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
                (Mode::Confluence, Side::Confluence) => self.s.today.dark_blocked.set(e, true),
                _ => self.s.today.seats[target].no_forward.set(e, true),
            }
        }
        Flow::Next
    }

    /// Expeditions (or the Darkness) moved a region; `did` says whether any moved.
    pub(super) fn exec_move_exp(
        &mut self,
        f: &Frame,
        at: ExpRef,
        opposing: bool,
        forward: bool,
    ) -> Flow {
        let Some(exps) = self.resolve_exps(at, f) else {
            return Flow::Wait;
        };
        // Head to head, target Expedition may have been an opposing one (D60).
        let opposing = opposing || (matches!(at, ExpRef::Target | ExpRef::AnyOf(_)) && f.step == 1);
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

    /// A marker placed or moved (the Confluence takes the first option).
    pub(super) fn exec_marker(&mut self, f: &Frame, op: Op) -> Flow {
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

    /// Expeditions that ascend this day (or resupply instead, by a static).
    pub(super) fn exec_ascend(&mut self, f: &Frame, at: ExpRef) -> Flow {
        let Some(exps) = self.resolve_exps(at, f) else {
            return Flow::Wait;
        };
        // Only the player's expeditions have a terrain to skip (the Darkness is the
        // Confluence's expedition); head-to-head, either seat's.
        let side = self.exp_side(at, f, false);
        if !self.s.scripted(side) {
            let instead = self.side_has_static(side, |st| matches!(st, Static::AscendResupply));
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
}
