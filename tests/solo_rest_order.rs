//! RULES.md F8 in the Confluence mode: at Rest the two sides' cards leave their expeditions
//! together and take their new timestamps side by side in initiative order, the first
//! player's first: the Confluence's on the days it is first player (the Hero expedition
//! Threatened), the player's on the others. Before the canonical deck order (issue 48)
//! regenerated every solo figure, the player's cards always went first.

use rand::{RngExt, SeedableRng};

use confluence_sim::cards::types::Side;
use confluence_sim::deck::RareMix;
use confluence_sim::engine::event::{Event, Observer, Why};
use confluence_sim::engine::setup::{SetupStreams, new_game};
use confluence_sim::engine::state::{GameState, Zone};
use confluence_sim::engine::{ChoiceList, GameRng, Step, advance, apply_unchecked, legal_choices};
use confluence_sim::policy::PolicyRng;

mod common;

#[derive(Default)]
struct Checker {
    first: Option<Side>,
    /// The sides whose cards left an expedition at this Rest, in the order they moved.
    rested: Vec<Side>,
    /// Rests where both sides moved cards, by who was first player.
    shared: [u32; 2],
}

impl Checker {
    fn check_rest(&mut self) {
        let first = self.first.expect("a Rest after a Morning");
        let mut sides: Vec<Side> = Vec::new();
        for &s in &self.rested {
            if sides.last() != Some(&s) {
                assert!(
                    !sides.contains(&s),
                    "a side moved twice apart: {:?}",
                    self.rested
                );
                sides.push(s);
            }
        }
        if sides.len() == 2 {
            assert_eq!(sides[0], first, "first player {first:?}: {:?}", self.rested);
            self.shared[(first == Side::Confluence) as usize] += 1;
        }
        self.rested.clear();
    }
}

impl Observer for Checker {
    const ENABLED: bool = true;
    fn event(&mut self, s: &GameState, ev: &Event<'_>) {
        match ev {
            Event::Moved {
                side,
                from: Zone::Expedition,
                why: Why::Rest,
                ..
            } => self.rested.push(*side),
            _ if !self.rested.is_empty() => self.check_rest(),
            _ => {}
        }
        self.first = Some(s.first_player());
    }
}

#[test]
fn rest_goes_first_player_first_in_the_confluence_mode() {
    let s = common::setup();
    let db = &s.lib.db;
    let mut obs = Checker::default();
    for g in 0..60u64 {
        let deck = &s.decks[(g % 6) as usize];
        let conf = s.confluence.cards_for(RareMix(0));
        let m = common::matchup(deck, &s, &conf);
        let mut setup = GameRng::seed_from_u64(g * 4);
        let mut confluence = GameRng::seed_from_u64(g * 4 + 1);
        let mut rng = GameRng::seed_from_u64(g * 4 + 2);
        let mut pick = PolicyRng::seed_from_u64(g * 4 + 3);
        let mut st = new_game(
            db,
            &m,
            SetupStreams {
                setup: &mut setup,
                confluence: &mut confluence,
            },
            &mut rng,
            &mut obs,
        );
        let mut buf = ChoiceList::new();
        while let Step::Decide = advance(&mut st, db, &mut rng, &mut obs) {
            legal_choices(&st, db, &mut buf);
            let k = pick.random_range(0..buf.len());
            apply_unchecked(&mut st, db, &mut rng, &mut obs, buf[k]);
        }
    }
    // Both orders happen, so the check above has met both.
    assert!(obs.shared[0] > 10 && obs.shared[1] > 10, "{:?}", obs.shared);
}
