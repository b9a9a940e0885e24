//! The report of a `confluence-sim sensitivity` directory: [`SensModel`] is a [`Report`],
//! in the same three steps as the other reports: `sensitivity.parquet` (and `meta.json`)
//! read and checked; the rows grouped by player deck, policy and mix, ranked as the file
//! ranks them; one tornado chart per group (one bar per edit, with its interval, the
//! largest effects first) and the table behind it.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use std::path::{Path, PathBuf};

use crate::error::ReportError;

use super::document::{Block, Chart, DocTable, Rich, Section, run_blocks};
use super::inputs::{Columns, RunMeta, optional, read_meta, read_table};
use super::skeleton::{Page, Report};
use super::svg::{TornadoBar, tornado_chart};
use super::{pct, pct_interval_pp, pp};

/// The schema version of `sensitivity.parquet` this report reads (and every older one:
/// version 1 had no `stopped_early`, every edit having played all the games).
pub const SENS_SCHEMA_VERSION: u32 = 2;

/// Edits per chart: the largest effects (the table lists them all).
pub const SHOWN: usize = 20;

const CHART_PREFIX: &str = "sensitivity_";

const EXPECTED: &str =
    "expected the sensitivity.parquet written by `confluence-sim sensitivity --out DIR`";

/// One row of `sensitivity.parquet`: one edit on one deck, policy and mix.
#[derive(Clone, Debug)]
pub struct SensRow {
    pub edit: String,
    pub player_deck: String,
    pub player_hero: String,
    pub policy: String,
    pub rare_count: u32,
    pub rares: String,
    pub games: u64,
    pub win_rate: f64,
    pub baseline_win_rate: f64,
    pub diff: f64,
    pub diff_lo: f64,
    pub diff_hi: f64,
    pub unchanged: bool,
    /// Racing stopped the edit before the run's full game count.
    pub stopped_early: bool,
}

/// The edits of one player deck, policy and mix, in the file's rank order.
#[derive(Clone, Debug)]
pub struct SensGroup {
    pub player_deck: String,
    pub player_hero: String,
    pub policy: String,
    pub rare_count: u32,
    pub rares: String,
    pub baseline_win_rate: f64,
    pub rows: Vec<SensRow>,
}

/// The model of a sensitivity directory.
#[derive(Clone, Debug)]
pub struct SensModel {
    pub dir: PathBuf,
    pub groups: Vec<SensGroup>,
    pub meta: Option<RunMeta>,
}

fn read_rows(dir: &Path) -> Result<Vec<SensRow>, ReportError> {
    let path = dir.join("sensitivity.parquet");
    let t = read_table(&path, EXPECTED)?;
    let c = Columns {
        path: &path,
        table: &t,
    };
    let version = c.check_schemas(1, SENS_SCHEMA_VERSION)?;
    if t.rows() == 0 {
        return Err(c.err("no edits (the table has no rows)".into()));
    }
    let edit = c.strs("edit")?;
    let deck = c.strs("player_deck")?;
    let hero = c.strs("player_hero")?;
    let policy = c.strs("policy")?;
    let rare_count = c.u32s("rare_count")?;
    let rares = c.strs("rares")?;
    let games = c.u64s("games")?;
    let win_rate = c.f64s("win_rate")?;
    let base = c.f64s("baseline_win_rate")?;
    let diff = c.f64s("diff")?;
    let lo = c.f64s("diff_lo")?;
    let hi = c.f64s("diff_hi")?;
    let bools = |name: &str| match t.column(name) {
        Some(crate::export::ColumnData::Bool(v)) => Ok(v.clone()),
        Some(other) => Err(c.err(format!(
            "column `{name}` is {}, expected bool",
            other.type_name()
        ))),
        None => Err(c.err(format!("no column `{name}`"))),
    };
    let unchanged = bools("unchanged")?;
    let stopped = if version >= 2 {
        bools("stopped_early")?
    } else {
        vec![false; t.rows()]
    };
    // A zero-width interval (written by versions before issue 48, item 4: an edit whose
    // games show no variation) is no interval, never a certain one.
    let flat = |i: usize| lo[i] == hi[i];
    Ok((0..t.rows())
        .map(|i| SensRow {
            edit: edit[i].clone(),
            player_deck: deck[i].clone(),
            player_hero: hero[i].clone(),
            policy: policy[i].clone(),
            rare_count: rare_count[i],
            rares: rares[i].clone(),
            games: games[i],
            win_rate: win_rate[i],
            baseline_win_rate: base[i],
            diff: diff[i],
            diff_lo: if flat(i) { f64::NAN } else { lo[i] },
            diff_hi: if flat(i) { f64::NAN } else { hi[i] },
            unchanged: unchanged[i],
            stopped_early: stopped[i],
        })
        .collect())
}

impl SensModel {
    /// Groups the rows by player deck, policy and mix, in file order.
    pub fn build(dir: &Path, rows: Vec<SensRow>, meta: Option<RunMeta>) -> SensModel {
        let mut groups: Vec<SensGroup> = Vec::new();
        for r in rows {
            let same = |g: &SensGroup| {
                g.player_deck == r.player_deck
                    && g.policy == r.policy
                    && g.rare_count == r.rare_count
                    && g.rares == r.rares
            };
            match groups.iter_mut().find(|g| same(g)) {
                Some(g) => {
                    // A row's baseline is on its own games: the group's is that of the row
                    // played on the most games (every game, unless racing stopped them all).
                    if r.games > g.rows.iter().map(|x| x.games).max().unwrap_or(0) {
                        g.baseline_win_rate = r.baseline_win_rate;
                    }
                    g.rows.push(r)
                }
                None => groups.push(SensGroup {
                    player_deck: r.player_deck.clone(),
                    player_hero: r.player_hero.clone(),
                    policy: r.policy.clone(),
                    rare_count: r.rare_count,
                    rares: r.rares.clone(),
                    baseline_win_rate: r.baseline_win_rate,
                    rows: vec![r],
                }),
            }
        }
        SensModel {
            dir: dir.to_path_buf(),
            groups,
            meta,
        }
    }
}

/// The chart file of group `i` (counting from 1).
pub fn chart_file(i: usize) -> String {
    format!("{CHART_PREFIX}{i}.svg")
}

impl SensGroup {
    fn name(&self) -> String {
        format!(
            "{} ({}), {}, {} rare(s)",
            self.player_hero, self.player_deck, self.policy, self.rare_count
        )
    }

    /// The edits shown: the largest effects, leaving out those that change nothing in this
    /// mix (a rare's edit at all commons).
    fn shown(&self) -> Vec<&SensRow> {
        self.rows
            .iter()
            .filter(|r| !r.unchanged)
            .take(SHOWN)
            .collect()
    }
}

impl Report for SensModel {
    /// A directory of `confluence-sim sensitivity` (and not of a run).
    fn recognises(dir: &Path) -> bool {
        dir.join("sensitivity.parquet").is_file() && !dir.join("summary.parquet").is_file()
    }

    fn owns_chart(name: &str) -> bool {
        name.strip_prefix(CHART_PREFIX)
            .and_then(|r| r.strip_suffix(".svg"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    }

    fn read(dir: &Path, _target: f64) -> Result<SensModel, ReportError> {
        let rows = read_rows(dir)?;
        let meta = optional(dir, "meta.json", read_meta)?;
        Ok(SensModel::build(dir, rows, meta))
    }

    fn page(&self) -> Page {
        let mut findings = Vec::new();
        let mut items = Vec::new();
        for g in &self.groups {
            if let Some(top) = g.shown().first() {
                items.push(
                    Rich::default()
                        .strong(g.name())
                        .t(format!(
                            ": baseline {}; the largest effect is ",
                            pct(g.baseline_win_rate)
                        ))
                        .code(top.edit.clone())
                        .t(format!(
                            ", {} {}.",
                            pp(top.diff),
                            pct_interval_pp(top.diff_lo, top.diff_hi)
                        )),
                );
            }
        }
        findings.push(Block::List(items));
        let mut sections = Vec::new();
        for (i, g) in self.groups.iter().enumerate() {
            let shown = g.shown();
            let bars: Vec<TornadoBar> = shown
                .iter()
                .map(|r| TornadoBar {
                    label: r.edit.clone(),
                    diff: r.diff,
                    lo: r.diff_lo,
                    hi: r.diff_hi,
                })
                .collect();
            let title = g.name();
            let chart = Chart {
                file: chart_file(i + 1),
                title: title.clone(),
                svg: tornado_chart(&title, &bars),
            };
            let rows = g
                .rows
                .iter()
                .map(|r| {
                    vec![
                        Rich::default().code(r.edit.clone()),
                        Rich::text(pct(r.win_rate)),
                        Rich::text(pp(r.diff)),
                        Rich::text(if r.unchanged {
                            "(n/a: the edit changes no card of this mix)".to_string()
                        } else {
                            pct_interval_pp(r.diff_lo, r.diff_hi)
                        }),
                        Rich::text(if r.stopped_early {
                            format!("{} (stopped)", super::thousands(r.games))
                        } else {
                            super::thousands(r.games)
                        }),
                    ]
                })
                .collect();
            sections.push(Section {
                id: format!("sensitivity-{}", i + 1),
                title: g.name(),
                blocks: vec![
                    Block::Figure {
                        chart,
                        caption: Rich::text(format!(
                            "The {} edits that move the win rate most (baseline {}), each played on the baseline's games: the bar is the paired difference, the whisker its 95% interval. Blue raises the player's win rate, orange lowers it.",
                            shown.len(),
                            pct(g.baseline_win_rate)
                        )),
                    },
                    Block::Details {
                        summary: format!("All {} edits", g.rows.len()),
                        blocks: vec![Block::Table(DocTable {
                            header: vec![
                                "edit".into(),
                                "win rate".into(),
                                "difference".into(),
                                "95% interval".into(),
                                "games".into(),
                            ],
                            numeric: vec![false, true, true, true, true],
                            rows,
                        })],
                    },
                ],
            });
        }
        let mut facts = Vec::new();
        if let Some(m) = &self.meta {
            if let Some(s) = &m.seed {
                facts.push(("Seed".to_string(), Rich::text(s.clone())));
            }
            if let Some(g) = &m.games {
                facts.push((
                    "Games per edit (at most)".to_string(),
                    Rich::text(g.clone()),
                ));
            }
            if let Some(c) = &m.confluence_deck {
                facts.push(("Confluence deck".to_string(), Rich::text(c.clone())));
            }
        }
        Page {
            title: "Sensitivity: which single change moves the win rate most",
            lead: Rich::text(
                "Every edit of the grid played on the same games as the unedited decks, ranked by its effect on the player's win rate, per player deck, policy and mix.",
            ),
            findings,
            sections,
            run: run_blocks(
                facts,
                self.meta.as_ref(),
                &self.dir,
                "the seed and the command",
            ),
            source: "a sensitivity directory",
            methods: "Differences are paired (the same game indices and seeds with and without the edit); intervals are 95% normal intervals from the paired standard error. A raced run stops an edit whose interval already lies within the negligible band after a stage (marked stopped, with its games): its interval is wider than the others'.",
            warnings: Vec::new(),
        }
    }
}
