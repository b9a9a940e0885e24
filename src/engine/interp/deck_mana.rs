//! The deck and the Mana inside an effect: drawing, resupplying, revealing the top card,
//! Mana from the deck, and orbs lost or readied.

use super::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// Each side of `who` draws.
    pub(super) fn exec_draw(&mut self, f: &Frame, who: Who, n: Amount) -> Flow {
        let n = self.amount(n, f).max(0) as u8;
        for side in self.sides_of(who, f.controller).iter() {
            let side = Side::of_seat(side);
            self.draw(side, n);
            self.fire(Fire::Drew { side });
        }
        Flow::Next
    }

    /// Each side of `who` resupplies; your own Resupply's card becomes `it`.
    pub(super) fn exec_resupply(
        &mut self,
        f: &Frame,
        who: Who,
        exhausted: bool,
        keep: bool,
    ) -> Flow {
        // The Ouroboros (R2): the player's own Resupply reveals two and keeps one.
        if who == Who::You
            && !self.s.scripted(f.controller)
            && self.side_has_static(f.controller, |st| matches!(st, Static::ResupplyRevealTwo))
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

    /// The top card of the controller's deck taken and made `it`.
    pub(super) fn exec_reveal_top(&mut self, f: &Frame) -> Flow {
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

    /// The top card of each deck put in Mana.
    pub(super) fn exec_mana_from_deck(&mut self, f: &Frame, who: Who, exhausted: bool) -> Flow {
        for side in self.sides_of(who, f.controller).iter() {
            let side = Side::of_seat(side);
            if let Some(id) = self.take_top(side) {
                self.put_in_mana(id, !exhausted, Why::Effect);
            }
        }
        Flow::Next
    }

    /// Mana orbs of the controller discarded.
    pub(super) fn exec_lose_mana(&mut self, f: &Frame, n: u8) -> Flow {
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

    /// Mana orbs of the controller readied.
    pub(super) fn exec_ready_mana(&mut self, f: &Frame, n: u8) -> Flow {
        let s = self.s.side_mut(f.controller);
        s.mana_ready = (s.mana_ready + n).min(s.mana.len() as u8);
        Flow::Next
    }
}
