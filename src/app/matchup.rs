//! `confluence-sim matchup`: player decks against each other, every pair of entries (a
//! deck with a policy) on the same games, as a matrix of win rates and a Bradley–Terry
//! ranking. What it plays and writes is [`crate::job::matchup`], run by the head-to-head
//! runner; this prints the ranking.

use anyhow::Result;

use super::cli::{MatchupArgs, MergeArgs};
use crate::job::config::Entries;
use crate::job::headtohead::{self, EntryInfo};
use crate::job::matchup::{LEVEL, Matchup};
use crate::sim::matchup::PairTally;
use crate::stats::plackett_luce::PlFit;

pub fn matchup(a: MatchupArgs) -> Result<()> {
    headtohead::run::<Matchup>((&a).into(), print)
}

/// `confluence-sim merge` of a matchup's shards: the outputs of the whole run, through the
/// code that writes them at the end of a run.
pub fn merge(m: MergeArgs) -> Result<()> {
    headtohead::merge::<Matchup>(&(&m).into(), print)
}

fn print(p: &Matchup, _: &Entries, fit: &PlFit, _: &[PairTally]) {
    print_ranking(&p.field.info, fit)
}

fn print_ranking(info: &[EntryInfo], fit: &PlFit) {
    use super::terminal::{Grid, POLICY_MAX, labels, legend, pct, pct_interval};
    let stems: Vec<(String, String)> = info
        .iter()
        .map(|e| (e.deck.clone(), e.hero.clone()))
        .collect();
    let names = crate::report::deck_names(&stems);
    let order = fit.order();
    let specs: Vec<String> = order.iter().map(|&i| info[i].policy.clone()).collect();
    let (policies, long) = labels(&specs, POLICY_MAX);
    let logistic = |x: f64| 1.0 / (1.0 + (-x).exp());
    let mut grid = Grid::new(&[
        ("rank", true),
        ("player deck", false),
        ("policy", false),
        ("strength", true),
        ("95% interval", true),
        ("vs average", true),
        ("95% interval", true),
    ]);
    for (k, (&i, policy)) in order.iter().zip(policies).enumerate() {
        let (lo, hi) = fit.interval(i, LEVEL);
        grid.row(vec![
            (k + 1).to_string(),
            names[&info[i].deck].clone(),
            policy,
            format!("{:.2}", fit.log_strength[i].exp()),
            format!("[{:>5.2}, {:>5.2}]", lo.exp(), hi.exp()),
            pct(logistic(fit.log_strength[i])),
            pct_interval(logistic(lo), logistic(hi)),
        ]);
    }
    println!("{}", grid.render());
    let long = legend("policies", &long);
    if !long.is_empty() {
        println!("{long}");
    }
}
