//! Head-to-head games between starter decks: every game ends, both seats decide, results
//! are deterministic, and a mirror match is even within its interval.

mod common;

use confluence_sim::engine::ChoiceList;
use confluence_sim::policy::{PolicyData, PolicySpec};
use confluence_sim::sim::GameSeeds;
use confluence_sim::sim::duel::{DuelResult, DuelRules, DuelSeat, play_duel};

fn play(s: &common::Setup, a: usize, b: usize, policy: &str, games: u64) -> Vec<DuelResult> {
    let data = PolicyData::new(&s.lib.db);
    let spec: PolicySpec = policy.parse().unwrap();
    let (mut pa, mut pb) = (spec.build(&data), spec.build(&data));
    let mut buf = ChoiceList::new();
    let seat = |k: usize| DuelSeat {
        hero: s.decks[k].hero,
        cards: &s.decks[k].cards,
        ordered: false,
    };
    (0..games)
        .map(|g| {
            play_duel(
                &s.lib.db,
                [seat(a), seat(b)],
                (g % 2) as u8,
                DuelRules::standard(30),
                &GameSeeds::new(7, g),
                [&mut pa, &mut pb],
                &mut buf,
            )
        })
        .collect()
}

#[test]
fn duels_end_and_repeat() {
    let s = common::setup();
    for policy in ["random", "greedy", "planner"] {
        let r = play(&s, 1, 4, policy, 40);
        assert_eq!(r, play(&s, 1, 4, policy, 40), "{policy}: not deterministic");
        let decided = r.iter().filter(|x| x.winner.is_some()).count();
        assert!(
            decided >= 30,
            "{policy}: only {decided} of 40 games were decided"
        );
        assert!(
            r.iter().all(|x| x.plays[0] > 0 && x.plays[1] > 0),
            "{policy}: a seat never played"
        );
    }
}

#[test]
fn mirror_match_is_even() {
    // Seats balanced (the first player alternates with the game index): a deck against
    // itself wins about half its decided games in each seat.
    let s = common::setup();
    let r = play(&s, 4, 4, "greedy", 400);
    let a = r.iter().filter(|x| x.winner == Some(0)).count() as f64;
    let b = r.iter().filter(|x| x.winner == Some(1)).count() as f64;
    let n = a + b;
    let p = a / n;
    let half_width = 1.96 * (0.25 / n).sqrt();
    assert!(
        (p - 0.5).abs() < half_width,
        "seat A won {a} of {n} decided mirror games"
    );
}

/// The second seat's policies see only what that player sees: changing what is hidden from
/// it (the first seat's hand and both decks) never changes its choice.
#[test]
fn second_seat_is_blind() {
    use confluence_sim::cards::types::Side;
    use confluence_sim::engine::event::NoObserver;
    use confluence_sim::engine::view::View;
    use confluence_sim::engine::{Step, advance, apply_unchecked, legal_choices};
    use confluence_sim::policy::Policy;
    use confluence_sim::sim::duel::start_duel;
    let s = common::setup();
    let data = PolicyData::new(&s.lib.db);
    let db = &s.lib.db;
    let seat = |k: usize| DuelSeat {
        hero: s.decks[k].hero,
        cards: &s.decks[k].cards,
        ordered: false,
    };
    let mut checked = 0;
    // A control that does read the hidden cards: the perturbation must change what it sees.
    let cheat = |v: &View<'_>, n: usize| {
        let g = v.clairvoyant_state();
        g.sides.0[0]
            .hand
            .iter()
            .map(|id| g.objs[id as usize].card as usize)
            .sum::<usize>()
            % n
    };
    let mut caught = 0;
    for policy in ["greedy", "planner", "expert"] {
        let spec: PolicySpec = policy.parse().unwrap();
        let mut p = spec.build(&data);
        for g in 0..6u64 {
            let seeds = GameSeeds::new(11, g);
            let (mut st, mut rng) = start_duel(
                db,
                [seat(0), seat(5)],
                (g % 2) as u8,
                DuelRules::standard(30),
                &seeds,
                &mut NoObserver,
            );
            let mut prng = seeds.policy_rng();
            let mut buf = ChoiceList::new();
            for _ in 0..400 {
                match advance(&mut st, db, &mut rng, &mut NoObserver) {
                    Step::Decide => {}
                    _ => break,
                }
                legal_choices(&st, db, &mut buf);
                let k = if buf.len() > 1 && st.decider == Side::Confluence {
                    // The same decision with the hidden cards dealt differently.
                    let mut other = st;
                    let a = other.sides.0[0];
                    let hidden: Vec<_> = a.hand.iter().chain(a.deck.iter()).collect();
                    let cards: Vec<_> = hidden
                        .iter()
                        .map(|&id| other.objs[id as usize].card)
                        .collect();
                    for (i, &id) in hidden.iter().enumerate() {
                        other.objs[id as usize].card = cards[(i + 1) % cards.len()];
                    }
                    other.sides.0[1].deck.as_mut_slice().reverse();
                    let mut r1 = prng.clone();
                    let mut r2 = prng.clone();
                    let k1 = p.choose(&View::new(&st, db), &buf, &mut r1);
                    let k2 = p.choose(&View::new(&other, db), &buf, &mut r2);
                    assert_eq!(k1, k2, "{policy}: seat B's choice depends on hidden cards");
                    checked += 1;
                    if cheat(&View::new(&st, db), buf.len())
                        != cheat(&View::new(&other, db), buf.len())
                    {
                        caught += 1;
                    }
                    k1
                } else if buf.len() > 1 {
                    p.choose(&View::new(&st, db), &buf, &mut prng)
                } else {
                    0
                };
                apply_unchecked(&mut st, db, &mut rng, &mut NoObserver, buf[k]);
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} decisions of the second seat were checked"
    );
    assert!(
        caught > 0,
        "the perturbation never changed the hidden cards; the check proves nothing"
    );
}

/// Each seat reads its own distance to the Darkness (`View::darkness_gap`), as the careful
/// players plan by it: seat 1's view reads seat 1's expeditions, not seat 0's (as it did
/// before 2026-11-27).
#[test]
fn each_seat_reads_its_own_distance_to_the_darkness() {
    use confluence_sim::cards::types::{Exp, Side};
    use confluence_sim::engine::event::NoObserver;
    use confluence_sim::engine::view::View;
    use confluence_sim::sim::duel::start_duel;
    let s = common::setup();
    let db = &s.lib.db;
    let seat = |k: usize| DuelSeat {
        hero: s.decks[k].hero,
        cards: &s.decks[k].cards,
        ordered: false,
    };
    let (mut g, _) = start_duel(
        db,
        [seat(0), seat(1)],
        0,
        DuelRules::standard(30),
        &GameSeeds::new(1, 0),
        &mut NoObserver,
    );
    g.pos[Side::Player].set(Exp::Hero, 3);
    g.pos[Side::Player].set(Exp::Companion, 5);
    g.pos[Side::Confluence].set(Exp::Hero, 1);
    g.pos[Side::Confluence].set(Exp::Companion, 6);
    for (side, hero, companion) in [(Side::Player, 3, 5), (Side::Confluence, 1, 6)] {
        g.decider = side;
        let v = View::new(&g, db);
        assert_eq!(
            v.darkness_gap(Exp::Hero),
            hero - g.dark.get(Exp::Hero),
            "{side:?}"
        );
        assert_eq!(
            v.darkness_gap(Exp::Companion),
            g.dark.get(Exp::Companion) - companion,
            "{side:?}"
        );
    }
}
