//! `confluence-sim booster-war`: Booster War (seed 003) between boosters of one set, with
//! win rates by variant, faction pair, Hero and card. What it plays and writes is
//! [`crate::job::booster_war`], run by the head-to-head runner; this prints the summary.

use anyhow::Result;

use super::cli::{BoosterWarArgs, MergeArgs};
use crate::job::booster_war::{Ctx, LEVEL, War, ctx, rate};
use crate::job::config::BoosterWar;
use crate::job::headtohead;
use crate::sim::booster_war::WarTally;
use crate::stats::interval::wilson;

pub fn booster_war(a: BoosterWarArgs) -> Result<()> {
    headtohead::run::<War>((&a).into(), print)
}

/// `confluence-sim merge` of a Booster War's shards: the outputs of the whole run, through
/// the code that writes them at the end of a run.
pub fn merge(m: MergeArgs) -> Result<()> {
    headtohead::merge::<War>(&(&m).into(), print)
}

fn print(p: &War, a: &BoosterWar, _: &(), tallies: &[WarTally]) {
    print_summary(&ctx(p, a, tallies))
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// The terminal summary: per variant, the first player's advantage and the best and worst
/// Heroes.
fn print_summary(c: &Ctx<'_>) {
    let db = &c.lib.db;
    for (b, t) in c.builds.iter().zip(c.tallies) {
        let f = wilson(t.first_wins, t.games, LEVEL);
        println!(
            "{} ({} games, policy {}): first player wins {} [{}, {}]; draws {}; {:.2} days on average; {} games tied after day 4, {} went to the Arena",
            b.name(),
            t.games,
            c.policy,
            pct(f.estimate),
            pct(f.lo),
            pct(f.hi),
            t.draws,
            t.days_mean(),
            t.extra_day,
            t.arena
        );
        let mut heroes: Vec<_> = c
            .pool
            .heroes
            .iter()
            .zip(&t.heroes)
            .filter(|(_, w)| w.games > 0)
            .map(|(&h, w)| (rate(w.wins, w.games), h))
            .collect();
        heroes.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        if let (Some(best), Some(worst)) = (heroes.first(), heroes.last()) {
            println!(
                "  best Hero {} ({}), worst {} ({})",
                db.card(best.1).name,
                pct(best.0),
                db.card(worst.1).name,
                pct(worst.0)
            );
        }
    }
}
