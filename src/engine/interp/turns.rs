//! The turn and the day: passing, "after you", the first player token, Rest delayed, and a
//! card winning the game.

use super::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// "After you": the controller's turn ends.
    pub(super) fn exec_after_you(&mut self, f: &Frame) -> Flow {
        if self.s.phase == Phase::Turn && self.s.to_act == f.controller {
            self.s.phase = Phase::TurnEnd;
            if O::ENABLED {
                self.emit(Event::AfterYou { side: f.controller });
            }
        }
        Flow::Next
    }

    /// The source does not go to Rest this night.
    pub(super) fn exec_delay_rest(&mut self, f: &Frame) -> Flow {
        self.s.obj_mut(f.source).flags |= flag::DELAY_REST;
        self.s.rest_armed = true;
        Flow::Next
    }

    /// The controller wins the game.
    pub(super) fn exec_win_game(&mut self, f: &Frame) -> Flow {
        self.end(match (self.s.mode, f.controller) {
            (Mode::Confluence, Side::Player) => Outcome::WinByCard,
            (Mode::Confluence, _) => Outcome::LossByCard,
            (_, side) => Outcome::seat_wins(side),
        });
        Flow::Next
    }

    /// The controller passes, if it can in this phase; `did` says whether it did.
    pub(super) fn exec_pass(&mut self, f: &Frame) -> Flow {
        let afternoon = matches!(
            self.s.phase,
            Phase::Turn | Phase::TurnEnd | Phase::ConfluenceQuick(_) | Phase::ConfluencePlay
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

    /// A player takes the first player token.
    pub(super) fn exec_become_first(&mut self, f: &Frame, who: Who) -> Flow {
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

    /// Every player who has not passed passes.
    pub(super) fn exec_each_passes(&mut self, f: &Frame) -> Flow {
        let table = self.s.table;
        for side in table.sides_from(f.controller) {
            if !self.s.has_passed(side) {
                self.pass(side);
            }
        }
        Flow::Next
    }
}
