//! `confluence-sim ffa`: Free for All, four player decks at a table, every pod of four
//! entries in all 24 seatings, with a Plackett–Luce rating. What it plays and writes
//! (pods.csv, ratings.csv, the report, meta.json) is [`crate::job::ffa`], run by the
//! head-to-head runner; this prints the ratings.

use anyhow::Result;

use super::cli::{FfaArgs, MergeArgs};
use crate::job::config::Entries;
use crate::job::ffa::{Ffa, against_average, totals};
use crate::job::headtohead;
use crate::sim::ffa::FfaTally;
use crate::stats::plackett_luce::PlFit;

pub fn ffa(a: FfaArgs) -> Result<()> {
    headtohead::run::<Ffa>((&a).into(), print_ratings)
}

/// `confluence-sim merge` of an ffa run's shards: the outputs of the whole run, through the
/// code that writes them at the end of a run.
pub fn merge(m: MergeArgs) -> Result<()> {
    headtohead::merge::<Ffa>(&(&m).into(), print_ratings)
}

/// The ratings on the terminal, strongest first.
fn print_ratings(p: &Ffa, _: &Entries, fit: &PlFit, tallies: &[FfaTally]) {
    use super::terminal::{Grid, POLICY_MAX, labels, legend, pct};
    let info = &p.field.info;
    let t = totals(info.len(), &p.pods, tallies);
    let order = fit.order();
    let specs: Vec<String> = order.iter().map(|&i| info[i].policy.clone()).collect();
    let (policies, long) = labels(&specs, POLICY_MAX);
    let mut grid = Grid::new(&[
        ("rank", true),
        ("deck", false),
        ("policy", false),
        ("win share", true),
        ("log-strength", true),
        ("vs 3 avg", true),
    ]);
    for (k, (&i, policy)) in order.iter().zip(policies).enumerate() {
        let theta = fit.log_strength[i];
        grid.row(vec![
            (k + 1).to_string(),
            info[i].deck.clone(),
            policy,
            pct(t.entry[i][1] as f64 / t.entry[i][0].max(1) as f64),
            three(theta),
            pct(against_average(theta)),
        ]);
    }
    println!("{}", grid.render());
    let long = legend("policies", &long);
    if !long.is_empty() {
        println!("{long}");
    }
}

/// A log-strength with three decimals and its sign, `0.000` for one that rounds to zero.
fn three(x: f64) -> String {
    let s = format!("{x:+.3}");
    if s == "-0.000" || s == "+0.000" {
        "0.000".into()
    } else {
        s
    }
}
