//! What `ffa` plays and writes: Free for All, four player decks at a table. Pods of four
//! entries (a deck with a policy; every 4-subset of the entries) play all 24 seatings
//! (`sim::ffa`); the outputs are one row per pod, seating and seat (`pods.csv`), a
//! Plackett–Luce rating of who wins among four (`ratings.csv`), the report (`report.md`,
//! `report.html` and its charts, made by [`crate::report::ffa`] from the tables, as
//! `confluence-sim report` makes it again from the files) and `meta.json`. It is run by the
//! one head-to-head runner ([`super::headtohead`]), checkpointed, resumed, sharded and
//! merged as `matchup` is.
//!
//! Layer: part of [`crate::job`].

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::{Result, bail};
use serde_json::json;

use super::config::{Entries, Models};
use super::error::usage;
use super::headtohead::{self, EntryInfo, Field, HeadToHead, Slice};
use super::load;
use crate::engine::ffa::FFA_MAX_CARDS;
use crate::export::{ColumnData, OutputDir, Table};
use crate::policy::PolicySpec;
use crate::sim::Stop;
use crate::sim::ffa::{FfaTally, SEATINGS, SEATS, pod_count, pods, run_ffa};
use crate::sim::state::{LogWriter, StateError};
use crate::sim::tally::TallyUnit;
use crate::stats::interval::wilson;
use crate::stats::plackett_luce::{self, PlFit};

pub use crate::report::ffa::{PODS_SCHEMA_VERSION, PRIOR, RATINGS_SCHEMA_VERSION};
/// The confidence level of every interval of the outputs.
pub const LEVEL: f64 = 0.95;

/// Everything a run needs besides its games: the settings checked, the card data, the
/// decks, the entries and their pods.
pub struct Ffa {
    pub field: Field,
    /// Every 4-subset of the entries.
    pub pods: Vec<[usize; 4]>,
}

/// The policies of an ffa run: usage errors (exit 2) for an unknown policy, one given
/// twice, or one that does not play Free for All yet.
fn ffa_policies(names: &[String]) -> Result<Vec<PolicySpec>> {
    let specs = load::head_to_head_policies(names, "ffa")?;
    for p in &specs {
        if let Err(e) = p.check_ffa() {
            return Err(usage(format!("--policy {p}: {e}")));
        }
    }
    Ok(specs)
}

impl HeadToHead for Ffa {
    type Settings = Entries;
    type Tally = FfaTally;
    type Summary = PlFit;
    const KIND: &'static str = "ffa";
    const CONFIG_WORD: &'static str = "seating";

    fn prepare(a: &Entries) -> Result<Ffa> {
        let policies = ffa_policies(&a.policies)?;
        let n = a.players.len() * policies.len();
        if n < SEATS {
            return Err(usage(format!(
                "ffa needs at least 4 entries (each --player deck with each --policy is one; every 4 of them form a pod): {} deck(s) x {} policy(ies) make {n}",
                a.players.len(),
                policies.len()
            )));
        }
        let configs = pod_count(n).and_then(|p| p.checked_mul(SEATINGS.len() as u64));
        if configs.and_then(|c| c.checked_mul(a.games)).is_none() {
            return Err(usage(format!(
                "--games {}: {n} entries make too many pods for {} games per seating",
                a.games, a.games
            )));
        }
        let field = Field::load(a, policies, |d| {
            if d.cards.len() > FFA_MAX_CARDS {
                bail!(
                    "{}: {} cards besides the hero; Free for All seats decks of at most {FFA_MAX_CARDS} (four decks share the table's object ids)",
                    d.path.display(),
                    d.cards.len()
                );
            }
            Ok(())
        })?;
        Ok(Ffa {
            pods: pods(field.entries.len()),
            field,
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
        self.pods.len() * SEATINGS.len()
    }

    fn zero(&self) -> FfaTally {
        FfaTally::default()
    }

    fn play(
        &self,
        a: &Entries,
        slice: Slice,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
        log: &mut LogWriter<TallyUnit<FfaTally>>,
    ) -> Result<Vec<FfaTally>, Stop<StateError>> {
        let plan = self.field.plan(a, slice);
        run_ffa(&plan, progress, Some(stop), log)
    }

    fn write(&self, a: &Entries, out: &mut OutputDir, tallies: &[FfaTally]) -> Result<PlFit> {
        write_outputs(out, self, a, tallies)
    }

    fn what(&self, _: &Entries) -> String {
        format!(
            "free for all, {} entries, {} pods x {} seatings",
            self.field.info.len(),
            self.pods.len(),
            SEATINGS.len()
        )
    }
}

/// The totals the report and the ratings read, from the tallies of every configuration
/// (pod `c / 24`, seating `c % 24`).
pub struct Totals {
    /// Per entry: games played, won, drawn.
    pub entry: Vec<[u64; 3]>,
    /// Per seat: games, wins (draws are the same for every seat: `draws`).
    pub seat: [[u64; 2]; 4],
    pub games: u64,
    pub draws: u64,
    pub arenas: u64,
    pub first_wins: u64,
    pub days: u64,
    pub engine_errors: u64,
    /// Per pod: its members' wins over its 24 seatings.
    pub pod_wins: Vec<[u64; 4]>,
}

pub fn totals(n: usize, pods: &[[usize; 4]], tallies: &[FfaTally]) -> Totals {
    let mut t = Totals {
        entry: vec![[0; 3]; n],
        seat: [[0; 2]; 4],
        games: 0,
        draws: 0,
        arenas: 0,
        first_wins: 0,
        days: 0,
        engine_errors: 0,
        pod_wins: vec![[0; 4]; pods.len()],
    };
    for (c, tally) in tallies.iter().enumerate() {
        let (pod, seating) = (c / SEATINGS.len(), &SEATINGS[c % SEATINGS.len()]);
        for (s, &member) in seating.iter().enumerate() {
            let member = member as usize;
            let e = &mut t.entry[pods[pod][member]];
            e[0] += tally.games;
            e[1] += tally.wins[s];
            e[2] += tally.draws;
            t.seat[s][0] += tally.games;
            t.seat[s][1] += tally.wins[s];
            t.pod_wins[pod][member] += tally.wins[s];
        }
        t.games += tally.games;
        t.draws += tally.draws;
        t.arenas += tally.arenas;
        t.first_wins += tally.first_wins;
        t.days += tally.days;
        t.engine_errors += tally.engine_errors.count;
    }
    t
}

/// The Plackett–Luce fit of the entries to the winners of the pods (draws left out).
pub fn rate(n: usize, pods: &[[usize; 4]], tallies: &[FfaTally]) -> PlFit {
    let t = totals(n, pods, tallies);
    let tables: Vec<plackett_luce::Table> = pods
        .iter()
        .zip(&t.pod_wins)
        .map(|(pod, wins)| plackett_luce::Table {
            players: pod.to_vec(),
            wins: wins.iter().map(|&w| w as f64).collect(),
        })
        .collect();
    plackett_luce::fit(n, &tables, PRIOR)
}

/// The probability of winning a table of three players of average strength (centred
/// log-strength 0), from a log-strength.
pub fn against_average(theta: f64) -> f64 {
    theta.exp() / (theta.exp() + 3.0)
}

/// Writes the tables, the report and meta.json of a finished run; returns the rating.
fn write_outputs(out: &mut OutputDir, p: &Ffa, a: &Entries, tallies: &[FfaTally]) -> Result<PlFit> {
    let info = &p.field.info;
    let n = info.len();
    let fit = rate(n, &p.pods, tallies);
    if !fit.converged {
        eprintln!(
            "confluence-sim: warning: the Plackett-Luce fit stopped after {} iterations without converging; the ratings are approximate",
            fit.iterations
        );
    }
    let errors: Vec<_> = tallies.iter().map(|t| t.engine_errors).collect();
    let name = |c: usize| {
        format!(
            "pod {} seating {}, --seed {}",
            c / SEATINGS.len(),
            c % SEATINGS.len(),
            a.seed
        )
    };
    if let Some(note) = headtohead::engine_error_note(&errors, "pods", name) {
        eprintln!("confluence-sim: {note}");
    }
    let pods_t = pods_table(info, &p.pods, tallies, a.seed, a.day_cap);
    let t = totals(n, &p.pods, tallies);
    let ratings = ratings_table(info, &t, &fit);
    let meta = super::meta::command_meta(
        "ffa",
        json!({
            "seed": a.seed,
            "games_per_seating": a.games,
            "pods": p.pods.len(),
            "seatings": SEATINGS.len(),
            "games": t.games,
            "day_cap": a.day_cap,
            "decks": p.field.decks_json(),
            "policies": p.field.policies.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            "expert_weights": super::meta::model_file(a.models.expert_weights.as_deref()),
            "value_weights": super::meta::model_file(a.models.value_weights.as_deref()),
            "entries": p.field.entries_json(),
            "first_player_wins": t.first_wins,
            "design": "every 4-subset of the entries is a pod; each pod plays all 24 orders of its entries round the table, the first player turning with the game index",
            "rating": {
                "method": "Plackett-Luce on the winner of each game (a Bradley-Terry extension to four players), minorize-maximize iterations with a Gamma prior; games without a winner left out",
                "prior": PRIOR,
                "intervals": "95%, normal approximation on the log-strength, observed information",
                "iterations": fit.iterations,
                "converged": fit.converged,
            },
        }),
    );
    out.write_csv("pods.csv", &pods_t)?;
    out.write_parquet("pods.parquet", &pods_t)?;
    out.write_csv("ratings.csv", &ratings)?;
    let (doc, _) = crate::report::ffa::document(&shown(out.dest()), &pods_t, Some(&meta))?;
    crate::report::write_into(out, &doc)?;
    out.write_bytes("meta.json", &super::meta::to_bytes(&meta))?;
    Ok(fit)
}

/// The directory as the report names it: relative to the working directory when it lies
/// below it.
fn shown(dest: &std::path::Path) -> std::path::PathBuf {
    std::env::current_dir()
        .and_then(std::fs::canonicalize)
        .ok()
        .and_then(|d| dest.strip_prefix(d).ok().map(|p| p.to_path_buf()))
        .unwrap_or_else(|| dest.to_path_buf())
}

/// One row per pod, seating and seat.
fn pods_table(
    info: &[EntryInfo],
    pods: &[[usize; 4]],
    tallies: &[FfaTally],
    seed: u64,
    day_cap: u8,
) -> Table {
    // (configuration, seat, entry)
    let rows: Vec<(usize, usize, usize)> = (0..tallies.len())
        .flat_map(|c| {
            let (pod, seating) = (c / SEATINGS.len(), SEATINGS[c % SEATINGS.len()]);
            (0..SEATS).map(move |s| (c, s, pods[pod][seating[s] as usize]))
        })
        .collect();
    let k = rows.len();
    let u32s =
        |f: &dyn Fn(&(usize, usize, usize)) -> u32| ColumnData::U32(rows.iter().map(f).collect());
    let u64s =
        |f: &dyn Fn(&(usize, usize, usize)) -> u64| ColumnData::U64(rows.iter().map(f).collect());
    let strs = |f: &dyn Fn(&EntryInfo) -> String| {
        ColumnData::Str(rows.iter().map(|r| f(&info[r.2])).collect())
    };
    let tally = |r: &(usize, usize, usize)| &tallies[r.0];
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![PODS_SCHEMA_VERSION; k]),
    )
    .push("pod", u32s(&|r| (r.0 / SEATINGS.len()) as u32))
    .push("seating", u32s(&|r| (r.0 % SEATINGS.len()) as u32))
    .push("seat", u32s(&|r| r.1 as u32))
    .push("entry", u32s(&|r| r.2 as u32))
    .push("deck", strs(&|e| e.deck.clone()))
    .push("hero", strs(&|e| e.hero.clone()))
    .push("policy", strs(&|e| e.policy.clone()))
    .push("games", u64s(&|r| tally(r).games))
    .push("wins", u64s(&|r| tally(r).wins[r.1]))
    .push("draws", u64s(&|r| tally(r).draws))
    .push(
        "losses",
        u64s(&|r| {
            let t = tally(r);
            t.games - t.wins[r.1] - t.draws
        }),
    )
    .push(
        "win_share",
        ColumnData::F64(
            rows.iter()
                .map(|r| tally(r).wins[r.1] as f64 / tally(r).games.max(1) as f64)
                .collect(),
        ),
    )
    .push(
        "days_mean",
        ColumnData::F64(rows.iter().map(|r| tally(r).days_mean()).collect()),
    )
    .push("arena_games", u64s(&|r| tally(r).arenas))
    .push("engine_errors", u64s(&|r| tally(r).engine_errors.count))
    .push("seed", ColumnData::U64(vec![seed; k]))
    .push("day_cap", ColumnData::U32(vec![day_cap as u32; k]));
    t
}

/// One row per entry, strongest first.
fn ratings_table(info: &[EntryInfo], t: &Totals, fit: &PlFit) -> Table {
    let order = fit.order();
    let ranks = fit.ranks();
    let n = info.len();
    let iv: Vec<(f64, f64)> = (0..n).map(|i| fit.interval(i, LEVEL)).collect();
    let share: Vec<_> = (0..n)
        .map(|i| wilson(t.entry[i][1], t.entry[i][0], LEVEL))
        .collect();
    let col = |f: &dyn Fn(usize) -> f64| ColumnData::F64(order.iter().map(|&i| f(i)).collect());
    let u64s = |f: &dyn Fn(usize) -> u64| ColumnData::U64(order.iter().map(|&i| f(i)).collect());
    let mut tb = headtohead::entry_columns(RATINGS_SCHEMA_VERSION, &order, &ranks, info);
    tb.push("games", u64s(&|i| t.entry[i][0]))
        .push("wins", u64s(&|i| t.entry[i][1]))
        .push("draws", u64s(&|i| t.entry[i][2]))
        .push("win_share", col(&|i| share[i].estimate))
        .push("win_share_lo", col(&|i| share[i].lo))
        .push("win_share_hi", col(&|i| share[i].hi))
        .push("log_strength", col(&|i| fit.log_strength[i]))
        .push("log_strength_se", col(&|i| fit.se[i]))
        .push("log_strength_lo", col(&|i| iv[i].0))
        .push("log_strength_hi", col(&|i| iv[i].1))
        .push(
            "win_vs_average",
            col(&|i| against_average(fit.log_strength[i])),
        )
        .push("win_vs_average_lo", col(&|i| against_average(iv[i].0)))
        .push("win_vs_average_hi", col(&|i| against_average(iv[i].1)));
    tb
}
