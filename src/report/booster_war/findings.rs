//! Step 3, first part: the Booster War report's key findings, in plain sentences, for
//! each variant; and the sentence comparing two variants.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use crate::stats::interval::z_for;

use super::super::LEVEL;
use super::super::document::*;
use super::super::heatmap::Pair;
use super::model::{CARDS_SHOWN, MIN_PAIR_GAMES, MIN_PLAYS, VariantView, WarModel, faction_name};

/// A variant's name as the report writes it in a heading or sentence.
pub(crate) fn variant_title(name: &str) -> String {
    match name {
        "shuffled" => "Shuffled boosters".into(),
        "ordered" => "Ordered boosters".into(),
        other => format!("Variant `{other}`"),
    }
}

/// What a variant is, for the lead and the run.
pub(crate) fn variant_what(name: &str) -> &'static str {
    match name {
        "shuffled" => "each booster shuffled into its deck (the least technical variant)",
        "ordered" => {
            "each booster stacked in the order its policy chooses (the most technical variant)"
        }
        _ => "a variant this report does not describe",
    }
}

fn first_player(v: &VariantView) -> Rich {
    let f = &v.first_player;
    let verdict = if f.lo > 0.5 {
        "its 95% interval lies above 50%: the first player has an edge"
    } else if f.hi < 0.5 {
        "its 95% interval lies below 50%: the second player has an edge"
    } else {
        "its 95% interval includes 50%: no edge for either player is measurable"
    };
    Rich::default()
        .t("The first player on day 1 won ")
        .strong(rate_ci(f))
        .t(format!(
            " of the {} games (draws count as not won); {verdict}.",
            thousands(v.row.games)
        ))
}

fn heroes(v: &VariantView) -> Rich {
    let played = v.heroes_played();
    let (Some(best), Some(worst)) = (played.first(), played.last()) else {
        return Rich::text("No Hero played a game.");
    };
    let one = |h: &super::model::HeroView| {
        format!(
            " ({}), {} over {} games",
            faction_name(&h.row.faction),
            rate_ci(&h.rate),
            thousands(h.row.games)
        )
    };
    let above = played.iter().filter(|h| h.rate.lo > 0.5).count();
    let below = played.iter().filter(|h| h.rate.hi < 0.5).count();
    Rich::default()
        .t("Best Hero: ")
        .strong(best.row.hero.clone())
        .t(format!("{}; worst: ", one(best)))
        .strong(worst.row.hero.clone())
        .t(format!(
            "{}. Of the {}, {above} won significantly more than half their games and {below} significantly fewer (95% intervals).",
            one(worst),
            plural(played.len(), "Hero that played", "Heroes that played"),
        ))
}

fn pair_text(v: &VariantView, c: &Pair) -> (String, String) {
    (
        faction_name(&v.factions[c.a]),
        faction_name(&v.factions[c.b]),
    )
}

fn factions(v: &VariantView) -> Rich {
    let (cell, pairs) = v.lopsided();
    let Some(c) = cell else {
        return Rich::text(format!(
            "No pair of different factions met in {MIN_PAIR_GAMES} games or more (at most {} games), too few to name the most lopsided faction pair.",
            thousands(v.most_pair_games())
        ));
    };
    let (a, b) = pair_text(v, c);
    let verdict = if c.rate.lo > 0.5 {
        "its 95% interval lies above 50%"
    } else {
        "but its 95% interval includes 50%: not a clear edge"
    };
    Rich::default()
        .t(format!(
            "Most lopsided faction pair (of the {pairs} pairs of different factions with at least {MIN_PAIR_GAMES} games): "
        ))
        .strong(format!("{a} against {b}"))
        .t(format!(
            ", won {} by {a} ({}–{}–{} over {} games); {verdict}.",
            rate_ci(&c.rate),
            c.wins_a,
            c.wins_b,
            c.draws,
            thousands(c.games)
        ))
}

fn cards(v: &VariantView) -> Rich {
    let e = v.eligible_cards();
    let (Some(top), Some(bottom)) = (e.first(), e.last()) else {
        return Rich::text(format!(
            "No card was played by {MIN_PLAYS} sides or more, too few to measure card effects."
        ));
    };
    let one = |c: &super::inputs::CardRow| {
        format!(
            " ({} {}, {}): {} {}, played by {} sides",
            faction_name(&c.faction),
            c.rarity.to_lowercase(),
            c.kind.to_lowercase(),
            pp(c.effect),
            pct_interval_pp(c.effect_lo, c.effect_hi),
            thousands(c.played)
        )
    };
    Rich::default()
        .t(format!(
            "Card effects (the win rate of the sides that played a card minus that of all other sides), among the {} played by at least {MIN_PLAYS} sides: largest ",
            plural(e.len(), "card", "cards")
        ))
        .strong(top.name.clone())
        .t(format!("{}; smallest ", one(top)))
        .strong(bottom.name.clone())
        .t(format!(
            "{}. An effect is an association, not a cause: a card that comes out when a side is already ahead looks strong.",
            one(bottom)
        ))
}

fn ending(v: &VariantView) -> Rich {
    let r = &v.row;
    let mut s = format!(
        "{} games ({}) went past day 4 (a tie after day 4 plays day 5), and {} ({}) went to the Arena tiebreaker. Games lasted {:.2} days on average, with {:.1} cards played per side.",
        thousands(r.extra_day_games),
        share(r.extra_day_games, r.games),
        thousands(r.arena_games),
        share(r.arena_games, r.games),
        r.days_mean,
        r.cards_played_mean,
    );
    if r.draws > 0 {
        s.push_str(&format!(
            " {} games ({}) ended without a winner: draws, not won by either side.",
            thousands(r.draws),
            share(r.draws, r.games),
        ));
    }
    Rich::text(s)
}

/// The findings of one variant, as a list.
pub fn variant_findings(v: &VariantView) -> Block {
    Block::List(vec![
        first_player(v),
        heroes(v),
        factions(v),
        cards(v),
        ending(v),
    ])
}

/// One sentence comparing the first two variants' first-player rates and mean days, with a
/// 95% normal interval on the difference of the rates.
pub fn comparison(m: &WarModel) -> Option<Rich> {
    let [a, b] = [m.variants.first()?, m.variants.get(1)?];
    let (p, q) = (&a.first_player, &b.first_player);
    let (n, k) = (a.row.games as f64, b.row.games as f64);
    let d = p.estimate - q.estimate;
    let se = (p.estimate * (1.0 - p.estimate) / n + q.estimate * (1.0 - q.estimate) / k).sqrt();
    let z = z_for(LEVEL);
    let (lo, hi) = (d - z * se, d + z * se);
    let verdict = if lo > 0.0 || hi < 0.0 {
        "its 95% interval excludes 0"
    } else {
        "within chance: its 95% interval includes 0"
    };
    Some(Rich::text(format!(
        "{} and {} compared: the first player won {} and {} of the games, a difference of {} {}, {verdict}; games lasted {:.2} and {:.2} days on average.",
        variant_title(&a.row.variant),
        variant_title(&b.row.variant).to_lowercase(),
        rate_ci(p),
        rate_ci(q),
        pp(d),
        pct_interval_pp(lo, hi),
        a.row.days_mean,
        b.row.days_mean
    )))
}

/// The card tables' threshold, for the cards section.
pub fn cards_note() -> String {
    format!(
        "The {CARDS_SHOWN} largest and {CARDS_SHOWN} smallest effects among the cards played by at least {MIN_PLAYS} sides."
    )
}
