//! Tokens an effect creates: characters in expeditions (or after Rest) and landmarks.

use super::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// Character tokens created in expeditions (or after Rest).
    pub(super) fn exec_token(
        &mut self,
        f: &Frame,
        card: CardIdx,
        at: ExpRef,
        n: u8,
        opposing: bool,
        after_rest: bool,
    ) -> Flow {
        let Some(exps) = self.resolve_exps(at, f) else {
            return Flow::Wait;
        };
        // Head to head, target Expedition may have been an opposing one (D60).
        let opposing = opposing || (matches!(at, ExpRef::Target | ExpRef::AnyOf(_)) && f.step == 1);
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

    /// Landmark tokens created for the named players.
    pub(super) fn exec_landmark_token(
        &mut self,
        f: &Frame,
        card: CardIdx,
        whose: PlayerRef,
        n: u8,
    ) -> Flow {
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
                if let Some(t) = self.create_landmark_token(side, card) {
                    self.fire(Fire::Joined { obj: t });
                }
            }
        }
        Flow::Next
    }
}
