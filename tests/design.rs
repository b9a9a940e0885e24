//! The design algorithms called from the library, not through the binary (issue 50, item 2):
//! `design::tune`, `design::sensitivity` (raced and not) and `design::optimize`, each with
//! tiny budgets of `greedy` games, checked against games played independently through
//! `sim::run` on the same indices, so that a wrong pairing, a wrong block of game indices
//! or a wrong ranking fails.

use std::path::PathBuf;

use confluence_sim::deck::RareMix;
use confluence_sim::deck::edit::confluence_grid;
use confluence_sim::deck::swap;
use confluence_sim::design::optimize::tables::{Measured, best_deck, kept};
use confluence_sim::design::optimize::{self, MEASURE_FIRST, Player, SearchParams, StepKind};
use confluence_sim::design::sensitivity::{self, SensitivityConfig, race::Race};
use confluence_sim::design::tune::{self, TuneConfig};
use confluence_sim::design::{Progress, Silent};
use confluence_sim::job::config::{Edits, Play};
use confluence_sim::job::load::{self, Loaded};
use confluence_sim::sim::{ConfigSpec, RunPlan};
use confluence_sim::stats::Accum;
use confluence_sim::stats::interval::paired;

/// The default player deck against the reference Confluence deck, played by `greedy`.
fn loaded() -> Loaded {
    load::load(&Play {
        players: Vec::new(),
        confluence: PathBuf::from("decks/confluence/reference.toml"),
        policies: vec!["greedy".to_string()],
        calibrated: None,
        rares: Vec::new(),
        rare_sets: Vec::new(),
        subsets: 1,
        day_cap: 30,
        allow_illegal: false,
        cards: PathBuf::from("decks/cards"),
        expert_weights: None,
        value_weights: None,
        edits: Edits::default(),
    })
    .unwrap()
}

/// `mix`'s games on indices `first..first + games`, played apart from any design algorithm,
/// with the decks given (the loaded ones by default); with `won`, each game's win in order.
fn games_of(
    l: &Loaded,
    decks: Option<(
        &confluence_sim::deck::ConfluenceDeck,
        &[confluence_sim::deck::PlayerDeck],
    )>,
    mix: RareMix,
    (first, games): (u64, u64),
    seed: u64,
) -> (Accum, Vec<bool>) {
    let (confluence, players) = decks.unwrap_or((&l.confluence, &l.players));
    let plan = RunPlan {
        db: &l.lib.db,
        players,
        confluence,
        policies: &l.policies,
        configs: vec![ConfigSpec {
            player: 0,
            policy: 0,
            mix,
        }],
        games,
        first_game: first,
        seed,
        threads: 1,
        day_cap: 30,
        models: l.models(),
    };
    let mut won = Vec::new();
    let mut sink = |rows: &[confluence_sim::sim::GameRow]| -> Result<(), String> {
        won.extend(rows.iter().map(|r| r.outcome.is_win()));
        Ok(())
    };
    let r = confluence_sim::sim::run::<String>(&plan, &|_| {}, Some(&mut sink)).unwrap();
    (r.accums.into_iter().next().unwrap(), won)
}

/// Counts the games a design algorithm says it played.
#[derive(Default)]
struct Count(std::sync::atomic::AtomicU64);

impl Progress for Count {
    fn played(&self, games: u64) {
        self.0
            .fetch_add(games, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Count {
    fn get(&self) -> u64 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

#[test]
fn tune_confirms_the_mixes_predicted_closest_on_fresh_games() {
    let l = loaded();
    let n = l.confluence.rares.len();
    let c = TuneConfig {
        target: 0.4,
        games: 12,
        subsets: 1,
        candidates: 3,
        confirm: 16,
        seed: 9,
        threads: 2,
        day_cap: 30,
    };
    let design = tune::screening_design(n, c.subsets, c.seed);
    // All commons, all rares, each alone, all but each, one subset of each other size.
    assert_eq!(design[..2], [RareMix(0), RareMix::all(n)]);
    assert!((0..n).all(|j| design.contains(&RareMix(1 << j))));
    assert!(design.len() <= 2 + 2 * n + (n - 1));
    let count = Count::default();
    let t = tune::tune(&l, design.clone(), &c, &count).unwrap();
    let total = c.total_games(design.len()).unwrap();
    assert_eq!(count.get(), total, "the progress hears of every game");
    assert_eq!(total, 12 * design.len() as u64 + 16 * 3);
    // The screening is game indices 0..12 of each mix.
    for (mix, acc) in design.iter().zip(&t.screening).take(4) {
        let (own, _) = games_of(&l, None, *mix, (0, 12), 9);
        assert_eq!((acc.won(), acc.games), (own.won(), own.games), "{mix:?}");
    }
    // The candidates are the mixes predicted closest to the target...
    let worst = t
        .predicted
        .iter()
        .map(|m| (t.fit.predict(m.0) - 0.4).abs())
        .fold(0.0, f64::max);
    for b in 0..(1u32 << n) {
        if !t.predicted.contains(&RareMix(b as u16)) {
            assert!((t.fit.predict(b as u16) - 0.4).abs() >= worst, "mix {b}");
        }
    }
    // ...confirmed on the indices after the screening's, and ranked by measured distance.
    assert_eq!(t.candidates.len(), 3);
    for cand in &t.candidates {
        let (own, _) = games_of(&l, None, cand.mix, (12, 16), 9);
        assert_eq!((cand.acc.won(), cand.acc.games), (own.won(), 16));
        assert_eq!(cand.predicted, t.fit.predict(cand.mix.0));
    }
    let d: Vec<f64> = t
        .candidates
        .iter()
        .map(|c| (c.acc.won() as f64 / c.acc.games as f64 - 0.4).abs())
        .collect();
    assert!(d.windows(2).all(|w| w[0] <= w[1]), "{d:?}");
    // The effects, most difficulty first, one per rare.
    assert_eq!(t.effects.len(), n);
    assert!(t.effects.windows(2).all(|w| w[0].estimate <= w[1].estimate));
    let table = tune::rares_table(&t, &l);
    assert_eq!(table.rows(), n);
}

#[test]
fn sensitivity_pairs_each_edit_with_the_baselines_games_and_races_them() {
    let mut l = loaded();
    let grid = sensitivity::select(
        confluence_grid(&l.confluence, &l.lib.db),
        &["Gloom Wisp".to_string()],
        &l,
    )
    .unwrap();
    assert!(grid.len() > 2);
    let mix = RareMix(0);
    let plan = sensitivity::plan(&mut l, grid, &[mix]).unwrap();
    let unraced = SensitivityConfig {
        games: 40,
        seed: 5,
        threads: 2,
        day_cap: 30,
        race: Race {
            first: None,
            negligible: 0.01,
            target: None,
        },
    };
    let count = Count::default();
    let s = sensitivity::run(&l, &plan, &unraced, &count).unwrap();
    assert_eq!(count.get(), 40 * plan.total_configs() as u64);
    assert_eq!(s.played_games, count.get());
    let (base, base_won) = games_of(&l, None, mix, (0, 40), 5);
    assert_eq!(s.base[0].won, base_won);
    assert_eq!(s.rows.len(), plan.grid.len());
    for r in &s.rows {
        let (conf, players) = &plan.variants[r.edit];
        let (own, won) = games_of(&l, Some((conf, players)), mix, (0, 40), 5);
        assert_eq!((r.wins, r.games), (own.won(), 40), "{}", plan.grid[r.edit]);
        assert_eq!(r.diff, paired(&base_won, &won), "{}", plan.grid[r.edit]);
        assert_eq!(r.base_rate, base.won() as f64 / 40.0);
        assert!(!r.stopped);
    }
    // Ranked by the size of the effect.
    assert!(
        s.rows
            .windows(2)
            .all(|w| w[0].diff.0.abs() >= w[1].diff.0.abs())
    );

    // Raced with a first stage of 10 games and a wide margin: the edits that stop have
    // played games 0..10, paired with the baseline's first 10.
    let raced = SensitivityConfig {
        race: Race {
            first: Some(10),
            negligible: 0.9,
            target: None,
        },
        ..unraced
    };
    let s = sensitivity::run(&l, &plan, &raced, &Silent).unwrap();
    assert_eq!(s.stages, [10, 20, 40]);
    let stopped: Vec<_> = s.rows.iter().filter(|r| r.stopped).collect();
    assert!(!stopped.is_empty(), "a 90-point margin stops some edit");
    for r in &stopped {
        assert!(r.games < 40 && s.stages.contains(&r.games));
        let (conf, players) = &plan.variants[r.edit];
        let (_, won) = games_of(&l, Some((conf, players)), mix, (0, r.games), 5);
        let b = &base_won[..r.games as usize];
        assert_eq!(r.diff, paired(b, &won), "{}", plan.grid[r.edit]);
    }
    // An edit that leaves the decks as they were (a rare outside the mix) plays nothing.
    let raced = s.rows.iter().filter(|r| !r.unchanged);
    let played: u64 = 40 + raced.map(|r| r.games).sum::<u64>();
    assert_eq!(s.played_games, played);
    assert!(played < 40 * plan.total_configs() as u64);
}

#[test]
fn optimize_searches_on_fresh_blocks_and_measures_apart_the_same_on_any_thread_count() {
    let l = loaded();
    let deck = l.players[0].clone();
    let offers = swap::pool_of_sets(&["CORE".to_string()], &deck, &l.lib.pool, &l.lib.db).unwrap();
    let conf = l.confluence.clone();
    let policy = l.policies[0].clone();
    let run = |threads: usize, l: &Loaded| {
        let player = Player {
            db: &l.lib.db,
            hero: deck.hero,
            confluence_hero: conf.hero,
            confluence_cards: conf.cards_for(RareMix(0)),
            policy: &policy,
            models: l.models(),
            seed: 3,
            day_cap: 30,
            threads,
        };
        let params = SearchParams {
            games: 600,
            batch: 4,
            stage_games: 10,
            confirm: 40,
            kick: 2,
            seed: 3,
        };
        let count = Count::default();
        let r = optimize::search(
            &player,
            &offers,
            &deck.cards,
            &params,
            &mut |g| count.played(g),
            &mut |_| {},
            &|| false,
        );
        assert_eq!(count.get(), r.games);
        let m = optimize::measure(&player, &[&deck.cards, &r.best], 30);
        (r, m)
    };
    let (a, ma) = run(1, &l);
    let (b, mb) = run(2, &l);
    assert_eq!(a.best, b.best);
    assert_eq!(ma, mb);
    assert_eq!(a.steps.len(), b.steps.len());
    // Within budget, each step on a fresh block of indices below the measurement's.
    assert!(a.games <= 600 && a.games > 0);
    let mut end = 0;
    for s in a.steps.iter().filter(|s| s.kind != StepKind::Restart) {
        assert!(s.first_game >= end, "step {} reuses games", s.step);
        end = s.end_game;
    }
    assert!(end <= a.end_game && a.end_game < MEASURE_FIRST);
    // The best deck is legal, and the measurement is the start deck's games from
    // MEASURE_FIRST.
    let (_, best) = best_deck(deck.hero, &a.best, &[], &l.lib).unwrap();
    assert!(best.violations(&l.lib.db).is_empty());
    let m = Measured::new(&ma, 30);
    assert_eq!(m.diff, paired(&ma[0], &ma[1]));
    let (start, won) = games_of(&l, None, RareMix(0), (MEASURE_FIRST, 30), 3);
    assert_eq!(
        ma[0], won,
        "the start deck's measurement is its games from MEASURE_FIRST"
    );
    assert_eq!(m.wins[0], start.won());
    assert!(kept(&a.steps) <= a.steps.len());
}
