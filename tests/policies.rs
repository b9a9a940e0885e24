//! Policies: legal choices from many random states, determinism given their stream, and
//! the search policy's blindness to hidden information.

use proptest::prelude::*;
use rand::SeedableRng;

use confluence_sim::deck::RareMix;
use confluence_sim::engine::event::NoObserver;
use confluence_sim::engine::setup::{SetupStreams, new_game};
use confluence_sim::engine::state::flag;
use confluence_sim::engine::view::View;
use confluence_sim::engine::{ChoiceList, Decision, GameRng, GameState, apply, legal_choices};
use confluence_sim::policy::{AnyPolicy, Policy, PolicyData, PolicyRng, PolicySpec};
use confluence_sim::sim::{GameSeeds, play_game};

mod common;
use common::{Setup, matchup};

struct Shared {
    s: Setup,
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

/// Policies under test; `search` and `clairvoyant` with a small budget so that debug
/// builds stay quick.
const POLICIES: [&str; 14] = [
    "random",
    "greedy",
    "planner",
    "expert",
    "expert:value=2",
    "expert:net=1",
    "search:rollouts=3,width=3",
    "search:rollouts=3,width=3,horizon=1",
    "search:rollouts=3,width=3,expert=0",
    "search:rollouts=3,width=3,net=1,gate=50",
    "search:rollouts=3,width=3,net=7,deep=0,margin=2",
    "clairvoyant:rollouts=3,width=3",
    "skill:t=2,from=search:rollouts=3,net=7,deep=0",
    "skill:t=0,from=search:rollouts=3,width=3,horizon=0",
];

/// A state reached by `steps` random decisions from the start of a game, stopped at a
/// decision (or `None` if the game ended first).
fn random_state(deck: usize, mix: RareMix, seed: u64, steps: u32) -> Option<GameState> {
    let sh = shared();
    let s = &sh.s;
    let d = &s.decks[deck];
    let conf = s.confluence.cards_for(mix);
    let m = matchup(d, s, &conf);
    let seeds = GameSeeds::new(seed, 0);
    let mut setup_rng = GameSeeds::rng(seeds.setup);
    let mut conf_rng = GameSeeds::rng(seeds.confluence);
    let mut rng = GameSeeds::rng(seeds.events);
    let mut pick = PolicyRng::seed_from_u64(seeds.policy);
    let db = &s.lib.db;
    let g = new_game(
        db,
        &m,
        SetupStreams {
            setup: &mut setup_rng,
            confluence: &mut conf_rng,
        },
        &mut rng,
        &mut NoObserver,
    );
    common::random_walk(g, db, &mut rng, &mut pick, steps)
}

fn choose(spec: &str, g: &GameState, seed: u64) -> (usize, ChoiceList) {
    choose_with(&shared().data, spec, g, seed)
}

/// [`choose`] with other models.
fn choose_with(data: &PolicyData, spec: &str, g: &GameState, seed: u64) -> (usize, ChoiceList) {
    let s = &shared().s;
    let spec: PolicySpec = spec.parse().unwrap();
    let mut pol = spec.build(data);
    let mut buf = ChoiceList::new();
    legal_choices(g, &s.lib.db, &mut buf);
    let k = pol.choose(
        &View::new(g, &s.lib.db),
        &buf,
        &mut PolicyRng::seed_from_u64(seed),
    );
    (k, buf)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Every policy picks one of the legal options, and the engine accepts it.
    #[test]
    fn every_policy_picks_a_legal_option(
        deck in 0usize..6,
        all_rares in any::<bool>(),
        seed in any::<u64>(),
        steps in 0u32..120,
    ) {
        let sh = shared();
    let s = &sh.s;
        let mix = if all_rares { RareMix::all(s.confluence.rares.len()) } else { RareMix(0) };
        if let Some(g) = random_state(deck, mix, seed, steps) {
            for spec in POLICIES {
                let (k, options) = choose(spec, &g, seed);
                prop_assert!(k < options.len(), "{spec} chose {k} of {} options", options.len());
                let mut after = g;
                let mut rng = GameRng::seed_from_u64(seed);
                prop_assert!(
                    apply(&mut after, &s.lib.db, &mut rng, &mut NoObserver, options[k]).is_ok(),
                    "{spec} chose {:?}, which the engine refused", options[k]
                );
            }
        }
    }

    /// Given the same state and the same stream, a policy makes the same choice.
    #[test]
    fn policies_are_deterministic_given_their_stream(
        deck in 0usize..6,
        seed in any::<u64>(),
        steps in 0u32..120,
    ) {
        if let Some(g) = random_state(deck, RareMix(0), seed, steps) {
            for spec in POLICIES {
                prop_assert_eq!(choose(spec, &g, seed).0, choose(spec, &g, seed).0, "{}", spec);
            }
        }
    }
}

/// A Resupply shows the two top cards of the player's deck and asks which to keep: the
/// search's samples keep those two on top (the player has seen them there), or the options
/// would not exist in the sample. (Found by `every_policy_picks_a_legal_option`: this state,
/// from the Axiom starter, made `expert:value=2` apply an option its sample did not have.)
#[test]
fn samples_keep_the_cards_a_resupply_revealed_on_top() {
    let db = &shared().s.lib.db;
    // The first random walk that stops at a Resupply's pick (searched for, so that a
    // change of the games moves the state, not the test).
    let g = (0..20_000u64)
        .find_map(|seed| {
            random_state(0, RareMix(0), seed, 15).filter(|g| g.decision == Decision::ResupplyPick)
        })
        .expect("a state");
    assert_eq!(g.decision, Decision::ResupplyPick);
    let mut options = ChoiceList::new();
    legal_choices(&g, db, &mut options);
    assert_eq!(options.len(), 2);
    let view = View::new(&g, db);
    let mut moved = false;
    for k in 0..32 {
        let h = view.determinize(&mut GameRng::seed_from_u64(k));
        let mut again = ChoiceList::new();
        legal_choices(&h, db, &mut again);
        assert_eq!(options, again, "sample {k}");
        moved |= h.sides.0[0].deck != g.sides.0[0].deck;
    }
    assert!(moved, "the rest of the deck is still shuffled");
    for spec in POLICIES {
        let (k, options) = choose(spec, &g, 7);
        let mut after = g;
        let mut rng = GameRng::seed_from_u64(7);
        assert!(apply(&mut after, db, &mut rng, &mut NoObserver, options[k]).is_ok());
    }
}

/// Whole games: the same seeds give the same game for the planner and the search.
#[test]
fn planner_and_search_games_repeat_exactly() {
    let sh = shared();
    let s = &sh.s;
    let d = &s.decks[1];
    let conf = s.confluence.cards_for(RareMix(0));
    let m = matchup(d, s, &conf);
    for spec in ["planner", "search:rollouts=2,width=3"] {
        let spec: PolicySpec = spec.parse().unwrap();
        for i in 0..4 {
            let seeds = GameSeeds::new(11, i);
            let mut buf = ChoiceList::new();
            let a = play_game(
                &s.lib.db,
                &m,
                &seeds,
                &mut spec.build(&sh.data),
                &mut buf,
                &mut NoObserver,
            );
            let b = play_game(
                &s.lib.db,
                &m,
                &seeds,
                &mut spec.build(&sh.data),
                &mut buf,
                &mut NoObserver,
            );
            assert_eq!(a, b, "{spec} game {i}");
        }
    }
}

/// The same game with its hidden information rearranged: the player's deck order, the
/// Confluence's deck order, which unseen card is where among the Confluence's deck, hand
/// and face-down Mana, and the unrevealed Tumult cards.
fn permute_hidden(g: &GameState, seed: u64) -> GameState {
    let mut h = *g;
    let mut rng = GameRng::seed_from_u64(seed);
    use rand::seq::SliceRandom;
    // Cards revealed in place (a Resupply's two top cards) are seen: they stay.
    let seen = |id| g.obj(id).has(flag::KNOWN);
    common::shuffle_unseen(&mut h.sides.0[0].deck, seen, &mut rng);
    common::shuffle_unseen(&mut h.sides.0[1].deck, seen, &mut rng);
    let c = h.sides.0[1];
    let mut ids: Vec<_> = c.deck.iter().filter(|&id| !seen(id)).collect();
    for list in [&c.hand, &c.mana] {
        ids.extend(list.iter().filter(|&id| !seen(id)));
    }
    let mut cards: Vec<_> = ids.iter().map(|&id| h.obj(id).card).collect();
    cards.shuffle(&mut rng);
    for (&id, card) in ids.iter().zip(cards) {
        h.obj_mut(id).card = card;
    }
    common::shuffle_hidden_tumult(&mut h.adventure, &mut rng);
    h
}

/// Decisions of every kind with at least three options, from random states: (seed, state).
fn varied_decisions() -> Vec<(u64, GameState)> {
    let mut out = Vec::new();
    let mut per_kind: Vec<(Decision, usize)> = Vec::new();
    for seed in 0..1200u64 {
        let Some(g) = random_state((seed % 6) as usize, RareMix(0), seed, (seed % 60) as u32)
        else {
            continue;
        };
        let mut buf = ChoiceList::new();
        legal_choices(&g, &shared().s.lib.db, &mut buf);
        if buf.len() < 3 {
            continue;
        }
        // At most 24 states of one kind, so that the rarer kinds get their share.
        let n = match per_kind.iter_mut().find(|(d, _)| *d == g.decision) {
            Some((_, n)) => n,
            None => {
                per_kind.push((g.decision, 0));
                &mut per_kind.last_mut().unwrap().1
            }
        };
        if *n < 24 {
            *n += 1;
            out.push((seed, g));
        }
        if out.len() >= 72 {
            break;
        }
    }
    out
}

/// How many of the states a policy decides differently once their hidden information is
/// rearranged (three rearrangements each).
fn hidden_sensitivity(spec: &str, states: &[(u64, GameState)]) -> usize {
    common::hidden_sensitivity(spec, states, 3, &permute_hidden, &choose)
}

#[test]
fn search_and_expert_are_blind_to_hidden_information_at_every_decision() {
    let states = varied_decisions();
    let kinds: std::collections::HashSet<_> = states.iter().map(|(_, g)| g.decision).collect();
    assert!(
        states.len() >= 40 && kinds.len() >= 3,
        "only {} states of {} decision kinds sampled",
        states.len(),
        kinds.len()
    );
    assert!(states.iter().any(|(_, g)| g.decision == Decision::Turn));
    assert!(states.iter().any(|(_, g)| g.decision != Decision::Turn));
    let hidden_changed = states
        .iter()
        .filter(|(seed, g)| permute_hidden(g, seed * 7) != *g)
        .count();
    assert!(
        hidden_changed * 2 >= states.len(),
        "the permutations did not change the hidden state"
    );
    for spec in [
        "search:rollouts=4,width=4",
        "search:rollouts=4,width=4,expert=0",
        "search:rollouts=4,width=4,horizon=1",
        "search:rollouts=4,width=4,deep=3,narrow=1,dwidth=2",
        "search:rollouts=4,width=4,net=1,gate=50",
        "search:rollouts=4,width=4,net=3",
        "search:rollouts=4,width=4,net=3,deep=0,margin=2,close=3",
        "search:rollouts=4,width=4,net=7,deep=0,margin=2",
        "search:rollouts=4,width=4,net=7,deep=0,settled=25",
        "search:rollouts=4,width=4,net=7,deep=3,drollouts=6,doubt=25",
        "expert",
        "expert:value=2",
        "expert:net=1",
        "skill:t=0,from=search:rollouts=4,net=7,deep=0",
        "skill:t=3,from=search:rollouts=4,net=7,deep=0",
        "skill:t=3,from=search:rollouts=4,horizon=0",
    ] {
        assert_eq!(
            hidden_sensitivity(spec, &states),
            0,
            "{spec} chose differently after the hidden information was rearranged"
        );
    }
    // The test has teeth: a different sampling seed changes some decisions of the search,
    // and the clairvoyant bound, which does look at the hidden cards, is caught.
    let seed_sensitive = states
        .iter()
        .filter(|(seed, g)| {
            let k = choose("search:rollouts=4,width=4", g, *seed).0;
            (1..4).any(|d| choose("search:rollouts=4,width=4", g, seed + 1000 * d).0 != k)
        })
        .count();
    assert!(
        seed_sensitive > 0,
        "no decision depended on the sampling seed; the blindness check proves nothing"
    );
    assert!(
        hidden_sensitivity("clairvoyant:rollouts=4,width=4", &states) > 0,
        "the clairvoyant bound never reacted to the hidden cards; the check proves nothing"
    );
}

/// The value model reads only the player's view: rearranging the hidden zones changes
/// neither its inputs nor its value (and the inputs do change with the visible position).
#[test]
fn the_value_model_is_blind_to_hidden_information() {
    use confluence_sim::policy::value::{N_IN, ValueNet, encode};
    let db = &shared().s.lib.db;
    let net = ValueNet::embedded();
    let states = varied_decisions();
    let mut inputs = std::collections::HashSet::new();
    for (seed, g) in &states {
        let mut x = [0f32; N_IN];
        encode(&View::new(g, db), &mut x);
        inputs.insert(x.map(f32::to_bits));
        for p in 0..3 {
            let h = permute_hidden(g, seed * 7 + p);
            let mut y = [0f32; N_IN];
            encode(&View::new(&h, db), &mut y);
            assert_eq!(x, y, "the inputs changed with the hidden information");
            assert_eq!(net.value(&View::new(g, db)), net.value(&View::new(&h, db)));
        }
    }
    assert!(inputs.len() * 2 > states.len(), "the inputs hardly vary");
}

/// `search:only=...` searches only the decisions its mask names and leaves the others to
/// its rollout policy (the expert by default, the planner with `expert=0`).
#[test]
fn search_only_searches_the_decisions_it_names() {
    let states = varied_decisions();
    let mut turn_searched_differs = false;
    for (seed, g) in &states {
        let planner = choose("planner", g, *seed).0;
        let expert = choose("expert", g, *seed).0;
        let turn = g.decision == Decision::Turn;
        let mana = matches!(g.decision, Decision::SetupMana | Decision::Expand);
        let turns_only = choose("search:rollouts=4,width=4,only=2,expert=0", g, *seed).0;
        let all_but_turns = choose("search:rollouts=4,width=4,only=5,expert=0", g, *seed).0;
        let none = choose("search:rollouts=4,width=4,only=0", g, *seed).0;
        assert_eq!(
            none, expert,
            "only=0 (expert rollouts, the default) is the expert"
        );
        if turn {
            assert_eq!(all_but_turns, planner, "only=5 left a turn to the search");
            turn_searched_differs |= turns_only != planner;
        } else {
            assert_eq!(turns_only, planner, "only=2 searched a {:?}", g.decision);
        }
        if mana {
            let no_mana = choose("search:rollouts=4,width=4,only=6,expert=0", g, *seed).0;
            assert_eq!(no_mana, planner, "only=6 searched a {:?}", g.decision);
        }
    }
    assert!(
        turn_searched_differs,
        "the searched turns never differed from the planner's; the check proves nothing"
    );
}

/// What search `spec` did at the decision of `g`: its candidates, the samples it drew and
/// the options it had.
fn searched(spec: &str, g: &GameState, seed: u64) -> (usize, u32, usize) {
    let sh = shared();
    let db = &sh.s.lib.db;
    let mut buf = ChoiceList::new();
    legal_choices(g, db, &mut buf);
    let spec: PolicySpec = spec.parse().unwrap();
    let AnyPolicy::Search(mut s) = spec.build(&sh.data) else {
        panic!("not a search")
    };
    s.choose(&View::new(g, db), &buf, &mut PolicyRng::seed_from_u64(seed));
    let est = s.estimates();
    (est.candidates.len(), est.samples, buf.len())
}

/// `deep` gives the decisions it names twice the samples or `drollouts` (and a day more), `dwidth` with
/// `narrow` keeps that many candidates at the decisions `narrow` names; the others keep the
/// plain budget and width.
#[test]
fn search_deep_and_narrow_apply_to_the_decisions_they_name() {
    let states = varied_decisions();
    // The Mana decisions' budget: twice `rollouts`, or `drollouts`.
    for (spec, deep_budget) in [
        ("search:rollouts=4,width=4,deep=1,narrow=3,dwidth=2", 8),
        (
            "search:rollouts=4,width=4,deep=1,narrow=3,dwidth=2,drollouts=6",
            6,
        ),
    ] {
        let (mut doubled, mut narrowed) = (false, false);
        for (seed, g) in &states {
            let mana = matches!(g.decision, Decision::SetupMana | Decision::Expand);
            let turn = g.decision == Decision::Turn;
            let (k, n, options) = searched(spec, g, *seed);
            if mana {
                assert!(
                    k <= 2 && n <= deep_budget,
                    "{spec}: a Mana decision: {k} candidates, {n} samples"
                );
                doubled |= n > 4;
                narrowed |= options > 2 && k == 2;
            } else if turn {
                assert!(
                    k <= 2 && n <= 4,
                    "{spec}: a turn: {k} candidates, {n} samples"
                );
            } else {
                assert!(
                    k <= 4 && n <= 4,
                    "{spec}: a {:?}: {k} candidates, {n} samples",
                    g.decision
                );
            }
        }
        assert!(
            doubled,
            "{spec}: no Mana decision used more than the plain budget"
        );
        assert!(
            narrowed,
            "{spec}: no Mana decision with more than two options was narrowed"
        );
    }
}

/// `doubt=P` gives the `deep` decisions their second day only where the value model (here
/// the network's, `net=4`) puts the position between P% and 100 - P%: there the search
/// plays as with `deep` everywhere, elsewhere as without it.
#[test]
fn search_doubt_looks_the_second_day_only_where_the_game_is_in_doubt() {
    let sh = shared();
    let db = &sh.s.lib.db;
    let net = confluence_sim::policy::value::ValueNet::embedded_net();
    let base = "search:net=7,rollouts=4,width=4,narrow=1,dwidth=2,drollouts=6";
    let (mut inside, mut outside) = (0, 0);
    for (seed, g) in &varied_decisions() {
        let v = 100.0 * net.value(&View::new(g, db));
        let doubt = 25.0;
        let in_doubt = v > doubt && v < 100.0 - doubt;
        let deep = matches!(
            g.decision,
            Decision::SetupMana | Decision::Expand | Decision::Turn
        );
        let gated = format!("{base},deep=3,doubt=25");
        let plays_as = if in_doubt {
            format!("{base},deep=3")
        } else {
            format!("{base},deep=0")
        };
        let (a, b) = (searched(&gated, g, *seed), searched(&plays_as, g, *seed));
        assert_eq!(
            a, b,
            "value {v:.1}%: {gated} searched otherwise than {plays_as}"
        );
        assert_eq!(choose(&gated, g, *seed).0, choose(&plays_as, g, *seed).0);
        if deep {
            inside += in_doubt as u32;
            outside += !in_doubt as u32;
        }
    }
    assert!(
        inside > 0 && outside > 0,
        "the states' values never fell on both sides of the band ({inside} inside, {outside} outside): the check proves nothing"
    );
}

/// `settled=P` plays the best first guess without a search where the value model (here the
/// network's, `net=4`) puts the position below P% or above 100 - P%, and searches as
/// without it elsewhere.
#[test]
fn search_settled_skips_the_search_where_the_game_is_as_good_as_settled() {
    let sh = shared();
    let db = &sh.s.lib.db;
    let net = confluence_sim::policy::value::ValueNet::embedded_net();
    let base = "search:net=7,rollouts=4,width=4,deep=0";
    let gated = format!("{base},settled=25");
    let (mut skipped, mut searched_too) = (0, 0);
    for (seed, g) in &varied_decisions() {
        let v = 100.0 * net.value(&View::new(g, db));
        let settled = !(25.0..=75.0).contains(&v);
        let plays_as = if settled {
            format!("{base},only=0")
        } else {
            base.to_string()
        };
        let (a, b) = (searched(&gated, g, *seed), searched(&plays_as, g, *seed));
        assert_eq!(
            a, b,
            "value {v:.1}%: {gated} searched otherwise than {plays_as}"
        );
        assert_eq!(choose(&gated, g, *seed).0, choose(&plays_as, g, *seed).0);
        let real = a.2 > 1;
        skipped += (settled && real) as u32;
        searched_too += (!settled && real && a.1 > 0) as u32;
    }
    assert!(
        skipped > 0 && searched_too > 0,
        "the states' values never fell on both sides of the band ({skipped} skipped, {searched_too} searched): the check proves nothing"
    );
}

/// By default a search with a horizon gives the cards into Mana and the Afternoon turns a
/// second day and twice the samples, and the Mana decisions two candidates (`deep=3`,
/// `narrow=1`, `dwidth=2`); head to head, where the rollouts play to the end, it keeps its
/// plain budget and width everywhere.
#[test]
fn the_default_search_looks_further_at_mana_and_turns_but_not_head_to_head() {
    let sh = shared();
    let db = &sh.s.lib.db;
    let (mut doubled, mut narrowed) = (false, false);
    for (seed, g) in &varied_decisions() {
        let mana = matches!(g.decision, Decision::SetupMana | Decision::Expand);
        let turn = g.decision == Decision::Turn;
        let (k, n, options) = searched("search:rollouts=4", g, *seed);
        let budget = if mana || turn { 8 } else { 4 };
        assert!(n <= budget, "a {:?}: {n} samples", g.decision);
        assert!(!mana || k <= 2, "a Mana decision: {k} candidates");
        doubled |= (mana || turn) && n > 4;
        narrowed |= mana && options > 2 && k == 2;
    }
    assert!(
        doubled,
        "no Mana decision or turn used more than the plain budget"
    );
    assert!(
        narrowed,
        "no Mana decision with more than two options was narrowed"
    );
    let (mut wide, mut checked) = (false, 0);
    for seed in 0..400u64 {
        let (a, b) = ((seed % 6) as usize, ((seed / 6) % 6) as usize);
        let Some(g) = random_duel_state(a, b, seed, (seed % 40) as u32) else {
            continue;
        };
        let mut buf = ChoiceList::new();
        legal_choices(&g, db, &mut buf);
        if buf.len() < 3 {
            continue;
        }
        let opponent: PolicySpec = "planner".parse().unwrap();
        let spec: PolicySpec = "search:rollouts=4".parse().unwrap();
        let AnyPolicy::Search(mut s) = spec.build_against(&sh.data, &opponent) else {
            panic!("not a search")
        };
        s.choose(
            &View::new(&g, db),
            &buf,
            &mut PolicyRng::seed_from_u64(seed),
        );
        let est = s.estimates();
        assert!(
            est.samples <= 4,
            "head to head, a {:?}: {} samples",
            g.decision,
            est.samples
        );
        wide |= matches!(g.decision, Decision::SetupMana | Decision::Expand)
            && est.candidates.len() > 2;
        checked += 1;
        if checked >= 30 && wide {
            break;
        }
    }
    assert!(
        wide,
        "head to head, no Mana decision kept more than two candidates"
    );
}

/// `search:net=1` takes its candidates from the policy network: where it does not search
/// (`only`) or where the network is sure enough of its first option (`gate`), it plays as
/// `expert:net=1`, as with `net=3`; with `net=2` (the network in the rollouts alone) the
/// expert.
#[test]
fn search_with_the_policy_network_follows_it_where_it_does_not_search() {
    let states = varied_decisions();
    let (mut scored, mut searched_differs) = (0, false);
    for (seed, g) in &states {
        let net = choose("expert:net=1", g, *seed).0;
        let expert = choose("expert", g, *seed).0;
        // Unsearched: the network's pick, not the rollout policy's.
        assert_eq!(choose("search:net=1,only=0", g, *seed).0, net);
        assert_eq!(choose("search:net=3,only=0", g, *seed).0, net);
        // `net=2`: the network plays the rollouts only; the first guess stays the expert's.
        assert_eq!(choose("search:net=2,only=0", g, *seed).0, expert);
        assert_eq!(choose("search:only=0", g, *seed).0, expert);
        let (k, buf) = choose("search:net=1,rollouts=4,width=4,gate=1", g, *seed);
        let mana_or_turn = matches!(
            g.decision,
            Decision::SetupMana | Decision::Expand | Decision::Turn
        );
        // At a decision the network scores, its first option has at least 1/n, so a gate
        // of 1% never searches with up to 100 options.
        if mana_or_turn && buf.len() <= 100 {
            scored += 1;
            assert_eq!(k, net, "gate=1 searched a {:?}", g.decision);
            searched_differs |= choose("search:net=1,rollouts=4,width=4", g, *seed).0 != net;
        }
    }
    assert!(scored >= 10, "only {scored} decisions the network scores");
    assert!(
        searched_differs,
        "the search never differed from the network's pick; the check proves nothing"
    );
}

/// `net=4` scores the rollouts by the value model of the network's games: with that model
/// replaced by the value model, `net=7` plays as `net=3`; with the two committed ones it
/// decides differently somewhere.
#[test]
fn search_net_4_scores_its_rollouts_by_the_networks_value_model() {
    let sh = shared();
    let same = sh
        .data
        .clone()
        .with_net_value(confluence_sim::policy::value::ValueNet::embedded());
    let (mut differs, mut searched) = (0, 0);
    for (seed, g) in &varied_decisions() {
        let three = choose("search:net=3,rollouts=4,width=4,deep=0", g, *seed).0;
        let seven = "search:net=7,rollouts=4,width=4,deep=0";
        assert_eq!(choose_with(&same, seven, g, *seed).0, three);
        differs += (choose(seven, g, *seed).0 != three) as u32;
        searched += 1;
    }
    assert!(
        differs > 0,
        "net=7 never differed from net=3 in {searched} decisions: does it read its own model?"
    );
}

/// The expert's learned per-card preferences count: a large enough preference for one card
/// makes the expert play it (from hand) or bank it, wherever the general weights would not.
#[test]
fn the_experts_card_preferences_decide_when_they_are_large() {
    use confluence_sim::engine::Choice;
    use confluence_sim::policy::ExpertWeights;
    let sh = shared();
    let db = &sh.s.lib.db;
    let mut checked = 0;
    for (seed, g) in varied_decisions() {
        let mut buf = ChoiceList::new();
        legal_choices(&g, db, &mut buf);
        let card_of = |c: &Choice| match *c {
            Choice::Play {
                obj,
                from_reserve: false,
                ..
            }
            | Choice::Card(obj) => Some(g.obj(obj).card),
            _ => None,
        };
        let slot = match g.decision {
            Decision::Turn => 0,
            Decision::SetupMana | Decision::Expand => 2,
            _ => continue,
        };
        let (k0, _) = choose("expert", &g, seed);
        // A card the expert did not pick, which some option plays from hand or banks.
        let picked = card_of(&buf[k0]).map(|c| db.card(c).name.as_str());
        let Some(want) = buf
            .iter()
            .filter_map(card_of)
            .find(|&c| Some(db.card(c).name.as_str()) != picked)
        else {
            continue;
        };
        let mut w = ExpertWeights::embedded();
        w.cards.insert(db.card(want).name.clone(), {
            let mut p = [0.0; 4];
            p[slot] = 1000.0;
            p
        });
        let data = PolicyData::new(db).with_expert(w, db);
        let spec: PolicySpec = "expert".parse().unwrap();
        let k = spec.build(&data).choose(
            &View::new(&g, db),
            &buf,
            &mut PolicyRng::seed_from_u64(seed),
        );
        assert_eq!(
            card_of(&buf[k]).map(|c| db.card(c).name.clone()),
            Some(db.card(want).name.clone()),
            "at a {:?} the preference for {} did not count",
            g.decision,
            db.card(want).name
        );
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} decisions checked");
}

/// A head-to-head state between starter decks `a` and `b`, reached by `steps` random
/// decisions of either seat and stopped at a decision (or `None` if the game ended first).
fn random_duel_state(a: usize, b: usize, seed: u64, steps: u32) -> Option<GameState> {
    use confluence_sim::sim::duel::{DuelRules, DuelSeat, start_duel};
    let s = &shared().s;
    let db = &s.lib.db;
    let seat = |d: usize| DuelSeat {
        hero: s.decks[d].hero,
        cards: &s.decks[d].cards,
        ordered: false,
    };
    let seeds = GameSeeds::new(seed, 0);
    let (g, mut rng) = start_duel(
        db,
        [seat(a), seat(b)],
        (seed % 2) as u8,
        DuelRules::standard(30),
        &seeds,
        &mut NoObserver,
    );
    let mut pick = PolicyRng::seed_from_u64(seeds.policy);
    common::random_walk(g, db, &mut rng, &mut pick, steps)
}

/// The same head-to-head game with what the deciding seat cannot see rearranged: both deck
/// orders, which of the opponent's unseen cards is where among its deck, hand and Mana,
/// and the unrevealed Tumult cards.
fn permute_hidden_duel(g: &GameState, seed: u64) -> GameState {
    use rand::seq::SliceRandom;
    let db = &shared().s.lib.db;
    let mut h = *g;
    let mut rng = GameRng::seed_from_u64(seed);
    let view = View::new(g, db);
    let seen = |id| view.is_visible(id);
    common::shuffle_unseen(&mut h.sides.0[0].deck, seen, &mut rng);
    common::shuffle_unseen(&mut h.sides.0[1].deck, seen, &mut rng);
    let them = g.decider.other().index();
    let c = h.sides.0[them];
    let mut ids: Vec<_> = c.deck.iter().filter(|&id| !seen(id)).collect();
    for list in [&c.hand, &c.mana] {
        ids.extend(list.iter().filter(|&id| !view.is_visible(id)));
    }
    let mut cards: Vec<_> = ids.iter().map(|&id| h.obj(id).card).collect();
    cards.shuffle(&mut rng);
    for (&id, card) in ids.iter().zip(cards) {
        h.obj_mut(id).card = card;
    }
    common::shuffle_hidden_tumult(&mut h.adventure, &mut rng);
    h
}

/// A head-to-head choice, the opponent's seat played in the rollouts by `planner`.
fn choose_duel(spec: &str, g: &GameState, seed: u64) -> (usize, ChoiceList) {
    let sh = shared();
    let db = &sh.s.lib.db;
    let spec: PolicySpec = spec.parse().unwrap();
    let opponent: PolicySpec = "planner".parse().unwrap();
    let mut pol = spec.build_against(&sh.data, &opponent);
    let mut buf = ChoiceList::new();
    legal_choices(g, db, &mut buf);
    let k = pol.choose(&View::new(g, db), &buf, &mut PolicyRng::seed_from_u64(seed));
    (k, buf)
}

/// Head to head, `search` (expert and planner rollouts) and `expert` decide the same
/// whichever seat decides once what that seat cannot see is rearranged; the same two
/// controls as in Confluence mode show that the check can fail.
#[test]
fn search_and_expert_are_blind_to_hidden_information_head_to_head() {
    let mut states = Vec::new();
    for seed in 0..600u64 {
        let (a, b) = ((seed % 6) as usize, ((seed / 6) % 6) as usize);
        let Some(g) = random_duel_state(a, b, seed, (seed % 50) as u32) else {
            continue;
        };
        let mut buf = ChoiceList::new();
        legal_choices(&g, &shared().s.lib.db, &mut buf);
        if buf.len() >= 3 {
            states.push((seed, g));
        }
        if states.len() >= 40 {
            break;
        }
    }
    assert!(states.len() >= 30, "only {} states sampled", states.len());
    common::Blindness {
        states: &states,
        seats: 2,
        decider: &|g: &GameState| g.decider.index(),
        permute: &permute_hidden_duel,
        perms: 3,
        choose: &choose_duel,
        where_: "head to head",
    }
    .assert(
        &[
            "search:rollouts=3,width=3",
            "search:rollouts=3,width=3,expert=0",
            "expert",
        ],
        "search:rollouts=3,width=3",
        "clairvoyant:rollouts=3,width=3",
    );
}

/// `expert:net=1` scores options by the policy network: a network that is the expert's
/// score alone plays exactly as the expert, and on positions of real games our forward pass
/// of the committed network matches candle's.
#[test]
fn the_policy_network_plays_by_its_scores_and_matches_candle() {
    use confluence_sim::policy::Policy as _;
    use confluence_sim::policy::pnet::data::{self, Decisions};
    use confluence_sim::policy::pnet::{PolicyNet, fit};
    let sh = shared();
    let db = &sh.s.lib.db;
    let as_expert = PolicyData::new(db).with_pnet(PolicyNet::expert_only());
    let net: PolicySpec = "expert:net=1".parse().unwrap();
    let mut scored = Decisions::default();
    let mut checked = 0;
    for (seed, g) in varied_decisions() {
        let mut buf = ChoiceList::new();
        legal_choices(&g, db, &mut buf);
        let view = View::new(&g, db);
        let k = net
            .build(&as_expert)
            .choose(&view, &buf, &mut PolicyRng::seed_from_u64(seed));
        assert_eq!(k, choose("expert", &g, seed).0, "at a {:?}", g.decision);
        // The teacher here is a tiny search: only the inputs matter for the comparison.
        let (AnyPolicy::Expert(mut e), AnyPolicy::Search(mut s)) = (
            "expert".parse::<PolicySpec>().unwrap().build(&sh.data),
            "search:rollouts=2,width=2"
                .parse::<PolicySpec>()
                .unwrap()
                .build(&sh.data),
        ) else {
            unreachable!()
        };
        let before = scored.len();
        let mut rng = PolicyRng::seed_from_u64(seed);
        data::record(&view, &buf, &mut e, &mut s, &mut rng, &mut scored);
        checked += (scored.len() > before) as usize;
    }
    assert!(checked >= 10, "only {checked} decisions the network scores");
    let committed = PolicyNet::embedded();
    let theirs = fit::candle_scores(&committed, &scored).unwrap();
    let mut r = 0;
    for d in 0..scored.len() {
        let o = scored.options(d);
        let mut out = vec![0f32; o.len()];
        committed.scores(scored.position(d), o, &mut out);
        for s in out {
            let tol = 1e-4 * (1.0 + s.abs());
            assert!(
                (s - theirs[r]).abs() <= tol,
                "row {r}: {s} against {}",
                theirs[r]
            );
            r += 1;
        }
    }
}

/// `View::determinize` as it was written before the search prepared a position once for
/// all its samples (`View::determinizer`): the games of every search depend on the samples
/// staying the same, draw for draw.
fn determinize_as_before(view: &View<'_>, state: &GameState, rng: &mut GameRng) -> GameState {
    use arrayvec::ArrayVec;
    use confluence_sim::engine::state::{Adventure, ObjId};
    use rand::seq::SliceRandom;
    let mut g = *state;
    let unseen = |g: &GameState, side: confluence_sim::cards::types::Side| -> Vec<usize> {
        let deck = g.sides[side].deck.as_slice();
        (0..deck.len())
            .filter(|&i| !view.is_visible(deck[i]))
            .collect()
    };
    let me = view.me();
    let slots = unseen(&g, me);
    let mut order: Vec<ObjId> = slots
        .iter()
        .map(|&i| g.sides[me].deck.as_slice()[i])
        .collect();
    order.sort_unstable();
    order.shuffle(rng);
    for (&i, id) in slots.iter().zip(order) {
        g.sides[me].deck.as_mut_slice()[i] = id;
    }
    for them in view.opponents() {
        let slots = unseen(&g, them);
        let mut order: Vec<ObjId> = slots
            .iter()
            .map(|&i| g.sides[them].deck.as_slice()[i])
            .collect();
        order.sort_unstable();
        for (&i, &id) in slots.iter().zip(&order) {
            g.sides[them].deck.as_mut_slice()[i] = id;
        }
        let c = g.sides[them];
        let mut ids = order;
        for list in [&c.hand, &c.mana] {
            ids.extend(list.iter().filter(|&id| !view.is_visible(id)));
        }
        let mut cards: Vec<_> = ids.iter().map(|&id| g.obj(id).card).collect();
        cards.sort_unstable();
        cards.shuffle(rng);
        for (&id, card) in ids.iter().zip(cards) {
            g.obj_mut(id).card = card;
        }
    }
    let adv = &mut g.adventure;
    let hidden: ArrayVec<usize, 3> = (0..3).filter(|k| adv.revealed & (1 << k) == 0).collect();
    let mut tumult: Vec<u8> = hidden.iter().map(|&k| adv.tumult[k]).collect();
    tumult.sort_unstable();
    tumult.shuffle(rng);
    for (&k, t) in hidden.iter().zip(tumult) {
        adv.tumult[k] = t;
    }
    for &k in &hidden {
        adv.flipped[k] = rand::RngExt::random::<bool>(rng);
    }
    adv.terrain = Adventure::layout(adv.tumult, adv.flipped).terrain;
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A position prepared once gives, sample after sample, the states `determinize` gave
    /// before the preparation was split out (so searches play the same games), and the
    /// same as `determinize` now.
    #[test]
    fn a_prepared_position_samples_as_determinize_did(
        deck in 0usize..6,
        seed in any::<u64>(),
        steps in 0u32..160,
    ) {
        let db = &shared().s.lib.db;
        if let Some(g) = random_state(deck, RareMix(0), seed, steps) {
            let view = View::new(&g, db);
            let det = view.determinizer();
            for k in 0..6u64 {
                let s = seed.wrapping_add(k);
                let got = det.sample(&mut GameRng::seed_from_u64(s));
                prop_assert!(got == determinize_as_before(&view, &g, &mut GameRng::seed_from_u64(s)));
                prop_assert!(got == view.determinize(&mut GameRng::seed_from_u64(s)));
            }
        }
    }
}

/// The evaluator values every option, deterministically given its stream, with the
/// same samples for every option; `skill:t=0` plays its best-valued option and a huge
/// temperature plays every option about equally often.
#[test]
fn skill_plays_its_evaluators_values_from_best_to_uniform() {
    use confluence_sim::policy::Evaluator;
    let sh = shared();
    let db = &sh.s.lib.db;
    let from = "search:rollouts=4,net=7,deep=0";
    let eval_spec: PolicySpec = from.parse().unwrap();
    let mut ev = Evaluator::new(&eval_spec, &sh.data).unwrap();
    let states = varied_decisions();
    let mut differ = 0;
    let mut spread = 0;
    for (seed, g) in states.iter().take(24) {
        let mut buf = ChoiceList::new();
        legal_choices(g, db, &mut buf);
        let view = View::new(g, db);
        let mut q = vec![f64::NAN; buf.len()];
        let n = ev.values(&view, &buf, &mut PolicyRng::seed_from_u64(*seed), &mut q);
        assert_eq!(n, 4, "every option on the search's samples");
        assert!(q.iter().all(|v| (0.0..=100.0).contains(v)), "{q:?}");
        let mut again = vec![0.0; buf.len()];
        ev.values(
            &view,
            &buf,
            &mut PolicyRng::seed_from_u64(*seed),
            &mut again,
        );
        assert_eq!(q, again, "deterministic given the stream");
        let mut order = ev.order().to_vec();
        order.sort_unstable();
        assert_eq!(
            order,
            (0..buf.len()).collect::<Vec<_>>(),
            "every option once"
        );
        // t = 0: the best value (the evaluator's first guess on ties), drawn from the
        // same stream as the values.
        let (k, _) = choose(&format!("skill:t=0,from={from}"), g, *seed);
        let best = q.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(q[k], best, "t=0 chose {k} of {q:?}");
        let first = *ev.order().iter().find(|&&i| q[i] == best).unwrap();
        assert_eq!(k, first, "ties go to the evaluator's first guess");
        differ += q.iter().any(|&v| v != best) as u32;
        // A huge t: every option about equally often (one sample each, to stay cheap).
        if buf.len() <= 4 && spread < 3 {
            let mut count = vec![0u32; buf.len()];
            for r in 0..100 * buf.len() as u64 {
                count[choose("skill:t=100000,from=search:rollouts=1", g, seed + r).0] += 1;
            }
            assert!(
                count.iter().all(|c| (50..=150).contains(c)),
                "{count:?} is not near uniform"
            );
            spread += 1;
        }
    }
    assert!(
        differ > 5,
        "the options' values never differed; the test proves nothing"
    );
    assert!(spread == 3, "too few small decisions for the uniform check");
}

/// `skill`'s spec: a decimal temperature, `from=` last taking the rest, normalised names,
/// clear errors.
#[test]
fn skill_specs_parse_normalise_and_refuse_bad_values() {
    let p = |s: &str| s.parse::<PolicySpec>();
    assert_eq!(p("skill:t=2").unwrap().to_string(), "skill:t=2");
    assert_eq!(p("skill:t=2.50").unwrap().to_string(), "skill:t=2.5");
    assert_eq!(p("skill:t=.125").unwrap().to_string(), "skill:t=0.125");
    assert_eq!(
        p("skill:t=2,from=fastsearch").unwrap(),
        p("skill:t=2").unwrap()
    );
    let s = p("skill:t=0.5,from=search:rollouts=32,width=8").unwrap();
    assert_eq!(s.to_string(), "skill:t=0.5,from=search:rollouts=32,width=8");
    assert_eq!(s.temperature(), Some(0.5));
    assert_eq!(s.evaluator(), p("search:rollouts=32,width=8").unwrap());
    assert_eq!(p(&s.to_string()).unwrap(), s, "its name parses back");
    assert_eq!(
        p("skill:t=1,from=fastsearch:rollouts=20")
            .unwrap()
            .to_string(),
        "skill:t=1,from=search:net=7,rollouts=20,width=5,deep=0,narrow=1,dwidth=2,margin=2"
    );
    assert!(
        p("skill:t=2")
            .unwrap()
            .resolved()
            .starts_with("skill:t=2,from=search:rollouts=5,")
    );
    for (bad, says) in [
        ("skill", "needs t="),
        ("skill:t=-1", "not a temperature"),
        ("skill:t=abc", "not a temperature"),
        ("skill:t=1e3", "not a temperature"),
        ("skill:t=0.0001", "at most three decimals"),
        ("skill:t=inf", "not a temperature"),
        ("skill:t=1000001", "not a temperature"),
        ("skill:t=2,width=3", "no parameter 'width'"),
        ("skill:t=2,from=", "names no evaluator"),
        ("skill:t=2,from=expert", "must be a search"),
        ("skill:t=2,from=clairvoyant", "must be blind"),
        ("skill:t=2,from=search:width=99", "width=99 is out of range"),
        ("skill:t=2,from=skill:t=1", "must be a search"),
    ] {
        let e = p(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

/// The whole chain on games: `skill:t=4` plays (its evaluator's values, then the draw),
/// each decision is recorded with the values the player saw, and the fit's 95% interval
/// holds 4 and excludes the temperatures a quarter and four times as large; the fit on
/// a player of `t=0` is 0.
#[test]
fn the_fit_recovers_the_temperature_of_skill_games() {
    use confluence_sim::engine::Choice;
    use confluence_sim::policy::Evaluator;
    use confluence_sim::policy::skill::pick;
    use confluence_sim::stats::skill_fit::{FitDecision, fit};

    struct Recorder {
        ev: Evaluator,
        t: f64,
        game: u64,
        out: Vec<FitDecision>,
    }
    impl Policy for Recorder {
        fn choose(&mut self, view: &View<'_>, options: &[Choice], rng: &mut PolicyRng) -> usize {
            if options.len() == 1 {
                return 0;
            }
            let mut q = vec![0.0; options.len()];
            self.ev.values(view, options, rng, &mut q);
            let k = pick(self.t, &q, self.ev.order(), rng);
            self.out.push(FitDecision {
                values: q,
                chosen: k,
                game: self.game,
            });
            k
        }
    }
    let sh = shared();
    let s = &sh.s;
    let conf = s.confluence.cards_for(RareMix(0));
    let m = matchup(&s.decks[0], s, &conf);
    let spec: PolicySpec = "search:rollouts=3,net=7,deep=0".parse().unwrap();
    let decisions = |t: f64, games: u64| {
        let mut rec = Recorder {
            ev: Evaluator::new(&spec, &sh.data).unwrap(),
            t,
            game: 0,
            out: Vec::new(),
        };
        for g in 0..games {
            rec.game = g;
            let mut buf = ChoiceList::new();
            play_game(
                &s.lib.db,
                &m,
                &GameSeeds::new(3, g),
                &mut rec,
                &mut buf,
                &mut NoObserver,
            );
        }
        rec.out
    };
    let d = decisions(4.0, 30);
    let f = fit(&d);
    assert!(f.informative >= 300, "{f:?}");
    assert!(f.t_lo < 4.0 && 4.0 < f.t_hi, "{f:?}");
    assert!(f.t_lo > 1.0 && f.t_hi < 16.0, "{f:?}");
    let f = fit(&decisions(0.0, 5));
    assert_eq!((f.t, f.t_lo), (0.0, 0.0), "{f:?}");
}
