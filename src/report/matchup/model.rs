//! Step 2 of the matchup report: the entries named and ordered by strength, the matrix of
//! win rates, and what the findings say (who beats whom, the first player's edge).
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use std::path::PathBuf;

use serde::Serialize;

use crate::stats::{Interval, wilson};

use super::super::LEVEL;
use super::super::heatmap::Pair;
use super::super::inputs::RunMeta;
use super::super::model::{deck_names, distinct, series_name};
use super::inputs::{MatchupInputs, PairRow, RankRow};

/// One entry: a deck played by a policy.
#[derive(Clone, Debug, Serialize)]
pub struct EntryView {
    /// The entry's number in the outputs.
    pub entry: u32,
    pub deck: String,
    pub hero: String,
    pub policy: String,
    /// The name the report gives it: the deck by its hero (see [`deck_names`]), with the
    /// policy when the run has several.
    pub label: String,
    /// Its ranking row.
    pub rank: RankRow,
}

/// A result of one entry against another, from the first one's side.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    /// The counts and the win rate; `a` and `b` index [`MatchupModel::entries`].
    pub pair: Pair,
    pub first_player_wins: u64,
    pub days_mean: f64,
}

impl Cell {
    /// Whether the 95% interval lies wholly above one half: A beats B.
    pub fn beats(&self) -> bool {
        self.pair.rate.lo > 0.5
    }
}

/// What the matchup report shows.
#[derive(Clone, Debug, Serialize)]
pub struct MatchupModel {
    pub dir: PathBuf,
    /// Strongest first (the ranking's order).
    pub entries: Vec<EntryView>,
    /// `cells[a][b]`: entry `a` against entry `b`, indices into `entries`.
    pub cells: Vec<Vec<Cell>>,
    pub meta: Option<RunMeta>,
    /// How many distinct policies and decks the entries have.
    pub policies: Vec<String>,
    pub decks: Vec<String>,
    /// Games per pair (least, most), the seeds and the day caps of the rows.
    pub games_per_pair: (u64, u64),
    pub seeds: Vec<u64>,
    pub day_caps: Vec<u64>,
    /// Every game once (each unordered pair, mirrors included).
    pub total_games: u64,
    pub total_draws: u64,
    /// Games that ended on an engine error, each once.
    pub engine_errors: u64,
    /// Games won by the seat that was first player on day 1, out of all games.
    pub first_player: Interval,
    pub warnings: Vec<String>,
}

impl MatchupModel {
    pub fn build(inputs: &MatchupInputs) -> MatchupModel {
        let pairs = &inputs.pairs;
        let policies = distinct(
            pairs
                .iter()
                .flat_map(|r| [r.policy_a.clone(), r.policy_b.clone()]),
        );
        let stems = distinct(pairs.iter().flat_map(|r| {
            [
                (r.deck_a.clone(), r.hero_a.clone()),
                (r.deck_b.clone(), r.hero_b.clone()),
            ]
        }));
        let names = deck_names(&stems);
        let mut ranking = inputs.ranking.clone();
        ranking.sort_by_key(|r| (r.rank, r.entry));
        let entries: Vec<EntryView> = ranking
            .into_iter()
            .map(|r| {
                let name = names
                    .get(&r.deck)
                    .cloned()
                    .unwrap_or_else(|| r.deck.clone());
                EntryView {
                    entry: r.entry,
                    deck: r.deck.clone(),
                    hero: r.hero.clone(),
                    policy: r.policy.clone(),
                    label: if policies.len() > 1 {
                        series_name(&name, &r.policy)
                    } else {
                        name
                    },
                    rank: r,
                }
            })
            .collect();
        let n = entries.len();
        let pos = |e: u32| {
            entries
                .iter()
                .position(|x| x.entry == e)
                .expect("inputs checked every entry is ranked")
        };
        let mut grid: Vec<Vec<Option<Cell>>> = vec![vec![None; n]; n];
        for r in pairs {
            let (a, b) = (pos(r.entry_a), pos(r.entry_b));
            grid[a][b] = Some(cell(a, b, r));
        }
        let cells: Vec<Vec<Cell>> = grid
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|c| c.expect("inputs checked every ordered pair has a row"))
                    .collect()
            })
            .collect();
        // Each game once: the rows with entry_a <= entry_b.
        let once = pairs.iter().filter(|r| r.entry_a <= r.entry_b);
        let (mut total, mut draws, mut first, mut errors) = (0u64, 0u64, 0u64, 0u64);
        for r in once {
            total += r.games;
            draws += r.draws;
            first += r.first_player_wins;
            errors += r.engine_errors;
        }
        let mut warnings = Vec::new();
        let seeds = distinct(pairs.iter().map(|r| r.seed));
        let day_caps = distinct(pairs.iter().map(|r| r.day_cap));
        if seeds.len() > 1 {
            warnings.push(format!(
                "the pairs were played with different seeds ({seeds:?}): not one matchup run"
            ));
        }
        MatchupModel {
            dir: inputs.dir.clone(),
            entries,
            cells,
            meta: inputs.meta.clone(),
            policies,
            decks: stems.iter().map(|(s, _)| names[s].clone()).collect(),
            games_per_pair: (
                pairs.iter().map(|r| r.games).min().unwrap_or(0),
                pairs.iter().map(|r| r.games).max().unwrap_or(0),
            ),
            seeds,
            day_caps,
            total_games: total,
            total_draws: draws,
            engine_errors: errors,
            first_player: wilson(first, total, LEVEL),
            warnings,
        }
    }

    /// Every ordered pair of distinct entries whose interval lies above one half, the
    /// highest win rate first.
    pub fn clear_wins(&self) -> Vec<&Cell> {
        let mut v: Vec<&Cell> = self
            .cells
            .iter()
            .flatten()
            .filter(|c| c.pair.a != c.pair.b && c.beats())
            .collect();
        v.sort_by(|x, y| {
            let (x, y) = (&x.pair, &y.pair);
            y.rate
                .estimate
                .total_cmp(&x.rate.estimate)
                .then((x.a, x.b).cmp(&(y.a, y.b)))
        });
        v
    }

    /// The entries that beat every other entry with intervals above one half.
    pub fn dominant(&self) -> Vec<usize> {
        let n = self.entries.len();
        (0..n)
            .filter(|&a| n > 1 && (0..n).all(|b| a == b || self.cells[a][b].beats()))
            .collect()
    }

    /// Unordered pairs of distinct entries.
    pub fn distinct_pairs(&self) -> usize {
        let n = self.entries.len();
        n * n.saturating_sub(1) / 2
    }
}

fn cell(a: usize, b: usize, r: &PairRow) -> Cell {
    Cell {
        pair: Pair::new(a, b, r.games, r.wins_a, r.wins_b, r.draws),
        first_player_wins: r.first_player_wins,
        days_mean: r.days_mean,
    }
}
