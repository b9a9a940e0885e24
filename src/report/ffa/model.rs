//! Step 2 of the Free for All report: the totals per entry, seat and pod, the
//! Plackett–Luce rating of the entries (the one `ratings.csv` holds, fitted to the same
//! pods in the same order), and what the findings say.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use crate::stats::plackett_luce::{self, PlFit};
use crate::stats::{Interval, wilson};

use super::super::LEVEL;
use super::super::inputs::RunMeta;
use super::super::model::{deck_names, distinct, series_name};
use super::inputs::FfaInputs;

/// One entry: a deck played by a policy, with its totals and rating.
#[derive(Clone, Debug, Serialize)]
pub struct EntryView {
    /// The entry's number in the outputs.
    pub entry: u32,
    pub deck: String,
    pub hero: String,
    pub policy: String,
    /// The name the report gives it: the deck by its hero, with the policy when the run
    /// has several.
    pub label: String,
    pub rank: usize,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    /// The share of its games it won.
    pub share: Interval,
    /// The centred log-strength and its 95% interval.
    pub log_strength: f64,
    pub log_strength_lo: f64,
    pub log_strength_hi: f64,
}

impl EntryView {
    /// The chance of winning a table of three entries of average strength, from a
    /// log-strength (25% for an average entry).
    pub fn against_average(theta: f64) -> f64 {
        theta.exp() / (theta.exp() + 3.0)
    }
}

/// One seat round the table.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    pub seat: u32,
    pub games: u64,
    pub wins: u64,
    pub share: Interval,
}

/// One pod: its four entries (indices into [`FfaModel::entries`], strongest first) and
/// their wins over its seatings.
#[derive(Clone, Debug, Serialize)]
pub struct PodView {
    pub pod: u32,
    pub members: Vec<(usize, u64)>,
    pub games: u64,
    pub draws: u64,
}

/// What the Free for All report shows.
#[derive(Clone, Debug, Serialize)]
pub struct FfaModel {
    pub dir: PathBuf,
    /// Strongest first (the rating's order).
    pub entries: Vec<EntryView>,
    pub seats: Vec<SeatView>,
    pub pods: Vec<PodView>,
    pub meta: Option<RunMeta>,
    pub policies: Vec<String>,
    pub decks: Vec<String>,
    /// Games per seating (least, most), the seeds and the day caps of the rows.
    pub games_per_seating: (u64, u64),
    pub seatings_per_pod: usize,
    pub seeds: Vec<u64>,
    pub day_caps: Vec<u64>,
    /// Every game once.
    pub total_games: u64,
    pub draws: u64,
    pub arena_games: u64,
    /// Days over all games.
    pub days: u64,
    pub engine_errors: u64,
    /// Games won by the first player on day 1, when meta.json records it.
    pub first_player: Option<Interval>,
    pub prior: f64,
    pub iterations: usize,
    pub converged: bool,
    pub warnings: Vec<String>,
}

/// The rating of `n` entries from the pods' wins (each pod's members in entry order, the
/// pods in order), as `ffa` fits it for `ratings.csv`.
pub fn rate(n: usize, pods: &[(Vec<usize>, Vec<u64>)], prior: f64) -> PlFit {
    let tables: Vec<plackett_luce::Table> = pods
        .iter()
        .map(|(players, wins)| plackett_luce::Table {
            players: players.clone(),
            wins: wins.iter().map(|&w| w as f64).collect(),
        })
        .collect();
    plackett_luce::fit(n, &tables, prior)
}

impl FfaModel {
    pub fn build(inputs: &FfaInputs) -> FfaModel {
        let rows = &inputs.rows;
        let n = rows.iter().map(|r| r.entry as usize + 1).max().unwrap_or(0);
        let mut name = vec![(String::new(), String::new(), String::new()); n];
        let mut totals = vec![[0u64; 3]; n];
        let mut seats = [[0u64; 2]; 4];
        // Per pod: members in entry order and their wins; games and draws.
        let mut pods: BTreeMap<u32, (BTreeMap<usize, u64>, u64, u64)> = BTreeMap::new();
        let (mut games, mut draws, mut arenas, mut days, mut errors) = (0, 0, 0, 0, 0);
        let mut seatings: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for r in rows {
            let e = r.entry as usize;
            name[e] = (r.deck.clone(), r.hero.clone(), r.policy.clone());
            let t = &mut totals[e];
            t[0] += r.games;
            t[1] += r.wins;
            t[2] += r.draws;
            let s = &mut seats[r.seat as usize];
            s[0] += r.games;
            s[1] += r.wins;
            let pod = pods.entry(r.pod).or_default();
            *pod.0.entry(e).or_default() += r.wins;
            if r.seat == 0 {
                pod.1 += r.games;
                pod.2 += r.draws;
                games += r.games;
                draws += r.draws;
                arenas += r.arena_games;
                errors += r.engine_errors;
                days += (r.days_mean * r.games as f64).round() as u64;
                seatings.entry(r.pod).or_default().push(r.seating);
            }
        }
        let pod_wins: Vec<(Vec<usize>, Vec<u64>)> = pods
            .values()
            .map(|(m, _, _)| (m.keys().copied().collect(), m.values().copied().collect()))
            .collect();
        let fit = rate(n, &pod_wins, inputs.prior);
        let policies = distinct(name.iter().map(|x| x.2.clone()));
        let stems = distinct(name.iter().map(|x| (x.0.clone(), x.1.clone())));
        let names = deck_names(&stems);
        let order = fit.order();
        let mut position = vec![0; n];
        let entries: Vec<EntryView> = order
            .iter()
            .enumerate()
            .map(|(k, &i)| {
                position[i] = k;
                let (deck, hero, policy) = name[i].clone();
                let shown = names.get(&deck).cloned().unwrap_or_else(|| deck.clone());
                let (lo, hi) = fit.interval(i, LEVEL);
                let [g, w, d] = totals[i];
                EntryView {
                    entry: i as u32,
                    label: if policies.len() > 1 {
                        series_name(&shown, &policy)
                    } else {
                        shown
                    },
                    deck,
                    hero,
                    policy,
                    rank: k + 1,
                    games: g,
                    wins: w,
                    draws: d,
                    share: wilson(w, g, LEVEL),
                    log_strength: fit.log_strength[i],
                    log_strength_lo: lo,
                    log_strength_hi: hi,
                }
            })
            .collect();
        let pods: Vec<PodView> = pods
            .into_iter()
            .map(|(pod, (m, g, d))| {
                let mut members: Vec<(usize, u64)> =
                    m.into_iter().map(|(e, w)| (position[e], w)).collect();
                members.sort_unstable();
                PodView {
                    pod,
                    members,
                    games: g,
                    draws: d,
                }
            })
            .collect();
        let per_seating = rows.iter().filter(|r| r.seat == 0).map(|r| r.games);
        let seeds = distinct(rows.iter().map(|r| r.seed));
        let mut warnings = Vec::new();
        if seeds.len() > 1 {
            warnings.push(format!(
                "the pods were played with different seeds ({seeds:?}): not one ffa run"
            ));
        }
        if !fit.converged {
            warnings.push(format!(
                "the Plackett-Luce fit stopped after {} iterations without converging; the ratings are approximate",
                fit.iterations
            ));
        }
        FfaModel {
            dir: inputs.dir.clone(),
            entries,
            seats: seats
                .iter()
                .enumerate()
                .map(|(s, &[g, w])| SeatView {
                    seat: s as u32,
                    games: g,
                    wins: w,
                    share: wilson(w, g, LEVEL),
                })
                .collect(),
            pods,
            meta: inputs.meta.clone(),
            decks: stems.iter().map(|(s, _)| names[s].clone()).collect(),
            policies,
            games_per_seating: (
                per_seating.clone().min().unwrap_or(0),
                per_seating.max().unwrap_or(0),
            ),
            seatings_per_pod: seatings.values().map(Vec::len).max().unwrap_or(0),
            seeds,
            day_caps: distinct(rows.iter().map(|r| r.day_cap)),
            total_games: games,
            draws,
            arena_games: arenas,
            days,
            engine_errors: errors,
            first_player: inputs
                .first_player_wins
                .filter(|&w| w <= games)
                .map(|w| wilson(w, games, LEVEL)),
            prior: inputs.prior,
            iterations: fit.iterations,
            converged: fit.converged,
            warnings,
        }
    }

    /// Games won by someone (the rating's games).
    pub fn decided(&self) -> u64 {
        self.total_games - self.draws
    }
}
