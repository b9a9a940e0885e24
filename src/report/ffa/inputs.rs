//! Step 1 of the Free for All report: `pods.parquet` and `meta.json` read into typed rows,
//! checked for the shape `confluence-sim ffa` writes (every seating of a pod seats its four
//! entries once, the four seats count the same games, one winner a game or a draw).
//!
//! The same checks serve the tables `ffa` has just made in memory ([`FfaInputs::of`]), so
//! that the report it writes at the end of a run and the one `confluence-sim report` writes
//! from its files are one.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::ReportError;
use crate::export::Table;

use super::super::inputs::{Columns, RunMeta, meta_of, read_table};
use super::{PODS_SCHEMA_VERSION, PRIOR};

/// One row of `pods.parquet`: one seat of one seating of one pod.
#[derive(Clone, Debug, Serialize)]
pub struct PodRow {
    pub pod: u32,
    pub seating: u32,
    pub seat: u32,
    pub entry: u32,
    pub deck: String,
    pub hero: String,
    pub policy: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub days_mean: f64,
    pub arena_games: u64,
    pub engine_errors: u64,
    pub seed: u64,
    pub day_cap: u64,
}

/// Everything read from a Free for All run's directory.
#[derive(Clone, Debug)]
pub struct FfaInputs {
    pub dir: PathBuf,
    /// One row per pod, seating and seat, in file order.
    pub rows: Vec<PodRow>,
    pub meta: Option<RunMeta>,
    /// The rating's prior weight (`rating.prior` in meta.json; [`PRIOR`] without it).
    pub prior: f64,
    /// Games won by the first player on day 1 (`first_player_wins` in meta.json; `None`
    /// when the file does not record it).
    pub first_player_wins: Option<u64>,
}

impl FfaInputs {
    /// Reads `pods.parquet` (required) and `meta.json` (optional) from `dir`.
    ///
    /// # Errors
    ///
    /// A missing or unreadable file, a missing or mistyped column, a schema version this
    /// confluence-sim does not read, or rows that are not the shape `ffa` writes; each
    /// error names the file.
    pub fn read(dir: &Path) -> Result<FfaInputs, ReportError> {
        let path = dir.join("pods.parquet");
        let table = read_table(
            &path,
            "expected the pods.parquet written by `confluence-sim ffa`",
        )?;
        let meta_path = dir.join("meta.json");
        let meta = if meta_path.is_file() {
            let text = std::fs::read_to_string(&meta_path).map_err(|e| ReportError::Read {
                path: meta_path.clone(),
                msg: e.to_string(),
                expected: "expected the run's metadata as JSON".into(),
            })?;
            Some(
                serde_json::from_str::<serde_json::Value>(&text).map_err(|e| {
                    ReportError::Read {
                        path: meta_path.clone(),
                        msg: e.to_string(),
                        expected: "expected the run's metadata as one JSON object".into(),
                    }
                })?,
            )
        } else {
            None
        };
        FfaInputs::of(dir, &table, meta.as_ref())
    }

    /// The inputs from the pods table and meta.json's contents as `ffa` writes them into
    /// `dir` (the files need not be there yet).
    ///
    /// # Errors
    ///
    /// As [`FfaInputs::read`].
    pub fn of(
        dir: &Path,
        table: &Table,
        meta: Option<&serde_json::Value>,
    ) -> Result<FfaInputs, ReportError> {
        let path = dir.join("pods.parquet");
        let rows = rows(&path, table)?;
        let meta_path = dir.join("meta.json");
        let run = meta.map(|v| meta_of(v, &meta_path)).transpose()?;
        let prior = meta
            .and_then(|v| v.pointer("/rating/prior"))
            .and_then(|p| p.as_f64())
            .unwrap_or(PRIOR);
        if !(prior.is_finite() && prior > 0.0) {
            return Err(ReportError::Content {
                path: meta_path,
                msg: format!("rating.prior {prior}: expected a positive number"),
            });
        }
        Ok(FfaInputs {
            dir: dir.to_path_buf(),
            rows,
            meta: run,
            prior,
            first_player_wins: meta
                .and_then(|v| v.get("first_player_wins"))
                .and_then(|x| x.as_u64()),
        })
    }
}

/// The rows of the pods table, checked.
fn rows(path: &Path, table: &Table) -> Result<Vec<PodRow>, ReportError> {
    let c = Columns { path, table };
    if table.rows() == 0 {
        return Err(c.err("no pods (the table has no rows)".into()));
    }
    c.check_schema(PODS_SCHEMA_VERSION)?;
    let pod = c.u32s("pod")?;
    let seating = c.u32s("seating")?;
    let seat = c.u32s("seat")?;
    let entry = c.u32s("entry")?;
    let deck = c.strs("deck")?;
    let hero = c.strs("hero")?;
    let policy = c.strs("policy")?;
    let games = c.u64s("games")?;
    let wins = c.u64s("wins")?;
    let draws = c.u64s("draws")?;
    let days_mean = c.f64s("days_mean")?;
    let arena_games = c.u64s("arena_games")?;
    let engine_errors = c.u64s("engine_errors")?;
    let seed = c.u64s("seed")?;
    let day_cap = c.u64s("day_cap")?;
    let rows: Vec<PodRow> = (0..table.rows())
        .map(|i| PodRow {
            pod: pod[i],
            seating: seating[i],
            seat: seat[i],
            entry: entry[i],
            deck: deck[i].clone(),
            hero: hero[i].clone(),
            policy: policy[i].clone(),
            games: games[i],
            wins: wins[i],
            draws: draws[i],
            days_mean: days_mean[i],
            arena_games: arena_games[i],
            engine_errors: engine_errors[i],
            seed: seed[i],
            day_cap: day_cap[i],
        })
        .collect();
    check(&c, &rows)?;
    Ok(rows)
}

/// Every seating seats four distinct entries in seats 0 to 3, its rows agree on the games,
/// draws and days, and its wins and draws make its games; every seating of a pod seats the
/// same four entries; each entry has one name; the entries are 0 to n − 1.
fn check(c: &Columns<'_>, rows: &[PodRow]) -> Result<(), ReportError> {
    let mut seatings: BTreeMap<(u32, u32), Vec<&PodRow>> = BTreeMap::new();
    for r in rows {
        seatings.entry((r.pod, r.seating)).or_default().push(r);
    }
    let mut members: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for ((pod, seating), rs) in &seatings {
        let at = format!("pod {pod} seating {seating}");
        let mut seats: Vec<u32> = rs.iter().map(|r| r.seat).collect();
        seats.sort_unstable();
        let mut entries: Vec<u32> = rs.iter().map(|r| r.entry).collect();
        entries.sort_unstable();
        entries.dedup();
        if seats != [0, 1, 2, 3] || entries.len() != 4 {
            return Err(c.err(format!(
                "{at}: {} rows with seats {seats:?}; expected seats 0 to 3, each held by another entry",
                rs.len()
            )));
        }
        let first = rs[0];
        let same = rs.iter().all(|r| {
            r.games == first.games
                && r.draws == first.draws
                && r.arena_games == first.arena_games
                && r.engine_errors == first.engine_errors
                && r.days_mean.to_bits() == first.days_mean.to_bits()
        });
        let won = rs
            .iter()
            .try_fold(first.draws, |s, r| s.checked_add(r.wins));
        if !same || won != Some(first.games) {
            return Err(c.err(format!(
                "{at}: the four seats' wins and the draws do not make the games, or its rows disagree on the games, draws, Arena games or days"
            )));
        }
        match members.get(pod) {
            Some(m) if *m != entries => {
                return Err(c.err(format!(
                    "{at} seats entries {entries:?}, another seating of the pod {m:?}"
                )));
            }
            Some(_) => {}
            None => {
                members.insert(*pod, entries);
            }
        }
    }
    let mut names: BTreeMap<u32, (&str, &str, &str)> = BTreeMap::new();
    for r in rows {
        let name = (&*r.deck, &*r.hero, &*r.policy);
        if *names.entry(r.entry).or_insert(name) != name {
            return Err(c.err(format!(
                "entry {} is named two ways ({:?} and {name:?})",
                r.entry, names[&r.entry]
            )));
        }
    }
    let n = names.len() as u32;
    if names.keys().copied().ne(0..n) {
        return Err(c.err(format!(
            "the entries are {:?}; expected 0 to {}",
            names.keys().collect::<Vec<_>>(),
            n.saturating_sub(1)
        )));
    }
    Ok(())
}
