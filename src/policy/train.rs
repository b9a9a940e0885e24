//! Training the `expert`: examples from the search's choices, and a logistic fit.
//!
//! At each decision of a family (card into Mana, Afternoon turn) the search is asked; for
//! every candidate it found strictly worse than its choice, the example is the difference
//! of the two options' features (chosen minus other). A logistic regression without
//! intercept on these differences (each also mirrored with the opposite label) is a linear
//! ranking model: its weights score options so that the search's choice scores highest.
//! The fit is linfa's (L-BFGS); the data and the fit are deterministic.

use arrayvec::ArrayVec;
use linfa::Dataset;
use linfa::traits::Fit;
use linfa_logistic::LogisticRegression;
use ndarray::{Array1, Array2};

use super::features::{self, Family, MANA_F, TURN_F};
use super::{ExpertWeights, Planner, PlannerParams, Policy, PolicyData, PolicyRng, Search};
use crate::engine::Choice;
use crate::engine::view::View;

/// Feature differences, per family.
#[derive(Clone, Debug, Default)]
pub struct Examples {
    pub mana: Vec<[f32; MANA_F]>,
    pub turn: Vec<[f32; TURN_F]>,
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
                    out.mana
                        .push(std::array::from_fn(|i| fs[chosen][i] - fs[k][i]));
                }
            }
        }
        Family::Turn => {
            let ranked = planner.ranked(view, options);
            let ctx = features::TurnCtx::new(view);
            let fc = features::turn(view, &data.profiles, &ctx, options, chosen, &ranked);
            for k in worse {
                let fk = features::turn(view, &data.profiles, &ctx, options, k, &ranked);
                out.turn.push(std::array::from_fn(|i| fc[i] - fk[i]));
            }
        }
    }
}

/// Fits one family's weights. `alpha` is the L2 penalty.
fn fit<const N: usize>(rows: &[[f32; N]], alpha: f64) -> Result<[f32; N], String> {
    if rows.len() < 2 * N {
        return Err(format!(
            "only {} examples for {N} features: play more games",
            rows.len()
        ));
    }
    let n = rows.len();
    let mut x = Array2::<f64>::zeros((2 * n, N));
    let mut y = Array1::<usize>::zeros(2 * n);
    for (r, row) in rows.iter().enumerate() {
        for (i, v) in row.iter().enumerate() {
            x[[r, i]] = *v as f64;
            x[[n + r, i]] = -(*v as f64);
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
    Ok(std::array::from_fn(|i| p[i] as f32))
}

/// Fits both families.
pub fn fit_weights(ex: &Examples, alpha: f64) -> Result<ExpertWeights, String> {
    Ok(ExpertWeights {
        mana: fit(&ex.mana, alpha).map_err(|e| format!("mana: {e}"))?,
        turn: fit(&ex.turn, alpha).map_err(|e| format!("turn: {e}"))?,
    })
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
            rows.push(r);
        }
        let w = fit(&rows, 0.01).unwrap();
        assert!(w[0] > 1.0, "{w:?}");
        assert!(w[0] > 5.0 * w[1].abs() && w[0] > 5.0 * w[2].abs(), "{w:?}");
    }
}
