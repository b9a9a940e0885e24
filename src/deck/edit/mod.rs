//! What-if edits: a change to one card of the Confluence deck or of the player decks (a
//! statistic, a cost, the Midnight indication, a keyword; a card swapped for another,
//! removed, or a common replaced by its rare), written as `CARD: CHANGE`
//! (`Gloom Wisp: forest -1`). Edits are data applied once at load time: an edited card is a
//! new entry of the card table (a copy of the card with the change) and the decks point to
//! it, so the engine has no card-specific branch and the table stays shared read-only by the
//! games. Format in docs/balancing.md ("What-if edits").
//!
//! Layer: part of [`crate::deck`]; may use `cards`, `error`, `suggest` and nothing else of the
//! crate.

use std::fmt;

use serde::Deserialize;

use super::confluence::{ConfluenceDeck, keywords_for};
use super::player::PlayerDeck;
use crate::cards::db::CardDb;
use crate::cards::effect::CardIdx;
use crate::cards::pool::{CardPool, normalize_name};
use crate::cards::types::{CardKind, Placement, Rarity, kw};

/// The range of a statistic or a cost after an edit.
pub const MAX_VALUE: i16 = 30;
/// The largest Tough or Scout value an edit gives.
pub const MAX_KEYWORD_VALUE: u8 = 9;

/// Which print of a name an edit means: the common one unless a rarity is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Print {
    /// No rarity written: the common print when the decks hold one, else the print they hold.
    Default,
    Common,
    /// `(rare)`, or `(R1)` / `(R2)` for a player card's rare versions.
    Rare(Option<u8>),
}

/// A card as an edit names it: an English name with an optional rarity, or a reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardRef {
    pub name: String,
    pub print: Print,
}

impl CardRef {
    pub fn parse(s: &str) -> Result<CardRef, String> {
        let t = s.trim();
        if t.is_empty() {
            return Err("no card named".into());
        }
        if let Some(open) = t.rfind('(')
            && t.ends_with(')')
        {
            let tag = t[open + 1..t.len() - 1].trim().to_ascii_lowercase();
            let print = match tag.as_str() {
                "c" | "common" => Print::Common,
                "r" | "rare" => Print::Rare(None),
                "r1" => Print::Rare(Some(1)),
                "r2" => Print::Rare(Some(2)),
                _ => {
                    return Err(format!(
                        "unknown rarity '({tag})' (expected (common), (rare), (R1) or (R2))"
                    ));
                }
            };
            let name = t[..open].trim_end();
            if name.is_empty() {
                return Err("no card named before the rarity".into());
            }
            return Ok(CardRef {
                name: name.to_string(),
                print,
            });
        }
        Ok(CardRef {
            name: t.to_string(),
            print: Print::Default,
        })
    }

    fn is_reference(&self) -> bool {
        self.name.starts_with("ALT_")
            && self
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
    }

    /// Does card `def` answer to this name (whatever its rarity)?
    fn names(&self, db: &CardDb, idx: CardIdx) -> bool {
        let def = db.card(idx);
        if self.is_reference() {
            def.reference == self.name
        } else {
            normalize_name(&def.name) == normalize_name(&self.name)
        }
    }

    /// Does card `def` have the rarity this reference asks for (`Default` aside)?
    fn rarity_fits(&self, db: &CardDb, idx: CardIdx) -> bool {
        let def = db.card(idx);
        match self.print {
            Print::Default => true,
            Print::Common => def.rarity == Rarity::Common,
            Print::Rare(None) => def.rarity == Rarity::Rare,
            Print::Rare(Some(v)) => {
                def.rarity == Rarity::Rare
                    && (!def.reference.starts_with("ALT_")
                        || def.reference.ends_with(&format!("_R{v}")))
            }
        }
    }
}

impl fmt::Display for CardRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        match self.print {
            Print::Default => Ok(()),
            Print::Common => f.write_str(" (common)"),
            Print::Rare(None) => f.write_str(" (rare)"),
            Print::Rare(Some(v)) => write!(f, " (R{v})"),
        }
    }
}

/// A number an edit changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Number {
    Forest,
    Mountain,
    Water,
    HandCost,
    ReserveCost,
    /// Both costs at once.
    Cost,
}

impl Number {
    pub fn name(self) -> &'static str {
        match self {
            Number::Forest => "forest",
            Number::Mountain => "mountain",
            Number::Water => "water",
            Number::HandCost => "hand_cost",
            Number::ReserveCost => "reserve_cost",
            Number::Cost => "cost",
        }
    }

    fn parse(word: &str) -> Option<Number> {
        Some(match word {
            "forest" | "f" => Number::Forest,
            "mountain" | "m" => Number::Mountain,
            "water" | "ocean" | "o" | "w" => Number::Water,
            "hand_cost" | "hand" => Number::HandCost,
            "reserve_cost" | "reserve" => Number::ReserveCost,
            "cost" => Number::Cost,
            _ => return None,
        })
    }

    fn is_stat(self) -> bool {
        matches!(self, Number::Forest | Number::Mountain | Number::Water)
    }
}

/// `+N` / `-N` (by) or `N` (to).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    By(i16),
    To(i16),
}

impl Amount {
    fn apply(self, v: i16) -> i16 {
        match self {
            Amount::By(d) => v.saturating_add(d),
            Amount::To(x) => x,
        }
    }
}

/// What an edit changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Number(Number, Amount),
    /// A Confluence card's Midnight indication (the Darkness it advances).
    Midnight(Placement),
    /// A Confluence card's placement rule (the expedition it faces).
    Placement(Placement),
    /// A keyword without a value (`kw` bit), on or off.
    Keyword(u32, bool),
    /// Tough or Scout with its value (0: off).
    Valued(u32, u8),
    /// The card swapped for another: every copy, or the first N of each deck.
    Swap(Option<usize>, CardRef),
    /// The card taken out of the player decks: every copy, or the first N.
    Remove(Option<usize>),
    /// A common replaced by its rare in the deck itself.
    Rare,
}

fn keyword_name(bit: u32) -> &'static str {
    kw::NAMES
        .iter()
        .find(|(_, b)| *b == bit)
        .map_or("?", |(n, _)| n)
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Number(n, Amount::By(d)) => write!(f, "{} {d:+}", n.name()),
            Change::Number(n, Amount::To(v)) => write!(f, "{} {v}", n.name()),
            Change::Midnight(p) => write!(f, "midnight {}", p.name()),
            Change::Placement(p) => write!(f, "placement {}", p.name()),
            Change::Keyword(b, on) => {
                write!(f, "{} {}", keyword_name(*b), if *on { "on" } else { "off" })
            }
            Change::Valued(b, n) => write!(f, "{} {n}", keyword_name(*b)),
            Change::Swap(None, c) => write!(f, "swap {c}"),
            Change::Swap(Some(n), c) => write!(f, "swap {n} {c}"),
            Change::Remove(None) => f.write_str("remove"),
            Change::Remove(Some(n)) => write!(f, "remove {n}"),
            Change::Rare => f.write_str("rare"),
        }
    }
}

/// The words a change may start with, for the "did you mean" of an unknown one.
const CHANGE_WORDS: [&str; 13] = [
    "forest",
    "mountain",
    "water",
    "hand_cost",
    "reserve_cost",
    "cost",
    "midnight",
    "placement",
    "swap",
    "remove",
    "rare",
    "on",
    "off",
];

fn parse_amount(field: &str, s: Option<&str>) -> Result<Amount, String> {
    let Some(s) = s else {
        return Err(format!(
            "{field} needs a value: +N or -N to change it by N, N to set it (as in \"{field} -1\")"
        ));
    };
    let bad = || {
        format!(
            "{field} '{s}': expected +N or -N to change it by N, or N to set it (a whole number)"
        )
    };
    let (by, digits) = match s.as_bytes()[0] {
        b'+' => (Some(1), &s[1..]),
        b'-' => (Some(-1), &s[1..]),
        b'=' => (None, &s[1..]),
        _ => (None, s),
    };
    let v: i16 = digits.parse().map_err(|_| bad())?;
    if v > MAX_VALUE || (by.is_none() && v < 0) {
        return Err(format!(
            "{field} '{s}' is out of range (values go from 0 to {MAX_VALUE})"
        ));
    }
    Ok(match by {
        Some(sign) => Amount::By(sign * v),
        None => Amount::To(v),
    })
}

fn parse_count(s: &str) -> Option<usize> {
    s.parse::<usize>().ok()
}

impl Change {
    pub fn parse(s: &str) -> Result<Change, String> {
        let t = s.trim();
        let mut words = t.split_whitespace();
        let Some(first) = words.next() else {
            return Err(
                "no change written after the card (as in \"Gloom Wisp: forest -1\")".into(),
            );
        };
        let key = first.to_ascii_lowercase().replace('-', "_");
        let rest: Vec<&str> = words.collect();
        let one = |what: &str| -> Result<Option<&str>, String> {
            match rest.as_slice() {
                [] => Ok(None),
                [x] => Ok(Some(x)),
                _ => Err(format!(
                    "'{t}': {what} takes one value, found '{}'",
                    rest.join(" ")
                )),
            }
        };
        if let Some(n) = Number::parse(&key) {
            return Ok(Change::Number(n, parse_amount(n.name(), one(n.name())?)?));
        }
        if key == "midnight" || key == "placement" {
            let v = one(&key)?.ok_or_else(|| {
                format!("{key} needs a place: threatened, hero, companion, forest, mountain, water or progressing")
            })?;
            let p = Placement::parse(v).ok_or_else(|| {
                format!(
                    "{key} '{v}' (expected threatened, hero, companion, forest, mountain, water or progressing)"
                )
            })?;
            return Ok(if key == "midnight" {
                Change::Midnight(p)
            } else {
                Change::Placement(p)
            });
        }
        if let Some(bit) = kw::parse(&key) {
            let v = one(&key)?;
            if bit == kw::TOUGH || bit == kw::SCOUT {
                let n = v
                    .and_then(|v| v.parse::<u8>().ok())
                    .filter(|&n| n <= MAX_KEYWORD_VALUE)
                    .ok_or_else(|| {
                        format!("{key} needs a value from 0 (off) to {MAX_KEYWORD_VALUE}, as in \"{key} 1\"")
                    })?;
                return Ok(Change::Valued(bit, n));
            }
            let on = match v.map(str::to_ascii_lowercase).as_deref() {
                Some("on" | "yes" | "true") => true,
                Some("off" | "no" | "false") => false,
                _ => {
                    return Err(format!(
                        "{key} needs on or off (as in \"{key} on\"), found '{}'",
                        v.unwrap_or("")
                    ));
                }
            };
            return Ok(Change::Keyword(bit, on));
        }
        match key.as_str() {
            "swap" => {
                let (count, name) = match rest.as_slice() {
                    [n, more @ ..] if !more.is_empty() && parse_count(n).is_some() => {
                        (parse_count(n), more.join(" "))
                    }
                    _ => (None, rest.join(" ")),
                };
                if count == Some(0) {
                    return Err("swap 0: swap at least one copy".into());
                }
                if name.is_empty() {
                    return Err(
                        "swap needs the card that takes its place (as in \"swap Mire Crawler\")"
                            .into(),
                    );
                }
                Ok(Change::Swap(count, CardRef::parse(&name)?))
            }
            "remove" => match one("remove")? {
                None => Ok(Change::Remove(None)),
                Some(n) => match parse_count(n) {
                    Some(c) if c > 0 => Ok(Change::Remove(Some(c))),
                    _ => Err(format!(
                        "remove '{n}': expected a number of copies (at least 1), or nothing for every copy"
                    )),
                },
            },
            "rare" => {
                one("rare")?
                    .map_or(Ok(()), |v| Err(format!("rare takes no value, found '{v}'")))?;
                Ok(Change::Rare)
            }
            _ => {
                let kws = kw::NAMES.iter().map(|(n, _)| *n);
                Err(format!(
                    "unknown change '{first}' (expected forest, mountain, water, hand_cost, reserve_cost, cost, midnight, placement, a keyword ({}), swap, remove or rare){}",
                    kw::NAMES
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", "),
                    crate::suggest::did_you_mean(&key, CHANGE_WORDS.iter().copied().chain(kws))
                ))
            }
        }
    }
}

/// One what-if edit: a card and what changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub card: CardRef,
    pub change: Change,
}

impl fmt::Display for Edit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.card, self.change)
    }
}

impl std::str::FromStr for Edit {
    type Err = String;
    /// `CARD: CHANGE`, as in `Gloom Wisp: forest -1`.
    fn from_str(s: &str) -> Result<Edit, String> {
        let Some((card, change)) = s.split_once(':') else {
            return Err(
                "expected CARD: CHANGE, as in \"Gloom Wisp: forest -1\" (a colon after the card)"
                    .into(),
            );
        };
        Ok(Edit {
            card: CardRef::parse(card)?,
            change: Change::parse(change)?,
        })
    }
}

/// One `[[edit]]` table of an edit file or an experiment file.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct FileEdit {
    /// The card, as in `Gloom Wisp` or `Gloom Wisp (rare)`.
    pub card: String,
    /// What changes, as in `forest -1`.
    pub change: String,
}

impl FileEdit {
    pub fn edit(&self) -> Result<Edit, String> {
        if self.card.contains(':') {
            return Err(format!(
                "card '{}': the card alone (the change goes in change = \"...\")",
                self.card
            ));
        }
        Ok(Edit {
            card: CardRef::parse(&self.card)?,
            change: Change::parse(&self.change)?,
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EditFile {
    #[serde(rename = "edit", default)]
    edits: Vec<toml::Spanned<FileEdit>>,
}

fn line_of(text: &str, byte: usize) -> usize {
    text[..byte.min(text.len())]
        .bytes()
        .filter(|&b| b == b'\n')
        .count()
        + 1
}

/// Reads an edit file: `[[edit]]` tables with `card` and `change`. Returns each edit with
/// its line; errors say `line: message`.
pub fn parse_file(text: &str) -> Result<Vec<(usize, Edit)>, (usize, String)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let f: EditFile = toml::from_str(text).map_err(|e| {
        (
            e.span().map(|s| line_of(text, s.start)).unwrap_or(0),
            e.message().trim().to_string(),
        )
    })?;
    parse_tables(&f.edits, text)
}

/// The edits of `[[edit]]` tables read with their spans from `text`.
pub fn parse_tables(
    tables: &[toml::Spanned<FileEdit>],
    text: &str,
) -> Result<Vec<(usize, Edit)>, (usize, String)> {
    tables
        .iter()
        .map(|t| {
            let line = line_of(text, t.span().start);
            t.get_ref()
                .edit()
                .map(|e| (line, e))
                .map_err(|m| (line, format!("[[edit]]: {m}")))
        })
        .collect()
}

/// Which cards of the decks an edit's card names: distinct indices, Confluence side and
/// player side.
mod applying;
mod grid;
#[cfg(test)]
mod tests;

pub use applying::apply;
use applying::*;
pub use grid::confluence_grid;
