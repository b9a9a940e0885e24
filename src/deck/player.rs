//! Player decks in the community text format: `N REFERENCE` or `N English Name [(C|R|R1|R2)]`,
//! one entry per line, `#` starts a comment.
//!
//! Layer: part of [`crate::deck`]; may use `cards`, `error`, `suggest` and nothing else of the
//! crate.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::cards::db::CardDb;
use crate::cards::effect::CardIdx;
use crate::cards::pool::{CardFacts, CardPool, normalize_name};
use crate::cards::types::{CardKind, Rarity};
use crate::error::DeckError;

/// The most cards (hero included) a side can bring; the game state is sized for it.
pub const MAX_DECK_CARDS: usize = 63;

/// A parsed player deck: one hero and the deck cards (copies expanded) in the canonical
/// order, by card reference, whatever the order of the file's lines: a deck is a multiset,
/// and the order before the shuffle decides the games (issue 48).
#[derive(Clone, Debug)]
pub struct PlayerDeck {
    pub path: PathBuf,
    /// File stem, used as the deck's name in outputs.
    pub name: String,
    pub hero: CardIdx,
    pub cards: Vec<CardIdx>,
    /// For each card of `cards`, the file line it came from.
    pub card_lines: Vec<usize>,
    pub hero_line: usize,
}

/// Puts a deck's cards in the canonical order: by name, then by version (the reference
/// without its set: a common before its rares), then by reference, then by line. The
/// shuffle permutes positions, so the same cards listed in any order play the same games;
/// and a reprint (CORE and its Kickstarter edition COREKS, which an English name picks)
/// takes the place of the card it reprints. `lines` follows.
pub fn canonical_order(cards: &mut [CardIdx], lines: &mut [usize], db: &CardDb) {
    let key = |c: CardIdx| {
        let d = db.card(c);
        // ALT_CORE_B_BR_20_C: without "CORE", the version ALT_B_BR_20_C.
        let version: String = d
            .reference
            .split('_')
            .enumerate()
            .filter(|&(i, _)| i != 1)
            .map(|(_, p)| p)
            .collect::<Vec<_>>()
            .join("_");
        (normalize_name(&d.name), version, d.reference.clone())
    };
    let mut both: Vec<(CardIdx, usize)> =
        cards.iter().copied().zip(lines.iter().copied()).collect();
    both.sort_by_cached_key(|&(c, l)| (key(c), l));
    for (k, (c, l)) in both.into_iter().enumerate() {
        cards[k] = c;
        lines[k] = l;
    }
}

fn is_reference(s: &str) -> bool {
    s.starts_with("ALT_") && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Splits "Name (R2)" into the name, a rarity and a rare variant.
fn split_rarity(item: &str) -> Result<(&str, Rarity, Option<u8>), String> {
    let t = item.trim_end();
    if let Some(open) = t.rfind('(')
        && t.ends_with(')')
    {
        let tag = t[open + 1..t.len() - 1].trim().to_ascii_uppercase();
        let name = t[..open].trim_end();
        let parsed = match tag.as_str() {
            "C" | "COMMON" => (Rarity::Common, None),
            "R" | "RARE" | "R1" => (Rarity::Rare, Some(1)),
            "R2" => (Rarity::Rare, Some(2)),
            _ => {
                return Err(format!(
                    "unknown rarity '({tag})' (expected (C), (R), (R1) or (R2))"
                ));
            }
        };
        return Ok((name, parsed.0, parsed.1));
    }
    Ok((t, Rarity::Common, None))
}

/// Splits an entry line (comment already removed) into its count and the card it names.
pub fn split_count(content: &str) -> Result<(usize, &str), String> {
    let (count_str, item) = content.split_once(char::is_whitespace).ok_or_else(|| {
        format!("malformed line '{content}' (expected 'N REFERENCE' or 'N Card Name')")
    })?;
    let count: usize = count_str.trim_end_matches('x').parse().map_err(|_| {
        format!("'{count_str}' is not a card count (expected a whole number, as in '3 Kappa')")
    })?;
    Ok((count, item.trim()))
}

/// The pool card an entry names: a reference, or an English name with an optional rarity
/// tag (`(C)`, `(R)`, `(R1)`, `(R2)`); the error says what is wrong and suggests a close name.
/// The words for a token named in a deck file, by name or by reference.
fn token_in_deck(name: &str) -> String {
    format!("'{name}' is a token: tokens cannot be in a deck (effects create them during a game)")
}

pub fn resolve_item<'p>(item: &str, pool: &'p CardPool) -> Result<&'p CardFacts, String> {
    if is_reference(item) {
        return pool.get(item).ok_or_else(|| {
            format!(
                "unknown card reference '{item}' (not in decks/cards/pool.csv){}",
                crate::suggest::closest_reference(
                    item,
                    pool.cards.iter().map(|c| c.reference.as_str())
                )
                .map(|c| format!("; did you mean '{c}'?"))
                .unwrap_or_default()
            )
        });
    }
    let (name, rarity, variant) = split_rarity(item)?;
    pool.resolve_name(name, rarity, variant).ok_or_else(|| {
        let is_token = |c: &CardFacts| {
            matches!(
                c.kind,
                CardKind::Token | CardKind::LandmarkToken | CardKind::OtherToken
            )
        };
        if pool.by_name(name).next().is_some() && pool.by_name(name).all(is_token) {
            token_in_deck(name)
        } else if pool.by_name(name).next().is_some() {
            format!(
                "'{name}' has no {} version{}",
                rarity.name(),
                variant.map(|v| format!(" R{v}")).unwrap_or_default()
            )
        } else {
            format!(
                "unknown card name '{name}' (not in decks/cards/pool.csv){}",
                crate::suggest::did_you_mean(name, pool.cards.iter().map(|c| c.name.as_str()))
            )
        }
    })
}

impl PlayerDeck {
    pub fn load(path: &Path, pool: &CardPool, db: &CardDb) -> Result<PlayerDeck, DeckError> {
        let text = std::fs::read_to_string(path).map_err(|e| DeckError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        Self::parse(&text, path, pool, db)
    }

    /// Parses a deck. Syntax and unknown cards are errors; deck-building rules are checked
    /// separately by [`PlayerDeck::violations`].
    pub fn parse(
        text: &str,
        path: &Path,
        pool: &CardPool,
        db: &CardDb,
    ) -> Result<PlayerDeck, DeckError> {
        let line_err = |line: usize, msg: String| DeckError::Line {
            path: path.to_path_buf(),
            line,
            msg,
        };
        let mut hero: Option<(CardIdx, usize)> = None;
        let mut cards = Vec::new();
        let mut card_lines = Vec::new();
        // A byte-order mark (Windows editors write one) is not part of the first line.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, raw) in text.lines().enumerate() {
            let lineno = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let (count, item) = split_count(content).map_err(|m| line_err(lineno, m))?;
            if count == 0 || count > MAX_DECK_CARDS {
                return Err(line_err(
                    lineno,
                    format!("count {count} is out of range (1 to {MAX_DECK_CARDS})"),
                ));
            }
            let facts = resolve_item(item, pool).map_err(|m| line_err(lineno, m))?;
            let idx = db
                .by_ref(&facts.reference)
                .expect("the db holds every pool card");
            match facts.kind {
                CardKind::Hero => {
                    if let Some((_, first)) = hero {
                        return Err(DeckError::Rule {
                            path: path.to_path_buf(),
                            line: Some(lineno),
                            rule: format!(
                                "a second hero '{}' (the hero is on line {first}; a deck has exactly one)",
                                facts.name
                            ),
                        });
                    }
                    if count != 1 {
                        return Err(line_err(
                            lineno,
                            format!(
                                "hero '{}' with count {count} (a deck has exactly one hero)",
                                facts.name
                            ),
                        ));
                    }
                    hero = Some((idx, lineno));
                }
                CardKind::Token | CardKind::LandmarkToken | CardKind::OtherToken => {
                    return Err(line_err(lineno, token_in_deck(&facts.name)));
                }
                _ => {
                    for _ in 0..count {
                        cards.push(idx);
                        card_lines.push(lineno);
                    }
                }
            }
        }
        let Some((hero, hero_line)) = hero else {
            return Err(DeckError::Rule {
                path: path.to_path_buf(),
                line: None,
                rule: "no hero (a deck has exactly one Hero card)".into(),
            });
        };
        if cards.len() > MAX_DECK_CARDS {
            return Err(line_err(
                card_lines[MAX_DECK_CARDS],
                format!(
                    "{} cards is more than this simulator supports ({MAX_DECK_CARDS} besides the hero)",
                    cards.len()
                ),
            ));
        }
        canonical_order(&mut cards, &mut card_lines, db);
        Ok(PlayerDeck {
            path: path.to_path_buf(),
            name: path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            hero,
            cards,
            card_lines,
            hero_line,
        })
    }

    /// Every broken deck-building rule, each naming the file, the line and the rule.
    pub fn violations(&self, db: &CardDb) -> Vec<DeckError> {
        let mut out = Vec::new();
        let rule = |line: Option<usize>, rule: String| DeckError::Rule {
            path: self.path.clone(),
            line,
            rule,
        };
        if self.cards.len() < 39 {
            out.push(rule(
                None,
                format!(
                    "{} cards besides the hero; a deck needs at least 39",
                    self.cards.len()
                ),
            ));
        }
        let hero = db.card(self.hero);
        let mut per_name: HashMap<String, usize> = HashMap::new();
        let (mut rares, mut uniques) = (0, 0);
        let mut faction_lines = std::collections::HashSet::new();
        for (&c, &line) in self.cards.iter().zip(&self.card_lines) {
            let def = db.card(c);
            let n = per_name.entry(normalize_name(&def.name)).or_default();
            *n += 1;
            if *n == 4 {
                out.push(rule(
                    Some(line),
                    format!("more than 3 copies of '{}'", def.name),
                ));
            }
            if def.rarity == Rarity::Rare {
                rares += 1;
                if rares == 16 {
                    out.push(rule(Some(line), "more than 15 rare cards".into()));
                }
            }
            if def.is_unique() {
                uniques += 1;
                if uniques == 4 {
                    out.push(rule(Some(line), "more than 3 unique cards".into()));
                }
            }
            // Once per line, not once per copy the line counts.
            if def.faction != hero.faction && faction_lines.insert(line) {
                out.push(rule(
                    Some(line),
                    format!(
                        "'{}' is {} but the hero '{}' is {}; every card must be of the hero's faction",
                        def.name,
                        def.faction.code(),
                        hero.name,
                        hero.faction.code()
                    ),
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_rarity_tags() {
        assert_eq!(
            split_rarity("Kappa").unwrap(),
            ("Kappa", Rarity::Common, None)
        );
        assert_eq!(
            split_rarity("Sun Wukong (R)").unwrap(),
            ("Sun Wukong", Rarity::Rare, Some(1))
        );
        assert_eq!(
            split_rarity("The Frog Prince (R2)").unwrap(),
            ("The Frog Prince", Rarity::Rare, Some(2))
        );
        assert!(
            split_rarity("Kappa (X)")
                .unwrap_err()
                .contains("unknown rarity")
        );
    }
}

/// Issue 48, item 3: a deck is a multiset. The same cards listed in another line order (or
/// one card split over two lines) give the same deck, card for card, hence the same games.
#[cfg(test)]
mod order_tests {
    use std::path::Path;

    use super::*;
    use crate::cards::Library;
    use crate::deck::{ConfluenceDeck, RareMix};

    fn lib() -> Library {
        Library::load(Path::new("decks/cards")).unwrap()
    }

    #[test]
    fn any_line_order_gives_the_same_deck() {
        let lib = lib();
        let path = Path::new("decks/player/AX_sierra_oddball.txt");
        let text = std::fs::read_to_string(path).unwrap();
        let deck = PlayerDeck::parse(&text, path, &lib.pool, &lib.db).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        lines.reverse();
        let reversed = PlayerDeck::parse(&lines.join("\n"), path, &lib.pool, &lib.db).unwrap();
        assert_eq!(deck.cards, reversed.cards);
        // One line "3 X" split into "1 X" and "2 X" far apart.
        let split = text.replacen(
            "3 ALT_CORE_B_AX_11_C",
            "1 ALT_CORE_B_AX_11_C\n2 ALT_CORE_B_AX_24_C",
            1,
        );
        let split = split.replacen(
            "3 ALT_CORE_B_AX_24_C",
            "1 ALT_CORE_B_AX_24_C\n2 ALT_CORE_B_AX_11_C",
            1,
        );
        let split = PlayerDeck::parse(&split, path, &lib.pool, &lib.db).unwrap();
        assert_eq!(deck.cards, split.cards);
        // The lines follow their cards.
        for (c, l) in reversed.cards.iter().zip(&reversed.card_lines) {
            let line = lines[l - 1];
            assert!(line.contains(&lib.db.card(*c).reference), "{line}");
        }
    }

    #[test]
    fn any_card_order_gives_the_same_confluence_deck() {
        let path = Path::new("decks/confluence/reference.toml");
        let text = std::fs::read_to_string(path).unwrap();
        let (head, blocks) = text.split_at(text.find("[[card]]").unwrap());
        let mut blocks: Vec<String> = blocks
            .split("[[card]]")
            .skip(1)
            .map(|b| format!("[[card]]{b}\n"))
            .collect();
        blocks.reverse();
        let reversed = format!("{head}{}", blocks.concat());
        let (mut a, mut b) = (lib(), lib());
        let d1 = ConfluenceDeck::parse(&text, path, &mut a.db).unwrap();
        let d2 = ConfluenceDeck::parse(&reversed, path, &mut b.db).unwrap();
        assert_eq!(d1.slots, d2.slots);
        assert_eq!(d1.rares, d2.rares);
        let all = RareMix::all(d1.rares.len());
        assert_eq!(d1.cards_for(all), d2.cards_for(all));
        assert_eq!(d1.mix_names(all, &a.db), d2.mix_names(all, &b.db));
        // The names are in canonical order, whatever the file's.
        let names = d1.mix_names(all, &a.db);
        let mut sorted = names.clone();
        sorted.sort_by_key(|n| crate::cards::pool::normalize_name(n));
        assert_eq!(names, sorted);
    }
}
