//! Verified cards stay verified: `decks/cards/verified.txt` lists every card version whose
//! encoding the independent text reader (`cards::textread`) finds equal to its English text
//! (read at run time from `../shared/data/altered-cards.jsonl`; skipped when absent). An
//! edit that changes what a listed card's encoding means makes it fail; so does a change of
//! the effect language that changes what a listed encoding compiles to.
//!
//! `UPDATE_VERIFIED=1 cargo test --test verified` rewrites the list from the current
//! verdicts (review the diff: a card leaving the list is a change of meaning or a reader
//! change).

use std::path::Path;

use confluence_sim::cards::effect::{Amount, Filter, Op, PlayFrom, Trigger, Whose};
use confluence_sim::cards::textread::{self, Ctx, Texts, Verdict};
use confluence_sim::cards::types::CardKind;
use confluence_sim::cards::{CardDb, Library};

const LIST: &str = "decks/cards/verified.txt";

fn setup() -> Option<(Library, Texts)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cards = root.join("decks/cards");
    let texts = Texts::load(&textread::default_texts_path(&cards)).expect("a readable card file");
    let Some(texts) = texts else {
        eprintln!("skipped: the card texts are absent");
        return None;
    };
    Some((Library::load(&cards).expect("library"), texts))
}

fn listed() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(root.join(LIST))
        .expect("the verified list")
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn every_listed_card_still_verifies() {
    let Some((lib, texts)) = setup() else { return };
    let ctx = Ctx::new(&lib.db);
    let verified: Vec<&str> = lib
        .db
        .cards
        .iter()
        // The cards `cards coverage` counts: mana and landmark tokens (Aerolith) cannot
        // appear in a game and are left out of the list as of the coverage figures.
        .filter(|d| {
            d.pool_index.is_some()
                && !matches!(d.kind, CardKind::OtherToken | CardKind::LandmarkToken)
        })
        .filter(|d| textread::verdict(&ctx, d, &texts) == Verdict::Verified)
        .map(|d| d.reference.as_str())
        .collect();
    if std::env::var_os("UPDATE_VERIFIED").is_some() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut text = String::from(
            "# Card versions the text reader verifies (tests/verified.rs); regenerate with\n# UPDATE_VERIFIED=1 cargo test --test verified, and review the diff.\n",
        );
        for r in &verified {
            text.push_str(r);
            text.push('\n');
        }
        std::fs::write(root.join(LIST), text).unwrap();
        return;
    }
    let list = listed();
    assert!(
        list.len() >= 500,
        "only {} verified cards listed",
        list.len()
    );
    let mut lost = Vec::new();
    for r in &list {
        let idx = lib
            .db
            .by_ref(r)
            .unwrap_or_else(|| panic!("{LIST}: unknown reference {r}"));
        let def = lib.db.card(idx);
        assert!(
            !matches!(def.kind, CardKind::OtherToken | CardKind::LandmarkToken),
            "{LIST}: {r} is a token `cards coverage` does not count"
        );
        let v = textread::verdict(&ctx, def, &texts);
        if v != Verdict::Verified {
            lost.push(format!("{r}: {v:?}"));
        }
    }
    assert!(
        lost.is_empty(),
        "{} listed cards no longer verify (their encoding changed meaning, or the reader did):\n{}",
        lost.len(),
        lost.join("\n")
    );
    let new = verified.len() - (list.len() - lost.len());
    if new > 0 {
        eprintln!("{new} more cards verify than the list holds: UPDATE_VERIFIED=1 to add them");
    }
}

/// One change of meaning made to a compiled ability.
#[derive(Debug)]
enum Mutation {
    /// An amount one more.
    Amount(usize),
    /// A chosen target's side flipped (any → yours, yours → opposing, opposing → yours).
    Side(usize),
    /// A "may" dropped: the body is always done.
    DropMay(usize),
    /// {H} ↔ {R}, {J} → {H}.
    Trigger(usize),
}

fn bumped(a: Amount) -> Option<Amount> {
    match a {
        Amount::Const(n) => Some(Amount::Const(n + 1)),
        _ => None,
    }
}

/// Puts the db back as it was before a mutation.
type Undo = Box<dyn FnOnce(&mut CardDb)>;

/// Applies a mutation to the db; returns how to undo it, or `None` when the mutation does not
/// apply to that op.
fn mutate(db: &mut CardDb, m: &Mutation) -> Option<Undo> {
    match *m {
        Mutation::Amount(i) => {
            let old = db.ops[i];
            let new = match old {
                Op::Boost { obj, n, max } => Op::Boost {
                    obj,
                    n: bumped(n)?,
                    max,
                },
                Op::Counters { obj, n, max } => Op::Counters {
                    obj,
                    n: bumped(n)?,
                    max,
                },
                Op::Draw { who, n } => Op::Draw { who, n: bumped(n)? },
                Op::Token {
                    card,
                    at,
                    n,
                    opposing,
                    after_rest,
                } => Op::Token {
                    card,
                    at,
                    n: n + 1,
                    opposing,
                    after_rest,
                },
                Op::Discount {
                    filter,
                    n,
                    min,
                    afternoon,
                } => Op::Discount {
                    filter,
                    n: n + 1,
                    min,
                    afternoon,
                },
                _ => return None,
            };
            db.ops[i] = new;
            Some(Box::new(move |db| db.ops[i] = old))
        }
        Mutation::Side(i) => {
            let old = db.ops[i];
            let Op::Select {
                filter,
                min,
                max,
                total_cost,
                total_of,
                by_opponent,
            } = old
            else {
                return None;
            };
            let f: Filter = db.filters[filter as usize];
            let whose = match f.whose {
                Whose::Any => Whose::Yours,
                Whose::Yours => Whose::Opposing,
                Whose::Opposing => Whose::Yours,
            };
            db.filters.push(Filter { whose, ..f });
            db.ops[i] = Op::Select {
                filter: (db.filters.len() - 1) as u16,
                min,
                max,
                total_cost,
                total_of,
                by_opponent,
            };
            Some(Box::new(move |db| {
                db.ops[i] = old;
                db.filters.pop();
            }))
        }
        Mutation::DropMay(i) => {
            let old = db.ops[i];
            let Op::May { skip } = old else { return None };
            // "if true { ... }": always done.
            db.ops[i] = Op::JumpUnless { cond: 0, to: skip };
            Some(Box::new(move |db| db.ops[i] = old))
        }
        Mutation::Trigger(a) => {
            let old = db.abilities[a].trigger;
            let new = match old {
                Trigger::Played(PlayFrom::Hand) => Trigger::Played(PlayFrom::Reserve),
                Trigger::Played(PlayFrom::Reserve) => Trigger::Played(PlayFrom::Hand),
                Trigger::Played(PlayFrom::Any) => Trigger::Played(PlayFrom::Hand),
                _ => return None,
            };
            db.abilities[a].trigger = new;
            Some(Box::new(move |db| db.abilities[a].trigger = old))
        }
    }
}

#[test]
fn a_change_of_meaning_in_a_verified_card_is_caught() {
    let Some((lib, texts)) = setup() else { return };
    let mut db = lib.db.clone();
    let list = listed();
    let mut tried = [0usize; 4];
    let mut missed = Vec::new();
    for r in &list {
        let idx = db.by_ref(r).expect("a listed card");
        let def = db.card(idx).clone();
        let mut muts = Vec::new();
        for a in def.ab_start as usize..(def.ab_start + def.ab_len) as usize {
            muts.push(Mutation::Trigger(a));
            let ab = db.abilities[a];
            for pc in ab.start as usize..(ab.start + ab.len) as usize {
                muts.extend([
                    Mutation::Amount(pc),
                    Mutation::Side(pc),
                    Mutation::DropMay(pc),
                ]);
            }
        }
        for m in muts {
            let Some(undo) = mutate(&mut db, &m) else {
                continue;
            };
            let kind = match m {
                Mutation::Amount(_) => 0,
                Mutation::Side(_) => 1,
                Mutation::DropMay(_) => 2,
                Mutation::Trigger(_) => 3,
            };
            tried[kind] += 1;
            let v = {
                let ctx = Ctx::new(&db);
                textread::verdict(&ctx, &def, &texts)
            };
            if v == Verdict::Verified {
                missed.push(format!("{r} {}: {m:?}", def.name));
            }
            undo(&mut db);
        }
    }
    assert!(
        missed.is_empty(),
        "changes of meaning the comparison did not catch:\n{}",
        missed.join("\n")
    );
    // Each kind of change was tried on many verified cards.
    assert!(
        tried.iter().all(|&n| n >= 20),
        "too few mutations tried: {tried:?}"
    );
}

#[test]
fn every_reviewed_exception_is_a_real_disagreement() {
    let Some((lib, texts)) = setup() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ex = textread::Exceptions::load(&root.join("decks/cards/reader_exceptions.toml"))
        .expect("a readable exceptions file");
    assert!(!ex.reasons.is_empty());
    let ctx = Ctx::new(&lib.db);
    for (r, why) in &ex.reasons {
        let idx = lib
            .db
            .by_ref(r)
            .unwrap_or_else(|| panic!("reader_exceptions.toml: unknown reference {r}"));
        assert!(!why.trim().is_empty(), "{r}: no reason");
        match textread::verdict(&ctx, lib.db.card(idx), &texts) {
            Verdict::Declared(d) if d.starts_with("disagree") => {}
            v => panic!("{r} is listed as a reviewed disagreement but is {v:?}: remove the entry"),
        }
    }
}
