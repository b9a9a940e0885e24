//! `confluence-sim bench`: single-thread throughput per policy and peak memory.

use std::time::Instant;

use anyhow::Result;

use super::cli::BenchArgs;
use super::load;
use crate::deck::{ConfluenceDeck, RareMix};
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
    let confluence = ConfluenceDeck::load(&a.deck.confluence, &mut lib.db)?;
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
    let players = [deck];
    if a.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    println!("policy   games      seconds  games/s/core  win_rate");
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
            expert: expert.as_ref(),
        };
        let t = Instant::now();
        let r = crate::sim::run::<String>(&plan, &|_| {}, None).map_err(|e| anyhow::anyhow!(e))?;
        let secs = t.elapsed().as_secs_f64();
        let acc = &r.accums[0];
        let wins = acc.won();
        println!(
            "{:<8} {:<10} {:>7.2}  {:>12.0}  {:>7.3}",
            p.to_string(),
            a.games,
            secs,
            a.games as f64 / secs,
            wins as f64 / acc.games as f64
        );
    }
    if let Some(kib) = peak_rss_kib() {
        println!("peak memory: {:.1} MiB", kib as f64 / 1024.0);
    }
    Ok(())
}
