//! `confluence-sim report DIR`: an HTML and a Markdown report, with SVG charts, from the
//! Parquet outputs of a run.
//!
//! Three steps, each a plain function:
//!
//! 1. [`Inputs::read`] reads `summary.parquet` (required) and the optional `cards.parquet`,
//!    `rares.parquet`, `diffs.parquet` and `meta.json` into typed rows, checking every
//!    column and schema version with messages that name the file;
//! 2. [`Model::build`] groups the configurations by (player deck, policy) and computes what
//!    the report shows: pooled win rates with Wilson intervals, the deck comparison, the day
//!    histograms, the rare effects and the card tables;
//! 3. [`document`] lays the model out as a [`Document`] of headings, paragraphs, tables and
//!    figures, which [`html::render`] and [`markdown::render`] write out. Both formats come
//!    from the same document, so they say the same things; the charts are drawn once by
//!    [`svg`] and inlined in the HTML, linked from the Markdown.
//!
//! [`write_report`] does all of it and writes the files atomically through
//! [`OutputDir`]: everything is rendered in memory first, and the directory is replaced by
//! one holding the run's files and the new report only when every file was written.
//!
//! This module depends on [`crate::export`] and [`crate::stats`] only.

pub mod html;
pub mod markdown;
pub mod svg;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::ReportError;
use crate::export::{ColumnData, OutputDir, Table};
use crate::stats::{Interval, wilson};

/// The schema version of the tables this report reads (summary, cards, rares, diffs).
pub const SCHEMA_VERSION: u32 = 1;

/// Confidence level of every interval the report computes itself.
pub const LEVEL: f64 = 0.95;

/// At most this many configurations of one rare count get their own histogram series;
/// more are pooled into one.
const MAX_HIST_SERIES_PER_GROUP: usize = 3;

// ---------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------

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
    pub losses_hero_darkness: u64,
    pub losses_companion_darkness: u64,
    pub player_cards_not_exact: u64,
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
struct Columns<'a> {
    path: &'a Path,
    table: &'a Table,
}

impl<'a> Columns<'a> {
    fn err(&self, msg: String) -> ReportError {
        ReportError::Content {
            path: self.path.to_path_buf(),
            msg,
        }
    }

    fn col(&self, name: &str) -> Result<&'a ColumnData, ReportError> {
        self.table.column(name).ok_or_else(|| {
            self.err(format!(
                "no column `{name}` (expected the schema_version {SCHEMA_VERSION} columns listed in README, \"Outputs\")"
            ))
        })
    }

    fn wrong_type(&self, name: &str, c: &ColumnData, want: &str) -> ReportError {
        self.err(format!(
            "column `{name}` is {}, expected {want}",
            c.type_name()
        ))
    }

    fn u64s(&self, name: &str) -> Result<Vec<u64>, ReportError> {
        match self.col(name)? {
            ColumnData::U32(v) => Ok(v.iter().map(|&x| x as u64).collect()),
            ColumnData::U64(v) => Ok(v.clone()),
            c => Err(self.wrong_type(name, c, "an unsigned integer")),
        }
    }

    fn u32s(&self, name: &str) -> Result<Vec<u32>, ReportError> {
        self.u64s(name)?
            .into_iter()
            .map(|x| {
                u32::try_from(x)
                    .map_err(|_| self.err(format!("column `{name}` holds {x}, above 2^32")))
            })
            .collect()
    }

    fn f64s(&self, name: &str) -> Result<Vec<f64>, ReportError> {
        match self.col(name)? {
            ColumnData::F64(v) => Ok(v.clone()),
            c => Err(self.wrong_type(name, c, "f64")),
        }
    }

    fn strs(&self, name: &str) -> Result<Vec<String>, ReportError> {
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

    fn check_schema(&self) -> Result<(), ReportError> {
        for v in self.u64s("schema_version")? {
            if v != SCHEMA_VERSION as u64 {
                return Err(self.err(format!(
                    "schema_version {v}; this confluence-sim reads schema_version {SCHEMA_VERSION} (regenerate the file, or use the confluence-sim that wrote it)"
                )));
            }
        }
        Ok(())
    }
}

fn read_table(path: &Path, expected: &str) -> Result<Table, ReportError> {
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
    c.check_schema()?;
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
            policy: policy[i].clone(),
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
            player_cards_not_exact: not_exact[i],
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
    c.check_schema()?;
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
    c.check_schema()?;
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
            policy: policy[i].clone(),
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
    c.check_schema()?;
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

/// A JSON scalar as text (strings as they are, numbers printed); `None` for null/absent.
fn json_text(v: Option<&serde_json::Value>) -> Option<String> {
    match v? {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

fn read_meta(path: &Path) -> Result<RunMeta, ReportError> {
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
        let optional = |name: &str| {
            let p = dir.join(name);
            p.is_file().then_some(p)
        };
        Ok(Inputs {
            dir: dir.to_path_buf(),
            summary,
            cards: optional("cards.parquet")
                .map(|p| read_cards(&p))
                .transpose()?,
            rares: optional("rares.parquet")
                .map(|p| read_rares(&p))
                .transpose()?,
            diffs: optional("diffs.parquet")
                .map(|p| read_diffs(&p))
                .transpose()?,
            meta: optional("meta.json").map(|p| read_meta(&p)).transpose()?,
        })
    }
}

// ---------------------------------------------------------------------------------------
// Model
// ---------------------------------------------------------------------------------------

/// A win rate pooled over configurations: sum of wins over sum of games, with its Wilson
/// interval.
#[derive(Clone, Debug, Serialize)]
pub struct Pooled {
    pub rare_count: u32,
    pub wins: u64,
    pub games: u64,
    pub configs: usize,
    pub rate: Interval,
}

impl Pooled {
    fn of(rare_count: u32, rows: &[&ConfigRow]) -> Pooled {
        let wins = rows.iter().map(|r| r.wins).sum();
        let games = rows.iter().map(|r| r.games).sum();
        Pooled {
            rare_count,
            wins,
            games,
            configs: rows.len(),
            rate: wilson(wins, games, LEVEL),
        }
    }
}

/// The paired difference between the most-rares and the fewest-rares configurations.
#[derive(Clone, Debug, Serialize)]
pub struct PairedDiff {
    pub diff: f64,
    pub lo: f64,
    pub hi: f64,
    /// How many configurations it averages (games-weighted).
    pub configs: usize,
}

/// Games of a set of configurations by outcome.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Outcomes {
    pub games: u64,
    pub wins_expeditions_met: u64,
    pub wins_confluence_deck_out: u64,
    pub losses_hero_darkness: u64,
    pub losses_companion_darkness: u64,
    pub day_caps: u64,
}

impl Outcomes {
    fn add(&mut self, r: &ConfigRow) {
        self.games += r.games;
        self.wins_expeditions_met += r.wins_expeditions_met;
        self.wins_confluence_deck_out += r.wins_confluence_deck_out;
        self.losses_hero_darkness += r.losses_hero_darkness;
        self.losses_companion_darkness += r.losses_companion_darkness;
        self.day_caps += r.day_caps;
    }

    pub fn wins(&self) -> u64 {
        self.wins_expeditions_met + self.wins_confluence_deck_out
    }

    pub fn losses(&self) -> u64 {
        self.losses_hero_darkness + self.losses_companion_darkness
    }
}

/// One series of a day histogram: one configuration, or several pooled.
#[derive(Clone, Debug, Serialize)]
pub struct DaySeries {
    pub label: String,
    pub rare_count: u32,
    pub config_ids: Vec<u32>,
    /// The rare mix of each configuration, for the caption.
    pub mixes: Vec<Vec<String>>,
    pub histogram: Vec<u64>,
    pub outcomes: Outcomes,
}

/// Everything about one (player deck, policy) pair.
#[derive(Clone, Debug, Serialize)]
pub struct Group {
    /// 1-based, in order of first appearance in the summary; names its charts.
    pub number: usize,
    pub player_deck: String,
    pub player_hero: String,
    pub policy: String,
    /// Indices into the summary rows.
    pub rows: Vec<usize>,
    /// Pooled win rate per rare count, ascending.
    pub by_rares: Vec<Pooled>,
    pub days_mean_fewest: f64,
    pub days_mean_most: f64,
    pub diff: Option<PairedDiff>,
    pub day_series: Vec<DaySeries>,
    pub rares: Vec<RareRow>,
    /// The configuration the card tables describe (the all-common one when present).
    pub cards_config: u32,
    pub cards: Vec<CardRow>,
}

impl Group {
    pub fn label(&self) -> String {
        series_name(&self.player_deck, &self.policy)
    }

    pub fn fewest(&self) -> &Pooled {
        self.by_rares.first().expect("a group has a configuration")
    }

    pub fn most(&self) -> Option<&Pooled> {
        (self.by_rares.len() > 1).then(|| self.by_rares.last().expect("two rare counts"))
    }
}

/// The name of a (deck, policy) series, as charts and their `data-series` show it.
pub fn series_name(deck: &str, policy: &str) -> String {
    format!("{deck} · {policy}")
}

/// What the report shows, computed from the inputs.
#[derive(Clone, Debug, Serialize)]
pub struct Model {
    pub dir: PathBuf,
    pub configs: Vec<ConfigRow>,
    pub groups: Vec<Group>,
    pub meta: Option<RunMeta>,
    pub has_cards: bool,
    pub has_rares: bool,
    pub has_diffs: bool,
    /// The win rate the "closest to a target" section looks for.
    pub target: f64,
    /// Things the reader should know about the inputs (also printed on stderr).
    pub warnings: Vec<String>,
}

fn weighted_days(rows: &[&ConfigRow]) -> f64 {
    let games: u64 = rows.iter().map(|r| r.games).sum();
    if games == 0 {
        return f64::NAN;
    }
    rows.iter()
        .map(|r| r.days_mean * r.games as f64)
        .sum::<f64>()
        / games as f64
}

fn sum_histograms(rows: &[&ConfigRow]) -> Vec<u64> {
    let len = rows
        .iter()
        .map(|r| r.day_histogram.len())
        .max()
        .unwrap_or(0);
    let mut h = vec![0; len];
    for r in rows {
        for (d, &n) in r.day_histogram.iter().enumerate() {
            h[d] += n;
        }
    }
    h
}

/// Day-histogram series for the configurations of one rare count: one each, or one pooled
/// series when there are more than [`MAX_HIST_SERIES_PER_GROUP`].
fn day_series(rare_count: u32, rows: &[&ConfigRow]) -> Vec<DaySeries> {
    let base = format!(
        "{rare_count} rare{}",
        if rare_count == 1 { "" } else { "s" }
    );
    let make = |label: String, rows: &[&ConfigRow]| {
        let mut outcomes = Outcomes::default();
        for r in rows {
            outcomes.add(r);
        }
        DaySeries {
            label,
            rare_count,
            config_ids: rows.iter().map(|r| r.config_id).collect(),
            mixes: rows.iter().map(|r| r.rare_mix.clone()).collect(),
            histogram: sum_histograms(rows),
            outcomes,
        }
    };
    if rows.len() == 1 {
        vec![make(base, rows)]
    } else if rows.len() <= MAX_HIST_SERIES_PER_GROUP {
        rows.iter()
            .map(|r| make(format!("{base} (config {})", r.config_id), &[*r]))
            .collect()
    } else {
        vec![make(
            format!("{base} ({} configs pooled)", rows.len()),
            rows,
        )]
    }
}

impl Model {
    /// Groups the configurations by (player deck, policy), in order of first appearance,
    /// and computes what every section shows.
    pub fn build(inputs: &Inputs, target: f64) -> Model {
        let configs = inputs.summary.clone();
        let mut warnings = Vec::new();
        let mut keys: Vec<(String, String)> = Vec::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        for (i, r) in configs.iter().enumerate() {
            let key = (r.player_deck.clone(), r.policy.clone());
            match keys.iter().position(|k| *k == key) {
                Some(g) => members[g].push(i),
                None => {
                    keys.push(key);
                    members.push(vec![i]);
                }
            }
        }
        let diffs: BTreeMap<u32, &DiffRow> = inputs
            .diffs
            .iter()
            .flatten()
            .map(|d| (d.config_id, d))
            .collect();
        let mut groups = Vec::new();
        for (g, ((deck, policy), rows)) in keys.into_iter().zip(members).enumerate() {
            let mut by_count: BTreeMap<u32, Vec<&ConfigRow>> = BTreeMap::new();
            for &i in &rows {
                by_count
                    .entry(configs[i].rare_count)
                    .or_default()
                    .push(&configs[i]);
            }
            let by_rares: Vec<Pooled> = by_count.iter().map(|(&n, rs)| Pooled::of(n, rs)).collect();
            let (&fewest_n, fewest) = by_count.first_key_value().expect("non-empty group");
            let (&most_n, most) = by_count.last_key_value().expect("non-empty group");
            let mut day = day_series(fewest_n, fewest);
            if most_n != fewest_n {
                day.extend(day_series(most_n, most));
            }
            let diff = if most_n == fewest_n || inputs.diffs.is_none() {
                None
            } else {
                let found: Vec<(&ConfigRow, &DiffRow)> = most
                    .iter()
                    .filter_map(|r| diffs.get(&r.config_id).map(|d| (*r, *d)))
                    .collect();
                if found.len() < most.len() {
                    warnings.push(format!(
                        "diffs.parquet has no row for {} of the {} configuration(s) of {} with {most_n} rares; the deck comparison leaves its paired difference out",
                        most.len() - found.len(),
                        most.len(),
                        series_name(&deck, &policy)
                    ));
                    None
                } else {
                    let w: f64 = found.iter().map(|(r, _)| r.games as f64).sum();
                    let mean = |f: &dyn Fn(&DiffRow) -> f64| {
                        found
                            .iter()
                            .map(|(r, d)| f(d) * r.games as f64)
                            .sum::<f64>()
                            / w
                    };
                    Some(PairedDiff {
                        diff: mean(&|d| d.diff),
                        lo: mean(&|d| d.diff_lo),
                        hi: mean(&|d| d.diff_hi),
                        configs: found.len(),
                    })
                }
            };
            let mut rares: Vec<RareRow> = inputs
                .rares
                .iter()
                .flatten()
                .filter(|r| r.player_deck == deck && r.policy == policy)
                .cloned()
                .collect();
            rares.sort_by(|a, b| {
                a.effect
                    .total_cmp(&b.effect)
                    .then_with(|| a.rare.cmp(&b.rare))
            });
            let cards_config = fewest[0].config_id;
            let mut cards: Vec<CardRow> = inputs
                .cards
                .iter()
                .flatten()
                .filter(|c| c.config_id == cards_config)
                .cloned()
                .collect();
            cards.sort_by(|a, b| {
                b.play_rate
                    .total_cmp(&a.play_rate)
                    .then_with(|| a.card.cmp(&b.card))
            });
            groups.push(Group {
                number: g + 1,
                player_hero: configs[rows[0]].player_hero.clone(),
                player_deck: deck,
                policy,
                by_rares,
                days_mean_fewest: weighted_days(fewest),
                days_mean_most: weighted_days(most),
                diff,
                day_series: day,
                rares,
                cards_config,
                cards,
                rows,
            });
        }
        if let Some(rares) = &inputs.rares {
            for r in rares {
                if !groups
                    .iter()
                    .any(|g| g.player_deck == r.player_deck && g.policy == r.policy)
                {
                    warnings.push(format!(
                        "rares.parquet has rows for {}, which summary.parquet does not have; they are left out",
                        series_name(&r.player_deck, &r.policy)
                    ));
                    break;
                }
            }
        }
        Model {
            dir: inputs.dir.clone(),
            configs,
            groups,
            meta: inputs.meta.clone(),
            has_cards: inputs.cards.is_some(),
            has_rares: inputs.rares.is_some(),
            has_diffs: inputs.diffs.is_some(),
            target,
            warnings,
        }
    }

    pub fn total_games(&self) -> u64 {
        self.configs.iter().map(|c| c.games).sum()
    }

    fn distinct<F: Fn(&ConfigRow) -> String>(&self, f: F) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for c in &self.configs {
            let s = f(c);
            if !v.contains(&s) {
                v.push(s);
            }
        }
        v
    }
}

// ---------------------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------------------

/// A rate in [0, 1] as a percentage with one decimal: `0.443` -> `44.3%`.
pub fn pct(x: f64) -> String {
    if x.is_finite() {
        format!("{:.1}%", x * 100.0)
    } else {
        "—".into()
    }
}

/// An interval of rates: `[43.3%, 45.3%]`.
pub fn pct_interval(lo: f64, hi: f64) -> String {
    format!("[{},\u{a0}{}]", pct(lo), pct(hi))
}

/// A signed number with one decimal and a true minus sign.
pub fn signed(x: f64) -> String {
    let s = format!("{:+.1}", x);
    if s == "-0.0" || s == "+0.0" {
        "0.0".into()
    } else {
        s.replace('-', "−")
    }
}

/// A difference of rates in percentage points: `-0.012` -> `−1.2 pp`.
pub fn pp(x: f64) -> String {
    if x.is_finite() {
        format!("{}\u{a0}pp", signed(x * 100.0))
    } else {
        "—".into()
    }
}

/// Thousands separators: `422576` -> `422,576`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

fn share(n: u64, of: u64) -> String {
    if of == 0 {
        "—".into()
    } else {
        pct(n as f64 / of as f64)
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn join_and(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

// ---------------------------------------------------------------------------------------
// Document
// ---------------------------------------------------------------------------------------

/// A run of text in a paragraph or table cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Inline {
    Text(String),
    Code(String),
    Strong(String),
}

/// Text made of inline runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Rich(pub Vec<Inline>);

impl Rich {
    pub fn text(s: impl Into<String>) -> Rich {
        Rich(vec![Inline::Text(s.into())])
    }

    fn t(mut self, s: impl Into<String>) -> Rich {
        self.0.push(Inline::Text(s.into()));
        self
    }

    fn code(mut self, s: impl Into<String>) -> Rich {
        self.0.push(Inline::Code(s.into()));
        self
    }

    fn strong(mut self, s: impl Into<String>) -> Rich {
        self.0.push(Inline::Strong(s.into()));
        self
    }

    /// The text without markup.
    pub fn plain(&self) -> String {
        self.0
            .iter()
            .map(|i| match i {
                Inline::Text(s) | Inline::Code(s) | Inline::Strong(s) => s.as_str(),
            })
            .collect()
    }
}

/// A table: a header row and body rows; `numeric[i]` right-aligns column i.
#[derive(Clone, Debug, Serialize)]
pub struct DocTable {
    pub header: Vec<String>,
    pub numeric: Vec<bool>,
    pub rows: Vec<Vec<Rich>>,
}

/// A chart: its file name under `charts/`, a title, and the SVG drawn for inlining in HTML
/// (without the XML namespace declaration, which HTML does not need).
#[derive(Clone, Debug, Serialize)]
pub struct Chart {
    pub file: String,
    pub title: String,
    pub svg: String,
}

impl Chart {
    /// The SVG as a standalone file: XML declaration and namespace added.
    pub fn standalone(&self) -> String {
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}\n",
            self.svg
                .replacen("<svg ", "<svg xmlns=\"http://www.w3.org/2000/svg\" ", 1)
        )
    }
}

/// One block of the document.
#[derive(Clone, Debug, Serialize)]
pub enum Block {
    /// A level-3 (`level` = 3) or level-4 heading.
    Heading {
        level: u8,
        text: String,
    },
    Paragraph(Rich),
    /// A paragraph set apart as a note (an absent input, a caveat).
    Note(Rich),
    /// Label/value pairs.
    Facts(Vec<(String, Rich)>),
    Table(DocTable),
    Figure {
        chart: Chart,
        caption: Rich,
    },
}

/// A top-level section (`<h2>`).
#[derive(Clone, Debug, Serialize)]
pub struct Section {
    pub id: String,
    pub title: String,
    pub blocks: Vec<Block>,
}

/// The whole report, ready to render as HTML or Markdown.
#[derive(Clone, Debug, Serialize)]
pub struct Document {
    pub title: String,
    pub lead: Rich,
    pub sections: Vec<Section>,
    pub footer: Rich,
}

impl Document {
    /// Every chart, in document order.
    pub fn charts(&self) -> Vec<&Chart> {
        self.sections
            .iter()
            .flat_map(|s| &s.blocks)
            .filter_map(|b| match b {
                Block::Figure { chart, .. } => Some(chart),
                _ => None,
            })
            .collect()
    }
}

fn games_per_config(m: &Model) -> String {
    let min = m.configs.iter().map(|c| c.games).min().unwrap_or(0);
    let max = m.configs.iter().map(|c| c.games).max().unwrap_or(0);
    if min == max {
        format!("{} games per configuration", thousands(min))
    } else {
        format!(
            "{} to {} games per configuration",
            thousands(min),
            thousands(max)
        )
    }
}

fn lead(m: &Model) -> Rich {
    let decks = m.distinct(|c| {
        if c.player_hero.is_empty() {
            c.player_deck.clone()
        } else {
            format!("{} ({})", c.player_deck, c.player_hero)
        }
    });
    let policies = m.distinct(|c| c.policy.clone());
    let confluence = m.distinct(|c| c.confluence_deck.clone());
    let confluence = if confluence.iter().all(|c| c.is_empty()) {
        m.meta
            .as_ref()
            .and_then(|x| x.confluence_deck.clone())
            .unwrap_or_else(|| "the Confluence deck".into())
    } else {
        join_and(&confluence)
    };
    let min_r = m.configs.iter().map(|c| c.rare_count).min().unwrap_or(0);
    let max_r = m.configs.iter().map(|c| c.rare_count).max().unwrap_or(0);
    let rares = if min_r == max_r {
        format!(
            "with {} swapped in",
            plural(min_r as usize, "rare", "rares")
        )
    } else {
        format!("with {min_r} to {max_r} of its rares swapped in")
    };
    let seeds = m.distinct(|c| c.seed.to_string());
    let caps = m.distinct(|c| c.day_cap.to_string());
    Rich::default()
        .t("This report covers ")
        .strong(thousands(m.total_games()))
        .t(format!(
            " simulated games of Altered Confluence: the player deck{} {} played by the {} {} against the Confluence deck ",
            if decks.len() == 1 { "" } else { "s" },
            join_and(&decks),
            join_and(&policies),
            if policies.len() == 1 { "policy" } else { "policies" },
        ))
        .strong(confluence)
        .t(format!(
            " {rares}, in {} ({}), seed {}, day cap {}.",
            plural(m.configs.len(), "configuration", "configurations"),
            games_per_config(m),
            seeds.join(", "),
            caps.join(", "),
        ))
}

fn metadata(m: &Model) -> Vec<Block> {
    let meta = m.meta.clone().unwrap_or_default();
    let unknown = || Rich::text("not recorded");
    let mut facts = Vec::new();
    let tool = match &meta.version {
        Some(v) => Rich::default().t(format!("confluence-sim {v}")),
        None => unknown(),
    };
    facts.push(("Simulator version".to_string(), tool));
    facts.push((
        "Git commit".to_string(),
        meta.git_commit
            .as_ref()
            .map_or_else(unknown, |c| Rich::default().code(c.clone())),
    ));
    facts.push((
        "Created".to_string(),
        meta.created.clone().map_or_else(unknown, Rich::text),
    ));
    if let Some(c) = &meta.command {
        facts.push(("Command".to_string(), Rich::default().code(c.clone())));
    }
    if let Some(e) = &meta.experiment {
        facts.push(("Experiment".to_string(), Rich::text(e.clone())));
    }
    let seeds = m.distinct(|c| c.seed.to_string());
    facts.push((
        "Seed".to_string(),
        Rich::text(meta.seed.clone().unwrap_or_else(|| seeds.join(", "))),
    ));
    facts.push((
        "Games".to_string(),
        Rich::text(match &meta.games {
            Some(g) => format!("{g} ({} games in all)", thousands(m.total_games())),
            None => format!(
                "{} ({} games in all)",
                games_per_config(m),
                thousands(m.total_games())
            ),
        }),
    ));
    let caps = m.distinct(|c| c.day_cap.to_string());
    facts.push((
        "Day cap".to_string(),
        Rich::text(meta.day_cap.clone().unwrap_or_else(|| caps.join(", "))),
    ));
    // Card coverage, per player deck.
    let decks = m.distinct(|c| c.player_deck.clone());
    let mut coverage = Vec::new();
    for d in &decks {
        let row = m
            .configs
            .iter()
            .find(|c| &c.player_deck == d)
            .expect("a listed deck has a row");
        let md = meta.decks.iter().find(|x| &x.deck == d);
        let not_exact = md
            .and_then(|x| x.not_exact)
            .unwrap_or(row.player_cards_not_exact);
        let cards = md.and_then(|x| x.cards);
        let what = match (not_exact, cards) {
            (0, Some(n)) => format!("all {n} cards fully encoded"),
            (0, None) => "every card fully encoded".to_string(),
            (k, Some(n)) => format!("{k} of {n} cards not fully encoded"),
            (k, None) => format!("{} not fully encoded", plural(k as usize, "card", "cards")),
        };
        coverage.push(format!("{d}: {what}"));
    }
    facts.push(("Card coverage".to_string(), Rich::text(coverage.join("; "))));
    let mut files = vec!["summary.parquet".to_string()];
    for (has, name) in [
        (m.has_cards, "cards.parquet"),
        (m.has_rares, "rares.parquet"),
        (m.has_diffs, "diffs.parquet"),
        (m.meta.is_some(), "meta.json"),
    ] {
        if has {
            files.push(name.to_string());
        }
    }
    facts.push(("Files read".to_string(), Rich::text(files.join(", "))));
    let mut blocks = vec![Block::Facts(facts)];
    if m.meta.is_none() {
        blocks.push(Block::Note(
            Rich::text("No meta.json in the run directory: the version, commit and date of the run are not known; the other facts come from summary.parquet.")
        ));
    }
    blocks
}

fn win_rate_section(m: &Model) -> Section {
    let series: Vec<svg::LineSeries> = m
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| svg::LineSeries {
            name: g.label(),
            color: svg::color(i),
            points: g
                .by_rares
                .iter()
                .map(|p| svg::LinePoint {
                    x: p.rare_count,
                    y: p.rate.estimate,
                    lo: p.rate.lo,
                    hi: p.rate.hi,
                    games: p.games,
                    configs: p.configs,
                })
                .collect(),
            dots: g
                .rows
                .iter()
                .map(|&r| {
                    let c = &m.configs[r];
                    svg::ConfigDot {
                        config_id: c.config_id,
                        x: c.rare_count,
                        y: c.win_rate,
                        lo: c.win_rate_lo,
                        hi: c.win_rate_hi,
                        mix: c.rare_mix.join("; "),
                    }
                })
                .collect(),
        })
        .collect();
    let chart = Chart {
        file: "win_rate_by_rares.svg".into(),
        title: "Win rate against the number of rares".into(),
        svg: svg::win_rate_chart("Win rate against the number of rares", &series),
    };
    let mut blocks = vec![Block::Paragraph(Rich::text(
        "Each line is one player deck and policy. A point is the win rate pooled over every configuration with that number of rares (their wins over their games); the shaded band is its 95% Wilson interval; the small dots are the individual configurations (rare mixes).",
    ))];
    let caption = Rich::text(format!(
        "Win rate (y, 0–100%) against the number of rares swapped into the Confluence deck (x). {}",
        m.groups
            .iter()
            .map(|g| {
                let f = g.fewest();
                match g.most() {
                    Some(x) => format!(
                        "{}: {} with {} rares, {} with {}.",
                        g.label(),
                        pct(f.rate.estimate),
                        f.rare_count,
                        pct(x.rate.estimate),
                        x.rare_count
                    ),
                    None => format!(
                        "{}: {} with {} rares.",
                        g.label(),
                        pct(f.rate.estimate),
                        f.rare_count
                    ),
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    ));
    blocks.push(Block::Figure { chart, caption });
    // The numbers behind the lines.
    let mut rows = Vec::new();
    for g in &m.groups {
        for p in &g.by_rares {
            rows.push(vec![
                Rich::text(g.player_deck.clone()),
                Rich::text(g.policy.clone()),
                Rich::text(p.rare_count.to_string()),
                Rich::text(p.configs.to_string()),
                Rich::text(thousands(p.games)),
                Rich::text(pct(p.rate.estimate)),
                Rich::text(pct_interval(p.rate.lo, p.rate.hi)),
            ]);
        }
    }
    blocks.push(Block::Table(DocTable {
        header: [
            "Deck",
            "Policy",
            "Rares",
            "Configs",
            "Games",
            "Win rate",
            "95% interval",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![false, false, true, true, true, true, true],
        rows,
    }));
    Section {
        id: "win-rate".into(),
        title: "Win rate against the number of rares".into(),
        blocks,
    }
}

/// How many configurations per (deck, policy) the target section lists.
const TARGET_ROWS: usize = 3;

/// Per deck and policy, the rare mixes whose win rate is closest to the target.
fn target_section(m: &Model) -> Section {
    let t = m.target;
    let mut blocks = vec![Block::Paragraph(
        Rich::default()
            .t(format!(
                "Per player deck and policy, the {TARGET_ROWS} configurations of this run whose win rate is closest to {} (set with ",
                pct(t)
            ))
            .code("confluence-sim report --target P")
            .t("), and whether their 95% interval contains it. To search more mixes than the run holds, use ")
            .code(format!("confluence-sim tune --target {t}"))
            .t("."),
    )];
    let mut rows = Vec::new();
    for g in &m.groups {
        let mut idx: Vec<usize> = g.rows.clone();
        idx.sort_by(|&a, &b| {
            let (x, y) = (&m.configs[a], &m.configs[b]);
            (x.win_rate - t)
                .abs()
                .total_cmp(&(y.win_rate - t).abs())
                .then(x.config_id.cmp(&y.config_id))
        });
        if idx.iter().all(|&i| m.configs[i].win_rate_hi < t) {
            blocks.push(Block::Note(Rich::text(format!(
                "{}: no configuration of this run reaches {}; even the easiest is below it.",
                g.label(),
                pct(t)
            ))));
        } else if idx.iter().all(|&i| m.configs[i].win_rate_lo > t) {
            blocks.push(Block::Note(Rich::text(format!(
                "{}: every configuration of this run is above {}; even the hardest is too easy.",
                g.label(),
                pct(t)
            ))));
        }
        for &i in idx.iter().take(TARGET_ROWS) {
            let c = &m.configs[i];
            let mix = if c.rare_mix.is_empty() {
                "all common".to_string()
            } else {
                c.rare_mix.join(", ")
            };
            let contains = c.win_rate_lo <= t && t <= c.win_rate_hi;
            rows.push(vec![
                Rich::text(g.player_deck.clone()),
                Rich::text(g.policy.clone()),
                Rich::text(c.rare_count.to_string()),
                Rich::text(mix),
                Rich::text(format!(
                    "{} {}",
                    pct(c.win_rate),
                    pct_interval(c.win_rate_lo, c.win_rate_hi)
                )),
                Rich::text(if contains { "yes" } else { "no" }),
            ]);
        }
    }
    blocks.push(Block::Table(DocTable {
        header: [
            "Deck",
            "Policy",
            "Rares",
            "Rare mix",
            "Win rate",
            &format!("Contains {}", pct(t)),
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![false, false, true, false, true, false],
        rows,
    }));
    Section {
        id: "target".into(),
        title: format!("Which mixes give {}", pct(t)),
        blocks,
    }
}

fn comparison_section(m: &Model) -> Section {
    let mut rows = Vec::new();
    for g in &m.groups {
        let f = g.fewest();
        let rate = |p: &Pooled| {
            Rich::text(format!(
                "{} {}",
                pct(p.rate.estimate),
                pct_interval(p.rate.lo, p.rate.hi)
            ))
        };
        let diff = match (&g.diff, g.most()) {
            (_, None) => Rich::text("—"),
            (Some(d), Some(_)) => {
                Rich::text(format!("{} {}", pp(d.diff), pct_interval_pp(d.lo, d.hi)))
            }
            (None, Some(_)) => Rich::text("—"),
        };
        let days = match g.most() {
            Some(_) => format!("{:.2} → {:.2}", g.days_mean_fewest, g.days_mean_most),
            None => format!("{:.2}", g.days_mean_fewest),
        };
        rows.push(vec![
            Rich::text(g.player_deck.clone()),
            Rich::text(g.policy.clone()),
            Rich::text(match g.most() {
                Some(x) => format!("{} → {}", f.rare_count, x.rare_count),
                None => f.rare_count.to_string(),
            }),
            rate(f),
            g.most().map_or_else(|| Rich::text("—"), rate),
            diff,
            Rich::text(days),
        ]);
    }
    let mut blocks = vec![Block::Paragraph(Rich::text(
        "One row per player deck and policy: the pooled win rate and its 95% interval with the fewest and with the most rares in the run, the paired difference between the two, and the mean day on which games ended.",
    ))];
    blocks.push(Block::Table(DocTable {
        header: [
            "Deck",
            "Policy",
            "Rares",
            "Win rate, fewest rares",
            "Win rate, most rares",
            "Paired difference",
            "Mean days",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![false, false, true, true, true, true, true],
        rows,
    }));
    if m.has_diffs {
        blocks.push(Block::Note(Rich::text(
            "The paired difference comes from diffs.parquet: the configuration's win rate minus its all-common baseline's, on the same games (common random numbers), with its 95% interval in percentage points. With several configurations at the highest rare count it is their games-weighted mean, and the interval is the mean of their bounds, which is conservative: the spread of a mean of correlated differences is never more than the mean of their spreads.",
        )));
    } else {
        blocks.push(Block::Note(
            Rich::default()
                .t("The paired difference needs ")
                .code("diffs.parquet")
                .t(", which this run did not write; the two win rates above are independent estimates, and their intervals overlap more than a paired comparison would."),
        ));
    }
    Section {
        id: "decks".into(),
        title: "Deck comparison".into(),
        blocks,
    }
}

fn rares_section(m: &Model) -> Section {
    let mut blocks = Vec::new();
    if !m.has_rares {
        blocks.push(Block::Note(
            Rich::default()
                .t("This section needs a sweep over rare mixes: ")
                .code("rares.parquet")
                .t(" is not in the run directory. It estimates each rare's effect from many mixes, for example from ")
                .code("confluence-sim run --rares 0..=15 --subsets 5")
                .t("."),
        ));
        return Section {
            id: "rares".into(),
            title: "Which rares make it hardest".into(),
            blocks,
        };
    }
    blocks.push(Block::Paragraph(Rich::text(
        "The change in win rate when a rare replaces its common twin, in percentage points, with its 95% interval; the most negative (the rare that makes the Confluence hardest) comes first.",
    )));
    for g in &m.groups {
        blocks.push(Block::Heading {
            level: 3,
            text: g.label(),
        });
        if g.rares.is_empty() {
            blocks.push(Block::Note(Rich::text(
                "rares.parquet has no rows for this deck and policy.",
            )));
            continue;
        }
        let bars: Vec<svg::Bar> = g
            .rares
            .iter()
            .map(|r| svg::Bar {
                label: r.rare.clone(),
                value: r.effect,
                lo: r.effect_lo,
                hi: r.effect_hi,
            })
            .collect();
        let title = format!("Effect of each rare on the win rate: {}", g.label());
        let chart = Chart {
            file: format!("rare_impact_{}.svg", g.number),
            svg: svg::effect_chart(&title, &bars),
            title,
        };
        let methods: Vec<String> = {
            let mut v: Vec<String> = Vec::new();
            for r in &g.rares {
                if !v.contains(&r.method) {
                    v.push(r.method.clone());
                }
            }
            v
        };
        let hardest = &g.rares[0];
        let caption = Rich::default()
            .t(format!(
                "Bars: the estimated effect; whiskers: its 95% interval; the vertical line is no effect. Hardest: {} ({} {}). Method: ",
                hardest.rare,
                pp(hardest.effect),
                pct_interval_pp(hardest.effect_lo, hardest.effect_hi),
            ))
            .code(methods.join(", "))
            .t(".");
        blocks.push(Block::Figure { chart, caption });
        blocks.push(Block::Table(DocTable {
            header: ["Rare", "Effect", "95% interval", "Configs", "Games"]
                .map(String::from)
                .to_vec(),
            numeric: vec![false, true, true, true, true],
            rows: g
                .rares
                .iter()
                .map(|r| {
                    vec![
                        Rich::text(r.rare.clone()),
                        Rich::text(pp(r.effect)),
                        Rich::text(pct_interval_pp(r.effect_lo, r.effect_hi)),
                        Rich::text(thousands(r.configs)),
                        Rich::text(thousands(r.games)),
                    ]
                })
                .collect(),
        }));
    }
    Section {
        id: "rares".into(),
        title: "Which rares make it hardest".into(),
        blocks,
    }
}

/// An interval of differences in percentage points: `[−2.0, −0.4]`.
fn pct_interval_pp(lo: f64, hi: f64) -> String {
    let f = |x: f64| {
        if x.is_finite() {
            signed(x * 100.0)
        } else {
            "—".into()
        }
    };
    format!("[{},\u{a0}{}]", f(lo), f(hi))
}

fn days_section(m: &Model) -> Section {
    let mut blocks = vec![Block::Paragraph(Rich::text(
        "The day on which games ended, as a share of each configuration's games, with the fewest and with the most rares side by side. Under each chart, how the games ended.",
    ))];
    for g in &m.groups {
        blocks.push(Block::Heading {
            level: 3,
            text: g.label(),
        });
        let fewest_n = g.fewest().rare_count;
        let (mut low, mut high) = (0, 0);
        let series: Vec<svg::HistSeries> = g
            .day_series
            .iter()
            .map(|s| {
                let color = if s.rare_count == fewest_n {
                    low += 1;
                    svg::LOW_COLORS[(low - 1) % svg::LOW_COLORS.len()]
                } else {
                    high += 1;
                    svg::HIGH_COLORS[(high - 1) % svg::HIGH_COLORS.len()]
                };
                svg::HistSeries {
                    name: s.label.clone(),
                    color,
                    config_ids: s.config_ids.clone(),
                    counts: s.histogram.clone(),
                    games: s.outcomes.games,
                }
            })
            .collect();
        let title = format!("Day the game ended: {}", g.label());
        let chart = Chart {
            file: format!("days_{}.svg", g.number),
            svg: svg::day_histogram(&title, &series),
            title,
        };
        let mixes: Vec<String> = g
            .day_series
            .iter()
            .filter(|s| s.rare_count > 0)
            .map(|s| {
                let mixes: Vec<String> = s
                    .mixes
                    .iter()
                    .map(|m| {
                        if m.is_empty() {
                            "no rare".to_string()
                        } else {
                            m.join(", ")
                        }
                    })
                    .collect();
                format!("{}: {}", s.label, mixes.join(" / "))
            })
            .collect();
        let caption = Rich::text(if mixes.is_empty() {
            "Bars: share of games that ended on each day.".to_string()
        } else {
            format!(
                "Bars: share of games that ended on each day. Rares in play — {}.",
                mixes.join("; ")
            )
        });
        blocks.push(Block::Figure { chart, caption });
        // How the games ended: one row per outcome, one column per series.
        type Count = fn(&Outcomes) -> u64;
        let outcome_rows: [(&str, Count); 7] = [
            ("Won", |o| o.wins()),
            ("…by meeting the expeditions", |o| o.wins_expeditions_met),
            ("…by Confluence deck-out", |o| o.wins_confluence_deck_out),
            ("Lost", |o| o.losses()),
            ("…to the hero's Darkness", |o| o.losses_hero_darkness),
            ("…to the companion's Darkness", |o| {
                o.losses_companion_darkness
            }),
            ("Stopped at the day cap", |o| o.day_caps),
        ];
        let mut rows = vec![
            std::iter::once(Rich::text("Games"))
                .chain(
                    g.day_series
                        .iter()
                        .map(|s| Rich::text(thousands(s.outcomes.games))),
                )
                .collect::<Vec<_>>(),
        ];
        for (label, get) in outcome_rows {
            rows.push(
                std::iter::once(Rich::text(label))
                    .chain(
                        g.day_series
                            .iter()
                            .map(|s| Rich::text(share(get(&s.outcomes), s.outcomes.games))),
                    )
                    .collect(),
            );
        }
        blocks.push(Block::Table(DocTable {
            header: std::iter::once("Outcome".to_string())
                .chain(g.day_series.iter().map(|s| s.label.clone()))
                .collect(),
            numeric: std::iter::once(false)
                .chain(g.day_series.iter().map(|_| true))
                .collect(),
            rows,
        }));
        let caps: u64 = g.day_series.iter().map(|s| s.outcomes.day_caps).sum();
        if caps > 0 {
            blocks.push(Block::Note(Rich::text(format!(
                "{} stopped at the day cap without a result; they count as neither wins nor losses, and the win rate counts them as not won.",
                plural(caps as usize, "game", "games")
            ))));
        }
    }
    Section {
        id: "days".into(),
        title: "How long games last".into(),
        blocks,
    }
}

fn card_table(cards: &[&CardRow]) -> DocTable {
    DocTable {
        header: [
            "Card",
            "Copies",
            "Play rate",
            "Win rate when played",
            "Win rate when not played",
            "Games played",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![false, true, true, true, true, true],
        rows: cards
            .iter()
            .map(|c| {
                vec![
                    Rich::text(c.card.clone()),
                    Rich::text(c.copies.to_string()),
                    Rich::text(pct(c.play_rate)),
                    Rich::text(pct(c.win_rate_when_played)),
                    Rich::text(pct(c.win_rate_when_not_played)),
                    Rich::text(thousands(c.games_played)),
                ]
            })
            .collect(),
    }
}

fn cards_section(m: &Model) -> Section {
    let mut blocks = Vec::new();
    if !m.has_cards {
        blocks.push(Block::Note(
            Rich::default()
                .t("This section needs ")
                .code("cards.parquet")
                .t(" (play rates and win rates per card), which is not in the run directory."),
        ));
        return Section {
            id: "cards".into(),
            title: "Cards".into(),
            blocks,
        };
    }
    blocks.push(Block::Paragraph(Rich::text(
        "For the all-common configuration of each deck and policy: how often each card was played (share of games with at least one copy played), and the win rate of the games in which it was, and was not, played. Sorted by play rate. A card played in more winning games is not necessarily stronger: cards drawn in long games are played more often.",
    )));
    for g in &m.groups {
        let c = m
            .configs
            .iter()
            .find(|c| c.config_id == g.cards_config)
            .expect("the cards configuration is in the summary");
        blocks.push(Block::Heading {
            level: 3,
            text: format!(
                "{}, {} (config {})",
                g.label(),
                if c.rare_count == 0 {
                    "all commons".to_string()
                } else {
                    plural(c.rare_count as usize, "rare", "rares")
                },
                c.config_id
            ),
        });
        if g.cards.is_empty() {
            blocks.push(Block::Note(Rich::text(format!(
                "cards.parquet has no rows for config {}.",
                c.config_id
            ))));
            continue;
        }
        for (side, title) in [
            ("confluence", "Confluence cards"),
            ("player", "Player's cards"),
        ] {
            let rows: Vec<&CardRow> = g.cards.iter().filter(|c| c.side == side).collect();
            blocks.push(Block::Heading {
                level: 4,
                text: title.into(),
            });
            if rows.is_empty() {
                blocks.push(Block::Note(Rich::text("No rows.")));
            } else {
                blocks.push(Block::Table(card_table(&rows)));
            }
        }
    }
    Section {
        id: "cards".into(),
        title: "Cards".into(),
        blocks,
    }
}

/// Lays the model out as headings, paragraphs, tables and figures (with their charts).
pub fn document(m: &Model) -> Document {
    let mut sections = vec![Section {
        id: "run".into(),
        title: "The run".into(),
        blocks: metadata(m),
    }];
    if !m.warnings.is_empty() {
        sections[0].blocks.extend(
            m.warnings
                .iter()
                .map(|w| Block::Note(Rich::text(format!("Warning: {w}.")))),
        );
    }
    sections.push(win_rate_section(m));
    sections.push(target_section(m));
    sections.push(comparison_section(m));
    sections.push(rares_section(m));
    sections.push(days_section(m));
    sections.push(cards_section(m));
    Document {
        title: "Confluence simulation report".into(),
        lead: lead(m),
        sections,
        footer: Rich::default()
            .t(format!(
                "Generated by confluence-sim {} (",
                env!("CARGO_PKG_VERSION")
            ))
            .code("confluence-sim report")
            .t(") from the files of the run directory. Intervals are 95% Wilson score intervals (Wilson 1927; Brown, Cai & DasGupta 2001) unless a file gives its own."),
    }
}

// ---------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------

/// What [`write_report`] wrote.
#[derive(Debug)]
pub struct Written {
    pub files: Vec<PathBuf>,
    pub warnings: Vec<String>,
}

/// Whether a file under `charts/` is one this module writes (and may replace).
fn is_report_chart(name: &str) -> bool {
    let numbered = |prefix: &str| {
        name.strip_prefix(prefix)
            .and_then(|r| r.strip_suffix(".svg"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    name == "win_rate_by_rares.svg" || numbered("rare_impact_") || numbered("days_")
}

/// Reads the run in `dir` and writes `report.html`, `report.md` and `charts/*.svg` there.
/// Everything is rendered before the first file is created, and the directory is replaced
/// in one step by a new one holding the run's files and the whole new report (see
/// [`OutputDir`]), so a failure leaves the old report. Charts of an earlier report that
/// this one no longer has are left out.
///
/// # Errors
///
/// See [`Inputs::read`]; and any error writing the files.
pub fn write_report(dir: &Path, target: f64) -> Result<Written, ReportError> {
    let inputs = Inputs::read(dir)?;
    let model = Model::build(&inputs, target);
    let doc = document(&model);
    let html = html::render(&doc);
    let md = markdown::render(&doc);
    let charts = doc.charts();
    // The directory is replaced in one step: the run's files (and anything else) carried
    // over, the report's own files new, charts of an earlier report that this one no
    // longer has left out.
    let mut out = OutputDir::new(dir)?;
    out.carry(&|p: &Path| {
        let own = p == Path::new("report.md")
            || p == Path::new("report.html")
            || (p.parent() == Some(Path::new("charts"))
                && p.file_name()
                    .is_some_and(|f| is_report_chart(&f.to_string_lossy())));
        !own
    })?;
    for c in &charts {
        out.write_bytes(&format!("charts/{}", c.file), c.standalone().as_bytes())?;
    }
    out.write_bytes("report.md", md.as_bytes())?;
    out.write_bytes("report.html", html.as_bytes())?;
    let files = out.commit()?;
    let warnings = model.warnings.clone();
    Ok(Written { files, warnings })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_rates_and_differences() {
        assert_eq!(pct(0.443), "44.3%");
        assert_eq!(pct(1.0), "100.0%");
        assert_eq!(pct(f64::NAN), "—");
        assert_eq!(pct_interval(0.433, 0.453), "[43.3%,\u{a0}45.3%]");
        assert_eq!(pp(-0.012), "−1.2\u{a0}pp");
        assert_eq!(pp(0.034), "+3.4\u{a0}pp");
        assert_eq!(pp(-0.0001), "0.0\u{a0}pp");
        assert_eq!(thousands(422_576), "422,576");
        assert_eq!(thousands(9604), "9,604");
        assert_eq!(thousands(12), "12");
    }

    #[test]
    fn recognises_only_its_own_chart_names() {
        assert!(is_report_chart("win_rate_by_rares.svg"));
        assert!(is_report_chart("rare_impact_12.svg"));
        assert!(is_report_chart("days_1.svg"));
        assert!(!is_report_chart("days_.svg"));
        assert!(!is_report_chart("days_x.svg"));
        assert!(!is_report_chart("my_chart.svg"));
    }

    #[test]
    fn standalone_svg_declares_its_namespace() {
        let c = Chart {
            file: "a.svg".into(),
            title: "a".into(),
            svg: "<svg width=\"1\"></svg>".into(),
        };
        assert_eq!(
            c.standalone(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\"></svg>\n"
        );
    }
}
