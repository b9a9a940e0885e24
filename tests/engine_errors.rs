//! A game in which more reactions trigger at once than the engine queues is an engine error:
//! the game's result says so, and a run's accumulator counts it and keeps the first game's
//! index whatever order its parts are merged in (D13; `rule_reaction_queue_overflow`).

use std::path::Path;

use confluence_sim::cards::Library;
use confluence_sim::engine::ChoiceList;
use confluence_sim::engine::event::NoObserver;
use confluence_sim::scenario::Scenario;
use confluence_sim::sim::game::finish_game;
use confluence_sim::stats::Accum;

#[test]
fn a_game_with_more_reactions_than_the_queue_is_counted_as_an_engine_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = Library::load(&root.join("decks/cards")).unwrap();
    let path = root.join("tests/scenarios/rule_reaction_queue_overflow.toml");
    let mut sc = Scenario::load(&path, &lib).unwrap();
    sc.run(&mut NoObserver).unwrap();
    assert!(sc.check().is_empty(), "{:?}", sc.check());
    // Play the rest of the game as a run would.
    let db = sc.db.clone();
    let mut buf = ChoiceList::new();
    let r = finish_game(
        &db,
        &mut sc.state,
        &mut sc.rng,
        &mut sc.policy,
        &mut sc.prng,
        &mut buf,
        &mut NoObserver,
    );
    assert!(r.engine_error, "{r:?}");
    // A run's parts (threads, units, shards) each count theirs; merged, they give the
    // count and the lowest failed game's index, in any order.
    let part = |game: u64| {
        let mut a = Accum::default();
        a.push(&r.tally(game));
        a
    };
    let clean = {
        let mut a = Accum::default();
        a.push(
            &confluence_sim::sim::GameResult {
                engine_error: false,
                ..r
            }
            .tally(3),
        );
        a
    };
    let one = part(41).merge(clean.clone()).merge(part(17));
    let two = part(17).merge(part(41)).merge(clean);
    assert_eq!(one, two);
    assert_eq!((one.games, one.engine_errors), (3, 2));
    assert_eq!(one.first_engine_error(), Some(17));
}
