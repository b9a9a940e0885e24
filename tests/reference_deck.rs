//! The reference Confluence deck's header says which of its cards are Persistent; the
//! header is what a reader trusts, so it must agree with the cards it describes.

use std::collections::BTreeSet;

mod common;
use common::root;

/// The names listed on the header line that starts with `prefix`.
fn header_list(text: &str, prefix: &str) -> BTreeSet<String> {
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("the header has a line `{prefix}`"));
    line.trim_end_matches('.')
        .split(',')
        .map(|n| n.trim().to_string())
        .collect()
}

#[test]
fn the_header_lists_the_persistent_cards_of_the_reference_deck() {
    let text = std::fs::read_to_string(root().join("decks/confluence/reference.toml")).unwrap();
    let deck: toml::Table = toml::from_str(&text).unwrap();
    let mut persistent = [BTreeSet::new(), BTreeSet::new()];
    for card in deck["card"].as_array().unwrap() {
        let keywords = card.get("keywords").and_then(|k| k.as_array());
        let is_persistent =
            keywords.is_some_and(|ks| ks.iter().any(|k| k.as_str() == Some("persistent")));
        if is_persistent {
            let rare = card.get("rarity").and_then(|r| r.as_str()) == Some("rare");
            let name = card["name"].as_str().unwrap().to_string();
            persistent[rare as usize].insert(name);
        }
    }
    assert_eq!(
        header_list(&text, "# Persistent commons: "),
        persistent[0],
        "Persistent commons"
    );
    assert_eq!(
        header_list(&text, "# Persistent rares: "),
        persistent[1],
        "Persistent rares"
    );
}
