//! Tuning a Confluence deck's rare mix to a target win rate (`confluence-sim tune`), and
//! which rares matter.
//!
//! 1. Screening ([`screening_design`]): all-common, all-rare, each rare alone, all rares but
//!    one, and random subsets of every size, each played on the same games.
//! 2. A weighted regression over the screening results (additive in the rares) predicts the
//!    win rate of every mix; the mixes predicted closest to the target are played again on
//!    fresh game indices (the confirmation).
//! 3. The confirmed mixes are ranked by their measured distance to the target, the rares by
//!    their marginal effect ([`Tuned`], [`candidates_table`], [`rares_table`]).
//!
//! Layer: part of [`crate::design`].

use anyhow::{Context, Result};

use super::Progress;
use crate::deck::RareMix;
use crate::export::{ColumnData, Table};
use crate::job::load::Loaded;
use crate::job::mixes;
use crate::job::summary::WinRateColumns;
use crate::sim::{ConfigSpec, RunPlan};
use crate::stats::interval::{Interval, wilson, z_for};
use crate::stats::regression::{Effect, Fit, Observation, fit};
use crate::stats::{Accum, interval::games_for_half_width};

/// The columns of `tune_candidates` and `tune_rares`.
pub const TUNE_SCHEMA_VERSION: u32 = 2;

/// What to tune: the target and the games, for the one player deck and policy of the
/// [`Loaded`] decks.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The win rate to reach (a fraction).
    pub target: f64,
    /// Games per screened mix.
    pub games: u64,
    /// Random subsets of each size in the screening.
    pub subsets: u32,
    /// Mixes confirmed.
    pub candidates: usize,
    /// Games per confirmed mix (on the game indices after the screening's).
    pub confirm: u64,
    pub seed: u64,
    pub threads: usize,
    pub day_cap: u8,
}

impl TuneConfig {
    /// The confirmation's games when none is given: enough for a 95% interval of ±1 point.
    pub fn default_confirm() -> u64 {
        games_for_half_width(0.01, 0.95)
    }

    /// All the games the screening of `design` mixes and the confirmation play, or why they
    /// do not fit in 64 bits.
    pub fn total_games(&self, design: usize) -> Result<u64, String> {
        let screening = crate::job::plan::total_games(self.games, design);
        let confirming = crate::job::plan::total_games(self.confirm, self.candidates);
        match (screening, confirming) {
            (Ok(s), Ok(c)) => s
                .checked_add(c)
                .filter(|_| self.games.checked_add(self.confirm).is_some())
                .ok_or_else(|| {
                    "the screening and confirming games together are more than fit in 64 bits"
                        .to_string()
                }),
            (Err(e), _) | (_, Err(e)) => Err(e),
        }
    }
}

/// The screening's mixes of `rares` rares, each once: all commons, all rares, each rare
/// alone and all but each one, then `subsets` random subsets of each size drawn from `seed`.
pub fn screening_design(rares: usize, subsets: u32, seed: u64) -> Vec<RareMix> {
    let mut design: Vec<RareMix> = Vec::new();
    let mut add = |x: RareMix| {
        if !design.contains(&x) {
            design.push(x);
        }
    };
    let all = RareMix::all(rares);
    add(RareMix(0));
    add(all);
    for j in 0..rares {
        add(RareMix(1 << j));
        add(RareMix(all.0 & !(1 << j)));
    }
    for k in 1..rares {
        for x in mixes::subsets(rares, k, subsets.max(1), seed) {
            add(x);
        }
    }
    design
}

/// One confirmed mix.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub mix: RareMix,
    /// The regression's prediction of its win rate.
    pub predicted: f64,
    /// Its confirmation games.
    pub acc: Accum,
    /// The 95% interval of its measured win rate.
    pub interval: Interval,
}

/// What a tuning found.
#[derive(Clone, Debug)]
pub struct Tuned {
    /// The screened mixes, in the order played, and their games.
    pub design: Vec<RareMix>,
    pub screening: Vec<Accum>,
    /// The regression over the screening.
    pub fit: Fit,
    /// The mixes predicted closest to the target, in that order, and their confirmation.
    pub predicted: Vec<RareMix>,
    pub confirmed: Vec<Accum>,
    /// The confirmed mixes, closest to the target (measured) first.
    pub candidates: Vec<Candidate>,
    /// The rares' effects, smallest (most difficulty) first.
    pub effects: Vec<Effect>,
}

impl Tuned {
    /// The screening's configurations (the one player and policy, each mix).
    pub fn screening_configs(&self) -> Vec<ConfigSpec> {
        configs(&self.design)
    }

    /// Every mix played and its games: the screening's, then the confirmation's.
    pub fn played(&self) -> impl Iterator<Item = (RareMix, &Accum)> {
        let screened = self.design.iter().copied().zip(&self.screening);
        screened.chain(self.predicted.iter().copied().zip(&self.confirmed))
    }

    /// Whether a confirmed mix's 95% interval holds the target.
    pub fn reached(&self, target: f64) -> bool {
        self.candidates
            .iter()
            .any(|c| c.interval.lo <= target && target <= c.interval.hi)
    }
}

fn configs(mixes: &[RareMix]) -> Vec<ConfigSpec> {
    mixes
        .iter()
        .map(|&mix| ConfigSpec {
            player: 0,
            policy: 0,
            mix,
        })
        .collect()
}

/// Screens `design` (game indices `0..games`), fits the rares' effects, predicts every mix
/// and confirms the `candidates` closest to the target on game indices
/// `games..games + confirm`. `loaded` holds one player deck and one policy; `progress`
/// hears of every game played.
pub fn tune(
    loaded: &Loaded,
    design: Vec<RareMix>,
    c: &TuneConfig,
    progress: &dyn Progress,
) -> Result<Tuned> {
    let progress = &|k| progress.played(k);
    let n = loaded.confluence.rares.len();
    let plan_for = |mixes: &[RareMix], games: u64, first_game: u64| RunPlan {
        db: &loaded.lib.db,
        players: &loaded.players,
        confluence: &loaded.confluence,
        policies: &loaded.policies,
        configs: configs(mixes),
        games,
        first_game,
        seed: c.seed,
        threads: c.threads,
        day_cap: c.day_cap,
        models: loaded.models(),
    };
    let screen = crate::sim::run::<String>(&plan_for(&design, c.games, 0), progress, None)
        .map_err(|e| anyhow::anyhow!(e))?;
    let obs: Vec<Observation> = design
        .iter()
        .zip(&screen.accums)
        .map(|(mix, acc)| Observation {
            mix: mix.0,
            wins: acc.won(),
            games: acc.games,
        })
        .collect();
    let f = fit(&obs, n).context("the screening design does not identify the rares' effects")?;

    // Predict every mix; confirm the closest to the target (fresh games, on new indices).
    let mut predicted: Vec<(u16, f64)> = (0..(1u32 << n))
        .map(|b| (b as u16, f.predict(b as u16)))
        .collect();
    predicted.sort_by(|x, y| {
        (x.1 - c.target)
            .abs()
            .total_cmp(&(y.1 - c.target).abs())
            .then(x.0.count_ones().cmp(&y.0.count_ones()))
            .then(x.0.cmp(&y.0))
    });
    let cands: Vec<RareMix> = predicted
        .iter()
        .take(c.candidates)
        .map(|&(b, _)| RareMix(b))
        .collect();
    let confirmed =
        crate::sim::run::<String>(&plan_for(&cands, c.confirm, c.games), progress, None)
            .map_err(|e| anyhow::anyhow!(e))?;

    let mut rows: Vec<(RareMix, f64, &Accum)> = cands
        .iter()
        .zip(&confirmed.accums)
        .map(|(&mix, acc)| (mix, f.predict(mix.0), acc))
        .collect();
    rows.sort_by(|x, y| {
        let dx = (x.2.won() as f64 / x.2.games as f64 - c.target).abs();
        let dy = (y.2.won() as f64 / y.2.games as f64 - c.target).abs();
        dx.total_cmp(&dy)
    });
    let candidates = rows
        .into_iter()
        .map(|(mix, predicted, acc)| Candidate {
            mix,
            predicted,
            acc: acc.clone(),
            interval: wilson(acc.won(), acc.games, 0.95),
        })
        .collect();
    let mut effects = f.effects.clone();
    effects.sort_by(|x, y| x.estimate.total_cmp(&y.estimate));
    Ok(Tuned {
        design,
        screening: screen.accums,
        fit: f,
        predicted: cands,
        confirmed: confirmed.accums,
        candidates,
        effects,
    })
}

/// `tune_candidates`: the confirmed mixes, closest to the target first.
pub fn candidates_table(t: &Tuned, loaded: &Loaded, target: f64) -> Table {
    let db = &loaded.lib.db;
    let rows = &t.candidates;
    let k = rows.len();
    let ivals: Vec<Interval> = rows.iter().map(|r| r.interval).collect();
    let mut cand = Table::new();
    cand.push(
        "schema_version",
        ColumnData::U32(vec![TUNE_SCHEMA_VERSION; k]),
    )
    .push("rank", ColumnData::U32((1..=k as u32).collect()))
    .push(
        "player_deck",
        ColumnData::Str(vec![loaded.players[0].name.clone(); k]),
    )
    .push(
        "policy",
        ColumnData::Str(vec![loaded.policies[0].to_string(); k]),
    )
    .push("target", ColumnData::F64(vec![target; k]))
    .push(
        "rare_count",
        ColumnData::U32(rows.iter().map(|r| r.mix.count()).collect()),
    )
    .push(
        "rare_mask",
        ColumnData::U32(rows.iter().map(|r| r.mix.0 as u32).collect()),
    )
    .push(
        "rare_mix",
        ColumnData::Str(
            rows.iter()
                .map(|r| loaded.confluence.mix_names(r.mix, db).join(";"))
                .collect(),
        ),
    )
    .push(
        "predicted",
        ColumnData::F64(rows.iter().map(|r| r.predicted).collect()),
    )
    .push(
        "games",
        ColumnData::U64(rows.iter().map(|r| r.acc.games).collect()),
    )
    .push_win_rates(&ivals)
    .push(
        "engine_errors",
        ColumnData::U64(rows.iter().map(|r| r.acc.engine_errors).collect()),
    )
    .push(
        "distance",
        ColumnData::F64(ivals.iter().map(|i| (i.estimate - target).abs()).collect()),
    );
    cand
}

/// `tune_rares`: the rares by effect on the win rate, most difficulty first, with 95%
/// intervals.
pub fn rares_table(t: &Tuned, loaded: &Loaded) -> Table {
    let db = &loaded.lib.db;
    let z = z_for(0.95);
    let effects = &t.effects;
    let r = effects.len();
    let mut rares = Table::new();
    rares
        .push(
            "schema_version",
            ColumnData::U32(vec![TUNE_SCHEMA_VERSION; r]),
        )
        .push("rank", ColumnData::U32((1..=r as u32).collect()))
        .push(
            "rare",
            ColumnData::Str(
                effects
                    .iter()
                    .map(|e| db.card(loaded.confluence.rares[e.rare]).name.clone())
                    .collect(),
            ),
        )
        .push(
            "effect",
            ColumnData::F64(effects.iter().map(|e| e.estimate).collect()),
        )
        .push(
            "effect_lo",
            ColumnData::F64(effects.iter().map(|e| e.estimate - z * e.se).collect()),
        )
        .push(
            "effect_hi",
            ColumnData::F64(effects.iter().map(|e| e.estimate + z * e.se).collect()),
        )
        .push("configs", ColumnData::U32(vec![t.fit.configs as u32; r]))
        .push("games", ColumnData::U64(vec![t.fit.games; r]));
    rares
}
