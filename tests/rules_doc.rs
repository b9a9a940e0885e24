//! RULES.md cites a scenario for every rule: each cited scenario must exist (and so run in
//! tests/scenarios.rs), and every rule scenario must be cited.

use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn rules_md_cites_existing_scenarios_and_every_rule_scenario() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("RULES.md")).unwrap();
    let cited: BTreeSet<String> = text
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| {
            (w.starts_with("rule_") || w.starts_with("effect_") || w.starts_with("card_"))
                && !w.contains('*')
        })
        .map(str::to_string)
        .collect();
    assert!(
        cited.len() > 50,
        "RULES.md cites only {} scenarios",
        cited.len()
    );
    let missing: Vec<&String> = cited
        .iter()
        .filter(|c| {
            !root
                .join("tests/scenarios")
                .join(format!("{c}.toml"))
                .exists()
        })
        .collect();
    assert!(
        missing.is_empty(),
        "RULES.md cites scenarios that do not exist: {missing:?}"
    );
    let uncited: Vec<String> = std::fs::read_dir(root.join("tests/scenarios"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| {
            e.file_name()
                .to_string_lossy()
                .trim_end_matches(".toml")
                .to_string()
        })
        .filter(|n| n.starts_with("rule_") && !cited.contains(n))
        .collect();
    assert!(
        uncited.is_empty(),
        "rule scenarios not cited in RULES.md: {uncited:?}"
    );
}

/// Every starter-deck card with an ability is exercised by a scenario that names it (by
/// reference or English name) and asserts its effect.
#[test]
fn every_starter_card_with_an_ability_has_a_scenario() {
    use confluence_sim::cards::{Coverage, Library};
    use confluence_sim::deck::PlayerDeck;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = Library::load(&root.join("decks/cards")).unwrap();
    let mut text = String::new();
    for e in std::fs::read_dir(root.join("tests/scenarios")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml") {
            let t = std::fs::read_to_string(&p).unwrap();
            if t.contains("[expect]") {
                text.push_str(&t);
            }
        }
    }
    let mut missing = BTreeSet::new();
    for e in std::fs::read_dir(root.join("decks/player")).unwrap() {
        let deck = PlayerDeck::load(&e.unwrap().path(), &lib.pool, &lib.db).unwrap();
        for c in std::iter::once(deck.hero).chain(deck.cards.iter().copied()) {
            let def = lib.db.card(c);
            if def.coverage == Coverage::NoText {
                continue;
            }
            if !text.contains(&def.reference) && !text.contains(&format!("\"{}\"", def.name)) {
                missing.insert(format!("{} ({})", def.name, def.reference));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "starter cards without a scenario: {missing:?}"
    );
}
