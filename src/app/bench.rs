//! `confluence-sim bench`: single-thread throughput per policy and peak memory.

use std::time::Instant;

use anyhow::Result;

use super::cli::BenchArgs;
use crate::deck::RareMix;
use crate::job::load;
use crate::sim::{ConfigSpec, RunPlan};

/// Peak resident memory of this process (Linux `VmHWM`), in KiB.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
}

pub fn bench(a: BenchArgs) -> Result<()> {
    let mut lib = load::library(&a.deck.cards)?;
    let mut warnings = Vec::new();
    let deck = load::player_deck(&lib, &a.deck.player, false, &mut warnings)?;
    let confluence = load::confluence(&a.deck.confluence, &mut lib.db)?;
    let names = if a.policies.is_empty() {
        vec![
            "random".to_string(),
            "greedy".to_string(),
            "planner".to_string(),
            "expert".to_string(),
        ]
    } else {
        a.policies.clone()
    };
    let policies = load::policies(&names)?;
    let expert = load::expert_weights(a.deck.expert_weights.as_deref())?;
    let value = load::value_weights(a.deck.value_weights.as_deref())?;
    let players = [deck];
    if a.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    println!("policy   games      cpu_s   wall_s  games/s/core  win_rate");
    for (pi, p) in policies.iter().enumerate() {
        let plan = RunPlan {
            db: &lib.db,
            players: &players,
            confluence: &confluence,
            policies: &policies,
            configs: vec![ConfigSpec {
                player: 0,
                policy: pi,
                mix: RareMix(0),
            }],
            games: a.games,
            first_game: 0,
            seed: a.seed,
            threads: 1,
            day_cap: 30,
            models: crate::policy::Models {
                expert: expert.as_ref(),
                value: value.as_ref(),
            },
        };
        let t = Instant::now();
        let cpu0 = cpu_seconds();
        let r = crate::sim::run::<String>(&plan, &|_| {}, None).map_err(|e| anyhow::anyhow!(e))?;
        let wall = t.elapsed().as_secs_f64();
        // The games play on one worker thread: the process's CPU time is that thread's
        // (the waiting main thread uses none), and a loaded machine does not inflate it.
        let cpu = match (cpu0, cpu_seconds()) {
            (Some(a), Some(b)) if b > a => b - a,
            _ => wall,
        };
        let acc = &r.accums[0];
        let wins = acc.won();
        println!(
            "{:<8} {:<10} {:>6.2}  {:>7.2}  {:>12.0}  {:>7.3}",
            p.to_string(),
            a.games,
            cpu,
            wall,
            a.games as f64 / cpu,
            wins as f64 / acc.games as f64
        );
        if (wall - cpu).abs() > 0.2 * cpu {
            eprintln!(
                "confluence-sim: warning: {p}: {wall:.2} s of wall time for {cpu:.2} s of CPU time (more than 20% apart): the machine is loaded; games/s/core is from the CPU time"
            );
        }
    }
    if let Some(kib) = peak_rss_kib() {
        println!("peak memory: {:.1} MiB", kib as f64 / 1024.0);
    }
    Ok(())
}

/// CPU time (user and system) this process has used, in seconds.
fn cpu_seconds() -> Option<f64> {
    // SAFETY: getrusage writes into the struct we own.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return None;
    }
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    Some(t(u.ru_utime) + t(u.ru_stime))
}
