//! Step 2: what the report shows, computed from the inputs: configurations grouped by
//! (player deck, policy), pooled win rates, paired differences, day histograms, rare
//! effects and card tables.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use crate::stats::{Interval, wilson};

use super::LEVEL;
use super::inputs::{CardRow, ConfigRow, DiffRow, Inputs, RareRow, RunMeta};

/// At most this many configurations of one rare count get their own histogram series;
/// more are pooled into one.
const MAX_HIST_SERIES_PER_GROUP: usize = 3;

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
    /// The rare counts of the baselines they were compared with (`[0]` when every one was
    /// compared with the all-common configuration).
    pub baseline_rares: Vec<u32>,
}

/// Games of a set of configurations by outcome.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Outcomes {
    pub games: u64,
    pub wins_expeditions_met: u64,
    pub wins_confluence_deck_out: u64,
    pub losses_hero_darkness: u64,
    pub losses_companion_darkness: u64,
    pub wins_by_card: u64,
    pub losses_by_card: u64,
    pub day_caps: u64,
}

impl Outcomes {
    fn add(&mut self, r: &ConfigRow) {
        self.games += r.games;
        self.wins_expeditions_met += r.wins_expeditions_met;
        self.wins_confluence_deck_out += r.wins_confluence_deck_out;
        self.losses_hero_darkness += r.losses_hero_darkness;
        self.losses_companion_darkness += r.losses_companion_darkness;
        self.wins_by_card += r.wins_by_card;
        self.losses_by_card += r.losses_by_card;
        self.day_caps += r.day_caps;
    }

    pub fn wins(&self) -> u64 {
        self.wins_expeditions_met + self.wins_confluence_deck_out + self.wins_by_card
    }

    pub fn losses(&self) -> u64 {
        self.losses_hero_darkness + self.losses_companion_darkness + self.losses_by_card
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
    /// The deck as the report names it (see [`deck_names`]).
    pub deck_name: String,
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
        series_name(&self.deck_name, &self.policy)
    }

    pub fn fewest(&self) -> &Pooled {
        self.by_rares.first().expect("a group has a configuration")
    }

    pub fn most(&self) -> Option<&Pooled> {
        (self.by_rares.len() > 1).then(|| self.by_rares.last().expect("two rare counts"))
    }
}

/// How strong a policy is, for ordering them and for the skill gap: `random` < `greedy` <
/// `planner` < `expert` < `search` (parameters after `:` are ignored, so
/// `search:rollouts=64` is `search`). `None` for a name this report does not know, and for
/// `clairvoyant`, which sees hidden cards: an upper bound, not a player.
pub fn policy_rank(policy: &str) -> Option<u8> {
    match policy_base(policy) {
        "random" => Some(0),
        "greedy" => Some(1),
        "planner" => Some(2),
        "expert" => Some(3),
        "search" => Some(4),
        _ => None,
    }
}

/// The policy's name without its parameters: `search:rollouts=64` -> `search`.
pub fn policy_base(policy: &str) -> &str {
    policy.split(':').next().unwrap_or(policy).trim()
}

/// Whether the policy is a bound rather than a player (it sees what a player cannot).
pub fn is_bound(policy: &str) -> bool {
    policy_base(policy) == "clairvoyant"
}

/// Policies ordered weakest first: the known players by [`policy_rank`], then the names
/// this report does not know (in order of appearance), then the bounds.
pub fn order_policies(policies: &[String]) -> Vec<String> {
    let mut v: Vec<(u8, usize, String)> = policies
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let class = match policy_rank(p) {
                Some(r) => r,
                None if is_bound(p) => 200,
                None => 100,
            };
            (class, i, p.clone())
        })
        .collect();
    v.sort();
    v.dedup_by(|a, b| a.2 == b.2);
    v.into_iter().map(|x| x.2).collect()
}

/// The name the report gives each deck file stem: its hero (`Kojo & Booda`), or
/// `hero (stem)` when two decks of the run share a hero, or the stem when the hero is not
/// recorded.
pub fn deck_names(decks: &[(String, String)]) -> BTreeMap<String, String> {
    decks
        .iter()
        .map(|(stem, hero)| {
            let shared = decks
                .iter()
                .any(|(s, h)| s != stem && h == hero && !hero.is_empty());
            let name = if hero.is_empty() {
                stem.clone()
            } else if shared {
                format!("{hero} ({stem})")
            } else {
                hero.clone()
            };
            (stem.clone(), name)
        })
        .collect()
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
    /// The player decks as (file stem, report name), in order of first appearance.
    pub decks: Vec<(String, String)>,
    /// The policies of the run, weakest first (see [`order_policies`]).
    pub policies: Vec<String>,
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
        let mut stems: Vec<(String, String)> = Vec::new();
        for r in &configs {
            if !stems.iter().any(|(s, _)| *s == r.player_deck) {
                stems.push((r.player_deck.clone(), r.player_hero.clone()));
            }
        }
        let names = deck_names(&stems);
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
                        series_name(&names[&deck], &policy)
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
                    let mut baseline_rares: Vec<u32> = found
                        .iter()
                        .filter_map(|(_, d)| {
                            configs
                                .iter()
                                .find(|c| c.config_id == d.baseline_config_id)
                                .map(|c| c.rare_count)
                        })
                        .collect();
                    baseline_rares.sort();
                    baseline_rares.dedup();
                    Some(PairedDiff {
                        diff: mean(&|d| d.diff),
                        lo: mean(&|d| d.diff_lo),
                        hi: mean(&|d| d.diff_hi),
                        configs: found.len(),
                        baseline_rares,
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
                deck_name: names[&deck].clone(),
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
                        series_name(
                            names.get(&r.player_deck).unwrap_or(&r.player_deck),
                            &r.policy
                        )
                    ));
                    break;
                }
            }
        }
        let policies = order_policies(&groups.iter().map(|g| g.policy.clone()).collect::<Vec<_>>());
        let decks = stems
            .iter()
            .map(|(s, _)| (s.clone(), names[s].clone()))
            .collect();
        Model {
            decks,
            policies,
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

    /// The group of a deck (file stem) and policy.
    pub fn group(&self, deck: &str, policy: &str) -> Option<&Group> {
        self.groups
            .iter()
            .find(|g| g.player_deck == deck && g.policy == policy)
    }

    /// The player policies (not bounds) of the run, weakest first, names this report does
    /// not rank last.
    pub fn players(&self) -> Vec<&String> {
        self.policies.iter().filter(|p| !is_bound(p)).collect()
    }

    /// The player policies this report ranks (see [`policy_rank`]), weakest first: the
    /// skill gap runs from the first to the last.
    pub fn ranked(&self) -> Vec<&String> {
        self.policies
            .iter()
            .filter(|p| policy_rank(p).is_some())
            .collect()
    }

    pub fn total_games(&self) -> u64 {
        self.configs.iter().map(|c| c.games).sum()
    }

    pub(crate) fn distinct<F: Fn(&ConfigRow) -> String>(&self, f: F) -> Vec<String> {
        distinct(self.configs.iter().map(f))
    }
}

/// The items in the order they first come, each once.
pub(crate) fn distinct<T: PartialEq>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut v: Vec<T> = Vec::new();
    for x in items {
        if !v.contains(&x) {
            v.push(x);
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn policies_are_ordered_by_strength_with_bounds_and_unknown_names_last() {
        let run = strings(&[
            "search:rollouts=64",
            "greedy",
            "clairvoyant",
            "mystery",
            "planner",
            "random",
            "expert",
        ]);
        assert_eq!(
            order_policies(&run),
            strings(&[
                "random",
                "greedy",
                "planner",
                "expert",
                "search:rollouts=64",
                "mystery",
                "clairvoyant"
            ])
        );
        assert_eq!(policy_rank("search:rollouts=64"), Some(4));
        assert_eq!(policy_rank("clairvoyant"), None);
        assert!(is_bound("clairvoyant:x=1"));
        assert!(!is_bound("planner"));
    }

    #[test]
    fn decks_are_named_by_hero_and_by_stem_where_two_share_one() {
        let names = deck_names(&[
            ("BR_kojo_booda".into(), "Kojo & Booda".into()),
            ("BR_kojo_aggro".into(), "Kojo & Booda".into()),
            ("OR_sigismar_wingspan".into(), "Sigismar & Wingspan".into()),
            ("old".into(), String::new()),
        ]);
        assert_eq!(names["BR_kojo_booda"], "Kojo & Booda (BR_kojo_booda)");
        assert_eq!(names["BR_kojo_aggro"], "Kojo & Booda (BR_kojo_aggro)");
        assert_eq!(names["OR_sigismar_wingspan"], "Sigismar & Wingspan");
        assert_eq!(names["old"], "old");
    }
}
