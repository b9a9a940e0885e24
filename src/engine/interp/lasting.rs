//! Modifiers an effect leaves for later: discounts, and what the next matching card
//! gains, loses or may do, for the turn or the day.

use super::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// Cards matching the filter cost less this turn (or this afternoon).
    pub(super) fn exec_discount(
        &mut self,
        f: &Frame,
        filter: FilterId,
        n: i8,
        min: u8,
        afternoon: bool,
    ) -> Flow {
        self.push_mod(TurnMod {
            discount: n,
            flags: if afternoon { modflag::AFTERNOON } else { 0 },
            min,
            ..TurnMod::of(f.controller, filter)
        });
        Flow::Next
    }

    /// The next matching character gains boosts.
    pub(super) fn exec_next_boost(
        &mut self,
        f: &Frame,
        filter: FilterId,
        n: i8,
        place: u8,
    ) -> Flow {
        if let Some(place) = self.mod_place(f, place) {
            self.push_mod(TurnMod {
                boosts: n,
                place,
                ..TurnMod::of(f.controller, filter)
            });
        }
        Flow::Next
    }

    /// The next matching card gains a status.
    pub(super) fn exec_next_gain(&mut self, f: &Frame, filter: FilterId, status: u32) -> Flow {
        self.push_mod(TurnMod {
            status,
            ..TurnMod::of(f.controller, filter)
        });
        Flow::Next
    }

    /// The next matching card loses a status.
    pub(super) fn exec_next_lose(&mut self, f: &Frame, filter: FilterId, status: u32) -> Flow {
        self.push_mod(TurnMod {
            status,
            flags: modflag::LOSE_STATUS,
            ..TurnMod::of(f.controller, filter)
        });
        Flow::Next
    }

    /// Tough for this day's characters of a minimum cost.
    pub(super) fn exec_day_tough(&mut self, f: &Frame, who: Who, min_cost: u8, tough: u8) -> Flow {
        for side in self.sides_of(who, f.controller).iter() {
            self.s.today.day_tough[Side::of_seat(side)] = (min_cost, tough);
        }
        Flow::Next
    }

    /// The next matching card gets the modifier's flags.
    pub(super) fn exec_next_mod(&mut self, f: &Frame, filter: FilterId, flags: u8) -> Flow {
        self.push_mod(TurnMod {
            flags,
            ..TurnMod::of(f.controller, filter)
        });
        Flow::Next
    }

    /// The next matching card's {R} abilities are activated.
    pub(super) fn exec_next_activate_r(&mut self, f: &Frame, filter: FilterId, place: u8) -> Flow {
        if let Some(place) = self.mod_place(f, place) {
            self.push_mod(TurnMod {
                flags: modflag::ACTIVATE_R,
                place,
                ..TurnMod::of(f.controller, filter)
            });
        }
        Flow::Next
    }
}
