//! The grid of single edits that `sensitivity` plays.

use super::*;

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
