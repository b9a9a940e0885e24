//! `confluence-sim matchup`: player decks against each other, every pair of entries (a
//! deck with a policy) on the same games, as a matrix of win rates and a Bradley–Terry
//! ranking.

use std::collections::HashMap;

use anyhow::Result;
use serde_json::{Value, json};

use super::cli::{MatchupArgs, MergeArgs};
use super::headtohead::{self, EntryInfo, Exec};
use super::job::default_threads;
use super::load;
use super::usage;
use crate::cards::Library;
use crate::deck::PlayerDeck;
use crate::export::{ColumnData, OutputDir, Table};
use crate::policy::PolicySpec;
use crate::sim::matchup::{Entry, MatchupPlan, PairTally, pairs, run_matchups};
use crate::stats::bradley_terry::{self, BtFit, Pairing};
use crate::stats::interval::wilson;

pub use crate::report::matchup::{MATCHUPS_SCHEMA_VERSION, RANKING_SCHEMA_VERSION};
/// The ranking's prior: virtual games of each entry against a reference entry of average
/// strength, half of them won (see [`crate::stats::bradley_terry`]).
pub const PRIOR_GAMES: f64 = 1.0;
/// The confidence level of every interval of the outputs.
const LEVEL: f64 = 0.95;

/// The policies of the command line, checked: usage errors (exit 2) for an unknown or
/// unsupported policy, or one given twice.
pub fn matchup_policies(names: &[String]) -> Result<Vec<PolicySpec>> {
    load::head_to_head_policies(names, "matchup")
}

/// Everything a matchup run needs besides its games: the flags checked, the card data,
/// the decks and the entries.
struct Prepared {
    lib: Library,
    decks: Vec<PlayerDeck>,
    policies: Vec<PolicySpec>,
    expert: Option<crate::policy::ExpertWeights>,
    value: Option<crate::policy::value::ValueNet>,
    entries: Vec<Entry>,
    info: Vec<EntryInfo>,
    pairs: usize,
}

/// Checks the flags and loads what they name (usage errors first, then files).
fn prepare(a: &MatchupArgs) -> Result<Prepared> {
    if a.players.is_empty() {
        return Err(usage(
            "matchup needs at least one --player FILE (each deck with each --policy is one entry; every pair of entries plays --games games)",
        ));
    }
    let policies = matchup_policies(&a.policies)?;
    let n = a.players.len() * policies.len();
    let pair_list = pairs(n);
    a.games.checked_mul(pair_list.len() as u64).ok_or_else(|| {
        usage(format!(
            "--games {}: {} games per pair x {} pairs is more than {} games in all",
            a.games,
            a.games,
            pair_list.len(),
            u64::MAX
        ))
    })?;
    let lib = load::library(&a.cards)?;
    let expert = load::expert_weights(a.models.expert_weights.as_deref())?;
    let value = load::value_weights(a.models.value_weights.as_deref())?;
    let mut warnings = Vec::new();
    let decks = load::player_decks(&lib, &a.players, a.allow_illegal, &mut warnings)?;
    for w in &warnings {
        eprintln!("confluence-sim: warning: {w}");
    }
    for d in &decks {
        let k = load::non_exact(&lib, d);
        if k > 0 {
            eprintln!(
                "confluence-sim: warning: {} holds {k} card(s) whose abilities are not fully encoded; they play with what is encoded (see `confluence-sim cards coverage`)",
                d.path.display()
            );
        }
    }
    let entries: Vec<Entry> = (0..decks.len())
        .flat_map(|deck| (0..policies.len()).map(move |policy| Entry { deck, policy }))
        .collect();
    if entries.is_empty() {
        return Err(usage("no entries: give at least one --player"));
    }
    let info: Vec<EntryInfo> = entries
        .iter()
        .map(|e| EntryInfo {
            deck: decks[e.deck].name.clone(),
            hero: lib.db.card(decks[e.deck].hero).name.clone(),
            policy: policies[e.policy].to_string(),
        })
        .collect();
    Ok(Prepared {
        lib,
        decks,
        policies,
        expert,
        value,
        entries,
        info,
        pairs: pair_list.len(),
    })
}

headtohead::impl_flags!(MatchupArgs, "matchup");

pub fn matchup(mut a: MatchupArgs) -> Result<()> {
    headtohead::resume(&mut a)?;
    let threads = default_threads(a.threads)?;
    let p = prepare(&a)?;
    let spec = headtohead::describe(&a, a.seed, a.games, |s| {
        s.players.iter_mut().chain([&mut s.cards]).collect()
    })?;
    let models = crate::policy::Models {
        expert: p.expert.as_ref(),
        value: p.value.as_ref(),
    };
    let play = |first_game, games, progress: &(dyn Fn(u64) + Sync), stop: &_, log: &mut _| {
        let plan = MatchupPlan {
            db: &p.lib.db,
            decks: &p.decks,
            policies: &p.policies,
            entries: p.entries.clone(),
            first_game,
            games,
            seed: a.seed,
            threads,
            day_cap: a.day_cap,
            models,
        };
        run_matchups(&plan, progress, Some(stop), log)
    };
    let done = headtohead::execute(
        &Exec::new(&a.out, &spec, (p.pairs, "pair"), a.scale.force, a.quiet),
        play,
        outputs(&p, &a),
    )?;
    let Some(done) = done else {
        return Ok(());
    };
    let what = format!("{} entries, {} pairs", p.info.len(), p.pairs);
    done.report(&what, threads, &a.out);
    Ok(())
}

/// What a finished run (or its merged shards) writes and prints.
#[allow(clippy::type_complexity)]
fn outputs<'a>(
    p: &'a Prepared,
    a: &'a MatchupArgs,
) -> headtohead::Outputs<
    impl FnOnce(&mut OutputDir, &[PairTally]) -> Result<BtFit> + 'a,
    impl FnOnce(&BtFit, &[PairTally]) + 'a,
> {
    headtohead::Outputs {
        write: move |out: &mut OutputDir, tallies: &[PairTally]| write_outputs(out, p, a, tallies),
        print: move |ranking: &BtFit, _: &[PairTally]| print_ranking(&p.info, ranking),
    }
}

/// `confluence-sim merge` of a matchup's shards: the outputs of the whole run, through the
/// code that writes them at the end of a run.
pub fn merge(m: MergeArgs) -> Result<()> {
    let (set, spec, a) = headtohead::merge_start::<MatchupArgs>(&m)?;
    let p = prepare(&a)?;
    let tallies = headtohead::merged(&set, &spec, p.pairs, PairTally::default)?;
    headtohead::merge_end(&m, &set, &tallies, outputs(&p, &a))
}

/// Writes the tables and meta.json of a finished run (or of its merged shards) into `out`;
/// returns the ranking.
fn write_outputs(
    out: &mut OutputDir,
    p: &Prepared,
    a: &MatchupArgs,
    tallies: &[PairTally],
) -> Result<BtFit> {
    let n = p.info.len();
    let ranking = rank(n, tallies);
    if !ranking.converged {
        eprintln!(
            "confluence-sim: warning: the Bradley-Terry fit stopped after {} iterations without converging; the ranking is approximate",
            ranking.iterations
        );
    }
    let errors: Vec<_> = tallies.iter().map(|t| t.engine_errors).collect();
    let pair_list = pairs(n);
    let name = |k: usize| {
        let (ea, eb) = pair_list[k];
        let e = |i: usize| format!("entry {i} ({}, {})", p.info[i].deck, p.info[i].policy);
        format!("{} against {}, --seed {}", e(ea), e(eb), a.seed)
    };
    if let Some(note) = super::headtohead::engine_error_note(&errors, "matchups", name) {
        eprintln!("confluence-sim: {note}");
    }
    let matrix = matchups_table(&p.info, tallies, a.seed, a.day_cap);
    let ranked = ranking_table(&p.info, tallies, &ranking);
    let entries_json: Vec<Value> = p
        .info
        .iter()
        .enumerate()
        .map(|(i, e)| json!({"entry": i, "deck": e.deck, "hero": e.hero, "policy": e.policy}))
        .collect();
    let meta = super::meta::matchup_meta(
        &p.lib,
        &p.decks,
        &p.policies,
        &entries_json,
        p.pairs,
        a.games,
        a.seed,
        a.day_cap,
        &(&a.models).into(),
        json!({
            "method": "Bradley-Terry, maximum likelihood by Newton-Raphson on the log-strengths with step halving; draws count half a win",
            "prior_games": PRIOR_GAMES,
            "intervals": "95%, normal approximation on the log-strength, observed information",
            "iterations": ranking.iterations,
            "converged": ranking.converged,
        }),
    );
    out.write_csv("matchups.csv", &matrix)?;
    out.write_parquet("matchups.parquet", &matrix)?;
    out.write_csv("ranking.csv", &ranked)?;
    out.write_parquet("ranking.parquet", &ranked)?;
    out.write_bytes(
        "meta.json",
        (serde_json::to_string_pretty(&meta).expect("serializes") + "\n").as_bytes(),
    )?;
    Ok(ranking)
}

/// Where each unordered pair `(a, b)`, `a <= b`, is in the tallies.
fn pair_index(n: usize) -> HashMap<(usize, usize), usize> {
    pairs(n)
        .into_iter()
        .enumerate()
        .map(|(k, p)| (p, k))
        .collect()
}

/// The games of entry `a` (seat A) against entry `b`, from `a`'s side.
fn tally_of(
    index: &HashMap<(usize, usize), usize>,
    tallies: &[PairTally],
    a: usize,
    b: usize,
) -> PairTally {
    if a <= b {
        tallies[index[&(a, b)]]
    } else {
        tallies[index[&(b, a)]].swapped()
    }
}

/// The Bradley–Terry fit of the entries: every pair of distinct entries, draws as half
/// wins (mirror pairs say nothing about strength).
pub fn rank(n: usize, tallies: &[PairTally]) -> BtFit {
    let pairings: Vec<Pairing> = pairs(n)
        .into_iter()
        .zip(tallies)
        .filter(|((a, b), _)| a != b)
        .map(|((a, b), t)| Pairing {
            a,
            b,
            wins_a: t.wins[0] as f64 + t.draws as f64 / 2.0,
            wins_b: t.wins[1] as f64 + t.draws as f64 / 2.0,
        })
        .collect();
    bradley_terry::fit(n, &pairings, PRIOR_GAMES)
}

/// One row per ordered pair of entries (`a` then `b`, each from 0 to n-1): the two rows of
/// a pair of distinct entries come from the same games, counted from each side.
fn matchups_table(info: &[EntryInfo], tallies: &[PairTally], seed: u64, day_cap: u8) -> Table {
    let n = info.len();
    let index = pair_index(n);
    let rows: Vec<(usize, usize, PairTally)> = (0..n)
        .flat_map(|a| (0..n).map(move |b| (a, b)))
        .map(|(a, b)| (a, b, tally_of(&index, tallies, a, b)))
        .collect();
    let iv: Vec<_> = rows
        .iter()
        .map(|(_, _, t)| wilson(t.wins[0], t.games, LEVEL))
        .collect();
    let strs = |f: &dyn Fn(&(usize, usize, PairTally)) -> String| {
        ColumnData::Str(rows.iter().map(f).collect())
    };
    let u64s =
        |f: &dyn Fn(&PairTally) -> u64| ColumnData::U64(rows.iter().map(|r| f(&r.2)).collect());
    let f64s = |v: Vec<f64>| ColumnData::F64(v);
    let k = rows.len();
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![MATCHUPS_SCHEMA_VERSION; k]),
    )
    .push(
        "entry_a",
        ColumnData::U32(rows.iter().map(|r| r.0 as u32).collect()),
    )
    .push("deck_a", strs(&|r| info[r.0].deck.clone()))
    .push("hero_a", strs(&|r| info[r.0].hero.clone()))
    .push("policy_a", strs(&|r| info[r.0].policy.clone()))
    .push(
        "entry_b",
        ColumnData::U32(rows.iter().map(|r| r.1 as u32).collect()),
    )
    .push("deck_b", strs(&|r| info[r.1].deck.clone()))
    .push("hero_b", strs(&|r| info[r.1].hero.clone()))
    .push("policy_b", strs(&|r| info[r.1].policy.clone()))
    .push("games", u64s(&|t| t.games))
    .push("wins_a", u64s(&|t| t.wins[0]))
    .push("wins_b", u64s(&|t| t.wins[1]))
    .push("draws", u64s(&|t| t.draws))
    .push("win_rate_a", f64s(iv.iter().map(|i| i.estimate).collect()))
    .push("win_rate_a_lo", f64s(iv.iter().map(|i| i.lo).collect()))
    .push("win_rate_a_hi", f64s(iv.iter().map(|i| i.hi).collect()))
    .push("first_player_wins", u64s(&|t| t.first_wins))
    .push(
        "first_player_win_rate",
        f64s(
            rows.iter()
                .map(|r| r.2.first_wins as f64 / r.2.games.max(1) as f64)
                .collect(),
        ),
    )
    .push(
        "days_mean",
        f64s(rows.iter().map(|r| r.2.days_mean()).collect()),
    )
    .push("engine_errors", u64s(&|t| t.engine_errors.count))
    .push("seed", ColumnData::U64(vec![seed; k]))
    .push("day_cap", ColumnData::U32(vec![day_cap as u32; k]));
    t
}

/// Each entry's games against the other entries and its points (wins + draws / 2).
fn record(n: usize, tallies: &[PairTally]) -> Vec<(u64, f64)> {
    let mut r = vec![(0u64, 0.0f64); n];
    for ((a, b), t) in pairs(n).into_iter().zip(tallies) {
        if a == b {
            continue;
        }
        let half = t.draws as f64 / 2.0;
        r[a].0 += t.games;
        r[a].1 += t.wins[0] as f64 + half;
        r[b].0 += t.games;
        r[b].1 += t.wins[1] as f64 + half;
    }
    r
}

/// One row per entry, strongest first.
fn ranking_table(info: &[EntryInfo], tallies: &[PairTally], fit: &BtFit) -> Table {
    let n = info.len();
    let order = fit.order();
    let ranks = fit.ranks();
    let rec = record(n, tallies);
    let iv: Vec<(f64, f64)> = (0..n).map(|i| fit.interval(i, LEVEL)).collect();
    let logistic = |x: f64| 1.0 / (1.0 + (-x).exp());
    let col = |f: &dyn Fn(usize) -> f64| ColumnData::F64(order.iter().map(|&i| f(i)).collect());
    let mut t = headtohead::entry_columns(RANKING_SCHEMA_VERSION, &order, &ranks, info);
    t.push(
        "games",
        ColumnData::U64(order.iter().map(|&i| rec[i].0).collect()),
    )
    .push(
        "score",
        col(&|i| {
            if rec[i].0 == 0 {
                f64::NAN
            } else {
                rec[i].1 / rec[i].0 as f64
            }
        }),
    )
    .push("log_strength", col(&|i| fit.log_strength[i]))
    .push("log_strength_lo", col(&|i| iv[i].0))
    .push("log_strength_hi", col(&|i| iv[i].1))
    .push("strength", col(&|i| fit.log_strength[i].exp()))
    .push("strength_lo", col(&|i| iv[i].0.exp()))
    .push("strength_hi", col(&|i| iv[i].1.exp()))
    .push("win_vs_average", col(&|i| logistic(fit.log_strength[i])))
    .push("win_vs_average_lo", col(&|i| logistic(iv[i].0)))
    .push("win_vs_average_hi", col(&|i| logistic(iv[i].1)));
    t
}

fn print_ranking(info: &[EntryInfo], fit: &BtFit) {
    use super::terminal::{Grid, POLICY_MAX, labels, legend, pct, pct_interval};
    let stems: Vec<(String, String)> = info
        .iter()
        .map(|e| (e.deck.clone(), e.hero.clone()))
        .collect();
    let names = crate::report::deck_names(&stems);
    let order = fit.order();
    let specs: Vec<String> = order.iter().map(|&i| info[i].policy.clone()).collect();
    let (policies, long) = labels(&specs, POLICY_MAX);
    let logistic = |x: f64| 1.0 / (1.0 + (-x).exp());
    let mut grid = Grid::new(&[
        ("rank", true),
        ("player deck", false),
        ("policy", false),
        ("strength", true),
        ("95% interval", true),
        ("vs average", true),
        ("95% interval", true),
    ]);
    for (k, (&i, policy)) in order.iter().zip(policies).enumerate() {
        let (lo, hi) = fit.interval(i, LEVEL);
        grid.row(vec![
            (k + 1).to_string(),
            names[&info[i].deck].clone(),
            policy,
            format!("{:.2}", fit.log_strength[i].exp()),
            format!("[{:>5.2}, {:>5.2}]", lo.exp(), hi.exp()),
            pct(logistic(fit.log_strength[i])),
            pct_interval(logistic(lo), logistic(hi)),
        ]);
    }
    println!("{}", grid.render());
    let long = legend("policies", &long);
    if !long.is_empty() {
        println!("{long}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: [u64; 2], draws: u64) -> PairTally {
        PairTally {
            games: wins[0] + wins[1] + draws,
            wins,
            draws,
            ..PairTally::default()
        }
    }

    #[test]
    fn a_value_model_lookahead_is_refused_and_duplicates_too() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        for p in [
            "search",
            "clairvoyant",
            "search:rollouts=4",
            "search:horizon=0",
        ] {
            assert!(matchup_policies(&names(&[p])).is_ok(), "{p}");
        }
        for (p, says) in [
            ("search:horizon=1", "plays the search's rollouts to the end"),
            (
                "clairvoyant:horizon=2",
                "plays the search's rollouts to the end",
            ),
            ("expert:value=2", "cannot use the value model's lookahead"),
        ] {
            let e = matchup_policies(&names(&[p])).unwrap_err();
            assert!(super::super::is_usage(&e));
            assert!(e.to_string().contains(says), "{e}");
        }
        let e = matchup_policies(&names(&["greedy", "greedy"])).unwrap_err();
        assert!(e.to_string().contains("given twice"), "{e}");
        assert_eq!(matchup_policies(&[]).unwrap().len(), 1);
        assert_eq!(
            matchup_policies(&names(&["planner:keep=1", "expert"]))
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn the_matrix_has_one_row_per_ordered_pair_and_mirrors_once() {
        let info: Vec<EntryInfo> = ["x", "y"]
            .iter()
            .map(|d| EntryInfo {
                deck: d.to_string(),
                hero: String::new(),
                policy: "greedy".into(),
            })
            .collect();
        // Pairs (0,0), (0,1), (1,1).
        let tallies = [tally([5, 4], 1), tally([7, 2], 1), tally([3, 6], 1)];
        let t = matchups_table(&info, &tallies, 1, 30);
        assert_eq!(t.rows(), 4);
        let Some(ColumnData::U64(wa)) = t.column("wins_a") else {
            panic!()
        };
        let Some(ColumnData::U64(wb)) = t.column("wins_b") else {
            panic!()
        };
        // (0,0), (0,1), (1,0), (1,1).
        assert_eq!(wa, &vec![5, 7, 2, 3]);
        assert_eq!(wb, &vec![4, 2, 7, 6]);
        let fit = rank(2, &tallies);
        assert_eq!(fit.order(), vec![0, 1]);
        let r = ranking_table(&info, &tallies, &fit);
        let Some(ColumnData::F64(score)) = r.column("score") else {
            panic!()
        };
        assert_eq!(score, &vec![7.5 / 10.0, 2.5 / 10.0]);
    }
}
