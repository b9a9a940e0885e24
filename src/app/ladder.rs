//! `confluence-sim ladder`: every policy on one matchup, with all commons and with all
//! rares, as one table of strength and speed.

use std::io::IsTerminal;
use std::time::Instant;

use anyhow::{Context, Result};

use super::cli::LadderArgs;
use crate::deck::{ConfluenceDeck, RareMix};
use crate::export::{ColumnData, OutputDir, Table};
use crate::job::load;
use crate::job::outputs::{Guard, output_dir};
use crate::job::plan::{default_threads, progress_bar, widest_half_width};
use crate::job::summary::WinRateColumns;
use crate::policy::PolicyKind;
use crate::sim::{ConfigSpec, RunPlan};
use crate::stats::Accum;
use crate::stats::interval::wilson;

pub const LADDER_SCHEMA_VERSION: u32 = 4;

/// One policy at one mix.
struct Rung {
    policy: String,
    kind: PolicyKind,
    /// A point of the skill curve (`--skill`), not a rung of the ladder.
    curve: bool,
    mix: RareMix,
    acc: Accum,
    seconds: f64,
}

impl Rung {
    fn wins(&self) -> u64 {
        self.acc.won()
    }
}

/// Every policy with its default parameters, weakest first, the `clairvoyant` bound last.
fn default_policies() -> Vec<String> {
    PolicyKind::ALL
        .iter()
        .map(|k| k.name().to_string())
        .collect()
}

pub fn ladder(a: LadderArgs) -> Result<()> {
    let mut lib = load::library(&a.deck.cards)?;
    let mut warnings = Vec::new();
    let deck = load::player_deck(&lib, &a.deck.player, a.allow_illegal, &mut warnings)?;
    for w in &warnings {
        eprintln!("confluence-sim: warning: {w}");
    }
    let confluence = load::confluence(&a.deck.confluence, &mut lib.db)
        .context("the Confluence deck (--confluence)")?;
    let names = if a.policies.is_empty() {
        default_policies()
    } else {
        a.policies.clone()
    };
    let mut names = names;
    let curve_from = names.len();
    for t in &a.skill {
        names.push(format!("skill:t={}", t.trim()));
    }
    let policies = load::policies(&names).map_err(|e| {
        crate::job::error::usage(format!(
            "--policy/--skill: {}",
            crate::job::error::message(&e)
        ))
    })?;
    let expert = load::expert_weights(a.deck.expert_weights.as_deref())?;
    let value = load::value_weights(a.deck.value_weights.as_deref())?;
    let threads = default_threads(a.threads)?;
    // Check --out before anything runs; the outputs replace it whole at the end.
    drop(output_dir(&a.out, Guard::PLAIN)?);
    let players = [deck];
    let mixes = [RareMix(0), RareMix::all(confluence.rares.len())];
    let batch = a.games.unwrap_or(a.batch.max(1));
    let per_rung = a.games.unwrap_or(a.max_games);
    let total = crate::job::plan::total_games(per_rung, policies.len() * mixes.len())
        .map_err(|e| crate::job::error::usage(format!("--games/--max-games {per_rung}: {e}")))?;
    let pb = progress_bar(total, a.quiet);
    let mut rungs = Vec::new();
    for (pi, spec) in policies.iter().enumerate() {
        for &mix in &mixes {
            let mut plan = RunPlan {
                db: &lib.db,
                players: &players,
                confluence: &confluence,
                policies: &policies,
                configs: vec![ConfigSpec {
                    player: 0,
                    policy: pi,
                    mix,
                }],
                games: batch,
                first_game: 0,
                seed: a.seed,
                threads,
                day_cap: a.day_cap,
                models: crate::policy::Models {
                    expert: expert.as_ref(),
                    value: value.as_ref(),
                },
            };
            let mut acc = Accum::default();
            let started = Instant::now();
            loop {
                let r = crate::sim::run::<String>(&plan, &|n| pb.inc(n), None)
                    .map_err(|e| anyhow::anyhow!(e))?;
                acc += &r.accums[0];
                plan.first_game += plan.games;
                if a.games.is_some()
                    || plan.first_game >= a.max_games
                    || widest_half_width(std::slice::from_ref(&acc)) <= a.half_width
                {
                    break;
                }
                // Jump to the games the current estimate says are needed (at least a batch).
                let p = acc.won() as f64 / acc.games.max(1) as f64;
                let z = 1.959964;
                let needed = (p * (1.0 - p) * (z / a.half_width).powi(2)).ceil() as u64;
                plan.games = needed
                    .saturating_sub(plan.first_game)
                    .max(batch)
                    .min(a.max_games - plan.first_game);
            }
            let seconds = started.elapsed().as_secs_f64();
            // Without a terminal there is no progress bar: a line per rung as it finishes.
            if !a.quiet && !std::io::stderr().is_terminal() {
                let iv = wilson(acc.won(), acc.games, 0.95);
                eprintln!(
                    "confluence-sim: ladder: {spec} with {}: {:.1}% [{:.1}%, {:.1}%] over {} games in {seconds:.1}s",
                    if mix == RareMix(0) {
                        "all commons"
                    } else {
                        "all rares"
                    },
                    iv.estimate * 100.0,
                    iv.lo * 100.0,
                    iv.hi * 100.0,
                    acc.games
                );
            }
            rungs.push(Rung {
                policy: spec.to_string(),
                kind: spec.kind,
                curve: pi >= curve_from,
                mix,
                acc,
                seconds,
            });
        }
    }
    pb.finish_and_clear();
    warn_engine_errors(&rungs, &players[0].name, a.seed);
    let table = ladder_table(
        &rungs,
        &confluence,
        threads,
        a.seed,
        &players[0].name,
        &load::weights_label(a.deck.expert_weights.as_deref()),
    );
    let mut out = OutputDir::new(&a.out).with_context(|| format!("--out {}", a.out.display()))?;
    out.write_csv("ladder.csv", &table)?;
    out.write_parquet("ladder.parquet", &table)?;
    let meta = crate::job::meta::command_meta(
        "ladder",
        serde_json::json!({
            "seed": a.seed,
            "games": a.games,
            "half_width": a.half_width,
            "max_games": a.max_games,
            "day_cap": a.day_cap,
            "threads": threads,
            "policies": policies.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            "player_deck": players[0].name,
            "confluence_deck": confluence.name,
            "expert_weights": a.deck.expert_weights.as_ref().map(|p| p.display().to_string()),
            "value_weights": a.deck.value_weights.as_ref().map(|p| p.display().to_string()),
        }),
    );
    out.write_bytes("meta.json", &crate::job::meta::to_bytes(&meta))?;
    let written = out.commit()?;
    if !a.quiet {
        print_ladder(&rungs, threads);
    }
    let is = |mix| if ordered(&rungs, mix) { "is" } else { "is NOT" };
    eprintln!(
        "confluence-sim: the ladder {} strictly ordered with separated 95% intervals with all commons, and {} with all rares; wrote {} files in {}",
        is(mixes[0]),
        is(mixes[1]),
        written.len(),
        a.out.display()
    );
    Ok(())
}

/// Names on stderr the games some rung played with an engine error, as `run` does: its
/// figures count them, so nobody should read them unknowingly.
fn warn_engine_errors(rungs: &[Rung], deck: &str, seed: u64) {
    let accums: Vec<Accum> = rungs.iter().map(|r| r.acc.clone()).collect();
    let name = |i: usize| {
        format!(
            "player deck {deck}, policy {}, --rares {}, --seed {seed}",
            rungs[i].policy,
            rungs[i].mix.count()
        )
    };
    if let Some(note) = crate::job::plan::engine_error_note(&accums, "ladder", name) {
        eprintln!("confluence-sim: {note}");
    }
}

/// Whether each policy's interval lies strictly above the previous one's at `mix`.
/// Bounds (policies that see hidden cards) are not players and are left out.
fn ordered(rungs: &[Rung], mix: RareMix) -> bool {
    let at: Vec<&Rung> = rungs
        .iter()
        .filter(|r| r.mix == mix && !r.kind.is_bound() && !r.curve)
        .collect();
    at.windows(2).all(|w| {
        let lo = wilson(w[1].wins(), w[1].acc.games, 0.95).lo;
        let hi = wilson(w[0].wins(), w[0].acc.games, 0.95).hi;
        lo > hi
    })
}

fn ladder_table(
    rungs: &[Rung],
    confluence: &ConfluenceDeck,
    threads: usize,
    seed: u64,
    deck: &str,
    weights: &str,
) -> Table {
    let n = rungs.len();
    let iv: Vec<_> = rungs
        .iter()
        .map(|r| wilson(r.wins(), r.acc.games, 0.95))
        .collect();
    // Separated from the previous policy at the same mix (the first rung of each mix: no).
    let above: Vec<bool> = (0..n)
        .map(|i| {
            (0..i)
                .rev()
                .find(|&j| {
                    rungs[j].mix == rungs[i].mix && !rungs[j].kind.is_bound() && !rungs[j].curve
                })
                .is_some_and(|j| !rungs[i].curve && iv[i].lo > iv[j].hi)
        })
        .collect();
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![LADDER_SCHEMA_VERSION; n]),
    )
    .push(
        "policy",
        ColumnData::Str(rungs.iter().map(|r| r.policy.clone()).collect()),
    )
    .push(
        "skill",
        ColumnData::Str(rungs.iter().map(|r| r.kind.skill().to_string()).collect()),
    )
    .push(
        "bound",
        ColumnData::Bool(rungs.iter().map(|r| r.kind.is_bound()).collect()),
    )
    .push("player_deck", ColumnData::Str(vec![deck.to_string(); n]))
    .push(
        "confluence_deck",
        ColumnData::Str(vec![confluence.name.clone(); n]),
    )
    .push(
        "rare_count",
        ColumnData::U32(rungs.iter().map(|r| r.mix.count()).collect()),
    )
    .push(
        "games",
        ColumnData::U64(rungs.iter().map(|r| r.acc.games).collect()),
    )
    .push(
        "wins",
        ColumnData::U64(rungs.iter().map(|r| r.wins()).collect()),
    )
    .push_win_rates(&iv)
    .push("above_previous", ColumnData::Bool(above))
    .push(
        "skill_curve",
        ColumnData::Bool(rungs.iter().map(|r| r.curve).collect()),
    )
    .push(
        "t_equiv",
        ColumnData::F64(
            (0..n)
                .map(|i| equivalent_t(rungs, i).unwrap_or(f64::NAN))
                .collect(),
        ),
    )
    .push(
        "days_mean",
        ColumnData::F64(rungs.iter().map(|r| r.acc.days_mean()).collect()),
    )
    .push(
        "engine_errors",
        ColumnData::U64(rungs.iter().map(|r| r.acc.engine_errors).collect()),
    )
    .push(
        "games_per_second",
        ColumnData::F64(
            rungs
                .iter()
                .map(|r| r.acc.games as f64 / r.seconds.max(1e-9))
                .collect(),
        ),
    )
    .push("threads", ColumnData::U32(vec![threads as u32; n]))
    .push("seed", ColumnData::U64(vec![seed; n]))
    .push(
        "expert_weights",
        ColumnData::Str(vec![weights.to_string(); n]),
    );
    t
}

/// The temperature of the skill curve (`--skill`'s points at the rung's mix) whose win
/// rate equals rung `i`'s, read off the curve between its two points on either side
/// (linearly); `None` for a curve point, a bound, without a curve, or where the rung wins
/// more than the coolest point or less than the warmest (outside the curve).
fn equivalent_t(rungs: &[Rung], i: usize) -> Option<f64> {
    let r = &rungs[i];
    if r.curve || r.kind.is_bound() {
        return None;
    }
    let rate = |r: &Rung| r.wins() as f64 / r.acc.games.max(1) as f64;
    let mut curve: Vec<(f64, f64)> = rungs
        .iter()
        .filter(|c| c.curve && c.mix == r.mix)
        .filter_map(|c| {
            c.policy
                .strip_prefix("skill:t=")?
                .split(',')
                .next()?
                .parse()
                .ok()
                .map(|t: f64| (t, rate(c)))
        })
        .collect();
    curve.sort_by(|a, b| a.0.total_cmp(&b.0));
    let p = rate(r);
    // Above the coolest point the curve says only "at least as strong": no temperature.
    match curve.first() {
        Some(&(_, top)) if p > top => None,
        _ => crate::stats::skill_fit::equivalent_t(&curve, p),
    }
}

fn print_ladder(rungs: &[Rung], threads: usize) {
    use super::terminal::{Grid, POLICY_MAX, interval, labels, legend, pct};
    let curve = rungs.iter().any(|r| r.curve);
    let names: Vec<String> = rungs
        .iter()
        .map(|r| {
            if r.kind.is_bound() {
                format!("{} (bound)", r.policy)
            } else {
                r.policy.clone()
            }
        })
        .collect();
    let (shown, policies) = labels(&names, POLICY_MAX);
    let mut columns = vec![
        ("policy", false),
        ("rares", true),
        ("games", true),
        ("win", true),
        ("95% interval", true),
        ("days", true),
        ("games/s/core", true),
    ];
    if curve {
        columns.push(("like skill t=", true));
    }
    let mut grid = Grid::new(&columns);
    let mut bounds = false;
    for (k, r) in rungs.iter().enumerate() {
        let i = wilson(r.wins(), r.acc.games, 0.95);
        let mut row = vec![
            shown[k].clone(),
            r.mix.count().to_string(),
            r.acc.games.to_string(),
            pct(i.estimate),
            interval(&i),
            format!("{:.1}", r.acc.days_mean()),
            format!(
                "{:.0}",
                r.acc.games as f64 / r.seconds.max(1e-9) / threads as f64
            ),
        ];
        if curve {
            row.push(match (r.curve, equivalent_t(rungs, k)) {
                (true, _) => "(curve)".to_string(),
                (false, Some(t)) => format!("{t:.1}"),
                (false, None) => "outside".to_string(),
            });
        }
        grid.row(row);
        bounds |= r.kind.is_bound();
    }
    println!("{}", grid.render());
    let policies = legend("policies", &policies);
    if !policies.is_empty() {
        println!("{policies}");
    }
    if curve {
        println!(
            "(like skill t=: the temperature of the skill curve's player that wins as often; outside: beyond the curve's points)"
        );
    }
    if bounds {
        println!(
            "(clairvoyant sees both deck orders and the Confluence's hand: an upper bound, not a player)"
        );
    }
}
