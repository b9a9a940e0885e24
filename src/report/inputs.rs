//! Step 1: reading a run's directory into typed rows, with errors that name the file, the
//! column and what was expected.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::ReportError;
use crate::export::{ColumnData, Table};

use super::{SCHEMA_VERSION, SUMMARY_SCHEMA_VERSION};

/// One row of `summary.parquet`: one configuration of the run.
#[derive(Clone, Debug, Serialize)]
pub struct ConfigRow {
    pub config_id: u32,
    pub player_deck: String,
    pub player_hero: String,
    pub policy: String,
    pub confluence_deck: String,
    pub rare_count: u32,
    pub rare_mask: u32,
    /// The rares' names (empty for the all-common deck).
    pub rare_mix: Vec<String>,
    pub games: u64,
    pub wins: u64,
    pub day_caps: u64,
    pub win_rate: f64,
    pub win_rate_lo: f64,
    pub win_rate_hi: f64,
    pub days_mean: f64,
    pub days_median: u64,
    /// Games ended on day 1, 2, ...
    pub day_histogram: Vec<u64>,
    pub wins_expeditions_met: u64,
    pub wins_confluence_deck_out: u64,
    pub wins_by_card: u64,
    pub losses_by_card: u64,
    pub losses_hero_darkness: u64,
    pub losses_companion_darkness: u64,
    pub player_cards_not_exact: u64,
    /// Games in which the engine failed (0 in a schema-2 file, which predates the count).
    pub engine_errors: u64,
    pub seed: u64,
    pub day_cap: u64,
}

/// One row of `cards.parquet`: one card of one side in one configuration.
#[derive(Clone, Debug, Serialize)]
pub struct CardRow {
    pub config_id: u32,
    pub side: String,
    pub card: String,
    pub reference: String,
    pub copies: u64,
    pub games: u64,
    pub games_played: u64,
    pub play_rate: f64,
    pub win_rate_when_played: f64,
    pub win_rate_when_not_played: f64,
}

/// One row of `rares.parquet`: the marginal effect of one rare for one deck and policy.
#[derive(Clone, Debug, Serialize)]
pub struct RareRow {
    pub player_deck: String,
    pub policy: String,
    pub rare: String,
    /// Change in win rate (a fraction, not percentage points) when the rare replaces its
    /// common twin; negative means the rare makes the Confluence harder.
    pub effect: f64,
    pub effect_lo: f64,
    pub effect_hi: f64,
    pub method: String,
    pub configs: u64,
    pub games: u64,
}

/// One row of `diffs.parquet`: a configuration's win rate minus its baseline's.
#[derive(Clone, Debug, Serialize)]
pub struct DiffRow {
    pub config_id: u32,
    pub baseline_config_id: u32,
    pub diff: f64,
    pub diff_se: f64,
    pub diff_lo: f64,
    pub diff_hi: f64,
}

/// `meta.json`, read leniently: every field is optional.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RunMeta {
    pub version: Option<String>,
    pub git_commit: Option<String>,
    pub created: Option<String>,
    pub command: Option<String>,
    pub experiment: Option<String>,
    pub seed: Option<String>,
    pub games: Option<String>,
    pub day_cap: Option<String>,
    pub confluence_deck: Option<String>,
    pub decks: Vec<MetaDeck>,
    /// The what-if edits applied to the decks (`CARD: CHANGE`), in order.
    pub edits: Vec<String>,
}

/// A player deck as `meta.json` describes it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MetaDeck {
    pub deck: String,
    pub hero: Option<String>,
    pub cards: Option<u64>,
    pub not_exact: Option<u64>,
}

/// Everything read from a run's directory.
#[derive(Clone, Debug)]
pub struct Inputs {
    pub dir: PathBuf,
    pub summary: Vec<ConfigRow>,
    pub cards: Option<Vec<CardRow>>,
    pub rares: Option<Vec<RareRow>>,
    pub diffs: Option<Vec<DiffRow>>,
    pub meta: Option<RunMeta>,
}

/// Typed access to the columns of a table read from `path`, with errors naming both.
pub(crate) struct Columns<'a> {
    pub(crate) path: &'a Path,
    pub(crate) table: &'a Table,
}

impl<'a> Columns<'a> {
    pub(crate) fn err(&self, msg: String) -> ReportError {
        ReportError::Content {
            path: self.path.to_path_buf(),
            msg,
        }
    }

    fn col(&self, name: &str) -> Result<&'a ColumnData, ReportError> {
        self.table.column(name).ok_or_else(|| {
            self.err(format!(
                "no column `{name}` (expected the columns of this confluence-sim's schema_version listed in docs/outputs.md)"
            ))
        })
    }

    fn wrong_type(&self, name: &str, c: &ColumnData, want: &str) -> ReportError {
        self.err(format!(
            "column `{name}` is {}, expected {want}",
            c.type_name()
        ))
    }

    pub(crate) fn u64s(&self, name: &str) -> Result<Vec<u64>, ReportError> {
        match self.col(name)? {
            ColumnData::U32(v) => Ok(v.iter().map(|&x| x as u64).collect()),
            ColumnData::U64(v) => Ok(v.clone()),
            c => Err(self.wrong_type(name, c, "an unsigned integer")),
        }
    }

    pub(crate) fn u32s(&self, name: &str) -> Result<Vec<u32>, ReportError> {
        self.u64s(name)?
            .into_iter()
            .map(|x| {
                u32::try_from(x)
                    .map_err(|_| self.err(format!("column `{name}` holds {x}, above 2^32")))
            })
            .collect()
    }

    pub(crate) fn f64s(&self, name: &str) -> Result<Vec<f64>, ReportError> {
        match self.col(name)? {
            ColumnData::F64(v) => Ok(v.clone()),
            c => Err(self.wrong_type(name, c, "f64")),
        }
    }

    pub(crate) fn strs(&self, name: &str) -> Result<Vec<String>, ReportError> {
        match self.col(name)? {
            ColumnData::Str(v) => Ok(v.clone()),
            c => Err(self.wrong_type(name, c, "string")),
        }
    }

    fn lists(&self, name: &str) -> Result<Vec<Vec<u64>>, ReportError> {
        match self.col(name)? {
            ColumnData::ListU64(v) => Ok(v.clone()),
            c => Err(self.wrong_type(name, c, "list<u64>")),
        }
    }

    /// A string column that older files may lack: empty strings then.
    fn strs_or_empty(&self, name: &str) -> Result<Vec<String>, ReportError> {
        match self.table.column(name) {
            None => Ok(vec![String::new(); self.table.rows()]),
            Some(_) => self.strs(name),
        }
    }

    pub(crate) fn check_schema(&self, want: u32) -> Result<(), ReportError> {
        self.check_schemas(want, want).map(|_| ())
    }

    /// Checks that every row has one schema version from `oldest` to `want`, and returns
    /// the oldest found.
    pub(crate) fn check_schemas(&self, oldest: u32, want: u32) -> Result<u32, ReportError> {
        let mut found = want;
        for v in self.u64s("schema_version")? {
            if !(oldest as u64..=want as u64).contains(&v) {
                let reads = if oldest == want {
                    format!("schema_version {want}")
                } else {
                    format!("schema_version {oldest} to {want}")
                };
                return Err(self.err(format!(
                    "schema_version {v}; this confluence-sim reads {reads} (regenerate the file, or use the confluence-sim that wrote it)"
                )));
            }
            found = found.min(v as u32);
        }
        Ok(found)
    }
}

/// Reads `dir/name` with `read` when the file is there; `None` when it is not.
pub(crate) fn optional<T>(
    dir: &Path,
    name: &str,
    read: impl FnOnce(&Path) -> Result<T, ReportError>,
) -> Result<Option<T>, ReportError> {
    let path = dir.join(name);
    path.is_file().then(|| read(&path)).transpose()
}

pub(crate) fn read_table(path: &Path, expected: &str) -> Result<Table, ReportError> {
    crate::export::parquet::read(path).map_err(|msg| ReportError::Read {
        path: path.to_path_buf(),
        msg,
        expected: expected.to_string(),
    })
}

fn read_summary(dir: &Path) -> Result<Vec<ConfigRow>, ReportError> {
    let path = dir.join("summary.parquet");
    if !path.is_file() {
        return Err(ReportError::MissingSummary {
            path,
            dir: dir.to_path_buf(),
        });
    }
    let expected = format!(
        "expected the summary.parquet written by `confluence-sim run --out {}`",
        dir.display()
    );
    let table = read_table(&path, &expected)?;
    let c = Columns {
        path: &path,
        table: &table,
    };
    if table.rows() == 0 {
        return Err(c.err("no configurations (the table has no rows)".into()));
    }
    // Version 2 is version 3 without `engine_errors` (none were counted then).
    let version = c.check_schemas(2, SUMMARY_SCHEMA_VERSION)?;
    let engine_errors = if version < 3 {
        vec![0; table.rows()]
    } else {
        c.u64s("engine_errors")?
    };
    let config_id = c.u32s("config_id")?;
    let player_deck = c.strs("player_deck")?;
    let player_hero = c.strs_or_empty("player_hero")?;
    let policy = c.strs("policy")?;
    let confluence_deck = c.strs_or_empty("confluence_deck")?;
    let rare_count = c.u32s("rare_count")?;
    let rare_mask = c.u32s("rare_mask")?;
    let rare_mix = c.strs("rare_mix")?;
    let games = c.u64s("games")?;
    let wins = c.u64s("wins")?;
    let day_caps = c.u64s("day_caps")?;
    let win_rate = c.f64s("win_rate")?;
    let win_rate_lo = c.f64s("win_rate_lo")?;
    let win_rate_hi = c.f64s("win_rate_hi")?;
    let days_mean = c.f64s("days_mean")?;
    let days_median = c.u64s("days_median")?;
    let day_histogram = c.lists("day_histogram")?;
    let wins_met = c.u64s("wins_expeditions_met")?;
    let wins_out = c.u64s("wins_confluence_deck_out")?;
    let loss_hero = c.u64s("losses_hero_darkness")?;
    let loss_comp = c.u64s("losses_companion_darkness")?;
    let wins_card = c.u64s("wins_by_card")?;
    let loss_card = c.u64s("losses_by_card")?;
    let not_exact = c.u64s("player_cards_not_exact")?;
    let seed = c.u64s("seed")?;
    let day_cap = c.u64s("day_cap")?;
    let mut rows = Vec::with_capacity(table.rows());
    for i in 0..table.rows() {
        if wins[i] > games[i] {
            return Err(c.err(format!(
                "row {i} (config_id {}): {} wins out of {} games",
                config_id[i], wins[i], games[i]
            )));
        }
        rows.push(ConfigRow {
            config_id: config_id[i],
            player_deck: player_deck[i].clone(),
            player_hero: player_hero[i].clone(),
            policy: policy_label(&policy[i]),
            confluence_deck: confluence_deck[i].clone(),
            rare_count: rare_count[i],
            rare_mask: rare_mask[i],
            rare_mix: rare_mix[i]
                .split(';')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            games: games[i],
            wins: wins[i],
            day_caps: day_caps[i],
            win_rate: win_rate[i],
            win_rate_lo: win_rate_lo[i],
            win_rate_hi: win_rate_hi[i],
            days_mean: days_mean[i],
            days_median: days_median[i],
            day_histogram: day_histogram[i].clone(),
            wins_expeditions_met: wins_met[i],
            wins_confluence_deck_out: wins_out[i],
            losses_hero_darkness: loss_hero[i],
            losses_companion_darkness: loss_comp[i],
            wins_by_card: wins_card[i],
            losses_by_card: loss_card[i],
            player_cards_not_exact: not_exact[i],
            engine_errors: engine_errors[i],
            seed: seed[i],
            day_cap: day_cap[i],
        });
    }
    Ok(rows)
}

fn read_cards(path: &Path) -> Result<Vec<CardRow>, ReportError> {
    let table = read_table(path, "expected one row per (configuration, side, card)")?;
    let c = Columns {
        path,
        table: &table,
    };
    c.check_schema(SCHEMA_VERSION)?;
    let config_id = c.u32s("config_id")?;
    let side = c.strs("side")?;
    let card = c.strs("card")?;
    let reference = c.strs("reference")?;
    let copies = c.u64s("copies")?;
    let games = c.u64s("games")?;
    let games_played = c.u64s("games_played")?;
    let play_rate = c.f64s("play_rate")?;
    let wr_played = c.f64s("win_rate_when_played")?;
    let wr_not = c.f64s("win_rate_when_not_played")?;
    let mut rows = Vec::with_capacity(table.rows());
    for i in 0..table.rows() {
        if side[i] != "player" && side[i] != "confluence" {
            return Err(c.err(format!(
                "row {i}: side `{}`, expected `player` or `confluence`",
                side[i]
            )));
        }
        rows.push(CardRow {
            config_id: config_id[i],
            side: side[i].clone(),
            card: card[i].clone(),
            reference: reference[i].clone(),
            copies: copies[i],
            games: games[i],
            games_played: games_played[i],
            play_rate: play_rate[i],
            win_rate_when_played: wr_played[i],
            win_rate_when_not_played: wr_not[i],
        });
    }
    Ok(rows)
}

fn read_rares(path: &Path) -> Result<Vec<RareRow>, ReportError> {
    let table = read_table(path, "expected one row per (player_deck, policy, rare)")?;
    let c = Columns {
        path,
        table: &table,
    };
    c.check_schema(SCHEMA_VERSION)?;
    let player_deck = c.strs("player_deck")?;
    let policy = c.strs("policy")?;
    let rare = c.strs("rare")?;
    let effect = c.f64s("effect")?;
    let effect_lo = c.f64s("effect_lo")?;
    let effect_hi = c.f64s("effect_hi")?;
    let method = c.strs("method")?;
    let configs = c.u64s("configs")?;
    let games = c.u64s("games")?;
    Ok((0..table.rows())
        .map(|i| RareRow {
            player_deck: player_deck[i].clone(),
            policy: policy_label(&policy[i]),
            rare: rare[i].clone(),
            effect: effect[i],
            effect_lo: effect_lo[i],
            effect_hi: effect_hi[i],
            method: method[i].clone(),
            configs: configs[i],
            games: games[i],
        })
        .collect())
}

fn read_diffs(path: &Path) -> Result<Vec<DiffRow>, ReportError> {
    let table = read_table(
        path,
        "expected one row per configuration against its baseline",
    )?;
    let c = Columns {
        path,
        table: &table,
    };
    c.check_schema(SCHEMA_VERSION)?;
    let config_id = c.u32s("config_id")?;
    let baseline = c.u32s("baseline_config_id")?;
    let diff = c.f64s("diff")?;
    let diff_se = c.f64s("diff_se")?;
    let diff_lo = c.f64s("diff_lo")?;
    let diff_hi = c.f64s("diff_hi")?;
    Ok((0..table.rows())
        .map(|i| DiffRow {
            config_id: config_id[i],
            baseline_config_id: baseline[i],
            diff: diff[i],
            diff_se: diff_se[i],
            diff_lo: diff_lo[i],
            diff_hi: diff_hi[i],
        })
        .collect())
}

/// How the report names a policy: a calibrated player's skill policy
/// (`skill:t=T,name=NAME[,from=SPEC]`, from `--players calibration.json`) as "players
/// like NAME (skill t=T)" (the whole spec stays in the CSV and Parquet tables), any other
/// by its spec.
pub fn policy_label(spec: &str) -> String {
    let Some(params) = spec.strip_prefix("skill:") else {
        return spec.to_string();
    };
    // `from=` comes last and holds commas of its own: the player's own parameters are
    // before it.
    let own = params.split(",from=").next().unwrap_or(params);
    let mut name = None;
    let mut t = None;
    for p in own.split(',') {
        if let Some(n) = p.strip_prefix("name=") {
            name = Some(n);
        } else if let Some(v) = p.strip_prefix("t=") {
            t = Some(v);
        }
    }
    match (name, t) {
        (Some(n), Some(t)) => format!("players like {n} (skill t={t})"),
        _ => spec.to_string(),
    }
}

/// A JSON scalar as text (strings as they are, numbers printed); `None` for null/absent.
fn json_text(v: Option<&serde_json::Value>) -> Option<String> {
    match v? {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

pub(crate) fn read_meta(path: &Path) -> Result<RunMeta, ReportError> {
    let text = std::fs::read_to_string(path).map_err(|e| ReportError::Read {
        path: path.to_path_buf(),
        msg: e.to_string(),
        expected: "expected the run's metadata as JSON".into(),
    })?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| ReportError::Read {
        path: path.to_path_buf(),
        msg: e.to_string(),
        expected: "expected the run's metadata as one JSON object".into(),
    })?;
    meta_of(&v, path)
}

/// `meta.json`'s contents as [`RunMeta`] (`path` names the file in the error).
pub(crate) fn meta_of(v: &serde_json::Value, path: &Path) -> Result<RunMeta, ReportError> {
    let Some(obj) = v.as_object() else {
        return Err(ReportError::Content {
            path: path.to_path_buf(),
            msg: "expected a JSON object".into(),
        });
    };
    let decks = obj
        .get("decks")
        .and_then(|d| d.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|d| {
                    Some(MetaDeck {
                        deck: json_text(d.get("deck"))?,
                        hero: json_text(d.get("hero")),
                        cards: d.get("cards").and_then(|x| x.as_u64()),
                        not_exact: d.get("not_exact").and_then(|x| x.as_u64()),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(RunMeta {
        version: json_text(obj.get("version")),
        git_commit: json_text(obj.get("git_commit")),
        created: json_text(obj.get("created")),
        command: json_text(obj.get("command")),
        experiment: json_text(obj.get("experiment")),
        seed: json_text(obj.get("seed")),
        games: json_text(obj.get("games")),
        day_cap: json_text(obj.get("day_cap")),
        confluence_deck: json_text(obj.get("confluence_deck")),
        decks,
        edits: obj
            .get("edits")
            .and_then(|d| d.as_array())
            .map(|a| a.iter().filter_map(|e| json_text(Some(e))).collect())
            .unwrap_or_default(),
    })
}

impl Inputs {
    /// Reads the outputs of a run from `dir`: `summary.parquet` is required, the other
    /// files are read when present.
    ///
    /// # Errors
    ///
    /// A missing `summary.parquet` (the message says to run `confluence-sim run --out DIR`
    /// first), a file that is not Parquet or JSON, a missing or mistyped column, or a
    /// schema version other than [`SCHEMA_VERSION`]; each names the file.
    pub fn read(dir: &Path) -> Result<Inputs, ReportError> {
        let summary = read_summary(dir)?;
        Ok(Inputs {
            dir: dir.to_path_buf(),
            summary,
            cards: optional(dir, "cards.parquet", read_cards)?,
            rares: optional(dir, "rares.parquet", read_rares)?,
            diffs: optional(dir, "diffs.parquet", read_diffs)?,
            meta: optional(dir, "meta.json", read_meta)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::policy_label;

    #[test]
    fn a_calibrated_player_is_named_in_the_report() {
        assert_eq!(
            policy_label("skill:t=2.5,name=Alice"),
            "players like Alice (skill t=2.5)"
        );
        assert_eq!(
            policy_label("skill:t=2,name=Bob,from=search:rollouts=32,width=4"),
            "players like Bob (skill t=2)"
        );
        assert_eq!(policy_label("skill:t=2"), "skill:t=2");
        assert_eq!(policy_label("greedy"), "greedy");
    }
}
