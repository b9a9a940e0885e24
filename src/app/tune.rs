//! `confluence-sim tune`: which rare mixes give a target win rate, and which rares matter.
//!
//! 1. Screening: all-common, all-rare, each rare alone, all rares but one, and random
//!    subsets of every size, with `--games` each.
//! 2. A weighted regression over the screening results (additive in the rares) predicts the
//!    win rate of all 2^15 mixes; the `--candidates` mixes predicted closest to the target
//!    are simulated again with `--confirm` games each.
//! 3. The candidates are ranked by their measured distance to the target, the rares by their
//!    marginal effect.

use anyhow::{Context, Result, bail};

use super::cli::TuneArgs;
use crate::deck::RareMix;
use crate::export::{ColumnData, OutputDir, Table};
use crate::job::load;
use crate::job::mixes;
use crate::job::outputs::{Guard, output_dir};
use crate::job::plan::{default_threads, progress_bar};
use crate::job::summary::WinRateColumns;
use crate::job::summary::{RunMeta, summary_table};
use crate::sim::{ConfigSpec, RunPlan};
use crate::stats::Accum;
use crate::stats::interval::{games_for_half_width, wilson, z_for};
use crate::stats::regression::{Observation, fit};

pub const TUNE_SCHEMA_VERSION: u32 = 2;

fn wins(a: &Accum) -> u64 {
    a.won()
}

pub fn tune(a: TuneArgs) -> Result<()> {
    let policy = match &a.calibrated {
        None => a.policy.clone(),
        Some(f) => {
            let players = crate::job::players::players_of(f)?;
            match players.as_slice() {
                [(_, spec)] => spec.clone(),
                _ => {
                    return Err(crate::job::error::usage(format!(
                        "--players {}: tune plays one player and the file has {}; give one with --policy: {}",
                        f.display(),
                        players.len(),
                        players
                            .iter()
                            .map(|(_, s)| format!("'{s}'"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                }
            }
        }
    };
    let m = crate::job::config::Play {
        players: vec![a.deck.player.clone()],
        confluence: a.deck.confluence.clone(),
        policies: vec![policy],
        calibrated: None,
        rares: Vec::new(),
        rare_sets: Vec::new(),
        subsets: a.subsets,
        day_cap: a.day_cap,
        allow_illegal: a.allow_illegal,
        cards: a.deck.cards.clone(),
        expert_weights: a.deck.expert_weights.clone(),
        value_weights: a.deck.value_weights.clone(),
        edits: (&a.edits).into(),
    };
    let loaded = load::load(&m)?;
    for w in &loaded.warnings {
        eprintln!("confluence-sim: warning: {w}");
    }
    let n = loaded.confluence.rares.len();
    if n == 0 {
        bail!(
            "{} has no rare cards to tune",
            crate::job::builtin::shown(&a.deck.confluence)
        );
    }
    let threads = default_threads(a.threads)?;

    // 1. Screening design.
    let mut design: Vec<RareMix> = Vec::new();
    let mut add = |x: RareMix| {
        if !design.contains(&x) {
            design.push(x);
        }
    };
    let all = RareMix::all(n);
    add(RareMix(0));
    add(all);
    for j in 0..n {
        add(RareMix(1 << j));
        add(RareMix(all.0 & !(1 << j)));
    }
    for k in 1..n {
        for x in mixes::subsets(n, k, a.subsets.max(1), a.seed) {
            add(x);
        }
    }
    let confirm = a
        .confirm
        .unwrap_or_else(|| games_for_half_width(0.01, 0.95));
    let screening = crate::job::plan::total_games(a.games, design.len());
    let confirming = crate::job::plan::total_games(confirm, a.candidates);
    let total = match (screening, confirming) {
        (Ok(s), Ok(c)) => s
            .checked_add(c)
            .filter(|_| a.games.checked_add(confirm).is_some())
            .ok_or_else(|| {
                "the screening and confirming games together are more than fit in 64 bits"
                    .to_string()
            }),
        (Err(e), _) | (_, Err(e)) => Err(e),
    }
    .map_err(|e| {
        crate::job::error::usage(format!("--games {} / --confirm {confirm}: {e}", a.games))
    })?;
    // Check --out before anything runs; the outputs replace it whole at the end.
    drop(output_dir(&a.out, Guard::PLAIN)?);
    let pb = progress_bar(total, a.quiet);
    let progress = |k: u64| pb.inc(k);
    let plan_for = |mixes: &[RareMix], games: u64, first_game: u64| RunPlan {
        db: &loaded.lib.db,
        players: &loaded.players,
        confluence: &loaded.confluence,
        policies: &loaded.policies,
        configs: mixes
            .iter()
            .map(|&mix| ConfigSpec {
                player: 0,
                policy: 0,
                mix,
            })
            .collect(),
        games,
        first_game,
        seed: a.seed,
        threads,
        day_cap: a.day_cap,
        models: loaded.models(),
    };
    let screen_plan = plan_for(&design, a.games, 0);
    let screen =
        crate::sim::run::<String>(&screen_plan, &progress, None).map_err(|e| anyhow::anyhow!(e))?;
    let obs: Vec<Observation> = design
        .iter()
        .zip(&screen.accums)
        .map(|(mix, acc)| Observation {
            mix: mix.0,
            wins: wins(acc),
            games: acc.games,
        })
        .collect();
    let f = fit(&obs, n).context("the screening design does not identify the rares' effects")?;

    // 2. Predict every mix; confirm the closest to the target (fresh games, on new indices).
    let mut predicted: Vec<(u16, f64)> = (0..(1u32 << n))
        .map(|b| (b as u16, f.predict(b as u16)))
        .collect();
    predicted.sort_by(|x, y| {
        (x.1 - a.target)
            .abs()
            .total_cmp(&(y.1 - a.target).abs())
            .then(x.0.count_ones().cmp(&y.0.count_ones()))
            .then(x.0.cmp(&y.0))
    });
    let cands: Vec<RareMix> = predicted
        .iter()
        .take(a.candidates)
        .map(|&(b, _)| RareMix(b))
        .collect();
    let confirm_plan = plan_for(&cands, confirm, a.games);
    let confirmed = crate::sim::run::<String>(&confirm_plan, &progress, None)
        .map_err(|e| anyhow::anyhow!(e))?;
    pb.finish_and_clear();
    // Games with an engine error count in the figures: name them, as `run` does.
    let failed: Vec<Accum> = screen
        .accums
        .iter()
        .chain(&confirmed.accums)
        .cloned()
        .collect();
    let mix_of = |i: usize| {
        if i < design.len() {
            design[i]
        } else {
            cands[i - design.len()]
        }
    };
    let name = |i: usize| {
        let names = loaded.confluence.mix_names(mix_of(i), &loaded.lib.db);
        let mix = if names.is_empty() {
            "--rares 0".to_string()
        } else {
            format!("--rare-set '{}'", names.join(","))
        };
        format!(
            "player deck {}, policy {}, {mix}, --seed {}",
            loaded.players[0].name, loaded.policies[0], a.seed
        )
    };
    if let Some(note) =
        crate::job::plan::engine_error_note(&failed, "tune_screening and tune_candidates", name)
    {
        eprintln!("confluence-sim: {note}");
    }

    // 3. Tables.
    let db = &loaded.lib.db;
    let mut rows: Vec<(RareMix, f64, &Accum)> = cands
        .iter()
        .zip(&confirmed.accums)
        .map(|(&mix, acc)| (mix, f.predict(mix.0), acc))
        .collect();
    rows.sort_by(|x, y| {
        let dx = (wins(x.2) as f64 / x.2.games as f64 - a.target).abs();
        let dy = (wins(y.2) as f64 / y.2.games as f64 - a.target).abs();
        dx.total_cmp(&dy)
    });
    let mut cand = Table::new();
    let k = rows.len();
    let ivals: Vec<_> = rows
        .iter()
        .map(|r| wilson(wins(r.2), r.2.games, 0.95))
        .collect();
    cand.push(
        "schema_version",
        ColumnData::U32(vec![TUNE_SCHEMA_VERSION; k]),
    )
    .push("rank", ColumnData::U32((1..=k as u32).collect()))
    .push(
        "player_deck",
        ColumnData::Str(vec![loaded.players[0].name.clone(); k]),
    )
    .push(
        "policy",
        ColumnData::Str(vec![loaded.policies[0].to_string(); k]),
    )
    .push("target", ColumnData::F64(vec![a.target; k]))
    .push(
        "rare_count",
        ColumnData::U32(rows.iter().map(|r| r.0.count()).collect()),
    )
    .push(
        "rare_mask",
        ColumnData::U32(rows.iter().map(|r| r.0.0 as u32).collect()),
    )
    .push(
        "rare_mix",
        ColumnData::Str(
            rows.iter()
                .map(|r| loaded.confluence.mix_names(r.0, db).join(";"))
                .collect(),
        ),
    )
    .push(
        "predicted",
        ColumnData::F64(rows.iter().map(|r| r.1).collect()),
    )
    .push(
        "games",
        ColumnData::U64(rows.iter().map(|r| r.2.games).collect()),
    )
    .push_win_rates(&ivals)
    .push(
        "engine_errors",
        ColumnData::U64(rows.iter().map(|r| r.2.engine_errors).collect()),
    )
    .push(
        "distance",
        ColumnData::F64(
            ivals
                .iter()
                .map(|i| (i.estimate - a.target).abs())
                .collect(),
        ),
    );
    let z = z_for(0.95);
    let mut effects = f.effects.clone();
    effects.sort_by(|x, y| x.estimate.total_cmp(&y.estimate));
    let r = effects.len();
    let mut rares = Table::new();
    rares
        .push(
            "schema_version",
            ColumnData::U32(vec![TUNE_SCHEMA_VERSION; r]),
        )
        .push("rank", ColumnData::U32((1..=r as u32).collect()))
        .push(
            "rare",
            ColumnData::Str(
                effects
                    .iter()
                    .map(|e| db.card(loaded.confluence.rares[e.rare]).name.clone())
                    .collect(),
            ),
        )
        .push(
            "effect",
            ColumnData::F64(effects.iter().map(|e| e.estimate).collect()),
        )
        .push(
            "effect_lo",
            ColumnData::F64(effects.iter().map(|e| e.estimate - z * e.se).collect()),
        )
        .push(
            "effect_hi",
            ColumnData::F64(effects.iter().map(|e| e.estimate + z * e.se).collect()),
        )
        .push("configs", ColumnData::U32(vec![f.configs as u32; r]))
        .push("games", ColumnData::U64(vec![f.games; r]));
    let meta = RunMeta {
        lib: &loaded.lib,
        players: &loaded.players,
        confluence: &loaded.confluence,
        policies: &loaded.policies,
        seed: a.seed,
        day_cap: a.day_cap,
        expert_weights: a.deck.expert_weights.as_deref(),
        value_weights: a.deck.value_weights.as_deref(),
        edits: &loaded.edits,
    };
    let screening = summary_table(&meta, &screen_plan.configs, &screen.accums);
    let mut out = OutputDir::new(&a.out).with_context(|| format!("--out {}", a.out.display()))?;
    out.write_csv("tune_candidates.csv", &cand)?;
    out.write_parquet("tune_candidates.parquet", &cand)?;
    out.write_csv("tune_rares.csv", &rares)?;
    out.write_parquet("tune_rares.parquet", &rares)?;
    out.write_csv("tune_screening.csv", &screening)?;
    out.write_parquet("tune_screening.parquet", &screening)?;
    let meta = crate::job::meta::command_meta(
        "tune",
        serde_json::json!({
            "target": a.target,
            "seed": a.seed,
            "games": a.games,
            "confirm": confirm,
            "day_cap": a.day_cap,
            "policies": loaded.policies.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            "decks": loaded.players.iter().map(|d| d.name.clone()).collect::<Vec<_>>(),
            "confluence_deck": loaded.confluence.name,
            "expert_weights": a.deck.expert_weights.as_ref().map(|p| p.display().to_string()),
            "edits": crate::job::meta::edit_strings(&loaded.edits),
        }),
    );
    out.write_bytes("meta.json", &crate::job::meta::to_bytes(&meta))?;
    out.commit()?;

    if !loaded.edits.is_empty() {
        println!(
            "What-if edits: {}.",
            crate::job::meta::edit_strings(&loaded.edits).join("; ")
        );
    }
    println!(
        "Target {:.1}% for {} ({}) against {}: screened {} mixes x {} games, confirmed {} x {} games.",
        a.target * 100.0,
        loaded.players[0].name,
        loaded.policies[0],
        loaded.confluence.name,
        design.len(),
        a.games,
        k,
        confirm
    );
    println!("\nClosest mixes (measured; 95% interval):");
    print_closest(&rows, &ivals, a.target, &loaded.confluence, db);
    if !ivals
        .iter()
        .any(|iv| iv.lo <= a.target && a.target <= iv.hi)
    {
        let side = if ivals.iter().all(|iv| iv.lo > a.target) {
            ": every one wins more often, even the hardest; no mix of these rares is hard enough"
        } else if ivals.iter().all(|iv| iv.hi < a.target) {
            ": every one wins less often, even the easiest; no mix of these rares is easy enough"
        } else {
            "; the target lies between them, so try more --candidates or more --games"
        };
        println!(
            "\nNo measured mix reaches the target {:.1}%: no confirmed mix's 95% interval contains it{side}.",
            a.target * 100.0
        );
    }
    println!(
        "\nRares by effect on the win rate (most difficulty first; percentage points, 95% interval):"
    );
    let mut grid = super::terminal::Grid::new(&[("", true), ("", true), ("", false)]);
    for e in &effects {
        grid.row(vec![
            super::terminal::signed(e.estimate * 100.0),
            super::terminal::signed_interval(
                (e.estimate - z * e.se) * 100.0,
                (e.estimate + z * e.se) * 100.0,
            ),
            db.card(loaded.confluence.rares[e.rare]).name.clone(),
        ]);
    }
    for line in grid.render().lines().skip(1) {
        println!("  {line}");
    }
    eprintln!(
        "confluence-sim: wrote tune_candidates, tune_rares and tune_screening (CSV and Parquet) in {}",
        a.out.display()
    );
    Ok(())
}

/// The confirmed mixes, closest to the target first: a row each (a long mix by a label,
/// named in full under the table), those whose interval excludes the target marked.
fn print_closest(
    rows: &[(RareMix, f64, &Accum)],
    ivals: &[crate::stats::Interval],
    target: f64,
    confluence: &crate::deck::ConfluenceDeck,
    db: &crate::cards::CardDb,
) {
    use super::terminal::{Grid, MIX_MAX, interval, labels, legend, pct};
    let mixes: Vec<String> = rows
        .iter()
        .map(|r| {
            let names = confluence.mix_names(r.0, db);
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        })
        .collect();
    let (shown, long) = labels(&mixes, MIX_MAX);
    let mut grid = Grid::new(&[
        ("", true),
        ("win", true),
        ("95% interval", true),
        ("predicted", true),
        ("rares", true),
        ("mix", false),
        ("", false),
    ]);
    for (i, ((r, iv), mix)) in rows.iter().zip(ivals).zip(shown).enumerate() {
        grid.row(vec![
            format!("{}.", i + 1),
            pct(iv.estimate),
            interval(iv),
            pct(r.1),
            r.0.count().to_string(),
            mix,
            if iv.lo <= target && target <= iv.hi {
                String::new()
            } else {
                "[interval excludes the target]".to_string()
            },
        ]);
    }
    println!("{}", grid.render());
    let long = legend("rare mixes", &long);
    if !long.is_empty() {
        println!("{long}");
    }
}
