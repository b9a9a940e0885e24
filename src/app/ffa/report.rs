//! `ffa`'s `report.md`: win share and rating per entry, the seat effect, draws, and how
//! the rating was fitted, from the run's totals (no timing: the same run writes the same
//! bytes).

use std::fmt::Write;

use super::{EntryInfo, LEVEL, PRIOR, Totals, against_average};
use crate::sim::ffa::SEATS;
use crate::stats::interval::wilson;
use crate::stats::plackett_luce::PlFit;

/// What the report reads.
pub(super) struct ReportInput<'a> {
    pub info: &'a [EntryInfo],
    pub totals: &'a Totals,
    pub fit: &'a PlFit,
    pub seed: u64,
    pub games_per_seating: u64,
    pub pods: usize,
    pub day_cap: u8,
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A share with its 95% Wilson interval: `37.5% (35.6–39.5)`.
fn share(k: u64, n: u64) -> String {
    let w = wilson(k, n, LEVEL);
    format!(
        "{} ({:.1}–{:.1})",
        pct(w.estimate),
        100.0 * w.lo,
        100.0 * w.hi
    )
}

/// The report's Markdown.
pub(super) fn markdown(r: &ReportInput<'_>) -> String {
    let (t, fit) = (r.totals, r.fit);
    let n = r.info.len();
    let mut s = String::new();
    let _ = writeln!(s, "# Free for All: {n} entries\n");
    let _ = writeln!(
        s,
        "{} games: {} pods (every 4 of the {n} entries), each in its 24 seatings (every order of its four entries round the table), {} games per seating; seed {}, day cap {}. `meta.json` holds the command.\n",
        t.games, r.pods, r.games_per_seating, r.seed, r.day_cap
    );
    let _ = writeln!(s, "## Entries\n");
    let _ = writeln!(
        s,
        "Strongest first. **Win share**: the share of its games the entry won (95% Wilson interval). **Log-strength**: the Plackett–Luce rating (mean 0; 95% interval). **Vs 3 average**: what it implies, the chance of winning a table of three entries of average strength (25% for an average entry).\n"
    );
    let _ = writeln!(
        s,
        "| rank | deck | hero | policy | games | wins | draws | win share | log-strength | vs 3 average |"
    );
    let _ = writeln!(s, "|---:|---|---|---|---:|---:|---:|---:|---:|---:|");
    for (k, i) in fit.order().into_iter().enumerate() {
        let e = &r.info[i];
        let [games, wins, draws] = t.entry[i];
        let (lo, hi) = fit.interval(i, LEVEL);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {games} | {wins} | {draws} | {} | {:+.3} ({:+.3} to {:+.3}) | {} ({:.1}–{:.1}) |",
            k + 1,
            e.deck,
            e.hero,
            e.policy,
            share(wins, games),
            fit.log_strength[i],
            lo,
            hi,
            pct(against_average(fit.log_strength[i])),
            100.0 * against_average(lo),
            100.0 * against_average(hi),
        );
    }
    let _ = writeln!(s, "\n## Seats\n");
    let _ = writeln!(
        s,
        "Every entry sits in every seat equally often, so the seats' win shares differ by the seat alone (and chance). Seat 0's Hero expedition races seat 1's, its Companion expedition seat 3's; the first player on day 1 turns round the table with the game index.\n"
    );
    let _ = writeln!(s, "| seat | games | wins | win share |");
    let _ = writeln!(s, "|---:|---:|---:|---:|");
    for (k, [games, wins]) in t.seat.iter().enumerate().take(SEATS) {
        let _ = writeln!(s, "| {k} | {games} | {wins} | {} |", share(*wins, *games));
    }
    let _ = writeln!(
        s,
        "\nThe first player on day 1 won {} of the games.",
        share(t.first_wins, t.games)
    );
    let _ = writeln!(s, "\n## Draws and length\n");
    let _ = writeln!(
        s,
        "{} games ({}) reached the day cap with no winner; the rating leaves them out. {} games ({}) went to an Arena tiebreaker day. Games lasted {:.2} days on average.",
        t.draws,
        pct(t.draws as f64 / t.games.max(1) as f64),
        t.arenas,
        pct(t.arenas as f64 / t.games.max(1) as f64),
        t.days as f64 / t.games.max(1) as f64,
    );
    if t.engine_errors > 0 {
        let _ = writeln!(
            s,
            "\n{} games had an engine error (more reactions at once than the engine queues); they are counted in their outcomes (`engine_errors` in pods.csv).",
            t.engine_errors
        );
    }
    let _ = writeln!(s, "\n## Method\n");
    let _ = writeln!(
        s,
        "The rating is a Plackett–Luce model of the winner (Bradley–Terry extended to four players): an entry of strength γ wins a table with probability γ over the sum of the four strengths. It is fitted to the winners of every pod by minorize–maximize iterations (Hunter 2004) with a Gamma prior worth {PRIOR} virtual win and game per entry ({} iterations{}); the intervals are normal approximations from the observed information.",
        fit.iterations,
        if fit.converged {
            ", converged"
        } else {
            ", NOT converged"
        }
    );
    s
}
