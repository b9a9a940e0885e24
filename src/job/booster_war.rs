//! What `booster-war` plays and writes: Booster War (seed 003) between boosters of one
//! set, with win rates by variant, faction pair, Hero and card, run by the one
//! head-to-head runner ([`super::headtohead`]).
//!
//! Layer: part of [`crate::job`].

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::Result;
use serde_json::json;

use super::builtin;
use super::config::{BoosterWar, Models, WarVariant};
use super::error::usage;
use super::headtohead::{self, Base, HeadToHead, Slice};
use super::load;
use crate::cards::Library;
use crate::cards::effect::CardIdx;
use crate::deck::booster::{BoosterPool, BoosterSlots};
use crate::engine::Variant;
use crate::export::{ColumnData, OutputDir, Table};
use crate::policy::PolicySpec;
use crate::sim::Stop;
use crate::sim::booster_war::{Build, FACTIONS, WarPlan, WarTally, run_booster_war};
use crate::sim::booster_war::{CardTally, Wdl};
use crate::sim::state::{LogWriter, StateError};
use crate::sim::tally::TallyUnit;
use crate::stats::interval::{Interval, wilson};

/// A row of `heroes`: the variant, the Hero, its games and its win rate.
type HeroRow = (Build, CardIdx, Wdl, Interval);
/// A row of `card_effects`: the variant, the card, its counts and its effect.
type CardRow = (Build, CardIdx, CardTally, Effect);

/// The schema version of every table `booster-war` writes (2: `booster_war` gained
/// `engine_errors`).
pub const WAR_SCHEMA_VERSION: u32 = 2;
/// The confidence level of every interval of the outputs.
pub const LEVEL: f64 = 0.95;
/// The normal quantile of [`LEVEL`].
const Z: f64 = 1.959_963_984_540_054;

/// Everything a Booster War run needs besides its games: the settings checked, the card
/// data and the boosters.
pub struct War {
    pub policy: PolicySpec,
    pub builds: Vec<Build>,
    pub base: Base,
    pub slots: BoosterSlots,
    pub pool: BoosterPool,
    /// Booster cards of the pool whose abilities are not all encoded.
    pub not_exact: usize,
}

impl HeadToHead for War {
    type Settings = BoosterWar;
    type Tally = WarTally;
    type Summary = ();
    const KIND: &'static str = "booster-war";
    const CONFIG_WORD: &'static str = "variant";

    fn prepare(a: &BoosterWar) -> Result<War> {
        let policy = single_policy(&a.policy)?;
        let builds: Vec<Build> = match a.variant {
            WarVariant::Shuffled => vec![Build::Shuffled],
            WarVariant::Ordered => vec![Build::Ordered],
            WarVariant::Both => Build::ALL.to_vec(),
        };
        a.games
            .checked_mul(builds.len() as u64)
            .ok_or_else(|| usage(format!("--games {}: too many games in all", a.games)))?;
        let base = Base::load(&a.cards, &a.models)?;
        let slots_file = load::boosters(&a.boosters)?;
        if slots_file.is_empty() {
            anyhow::bail!(
                "--boosters {}: the file describes no booster (it needs a [SET] table for each set, as decks/boosters.toml has)",
                builtin::shown(&a.boosters)
            );
        }
        let Some(&slots) = slots_file.get(&a.set) else {
            let known: Vec<&str> = slots_file.keys().map(|s| s.as_str()).collect();
            return Err(usage(format!(
                "--set {}: {} describes no booster of that set (expected one of: {})",
                a.set,
                builtin::shown(&a.boosters),
                known.join(", ")
            )));
        };
        let pool = BoosterPool::new(&base.lib, &a.set, slots)
            .map_err(|m| anyhow::anyhow!("{}: [{}]: {m}", builtin::shown(&a.boosters), a.set))?;
        let not_exact = not_exact(&base.lib, &pool);
        Ok(War {
            policy,
            builds,
            base,
            slots,
            pool,
            not_exact,
        })
    }

    fn seed_and_games(s: &BoosterWar) -> (u64, u64) {
        (s.seed, s.games)
    }

    fn files(s: &mut BoosterWar) -> Vec<&mut PathBuf> {
        vec![&mut s.boosters, &mut s.cards]
    }

    fn models(s: &mut BoosterWar) -> &mut Models {
        &mut s.models
    }

    fn configs(&self) -> usize {
        self.builds.len()
    }

    fn zero(&self) -> WarTally {
        WarTally::new(&self.pool)
    }

    fn started(&self, a: &BoosterWar) {
        if self.not_exact > 0 {
            eprintln!(
                "confluence-sim: warning: {} card(s) of {} are not fully encoded; they play with what is encoded (see `confluence-sim cards coverage --set {}`)",
                self.not_exact, a.set, a.set
            );
        }
    }

    fn play(
        &self,
        a: &BoosterWar,
        slice: Slice,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
        log: &mut LogWriter<TallyUnit<WarTally>>,
    ) -> Result<Vec<WarTally>, Stop<StateError>> {
        let plan = WarPlan {
            db: &self.base.lib.db,
            pool: &self.pool,
            policy: &self.policy,
            builds: self.builds.clone(),
            first_game: slice.first_game,
            games: slice.games,
            seed: a.seed,
            threads: slice.threads,
            day_cap: a.day_cap,
            rules: Variant {
                mana_setup: a.day_one_mana,
                ..Variant::BOOSTER_WAR
            },
            models: self.base.models(),
        };
        run_booster_war(&plan, progress, Some(stop), log)
    }

    fn write(&self, a: &BoosterWar, out: &mut OutputDir, tallies: &[WarTally]) -> Result<()> {
        write_outputs(out, self, a, tallies)
    }

    fn what(&self, a: &BoosterWar) -> String {
        format!("booster war of {}", a.set)
    }
}

/// What the tables and the terminal summary are made from.
pub fn ctx<'a>(p: &'a War, a: &'a BoosterWar, tallies: &'a [WarTally]) -> Ctx<'a> {
    Ctx {
        lib: &p.base.lib,
        pool: &p.pool,
        set: &a.set,
        policy: p.policy.to_string(),
        builds: &p.builds,
        tallies,
        seed: a.seed,
        day_cap: a.day_cap,
    }
}

/// Writes the tables and meta.json of a finished run (or of its merged shards) into `out`.
fn write_outputs(out: &mut OutputDir, p: &War, a: &BoosterWar, tallies: &[WarTally]) -> Result<()> {
    let errors: Vec<_> = tallies.iter().map(|t| t.engine_errors).collect();
    let name = |v: usize| {
        format!(
            "variant {}, --set {}, --seed {}",
            p.builds[v].name(),
            a.set,
            a.seed
        )
    };
    if let Some(note) = headtohead::engine_error_note(&errors, "booster_war", name) {
        eprintln!("confluence-sim: {note}");
    }
    let ctx = ctx(p, a, tallies);
    let variants = variants_table(&ctx);
    let factions = factions_table(&ctx);
    let heroes = heroes_table(&ctx);
    let cards = cards_table(&ctx);
    let slots = p.slots;
    let meta = json!({
        "tool": "confluence-sim",
        "kind": "booster-war",
        "version": env!("CARGO_PKG_VERSION"),
        "git_commit": super::meta::git_commit(),
        "created": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "command": super::meta::command_line(),
        "set": a.set,
        "booster": {
            "heroes": slots.heroes,
            "commons": slots.commons,
            "rares": slots.rares,
            "file": a.boosters_given.clone().unwrap_or_else(|| builtin::shown(&a.boosters)),
        },
        "pool": {
            "heroes": p.pool.heroes.len(),
            "commons": p.pool.commons.len(),
            "rares": p.pool.rares.len(),
            "not_exact": p.not_exact,
        },
        "policy": ctx.policy,
        "expert_weights": super::meta::model_file(a.models.expert_weights.as_deref()),
        "value_weights": super::meta::model_file(a.models.value_weights.as_deref()),
        "variants": p.builds.iter().map(|b| b.name()).collect::<Vec<_>>(),
        "games_per_variant": a.games,
        "seed": a.seed,
        "day_cap": a.day_cap,
        "rules": {
            "free_mana": Variant::BOOSTER_WAR.free_mana,
            "day_one_mana": a.day_one_mana,
            "morning_draw": Variant::BOOSTER_WAR.morning_draw,
            "last_day": Variant::BOOSTER_WAR.last_day,
        },
    });
    for (name, t) in [
        ("booster_war", &variants),
        ("factions", &factions),
        ("heroes", &heroes),
        ("card_effects", &cards),
    ] {
        out.write_csv(&format!("{name}.csv"), t)?;
        out.write_parquet(&format!("{name}.parquet"), t)?;
    }
    out.write_bytes(
        "meta.json",
        (serde_json::to_string_pretty(&meta).expect("serializes") + "\n").as_bytes(),
    )?;
    Ok(())
}

/// The one policy of both players (the policies `matchup` accepts).
fn single_policy(name: &str) -> Result<PolicySpec> {
    let mut specs = load::head_to_head_policies(&[name.to_string()], "booster-war")?;
    Ok(specs.remove(0))
}

/// Booster cards of the pool (Heroes included) whose abilities are not all encoded.
fn not_exact(lib: &Library, pool: &BoosterPool) -> usize {
    pool.heroes
        .iter()
        .chain(&pool.commons)
        .chain(&pool.rares)
        .filter(|&&c| !lib.db.card(c).coverage.is_exact())
        .count()
}

/// Everything the tables are made from.
pub struct Ctx<'a> {
    pub lib: &'a Library,
    pub pool: &'a BoosterPool,
    pub set: &'a str,
    pub policy: String,
    pub builds: &'a [Build],
    pub tallies: &'a [WarTally],
    pub seed: u64,
    pub day_cap: u8,
}

/// A rate, NaN when there is nothing to count.
pub fn rate(k: u64, n: u64) -> f64 {
    if n == 0 {
        f64::NAN
    } else {
        k as f64 / n as f64
    }
}

/// One row per variant: who won, the first player's advantage, how games ended.
fn variants_table(c: &Ctx<'_>) -> Table {
    let t = c.tallies;
    let k = t.len();
    let first: Vec<_> = t
        .iter()
        .map(|x| wilson(x.first_wins, x.games, LEVEL))
        .collect();
    let u64s = |f: &dyn Fn(&WarTally) -> u64| ColumnData::U64(t.iter().map(f).collect());
    let f64s = |f: &dyn Fn(&WarTally) -> f64| ColumnData::F64(t.iter().map(f).collect());
    let mut tab = Table::new();
    tab.push(
        "schema_version",
        ColumnData::U32(vec![WAR_SCHEMA_VERSION; k]),
    )
    .push(
        "variant",
        ColumnData::Str(c.builds.iter().map(|b| b.name().to_string()).collect()),
    )
    .push("set", ColumnData::Str(vec![c.set.to_string(); k]))
    .push("policy", ColumnData::Str(vec![c.policy.clone(); k]))
    .push("games", u64s(&|x| x.games))
    .push("seat_a_wins", u64s(&|x| x.wins[0]))
    .push("seat_b_wins", u64s(&|x| x.wins[1]))
    .push("draws", u64s(&|x| x.draws))
    .push("first_player_wins", u64s(&|x| x.first_wins))
    .push(
        "first_player_win_rate",
        ColumnData::F64(first.iter().map(|i| i.estimate).collect()),
    )
    .push(
        "first_player_win_rate_lo",
        ColumnData::F64(first.iter().map(|i| i.lo).collect()),
    )
    .push(
        "first_player_win_rate_hi",
        ColumnData::F64(first.iter().map(|i| i.hi).collect()),
    )
    .push("days_mean", f64s(&|x| x.days_mean()))
    .push("extra_day_games", u64s(&|x| x.extra_day))
    .push("arena_games", u64s(&|x| x.arena))
    .push("cards_played_mean", f64s(&|x| rate(x.plays, 2 * x.games)))
    .push("engine_errors", u64s(&|x| x.engine_errors.count))
    .push("seed", ColumnData::U64(vec![c.seed; k]))
    .push("day_cap", ColumnData::U32(vec![c.day_cap as u32; k]));
    tab
}

/// One row per variant and ordered pair of Hero factions that met, from the first
/// faction's side. A mirror pair counts each game twice, once from each side.
fn factions_table(c: &Ctx<'_>) -> Table {
    let n = FACTIONS.len() + 1;
    let name = |i: usize| FACTIONS.get(i).map_or("other", |f| f.code()).to_string();
    let mut rows = Vec::new();
    for (b, t) in c.builds.iter().zip(c.tallies) {
        for i in 0..n {
            for j in 0..n {
                let w = t.factions[i * n + j];
                if w.games > 0 {
                    rows.push((*b, name(i), name(j), w));
                }
            }
        }
    }
    let iv: Vec<_> = rows
        .iter()
        .map(|r| wilson(r.3.wins, r.3.games, LEVEL))
        .collect();
    let mut tab = Table::new();
    tab.push(
        "schema_version",
        ColumnData::U32(vec![WAR_SCHEMA_VERSION; rows.len()]),
    )
    .push(
        "variant",
        ColumnData::Str(rows.iter().map(|r| r.0.name().to_string()).collect()),
    )
    .push(
        "faction_a",
        ColumnData::Str(rows.iter().map(|r| r.1.clone()).collect()),
    )
    .push(
        "faction_b",
        ColumnData::Str(rows.iter().map(|r| r.2.clone()).collect()),
    )
    .push(
        "games",
        ColumnData::U64(rows.iter().map(|r| r.3.games).collect()),
    )
    .push(
        "wins_a",
        ColumnData::U64(rows.iter().map(|r| r.3.wins).collect()),
    )
    .push(
        "wins_b",
        ColumnData::U64(rows.iter().map(|r| r.3.losses()).collect()),
    )
    .push(
        "draws",
        ColumnData::U64(rows.iter().map(|r| r.3.draws).collect()),
    )
    .push(
        "win_rate_a",
        ColumnData::F64(iv.iter().map(|i| i.estimate).collect()),
    )
    .push(
        "win_rate_a_lo",
        ColumnData::F64(iv.iter().map(|i| i.lo).collect()),
    )
    .push(
        "win_rate_a_hi",
        ColumnData::F64(iv.iter().map(|i| i.hi).collect()),
    );
    tab
}

/// One row per variant and Hero of the set, best win rate first.
fn heroes_table(c: &Ctx<'_>) -> Table {
    let db = &c.lib.db;
    let mut rows = Vec::new();
    for (b, t) in c.builds.iter().zip(c.tallies) {
        let mut v: Vec<_> = c
            .pool
            .heroes
            .iter()
            .zip(&t.heroes)
            .map(|(&h, w)| (*b, h, *w, wilson(w.wins, w.games, LEVEL)))
            .collect();
        v.sort_by(|x, y| y.3.estimate.total_cmp(&x.3.estimate).then(x.1.cmp(&y.1)));
        rows.extend(v);
    }
    let strs = |f: &dyn Fn(&HeroRow) -> String| ColumnData::Str(rows.iter().map(f).collect());
    let mut tab = Table::new();
    tab.push(
        "schema_version",
        ColumnData::U32(vec![WAR_SCHEMA_VERSION; rows.len()]),
    )
    .push("variant", strs(&|r| r.0.name().to_string()))
    .push("hero", strs(&|r| db.card(r.1).name.clone()))
    .push("reference", strs(&|r| db.card(r.1).reference.clone()))
    .push(
        "faction",
        strs(&|r| db.card(r.1).faction.code().to_string()),
    )
    .push(
        "games",
        ColumnData::U64(rows.iter().map(|r| r.2.games).collect()),
    )
    .push(
        "wins",
        ColumnData::U64(rows.iter().map(|r| r.2.wins).collect()),
    )
    .push(
        "losses",
        ColumnData::U64(rows.iter().map(|r| r.2.losses()).collect()),
    )
    .push(
        "draws",
        ColumnData::U64(rows.iter().map(|r| r.2.draws).collect()),
    )
    .push(
        "win_rate",
        ColumnData::F64(rows.iter().map(|r| r.3.estimate).collect()),
    )
    .push(
        "win_rate_lo",
        ColumnData::F64(rows.iter().map(|r| r.3.lo).collect()),
    )
    .push(
        "win_rate_hi",
        ColumnData::F64(rows.iter().map(|r| r.3.hi).collect()),
    );
    tab
}

/// A card's effect when played: the win rate of the sides that played it minus that of
/// every other side of the variant, with a normal-approximation interval on the
/// difference.
#[derive(Copy, Clone, Debug)]
struct Effect {
    played: f64,
    not_played: f64,
    effect: f64,
    lo: f64,
    hi: f64,
}

fn effect(wins_played: u64, played: u64, wins_all: u64, sides: u64) -> Effect {
    let (n1, n2) = (played, sides - played);
    let p1 = rate(wins_played, n1);
    let p2 = rate(wins_all - wins_played, n2);
    let d = p1 - p2;
    let se = (p1 * (1.0 - p1) / n1 as f64 + p2 * (1.0 - p2) / n2 as f64).sqrt();
    Effect {
        played: p1,
        not_played: p2,
        effect: d,
        lo: d - Z * se,
        hi: d + Z * se,
    }
}

/// One row per variant and booster card that came out at least once, largest effect
/// first.
fn cards_table(c: &Ctx<'_>) -> Table {
    let db = &c.lib.db;
    let all: Vec<CardIdx> = c
        .pool
        .commons
        .iter()
        .chain(&c.pool.rares)
        .copied()
        .collect();
    let mut rows = Vec::new();
    for (b, t) in c.builds.iter().zip(c.tallies) {
        let sides = 2 * t.games;
        let wins_all = t.wins[0] + t.wins[1];
        let mut v: Vec<_> = all
            .iter()
            .zip(&t.cards)
            .filter(|(_, ct)| ct.held > 0)
            .map(|(&card, ct)| {
                (
                    *b,
                    card,
                    *ct,
                    effect(ct.wins_played, ct.played, wins_all, sides),
                )
            })
            .collect();
        // Largest effect first; cards never played (no effect to measure) last.
        v.sort_by(|x, y| {
            let key = |e: f64| if e.is_nan() { f64::NEG_INFINITY } else { e };
            key(y.3.effect)
                .total_cmp(&key(x.3.effect))
                .then(x.1.cmp(&y.1))
        });
        rows.extend(v);
    }
    let strs = |f: &dyn Fn(&CardRow) -> String| ColumnData::Str(rows.iter().map(f).collect());
    let f64s = |f: &dyn Fn(&Effect) -> f64| ColumnData::F64(rows.iter().map(|r| f(&r.3)).collect());
    let mut tab = Table::new();
    tab.push(
        "schema_version",
        ColumnData::U32(vec![WAR_SCHEMA_VERSION; rows.len()]),
    )
    .push("variant", strs(&|r| r.0.name().to_string()))
    .push("reference", strs(&|r| db.card(r.1).reference.clone()))
    .push("name", strs(&|r| db.card(r.1).name.clone()))
    .push(
        "faction",
        strs(&|r| db.card(r.1).faction.code().to_string()),
    )
    .push("rarity", strs(&|r| db.card(r.1).rarity.name().to_string()))
    .push("type", strs(&|r| db.card(r.1).kind.name().to_string()))
    .push(
        "hand_cost",
        ColumnData::U32(rows.iter().map(|r| db.card(r.1).hand_cost as u32).collect()),
    )
    .push(
        "held",
        ColumnData::U64(rows.iter().map(|r| r.2.held).collect()),
    )
    .push(
        "played",
        ColumnData::U64(rows.iter().map(|r| r.2.played).collect()),
    )
    .push(
        "play_rate",
        ColumnData::F64(rows.iter().map(|r| rate(r.2.played, r.2.held)).collect()),
    )
    .push(
        "win_rate_held",
        ColumnData::F64(rows.iter().map(|r| rate(r.2.wins_held, r.2.held)).collect()),
    )
    .push("win_rate_played", f64s(&|e| e.played))
    .push("win_rate_not_played", f64s(&|e| e.not_played))
    .push("effect", f64s(&|e| e.effect))
    .push("effect_lo", f64s(&|e| e.lo))
    .push("effect_hi", f64s(&|e| e.hi));
    tab
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_played_by_winners_has_a_positive_effect() {
        // 100 sides played it and won 70; of the other 900 sides, 380 won (450 in all).
        let e = effect(70, 100, 450, 1000);
        assert!((e.played - 0.7).abs() < 1e-12);
        assert!((e.not_played - 380.0 / 900.0).abs() < 1e-12);
        assert!(e.lo > 0.0 && e.hi > e.effect && e.effect > e.lo);
        // Nobody played it: no effect to speak of.
        assert!(effect(0, 0, 450, 1000).effect.is_nan());
    }
}
