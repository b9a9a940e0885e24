//! The tables of a sensitivity analysis: `sensitivity` (every edit on every
//! configuration, ranked by effect) and `sensitivity_target` (the single edits and pairs
//! closest to a target).
//!
//! Layer: part of [`crate::design`].

use super::{Plan, Reach, Row, Sensitivity};
use crate::design::bounds;
use crate::export::{ColumnData, Table};
use crate::job::load::Loaded;
use crate::job::summary::WinRateColumns;
use crate::stats::interval::wilson;

/// Version 2 added `stopped_early`; `baseline_win_rate` and `baseline_days_mean` are the
/// baseline's on the row's own games (all of them in version 1, where every edit played all).
pub const SENSITIVITY_SCHEMA_VERSION: u32 = 2;
/// `sensitivity_target`'s columns have not changed.
pub const TARGET_SCHEMA_VERSION: u32 = 1;

/// `sensitivity`: each edit on each configuration, ranked by effect within each.
pub fn table(s: &Sensitivity, plan: &Plan, loaded: &Loaded, seed: u64) -> Table {
    let (rows, grid, configs) = (&s.rows, &plan.grid, &plan.configs);
    let n = rows.len();
    let db = &loaded.lib.db;
    let iv: Vec<_> = rows.iter().map(|r| wilson(r.wins, r.games, 0.95)).collect();
    let mut rank = Vec::with_capacity(n);
    for (i, r) in rows.iter().enumerate() {
        rank.push(if i > 0 && rows[i - 1].config == r.config {
            rank[i - 1] + 1
        } else {
            1u32
        });
    }
    let strs = |f: &dyn Fn(&Row) -> String| ColumnData::Str(rows.iter().map(f).collect());
    let f64s = |f: &dyn Fn(&Row) -> f64| ColumnData::F64(rows.iter().map(f).collect());
    let config = |r: &Row| &configs[r.config];
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![SENSITIVITY_SCHEMA_VERSION; n]),
    )
    .push("rank", ColumnData::U32(rank))
    .push("edit", strs(&|r| grid[r.edit].to_string()))
    .push("card", strs(&|r| grid[r.edit].card.to_string()))
    .push("change", strs(&|r| grid[r.edit].change.to_string()))
    .push(
        "player_deck",
        strs(&|r| loaded.players[config(r).player].name.clone()),
    )
    .push(
        "player_hero",
        strs(&|r| db.card(loaded.players[config(r).player].hero).name.clone()),
    )
    .push(
        "policy",
        strs(&|r| loaded.policies[config(r).policy].to_string()),
    )
    .push(
        "rare_count",
        ColumnData::U32(rows.iter().map(|r| config(r).mix.count()).collect()),
    )
    .push(
        "rares",
        strs(&|r| loaded.confluence.mix_names(config(r).mix, db).join(";")),
    )
    .push(
        "games",
        ColumnData::U64(rows.iter().map(|r| r.games).collect()),
    )
    .push(
        "wins",
        ColumnData::U64(rows.iter().map(|r| r.wins).collect()),
    )
    .push_win_rates(&iv)
    .push("baseline_win_rate", f64s(&|r| r.base_rate))
    .push("diff", f64s(&|r| r.diff.0))
    .push("diff_lo", f64s(&|r| bounds(r.diff).0))
    .push("diff_hi", f64s(&|r| bounds(r.diff).1))
    .push("days_mean", f64s(&|r| r.days_mean))
    .push("baseline_days_mean", f64s(&|r| r.base_days))
    .push(
        "unchanged",
        ColumnData::Bool(rows.iter().map(|r| r.unchanged).collect()),
    )
    .push(
        "stopped_early",
        ColumnData::Bool(rows.iter().map(|r| r.stopped).collect()),
    )
    .push("seed", ColumnData::U64(vec![seed; n]));
    t
}

/// `sensitivity_target`: the rows [`super::play_pairs`] returns.
pub fn target_table(
    reach: &[Reach],
    target: f64,
    plan: &Plan,
    loaded: &Loaded,
    seed: u64,
) -> Table {
    let (grid, configs) = (&plan.grid, &plan.configs);
    let n = reach.len();
    let db = &loaded.lib.db;
    let iv: Vec<_> = reach
        .iter()
        .map(|r| wilson(r.wins, r.games, 0.95))
        .collect();
    let strs = |f: &dyn Fn(&Reach) -> String| ColumnData::Str(reach.iter().map(f).collect());
    let f64s = |f: &dyn Fn(&Reach) -> f64| ColumnData::F64(reach.iter().map(f).collect());
    let config = |r: &Reach| &configs[r.config];
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![TARGET_SCHEMA_VERSION; n]),
    )
    .push(
        "player_deck",
        strs(&|r| loaded.players[config(r).player].name.clone()),
    )
    .push(
        "policy",
        strs(&|r| loaded.policies[config(r).policy].to_string()),
    )
    .push(
        "rare_count",
        ColumnData::U32(reach.iter().map(|r| config(r).mix.count()).collect()),
    )
    .push(
        "rares",
        strs(&|r| loaded.confluence.mix_names(config(r).mix, db).join(";")),
    )
    .push("target", ColumnData::F64(vec![target; n]))
    .push(
        "kind",
        strs(&|r| if r.edits.len() == 1 { "single" } else { "pair" }.to_string()),
    )
    .push(
        "edits",
        strs(&|r| {
            r.edits
                .iter()
                .map(|&e| grid[e].to_string())
                .collect::<Vec<_>>()
                .join(" + ")
        }),
    )
    .push(
        "games",
        ColumnData::U64(reach.iter().map(|r| r.games).collect()),
    )
    .push(
        "wins",
        ColumnData::U64(reach.iter().map(|r| r.wins).collect()),
    )
    .push_win_rates(&iv)
    .push("baseline_win_rate", f64s(&|r| r.base_rate))
    .push("diff", f64s(&|r| r.diff.0))
    .push("diff_lo", f64s(&|r| bounds(r.diff).0))
    .push("diff_hi", f64s(&|r| bounds(r.diff).1))
    .push(
        "distance",
        ColumnData::F64(iv.iter().map(|i| (i.estimate - target).abs()).collect()),
    )
    .push(
        "reaches",
        ColumnData::Bool(
            iv.iter()
                .map(|i| i.lo <= target && target <= i.hi)
                .collect(),
        ),
    )
    .push("seed", ColumnData::U64(vec![seed; n]));
    t
}
