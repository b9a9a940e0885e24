//! `confluence-sim run`.

use std::io::IsTerminal;
use std::time::Instant;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::cli::RunArgs;
use super::load;
use super::mixes;
use super::summary::{RunMeta, summary_table};
use crate::export::parquet::BatchWriter;
use crate::export::{ColumnData, OutputSet, Table};
use crate::sim::{ConfigSpec, GameRow, RunPlan};
use crate::stats::interval::games_for_half_width;

pub const GAMES_SCHEMA_VERSION: u32 = 1;

fn games_table(rows: &[GameRow]) -> Table {
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![GAMES_SCHEMA_VERSION; rows.len()]),
    )
    .push(
        "config_id",
        ColumnData::U32(rows.iter().map(|r| r.config).collect()),
    )
    .push(
        "game_index",
        ColumnData::U64(rows.iter().map(|r| r.game).collect()),
    )
    .push(
        "game_seed",
        ColumnData::U64(rows.iter().map(|r| r.seed).collect()),
    )
    .push(
        "result",
        ColumnData::Str(
            rows.iter()
                .map(|r| r.outcome.result().to_string())
                .collect(),
        ),
    )
    .push(
        "cause",
        ColumnData::Str(rows.iter().map(|r| r.outcome.cause().to_string()).collect()),
    )
    .push(
        "days",
        ColumnData::U32(rows.iter().map(|r| r.days as u32).collect()),
    )
    .push(
        "player_plays",
        ColumnData::U32(rows.iter().map(|r| r.player_plays as u32).collect()),
    )
    .push(
        "confluence_plays",
        ColumnData::U32(rows.iter().map(|r| r.confluence_plays as u32).collect()),
    );
    t
}

pub fn progress_bar(total: u64, quiet: bool) -> ProgressBar {
    let pb = ProgressBar::new(total);
    if quiet || !std::io::stderr().is_terminal() {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        pb.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games ({per_sec}, eta {eta})")
                .expect("valid template"),
        );
    }
    pb
}

pub fn run(a: RunArgs) -> Result<()> {
    let loaded = load::load(&a.m)?;
    for w in &loaded.warnings {
        eprintln!("confluence-sim: warning: {w}");
    }
    let mixes = mixes::mixes(
        &loaded.confluence,
        &loaded.lib.db,
        &a.m.rares,
        &a.m.rare_sets,
        a.m.subsets,
        a.seed,
    )?;
    let games = a.games.unwrap_or_else(|| games_for_half_width(0.01, 0.95));
    if games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        anyhow::bail!("--threads must be at least 1");
    }
    for deck in &loaded.players {
        let n = load::non_exact(&loaded.lib, deck);
        if n > 0 {
            eprintln!(
                "confluence-sim: warning: {} holds {n} card(s) whose abilities are not fully encoded; they play with what is encoded (see `confluence-sim cards coverage`)",
                deck.path.display()
            );
        }
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
    // Check the output directory before running anything.
    let mut out = OutputSet::new(&a.out).with_context(|| format!("--out {}", a.out.display()))?;
    let plan = RunPlan {
        db: &loaded.lib.db,
        players: &loaded.players,
        confluence: &loaded.confluence,
        policies: &loaded.policies,
        configs,
        games,
        seed: a.seed,
        threads,
        day_cap: a.m.day_cap,
    };
    let total = games * plan.configs.len() as u64;
    let pb = progress_bar(total, a.quiet);
    let started = Instant::now();
    let progress = |n: u64| pb.inc(n);
    let result = if a.per_game {
        let file = out
            .create("games.parquet")?
            .try_clone()
            .context("games.parquet")?;
        let mut writer = BatchWriter::new(std::io::BufWriter::new(file));
        let mut sink = |rows: &[GameRow]| writer.write(&games_table(rows));
        let r = crate::sim::run(&plan, &progress, Some(&mut sink))
            .map_err(|e| anyhow::anyhow!("writing games.parquet: {e}"))?;
        writer
            .finish()
            .map_err(|e| anyhow::anyhow!("writing games.parquet: {e}"))?;
        r
    } else {
        crate::sim::run::<String>(&plan, &progress, None).map_err(|e| anyhow::anyhow!(e))?
    };
    pb.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();
    let meta = RunMeta {
        lib: &loaded.lib,
        players: &loaded.players,
        confluence: &loaded.confluence,
        policies: &loaded.policies,
        seed: a.seed,
        day_cap: a.m.day_cap,
    };
    let table = summary_table(&meta, &plan.configs, &result.accums);
    out.write_csv("summary.csv", &table)?;
    out.write_parquet("summary.parquet", &table)?;
    let written = out.commit()?;
    if !a.quiet {
        print_summary(&table);
    }
    eprintln!(
        "confluence-sim: {total} games in {elapsed:.1}s ({:.0} games/s on {threads} thread(s)); wrote {}",
        total as f64 / elapsed.max(1e-9),
        written
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}

fn print_summary(t: &Table) {
    let get_s = |n: &str| match t.column(n) {
        Some(ColumnData::Str(v)) => v.clone(),
        _ => vec![],
    };
    let get_f = |n: &str| match t.column(n) {
        Some(ColumnData::F64(v)) => v.clone(),
        _ => vec![],
    };
    let get_u = |n: &str| match t.column(n) {
        Some(ColumnData::U32(v)) => v.iter().map(|&x| x as u64).collect(),
        Some(ColumnData::U64(v)) => v.clone(),
        _ => vec![],
    };
    let (deck, policy, mix) = (get_s("player_deck"), get_s("policy"), get_s("rare_mix"));
    let (rate, lo, hi, days) = (
        get_f("win_rate"),
        get_f("win_rate_lo"),
        get_f("win_rate_hi"),
        get_f("days_mean"),
    );
    let (rares, games) = (get_u("rare_count"), get_u("games"));
    println!(
        "{:<28} {:<8} {:>5} {:>8} {:>8} {:>17} {:>5}  rares",
        "player deck", "policy", "rares", "games", "win", "95% interval", "days"
    );
    for i in 0..t.rows() {
        let mix_short = if mix[i].len() > 40 {
            format!("{}...", &mix[i][..37])
        } else {
            mix[i].clone()
        };
        println!(
            "{:<28} {:<8} {:>5} {:>8} {:>7.1}% [{:>5.1}%, {:>5.1}%] {:>5.1}  {}",
            deck[i],
            policy[i],
            rares[i],
            games[i],
            rate[i] * 100.0,
            lo[i] * 100.0,
            hi[i] * 100.0,
            days[i],
            mix_short
        );
    }
}
