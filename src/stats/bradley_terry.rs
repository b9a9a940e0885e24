//! The Bradley–Terry model of paired comparisons (Bradley & Terry 1952): player `i` beats
//! player `j` with probability `γ_i / (γ_i + γ_j)`, or, with log-strengths `θ = ln γ`,
//! `1 / (1 + e^(θ_j − θ_i))`.
//!
//! [`fit`] finds the maximum-likelihood strengths with the MM algorithm of Hunter (2004,
//! "MM algorithms for generalized Bradley–Terry models", Annals of Statistics 32(1),
//! eq. 3). A draw counts as half a win to each side. A tiny prior keeps every strength
//! finite even when one player wins every game (where the plain maximum-likelihood
//! estimate does not exist): each player also plays `prior` virtual games against a fixed
//! reference player of strength 1, winning half of them.
//!
//! The log-strengths are reported centred (mean 0), so `θ_i = 0` is a player of average
//! strength, with standard errors from the observed Fisher information of the data: the
//! covariance of the centred log-strengths is the Moore–Penrose pseudo-inverse of the
//! information matrix, whose null space is the direction that adds the same constant to
//! every log-strength (it changes no probability).

use nalgebra::DMatrix;

/// The results of the games between two players: `a` won `wins_a`, `b` won `wins_b` (a
/// draw adds one half to each). A pairing of a player with itself is ignored (it says
/// nothing about strengths).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Pairing {
    pub a: usize,
    pub b: usize,
    pub wins_a: f64,
    pub wins_b: f64,
}

/// The fitted model.
#[derive(Clone, Debug, PartialEq)]
pub struct BtFit {
    /// Centred log-strengths (mean 0), one per player.
    pub log_strength: Vec<f64>,
    /// Their standard errors (from the observed information; see the module docs).
    pub se: Vec<f64>,
    /// MM iterations run.
    pub iterations: usize,
    /// Whether the iterations reached the tolerance (the largest change in a
    /// log-strength below 1e-10) before the cap.
    pub converged: bool,
}

/// The most MM iterations [`fit`] runs.
pub const MAX_ITERATIONS: usize = 200_000;
/// [`fit`] stops when no log-strength changes by more than this in an iteration.
pub const TOLERANCE: f64 = 1e-10;

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl BtFit {
    /// The probability that player `i` beats player `j` under the model.
    pub fn win_probability(&self, i: usize, j: usize) -> f64 {
        logistic(self.log_strength[i] - self.log_strength[j])
    }

    /// The normal-approximation interval `θ_i ± z · se_i` of a log-strength.
    pub fn interval(&self, i: usize, level: f64) -> (f64, f64) {
        let z = super::interval::z_for(level);
        let (t, s) = (self.log_strength[i], self.se[i]);
        (t - z * s, t + z * s)
    }

    /// Players from strongest to weakest (ties: the lower index first).
    pub fn order(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.log_strength.len()).collect();
        idx.sort_by(|&a, &b| {
            self.log_strength[b]
                .total_cmp(&self.log_strength[a])
                .then(a.cmp(&b))
        });
        idx
    }

    /// The rank of each player (1 = strongest), in player order.
    pub fn ranks(&self) -> Vec<usize> {
        let mut r = vec![0; self.log_strength.len()];
        for (k, i) in self.order().into_iter().enumerate() {
            r[i] = k + 1;
        }
        r
    }
}

/// Fits the Bradley–Terry model to `pairings` among `n` players (see the module docs).
/// `prior` is the number of virtual games each player plays against the reference (1 is
/// tiny next to thousands of simulated games); it must be positive for the fit to be
/// finite whatever the data, and 0 gives the plain maximum-likelihood estimate, which
/// exists only when every player has both won and lost against the others in a connected
/// way (Hunter 2004, Assumption 1). Pairings naming a player `>= n`, or with negative or
/// non-finite counts, are ignored.
pub fn fit(n: usize, pairings: &[Pairing], prior: f64) -> BtFit {
    let prior = if prior.is_finite() && prior > 0.0 {
        prior
    } else {
        0.0
    };
    // Games and wins between each two players (symmetric games, directed wins).
    let mut games = vec![0.0f64; n * n];
    let mut won = vec![0.0f64; n];
    for p in pairings {
        let ok = |x: f64| x.is_finite() && x >= 0.0;
        if p.a == p.b || p.a >= n || p.b >= n || !ok(p.wins_a) || !ok(p.wins_b) {
            continue;
        }
        let g = p.wins_a + p.wins_b;
        games[p.a * n + p.b] += g;
        games[p.b * n + p.a] += g;
        won[p.a] += p.wins_a;
        won[p.b] += p.wins_b;
    }
    // MM on γ = e^θ, every player updated from the previous iterate (Hunter's eq. 3, with
    // the reference player's games added to the sums).
    let mut gamma = vec![1.0f64; n];
    let mut iterations = 0;
    let mut converged = n == 0;
    while !converged && iterations < MAX_ITERATIONS {
        iterations += 1;
        let mut next = vec![0.0f64; n];
        let mut change = 0.0f64;
        for i in 0..n {
            let mut denom = prior / (gamma[i] + 1.0);
            for j in 0..n {
                let g = games[i * n + j];
                if g > 0.0 {
                    denom += g / (gamma[i] + gamma[j]);
                }
            }
            let num = won[i] + prior / 2.0;
            next[i] = if denom > 0.0 && num > 0.0 {
                num / denom
            } else {
                // No games at all (or no win with no prior): nothing moves it.
                gamma[i]
            };
            change = change.max((next[i].ln() - gamma[i].ln()).abs());
        }
        gamma = next;
        converged = change < TOLERANCE;
    }
    let mut theta: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
    let mean = if n == 0 {
        0.0
    } else {
        theta.iter().sum::<f64>() / n as f64
    };
    for t in &mut theta {
        *t -= mean;
    }
    let se = standard_errors(n, &games, &theta);
    BtFit {
        log_strength: theta,
        se,
        iterations,
        converged,
    }
}

/// Standard errors of the centred log-strengths: the diagonal of the pseudo-inverse of the
/// data's information matrix `I` (`I_ij = −g_ij p_ij p_ji`, `I_ii = Σ_j g_ij p_ij p_ji`),
/// computed as `(I + J/n)^-1 − J/n` with `J` the all-ones matrix (valid because `I`
/// sends the all-ones vector to 0 and the comparison graph is connected). A player the
/// others are not connected to gets an infinite error.
fn standard_errors(n: usize, games: &[f64], theta: &[f64]) -> Vec<f64> {
    if n <= 1 {
        return vec![0.0; n];
    }
    let nf = n as f64;
    let mut m = DMatrix::<f64>::from_element(n, n, 1.0 / nf);
    for i in 0..n {
        for j in 0..n {
            let g = games[i * n + j];
            if i != j && g > 0.0 {
                let p = logistic(theta[i] - theta[j]);
                let w = g * p * (1.0 - p);
                m[(i, j)] -= w;
                m[(i, i)] += w;
            }
        }
    }
    match m.cholesky() {
        Some(c) => {
            let inv = c.inverse();
            (0..n)
                .map(|i| (inv[(i, i)] - 1.0 / nf).max(0.0).sqrt())
                .collect()
        }
        None => vec![f64::INFINITY; n],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairing(a: usize, b: usize, wins_a: f64, wins_b: f64) -> Pairing {
        Pairing {
            a,
            b,
            wins_a,
            wins_b,
        }
    }

    #[test]
    fn two_players_give_the_odds_of_their_record_and_its_textbook_error() {
        // 30 wins of 40: the odds are 3, so θ_A − θ_B = ln 3, each ±(ln 3)/2 about 0.
        let f = fit(2, &[pairing(0, 1, 30.0, 10.0)], 0.0);
        assert!(f.converged);
        let d = f.log_strength[0] - f.log_strength[1];
        assert!((d - 3f64.ln()).abs() < 1e-9, "{f:?}");
        assert!((f.log_strength[0] + f.log_strength[1]).abs() < 1e-12);
        assert!((f.win_probability(0, 1) - 0.75).abs() < 1e-9);
        // Var(θ_A − θ_B) = 1 / (n p q) = 1 / 7.5; θ_A = (θ_A − θ_B) / 2.
        let want = (1.0f64 / 7.5 / 4.0).sqrt();
        assert!((f.se[0] - want).abs() < 1e-9, "{} vs {want}", f.se[0]);
        assert!((f.se[1] - want).abs() < 1e-9);
        assert_eq!(f.ranks(), vec![1, 2]);
        let (lo, hi) = f.interval(0, 0.95);
        assert!((hi - lo - 2.0 * 1.959964 * want).abs() < 1e-5);
    }

    #[test]
    fn counts_that_follow_the_model_exactly_give_back_its_strengths() {
        // Strengths 1, 2 and 4: 300 games per pair at the model's own rates (1/3, 1/5,
        // 1/3 for the weaker side), so the likelihood equations hold at the truth.
        let truth = [1.0f64, 2.0, 4.0];
        let mut p = Vec::new();
        for a in 0..3 {
            for b in a + 1..3 {
                let pa = truth[a] / (truth[a] + truth[b]);
                let g = 300.0;
                p.push(pairing(a, b, g * pa, g * (1.0 - pa)));
            }
        }
        let f = fit(3, &p, 0.0);
        assert!(f.converged, "{f:?}");
        let mean = truth.iter().map(|t| t.ln()).sum::<f64>() / 3.0;
        for (t, want) in f.log_strength.iter().zip(truth) {
            assert!((t - (want.ln() - mean)).abs() < 1e-8, "{f:?}");
        }
        assert_eq!(f.order(), vec![2, 1, 0]);
        // A tiny prior moves it by little.
        let g = fit(3, &p, 1.0);
        for i in 0..3 {
            assert!(
                (g.log_strength[i] - f.log_strength[i]).abs() < 0.01,
                "{g:?}"
            );
        }
    }

    #[test]
    fn draws_count_half_and_mirror_pairings_are_ignored() {
        // 10 wins each and 20 draws: equal; a player against itself changes nothing.
        let f = fit(
            2,
            &[
                pairing(0, 1, 10.0 + 10.0, 10.0 + 10.0),
                pairing(0, 0, 50.0, 0.0),
            ],
            1.0,
        );
        assert!(f.log_strength[0].abs() < 1e-9, "{f:?}");
        assert!(f.log_strength[1].abs() < 1e-9);
    }

    #[test]
    fn the_prior_keeps_a_perfect_record_finite() {
        // A wins all 100 games against B and C; B and C split theirs.
        let p = [
            pairing(0, 1, 100.0, 0.0),
            pairing(0, 2, 100.0, 0.0),
            pairing(1, 2, 50.0, 50.0),
        ];
        let f = fit(3, &p, 1.0);
        assert!(f.converged, "{f:?}");
        assert!(f.log_strength.iter().all(|t| t.is_finite()));
        assert!(f.se.iter().all(|s| s.is_finite() && *s > 0.0), "{f:?}");
        assert_eq!(f.ranks()[0], 1);
        assert!(f.win_probability(0, 1) > 0.97, "{f:?}");
        assert!((f.log_strength[1] - f.log_strength[2]).abs() < 1e-9);
    }

    #[test]
    fn degenerate_sizes_do_not_fail() {
        let f = fit(0, &[], 1.0);
        assert!(f.log_strength.is_empty() && f.converged);
        let f = fit(1, &[pairing(0, 0, 3.0, 2.0)], 1.0);
        assert_eq!(f.log_strength, vec![0.0]);
        assert_eq!(f.se, vec![0.0]);
        assert_eq!(f.ranks(), vec![1]);
        // Out-of-range and negative counts are ignored.
        let f = fit(2, &[pairing(0, 5, 1.0, 1.0), pairing(0, 1, -1.0, 2.0)], 1.0);
        assert!(f.log_strength.iter().all(|t| t.abs() < 1e-12));
    }
}
