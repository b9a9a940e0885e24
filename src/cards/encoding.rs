//! Ability encodings: `decks/cards/abilities/*.toml`, our own effect-language text per card.
//!
//! ```toml
//! [ALT_CORE_B_BR_04_C]          # the reference it encodes
//! name = "Ratatoskr"            # optional; checked against the pool to catch typos
//! abilities = ["R: boost(me, 2)"]
//! missing = "..."               # optional: makes the card 'partial' and says what is left out
//! ```
//!
//! An encoding also applies to every reprint with the same English name and the same text
//! hash (e.g. the kickstarter printing of a core card), unless that reprint has its own.
//!
//! Layer: part of [`crate::cards`]; may use `error` and nothing else of the crate.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::db::{CardDb, Coverage};
use super::effect::{CardIdx, Op};
use super::pool::{CardPool, normalize_name};
use crate::error::CardError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: Option<String>,
    #[serde(default)]
    abilities: Vec<Spanned<String>>,
    missing: Option<String>,
}

/// One encoding as read from a file.
#[derive(Clone, Debug)]
pub struct Encoding {
    pub reference: String,
    /// The English name the file gives, checked against the pool.
    pub name: Option<String>,
    pub lines: Vec<String>,
    /// 1-based file line of each ability string.
    pub line_numbers: Vec<usize>,
    pub missing: Option<String>,
    pub file: PathBuf,
}

fn line_of(text: &str, byte: usize) -> usize {
    text[..byte.min(text.len())]
        .bytes()
        .filter(|&b| b == b'\n')
        .count()
        + 1
}

/// Reads every `*.toml` in `dir` (sorted by file name, so later files never depend on order).
pub fn read_dir(dir: &Path) -> Result<Vec<Encoding>, CardError> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => {
            return Err(CardError::Io {
                path: dir.to_path_buf(),
                source: e,
            });
        }
    };
    files.sort();
    let mut out = Vec::new();
    for f in files {
        out.extend(read_file(&f)?);
    }
    Ok(out)
}

pub fn read_file(path: &Path) -> Result<Vec<Encoding>, CardError> {
    let text = std::fs::read_to_string(path).map_err(|e| CardError::Io {
        path: path.to_path_buf(),
        source: e,
    })?;
    parse(&text, path)
}

/// The `[REFERENCE]` header in force at `line` (for error messages).
fn header_before(text: &str, line: usize) -> String {
    text.lines()
        .take(line)
        .filter_map(|l| {
            let t = l.trim();
            t.strip_prefix('[')
                .and_then(|r| r.split(']').next())
                .map(|r| r.trim().trim_matches('"').to_string())
        })
        .last()
        .unwrap_or_default()
}

pub fn parse(text: &str, path: &Path) -> Result<Vec<Encoding>, CardError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text); // a byte-order mark
    let table: BTreeMap<String, Spanned<Entry>> = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
        CardError::Encoding {
            path: path.to_path_buf(),
            line,
            reference: header_before(text, line),
            msg: e.message().trim().to_string(),
        }
    })?;
    let mut out = Vec::new();
    for (reference, entry) in table {
        let entry = entry.into_inner();
        out.push(Encoding {
            line_numbers: entry
                .abilities
                .iter()
                .map(|s| line_of(text, s.span().start))
                .collect(),
            lines: entry
                .abilities
                .into_iter()
                .map(|s| s.into_inner())
                .collect(),
            missing: entry.missing,
            file: path.to_path_buf(),
            name: entry.name,
            reference,
        });
    }
    Ok(out)
}

/// Applies encodings to the db built from `pool`. Errors name the file, the line, the card
/// and the offending part of the ability.
pub fn apply(db: &mut CardDb, pool: &CardPool, encodings: &[Encoding]) -> Result<(), CardError> {
    // Ordered by reference, so that which encoding a reprint shares never depends on hashing.
    let mut own: BTreeMap<String, usize> = BTreeMap::new();
    for (i, enc) in encodings.iter().enumerate() {
        let reference = enc.reference.as_str();
        let name = enc.name.as_deref().unwrap_or("");
        let err = |msg: String| CardError::Encoding {
            path: enc.file.clone(),
            line: enc.line_numbers.first().copied().unwrap_or(0),
            reference: reference.to_string(),
            msg,
        };
        let Some(facts) = pool.get(reference) else {
            return Err(err(format!(
                "unknown card reference '{reference}' (not in the card pool)"
            )));
        };
        if !name.is_empty() && normalize_name(name) != normalize_name(&facts.name) {
            return Err(err(format!(
                "name '{name}' does not match the pool, which calls {reference} '{}'",
                facts.name
            )));
        }
        if own.insert(reference.to_string(), i).is_some() {
            return Err(err(format!("{reference} is encoded twice")));
        }
    }
    // Reprints share an encoding when name and text agree; when two encodings could serve,
    // the one of the smallest reference does.
    let mut by_text: HashMap<(String, u64), usize> = HashMap::new();
    for (reference, &i) in &own {
        let facts = pool.get(reference).expect("checked above");
        by_text
            .entry((normalize_name(&facts.name), facts.text_hash))
            .or_insert(i);
    }
    for (pi, facts) in pool.cards.iter().enumerate() {
        let which = own.get(&facts.reference).copied().or_else(|| {
            by_text
                .get(&(normalize_name(&facts.name), facts.text_hash))
                .copied()
        });
        let Some(i) = which else { continue };
        let enc = &encodings[i];
        let idx = db
            .by_ref(&facts.reference)
            .expect("db built from the same pool");
        debug_assert_eq!(db.card(idx).pool_index, Some(pi));
        let coverage = match &enc.missing {
            Some(m) => Coverage::Partial(m.clone()),
            None if facts.has_no_text() => Coverage::NoText,
            None => Coverage::Exact,
        };
        db.encode(idx, &enc.lines, coverage)
            .map_err(|e| CardError::Encoding {
                path: enc.file.clone(),
                line: enc.line_numbers.get(e.line - 1).copied().unwrap_or(0),
                reference: enc.reference.clone(),
                msg: format!("ability \"{}\": {}", e.source_line, e.err),
            })?;
    }
    mark_inexact_tokens(db);
    Ok(())
}

/// A card is only as exact as the tokens it creates: a card whose abilities create a pool
/// token that is not exactly encoded becomes partial, and says which token.
fn mark_inexact_tokens(db: &mut CardDb) {
    let mut demote = Vec::new();
    for idx in 0..db.cards.len() as CardIdx {
        if !db.card(idx).coverage.is_exact() {
            continue;
        }
        let token = db.abilities_of(idx).iter().find_map(|ab| {
            (0..ab.len).find_map(|pc| match db.op(ab, pc) {
                Op::Token { card, .. } | Op::LandmarkToken { card, .. }
                    if !db.card(card).coverage.is_exact() =>
                {
                    Some(card)
                }
                _ => None,
            })
        });
        if let Some(t) = token {
            let t = db.card(t);
            demote.push((
                idx,
                format!(
                    "creates the {} token ({}), which is not exactly encoded",
                    t.name, t.reference
                ),
            ));
        }
    }
    for (idx, why) in demote {
        db.cards[idx as usize].coverage = Coverage::Partial(why);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_entries_with_line_numbers() {
        let text = "# header\n[ALT_X]\nname = \"X\"\nabilities = [\n  \"J: draw\",\n  \"H: resupply\",\n]\n";
        let e = parse(text, Path::new("t.toml")).unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].lines, vec!["J: draw", "H: resupply"]);
        assert_eq!(e[0].line_numbers, vec![5, 6]);
    }

    #[test]
    fn a_card_is_partial_while_a_token_it_creates_is_not_exact() {
        let pool = CardPool::load(Path::new("decks/cards/pool.csv")).unwrap();
        let sol = "[ALT_CYCLONE_B_BR_65_C]\nabilities = [\"when pass_first: counters(me, 1); if counters >= 3 { token(Halua, companion) }\"]\n";
        let halua = "[ALT_CYCLONE_B_BR_83_C]\nabilities = [\"static keyword(gigantic) if hero_counters >= 5\"]\n";
        let coverage = |text: &str| {
            let mut db = CardDb::from_pool(&pool);
            apply(&mut db, &pool, &parse(text, Path::new("t.toml")).unwrap()).unwrap();
            db.card(db.by_ref("ALT_CYCLONE_B_BR_65_C").unwrap())
                .coverage
                .clone()
        };
        match coverage(sol) {
            Coverage::Partial(why) => assert!(why.contains("Halua token"), "{why}"),
            c => panic!("Sol & Halua without its token encoded: {c:?}"),
        }
        assert_eq!(coverage(&format!("{sol}{halua}")), Coverage::Exact);
    }

    #[test]
    fn rejects_unknown_fields_with_the_card() {
        let text = "[ALT_X]\nabilitys = []\n";
        let err = parse(text, Path::new("t.toml")).unwrap_err().to_string();
        assert!(err.contains("t.toml:2"), "{err}");
        assert!(err.contains("ALT_X"), "{err}");
        assert!(err.contains("abilitys"), "{err}");
    }
}
