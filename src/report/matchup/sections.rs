//! Step 3 of the matchup report: the model laid out as a [`Page`] (key findings, the
//! heatmap, the ranking, the run).
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use super::super::document::*;
use super::super::heatmap::{HeatCell, heatmap, pair_header};
use super::super::skeleton::Page;
use super::model::MatchupModel;

/// The file name of the heatmap under `charts/`.
pub const HEATMAP_FILE: &str = "matchup_heatmap.svg";

fn games_per_pair(m: &MatchupModel) -> String {
    let (lo, hi) = m.games_per_pair;
    if lo == hi {
        format!("{} games per pair", thousands(lo))
    } else {
        format!("{} to {} games per pair", thousands(lo), thousands(hi))
    }
}

fn list_u64(v: &[u64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn lead(m: &MatchupModel) -> Rich {
    Rich::default()
        .t("This report covers ")
        .strong(thousands(m.total_games))
        .t(format!(
            " simulated head-to-head games of Altered between {} ({} played by the {} {}): every pair of entries, mirror pairs included, played {}, with the first entry of the pair in seat A and the first player alternating from game to game; seed {}, day cap {}.",
            plural(m.entries.len(), "entry", "entries"),
            join_and(&m.decks),
            join_and(&m.policies),
            if m.policies.len() == 1 { "policy" } else { "policies" },
            games_per_pair(m),
            list_u64(&m.seeds),
            list_u64(&m.day_caps),
        ))
}

/// The ranking's first and last entries, in a sentence.
fn ranking_finding(m: &MatchupModel) -> Rich {
    let vs = |i: usize| {
        let r = &m.entries[i].rank;
        format!(
            "{} {}",
            pct(r.win_vs_average),
            pct_interval(r.win_vs_average_lo, r.win_vs_average_hi)
        )
    };
    let n = m.entries.len();
    if n == 1 {
        return Rich::default()
            .t("Only one entry, ")
            .strong(m.entries[0].label.clone())
            .t(": its mirror games only, so there is nothing to rank.");
    }
    let mut r = Rich::default()
        .strong(m.entries[0].label.clone())
        .t(format!(
            " ranks first: it would win {} of games against an entry of average strength (Bradley–Terry); ",
            vs(0)
        ))
        .strong(m.entries[n - 1].label.clone())
        .t(format!(" ranks last, {}.", vs(n - 1)));
    let (a, b) = (&m.entries[0].rank, &m.entries[1].rank);
    if a.log_strength_lo <= b.log_strength_hi {
        r = r.t(format!(
            " The first two ({} and {}) have overlapping 95% intervals: their order is not settled.",
            m.entries[0].label, m.entries[1].label
        ));
    }
    r
}

/// The short "which deck beats which" line.
fn beats_finding(m: &MatchupModel) -> Rich {
    const SHOWN: usize = 6;
    let pairs = m.distinct_pairs();
    let wins = m.clear_wins();
    if pairs == 0 {
        return Rich::text("With one entry there is no pair of different entries.");
    }
    if wins.is_empty() {
        return Rich::text(format!(
            "Which deck beats which: no entry beats another with a 95% interval above 50% (draws count as not won; {} too close to call at {}).",
            plural(pairs, "pair", "pairs"),
            games_per_pair(m)
        ));
    }
    let mut r = Rich::default()
        .t("Which deck beats which (95% interval above 50%; draws count as not won): ");
    for (k, c) in wins.iter().take(SHOWN).enumerate() {
        if k > 0 {
            r = r.t("; ");
        }
        r = r
            .strong(m.entries[c.pair.a].label.clone())
            .t(" beats ")
            .t(m.entries[c.pair.b].label.clone())
            .t(format!(", {}", rate_ci(&c.pair.rate)));
    }
    if wins.len() > SHOWN {
        r = r.t(format!("; and {} more in the matrix", wins.len() - SHOWN));
    }
    let close = pairs - wins.len();
    r.t(format!(
        ". {} of {} too close to call.",
        if close == 1 {
            "1 pair".to_string()
        } else {
            format!("{close} pairs")
        },
        pairs
    ))
}

fn findings(m: &MatchupModel) -> Vec<Block> {
    let mut items = vec![ranking_finding(m)];
    for &a in &m.dominant() {
        items.push(
            Rich::default()
                .strong(m.entries[a].label.clone())
                .t(" beats every other entry, each with a 95% interval above 50%."),
        );
    }
    items.push(beats_finding(m));
    let f = &m.first_player;
    let edge = if f.lo > 0.5 {
        "the first player has an edge"
    } else if f.hi < 0.5 {
        "the second player has an edge"
    } else {
        "no edge for either seat is measurable"
    };
    items.push(Rich::text(format!(
        "The first player on day 1 won {} {} of all {} games (draws count as not won): {edge}. Seats and the first player are balanced within every pair (to within one game), so this does not bias the matrix.",
        pct(f.estimate),
        pct_interval(f.lo, f.hi),
        thousands(m.total_games)
    )));
    if m.total_draws > 0 {
        items.push(Rich::text(format!(
            "{} games ({}) reached the day cap and count as draws: not won in the win rates, half a win each in the ranking.",
            thousands(m.total_draws),
            share(m.total_draws, m.total_games)
        )));
    }
    vec![Block::List(items)]
}

fn matrix_section(m: &MatchupModel) -> Section {
    let labels: Vec<String> = m.entries.iter().map(|e| e.label.clone()).collect();
    let numbers: Vec<u32> = m.entries.iter().map(|e| e.entry).collect();
    let cells: Vec<Vec<HeatCell>> = m
        .cells
        .iter()
        .map(|row| row.iter().map(|c| c.pair.heat()).collect())
        .collect();
    let title = "Win rate of the row entry against the column entry";
    let chart = Chart {
        file: HEATMAP_FILE.into(),
        title: title.into(),
        svg: heatmap(title, &labels, &numbers, &cells),
    };
    let caption = Rich::text(format!(
        "Each cell is the row entry's win rate against the column entry over {}, with its 95% Wilson interval below it (draws count as not won); bold where the interval excludes 50%. Entries in ranking order, strongest first. The dashed diagonal holds the mirror pairs (an entry against itself, the row in seat A): with the seats balanced, they differ from 50% only by chance and by the draws.",
        games_per_pair(m)
    ));
    let mut rows = Vec::new();
    for row in &m.cells {
        for c in row {
            let p = &c.pair;
            let mut row = p.row(m.entries[p.a].label.clone(), m.entries[p.b].label.clone());
            row.push(Rich::text(share(c.first_player_wins, p.games)));
            row.push(Rich::text(if c.days_mean.is_finite() {
                format!("{:.2}", c.days_mean)
            } else {
                "—".into()
            }));
            rows.push(row);
        }
    }
    let (mut header, mut numeric) = pair_header("Entry");
    header.extend(["First player won", "Mean days"].map(String::from));
    numeric.extend([true, true]);
    let table = DocTable {
        header,
        numeric,
        rows,
    };
    Section {
        id: "matrix".into(),
        title: "Who beats whom".into(),
        blocks: vec![
            Block::Figure { chart, caption },
            Block::Details {
                summary: format!(
                    "All {} ordered pairs, with their counts",
                    m.entries.len() * m.entries.len()
                ),
                blocks: vec![Block::Table(table)],
            },
        ],
    }
}

fn ranking_section(m: &MatchupModel) -> Section {
    let rows = m
        .entries
        .iter()
        .map(|e| {
            let r = &e.rank;
            vec![
                Rich::text(r.rank.to_string()),
                Rich::text(e.label.clone()),
                Rich::text(thousands(r.games)),
                Rich::text(pct(r.score)),
                Rich::text(format!(
                    "{:.2} [{:.2},\u{a0}{:.2}]",
                    r.strength, r.strength_lo, r.strength_hi
                )),
                Rich::text(format!(
                    "{} {}",
                    pct(r.win_vs_average),
                    pct_interval(r.win_vs_average_lo, r.win_vs_average_hi)
                )),
            ]
        })
        .collect();
    let table = DocTable {
        header: [
            "Rank",
            "Entry",
            "Games (others)",
            "Score",
            "Strength [95%]",
            "Win rate against an average entry [95%]",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![true, false, true, true, true, true],
        rows,
    };
    Section {
        id: "ranking".into(),
        title: "Ranking".into(),
        blocks: vec![
            Block::Paragraph(
                Rich::default()
                    .t("A Bradley–Terry model fitted to the matrix (the Plackett–Luce fit of the Free for All rating with tables of two: minorize–maximize iterations; mirror pairs left out, draws as half a win, and a small Gamma prior, one virtual win and game per entry, to keep every strength finite): entry ")
                    .code("i")
                    .t(" beats entry ")
                    .code("j")
                    .t(" with probability strength_i / (strength_i + strength_j). Strengths are scaled to a geometric mean of 1; the intervals are 95% normal intervals on the log-strength from the observed information. The score is the points (a win 1, a draw one half) per game against the other entries."),
            ),
            Block::Table(table),
        ],
    }
}

fn run(m: &MatchupModel) -> Vec<Block> {
    let facts = vec![
        ("Games".to_string(), Rich::text(games_per_pair(m))),
        ("Seed".to_string(), Rich::text(list_u64(&m.seeds))),
        ("Day cap".to_string(), Rich::text(list_u64(&m.day_caps))),
        (
            "Entries".to_string(),
            Rich::text(format!(
                "{} ({} × {})",
                m.entries.len(),
                plural(m.decks.len(), "deck", "decks"),
                plural(m.policies.len(), "policy", "policies")
            )),
        ),
    ];
    let mut blocks = run_blocks(
        facts,
        m.meta.as_ref(),
        &m.dir,
        "the version, commit and command",
    );
    let failed = m.engine_errors;
    blocks.extend(super::super::sections::engine_error_note(
        failed,
        "above",
        "matchups.csv",
        "pair",
    ));
    blocks
}

/// Lays the matchup model out: key findings, the heatmap, the ranking, the run.
pub fn page(m: &MatchupModel) -> Page {
    Page {
        title: "Head-to-head matchup report",
        lead: lead(m),
        findings: findings(m),
        sections: vec![matrix_section(m), ranking_section(m)],
        run: run(m),
        source: "a matchup directory",
        methods: "Win-rate intervals are 95% Wilson score intervals (Wilson 1927; Brown, Cai & DasGupta 2001); the ranking is a Bradley–Terry model (Bradley & Terry 1952) fitted as Plackett–Luce with tables of two (Luce 1959; Hunter 2004's minorize–maximize iterations with a Gamma prior).",
        warnings: m.warnings.clone(),
    }
}
