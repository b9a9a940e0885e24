//! `confluence-sim calibrate DIR...`: game records (people's from `play`, simulated
//! players' from `replay --json`) grouped by player; each decision a player faced
//! re-evaluated from the view the player had, and the skill `t` of the quantal-response
//! player (`skill:t=T`) fitted to the choices by maximum likelihood; how often each ladder
//! rung would have chosen the same, the value given away, the costliest decisions, and the
//! player's wins against what `skill:t=T̂` wins on the same deals.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use serde::Serialize;
use serde_json::json;

use super::cli::CalibrateArgs;
use super::records::{self, Dealt};
use super::selfplay::each_task;
use crate::engine::ChoiceList;
use crate::policy::skill::Evaluator;
use crate::policy::{Policy, PolicyError, PolicyRng, PolicySpec};
use crate::record::{Mode, Record};
use crate::sim::seed::splitmix64;
use crate::stats::interval::wilson;
use crate::stats::skill_fit::{FitDecision, bootstrap, fit, given_away};

/// The rungs whose choices are compared with the player's, weakest first.
pub const RUNGS: [&str; 4] = ["greedy", "planner", "expert", "fastsearch"];

/// One decision of a player, re-evaluated.
#[derive(Clone, Debug)]
struct Evaluated {
    file: usize,
    n: u32,
    day: u32,
    kind: String,
    /// Each option's value, in points of win probability (0 to 100).
    values: Vec<f64>,
    legal: Vec<String>,
    chosen: usize,
    /// Per rung: did it choose the same option?
    agree: [bool; RUNGS.len()],
}

/// What one record gave.
struct PerRecord {
    player: String,
    decisions: Vec<Evaluated>,
    finished: bool,
    won: bool,
    /// The record's deal, where the skill player plays it.
    dealt: Dealt,
}

/// A whole player's calibration, as calibration.json keeps it.
#[derive(Serialize, Clone, Debug)]
pub struct PlayerCalibration {
    pub player: String,
    pub games: usize,
    pub finished: usize,
    pub wins: usize,
    pub decisions: usize,
    pub informative: usize,
    pub t: f64,
    pub t_lo: f64,
    pub t_hi: f64,
    /// A percentile bootstrap interval over whole games (`--bootstrap` resamples), NaN with
    /// fewer than two games.
    pub t_boot_lo: f64,
    pub t_boot_hi: f64,
    /// Top-1 agreement per rung: (rung, share, lo, hi).
    pub agreement: Vec<(String, f64, f64, f64)>,
    pub given_away: f64,
    pub given_away_lo: f64,
    pub given_away_hi: f64,
    pub skill_wins: usize,
    /// Decisions more needed for an interval on t narrower than the target width, if any.
    pub more_decisions: Option<usize>,
    pub worst: Vec<serde_json::Value>,
}

fn rng_for(seed: u64, game: u64, n: u32, salt: u64) -> PolicyRng {
    <PolicyRng as rand::SeedableRng>::seed_from_u64(splitmix64(
        seed ^ splitmix64(game ^ splitmix64(u64::from(n) ^ salt)),
    ))
}

pub fn calibrate(a: CalibrateArgs) -> Result<()> {
    let files = records::files(&a.dirs)?;
    if files.is_empty() {
        bail!(
            "no game records (*.jsonl) in {}",
            a.dirs
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let evaluator: PolicySpec = a
        .evaluator
        .parse()
        .map_err(|e| crate::job::error::usage(format!("--evaluator {}: {e}", a.evaluator)))?;
    let rungs: Vec<PolicySpec> = RUNGS.iter().map(|r| r.parse().expect("a rung")).collect();
    let out = crate::job::outputs::output_dir(&a.out, crate::job::outputs::Guard::PLAIN)?;
    drop(out);
    let recs: Vec<Record> = files
        .iter()
        .map(|f| records::read(f))
        .collect::<Result<_>>()?;
    // Records of one table (decks, rares, edits) share one load of the cards.
    let mut tables: std::collections::HashMap<String, Dealt> = Default::default();
    let mut deals = Vec::with_capacity(recs.len());
    for (f, r) in files.iter().zip(&recs) {
        let key = records::table_key(&r.header);
        let d = match tables.get(&key) {
            Some(d) => d.again(&r.header),
            None => {
                let d = records::deal(&r.header, &f.display().to_string())?;
                tables.insert(key, d.clone());
                d
            }
        };
        deals.push(d);
    }
    let tasks: Vec<usize> = (0..recs.len()).collect();
    let per: Vec<PerRecord> = each_task(&tasks, a.threads, a.quiet, |&i| {
        evaluate(i, &files[i], &recs[i], deals[i].clone(), &evaluator, &rungs)
    })?
    .into_iter()
    .collect::<Result<_>>()?;
    let mut by_player: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, p) in per.iter().enumerate() {
        by_player.entry(p.player.clone()).or_default().push(i);
    }
    let mut players = Vec::new();
    for (name, idx) in &by_player {
        let decisions: Vec<&Evaluated> = idx.iter().flat_map(|&i| &per[i].decisions).collect();
        let fd: Vec<FitDecision> = decisions
            .iter()
            .map(|d| FitDecision {
                values: d.values.clone(),
                chosen: d.chosen,
                game: d.file as u64,
            })
            .collect();
        let f = fit(&fd);
        // The skill player at the fitted t on the player's own deals.
        // The skill player values its options as the fit did.
        let skill = format!(
            "skill:t={}{}",
            crate::job::players::fmt_t(f.t),
            crate::job::players::from_clause(&evaluator.to_string())
        );
        let skill_spec: PolicySpec = skill.parse().map_err(|e: PolicyError| anyhow::anyhow!(e))?;
        let finished: Vec<usize> = idx.iter().copied().filter(|&i| per[i].finished).collect();
        let skill_wins = each_task(&finished, a.threads, true, |&i| {
            skill_wins_on(&per[i].dealt, &skill_spec)
        })?
        .into_iter()
        .sum::<Result<usize>>()?;
        let mut agreement = Vec::new();
        for (k, r) in RUNGS.iter().enumerate() {
            let n = decisions.len() as u64;
            let same = decisions.iter().filter(|d| d.agree[k]).count() as u64;
            let w = wilson(same, n, 0.95);
            agreement.push((r.to_string(), w.estimate, w.lo, w.hi));
        }
        let lost: Vec<f64> = decisions
            .iter()
            .map(|d| d.values.iter().cloned().fold(f64::MIN, f64::max) - d.values[d.chosen])
            .collect();
        let away = given_away(&fd);
        let (mean, lo, hi) = (away.estimate, away.lo, away.hi);
        let boot = bootstrap(&fd, a.bootstrap, 0x5eed);
        let mut worst: Vec<(&Evaluated, f64)> = decisions
            .iter()
            .copied()
            .zip(lost.iter().copied())
            .collect();
        worst.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.file.cmp(&b.0.file)));
        let worst = worst
            .iter()
            .take(a.worst)
            .filter(|(_, l)| *l > 0.0)
            .map(|(d, l)| {
                let best = (0..d.values.len())
                    .max_by(|&x, &y| d.values[x].total_cmp(&d.values[y]).then(y.cmp(&x)))
                    .unwrap_or(0);
                json!({
                    "file": files[d.file].display().to_string(),
                    "decision": d.n, "day": d.day, "kind": d.kind,
                    "chosen": d.legal[d.chosen], "best": d.legal[best],
                    "lost": round2(*l),
                    "command": format!("confluence-sim replay --file {}", shell_quote(&files[d.file].display().to_string())),
                })
            })
            .collect();
        let more = (f.t_hi - f.t_lo > a.width && f.informative > 0).then(|| {
            // An interval's width falls as one over the root of the decisions.
            let scale = ((f.t_hi - f.t_lo) / a.width).powi(2);
            if scale.is_finite() {
                ((f.informative as f64) * (scale - 1.0)).ceil() as usize
            } else {
                f.informative.max(200) * 4
            }
        });
        players.push(PlayerCalibration {
            player: name.clone(),
            games: idx.len(),
            finished: idx.iter().filter(|&&i| per[i].finished).count(),
            wins: idx.iter().filter(|&&i| per[i].won).count(),
            decisions: decisions.len(),
            informative: f.informative,
            t: f.t,
            t_lo: f.t_lo,
            t_hi: f.t_hi,
            t_boot_lo: boot.map_or(f64::NAN, |b| b.0),
            t_boot_hi: boot.map_or(f64::NAN, |b| b.1),
            agreement,
            given_away: mean,
            given_away_lo: lo,
            given_away_hi: hi,
            skill_wins,
            more_decisions: more,
            worst,
        });
    }
    write_outputs(&a, &evaluator, &players)?;
    if !a.quiet {
        print!("{}", table(&players));
    }
    Ok(())
}

/// Re-plays one record and evaluates each of its player's decisions with a choice.
fn evaluate(
    i: usize,
    path: &std::path::Path,
    rec: &Record,
    dealt: Dealt,
    evaluator: &PolicySpec,
    rungs: &[PolicySpec],
) -> Result<PerRecord> {
    let what = path.display().to_string();
    let data = dealt.data.clone();
    let h = &rec.header;
    let mut eval = match &h.opponent {
        None => Evaluator::new(evaluator, &data),
        Some(o) => {
            let opp: PolicySpec = o.policy.parse().map_err(|e: PolicyError| {
                anyhow::anyhow!("{what}: opponent policy {}: {e}", o.policy)
            })?;
            Evaluator::against(evaluator, &data, &opp)
        }
    }
    .map_err(|e| crate::job::error::usage(format!("--evaluator {evaluator}: {e}")))?;
    let mut rung_policies: Vec<_> = rungs.iter().map(|r| r.build(&data)).collect();
    let seat = h.seat_index();
    let mut out = Vec::new();
    let mut values = Vec::new();
    let mut log = dealt.log();
    let replayed = dealt.replay(rec, &what, &mut log, |view, options: &ChoiceList, d| {
        if d.seat_index() != seat || options.len() < 2 {
            return;
        }
        values.clear();
        values.resize(options.len(), 0.0);
        let mut rng = rng_for(h.seed, h.game_index, d.n, 0xca1);
        eval.values(view, options, &mut rng, &mut values);
        let mut agree = [false; RUNGS.len()];
        for (k, p) in rung_policies.iter_mut().enumerate() {
            let mut rng = rng_for(h.seed, h.game_index, d.n, k as u64);
            agree[k] = p.choose(view, options, &mut rng) == d.index;
        }
        out.push(Evaluated {
            file: i,
            n: d.n,
            day: d.day,
            kind: d.kind.clone(),
            values: values.clone(),
            legal: d.legal.clone(),
            chosen: d.index,
            agree,
        });
    })?;
    let won = replayed.end.as_ref().is_some_and(|e| {
        let w = e.get("winner").and_then(|w| w.as_str());
        match h.mode {
            Mode::Solo => e.get("result").and_then(|r| r.as_str()) == Some("win"),
            Mode::Matchup => w == Some(h.seat.as_str()),
        }
    });
    let finished = rec.end.is_some();
    drop(log);
    Ok(PerRecord {
        player: h.player.clone(),
        decisions: out,
        finished,
        won,
        dealt,
    })
}

/// Whether `skill` wins the deal of `dealt` (its seat, its opponent's policy head to head).
fn skill_wins_on(dealt: &Dealt, skill: &PolicySpec) -> Result<usize> {
    let h = &dealt.header;
    let db = dealt.db();
    let mut pol = skill.build(&dealt.data);
    let seeds = crate::sim::GameSeeds::new(h.seed, h.game_index);
    let mut buf = ChoiceList::new();
    // The deal played as `run` and `matchup` play it, the skill player in the record's seat.
    let won = match &h.opponent {
        None => crate::sim::game::play_game(
            db,
            &dealt.solo(),
            &seeds,
            &mut pol,
            &mut buf,
            &mut crate::engine::event::NoObserver,
        )
        .outcome
        .is_win(),
        Some(o) => {
            let mut opp = o
                .policy
                .parse::<PolicySpec>()
                .map_err(|e| anyhow::anyhow!("{}: {e}", o.policy))?
                .build(&dealt.data);
            let seat = h.seat_index();
            let policies = if seat == 0 {
                [&mut pol, &mut opp]
            } else {
                [&mut opp, &mut pol]
            };
            let r = crate::sim::duel::play_duel(
                db,
                dealt.duel_seats(),
                crate::sim::matchup::first_seat(h.game_index),
                crate::sim::duel::DuelRules::standard(h.day_cap),
                &seeds,
                policies,
                &mut buf,
            );
            r.winner == Some(seat as u8)
        }
    };
    Ok(usize::from(won))
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}")
    } else if x.is_nan() {
        "n/a".into()
    } else {
        "inf".into()
    }
}

fn table(players: &[PlayerCalibration]) -> String {
    let mut s = format!(
        "{:<28} {:>6} {:>9} {:>24} {:>10}",
        "player", "games", "decisions", "t [95% interval]", "lost/dec"
    );
    for r in RUNGS {
        s.push_str(&format!(" {:>10}", r));
    }
    s.push('\n');
    for p in players {
        s.push_str(&format!(
            "{:<28} {:>6} {:>9} {:>24} {:>10}",
            p.player,
            p.games,
            p.decisions,
            format!("{} [{}, {}]", num(p.t), num(p.t_lo), num(p.t_hi)),
            num(p.given_away)
        ));
        for (_, share, _, _) in &p.agreement {
            s.push_str(&format!(" {:>9.1}%", share * 100.0));
        }
        s.push('\n');
    }
    s
}

fn write_outputs(
    a: &CalibrateArgs,
    evaluator: &PolicySpec,
    players: &[PlayerCalibration],
) -> Result<()> {
    let mut out = crate::job::outputs::output_dir(&a.out, crate::job::outputs::Guard::PLAIN)?;
    let mut csv = String::from(
        "player,games,finished,wins,skill_wins,decisions,informative,t,t_lo,t_hi,t_boot_lo,t_boot_hi,given_away,given_away_lo,given_away_hi",
    );
    for r in RUNGS {
        csv.push_str(&format!(",agree_{r},agree_{r}_lo,agree_{r}_hi"));
    }
    csv.push('\n');
    let cell = |x: f64| {
        if x.is_finite() {
            format!("{x:.4}")
        } else {
            String::new()
        }
    };
    for p in players {
        csv.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            csv_field(&p.player),
            p.games,
            p.finished,
            p.wins,
            p.skill_wins,
            p.decisions,
            p.informative,
            cell(p.t),
            cell(p.t_lo),
            cell(p.t_hi),
            cell(p.t_boot_lo),
            cell(p.t_boot_hi),
            cell(p.given_away),
            cell(p.given_away_lo),
            cell(p.given_away_hi)
        ));
        for (_, s, lo, hi) in &p.agreement {
            csv.push_str(&format!(",{},{},{}", cell(*s), cell(*lo), cell(*hi)));
        }
        csv.push('\n');
    }
    out.write_bytes("calibration.csv", csv.as_bytes())?;
    let j = json!({
        "schema_version": 1,
        "evaluator": evaluator.to_string(),
        "interval": "95% profile likelihood on 1/t",
        "target_width": a.width,
        "players": players,
    });
    out.write_bytes(
        "calibration.json",
        serde_json::to_string_pretty(&j)?.as_bytes(),
    )?;
    out.write_bytes("calibration.md", report(a, evaluator, players).as_bytes())?;
    out.commit()?;
    Ok(())
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn report(a: &CalibrateArgs, evaluator: &PolicySpec, players: &[PlayerCalibration]) -> String {
    let mut s = String::from("# Calibration\n\n");
    s.push_str(&format!(
        "Each decision re-evaluated by `{evaluator}` from the view the player had; `t` is the \
         temperature of the quantal-response player (`skill:t=T`, points of win probability) \
         that makes the player's choices most likely, with its 95% profile-likelihood \
         interval. Records: {}.\n\n",
        a.dirs
            .iter()
            .map(|d| format!("`{}`", d.display()))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    s.push_str("```\n");
    s.push_str(&table(players));
    s.push_str("```\n\n");
    for p in players {
        s.push_str(&format!("## {}\n\n", p.player));
        s.push_str(&format!(
            "- {} games ({} finished), {} won; `skill:t={}` wins {} of the same {} finished deals.\n",
            p.games,
            p.finished,
            p.wins,
            crate::job::players::fmt_t(p.t),
            p.skill_wins,
            p.finished
        ));
        s.push_str(&format!(
            "- t = {} [{}, {}] from {} decisions ({} with a choice that tells: more than one option of different value).\n",
            num(p.t),
            num(p.t_lo),
            num(p.t_hi),
            p.decisions,
            p.informative
        ));
        if let Some(m) = p.more_decisions {
            s.push_str(&format!(
                "- The interval is wider than {} points: about {m} more decisions would narrow it to that.\n",
                a.width
            ));
        }
        s.push_str(&format!(
            "- Value given away: {} points of win probability per decision [{}, {}].\n",
            num(p.given_away),
            num(p.given_away_lo),
            num(p.given_away_hi)
        ));
        for (r, share, lo, hi) in &p.agreement {
            s.push_str(&format!(
                "- Chose as `{r}` would: {:.1}% [{:.1}%, {:.1}%].\n",
                share * 100.0,
                lo * 100.0,
                hi * 100.0
            ));
        }
        if !p.worst.is_empty() {
            s.push_str("\nThe decisions that gave away most:\n\n| lost | day | decision | chosen | best | see it |\n|---:|---:|---|---|---|---|\n");
            for w in &p.worst {
                s.push_str(&format!(
                    "| {} | {} | {} (#{}) | {} | {} | `{}` |\n",
                    w["lost"],
                    w["day"],
                    w["kind"].as_str().unwrap_or(""),
                    w["decision"],
                    w["chosen"].as_str().unwrap_or(""),
                    w["best"].as_str().unwrap_or(""),
                    w["command"].as_str().unwrap_or("")
                ));
            }
        }
        s.push('\n');
    }
    s
}
