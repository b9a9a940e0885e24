//! Step 1 of the Booster War report: `booster_war.parquet`, `factions.parquet`,
//! `heroes.parquet`, `card_effects.parquet` and `meta.json` read into typed rows, checked
//! for the shape `confluence-sim booster-war` writes (one row per variant, counts that add
//! up to the variant's games, every row of a known variant).
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::ReportError;

use super::super::inputs::{Columns, optional, read_table};
use super::meta::{WarMeta, read_war_meta};
use super::{WAR_SCHEMA_VERSION, plain_name};

/// One row of `booster_war.parquet`: one variant.
#[derive(Clone, Debug, Serialize)]
pub struct VariantRow {
    pub variant: String,
    pub set: String,
    pub policy: String,
    pub games: u64,
    pub seat_a_wins: u64,
    pub seat_b_wins: u64,
    pub draws: u64,
    pub first_player_wins: u64,
    pub days_mean: f64,
    pub extra_day_games: u64,
    pub arena_games: u64,
    pub cards_played_mean: f64,
    /// Games that ended on an engine error (files written before the column: none).
    pub engine_errors: u64,
    pub seed: u64,
    pub day_cap: u64,
}

/// One row of `factions.parquet`: a side whose Hero is of `faction_a` against one of
/// `faction_b`, from A's side (a mirror pair counts each game twice).
#[derive(Clone, Debug, Serialize)]
pub struct FactionRow {
    pub variant: String,
    pub faction_a: String,
    pub faction_b: String,
    pub games: u64,
    pub wins_a: u64,
    pub wins_b: u64,
    pub draws: u64,
}

/// One row of `heroes.parquet`: one Hero's sides.
#[derive(Clone, Debug, Serialize)]
pub struct HeroRow {
    pub variant: String,
    pub hero: String,
    pub reference: String,
    pub faction: String,
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub win_rate: f64,
}

/// One row of `card_effects.parquet`: one booster card's sides.
#[derive(Clone, Debug, Serialize)]
pub struct CardRow {
    pub variant: String,
    pub reference: String,
    pub name: String,
    pub faction: String,
    pub rarity: String,
    pub kind: String,
    pub hand_cost: u64,
    /// Sides whose booster held it, and those that played it at least once.
    pub held: u64,
    pub played: u64,
    pub play_rate: f64,
    pub win_rate_held: f64,
    pub win_rate_played: f64,
    pub win_rate_not_played: f64,
    /// Win rate of the sides that played it minus that of every other side; NaN when
    /// never played.
    pub effect: f64,
    pub effect_lo: f64,
    pub effect_hi: f64,
}

/// Everything read from a Booster War directory.
#[derive(Clone, Debug)]
pub struct WarInputs {
    pub dir: PathBuf,
    /// One row per variant, in file order.
    pub variants: Vec<VariantRow>,
    pub factions: Vec<FactionRow>,
    pub heroes: Vec<HeroRow>,
    pub cards: Vec<CardRow>,
    pub meta: Option<WarMeta>,
}

/// The four tables, with what the error of a missing one says.
const EXPECTED: &str = "expected the tables written by `confluence-sim booster-war --out DIR`: booster_war, factions, heroes and card_effects (.parquet)";

/// Reads `dir/name`, which must exist, checking its schema version; returns the oldest
/// version found.
fn table(dir: &Path, name: &str) -> Result<(PathBuf, crate::export::Table, u32), ReportError> {
    let path = dir.join(name);
    if !path.is_file() {
        return Err(ReportError::Content {
            path,
            msg: format!("not found; {EXPECTED}"),
        });
    }
    let t = read_table(&path, EXPECTED)?;
    let version = Columns {
        path: &path,
        table: &t,
    }
    .check_schemas(1, WAR_SCHEMA_VERSION)?;
    Ok((path, t, version))
}

fn read_variants(dir: &Path) -> Result<Vec<VariantRow>, ReportError> {
    let (path, t, version) = table(dir, "booster_war.parquet")?;
    let c = Columns {
        path: &path,
        table: &t,
    };
    if t.rows() == 0 {
        return Err(c.err("no variants (the table has no rows)".into()));
    }
    let variant = c.strs("variant")?;
    let set = c.strs("set")?;
    let policy = c.strs("policy")?;
    let games = c.u64s("games")?;
    let a = c.u64s("seat_a_wins")?;
    let b = c.u64s("seat_b_wins")?;
    let draws = c.u64s("draws")?;
    let first = c.u64s("first_player_wins")?;
    c.f64s("first_player_win_rate")?;
    c.f64s("first_player_win_rate_lo")?;
    c.f64s("first_player_win_rate_hi")?;
    let days = c.f64s("days_mean")?;
    let extra = c.u64s("extra_day_games")?;
    let arena = c.u64s("arena_games")?;
    let played = c.f64s("cards_played_mean")?;
    // Version 1 had no `engine_errors` (none were counted), except the files written in
    // the days between the column and the version's bump.
    let engine_errors = match t.column("engine_errors") {
        None if version < 2 => vec![0; t.rows()],
        _ => c.u64s("engine_errors")?,
    };
    let seed = c.u64s("seed")?;
    let day_cap = c.u64s("day_cap")?;
    let mut rows: Vec<VariantRow> = Vec::with_capacity(t.rows());
    for i in 0..t.rows() {
        let v = &variant[i];
        if !plain_name(v) {
            return Err(c.err(format!(
                "row {i}: variant {v:?}, expected a name of lowercase letters, digits, `_` and `-` (`shuffled`, `ordered`)"
            )));
        }
        if rows.iter().any(|r| &r.variant == v) {
            return Err(c.err(format!(
                "variant `{v}` has two rows, expected one per variant"
            )));
        }
        let sum = a[i].checked_add(b[i]).and_then(|s| s.checked_add(draws[i]));
        if sum != Some(games[i]) {
            return Err(c.err(format!(
                "variant `{v}`: {} + {} seat wins and {} draws do not make its {} games",
                a[i], b[i], draws[i], games[i]
            )));
        }
        if first[i] > games[i] - draws[i] || extra[i] > games[i] || arena[i] > games[i] {
            return Err(c.err(format!(
                "variant `{v}`: more first-player wins ({}), day-5 games ({}) or Arena games ({}) than won games ({}) or games ({})",
                first[i],
                extra[i],
                arena[i],
                games[i] - draws[i],
                games[i]
            )));
        }
        rows.push(VariantRow {
            variant: v.clone(),
            set: set[i].clone(),
            policy: policy[i].clone(),
            games: games[i],
            seat_a_wins: a[i],
            seat_b_wins: b[i],
            draws: draws[i],
            first_player_wins: first[i],
            days_mean: days[i],
            extra_day_games: extra[i],
            arena_games: arena[i],
            cards_played_mean: played[i],
            engine_errors: engine_errors[i],
            seed: seed[i],
            day_cap: day_cap[i],
        });
    }
    Ok(rows)
}

/// The error for a row of a variant that `booster_war.parquet` lacks.
fn unknown_variant(c: &Columns<'_>, i: usize, v: &str, known: &[VariantRow]) -> ReportError {
    let names: Vec<&str> = known.iter().map(|r| r.variant.as_str()).collect();
    c.err(format!(
        "row {i}: variant `{v}`, which booster_war.parquet does not have (it has {})",
        names.join(", ")
    ))
}

fn read_factions(dir: &Path, variants: &[VariantRow]) -> Result<Vec<FactionRow>, ReportError> {
    let (path, t, _) = table(dir, "factions.parquet")?;
    let c = Columns {
        path: &path,
        table: &t,
    };
    let variant = c.strs("variant")?;
    let fa = c.strs("faction_a")?;
    let fb = c.strs("faction_b")?;
    let games = c.u64s("games")?;
    let wa = c.u64s("wins_a")?;
    let wb = c.u64s("wins_b")?;
    let draws = c.u64s("draws")?;
    c.f64s("win_rate_a")?;
    c.f64s("win_rate_a_lo")?;
    c.f64s("win_rate_a_hi")?;
    let mut rows: Vec<FactionRow> = Vec::with_capacity(t.rows());
    let mut seen = BTreeSet::new();
    for i in 0..t.rows() {
        if !variants.iter().any(|r| r.variant == variant[i]) {
            return Err(unknown_variant(&c, i, &variant[i], variants));
        }
        if !seen.insert((&variant[i], &fa[i], &fb[i])) {
            return Err(c.err(format!(
                "row {i}: `{}` against `{}` ({}) has two rows",
                fa[i], fb[i], variant[i]
            )));
        }
        let sum = wa[i]
            .checked_add(wb[i])
            .and_then(|s| s.checked_add(draws[i]));
        if sum != Some(games[i]) {
            return Err(c.err(format!(
                "row {i} ({} against {}, {}): {} + {} wins and {} draws do not make its {} games",
                fa[i], fb[i], variant[i], wa[i], wb[i], draws[i], games[i]
            )));
        }
        rows.push(FactionRow {
            variant: variant[i].clone(),
            faction_a: fa[i].clone(),
            faction_b: fb[i].clone(),
            games: games[i],
            wins_a: wa[i],
            wins_b: wb[i],
            draws: draws[i],
        });
    }
    for r in rows.iter().filter(|r| r.faction_a != r.faction_b) {
        let back = rows.iter().find(|o| {
            o.variant == r.variant && o.faction_a == r.faction_b && o.faction_b == r.faction_a
        });
        if back.map(|o| (o.games, o.wins_a, o.wins_b, o.draws))
            != Some((r.games, r.wins_b, r.wins_a, r.draws))
        {
            return Err(c.err(format!(
                "the rows of `{}` against `{}` and of `{}` against `{}` ({}) do not count the same games (expected one row from each side)",
                r.faction_a, r.faction_b, r.faction_b, r.faction_a, r.variant
            )));
        }
    }
    for v in variants {
        let sides: u64 = rows
            .iter()
            .filter(|r| r.variant == v.variant)
            .map(|r| r.games)
            .sum();
        if sides != 2 * v.games {
            return Err(c.err(format!(
                "variant `{}`: the rows count {sides} sides, expected two per game ({} games in booster_war.parquet)",
                v.variant, v.games
            )));
        }
    }
    Ok(rows)
}

fn read_heroes(dir: &Path, variants: &[VariantRow]) -> Result<Vec<HeroRow>, ReportError> {
    let (path, t, _) = table(dir, "heroes.parquet")?;
    let c = Columns {
        path: &path,
        table: &t,
    };
    let variant = c.strs("variant")?;
    let hero = c.strs("hero")?;
    let reference = c.strs("reference")?;
    let faction = c.strs("faction")?;
    let games = c.u64s("games")?;
    let wins = c.u64s("wins")?;
    let losses = c.u64s("losses")?;
    let draws = c.u64s("draws")?;
    let rate = c.f64s("win_rate")?;
    c.f64s("win_rate_lo")?;
    c.f64s("win_rate_hi")?;
    let mut rows = Vec::with_capacity(t.rows());
    for i in 0..t.rows() {
        if !variants.iter().any(|r| r.variant == variant[i]) {
            return Err(unknown_variant(&c, i, &variant[i], variants));
        }
        let sum = wins[i]
            .checked_add(losses[i])
            .and_then(|s| s.checked_add(draws[i]));
        if sum != Some(games[i]) {
            return Err(c.err(format!(
                "row {i} ({}, {}): {} wins, {} losses and {} draws do not make its {} games",
                hero[i], variant[i], wins[i], losses[i], draws[i], games[i]
            )));
        }
        rows.push(HeroRow {
            variant: variant[i].clone(),
            hero: hero[i].clone(),
            reference: reference[i].clone(),
            faction: faction[i].clone(),
            games: games[i],
            wins: wins[i],
            losses: losses[i],
            draws: draws[i],
            win_rate: rate[i],
        });
    }
    for v in variants {
        let of = || rows.iter().filter(|r| r.variant == v.variant);
        let sides: u64 = of().map(|r| r.games).sum();
        let won: u64 = of().map(|r| r.wins).sum();
        if sides != 2 * v.games || won != v.seat_a_wins + v.seat_b_wins {
            return Err(c.err(format!(
                "variant `{}`: the Heroes count {sides} sides and {won} wins, expected two sides per game and the games' wins ({} games, {} won, in booster_war.parquet)",
                v.variant,
                v.games,
                v.seat_a_wins + v.seat_b_wins
            )));
        }
    }
    Ok(rows)
}

fn read_cards(dir: &Path, variants: &[VariantRow]) -> Result<Vec<CardRow>, ReportError> {
    let (path, t, _) = table(dir, "card_effects.parquet")?;
    let c = Columns {
        path: &path,
        table: &t,
    };
    let variant = c.strs("variant")?;
    let reference = c.strs("reference")?;
    let name = c.strs("name")?;
    let faction = c.strs("faction")?;
    let rarity = c.strs("rarity")?;
    let kind = c.strs("type")?;
    let cost = c.u64s("hand_cost")?;
    let held = c.u64s("held")?;
    let played = c.u64s("played")?;
    let play_rate = c.f64s("play_rate")?;
    let wr_held = c.f64s("win_rate_held")?;
    let wr_played = c.f64s("win_rate_played")?;
    let wr_not = c.f64s("win_rate_not_played")?;
    let effect = c.f64s("effect")?;
    let lo = c.f64s("effect_lo")?;
    let hi = c.f64s("effect_hi")?;
    let mut rows = Vec::with_capacity(t.rows());
    let mut seen = BTreeSet::new();
    for i in 0..t.rows() {
        let Some(v) = variants.iter().find(|r| r.variant == variant[i]) else {
            return Err(unknown_variant(&c, i, &variant[i], variants));
        };
        if !seen.insert((&variant[i], &reference[i])) {
            return Err(c.err(format!(
                "row {i}: card {} ({}) has two rows",
                reference[i], variant[i]
            )));
        }
        if played[i] > held[i] || held[i] > 2 * v.games {
            return Err(c.err(format!(
                "row {i} ({}, {}): played by {} sides and held by {}, expected at most the sides that held it, and at most two per game ({} games)",
                reference[i], variant[i], played[i], held[i], v.games
            )));
        }
        rows.push(CardRow {
            variant: variant[i].clone(),
            reference: reference[i].clone(),
            name: name[i].clone(),
            faction: faction[i].clone(),
            rarity: rarity[i].clone(),
            kind: kind[i].clone(),
            hand_cost: cost[i],
            held: held[i],
            played: played[i],
            play_rate: play_rate[i],
            win_rate_held: wr_held[i],
            win_rate_played: wr_played[i],
            win_rate_not_played: wr_not[i],
            effect: effect[i],
            effect_lo: lo[i],
            effect_hi: hi[i],
        });
    }
    Ok(rows)
}

impl WarInputs {
    /// Reads the outputs of `confluence-sim booster-war` from `dir`: the four tables are
    /// required, `meta.json` is read when present.
    ///
    /// # Errors
    ///
    /// A missing or unreadable file, a missing or mistyped column, another schema version,
    /// a `meta.json` of another kind, or counts that do not add up to the variants' games;
    /// each names the file.
    pub fn read(dir: &Path) -> Result<WarInputs, ReportError> {
        let variants = read_variants(dir)?;
        let factions = read_factions(dir, &variants)?;
        let heroes = read_heroes(dir, &variants)?;
        let cards = read_cards(dir, &variants)?;
        let meta = optional(dir, "meta.json", read_war_meta)?;
        Ok(WarInputs {
            dir: dir.to_path_buf(),
            variants,
            factions,
            heroes,
            cards,
            meta,
        })
    }
}
