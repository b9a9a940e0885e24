//! Step 3 of the Booster War report: the model laid out as a [`Page`] (key findings,
//! the faction heatmaps, the Heroes, the cards, the run), each section with one part per
//! variant.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use super::super::document::*;
use super::super::heatmap::{HeatCell, Heatmap, Pair, draw, pair_header};
use super::super::skeleton::Page;
use super::chart_file;
use super::findings::{cards_note, comparison, variant_findings, variant_title, variant_what};
use super::inputs::CardRow;
use super::model::{MIN_PLAYS, VariantView, WarModel, faction_name};

/// A heading per variant when the run has several.
fn heading(m: &WarModel, v: &VariantView) -> Option<Block> {
    (m.variants.len() > 1).then(|| Block::Heading {
        level: 3,
        text: variant_title(&v.row.variant),
    })
}

fn per_variant(
    m: &WarModel,
    id: &str,
    title: &str,
    part: impl Fn(&VariantView) -> Vec<Block>,
) -> Section {
    let mut blocks = Vec::new();
    for v in &m.variants {
        blocks.extend(heading(m, v));
        blocks.extend(part(v));
    }
    Section {
        id: id.into(),
        title: title.into(),
        blocks,
    }
}

/// The rules as `meta.json` records them, seed 003's where it does not: how mana is
/// described ("" when it is not unlimited), cards drawn each Morning, the last day.
fn rules(m: &WarModel) -> (&'static str, u64, u64) {
    let meta = m.meta.clone().unwrap_or_default();
    let mana = match (
        meta.free_mana.unwrap_or(true),
        meta.day_one_mana.unwrap_or(false),
    ) {
        (false, _) => "",
        (true, false) => "mana is unlimited, ",
        (true, true) => "mana is unlimited (day 1's Mana and Expand still happen), ",
    };
    (
        mana,
        meta.morning_draw.unwrap_or(3),
        meta.last_day.unwrap_or(4),
    )
}

fn lead(m: &WarModel) -> Rich {
    let first = &m.variants[0].row;
    let games = |v: &VariantView| {
        format!(
            "{} games with {}",
            thousands(v.row.games),
            variant_what(&v.row.variant)
        )
    };
    let parts: Vec<String> = m.variants.iter().map(games).collect();
    let (mana, draw, last) = rules(m);
    Rich::default()
        .t("This report covers ")
        .strong(thousands(m.total_games()))
        .t(format!(
            " simulated games of Booster War (seed 003) in set {}: each player opens a booster, its Hero comes into play and the rest is its deck; {}each player draws {draw} cards each Morning, and after day {last} the higher score wins (a tie plays day {}, then the Arena). Both players follow the {} policy: {}; seed {}, day cap {}.",
            first.set,
            mana,
            last + 1,
            first.policy,
            join_and(&parts),
            first.seed,
            first.day_cap
        ))
}

fn findings(m: &WarModel) -> Vec<Block> {
    let mut blocks = Vec::new();
    if let Some(c) = comparison(m) {
        blocks.push(Block::Paragraph(c));
    }
    for w in &m.warnings {
        blocks.push(Block::Note(Rich::text(format!("Warning: {w}."))));
    }
    for v in &m.variants {
        blocks.extend(heading(m, v));
        blocks.push(variant_findings(v));
    }
    blocks
}

fn factions_part(v: &VariantView) -> Vec<Block> {
    let labels: Vec<String> = v.factions.iter().map(|f| faction_name(f)).collect();
    let cells: Vec<Vec<Option<HeatCell>>> = v
        .cells
        .iter()
        .map(|row| row.iter().map(|c| c.as_ref().map(Pair::heat)).collect())
        .collect();
    let title = format!(
        "Faction against faction, {}",
        variant_title(&v.row.variant).to_lowercase()
    );
    let chart = Chart {
        file: chart_file(&v.row.variant),
        title: title.clone(),
        svg: draw(&Heatmap {
            title: &title,
            labels: &labels,
            id_key: "faction",
            ids: &v.factions,
            row_axis: "row: the Hero's faction",
            min_label_width: 110.0,
            col_axis: "column: the opponent Hero's faction",
            note: "the row's win rate; bold: its 95% interval excludes 50%; dashed: a mirror pair",
            cells: &cells,
        }),
    };
    let caption = Rich::text(
        "Each cell is the win rate of the sides whose Hero is of the row faction against a Hero of the column faction, with its 95% Wilson interval below it (draws count as not won); bold where the interval excludes 50%, a dash where the two never met. The dashed diagonal holds the mirror pairs, which count each game twice (once from each side), so they sit at 50% less half their draws.",
    );
    let rows = v
        .cells
        .iter()
        .flatten()
        .flatten()
        .map(|c| {
            c.row(
                faction_name(&v.factions[c.a]),
                faction_name(&v.factions[c.b]),
            )
        })
        .collect::<Vec<_>>();
    let n = rows.len();
    let (header, numeric) = pair_header("Faction");
    let table = DocTable {
        header,
        numeric,
        rows,
    };
    vec![
        Block::Figure { chart, caption },
        Block::Details {
            summary: format!("All {n} ordered faction pairs that met, with their counts"),
            blocks: vec![Block::Table(table)],
        },
    ]
}

fn heroes_part(v: &VariantView) -> Vec<Block> {
    let rows = v
        .heroes
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let r = &h.row;
            let played = r.games > 0;
            vec![
                Rich::text((i + 1).to_string()),
                Rich::text(r.hero.clone()),
                Rich::text(faction_name(&r.faction)),
                Rich::text(thousands(r.games)),
                Rich::text(format!("{}–{}–{}", r.wins, r.losses, r.draws)),
                Rich::text(if played {
                    pct(h.rate.estimate)
                } else {
                    "—".into()
                }),
                Rich::text(if played {
                    pct_interval(h.rate.lo, h.rate.hi)
                } else {
                    "—".into()
                }),
            ]
        })
        .collect();
    vec![Block::Table(DocTable {
        header: [
            "Rank",
            "Hero",
            "Faction",
            "Games",
            "Won–lost–drawn",
            "Win rate",
            "95% interval",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![true, false, false, true, true, true, true],
        rows,
    })]
}

fn card_table(cards: &[&CardRow]) -> DocTable {
    let rows = cards
        .iter()
        .map(|c| {
            vec![
                Rich::text(c.name.clone()),
                Rich::default().code(c.reference.clone()),
                Rich::text(format!(
                    "{}, {}, {}",
                    faction_name(&c.faction),
                    c.rarity.to_lowercase(),
                    c.kind.to_lowercase()
                )),
                Rich::text(thousands(c.played)),
                Rich::text(pct(c.play_rate)),
                Rich::text(pct(c.win_rate_played)),
                Rich::text(pct(c.win_rate_not_played)),
                Rich::text(format!(
                    "{} {}",
                    pp(c.effect),
                    pct_interval_pp(c.effect_lo, c.effect_hi)
                )),
            ]
        })
        .collect();
    DocTable {
        header: [
            "Card",
            "Reference",
            "Faction, rarity, type",
            "Played by",
            "Play rate",
            "Win rate when played",
            "Win rate of the others",
            "Effect [95%]",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![false, false, false, true, true, true, true, true],
        rows,
    }
}

fn cards_part(v: &VariantView) -> Vec<Block> {
    let (top, bottom) = v.top_and_bottom();
    let eligible = v.eligible_cards().len();
    let mut blocks = vec![Block::Paragraph(Rich::text(format!(
        "{} {} of the {} cards that came out in a booster were played by {MIN_PLAYS} sides or more.",
        cards_note(),
        thousands(eligible as u64),
        thousands(v.cards.len() as u64)
    )))];
    if top.is_empty() {
        blocks.push(Block::Note(Rich::text(format!(
            "No card was played by {MIN_PLAYS} sides: play more games to measure card effects."
        ))));
        return blocks;
    }
    blocks.push(Block::Heading {
        level: 4,
        text: format!("Largest effects ({})", top.len()),
    });
    blocks.push(Block::Table(card_table(&top)));
    if !bottom.is_empty() {
        blocks.push(Block::Heading {
            level: 4,
            text: format!("Smallest effects ({}, smallest first)", bottom.len()),
        });
        blocks.push(Block::Table(card_table(&bottom)));
    }
    blocks
}

fn cards_section(m: &WarModel) -> Section {
    let mut s = per_variant(m, "cards", "Cards", cards_part);
    s.blocks.insert(
        0,
        Block::Paragraph(
            Rich::default()
                .t("A card's effect is the win rate of the sides that played it at least once minus that of every other side of the variant (draws count as not won), with a 95% normal interval on the difference; the play rate is the share of the sides whose booster held it that played it. Every card, with its counts, is in ")
                .code("card_effects.csv")
                .t("."),
        ),
    );
    s
}

fn run(m: &WarModel) -> Vec<Block> {
    let meta = m.meta.clone().unwrap_or_default();
    let or_unknown = |v: Option<String>| Rich::text(v.unwrap_or_else(|| "not recorded".into()));
    let first = &m.variants[0].row;
    let slots = |s: Option<[u64; 3]>| {
        s.map(|[h, c, r]| {
            format!(
                "{}, {} and {}",
                plural(h as usize, "Hero", "Heroes"),
                plural(c as usize, "common", "commons"),
                plural(r as usize, "rare", "rares")
            )
        })
    };
    let variants: Vec<String> = m
        .variants
        .iter()
        .map(|v| format!("{} ({} games)", v.row.variant, thousands(v.row.games)))
        .collect();
    let mut facts = vec![
        ("Set".to_string(), Rich::text(first.set.clone())),
        ("Booster".to_string(), or_unknown(slots(meta.booster))),
        ("Pool".to_string(), or_unknown(slots(meta.pool))),
        ("Policy".to_string(), Rich::text(first.policy.clone())),
        ("Variants".to_string(), Rich::text(join_and(&variants))),
        ("Seed".to_string(), Rich::text(first.seed.to_string())),
        ("Day cap".to_string(), Rich::text(first.day_cap.to_string())),
    ];
    if let Some(k) = meta.not_exact.filter(|&k| k > 0) {
        facts.push((
            "Not fully encoded".to_string(),
            Rich::text(format!(
                "{} of the pool (they play with what is encoded)",
                plural(k as usize, "card", "cards")
            )),
        ));
    }
    if m.meta.is_some() {
        let (mana, draw, last) = rules(m);
        let mana = match mana {
            "" => "",
            "mana is unlimited, " => "unlimited mana, ",
            _ => "unlimited mana (day 1's Mana and Expand still happen), ",
        };
        facts.push((
            "Rules".to_string(),
            Rich::text(format!(
                "{mana}{draw} cards drawn each Morning, the score decides after day {last}"
            )),
        ));
    }
    let mut blocks = run_blocks(
        facts,
        m.meta.as_ref().map(|x| &x.run),
        &m.dir,
        "the booster, the pool, the version, commit and command",
    );
    let failed: u64 = m.variants.iter().map(|v| v.row.engine_errors).sum();
    blocks.extend(super::super::sections::engine_error_note(
        failed,
        "above",
        "booster_war.csv",
        "variant",
    ));
    blocks
}

/// Lays the Booster War model out: key findings, factions, Heroes, cards, the run.
pub fn page(m: &WarModel) -> Page {
    let heroes_intro = Block::Paragraph(Rich::text(
        "Every Hero of the set, best win rate first: a Hero's games are the sides whose booster held it (draws count as not won), with the 95% Wilson interval of its win rate.",
    ));
    let mut heroes = per_variant(m, "heroes", "Heroes", heroes_part);
    heroes.blocks.insert(0, heroes_intro);
    Page {
        title: "Booster War report",
        lead: lead(m),
        findings: findings(m),
        sections: vec![
            per_variant(m, "factions", "Factions", factions_part),
            heroes,
            cards_section(m),
        ],
        run: run(m),
        source: "a booster-war directory",
        methods: "Win-rate intervals are 95% Wilson score intervals (Wilson 1927; Brown, Cai & DasGupta 2001); card effects and the difference between variants have 95% normal (Wald) intervals.",
        warnings: m.warnings.clone(),
    }
}
