//! What `matchup` plays and writes: player decks against each other, every pair of
//! entries (a deck with a policy) on the same games, as a matrix of win rates
//! (`matchups.csv`) and a Bradley–Terry ranking (`ranking.csv`, the Plackett–Luce fit with
//! tables of two), run by the one
//! head-to-head runner ([`super::headtohead`]).
//!
//! Layer: part of [`crate::job`].

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::Result;
use serde_json::{Value, json};

use super::config::{Entries, Models};
use super::error::usage;
use super::headtohead::{self, EntryInfo, Field, HeadToHead, Slice};
use super::load;
use crate::export::{ColumnData, OutputDir, Table};
use crate::policy::PolicySpec;
use crate::sim::Stop;
use crate::sim::matchup::{PairTally, pairs, run_matchups};
use crate::sim::state::{LogWriter, StateError};
use crate::sim::tally::TallyUnit;
use crate::stats::interval::wilson;
use crate::stats::plackett_luce::{self, PlFit};

pub use crate::report::matchup::{MATCHUPS_SCHEMA_VERSION, RANKING_SCHEMA_VERSION};
/// The weight of the ranking's prior on each strength, a Gamma prior with its mode at the
/// average strength (see [`crate::stats::plackett_luce`]): the Free for All rating's.
pub const PRIOR: f64 = super::ffa::PRIOR;
/// The confidence level of every interval of the outputs.
pub const LEVEL: f64 = 0.95;

/// The policies of a matchup, checked: usage errors (exit 2) for an unknown or
/// unsupported policy, or one given twice.
pub fn matchup_policies(names: &[String]) -> Result<Vec<PolicySpec>> {
    load::head_to_head_policies(names, "matchup")
}

/// Everything a matchup run needs besides its games: the settings checked, the card data,
/// the decks and the entries.
pub struct Matchup {
    pub field: Field,
    /// Unordered pairs of entries, mirror pairs included.
    pub pairs: usize,
}

impl HeadToHead for Matchup {
    type Settings = Entries;
    type Tally = PairTally;
    type Summary = PlFit;
    const KIND: &'static str = "matchup";
    const CONFIG_WORD: &'static str = "pair";

    fn prepare(a: &Entries) -> Result<Matchup> {
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
        let field = Field::load(a, policies, |_| Ok(()))?;
        if field.entries.is_empty() {
            return Err(usage("no entries: give at least one --player"));
        }
        Ok(Matchup {
            field,
            pairs: pair_list.len(),
        })
    }

    fn seed_and_games(s: &Entries) -> (u64, u64) {
        (s.seed, s.games)
    }

    fn files(s: &mut Entries) -> Vec<&mut PathBuf> {
        s.players.iter_mut().chain([&mut s.cards]).collect()
    }

    fn models(s: &mut Entries) -> &mut Models {
        &mut s.models
    }

    fn configs(&self) -> usize {
        self.pairs
    }

    fn zero(&self) -> PairTally {
        PairTally::default()
    }

    fn play(
        &self,
        s: &Entries,
        slice: Slice,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
        log: &mut LogWriter<TallyUnit<PairTally>>,
    ) -> Result<Vec<PairTally>, Stop<StateError>> {
        let plan = self.field.plan(s, slice);
        run_matchups(&plan, progress, Some(stop), log)
    }

    fn write(&self, a: &Entries, out: &mut OutputDir, tallies: &[PairTally]) -> Result<PlFit> {
        write_outputs(out, self, a, tallies)
    }

    fn what(&self, _: &Entries) -> String {
        format!("{} entries, {} pairs", self.field.info.len(), self.pairs)
    }
}

/// Writes the tables and meta.json of a finished run (or of its merged shards) into `out`;
/// returns the ranking.
fn write_outputs(
    out: &mut OutputDir,
    p: &Matchup,
    a: &Entries,
    tallies: &[PairTally],
) -> Result<PlFit> {
    let info = &p.field.info;
    let n = info.len();
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
        let e = |i: usize| format!("entry {i} ({}, {})", info[i].deck, info[i].policy);
        format!("{} against {}, --seed {}", e(ea), e(eb), a.seed)
    };
    if let Some(note) = headtohead::engine_error_note(&errors, "matchups", name) {
        eprintln!("confluence-sim: {note}");
    }
    let matrix = matchups_table(info, tallies, a.seed, a.day_cap);
    let ranked = ranking_table(info, tallies, &ranking);
    let meta = matchup_meta(
        &p.field,
        p.pairs,
        a.games,
        a.seed,
        a.day_cap,
        &a.models,
        json!({
            "method": "Bradley-Terry (Plackett-Luce with tables of two), minorize-maximize iterations with a Gamma prior; mirror pairs left out; draws count half a win",
            "prior": PRIOR,
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

/// What a matchup run records: [`super::meta::meta`]'s fields for a head-to-head run (`kind` =
/// `matchup`, games per pair, the model files, the entries and how the ranking was fitted).
fn matchup_meta(
    field: &Field,
    pairs: usize,
    games: u64,
    seed: u64,
    day_cap: u8,
    models: &Models,
    ranking: Value,
) -> Value {
    json!({
        "tool": "confluence-sim",
        "kind": "matchup",
        "version": env!("CARGO_PKG_VERSION"),
        "git_commit": super::meta::git_commit(),
        "created": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "command": super::meta::command_line(),
        "seed": seed,
        "games": format!("{games} per pair"),
        "games_per_pair": games,
        "pairs": pairs,
        "day_cap": day_cap,
        "policies": field.policies.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        "expert_weights": super::meta::model_file(models.expert_weights.as_deref()),
        "value_weights": super::meta::model_file(models.value_weights.as_deref()),
        "decks": field.decks_json(),
        "entries": field.entries_json(),
        "ranking": ranking,
    })
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

/// The Bradley–Terry fit of the entries: a table of two for every pair of distinct
/// entries, draws as half wins (mirror pairs say nothing about strength), fitted by the
/// Free for All rating's loop.
pub fn rank(n: usize, tallies: &[PairTally]) -> PlFit {
    let tables: Vec<plackett_luce::Table> = pairs(n)
        .into_iter()
        .zip(tallies)
        .filter(|((a, b), _)| a != b)
        .map(|((a, b), t)| {
            let half = t.draws as f64 / 2.0;
            plackett_luce::Table::pair(a, b, t.wins[0] as f64 + half, t.wins[1] as f64 + half)
        })
        .collect();
    plackett_luce::fit(n, &tables, PRIOR)
}

/// One row per ordered pair of entries (`a` then `b`, each from 0 to n-1): the two rows of
/// a pair of distinct entries come from the same games, counted from each side.
pub fn matchups_table(info: &[EntryInfo], tallies: &[PairTally], seed: u64, day_cap: u8) -> Table {
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
pub fn ranking_table(info: &[EntryInfo], tallies: &[PairTally], fit: &PlFit) -> Table {
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
            assert!(super::super::error::is_usage(&e));
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
