//! The deck optimizer's moves: the cards a deck may take in (the exact cards of some sets, or
//! a player's collection), every legal one-card swap of a deck, and a deck written back in
//! the community text format (`N REFERENCE  # name`).
//!
//! A swap replaces one copy of a card by one copy of another, in the same slot of the card
//! list, so the deck keeps its size and its other cards keep their places (two decks one swap
//! apart then draw alike on the same seeds, which makes their paired games close). Legality is
//! [`PlayerDeck::violations`], the check `run` enforces, plus the copies a collection owns.
//!
//! Layer: part of [`crate::deck`]; may use `cards`, `error`, `suggest` and nothing else of the
//! crate.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::player::{PlayerDeck, resolve_item, split_count};
use crate::cards::db::CardDb;
use crate::cards::effect::CardIdx;
use crate::cards::pool::{CardPool, normalize_name};
use crate::cards::types::CardKind;
use crate::error::DeckError;

/// The most copies of one card a collection file may list on one line.
pub const MAX_OWNED: usize = 999;

/// A card a deck may take in, and how many copies of it a deck may hold at most.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    pub card: CardIdx,
    /// 3 from a pool of sets (the rule's limit per name applies on top), the owned copies
    /// from a collection.
    pub copies: usize,
}

/// The cards a deck may take in.
#[derive(Clone, Debug, Default)]
pub struct SwapPool {
    pub offers: Vec<Offer>,
    /// Cards left out because their abilities are not all encoded (the optimizer would
    /// otherwise judge them by a partial card).
    pub not_exact: usize,
}

/// One copy of `out` (the card in `slot`) replaced by one copy of `card_in`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Swap {
    pub slot: usize,
    pub out: CardIdx,
    pub card_in: CardIdx,
}

impl Swap {
    /// The deck's cards after the swap.
    pub fn apply(&self, cards: &[CardIdx]) -> Vec<CardIdx> {
        let mut c = cards.to_vec();
        c[self.slot] = self.card_in;
        c
    }

    /// `-NAME (REFERENCE) +NAME (REFERENCE)`, as the trajectory writes it.
    pub fn describe(&self, db: &CardDb) -> String {
        let (o, i) = (db.card(self.out), db.card(self.card_in));
        format!(
            "-{} ({}) +{} ({})",
            o.name, o.reference, i.name, i.reference
        )
    }
}

/// What makes two printings the same card for a deck: reprints (the kickstarter edition,
/// promos) share name, rarity, faction, costs, statistics and text.
fn same_card(db: &CardDb, pool: &CardPool, a: CardIdx, b: CardIdx) -> bool {
    let (x, y) = (db.card(a), db.card(b));
    let text = |c: &crate::cards::db::CardDef| c.pool_index.map(|i| pool.cards[i].text_hash);
    normalize_name(&x.name) == normalize_name(&y.name)
        && x.rarity == y.rarity
        && x.faction == y.faction
        && x.hand_cost == y.hand_cost
        && x.reserve_cost == y.reserve_cost
        && x.stats == y.stats
        && text(x) == text(y)
}

/// Whether `card` may join a deck of `hero` at all: a deck card (no hero, no token) of the
/// hero's faction.
fn deck_card(db: &CardDb, hero: CardIdx, card: CardIdx) -> bool {
    let c = db.card(card);
    !matches!(
        c.kind,
        CardKind::Hero | CardKind::Token | CardKind::LandmarkToken | CardKind::OtherToken
    ) && c.faction == db.card(hero).faction
}

/// Builds a pool: the start deck's own printings first (a card swapped out can come back),
/// then `candidates` in order, each kept when it may join the deck and is exact. Reprints of
/// one card (and a card listed twice) are one offer, whose copies add up.
fn build(
    deck: &PlayerDeck,
    candidates: impl IntoIterator<Item = (CardIdx, usize)>,
    pool: &CardPool,
    db: &CardDb,
) -> SwapPool {
    let mut out = SwapPool::default();
    // The candidates grouped by card: (the first printing, the copies of all of them).
    let mut groups: Vec<(CardIdx, usize)> = Vec::new();
    for (c, copies) in candidates {
        if !deck_card(db, deck.hero, c) {
            continue;
        }
        match groups
            .iter_mut()
            .find(|(d, _)| *d == c || same_card(db, pool, *d, c))
        {
            Some((_, n)) => *n += copies,
            None => groups.push((c, copies)),
        }
    }
    for &c in &deck.cards {
        if out.offers.iter().any(|o| o.card == c) {
            continue;
        }
        let held = deck.cards.iter().filter(|&&d| d == c).count();
        let owned = groups
            .iter()
            .filter(|(d, _)| *d == c || same_card(db, pool, *d, c))
            .map(|(_, n)| n)
            .sum::<usize>();
        out.offers.push(Offer {
            card: c,
            copies: held.max(owned),
        });
    }
    for (c, copies) in groups {
        if out
            .offers
            .iter()
            .any(|o| o.card == c || same_card(db, pool, o.card, c))
        {
            continue; // a card of the start deck
        }
        if !db.card(c).coverage.is_exact() {
            out.not_exact += 1;
            continue;
        }
        out.offers.push(Offer { card: c, copies });
    }
    out
}

/// The exact cards of `sets` (set codes of pool.csv, e.g. `CORE`) a deck of `deck`'s hero
/// may hold, up to 3 copies each, after the deck's own cards. An unknown set is an error
/// that lists the known ones.
pub fn pool_of_sets(
    sets: &[String],
    deck: &PlayerDeck,
    pool: &CardPool,
    db: &CardDb,
) -> Result<SwapPool, String> {
    let mut known: Vec<&str> = pool.cards.iter().map(|c| c.set.as_str()).collect();
    known.sort_unstable();
    known.dedup();
    let mut wanted: Vec<String> = Vec::new();
    for s in sets {
        let s = s.trim().to_ascii_uppercase();
        if s == "ALL" {
            wanted.extend(known.iter().map(|k| k.to_string()));
        } else if known.contains(&s.as_str()) {
            wanted.push(s);
        } else {
            return Err(format!(
                "unknown set '{s}' (the pool's sets: {}, or all){}",
                known.join(", "),
                crate::suggest::did_you_mean(&s, known.iter().copied())
            ));
        }
    }
    let mut candidates = Vec::new();
    for set in &wanted {
        for f in pool.cards.iter().filter(|f| &f.set == set) {
            let c = db
                .by_ref(&f.reference)
                .expect("the db holds every pool card");
            candidates.push((c, 3));
        }
    }
    Ok(build(deck, candidates, pool, db))
}

/// Reads a collection: the cards a player owns, one `N REFERENCE` or `N Card Name [(R)]` a
/// line as in a deck file (`#` starts a comment; heroes and other factions' cards may be
/// listed and are ignored). Errors name the file and the line.
pub fn read_collection(
    text: &str,
    path: &Path,
    pool: &CardPool,
    db: &CardDb,
) -> Result<Vec<(CardIdx, usize)>, DeckError> {
    let line_err = |line: usize, msg: String| DeckError::Line {
        path: PathBuf::from(path),
        line,
        msg,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let (count, item) = split_count(content).map_err(|m| line_err(i + 1, m))?;
        if count == 0 || count > MAX_OWNED {
            return Err(line_err(
                i + 1,
                format!("count {count} is out of range (1 to {MAX_OWNED})"),
            ));
        }
        let facts = resolve_item(item, pool).map_err(|m| line_err(i + 1, m))?;
        let c = db
            .by_ref(&facts.reference)
            .expect("the db holds every pool card");
        out.push((c, count));
    }
    if out.is_empty() {
        return Err(line_err(
            1,
            "no card (a collection lists the cards owned, one 'N REFERENCE' or 'N Card Name' a line)"
                .into(),
        ));
    }
    Ok(out)
}

/// The cards of a collection a deck of `deck`'s hero may take in, up to the copies owned
/// (the start deck's own cards count as owned).
pub fn pool_of_collection(
    owned: &[(CardIdx, usize)],
    deck: &PlayerDeck,
    pool: &CardPool,
    db: &CardDb,
) -> SwapPool {
    build(deck, owned.iter().copied(), pool, db)
}

/// Whether a deck of `hero` and `cards` keeps the deck-building rules and the copies `offers`
/// allow.
pub fn is_legal(hero: CardIdx, cards: &[CardIdx], offers: &SwapPool, db: &CardDb) -> bool {
    let deck = PlayerDeck {
        path: PathBuf::new(),
        name: String::new(),
        hero,
        cards: cards.to_vec(),
        card_lines: vec![0; cards.len()],
        hero_line: 0,
    };
    if !deck.violations(db).is_empty() {
        return false;
    }
    offers
        .offers
        .iter()
        .all(|o| o.copies >= 3 || cards.iter().filter(|&&c| c == o.card).count() <= o.copies)
        && cards
            .iter()
            .all(|c| offers.offers.iter().any(|o| o.card == *c))
}

/// Every legal swap of the deck: for each printing in it (its last slot) and each other card
/// offered, in deck then pool order.
pub fn legal_swaps(hero: CardIdx, cards: &[CardIdx], offers: &SwapPool, db: &CardDb) -> Vec<Swap> {
    let mut out = Vec::new();
    let mut counts: HashMap<CardIdx, usize> = HashMap::new();
    for &c in cards {
        *counts.entry(c).or_default() += 1;
    }
    for (slot, &c) in cards.iter().enumerate() {
        if cards[slot + 1..].contains(&c) {
            continue; // the last slot of this printing stands for all of them
        }
        for o in &offers.offers {
            if o.card == c || counts.get(&o.card).copied().unwrap_or(0) >= o.copies {
                continue;
            }
            let s = Swap {
                slot,
                out: c,
                card_in: o.card,
            };
            if is_legal(hero, &s.apply(cards), offers, db) {
                out.push(s);
            }
        }
    }
    out
}

/// The deck in the community text format: `header` lines as comments, the hero, then one
/// `N REFERENCE  # name` line per printing, by name then reference.
pub fn deck_text(hero: CardIdx, cards: &[CardIdx], db: &CardDb, header: &[String]) -> String {
    let mut s = String::new();
    for h in header {
        s.push_str(&format!("# {h}\n"));
    }
    let line = |n: usize, c: CardIdx| {
        let d = db.card(c);
        format!("{n} {}  # {}\n", d.reference, d.name)
    };
    s.push_str(&line(1, hero));
    let mut prints: Vec<(CardIdx, usize)> = Vec::new();
    for &c in cards {
        match prints.iter_mut().find(|(d, _)| *d == c) {
            Some((_, n)) => *n += 1,
            None => prints.push((c, 1)),
        }
    }
    prints.sort_by(|a, b| {
        let (x, y) = (db.card(a.0), db.card(b.0));
        normalize_name(&x.name)
            .cmp(&normalize_name(&y.name))
            .then(x.reference.cmp(&y.reference))
    });
    for (c, n) in prints {
        s.push_str(&line(n, c));
    }
    s
}

#[cfg(test)]
mod tests;
