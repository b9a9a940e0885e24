//! Blindness at a Free for All table: `expert` and `search` decide the same, whichever of
//! the four seats decides, when what that seat cannot see is rearranged (its own deck's
//! order; which of each other seat's unseen cards is where among that seat's deck, hand
//! and face-down Mana; the unrevealed Tumult cards). Two controls show the check can
//! fail: the search's choices depend on its sampling seed, and the `clairvoyant` bound,
//! which rolls out from the true state, is caught.

mod common;

use rand::SeedableRng;
use rand::seq::SliceRandom;

use confluence_sim::engine::event::NoObserver;
use confluence_sim::engine::ffa::{FfaState, FfaView, new_ffa};
use confluence_sim::engine::{ChoiceList, GameRng, legal_choices};
use confluence_sim::policy::{Policy, PolicyData, PolicyRng, PolicySpec};

struct Shared {
    s: common::Setup,
    data: PolicyData,
}

fn shared() -> &'static Shared {
    static S: std::sync::OnceLock<Shared> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        let s = common::setup();
        let data = PolicyData::new(&s.lib.db);
        Shared { s, data }
    })
}

/// A four-seat state of starter decks, reached by `steps` random decisions of every seat
/// and stopped at a decision (or `None` if the game ended first).
fn random_ffa_state(seed: u64, steps: u32) -> Option<FfaState> {
    let s = &shared().s;
    let db = &s.lib.db;
    let seats = [0, 1, 2, 3].map(|k| (seed as usize + k * 2) % 6);
    let f = s.pod(seats, seed);
    let mut streams: [GameRng; 4] =
        std::array::from_fn(|k| GameRng::seed_from_u64(seed * 16 + k as u64));
    let [a, b, c, d] = &mut streams;
    let mut rng = GameRng::seed_from_u64(seed * 16 + 7);
    let mut pick = PolicyRng::seed_from_u64(seed * 16 + 9);
    let g = new_ffa(db, &f, [a, b, c, d], &mut rng, &mut NoObserver);
    common::random_walk(g, db, &mut rng, &mut pick, steps)
}

/// The same four-seat game with what the deciding seat cannot see rearranged: every
/// deck's order, each other seat's unseen cards dealt anew among that seat's deck, hand
/// and Mana (a card never moves from one seat to another), the unrevealed Tumult cards.
fn permute_hidden_ffa(g: &FfaState, seed: u64) -> FfaState {
    let db = &shared().s.lib.db;
    let mut h = *g;
    let mut rng = GameRng::seed_from_u64(seed);
    let view = FfaView::new(g, db);
    let seen = |id| view.is_visible(id);
    for seat in 0..4 {
        common::shuffle_unseen(&mut h.sides.0[seat].deck, seen, &mut rng);
    }
    for seat in (0..4).filter(|&s| s != g.decider.index()) {
        let c = h.sides.0[seat];
        let mut ids: Vec<_> = c.deck.iter().filter(|&id| !seen(id)).collect();
        for list in [&c.hand, &c.mana] {
            ids.extend(list.iter().filter(|&id| !seen(id)));
        }
        let mut cards: Vec<_> = ids.iter().map(|&id| h.obj(id).card).collect();
        cards.shuffle(&mut rng);
        for (&id, card) in ids.iter().zip(cards) {
            h.obj_mut(id).card = card;
        }
    }
    common::shuffle_hidden_tumult(&mut h.adventure, &mut rng);
    h
}

/// The deciding seat's choice by `spec`, the other seats played in a search's rollouts by
/// `planner`, `expert` and `greedy` (clockwise from seat 0, skipping the decider).
fn choose_ffa(spec: &str, g: &FfaState, seed: u64) -> (usize, ChoiceList) {
    let sh = shared();
    let db = &sh.s.lib.db;
    let spec: PolicySpec = spec.parse().unwrap();
    let others: Vec<PolicySpec> = ["planner", "expert", "greedy", "planner"]
        .iter()
        .map(|p| p.parse().unwrap())
        .collect();
    let seat = g.decider.index();
    let table: [&PolicySpec; 4] =
        std::array::from_fn(|t| if t == seat { &spec } else { &others[t] });
    let mut pol = spec.build_ffa_at(&sh.data, seat, table).unwrap();
    let mut buf = ChoiceList::new();
    legal_choices(g, db, &mut buf);
    let k = pol.choose(
        &FfaView::new(g, db),
        &buf,
        &mut PolicyRng::seed_from_u64(seed),
    );
    (k, buf)
}

#[test]
fn search_and_expert_are_blind_to_hidden_information_at_four_seats() {
    let db = &shared().s.lib.db;
    let mut states = Vec::new();
    for seed in 0..400u64 {
        let Some(g) = random_ffa_state(seed, (seed % 70) as u32) else {
            continue;
        };
        let mut buf = ChoiceList::new();
        legal_choices(&g, db, &mut buf);
        if buf.len() >= 3 {
            states.push((seed, g));
        }
        if states.len() >= 24 {
            break;
        }
    }
    assert!(states.len() >= 20, "only {} states sampled", states.len());
    common::Blindness {
        states: &states,
        seats: 4,
        decider: &|g: &FfaState| g.decider.index(),
        permute: &permute_hidden_ffa,
        perms: 2,
        choose: &choose_ffa,
        where_: "at four seats",
    }
    .assert(
        &[
            "expert",
            "search:rollouts=2,width=3",
            "search:rollouts=2,width=3,expert=0",
        ],
        "search:rollouts=2,width=3",
        "clairvoyant:rollouts=2,width=3",
    );
}

/// The search's rollouts play each other seat by that seat's policy: with every other
/// seat played by `random` instead of `planner` (the same sampling seed), some decision
/// changes.
#[test]
fn the_search_plays_the_other_seats_by_their_policies() {
    let sh = shared();
    let db = &sh.s.lib.db;
    let choose_against = |others: &str, g: &FfaState, seed: u64| {
        let spec: PolicySpec = "search:rollouts=4,width=3".parse().unwrap();
        let other: PolicySpec = others.parse().unwrap();
        let seat = g.decider.index();
        let table: [&PolicySpec; 4] =
            std::array::from_fn(|t| if t == seat { &spec } else { &other });
        let mut pol = spec.build_ffa_at(&sh.data, seat, table).unwrap();
        let mut buf = ChoiceList::new();
        legal_choices(g, db, &mut buf);
        pol.choose(
            &FfaView::new(g, db),
            &buf,
            &mut PolicyRng::seed_from_u64(seed),
        )
    };
    let mut states = 0;
    let mut changed = 0;
    for seed in 0..200u64 {
        let Some(g) = random_ffa_state(seed, (seed % 70) as u32) else {
            continue;
        };
        let mut buf = ChoiceList::new();
        legal_choices(&g, db, &mut buf);
        if buf.len() < 3 {
            continue;
        }
        states += 1;
        changed +=
            (choose_against("planner", &g, seed) != choose_against("random", &g, seed)) as usize;
        if states >= 16 {
            break;
        }
    }
    assert!(states >= 12, "only {states} states sampled");
    assert!(
        changed > 0,
        "the search decided alike against random and planner opponents in all {states} states"
    );
    eprintln!("{changed} of {states} decisions changed with the opponents' policies");
}
