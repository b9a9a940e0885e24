//! Step 3 of the Free for All report: the model laid out as a [`Page`] (key findings, the
//! ranking with its chart, the pods, the seats with theirs, draws and length, the run).
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use super::super::document::*;
use super::super::skeleton::Page;
use super::super::svg::{Bar, share_chart};
use super::model::{EntryView, FfaModel};

/// The file names of the charts under `charts/`.
pub const ENTRIES_FILE: &str = "ffa_entries.svg";
pub const SEATS_FILE: &str = "ffa_seats.svg";

/// The share of its games an entry wins among four of equal strength.
const EVEN: f64 = 0.25;

fn list_u64(v: &[u64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn games_per_seating(m: &FfaModel) -> String {
    let (lo, hi) = m.games_per_seating;
    if lo == hi {
        format!("{} games per seating", thousands(lo))
    } else {
        format!("{} to {} games per seating", thousands(lo), thousands(hi))
    }
}

/// A log-strength as a strength (geometric mean 1) with its interval: `3.20 [3.15, 3.25]`.
fn strength(e: &EntryView) -> String {
    format!(
        "{:.2} [{:.2},\u{a0}{:.2}]",
        e.log_strength.exp(),
        e.log_strength_lo.exp(),
        e.log_strength_hi.exp()
    )
}

/// The chance of winning against three average entries, with its interval.
fn against_average(e: &EntryView) -> String {
    let f = EntryView::against_average;
    format!(
        "{} {}",
        pct(f(e.log_strength)),
        pct_interval(f(e.log_strength_lo), f(e.log_strength_hi))
    )
}

fn lead(m: &FfaModel) -> Rich {
    Rich::default()
        .t("This report covers ")
        .strong(thousands(m.total_games))
        .t(format!(
            " simulated Free for All games of Altered, four player decks at a table, among {} ({} played by the {} {}): every 4 of the entries form a pod ({}), and each pod played its {} (every order of its four entries round the table), {}, the first player on day 1 turning round the table from game to game; seed {}, day cap {}.",
            plural(m.entries.len(), "entry", "entries"),
            join_and(&m.decks),
            join_and(&m.policies),
            if m.policies.len() == 1 { "policy" } else { "policies" },
            plural(m.pods.len(), "pod", "pods"),
            plural(m.seatings_per_pod, "seating", "seatings"),
            games_per_seating(m),
            list_u64(&m.seeds),
            list_u64(&m.day_caps),
        ))
}

fn ranking_finding(m: &FfaModel) -> Rich {
    let n = m.entries.len();
    let (a, z) = (&m.entries[0], &m.entries[n - 1]);
    let mut r = Rich::default()
        .strong(a.label.clone())
        .t(format!(
            " ranks first: it won {} of its games and would win {} of tables against three entries of average strength (Plackett–Luce); ",
            rate_ci(&a.share),
            against_average(a)
        ))
        .strong(z.label.clone())
        .t(format!(
            " ranks last, {} of its games won, {} against three average entries.",
            rate_ci(&z.share),
            against_average(z)
        ));
    let b = &m.entries[1];
    if a.log_strength_lo <= b.log_strength_hi {
        r = r.t(format!(
            " The first two ({} and {}) have overlapping 95% intervals: their order is not settled.",
            a.label, b.label
        ));
    }
    r
}

/// Entries whose win share lies wholly above or below the even share.
fn even_finding(m: &FfaModel) -> Rich {
    let labels = |f: &dyn Fn(&EntryView) -> bool| -> Vec<String> {
        m.entries
            .iter()
            .filter(|e| f(e))
            .map(|e| e.label.clone())
            .collect()
    };
    let above = labels(&|e| e.share.lo > EVEN);
    let below = labels(&|e| e.share.hi < EVEN);
    let close = m.entries.len() - above.len() - below.len();
    let part = |v: &[String], how: &str| {
        if v.is_empty() {
            format!("none {how}")
        } else {
            format!("{} {how}", join_and(v))
        }
    };
    Rich::text(format!(
        "Against the even share of {} (a table of four equals; draws count as not won): {}; {}; {} too close to tell.",
        pct(EVEN),
        part(&above, "above it"),
        part(&below, "below it"),
        plural(close, "entry", "entries")
    ))
}

fn seat_finding(m: &FfaModel) -> Rich {
    let off: Vec<String> = m
        .seats
        .iter()
        .filter(|s| s.share.lo > EVEN || s.share.hi < EVEN)
        .map(|s| format!("seat {} won {}", s.seat, rate_ci(&s.share)))
        .collect();
    let mut text = if off.is_empty() {
        "No seat's win share differs measurably from the even 25.0%: every entry sits in every seat equally often, so the seat alone would show here.".to_string()
    } else {
        format!(
            "The seats differ: {} (the even share is {}; every entry sits in every seat equally often, so this is the seat, not the entries).",
            off.join(", "),
            pct(EVEN)
        )
    };
    match &m.first_player {
        Some(f) => text.push_str(&format!(
            " The first player on day 1 won {} of all {} games.",
            rate_ci(f),
            thousands(m.total_games)
        )),
        None => text.push_str(" meta.json does not record the first player's wins."),
    }
    Rich::text(text)
}

fn findings(m: &FfaModel) -> Vec<Block> {
    let mut items = vec![ranking_finding(m), even_finding(m), seat_finding(m)];
    if m.draws > 0 {
        items.push(Rich::text(format!(
            "{} games ({}) reached the day cap with no winner: not won in the win shares, left out of the rating.",
            thousands(m.draws),
            share(m.draws, m.total_games)
        )));
    }
    vec![Block::List(items)]
}

fn ranking_section(m: &FfaModel) -> Section {
    let bars: Vec<Bar> = m
        .entries
        .iter()
        .map(|e| Bar {
            label: e.label.clone(),
            value: e.share.estimate,
            lo: e.share.lo,
            hi: e.share.hi,
        })
        .collect();
    let title = "Share of its games each entry won";
    let chart = Chart {
        file: ENTRIES_FILE.into(),
        title: title.into(),
        svg: share_chart(title, &bars, EVEN, "Games won (%)"),
    };
    let caption = Rich::text(
        "Each bar is an entry's share of its games won, with its 95% Wilson interval; the dashed line is the even share of a table of four equals. Entries in rating order, strongest first.",
    );
    let rows = m
        .entries
        .iter()
        .map(|e| {
            vec![
                Rich::text(e.rank.to_string()),
                Rich::text(e.label.clone()),
                Rich::text(thousands(e.games)),
                Rich::text(thousands(e.wins)),
                Rich::text(thousands(e.draws)),
                Rich::text(rate_ci(&e.share)),
                Rich::text(strength(e)),
                Rich::text(against_average(e)),
            ]
        })
        .collect();
    let table = DocTable {
        header: [
            "Rank",
            "Entry",
            "Games",
            "Wins",
            "Draws",
            "Won [95%]",
            "Strength [95%]",
            "Win rate against three average entries [95%]",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![true, false, true, true, true, true, true, true],
        rows,
    };
    Section {
        id: "ranking".into(),
        title: "Ranking".into(),
        blocks: vec![
            Block::Figure { chart, caption },
            Block::Paragraph(
                Rich::default()
                    .t("A Plackett–Luce model of the winner (Bradley–Terry extended to four players) fitted to the winners of every pod: an entry of strength γ wins a table with probability γ over the sum of the four strengths. Strengths are scaled to a geometric mean of 1; the intervals are 95% normal intervals on the log-strength from the observed information. The last column is what a strength implies: the chance of winning a table of three entries of average strength (25.0% for an average entry). The exact figures are in ")
                    .code("ratings.csv")
                    .t("."),
            ),
            Block::Table(table),
        ],
    }
}

fn pods_section(m: &FfaModel) -> Section {
    let rows = m
        .pods
        .iter()
        .map(|p| {
            let mut row = vec![Rich::text(p.pod.to_string())];
            for &(i, wins) in &p.members {
                row.push(Rich::text(format!(
                    "{}: {}",
                    m.entries[i].label,
                    share(wins, p.games)
                )));
            }
            row.push(Rich::text(thousands(p.games)));
            row.push(Rich::text(share(p.draws, p.games)));
            row
        })
        .collect();
    let table = DocTable {
        header: [
            "Pod", "Entry 1", "Entry 2", "Entry 3", "Entry 4", "Games", "Draws",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![true, false, false, false, false, true, true],
        rows,
    };
    Section {
        id: "pods".into(),
        title: "Pods".into(),
        blocks: vec![
            Block::Paragraph(
                Rich::default()
                    .t("Each pod's four entries, strongest first, with the share of the pod's games each won over all its seatings (")
                    .code("pods.csv")
                    .t(" has them per seating and seat)."),
            ),
            Block::Details {
                summary: format!("All {}", plural(m.pods.len(), "pod", "pods")),
                blocks: vec![Block::Table(table)],
            },
        ],
    }
}

fn seats_section(m: &FfaModel) -> Section {
    let bars: Vec<Bar> = m
        .seats
        .iter()
        .map(|s| Bar {
            label: format!("seat {}", s.seat),
            value: s.share.estimate,
            lo: s.share.lo,
            hi: s.share.hi,
        })
        .collect();
    let title = "Share of its games each seat won";
    let chart = Chart {
        file: SEATS_FILE.into(),
        title: title.into(),
        svg: share_chart(title, &bars, EVEN, "Games won (%)"),
    };
    let rows = m
        .seats
        .iter()
        .map(|s| {
            vec![
                Rich::text(s.seat.to_string()),
                Rich::text(thousands(s.games)),
                Rich::text(thousands(s.wins)),
                Rich::text(rate_ci(&s.share)),
            ]
        })
        .collect();
    Section {
        id: "seats".into(),
        title: "Seats".into(),
        blocks: vec![
            Block::Figure {
                chart,
                caption: Rich::text(
                    "Every entry sits in every seat equally often, so the seats' win shares differ by the seat alone (and chance). Seat 0's Hero expedition races seat 1's, its Companion expedition seat 3's; the first player on day 1 turns round the table with the game index.",
                ),
            },
            Block::Table(DocTable {
                header: ["Seat", "Games", "Wins", "Won [95%]"]
                    .map(String::from)
                    .to_vec(),
                numeric: vec![true, true, true, true],
                rows,
            }),
        ],
    }
}

fn length_section(m: &FfaModel) -> Section {
    let mean = if m.total_games == 0 {
        "—".to_string()
    } else {
        format!("{:.2}", m.days as f64 / m.total_games as f64)
    };
    Section {
        id: "length".into(),
        title: "Draws and length".into(),
        blocks: vec![Block::Paragraph(Rich::text(format!(
            "{} games ({}) reached the day cap with no winner; the rating leaves them out. {} games ({}) went to an Arena tiebreaker day. Games lasted {mean} days on average.",
            thousands(m.draws),
            share(m.draws, m.total_games),
            thousands(m.arena_games),
            share(m.arena_games, m.total_games),
        )))],
    }
}

fn run(m: &FfaModel) -> Vec<Block> {
    let facts = vec![
        ("Games".to_string(), Rich::text(games_per_seating(m))),
        ("Seed".to_string(), Rich::text(list_u64(&m.seeds))),
        ("Day cap".to_string(), Rich::text(list_u64(&m.day_caps))),
        (
            "Entries".to_string(),
            Rich::text(format!(
                "{} ({} × {}) in {}",
                m.entries.len(),
                plural(m.decks.len(), "deck", "decks"),
                plural(m.policies.len(), "policy", "policies"),
                plural(m.pods.len(), "pod", "pods")
            )),
        ),
        (
            "Rating".to_string(),
            Rich::text(format!(
                "Plackett–Luce, minorize–maximize iterations with a Gamma prior worth {} virtual win and game per entry: {} iterations, {}",
                m.prior,
                m.iterations,
                if m.converged {
                    "converged"
                } else {
                    "NOT converged"
                }
            )),
        ),
    ];
    let mut blocks = run_blocks(
        facts,
        m.meta.as_ref(),
        &m.dir,
        "the version, commit and command",
    );
    blocks.extend(super::super::sections::engine_error_note(
        m.engine_errors,
        "above",
        "pods.csv",
        "seating",
    ));
    blocks
}

/// Lays the Free for All model out: key findings, the ranking, the pods, the seats, draws
/// and length, the run.
pub fn page(m: &FfaModel) -> Page {
    Page {
        title: "Free for All report",
        lead: lead(m),
        findings: findings(m),
        sections: vec![
            ranking_section(m),
            pods_section(m),
            seats_section(m),
            length_section(m),
        ],
        run: run(m),
        source: "a Free for All directory",
        methods: "Win-share intervals are 95% Wilson score intervals (Wilson 1927; Brown, Cai & DasGupta 2001); the rating is a Plackett–Luce model of the winner (Luce 1959; Plackett 1975) fitted by minorize–maximize iterations (Hunter 2004).",
        warnings: m.warnings.clone(),
    }
}
