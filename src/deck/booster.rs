//! Boosters (Booster War, seed 003): what one booster of a set holds, read from
//! `decks/boosters.toml`, and opening one from the card pool.
//!
//! A booster is a number of slots per rarity: Heroes, Commons and Rares. Each slot group
//! draws distinct card versions of the set, uniformly, from the pool: Heroes from the
//! set's booster Heroes, Commons from its Common non-Hero cards, Rares from its Rare cards
//! (in-faction and out-of-faction versions alike). Promo prints (`_P_` references) and
//! tokens are never in a booster. docs/head-to-head.md ("Booster War") says where the slot counts come
//! from and what is assumed.
//!
//! Layer: part of [`crate::deck`]; may use `cards`, `error`, `suggest` and nothing else of the
//! crate.

use std::collections::BTreeMap;
use std::path::Path;

use rand::{Rng, RngExt};
use serde::Deserialize;

use crate::cards::Library;
use crate::cards::effect::CardIdx;
use crate::cards::types::{CardKind, Rarity};
use crate::error::DeckError;

/// The slots of one booster of a set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoosterSlots {
    pub heroes: u8,
    pub commons: u8,
    pub rares: u8,
}

/// `decks/boosters.toml`: the slots of a booster, per set code.
pub type BoosterFile = BTreeMap<String, BoosterSlots>;

/// The most non-Hero cards a booster may hold (a deck holds at most 63 cards).
pub const MAX_BOOSTER_CARDS: usize = 40;

/// Reads `decks/boosters.toml`.
///
/// # Errors
///
/// The file cannot be read, is not TOML of the expected shape, or a set's booster holds
/// no card or more than [`MAX_BOOSTER_CARDS`].
pub fn read_slots(path: &Path) -> Result<BoosterFile, DeckError> {
    let text = std::fs::read_to_string(path).map_err(|source| DeckError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_slots(&text, path)
}

/// Parses the text of a booster file (see [`read_slots`]).
pub fn parse_slots(text: &str, path: &Path) -> Result<BoosterFile, DeckError> {
    let err = |line: usize, msg: String| DeckError::Line {
        path: path.to_path_buf(),
        line,
        msg,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let file: BoosterFile = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1)
            .unwrap_or(0);
        err(
            line,
            format!(
                "{} (expected one table per set: [SET] with heroes, commons and rares counts)",
                e.message().trim()
            ),
        )
    })?;
    for (set, s) in &file {
        let n = s.commons as usize + s.rares as usize;
        if s.heroes != 1 || n == 0 || n > MAX_BOOSTER_CARDS {
            let line = text
                .lines()
                .position(|l| l.trim() == format!("[{set}]"))
                .map_or(0, |i| i + 1);
            return Err(err(
                line,
                format!(
                    "[{set}]: heroes = {}, commons + rares = {n} (expected 1 Hero and 1 to {MAX_BOOSTER_CARDS} other cards)",
                    s.heroes
                ),
            ));
        }
    }
    Ok(file)
}

/// The cards a set's boosters are opened from.
#[derive(Clone, Debug)]
pub struct BoosterPool {
    pub set: String,
    pub slots: BoosterSlots,
    pub heroes: Vec<CardIdx>,
    pub commons: Vec<CardIdx>,
    pub rares: Vec<CardIdx>,
}

/// One opened booster: its Hero and its other cards, Commons then Rares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Booster {
    pub hero: CardIdx,
    pub cards: Vec<CardIdx>,
}

impl BoosterPool {
    /// The booster cards of `set` in the library's pool, in pool order.
    ///
    /// # Errors
    ///
    /// A message when the set has fewer cards of a kind than one booster needs.
    pub fn new(lib: &Library, set: &str, slots: BoosterSlots) -> Result<BoosterPool, String> {
        let mut p = BoosterPool {
            set: set.to_string(),
            slots,
            heroes: Vec::new(),
            commons: Vec::new(),
            rares: Vec::new(),
        };
        for f in lib.pool.cards.iter() {
            if f.set != set || f.reference.contains("_P_") {
                continue;
            }
            let Some(idx) = lib.db.by_ref(&f.reference) else {
                continue;
            };
            let list = match (f.kind, f.rarity) {
                (CardKind::Hero, _) => &mut p.heroes,
                (CardKind::Character | CardKind::Spell | CardKind::Landmark, Rarity::Common)
                | (CardKind::ExpeditionPermanent, Rarity::Common) => &mut p.commons,
                (
                    CardKind::Character
                    | CardKind::Spell
                    | CardKind::Landmark
                    | CardKind::ExpeditionPermanent,
                    Rarity::Rare,
                ) => &mut p.rares,
                _ => continue,
            };
            list.push(idx);
        }
        for (what, have, need) in [
            ("Heroes", p.heroes.len(), slots.heroes),
            ("Common cards", p.commons.len(), slots.commons),
            ("Rare cards", p.rares.len(), slots.rares),
        ] {
            if have < need as usize {
                return Err(format!(
                    "set {set} has {have} {what} in the card pool; one booster needs {need}"
                ));
            }
        }
        Ok(p)
    }

    /// Opens one booster: distinct card versions within each slot group, uniformly drawn.
    pub fn open<R: Rng + ?Sized>(&self, rng: &mut R, out: &mut Booster) {
        out.cards.clear();
        out.hero = self.heroes[rng.random_range(0..self.heroes.len())];
        draw_distinct(&self.commons, self.slots.commons, rng, &mut out.cards);
        draw_distinct(&self.rares, self.slots.rares, rng, &mut out.cards);
    }

    /// Cards of one booster, Hero not included.
    pub fn booster_len(&self) -> usize {
        self.slots.commons as usize + self.slots.rares as usize
    }
}

/// Appends `k` distinct elements of `from` (Floyd's algorithm: `k` draws, no scratch copy
/// of the list), in the order drawn.
fn draw_distinct<R: Rng + ?Sized>(from: &[CardIdx], k: u8, rng: &mut R, out: &mut Vec<CardIdx>) {
    let n = from.len();
    let k = (k as usize).min(n);
    let start = out.len();
    for j in n - k..n {
        let t = rng.random_range(0..=j);
        let pick = if out[start..].contains(&from[t]) {
            from[j]
        } else {
            from[t]
        };
        out.push(pick);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn draws_are_distinct_and_cover_the_list() {
        let list: Vec<CardIdx> = (0..20).collect();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let mut seen = [0u32; 20];
        for _ in 0..2000 {
            let mut out = Vec::new();
            draw_distinct(&list, 8, &mut rng, &mut out);
            assert_eq!(out.len(), 8);
            let mut s = out.clone();
            s.sort_unstable();
            s.dedup();
            assert_eq!(s.len(), 8, "a duplicate in {out:?}");
            for c in out {
                seen[c as usize] += 1;
            }
        }
        // Uniform: each element is drawn 2000 * 8 / 20 = 800 times on average.
        for (i, &n) in seen.iter().enumerate() {
            assert!((700..900).contains(&n), "element {i} drawn {n} times");
        }
    }

    #[test]
    fn slot_files_are_checked() {
        let p = Path::new("boosters.toml");
        let f = parse_slots("[CORE]\nheroes = 1\ncommons = 9\nrares = 3\n", p).unwrap();
        assert_eq!(f["CORE"].commons, 9);
        let e = parse_slots("[CORE]\nheroes = 1\ncommons = 0\nrares = 0\n", p).unwrap_err();
        assert!(e.to_string().starts_with("boosters.toml:1: [CORE]"), "{e}");
        let e = parse_slots("[CORE]\nheroes = 1\ncommons = 9\n", p).unwrap_err();
        assert!(e.to_string().contains("rares"), "{e}");
        let e = parse_slots(
            "\n[CORE]\nheroes = 1\ncommons = 9\nrares = 3\nfoil = 1\n",
            p,
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("boosters.toml:6:"), "{e}");
    }
}
