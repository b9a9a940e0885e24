//! Entry points for the parser fuzz targets (`fuzz/`, run by `scripts/fuzz.sh`) and for
//! their short property-test versions (`tests/fuzz_smoke.rs`): each takes arbitrary bytes
//! as the text of one input file and parses it the way the command-line tool does. None
//! may panic, hang or grow memory without bound; a bad input returns its error message,
//! which names the file.
//!
//! The card library is loaded once from this repository's `decks/cards`.
//!
//! Layer: may use `cards`, `deck`, `job`, `scenario` and nothing else of the crate.

use std::path::Path;
use std::sync::OnceLock;

use crate::cards::types::CardKind;
use crate::cards::{CardDb, CardDef, Coverage, Library};
use crate::deck::{ConfluenceDeck, PlayerDeck};

/// The file name the inputs are parsed under (errors must name it).
pub const FILE: &str = "fuzz-input";

/// The card library of this repository (loaded on first use).
pub fn library() -> &'static Library {
    static LIB: OnceLock<Library> = OnceLock::new();
    LIB.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("decks/cards");
        Library::load(&dir).expect("the repository's card library loads")
    })
}

/// A small arena for the effect language: the pool's tokens (abilities create them by
/// name) and one host card, so that each input starts from a fresh, cheap copy.
fn effect_base() -> &'static (CardDb, u16) {
    static BASE: OnceLock<(CardDb, u16)> = OnceLock::new();
    BASE.get_or_init(|| {
        let lib = library();
        let mut db = CardDb::new();
        for (i, f) in lib.pool.cards.iter().enumerate() {
            if matches!(
                f.kind,
                CardKind::Token | CardKind::LandmarkToken | CardKind::OtherToken
            ) {
                db.add_pool_card(f, i);
            }
        }
        let host = CardDef::hero(
            "FUZZ:host".into(),
            "Fuzz Host".into(),
            "FUZZ",
            crate::cards::types::Faction::Confluence,
            2,
            2,
        );
        let idx = db.push_card(host);
        (db, idx)
    })
}

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// A player deck (`decks/player/*.txt`): parsing, then the deck-building rules.
pub fn player_deck(data: &[u8]) -> Result<(), String> {
    let Some(text) = text(data) else {
        return Ok(());
    };
    let lib = library();
    let deck =
        PlayerDeck::parse(text, Path::new(FILE), &lib.pool, &lib.db).map_err(|e| e.to_string())?;
    match deck.violations(&lib.db).first() {
        Some(v) => Err(v.to_string()),
        None => Ok(()),
    }
}

/// A Confluence deck (`decks/confluence/*.toml`), cards and abilities included.
pub fn confluence_deck(data: &[u8]) -> Result<(), String> {
    let Some(text) = text(data) else {
        return Ok(());
    };
    let mut db = library().db.clone();
    ConfluenceDeck::parse(text, Path::new(FILE), &mut db)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// An experiment file (`decks/experiments/*.toml`), as far as it is checked before its
/// decks are loaded.
pub fn experiment(data: &[u8]) -> Result<(), String> {
    let Some(text) = text(data) else {
        return Ok(());
    };
    crate::job::experiment::parse(text, Path::new(FILE))
        .map(|_| ())
        .map_err(|e| crate::job::error::message(&e))
}

/// A scenario file (`tests/scenarios/*.toml`): the position is built, not played. A
/// `confluence_deck` key names a file relative to a directory that does not exist.
pub fn scenario(data: &[u8]) -> Result<(), String> {
    let Some(text) = text(data) else {
        return Ok(());
    };
    crate::scenario::Scenario::parse(text, Path::new(FILE), library())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Lines of the effect language (`decks/cards/EFFECTS.md`), compiled onto one card.
pub fn effect_lines(data: &[u8]) -> Result<(), String> {
    let Some(text) = text(data) else {
        return Ok(());
    };
    let (base, host) = effect_base();
    let mut db = base.clone();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    db.encode(*host, &lines, Coverage::Exact)
        .map_err(|e| format!("{FILE}:{}: {}", e.line, e.err))
}
