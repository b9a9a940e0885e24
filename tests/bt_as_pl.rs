//! Issue 50 item 5: `matchup`'s Bradley–Terry ranking is the Plackett–Luce fit of Free for
//! All's rating with tables of two, one fitting loop for both. The committed starter matrix
//! (12 entries, 2,000 games a pair) refitted here through `stats::plackett_luce` with the
//! settings `matchup` records in meta.json gives `ranking.csv`'s log-strengths and errors
//! digit for digit (before games version 2 the ranking had its own Newton fit, which this
//! fails: its log-strengths were up to 1.9e-3 away).

use confluence_sim::stats::plackett_luce;

mod common;
use common::root;

#[test]
fn the_matchup_ranking_is_plackett_luce_with_tables_of_two() {
    let dir = root().join("reports/starter-matchups");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
    let prior = meta["ranking"]["prior"]
        .as_f64()
        .expect("meta.json names the ranking's prior");
    let mut rdr = csv::Reader::from_path(dir.join("matchups.csv")).unwrap();
    let h = rdr.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|x| x == name).unwrap();
    let (ea, eb, wa, wb, dr) = (
        col("entry_a"),
        col("entry_b"),
        col("wins_a"),
        col("wins_b"),
        col("draws"),
    );
    let (mut tables, mut n) = (Vec::new(), 0);
    for r in rdr.records() {
        let r = r.unwrap();
        let (a, b): (usize, usize) = (r[ea].parse().unwrap(), r[eb].parse().unwrap());
        n = n.max(a + 1).max(b + 1);
        if a >= b {
            continue;
        }
        // Draws as half a win to each side, as `matchup` counts them.
        let d: f64 = r[dr].parse().unwrap();
        let x = r[wa].parse::<f64>().unwrap() + d / 2.0;
        let y = r[wb].parse::<f64>().unwrap() + d / 2.0;
        tables.push(plackett_luce::Table::pair(a, b, x, y));
    }
    assert_eq!(tables.len(), n * (n - 1) / 2, "every pair of entries");
    let pl = plackett_luce::fit(n, &tables, prior);
    assert!(pl.converged);
    let mut ranking = csv::Reader::from_path(dir.join("ranking.csv")).unwrap();
    let rh = ranking.headers().unwrap().clone();
    let rc = |name: &str| rh.iter().position(|x| x == name).unwrap();
    let mut rows = 0;
    for r in ranking.records() {
        let r = r.unwrap();
        let e: usize = r[rc("entry")].parse().unwrap();
        let (lo, hi) = pl.interval(e, 0.95);
        let cell = |name: &str| r[rc(name)].parse::<f64>().unwrap();
        assert_eq!(cell("log_strength"), pl.log_strength[e], "entry {e}");
        assert_eq!(cell("log_strength_lo"), lo, "entry {e}");
        assert_eq!(cell("log_strength_hi"), hi, "entry {e}");
        assert_eq!(r[rc("rank")].parse::<usize>().unwrap(), pl.ranks()[e]);
        rows += 1;
    }
    assert_eq!(rows, n);
}
