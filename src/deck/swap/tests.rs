use std::path::Path;

use super::*;
use crate::cards::Library;

fn lib() -> Library {
    Library::load(Path::new("decks/cards")).unwrap()
}

fn starter(lib: &Library, file: &str) -> PlayerDeck {
    PlayerDeck::load(&Path::new("decks/player").join(file), &lib.pool, &lib.db).unwrap()
}

const STARTERS: [&str; 6] = [
    "AX_sierra_oddball.txt",
    "BR_kojo_booda.txt",
    "LY_nevenka_blotch.txt",
    "MU_teija_nauraa.txt",
    "OR_sigismar_wingspan.txt",
    "YZ_akesha_taru.txt",
];

fn sets(s: &[&str]) -> Vec<String> {
    s.iter().map(|x| x.to_string()).collect()
}

#[test]
fn a_pool_of_sets_offers_the_decks_cards_then_exact_cards_of_its_faction_once_each() {
    let lib = lib();
    let deck = starter(&lib, "LY_nevenka_blotch.txt");
    let p = pool_of_sets(&sets(&["CORE", "COREKS"]), &deck, &lib.pool, &lib.db).unwrap();
    let hero = lib.db.card(deck.hero);
    let mut distinct: Vec<CardIdx> = deck.cards.clone();
    distinct.sort_unstable();
    distinct.dedup();
    // The deck's own printings first, each offered with at least the copies it holds.
    for (o, c) in p.offers.iter().zip(
        deck.cards
            .iter()
            .enumerate()
            .filter(|(i, c)| !deck.cards[..*i].contains(c))
            .map(|(_, c)| *c),
    ) {
        assert_eq!(o.card, c);
    }
    for o in &p.offers {
        let c = lib.db.card(o.card);
        assert_eq!(c.faction, hero.faction, "{}", c.name);
        assert!(c.coverage.is_exact(), "{}", c.name);
        assert!(!matches!(c.kind, CardKind::Hero | CardKind::Token));
        assert!(c.set == "CORE" || c.set == "COREKS");
    }
    // A kickstarter reprint is the same card: one offer.
    for (i, a) in p.offers.iter().enumerate() {
        for b in &p.offers[i + 1..] {
            assert!(
                !same_card(&lib.db, &lib.pool, a.card, b.card),
                "{} offered twice",
                lib.db.card(a.card).reference
            );
        }
    }
    let core = pool_of_sets(&sets(&["CORE"]), &deck, &lib.pool, &lib.db).unwrap();
    assert_eq!(
        core.offers.len(),
        p.offers.len(),
        "COREKS reprints CORE: it adds no card"
    );
    assert!(core.offers.len() > distinct.len(), "the set adds cards");
}

#[test]
fn an_unknown_set_is_refused_with_the_known_ones() {
    let lib = lib();
    let deck = starter(&lib, "LY_nevenka_blotch.txt");
    let e = pool_of_sets(&sets(&["CROE"]), &deck, &lib.pool, &lib.db).unwrap_err();
    assert!(
        e.contains("unknown set 'CROE'") && e.contains("CORE"),
        "{e}"
    );
}

/// A small deterministic stream for the walks (no dependency on a generator's version).
fn next(x: &mut u64) -> usize {
    *x = x
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (*x >> 33) as usize
}

/// Random walks of legal swaps from every starter deck: each deck reached keeps the rules
/// that `run` enforces, and reads back from its text as the same cards.
#[test]
fn every_deck_a_walk_of_legal_swaps_reaches_is_legal_and_reads_back() {
    let lib = lib();
    for file in STARTERS {
        let deck = starter(&lib, file);
        let p = pool_of_sets(&sets(&["CORE", "BISE"]), &deck, &lib.pool, &lib.db).unwrap();
        for seed in 0..3u64 {
            let mut x = seed ^ 0x5eed;
            let mut cards = deck.cards.clone();
            for step in 0..5 {
                let s = legal_swaps(deck.hero, &cards, &p, &lib.db);
                assert!(!s.is_empty(), "{file}: no legal swap at step {step}");
                let pick = s[next(&mut x) % s.len()];
                assert_eq!(cards[pick.slot], pick.out);
                cards = pick.apply(&cards);
                let text = deck_text(deck.hero, &cards, &lib.db, &["walk".into()]);
                let back = PlayerDeck::parse(&text, Path::new("walk.txt"), &lib.pool, &lib.db)
                    .unwrap_or_else(|e| panic!("{file}: {e}\n{text}"));
                let v = back.violations(&lib.db);
                assert!(v.is_empty(), "{file}, seed {seed}: {v:?}\n{text}");
                let (mut a, mut b) = (cards.clone(), back.cards.clone());
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "{file}: the text holds the deck's cards");
                assert_eq!(back.hero, deck.hero);
            }
        }
    }
}

#[test]
fn a_collection_limits_the_copies_and_its_errors_name_the_line() {
    let lib = lib();
    let deck = starter(&lib, "LY_nevenka_blotch.txt");
    // One copy of a common the deck does not hold, two of another.
    let text = "# my cards\n1 ALT_CORE_B_LY_10_C\n2 ALT_CORE_B_LY_12_C\n1 Sierra & Oddball\n";
    let owned = read_collection(text, Path::new("c.txt"), &lib.pool, &lib.db).unwrap();
    let p = pool_of_collection(&owned, &deck, &lib.pool, &lib.db);
    let one = lib.db.by_ref("ALT_CORE_B_LY_10_C").unwrap();
    assert!(p.offers.iter().any(|o| o.card == one && o.copies == 1));
    // The other faction's hero is ignored.
    assert!(
        p.offers
            .iter()
            .all(|o| lib.db.card(o.card).kind != CardKind::Hero)
    );
    let mut cards = deck.cards.clone();
    for _ in 0..3 {
        let s = legal_swaps(deck.hero, &cards, &p, &lib.db);
        if let Some(w) = s.iter().find(|w| w.card_in == one) {
            cards = w.apply(&cards);
        }
    }
    assert_eq!(
        cards.iter().filter(|&&c| c == one).count(),
        1,
        "one copy owned, one copy in the deck"
    );
    let err = |t: &str| {
        read_collection(t, Path::new("c.txt"), &lib.pool, &lib.db)
            .unwrap_err()
            .to_string()
    };
    assert!(err("1 Kappa\nx Kappa\n").contains("c.txt:2: 'x' is not a card count"));
    assert!(err("1 ALT_CORE_B_LY_99_C\n").contains("c.txt:1: unknown card reference"));
    assert!(err("0 Kappa\n").contains("c.txt:1: count 0 is out of range"));
    assert!(err("# nothing\n").contains("no card"));
}

#[test]
fn the_deck_text_is_the_community_format() {
    let lib = lib();
    let deck = starter(&lib, "LY_nevenka_blotch.txt");
    let text = deck_text(deck.hero, &deck.cards, &lib.db, &["a header".into()]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "# a header");
    assert_eq!(lines[1], "1 ALT_CORE_B_LY_01_C  # Nevenka & Blotch");
    assert!(lines.contains(&"3 ALT_CORE_B_LY_25_C  # All In!"));
    assert!(lines.contains(&"1 ALT_CORE_B_LY_20_R1  # Asmodeus"));
    let total: usize = lines[1..]
        .iter()
        .map(|l| l.split(' ').next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(total, 40);
}
