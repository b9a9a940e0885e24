//! The Bradley–Terry model of paired comparisons (Bradley & Terry 1952): player `i` beats
//! player `j` with probability `γ_i / (γ_i + γ_j)`, or, with log-strengths `θ = ln γ`,
//! `1 / (1 + e^(θ_j − θ_i))`.
//!
//! [`fit`] finds the maximum-likelihood strengths. A draw counts as half a win to each
//! side. A tiny prior keeps every strength finite even when one player wins every game
//! (where the plain maximum-likelihood estimate does not exist): each player also plays
//! `prior` virtual games against a fixed reference player of strength 1 (`θ = 0`), winning
//! half of them. The objective is the log-likelihood of the games, virtual ones included:
//!
//! `ℓ(θ) = Σ_{i≠j} w_ij ln σ(θ_i − θ_j) + prior · Σ_i (½ ln σ(θ_i) + ½ ln σ(−θ_i))`
//!
//! with `w_ij` the wins of `i` against `j` and `σ` the logistic function. It is the
//! likelihood the MM algorithm of Hunter (2004, "MM algorithms for generalized
//! Bradley–Terry models", Annals of Statistics 32(1), eq. 3) climbs, but MM creeps: the
//! direction that moves every log-strength together is held only by the prior, a few
//! virtual games against thousands of real ones, and MM closes the gap along it by a
//! fraction of the order of `prior / games` per iteration (on the starter-deck matrix, 12
//! entries with 22,000 games each, it had not converged after 200,000 iterations).
//! [`fit`] maximises it by Newton–Raphson on the log-strengths instead, each step halved
//! until the likelihood rises enough (Armijo). With a positive prior the likelihood is
//! strictly concave (its Hessian is minus the sum of the games' information and the
//! prior's positive diagonal), so the maximum is unique and Newton reaches it in a handful
//! of steps (7 on that matrix). With no prior the likelihood is flat along
//! the shifts of each connected group of players; the step is then taken orthogonal to them
//! (the minimum-norm Newton step), which leaves each group's mean log-strength where it
//! started.
//!
//! The log-strengths are reported centred (mean 0), so `θ_i = 0` is a player of average
//! strength, with standard errors from the observed Fisher information of the data at the
//! optimum: the covariance of the centred log-strengths is the Moore–Penrose pseudo-inverse
//! of the information matrix, whose null space is the direction that adds the same
//! constant to every log-strength (it changes no probability).
//!
//! Layer: part of [`crate::stats`]; may use `engine` and nothing else of the crate.

use nalgebra::{DMatrix, DVector};

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
    /// Newton iterations run.
    pub iterations: usize,
    /// Whether the iterations reached the tolerance before the cap: a full Newton step that
    /// moves no log-strength by more than [`TOLERANCE`] (or, in a fit so ill-conditioned
    /// that rounding keeps its steps above that, one whose predicted rise of the
    /// likelihood is below its rounding and has stopped shrinking). Never when the maximum
    /// does not exist (no prior; see [`fit`]).
    pub converged: bool,
}

/// The most Newton iterations [`fit`] runs.
pub const MAX_ITERATIONS: usize = 100;
/// [`fit`] stops when the full Newton step moves no log-strength by more than this (the
/// step is still taken).
pub const TOLERANCE: f64 = 1e-10;
/// The step halvings one iteration tries before [`fit`] gives up.
const MAX_HALVINGS: usize = 60;
/// The longest move of a log-strength one iteration tries (a factor of e⁴ ≈ 55 in
/// strength); a longer Newton step is shortened to it, keeping its direction.
const MAX_STEP: f64 = 4.0;
/// Armijo's sufficient-increase fraction: a step `t·δ` is taken when the log-likelihood
/// rises by at least this share of the rise `t·∇ℓ·δ` its slope predicts.
const ARMIJO: f64 = 1e-4;

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `ln(1 + e^x)` without overflow or loss for large `|x|` (so `ln σ(x) = −softplus(−x)`).
fn softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
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

/// The games of a fit: directed wins (`wins[i * n + j]`, `i` over `j`, draws as halves)
/// and the prior.
struct Games {
    n: usize,
    wins: Vec<f64>,
    prior: f64,
}

impl Games {
    fn new(n: usize, pairings: &[Pairing], prior: f64) -> Games {
        let mut wins = vec![0.0f64; n * n];
        for p in pairings {
            let ok = |x: f64| x.is_finite() && x >= 0.0;
            if p.a == p.b || p.a >= n || p.b >= n || !ok(p.wins_a) || !ok(p.wins_b) {
                continue;
            }
            wins[p.a * n + p.b] += p.wins_a;
            wins[p.b * n + p.a] += p.wins_b;
        }
        Games { n, wins, prior }
    }

    /// The pairs that played, `(i, j, wins of i, wins of j)` with `i < j`.
    fn pairs(&self) -> impl Iterator<Item = (usize, usize, f64, f64)> + '_ {
        let n = self.n;
        (0..n)
            .flat_map(move |i| (i + 1..n).map(move |j| (i, j)))
            .map(move |(i, j)| (i, j, self.wins[i * n + j], self.wins[j * n + i]))
            .filter(|&(_, _, wi, wj)| wi + wj > 0.0)
    }

    /// The log-likelihood `ℓ(θ)` of the module docs (every term a log-probability, so no
    /// cancellation).
    fn log_likelihood(&self, theta: &[f64]) -> f64 {
        let mut l = 0.0;
        for (i, j, wi, wj) in self.pairs() {
            let d = theta[i] - theta[j];
            l -= wi * softplus(-d) + wj * softplus(d);
        }
        if self.prior > 0.0 {
            for &t in theta {
                l -= self.prior * 0.5 * (softplus(-t) + softplus(t));
            }
        }
        l
    }

    /// `∇ℓ(θ)`: `∂ℓ/∂θ_i = Σ_j (w_ij − g_ij σ(θ_i − θ_j)) + prior (½ − σ(θ_i))`. Each
    /// pair's residual goes to both sides with opposite signs, so the gradient sums to the
    /// prior's part exactly, whatever the rounding of the probabilities; and it is written
    /// `w_ij σ(θ_j − θ_i) − w_ji σ(θ_i − θ_j)`, which loses nothing to cancellation when a
    /// probability is close to 1 (the noise of `w − g·σ` there, divided by the small
    /// curvature of a lopsided pair, would be steps larger than [`TOLERANCE`]).
    fn gradient(&self, theta: &[f64]) -> Vec<f64> {
        let mut g = vec![0.0f64; self.n];
        for (i, j, wi, wj) in self.pairs() {
            let d = theta[i] - theta[j];
            let r = wi * logistic(-d) - wj * logistic(d);
            g[i] += r;
            g[j] -= r;
        }
        if self.prior > 0.0 {
            for (gi, &t) in g.iter_mut().zip(theta) {
                *gi += self.prior * 0.5 * (logistic(-t) - logistic(t));
            }
        }
        g
    }

    /// The observed information of the real games (minus the Hessian of their
    /// log-likelihood): `I_ij = −g_ij p_ij p_ji`, `I_ii = Σ_j g_ij p_ij p_ji`, with
    /// `p_ji = σ(θ_j − θ_i)` itself rather than `1 − p_ij`, exact however lopsided. It depends on
    /// differences of log-strengths only, so centring does not change it.
    fn information(&self, theta: &[f64]) -> DMatrix<f64> {
        let mut m = DMatrix::<f64>::zeros(self.n, self.n);
        for (i, j, wi, wj) in self.pairs() {
            let d = theta[i] - theta[j];
            let w = (wi + wj) * logistic(d) * logistic(-d);
            m[(i, j)] -= w;
            m[(j, i)] -= w;
            m[(i, i)] += w;
            m[(j, j)] += w;
        }
        m
    }

    /// The connected groups of players (joined by a pair that played), each player's group.
    fn groups(&self) -> Vec<usize> {
        let mut parent: Vec<usize> = (0..self.n).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        for (i, j, _, _) in self.pairs() {
            let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
            parent[ri.max(rj)] = ri.min(rj);
        }
        (0..self.n).map(|i| root(&mut parent, i)).collect()
    }

    /// Whether the maximum of `ℓ` exists: always with a prior; without one, when within
    /// every group each player can be reached from every other by a chain of wins (Hunter
    /// 2004, Assumption 1, group by group). Otherwise `ℓ` rises for ever as the winners of
    /// some split of a group move away from its losers, and Newton's steps stall only when
    /// the probabilities round to 0 and 1.
    fn estimate_exists(&self, groups: &[usize]) -> bool {
        if self.prior > 0.0 {
            return true;
        }
        let n = self.n;
        // From `start`, the players reachable along wins (`forward`: `i` to `j` when `i`
        // beat `j`; otherwise the other way).
        let reach = |start: usize, forward: bool| {
            let mut seen = vec![false; n];
            let mut stack = vec![start];
            seen[start] = true;
            while let Some(i) = stack.pop() {
                let beat = |j: usize| {
                    if forward {
                        self.wins[i * n + j] > 0.0
                    } else {
                        self.wins[j * n + i] > 0.0
                    }
                };
                let next: Vec<usize> = (0..n).filter(|&j| !seen[j] && beat(j)).collect();
                for j in next {
                    seen[j] = true;
                    stack.push(j);
                }
            }
            seen
        };
        (0..n).filter(|&i| groups[i] == i).all(|root| {
            let (ahead, behind) = (reach(root, true), reach(root, false));
            (0..n).all(|j| groups[j] != root || (ahead[j] && behind[j]))
        })
    }

    /// The matrix of the Newton system at `θ`: minus the Hessian of `ℓ` (the information
    /// plus the prior's diagonal `prior σ(θ_i) σ(−θ_i)`), positive definite when the prior
    /// is. With no prior, `J_G / |G|` (`J_G` the all-ones block of group `G`) is added for
    /// every group instead, so the matrix is invertible and, the gradient summing to 0 over
    /// each group, the step is the minimum-norm one, with no component along the shifts.
    fn newton_matrix(&self, theta: &[f64], groups: &[usize]) -> DMatrix<f64> {
        let mut m = self.information(theta);
        if self.prior > 0.0 {
            for (i, &t) in theta.iter().enumerate() {
                m[(i, i)] += self.prior * logistic(t) * logistic(-t);
            }
        } else {
            let mut size = vec![0usize; self.n];
            for &g in groups {
                size[g] += 1;
            }
            for i in 0..self.n {
                for j in 0..self.n {
                    if groups[i] == groups[j] {
                        m[(i, j)] += 1.0 / size[groups[i]] as f64;
                    }
                }
            }
        }
        m
    }
}

/// Fits the Bradley–Terry model to `pairings` among `n` players (see the module docs).
/// `prior` is the number of virtual games each player plays against the reference (1 is
/// tiny next to thousands of simulated games); it must be positive for the fit to be
/// finite whatever the data, and 0 gives the plain maximum-likelihood estimate, which
/// exists only when every player has both won and lost against the others in a connected
/// way (Hunter 2004, Assumption 1; without it the fit reports that it did not converge).
/// Pairings naming a player `>= n`, or with negative or non-finite counts, are ignored.
pub fn fit(n: usize, pairings: &[Pairing], prior: f64) -> BtFit {
    let prior = if prior.is_finite() && prior > 0.0 {
        prior
    } else {
        0.0
    };
    let games = Games::new(n, pairings, prior);
    let groups = games.groups();
    let mut theta = vec![0.0f64; n];
    let mut value = games.log_likelihood(&theta);
    let mut iterations = 0;
    let mut converged = n == 0;
    let mut last_rise = f64::INFINITY;
    while !converged && iterations < MAX_ITERATIONS {
        iterations += 1;
        let grad = games.gradient(&theta);
        let Some(chol) = games.newton_matrix(&theta, &groups).cholesky() else {
            break;
        };
        let step = chol.solve(&DVector::from_column_slice(&grad));
        let largest = step.amax();
        // The rise of ℓ the step predicts (the squared Newton decrement; ℓ* − ℓ is about
        // half of it near the optimum).
        let rise: f64 = grad.iter().zip(step.iter()).map(|(g, d)| g * d).sum();
        if !largest.is_finite() || !rise.is_finite() {
            break;
        }
        // Done when the step is below the tolerance, or when it is rounding noise: the rise
        // it predicts is below what ℓ resolves and no longer shrinking (Newton's steps
        // shrink quadratically until then). The second ends a very ill-conditioned fit
        // (lopsided records of 10⁵ games against a prior of 10⁻³, say), whose noise floor
        // is above the tolerance; it is the best a floating-point fit can do.
        let floor = rise <= 8.0 * f64::EPSILON * (1.0 + value.abs()) && rise >= last_rise / 4.0;
        if largest <= TOLERANCE || floor {
            for (t, d) in theta.iter_mut().zip(step.iter()) {
                *t += d;
            }
            converged = true;
            break;
        }
        last_rise = rise;
        // Step halving from at most MAX_STEP (a step across a near-flat direction, where
        // the curvature of lopsided pairs has underflowed, can be astronomically long),
        // with room for the rounding of ℓ, which near the optimum changes by less than it
        // can resolve.
        let slack = 1e-12 * (1.0 + value.abs());
        let mut t = (MAX_STEP / largest).min(1.0);
        let mut taken = false;
        for _ in 0..MAX_HALVINGS {
            let trial: Vec<f64> = theta
                .iter()
                .zip(step.iter())
                .map(|(th, d)| th + t * d)
                .collect();
            let v = games.log_likelihood(&trial);
            if v >= value + ARMIJO * t * rise - slack {
                theta = trial;
                value = v;
                taken = true;
                break;
            }
            t /= 2.0;
        }
        if !taken {
            break;
        }
    }
    // Without a maximum, wherever the steps stopped is not one.
    converged &= games.estimate_exists(&groups);
    let mean = if n == 0 {
        0.0
    } else {
        theta.iter().sum::<f64>() / n as f64
    };
    for t in &mut theta {
        *t -= mean;
    }
    let connected = groups.iter().all(|&g| g == groups[0]);
    let se = if connected {
        standard_errors(games.information(&theta))
    } else {
        vec![f64::INFINITY; n]
    };
    BtFit {
        log_strength: theta,
        se,
        iterations,
        converged,
    }
}

/// Standard errors of the centred log-strengths: the diagonal of the pseudo-inverse of the
/// data's information matrix `I` at the optimum ([`Games::information`]), computed as
/// `(I + J/n)^-1 − J/n` with `J` the all-ones matrix (valid because `I` sends the all-ones
/// vector to 0 and the comparison graph is connected: [`fit`] makes every error infinite
/// when it is not).
pub(super) fn standard_errors(information: DMatrix<f64>) -> Vec<f64> {
    let n = information.nrows();
    if n <= 1 {
        return vec![0.0; n];
    }
    let nf = n as f64;
    let m = information.add_scalar(1.0 / nf);
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

    /// The MM algorithm this module used before Newton (Hunter 2004, eq. 3, with the
    /// reference player's games added to the sums), kept to check that Newton lands where
    /// it did: the centred log-strengths, the iterations run and whether the largest change
    /// of a log-strength fell below `tol` within `cap` iterations.
    fn mm_fit(
        n: usize,
        pairings: &[Pairing],
        prior: f64,
        cap: usize,
        tol: f64,
    ) -> (Vec<f64>, usize, bool) {
        let mut games = vec![0.0f64; n * n];
        let mut won = vec![0.0f64; n];
        for p in pairings {
            if p.a == p.b {
                continue;
            }
            let g = p.wins_a + p.wins_b;
            games[p.a * n + p.b] += g;
            games[p.b * n + p.a] += g;
            won[p.a] += p.wins_a;
            won[p.b] += p.wins_b;
        }
        let mut gamma = vec![1.0f64; n];
        let mut iterations = 0;
        let mut converged = false;
        while !converged && iterations < cap {
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
                next[i] = (won[i] + prior / 2.0) / denom;
                change = change.max((next[i].ln() - gamma[i].ln()).abs());
            }
            gamma = next;
            converged = change < tol;
        }
        let theta: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
        let mean = theta.iter().sum::<f64>() / n as f64;
        (
            theta.iter().map(|t| t - mean).collect(),
            iterations,
            converged,
        )
    }

    /// The gradient of the penalised log-likelihood at the fit, written out from the
    /// pairings on its own (not with the module's code). The fit's log-strengths are
    /// centred, and the likelihood with a prior depends on their level too, so the level
    /// `c` comes back first: the gradient's components sum to
    /// `prior · Σ_i (½ − σ(θ_i + c))` (the real games' parts cancel), which is 0 at one `c`
    /// only, found by bisection.
    fn gradient_at_fit(n: usize, pairings: &[Pairing], prior: f64, f: &BtFit) -> Vec<f64> {
        let s = |x: f64| 1.0 / (1.0 + (-x).exp());
        let theta = &f.log_strength;
        let c = if prior > 0.0 {
            let excess = |c: f64| theta.iter().map(|t| s(t + c) - 0.5).sum::<f64>();
            let (mut lo, mut hi) = (-50.0, 50.0);
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if excess(mid) > 0.0 {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            0.5 * (lo + hi)
        } else {
            0.0
        };
        let mut grad = vec![0.0f64; n];
        for p in pairings {
            if p.a == p.b {
                continue;
            }
            let g = p.wins_a + p.wins_b;
            let pa = s(theta[p.a] - theta[p.b]);
            grad[p.a] += p.wins_a - g * pa;
            grad[p.b] += p.wins_b - g * (1.0 - pa);
        }
        for i in 0..n {
            grad[i] += prior * (0.5 - s(theta[i] + c));
        }
        grad
    }

    /// A lopsided matrix like the starter decks': records of 1990–10 and 2000–0 next to
    /// even ones, 2,000 games per pair.
    fn lopsided() -> Vec<Pairing> {
        let mut p = Vec::new();
        let records = [
            (0, 1, 1990.0, 10.0),
            (0, 2, 2000.0, 0.0),
            (0, 3, 1890.0, 110.0),
            (0, 4, 1995.0, 5.0),
            (1, 2, 1300.0, 700.0),
            (1, 3, 980.0, 1020.0),
            (1, 4, 1700.0, 300.0),
            (2, 3, 600.0, 1400.0),
            (2, 4, 1100.0, 900.0),
            (3, 4, 2000.0, 0.0),
        ];
        for (a, b, wa, wb) in records {
            p.push(pairing(a, b, wa, wb));
        }
        p
    }

    #[test]
    fn newton_lands_where_the_mm_algorithm_converges() {
        // A small, well-conditioned matrix (MM converges in some thousands of
        // iterations): the same log-strengths, with the prior and without.
        let p = [
            pairing(0, 1, 60.0, 40.0),
            pairing(0, 2, 70.0, 30.0),
            pairing(0, 3, 45.5, 54.5),
            pairing(1, 2, 55.0, 45.0),
            pairing(1, 3, 35.0, 65.0),
            pairing(2, 3, 20.0, 80.0),
        ];
        for prior in [1.0, 0.0] {
            let f = fit(4, &p, prior);
            let (mm, mm_iterations, mm_converged) = mm_fit(4, &p, prior, 1_000_000, 1e-13);
            assert!(mm_converged, "MM did not converge ({mm_iterations})");
            assert!(f.converged && f.iterations < 20, "{f:?}");
            for i in 0..4 {
                assert!(
                    (f.log_strength[i] - mm[i]).abs() < 1e-9,
                    "prior {prior}: {f:?} vs MM {mm:?}"
                );
            }
        }
    }

    #[test]
    fn two_players_with_a_prior_solve_their_one_dimensional_equation() {
        // A wins w of g games against B, each also plays p virtual games against the
        // reference. The two likelihood equations add up to σ(θ_A) + σ(θ_B) = 1, so
        // θ_B = −θ_A, and with d = θ_A − θ_B the first reads
        // w + p/2 − g σ(d) − p σ(d/2) = 0, decreasing in d: solved here by bisection.
        let s = |x: f64| 1.0 / (1.0 + (-x).exp());
        for (w, g, p) in [
            (1990.0, 2000.0, 1.0),
            (2000.0, 2000.0, 1.0),
            (30.0, 40.0, 1.0),
            (7.0, 7.0, 0.5),
        ] {
            let (mut lo, mut hi) = (-60.0f64, 60.0f64);
            for _ in 0..200 {
                let d = 0.5 * (lo + hi);
                if w + p / 2.0 - g * s(d) - p * s(d / 2.0) > 0.0 {
                    lo = d;
                } else {
                    hi = d;
                }
            }
            let d = 0.5 * (lo + hi);
            let f = fit(2, &[pairing(0, 1, w, g - w)], p);
            assert!(f.converged && f.iterations < 100, "{f:?}");
            assert!(
                (f.log_strength[0] - d / 2.0).abs() < 1e-9,
                "{f:?} vs d = {d}"
            );
            assert!(
                (f.log_strength[1] + d / 2.0).abs() < 1e-9,
                "{f:?} vs d = {d}"
            );
        }
    }

    #[test]
    fn a_lopsided_matrix_converges_in_a_few_steps() {
        let p = lopsided();
        let f = fit(5, &p, 1.0);
        assert!(f.converged, "{f:?}");
        assert!(f.iterations < 100, "{f:?}");
        assert!(f.log_strength.iter().all(|t| t.is_finite()));
        assert!(f.se.iter().all(|s| s.is_finite() && *s > 0.0), "{f:?}");
        assert_eq!(f.order()[0], 0);
        // Where the MM algorithm, at the cap it used to run to, had not converged.
        let (_, _, mm_converged) = mm_fit(5, &p, 1.0, 200_000, TOLERANCE);
        assert!(!mm_converged);
    }

    #[test]
    fn the_fit_is_a_stationary_point_of_the_penalised_likelihood() {
        let p = lopsided();
        for prior in [1.0, 3.0] {
            let f = fit(5, &p, prior);
            for (i, g) in gradient_at_fit(5, &p, prior, &f).iter().enumerate() {
                assert!(g.abs() < 1e-7, "prior {prior}: ∂ℓ/∂θ_{i} = {g}, {f:?}");
            }
        }
        // Without the prior, on a matrix where the estimate exists.
        let mut q = lopsided();
        q[1] = pairing(0, 2, 1999.0, 1.0);
        q[9] = pairing(3, 4, 1998.0, 2.0);
        let f = fit(5, &q, 0.0);
        assert!(f.converged, "{f:?}");
        for (i, g) in gradient_at_fit(5, &q, 0.0, &f).iter().enumerate() {
            assert!(g.abs() < 1e-7, "∂ℓ/∂θ_{i} = {g}, {f:?}");
        }
    }

    #[test]
    fn the_likelihood_its_gradient_and_the_newton_matrix_agree() {
        // The log-likelihood against its formula written out, its gradient against central
        // differences of it, and the Newton matrix against central differences of the
        // gradient, at an arbitrary point (the line search relies on the first, the steps
        // on the other two).
        let p = lopsided();
        let s = |x: f64| 1.0 / (1.0 + (-x).exp());
        let theta = [0.7, -0.2, 1.9, -1.4, 0.3];
        for prior in [0.0, 1.0, 2.5] {
            let games = Games::new(5, &p, prior);
            let mut want = 0.0;
            for q in &p {
                let d = theta[q.a] - theta[q.b];
                want += q.wins_a * s(d).ln() + q.wins_b * s(-d).ln();
            }
            for t in theta {
                want += prior * (0.5 * s(t).ln() + 0.5 * s(-t).ln());
            }
            let l = games.log_likelihood(&theta);
            assert!((l - want).abs() < 1e-9 * want.abs(), "{l} vs {want}");
            let h = 1e-5;
            let grad = games.gradient(&theta);
            let groups = games.groups();
            let m = games.newton_matrix(&theta, &groups);
            for i in 0..5 {
                let shifted = |by: f64| {
                    let mut t = theta;
                    t[i] += by;
                    t
                };
                let (up, down) = (shifted(h), shifted(-h));
                let fd = (games.log_likelihood(&up) - games.log_likelihood(&down)) / (2.0 * h);
                assert!(
                    (grad[i] - fd).abs() < 1e-4,
                    "∂ℓ/∂θ_{i}: {} vs {fd}",
                    grad[i]
                );
                let (gu, gd) = (games.gradient(&up), games.gradient(&down));
                for j in 0..5 {
                    let fd = -(gu[j] - gd[j]) / (2.0 * h);
                    // Without a prior the matrix also holds 1/5 everywhere (one group).
                    let extra = if prior > 0.0 { 0.0 } else { 0.2 };
                    assert!(
                        (m[(j, i)] - extra - fd).abs() < 1e-4,
                        "prior {prior}, ({j}, {i}): {} vs {fd}",
                        m[(j, i)]
                    );
                }
            }
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
        // Two groups that never met, no prior: each group's differences, no errors.
        let f = fit(
            4,
            &[pairing(0, 1, 30.0, 10.0), pairing(2, 3, 10.0, 30.0)],
            0.0,
        );
        assert!(f.converged, "{f:?}");
        assert!((f.log_strength[0] - f.log_strength[1] - 3f64.ln()).abs() < 1e-9);
        assert!((f.log_strength[3] - f.log_strength[2] - 3f64.ln()).abs() < 1e-9);
        assert!(f.se.iter().all(|s| s.is_infinite()), "{f:?}");
        // No estimate without the prior when a player wins every game: the fit says so.
        let f = fit(2, &[pairing(0, 1, 10.0, 0.0)], 0.0);
        assert!(!f.converged && f.log_strength.iter().all(|t| t.is_finite()));
    }
}
