//! `confluence-sim optimize`: improves a player deck by one-card swaps from a pool (the exact
//! cards of some sets, or a collection), judged on paired games against one Confluence deck
//! and mix with one policy (the search: [`crate::design::optimize`]). Writes the best deck
//! (`best_deck.txt`, the community text format), the start and the best deck measured again
//! on game indices the search never played (`optimize.csv` / `.parquet`), the search's
//! trajectory (`trajectory.csv` / `.parquet`) and `meta.json`.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::cli::OptimizeArgs;
use crate::cards::effect::CardIdx;
use crate::deck::swap::{self, SwapPool};
use crate::deck::{ConfluenceDeck, PlayerDeck, RareMix};
use crate::design::Z;
use crate::design::optimize::tables::{Measured, best_deck, kept, measure_table, trajectory_table};
use crate::design::optimize::{MEASURE_FIRST, Player, SearchParams, Step, StepKind};
use crate::export::OutputDir;
use crate::job::outputs::{Guard, output_dir};
use crate::job::plan::{default_threads, progress_bar_with_message};
use crate::job::summary::signed;
use crate::job::{load, mixes};
use crate::stats::interval::{paired_bounds, wilson};

/// The pool when neither --pool nor --collection is given.
const DEFAULT_POOL: &str = "CORE";

/// The rare mix of `--rares N`: all commons, all rares, or one random set of N drawn from
/// the seed. N counts the Confluence deck's rares (not its 55 slots): the mix holds exactly
/// N distinct rares.
fn mix(conf: &ConfluenceDeck, rares: &str, seed: u64) -> Result<RareMix> {
    let n = conf.rares.len();
    let range = || {
        format!(
            "give one count N from 0 to {n} ({} has {n} rares)",
            conf.path.display()
        )
    };
    let (a, b) = mixes::parse_counts(rares, n).map_err(|_| {
        crate::job::error::usage(format!("--rares {rares}: out of range; {}", range()))
    })?;
    if a != b {
        return Err(crate::job::error::usage(format!(
            "--rares {rares}: optimize plays one mix; {}",
            range()
        )));
    }
    let mix = mixes::subsets(n, a, 1, seed)[0];
    debug_assert_eq!(mix.count() as usize, a);
    Ok(mix)
}

/// The swap pool of `--pool` or `--collection`.
fn offers(a: &OptimizeArgs, lib: &crate::cards::Library, deck: &PlayerDeck) -> Result<SwapPool> {
    if let Some(p) = &a.collection {
        let text =
            std::fs::read_to_string(p).with_context(|| format!("--collection {}", p.display()))?;
        let owned = swap::read_collection(&text, p, &lib.pool, &lib.db)?;
        return Ok(swap::pool_of_collection(&owned, deck, &lib.pool, &lib.db));
    }
    let sets = a.pool.as_deref().unwrap_or(DEFAULT_POOL);
    let list: Vec<String> = sets
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    if list.is_empty() {
        return Err(crate::job::error::usage(format!(
            "--pool {sets}: names no set (expected set codes separated by commas, e.g. CORE,ALIZE, or all)"
        )));
    }
    swap::pool_of_sets(&list, deck, &lib.pool, &lib.db)
        .map_err(|e| crate::job::error::usage(format!("--pool {sets}: {e}")))
}

pub fn optimize(a: OptimizeArgs) -> Result<()> {
    let threads = default_threads(a.threads)?;
    let policy = load::policies(std::slice::from_ref(&a.policy))?.remove(0);
    let mut lib = load::library(&a.cards)?;
    let mut warnings = Vec::new();
    let deck = load::player_deck(&lib, &a.player, false, &mut warnings)?;
    let conf =
        load::confluence(&a.against, &mut lib.db).context("the Confluence deck (--against)")?;
    let mix = mix(&conf, &a.rares, a.seed)?;
    let expert = load::expert_weights(a.expert_weights.as_deref())?;
    let value = load::value_weights(a.value_weights.as_deref())?;
    let offers = offers(&a, &lib, &deck)?;
    let db = &lib.db;
    let first_swaps = swap::legal_swaps(deck.hero, &deck.cards, &offers, db).len();
    if first_swaps == 0 {
        return Err(crate::job::error::usage(format!(
            "{}: no legal swap: the pool offers no card this deck may take in (its hero's faction, the copy and rare limits)",
            a.player.display()
        )));
    }
    // Check --out before anything runs; the outputs replace it whole at the end.
    drop(output_dir(&a.out, Guard::PLAIN)?);
    let not_exact = load::non_exact(&lib, &deck);
    if not_exact > 0 {
        eprintln!(
            "confluence-sim: warning: {not_exact} card(s) of {} are not exactly encoded; the pool offers only exact cards",
            a.player.display()
        );
    }
    let player = Player {
        db,
        hero: deck.hero,
        confluence_hero: conf.hero,
        confluence_cards: conf.cards_for(mix),
        policy: &policy,
        models: crate::policy::Models {
            expert: expert.as_ref(),
            value: value.as_ref(),
        },
        seed: a.seed,
        day_cap: a.day_cap,
        threads,
    };
    let params = SearchParams {
        games: a.games,
        batch: a.batch as usize,
        stage_games: a.stage_games,
        confirm: a.confirm,
        kick: a.kick as usize,
        seed: a.seed,
    };
    // A budget below one round's games plays no round: the "best" deck would be the start.
    let least = crate::design::optimize::round_cost(&params, params.batch.min(first_swaps));
    if a.games < least {
        eprintln!(
            "confluence-sim: warning: --games {} is too small for one round of the search (a round of {} candidates plays {} games: --stage-games {} in successive halving, then --confirm {} for two decks); no swap can be tried, and the result is the start deck; give --games {} at least (or lower --batch, --stage-games or --confirm)",
            a.games,
            params.batch.min(first_swaps),
            least,
            a.stage_games,
            a.confirm,
            least
        );
    }
    if !a.quiet {
        eprintln!(
            "confluence-sim: {} ({}) against {} with {} rare(s), {}: {} cards offered, {} legal swaps; search budget {} games",
            db.card(deck.hero).name,
            deck.name,
            conf.name,
            mix.count(),
            policy,
            offers.offers.len(),
            first_swaps,
            crate::report::thousands(a.games)
        );
    }
    let pb = progress_bar_with_message(a.games, a.quiet);
    let started = Instant::now();
    let deadline = a.time.map(|s| started + Duration::from_secs(s));
    // What the progress bar shows: the start deck's first estimate, the best and the current
    // deck's latest ones, the swaps kept and the restarts so far.
    let (mut start_est, mut best_est, mut now_est) = (None::<f64>, None, None);
    let (mut kept_n, mut restarts) = (0usize, 0);
    let result = crate::design::optimize::search(
        &player,
        &offers,
        &deck.cards,
        &params,
        &mut |g| pb.inc(g),
        &mut |s: &Step| {
            let n = s.confirm_games.max(1) as f64;
            match s.kind {
                StepKind::Round => {
                    start_est.get_or_insert(s.base_wins as f64 / n);
                    kept_n += s.accepted as usize;
                    now_est = Some(if s.accepted { s.wins } else { s.base_wins } as f64 / n);
                    if s.restart == 0 {
                        best_est = now_est;
                    }
                }
                StepKind::Restart => {
                    restarts = s.restart;
                    now_est = None;
                }
                StepKind::Challenge => {
                    if s.accepted {
                        best_est = Some(s.wins as f64 / n);
                    }
                }
            }
            let est = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{:.1}%", x * 100.0));
            pb.set_message(format!(
                "start {}, best {}, current {}, {kept_n} swap(s) kept, {restarts} restart(s)",
                est(start_est),
                est(best_est),
                est(now_est)
            ));
        },
        &|| deadline.is_some_and(|d| Instant::now() >= d),
    );
    pb.finish_and_clear();
    let search_secs = started.elapsed().as_secs_f64();
    // The best deck as written: measured as a player who loads best_deck.txt plays it.
    let header = vec![
        format!(
            "{} optimized by confluence-sim optimize against {} with {} rare(s), policy {}, seed {}",
            deck.name,
            conf.name,
            mix.count(),
            policy,
            a.seed
        ),
        "win rates measured on fresh games: optimize.csv".to_string(),
    ];
    let (text, best) = best_deck(deck.hero, &result.best, &header, &lib)?;
    if !a.quiet {
        eprintln!(
            "confluence-sim: search done ({} games, {} steps, stopped by {}); measuring both decks on {} fresh games each",
            crate::report::thousands(result.games),
            result.steps.len(),
            result.stop,
            crate::report::thousands(a.measure)
        );
    }
    let pb = progress_bar_with_message(2 * a.measure, a.quiet);
    pb.set_message("measuring on fresh games");
    let m = crate::design::optimize::measure(&player, &[&deck.cards, &best.cards], a.measure);
    pb.finish_and_clear();
    let measured = Measured::new(&m, a.measure);
    let mut out = OutputDir::new(&a.out).with_context(|| format!("--out {}", a.out.display()))?;
    out.write_bytes("best_deck.txt", text.as_bytes())?;
    let t = measure_table(
        &a.player, a.seed, &deck, &conf, mix, &policy, &measured, &lib,
    );
    out.write_csv("optimize.csv", &t)?;
    out.write_parquet("optimize.parquet", &t)?;
    let t = trajectory_table(&result.steps, db);
    out.write_csv("trajectory.csv", &t)?;
    out.write_parquet("trajectory.parquet", &t)?;
    let meta = crate::job::meta::command_meta(
        "optimize",
        serde_json::json!({
            "seed": a.seed,
            "player_deck": deck.name,
            "hero": db.card(deck.hero).name,
            "policy": policy.to_string(),
            "confluence_deck": conf.name,
            "rare_count": mix.count(),
            "rares": conf.mix_names(mix, db),
            "day_cap": a.day_cap,
            "threads": threads,
            "pool": match &a.collection {
                Some(p) => serde_json::json!({"collection": crate::job::meta::model_file(Some(p))}),
                None => serde_json::json!({"sets": a.pool.as_deref().unwrap_or(DEFAULT_POOL)}),
            },
            "offered_cards": offers.offers.len(),
            "left_out_not_exact": offers.not_exact,
            "expert_weights": crate::job::meta::model_file(a.expert_weights.as_deref()),
            "value_weights": crate::job::meta::model_file(a.value_weights.as_deref()),
            "search": {
                "games_budget": a.games,
                "time_limit_s": a.time,
                "reproducible": a.time.is_none(),
                "batch": a.batch,
                "stage_games": a.stage_games,
                "confirm": a.confirm,
                "kick": a.kick,
                "games_played": result.games,
                "game_indices": [0, result.end_game],
                "steps": result.steps.len(),
                "swaps_kept": kept(&result.steps),
                "restarts": result.steps.iter().filter(|s| s.kind == StepKind::Restart).count(),
                "stopped_by": result.stop,
            },
            "measure": {
                "games": a.measure,
                "game_indices": [MEASURE_FIRST, MEASURE_FIRST + a.measure],
            },
        }),
    );
    out.write_bytes("meta.json", &crate::job::meta::to_bytes(&meta))?;
    let written = out.commit()?;
    if !a.quiet {
        print(&deck, &best, &measured, db, search_secs);
    }
    eprintln!(
        "confluence-sim: wrote {} files in {}",
        written.len(),
        a.out.display()
    );
    Ok(())
}

fn print(
    start: &PlayerDeck,
    best: &PlayerDeck,
    m: &Measured,
    db: &crate::cards::CardDb,
    secs: f64,
) {
    let iv: Vec<_> = m.wins.iter().map(|&w| wilson(w, m.games, 0.95)).collect();
    println!(
        "\nSearch: {secs:.0} s. On {} fresh games each (game indices the search never played):",
        crate::report::thousands(m.games)
    );
    for (name, i) in ["start", "best"].iter().zip(&iv) {
        println!(
            "  {name:<5} {:>5.1}% [{:.1}%, {:.1}%]",
            i.estimate * 100.0,
            i.lo * 100.0,
            i.hi * 100.0
        );
    }
    match paired_bounds(m.diff, Z) {
        Some((lo, hi)) => println!(
            "  best - start: {} points [{}, {}] (paired)",
            signed(m.diff.0 * 100.0),
            signed(lo * 100.0),
            signed(hi * 100.0)
        ),
        None => println!(
            "  best - start: {} points (paired; interval n/a: every paired game gave the same result, so the games show no variation to measure it by)",
            signed(m.diff.0 * 100.0)
        ),
    }
    let count = |cards: &[CardIdx], c: CardIdx| cards.iter().filter(|&&d| d == c).count();
    let mut all: Vec<CardIdx> = start.cards.iter().chain(&best.cards).copied().collect();
    all.sort_unstable();
    all.dedup();
    let mut changes: Vec<String> = Vec::new();
    for c in all {
        let (x, y) = (count(&start.cards, c), count(&best.cards, c));
        if x != y {
            let d = db.card(c);
            changes.push(format!(
                "  {:+} {} ({})",
                y as i64 - x as i64,
                d.name,
                d.reference
            ));
        }
    }
    if changes.is_empty() {
        println!("No swap kept: the start deck is the best found.");
    } else {
        println!("Changes from the start deck:");
        for c in changes {
            println!("{c}");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::cards::Library;

    /// Issue 48, item 2: `--rares N` plays exactly N distinct rares, for every N the
    /// Confluence deck allows, and any other N is a usage error naming the range.
    #[test]
    fn rares_n_plays_exactly_n_distinct_rares() {
        let mut lib = Library::load(Path::new("decks/cards")).unwrap();
        let conf = ConfluenceDeck::load(Path::new("decks/confluence/reference.toml"), &mut lib.db)
            .unwrap();
        let n = conf.rares.len();
        for k in 0..=n {
            for seed in [1, 7] {
                let m = mix(&conf, &k.to_string(), seed).unwrap();
                assert_eq!(m.count() as usize, k, "--rares {k}");
                let names = conf.mix_names(m, &lib.db);
                assert_eq!(names.len(), k, "--rares {k}: {names:?}");
                let played = conf.cards_for(m);
                let mut rares: Vec<_> = played.iter().filter(|c| conf.rares.contains(c)).collect();
                assert_eq!(rares.len(), k, "--rares {k}: played");
                rares.sort();
                rares.dedup();
                assert_eq!(rares.len(), k, "--rares {k}: distinct");
            }
        }
        for bad in [n + 1, 55] {
            let e = mix(&conf, &bad.to_string(), 1).unwrap_err().to_string();
            assert!(e.contains(&format!("from 0 to {n}")), "{e}");
        }
    }
}
