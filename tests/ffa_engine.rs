//! Free for All games through the engine: four starter decks laid out by `new_ffa`, every
//! decision taken at random among the legal options. Every game ends (a seat wins or the
//! day cap), every seat decides, and the same streams give the same game. Debug builds run
//! the invariant checker after every engine step.

mod common;

use rand::{RngExt, SeedableRng};

use confluence_sim::cards::types::{Exp, Side};
use confluence_sim::engine::event::{Event, Observer, Why};
use confluence_sim::engine::ffa::{FfaState, new_ffa};
use confluence_sim::engine::state::Zone;
use confluence_sim::engine::{
    Choice, ChoiceList, Decision, GameRng, Outcome, Step, advance, apply, legal_choices,
};

/// What one game came to: its outcome, its last day and how many decisions each seat took.
#[derive(Debug, PartialEq, Eq)]
struct Played {
    outcome: Outcome,
    day: u8,
    decisions: [u32; 4],
    /// Times a seat chose the opponent an effect concerns (`Decision::Seat`).
    seat_choices: u32,
    /// Rests where cards of two seats or more left their expeditions.
    shared_rests: u32,
}

/// Checks the events of a four-seat game as it goes: the first-player token passes left
/// each Morning (RULES.md F6), each Dusk's report pairs every expedition with the one
/// across its lane (F1, F4), both sides of a lane reporting the same totals, and at Rest
/// the seats' cards move clockwise from the first player (F8).
#[derive(Default)]
struct Checker {
    day: u8,
    first: u8,
    dusks: u32,
    /// The seats whose cards left an expedition at this Rest, in the order they moved.
    rested: Vec<u8>,
    /// Rests where two seats or more moved cards.
    shared_rests: u32,
}

impl Checker {
    /// At a Rest's end: the seats' cards moved seat by seat, clockwise from the first
    /// player (RULES.md F8: they take their timestamps in initiative order).
    fn check_rest(&mut self, s: &FfaState) {
        let mut seats: Vec<u8> = Vec::new();
        for &seat in &self.rested {
            if seats.last() != Some(&seat) {
                assert!(
                    !seats.contains(&seat),
                    "seat {seat} moved twice apart: {:?}",
                    self.rested
                );
                seats.push(seat);
            }
        }
        // The first player during that Rest (the event after it may be the next Morning's).
        let first = self.first;
        let clockwise: Vec<u8> = (0..4)
            .map(|k| (first + k) % 4)
            .filter(|x| seats.contains(x))
            .collect();
        assert_eq!(seats, clockwise, "day {}: first player {first}", s.day);
        self.shared_rests += (seats.len() > 1) as u32;
        self.rested.clear();
    }
}

impl Observer<4, 255> for Checker {
    const ENABLED: bool = true;
    fn event(&mut self, s: &FfaState, ev: &Event<'_>) {
        match ev {
            Event::Moved {
                side,
                from: Zone::Expedition,
                why: Why::Rest,
                ..
            } => self.rested.push(side.seat()),
            _ if !self.rested.is_empty() => self.check_rest(s),
            _ => {}
        }
        match ev {
            Event::DayStart { day } => {
                assert_eq!(*day, self.day + 1);
                let expected = s.table.left(self.first);
                assert_eq!(
                    s.first_player().seat(),
                    expected,
                    "day {day}: the token went elsewhere"
                );
            }
            Event::FfaDusk(r) if r.arena => self.dusks += 1,
            Event::FfaDusk(r) => {
                self.dusks += 1;
                assert_eq!(r.playing, s.table.playing());
                for seat in 0..4u8 {
                    if !s.table.is_playing(seat) {
                        continue;
                    }
                    for e in [Exp::Hero, Exp::Companion] {
                        let across = r.across[seat as usize][e.index()];
                        assert_eq!(across, s.table.facing(seat, e));
                        let Some((t, f)) = across else { continue };
                        let mine = r.exps[seat as usize][e.index()];
                        let theirs = r.exps[t as usize][f.index()];
                        assert_eq!(
                            mine.theirs, theirs.mine,
                            "seat {seat} {e:?} against seat {t}"
                        );
                        assert_eq!(mine.mine, theirs.theirs);
                        assert!(!mine.advances || mine.won != 0);
                    }
                }
            }
            _ => {}
        }
        self.day = s.day;
        self.first = s.first_player().seat();
    }
}

/// Plays game `g` of decks `seats` (indices into the starters) at random.
fn play(s: &common::Setup, seats: [usize; 4], g: u64) -> Played {
    let f = s.pod(seats, g);
    let mut streams: [GameRng; 4] =
        std::array::from_fn(|k| GameRng::seed_from_u64(g * 8 + k as u64));
    let [a, b, c, d] = &mut streams;
    let mut rng = GameRng::seed_from_u64(g * 8 + 5);
    let mut pick = GameRng::seed_from_u64(g * 8 + 6);
    let db = &s.lib.db;
    let mut obs = Checker::default();
    let mut st = new_ffa(db, &f, [a, b, c, d], &mut rng, &mut obs);
    let mut buf = ChoiceList::new();
    let mut decisions = [0u32; 4];
    let mut seat_choices = 0;
    loop {
        match advance(&mut st, db, &mut rng, &mut obs) {
            Step::Over(outcome) => {
                assert!(
                    obs.dusks >= u32::from(st.day) - 1,
                    "a day without its Dusk report"
                );
                return Played {
                    outcome,
                    day: st.day,
                    decisions,
                    seat_choices,
                    shared_rests: obs.shared_rests,
                };
            }
            Step::Stopped => unreachable!("advance never stops early"),
            Step::Decide => {
                legal_choices(&st, db, &mut buf);
                assert!(
                    !buf.is_empty(),
                    "decision {:?} with no options",
                    st.decision
                );
                decisions[st.decider.index()] += 1;
                if st.decision == Decision::Seat {
                    // Every opponent still playing is offered, and only they are.
                    let offered: Vec<Choice> = buf.to_vec();
                    let expected: Vec<Choice> = st
                        .table
                        .opponents(st.decider)
                        .map(|s| Choice::Seat(s.seat()))
                        .collect();
                    assert_eq!(offered, expected);
                    assert!(offered.len() >= 2, "one opponent is chosen without asking");
                    seat_choices += 1;
                }
                let k = pick.random_range(0..buf.len());
                apply(&mut st, db, &mut rng, &mut obs, buf[k]).expect("a legal choice");
            }
        }
    }
}

/// Games per table.
const GAMES: u64 = 25;

#[test]
fn random_four_seat_games_end() {
    let s = common::setup();
    // Every starter sits at the table at least once, in two different orders.
    let tables = [[0, 1, 2, 3], [4, 5, 0, 1], [2, 3, 4, 5], [5, 2, 1, 0]];
    let mut won = [0u32; 4];
    let (mut seat_choices, mut shared_rests) = (0, 0);
    for (t, seats) in tables.iter().enumerate() {
        for g in 0..GAMES {
            let g = t as u64 * GAMES + g;
            let r = play(&s, *seats, g);
            assert!(
                r.decisions.iter().all(|&n| n > 0),
                "table {seats:?} game {g}: a seat never decided ({r:?})"
            );
            seat_choices += r.seat_choices;
            shared_rests += r.shared_rests;
            match r.outcome.winner() {
                Some(seat) => won[seat.index()] += 1,
                None => assert_eq!(r.outcome, Outcome::DayCap, "table {seats:?} game {g}"),
            }
            assert_eq!(
                r,
                play(&s, *seats, g),
                "table {seats:?} game {g}: not repeatable"
            );
        }
    }
    // Random play still finishes races: most games have a winner.
    let decided: u32 = won.iter().sum();
    let games = 4 * GAMES as u32;
    assert!(
        decided >= games / 2,
        "only {decided} of {games} games were won ({won:?})"
    );
    // The starters' "opponent" effects asked which opponent.
    assert!(seat_choices > 0, "no effect asked for an opponent");
    // The Rest order was checked where it matters: several seats' cards leaving at once.
    assert!(shared_rests > 100, "only {shared_rests} shared Rests");
    eprintln!("{games} games: wins by seat {won:?}, {seat_choices} opponent choices");
}

/// A deck against itself at every seat, the first player rotating: no seat is favoured
/// beyond chance (each seat is the same place on the ring).
#[test]
fn mirror_tables_favour_no_seat() {
    let s = common::setup();
    let mut won = [0u32; 4];
    let games = 200u64;
    for g in 0..games {
        let r = play(&s, [1; 4], 10_000 + g);
        if let Some(seat) = r.outcome.winner() {
            won[seat.index()] += 1;
        }
    }
    // 50 a seat expected, 6 the standard deviation: 30 to 70 is over three of them.
    assert!(
        won.iter().all(|&w| (30..=70).contains(&w)),
        "wins by seat {won:?}"
    );
}

/// One four-seat game of starter decks (game `g`'s decks, first player and streams), seat
/// `k` played by `names[k]` (a search plays the other seats in its rollouts by theirs),
/// each seat deciding from its own view and every choice checked by `apply`. Returns the
/// outcome, every choice taken, and how many opponent choices a careful player
/// (`greedy`, `planner`, `expert`) made, each checked to name the opponent furthest ahead.
fn play_table(s: &common::Setup, names: [&str; 4], g: u64) -> (Outcome, Vec<u8>, u32) {
    use confluence_sim::engine::ffa::FfaView;
    use confluence_sim::policy::{Policy, PolicyData, PolicyRng, PolicySpec};

    let db = &s.lib.db;
    let data = PolicyData::new(db);
    let specs: Vec<PolicySpec> = names.iter().map(|n| n.parse().unwrap()).collect();
    let table: [&PolicySpec; 4] = std::array::from_fn(|k| &specs[k]);
    let mut policies: Vec<_> = (0..4)
        .map(|k| specs[k].build_ffa_at(&data, k, table).unwrap())
        .collect();
    let seats = [
        g as usize % 6,
        (g as usize + 1) % 6,
        (g as usize + 3) % 6,
        2,
    ];
    let f = s.pod(seats, g);
    let mut streams: [GameRng; 4] =
        std::array::from_fn(|k| GameRng::seed_from_u64(500 + g * 8 + k as u64));
    let [a, b, c, d] = &mut streams;
    let mut rng = GameRng::seed_from_u64(500 + g * 8 + 5);
    let mut prng: [PolicyRng; 4] =
        std::array::from_fn(|k| PolicyRng::seed_from_u64(900 + g * 8 + k as u64));
    let mut obs = confluence_sim::engine::event::NoObserver;
    let mut st = new_ffa(db, &f, [a, b, c, d], &mut rng, &mut obs);
    let mut buf = ChoiceList::new();
    let (mut choices, mut leader_checks) = (Vec::new(), 0);
    loop {
        match advance(&mut st, db, &mut rng, &mut obs) {
            Step::Over(outcome) => return (outcome, choices, leader_checks),
            Step::Stopped => unreachable!(),
            Step::Decide => {
                legal_choices(&st, db, &mut buf);
                let seat = st.decider.index();
                let view = FfaView::new(&st, db);
                assert_eq!(view.me(), st.decider, "a seat decides from its own view");
                let k = policies[seat].choose(&view, &buf, &mut prng[seat]);
                assert!(
                    k < buf.len(),
                    "{}: option {k} of {}",
                    names[seat],
                    buf.len()
                );
                choices.push(k as u8);
                if st.decision == Decision::Seat
                    && matches!(names[seat], "greedy" | "planner" | "expert")
                {
                    let advance_of = |c: &Choice| match *c {
                        Choice::Seat(x) => {
                            let side = Side::of_seat(x);
                            st.progress_of(side, Exp::Hero) + st.progress_of(side, Exp::Companion)
                        }
                        _ => i8::MIN,
                    };
                    let best = buf.iter().map(advance_of).max().unwrap();
                    assert_eq!(advance_of(&buf[k]), best, "game {g}: not the leader");
                    leader_checks += 1;
                }
                apply(&mut st, db, &mut rng, &mut obs, buf[k]).expect("a legal choice");
            }
        }
    }
}

/// Every policy plays Free for All (`random`, `greedy`, `planner`, `expert`, `search`,
/// `clairvoyant`) at one table, each seat deciding from its own view: every choice is
/// legal (`apply` checks it), every game ends, the careful players' opponent choice names
/// the opponent furthest ahead, and a table of `expert` and the searches plays the same
/// game again from the same streams.
#[test]
fn every_policy_plays_four_seat_games_legally_and_repeatably() {
    let s = common::setup();
    let (mut won, mut leader_checks) = (0, 0);
    for g in 0..12u64 {
        let (outcome, _, checks) = play_table(&s, ["greedy", "planner", "random", "planner"], g);
        won += outcome.winner().is_some() as u32;
        leader_checks += checks;
    }
    assert!(won >= 6, "only {won} of 12 games were won");
    // The strong players, with a small search budget so that debug builds stay quick.
    let strong = [
        "expert",
        "search:rollouts=2,width=2",
        "planner",
        "clairvoyant:rollouts=2,width=2",
    ];
    for g in 0..2u64 {
        let (outcome, choices, checks) = play_table(&s, strong, g);
        leader_checks += checks;
        let again = play_table(&s, strong, g);
        assert_eq!(
            (outcome, &choices),
            (again.0, &again.1),
            "game {g}: the same streams played another game"
        );
        assert!(
            choices.len() > 20,
            "game {g}: only {} decisions",
            choices.len()
        );
    }
    for g in 0..4u64 {
        let (outcome, _, checks) = play_table(&s, ["expert", "expert", "planner", "expert"], g);
        won += outcome.winner().is_some() as u32;
        leader_checks += checks;
    }
    eprintln!(
        "{won} of 16 games won; {leader_checks} opponent choices by greedy, planner or expert"
    );
}
