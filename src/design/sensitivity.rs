//! Which single change to a Confluence card moves the win rate most (`confluence-sim
//! sensitivity`). Every edit of the grid ([`crate::deck::edit::confluence_grid`]: each card's
//! statistics and costs by one, each other Midnight indication, each keyword toggled, each
//! common replaced by its rare) is played on the same games (the same game indices and
//! seeds) as the unedited decks, and compared with them game by game (paired differences).
//! By default the grid is raced ([`race`]): an edit whose effect is already shown to be
//! negligible stops after fewer games. With a target, [`toward`] and [`play_pairs`] find
//! the edits that reach a win rate: the single edits closest to it, and pairs of the edits
//! that move it most towards it, played on the same games.
//!
//! In order: [`select`] the grid's edits, [`plan`] the edited decks, [`run`] the grid, then
//! (with a target) [`toward`] and [`play_pairs`]; [`tables`] makes the outputs.
//!
//! Layer: part of [`crate::design`].

pub mod race;
pub mod tables;

use anyhow::Result;

use super::Progress;
use crate::cards::pool::normalize_name;
use crate::deck::edit::{CardRef, Print, apply};
use crate::deck::{ConfluenceDeck, Edit, PlayerDeck, RareMix};
use crate::job::error::usage;
use crate::job::load::Loaded;
use crate::sim::{ConfigSpec, GameRow, RunPlan};
use crate::stats::Accum;
use crate::stats::interval::{paired, wilson};
use race::Race;

/// How the grid is played.
#[derive(Clone, Copy, Debug)]
pub struct SensitivityConfig {
    /// Games per configuration (at most, when raced).
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub day_cap: u8,
    /// The racing, and the target a candidate edit must not be stopped short of.
    pub race: Race,
}

/// What one configuration's games gave: each game's win, in game order, and the statistics.
#[derive(Clone, Debug)]
pub struct Played {
    pub won: Vec<bool>,
    pub acc: Accum,
}

/// One edit on one configuration.
#[derive(Clone, Debug)]
pub struct Row {
    /// Index into the grid.
    pub edit: usize,
    /// Index into the configurations.
    pub config: usize,
    pub wins: u64,
    pub games: u64,
    /// Paired difference from the baseline: mean and standard error.
    pub diff: (f64, f64),
    pub days_mean: f64,
    /// The edit leaves this configuration's decks as they were (a rare outside the mix):
    /// its games are the baseline's.
    pub unchanged: bool,
    /// Racing stopped the edit before all the games.
    pub stopped: bool,
    /// The baseline's win rate and mean days on the row's games (its first `games`).
    pub base_rate: f64,
    pub base_days: f64,
}

/// One edit on one configuration it changes, while it races: its games so far (game
/// indices `0..acc.games`).
struct Lane {
    config: usize,
    won: Vec<bool>,
    acc: Accum,
    stopped: bool,
}

/// The grid made ready to play: its edits, the decks each edit makes, the configurations
/// (each player deck, policy and mix) and which of them each edit changes.
pub struct Plan {
    pub grid: Vec<Edit>,
    /// Each edit's Confluence deck and player decks.
    pub variants: Vec<(ConfluenceDeck, Vec<PlayerDeck>)>,
    pub configs: Vec<ConfigSpec>,
    /// For each edit, the configurations whose decks it changes (the others replay the
    /// baseline's games).
    pub changed: Vec<Vec<usize>>,
}

impl Plan {
    /// Configurations played: the baseline's, and each edit's changed ones.
    pub fn total_configs(&self) -> usize {
        self.configs.len() + self.changed.iter().map(Vec::len).sum::<usize>()
    }
}

/// What the grid gave.
pub struct Sensitivity {
    /// Each edit on each configuration, ranked by the size of its effect within each
    /// configuration (ties in grid order).
    pub rows: Vec<Row>,
    /// The baseline's games, per configuration.
    pub base: Vec<Played>,
    /// The stages' ends (games played after each).
    pub stages: Vec<u64>,
    /// Games played in all (fewer than unraced when edits stopped early).
    pub played_games: u64,
}

/// Plays `configs` of the decks given on game indices `first_game..first_game + games`;
/// returns each configuration's games.
#[allow(clippy::too_many_arguments)]
fn play(
    loaded: &Loaded,
    players: &[PlayerDeck],
    confluence: &ConfluenceDeck,
    configs: Vec<ConfigSpec>,
    (first_game, games): (u64, u64),
    c: &SensitivityConfig,
    progress: &dyn Progress,
) -> Result<Vec<Played>> {
    let n = configs.len();
    let plan = RunPlan {
        db: &loaded.lib.db,
        players,
        confluence,
        policies: &loaded.policies,
        configs,
        games,
        first_game,
        seed: c.seed,
        threads: c.threads,
        day_cap: c.day_cap,
        models: loaded.models(),
    };
    let mut won: Vec<Vec<bool>> = vec![Vec::with_capacity(games as usize); n];
    let mut sink = |rows: &[GameRow]| -> Result<(), String> {
        for r in rows {
            won[r.config as usize].push(r.outcome.is_win());
        }
        Ok(())
    };
    let result = crate::sim::run::<String>(&plan, &|k| progress.played(k), Some(&mut sink))
        .map_err(|e| anyhow::anyhow!(e))?;
    Ok(won
        .into_iter()
        .zip(result.accums)
        .map(|(won, acc)| Played { won, acc })
        .collect())
}

/// The grid's edits of the cards `only` names (all when empty); a name that is no card of
/// the Confluence deck is a usage error (`--only`).
pub fn select(grid: Vec<Edit>, only: &[String], loaded: &Loaded) -> Result<Vec<Edit>> {
    if only.is_empty() {
        return Ok(grid);
    }
    let mut keep = vec![false; grid.len()];
    for o in only {
        let r = CardRef::parse(o).map_err(|e| usage(format!("--only {o}: {e}")))?;
        let mut any = false;
        for (k, e) in grid.iter().enumerate() {
            let rare = matches!(e.card.print, Print::Rare(_));
            let fits = match r.print {
                Print::Default => true,
                Print::Common => !rare,
                Print::Rare(_) => rare,
            };
            if fits && normalize_name(&e.card.name) == normalize_name(&r.name) {
                keep[k] = true;
                any = true;
            }
        }
        if !any {
            let db = &loaded.lib.db;
            let names: Vec<&str> = loaded
                .confluence
                .slots
                .iter()
                .map(|s| db.card(s.common).name.as_str())
                .collect();
            return Err(usage(format!(
                "--only {o}: not a card of the Confluence deck {}{}",
                loaded.confluence.path.display(),
                crate::suggest::did_you_mean(&r.name, names)
            )));
        }
    }
    Ok(grid
        .into_iter()
        .zip(keep)
        .filter_map(|(e, k)| k.then_some(e))
        .collect())
}

/// Builds every edited deck of `grid` once before any game (the card table is then shared
/// read-only by all the games), and the configurations: each player deck and policy of
/// `loaded` with each of `mixes`.
pub fn plan(loaded: &mut Loaded, grid: Vec<Edit>, mixes: &[RareMix]) -> Result<Plan> {
    let mut variants: Vec<(ConfluenceDeck, Vec<PlayerDeck>)> = Vec::with_capacity(grid.len());
    for e in &grid {
        let (mut c, mut p) = (loaded.confluence.clone(), loaded.players.clone());
        apply(e, &mut loaded.lib.db, &loaded.lib.pool, &mut c, &mut p)
            .map_err(|x| anyhow::anyhow!("the grid's edit \"{e}\": {x}"))?;
        variants.push((c, p));
    }
    let mut configs = Vec::new();
    for player in 0..loaded.players.len() {
        for policy in 0..loaded.policies.len() {
            for &mix in mixes {
                configs.push(ConfigSpec {
                    player,
                    policy,
                    mix,
                });
            }
        }
    }
    // Which configurations each edit changes (the others replay the baseline's games).
    let same = |c: &ConfigSpec, conf: &ConfluenceDeck, players: &[PlayerDeck]| {
        conf.cards_for(c.mix) == loaded.confluence.cards_for(c.mix)
            && players[c.player].cards == loaded.players[c.player].cards
    };
    let changed: Vec<Vec<usize>> = variants
        .iter()
        .map(|(conf, players)| {
            (0..configs.len())
                .filter(|&k| !same(&configs[k], conf, players))
                .collect()
        })
        .collect();
    Ok(Plan {
        grid,
        variants,
        configs,
        changed,
    })
}

/// Plays the baseline and every edit of `plan` stage by stage, stopping the edits the race
/// finds negligible, and ranks the rows.
pub fn run(
    loaded: &Loaded,
    plan: &Plan,
    c: &SensitivityConfig,
    progress: &dyn Progress,
) -> Result<Sensitivity> {
    let configs = &plan.configs;
    let stages = c.race.stages(c.games);
    let mut base: Vec<Played> = configs
        .iter()
        .map(|_| Played {
            won: Vec::with_capacity(c.games as usize),
            acc: Accum::default(),
        })
        .collect();
    // The baseline's statistics after each stage: a row stopped there is paired with them.
    let mut base_at: Vec<Vec<Accum>> = Vec::with_capacity(stages.len());
    let mut lanes: Vec<Vec<Lane>> = plan
        .changed
        .iter()
        .map(|ch| {
            ch.iter()
                .map(|&config| Lane {
                    config,
                    won: Vec::new(),
                    acc: Accum::default(),
                    stopped: false,
                })
                .collect()
        })
        .collect();
    let mut from = 0;
    for (s, &to) in stages.iter().enumerate() {
        let games = (from, to - from);
        let part = play(
            loaded,
            &loaded.players,
            &loaded.confluence,
            configs.clone(),
            games,
            c,
            progress,
        )?;
        for (b, p) in base.iter_mut().zip(part) {
            b.won.extend(p.won);
            b.acc += &p.acc;
        }
        base_at.push(base.iter().map(|b| b.acc.clone()).collect());
        for ((conf, players), ls) in plan.variants.iter().zip(&mut lanes) {
            let live: Vec<usize> = (0..ls.len()).filter(|&j| !ls[j].stopped).collect();
            if live.is_empty() {
                continue;
            }
            let part = play(
                loaded,
                players,
                conf,
                live.iter()
                    .map(|&j| configs[ls[j].config].clone())
                    .collect(),
                games,
                c,
                progress,
            )?;
            for (&j, p) in live.iter().zip(part) {
                ls[j].won.extend(p.won);
                ls[j].acc += &p.acc;
            }
        }
        if s + 1 < stages.len() {
            let mut live = configs.len() as u64;
            for l in lanes.iter_mut().flatten().filter(|l| !l.stopped) {
                let b = &base[l.config].won;
                let diff = paired(b, &l.won);
                let changed = b.iter().zip(&l.won).filter(|(x, y)| x != y).count() as u64;
                let w = wilson(l.acc.won(), l.acc.games, 0.95);
                l.stopped = c.race.stops(diff, changed, l.acc.games, (w.lo, w.hi));
                live += u64::from(!l.stopped);
            }
            progress.left(live * (c.games - to));
        }
        from = to;
    }
    let mut rows = Vec::new();
    let mut played_games: u64 = base.iter().map(|b| b.acc.games).sum();
    for (ei, ls) in lanes.iter().enumerate() {
        for (ci, b) in base.iter().enumerate() {
            let row = match ls.iter().find(|l| l.config == ci) {
                Some(l) => {
                    played_games += l.acc.games;
                    let stage = stages.iter().position(|&n| n == l.acc.games);
                    let ba = &base_at[stage.expect("an edit stops at a stage's end")][ci];
                    Row {
                        edit: ei,
                        config: ci,
                        wins: l.acc.won(),
                        games: l.acc.games,
                        diff: paired(&b.won, &l.won),
                        days_mean: l.acc.days_mean(),
                        unchanged: false,
                        stopped: l.acc.games < c.games,
                        base_rate: ba.won() as f64 / ba.games.max(1) as f64,
                        base_days: ba.days_mean(),
                    }
                }
                None => Row {
                    edit: ei,
                    config: ci,
                    wins: b.acc.won(),
                    games: b.acc.games,
                    diff: paired(&b.won, &b.won),
                    days_mean: b.acc.days_mean(),
                    unchanged: true,
                    stopped: false,
                    base_rate: b.acc.won() as f64 / b.acc.games.max(1) as f64,
                    base_days: b.acc.days_mean(),
                },
            };
            rows.push(row);
        }
    }
    // Ranked by effect within each configuration; ties in grid order.
    rows.sort_by(|x, y| {
        x.config
            .cmp(&y.config)
            .then(y.diff.0.abs().total_cmp(&x.diff.0.abs()))
            .then(x.edit.cmp(&y.edit))
    });
    Ok(Sensitivity {
        rows,
        base,
        stages,
        played_games,
    })
}

/// One row of `sensitivity_target`: a single edit or a pair, on one configuration.
#[derive(Clone, Debug)]
pub struct Reach {
    pub config: usize,
    /// Indices into the grid: one edit, or two applied in order.
    pub edits: Vec<usize>,
    pub wins: u64,
    pub games: u64,
    pub diff: (f64, f64),
    /// The baseline's win rate on the same games.
    pub base_rate: f64,
}

/// How many single edits per deck, policy and mix `sensitivity_target` lists.
pub const SINGLES: usize = 10;

/// A pair of edits to play on one configuration, and the decks they make.
pub struct Pair {
    pub config: usize,
    pub edits: (usize, usize),
    pub confluence: ConfluenceDeck,
    pub players: Vec<PlayerDeck>,
}

/// The way to a target: per configuration, the single edits closest to it, and the pairs
/// still to play.
pub struct Toward {
    pub singles: Vec<Reach>,
    pub pairs: Vec<Pair>,
}

fn rate(w: u64, g: u64) -> f64 {
    w as f64 / g.max(1) as f64
}

/// Per configuration, the [`SINGLES`] single edits closest to `target`, and every pair of
/// the `k` edits that move the win rate most towards it (two edits that cannot both apply
/// make no pair).
pub fn toward(target: f64, k: usize, s: &Sensitivity, plan: &Plan, loaded: &mut Loaded) -> Toward {
    let grid = &plan.grid;
    let mut out = Vec::new();
    let mut pairs = Vec::new();
    for (ci, b) in s.base.iter().enumerate() {
        let mine: Vec<&Row> = s
            .rows
            .iter()
            .filter(|r| r.config == ci && !r.unchanged)
            .collect();
        let mut singles: Vec<&&Row> = mine.iter().collect();
        singles.sort_by(|x, y| {
            (rate(x.wins, x.games) - target)
                .abs()
                .total_cmp(&(rate(y.wins, y.games) - target).abs())
                .then(x.edit.cmp(&y.edit))
        });
        out.extend(singles.iter().take(SINGLES).map(|r| Reach {
            config: ci,
            edits: vec![r.edit],
            wins: r.wins,
            games: r.games,
            diff: r.diff,
            base_rate: r.base_rate,
        }));
        // The edits that move the win rate towards the target, largest effects first
        // (`rows` is ranked by the size of the effect).
        let toward = target - rate(b.acc.won(), b.acc.games);
        let top: Vec<usize> = mine
            .iter()
            .filter(|r| r.diff.0 * toward > 0.0)
            .take(k)
            .map(|r| r.edit)
            .collect();
        for (i, &e1) in top.iter().enumerate() {
            for &e2 in &top[i + 1..] {
                let (mut c, mut p) = (loaded.confluence.clone(), loaded.players.clone());
                let lib = &mut loaded.lib;
                // Two edits that cannot both apply (the second changes what the first
                // removed) make no pair.
                if apply(&grid[e1], &mut lib.db, &lib.pool, &mut c, &mut p).is_ok()
                    && apply(&grid[e2], &mut lib.db, &lib.pool, &mut c, &mut p).is_ok()
                {
                    pairs.push(Pair {
                        config: ci,
                        edits: (e1, e2),
                        confluence: c,
                        players: p,
                    });
                }
            }
        }
    }
    Toward {
        singles: out,
        pairs,
    }
}

/// Plays the pairs of `t` on the baseline's games (all of [`SensitivityConfig::games`]),
/// and returns the rows of `sensitivity_target`: configuration by configuration, the
/// singles, then the pairs closest to the target first.
pub fn play_pairs(
    t: Toward,
    target: f64,
    s: &Sensitivity,
    plan: &Plan,
    loaded: &Loaded,
    c: &SensitivityConfig,
    progress: &dyn Progress,
) -> Result<Vec<Reach>> {
    let Toward { singles, pairs } = t;
    if pairs.is_empty() {
        return Ok(singles);
    }
    let base = &s.base;
    let mut played_pairs = Vec::new();
    for pair in &pairs {
        let ci = pair.config;
        let p = play(
            loaded,
            &pair.players,
            &pair.confluence,
            vec![plan.configs[ci].clone()],
            (0, c.games),
            c,
            progress,
        )?;
        let p = &p[0];
        played_pairs.push(Reach {
            config: ci,
            edits: vec![pair.edits.0, pair.edits.1],
            wins: p.acc.won(),
            games: p.acc.games,
            diff: paired(&base[ci].won, &p.won),
            base_rate: rate(base[ci].acc.won(), base[ci].acc.games),
        });
    }
    // Pairs closest to the target first, within each configuration.
    played_pairs.sort_by(|x, y| {
        x.config
            .cmp(&y.config)
            .then(
                (rate(x.wins, x.games) - target)
                    .abs()
                    .total_cmp(&(rate(y.wins, y.games) - target).abs()),
            )
            .then(x.edits.cmp(&y.edits))
    });
    // Singles then pairs, configuration by configuration.
    let mut all = Vec::with_capacity(singles.len() + played_pairs.len());
    for ci in 0..base.len() {
        all.extend(singles.iter().filter(|r| r.config == ci).cloned());
        all.extend(played_pairs.iter().filter(|r| r.config == ci).cloned());
    }
    Ok(all)
}
