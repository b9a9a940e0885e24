//! The four-seat seat effect follows the lanes (issue 49, item 2; docs/free-for-all.md, "The
//! seat effect"; RULES.md F1). With `planner` at every seat of a mirror table (one deck at
//! all four seats) the odd seats win about 2 points more than the even ones. Is that the
//! table's geometry (an odd seat's Hero expedition races the seat before it in the turn
//! order, an even seat's the seat after it) or something that reads seat numbers? The same
//! games with the lanes laid out the other way round the table (`FfaSetup::mirror_lanes`,
//! not a rule: Hero lanes 1–2 and 3–0) tell them apart: the mirrored table is the standard
//! one turned by one seat, so a geometric effect moves to the even seats, while anything
//! that reads seat numbers stays where it was.

mod common;

use confluence_sim::engine::ChoiceList;
use confluence_sim::policy::{PolicyData, PolicySpec};
use confluence_sim::sim::duel::DuelSeat;
use confluence_sim::sim::ffa::{FfaGame, FfaSeeds, first_seat, play_ffa_with};

/// Games won by each seat over games `0..games` of `deck` at all four seats, `planner` at
/// every seat, the first player turning round the table with the game index as `ffa`
/// turns it; the lanes as RULES.md F1 lays them or mirrored. Two threads; the counts do not
/// depend on how the games are split.
fn seat_wins(s: &common::Setup, deck: usize, mirror: bool, seed: u64, games: u64) -> [u64; 4] {
    let db = &s.lib.db;
    let data = PolicyData::new(db);
    let spec: PolicySpec = "planner".parse().unwrap();
    let d = &s.decks[deck];
    let threads = 2u64;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (data, spec) = (&data, &spec);
                scope.spawn(move || {
                    let mut wins = [0u64; 4];
                    let mut buf = ChoiceList::new();
                    let mut pol: [_; 4] =
                        std::array::from_fn(|_| spec.build_ffa(data).expect("planner"));
                    let seat = DuelSeat {
                        hero: d.hero,
                        cards: &d.cards,
                        ordered: false,
                    };
                    for g in (t..games).step_by(threads as usize) {
                        let seeds = FfaSeeds::new(seed, deck as u64, g);
                        let game = FfaGame {
                            seats: [seat; 4],
                            first: first_seat(g),
                            day_cap: 30,
                            seeds: &seeds,
                            mirror_lanes: mirror,
                        };
                        let [a, b, c, e] = &mut pol;
                        let r = play_ffa_with(
                            db,
                            &game,
                            [a, b, c, e],
                            &mut buf,
                            &mut confluence_sim::engine::event::NoObserver,
                            |_, _, _, _| {},
                        );
                        if let Some(w) = r.winner {
                            wins[w as usize] += 1;
                        }
                    }
                    wins
                })
            })
            .collect();
        handles.into_iter().fold([0u64; 4], |mut acc, h| {
            let w = h.join().unwrap();
            for k in 0..4 {
                acc[k] += w[k];
            }
            acc
        })
    })
}

/// The odd seats' share of the games won, in points, and its standard error.
fn odd_share(w: [u64; 4]) -> (f64, f64) {
    let n = w.iter().sum::<u64>() as f64;
    let p = (w[1] + w[3]) as f64 / n;
    (100.0 * p, 100.0 * (p * (1.0 - p) / n).sqrt())
}

/// The measurement behind docs/free-for-all.md: every starter's mirror table, both
/// layouts. `FFA_LANES_GAMES` games a layout and deck (default 20,000);
/// `cargo test --test ffa_lanes -- --ignored --nocapture` (7 minutes in a debug build).
#[test]
#[ignore = "a measurement (minutes); the pinned test is the_odd_seat_edge_follows_the_lanes"]
fn measure_every_starter() {
    let s = common::setup();
    let games: u64 = std::env::var("FFA_LANES_GAMES")
        .ok()
        .map_or(20_000, |v| v.parse().unwrap());
    let mut tot = [[0u64; 4]; 2];
    for deck in 0..s.decks.len() {
        for (m, mirror) in [false, true].into_iter().enumerate() {
            let w = seat_wins(&s, deck, mirror, 1, games);
            let (p, se) = odd_share(w);
            let n = w.iter().sum::<u64>() as f64;
            let pct = w.map(|x| format!("{:.2}", 100.0 * x as f64 / n));
            println!(
                "deck {} mirror {mirror}: seats {pct:?}, odd seats {p:.2}% ± {se:.2}",
                s.decks[deck].name
            );
            for k in 0..4 {
                tot[m][k] += w[k];
            }
        }
    }
    for (m, w) in tot.iter().enumerate() {
        let (p, se) = odd_share(*w);
        println!(
            "all decks, mirror {}: {w:?}, odd seats {p:.2}% ± {se:.2}",
            m == 1
        );
    }
}

/// The pinned check: Kojo & Booda (Bravos) at all four seats, `planner`, 3,000 games a
/// layout (seed 49). With the lanes of RULES.md F1 the odd seats win 55% of the games
/// (seed 1, 20,000 games: 55.1%); with the lanes mirrored the even seats do, by as much.
/// The standard error of a share is 0.9 points here, so each side stands about 5 of them
/// from 50%. Were the edge read from the seat numbers, the mirrored table would still favour
/// the odd seats; were `mirror_lanes` ignored, likewise.
#[test]
fn the_odd_seat_edge_follows_the_lanes() {
    let s = common::setup();
    let bravos = s
        .decks
        .iter()
        .position(|d| d.name == "BR_kojo_booda")
        .unwrap();
    let games = 3_000;
    let standard = seat_wins(&s, bravos, false, 49, games);
    let mirrored = seat_wins(&s, bravos, true, 49, games);
    let (p, se) = odd_share(standard);
    let (q, _) = odd_share(mirrored);
    let msg = format!(
        "wins by seat: lanes of F1 {standard:?} (odd seats {p:.2}%), mirrored {mirrored:?} \
         (odd seats {q:.2}%); standard error {se:.2}"
    );
    assert!(p > 50.0, "the odd seats do not lead with F1's lanes: {msg}");
    assert!(
        q < 50.0,
        "the odd seats still lead with the lanes mirrored: {msg}"
    );
}
