//! What each expedition still needs to clear Dusk, read from the player's view. Shared by
//! the heuristic policies.
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

use crate::cards::types::*;
use crate::engine::state::{Mode, ObjId};
use crate::engine::view::View;

/// Per expedition: what the facing objects and the region ask for in total, and what the
/// player's characters there already bring.
#[derive(Copy, Clone, Debug, Default)]
pub struct Needs {
    pub ask: ByExp<Stats>,
    pub have: ByExp<Stats>,
}

fn terrain_vec(bits: u8) -> Stats {
    Stats::new(
        (bits & terrain::FOREST != 0) as i16,
        (bits & terrain::MOUNTAIN != 0) as i16,
        (bits & terrain::WATER != 0) as i16,
    )
}

/// Whether the game is played against other players (head to head or Free for All)
/// rather than the Confluence: a four-seat table always is, so the check costs nothing
/// there and stays the two-seat one at two seats.
#[inline]
pub fn head_to_head<const N: usize, const M: usize>(view: &View<'_, N, M>) -> bool {
    N > 2 || view.mode() == Mode::Duel
}

/// Whether every opponent still playing has passed this Afternoon (with two seats, the
/// one opponent).
#[inline]
pub fn opponents_passed<const N: usize, const M: usize>(view: &View<'_, N, M>) -> bool {
    if N == 2 {
        view.passed(view.them())
    } else {
        view.opponents().all(|s| view.passed(s))
    }
}

/// Per expedition: does the player have a character there?
pub fn has_character<const N: usize, const M: usize>(view: &View<'_, N, M>) -> [bool; 2] {
    let mut has = [false; 2];
    for e in Exp::BOTH {
        has[e.index()] = view
            .expedition(view.me(), e)
            .iter()
            .any(|&id| view.card(id).kind.is_character());
    }
    has
}

/// Head-to-head: what `side`'s characters count in expedition `e` at Dusk (its Gigantic
/// ones in both, Asleep ones not at all).
pub fn duel_total<const N: usize, const M: usize>(
    view: &View<'_, N, M>,
    side: Side,
    e: Exp,
) -> Stats {
    let mut t = Stats::ZERO;
    for x in Exp::BOTH {
        for &id in view.expedition(side, x) {
            if !view.card(id).kind.is_character() || view.has_kw(id, kw::ASLEEP) {
                continue;
            }
            if x == e || view.has_kw(id, kw::GIGANTIC) {
                t = t + view.stats(id).clamp_zero();
            }
        }
    }
    t
}

impl Needs {
    pub fn of<const N: usize, const M: usize>(view: &View<'_, N, M>) -> Needs {
        if head_to_head(view) {
            return Self::duel(view);
        }
        let mut n = Needs::default();
        for e in Exp::BOTH {
            *n.ask.get_mut(e) = terrain_vec(view.requirement(e));
        }
        for x in Exp::BOTH {
            for &id in view.expedition(view.them(), x) {
                if view.has_kw(id, kw::ASLEEP) {
                    continue;
                }
                let st = view.stats(id).clamp_zero();
                let gig = view.card(id).kind.is_character() && view.has_kw(id, kw::GIGANTIC);
                for e in Exp::BOTH {
                    if e == x || gig {
                        let a = n.ask.get_mut(e);
                        *a = *a + st;
                    }
                }
            }
            for &id in view.expedition(view.me(), x) {
                if !view.card(id).kind.is_character() || view.has_kw(id, kw::ASLEEP) {
                    continue;
                }
                let st = view.stats(id).clamp_zero();
                let gig = view.has_kw(id, kw::GIGANTIC);
                for e in Exp::BOTH {
                    if e == x || gig {
                        let h = n.have.get_mut(e);
                        *h = *h + st;
                    }
                }
            }
        }
        n
    }

    /// Head-to-head: to move forward, an expedition must beat the opposing one in one
    /// terrain of its region (digest §4). The ask is the cheapest such terrain: one more
    /// than the opposing expedition has there.
    fn duel<const N: usize, const M: usize>(view: &View<'_, N, M>) -> Needs {
        let mut n = Needs::default();
        let total = |side: Side, e: Exp| duel_total(view, side, e);
        for e in Exp::BOTH {
            // The expedition across this one's lane (with two seats the other seat's `e`).
            let (side, fe) = view.across(e);
            let (mine, theirs) = (total(view.me(), e), total(side, fe));
            *n.have.get_mut(e) = mine;
            let region = view.requirement(e);
            let mut best: Option<(i16, u8)> = None;
            for t in [terrain::FOREST, terrain::MOUNTAIN, terrain::WATER] {
                if region & t == 0 {
                    continue;
                }
                let want = (theirs.get(t) + 1).max(1);
                let short = (want - mine.get(t)).max(0);
                if best.is_none_or(|(b, _)| short < b) {
                    best = Some((short, t));
                }
            }
            if let Some((_, t)) = best {
                let want = (theirs.get(t) + 1).max(1);
                let v = terrain_vec(t);
                *n.ask.get_mut(e) = Stats::new(v.f * want, v.m * want, v.o * want);
            }
        }
        n
    }

    /// What is still missing, per terrain (never negative).
    pub fn deficit(&self, e: Exp) -> Stats {
        (self.ask.get(e) - self.have.get(e)).clamp_zero()
    }

    /// The expedition already has everything it needs.
    pub fn clear(&self, e: Exp) -> bool {
        self.deficit(e) == Stats::ZERO
    }

    /// How much of the deficit `add` would cover, and whether that clears the expedition.
    pub fn gain(&self, e: Exp, add: Stats) -> (i16, bool) {
        let d = self.deficit(e);
        let after = (d - add).clamp_zero();
        (
            d.sum() - after.sum(),
            after == Stats::ZERO && d != Stats::ZERO,
        )
    }

    /// Adds a character's statistics to an expedition (both, when Gigantic).
    pub fn add(&mut self, e: Exp, st: Stats, gigantic: bool) {
        for x in Exp::BOTH {
            if x == e || gigantic {
                let h = self.have.get_mut(x);
                *h = *h + st;
            }
        }
    }
}

/// The statistics a card would bring if played now (boosts it would gain are ignored).
pub fn card_stats<const N: usize, const M: usize>(view: &View<'_, N, M>, id: ObjId) -> Stats {
    view.card(id).stats.clamp_zero()
}
