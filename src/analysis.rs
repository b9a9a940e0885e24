//! Tables computed from a run's accumulators: per-card statistics, paired differences against
//! each group's all-common baseline, and the marginal effect of each rare (regression). The
//! columns are documented in docs/outputs.md.
//!
//! Layer: may use `cards`, `deck`, `export`, `policy`, `sim`, `stats` and nothing else of the
//! crate.

use crate::cards::db::CardDb;
use crate::deck::{ConfluenceDeck, PlayerDeck};
use crate::export::{ColumnData, Table};
use crate::policy::PolicySpec;
use crate::sim::ConfigSpec;
use crate::sim::runner::baselines;
use crate::stats::Accum;
use crate::stats::interval::z_for;
use crate::stats::regression::{Observation, fit};

pub const CARDS_SCHEMA_VERSION: u32 = 1;
pub const DIFFS_SCHEMA_VERSION: u32 = 1;
pub const RARES_SCHEMA_VERSION: u32 = 1;

/// What the tables are computed from.
pub struct RunData<'a> {
    pub db: &'a CardDb,
    pub players: &'a [PlayerDeck],
    pub confluence: &'a ConfluenceDeck,
    pub policies: &'a [PolicySpec],
    pub configs: &'a [ConfigSpec],
    pub accums: &'a [Accum],
}

fn wins(a: &Accum) -> u64 {
    a.won()
}

/// One row per configuration, side and card name.
pub fn cards_table(d: &RunData<'_>) -> Table {
    let mut config_c: Vec<u32> = Vec::new();
    let mut deck_c: Vec<String> = Vec::new();
    let mut policy_c: Vec<String> = Vec::new();
    let mut rares_c: Vec<u32> = Vec::new();
    let mut mix_c: Vec<String> = Vec::new();
    let mut side_c: Vec<String> = Vec::new();
    let mut card_c: Vec<String> = Vec::new();
    let mut ref_c: Vec<String> = Vec::new();
    let mut copies_c: Vec<u32> = Vec::new();
    let mut games_c: Vec<u64> = Vec::new();
    let mut played_c: Vec<u64> = Vec::new();
    let mut wwp_c: Vec<u64> = Vec::new();
    let mut rate_c: Vec<f64> = Vec::new();
    let mut wr_played: Vec<f64> = Vec::new();
    let mut wr_not: Vec<f64> = Vec::new();
    for (ci, c) in d.configs.iter().enumerate() {
        let a = &d.accums[ci];
        let decks: [(&str, Vec<_>); 2] = [
            ("player", d.players[c.player].cards.clone()),
            ("confluence", d.confluence.cards_for(c.mix)),
        ];
        for (side, (side_name, cards)) in decks.iter().enumerate() {
            let mut seen: Vec<&str> = Vec::new();
            for (slot, &card) in cards.iter().enumerate().take(64) {
                let def = d.db.card(card);
                if seen.contains(&def.name.as_str()) {
                    continue;
                }
                seen.push(&def.name);
                let copies = cards
                    .iter()
                    .filter(|&&x| d.db.card(x).name == def.name)
                    .count();
                // Copies are folded onto the first slot of the name (see runner::canonical_slots).
                let played = a.played[side][slot];
                let wwp = a.played_wins[side][slot];
                config_c.push(ci as u32);
                deck_c.push(d.players[c.player].name.clone());
                policy_c.push(d.policies[c.policy].to_string());
                rares_c.push(c.mix.count());
                mix_c.push(d.confluence.mix_names(c.mix, d.db).join(";"));
                side_c.push(side_name.to_string());
                card_c.push(def.name.clone());
                ref_c.push(def.reference.clone());
                copies_c.push(copies as u32);
                games_c.push(a.games);
                played_c.push(played);
                wwp_c.push(wwp);
                rate_c.push(played as f64 / a.games.max(1) as f64);
                wr_played.push(if played == 0 {
                    f64::NAN
                } else {
                    wwp as f64 / played as f64
                });
                let not = a.games - played;
                wr_not.push(if not == 0 {
                    f64::NAN
                } else {
                    (wins(a) - wwp) as f64 / not as f64
                });
            }
        }
    }
    let n = config_c.len();
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![CARDS_SCHEMA_VERSION; n]),
    )
    .push("config_id", ColumnData::U32(config_c))
    .push("player_deck", ColumnData::Str(deck_c))
    .push("policy", ColumnData::Str(policy_c))
    .push("rare_count", ColumnData::U32(rares_c))
    .push("rare_mix", ColumnData::Str(mix_c))
    .push("side", ColumnData::Str(side_c))
    .push("card", ColumnData::Str(card_c))
    .push("reference", ColumnData::Str(ref_c))
    .push("copies", ColumnData::U32(copies_c))
    .push("games", ColumnData::U64(games_c))
    .push("games_played", ColumnData::U64(played_c))
    .push("wins_when_played", ColumnData::U64(wwp_c))
    .push("play_rate", ColumnData::F64(rate_c))
    .push("win_rate_when_played", ColumnData::F64(wr_played))
    .push("win_rate_when_not_played", ColumnData::F64(wr_not));
    t
}

/// Each (player deck, policy) group of the run, in order of first appearance, with the
/// observations (mix, wins, games) of its configurations.
fn groups(d: &RunData<'_>) -> Vec<((usize, usize), Vec<Observation>)> {
    let mut keys: Vec<(usize, usize)> = Vec::new();
    for c in d.configs {
        if !keys.contains(&(c.player, c.policy)) {
            keys.push((c.player, c.policy));
        }
    }
    keys.into_iter()
        .map(|(p, q)| {
            let obs = d
                .configs
                .iter()
                .zip(d.accums)
                .filter(|(c, _)| c.player == p && c.policy == q)
                .map(|(c, a)| Observation {
                    mix: c.mix.0,
                    wins: wins(a),
                    games: a.games,
                })
                .collect();
            ((p, q), obs)
        })
        .collect()
}

/// A group's wins and games.
fn totals(obs: &[Observation]) -> (u64, u64) {
    obs.iter()
        .fold((0, 0), |(w, g), o| (w + o.wins, g + o.games))
}

/// Whether a group's games vary at all: some won and some lost.
fn varies(obs: &[Observation]) -> bool {
    let (wins, games) = totals(obs);
    wins > 0 && wins < games
}

/// Why `diffs.csv` and `rares.csv` leave out a row or an interval, one sentence each, so
/// that an empty table or a null is never read as "no effect" or as certain.
pub fn table_notes(d: &RunData<'_>) -> Vec<String> {
    let base = baselines(d.configs);
    let mut notes = Vec::new();
    let compared: Vec<usize> = (0..d.accums.len()).filter(|&ci| base[ci] != ci).collect();
    let few = compared
        .iter()
        .filter(|&&ci| d.accums[ci].paired_difference().is_none())
        .count();
    if few > 0 {
        notes.push(format!(
            "diffs.csv has no row for {few} of {} configuration(s): a paired difference needs at least 2 games",
            compared.len()
        ));
    }
    let flat = compared
        .iter()
        .filter(|&&ci| {
            d.accums[ci]
                .paired_difference()
                .is_some_and(|(_, s)| s == 0.0)
        })
        .count();
    if flat > 0 {
        notes.push(format!(
            "diffs.csv: {flat} difference(s) have no interval (diff_se, diff_lo and diff_hi null): every paired game gave the same result, so the games show no variation to measure it by"
        ));
    }
    for ((p, q), obs) in groups(d) {
        let (w, g) = totals(&obs);
        if obs.len() >= 2 && g > 0 && !varies(&obs) {
            notes.push(format!(
                "rares.csv has no row for {} · {}: it {} all its {g} games, so no rare can be told from another",
                d.players[p].name,
                d.policies[q],
                if w == 0 { "lost" } else { "won" }
            ));
        }
    }
    notes
}

/// One row per configuration that was compared with a different baseline configuration.
/// The baseline is the all-common configuration of the same deck and policy, or the group's
/// first configuration when the run has none: `baseline_rare_count` and
/// `baseline_rare_mix` say which, so that no reader takes it for all-common.
pub fn diffs_table(d: &RunData<'_>) -> Table {
    let base = baselines(d.configs);
    let z = z_for(0.95);
    let (mut id, mut bid, mut diff, mut se, mut lo, mut hi) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    let (mut b_count, mut b_mix): (Vec<u32>, Vec<String>) = (vec![], vec![]);
    for (ci, a) in d.accums.iter().enumerate() {
        if base[ci] == ci {
            continue;
        }
        let Some((m, s)) = a.paired_difference() else {
            continue;
        };
        id.push(ci as u32);
        bid.push(base[ci] as u32);
        let bmix = d.configs[base[ci]].mix;
        b_count.push(bmix.count());
        b_mix.push(d.confluence.mix_names(bmix, d.db).join(";"));
        diff.push(m);
        // Every paired game gave the same result (a deck that never wins): the games show
        // no variation, and a zero-width interval would read as certain. Null, not 0.
        let s = if s > 0.0 { s } else { f64::NAN };
        se.push(s);
        lo.push(m - z * s);
        hi.push(m + z * s);
    }
    let n = id.len();
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![DIFFS_SCHEMA_VERSION; n]),
    )
    .push("config_id", ColumnData::U32(id))
    .push("baseline_config_id", ColumnData::U32(bid))
    .push("baseline_rare_count", ColumnData::U32(b_count))
    .push("baseline_rare_mix", ColumnData::Str(b_mix))
    .push("diff", ColumnData::F64(diff))
    .push("diff_se", ColumnData::F64(se))
    .push("diff_lo", ColumnData::F64(lo))
    .push("diff_hi", ColumnData::F64(hi));
    t
}

/// The marginal effect of each rare, per (player deck, policy), by weighted regression over
/// that group's configurations (see `stats::regression`). Groups whose mixes cannot identify
/// an effect give no row for it.
pub fn rares_table(d: &RunData<'_>) -> Table {
    let z = z_for(0.95);
    let (mut deck, mut pol, mut rare, mut eff, mut lo, mut hi, mut method, mut cfgs, mut games) = (
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
    );
    for ((p, q), obs) in groups(d) {
        // All lost (or all won): no rare can be told from another; the fit would give
        // effects of rounding error (4.4e-16 ± 2e-17) as if measured.
        if !varies(&obs) {
            continue;
        }
        let Some(f) = fit(&obs, d.confluence.rares.len()) else {
            continue;
        };
        for e in &f.effects {
            deck.push(d.players[p].name.clone());
            pol.push(d.policies[q].to_string());
            rare.push(d.db.card(d.confluence.rares[e.rare]).name.clone());
            eff.push(e.estimate);
            lo.push(e.estimate - z * e.se);
            hi.push(e.estimate + z * e.se);
            method.push("regression".to_string());
            cfgs.push(f.configs as u32);
            games.push(f.games);
        }
    }
    let n = deck.len();
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![RARES_SCHEMA_VERSION; n]),
    )
    .push("player_deck", ColumnData::Str(deck))
    .push("policy", ColumnData::Str(pol))
    .push("rare", ColumnData::Str(rare))
    .push("effect", ColumnData::F64(eff))
    .push("effect_lo", ColumnData::F64(lo))
    .push("effect_hi", ColumnData::F64(hi))
    .push("method", ColumnData::Str(method))
    .push("configs", ColumnData::U32(cfgs))
    .push("games", ColumnData::U64(games));
    t
}
