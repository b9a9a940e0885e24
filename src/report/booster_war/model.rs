//! Step 2 of the Booster War report: per variant, the first player's rate, the faction
//! matrix, the Heroes best first and the cards by effect, with what the findings pick out
//! (the best and worst Hero, the most lopsided faction pair, the largest card effects).
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use std::path::PathBuf;

use serde::Serialize;

use crate::stats::{Interval, wilson};

use super::super::LEVEL;
use super::super::heatmap::Pair;
use super::super::model::distinct;
use super::inputs::{CardRow, FactionRow, HeroRow, VariantRow, WarInputs};
use super::meta::WarMeta;

/// A faction pair enters the findings with at least this many games (sides of A).
pub const MIN_PAIR_GAMES: u64 = 100;
/// A card enters the findings and the card tables when at least this many sides played it.
pub const MIN_PLAYS: u64 = 50;
/// Cards shown at each end of the effects.
pub const CARDS_SHOWN: usize = 15;

/// The factions in the order the report shows them.
const FACTION_ORDER: [(&str, &str); 7] = [
    ("AX", "Axiom"),
    ("BR", "Bravos"),
    ("LY", "Lyra"),
    ("MU", "Muna"),
    ("OR", "Ordis"),
    ("YZ", "Yzmir"),
    ("NE", "Neutral"),
];

/// A faction's name from its code (`AX` -> `Axiom`); other codes as they are.
pub fn faction_name(code: &str) -> String {
    FACTION_ORDER
        .iter()
        .find(|(c, _)| *c == code)
        .map_or_else(|| code.to_string(), |(_, n)| n.to_string())
}

fn faction_rank(code: &str) -> (usize, String) {
    let k = FACTION_ORDER.iter().position(|(c, _)| *c == code);
    (k.unwrap_or(FACTION_ORDER.len()), code.to_string())
}

/// A Hero with its win rate's interval.
#[derive(Clone, Debug, Serialize)]
pub struct HeroView {
    pub row: HeroRow,
    pub rate: Interval,
}

/// One variant's results.
#[derive(Clone, Debug, Serialize)]
pub struct VariantView {
    pub row: VariantRow,
    /// Games won by the first player of day 1, out of all games.
    pub first_player: Interval,
    /// Faction codes, in the report's order.
    pub factions: Vec<String>,
    /// `cells[a][b]`; `None` where the pair never met.
    pub cells: Vec<Vec<Option<Pair>>>,
    /// Every Hero, best win rate first (Heroes without games last).
    pub heroes: Vec<HeroView>,
    /// Every card that came out, largest effect first (never played last).
    pub cards: Vec<CardRow>,
}

impl VariantView {
    /// The non-mirror pair with at least [`MIN_PAIR_GAMES`] games that one side won most
    /// clearly (the largest margin of wins over losses per game), from the winner's side;
    /// and how many unordered pairs qualified.
    pub fn lopsided(&self) -> (Option<&Pair>, usize) {
        let eligible: Vec<&Pair> = self
            .cells
            .iter()
            .flatten()
            .flatten()
            .filter(|c| c.a != c.b && c.games >= MIN_PAIR_GAMES)
            .collect();
        let margin = |c: &Pair| (c.wins_a as f64 - c.wins_b as f64) / c.games as f64;
        // Ties go to the first pair in the report's order.
        let best = eligible
            .iter()
            .filter(|c| c.wins_a >= c.wins_b)
            .max_by(|x, y| {
                margin(x)
                    .total_cmp(&margin(y))
                    .then((y.a, y.b).cmp(&(x.a, x.b)))
            })
            .copied();
        (best, eligible.len() / 2)
    }

    /// The most games of a non-mirror pair.
    pub fn most_pair_games(&self) -> u64 {
        let cells = self.cells.iter().flatten().flatten();
        cells
            .filter(|c| c.a != c.b)
            .map(|c| c.games)
            .max()
            .unwrap_or(0)
    }

    /// Heroes that played at least one game.
    pub fn heroes_played(&self) -> Vec<&HeroView> {
        self.heroes.iter().filter(|h| h.row.games > 0).collect()
    }

    /// Cards played by at least [`MIN_PLAYS`] sides, largest effect first.
    pub fn eligible_cards(&self) -> Vec<&CardRow> {
        self.cards
            .iter()
            .filter(|c| c.played >= MIN_PLAYS && c.effect.is_finite())
            .collect()
    }

    /// The [`CARDS_SHOWN`] largest effects, and the [`CARDS_SHOWN`] smallest (most negative
    /// first) not already among them.
    pub fn top_and_bottom(&self) -> (Vec<&CardRow>, Vec<&CardRow>) {
        let e = self.eligible_cards();
        let top = e.len().min(CARDS_SHOWN);
        let bottom = (e.len() - top).min(CARDS_SHOWN);
        let worst = e[e.len() - bottom..].iter().rev().copied().collect();
        (e[..top].to_vec(), worst)
    }
}

/// What the Booster War report shows.
#[derive(Clone, Debug, Serialize)]
pub struct WarModel {
    pub dir: PathBuf,
    /// In the order of `booster_war.parquet`.
    pub variants: Vec<VariantView>,
    pub meta: Option<WarMeta>,
    pub warnings: Vec<String>,
}

fn variant(row: &VariantRow, inputs: &WarInputs) -> VariantView {
    let mine = |r: &FactionRow| r.variant == row.variant;
    let mut factions = distinct(
        inputs
            .factions
            .iter()
            .filter(|r| mine(r))
            .flat_map(|r| [r.faction_a.clone(), r.faction_b.clone()]),
    );
    factions.sort_by_key(|f| faction_rank(f));
    let pos = |f: &str| factions.iter().position(|x| x == f).expect("listed");
    let k = factions.len();
    let mut cells: Vec<Vec<Option<Pair>>> = vec![vec![None; k]; k];
    for r in inputs.factions.iter().filter(|r| mine(r)) {
        let (a, b) = (pos(&r.faction_a), pos(&r.faction_b));
        cells[a][b] = Some(Pair::new(a, b, r.games, r.wins_a, r.wins_b, r.draws));
    }
    let mut heroes: Vec<HeroView> = inputs
        .heroes
        .iter()
        .filter(|h| h.variant == row.variant)
        .map(|h| HeroView {
            row: h.clone(),
            rate: wilson(h.wins, h.games, LEVEL),
        })
        .collect();
    let key = |h: &HeroView| {
        if h.row.games == 0 {
            f64::NEG_INFINITY
        } else {
            h.rate.estimate
        }
    };
    heroes.sort_by(|x, y| {
        key(y)
            .total_cmp(&key(x))
            .then(y.row.games.cmp(&x.row.games))
            .then(x.row.hero.cmp(&y.row.hero))
    });
    let mut cards: Vec<CardRow> = inputs
        .cards
        .iter()
        .filter(|c| c.variant == row.variant)
        .cloned()
        .collect();
    let effect = |c: &CardRow| {
        if c.effect.is_finite() {
            c.effect
        } else {
            f64::NEG_INFINITY
        }
    };
    cards.sort_by(|x, y| {
        effect(y)
            .total_cmp(&effect(x))
            .then(x.reference.cmp(&y.reference))
    });
    VariantView {
        row: row.clone(),
        first_player: wilson(row.first_player_wins, row.games, LEVEL),
        factions,
        cells,
        heroes,
        cards,
    }
}

impl WarModel {
    pub fn build(inputs: &WarInputs) -> WarModel {
        let variants: Vec<VariantView> =
            inputs.variants.iter().map(|r| variant(r, inputs)).collect();
        let mut warnings = Vec::new();
        for (what, values) in [
            (
                "seeds",
                distinct(inputs.variants.iter().map(|r| r.seed.to_string())),
            ),
            (
                "sets",
                distinct(inputs.variants.iter().map(|r| r.set.clone())),
            ),
            (
                "policies",
                distinct(inputs.variants.iter().map(|r| r.policy.clone())),
            ),
        ] {
            if values.len() > 1 {
                warnings.push(format!(
                    "the variants were played with different {what} ({}): not one booster-war run",
                    values.join(", ")
                ));
            }
        }
        WarModel {
            dir: inputs.dir.clone(),
            variants,
            meta: inputs.meta.clone(),
            warnings,
        }
    }

    /// Games of all variants.
    pub fn total_games(&self) -> u64 {
        self.variants.iter().map(|v| v.row.games).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(reference: &str, played: u64, effect: f64) -> CardRow {
        CardRow {
            variant: "shuffled".into(),
            reference: reference.into(),
            name: reference.into(),
            faction: "AX".into(),
            rarity: "Common".into(),
            kind: "Character".into(),
            hand_cost: 1,
            held: played,
            played,
            play_rate: 1.0,
            win_rate_held: 0.5,
            win_rate_played: 0.5,
            win_rate_not_played: 0.5,
            effect,
            effect_lo: effect - 0.1,
            effect_hi: effect + 0.1,
        }
    }

    fn view(cards: Vec<CardRow>, cells: Vec<Vec<Option<Pair>>>) -> VariantView {
        VariantView {
            row: VariantRow {
                variant: "shuffled".into(),
                set: "CORE".into(),
                policy: "greedy".into(),
                games: 1000,
                seat_a_wins: 500,
                seat_b_wins: 500,
                draws: 0,
                first_player_wins: 500,
                days_mean: 4.0,
                extra_day_games: 0,
                arena_games: 0,
                cards_played_mean: 10.0,
                engine_errors: 0,
                seed: 1,
                day_cap: 30,
            },
            first_player: wilson(500, 1000, LEVEL),
            factions: vec!["AX".into(), "BR".into()],
            cells,
            heroes: Vec::new(),
            cards,
        }
    }

    fn cell(a: usize, b: usize, wins: u64, games: u64) -> Option<Pair> {
        Some(Pair::new(a, b, games, wins, games - wins, 0))
    }

    #[test]
    fn top_and_bottom_cards_are_distinct_and_played_enough() {
        // 40 cards played often enough, largest effect first, and a rarely played one.
        let mut cards: Vec<CardRow> = (0..40)
            .map(|i| card(&format!("c{i:02}"), 60, 0.2 - i as f64 * 0.01))
            .collect();
        cards.insert(3, card("rare", MIN_PLAYS - 1, 0.19));
        cards.push(card("never", 0, f64::NAN));
        let v = view(cards, Vec::new());
        let (top, bottom) = v.top_and_bottom();
        let refs = |v: &[&CardRow]| v.iter().map(|c| c.reference.clone()).collect::<Vec<_>>();
        assert_eq!(refs(&top)[..2], ["c00", "c01"]);
        assert_eq!((top.len(), bottom.len()), (CARDS_SHOWN, CARDS_SHOWN));
        assert_eq!(refs(&bottom)[..2], ["c39", "c38"]);
        assert!(!refs(&top).contains(&"rare".to_string()));
        // Fewer than twice CARDS_SHOWN: the bottom takes what the top left.
        let few = view(
            (0..20)
                .map(|i| card(&format!("d{i}"), 60, -(i as f64)))
                .collect(),
            Vec::new(),
        );
        let (top, bottom) = few.top_and_bottom();
        assert_eq!((top.len(), bottom.len()), (15, 5));
        assert_eq!(bottom[0].reference, "d19");
    }

    #[test]
    fn the_lopsided_pair_needs_enough_games_and_is_told_from_the_winner() {
        // 30–80–10 from A's side: B's 80 wins are the larger margin, though A's 25% lies
        // farther from one half than B's 66.7%.
        let mut ab = cell(0, 1, 30, 120).unwrap();
        ab.wins_b = 80;
        ab.draws = 10;
        let mut ba = cell(1, 0, 80, 120).unwrap();
        ba.wins_b = 30;
        ba.draws = 10;
        let cells = vec![
            vec![cell(0, 0, 100, 200), Some(ab)],
            vec![Some(ba), cell(1, 1, 60, 120)],
        ];
        let v = view(Vec::new(), cells);
        let (c, pairs) = v.lopsided();
        let c = c.unwrap();
        assert_eq!((c.a, c.b, pairs), (1, 0, 1));
        // Below the threshold, no pair qualifies.
        let thin = vec![
            vec![None, cell(0, 1, 30, MIN_PAIR_GAMES - 1)],
            vec![cell(1, 0, 69, MIN_PAIR_GAMES - 1), None],
        ];
        let v = view(Vec::new(), thin);
        assert!(v.lopsided().0.is_none());
        assert_eq!(v.most_pair_games(), MIN_PAIR_GAMES - 1);
        assert_eq!(faction_name("LY"), "Lyra");
        assert_eq!(faction_name("other"), "other");
    }
}
