//! Seat symmetry head to head (issue 49, RULES.md F8): which seat a deck sits in changes
//! nothing but the labels. Two starter decks play a game; then the same two decks play it
//! with the seats swapped, the same deck first, every deck in the same order (decks are laid
//! out as given, `ordered`, so no seat's shuffle stream decides them) and the same
//! Adventure, event and policy streams (each deck keeps its own policy stream). Every rule reads seats through the initiative and the
//! lanes, so the second game is the first with the seats relabelled: the same winner (as a
//! deck), the same days and the same cards played by each deck.

mod common;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use confluence_sim::cards::effect::CardIdx;
use confluence_sim::engine::GameState;
use confluence_sim::engine::event::{Event, Observer};
use confluence_sim::engine::view::View;
use confluence_sim::engine::{ChoiceList, Step, advance, apply_unchecked, legal_choices};
use confluence_sim::policy::{Policy, PolicyData, PolicyRng, PolicySpec};
use confluence_sim::sim::duel::{DuelRules, DuelSeat, start_duel};
use confluence_sim::sim::seed::GameSeeds;

/// What a game came to: the winning seat, the days, the cards each seat played, and every
/// expedition's move in order (seat, expedition, from, to): at Dusk the seats move in
/// initiative order.
#[derive(Debug)]
struct Played {
    winner: Option<u8>,
    days: u8,
    plays: [u16; 2],
    moves: Vec<(u8, u8, i8, i8)>,
}

impl Played {
    /// The same game seen with the seats swapped.
    fn swapped(&self) -> Played {
        Played {
            winner: self.winner.map(|w| 1 - w),
            days: self.days,
            plays: [self.plays[1], self.plays[0]],
            moves: self
                .moves
                .iter()
                .map(|&(s, e, a, b)| (1 - s, e, a, b))
                .collect(),
        }
    }

    fn same(&self, o: &Played) -> bool {
        (self.winner, self.days, self.plays, &self.moves) == (o.winner, o.days, o.plays, &o.moves)
    }
}

struct Moves(Vec<(u8, u8, i8, i8)>);

impl Observer for Moves {
    const ENABLED: bool = true;
    fn event(&mut self, _: &GameState, ev: &Event<'_>) {
        if let Event::ExpeditionMoved {
            side,
            exp,
            from,
            to,
        } = ev
        {
            self.0
                .push((side.index() as u8, exp.index() as u8, *from, *to));
        }
    }
}

/// One game of `decks` (seat A, seat B), seat `first` first, every seat playing `spec`;
/// `streams[k]` is the policy stream of seat k's deck. Returns the winning seat, the days
/// the cards each seat played and the expeditions' moves.
fn game(
    s: &common::Setup,
    decks: [(CardIdx, &[CardIdx]); 2],
    first: u8,
    seeds: &GameSeeds,
    spec: &PolicySpec,
    streams: [u64; 2],
) -> Played {
    let db = &s.lib.db;
    let data = PolicyData::new(db);
    let mut policies = [spec.build(&data), spec.build(&data)];
    let mut prng = streams.map(PolicyRng::seed_from_u64);
    let seats = decks.map(|(hero, cards)| DuelSeat {
        hero,
        cards,
        ordered: true,
    });
    let mut moves = Moves(Vec::new());
    let (mut g, mut rng) = start_duel(db, seats, first, DuelRules::standard(30), seeds, &mut moves);
    let mut buf = ChoiceList::new();
    loop {
        match advance(&mut g, db, &mut rng, &mut moves) {
            Step::Over(outcome) => {
                let winner = outcome.winner().map(|side| side.index() as u8);
                return Played {
                    winner,
                    days: g.day,
                    plays: g.plays.0,
                    moves: moves.0,
                };
            }
            Step::Decide => {
                legal_choices(&g, db, &mut buf);
                let k = g.decider.index();
                let pick = if buf.len() == 1 {
                    0
                } else {
                    policies[k].choose(&View::new(&g, db), &buf, &mut prng[k])
                };
                apply_unchecked(&mut g, db, &mut rng, &mut moves, buf[pick]);
            }
            Step::Stopped => unreachable!(),
        }
    }
}

/// Plays `games` pairs of starter decks both ways round and returns the games whose swapped
/// twin did not mirror them.
fn asymmetric(spec: &str, games: u64) -> Vec<String> {
    let s = common::setup();
    let spec: PolicySpec = spec.parse().unwrap();
    let n = s.decks.len();
    let mut bad = Vec::new();
    for g in 0..games {
        let (i, j) = ((g as usize) % n, (g as usize / n + 1 + g as usize) % n);
        if i == j {
            continue;
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(g);
        let mut x = s.decks[i].cards.clone();
        let mut y = s.decks[j].cards.clone();
        x.shuffle(&mut rng);
        y.shuffle(&mut rng);
        let (dx, dy) = ((s.decks[i].hero, &x[..]), (s.decks[j].hero, &y[..]));
        let seeds = GameSeeds::new(49, g);
        let first = (g % 2) as u8;
        let streams = [g ^ 0x1111, g ^ 0x2222];
        let one = game(&s, [dx, dy], first, &seeds, &spec, streams);
        let two = game(
            &s,
            [dy, dx],
            1 - first,
            &seeds,
            &spec,
            [streams[1], streams[0]],
        );
        if !one.swapped().same(&two) {
            let (a, b) = (one.swapped(), two);
            bad.push(format!(
                "game {g} (decks {i} and {j}): winner {:?} {:?}, days {} {}, plays {:?} {:?}, first moves {:?} {:?}",
                a.winner,
                b.winner,
                a.days,
                b.days,
                a.plays,
                b.plays,
                &a.moves[..a.moves.len().min(4)],
                &b.moves[..b.moves.len().min(4)]
            ));
        }
    }
    bad
}

#[test]
fn swapping_seats_relabels_random_games() {
    let bad = asymmetric("random", 300);
    assert!(bad.is_empty(), "{} games:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn swapping_seats_relabels_greedy_games() {
    let bad = asymmetric("greedy", 300);
    assert!(bad.is_empty(), "{} games:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn swapping_seats_relabels_planner_games() {
    let bad = asymmetric("planner", 150);
    assert!(bad.is_empty(), "{} games:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn swapping_seats_relabels_expert_games() {
    let bad = asymmetric("expert", 100);
    assert!(bad.is_empty(), "{} games:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn swapping_seats_relabels_search_games() {
    let bad = asymmetric("search:rollouts=4", 20);
    assert!(bad.is_empty(), "{} games:\n{}", bad.len(), bad.join("\n"));
}
