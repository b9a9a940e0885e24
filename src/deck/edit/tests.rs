use std::path::Path;

use super::*;
use crate::cards::Library;

fn setup() -> (Library, ConfluenceDeck, Vec<PlayerDeck>) {
    let mut lib = Library::load(Path::new("decks/cards")).unwrap();
    let conf =
        ConfluenceDeck::load(Path::new("decks/confluence/reference.toml"), &mut lib.db).unwrap();
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
    // The rares are listed by name after the 55 slots' commons.
    let wisp = c1
        .rares
        .iter()
        .position(|&r| lib.db.card(r).name == "Gloom Wisp")
        .unwrap();
    assert_eq!(ch[0].0, c1.slots.len() + wisp, "Gloom Wisp's rare");
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
        |s: &str, n: usize, f: &dyn Fn(&crate::cards::db::CardDef, &crate::cards::db::CardDef)| {
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
    let (lib, c1, p1, c2, p2) = applied("Gloom Wisp: swap 1 Mire Crawler (rare)");
    let ch = changed(&c1, &p1, &c2, &p2);
    assert_eq!(ch.len(), 1);
    let crawler = c1
        .rares
        .iter()
        .find(|&&r| lib.db.card(r).name == "Mire Crawler")
        .copied();
    assert_eq!(Some(ch[0].2), crawler, "Mire Crawler's rare twin");
    // A common replaced by its rare twin, in the one slot the twin takes.
    let (lib, c1, p1, c2, p2) = applied("Gloom Wisp: rare");
    let ch = changed(&c1, &p1, &c2, &p2);
    assert_eq!(ch.len(), 1);
    let wisp = c1
        .rares
        .iter()
        .position(|&r| lib.db.card(r).name == "Gloom Wisp")
        .unwrap();
    let slot = c1
        .slots
        .iter()
        .position(|s| s.rare == Some(wisp as u8))
        .unwrap();
    assert_eq!(ch[0], (slot, c1.slots[slot].common, c1.rares[wisp]));
    for mix in [
        crate::deck::RareMix(0),
        crate::deck::RareMix::all(c1.rares.len()),
    ] {
        assert_eq!(
            c2.cards_for(mix),
            c1.cards_for(crate::deck::RareMix((1 << wisp) | mix.0))
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
