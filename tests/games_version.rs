//! `sim::GAMES_VERSION` moves with the games. A fingerprint of 720 games (the six starters
//! against the reference Confluence deck at no rare and all rares, `greedy` and `random`,
//! 30 games each: every card's move, in order, and each game's ending) is pinned beside
//! the version: a change that plays other games fails here
//! until the version is bumped (and the fingerprint with it), so that `compare --reuse`
//! refuses the games of the version before, and the committed outputs get regenerated
//! (docs/examples.md). Those 720 games play few of the pool's cards, so a hash of every
//! card's encoding lines and printed facts is pinned beside them: a card's new encoding
//! changes the games of every deck that holds it (a training deck, a community deck a
//! committed report plays, a user's deck whose games `--reuse` would take), whether or not
//! the starters' games show it.

use confluence_sim::deck::RareMix;
use confluence_sim::engine::ChoiceList;
use confluence_sim::engine::event::{Event, Observer};
use confluence_sim::engine::state::GameState;
use confluence_sim::policy::{PolicyData, PolicySpec};
use confluence_sim::sim::{GAMES_VERSION, GameSeeds, play_game};

mod common;

/// The version, the fingerprint of its games and the hash of the cards' encodings.
const PINNED: (u32, u64, u64) = (3, 0xf4d3_8992_7c70_ffc8, 0xa1bb_8b35_73d8_c93b);

/// FNV-1a over every card's move (object, side, zones and why), in order.
struct Moves(u64);

impl Moves {
    fn mix_in(&mut self, x: u64) {
        for b in x.to_le_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl Observer for Moves {
    const ENABLED: bool = true;
    fn event(&mut self, _: &GameState, ev: &Event<'_>) {
        if let Event::Moved {
            obj,
            side,
            from,
            to,
            why,
        } = ev
        {
            let why = *why as u64;
            self.mix_in(
                u64::from(*obj)
                    | u64::from(side.seat()) << 8
                    | (*from as u64) << 16
                    | (*to as u64) << 24
                    | why << 32,
            );
        }
    }
}

fn fingerprint() -> u64 {
    let s = common::setup();
    let data = PolicyData::new(&s.lib.db);
    let mut h = Moves(0xcbf2_9ce4_8422_2325);
    for deck in &s.decks {
        for mix in [RareMix(0), RareMix::all(s.confluence.rares.len())] {
            let conf = s.confluence.cards_for(mix);
            let m = common::matchup(deck, &s, &conf);
            for policy in ["greedy", "random"] {
                let spec: PolicySpec = policy.parse().unwrap();
                let mut pol = spec.build(&data);
                let mut buf = ChoiceList::new();
                for i in 0..30 {
                    let r = play_game(
                        &s.lib.db,
                        &m,
                        &GameSeeds::new(7, i),
                        &mut pol,
                        &mut buf,
                        &mut h,
                    );
                    h.mix_in(r.outcome as u64);
                    h.mix_in(u64::from(r.days));
                    h.mix_in(u64::from(r.plays[0]) << 16 | u64::from(r.plays[1]));
                }
            }
        }
    }
    h.0
}

/// FNV-1a over every compiled card (the pool's, the tokens', the Confluence's), in order of
/// reference: its encoding lines and the facts the engine reads. Not the compiled ops:
/// their arena indices move when any other card's encoding does.
fn encodings() -> u64 {
    let s = common::setup();
    let mut cards: Vec<_> = s.lib.db.cards.iter().collect();
    cards.sort_by(|a, b| a.reference.cmp(&b.reference));
    let mut h = Moves(0xcbf2_9ce4_8422_2325);
    for c in cards {
        let text = format!(
            "{}|{:?}|{:?}|{:?}|{}|{}|{}|{:?}|{}|{}|{}|{:?}|{:?}|{}|{}|{}|{}",
            c.reference,
            c.lines,
            c.faction,
            c.kind,
            c.subtypes,
            c.hand_cost,
            c.reserve_cost,
            c.stats,
            c.keywords,
            c.tough,
            c.scout,
            c.placement,
            c.midnight,
            c.reserve_limit,
            c.landmark_limit,
            c.also_kinds,
            c.coverage.class(),
        );
        for b in text.bytes() {
            h.mix_in(u64::from(b));
        }
    }
    h.0
}

#[test]
fn the_games_version_moves_with_the_games() {
    let now = (GAMES_VERSION, fingerprint(), encodings());
    assert_eq!(
        now, PINNED,
        "the games changed, a card's encoding or facts did, or the version did: bump \
         sim::GAMES_VERSION, pin the new fingerprint and hash here, and regenerate the \
         committed outputs (docs/examples.md)"
    );
}
