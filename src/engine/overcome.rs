//! The Overcome rule (S0 "Core Rule: Overcome", digest §6.5).
//!
//! For each player expedition, sum the F/M/O of the player's characters counted there
//! (Gigantic ones in both, Asleep ones not at all, boosts included). The player overcomes a
//! subset of the facing Confluence characters and expedition permanents whose statistics fit
//! within those sums; only if every facing object is overcome does the expedition face the
//! region's terrain, paying 1 of each terrain type the region has. The subset is chosen, over
//! both expeditions together, to let the most expeditions advance, then to clear the most
//! expeditions (which matters for Defender), then to overcome the most Persistent objects.
//! A Gigantic Confluence character faces both expeditions and must be overcome in both for
//! either to advance; a Gigantic Persistent one counts as overcome only if it is overcome on
//! both sides.
//!
//! Layer: part of [`crate::engine`]; may use `cards` and nothing else of the crate.

use arrayvec::ArrayVec;

use super::state::*;
use crate::cards::db::CardDb;
use crate::cards::types::*;

/// Facing objects enumerated exactly up to this many; beyond it a greedy fill is used.
const EXACT_LIMIT: usize = 12;
pub const MAX_FACING: usize = 32;

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Facing {
    pub obj: ObjId,
    pub req: Stats,
    pub persistent: bool,
    pub constant: bool,
    pub gigantic: bool,
    pub asleep: bool,
    pub overcome: bool,
}

/// Why an expedition did or did not advance.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Verdict {
    #[default]
    Advanced,
    /// Cleared everything but a Defender keeps it in place (it blocks the Darkness instead).
    Defender,
    NotAllOvercome,
    TerrainNotPaid,
    /// Everything here was overcome, but a Gigantic Confluence character was not overcome
    /// on the other side.
    GiganticElsewhere,
    /// Cleared, but an effect prevents this expedition from moving forward.
    Blocked,
}

impl Verdict {
    pub fn describe(self) -> &'static str {
        match self {
            Verdict::Advanced => "advanced",
            Verdict::Defender => {
                "cleared, but Defender: does not advance (the Darkness is stopped on this side)"
            }
            Verdict::NotAllOvercome => "not every facing object was overcome",
            Verdict::TerrainNotPaid => {
                "every facing object was overcome, but the terrain could not be paid"
            }
            Verdict::GiganticElsewhere => {
                "a Gigantic Confluence character was not overcome on the other side"
            }
            Verdict::Blocked => "cleared, but an effect prevents it from moving forward",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExpReport {
    pub region: u8,
    /// Terrain the region asks to be paid (after replacements).
    pub requirement: u8,
    /// Terrain types added to the region (their points pay any requirement).
    pub added: u8,
    pub totals: Stats,
    /// Facing objects; Asleep ones are listed but neither counted nor overcome.
    pub facing: ArrayVec<Facing, MAX_FACING>,
    pub ascend: bool,
    pub defender: bool,
    /// An effect prevents it from moving forward.
    pub blocked: bool,
    pub terrain_paid: bool,
    /// Everything overcome and the terrain paid (or Ascended).
    pub cleared: bool,
    pub advanced: bool,
    /// Types of the points that paid the region (for "moves forward due to").
    pub due_to: u8,
    pub remaining: Stats,
    pub verdict: Verdict,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DuskReport {
    pub exps: [ExpReport; 2],
}

impl ExpReport {
    /// An empty report, its fields written in place (the derived `Default` of an array of
    /// two builds each element apart and copies it, uninitialized facing list included).
    #[inline(always)]
    const fn empty() -> ExpReport {
        ExpReport {
            region: 0,
            requirement: 0,
            added: 0,
            totals: Stats::ZERO,
            facing: ArrayVec::new_const(),
            ascend: false,
            defender: false,
            blocked: false,
            terrain_paid: false,
            cleared: false,
            advanced: false,
            due_to: 0,
            remaining: Stats::ZERO,
            verdict: Verdict::Advanced,
        }
    }
}

impl DuskReport {
    /// An empty report for [`evaluate_into`] to fill (the same as `default()`).
    #[inline(always)]
    pub const fn empty() -> DuskReport {
        DuskReport {
            exps: [ExpReport::empty(), ExpReport::empty()],
        }
    }
}

/// Pays one point per required terrain, natural type first, else with an added type.
/// Returns the types of the points spent.
pub fn pay_terrain(rem: Stats, requirement: u8, added: u8) -> Option<u8> {
    pay_terrain_for(rem, requirement, added, 0)
}

/// Like [`pay_terrain`], but the player may pay with an added type where that makes the
/// expedition move forward due to a type in `wanted` (FAQ "Moving due to Terrain Type": Rin
/// & Orchid with Magic Beans): of the ways to pay, the one spending the most `wanted`
/// types, then the first in natural-first order.
pub fn pay_terrain_for(rem: Stats, requirement: u8, added: u8, wanted: u8) -> Option<u8> {
    fn go(rem: [i16; 3], reqs: &[usize], added: u8, due: u8, wanted: u8, best: &mut Option<u8>) {
        let Some((&t, rest)) = reqs.split_first() else {
            let score = |d: u8| (d & wanted).count_ones();
            if best.is_none_or(|b| score(due) > score(b)) {
                *best = Some(due);
            }
            return;
        };
        for p in std::iter::once(t).chain((0..3).filter(|&a| a != t && added & (1 << a) != 0)) {
            if rem[p] < 1 {
                continue;
            }
            let mut r = rem;
            r[p] -= 1;
            go(r, rest, added, due | (1 << p), wanted, best);
            // Without a wish among the added types, the first way found is the one.
            if best.is_some() && added & wanted == 0 {
                return;
            }
        }
    }
    let mut reqs = [0usize; 3];
    let mut n = 0;
    for t in 0..3 {
        if requirement & (1 << t) != 0 {
            reqs[n] = t;
            n += 1;
        }
    }
    let mut best = None;
    go(
        [rem.f, rem.m, rem.o],
        &reqs[..n],
        added,
        0,
        wanted,
        &mut best,
    );
    best
}

/// Per-side summary of one feasible subset.
#[derive(Copy, Clone)]
struct Entry {
    complete: bool,
    gmask: u16,
    pers: u8,
    count: u8,
    mask: u32,
    due: u8,
    rem: Stats,
}

#[derive(Default)]
struct SideInput {
    totals: Stats,
    /// Index of each facing object among the Gigantic Confluence characters, if Gigantic.
    gidx: ArrayVec<Option<u8>, MAX_FACING>,
    requirement: u8,
    added: u8,
    /// Types that would trigger a "moves forward due to" ability here.
    wanted: u8,
    ascend: bool,
}

/// The best feasible subsets of `facing` (the report's list of the objects facing one
/// expedition), kept per (complete, Gigantic mask).
fn entries(inp: &SideInput, facing: &[Facing], out: &mut ArrayVec<Entry, 64>) {
    let n = facing.len();
    let full: u32 = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    // Asleep objects are not counted and cannot be overcome: they are outside every
    // subset, and "all overcome" means all awake ones.
    let asleep: u32 = (0..n)
        .filter(|&i| facing[i].asleep)
        .fold(0, |m, i| m | (1 << i));
    let awake = full & !asleep;
    let consider = |mask: u32, out: &mut ArrayVec<Entry, 64>| {
        let mut sum = Stats::ZERO;
        let (mut gmask, mut pers, mut count) = (0u16, 0u8, 0u8);
        for (i, f) in facing.iter().enumerate() {
            if mask & (1 << i) != 0 {
                sum = sum + f.req;
                count += 1;
                match inp.gidx[i] {
                    Some(g) => gmask |= 1 << g,
                    None => pers += f.persistent as u8,
                }
            }
        }
        if !inp.totals.covers(sum) {
            return;
        }
        let rem = inp.totals - sum;
        let (complete, due) = if mask == awake {
            if inp.ascend {
                (true, 0)
            } else {
                match pay_terrain_for(rem, inp.requirement, inp.added, inp.wanted) {
                    Some(d) => (true, d),
                    None => (false, 0),
                }
            }
        } else {
            (false, 0)
        };
        let e = Entry {
            complete,
            gmask,
            pers,
            count,
            mask,
            due,
            rem,
        };
        // Keep the best entry per (complete, gmask).
        if let Some(slot) = out
            .iter_mut()
            .find(|x| x.complete == complete && x.gmask == gmask)
        {
            if (e.pers, e.count) > (slot.pers, slot.count) {
                *slot = e;
            }
        } else if !out.is_full() {
            out.push(e);
        }
    };
    if n <= EXACT_LIMIT {
        // Enumerate all subsets of the awake objects.
        let mut sub = awake;
        loop {
            consider(sub, out);
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & awake;
        }
    } else {
        // Greedy: add the smallest requirements first while they fit.
        let mut order: ArrayVec<usize, MAX_FACING> =
            (0..n).filter(|&i| awake & (1 << i) != 0).collect();
        order.sort_by_key(|&i| facing[i].req.sum());
        let mut mask = 0u32;
        let mut sum = Stats::ZERO;
        for i in order {
            let s2 = sum + facing[i].req;
            if inp.totals.covers(s2) {
                sum = s2;
                mask |= 1 << i;
            }
        }
        consider(mask, out);
        consider(0, out);
    }
}

/// The Confluence's awake Gigantic characters, those listed in its Hero expedition first
/// (16 at most).
#[inline]
fn awake_gigantics<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
) -> ArrayVec<ObjId, 16> {
    let mut gigantics: ArrayVec<ObjId, 16> = ArrayVec::new();
    let conf = s.side(Side::Confluence);
    for e in 0..2 {
        for id in conf.exp[e].iter() {
            if !db.card(s.obj(id).card).kind.is_character() {
                continue;
            }
            // Every keyword read at once (`has_kw` for each is the same test, an aura's
            // conditions evaluated once rather than once a keyword).
            let k = s.kw_bits(db, id);
            if k & kw::GIGANTIC != 0 && k & kw::ASLEEP == 0 && !gigantics.is_full() {
                gigantics.push(id);
            }
        }
    }
    gigantics
}

/// Works out Dusk for both expeditions from the current state (nothing is changed).
pub fn evaluate<const N: usize, const M: usize>(s: &GameState<N, M>, db: &CardDb) -> DuskReport {
    let mut report = DuskReport::empty();
    evaluate_into(s, db, &mut report);
    report
}

/// [`evaluate`] into a report the caller holds, every field of it written (no copy of the
/// report out of the function). Each object's keywords are read once (`kw_bits`: Gigantic,
/// Defender, Asleep, Persistent, Constant, none of them Fleeting, so the same test as a
/// `has_kw` call for each).
pub fn evaluate_into<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    report: &mut DuskReport,
) {
    let gigantics = awake_gigantics(s, db);
    let conf = s.side(Side::Confluence);
    // Filled in place, the facing lists in the report itself (no copy of them).
    let mut inputs: [SideInput; 2] = Default::default();
    for r in &mut report.exps {
        r.facing.clear();
    }
    for e in Exp::BOTH {
        let region = s.region(e);
        let mut totals = Stats::ZERO;
        let mut defender = false;
        let pl = s.side(Side::Player);
        for x in 0..2 {
            for id in pl.exp[x].iter() {
                let o = s.obj(id);
                if !db.card(o.card).kind.is_character() {
                    continue;
                }
                let k = s.kw_bits(db, id);
                if !(o.zone == Zone::Expedition && (o.exp == e || k & kw::GIGANTIC != 0)) {
                    continue;
                }
                if k & kw::DEFENDER != 0 {
                    defender = true;
                }
                if k & kw::ASLEEP != 0 {
                    continue;
                }
                totals = totals + s.stats(db, id).clamp_zero();
            }
        }
        let gidx = &mut inputs[e.index()].gidx;
        let facing = &mut report.exps[e.index()].facing;
        for x in Exp::BOTH {
            for id in conf.exp[x.index()].iter() {
                let def = db.card(s.obj(id).card);
                let k = s.kw_bits(db, id);
                let gig = def.kind.is_character() && k & kw::GIGANTIC != 0;
                if (x != e && !gig) || facing.is_full() {
                    continue;
                }
                let asleep = def.kind.is_character() && k & kw::ASLEEP != 0;
                facing.push(Facing {
                    obj: id,
                    req: s.stats(db, id).clamp_zero(),
                    persistent: k & kw::PERSISTENT != 0,
                    constant: k & kw::CONSTANT != 0,
                    gigantic: gig,
                    asleep,
                    overcome: false,
                });
                gidx.push(if gig && !asleep {
                    gigantics.iter().position(|&g| g == id).map(|p| p as u8)
                } else {
                    None
                });
            }
        }
        if defender && s.defender_lifted(db, e) {
            defender = false;
        }
        let r = &mut report.exps[e.index()];
        r.region = region as u8;
        (r.requirement, r.added) = s.region_requirement(db, region);
        r.totals = totals;
        let inp = &mut inputs[e.index()];
        r.ascend = s.today.seats[Side::Player].ascend.get(e);
        r.defender = defender;
        r.blocked = s.expedition_blocked(db, e);
        inp.totals = totals;
        inp.requirement = r.requirement;
        inp.added = r.added;
        inp.wanted = if r.added != 0 {
            due_wanted(s, db, e)
        } else {
            0
        };
        inp.ascend = r.ascend;
    }
    let [hin, cin] = &inputs;
    let mut he = ArrayVec::new();
    let mut ce = ArrayVec::new();
    entries(hin, &report.exps[0].facing, &mut he);
    entries(cin, &report.exps[1].facing, &mut ce);
    let all_g: u16 = if gigantics.is_empty() {
        0
    } else {
        ((1u32 << gigantics.len()) - 1) as u16
    };
    let pers_g: u16 = gigantics
        .iter()
        .enumerate()
        .filter(|(_, id)| s.has_kw(db, **id, kw::PERSISTENT))
        .fold(0, |m, (i, _)| m | (1 << i));
    // A blocked expedition is treated like a Defender one when choosing what to overcome:
    // it cannot advance, but clearing still matters.
    let defenders = [
        report.exps[0].defender || report.exps[0].blocked,
        report.exps[1].defender || report.exps[1].blocked,
    ];
    type Scored = ((u8, u8, u8, u8), Entry, Entry);
    let mut best: Option<Scored> = None;
    for h in &he {
        for c in &ce {
            let cleared = [
                h.complete && c.gmask == all_g,
                c.complete && h.gmask == all_g,
            ];
            let adv = [cleared[0] && !defenders[0], cleared[1] && !defenders[1]];
            let pers = h.pers + c.pers + (h.gmask & c.gmask & pers_g).count_ones() as u8;
            let score = (
                adv[0] as u8 + adv[1] as u8,
                cleared[0] as u8 + cleared[1] as u8,
                pers,
                h.count + c.count,
            );
            if best.as_ref().is_none_or(|(b, _, _)| score > *b) {
                best = Some((score, *h, *c));
            }
        }
    }
    let (_, h, c) = best.expect("the empty subset always fits");
    verdicts(report, h, c, all_g);
}

/// Writes each expedition's outcome from the chosen subsets (`h` facing the Hero
/// expedition, `c` the Companion one).
fn verdicts(report: &mut DuskReport, h: Entry, c: Entry, all_g: u16) {
    for (e, ent, other) in [(Exp::Hero, h, c), (Exp::Companion, c, h)] {
        let r = &mut report.exps[e.index()];
        for (i, f) in r.facing.iter_mut().enumerate() {
            f.overcome = ent.mask & (1 << i) != 0;
        }
        r.remaining = ent.rem;
        let awake_all = r.facing.iter().all(|f| f.overcome || f.asleep);
        r.terrain_paid = ent.complete && !r.ascend;
        r.cleared = ent.complete && other.gmask == all_g;
        r.advanced = r.cleared && !r.defender && !r.blocked;
        r.due_to = if r.cleared { ent.due } else { 0 };
        r.verdict = if r.advanced {
            Verdict::Advanced
        } else if r.cleared && r.defender {
            Verdict::Defender
        } else if r.cleared {
            Verdict::Blocked
        } else if !awake_all {
            Verdict::NotAllOvercome
        } else if !ent.complete {
            Verdict::TerrainNotPaid
        } else {
            Verdict::GiganticElsewhere
        };
    }
}

/// The terrain types whose spending would trigger one of the player's "moves forward due
/// to" abilities if expedition `e` moved forward.
fn due_wanted<const N: usize, const M: usize>(s: &GameState<N, M>, db: &CardDb, e: Exp) -> u8 {
    use crate::cards::effect::{EventKind, Trigger};
    let pl = s.side(Side::Player);
    let mut out = 0;
    let ids = std::iter::once(pl.hero)
        .filter(|&h| h != NO_OBJ)
        .chain(pl.exp[0].iter())
        .chain(pl.exp[1].iter())
        .chain(pl.landmarks.iter());
    for id in ids {
        let o = s.obj(id);
        let here = o.zone == Zone::Expedition && (o.exp == e || s.has_kw(db, id, kw::GIGANTIC));
        for ab in db.abilities_of(o.card) {
            match ab.trigger {
                Trigger::When(EventKind::MyExpMovesDue(t)) if here => out |= t,
                Trigger::When(EventKind::YourExpMovesDue(t)) => out |= t,
                _ => {}
            }
        }
    }
    out
}

/// Which expeditions would advance if Dusk started now ("Progressing").
/// Terrain types whose every requirement facing this expedition was overcome: every facing
/// object asking for that type, and the region's requirement of it (FAQ "The Confluence's
/// Expedition", "moves forward due to").
pub fn fully_overcome(r: &ExpReport) -> u8 {
    let mut bits = 0;
    for t in [terrain::FOREST, terrain::MOUNTAIN, terrain::WATER] {
        let objects = r
            .facing
            .iter()
            .all(|f| f.asleep || f.overcome || f.req.get(t) == 0);
        let all = r.facing.iter().all(|f| f.asleep || f.overcome);
        let region = r.requirement & t == 0 || r.cleared || (r.ascend && all);
        if objects && region {
            bits |= t;
        }
    }
    bits
}

pub fn progressing<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
) -> ByExp<bool> {
    let r = evaluate(s, db);
    ByExp([r.exps[0].advanced, r.exps[1].advanced])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::types::terrain::*;

    #[test]
    fn terrain_paid_naturally() {
        // Worked example of digest §6.5: 1/2/1 left, M+O region -> 1/1/0 after... pays M and O.
        assert_eq!(
            pay_terrain(Stats::new(1, 1, 1), MOUNTAIN | WATER, 0),
            Some(MOUNTAIN | WATER)
        );
        assert_eq!(pay_terrain(Stats::new(1, 0, 1), MOUNTAIN | WATER, 0), None);
    }

    #[test]
    fn added_terrain_points_pay_any_requirement() {
        // Magic Beans adds F: one F point pays the region's M.
        assert_eq!(
            pay_terrain(Stats::new(1, 0, 0), MOUNTAIN, FOREST),
            Some(FOREST)
        );
        assert_eq!(pay_terrain(Stats::new(1, 0, 0), MOUNTAIN, 0), None);
        // Natural payment is preferred when both work.
        assert_eq!(
            pay_terrain(Stats::new(1, 1, 0), MOUNTAIN, FOREST),
            Some(MOUNTAIN)
        );
    }

    #[test]
    fn end_regions_cost_one_of_each() {
        assert!(pay_terrain(Stats::new(1, 1, 1), ALL, 0).is_some());
        assert!(pay_terrain(Stats::new(2, 2, 0), ALL, 0).is_none());
    }
}
