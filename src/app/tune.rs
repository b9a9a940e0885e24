//! `confluence-sim tune`: which rare mixes give a target win rate, and which rares matter.
//! The algorithm is [`crate::design::tune`]: screening with `--games` each, the regression's
//! `--candidates` mixes closest to the target confirmed with `--confirm` games each. This
//! command loads the decks, configures it, writes the tables and prints.

use anyhow::{Context, Result, bail};

use super::cli::TuneArgs;
use crate::deck::RareMix;
use crate::design::tune::{Candidate, TuneConfig, candidates_table, rares_table, screening_design};
use crate::export::OutputDir;
use crate::job::load;
use crate::job::outputs::{Guard, output_dir};
use crate::job::plan::{default_threads, progress_bar};
use crate::job::summary::{RunMeta, summary_table};
use crate::stats::Accum;
use crate::stats::interval::z_for;

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
    let design = screening_design(n, a.subsets, a.seed);
    let c = TuneConfig {
        target: a.target,
        games: a.games,
        subsets: a.subsets,
        candidates: a.candidates,
        confirm: a.confirm.unwrap_or_else(TuneConfig::default_confirm),
        seed: a.seed,
        threads,
        day_cap: a.day_cap,
    };
    let confirm = c.confirm;
    let total = c.total_games(design.len()).map_err(|e| {
        crate::job::error::usage(format!("--games {} / --confirm {confirm}: {e}", a.games))
    })?;
    // Check --out before anything runs; the outputs replace it whole at the end.
    drop(output_dir(&a.out, Guard::PLAIN)?);
    let pb = progress_bar(total, a.quiet);
    let t = crate::design::tune::tune(&loaded, design, &c, &|k| pb.inc(k))?;
    pb.finish_and_clear();
    // Games with an engine error count in the figures: name them, as `run` does.
    let (mixes, failed): (Vec<RareMix>, Vec<Accum>) =
        t.played().map(|(mix, acc)| (mix, acc.clone())).unzip();
    let name = |i: usize| {
        let names = loaded.confluence.mix_names(mixes[i], &loaded.lib.db);
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

    // Tables.
    let db = &loaded.lib.db;
    let cand = candidates_table(&t, &loaded, a.target);
    let rares = rares_table(&t, &loaded);
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
    let screening = summary_table(&meta, &t.screening_configs(), &t.screening);
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
        t.design.len(),
        a.games,
        t.candidates.len(),
        confirm
    );
    println!("\nClosest mixes (measured; 95% interval):");
    print_closest(&t.candidates, a.target, &loaded.confluence, db);
    if !t.reached(a.target) {
        let ivals = || t.candidates.iter().map(|c| c.interval);
        let side = if ivals().all(|iv| iv.lo > a.target) {
            ": every one wins more often, even the hardest; no mix of these rares is hard enough"
        } else if ivals().all(|iv| iv.hi < a.target) {
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
    let z = z_for(0.95);
    for e in &t.effects {
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
    rows: &[Candidate],
    target: f64,
    confluence: &crate::deck::ConfluenceDeck,
    db: &crate::cards::CardDb,
) {
    use super::terminal::{Grid, MIX_MAX, interval, labels, legend, pct};
    let mixes: Vec<String> = rows
        .iter()
        .map(|r| {
            let names = confluence.mix_names(r.mix, db);
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
    for (i, (r, mix)) in rows.iter().zip(shown).enumerate() {
        let iv = &r.interval;
        grid.row(vec![
            format!("{}.", i + 1),
            pct(iv.estimate),
            interval(iv),
            pct(r.predicted),
            r.mix.count().to_string(),
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
