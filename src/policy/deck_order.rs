//! Building the technical variant's deck in Booster War (seed 003): each player stacks the
//! cards of its booster in the order it chooses. The policy's heuristic, documented in
//! docs/head-to-head.md ("Booster War"):
//!
//! - `random` stacks them at random;
//! - every other policy puts the most expensive cards on top (ties: more statistics, then
//!   pool order). Mana is unlimited, so a card's Hand Cost is the price of power that the
//!   player gets for nothing: the 6 cards of the opening hand are the 6 strongest, the
//!   next 3 come on day 2 and the last 3 on day 3.
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

use rand::seq::SliceRandom;

use super::{PolicyKind, PolicyRng};
use crate::cards::db::CardDb;
use crate::cards::effect::CardIdx;

/// Orders `cards` (first = top of the deck) as a player of `kind` stacks its booster.
pub fn order_booster_deck(
    db: &CardDb,
    kind: PolicyKind,
    cards: &mut [CardIdx],
    rng: &mut PolicyRng,
) {
    if kind == PolicyKind::Random {
        cards.shuffle(rng);
        return;
    }
    cards.sort_by_key(|&c| {
        let d = db.card(c);
        (
            std::cmp::Reverse(d.hand_cost),
            std::cmp::Reverse(d.stats.sum()),
            c,
        )
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::types::Stats;
    use rand::SeedableRng;

    #[test]
    fn the_most_expensive_cards_go_on_top() {
        let mut db = CardDb::new();
        let mut add = |cost: u8, stats: Stats| {
            let mut d = crate::cards::db::CardDef::hero(
                format!("T{cost}"),
                String::new(),
                "TEST",
                crate::cards::types::Faction::Neutral,
                2,
                2,
            );
            d.hand_cost = cost;
            d.stats = stats;
            db.push_card(d)
        };
        let small = add(1, Stats { f: 1, m: 1, o: 1 });
        let big = add(5, Stats { f: 3, m: 3, o: 3 });
        let mid_weak = add(3, Stats { f: 0, m: 1, o: 0 });
        let mid_strong = add(3, Stats { f: 2, m: 2, o: 2 });
        let mut cards = vec![small, mid_weak, big, mid_strong];
        let mut rng = PolicyRng::seed_from_u64(1);
        order_booster_deck(&db, PolicyKind::Planner, &mut cards, &mut rng);
        assert_eq!(cards, vec![big, mid_strong, mid_weak, small]);
        // The random player's order depends on its stream only.
        let mut a = cards.clone();
        let mut b = cards.clone();
        order_booster_deck(
            &db,
            PolicyKind::Random,
            &mut a,
            &mut PolicyRng::seed_from_u64(9),
        );
        order_booster_deck(
            &db,
            PolicyKind::Random,
            &mut b,
            &mut PolicyRng::seed_from_u64(9),
        );
        assert_eq!(a, b);
    }
}
