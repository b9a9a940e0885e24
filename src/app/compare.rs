//! `confluence-sim compare`: policies played on the same games (same game indices, so the
//! same adventures, deck orders and dice), each compared game by game with the first.
//!
//! It answers "how much does a stronger player win?" and "has the search converged?"
//! (`--policy search --policy search:rollouts=24 --policy search:rollouts=48`) with paired
//! intervals, which are far narrower than the difference of two independent intervals.
//! Each policy is compared with the first (`diff`) and with the one listed just before it
//! (`diff_prev`): with budgets in doubling order, the latter is what each doubling gains.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};

use super::cli::CompareArgs;
use crate::deck::{PlayerDeck, RareMix};
use crate::export::{ColumnData, OutputDir, Table};
use crate::job::outputs::{Guard, output_dir};
use crate::job::plan::{default_threads, progress_bar};
use crate::job::summary::{NO_VARIATION, NO_VARIATION_NOTE, WinRateColumns, signed, width};
use crate::job::{load, mixes};
use crate::policy::PolicySpec;
use crate::sim::{ConfigSpec, GameRow, RunPlan};
use crate::stats::interval::{paired, paired_bounds, wilson};

pub const COMPARE_SCHEMA_VERSION: u32 = 5;

/// One policy on one deck and mix.
struct Row {
    deck: String,
    hero: String,
    mix: RareMix,
    policy: String,
    games: u64,
    wins: u64,
    /// Paired difference from the first policy (mean, standard error), if not the first.
    diff: Option<(f64, f64)>,
    /// Paired difference from the policy listed just before, if not the first.
    diff_prev: Option<(f64, f64)>,
    seconds: f64,
    /// Taken from `--reuse`'s games instead of played.
    reused: bool,
    /// Games with an engine error, and the first one's index.
    engine_errors: (u64, Option<u64>),
}

/// Each game of a row: won, and whether the engine failed in it.
type Games = (Vec<bool>, Vec<bool>);

pub fn compare(a: CompareArgs) -> Result<()> {
    let mut m = a.m.clone();
    if m.players.is_empty() {
        m.players = load::STARTERS.iter().map(Into::into).collect();
    }
    if m.policies.len() + usize::from(m.calibrated.is_some()) < 2 {
        return Err(crate::job::error::usage(
            "compare needs at least two --policy (the first is the baseline), or one and --players",
        ));
    }
    if a.games < 2 {
        return Err(crate::job::error::usage(format!(
            "--games {}: must be at least 2 (a paired difference needs two games)",
            a.games
        )));
    }
    let loaded = load::load(&(&m).into())?;
    for w in &loaded.warnings {
        eprintln!("confluence-sim: warning: {w}");
    }
    let mixes = mixes::named_or_ends(
        &loaded.confluence,
        &loaded.lib.db,
        &m.rares,
        &m.rare_sets,
        m.subsets,
        a.seed,
    )?;
    let threads = default_threads(a.threads)?;
    let weights = load::weights_label(m.expert_weights.as_deref());
    let hashes = ModelHashes::of(m.expert_weights.as_deref(), m.value_weights.as_deref())?;
    let reuse = match &a.reuse {
        // Refreshing a directory in place (`--reuse DIR --out DIR`) from nothing, as a
        // regeneration does after removing it: no games to take, every game played. A
        // missing directory that is not --out stays an error (a mistyped path would
        // otherwise replay everything without a word).
        Some(dir) if !dir.exists() && dir == &a.out => {
            if !a.quiet {
                eprintln!(
                    "confluence-sim: --reuse {}: no such directory yet, the --out of this run: every game is played",
                    dir.display()
                );
            }
            Reused::default()
        }
        Some(dir) => {
            let value = load::weights_label(m.value_weights.as_deref());
            Reused::read(
                dir,
                a.seed,
                m.day_cap,
                &loaded.confluence.name,
                [&weights, &value],
                &hashes,
            )?
        }
        None => Reused::default(),
    };
    // Check --out before anything runs; the outputs replace it whole at the end.
    drop(output_dir(&a.out, Guard::PLAIN)?);
    let pb = progress_bar(
        a.games * (loaded.players.len() * mixes.len() * loaded.policies.len()) as u64,
        a.quiet,
    );
    let mut rows = Vec::new();
    let mut games = GameTable::default();
    for (di, deck) in loaded.players.iter().enumerate() {
        for &mix in &mixes {
            // Each policy's wins, game by game, in the order the policies are listed.
            let mut runs: Vec<Vec<bool>> = Vec::new();
            for (pi, spec) in loaded.policies.iter().enumerate() {
                let policy = spec.to_string();
                let kept = reuse.games(&deck.name, mix, spec, a.games);
                let reused = kept.is_some();
                let ((won, failed), seconds) = match kept {
                    Some(games) => {
                        pb.inc(a.games);
                        (games, 0.0)
                    }
                    None => play(
                        &loaded, di, pi, mix, a.games, a.seed, threads, m.day_cap, &pb,
                    )?,
                };
                rows.push(Row {
                    deck: deck.name.clone(),
                    hero: loaded.lib.db.card(deck.hero).name.clone(),
                    mix,
                    policy,
                    games: won.len() as u64,
                    wins: won.iter().filter(|&&w| w).count() as u64,
                    diff: runs.first().map(|base| paired(base, &won)),
                    diff_prev: runs.last().map(|prev| paired(prev, &won)),
                    seconds,
                    reused,
                    engine_errors: (
                        failed.iter().filter(|&&f| f).count() as u64,
                        failed.iter().position(|&f| f).map(|g| g as u64),
                    ),
                });
                games.push(&rows[rows.len() - 1], &won, &failed);
                runs.push(won);
            }
        }
    }
    pb.finish_and_clear();
    warn_engine_errors(&rows, a.seed);
    let t = table(
        &rows,
        &loaded.policies[0].to_string(),
        a.seed,
        threads,
        &weights,
    );
    let mut out = OutputDir::new(&a.out).with_context(|| format!("--out {}", a.out.display()))?;
    out.write_csv("compare.csv", &t)?;
    out.write_parquet("compare.parquet", &t)?;
    out.write_csv("games.csv", &games.table())?;
    let meta = crate::job::meta::command_meta(
        "compare",
        serde_json::json!({
            "seed": a.seed,
            "games": a.games,
            "day_cap": m.day_cap,
            "threads": threads,
            "policies": loaded.policies.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            "resolved_policies": loaded
                .policies
                .iter()
                .map(|p| (p.to_string(), serde_json::Value::String(p.resolved())))
                .collect::<serde_json::Map<_, _>>(),
            "decks": loaded.players.iter().map(|d| d.name.clone()).collect::<Vec<_>>(),
            "rare_counts": mixes.iter().map(|x| x.count()).collect::<Vec<_>>(),
            "confluence_deck": loaded.confluence.name,
            "expert_weights": m.expert_weights.as_ref().map(|p| p.display().to_string()),
            "expert_weights_label": weights,
            "value_weights": load::weights_label(m.value_weights.as_deref()),
            // The content hashes of the models the policies read, the embedded ones
            // included: `--reuse` replays the policies whose model changed since.
            "model_hashes": {
                "expert": hashes.expert,
                "value": hashes.value,
                "pnet": hashes.pnet,
                "net_value": hashes.net_value,
            },
            "reuse": a.reuse.as_ref().map(|p| p.display().to_string()),
            "games_version": crate::sim::GAMES_VERSION,
            "edits": crate::job::meta::edit_strings(&loaded.edits),
        }),
    );
    out.write_bytes("meta.json", &crate::job::meta::to_bytes(&meta))?;
    let written = out.commit()?;
    if !a.quiet {
        print(&rows, threads);
    }
    eprintln!(
        "confluence-sim: wrote {} files in {}",
        written.len(),
        a.out.display()
    );
    Ok(())
}

/// Plays one (deck, policy, mix) and returns each game's win, in game order, and the
/// seconds it took.
#[allow(clippy::too_many_arguments)]
fn play(
    loaded: &load::Loaded,
    player: usize,
    policy: usize,
    mix: RareMix,
    games: u64,
    seed: u64,
    threads: usize,
    day_cap: u8,
    pb: &indicatif::ProgressBar,
) -> Result<(Games, f64)> {
    let players: &[PlayerDeck] = &loaded.players;
    let plan = RunPlan {
        db: &loaded.lib.db,
        players,
        confluence: &loaded.confluence,
        policies: &loaded.policies,
        configs: vec![ConfigSpec {
            player,
            policy,
            mix,
        }],
        games,
        first_game: 0,
        seed,
        threads,
        day_cap,
        models: loaded.models(),
    };
    let mut won = Vec::with_capacity(games as usize);
    let mut failed = Vec::with_capacity(games as usize);
    let started = Instant::now();
    let mut sink = |rows: &[GameRow]| -> Result<(), String> {
        won.extend(rows.iter().map(|r| r.outcome.is_win()));
        failed.extend(rows.iter().map(|r| r.engine_error));
        Ok(())
    };
    crate::sim::run::<String>(&plan, &|n| pb.inc(n), Some(&mut sink))
        .map_err(|e| anyhow::anyhow!(e))?;
    Ok(((won, failed), started.elapsed().as_secs_f64()))
}

/// Names on stderr the games some row counts that had an engine error, as `run` does (a
/// reused row's come from its `games.csv`).
fn warn_engine_errors(rows: &[Row], seed: u64) {
    let accums: Vec<crate::stats::Accum> = rows
        .iter()
        .map(|r| {
            let mut a = crate::stats::Accum::default();
            (a.engine_errors, a.first_engine_error) =
                (r.engine_errors.0, r.engine_errors.1.unwrap_or(u64::MAX));
            a
        })
        .collect();
    let name = |i: usize| {
        let r = &rows[i];
        format!(
            "player deck {}, policy {}, --rares {}, --seed {seed}",
            r.deck,
            r.policy,
            r.mix.count()
        )
    };
    if let Some(note) = crate::job::plan::engine_error_note(&accums, "compare", name) {
        eprintln!("confluence-sim: {note}");
    }
}

/// Every game's result, for `games.csv`: what a later `--reuse` reads.
#[derive(Default)]
struct GameTable {
    deck: Vec<String>,
    mix: Vec<u32>,
    policy: Vec<String>,
    index: Vec<u64>,
    won: Vec<u32>,
    engine_error: Vec<u32>,
}

impl GameTable {
    fn push(&mut self, row: &Row, won: &[bool], failed: &[bool]) {
        self.engine_error.extend(failed.iter().map(|&f| f as u32));
        for (g, &w) in won.iter().enumerate() {
            self.deck.push(row.deck.clone());
            self.mix.push(row.mix.0 as u32);
            self.policy.push(row.policy.clone());
            self.index.push(g as u64);
            self.won.push(w as u32);
        }
    }

    fn table(self) -> Table {
        let n = self.won.len();
        let mut t = Table::new();
        t.push(
            "schema_version",
            ColumnData::U32(vec![COMPARE_SCHEMA_VERSION; n]),
        )
        .push("player_deck", ColumnData::Str(self.deck))
        .push("rare_mix", ColumnData::U32(self.mix))
        .push("policy", ColumnData::Str(self.policy))
        .push("game_index", ColumnData::U64(self.index))
        .push("won", ColumnData::U32(self.won))
        .push("engine_error", ColumnData::U32(self.engine_error));
        t
    }
}

/// The content hashes (blake3) of the expert weights and the value model a run reads: the
/// files given, or the committed ones the binary embeds.
struct ModelHashes {
    expert: String,
    value: String,
    /// The policy network (`expert:net=1`, `search:net=N`): always the embedded one.
    pnet: String,
    /// The value model of the network's games (`search:net=N`, N & 4): the embedded one.
    net_value: String,
}

impl ModelHashes {
    fn of(expert: Option<&Path>, value: Option<&Path>) -> Result<ModelHashes> {
        let hash = |p: Option<&Path>, embedded: &str| -> Result<String> {
            let bytes = match p {
                Some(p) => {
                    std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?
                }
                None => embedded.as_bytes().to_vec(),
            };
            Ok(blake3::hash(&bytes).to_hex().to_string())
        };
        Ok(ModelHashes {
            expert: hash(expert, crate::policy::expert::WEIGHTS_TOML)?,
            value: hash(value, crate::policy::value::VALUE_TOML)?,
            pnet: hash(None, crate::policy::pnet::PNET_TOML)?,
            net_value: hash(None, crate::policy::value::NET_VALUE_TOML)?,
        })
    }
}

/// The games of an earlier compare (`--reuse DIR`), by deck, mix and policy.
#[derive(Default)]
struct Reused {
    games: std::collections::HashMap<(String, u16, String), Games>,
    /// The earlier run read another value model (`--value-weights`, another committed one,
    /// or one it did not record): the games of the policies that read it are played again.
    value_differs: bool,
    /// The earlier run's expert weights had another content hash: the games of the
    /// policies that read them are played again.
    expert_differs: bool,
    /// The earlier run read another policy network, or did not record which (before
    /// 2026-11-27): the games of the policies that read it are played again.
    pnet_differs: bool,
    /// The earlier run read another value model of the network's games, or none (before
    /// 2026-11-27): the games of the policies that read it are played again.
    net_value_differs: bool,
    /// Each policy of the earlier run with its parameters written out
    /// ([`crate::policy::PolicySpec::resolved`]); `None` for a directory written before compare recorded
    /// them, whose specs are read as those versions read them.
    resolved: Option<std::collections::HashMap<String, String>>,
}

impl Reused {
    /// Reads `dir/games.csv`, after checking with `dir/meta.json` that its games are this
    /// run's: the same seed, day cap, Confluence deck and expert weights.
    fn read(
        dir: &Path,
        seed: u64,
        day_cap: u8,
        confluence: &str,
        [weights, value]: [&str; 2],
        hashes: &ModelHashes,
    ) -> Result<Reused> {
        let meta_path = dir.join("meta.json");
        let text = std::fs::read_to_string(&meta_path)
            .with_context(|| format!("--reuse: {}", meta_path.display()))?;
        let meta: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("--reuse: {}: not JSON", meta_path.display()))?;
        if meta["kind"] != "compare" {
            anyhow::bail!(
                "--reuse: {} is not a compare's meta.json (kind {})",
                meta_path.display(),
                meta["kind"]
            );
        }
        let label = |key: &str| meta[key].as_str().unwrap_or("").to_string();
        // Games of another version of the simulator are not this binary's games, whatever
        // their settings (a compare before version 2 recorded none: version 1).
        let version = meta["games_version"].as_u64().unwrap_or(1);
        let checks = [
            (
                "games version",
                version.to_string(),
                crate::sim::GAMES_VERSION.to_string(),
            ),
            ("--seed", meta["seed"].to_string(), seed.to_string()),
            (
                "--day-cap",
                meta["day_cap"].to_string(),
                day_cap.to_string(),
            ),
            (
                "the Confluence deck",
                meta["confluence_deck"].as_str().unwrap_or("").to_string(),
                confluence.to_string(),
            ),
            (
                "the expert weights",
                label("expert_weights_label"),
                weights.to_string(),
            ),
        ];
        for (what, theirs, ours) in checks {
            if theirs != ours {
                return Err(crate::job::error::usage(format!(
                    "--reuse {}: its games were played with {what} {theirs}, this run has \
                     {ours}; the games would not be the same",
                    dir.display()
                )));
            }
        }
        let path = dir.join("games.csv");
        let mut r = csv::Reader::from_path(&path).with_context(|| {
            format!(
                "--reuse: {} (written by compare since schema 4)",
                path.display()
            )
        })?;
        // Schema 4 had no `engine_error` column: its games count as none failed (the
        // engine's queue overflow was not recorded then).
        let want = [
            "schema_version",
            "player_deck",
            "rare_mix",
            "policy",
            "game_index",
            "won",
            "engine_error",
        ];
        let header = r
            .headers()
            .with_context(|| format!("--reuse: {}", path.display()))?;
        if header.iter().ne(want) && header.iter().ne(want[..6].iter().copied()) {
            anyhow::bail!(
                "--reuse: {}: columns {:?}, expected {:?}",
                path.display(),
                header.iter().collect::<Vec<_>>(),
                want
            );
        }
        let mut games: std::collections::HashMap<(String, u16, String), Games> = Default::default();
        for (i, rec) in r.records().enumerate() {
            let line = i + 2;
            let rec = rec.with_context(|| format!("--reuse: {} line {line}", path.display()))?;
            let bad = |what: &str, v: &str| {
                anyhow::anyhow!(
                    "--reuse: {} line {line}: {what} '{v}' is not valid",
                    path.display()
                )
            };
            let mix: u16 = rec[2].parse().map_err(|_| bad("rare_mix", &rec[2]))?;
            let index: u64 = rec[4].parse().map_err(|_| bad("game_index", &rec[4]))?;
            let bit = |k: usize, what: &str| match rec.get(k) {
                None | Some("0") => Ok(false),
                Some("1") => Ok(true),
                Some(v) => Err(bad(what, v)),
            };
            let won = bit(5, "won (0 or 1)")?;
            let failed = bit(6, "engine_error (0 or 1)")?;
            let v = games
                .entry((rec[1].to_string(), mix, rec[3].to_string()))
                .or_default();
            if index != v.0.len() as u64 {
                anyhow::bail!(
                    "--reuse: {} line {line}: game_index {index}, expected {} (games in order from 0)",
                    path.display(),
                    v.0.len()
                );
            }
            v.0.push(won);
            v.1.push(failed);
        }
        // A directory written before compare recorded the models' hashes: its value model
        // is unknown (the committed one changed since), so the policies that read it are
        // played again; its expert is taken as this binary's (replaying every expert
        // rollout would replay nearly everything).
        let hash = |key: &str| meta["model_hashes"][key].as_str().map(str::to_string);
        let value_differs = label("value_weights") != value
            || hash("value").as_deref() != Some(hashes.value.as_str());
        let expert_differs = hash("expert").is_some_and(|h| h != hashes.expert);
        let pnet_differs = hash("pnet").as_deref() != Some(hashes.pnet.as_str());
        let net_value_differs = hash("net_value").as_deref() != Some(hashes.net_value.as_str());
        let resolved = meta["resolved_policies"].as_object().map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                .collect()
        });
        Ok(Reused {
            games,
            value_differs,
            expert_differs,
            pnet_differs,
            net_value_differs,
            resolved,
        })
    }

    /// The first `n` games of a deck, mix and policy, if the earlier run played that many
    /// with the same models.
    fn games(&self, deck: &str, mix: RareMix, policy: &PolicySpec, n: u64) -> Option<Games> {
        if (self.value_differs && policy.uses_value())
            || (self.expert_differs && policy.uses_expert())
            || (self.pnet_differs && policy.uses_pnet())
            || (self.net_value_differs && policy.uses_net_value())
        {
            return None;
        }
        // The same spec with other defaults is another player: its games are played again.
        let theirs = match &self.resolved {
            Some(m) => m.get(&policy.to_string())?.clone(),
            None => policy.resolved_before_rank(),
        };
        if theirs != policy.resolved() {
            return None;
        }
        let v = self
            .games
            .get(&(deck.to_string(), mix.0, policy.to_string()))?;
        let n = n as usize;
        (v.0.len() >= n).then(|| (v.0[..n].to_vec(), v.1[..n].to_vec()))
    }
}

fn table(rows: &[Row], baseline: &str, seed: u64, threads: usize, weights: &str) -> Table {
    let n = rows.len();
    let z = 1.959964;
    let iv: Vec<_> = rows.iter().map(|r| wilson(r.wins, r.games, 0.95)).collect();
    // The baseline's paired differences are exactly 0 (its own games). A difference whose
    // games show no variation has no interval (null), never a zero-width one.
    let column = |of: &dyn Fn(&Row) -> Option<(f64, f64)>, f: &dyn Fn(f64, f64) -> f64| {
        ColumnData::F64(
            rows.iter()
                .map(|r| of(r).map_or(0.0, |(d, se)| f(d, se)))
                .collect(),
        )
    };
    let bound = |k: f64| {
        move |d: f64, se: f64| match paired_bounds((d, se), z) {
            Some((lo, hi)) => {
                if k < 0.0 {
                    lo
                } else {
                    hi
                }
            }
            None => f64::NAN,
        }
    };
    let first = |r: &Row| r.diff;
    let prev = |r: &Row| r.diff_prev;
    let mut t = Table::new();
    t.push(
        "schema_version",
        ColumnData::U32(vec![COMPARE_SCHEMA_VERSION; n]),
    )
    .push(
        "player_deck",
        ColumnData::Str(rows.iter().map(|r| r.deck.clone()).collect()),
    )
    .push(
        "player_hero",
        ColumnData::Str(rows.iter().map(|r| r.hero.clone()).collect()),
    )
    .push(
        "rare_count",
        ColumnData::U32(rows.iter().map(|r| r.mix.count()).collect()),
    )
    .push(
        "policy",
        ColumnData::Str(rows.iter().map(|r| r.policy.clone()).collect()),
    )
    .push("baseline", ColumnData::Str(vec![baseline.to_string(); n]))
    .push(
        "games",
        ColumnData::U64(rows.iter().map(|r| r.games).collect()),
    )
    .push(
        "wins",
        ColumnData::U64(rows.iter().map(|r| r.wins).collect()),
    )
    .push_win_rates(&iv)
    .push("diff", column(&first, &|d, _| d))
    .push("diff_lo", column(&first, &bound(-1.0)))
    .push("diff_hi", column(&first, &bound(1.0)))
    .push("diff_prev", column(&prev, &|d, _| d))
    .push("diff_prev_lo", column(&prev, &bound(-1.0)))
    .push("diff_prev_hi", column(&prev, &bound(1.0)))
    .push(
        "engine_errors",
        ColumnData::U64(rows.iter().map(|r| r.engine_errors.0).collect()),
    )
    .push(
        "games_per_second",
        ColumnData::F64(
            rows.iter()
                .map(|r| {
                    if r.reused {
                        0.0
                    } else {
                        r.games as f64 / r.seconds.max(1e-9)
                    }
                })
                .collect(),
        ),
    )
    .push("threads", ColumnData::U32(vec![threads as u32; n]))
    .push("seed", ColumnData::U64(vec![seed; n]))
    .push(
        "expert_weights",
        ColumnData::Str(vec![weights.to_string(); n]),
    )
    .push(
        "reused",
        ColumnData::Bool(rows.iter().map(|r| r.reused).collect()),
    );
    t
}

fn print(rows: &[Row], threads: usize) {
    // Columns as wide as their widest value: a long hero name or policy spec keeps them.
    let hw = width("hero", rows.iter().map(|r| r.hero.as_str())).max(24);
    let pw = width("policy", rows.iter().map(|r| r.policy.as_str())).max(28);
    println!(
        "{:<hw$} {:>5} {:<pw$} {:>6} {:>7} {:>17} {:>27} {:>27} {:>10}",
        "hero",
        "rares",
        "policy",
        "games",
        "win",
        "95% interval",
        "minus the first (paired 95%)",
        "minus the previous",
        "games/s/c"
    );
    for r in rows {
        let i = wilson(r.wins, r.games, 0.95);
        let diff = |d: Option<(f64, f64)>| match d {
            Some(d) => match paired_bounds(d, 1.959964) {
                Some((lo, hi)) => format!(
                    "{:>7}pp [{:>6}, {:>6}]",
                    signed(d.0 * 100.0),
                    signed(lo * 100.0),
                    signed(hi * 100.0)
                ),
                None => format!("{:>7}pp {:>17}", signed(d.0 * 100.0), NO_VARIATION),
            },
            None => format!("{:>27}", "base"),
        };
        println!(
            "{:<hw$} {:>5} {:<pw$} {:>6} {:>6.1}% [{:>5.1}%, {:>5.1}%] {} {} {:>10}",
            r.hero,
            r.mix.count(),
            r.policy,
            r.games,
            i.estimate * 100.0,
            i.lo * 100.0,
            i.hi * 100.0,
            diff(r.diff),
            diff(r.diff_prev),
            if r.reused {
                "reused".to_string()
            } else {
                format!(
                    "{:.0}",
                    r.games as f64 / r.seconds.max(1e-9) / threads as f64
                )
            }
        );
    }
    let flat = |d: Option<(f64, f64)>| d.is_some_and(|d| paired_bounds(d, 1.96).is_none());
    if rows.iter().any(|r| flat(r.diff) || flat(r.diff_prev)) {
        println!("{NO_VARIATION_NOTE}");
    }
}
