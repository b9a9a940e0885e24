//! The key findings: the run's questions answered in sentences with numbers and intervals,
//! and the caveats that limit what the figures mean. Everything here is computed from the
//! [`Model`]; the sections below the findings show the same numbers in charts and tables.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use std::collections::BTreeMap;

use serde::Serialize;

use super::document::*;
use super::model::{Group, Model, Pooled, is_bound};

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// A play rate under which a card counts as almost never played.
pub const RARELY_PLAYED: f64 = 0.01;

/// A difference of two pooled win rates at one number of rares.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Gap {
    pub rare_count: u32,
    pub diff: f64,
    pub lo: f64,
    pub hi: f64,
}

/// `strong` minus `weak` at `rare_count` (both pooled there), with a 95% Wald interval for
/// the difference of two independent proportions. The two policies play the same game
/// seeds (common random numbers), which correlates them positively, so this interval is
/// conservative. `None` when either group lacks that rare count or has no games.
pub fn gap(weak: &Group, strong: &Group, rare_count: u32) -> Option<Gap> {
    let at = |g: &Group| -> Option<Pooled> {
        g.by_rares
            .iter()
            .find(|p| p.rare_count == rare_count && p.games > 0)
            .cloned()
    };
    let (a, b) = (at(weak)?, at(strong)?);
    let rate = |p: &Pooled| p.wins as f64 / p.games as f64;
    let (pa, pb) = (rate(&a), rate(&b));
    let se = (pa * (1.0 - pa) / a.games as f64 + pb * (1.0 - pb) / b.games as f64).sqrt();
    let diff = pb - pa;
    Some(Gap {
        rare_count,
        diff,
        lo: diff - Z95 * se,
        hi: diff + Z95 * se,
    })
}

/// The skill gap of one deck: its strongest player policy of the run minus its weakest
/// (see [`super::model::policy_rank`]), with the fewest and with the most rares.
#[derive(Clone, Debug, Serialize)]
pub struct SkillGap {
    pub deck: String,
    pub name: String,
    pub weak: String,
    pub strong: String,
    pub fewest: Option<Gap>,
    pub most: Option<Gap>,
}

/// One [`SkillGap`] per deck played by at least two player policies, in deck order.
pub fn skill_gaps(m: &Model) -> Vec<SkillGap> {
    let players = m.ranked();
    let mut out = Vec::new();
    for (stem, name) in &m.decks {
        let groups: Vec<&Group> = players.iter().filter_map(|p| m.group(stem, p)).collect();
        if groups.len() < 2 {
            continue;
        }
        let (weak, strong) = (groups[0], groups[groups.len() - 1]);
        out.push(SkillGap {
            deck: stem.clone(),
            name: name.clone(),
            weak: weak.policy.clone(),
            strong: strong.policy.clone(),
            fewest: gap(weak, strong, strong.fewest().rare_count),
            most: strong.most().and_then(|p| gap(weak, strong, p.rare_count)),
        });
    }
    out
}

/// "against all commons" or "with N rares".
pub fn at_rares(n: u32) -> String {
    if n == 0 {
        "against all commons".into()
    } else {
        format!("with {}", plural(n as usize, "rare", "rares"))
    }
}

/// A difference with its interval in percentage points: `+21.0 pp [18.9, 23.1]`.
pub fn gap_ci(g: &Gap) -> String {
    format!("{} {}", pp(g.diff), pct_interval_pp(g.lo, g.hi))
}

/// Every rare named in the run's mixes, in order of first appearance.
pub fn rare_universe(m: &Model) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for c in &m.configs {
        for r in &c.rare_mix {
            if !v.contains(r) {
                v.push(r.clone());
            }
        }
    }
    v
}

/// A rare mix as the report names it: [`short_mix`], folding the whole list of its rares
/// when the short form leaves some out (`6 rares: A, B +4`).
pub fn mix_rich(mix: &[String], universe: &[String]) -> Rich {
    let short = short_mix(mix, universe);
    let full = if short.contains(" +") {
        format!("{}: {}", plural(mix.len(), "rare", "rares"), mix.join(", "))
    } else {
        short.clone()
    };
    Rich::default().mix(short, full)
}

/// A rare mix in a few words, so that it never wraps to many lines: `all commons`,
/// `all 15 rares`, `2 rares: A, B`, `13 rares: all but A, B`, `6 rares: A, B, C +3`.
/// [`mix_rich`] folds the full list under it; `summary.csv` has it too (`rare_mix`).
pub fn short_mix(mix: &[String], universe: &[String]) -> String {
    let k = mix.len();
    let all = universe.len();
    if k == 0 {
        return "all commons".into();
    }
    if k == all && all > 1 {
        return format!("all {all} rares");
    }
    let head = plural(k, "rare", "rares");
    if k <= 3 {
        return format!("{head}: {}", mix.join(", "));
    }
    if all > k && all - k <= 2 {
        let missing: Vec<String> = universe
            .iter()
            .filter(|r| !mix.contains(r))
            .cloned()
            .collect();
        return format!("{head}: all but {}", missing.join(", "));
    }
    format!("{head}: {} +{}", mix[..2].join(", "), k - 2)
}

/// The configuration of a group whose win rate is closest to `t` (ties: lowest id), and
/// whether every configuration of the group lies below (`Some(false)`) or above
/// (`Some(true)`) the target with its whole interval.
pub fn closest(m: &Model, g: &Group, t: f64) -> (usize, Option<bool>) {
    let mut idx = g.rows.clone();
    idx.sort_by(|&a, &b| {
        let (x, y) = (&m.configs[a], &m.configs[b]);
        (x.win_rate - t)
            .abs()
            .total_cmp(&(y.win_rate - t).abs())
            .then(x.config_id.cmp(&y.config_id))
    });
    let side = if idx.iter().all(|&i| m.configs[i].win_rate_hi < t) {
        Some(false)
    } else if idx.iter().all(|&i| m.configs[i].win_rate_lo > t) {
        Some(true)
    } else {
        None
    };
    (idx[0], side)
}

fn ranking(m: &Model) -> Vec<Rich> {
    let mut out = Vec::new();
    for p in m.players().into_iter().rev() {
        let mut groups: Vec<&Group> = m.groups.iter().filter(|g| &g.policy == p).collect();
        if groups.is_empty() {
            continue;
        }
        groups.sort_by(|a, b| {
            b.fewest()
                .rate
                .estimate
                .total_cmp(&a.fewest().rate.estimate)
        });
        let fewest_n = groups[0].fewest().rare_count;
        let same_fewest = groups.iter().all(|g| g.fewest().rare_count == fewest_n);
        let mut r = Rich::default()
            .strong("How the decks rank")
            .t(" (")
            .code(p.clone());
        if groups.len() == 1 {
            let g = groups[0];
            r = r.t(format!(
                "): {} wins {} {}",
                g.deck_name,
                rate_ci(&g.fewest().rate),
                at_rares(g.fewest().rare_count)
            ));
            if let Some(x) = g.most() {
                r = r.t(format!(
                    " and {} {}",
                    rate_ci(&x.rate),
                    at_rares(x.rare_count)
                ));
            }
            out.push(r.t("."));
            continue;
        }
        let list: Vec<String> = groups
            .iter()
            .map(|g| {
                if same_fewest {
                    format!("{} {}", g.deck_name, rate_ci(&g.fewest().rate))
                } else {
                    format!(
                        "{} {} ({})",
                        g.deck_name,
                        rate_ci(&g.fewest().rate),
                        at_rares(g.fewest().rare_count)
                    )
                }
            })
            .collect();
        r = r.t(if same_fewest {
            format!(", {}): {}", at_rares(fewest_n), list.join(", "))
        } else {
            format!(", fewest rares of each): {}", list.join(", "))
        });
        // With the most rares, the range and whether the order holds.
        let most: Vec<(&Group, &Pooled)> = groups
            .iter()
            .filter_map(|g| g.most().map(|x| (*g, x)))
            .collect();
        if most.len() == groups.len() {
            let n = most[0].1.rare_count;
            if most.iter().all(|(_, x)| x.rare_count == n) {
                let mut sorted = most.clone();
                sorted.sort_by(|a, b| b.1.rate.estimate.total_cmp(&a.1.rate.estimate));
                let same_order = sorted
                    .iter()
                    .zip(&groups)
                    .all(|(a, b)| a.0.player_deck == b.player_deck);
                let (top, bottom) = (sorted[0], sorted[sorted.len() - 1]);
                r = r.t(format!(
                    ". {}, from {} ({}) to {} ({}){}",
                    capitalise(&at_rares(n)),
                    pct(top.1.rate.estimate),
                    top.0.deck_name,
                    pct(bottom.1.rate.estimate),
                    bottom.0.deck_name,
                    if same_order {
                        ", in the same order"
                    } else {
                        ", in a different order (see the deck comparison)"
                    }
                ));
            }
        }
        out.push(r.t("."));
    }
    out
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn targets(m: &Model) -> Vec<Rich> {
    let t = m.target;
    let universe = rare_universe(m);
    let mut out = Vec::new();
    for p in m.players().into_iter().rev() {
        // Decks in the order of the ranking: this policy's win rate, highest first.
        let mut groups: Vec<&Group> = m.groups.iter().filter(|g| &g.policy == p).collect();
        groups.sort_by(|a, b| {
            b.fewest()
                .rate
                .estimate
                .total_cmp(&a.fewest().rate.estimate)
        });
        if groups.is_empty() {
            continue;
        }
        let mut r = Rich::default()
            .strong(format!("Closest to {}", pct(t)))
            .t(" (")
            .code(p.clone())
            .t(", the run's mixes): ");
        for (k, g) in groups.iter().enumerate() {
            let (i, side) = closest(m, g, t);
            let c = &m.configs[i];
            let rate = format!(
                "{} {}",
                pct(c.win_rate),
                pct_interval(c.win_rate_lo, c.win_rate_hi)
            );
            if k > 0 {
                r = r.t("; ");
            }
            r = match side {
                Some(false) => r.t(format!(
                    "{} never reaches it (at best {rate}, ",
                    g.deck_name
                )),
                Some(true) => r.t(format!(
                    "{} stays above it (at hardest {rate}, ",
                    g.deck_name
                )),
                None => r.t(format!("{} {rate} (", g.deck_name)),
            };
            let mix = mix_rich(&c.rare_mix, &universe);
            r.0.extend(mix.0);
            r = r.t(")");
        }
        out.push(r.t("."));
    }
    out
}

fn hardest_rares(m: &Model) -> Option<Rich> {
    let with: Vec<&Group> = m.groups.iter().filter(|g| !g.rares.is_empty()).collect();
    if with.is_empty() {
        return None;
    }
    // A rare is called hard only when its whole 95% interval is below zero.
    let hard = |r: &&crate::report::inputs::RareRow| r.effect_hi < 0.0;
    // How often each rare is among the three hardest (most negative effects) of a group,
    // counting only the effects distinguishable from zero.
    let mut top3: BTreeMap<String, usize> = BTreeMap::new();
    for g in &with {
        for r in g.rares.iter().take(3).filter(hard) {
            *top3.entry(r.rare.clone()).or_default() += 1;
        }
    }
    let mut counts: Vec<(String, usize)> = top3.into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    // The most negative effect, among the distinguishable ones when there are any.
    let most_negative = |only_hard: bool| {
        with.iter()
            .flat_map(|g| g.rares.iter().map(move |r| (g, r)))
            .filter(|(_, r)| !only_hard || hard(r))
            .min_by(|a, b| a.1.effect.total_cmp(&b.1.effect))
    };
    let (g, r) = most_negative(true)
        .or_else(|| most_negative(false))
        .expect("a group with rares");
    let n = with.len();
    let mut s = Rich::default().strong("Hardest rares").t(": ");
    let none = "none is distinguishable from no effect (every 95% interval includes zero or lies above it)";
    if n == 1 {
        let names: Vec<String> = g
            .rares
            .iter()
            .take(3)
            .filter(hard)
            .map(|r| {
                format!(
                    "{} {} {}",
                    r.rare,
                    pp(r.effect),
                    pct_interval_pp(r.effect_lo, r.effect_hi)
                )
            })
            .collect();
        s = s.t(if names.is_empty() {
            format!("for {}, {none}.", g.label())
        } else {
            format!("for {}, {}.", g.label(), join_and(&names))
        });
        return Some(s);
    }
    let lead: Vec<String> = counts
        .iter()
        .take(3)
        .enumerate()
        .map(|(i, (name, k))| {
            if i == 0 {
                format!(
                    "{name} is among the three hardest for {k} of the {n} deck and policy pairs"
                )
            } else {
                format!("{name} for {k}")
            }
        })
        .collect();
    let negative = with
        .iter()
        .flat_map(|g| &g.rares)
        .filter(|r| r.effect_hi < 0.0)
        .count();
    let total: usize = with.iter().map(|g| g.rares.len()).sum();
    if lead.is_empty() {
        s = s.t(format!(
            "{none}, for each of the {n} deck and policy pairs; the most negative estimate is {} for {}: {} {}.",
            r.rare,
            g.label(),
            pp(r.effect),
            pct_interval_pp(r.effect_lo, r.effect_hi),
        ));
        return Some(s);
    }
    s = s.t(format!(
        "{} (counting only effects below zero with their whole 95% interval). The largest of those is {} for {}: {} {}. {} of the {} effects are below zero with their whole interval.",
        join_and(&lead),
        r.rare,
        g.label(),
        pp(r.effect),
        pct_interval_pp(r.effect_lo, r.effect_hi),
        negative,
        total
    ));
    Some(s)
}

fn skill(m: &Model) -> Vec<Rich> {
    let players = m.ranked();
    let mut out = Vec::new();
    if players.len() < 2 {
        if let Some(p) = players.first() {
            out.push(
                Rich::default()
                    .strong("Skill gap")
                    .t(": one player policy in this run (")
                    .code(p.to_string())
                    .t("); add a weaker or stronger one (")
                    .code("--policy greedy --policy planner")
                    .t(") to see how much skill changes the win rate."),
            );
        }
    } else {
        let gaps = skill_gaps(m);
        let describe = |which: &dyn Fn(&SkillGap) -> Option<Gap>| -> Option<String> {
            let mut v: Vec<(&SkillGap, Gap)> = gaps
                .iter()
                .filter_map(|s| which(s).map(|g| (s, g)))
                .collect();
            if v.is_empty() {
                return None;
            }
            v.sort_by(|a, b| a.1.diff.total_cmp(&b.1.diff));
            let n = v[0].1.rare_count;
            if !v.iter().all(|(_, g)| g.rare_count == n) {
                return None;
            }
            let above = v.iter().filter(|(_, g)| g.lo > 0.0).count();
            let mean = v.iter().map(|(_, g)| g.diff).sum::<f64>() / v.len() as f64;
            let (lo, hi) = (&v[0], &v[v.len() - 1]);
            Some(if v.len() == 1 {
                format!("{} {}", gap_ci(&lo.1), at_rares(n))
            } else {
                format!(
                    "{}: from {} ({}) to {} ({}), mean {}; clearly above zero for {} of {} decks",
                    at_rares(n),
                    gap_ci(&lo.1),
                    lo.0.name,
                    gap_ci(&hi.1),
                    hi.0.name,
                    pp(mean),
                    above,
                    v.len()
                )
            })
        };
        let pairs: Vec<(String, String)> = {
            let mut v: Vec<(String, String)> = Vec::new();
            for g in &gaps {
                let k = (g.strong.clone(), g.weak.clone());
                if !v.contains(&k) {
                    v.push(k);
                }
            }
            v
        };
        if !gaps.is_empty() {
            let names = pairs
                .iter()
                .map(|(s, w)| format!("{s} − {w}"))
                .collect::<Vec<_>>()
                .join(", ");
            let mut parts = Vec::new();
            if let Some(f) = describe(&|s: &SkillGap| s.fewest) {
                parts.push(f);
            }
            if let Some(x) = describe(&|s: &SkillGap| s.most) {
                parts.push(x);
            }
            out.push(
                Rich::default()
                    .strong("Skill gap")
                    .t(" (strongest minus weakest policy, ")
                    .code(names)
                    .t(format!(
                        "): {}. Intervals treat the two policies' games as independent; they share game seeds, so the true intervals are narrower.",
                        parts.join("; ")
                    )),
            );
        }
    }
    // Bounds: how far above the strongest player they are.
    for b in m.policies.iter().filter(|p| is_bound(p)) {
        let Some(strong) = players.last() else {
            break;
        };
        let v: Vec<Gap> = m
            .decks
            .iter()
            .filter_map(|(stem, _)| {
                let (s, bg) = (m.group(stem, strong)?, m.group(stem, b)?);
                gap(s, bg, s.fewest().rare_count)
            })
            .collect();
        if v.is_empty() {
            continue;
        }
        let mean = v.iter().map(|g| g.diff).sum::<f64>() / v.len() as f64;
        out.push(
            Rich::default()
                .strong("Upper bound")
                .t(": ")
                .code(b.clone())
                .t(format!(
                    " sees cards a player cannot, so it is a bound, not a player: it wins {} more than ",
                    pp(mean)
                ))
                .code(strong.to_string())
                .t(format!(
                    " on average over {} with the fewest rares.",
                    plural(v.len(), "deck", "decks")
                )),
        );
    }
    for p in &m.policies {
        if super::model::policy_rank(p).is_none() && !is_bound(p) {
            out.push(
                Rich::default()
                    .t("The policy ")
                    .code(p.clone())
                    .t(" is not one this report ranks (random < greedy < planner < expert < search); it is listed after them and left out of the skill gap."),
            );
        }
    }
    out
}

/// The caveats: rarely played cards, cards not fully encoded, the day cap, and the
/// model's warnings about its inputs.
fn caveats(m: &Model) -> Vec<Rich> {
    let mut out = Vec::new();
    if m.has_cards {
        let mut parts = Vec::new();
        for p in m
            .players()
            .into_iter()
            .chain(m.policies.iter().filter(|p| is_bound(p)))
        {
            let groups: Vec<&Group> = m.groups.iter().filter(|g| &g.policy == p).collect();
            let mut rare = 0;
            let mut never: Vec<String> = Vec::new();
            for g in &groups {
                for c in g.cards.iter().filter(|c| c.side == "player") {
                    if c.play_rate < RARELY_PLAYED {
                        rare += 1;
                    }
                    if c.games_played == 0 && c.games > 0 {
                        let s = if m.decks.len() > 1 {
                            format!("{} ({})", c.card, g.deck_name)
                        } else {
                            c.card.clone()
                        };
                        if !never.contains(&s) {
                            never.push(s);
                        }
                    }
                }
            }
            if rare == 0 {
                continue;
            }
            let never_text = match never.len() {
                0 => String::new(),
                k if k <= 4 => format!(", and never plays {}", join_and(&never)),
                k => format!(
                    ", and never plays {} and {} more (see Cards)",
                    never[..3].join(", "),
                    k - 3
                ),
            };
            parts.push(format!(
                "{p} plays {} of its decks' cards in under {} of games{never_text}",
                rare,
                pct(RARELY_PLAYED).trim_end_matches(".0%").to_string() + "%"
            ));
        }
        if !parts.is_empty() {
            out.push(
                Rich::default()
                    .strong("Rarely played cards")
                    .t(format!(
                        " (fewest-rares games): {}. These cards barely count in the figures; a policy that played them might do better.",
                        parts.join("; ")
                    )),
            );
        }
    }
    // Cards not fully encoded.
    let meta_decks = m.meta.as_ref().map(|x| x.decks.clone()).unwrap_or_default();
    let mut inexact = Vec::new();
    for (stem, name) in &m.decks {
        let row = m
            .configs
            .iter()
            .find(|c| &c.player_deck == stem)
            .expect("a listed deck has a row");
        let md = meta_decks.iter().find(|x| &x.deck == stem);
        let k = md
            .and_then(|x| x.not_exact)
            .unwrap_or(row.player_cards_not_exact);
        if k > 0 {
            inexact.push(match md.and_then(|x| x.cards) {
                Some(n) => format!("{name} ({k} of {n} cards)"),
                None => format!("{name} ({})", plural(k as usize, "card", "cards")),
            });
        }
    }
    let exact = if inexact.is_empty() {
        format!(
            "every card of the {} is fully encoded",
            if m.decks.len() == 1 {
                "deck".to_string()
            } else {
                format!("{} decks", m.decks.len())
            }
        )
    } else {
        format!(
            "cards not fully encoded in {}: their figures are approximate",
            join_and(&inexact)
        )
    };
    let capped: Vec<&super::inputs::ConfigRow> =
        m.configs.iter().filter(|c| c.day_caps > 0).collect();
    let caps = m
        .configs
        .iter()
        .map(|c| c.day_cap.to_string())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect::<Vec<_>>()
        .join(", ");
    let days = if caps == "1" { "day" } else { "days" };
    let cap = if capped.is_empty() {
        format!("no game reached the day cap ({caps} {days})")
    } else {
        let games: u64 = capped.iter().map(|c| c.day_caps).sum();
        let worst = capped
            .iter()
            .max_by(|a, b| {
                (a.day_caps as f64 / a.games as f64)
                    .total_cmp(&(b.day_caps as f64 / b.games as f64))
            })
            .expect("a capped configuration");
        format!(
            "{} of {} reached the day cap ({caps} {days}): {} games in all, at most {} of one configuration's games (config {}); they count as not won",
            capped.len(),
            plural(m.configs.len(), "configuration", "configurations"),
            thousands(games),
            pct(worst.day_caps as f64 / worst.games as f64),
            worst.config_id
        )
    };
    out.push(
        Rich::default()
            .strong("Coverage")
            .t(format!(": {exact}; {cap}.")),
    );
    for w in &m.warnings {
        out.push(Rich::default().strong("Input").t(format!(": {w}.")));
    }
    out
}

/// The findings, in the order a designer asks the questions, then the caveats.
pub fn findings(m: &Model) -> Vec<Block> {
    let mut answers = ranking(m);
    answers.extend(targets(m));
    answers.extend(hardest_rares(m));
    answers.extend(skill(m));
    let mut blocks = vec![Block::List(answers)];
    blocks.push(Block::Heading {
        level: 3,
        text: "What limits these figures".into(),
    });
    blocks.push(Block::List(caveats(m)));
    blocks
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::report::inputs::{ConfigRow, Inputs, RareRow};
    use crate::report::model::Model;

    /// One rare's effect (fractions) for a deck and policy.
    pub(crate) fn rare(deck: &str, policy: &str, name: &str, effect: f64, half: f64) -> RareRow {
        RareRow {
            player_deck: deck.into(),
            policy: policy.into(),
            rare: name.into(),
            effect,
            effect_lo: effect - half,
            effect_hi: effect + half,
            method: "regression".into(),
            configs: 10,
            games: 10_000,
        }
    }

    /// Deck A played by greedy and planner at 0 and 2 rares, with `rares` as rares.parquet.
    pub(crate) fn with_rares(rares: Vec<RareRow>) -> Model {
        let summary = vec![
            row(0, "A", "greedy", 0, 500),
            row(1, "A", "greedy", 2, 400),
            row(2, "A", "planner", 0, 700),
            row(3, "A", "planner", 2, 600),
        ];
        let inputs = Inputs {
            dir: "x".into(),
            summary,
            cards: None,
            rares: Some(rares),
            diffs: None,
            meta: None,
        };
        Model::build(&inputs, 0.5)
    }

    #[test]
    fn a_rare_is_called_hard_only_when_its_interval_is_below_zero() {
        // greedy: R1's effect is the most negative but its interval includes zero; R2 is
        // distinguishable. planner: nothing is.
        let m = with_rares(vec![
            rare("A", "greedy", "R1", -0.03, 0.04),
            rare("A", "greedy", "R2", -0.02, 0.01),
            rare("A", "greedy", "R3", 0.01, 0.005),
            rare("A", "planner", "R1", -0.001, 0.01),
            rare("A", "planner", "R2", 0.0, 0.01),
        ]);
        let t = hardest_rares(&m).unwrap().plain();
        assert!(
            t.starts_with(
                "Hardest rares: R2 is among the three hardest for 1 of the 2 deck and policy pairs (counting only"
            ),
            "{t}"
        );
        assert!(!t.contains("R1 for") && !t.contains("R3 for"), "{t}");
        assert!(
            t.contains("The largest of those is R2 for Hero of A · greedy: −2.0"),
            "{t}"
        );
        // Nothing distinguishable anywhere: no rare is named hardest.
        let m = with_rares(vec![
            rare("A", "greedy", "R1", -0.03, 0.04),
            rare("A", "planner", "R1", -0.001, 0.01),
        ]);
        let t = hardest_rares(&m).unwrap().plain();
        assert!(
            t.starts_with("Hardest rares: none is distinguishable from no effect"),
            "{t}"
        );
        assert!(!t.contains("among the three hardest"), "{t}");
    }

    #[test]
    fn a_long_mix_is_folded_in_full_where_the_report_names_it() {
        let universe = names(&["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"]);
        let six = names(&["A", "B", "C", "D", "E", "F"]);
        let r = mix_rich(&six, &universe);
        assert_eq!(
            r.0,
            vec![Inline::Mix {
                short: "6 rares: A, B +4".into(),
                full: "6 rares: A, B, C, D, E, F".into()
            }]
        );
        assert_eq!(r.plain(), "6 rares: A, B, C, D, E, F");
        // Short mixes stay plain text.
        assert_eq!(
            mix_rich(&names(&["A", "B"]), &universe).0,
            vec![Inline::Text("2 rares: A, B".into())]
        );
        // The closest-to-target finding names its mix in full: 6 of 10 rares, at 40%.
        let summary = vec![
            row(0, "A", "greedy", 0, 900),
            row(1, "A", "greedy", 6, 400),
            row(2, "A", "greedy", 10, 100),
        ];
        let m = Model::build(
            &Inputs {
                dir: "x".into(),
                summary,
                cards: None,
                rares: None,
                diffs: None,
                meta: None,
            },
            0.4,
        );
        let t = text(&findings(&m));
        assert!(t.contains("(6 rares: R0, R1, R2, R3, R4, R5)"), "{t}");
        assert!(!t.contains(" +4"), "{t}");
    }

    pub(crate) fn row(id: u32, deck: &str, policy: &str, rares: u32, wins: u64) -> ConfigRow {
        let games = 1000;
        let ci = crate::stats::wilson(wins, games, 0.95);
        ConfigRow {
            config_id: id,
            player_deck: deck.into(),
            player_hero: format!("Hero of {deck}"),
            policy: policy.into(),
            confluence_deck: "C".into(),
            rare_count: rares,
            rare_mask: (1 << rares) - 1,
            rare_mix: (0..rares).map(|i| format!("R{i}")).collect(),
            games,
            wins,
            day_caps: 0,
            win_rate: ci.estimate,
            win_rate_lo: ci.lo,
            win_rate_hi: ci.hi,
            days_mean: 5.0,
            days_median: 5,
            day_histogram: vec![0, 0, 0, 0, games],
            wins_expeditions_met: wins,
            wins_confluence_deck_out: 0,
            losses_hero_darkness: games - wins,
            losses_companion_darkness: 0,
            wins_by_card: 0,
            losses_by_card: 0,
            player_cards_not_exact: 0,
            engine_errors: 0,
            seed: 1,
            day_cap: 30,
        }
    }

    fn text(blocks: &[Block]) -> String {
        blocks
            .iter()
            .flat_map(|b| match b {
                Block::List(items) => items.iter().map(Rich::plain).collect(),
                _ => Vec::new(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn skill_gap_spans_the_known_players_and_bounds_stand_apart() {
        let mut summary = Vec::new();
        let mut id = 0;
        // Two decks; policies given in no particular order, one unknown, one bound.
        for (deck, base) in [("A", 300u64), ("B", 600)] {
            for (policy, plus) in [
                ("mystery", 50u64),
                ("search:rollouts=64", 200),
                ("clairvoyant", 350),
                ("greedy", 0),
            ] {
                for rares in [0, 2] {
                    summary.push(row(
                        id,
                        deck,
                        policy,
                        rares,
                        base + plus - 40 * rares as u64,
                    ));
                    id += 1;
                }
            }
        }
        let inputs = Inputs {
            dir: "x".into(),
            summary,
            cards: None,
            rares: None,
            diffs: None,
            meta: None,
        };
        let m = Model::build(&inputs, 0.5);
        assert_eq!(
            m.policies,
            ["greedy", "search:rollouts=64", "mystery", "clairvoyant"]
        );
        let gaps = skill_gaps(&m);
        assert_eq!(gaps.len(), 2);
        assert_eq!(
            (gaps[0].weak.as_str(), gaps[0].strong.as_str()),
            ("greedy", "search:rollouts=64")
        );
        let g = gaps[0].fewest.unwrap();
        assert!((g.diff - 0.2).abs() < 1e-12);
        assert!(g.lo < 0.2 && g.hi > 0.2);
        let t = text(&findings(&m));
        // Decks rank by win rate, highest first, and the strongest policy comes first.
        let search = t.find("How the decks rank (search:rollouts=64").unwrap();
        assert!(t[search..].starts_with(
            "How the decks rank (search:rollouts=64, against all commons): Hero of B 80.0%"
        ));
        assert!(search < t.find("How the decks rank (greedy").unwrap());
        assert!(
            t.contains("Skill gap (strongest minus weakest policy, search:rollouts=64 − greedy)"),
            "{t}"
        );
        assert!(t.contains("clairvoyant sees cards a player cannot"));
        assert!(
            t.contains("it wins +15.0\u{a0}pp more than search:rollouts=64"),
            "{t}"
        );
        assert!(t.contains("The policy mystery is not one this report ranks"));
        assert!(t.contains("no game reached the day cap (30 days)"));
        // The target: B with search stays above 50% at its hardest (72.0% with 2 rares).
        assert!(
            t.contains("Hero of B stays above it (at hardest 72.0%"),
            "{t}"
        );
    }

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn short_mixes_stay_short() {
        let all = names(&["A", "B", "C", "D", "E", "F"]);
        assert_eq!(short_mix(&[], &all), "all commons");
        assert_eq!(short_mix(&all, &all), "all 6 rares");
        assert_eq!(short_mix(&names(&["B"]), &all), "1 rare: B");
        assert_eq!(
            short_mix(&names(&["A", "C", "D", "E"]), &all),
            "4 rares: all but B, F"
        );
        assert_eq!(
            short_mix(&names(&["A", "C", "D"]), &all),
            "3 rares: A, C, D"
        );
        let many = names(&["A", "B", "C", "D"]);
        let universe = names(&["A", "B", "C", "D", "E", "F", "G"]);
        assert_eq!(short_mix(&many, &universe), "4 rares: A, B +2");
    }
}
