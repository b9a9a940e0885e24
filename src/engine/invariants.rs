//! The invariant checker. The engine calls it after every step in debug builds (and so in
//! tests) and in release builds with the `invariants` feature (the soak, `scripts/soak.sh`);
//! other release builds compile the call out.
//!
//! Layer: part of [`crate::engine`]; may use `cards` and nothing else of the crate.

use super::state::*;
use crate::cards::db::CardDb;
use crate::cards::types::*;

/// Checks the state; returns the first broken invariant.
pub fn check<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
) -> Result<(), String> {
    // With two seats the first-player token and the Threatened expedition move together
    // (the Confluence mode's rule; head to head the policies read `threatened`).
    if s.table.seats() == 2 && s.first != GameState::first_with(s.threatened) {
        return Err(format!(
            "first player {:?} with the {:?} expedition Threatened",
            s.first, s.threatened
        ));
    }
    if s.passed & !s.table.playing() != 0 {
        return Err(format!(
            "seats {:04b} passed, but only {:04b} play",
            s.passed,
            s.table.playing()
        ));
    }
    let seen = check_lists(s, db)?;
    check_cards(s, db, &seen)?;
    check_counts(s, db)?;
    check_track(s)
}

/// Every card object is in exactly one zone, and its zone field agrees with the lists; the
/// number of times each object is listed.
fn check_lists<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
) -> Result<[u8; M], String> {
    let mut seen = [0u8; M];
    for side in const { Side::seats::<N>() } {
        let st = s.side(side);
        let lists: [(&Zone64, Zone, Option<Exp>); 8] = [
            (&st.deck, Zone::Deck, None),
            (&st.hand, Zone::Hand, None),
            (&st.reserve, Zone::Reserve, None),
            (&st.landmarks, Zone::Landmarks, None),
            (&st.exp[0], Zone::Expedition, Some(Exp::Hero)),
            (&st.exp[1], Zone::Expedition, Some(Exp::Companion)),
            (&st.mana, Zone::Mana, None),
            (&st.discard, Zone::Discard, None),
        ];
        for (list, zone, exp) in lists {
            let mut last_ts: Option<u16> = None;
            for id in list.iter() {
                let o = s.obj(id);
                if let Some(n) = seen.get_mut(id as usize) {
                    *n += 1;
                }
                if o.zone != zone || o.side != side {
                    return Err(format!(
                        "object {id} ({}) is listed in {side:?} {zone:?} but says {:?} {:?}",
                        db.card(o.card).name,
                        o.side,
                        o.zone
                    ));
                }
                if let Some(e) = exp
                    && o.exp != e
                {
                    return Err(format!(
                        "object {id} is in the {e:?} expedition list but says {:?}",
                        o.exp
                    ));
                }
                // Silver Rule: ordered zones keep oldest-first order.
                if matches!(
                    zone,
                    Zone::Reserve | Zone::Landmarks | Zone::Expedition | Zone::Discard
                ) {
                    if let Some(t) = last_ts
                        && o.ts <= t
                    {
                        return Err(format!(
                            "Silver Rule order broken in {side:?} {zone:?}: object {id} (ts {}) after ts {t}",
                            o.ts
                        ));
                    }
                    last_ts = Some(o.ts);
                }
                if o.is_token() && !matches!(zone, Zone::Expedition | Zone::Landmarks) {
                    return Err(format!("token {id} outside play ({zone:?})"));
                }
            }
        }
        if st.mana_ready as usize > st.mana.len() {
            return Err(format!(
                "{side:?} has {} ready mana but only {} orbs",
                st.mana_ready,
                st.mana.len()
            ));
        }
    }
    Ok(seen)
}

/// Each side's cards, listed once in play and not at all outside it (`seen`: the times each
/// object is listed), and the token slots.
fn check_cards<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
    seen: &[u8; M],
) -> Result<(), String> {
    // Every list is counted before a side's cards are checked: a card borrowed by the other
    // side (a player card that defected) stands in that side's lists.
    for side in const { Side::seats::<N>() } {
        // Cards add up to the deck size (hero included; tokens aside).
        let first = s.first_obj[side] as usize;
        let n = s.n_cards[side] as usize;
        for (id, (o, &listed)) in s
            .objs
            .iter()
            .zip(seen.iter())
            .enumerate()
            .skip(first)
            .take(n)
        {
            let outside = matches!(o.zone, Zone::HeroZone | Zone::Limbo | Zone::Midnight);
            let ok = if outside { listed == 0 } else { listed == 1 };
            if !ok || o.zone == Zone::None {
                return Err(format!(
                    "card object {id} ({}) of {side:?} is in {:?} and listed {listed} times",
                    db.card(o.card).name,
                    o.zone
                ));
            }
            if o.has(super::state::flag::BORROWED)
                && !matches!(o.zone, Zone::Expedition | Zone::Landmarks | Zone::Limbo)
            {
                return Err(format!(
                    "borrowed card object {id} ({}) is in {:?}, outside play",
                    db.card(o.card).name,
                    o.zone
                ));
            }
            if o.zone == Zone::Midnight && s.midnight_card != id as ObjId {
                return Err(format!(
                    "object {id} is in the Midnight zone but is not the Midnight card"
                ));
            }
        }
    }
    for (id, (o, &listed)) in s
        .objs
        .iter()
        .zip(seen.iter())
        .enumerate()
        .skip(GameState::<N, M>::TOKEN_BASE)
    {
        match o.zone {
            Zone::None if listed == 0 => {}
            Zone::Expedition | Zone::Landmarks if listed == 1 && o.is_token() => {}
            z => {
                return Err(format!(
                    "token slot {id} is in {z:?} and listed {listed} times"
                ));
            }
        }
    }
    Ok(())
}

/// The counts kept beside the objects (statics, listeners) and the statistics.
fn check_counts<const N: usize, const M: usize>(
    s: &GameState<N, M>,
    db: &CardDb,
) -> Result<(), String> {
    // The count of objects in play with statics matches.
    let mut copy = *s;
    copy.recount_statics(db);
    if copy.statics != s.statics {
        return Err(format!(
            "static-ability count {:?} but {:?} objects in play have statics",
            s.statics, copy.statics
        ));
    }
    // Every side's listeners are within the classes `fire` reads for it.
    for side in const { Side::seats::<N>() } {
        let missing = copy.listen[side] & !s.listen[side];
        if missing != 0 {
            return Err(format!(
                "side {side:?} has listeners of fire classes {missing:#x} that `listen` lacks"
            ));
        }
    }
    // No statistic goes negative.
    for (id, o) in s.objs.iter().enumerate() {
        if o.zone == Zone::Expedition {
            let st = s.stats(db, id as ObjId);
            if !st.fits() {
                return Err(format!("object {id} has negative statistics {st}"));
            }
        }
    }
    Ok(())
}

/// The expeditions' positions, the Darkness and the outcome.
fn check_track<const N: usize, const M: usize>(s: &GameState<N, M>) -> Result<(), String> {
    // Positions and the Darkness stay within the track.
    for e in Exp::BOTH {
        for p in [s.pos[Side::Player].get(e), s.pos[Side::Confluence].get(e)] {
            if !(0..=7).contains(&p) {
                return Err(format!("{e:?} expedition at region {p}, outside 0..=7"));
            }
        }
    }
    if s.mode.versus() {
        if s.dark != ByExp([-1, 8]) {
            return Err("a Darkness moved in a head-to-head game".into());
        }
        if s.outcome.is_some_and(Outcome::is_win) && s.outcome.and_then(Outcome::winner).is_none() {
            return Err("a head-to-head game ended with a Confluence outcome".into());
        }
    }
    let (dh, dc) = (s.dark.get(Exp::Hero), s.dark.get(Exp::Companion));
    if !(-1..=7).contains(&dh) || !(0..=8).contains(&dc) {
        return Err(format!(
            "Darkness out of bounds: hero side {dh}, companion side {dc}"
        ));
    }
    if s.outcome.is_none()
        && (dh >= s.pos[Side::Player].get(Exp::Hero)
            || dc <= s.pos[Side::Player].get(Exp::Companion))
    {
        return Err("a Darkness caught an expedition but the game goes on".into());
    }
    Ok(())
}

/// Panics with the broken invariant (debug builds call this after every engine step).
pub fn assert_ok<const N: usize, const M: usize>(s: &GameState<N, M>, db: &CardDb) {
    if let Err(e) = check(s, db) {
        panic!("invariant broken on day {} ({:?}): {e}", s.day, s.phase);
    }
}
