//! The summary table: one row per configuration. Columns are documented in
//! docs/outputs.md ("summary"); `schema_version` changes whenever a column changes.
//!
//! Layer: part of [`crate::job`].

use crate::cards::Library;
use crate::deck::{ConfluenceDeck, PlayerDeck};
use crate::engine::Outcome;
use crate::export::{ColumnData, Table};
use crate::policy::PolicySpec;
use crate::sim::ConfigSpec;
use crate::stats::Accum;

pub use crate::report::SUMMARY_SCHEMA_VERSION;

/// A terminal table's cell for a paired difference's interval when its games show no
/// variation ([`crate::stats::interval::paired_bounds`] is `None`).
pub const NO_VARIATION: &str = "n/a: no variation";

/// The sentence under a terminal table with [`NO_VARIATION`] cells.
pub const NO_VARIATION_NOTE: &str = "n/a: every paired game gave the same result, so these games show no variation to measure an interval by (which is not certainty)";

/// A signed figure with one decimal as the terminal tables print it: `+1.2`, `−` never
/// printed as "-0.0" (a value that rounds to zero is `0.0`, as in the report).
pub fn signed(x: f64) -> String {
    let s = format!("{x:+.1}");
    if s == "-0.0" || s == "+0.0" {
        "0.0".into()
    } else {
        s
    }
}

/// The width of a terminal column: its header's or its widest value's.
pub fn width<'a>(header: &str, values: impl IntoIterator<Item = &'a str>) -> usize {
    values
        .into_iter()
        .map(|v| v.chars().count())
        .chain([header.chars().count()])
        .max()
        .unwrap_or(0)
}

/// Short labels for the long rare mixes of a terminal table (a mix longer than `max`
/// characters gets `[A]`, `[B]`, ...; a short one is shown whole), and the legend that
/// names each label's mix in full, so that rows whose mixes begin alike can be told apart.
pub fn mix_labels(mixes: &[String], max: usize) -> (Vec<String>, Vec<String>) {
    let mut long: Vec<&String> = Vec::new();
    let mut shown = Vec::with_capacity(mixes.len());
    for m in mixes {
        if m.chars().count() <= max {
            shown.push(m.clone());
            continue;
        }
        let k = match long.iter().position(|l| *l == m) {
            Some(k) => k,
            None => {
                long.push(m);
                long.len() - 1
            }
        };
        shown.push(format!("[{}]", label(k)));
    }
    let legend = long
        .iter()
        .enumerate()
        .map(|(k, m)| format!("[{}] {}", label(k), m))
        .collect();
    (shown, legend)
}

/// `A`..`Z`, then `AA`, `AB`, ...
fn label(k: usize) -> String {
    let letter = |i: usize| char::from(b'A' + i as u8);
    if k < 26 {
        letter(k).to_string()
    } else {
        format!("{}{}", letter(k / 26 - 1), letter(k % 26))
    }
}

/// What a summary row needs to name its configuration.
pub struct RunMeta<'a> {
    pub lib: &'a Library,
    pub players: &'a [PlayerDeck],
    pub confluence: &'a ConfluenceDeck,
    pub policies: &'a [PolicySpec],
    pub seed: u64,
    pub day_cap: u8,
    /// `--expert-weights`, if given.
    pub expert_weights: Option<&'a std::path::Path>,
    /// `--value-weights`, if given.
    pub value_weights: Option<&'a std::path::Path>,
    /// The what-if edits applied to the decks.
    pub edits: &'a [crate::deck::Edit],
}

/// The `win_rate`, `win_rate_lo` and `win_rate_hi` columns of the tables that list win
/// rates with their intervals (ladder, compare, tune).
pub trait WinRateColumns {
    fn push_win_rates(&mut self, iv: &[crate::stats::Interval]) -> &mut Self;
}

impl WinRateColumns for Table {
    fn push_win_rates(&mut self, iv: &[crate::stats::Interval]) -> &mut Self {
        self.push(
            "win_rate",
            ColumnData::F64(iv.iter().map(|i| i.estimate).collect()),
        )
        .push(
            "win_rate_lo",
            ColumnData::F64(iv.iter().map(|i| i.lo).collect()),
        )
        .push(
            "win_rate_hi",
            ColumnData::F64(iv.iter().map(|i| i.hi).collect()),
        )
    }
}

pub fn summary_table(meta: &RunMeta<'_>, configs: &[ConfigSpec], accums: &[Accum]) -> Table {
    let db = &meta.lib.db;
    let n = configs.len();
    let c_u32 = |f: &dyn Fn(usize) -> u32| ColumnData::U32((0..n).map(f).collect());
    let version = c_u32(&|_| SUMMARY_SCHEMA_VERSION);
    let config_id = c_u32(&|i| i as u32);
    let rare_count = c_u32(&|i| configs[i].mix.count());
    let rare_mask = c_u32(&|i| configs[i].mix.0 as u32);
    let non_exact =
        c_u32(&|i| super::load::non_exact(meta.lib, &meta.players[configs[i].player]) as u32);
    let median = c_u32(&|i| accums[i].days_quantile(0.5) as u32);
    let p10 = c_u32(&|i| accums[i].days_quantile(0.1) as u32);
    let p90 = c_u32(&|i| accums[i].days_quantile(0.9) as u32);
    let day_cap = c_u32(&|_| meta.day_cap as u32);
    let u64s = |f: &dyn Fn(&Accum) -> u64| ColumnData::U64(accums.iter().map(f).collect());
    let f64s = |f: &dyn Fn(&Accum) -> f64| ColumnData::F64(accums.iter().map(f).collect());
    let wins = |a: &Accum| a.won();
    let losses = |a: &Accum| a.lost();
    let strs = |f: &dyn Fn(&ConfigSpec) -> String| ColumnData::Str(configs.iter().map(f).collect());
    let mut t = Table::new();
    t.push("schema_version", version)
        .push("config_id", config_id)
        .push(
            "player_deck",
            strs(&|c| meta.players[c.player].name.clone()),
        )
        .push(
            "player_hero",
            strs(&|c| db.card(meta.players[c.player].hero).name.clone()),
        )
        .push("policy", strs(&|c| meta.policies[c.policy].to_string()))
        .push("confluence_deck", strs(&|_| meta.confluence.name.clone()))
        .push("rare_count", rare_count)
        .push("rare_mask", rare_mask)
        .push(
            "rare_mix",
            strs(&|c| meta.confluence.mix_names(c.mix, db).join(";")),
        )
        .push("games", u64s(&|a| a.games))
        .push("wins", u64s(&wins))
        .push("losses", u64s(&losses))
        .push("day_caps", u64s(&|a| a.outcomes[Outcome::DayCap.index()]))
        .push("win_rate", f64s(&|a| a.win_interval(wins(a)).estimate))
        .push("win_rate_lo", f64s(&|a| a.win_interval(wins(a)).lo))
        .push("win_rate_hi", f64s(&|a| a.win_interval(wins(a)).hi))
        .push("days_mean", f64s(&|a| a.days_mean()))
        .push("days_median", median)
        .push("days_p10", p10)
        .push("days_p90", p90)
        .push(
            "win_days_mean",
            f64s(&|a| {
                if wins(a) == 0 {
                    f64::NAN
                } else {
                    a.win_day_sum as f64 / wins(a) as f64
                }
            }),
        )
        .push(
            "day_histogram",
            ColumnData::ListU64(
                accums
                    .iter()
                    .map(|a| a.day_histogram(meta.day_cap as usize))
                    .collect(),
            ),
        )
        .push(
            "wins_expeditions_met",
            u64s(&|a| a.outcomes[Outcome::WinMet.index()]),
        )
        .push(
            "wins_confluence_deck_out",
            u64s(&|a| a.outcomes[Outcome::WinDeckOut.index()]),
        )
        .push(
            "wins_by_card",
            u64s(&|a| a.outcomes[Outcome::WinByCard.index()]),
        )
        .push(
            "losses_hero_darkness",
            u64s(&|a| a.outcomes[Outcome::LossHeroDarkness.index()]),
        )
        .push(
            "losses_companion_darkness",
            u64s(&|a| a.outcomes[Outcome::LossCompanionDarkness.index()]),
        )
        .push(
            "losses_by_card",
            u64s(&|a| a.outcomes[Outcome::LossByCard.index()]),
        )
        .push(
            "player_plays_mean",
            f64s(&|a| a.plays[0] as f64 / a.games.max(1) as f64),
        )
        .push(
            "confluence_plays_mean",
            f64s(&|a| a.plays[1] as f64 / a.games.max(1) as f64),
        )
        .push("player_cards_not_exact", non_exact)
        .push("engine_errors", u64s(&|a| a.engine_errors))
        .push("seed", u64s(&|_| meta.seed))
        .push("day_cap", day_cap);
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_figures_never_read_minus_zero() {
        assert_eq!(signed(-0.04), "0.0");
        assert_eq!(signed(0.04), "0.0");
        assert_eq!(signed(-0.0), "0.0");
        assert_eq!(signed(-1.26), "-1.3");
        assert_eq!(signed(2.0), "+2.0");
    }

    #[test]
    fn long_mixes_get_labels_and_a_legend() {
        let long = "a;".repeat(30);
        let mixes = vec!["x".to_string(), long.clone(), long.clone(), "y".repeat(50)];
        let (shown, legend) = mix_labels(&mixes, 40);
        assert_eq!(shown, ["x", "[A]", "[A]", "[B]"]);
        assert_eq!(
            legend,
            [format!("[A] {long}"), format!("[B] {}", "y".repeat(50))]
        );
        assert_eq!(label(26), "AA");
        assert_eq!(label(27), "AB");
    }
}
