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
fn targets(
    card: &CardRef,
    db: &CardDb,
    conf: &ConfluenceDeck,
    players: &[PlayerDeck],
) -> Result<(Vec<CardIdx>, Vec<CardIdx>), String> {
    let mut conf_cards: Vec<CardIdx> = Vec::new();
    for c in conf
        .slots
        .iter()
        .map(|s| s.common)
        .chain(conf.rares.iter().copied())
    {
        if !conf_cards.contains(&c) {
            conf_cards.push(c);
        }
    }
    let mut player_cards: Vec<CardIdx> = Vec::new();
    for d in players {
        for &c in &d.cards {
            if !player_cards.contains(&c) {
                player_cards.push(c);
            }
        }
    }
    let named = |v: &[CardIdx]| -> Vec<CardIdx> {
        v.iter().copied().filter(|&c| card.names(db, c)).collect()
    };
    let (cn, pn) = (named(&conf_cards), named(&player_cards));
    if cn.is_empty() && pn.is_empty() {
        let names: Vec<&str> = conf_cards
            .iter()
            .chain(&player_cards)
            .map(|&c| db.card(c).name.as_str())
            .collect();
        let hero = if players.iter().any(|d| card.names(db, d.hero)) {
            " (it is a player's hero: edits change deck cards)"
        } else {
            ""
        };
        return Err(format!(
            "unknown card '{}': not in the Confluence deck or the player decks{hero}{}",
            card.name,
            crate::suggest::did_you_mean(&card.name, names)
        ));
    }
    let any_common = cn
        .iter()
        .chain(&pn)
        .any(|&c| db.card(c).rarity == Rarity::Common);
    let keep = |v: Vec<CardIdx>| -> Vec<CardIdx> {
        v.into_iter()
            .filter(|&c| match card.print {
                Print::Default => !any_common || db.card(c).rarity == Rarity::Common,
                _ => card.rarity_fits(db, c),
            })
            .collect()
    };
    let (cn, pn) = (keep(cn), keep(pn));
    if cn.is_empty() && pn.is_empty() {
        return Err(format!(
            "'{}': the decks hold no {} print of it",
            card.name,
            match card.print {
                Print::Common => "common".to_string(),
                Print::Rare(None) => "rare".to_string(),
                Print::Rare(Some(v)) => format!("R{v}"),
                Print::Default => unreachable!("the default print keeps a card"),
            }
        ));
    }
    Ok((cn, pn))
}

/// Every deck position holding `from` now holds `to` (the rare twins' list included).
fn redirect(from: CardIdx, to: CardIdx, conf: &mut ConfluenceDeck, players: &mut [PlayerDeck]) {
    for s in &mut conf.slots {
        if s.common == from {
            s.common = to;
        }
    }
    for r in &mut conf.rares {
        if *r == from {
            *r = to;
        }
    }
    for d in players {
        for c in &mut d.cards {
            if *c == from {
                *c = to;
            }
        }
    }
}

fn has_stats(kind: CardKind) -> bool {
    matches!(kind, CardKind::Character | CardKind::ExpeditionPermanent)
}

fn kind_word(kind: CardKind) -> &'static str {
    match kind {
        CardKind::Character | CardKind::Token | CardKind::OtherToken => "character",
        CardKind::ExpeditionPermanent => "expedition permanent",
        CardKind::Landmark | CardKind::LandmarkToken => "landmark",
        CardKind::Spell => "spell",
        CardKind::Hero => "hero",
    }
}

/// A copy of card `idx` with the change made, added to `db`; `confluence`: the card is a
/// Confluence card (Midnight and placement exist only there).
fn edited_copy(
    db: &mut CardDb,
    idx: CardIdx,
    change: &Change,
    confluence: bool,
) -> Result<CardIdx, String> {
    let mut def = db.card(idx).clone();
    let name = def.name.clone();
    match *change {
        Change::Number(n, amount) => {
            if n.is_stat() && !has_stats(def.kind) {
                return Err(format!(
                    "'{name}' is a {}: it has no Forest, Mountain or Water",
                    kind_word(def.kind)
                ));
            }
            let check = |old: i16, label: &str| -> Result<i16, String> {
                let v = amount.apply(old);
                if (0..=MAX_VALUE).contains(&v) {
                    Ok(v)
                } else {
                    Err(format!(
                        "{name}'s {label} would be {v} (it is {old}; values go from 0 to {MAX_VALUE})"
                    ))
                }
            };
            match n {
                Number::Forest => def.stats.f = check(def.stats.f, "Forest")?,
                Number::Mountain => def.stats.m = check(def.stats.m, "Mountain")?,
                Number::Water => def.stats.o = check(def.stats.o, "Water")?,
                Number::HandCost => def.hand_cost = check(def.hand_cost as i16, "hand cost")? as u8,
                Number::ReserveCost => {
                    def.reserve_cost = check(def.reserve_cost as i16, "reserve cost")? as u8
                }
                Number::Cost => {
                    def.hand_cost = check(def.hand_cost as i16, "hand cost")? as u8;
                    def.reserve_cost = check(def.reserve_cost as i16, "reserve cost")? as u8;
                }
            }
        }
        Change::Midnight(p) | Change::Placement(p) => {
            if !confluence {
                return Err(format!(
                    "'{name}' is a player card: only Confluence cards have a {}",
                    if matches!(change, Change::Midnight(_)) {
                        "Midnight indication"
                    } else {
                        "placement rule"
                    }
                ));
            }
            if matches!(change, Change::Midnight(_)) {
                def.midnight = p;
            } else {
                def.placement = p;
            }
        }
        Change::Keyword(bit, on) => {
            let word = keyword_name(bit);
            if on && bit & keywords_for(def.kind) == 0 {
                return Err(format!(
                    "{word} makes no sense on '{name}', a {} (it may have: {})",
                    kind_word(def.kind),
                    kw::describe(keywords_for(def.kind)).join(", ")
                ));
            }
            let has = def.keywords & bit != 0;
            if has == on {
                return Err(if on {
                    format!("'{name}' is {word} already: nothing to turn on")
                } else {
                    format!("'{name}' is not {word}: nothing to turn off")
                });
            }
            def.keywords ^= bit;
        }
        Change::Valued(bit, n) => {
            let word = keyword_name(bit);
            if n > 0 && bit & keywords_for(def.kind) == 0 {
                return Err(format!(
                    "{word} makes no sense on '{name}', a {} (it may have: {})",
                    kind_word(def.kind),
                    kw::describe(keywords_for(def.kind)).join(", ")
                ));
            }
            if n == 0 {
                def.keywords &= !bit;
            } else {
                def.keywords |= bit;
            }
            if bit == kw::TOUGH {
                def.tough = n;
            } else {
                def.scout = n;
            }
        }
        Change::Swap(..) | Change::Remove(_) | Change::Rare => {
            unreachable!("not a change of the card's data")
        }
    }
    Ok(db.push_variant(def))
}

/// Replaces `from` by `to` in a player deck: every copy, or the first `count`.
fn swap_in_deck(
    d: &mut PlayerDeck,
    from: CardIdx,
    to: CardIdx,
    count: Option<usize>,
) -> Result<(), String> {
    let have = d.cards.iter().filter(|&&c| c == from).count();
    if have == 0 {
        return Ok(());
    }
    let n = count.unwrap_or(have);
    if n > have {
        return Err(format!("{} holds only {have} copies", d.name));
    }
    let mut left = n;
    for c in &mut d.cards {
        if *c == from && left > 0 {
            *c = to;
            left -= 1;
        }
    }
    Ok(())
}

/// Resolves the card a player card is swapped for, from the pool.
fn pool_card(db: &CardDb, pool: &CardPool, r: &CardRef) -> Result<CardIdx, String> {
    let facts = if r.is_reference() {
        pool.get(&r.name).ok_or_else(|| {
            format!(
                "unknown card reference '{}' (not in the pool){}",
                r.name,
                crate::suggest::closest_reference(
                    &r.name,
                    pool.cards.iter().map(|c| c.reference.as_str())
                )
                .map(|c| format!("; did you mean '{c}'?"))
                .unwrap_or_default()
            )
        })?
    } else {
        let (rarity, variant) = match r.print {
            Print::Default | Print::Common => (Rarity::Common, None),
            Print::Rare(v) => (Rarity::Rare, v),
        };
        let found = pool.resolve_name(&r.name, rarity, variant).or_else(|| {
            // A name with no common print (a unique Hero's deck card): its only print.
            (r.print == Print::Default)
                .then(|| {
                    let mut all = pool.by_name(&r.name).filter(|c| {
                        !matches!(
                            c.kind,
                            CardKind::Token | CardKind::LandmarkToken | CardKind::OtherToken
                        )
                    });
                    let first = all.next();
                    first.filter(|_| all.next().is_none())
                })
                .flatten()
        });
        match found {
            Some(f) => f,
            None if pool.by_name(&r.name).next().is_some() => {
                return Err(format!(
                    "'{}' has no {} print in the pool",
                    r.name,
                    match r.print {
                        Print::Rare(Some(v)) => format!("R{v}"),
                        Print::Rare(None) => "rare".into(),
                        _ => "common".into(),
                    }
                ));
            }
            None => {
                return Err(format!(
                    "unknown card '{}' (not in the pool){}",
                    r.name,
                    crate::suggest::did_you_mean(
                        &r.name,
                        pool.cards.iter().map(|c| c.name.as_str())
                    )
                ));
            }
        }
    };
    let idx = db
        .by_ref(&facts.reference)
        .expect("the db holds every pool card");
    if matches!(
        facts.kind,
        CardKind::Hero | CardKind::Token | CardKind::LandmarkToken | CardKind::OtherToken
    ) {
        return Err(format!(
            "'{}' is a {}, not a deck card",
            facts.name,
            if facts.kind == CardKind::Hero {
                "hero"
            } else {
                "token"
            }
        ));
    }
    Ok(idx)
}

/// Applies one edit to the decks, adding the edited cards to `db`. The decks' other cards,
/// and every card of `db` already there, are unchanged.
pub fn apply(
    edit: &Edit,
    db: &mut CardDb,
    pool: &CardPool,
    conf: &mut ConfluenceDeck,
    players: &mut [PlayerDeck],
) -> Result<(), String> {
    let (ct, pt) = targets(&edit.card, db, conf, players)?;
    match &edit.change {
        Change::Swap(count, other) => {
            if !ct.is_empty() {
                // A Confluence card is swapped for another card of the Confluence deck.
                let (oc, _) = targets(other, db, conf, &[]).map_err(|e| {
                    format!("swap: {e} (a Confluence card is swapped for another card of its deck)")
                })?;
                let to = oc[0];
                for &from in &ct {
                    let mut left = count.unwrap_or(usize::MAX);
                    let have = conf.slots.iter().filter(|s| s.common == from).count()
                        + conf.rares.iter().filter(|&&r| r == from).count();
                    if let Some(n) = count
                        && *n > have
                    {
                        return Err(format!("the Confluence deck holds only {have} copies"));
                    }
                    for s in &mut conf.slots {
                        if s.common == from && left > 0 {
                            s.common = to;
                            left -= 1;
                        }
                    }
                    for r in &mut conf.rares {
                        if *r == from && left > 0 {
                            *r = to;
                            left -= 1;
                        }
                    }
                }
            }
            if !pt.is_empty() {
                let to = pool_card(db, pool, other).map_err(|e| format!("swap: {e}"))?;
                for &from in &pt {
                    for d in players.iter_mut() {
                        swap_in_deck(d, from, to, *count)?;
                    }
                }
            }
        }
        Change::Remove(count) => {
            if !ct.is_empty() {
                return Err(format!(
                    "'{}' is a Confluence card: a Confluence deck keeps its {} cards (swap it for another instead)",
                    edit.card.name,
                    super::confluence::CONFLUENCE_DECK_SIZE
                ));
            }
            for &from in &pt {
                for d in players.iter_mut() {
                    let have = d.cards.iter().filter(|&&c| c == from).count();
                    if have == 0 {
                        continue;
                    }
                    let n = count.unwrap_or(have);
                    if n > have {
                        return Err(format!("{} holds only {have} copies", d.name));
                    }
                    let mut left = n;
                    let mut keep = Vec::with_capacity(d.cards.len());
                    let mut lines = Vec::with_capacity(d.cards.len());
                    for (&c, &l) in d.cards.iter().zip(&d.card_lines) {
                        if c == from && left > 0 {
                            left -= 1;
                        } else {
                            keep.push(c);
                            lines.push(l);
                        }
                    }
                    d.cards = keep;
                    d.card_lines = lines;
                }
            }
        }
        Change::Rare => {
            for &from in &ct {
                let mut done = false;
                for s in &mut conf.slots {
                    if s.common == from
                        && let Some(r) = s.rare
                    {
                        s.common = conf.rares[r as usize];
                        done = true;
                    }
                }
                if !done {
                    return Err(format!(
                        "'{}' has no rare twin in the Confluence deck (or it is the rare)",
                        db.card(from).name
                    ));
                }
            }
            for &from in &pt {
                let def = db.card(from);
                if def.rarity != Rarity::Common {
                    return Err(format!("'{}' is not a common", def.name));
                }
                let name = def.name.clone();
                let to = pool
                    .resolve_name(&name, Rarity::Rare, Some(1))
                    .ok_or_else(|| format!("'{name}' has no rare print in the pool"))?;
                let to = db
                    .by_ref(&to.reference)
                    .expect("the db holds every pool card");
                for d in players.iter_mut() {
                    swap_in_deck(d, from, to, None)?;
                }
            }
        }
        change => {
            for &from in &ct {
                let to = edited_copy(db, from, change, true)?;
                redirect(from, to, conf, players);
            }
            for &from in &pt {
                let to = edited_copy(db, from, change, false)?;
                redirect(from, to, conf, players);
            }
        }
    }
    Ok(())
}

/// Every single edit of the sensitivity grid for a Confluence deck, card by card in deck
/// order (each common, then its rare twin): Forest, Mountain and Water by -1 and +1 (where
/// the card has statistics and the value stays in range), both costs by -1 and +1, each
/// other Midnight indication, each keyword the card type may have toggled (Tough and
/// Scout between 0 and 1), and each common with a rare twin replaced by it.
pub fn confluence_grid(conf: &ConfluenceDeck, db: &CardDb) -> Vec<Edit> {
    let mut cards: Vec<(CardIdx, bool)> = Vec::new();
    for s in &conf.slots {
        if !cards.iter().any(|&(c, _)| c == s.common) {
            cards.push((s.common, false));
        }
        if let Some(r) = s.rare {
            let rc = conf.rares[r as usize];
            if !cards.iter().any(|&(c, _)| c == rc) {
                cards.push((rc, true));
            }
        }
    }
    let mut out = Vec::new();
    for &(idx, is_rare) in &cards {
        let def = db.card(idx);
        let card = CardRef {
            name: def.name.clone(),
            print: if is_rare {
                Print::Rare(None)
            } else {
                Print::Default
            },
        };
        let mut push = |change: Change| {
            out.push(Edit {
                card: card.clone(),
                change,
            })
        };
        if has_stats(def.kind) {
            for (n, v) in [
                (Number::Forest, def.stats.f),
                (Number::Mountain, def.stats.m),
                (Number::Water, def.stats.o),
            ] {
                for d in [-1, 1] {
                    if (0..=MAX_VALUE).contains(&(v + d)) {
                        push(Change::Number(n, Amount::By(d)));
                    }
                }
            }
        }
        for d in [-1i16, 1] {
            let ok = |v: u8| (0..=MAX_VALUE).contains(&(v as i16 + d));
            if ok(def.hand_cost) && ok(def.reserve_cost) {
                push(Change::Number(Number::Cost, Amount::By(d)));
            }
        }
        for p in Placement::ALL {
            if p != def.midnight {
                push(Change::Midnight(p));
            }
        }
        for &(_, bit) in &kw::NAMES {
            if bit & keywords_for(def.kind) == 0 {
                continue;
            }
            let has = def.keywords & bit != 0;
            push(if bit == kw::TOUGH || bit == kw::SCOUT {
                Change::Valued(bit, if has { 0 } else { 1 })
            } else {
                Change::Keyword(bit, !has)
            });
        }
        if !is_rare
            && conf
                .slots
                .iter()
                .any(|s| s.common == idx && s.rare.is_some())
        {
            push(Change::Rare);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::cards::Library;

    fn setup() -> (Library, ConfluenceDeck, Vec<PlayerDeck>) {
        let mut lib = Library::load(Path::new("decks/cards")).unwrap();
        let conf = ConfluenceDeck::load(Path::new("decks/confluence/reference.toml"), &mut lib.db)
            .unwrap();
        let deck = PlayerDeck::load(
            Path::new("decks/player/BR_kojo_booda.txt"),
            &lib.pool,
            &lib.db,
        )
        .unwrap();
        (lib, conf, vec![deck])
    }

    fn edit(s: &str) -> Edit {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    /// Applies `s`; returns the decks before and after, and the library.
    fn applied(
        s: &str,
    ) -> (
        Library,
        ConfluenceDeck,
        Vec<PlayerDeck>,
        ConfluenceDeck,
        Vec<PlayerDeck>,
    ) {
        let (mut lib, conf, players) = setup();
        let (mut c2, mut p2) = (conf.clone(), players.clone());
        apply(&edit(s), &mut lib.db, &lib.pool, &mut c2, &mut p2)
            .unwrap_or_else(|e| panic!("{s}: {e}"));
        (lib, conf, players, c2, p2)
    }

    fn error(s: &str) -> String {
        let (mut lib, mut conf, mut players) = setup();
        match s.parse::<Edit>() {
            Err(e) => e,
            Ok(e) => apply(&e, &mut lib.db, &lib.pool, &mut conf, &mut players).expect_err(s),
        }
    }

    /// The deck positions whose card changed: (position, old card, new card), Confluence
    /// slots then rares then the player's cards.
    fn changed(
        a: &ConfluenceDeck,
        pa: &[PlayerDeck],
        b: &ConfluenceDeck,
        pb: &[PlayerDeck],
    ) -> Vec<(usize, CardIdx, CardIdx)> {
        let flat = |c: &ConfluenceDeck, p: &[PlayerDeck]| -> Vec<CardIdx> {
            c.slots
                .iter()
                .map(|s| s.common)
                .chain(c.rares.iter().copied())
                .chain(p[0].cards.iter().copied())
                .collect()
        };
        let (x, y) = (flat(a, pa), flat(b, pb));
        assert_eq!(x.len(), y.len(), "same number of positions");
        x.iter()
            .zip(&y)
            .enumerate()
            .filter(|(_, (u, v))| u != v)
            .map(|(i, (u, v))| (i, *u, *v))
            .collect()
    }

    #[test]
    fn edits_read_and_print_the_same() {
        for (given, canonical) in [
            ("Gloom Wisp: forest -1", "Gloom Wisp: forest -1"),
            ("gloom wisp :  Mountain +2", "gloom wisp: mountain +2"),
            ("Gloom Wisp (R): ocean 3", "Gloom Wisp (rare): water 3"),
            ("Gloom Wisp: cost =2", "Gloom Wisp: cost 2"),
            ("Kappa: hand-cost +1", "Kappa: hand_cost +1"),
            ("Kappa: reserve_cost -1", "Kappa: reserve_cost -1"),
            ("Gloom Wisp: midnight Forest", "Gloom Wisp: midnight forest"),
            ("Gloom Wisp: placement o", "Gloom Wisp: placement water"),
            ("Gloom Wisp: Defender on", "Gloom Wisp: defender on"),
            ("Gloom Wisp: persistent off", "Gloom Wisp: persistent off"),
            ("Rift Stalker: tough 2", "Rift Stalker: tough 2"),
            (
                "Gloom Wisp: swap Mire Crawler (rare)",
                "Gloom Wisp: swap Mire Crawler (rare)",
            ),
            (
                "Kappa: swap 2 Sun Wukong (R1)",
                "Kappa: swap 2 Sun Wukong (R1)",
            ),
            ("Kappa: remove", "Kappa: remove"),
            ("Kappa: remove 1", "Kappa: remove 1"),
            ("Gloom Wisp: rare", "Gloom Wisp: rare"),
            (
                "ALT_CORE_B_BR_13_C: forest +1",
                "ALT_CORE_B_BR_13_C: forest +1",
            ),
        ] {
            let e = edit(given);
            assert_eq!(e.to_string(), canonical, "{given}");
            assert_eq!(edit(canonical), e, "{canonical} reads back");
        }
    }

    #[test]
    fn bad_edits_say_what_is_wrong() {
        for (s, part) in [
            ("Gloom Wisp forest -1", "expected CARD: CHANGE"),
            ("Gloom Wisp:", "no change written"),
            ("Gloom Wisp: forrest -1", "did you mean 'forest'"),
            ("Gloom Wisp: forest", "forest needs a value"),
            ("Gloom Wisp: forest -x", "expected +N or -N"),
            ("Gloom Wisp: forest 31", "out of range"),
            ("Gloom Wisp: midnight sky", "midnight 'sky'"),
            ("Gloom Wisp: defender maybe", "needs on or off"),
            ("Gloom Wisp: tough 12", "from 0 (off) to 9"),
            ("Gloom Wisp (X): rare", "unknown rarity"),
            ("Gloom Wisp: swap", "swap needs the card"),
            ("Gloom Wisp: rare 2", "rare takes no value"),
            // Against the decks.
            ("Glom Wisp: forest -1", "did you mean 'Gloom Wisp'"),
            ("Gloom Wisp: mountain -1", "Mountain would be -1"),
            ("Gloom Wisp: forest +30", "Forest would be 31"),
            ("Creeping Dusk: forest +1", "spell: it has no Forest"),
            (
                "Kappa: midnight forest",
                "only Confluence cards have a Midnight",
            ),
            ("Cinder Moth: fleeting on", "is fleeting already"),
            (
                "Gloom Wisp: persistent off",
                "is not persistent: nothing to turn off",
            ),
            (
                "Creeping Dusk: defender on",
                "defender makes no sense on 'Creeping Dusk', a spell",
            ),
            ("Gloom Wisp: remove", "a Confluence deck keeps its 55 cards"),
            (
                "Gloom Wisp: swap Kappa",
                "a Confluence card is swapped for another card of its deck",
            ),
            ("Kappa: swap Kapa", "did you mean 'Kappa'"),
            ("Kappa: swap Kojo & Booda", "is a hero, not a deck card"),
            ("Kappa: remove 4", "holds only 3 copies"),
            ("Dusk Herald: rare", "no rare twin"),
            ("Kojo & Booda: forest +1", "it is a player's hero"),
            ("Kappa (R2): forest +1", "the decks hold no R2 print"),
        ] {
            let e = error(s);
            assert!(e.contains(part), "{s}: {e}");
        }
    }

    #[test]
    fn a_statistic_edit_changes_that_number_of_that_card_only() {
        let (lib, c1, p1, c2, p2) = applied("Gloom Wisp: forest +1");
        let ch = changed(&c1, &p1, &c2, &p2);
        assert_eq!(ch.len(), 4, "the 4 Gloom Wisps, not the rare twin: {ch:?}");
        let (old, new) = (lib.db.card(ch[0].1), lib.db.card(ch[0].2));
        assert!(ch.iter().all(|&(_, o, n)| o == ch[0].1 && n == ch[0].2));
        assert_eq!(old.stats.f + 1, new.stats.f);
        assert_eq!((old.stats.m, old.stats.o), (new.stats.m, new.stats.o));
        assert_eq!(old.name, new.name);
        assert_eq!(
            (old.hand_cost, old.keywords, old.midnight),
            (new.hand_cost, new.keywords, new.midnight)
        );
        assert_eq!(
            (old.ab_start, old.ab_len),
            (new.ab_start, new.ab_len),
            "same abilities"
        );
        // The rare twin alone.
        let (lib, c1, p1, c2, p2) = applied("Gloom Wisp (rare): water -2");
        let ch = changed(&c1, &p1, &c2, &p2);
        assert_eq!(ch.len(), 1);
        assert_eq!(ch[0].0, 55, "the first rare");
        assert_eq!(
            lib.db.card(ch[0].1).stats.o - 2,
            lib.db.card(ch[0].2).stats.o
        );
        // Set to a value.
        let (lib, c1, p1, c2, p2) = applied("Mire Crawler: mountain 5");
        let ch = changed(&c1, &p1, &c2, &p2);
        assert_eq!(ch.len(), 3);
        assert_eq!(lib.db.card(ch[0].2).stats.m, 5);
        // A player card, in every copy.
        let (lib, c1, p1, c2, p2) = applied("Kappa: forest -1");
        let ch = changed(&c1, &p1, &c2, &p2);
        assert_eq!(ch.len(), 3);
        assert!(ch.iter().all(|&(i, _, _)| i >= 70));
        assert_eq!(
            lib.db.card(ch[0].1).stats.f - 1,
            lib.db.card(ch[0].2).stats.f
        );
    }

    #[test]
    fn cost_midnight_placement_and_keyword_edits_change_that_field_only() {
        let check =
            |s: &str,
             n: usize,
             f: &dyn Fn(&crate::cards::db::CardDef, &crate::cards::db::CardDef)| {
                let (lib, c1, p1, c2, p2) = applied(s);
                let ch = changed(&c1, &p1, &c2, &p2);
                assert_eq!(ch.len(), n, "{s}: {ch:?}");
                let (old, new) = (lib.db.card(ch[0].1), lib.db.card(ch[0].2));
                f(old, new);
                // Everything else is as it was.
                let mut same = new.clone();
                same.hand_cost = old.hand_cost;
                same.reserve_cost = old.reserve_cost;
                same.midnight = old.midnight;
                same.placement = old.placement;
                same.keywords = old.keywords;
                same.tough = old.tough;
                assert_eq!(format!("{same:?}"), format!("{old:?}"), "{s}");
            };
        check("Stone Sleeper: cost +1", 2, &|o, n| {
            assert_eq!(
                (o.hand_cost + 1, o.reserve_cost + 1),
                (n.hand_cost, n.reserve_cost)
            )
        });
        check("Stone Sleeper: hand_cost -1", 2, &|o, n| {
            assert_eq!(
                (o.hand_cost - 1, o.reserve_cost),
                (n.hand_cost, n.reserve_cost)
            )
        });
        check("Stone Sleeper: reserve_cost 0", 2, &|o, n| {
            assert_eq!((o.hand_cost, 0), (n.hand_cost, n.reserve_cost))
        });
        check("Gloom Wisp: midnight progressing", 4, &|o, n| {
            assert_eq!(o.midnight, Placement::Threatened);
            assert_eq!(n.midnight, Placement::Progressing);
        });
        check("Gloom Wisp: placement hero", 4, &|_, n| {
            assert_eq!(n.placement, Placement::Hero)
        });
        check("Gloom Wisp: defender on", 4, &|o, n| {
            assert_eq!(o.keywords | kw::DEFENDER, n.keywords);
            assert_eq!(o.keywords & kw::DEFENDER, 0);
        });
        check("Gloom Wisp (rare): persistent off", 1, &|o, n| {
            assert_eq!(o.keywords & !kw::PERSISTENT, n.keywords);
            assert_ne!(o.keywords & kw::PERSISTENT, 0);
        });
        check("Gloom Wisp: gigantic on", 4, &|o, n| {
            assert_eq!(o.keywords | kw::GIGANTIC, n.keywords)
        });
        check("Rift Stalker: tough 3", 2, &|o, n| {
            assert_eq!(o.tough, 1);
            assert_eq!(n.tough, 3);
            assert_eq!(n.keywords, o.keywords);
        });
        check("Rift Stalker: tough 0", 2, &|o, n| {
            assert_eq!(n.tough, 0);
            assert_eq!(n.keywords, o.keywords & !kw::TOUGH);
        });
    }

    #[test]
    fn swaps_removals_and_rares_move_cards_not_data() {
        // A Confluence card for another of its deck: every copy, the rare twin keeps its slot.
        let (lib, c1, p1, c2, p2) = applied("Gloom Wisp: swap Mire Crawler");
        let ch = changed(&c1, &p1, &c2, &p2);
        assert_eq!(ch.len(), 4);
        assert!(
            ch.iter()
                .all(|&(_, _, n)| lib.db.card(n).name == "Mire Crawler"
                    && lib.db.card(n).rarity == Rarity::Common)
        );
        assert_eq!(c1.rares, c2.rares);
        let (_, c1, p1, c2, p2) = applied("Gloom Wisp: swap 1 Mire Crawler (rare)");
        let ch = changed(&c1, &p1, &c2, &p2);
        assert_eq!(ch.len(), 1);
        assert_eq!(ch[0].2, c1.rares[1], "Mire Crawler's rare twin");
        // A common replaced by its rare twin, in the one slot the twin takes.
        let (_, c1, p1, c2, p2) = applied("Gloom Wisp: rare");
        let ch = changed(&c1, &p1, &c2, &p2);
        assert_eq!(ch.len(), 1);
        let slot = c1.slots.iter().position(|s| s.rare == Some(0)).unwrap();
        assert_eq!(ch[0], (slot, c1.slots[slot].common, c1.rares[0]));
        for mix in [
            crate::deck::RareMix(0),
            crate::deck::RareMix::all(c1.rares.len()),
        ] {
            assert_eq!(
                c2.cards_for(mix),
                c1.cards_for(crate::deck::RareMix(1 | mix.0))
            );
        }
        // Player cards: a swap from the pool, a removal, a common for its rare.
        let (lib, c1, p1, c2, p2) = applied("Kappa: swap 2 Atlas");
        let ch = changed(&c1, &p1, &c2, &p2);
        assert_eq!(ch.len(), 2);
        assert!(
            ch.iter()
                .all(|&(_, o, n)| lib.db.card(o).name == "Kappa" && lib.db.card(n).name == "Atlas")
        );
        let (lib, _, p1, _, p2) = applied("Kappa: remove");
        assert_eq!(p2[0].cards.len(), p1[0].cards.len() - 3);
        assert_eq!(p2[0].card_lines.len(), p2[0].cards.len());
        assert!(p2[0].cards.iter().all(|&c| lib.db.card(c).name != "Kappa"));
        let mut rest = p1[0].cards.clone();
        rest.retain(|&c| lib.db.card(c).name != "Kappa");
        assert_eq!(p2[0].cards, rest, "the others in order");
        let (lib, c1, p1, c2, p2) = applied("Kappa: rare");
        let ch = changed(&c1, &p1, &c2, &p2);
        assert_eq!(ch.len(), 3);
        assert!(
            ch.iter()
                .all(|&(_, _, n)| lib.db.card(n).reference == "ALT_CORE_B_BR_13_R1")
        );
    }

    #[test]
    fn edits_apply_in_order_and_leave_the_original_cards_alone() {
        let (mut lib, c1, p1) = setup();
        let before = format!("{:?}", lib.db.cards);
        let (mut c2, mut p2) = (c1.clone(), p1.clone());
        for s in [
            "Gloom Wisp: forest +1",
            "Gloom Wisp: forest +1",
            "Gloom Wisp: rare",
            "Gloom Wisp (rare): forest -1",
        ] {
            apply(&edit(s), &mut lib.db, &lib.pool, &mut c2, &mut p2).unwrap();
        }
        let after = format!("{:?}", &lib.db.cards[..lib.db.cards.len() - 3]);
        assert_eq!(before, after, "the cards already there are unchanged");
        let commons: Vec<_> = c2
            .slots
            .iter()
            .filter(|s| lib.db.card(s.common).name == "Gloom Wisp")
            .collect();
        let orig = c1
            .slots
            .iter()
            .find(|s| lib.db.card(s.common).name == "Gloom Wisp")
            .unwrap()
            .common;
        for s in &commons {
            let d = lib.db.card(s.common);
            if d.rarity == Rarity::Common {
                assert_eq!(d.stats.f, lib.db.card(orig).stats.f + 2);
            } else {
                assert_eq!(d.stats.f, lib.db.card(c1.rares[0]).stats.f - 1);
            }
        }
    }

    #[test]
    fn the_grid_reads_back_and_applies_to_the_reference_deck() {
        let (mut lib, conf, players) = setup();
        let grid = confluence_grid(&conf, &lib.db);
        assert!(grid.len() > 300, "{}", grid.len());
        let mut seen = std::collections::HashSet::new();
        for e in &grid {
            assert_eq!(edit(&e.to_string()), *e);
            assert!(seen.insert(e.to_string()), "{e} twice");
            let (mut c, mut p) = (conf.clone(), players.clone());
            apply(e, &mut lib.db, &lib.pool, &mut c, &mut p).unwrap_or_else(|x| panic!("{e}: {x}"));
            assert_ne!(
                (0..2)
                    .map(|k| c.cards_for(crate::deck::RareMix(if k == 0 { 0 } else { 0x7fff })))
                    .collect::<Vec<_>>(),
                (0..2)
                    .map(|k| conf.cards_for(crate::deck::RareMix(if k == 0 { 0 } else { 0x7fff })))
                    .collect::<Vec<_>>(),
                "{e} changes the deck"
            );
        }
        // Each kind is there for Gloom Wisp.
        for s in [
            "Gloom Wisp: forest -1",
            "Gloom Wisp: forest +1",
            "Gloom Wisp: cost -1",
            "Gloom Wisp: cost +1",
            "Gloom Wisp: midnight water",
            "Gloom Wisp: defender on",
            "Gloom Wisp: tough 1",
            "Gloom Wisp: rare",
            "Gloom Wisp (rare): persistent off",
        ] {
            assert!(seen.contains(s), "{s}");
        }
        assert!(!seen.contains("Gloom Wisp: mountain -1"), "out of range");
        assert!(
            !seen.contains("Gloom Wisp: midnight threatened"),
            "no change"
        );
    }

    #[test]
    fn edit_files_give_lines() {
        let text = "# what-if\n[[edit]]\ncard = \"Gloom Wisp\"\nchange = \"forest -1\"\n\n[[edit]]\ncard = \"Kappa\"\nchange = \"remove 1\"\n";
        let e = parse_file(text).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].1.to_string(), "Gloom Wisp: forest -1");
        assert_eq!(e[1].0, 6);
        let bad = "[[edit]]\ncard = \"Gloom Wisp\"\nchange = \"forest -1\"\n[[edit]]\ncard = \"Kappa\"\nchange = \"flavour on\"\n";
        let (line, msg) = parse_file(bad).unwrap_err();
        assert_eq!(line, 4);
        assert!(msg.contains("unknown change 'flavour'"), "{msg}");
        let (line, msg) = parse_file("[[edit]]\ncard = \"Kappa\"\nchnage = \"x\"\n").unwrap_err();
        assert!(line > 0 && msg.contains("chnage"), "{line}: {msg}");
    }
}
