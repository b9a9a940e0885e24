//! Step 1 of the matchup report: `matchups.parquet`, `ranking.parquet` and `meta.json`
//! read into typed rows, checked for the shape `confluence-sim matchup` writes (every
//! ordered pair of entries once, counts that add up, one ranking row per entry).
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::ReportError;

use super::super::inputs::{Columns, RunMeta, optional, read_meta, read_table};
use super::{MATCHUPS_SCHEMA_VERSION, RANKING_SCHEMA_VERSION};

/// One row of `matchups.parquet`: entry A against entry B, from A's side.
#[derive(Clone, Debug, Serialize)]
pub struct PairRow {
    pub entry_a: u32,
    pub deck_a: String,
    pub hero_a: String,
    pub policy_a: String,
    pub entry_b: u32,
    pub deck_b: String,
    pub hero_b: String,
    pub policy_b: String,
    pub games: u64,
    pub wins_a: u64,
    pub wins_b: u64,
    pub draws: u64,
    pub win_rate_a: f64,
    pub win_rate_a_lo: f64,
    pub win_rate_a_hi: f64,
    pub first_player_wins: u64,
    pub days_mean: f64,
    pub seed: u64,
    pub day_cap: u64,
    /// Games of the pair that ended on an engine error (0 before schema version 2).
    pub engine_errors: u64,
}

/// One row of `ranking.parquet`: one entry's Bradley–Terry strength.
#[derive(Clone, Debug, Serialize)]
pub struct RankRow {
    pub rank: u32,
    pub entry: u32,
    pub deck: String,
    pub hero: String,
    pub policy: String,
    pub games: u64,
    pub score: f64,
    pub log_strength: f64,
    pub log_strength_lo: f64,
    pub log_strength_hi: f64,
    pub strength: f64,
    pub strength_lo: f64,
    pub strength_hi: f64,
    pub win_vs_average: f64,
    pub win_vs_average_lo: f64,
    pub win_vs_average_hi: f64,
}

/// Everything read from a matchup run's directory.
#[derive(Clone, Debug)]
pub struct MatchupInputs {
    pub dir: PathBuf,
    /// One row per ordered pair of entries, in file order.
    pub pairs: Vec<PairRow>,
    /// One row per entry, in file order (strongest first).
    pub ranking: Vec<RankRow>,
    pub meta: Option<RunMeta>,
}

fn read_pairs(path: &Path) -> Result<Vec<PairRow>, ReportError> {
    let table = read_table(
        path,
        "expected the matchups.parquet written by `confluence-sim matchup`",
    )?;
    let c = Columns {
        path,
        table: &table,
    };
    if table.rows() == 0 {
        return Err(c.err("no pairs (the table has no rows)".into()));
    }
    // Version 1 had no `engine_errors` column (none were counted then).
    let version = c.check_schemas(1, MATCHUPS_SCHEMA_VERSION)?;
    let engine_errors = if version < 2 {
        vec![0; table.rows()]
    } else {
        c.u64s("engine_errors")?
    };
    let entry_a = c.u32s("entry_a")?;
    let deck_a = c.strs("deck_a")?;
    let hero_a = c.strs("hero_a")?;
    let policy_a = c.strs("policy_a")?;
    let entry_b = c.u32s("entry_b")?;
    let deck_b = c.strs("deck_b")?;
    let hero_b = c.strs("hero_b")?;
    let policy_b = c.strs("policy_b")?;
    let games = c.u64s("games")?;
    let wins_a = c.u64s("wins_a")?;
    let wins_b = c.u64s("wins_b")?;
    let draws = c.u64s("draws")?;
    let rate = c.f64s("win_rate_a")?;
    let lo = c.f64s("win_rate_a_lo")?;
    let hi = c.f64s("win_rate_a_hi")?;
    let first = c.u64s("first_player_wins")?;
    let days = c.f64s("days_mean")?;
    let seed = c.u64s("seed")?;
    let day_cap = c.u64s("day_cap")?;
    let mut rows = Vec::with_capacity(table.rows());
    for i in 0..table.rows() {
        let decided = wins_a[i].checked_add(wins_b[i]);
        if decided.and_then(|d| d.checked_add(draws[i])) != Some(games[i]) || first[i] > games[i] {
            return Err(c.err(format!(
                "row {i} (entries {} and {}): {} + {} wins and {} draws do not make its {} games (or more first-player wins than games)",
                entry_a[i], entry_b[i], wins_a[i], wins_b[i], draws[i], games[i]
            )));
        }
        rows.push(PairRow {
            entry_a: entry_a[i],
            deck_a: deck_a[i].clone(),
            hero_a: hero_a[i].clone(),
            policy_a: policy_a[i].clone(),
            entry_b: entry_b[i],
            deck_b: deck_b[i].clone(),
            hero_b: hero_b[i].clone(),
            policy_b: policy_b[i].clone(),
            games: games[i],
            wins_a: wins_a[i],
            wins_b: wins_b[i],
            draws: draws[i],
            win_rate_a: rate[i],
            win_rate_a_lo: lo[i],
            win_rate_a_hi: hi[i],
            first_player_wins: first[i],
            days_mean: days[i],
            seed: seed[i],
            day_cap: day_cap[i],
            engine_errors: engine_errors[i],
        });
    }
    // Entries 0..n, each ordered pair once, each entry named the same way in every row.
    let mut names: BTreeMap<u32, (&str, &str, &str)> = BTreeMap::new();
    for r in &rows {
        for (e, name) in [
            (r.entry_a, (&*r.deck_a, &*r.hero_a, &*r.policy_a)),
            (r.entry_b, (&*r.deck_b, &*r.hero_b, &*r.policy_b)),
        ] {
            if *names.entry(e).or_insert(name) != name {
                return Err(c.err(format!(
                    "entry {e} is named both {:?} and {:?}",
                    names[&e], name
                )));
            }
        }
    }
    let n = names.len();
    if names.keys().copied().ne(0..n as u32) {
        return Err(c.err(format!(
            "entries {:?}: expected them numbered from 0 without gaps",
            names.keys().collect::<Vec<_>>()
        )));
    }
    let mut seen = vec![false; n * n];
    for r in &rows {
        let k = r.entry_a as usize * n + r.entry_b as usize;
        if std::mem::replace(&mut seen[k], true) {
            return Err(c.err(format!(
                "the pair of entries {} and {} has two rows",
                r.entry_a, r.entry_b
            )));
        }
    }
    if let Some(k) = seen.iter().position(|s| !s) {
        return Err(c.err(format!(
            "no row for entry {} against entry {} (expected one row per ordered pair of the {n} entries)",
            k / n,
            k % n
        )));
    }
    for r in rows.iter().filter(|r| r.entry_a != r.entry_b) {
        let back = rows
            .iter()
            .find(|o| o.entry_a == r.entry_b && o.entry_b == r.entry_a)
            .expect("every ordered pair has a row");
        if (back.games, back.wins_a, back.wins_b, back.draws)
            != (r.games, r.wins_b, r.wins_a, r.draws)
        {
            return Err(c.err(format!(
                "the rows of entries {} against {} and {} against {} do not count the same games",
                r.entry_a, r.entry_b, r.entry_b, r.entry_a
            )));
        }
    }
    Ok(rows)
}

fn read_ranking(path: &Path, entries: usize) -> Result<Vec<RankRow>, ReportError> {
    let table = read_table(
        path,
        "expected the ranking.parquet written by `confluence-sim matchup`",
    )?;
    let c = Columns {
        path,
        table: &table,
    };
    c.check_schema(RANKING_SCHEMA_VERSION)?;
    let rank = c.u32s("rank")?;
    let entry = c.u32s("entry")?;
    let deck = c.strs("deck")?;
    let hero = c.strs("hero")?;
    let policy = c.strs("policy")?;
    let games = c.u64s("games")?;
    let score = c.f64s("score")?;
    let ls = c.f64s("log_strength")?;
    let ls_lo = c.f64s("log_strength_lo")?;
    let ls_hi = c.f64s("log_strength_hi")?;
    let s = c.f64s("strength")?;
    let s_lo = c.f64s("strength_lo")?;
    let s_hi = c.f64s("strength_hi")?;
    let w = c.f64s("win_vs_average")?;
    let w_lo = c.f64s("win_vs_average_lo")?;
    let w_hi = c.f64s("win_vs_average_hi")?;
    let mut sorted = entry.clone();
    sorted.sort_unstable();
    if sorted.into_iter().ne(0..entries as u32) {
        return Err(c.err(format!(
            "entries {entry:?}: expected one row for each of the {entries} entries of matchups.parquet"
        )));
    }
    Ok((0..table.rows())
        .map(|i| RankRow {
            rank: rank[i],
            entry: entry[i],
            deck: deck[i].clone(),
            hero: hero[i].clone(),
            policy: policy[i].clone(),
            games: games[i],
            score: score[i],
            log_strength: ls[i],
            log_strength_lo: ls_lo[i],
            log_strength_hi: ls_hi[i],
            strength: s[i],
            strength_lo: s_lo[i],
            strength_hi: s_hi[i],
            win_vs_average: w[i],
            win_vs_average_lo: w_lo[i],
            win_vs_average_hi: w_hi[i],
        })
        .collect())
}

impl MatchupInputs {
    /// Reads the outputs of `confluence-sim matchup` from `dir`: `matchups.parquet` and
    /// `ranking.parquet` are required, `meta.json` is read when present.
    ///
    /// # Errors
    ///
    /// A missing or unreadable file, a missing or mistyped column, another schema version,
    /// or rows that are not one per ordered pair of entries with counts that add up; each
    /// names the file.
    pub fn read(dir: &Path) -> Result<MatchupInputs, ReportError> {
        let pairs = read_pairs(&dir.join("matchups.parquet"))?;
        let n = (pairs.len() as f64).sqrt().round() as usize;
        let ranking = read_ranking(&dir.join("ranking.parquet"), n)?;
        let meta = optional(dir, "meta.json", read_meta)?;
        Ok(MatchupInputs {
            dir: dir.to_path_buf(),
            pairs,
            ranking,
            meta,
        })
    }
}
