//! The table as the person sees it, as JSON: only what their side sees (the engine's
//! [`View`] of seat A): their hand, both sides' public zones, counts of the hidden ones.

use serde_json::{Value, json};

use super::deal::Table;
use crate::cards::types::{Exp, Side, kw, terrain};
use crate::engine::GameState;
use crate::engine::state::{NO_OBJ, ObjId, flag};
use crate::engine::view::View;

/// The visible position from seat A's side.
pub fn visible(t: &Table, s: &GameState) -> Value {
    let v = View::of_side(s, t.db(), Side::Player);
    let regions: Vec<Value> = (0..8)
        .map(|r| {
            json!({
                "region": r,
                "terrain": v.terrain(r).map(terrain::describe),
            })
        })
        .collect();
    let side_name = |side: Side| match (side, t.matchup()) {
        (Side::Player, _) => "you",
        (_, true) => "opponent",
        _ => "confluence",
    };
    // The Midnight card is revealed face up.
    let midnight = v.midnight_card();
    json!({
        "day": s.day,
        "day_cap": s.day_cap,
        "phase": crate::gamelog::phase_name(s.phase),
        "first_player": side_name(v.first_player()),
        "threatened": (!t.matchup()).then(|| v.threatened().name()),
        "regions": regions,
        "darkness": (!t.matchup()).then(|| json!({
            "hero": v.darkness(Exp::Hero),
            "companion": v.darkness(Exp::Companion),
        })),
        "midnight": midnight.map(|id| card(t, &v, id)),
        "midnight_target": midnight.and(v.midnight_target()).map(|e| e.name()),
        "me": side(t, &v, Side::Player),
        "them": side(t, &v, Side::Confluence),
    })
}

/// One side's zones: the cards the person sees, counts of the others.
fn side(t: &Table, v: &View<'_>, side: Side) -> Value {
    let cards = |ids: &[ObjId]| -> Vec<Value> {
        ids.iter()
            .filter(|&&id| v.is_visible(id))
            .map(|&id| card(t, v, id))
            .collect()
    };
    let (mana, ready) = v.mana(side);
    let exps: serde_json::Map<String, Value> = Exp::BOTH
        .iter()
        .map(|&e| {
            (
                e.name().to_string(),
                json!({"region": v.position_of(side, e), "cards": cards(v.expedition(side, e))}),
            )
        })
        .collect();
    let mine = side == Side::Player;
    json!({
        "hero": card(t, v, v.hero(side)),
        "expeditions": exps,
        "hand": if mine { json!(cards(v.hand())) } else { Value::Null },
        "hand_size": v.hand_size(side),
        "reserve": cards(v.reserve(side)),
        "landmarks": cards(v.landmarks(side)),
        "mana": {"total": mana, "ready": ready},
        "deck": v.deck_size(side),
        "discard": cards(v.discard(side)),
        "reserve_limit": if mine { Some(v.reserve_limit()) } else { None },
        "landmark_limit": if mine { Some(v.landmark_limit()) } else { None },
    })
}

/// A card on the table: what is printed (name, type, costs, statistics, rarity, our
/// encoding of its abilities, the printed text when `--card-texts` gave it) and its state
/// (current statistics, boosts, statuses).
fn card(t: &Table, v: &View<'_>, id: ObjId) -> Value {
    if id == NO_OBJ {
        return Value::Null;
    }
    let o = v.obj(id);
    let d = v.card(id);
    let stats = v.stats(id);
    let mut statuses = kw::describe(o.flags & 0xffff);
    if o.has(flag::EXHAUSTED) {
        statuses.push("exhausted");
    }
    if o.is_token() {
        statuses.push("token");
    }
    json!({
        "id": id,
        "name": d.name,
        "reference": d.reference,
        "kind": d.kind.name(),
        "faction": d.faction.code(),
        "rarity": d.rarity.name(),
        "hand_cost": d.hand_cost,
        "reserve_cost": d.reserve_cost,
        "printed": {"f": d.stats.f, "m": d.stats.m, "o": d.stats.o},
        "stats": {"f": stats.f, "m": stats.m, "o": stats.o},
        "boosts": o.boosts,
        "statuses": statuses,
        "keywords": kw::describe(d.keywords),
        "abilities": d.lines,
        "text": t.texts.get(&d.reference),
    })
}
