//! `confluence-sim sensitivity`: which single change to a Confluence card moves the win rate
//! most. Every edit of the grid ([`crate::deck::edit::confluence_grid`]: each card's
//! statistics and costs by one, each other Midnight indication, each keyword toggled, each
//! common replaced by its rare) is played on the same games (the same game indices and
//! seeds) as the unedited decks, and compared with them game by game (paired differences,
//! as `compare` does for policies). Writes `sensitivity.csv` / `.parquet`, ranked by effect
//! within each deck, policy and mix, and `meta.json`. With `--target`, also which edits
//! reach a win rate: the single edits closest to it, and pairs of the edits that move it
//! most towards it, played on the same games (`sensitivity_target.csv` / `.parquet`).
//! By default the grid is raced ([`race`]): an edit whose effect is already shown to be
//! negligible stops after fewer games.

mod race;

use anyhow::{Context, Result};

use super::cli::SensitivityArgs;
use crate::cards::pool::normalize_name;
use crate::deck::edit::{CardRef, Print, apply, confluence_grid};
use crate::deck::{ConfluenceDeck, Edit, PlayerDeck};
use crate::export::{ColumnData, OutputDir, Table};
use crate::job::load;
use crate::job::mixes;
use crate::job::outputs::{Guard, output_dir};
use crate::job::plan::{default_threads, progress_bar};
use crate::job::summary::{NO_VARIATION, NO_VARIATION_NOTE, WinRateColumns, signed};
use crate::sim::{ConfigSpec, GameRow, RunPlan};
use crate::stats::Accum;
use crate::stats::interval::{paired, paired_bounds, wilson};

/// Version 2 added `stopped_early`; `baseline_win_rate` and `baseline_days_mean` are the
/// baseline's on the row's own games (all of them in version 1, where every edit played all).
pub const SENSITIVITY_SCHEMA_VERSION: u32 = 2;
/// `sensitivity_target.csv`'s columns have not changed.
pub const TARGET_SCHEMA_VERSION: u32 = 1;

/// How many edits per deck, policy and mix the terminal shows.
const SHOWN: usize = 10;

/// What one configuration's games gave: each game's win, in game order, and the statistics.
struct Played {
    won: Vec<bool>,
    acc: Accum,
}

/// One edit on one configuration.
struct Row {
    edit: usize,
    config: usize,
    wins: u64,
    games: u64,
    /// Paired difference from the baseline: mean and standard error.
    diff: (f64, f64),
    days_mean: f64,
    /// The edit leaves this configuration's decks as they were (a rare outside the mix):
    /// its games are the baseline's.
    unchanged: bool,
    /// Racing stopped the edit before `--games` games.
    stopped: bool,
    /// The baseline's win rate and mean days on the row's games (its first `games`).
    base_rate: f64,
    base_days: f64,
}

/// One edit on one configuration it changes, while it races: its games so far (game
/// indices `0..acc.games`).
struct Lane {
    config: usize,
    won: Vec<bool>,
    acc: Accum,
    stopped: bool,
}

/// Plays `configs` of the decks given; returns each configuration's games.
#[allow(clippy::too_many_arguments)]
fn play(
    loaded: &load::Loaded,
    players: &[PlayerDeck],
    confluence: &ConfluenceDeck,
    configs: Vec<ConfigSpec>,
    (first_game, games): (u64, u64),
    seed: u64,
    threads: usize,
    day_cap: u8,
    pb: &indicatif::ProgressBar,
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
        seed,
        threads,
        day_cap,
        models: loaded.models(),
    };
    let mut won: Vec<Vec<bool>> = vec![Vec::with_capacity(games as usize); n];
    let mut sink = |rows: &[GameRow]| -> Result<(), String> {
        for r in rows {
            won[r.config as usize].push(r.outcome.is_win());
        }
        Ok(())
    };
    let result = crate::sim::run::<String>(&plan, &|k| pb.inc(k), Some(&mut sink))
        .map_err(|e| anyhow::anyhow!(e))?;
    Ok(won
        .into_iter()
        .zip(result.accums)
        .map(|(won, acc)| Played { won, acc })
        .collect())
}

/// The grid's edits of the cards `only` names (all when empty).
fn select(grid: Vec<Edit>, only: &[String], loaded: &load::Loaded) -> Result<Vec<Edit>> {
    if only.is_empty() {
        return Ok(grid);
    }
    let mut keep = vec![false; grid.len()];
    for o in only {
        let r =
            CardRef::parse(o).map_err(|e| crate::job::error::usage(format!("--only {o}: {e}")))?;
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
            return Err(crate::job::error::usage(format!(
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

pub fn sensitivity(a: SensitivityArgs) -> Result<()> {
    let m = &a.m;
    if a.games < 2 {
        return Err(crate::job::error::usage(
            "--games must be at least 2 (paired differences need two games)",
        ));
    }
    if !(a.negligible > 0.0 && a.negligible < 100.0) {
        return Err(crate::job::error::usage(format!(
            "--negligible {}: expected percentage points between 0 and 100 (e.g. 1)",
            a.negligible
        )));
    }
    if let Some(t) = a.target
        && !(t > 0.0 && t < 1.0)
    {
        return Err(crate::job::error::usage(format!(
            "--target {t}: expected a win rate between 0 and 1 (e.g. 0.4)"
        )));
    }
    let mut loaded = load::load(&m.into())?;
    for w in &loaded.warnings {
        eprintln!("confluence-sim: warning: {w}");
    }
    let mixes = mixes::named_or_ends(
        &loaded.confluence,
        &loaded.lib.db,
        &m.rares,
        &m.rare_sets,
        m.subsets,
        a.seed,
    )?;
    let grid = select(
        confluence_grid(&loaded.confluence, &loaded.lib.db),
        &a.only,
        &loaded,
    )?;
    // Every edited deck, built once before any game: the card table is then shared
    // read-only by all the games.
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
            for &mix in &mixes {
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
    let threads = default_threads(a.threads)?;
    let race = race::Race {
        first: (!a.no_race).then_some(a.race_games),
        negligible: a.negligible / 100.0,
        target: a.target,
    };
    let stages = race.stages(a.games);
    let total_configs = configs.len() + changed.iter().map(Vec::len).sum::<usize>();
    let total = crate::job::plan::total_games(a.games, total_configs)
        .map_err(|e| crate::job::error::usage(format!("--games {}: {e}", a.games)))?;
    // Check --out before anything runs; the outputs replace it whole at the end.
    drop(output_dir(&a.out, Guard::PLAIN)?);
    if !a.quiet {
        eprintln!(
            "confluence-sim: {} edits x {} configuration(s), {} games each{}, on the baseline's games",
            grid.len(),
            configs.len(),
            a.games,
            if stages.len() > 1 {
                format!(
                    " at most (raced: an edit stops after {} games when its effect is within ±{} points)",
                    stages[..stages.len() - 1]
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(", "),
                    a.negligible
                )
            } else {
                String::new()
            }
        );
    }
    let pb = progress_bar(total, a.quiet);
    let mut base: Vec<Played> = configs
        .iter()
        .map(|_| Played {
            won: Vec::with_capacity(a.games as usize),
            acc: Accum::default(),
        })
        .collect();
    // The baseline's statistics after each stage: a row stopped there is paired with them.
    let mut base_at: Vec<Vec<Accum>> = Vec::with_capacity(stages.len());
    let mut lanes: Vec<Vec<Lane>> = changed
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
            &loaded,
            &loaded.players,
            &loaded.confluence,
            configs.clone(),
            games,
            a.seed,
            threads,
            m.day_cap,
            &pb,
        )?;
        for (b, p) in base.iter_mut().zip(part) {
            b.won.extend(p.won);
            b.acc += &p.acc;
        }
        base_at.push(base.iter().map(|b| b.acc.clone()).collect());
        for ((conf, players), ls) in variants.iter().zip(&mut lanes) {
            let live: Vec<usize> = (0..ls.len()).filter(|&j| !ls[j].stopped).collect();
            if live.is_empty() {
                continue;
            }
            let part = play(
                &loaded,
                players,
                conf,
                live.iter()
                    .map(|&j| configs[ls[j].config].clone())
                    .collect(),
                games,
                a.seed,
                threads,
                m.day_cap,
                &pb,
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
                l.stopped = race.stops(diff, changed, l.acc.games, (w.lo, w.hi));
                live += u64::from(!l.stopped);
            }
            pb.set_length(pb.position() + live * (a.games - to));
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
                        stopped: l.acc.games < a.games,
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
    pb.finish_and_clear();
    // Ranked by effect within each configuration; ties in grid order.
    rows.sort_by(|x, y| {
        x.config
            .cmp(&y.config)
            .then(y.diff.0.abs().total_cmp(&x.diff.0.abs()))
            .then(x.edit.cmp(&y.edit))
    });
    let reached = match a.target {
        Some(t) => reach(
            t,
            a.pairs_of as usize,
            &rows,
            &grid,
            &configs,
            &base,
            &mut loaded,
            a.games,
            a.seed,
            threads,
            m.day_cap,
            a.quiet,
        )?,
        None => Vec::new(),
    };
    let t = table(&rows, &grid, &configs, &loaded, a.seed);
    let mut out = OutputDir::new(&a.out).with_context(|| format!("--out {}", a.out.display()))?;
    out.write_csv("sensitivity.csv", &t)?;
    out.write_parquet("sensitivity.parquet", &t)?;
    if let Some(target) = a.target {
        let t = target_table(&reached, target, &grid, &configs, &loaded, a.seed);
        out.write_csv("sensitivity_target.csv", &t)?;
        out.write_parquet("sensitivity_target.parquet", &t)?;
    }
    let meta = crate::job::meta::command_meta(
        "sensitivity",
        serde_json::json!({
            "seed": a.seed,
            "games": a.games,
            "day_cap": m.day_cap,
            "threads": threads,
            "policies": loaded.policies.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            "decks": loaded.players.iter().map(|d| d.name.clone()).collect::<Vec<_>>(),
            "rare_counts": mixes.iter().map(|x| x.count()).collect::<Vec<_>>(),
            "confluence_deck": loaded.confluence.name,
            "expert_weights": m.expert_weights.as_ref().map(|p| p.display().to_string()),
            "edits": crate::job::meta::edit_strings(&loaded.edits),
            "grid": grid.len(),
            "only": a.only,
            "target": a.target,
            "pairs_of": a.target.map(|_| a.pairs_of),
            "race": (!a.no_race).then(|| serde_json::json!({
                "first_stage": a.race_games,
                "negligible_points": a.negligible,
                "stages": stages,
            })),
            "games_played": played_games,
            "games_unraced": total,
        }),
    );
    out.write_bytes("meta.json", &crate::job::meta::to_bytes(&meta))?;
    let written = out.commit()?;
    if !a.quiet {
        print(&rows, &grid, &configs, &base, &loaded);
        if let Some(target) = a.target {
            print_target(&reached, target, &grid, &configs, &loaded);
        }
        if stages.len() > 1 {
            let raced = rows.iter().filter(|r| !r.unchanged).count();
            let stopped = rows.iter().filter(|r| r.stopped).count();
            println!(
                "\nRacing: {stopped} of {raced} edit rows stopped early (effect within ±{} points); {played_games} games played instead of {total} ({:.0}%).",
                a.negligible,
                100.0 * played_games as f64 / total.max(1) as f64
            );
        }
    }
    eprintln!(
        "confluence-sim: wrote {} files in {}",
        written.len(),
        a.out.display()
    );
    Ok(())
}

const Z: f64 = 1.959964;

/// A paired difference's 95% bounds, null (NaN) when its games show no variation: an
/// unchanged edit's own games, or an edit that changed no game's result.
fn bounds(d: (f64, f64)) -> (f64, f64) {
    paired_bounds(d, Z).unwrap_or((f64::NAN, f64::NAN))
}

/// One row of `sensitivity_target.csv`: a single edit or a pair, on one configuration.
struct Reach {
    config: usize,
    /// Indices into the grid: one edit, or two applied in order.
    edits: Vec<usize>,
    wins: u64,
    games: u64,
    diff: (f64, f64),
    /// The baseline's win rate on the same games.
    base_rate: f64,
}

/// How many single edits per deck, policy and mix `sensitivity_target.csv` lists.
const SINGLES: usize = 10;

/// `--target`: per configuration, the single edits closest to the target, then every pair of
/// the `k` edits that move the win rate most towards it, played on the baseline's games.
#[allow(clippy::too_many_arguments)]
fn reach(
    target: f64,
    k: usize,
    rows: &[Row],
    grid: &[Edit],
    configs: &[ConfigSpec],
    base: &[Played],
    loaded: &mut load::Loaded,
    games: u64,
    seed: u64,
    threads: usize,
    day_cap: u8,
    quiet: bool,
) -> Result<Vec<Reach>> {
    let rate = |w: u64, g: u64| w as f64 / g.max(1) as f64;
    let mut out = Vec::new();
    // The pairs to play: (configuration, first edit, second edit, the decks).
    let mut pairs: Vec<(usize, usize, usize, ConfluenceDeck, Vec<PlayerDeck>)> = Vec::new();
    for (ci, b) in base.iter().enumerate() {
        let mine: Vec<&Row> = rows
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
                    pairs.push((ci, e1, e2, c, p));
                }
            }
        }
    }
    if pairs.is_empty() {
        return Ok(out);
    }
    if !quiet {
        eprintln!(
            "confluence-sim: --target {target}: {} pairs of edits, {games} games each",
            pairs.len()
        );
    }
    let total = crate::job::plan::total_games(games, pairs.len())
        .map_err(|e| crate::job::error::usage(format!("--games {games}: {e}")))?;
    let pb = progress_bar(total, quiet);
    let mut played_pairs = Vec::new();
    for (ci, e1, e2, conf, players) in &pairs {
        let p = play(
            loaded,
            players,
            conf,
            vec![configs[*ci].clone()],
            (0, games),
            seed,
            threads,
            day_cap,
            &pb,
        )?;
        let p = &p[0];
        played_pairs.push(Reach {
            config: *ci,
            edits: vec![*e1, *e2],
            wins: p.acc.won(),
            games: p.acc.games,
            diff: paired(&base[*ci].won, &p.won),
            base_rate: rate(base[*ci].acc.won(), base[*ci].acc.games),
        });
    }
    pb.finish_and_clear();
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
    let mut all = Vec::with_capacity(out.len() + played_pairs.len());
    for ci in 0..base.len() {
        all.extend(out.iter().filter(|r| r.config == ci).map(clone_reach));
        all.extend(
            played_pairs
                .iter()
                .filter(|r| r.config == ci)
                .map(clone_reach),
        );
    }
    Ok(all)
}

fn clone_reach(r: &Reach) -> Reach {
    Reach {
        config: r.config,
        edits: r.edits.clone(),
        wins: r.wins,
        games: r.games,
        diff: r.diff,
        base_rate: r.base_rate,
    }
}

fn target_table(
    reach: &[Reach],
    target: f64,
    grid: &[Edit],
    configs: &[ConfigSpec],
    loaded: &load::Loaded,
    seed: u64,
) -> Table {
    let n = reach.len();
    let db = &loaded.lib.db;
    let iv: Vec<_> = reach
        .iter()
        .map(|r| wilson(r.wins, r.games, 0.95))
        .collect();
    let strs = |f: &dyn Fn(&Reach) -> String| ColumnData::Str(reach.iter().map(f).collect());
    let f64s = |f: &dyn Fn(&Reach) -> f64| ColumnData::F64(reach.iter().map(f).collect());
    let config = |r: &Reach| &configs[r.config];
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![TARGET_SCHEMA_VERSION; n]),
    )
    .push(
        "player_deck",
        strs(&|r| loaded.players[config(r).player].name.clone()),
    )
    .push(
        "policy",
        strs(&|r| loaded.policies[config(r).policy].to_string()),
    )
    .push(
        "rare_count",
        ColumnData::U32(reach.iter().map(|r| config(r).mix.count()).collect()),
    )
    .push(
        "rares",
        strs(&|r| loaded.confluence.mix_names(config(r).mix, db).join(";")),
    )
    .push("target", ColumnData::F64(vec![target; n]))
    .push(
        "kind",
        strs(&|r| if r.edits.len() == 1 { "single" } else { "pair" }.to_string()),
    )
    .push(
        "edits",
        strs(&|r| {
            r.edits
                .iter()
                .map(|&e| grid[e].to_string())
                .collect::<Vec<_>>()
                .join(" + ")
        }),
    )
    .push(
        "games",
        ColumnData::U64(reach.iter().map(|r| r.games).collect()),
    )
    .push(
        "wins",
        ColumnData::U64(reach.iter().map(|r| r.wins).collect()),
    )
    .push_win_rates(&iv)
    .push("baseline_win_rate", f64s(&|r| r.base_rate))
    .push("diff", f64s(&|r| r.diff.0))
    .push("diff_lo", f64s(&|r| bounds(r.diff).0))
    .push("diff_hi", f64s(&|r| bounds(r.diff).1))
    .push(
        "distance",
        ColumnData::F64(iv.iter().map(|i| (i.estimate - target).abs()).collect()),
    )
    .push(
        "reaches",
        ColumnData::Bool(
            iv.iter()
                .map(|i| i.lo <= target && target <= i.hi)
                .collect(),
        ),
    )
    .push("seed", ColumnData::U64(vec![seed; n]));
    t
}

fn print_target(
    reach: &[Reach],
    target: f64,
    grid: &[Edit],
    configs: &[ConfigSpec],
    loaded: &load::Loaded,
) {
    let db = &loaded.lib.db;
    for (ci, c) in configs.iter().enumerate() {
        println!(
            "\n{} ({}), {}, {} rare(s): the closest to {:.1}%:",
            db.card(loaded.players[c.player].hero).name,
            loaded.players[c.player].name,
            loaded.policies[c.policy],
            c.mix.count(),
            target * 100.0
        );
        for kind in [1, 2] {
            for r in reach
                .iter()
                .filter(|r| r.config == ci && r.edits.len() == kind)
                .take(3)
            {
                let i = wilson(r.wins, r.games, 0.95);
                let names: Vec<String> = r.edits.iter().map(|&e| grid[e].to_string()).collect();
                println!(
                    "  {:>5.1}% [{:.1}%, {:.1}%]{}  {}",
                    i.estimate * 100.0,
                    i.lo * 100.0,
                    i.hi * 100.0,
                    if i.lo <= target && target <= i.hi {
                        " reaches"
                    } else {
                        "        "
                    },
                    names.join(" + ")
                );
            }
        }
    }
}

fn table(
    rows: &[Row],
    grid: &[Edit],
    configs: &[ConfigSpec],
    loaded: &load::Loaded,
    seed: u64,
) -> Table {
    let n = rows.len();
    let db = &loaded.lib.db;
    let iv: Vec<_> = rows.iter().map(|r| wilson(r.wins, r.games, 0.95)).collect();
    let mut rank = Vec::with_capacity(n);
    for (i, r) in rows.iter().enumerate() {
        rank.push(if i > 0 && rows[i - 1].config == r.config {
            rank[i - 1] + 1
        } else {
            1u32
        });
    }
    let strs = |f: &dyn Fn(&Row) -> String| ColumnData::Str(rows.iter().map(f).collect());
    let f64s = |f: &dyn Fn(&Row) -> f64| ColumnData::F64(rows.iter().map(f).collect());
    let config = |r: &Row| &configs[r.config];
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![SENSITIVITY_SCHEMA_VERSION; n]),
    )
    .push("rank", ColumnData::U32(rank))
    .push("edit", strs(&|r| grid[r.edit].to_string()))
    .push("card", strs(&|r| grid[r.edit].card.to_string()))
    .push("change", strs(&|r| grid[r.edit].change.to_string()))
    .push(
        "player_deck",
        strs(&|r| loaded.players[config(r).player].name.clone()),
    )
    .push(
        "player_hero",
        strs(&|r| db.card(loaded.players[config(r).player].hero).name.clone()),
    )
    .push(
        "policy",
        strs(&|r| loaded.policies[config(r).policy].to_string()),
    )
    .push(
        "rare_count",
        ColumnData::U32(rows.iter().map(|r| config(r).mix.count()).collect()),
    )
    .push(
        "rares",
        strs(&|r| loaded.confluence.mix_names(config(r).mix, db).join(";")),
    )
    .push(
        "games",
        ColumnData::U64(rows.iter().map(|r| r.games).collect()),
    )
    .push(
        "wins",
        ColumnData::U64(rows.iter().map(|r| r.wins).collect()),
    )
    .push_win_rates(&iv)
    .push("baseline_win_rate", f64s(&|r| r.base_rate))
    .push("diff", f64s(&|r| r.diff.0))
    .push("diff_lo", f64s(&|r| bounds(r.diff).0))
    .push("diff_hi", f64s(&|r| bounds(r.diff).1))
    .push("days_mean", f64s(&|r| r.days_mean))
    .push("baseline_days_mean", f64s(&|r| r.base_days))
    .push(
        "unchanged",
        ColumnData::Bool(rows.iter().map(|r| r.unchanged).collect()),
    )
    .push(
        "stopped_early",
        ColumnData::Bool(rows.iter().map(|r| r.stopped).collect()),
    )
    .push("seed", ColumnData::U64(vec![seed; n]));
    t
}

fn print(
    rows: &[Row],
    grid: &[Edit],
    configs: &[ConfigSpec],
    base: &[Played],
    loaded: &load::Loaded,
) {
    let db = &loaded.lib.db;
    for (ci, c) in configs.iter().enumerate() {
        let b = &base[ci].acc;
        let bi = wilson(b.won(), b.games, 0.95);
        println!(
            "\n{} ({}), {}, {} rare(s): baseline {:.1}% [{:.1}%, {:.1}%]; the edits that move it most (paired, percentage points):",
            db.card(loaded.players[c.player].hero).name,
            loaded.players[c.player].name,
            loaded.policies[c.policy],
            c.mix.count(),
            bi.estimate * 100.0,
            bi.lo * 100.0,
            bi.hi * 100.0
        );
        let shown: Vec<&Row> = rows.iter().filter(|r| r.config == ci).take(SHOWN).collect();
        let ivs: Vec<String> = shown
            .iter()
            .map(|r| match paired_bounds(r.diff, Z) {
                Some((lo, hi)) => format!("[{:>6}, {:>6}]", signed(lo * 100.0), signed(hi * 100.0)),
                None => NO_VARIATION.to_string(),
            })
            .collect();
        let width = ivs.iter().map(|s| s.chars().count()).max().unwrap_or(0);
        for (r, iv) in shown.iter().zip(&ivs) {
            let i = wilson(r.wins, r.games, 0.95);
            println!(
                "  {:>6} {iv:<width$}  {:>5.1}%  {}{}",
                signed(r.diff.0 * 100.0),
                i.estimate * 100.0,
                grid[r.edit],
                if r.stopped {
                    format!(" (stopped after {} games)", r.games)
                } else {
                    String::new()
                }
            );
        }
        if ivs.iter().any(|s| s == NO_VARIATION) {
            println!("  {NO_VARIATION_NOTE}");
        }
    }
}
