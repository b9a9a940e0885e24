//! Confluence decks: a TOML file with a Confluence hero and 55 cards, up to 15 of which have
//! a rare twin that can be swapped in. Format documented in docs/decks.md ("Confluence decks").
//!
//! Layer: part of [`crate::deck`]; may use `cards`, `error`, `suggest` and nothing else of the
//! crate.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::cards::db::{CardDb, CardDef, Coverage};
use crate::cards::effect::CardIdx;
use crate::cards::pool::normalize_name;
use crate::cards::types::*;
use crate::error::DeckError;

pub const CONFLUENCE_DECK_SIZE: usize = 55;
pub const MAX_RARES: usize = 15;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDeck {
    name: String,
    #[serde(default)]
    description: String,
    hero: FileHero,
    #[serde(rename = "card")]
    cards: Vec<Spanned<FileCard>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileHero {
    name: String,
    #[serde(default = "two")]
    reserve_limit: u8,
    #[serde(default = "two")]
    landmark_limit: u8,
    #[serde(default)]
    abilities: Vec<String>,
}

fn two() -> u8 {
    2
}

/// One card as written in a Confluence deck (or a scenario's `[[card]]`).
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct FileCard {
    pub name: String,
    #[serde(default = "common")]
    pub rarity: String,
    #[serde(default = "one")]
    pub count: usize,
    #[serde(rename = "type")]
    pub kind: String,
    pub hand_cost: u8,
    pub reserve_cost: Option<u8>,
    #[serde(default)]
    pub stats: Option<String>,
    #[serde(default)]
    pub placement: Option<String>,
    #[serde(default)]
    pub midnight: Option<String>,
    #[serde(default)]
    pub keywords: Vec<String>,
    #[serde(default)]
    pub subtypes: Vec<String>,
    #[serde(default)]
    pub abilities: Vec<String>,
}

fn common() -> String {
    "common".into()
}
fn one() -> usize {
    1
}

/// One of the 55 deck positions: its common card and, when it has one, the rare twin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    pub common: CardIdx,
    /// Index into `ConfluenceDeck::rares`.
    pub rare: Option<u8>,
}

#[derive(Clone, Debug)]
pub struct ConfluenceDeck {
    pub path: PathBuf,
    pub name: String,
    pub description: String,
    pub hero: CardIdx,
    pub slots: Vec<Slot>,
    /// The rare cards, by name (the canonical order, whatever the file's); a rare mix is a
    /// bit set over this list.
    pub rares: Vec<CardIdx>,
}

/// A choice of rares, one bit per entry of `ConfluenceDeck::rares`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct RareMix(pub u16);

impl RareMix {
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
    pub fn has(self, i: usize) -> bool {
        self.0 & (1 << i) != 0
    }
    pub fn all(n: usize) -> RareMix {
        RareMix(((1u32 << n) - 1) as u16)
    }
}

/// A TOML error in the words of the deck format: the field and its allowed range for a
/// number out of range (TOML's own words name only the Rust type, "expected u8"), the field
/// for a repeated key; any other message as TOML gives it.
fn toml_message(text: &str, line: usize, msg: &str) -> String {
    let field = line
        .checked_sub(1)
        .and_then(|i| text.lines().nth(i))
        .and_then(|l| l.split_once('='))
        .map(|(k, v)| (k.trim(), v.split('#').next().unwrap_or("").trim()))
        .filter(|(k, _)| !k.is_empty() && !k.starts_with('['));
    let Some((key, value)) = field else {
        return msg.to_string();
    };
    if msg.starts_with("duplicate key") {
        return format!(
            "'{key}' is given twice in one table (each field once per [[card]] or [hero]; keep one)"
        );
    }
    let range = if msg.ends_with("expected u8") {
        "0 to 255".to_string()
    } else if msg.ends_with("expected usize") {
        format!("1 to {CONFLUENCE_DECK_SIZE}")
    } else {
        return msg.to_string();
    };
    format!("{key} = {value} is out of range (a whole number from {range})")
}

fn line_of(text: &str, byte: usize) -> usize {
    text[..byte.min(text.len())]
        .bytes()
        .filter(|&b| b == b'\n')
        .count()
        + 1
}

impl ConfluenceDeck {
    pub fn load(path: &Path, db: &mut CardDb) -> Result<ConfluenceDeck, DeckError> {
        let text = std::fs::read_to_string(path).map_err(|e| DeckError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        Self::parse(&text, path, db)
    }

    /// Parses and validates a Confluence deck, adding its cards to `db`.
    pub fn parse(text: &str, path: &Path, db: &mut CardDb) -> Result<ConfluenceDeck, DeckError> {
        let err = |line: usize, msg: String| DeckError::Line {
            path: path.to_path_buf(),
            line,
            msg,
        };
        // A byte-order mark (Windows editors write one) is not part of the file's text.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let file: FileDeck = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
            err(line, toml_message(text, line, e.message().trim()))
        })?;
        if let Some((line, card, key)) = stray_field(text) {
            return Err(err(
                line,
                format!(
                    "'{key}' stands apart from its card (a blank line separates it from the [[card]] at line {card}, which TOML would give it to); move it into that card's block, or into the card it was meant for"
                ),
            ));
        }
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "confluence".into());

        let hero_def = CardDef::hero(
            format!("CONFLUENCE:{stem}:hero"),
            file.hero.name.clone(),
            "CONFLUENCE",
            Faction::Confluence,
            file.hero.reserve_limit,
            file.hero.landmark_limit,
        );
        let hero = db.push_card(hero_def);
        db.encode(hero, &file.hero.abilities, Coverage::Exact)
            .map_err(|e| {
                err(
                    0,
                    format!(
                        "hero '{}': ability \"{}\": {}",
                        file.hero.name, e.source_line, e.err
                    ),
                )
            })?;

        let mut slots: Vec<Slot> = Vec::new();
        let mut rares: Vec<CardIdx> = Vec::new();
        let mut commons: HashMap<String, (usize, usize)> = HashMap::new(); // name -> (first slot, count)
        let mut rare_cards = Vec::new();
        // A deck is a multiset: the cards are built, laid in slots and listed as rares in a
        // canonical order (by name, each common before its rares, then the file's order),
        // so that the same cards in any order make the same deck and play the same games
        // (issue 48).
        // Errors still name the first bad card of the file: each card is checked in the
        // file's order (on a copy of the db) before any is built.
        let mut scratch = db.clone();
        for spanned in &file.cards {
            let c = spanned.get_ref();
            build_card(&mut scratch, &stem, c, true).map_err(|msg| {
                err(
                    line_of(text, spanned.span().start),
                    format!("card '{}': {msg}", c.name),
                )
            })?;
        }
        drop(scratch);
        let mut in_order: Vec<_> = file.cards.iter().collect();
        in_order.sort_by_cached_key(|c| {
            let c = c.get_ref();
            (
                normalize_name(&c.name),
                !c.rarity.eq_ignore_ascii_case("common"),
            )
        });
        for spanned in in_order {
            let line = line_of(text, spanned.span().start);
            let c = spanned.get_ref();
            let e = |msg: String| err(line, format!("card '{}': {msg}", c.name));
            let (idx, rarity) = build_card(db, &stem, c, true).map_err(e)?;
            let key = normalize_name(&c.name);
            match rarity {
                Rarity::Common => {
                    if commons.contains_key(&key) {
                        return Err(e("listed twice as common; give the count instead".into()));
                    }
                    commons.insert(key, (slots.len(), c.count));
                    for _ in 0..c.count {
                        slots.push(Slot {
                            common: idx,
                            rare: None,
                        });
                    }
                }
                _ => {
                    if c.count != 1 {
                        return Err(e(format!(
                            "a rare card replaces one copy of its common twin; count must be 1, found {}",
                            c.count
                        )));
                    }
                    rare_cards.push((key, idx, line, c.name.clone()));
                }
            }
        }
        let total = slots.len();
        if total != CONFLUENCE_DECK_SIZE {
            return Err(DeckError::Rule {
                path: path.to_path_buf(),
                line: None,
                rule: format!(
                    "{total} common cards; a Confluence deck has exactly {CONFLUENCE_DECK_SIZE} (rares are swapped in for commons, not added)"
                ),
            });
        }
        if rare_cards.len() > MAX_RARES {
            return Err(DeckError::Rule {
                path: path.to_path_buf(),
                line: Some(rare_cards[MAX_RARES].2),
                rule: format!(
                    "{} rare cards; a Confluence deck has at most {MAX_RARES} common/rare pairs",
                    rare_cards.len()
                ),
            });
        }
        for (key, idx, line, name) in rare_cards {
            let Some(&(first, count)) = commons.get(&key) else {
                return Err(DeckError::Rule {
                    path: path.to_path_buf(),
                    line: Some(line),
                    rule: format!(
                        "rare '{name}' has no common twin (a rare must replace a common card of the same name)"
                    ),
                });
            };
            // The rare takes the first copy of its twin that has no rare yet.
            let Some(slot) = (first..first + count).find(|&s| slots[s].rare.is_none()) else {
                return Err(DeckError::Rule {
                    path: path.to_path_buf(),
                    line: Some(line),
                    rule: format!("more rare copies of '{name}' than common ones"),
                });
            };
            slots[slot].rare = Some(rares.len() as u8);
            rares.push(idx);
        }
        Ok(ConfluenceDeck {
            path: path.to_path_buf(),
            name: file.name,
            description: file.description,
            hero,
            slots,
            rares,
        })
    }

    /// The 55 cards for a rare mix, slot by slot (a rare sits in its twin's slot, which is
    /// what gives common random numbers across mixes).
    pub fn cards_for(&self, mix: RareMix) -> Vec<CardIdx> {
        self.slots
            .iter()
            .map(|s| match s.rare {
                Some(r) if mix.has(r as usize) => self.rares[r as usize],
                _ => s.common,
            })
            .collect()
    }

    /// Resolves rare names (case-insensitive) to a mix.
    pub fn mix_from_names(&self, names: &[String], db: &CardDb) -> Result<RareMix, String> {
        let mut mix = 0u16;
        for n in names {
            let key = normalize_name(n);
            let Some(i) = self
                .rares
                .iter()
                .position(|&r| normalize_name(&db.card(r).name) == key)
            else {
                let known: Vec<&str> = self
                    .rares
                    .iter()
                    .map(|&r| db.card(r).name.as_str())
                    .collect();
                return Err(format!(
                    "'{n}' is not a rare of {}{} (its rares: {})",
                    self.path.display(),
                    crate::suggest::did_you_mean(n, known.iter().copied()),
                    known.join(", ")
                ));
            };
            mix |= 1 << i;
        }
        Ok(RareMix(mix))
    }

    pub fn mix_names(&self, mix: RareMix, db: &CardDb) -> Vec<String> {
        (0..self.rares.len())
            .filter(|&i| mix.has(i))
            .map(|i| db.card(self.rares[i]).name.clone())
            .collect()
    }
}

/// Validates one card description and adds it to the db. Errors say what is wrong with
/// which field (the caller adds the file and line).
/// `strict` (Confluence deck files) requires the Confluence-only fields: placement for
/// cards that go to an expedition, and the Midnight indication.
pub fn build_card(
    db: &mut CardDb,
    stem: &str,
    c: &FileCard,
    strict: bool,
) -> Result<(CardIdx, Rarity), String> {
    let rarity = match c.rarity.to_ascii_lowercase().as_str() {
        "common" => Rarity::Common,
        "rare" => Rarity::Rare,
        other => {
            return Err(format!(
                "rarity '{other}' (expected \"common\" or \"rare\")"
            ));
        }
    };
    let kind = match c
        .kind
        .to_ascii_lowercase()
        .replace(['_', '-'], " ")
        .as_str()
    {
        "character" => CardKind::Character,
        "spell" => CardKind::Spell,
        "landmark" => CardKind::Landmark,
        "expedition permanent" => CardKind::ExpeditionPermanent,
        other => {
            return Err(format!(
                "type '{other}' (expected character, expedition-permanent, landmark or spell)"
            ));
        }
    };
    let stats = match (&c.stats, kind) {
        (Some(s), _) => parse_stats(s)
            .ok_or_else(|| format!("stats '{s}' (expected F/M/O, as in \"2/1/0\")"))?,
        (None, CardKind::Character | CardKind::ExpeditionPermanent) => {
            return Err("no stats (characters and expedition permanents need F/M/O stats)".into());
        }
        (None, _) => Stats::ZERO,
    };
    let placement = match (&c.placement, kind.goes_to_expedition()) {
        (Some(p), _) => Placement::parse(p).ok_or_else(|| {
            format!("placement '{p}' (expected threatened, hero, companion, forest, mountain, water or progressing)")
        })?,
        (None, true) if strict => return Err("no placement rule (characters and expedition permanents need one)".into()),
        (None, _) => Placement::Threatened,
    };
    let midnight = match &c.midnight {
        Some(m) => Placement::parse(m).ok_or_else(|| {
            format!("midnight '{m}' (expected threatened, hero, companion, forest, mountain, water or progressing)")
        })?,
        None if strict => return Err("no midnight indication (which Darkness it advances as the Midnight card)".into()),
        None => Placement::Threatened,
    };
    if c.count == 0 || c.count > CONFLUENCE_DECK_SIZE {
        return Err(format!("count {} is out of range", c.count));
    }
    let mut subtypes = 0u64;
    for s in &c.subtypes {
        subtypes |=
            intern(db, s).ok_or_else(|| "too many distinct subtypes (64 at most)".to_string())?;
    }
    let reference = format!(
        "CONFLUENCE:{stem}:{}:{}",
        c.name,
        if rarity == Rarity::Rare { "R" } else { "C" }
    );
    if db.by_ref(&reference).is_some() {
        return Err(format!(
            "'{}' ({}) is listed twice; give the count instead",
            c.name,
            rarity.name()
        ));
    }
    let def = CardDef {
        reference,
        name: c.name.clone(),
        set: "CONFLUENCE".into(),
        faction: Faction::Confluence,
        rarity,
        kind,
        subtypes,
        hand_cost: c.hand_cost,
        reserve_cost: c.reserve_cost.unwrap_or(c.hand_cost),
        stats,
        keywords: 0,
        tough: 0,
        scout: 0,
        placement,
        midnight,
        reserve_limit: 0,
        landmark_limit: 0,
        ab_start: 0,
        ab_len: 0,
        trigger_mask: 0,
        fire_mask: 0,
        also_kinds: 0,
        coverage: Coverage::Exact,
        lines: Vec::new(),
        pool_index: None,
    };
    let idx = db.push_card(def);
    // Keywords and abilities share the effect language.
    let mut lines: Vec<String> = Vec::new();
    for k in &c.keywords {
        let k = k.trim().to_ascii_lowercase();
        let word = k.split_whitespace().next().unwrap_or("");
        let Some(bit) = kw::parse(word) else {
            return Err(format!(
                "keyword '{k}' (expected persistent, constant, gigantic, fleeting, tough N, defender, eternal, asleep, anchored, seasoned)"
            ));
        };
        if bit & keywords_for(kind) == 0 {
            return Err(format!(
                "keyword '{k}' makes no sense on a {} (it may: {})",
                kind_name(kind),
                kw::NAMES
                    .iter()
                    .filter(|(_, b)| b & keywords_for(kind) != 0)
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        lines.push(k);
    }
    lines.extend(c.abilities.iter().cloned());
    db.encode(idx, &lines, Coverage::Exact)
        .map_err(|x| format!("ability \"{}\": {}", x.source_line, x.err))?;
    Ok((idx, rarity))
}

/// The keywords the rules give a meaning on each card type: statuses and Dusk keywords on
/// characters; Persistent, Constant, Fleeting and Tough on expedition permanents (Overcome and
/// Rest read no other keyword on them); Fleeting and Tough on Landmarks; Fleeting and
/// Cooldown on Spells.
pub(crate) fn keywords_for(kind: CardKind) -> u32 {
    use kw::*;
    match kind {
        CardKind::Character => {
            FLEETING
                | ANCHORED
                | ASLEEP
                | ETERNAL
                | GIGANTIC
                | DEFENDER
                | SEASONED
                | PERSISTENT
                | CONSTANT
                | TOUGH
                | SCOUT
        }
        CardKind::ExpeditionPermanent => FLEETING | PERSISTENT | CONSTANT | TOUGH | SCOUT,
        CardKind::Landmark => FLEETING | TOUGH | SCOUT,
        CardKind::Spell => FLEETING | COOLDOWN | SCOUT,
        CardKind::Hero | CardKind::Token | CardKind::LandmarkToken | CardKind::OtherToken => 0,
    }
}

fn kind_name(kind: CardKind) -> &'static str {
    match kind {
        CardKind::Character | CardKind::Token | CardKind::OtherToken => "character",
        CardKind::ExpeditionPermanent => "expedition permanent",
        CardKind::Landmark | CardKind::LandmarkToken => "landmark",
        CardKind::Spell => "spell",
        CardKind::Hero => "hero",
    }
}

/// A field separated from its `[[card]]` by a blank line, or under a comment line that
/// follows a blank line, is a slip: TOML gives it to the card above, which its author
/// rarely meant (a `keywords` line under a section comment made a rare Persistent).
/// Returns the line of the first such field, with the line of the card it would join.
fn stray_field(text: &str) -> Option<(usize, usize, String)> {
    let mut card_line = None;
    let mut gap = false;
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.starts_with('[') {
            card_line = (l == "[[card]]").then_some(i + 1);
            gap = false;
        } else if l.is_empty() {
            gap = card_line.is_some();
        } else if l.starts_with('#') {
        } else if gap
            && let Some(c) = card_line
            && let Some((key, _)) = l.split_once('=')
            && !key.trim().is_empty()
            && key
                .trim()
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
        {
            return Some((i + 1, c, key.trim().to_string()));
        }
    }
    None
}

fn intern(db: &mut CardDb, name: &str) -> Option<u64> {
    use crate::cards::dsl::Arena;
    if let Some(b) = db.subtype_bit(name) {
        return Some(b);
    }
    db.add_subtype(name)
}

fn parse_stats(s: &str) -> Option<Stats> {
    let parts: Vec<&str> = s.split('/').map(str::trim).collect();
    if parts.len() != 3 {
        return None;
    }
    let n = |p: &str| p.parse::<i16>().ok().filter(|v| (0..=30).contains(v));
    Some(Stats::new(n(parts[0])?, n(parts[1])?, n(parts[2])?))
}
