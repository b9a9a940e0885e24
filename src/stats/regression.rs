//! Weighted least squares for the marginal effect of each rare swap.
//!
//! Model: the win rate of configuration i is `b0 + sum_j b_j x_ij`, where `x_ij` = 1 when rare
//! j is swapped in. Each configuration is weighted by its number of games (the binomial
//! variance of its win rate is p(1-p)/n with a common p). The coefficients' covariance is
//! `s2 (X'WX)^-1`, with `s2` the larger of the pooled binomial variance p(1-p) and the
//! weighted residual variance (so that interactions the additive model misses widen the
//! intervals instead of being ignored). Standard reference: Weisberg, *Applied Linear
//! Regression* (4th ed.), ch. 7 (weighted least squares).
//!
//! Layer: part of [`crate::stats`]; may use `engine` and nothing else of the crate.

use nalgebra::{DMatrix, DVector};

/// One observed configuration: which rares it holds (bits), its wins and games.
#[derive(Copy, Clone, Debug)]
pub struct Observation {
    pub mix: u16,
    pub wins: u64,
    pub games: u64,
}

/// The effect of one rare: estimate and standard error (in win-rate units).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Effect {
    pub rare: usize,
    pub estimate: f64,
    pub se: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub intercept: f64,
    pub effects: Vec<Effect>,
    /// The variance scale used (binomial, or residual when larger).
    pub s2: f64,
    pub configs: usize,
    pub games: u64,
}

impl Fit {
    /// Predicted win rate of a mix (clamped to [0, 1]).
    pub fn predict(&self, mix: u16) -> f64 {
        let mut p = self.intercept;
        for e in &self.effects {
            if mix & (1 << e.rare) != 0 {
                p += e.estimate;
            }
        }
        p.clamp(0.0, 1.0)
    }
}

/// Fits the additive model. Rares that never vary across the observations are left out;
/// returns `None` when the rest cannot be identified (too few distinct configurations).
pub fn fit(obs: &[Observation], n_rares: usize) -> Option<Fit> {
    let games: u64 = obs.iter().map(|o| o.games).sum();
    if obs.len() < 2 || games == 0 {
        return None;
    }
    let varying: Vec<usize> = (0..n_rares)
        .filter(|&j| {
            let with = obs.iter().filter(|o| o.mix & (1 << j) != 0).count();
            with > 0 && with < obs.len()
        })
        .collect();
    let k = varying.len() + 1;
    if obs.len() < k {
        return None;
    }
    let x = DMatrix::from_fn(obs.len(), k, |i, c| {
        if c == 0 {
            1.0
        } else {
            (obs[i].mix & (1 << varying[c - 1]) != 0) as u8 as f64
        }
    });
    let w = DVector::from_iterator(obs.len(), obs.iter().map(|o| o.games as f64));
    let y = DVector::from_iterator(
        obs.len(),
        obs.iter().map(|o| o.wins as f64 / o.games.max(1) as f64),
    );
    let xtw = x.transpose() * DMatrix::from_diagonal(&w);
    let xtwx = &xtw * &x;
    let chol = xtwx.clone().cholesky()?;
    let beta = chol.solve(&(&xtw * &y));
    let inv = chol.inverse();
    let p = obs.iter().map(|o| o.wins).sum::<u64>() as f64 / games as f64;
    let binomial = p * (1.0 - p);
    let resid = &y - &x * &beta;
    let dof = obs.len() as f64 - k as f64;
    let residual = if dof > 0.0 {
        resid
            .iter()
            .zip(w.iter())
            .map(|(r, w)| w * r * r)
            .sum::<f64>()
            / dof
    } else {
        0.0
    };
    let s2 = binomial.max(residual);
    let effects = varying
        .iter()
        .enumerate()
        .map(|(c, &rare)| Effect {
            rare,
            estimate: beta[c + 1],
            se: (s2 * inv[(c + 1, c + 1)]).max(0.0).sqrt(),
        })
        .collect();
    Some(Fit {
        intercept: beta[0],
        effects,
        s2,
        configs: obs.len(),
        games,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_additive_effects_exactly() {
        // p = 0.5 - 0.1 x0 + 0.05 x1, observed without noise on four mixes.
        let truth = |m: u16| 0.5 - 0.1 * (m & 1) as f64 + 0.05 * ((m >> 1) & 1) as f64;
        let obs: Vec<Observation> = [0u16, 1, 2, 3]
            .iter()
            .map(|&m| Observation {
                mix: m,
                wins: (truth(m) * 10_000.0).round() as u64,
                games: 10_000,
            })
            .collect();
        let f = fit(&obs, 2).unwrap();
        assert!((f.intercept - 0.5).abs() < 1e-9);
        assert!((f.effects[0].estimate + 0.1).abs() < 1e-9);
        assert!((f.effects[1].estimate - 0.05).abs() < 1e-9);
        // Binomial scale: se of a difference of two 10k-game means about sqrt(2 * .25/10k)/sqrt(2).
        assert!(
            f.effects[0].se > 0.004 && f.effects[0].se < 0.012,
            "{:?}",
            f.effects[0]
        );
        assert!((f.predict(3) - 0.45).abs() < 1e-9);
    }

    #[test]
    fn needs_enough_distinct_configurations() {
        let one = [Observation {
            mix: 0,
            wins: 5,
            games: 10,
        }];
        assert!(fit(&one, 15).is_none());
        // Two identical mixes: nothing varies, only the intercept is fitted.
        let two = [
            Observation {
                mix: 3,
                wins: 5,
                games: 10,
            },
            Observation {
                mix: 3,
                wins: 6,
                games: 10,
            },
        ];
        let f = fit(&two, 15).unwrap();
        assert!(f.effects.is_empty());
    }
}
