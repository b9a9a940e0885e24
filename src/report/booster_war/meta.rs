//! `meta.json` of a Booster War directory, read leniently: what the run section shows
//! (the set, the booster's slots, the pool, the rules), every field optional; only a
//! `kind` other than `booster-war` is an error.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::error::ReportError;

use super::super::inputs::{RunMeta, read_meta};

/// What `meta.json` says about a Booster War run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct WarMeta {
    /// Version, commit, creation time and command line.
    pub run: RunMeta,
    pub set: Option<String>,
    /// Heroes, commons and rares in one booster.
    pub booster: Option<[u64; 3]>,
    /// The file describing the boosters.
    pub booster_file: Option<String>,
    /// Heroes, commons and rares of the set's pool, and the pool's cards not fully encoded.
    pub pool: Option<[u64; 3]>,
    pub not_exact: Option<u64>,
    pub policy: Option<String>,
    pub games_per_variant: Option<u64>,
    /// The rules of the variant: unlimited mana, cards drawn each Morning, the last day
    /// before the score decides.
    pub free_mana: Option<bool>,
    /// Day 1's Mana and Expand kept under unlimited mana (`--day-one-mana`).
    pub day_one_mana: Option<bool>,
    pub morning_draw: Option<u64>,
    pub last_day: Option<u64>,
}

fn text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

fn three(v: Option<&Value>, keys: [&str; 3]) -> Option<[u64; 3]> {
    let v = v?;
    let n = |k: &str| v.get(k).and_then(Value::as_u64);
    Some([n(keys[0])?, n(keys[1])?, n(keys[2])?])
}

pub(crate) fn read_war_meta(path: &Path) -> Result<WarMeta, ReportError> {
    let run = read_meta(path)?;
    // read_meta checked the file is one JSON object.
    let v: Value = std::fs::read_to_string(path)
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(Value::Null);
    if let Some(kind) = text(v.get("kind"))
        && kind != "booster-war"
    {
        return Err(ReportError::Content {
            path: path.to_path_buf(),
            msg: format!(
                "`kind` is {kind:?}, expected \"booster-war\" (the metadata of another command's run?)"
            ),
        });
    }
    let keys = ["heroes", "commons", "rares"];
    let rule = |k: &str| v.get("rules").and_then(|r| r.get(k));
    Ok(WarMeta {
        run,
        set: text(v.get("set")),
        booster: three(v.get("booster"), keys),
        booster_file: text(v.get("booster").and_then(|b| b.get("file"))),
        pool: three(v.get("pool"), keys),
        not_exact: v
            .get("pool")
            .and_then(|p| p.get("not_exact"))
            .and_then(Value::as_u64),
        policy: text(v.get("policy")),
        games_per_variant: v.get("games_per_variant").and_then(Value::as_u64),
        free_mana: rule("free_mana").and_then(Value::as_bool),
        day_one_mana: rule("day_one_mana").and_then(Value::as_bool),
        morning_draw: rule("morning_draw").and_then(Value::as_u64),
        last_day: rule("last_day").and_then(Value::as_u64),
    })
}
