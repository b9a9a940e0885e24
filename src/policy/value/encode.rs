//! The input of the value model: the whole visible position, from the player's side, as a
//! fixed-size vector of numbers of order 1.
//!
//! It reads only the [`View`], so it is as blind as any policy. Cards enter by what they
//! are (statistics, costs, kinds, statuses), not by name, so that the model carries over to
//! decks it never saw.
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

use crate::cards::types::{CardKind, Exp, Stats, kw, terrain};
use crate::engine::Decision;
use crate::engine::state::{ObjId, flag};
use crate::engine::view::View;

/// Inputs per position.
pub const N_IN: usize = 116;

/// Names of the inputs, in order (for the weights file and for studies).
pub fn names() -> Vec<String> {
    let mut n: Vec<String> = Vec::with_capacity(N_IN);
    for s in [
        "bias_one",
        "day",
        "day_sq",
        "decision_setup",
        "decision_expand",
        "decision_turn",
        "decision_other",
        "first_player",
        "passed_me",
        "passed_them",
        "distance_to_meet",
        "midnight_card",
        "pending_boosts",
    ] {
        n.push(s.into());
    }
    for e in ["hero", "companion"] {
        for s in [
            "progress",
            "darkness_gap",
            "gap_1",
            "gap_2",
            "req_f",
            "req_m",
            "req_o",
            "threatened",
            "midnight_here",
            "mine_f",
            "mine_m",
            "mine_o",
            "mine_count",
            "mine_boosts",
            "mine_asleep",
            "mine_anchored",
            "mine_fleeting",
            "facing_f",
            "facing_m",
            "facing_o",
            "facing_count",
            "facing_persistent",
            "facing_gigantic",
            "rem_f",
            "rem_m",
            "rem_o",
            "cleared",
            "terrain_paid",
            "advances",
            "defender",
            "next_known",
            "next_f",
            "next_m",
            "next_o",
        ] {
            n.push(format!("{e}_{s}"));
        }
    }
    for z in ["hand", "reserve"] {
        for s in [
            "size", "cost", "chars", "spells", "perms", "stat_f", "stat_m", "stat_o", "cheap",
        ] {
            n.push(format!("{z}_{s}"));
        }
    }
    for s in [
        "mana",
        "mana_ready",
        "landmarks",
        "reserve_room",
        "landmark_room",
        "deck",
        "discard",
        "c_hand",
        "c_deck",
        "c_discard",
        "c_mana",
        "c_reserve",
        "c_reserve_f",
        "c_reserve_m",
        "c_reserve_o",
        "c_landmarks",
        "c_reserve_persistent",
    ] {
        n.push(s.into());
    }
    debug_assert_eq!(n.len(), N_IN);
    n
}

/// What a zone of cards holds, summed.
#[derive(Default)]
struct ZoneSum {
    size: f32,
    cost: f32,
    chars: f32,
    spells: f32,
    perms: f32,
    stats: [f32; 3],
    /// Cards the player could pay for with the Mana ready now.
    cheap: f32,
}

fn zone_sum(view: &View<'_>, ids: &[ObjId], from_reserve: bool, ready: u8) -> ZoneSum {
    let mut z = ZoneSum::default();
    for &id in ids {
        let d = view.card(id);
        z.size += 1.0;
        let cost = if from_reserve {
            d.reserve_cost
        } else {
            d.hand_cost
        };
        z.cost += cost as f32;
        match d.kind {
            CardKind::Character => {
                z.chars += 1.0;
                add(&mut z.stats, d.stats);
            }
            CardKind::Spell => z.spells += 1.0,
            _ => z.perms += 1.0,
        }
        if cost <= ready {
            z.cheap += 1.0;
        }
    }
    z
}

fn add(acc: &mut [f32; 3], s: Stats) {
    acc[0] += s.f as f32;
    acc[1] += s.m as f32;
    acc[2] += s.o as f32;
}

fn bit(x: bool) -> f32 {
    x as u8 as f32
}

/// Fills `out` with the position as the deciding player sees it.
pub fn encode(view: &View<'_>, out: &mut [f32; N_IN]) {
    let mut i = 0;
    let mut put = |x: f32| {
        out[i] = x;
        i += 1;
    };
    let me = view.me();
    let them = me.other();
    let day = view.day() as f32;
    put(1.0);
    put(day / 8.0);
    put(day * day / 64.0);
    let d = view.decision();
    put(bit(d == Decision::SetupMana));
    put(bit(d == Decision::Expand));
    put(bit(d == Decision::Turn));
    put(bit(!matches!(
        d,
        Decision::SetupMana | Decision::Expand | Decision::Turn
    )));
    put(bit(view.first_player() == me));
    put(bit(view.passed(me)));
    put(bit(view.passed(them)));
    put(view.distance_to_meet() as f32 / 7.0);
    put(bit(view.midnight_card().is_some()));
    put(view.pending_next_boosts() as f32 / 4.0);
    let dusk = view.dusk_preview();
    let midnight = view.midnight_target();
    for e in Exp::BOTH {
        let r = &dusk.exps[e.index()];
        let gap = view.darkness_gap(e);
        put(view.progress(e) as f32 / 7.0);
        put(gap as f32 / 7.0);
        put(bit(gap <= 1));
        put(bit(gap == 2));
        for t in [terrain::FOREST, terrain::MOUNTAIN, terrain::WATER] {
            put(bit(r.requirement & t != 0));
        }
        put(bit(view.threatened() == e));
        put(bit(midnight == Some(e)));
        let mut mine = [0f32; 3];
        let (mut count, mut boosts, mut asleep, mut anchored, mut fleeting) = (0., 0., 0., 0., 0.);
        for &id in view.expedition(me, e) {
            let o = view.obj(id);
            add(&mut mine, view.stats(id));
            count += 1.0;
            boosts += o.boosts as f32;
            asleep += bit(o.has(kw::ASLEEP));
            anchored += bit(o.has(kw::ANCHORED));
            fleeting += bit(o.has(kw::FLEETING) && !o.has(flag::LOST_FLEETING));
        }
        for x in mine {
            put(x / 10.0);
        }
        put(count / 4.0);
        put(boosts / 4.0);
        put(asleep / 2.0);
        put(anchored / 2.0);
        put(fleeting / 2.0);
        let mut facing = [0f32; 3];
        let (mut persistent, mut gigantic) = (0., 0.);
        for f in &r.facing {
            add(&mut facing, f.req);
            persistent += bit(f.persistent);
            gigantic += bit(f.gigantic);
        }
        for x in facing {
            put(x / 10.0);
        }
        put(r.facing.len() as f32 / 4.0);
        put(persistent / 2.0);
        put(gigantic / 2.0);
        for x in [r.remaining.f, r.remaining.m, r.remaining.o] {
            put(x as f32 / 10.0);
        }
        put(bit(r.cleared));
        put(bit(r.terrain_paid));
        put(bit(r.advanced));
        put(bit(r.defender));
        // The next region this expedition would enter, where the player has seen it.
        let pos = view.position(e) as i32;
        let next = match e {
            Exp::Hero => pos + 1,
            Exp::Companion => pos - 1,
        };
        let seen = (0..8)
            .contains(&next)
            .then(|| view.terrain(next as usize))
            .flatten();
        put(bit(seen.is_some()));
        let t = seen.unwrap_or(0);
        for b in [terrain::FOREST, terrain::MOUNTAIN, terrain::WATER] {
            put(bit(t & b != 0));
        }
    }
    let (mana, ready) = view.mana(me);
    for z in [
        zone_sum(view, view.hand(), false, ready),
        zone_sum(view, view.reserve(me), true, ready),
    ] {
        put(z.size / 6.0);
        put(z.cost / 12.0);
        put(z.chars / 6.0);
        put(z.spells / 6.0);
        put(z.perms / 6.0);
        for x in z.stats {
            put(x / 12.0);
        }
        put(z.cheap / 6.0);
    }
    put(mana as f32 / 8.0);
    put(ready as f32 / 8.0);
    let lm = view.landmarks(me).len() as f32;
    put(lm / 2.0);
    put((view.reserve_limit() as f32 - view.reserve(me).len() as f32) / 2.0);
    put((view.landmark_limit() as f32 - lm) / 2.0);
    put(view.deck_size(me) as f32 / 40.0);
    put(view.discard(me).len() as f32 / 20.0);
    put(view.hand_size(them) as f32 / 6.0);
    put(view.deck_size(them) as f32 / 40.0);
    put(view.discard(them).len() as f32 / 20.0);
    put(view.mana(them).0 as f32 / 8.0);
    let mut cres = [0f32; 3];
    let mut cpers = 0.0;
    for &id in view.reserve(them) {
        let d = view.card(id);
        add(&mut cres, d.stats);
        cpers += bit(d.keywords & kw::PERSISTENT != 0);
    }
    put(view.reserve(them).len() as f32 / 4.0);
    for x in cres {
        put(x / 10.0);
    }
    put(view.landmarks(them).len() as f32 / 2.0);
    put(cpers / 2.0);
    debug_assert_eq!(i, N_IN);
}
