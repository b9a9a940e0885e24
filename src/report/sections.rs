//! Step 3: the model laid out as a [`Document`], section by section.

use super::document::*;
use super::findings;
use super::inputs::CardRow;
use super::model::{Group, Model, Outcomes, Pooled};
use super::svg;

fn games_per_config(m: &Model) -> String {
    let min = m.configs.iter().map(|c| c.games).min().unwrap_or(0);
    let max = m.configs.iter().map(|c| c.games).max().unwrap_or(0);
    if min == max {
        format!("{} games per configuration", thousands(min))
    } else {
        format!(
            "{} to {} games per configuration",
            thousands(min),
            thousands(max)
        )
    }
}

fn lead(m: &Model) -> Rich {
    let decks: Vec<String> = m.decks.iter().map(|(_, name)| name.clone()).collect();
    let policies = m.policies.clone();
    let confluence = m.distinct(|c| c.confluence_deck.clone());
    let confluence = if confluence.iter().all(|c| c.is_empty()) {
        m.meta
            .as_ref()
            .and_then(|x| x.confluence_deck.clone())
            .unwrap_or_else(|| "the Confluence deck".into())
    } else {
        join_and(&confluence)
    };
    let min_r = m.configs.iter().map(|c| c.rare_count).min().unwrap_or(0);
    let max_r = m.configs.iter().map(|c| c.rare_count).max().unwrap_or(0);
    let rares = if min_r == max_r {
        format!(
            "with {} swapped in",
            plural(min_r as usize, "rare", "rares")
        )
    } else {
        format!("with {min_r} to {max_r} of its rares swapped in")
    };
    let seeds = m.distinct(|c| c.seed.to_string());
    let caps = m.distinct(|c| c.day_cap.to_string());
    Rich::default()
        .t("This report covers ")
        .strong(thousands(m.total_games()))
        .t(format!(
            " simulated games of Altered Confluence: the player deck{} {} played by the {} {} against the Confluence deck ",
            if decks.len() == 1 { "" } else { "s" },
            join_and(&decks),
            join_and(&policies),
            if policies.len() == 1 { "policy" } else { "policies" },
        ))
        .strong(confluence)
        .t(format!(
            " {rares}, in {} ({}), seed {}, day cap {}.",
            plural(m.configs.len(), "configuration", "configurations"),
            games_per_config(m),
            seeds.join(", "),
            caps.join(", "),
        ))
}

fn metadata(m: &Model) -> Vec<Block> {
    let meta = m.meta.clone().unwrap_or_default();
    let unknown = || Rich::text("not recorded");
    let mut facts = Vec::new();
    let tool = match &meta.version {
        Some(v) => Rich::default().t(format!("confluence-sim {v}")),
        None => unknown(),
    };
    facts.push(("Simulator version".to_string(), tool));
    facts.push((
        "Git commit".to_string(),
        meta.git_commit
            .as_ref()
            .map_or_else(unknown, |c| Rich::default().code(c.clone())),
    ));
    facts.push((
        "Created".to_string(),
        meta.created.clone().map_or_else(unknown, Rich::text),
    ));
    if let Some(c) = &meta.command {
        facts.push(("Command".to_string(), Rich::default().code(c.clone())));
    }
    if let Some(e) = &meta.experiment {
        facts.push(("Experiment".to_string(), Rich::text(e.clone())));
    }
    let seeds = m.distinct(|c| c.seed.to_string());
    facts.push((
        "Seed".to_string(),
        Rich::text(meta.seed.clone().unwrap_or_else(|| seeds.join(", "))),
    ));
    facts.push((
        "Games".to_string(),
        Rich::text(match &meta.games {
            Some(g) => format!("{g} ({} games in all)", thousands(m.total_games())),
            None => format!(
                "{} ({} games in all)",
                games_per_config(m),
                thousands(m.total_games())
            ),
        }),
    ));
    let caps = m.distinct(|c| c.day_cap.to_string());
    facts.push((
        "Day cap".to_string(),
        Rich::text(meta.day_cap.clone().unwrap_or_else(|| caps.join(", "))),
    ));
    // Card coverage, per player deck.
    let decks = m.distinct(|c| c.player_deck.clone());
    let mut coverage = Vec::new();
    for d in &decks {
        let row = m
            .configs
            .iter()
            .find(|c| &c.player_deck == d)
            .expect("a listed deck has a row");
        let md = meta.decks.iter().find(|x| &x.deck == d);
        let not_exact = md
            .and_then(|x| x.not_exact)
            .unwrap_or(row.player_cards_not_exact);
        let cards = md.and_then(|x| x.cards);
        let what = match (not_exact, cards) {
            (0, Some(n)) => format!("all {n} cards fully encoded"),
            (0, None) => "every card fully encoded".to_string(),
            (k, Some(n)) => format!("{k} of {n} cards not fully encoded"),
            (k, None) => format!("{} not fully encoded", plural(k as usize, "card", "cards")),
        };
        let name = m
            .decks
            .iter()
            .find(|(stem, _)| stem == d)
            .map_or(d.clone(), |(stem, name)| format!("{name} ({stem})"));
        coverage.push(format!("{name}: {what}"));
    }
    facts.push(("Card coverage".to_string(), Rich::text(coverage.join("; "))));
    let mut files = vec!["summary.parquet".to_string()];
    for (has, name) in [
        (m.has_cards, "cards.parquet"),
        (m.has_rares, "rares.parquet"),
        (m.has_diffs, "diffs.parquet"),
        (m.meta.is_some(), "meta.json"),
    ] {
        if has {
            files.push(name.to_string());
        }
    }
    facts.push(("Files read".to_string(), Rich::text(files.join(", "))));
    let mut blocks = vec![Block::Facts(facts)];
    if m.meta.is_none() {
        blocks.push(Block::Note(
            Rich::text("No meta.json in the run directory: the version, commit and date of the run are not known; the other facts come from summary.parquet.")
        ));
    }
    blocks
}

/// The colour of a policy: its place among the run's policies (weakest first), the same in
/// every chart.
fn policy_color(m: &Model, policy: &str) -> &'static str {
    svg::color(m.policies.iter().position(|p| p == policy).unwrap_or(0))
}

/// The decks in the order the comparison shows them: by the strongest player policy's win
/// rate with the fewest rares, highest first (decks it did not play last, in run order).
fn decks_by_strength(m: &Model) -> Vec<(String, String)> {
    let key = |stem: &str| -> f64 {
        for p in m.players().into_iter().rev() {
            if let Some(g) = m.group(stem, p) {
                return g.fewest().rate.estimate;
            }
        }
        f64::NEG_INFINITY
    };
    let mut v = m.decks.clone();
    v.sort_by(|a, b| key(&b.0).total_cmp(&key(&a.0)));
    v
}

/// The groups of one deck, policies weakest first.
fn deck_groups<'a>(m: &'a Model, stem: &str) -> Vec<&'a Group> {
    m.policies.iter().filter_map(|p| m.group(stem, p)).collect()
}

fn findings_section(m: &Model) -> Section {
    Section {
        id: "findings".into(),
        title: "Key findings".into(),
        blocks: findings::findings(m),
    }
}

fn win_rate_series(m: &Model, g: &Group) -> svg::LineSeries {
    svg::LineSeries {
        name: g.label(),
        color: policy_color(m, &g.policy),
        points: g
            .by_rares
            .iter()
            .map(|p| svg::LinePoint {
                x: p.rare_count,
                y: p.rate.estimate,
                lo: p.rate.lo,
                hi: p.rate.hi,
                games: p.games,
                configs: p.configs,
            })
            .collect(),
        dots: g
            .rows
            .iter()
            .map(|&r| {
                let c = &m.configs[r];
                svg::ConfigDot {
                    config_id: c.config_id,
                    x: c.rare_count,
                    y: c.win_rate,
                    lo: c.win_rate_lo,
                    hi: c.win_rate_hi,
                    mix: c.rare_mix.join("; "),
                }
            })
            .collect(),
    }
}

/// The file of deck `stem`'s win-rate panel: numbered by the deck's order of appearance.
fn panel_file(m: &Model, stem: &str) -> String {
    let i = m.decks.iter().position(|(s, _)| s == stem).unwrap_or(0);
    format!("win_rate_{}.svg", i + 1)
}

fn win_rate_section(m: &Model) -> Section {
    let order = decks_by_strength(m);
    let all: Vec<(String, Vec<svg::LineSeries>, Vec<String>)> = order
        .iter()
        .map(|(stem, name)| {
            let groups = deck_groups(m, stem);
            (
                name.clone(),
                groups.iter().map(|g| win_rate_series(m, g)).collect(),
                groups.iter().map(|g| g.policy.clone()).collect(),
            )
        })
        .collect();
    let flat: Vec<&svg::LineSeries> = all.iter().flat_map(|x| &x.1).collect();
    let range = svg::fitted_range(&flat, Some(m.target));
    let charts: Vec<Chart> = order
        .iter()
        .zip(&all)
        .map(|((stem, _), (name, series, labels))| {
            let title = format!("Win rate: {name}");
            Chart {
                file: panel_file(m, stem),
                svg: svg::win_rate_panel(&title, series, labels, range, Some(m.target)),
                title,
            }
        })
        .collect();
    let mut blocks = vec![Block::Paragraph(Rich::text(
        "One panel per player deck, strongest first, and one line per policy: the win rate pooled over every configuration with that number of rares (their wins over their games), its 95% Wilson interval as a band, and each configuration (rare mix) as a small dot.",
    ))];
    blocks.push(Block::Panels {
        charts,
        caption: Rich::text(format!(
            "Win rate (y, from {} to {}, the same in every panel) against the number of rares swapped into the Confluence deck (x); the dashed line is the target, {}.",
            pct(range.0),
            pct(range.1),
            pct(m.target)
        )),
    });
    let mut rows = Vec::new();
    for g in &m.groups {
        for p in &g.by_rares {
            rows.push(vec![
                Rich::text(g.deck_name.clone()),
                Rich::text(g.policy.clone()),
                Rich::text(p.rare_count.to_string()),
                Rich::text(p.configs.to_string()),
                Rich::text(thousands(p.games)),
                Rich::text(pct(p.rate.estimate)),
                Rich::text(pct_interval(p.rate.lo, p.rate.hi)),
            ]);
        }
    }
    blocks.push(Block::Details {
        summary: format!(
            "The numbers behind the panels ({})",
            plural(rows.len(), "row", "rows")
        ),
        blocks: vec![Block::Table(DocTable {
            header: [
                "Deck",
                "Policy",
                "Rares",
                "Configs",
                "Games",
                "Win rate",
                "95% interval",
            ]
            .map(String::from)
            .to_vec(),
            numeric: vec![false, false, true, true, true, true, true],
            rows,
        })],
    });
    Section {
        id: "win-rate".into(),
        title: "Win rate against the number of rares".into(),
        blocks,
    }
}

/// How many configurations per (deck, policy) the folded target table lists.
const TARGET_ROWS: usize = 3;

/// Per deck and policy, the rare mixes whose win rate is closest to the target.
fn target_section(m: &Model) -> Section {
    let t = m.target;
    let universe = findings::rare_universe(m);
    let mut blocks = vec![Block::Paragraph(
        Rich::default()
            .t(format!(
                "Per player deck and policy, the configuration of this run whose win rate is closest to {} (set with ",
                pct(t)
            ))
            .code("confluence-sim report --target P")
            .t("), and whether its 95% interval contains it. Rare mixes are shortened; ")
            .code("summary.csv")
            .t(" lists each in full (")
            .code("rare_mix")
            .t("). To search more mixes than the run holds, use ")
            .code(format!("confluence-sim tune --target {t}"))
            .t("."),
    )];
    let contains = |i: usize| {
        let c = &m.configs[i];
        c.win_rate_lo <= t && t <= c.win_rate_hi
    };
    let mut rows = Vec::new();
    let mut more = Vec::new();
    for (stem, _) in decks_by_strength(m) {
        for g in deck_groups(m, &stem) {
            let (best, side) = findings::closest(m, g, t);
            let c = &m.configs[best];
            rows.push(vec![
                Rich::text(g.deck_name.clone()),
                Rich::text(g.policy.clone()),
                Rich::text(findings::short_mix(&c.rare_mix, &universe)),
                Rich::text(format!(
                    "{} {}",
                    pct(c.win_rate),
                    pct_interval(c.win_rate_lo, c.win_rate_hi)
                )),
                Rich::text(match side {
                    Some(false) => "no: every mix is below".to_string(),
                    Some(true) => "no: every mix is above".to_string(),
                    None if contains(best) => "yes".to_string(),
                    None => "no".to_string(),
                }),
            ]);
            let mut idx: Vec<usize> = g.rows.clone();
            idx.sort_by(|&a, &b| {
                let (x, y) = (&m.configs[a], &m.configs[b]);
                (x.win_rate - t)
                    .abs()
                    .total_cmp(&(y.win_rate - t).abs())
                    .then(x.config_id.cmp(&y.config_id))
            });
            for &i in idx.iter().take(TARGET_ROWS) {
                let c = &m.configs[i];
                more.push(vec![
                    Rich::text(g.deck_name.clone()),
                    Rich::text(g.policy.clone()),
                    Rich::text(c.config_id.to_string()),
                    Rich::text(findings::short_mix(&c.rare_mix, &universe)),
                    Rich::text(format!(
                        "{} {}",
                        pct(c.win_rate),
                        pct_interval(c.win_rate_lo, c.win_rate_hi)
                    )),
                    Rich::text(if contains(i) { "yes" } else { "no" }),
                ]);
            }
        }
    }
    let head = format!("Contains {}", pct(t));
    blocks.push(Block::Table(DocTable {
        header: ["Deck", "Policy", "Closest mix", "Win rate", &head]
            .map(String::from)
            .to_vec(),
        numeric: vec![false, false, false, true, false],
        rows,
    }));
    blocks.push(Block::Details {
        summary: format!(
            "The {TARGET_ROWS} closest configurations of each deck and policy ({})",
            plural(more.len(), "row", "rows")
        ),
        blocks: vec![Block::Table(DocTable {
            header: ["Deck", "Policy", "Config", "Rare mix", "Win rate", &head]
                .map(String::from)
                .to_vec(),
            numeric: vec![false, false, true, false, true, false],
            rows: more,
        })],
    });
    Section {
        id: "target".into(),
        title: format!("Which mixes give {}", pct(t)),
        blocks,
    }
}

fn rate_cell(p: &Pooled) -> Rich {
    Rich::text(format!(
        "{} {}",
        pct(p.rate.estimate),
        pct_interval(p.rate.lo, p.rate.hi)
    ))
}

fn comparison_section(m: &Model) -> Section {
    let order = decks_by_strength(m);
    let point = |p: &Pooled| svg::RatePoint {
        rares: p.rare_count,
        y: p.rate.estimate,
        lo: p.rate.lo,
        hi: p.rate.hi,
    };
    let comp: Vec<svg::CompDeck> = order
        .iter()
        .map(|(stem, name)| svg::CompDeck {
            name: name.clone(),
            rows: deck_groups(m, stem)
                .into_iter()
                .rev()
                .map(|g| svg::CompRow {
                    series: g.label(),
                    policy: g.policy.clone(),
                    color: policy_color(m, &g.policy),
                    fewest: point(g.fewest()),
                    most: g.most().map(point),
                })
                .collect(),
        })
        .collect();
    let title = "Win rate by deck and policy".to_string();
    let chart = Chart {
        file: "deck_comparison.svg".into(),
        svg: svg::comparison_chart(&title, &comp, Some(m.target)),
        title,
    };
    let mut blocks = vec![Block::Paragraph(Rich::text(
        "Each deck, strongest first, with each policy: the pooled win rate with the fewest rares of the run (filled dot) and with the most (hollow dot), each with its 95% interval.",
    ))];
    blocks.push(Block::Figure {
        chart,
        caption: Rich::text(format!(
            "Sorted by the strongest policy's win rate with the fewest rares; the dashed line is the target, {}.",
            pct(m.target)
        )),
    });
    // One row per deck: each policy's win rates and the skill gap.
    let players = m.players();
    let gaps = findings::skill_gaps(m);
    let fewest_n = m
        .groups
        .iter()
        .map(|g| g.fewest().rare_count)
        .min()
        .unwrap_or(0);
    let most_n = m
        .groups
        .iter()
        .filter_map(|g| g.most().map(|x| x.rare_count))
        .max();
    let mut header = vec!["Deck".to_string()];
    let mut numeric = vec![false];
    for p in &m.policies {
        header.push(format!("{p}, {fewest_n} rares"));
        numeric.push(true);
        if let Some(n) = most_n {
            header.push(format!("{p}, {n} rares"));
            numeric.push(true);
        }
    }
    if !gaps.is_empty() {
        header.push(format!("Skill gap, {fewest_n} rares"));
        numeric.push(true);
        if let Some(n) = most_n {
            header.push(format!("Skill gap, {n} rares"));
            numeric.push(true);
        }
    }
    let mut rows = Vec::new();
    for (stem, name) in &order {
        let mut row = vec![Rich::text(name.clone())];
        for p in &m.policies {
            let g = m.group(stem, p);
            let at = |n: u32| {
                g.and_then(|g| g.by_rares.iter().find(|x| x.rare_count == n))
                    .map_or_else(|| Rich::text("—"), |x| Rich::text(pct(x.rate.estimate)))
            };
            row.push(at(fewest_n));
            if let Some(n) = most_n {
                row.push(at(n));
            }
        }
        if !gaps.is_empty() {
            let gap = gaps.iter().find(|x| &x.deck == stem);
            let cell = |g: Option<findings::Gap>| {
                g.map_or_else(|| Rich::text("—"), |g| Rich::text(findings::gap_ci(&g)))
            };
            let pick = |n: u32| {
                gap.and_then(|x| {
                    [x.fewest, x.most]
                        .into_iter()
                        .flatten()
                        .find(|g| g.rare_count == n)
                })
            };
            row.push(cell(pick(fewest_n)));
            if let Some(n) = most_n {
                row.push(cell(pick(n)));
            }
        }
        rows.push(row);
    }
    blocks.push(Block::Table(DocTable {
        header,
        numeric,
        rows,
    }));
    if !gaps.is_empty() {
        let pairs: Vec<String> = {
            let mut v: Vec<String> = Vec::new();
            for g in &gaps {
                let s = format!("{} − {}", g.strong, g.weak);
                if !v.contains(&s) {
                    v.push(s);
                }
            }
            v
        };
        blocks.push(Block::Note(
            Rich::default()
                .t("Skill gap: the strongest policy's win rate minus the weakest's (")
                .code(pairs.join(", "))
                .t("), with a 95% interval that treats their games as independent (they share game seeds, so it is conservative). Policies rank random < greedy < planner < expert < search; a bound such as clairvoyant is left out."),
        ));
    } else if players.len() < 2 {
        blocks.push(Block::Note(Rich::text(
            "One player policy in this run: no skill gap to show.",
        )));
    }
    // The long table: one row per deck and policy.
    let mut long = Vec::new();
    for (stem, _) in &order {
        for g in deck_groups(m, stem) {
            let f = g.fewest();
            let diff = match (&g.diff, g.most()) {
                (Some(d), Some(_)) => {
                    Rich::text(format!("{} {}", pp(d.diff), pct_interval_pp(d.lo, d.hi)))
                }
                _ => Rich::text("—"),
            };
            long.push(vec![
                Rich::text(g.deck_name.clone()),
                Rich::text(g.policy.clone()),
                Rich::text(f.rare_count.to_string()),
                rate_cell(f),
                Rich::text(g.most().map_or("—".into(), |x| x.rare_count.to_string())),
                g.most().map_or_else(|| Rich::text("—"), rate_cell),
                diff,
                Rich::text(format!("{:.2}", g.days_mean_fewest)),
                Rich::text(
                    g.most()
                        .map_or("—".into(), |_| format!("{:.2}", g.days_mean_most)),
                ),
            ]);
        }
    }
    let mut folded = vec![Block::Table(DocTable {
        header: [
            "Deck",
            "Policy",
            "Fewest rares",
            "Win rate",
            "Most rares",
            "Win rate",
            "Paired difference",
            "Mean days, fewest",
            "Mean days, most",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![false, false, true, true, true, true, true, true, true],
        rows: long,
    })];
    if m.has_diffs {
        let bases: Vec<u32> = {
            let mut v: Vec<u32> = m
                .groups
                .iter()
                .filter_map(|g| g.diff.as_ref())
                .flat_map(|d| d.baseline_rares.clone())
                .collect();
            v.sort();
            v.dedup();
            v
        };
        let baseline = if bases.is_empty() {
            // One mix per deck and policy: each configuration is its own baseline.
            "its baseline's (the first configuration of its deck and policy; this run has one rare mix each, so there is no difference to show)".to_string()
        } else if bases == [0] {
            "its all-common baseline's".to_string()
        } else {
            format!(
                "its baseline's (the run has no all-common configuration for every deck and policy: the baselines have {} rares, the first configuration of each group)",
                bases
                    .iter()
                    .map(|b| b.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        folded.push(Block::Note(Rich::text(format!(
            "The paired difference comes from diffs.parquet: the configuration's win rate minus {baseline}, on the same games (common random numbers), with its 95% interval in percentage points. With several configurations at the highest rare count it is their games-weighted mean, and the interval is the mean of their bounds, which is conservative: the spread of a mean of correlated differences is never more than the mean of their spreads."
        ))));
    } else {
        folded.push(Block::Note(
            Rich::default()
                .t("The paired difference needs ")
                .code("diffs.parquet")
                .t(", which this run did not write; the two win rates above are independent estimates, and their intervals overlap more than a paired comparison would."),
        ));
    }
    blocks.push(Block::Details {
        summary: "Every deck and policy: intervals, paired difference, mean days".into(),
        blocks: folded,
    });
    Section {
        id: "decks".into(),
        title: "Deck comparison".into(),
        blocks,
    }
}

fn rares_section(m: &Model) -> Section {
    let mut blocks = Vec::new();
    if !m.has_rares {
        blocks.push(Block::Note(
            Rich::default()
                .t("This section needs a sweep over rare mixes: ")
                .code("rares.parquet")
                .t(" is not in the run directory. It estimates each rare's effect from many mixes, for example from ")
                .code("confluence-sim run --rares 0..=15 --subsets 5")
                .t("."),
        ));
        return Section {
            id: "rares".into(),
            title: "Which rares make it hardest".into(),
            blocks,
        };
    }
    blocks.push(Block::Paragraph(Rich::text(
        "The change in win rate when a rare replaces its common twin, in percentage points, with its 95% interval; the most negative (the rare that makes the Confluence hardest) comes first. One chart per deck and policy, decks strongest first; the numbers are folded under each chart.",
    )));
    let mut cells = Vec::new();
    for (stem, _) in decks_by_strength(m) {
        for g in deck_groups(m, &stem) {
            if g.rares.is_empty() {
                cells.push(vec![Block::Note(Rich::text(format!(
                    "{}: rares.parquet has no rows for this deck and policy.",
                    g.label()
                )))]);
                continue;
            }
            let bars: Vec<svg::Bar> = g
                .rares
                .iter()
                .map(|r| svg::Bar {
                    label: r.rare.clone(),
                    value: r.effect,
                    lo: r.effect_lo,
                    hi: r.effect_hi,
                })
                .collect();
            let title = format!("Effect of each rare: {}", g.label());
            let chart = Chart {
                file: format!("rare_impact_{}.svg", g.number),
                svg: svg::effect_chart(&title, &bars),
                title,
            };
            let methods: Vec<String> = {
                let mut v: Vec<String> = Vec::new();
                for r in &g.rares {
                    if !v.contains(&r.method) {
                        v.push(r.method.clone());
                    }
                }
                v
            };
            let hardest = &g.rares[0];
            let caption = Rich::default()
                .t(format!(
                    "Hardest: {} ({} {}). Bars: the estimated effect; whiskers: its 95% interval. Method: ",
                    hardest.rare,
                    pp(hardest.effect),
                    pct_interval_pp(hardest.effect_lo, hardest.effect_hi),
                ))
                .code(methods.join(", "))
                .t(".");
            let table = Block::Table(DocTable {
                header: ["Rare", "Effect", "95% interval", "Configs", "Games"]
                    .map(String::from)
                    .to_vec(),
                numeric: vec![false, true, true, true, true],
                rows: g
                    .rares
                    .iter()
                    .map(|r| {
                        vec![
                            Rich::text(r.rare.clone()),
                            Rich::text(pp(r.effect)),
                            Rich::text(pct_interval_pp(r.effect_lo, r.effect_hi)),
                            Rich::text(thousands(r.configs)),
                            Rich::text(thousands(r.games)),
                        ]
                    })
                    .collect(),
            });
            cells.push(vec![
                Block::Figure { chart, caption },
                Block::Details {
                    summary: format!("Numbers: {}", g.label()),
                    blocks: vec![table],
                },
            ]);
        }
    }
    blocks.push(Block::Grid(cells));
    Section {
        id: "rares".into(),
        title: "Which rares make it hardest".into(),
        blocks,
    }
}

fn days_cell(g: &Group) -> Vec<Block> {
    let fewest_n = g.fewest().rare_count;
    let (mut low, mut high) = (0, 0);
    let series: Vec<svg::HistSeries> = g
        .day_series
        .iter()
        .map(|s| {
            let color = if s.rare_count == fewest_n {
                low += 1;
                svg::LOW_COLORS[(low - 1) % svg::LOW_COLORS.len()]
            } else {
                high += 1;
                svg::HIGH_COLORS[(high - 1) % svg::HIGH_COLORS.len()]
            };
            svg::HistSeries {
                name: s.label.clone(),
                color,
                config_ids: s.config_ids.clone(),
                counts: s.histogram.clone(),
                games: s.outcomes.games,
            }
        })
        .collect();
    let title = format!("Day the game ended: {}", g.label());
    let chart = Chart {
        file: format!("days_{}.svg", g.number),
        svg: svg::day_histogram(&title, &series),
        title,
    };
    let pooled_mixes = g
        .day_series
        .iter()
        .filter(|s| s.rare_count > 0 && s.mixes.len() > 1)
        .count();
    let caption = Rich::text(if pooled_mixes == 0 {
        "Bars: share of games that ended on each day.".to_string()
    } else {
        "Bars: share of games that ended on each day; several mixes with the same number of rares are pooled or shown side by side.".to_string()
    });
    let mut blocks = vec![Block::Figure { chart, caption }];
    type Count = fn(&Outcomes) -> u64;
    let outcome_rows: [(&str, Count); 9] = [
        ("Won", |o| o.wins()),
        ("…by meeting the expeditions", |o| o.wins_expeditions_met),
        ("…by Confluence deck-out", |o| o.wins_confluence_deck_out),
        ("…by a card's ability", |o| o.wins_by_card),
        ("Lost", |o| o.losses()),
        ("…to the hero's Darkness", |o| o.losses_hero_darkness),
        ("…to the companion's Darkness", |o| {
            o.losses_companion_darkness
        }),
        ("…to a card's ability", |o| o.losses_by_card),
        ("Stopped at the day cap", |o| o.day_caps),
    ];
    // The card-ability rows only where some game ended so (Lyra Festival).
    let by_card = |o: &Outcomes| o.wins_by_card + o.losses_by_card;
    let any_by_card = g.day_series.iter().any(|s| by_card(&s.outcomes) > 0);
    let mut rows = vec![
        std::iter::once(Rich::text("Games"))
            .chain(
                g.day_series
                    .iter()
                    .map(|s| Rich::text(thousands(s.outcomes.games))),
            )
            .collect::<Vec<_>>(),
    ];
    for (label, get) in outcome_rows {
        if label.contains("card's ability") && !any_by_card {
            continue;
        }
        rows.push(
            std::iter::once(Rich::text(label))
                .chain(
                    g.day_series
                        .iter()
                        .map(|s| Rich::text(share(get(&s.outcomes), s.outcomes.games))),
                )
                .collect(),
        );
    }
    blocks.push(Block::Table(DocTable {
        header: std::iter::once("Outcome".to_string())
            .chain(g.day_series.iter().map(|s| s.label.clone()))
            .collect(),
        numeric: std::iter::once(false)
            .chain(g.day_series.iter().map(|_| true))
            .collect(),
        rows,
    }));
    let caps: u64 = g.day_series.iter().map(|s| s.outcomes.day_caps).sum();
    if caps > 0 {
        blocks.push(Block::Note(Rich::text(format!(
            "{} stopped at the day cap without a result; they count as neither wins nor losses, and the win rate counts them as not won.",
            plural(caps as usize, "game", "games")
        ))));
    }
    blocks
}

fn days_section(m: &Model) -> Section {
    let mut blocks = vec![Block::Paragraph(Rich::text(
        "The day on which games ended, as a share of each configuration's games, with the fewest and with the most rares side by side, and how the games ended: one chart and table per deck and policy, folded below.",
    ))];
    let mut summary = Vec::new();
    for (stem, _) in decks_by_strength(m) {
        for g in deck_groups(m, &stem) {
            summary.push(vec![
                Rich::text(g.deck_name.clone()),
                Rich::text(g.policy.clone()),
                Rich::text(format!("{:.2}", g.days_mean_fewest)),
                Rich::text(
                    g.most()
                        .map_or("—".into(), |_| format!("{:.2}", g.days_mean_most)),
                ),
            ]);
        }
    }
    let cells: Vec<Vec<Block>> = decks_by_strength(m)
        .iter()
        .flat_map(|(stem, _)| deck_groups(m, stem))
        .map(days_cell)
        .collect();
    blocks.push(Block::Details {
        summary: format!(
            "Mean days, and the day histograms of the {}",
            plural(m.groups.len(), "deck and policy", "decks and policies")
        ),
        blocks: vec![
            Block::Table(DocTable {
                header: [
                    "Deck",
                    "Policy",
                    "Mean days, fewest rares",
                    "Mean days, most rares",
                ]
                .map(String::from)
                .to_vec(),
                numeric: vec![false, false, true, true],
                rows: summary,
            }),
            Block::Grid(cells),
        ],
    });
    Section {
        id: "days".into(),
        title: "How long games last".into(),
        blocks,
    }
}

fn card_table(cards: &[&CardRow]) -> DocTable {
    DocTable {
        header: [
            "Card",
            "Copies",
            "Play rate",
            "Win rate when played",
            "Win rate when not played",
            "Games played",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![false, true, true, true, true, true],
        rows: cards
            .iter()
            .map(|c| {
                vec![
                    Rich::text(c.card.clone()),
                    Rich::text(c.copies.to_string()),
                    Rich::text(pct(c.play_rate)),
                    Rich::text(pct(c.win_rate_when_played)),
                    Rich::text(pct(c.win_rate_when_not_played)),
                    Rich::text(thousands(c.games_played)),
                ]
            })
            .collect(),
    }
}

fn cards_section(m: &Model) -> Section {
    let mut blocks = Vec::new();
    if !m.has_cards {
        blocks.push(Block::Note(
            Rich::default()
                .t("This section needs ")
                .code("cards.parquet")
                .t(" (play rates and win rates per card), which is not in the run directory."),
        ));
        return Section {
            id: "cards".into(),
            title: "Cards".into(),
            blocks,
        };
    }
    blocks.push(Block::Paragraph(Rich::text(format!(
        "For the configuration with the fewest rares (all commons, when the run has it) of each deck and policy: how often each card was played (share of games with at least one copy played), and the win rate of the games in which it was, and was not, played; sorted by play rate, folded per deck and policy. A card played in more winning games is not necessarily stronger: cards drawn in long games are played more often. The key findings list the cards played in under {} of games.",
        pct(findings::RARELY_PLAYED)
    ))));
    for (stem, _) in decks_by_strength(m) {
        for g in deck_groups(m, &stem) {
            let c = m
                .configs
                .iter()
                .find(|c| c.config_id == g.cards_config)
                .expect("the cards configuration is in the summary");
            let summary = format!(
                "{}, {} (config {})",
                g.label(),
                if c.rare_count == 0 {
                    "all commons".to_string()
                } else {
                    plural(c.rare_count as usize, "rare", "rares")
                },
                c.config_id
            );
            let mut inner = Vec::new();
            if g.cards.is_empty() {
                inner.push(Block::Note(Rich::text(format!(
                    "cards.parquet has no rows for config {}.",
                    c.config_id
                ))));
            } else {
                for (side, title) in [
                    ("confluence", "Confluence cards"),
                    ("player", "Player's cards"),
                ] {
                    let rows: Vec<&CardRow> = g.cards.iter().filter(|c| c.side == side).collect();
                    inner.push(Block::Heading {
                        level: 4,
                        text: title.into(),
                    });
                    if rows.is_empty() {
                        inner.push(Block::Note(Rich::text("No rows.")));
                    } else {
                        inner.push(Block::Table(card_table(&rows)));
                    }
                }
            }
            blocks.push(Block::Details {
                summary,
                blocks: inner,
            });
        }
    }
    Section {
        id: "cards".into(),
        title: "Cards".into(),
        blocks,
    }
}

/// Lays the model out as headings, paragraphs, tables and figures (with their charts):
/// the key findings first, then the charts that show them, the long tables folded, and
/// the run's metadata last.
pub fn document(m: &Model) -> Document {
    let sections = vec![
        findings_section(m),
        comparison_section(m),
        win_rate_section(m),
        target_section(m),
        rares_section(m),
        days_section(m),
        cards_section(m),
        Section {
            id: "run".into(),
            title: "The run".into(),
            blocks: metadata(m),
        },
    ];
    Document {
        title: "Confluence simulation report".into(),
        lead: lead(m),
        sections,
        footer: Rich::default()
            .t(format!(
                "Generated by confluence-sim {} (",
                env!("CARGO_PKG_VERSION")
            ))
            .code("confluence-sim report")
            .t(") from the files of the run directory. Intervals are 95% Wilson score intervals (Wilson 1927; Brown, Cai & DasGupta 2001) unless a file gives its own."),
    }
}
