//! Training the `expert`: examples from the search's choices, and a logistic fit.
//!
//! At each decision of a family (card into Mana, Afternoon turn) the search is asked; for
//! every candidate it found strictly worse than its choice, the example is the difference
//! of the two options' features (chosen minus other). A logistic regression without
//! intercept on these differences (each also mirrored with the opposite label) is a linear
//! ranking model: its weights score options so that the search's choice scores highest.
//! Each card name and action (play from hand, from Reserve, bank as Mana, quick action)
//! met often enough adds one column, +1 for the chosen option's card and -1 for the other's:
//! the expert's per-card preferences, fitted together with the general weights.
//! The fit is linfa's (L-BFGS); the data and the fit are deterministic.
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

use arrayvec::ArrayVec;
use linfa::Dataset;
use linfa::traits::Fit;
use linfa_logistic::LogisticRegression;
use ndarray::{Array1, Array2};

use std::collections::BTreeMap;

use super::features::{self, CARD_SLOTS, Family, MANA_F, TURN_F};
use super::{ExpertWeights, Planner, PlannerParams, Policy, PolicyData, PolicyRng, Search};
use crate::cards::db::CardDb;
use crate::cards::effect::CardIdx;
use crate::engine::Choice;
use crate::engine::view::View;

/// The learned card preference an option uses: its card and slot
/// ([`features::card_slot`]).
pub type CardKey = Option<(CardIdx, usize)>;

/// One ranked pair: the feature differences (chosen minus other), and the card
/// preferences of the chosen option (counted +1) and of the other (counted -1).
#[derive(Clone, Debug)]
pub struct Example<const N: usize> {
    pub diff: [f32; N],
    pub cards: [CardKey; 2],
}

/// The card preferences of a ranked pair: the chosen option's, then the other's.
fn pair_cards(view: &View<'_>, options: &[Choice], chosen: usize, other: usize) -> [CardKey; 2] {
    [
        features::card_slot(view, &options[chosen]),
        features::card_slot(view, &options[other]),
    ]
}

/// Ranked pairs, per family.
#[derive(Clone, Debug, Default)]
pub struct Examples {
    pub mana: Vec<Example<MANA_F>>,
    pub turn: Vec<Example<TURN_F>>,
    /// Decisions the search was asked about.
    pub decisions: u64,
}

impl Examples {
    pub fn extend(&mut self, o: Examples) {
        self.mana.extend(o.mana);
        self.turn.extend(o.turn);
        self.decisions += o.decisions;
    }
}

/// A card preference is fitted only for card slots met in at least this many pairs; the
/// others stay at 0 (too few pairs to learn from).
const MIN_CARD_PAIRS: usize = 30;

/// Smallest difference of expected result (a win rate) for a pair to count: closer pairs
/// are mostly noise.
const MIN_GAP: f64 = 0.05;

/// Asks the search at one decision and records the pairs it ranks.
pub fn record(
    data: &PolicyData,
    view: &View<'_>,
    options: &[Choice],
    search: &mut Search,
    rng: &mut PolicyRng,
    out: &mut Examples,
) {
    let Some(fam) = features::family(view.decision()) else {
        return;
    };
    if options.len() < 2 {
        return;
    }
    let planner = Planner::new(data.profiles.clone(), PlannerParams::default());
    let chosen = search.choose(view, options, rng);
    let est = search.estimates();
    let Some(&(_, _, best)) = est.candidates.iter().find(|c| c.0 == chosen) else {
        return;
    };
    out.decisions += 1;
    let worse = est
        .candidates
        .iter()
        .filter(|c| c.0 != chosen && best - c.2 >= MIN_GAP)
        .map(|c| c.0);
    match fam {
        Family::Mana => {
            let mut p = planner;
            let pick = p.choose(view, options, rng);
            let mut fs: ArrayVec<features::ManaFeatures, 64> = ArrayVec::new();
            features::mana(view, &data.profiles, options, pick, &mut fs);
            for k in worse {
                if k < fs.len() && chosen < fs.len() {
                    out.mana.push(Example {
                        diff: std::array::from_fn(|i| fs[chosen][i] - fs[k][i]),
                        cards: pair_cards(view, options, chosen, k),
                    });
                }
            }
        }
        Family::Turn => {
            let (ranked, day) = planner.ranked_with_day(view, options);
            let ctx = features::TurnCtx::new(view, &day);
            let fc = features::turn(view, &data.profiles, &ctx, options, chosen, &ranked);
            for k in worse {
                let fk = features::turn(view, &data.profiles, &ctx, options, k, &ranked);
                out.turn.push(Example {
                    diff: std::array::from_fn(|i| fc[i] - fk[i]),
                    cards: pair_cards(view, options, chosen, k),
                });
            }
        }
    }
}

/// Fitted card preferences, by card name and slot.
type CardWeights = BTreeMap<(String, usize), f32>;

/// Fits one family's weights, and its card preferences (by card name and slot, so that
/// the common and rare versions of a card share one). `alpha` is the L2 penalty.
fn fit<'a, const N: usize>(
    rows: &[Example<N>],
    alpha: f64,
    name: impl Fn(CardIdx) -> &'a str,
) -> Result<([f32; N], CardWeights), String> {
    if rows.len() < 2 * N {
        return Err(format!(
            "only {} examples for {N} features: play more games",
            rows.len()
        ));
    }
    // The card columns: slots met often enough, in a fixed (sorted) order.
    let mut met: BTreeMap<(&str, usize), usize> = BTreeMap::new();
    for r in rows {
        for (card, slot) in r.cards.iter().flatten() {
            *met.entry((name(*card), *slot)).or_default() += 1;
        }
    }
    let cols: BTreeMap<(&str, usize), usize> = met
        .into_iter()
        .filter(|&(_, n)| n >= MIN_CARD_PAIRS)
        .enumerate()
        .map(|(i, (k, _))| (k, N + i))
        .collect();
    let width = N + cols.len();
    let n = rows.len();
    let mut x = Array2::<f64>::zeros((2 * n, width));
    let mut y = Array1::<usize>::zeros(2 * n);
    for (r, row) in rows.iter().enumerate() {
        for (i, v) in row.diff.iter().enumerate() {
            x[[r, i]] = *v as f64;
        }
        for (card, sign) in row.cards.iter().zip([1.0, -1.0]) {
            if let Some((c, slot)) = card
                && let Some(&col) = cols.get(&(name(*c), *slot))
            {
                x[[r, col]] += sign;
            }
        }
        for i in 0..width {
            x[[n + r, i]] = -x[[r, i]];
        }
        y[r] = 1;
    }
    let model = LogisticRegression::default()
        .alpha(alpha)
        .with_intercept(false)
        .max_iterations(200)
        .fit(&Dataset::new(x, y))
        .map_err(|e| e.to_string())?;
    let p = model.params();
    let cards = cols
        .iter()
        .map(|(&(name, slot), &col)| ((name.to_string(), slot), p[col] as f32))
        .collect();
    Ok((std::array::from_fn(|i| p[i] as f32), cards))
}

/// Fits both families.
pub fn fit_weights(ex: &Examples, alpha: f64, db: &CardDb) -> Result<ExpertWeights, String> {
    let name = |c: CardIdx| db.card(c).name.as_str();
    let (mana, mana_cards) = fit(&ex.mana, alpha, name).map_err(|e| format!("mana: {e}"))?;
    let (turn, turn_cards) = fit(&ex.turn, alpha, name).map_err(|e| format!("turn: {e}"))?;
    let mut cards: BTreeMap<String, [f32; CARD_SLOTS]> = BTreeMap::new();
    for ((name, slot), w) in mana_cards.into_iter().chain(turn_cards) {
        cards.entry(name).or_default()[slot] = w;
    }
    Ok(ExpertWeights { mana, turn, cards })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_a_clear_preference() {
        // The chosen option always has the larger first feature; the other features are
        // noise around zero.
        let mut rows = Vec::new();
        for i in 0..400u32 {
            let mut r = [0f32; 4];
            r[0] = 1.0 + (i % 3) as f32;
            r[1] = ((i * 7919) % 11) as f32 / 5.0 - 1.0;
            r[2] = ((i * 104_729) % 13) as f32 / 6.0 - 1.0;
            r[3] = -r[1];
            rows.push(Example {
                diff: r,
                cards: [None, None],
            });
        }
        let (w, cards) = fit(&rows, 0.01, |_| "unused").unwrap();
        assert!(w[0] > 1.0, "{w:?}");
        assert!(w[0] > 5.0 * w[1].abs() && w[0] > 5.0 * w[2].abs(), "{w:?}");
        assert!(cards.is_empty());
    }

    #[test]
    fn the_fit_learns_card_preferences_by_name_and_skips_rare_cards() {
        // Card 1 (and its other version, card 2, of the same name) played from hand is
        // always preferred to card 3 from hand; card 4 is met too rarely to get a weight.
        // The general feature is pure noise.
        let name = |c: CardIdx| ["", "Alpha", "Alpha", "Beta", "Gamma"][c as usize];
        let mut rows = Vec::new();
        for i in 0..200u16 {
            let chosen = 1 + i % 2;
            let other = if i < 10 { 4 } else { 3 };
            rows.push(Example {
                diff: [((i as u32 * 7919) % 11) as f32 / 5.0 - 1.0],
                cards: [Some((chosen, 0)), Some((other, 0))],
            });
        }
        let (w, cards) = fit(&rows, 0.01, name).unwrap();
        let alpha = cards[&("Alpha".to_string(), 0)];
        let beta = cards[&("Beta".to_string(), 0)];
        assert!(alpha - beta > 1.0, "{alpha} {beta}");
        assert!(w[0].abs() < 0.5 * (alpha - beta), "{w:?}");
        assert!(!cards.contains_key(&("Gamma".to_string(), 0)), "{cards:?}");
    }
}
