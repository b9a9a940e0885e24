//! `confluence-sim sensitivity`: which single change to a Confluence card moves the win rate
//! most. Every edit of the grid ([`crate::deck::edit::confluence_grid`]: each card's
//! statistics and costs by one, each other Midnight indication, each keyword toggled, each
//! common replaced by its rare) is played on the same games (the same game indices and
//! seeds) as the unedited decks, and compared with them game by game (paired differences,
//! as `compare` does for policies). Writes `sensitivity.csv` / `.parquet`, ranked by effect
//! within each deck, policy and mix, and `meta.json`. With `--target`, also which edits
//! reach a win rate: the single edits closest to it, and pairs of the edits that move it
//! most towards it, played on the same games (`sensitivity_target.csv` / `.parquet`).
//! By default the grid is raced: an edit whose effect is already shown to be negligible
//! stops after fewer games. The algorithm is [`crate::design::sensitivity`]; this command
//! checks the flags, loads the decks, configures it, writes the tables and prints.

use anyhow::{Context, Result};

use super::cli::SensitivityArgs;
use crate::deck::edit::confluence_grid;
use crate::design::sensitivity::race::Race;
use crate::design::sensitivity::tables::{table, target_table};
use crate::design::sensitivity::{
    Plan, Reach, Row, Sensitivity, SensitivityConfig, plan, play_pairs, run, select, toward,
};
use crate::design::{Progress, Z};
use crate::export::OutputDir;
use crate::job::load;
use crate::job::mixes;
use crate::job::outputs::{Guard, output_dir};
use crate::job::plan::{default_threads, progress_bar};
use crate::job::summary::{NO_VARIATION, NO_VARIATION_NOTE, signed};
use crate::stats::interval::{paired_bounds, wilson};

/// How many edits per deck, policy and mix the terminal shows.
const SHOWN: usize = 10;

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
    let plan = plan(&mut loaded, grid, &mixes)?;
    let threads = default_threads(a.threads)?;
    let c = SensitivityConfig {
        games: a.games,
        seed: a.seed,
        threads,
        day_cap: m.day_cap,
        race: Race {
            first: (!a.no_race).then_some(a.race_games),
            negligible: a.negligible / 100.0,
            target: a.target,
        },
    };
    let stages = c.race.stages(a.games);
    let total = crate::job::plan::total_games(a.games, plan.total_configs())
        .map_err(|e| crate::job::error::usage(format!("--games {}: {e}", a.games)))?;
    // Check --out before anything runs; the outputs replace it whole at the end.
    drop(output_dir(&a.out, Guard::PLAIN)?);
    if !a.quiet {
        eprintln!(
            "confluence-sim: {} edits x {} configuration(s), {} games each{}, on the baseline's games",
            plan.grid.len(),
            plan.configs.len(),
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
    let s = run(&loaded, &plan, &c, &Bar(&pb))?;
    pb.finish_and_clear();
    let reached = match a.target {
        Some(target) => reach(target, &a, &s, &plan, &mut loaded, &c)?,
        None => Vec::new(),
    };
    let played_games = s.played_games;
    let t = table(&s, &plan, &loaded, a.seed);
    let mut out = OutputDir::new(&a.out).with_context(|| format!("--out {}", a.out.display()))?;
    out.write_csv("sensitivity.csv", &t)?;
    out.write_parquet("sensitivity.parquet", &t)?;
    if let Some(target) = a.target {
        let t = target_table(&reached, target, &plan, &loaded, a.seed);
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
            "grid": plan.grid.len(),
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
        print(&s, &plan, &loaded);
        if let Some(target) = a.target {
            print_target(&reached, target, &plan, &loaded);
        }
        if stages.len() > 1 {
            let raced = s.rows.iter().filter(|r| !r.unchanged).count();
            let stopped = s.rows.iter().filter(|r| r.stopped).count();
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

/// `--target`: the single edits closest to it, and the pairs of the `--pairs-of` edits
/// that move the win rate most towards it, played on the baseline's games.
fn reach(
    target: f64,
    a: &SensitivityArgs,
    s: &Sensitivity,
    plan: &Plan,
    loaded: &mut load::Loaded,
    c: &SensitivityConfig,
) -> Result<Vec<Reach>> {
    let t = toward(target, a.pairs_of as usize, s, plan, loaded);
    let pb = if t.pairs.is_empty() {
        None
    } else {
        if !a.quiet {
            eprintln!(
                "confluence-sim: --target {target}: {} pairs of edits, {} games each",
                t.pairs.len(),
                a.games
            );
        }
        let total = crate::job::plan::total_games(a.games, t.pairs.len())
            .map_err(|e| crate::job::error::usage(format!("--games {}: {e}", a.games)))?;
        Some(progress_bar(total, a.quiet))
    };
    let progress = |k| {
        if let Some(pb) = &pb {
            pb.inc(k)
        }
    };
    let reached = play_pairs(t, target, s, plan, loaded, c, &progress)?;
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    Ok(reached)
}

/// The progress bar, told when racing leaves fewer games to play.
struct Bar<'a>(&'a indicatif::ProgressBar);

impl Progress for Bar<'_> {
    fn played(&self, games: u64) {
        self.0.inc(games)
    }
    fn left(&self, games: u64) {
        self.0.set_length(self.0.position() + games)
    }
}

fn print_target(reach: &[Reach], target: f64, plan: &Plan, loaded: &load::Loaded) {
    let (grid, configs) = (&plan.grid, &plan.configs);
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

fn print(s: &Sensitivity, plan: &Plan, loaded: &load::Loaded) {
    let (rows, grid, configs, base) = (&s.rows, &plan.grid, &plan.configs, &s.base);
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
