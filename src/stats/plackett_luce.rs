//! Who wins among several: the Plackett–Luce model of the first place (Luce 1959), the
//! Bradley–Terry model (Bradley & Terry 1952) extended from pairs to tables of any size.
//! Player `i` at a table `S` wins with probability `γ_i / Σ_{j∈S} γ_j`. Free for All's
//! rating fits it to the winners of its pods (four players each); a game with no winner
//! (the day cap) says nothing about who was stronger and is left out. `matchup`'s ranking
//! is the same fit with tables of two ([`Table::pair`]): Bradley–Terry, through this one
//! loop, with a draw as half a win to each side.
//!
//! [`fit`] maximises the log-likelihood of the winners plus a small Gamma prior on each
//! strength, which keeps every strength finite when a player never wins (where the plain
//! maximum-likelihood estimate does not exist):
//!
//! `ℓ(γ) = Σ_i W_i ln γ_i − Σ_S n_S ln Σ_{j∈S} γ_j + prior · Σ_i (ln γ_i − γ_i)`
//!
//! with `W_i` player `i`'s wins, `n_S` the games won by someone at table `S`, and `prior`
//! the prior's weight (a Gamma(1 + prior, prior) density, whose mode is `γ = 1`: as many
//! virtual wins as virtual games). It climbs it by the minorize–maximize (MM) iterations
//! of Hunter (2004, "MM algorithms for generalized Bradley–Terry models", Annals of
//! Statistics 32(1), §5; the prior as in Caron & Doucet 2012):
//!
//! `γ_i ← (W_i + prior) / (Σ_{S∋i} n_S / Σ_{j∈S} γ_j + prior)`
//!
//! each of which never lowers `ℓ`. MM creeps along the one direction the games do not
//! pin, scaling every strength together (only the prior holds it); after each iteration
//! the strengths are therefore scaled to the best point along it, which for this prior is
//! a mean strength of 1 (`d/dc ℓ(cγ) = 0`). The iterations stop when no log-strength moves
//! by more than [`TOLERANCE`].
//!
//! The log-strengths `θ = ln γ` are reported centred (mean 0), with standard errors from
//! the observed information of the games at the optimum, `Σ_S n_S (diag p_S − p_S p_Sᵀ)`
//! with `p_S` the win probabilities at table `S`: the covariance of the centred
//! log-strengths is its pseudo-inverse (`standard_errors`).
//!
//! Layer: part of [`crate::stats`]; may use `engine` and nothing else of the crate.

use nalgebra::DMatrix;

/// The games of one table: its players and how many games each of them won (games
/// without a winner are not counted).
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub players: Vec<usize>,
    /// Wins of `players[k]`.
    pub wins: Vec<f64>,
}

impl Table {
    /// A table of two: `a` won `wins_a` of their games, `b` won `wins_b` (Bradley–Terry's
    /// paired comparison; a draw adds one half to each).
    pub fn pair(a: usize, b: usize, wins_a: f64, wins_b: f64) -> Table {
        Table {
            players: vec![a, b],
            wins: vec![wins_a, wins_b],
        }
    }
}

/// The fitted model.
#[derive(Clone, Debug, PartialEq)]
pub struct PlFit {
    /// Centred log-strengths (mean 0), one per player.
    pub log_strength: Vec<f64>,
    /// Their standard errors (observed information; see the module docs).
    pub se: Vec<f64>,
    /// MM iterations run.
    pub iterations: usize,
    /// Whether the last iteration moved no log-strength by more than [`TOLERANCE`].
    pub converged: bool,
}

/// The most MM iterations [`fit`] runs.
pub const MAX_ITERATIONS: usize = 100_000;
/// [`fit`] stops when an iteration moves no log-strength by more than this.
pub const TOLERANCE: f64 = 1e-10;

impl PlFit {
    /// The probability that player `i` wins at a table of `players` (`i` among them).
    pub fn win_probability(&self, i: usize, players: &[usize]) -> f64 {
        let total: f64 = players.iter().map(|&j| self.log_strength[j].exp()).sum();
        self.log_strength[i].exp() / total
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

/// Fits the strengths of `n` players to the winners of `tables` with a prior of weight
/// `prior` (positive; see the module docs). Tables naming a player twice or a player out
/// of range, and negative or non-finite wins, are ignored.
pub fn fit(n: usize, tables: &[Table], prior: f64) -> PlFit {
    let tables: Vec<&Table> = tables
        .iter()
        .filter(|t| {
            let mut seen = vec![false; n];
            t.players.len() == t.wins.len()
                && t.players
                    .iter()
                    .all(|&p| p < n && !std::mem::replace(&mut seen[p], true))
                && t.wins.iter().all(|w| w.is_finite() && *w >= 0.0)
        })
        .collect();
    let mut wins = vec![0.0f64; n];
    for t in &tables {
        for (&p, &w) in t.players.iter().zip(&t.wins) {
            wins[p] += w;
        }
    }
    let games = |t: &Table| t.wins.iter().sum::<f64>();
    let mut gamma = vec![1.0f64; n];
    let mut iterations = 0;
    let mut converged = n == 0;
    let mut denom = vec![0.0f64; n];
    while !converged && iterations < MAX_ITERATIONS {
        iterations += 1;
        denom.iter_mut().for_each(|d| *d = prior);
        for t in &tables {
            let total: f64 = t.players.iter().map(|&p| gamma[p]).sum();
            let share = games(t) / total;
            for &p in &t.players {
                denom[p] += share;
            }
        }
        let mut next: Vec<f64> = (0..n).map(|i| (wins[i] + prior) / denom[i]).collect();
        // The best scale along the direction the games do not pin: mean strength 1.
        let mean = next.iter().sum::<f64>() / n as f64;
        next.iter_mut().for_each(|g| *g /= mean);
        let moved = next
            .iter()
            .zip(&gamma)
            .map(|(a, b)| (a.ln() - b.ln()).abs())
            .fold(0.0f64, f64::max);
        gamma = next;
        converged = moved <= TOLERANCE;
    }
    let theta: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
    let mean = theta.iter().sum::<f64>() / n.max(1) as f64;
    let log_strength: Vec<f64> = theta.iter().map(|t| t - mean).collect();
    let mut info = DMatrix::<f64>::zeros(n, n);
    for t in &tables {
        let total: f64 = t.players.iter().map(|&p| gamma[p]).sum();
        let g = games(t);
        for &a in &t.players {
            let pa = gamma[a] / total;
            info[(a, a)] += g * pa;
            for &b in &t.players {
                info[(a, b)] -= g * pa * gamma[b] / total;
            }
        }
    }
    PlFit {
        log_strength,
        se: if connected(n, &tables) {
            standard_errors(info)
        } else {
            vec![f64::INFINITY; n]
        },
        iterations,
        converged,
    }
}

/// Whether every player meets every other at some table, directly or through others
/// (otherwise nothing in the games links the levels of the separate groups).
fn connected(n: usize, tables: &[&Table]) -> bool {
    let mut group: Vec<usize> = (0..n).collect();
    fn root(group: &mut [usize], mut i: usize) -> usize {
        while group[i] != i {
            group[i] = group[group[i]];
            i = group[i];
        }
        i
    }
    for t in tables {
        if let Some(&first) = t.players.first() {
            for &p in &t.players[1..] {
                let (a, b) = (root(&mut group, first), root(&mut group, p));
                group[a] = b;
            }
        }
    }
    (0..n).all(|i| root(&mut group, i) == root(&mut group, 0))
}

/// Standard errors of the centred log-strengths: the diagonal of the pseudo-inverse of the
/// games' information matrix `I` at the optimum, computed as `(I + J/n)^-1 − J/n` with `J`
/// the all-ones matrix (valid because `I` sends the all-ones vector to 0 and the players
/// all meet, which [`fit`] checks first).
fn standard_errors(information: DMatrix<f64>) -> Vec<f64> {
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

    /// Every 4-subset of `n` players, each winning the expected share of `games` games
    /// under strengths `gamma` (exact, fractional counts).
    fn expected_tables(gamma: &[f64], games: f64) -> Vec<Table> {
        let n = gamma.len();
        let mut out = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                for c in b + 1..n {
                    for d in c + 1..n {
                        let players = vec![a, b, c, d];
                        let total: f64 = players.iter().map(|&p| gamma[p]).sum();
                        let wins = players.iter().map(|&p| games * gamma[p] / total).collect();
                        out.push(Table { players, wins });
                    }
                }
            }
        }
        out
    }

    fn centred_log(gamma: &[f64]) -> Vec<f64> {
        let l: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
        let m = l.iter().sum::<f64>() / l.len() as f64;
        l.iter().map(|x| x - m).collect()
    }

    #[test]
    fn counts_that_follow_the_model_give_back_its_strengths() {
        let gamma = [4.0, 2.0, 1.0, 1.0, 0.5, 0.25];
        // Many games: the prior's pull is negligible.
        let f = fit(6, &expected_tables(&gamma, 1e7), 1.0);
        assert!(f.converged, "{} iterations", f.iterations);
        for (got, want) in f.log_strength.iter().zip(centred_log(&gamma)) {
            assert!((got - want).abs() < 1e-5, "{:?}", f.log_strength);
        }
        assert_eq!(f.order(), vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(f.ranks(), vec![1, 2, 3, 4, 5, 6]);
        let p = f.win_probability(0, &[0, 1, 2, 3]);
        assert!((p - 0.5).abs() < 1e-5, "{p}");
    }

    #[test]
    fn the_fit_is_a_stationary_point_of_the_penalised_likelihood() {
        // Uneven counts (not from the model) and a heavy prior.
        let tables = vec![
            Table {
                players: vec![0, 1, 2, 3],
                wins: vec![10.0, 3.0, 0.0, 7.0],
            },
            Table {
                players: vec![1, 2, 3, 4],
                wins: vec![2.0, 9.0, 1.0, 4.0],
            },
            Table {
                players: vec![0, 2, 4, 3],
                wins: vec![5.0, 5.0, 0.0, 1.0],
            },
        ];
        let prior = 3.0;
        let f = fit(5, &tables, prior);
        assert!(f.converged);
        // The penalised likelihood's gradient in log-strength, at the fit's scale (mean
        // strength 1, as the fit reports it up to the centring).
        let mut gamma: Vec<f64> = f.log_strength.iter().map(|t| t.exp()).collect();
        let m = gamma.iter().sum::<f64>() / 5.0;
        gamma.iter_mut().for_each(|g| *g /= m);
        let mut grad = vec![0.0; 5];
        for t in &tables {
            let total: f64 = t.players.iter().map(|&p| gamma[p]).sum();
            let n: f64 = t.wins.iter().sum();
            for (&p, &w) in t.players.iter().zip(&t.wins) {
                grad[p] += w - n * gamma[p] / total;
            }
        }
        for (g, gam) in grad.iter_mut().zip(&gamma) {
            *g += prior * (1.0 - gam);
        }
        assert!(grad.iter().all(|g| g.abs() < 1e-6), "{grad:?}");
    }

    #[test]
    fn a_player_who_never_wins_stays_finite_and_last() {
        let tables = vec![Table {
            players: vec![0, 1, 2, 3],
            wins: vec![5.0, 3.0, 2.0, 0.0],
        }];
        let f = fit(4, &tables, 1.0);
        assert!(f.converged);
        assert!(f.log_strength.iter().all(|t| t.is_finite()));
        assert_eq!(f.order(), vec![0, 1, 2, 3]);
        assert!(f.se.iter().all(|s| s.is_finite() && *s > 0.0), "{:?}", f.se);
    }

    #[test]
    fn two_players_give_the_odds_of_their_record_and_its_textbook_error() {
        // Two players at a table of two: Bradley–Terry. 300 games to 100, a negligible
        // prior: θ_0 − θ_1 = ln 3, and its standard error √(1/300 + 1/100).
        let tables = vec![Table {
            players: vec![0, 1],
            wins: vec![300.0, 100.0],
        }];
        let f = fit(2, &tables, 1e-9);
        let d = f.log_strength[0] - f.log_strength[1];
        assert!((d - 3f64.ln()).abs() < 1e-6, "{d}");
        // Each centred log-strength is half the difference: its error is half.
        let se = (1.0f64 / 300.0 + 1.0 / 100.0).sqrt() / 2.0;
        assert!((f.se[0] - se).abs() < 1e-6, "{} against {se}", f.se[0]);
    }

    #[test]
    fn strengths_from_simulated_winners_are_recovered_within_their_intervals() {
        use rand::{RngExt, SeedableRng};
        let gamma = [3.0, 2.0, 1.0, 1.0, 0.5, 0.5];
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut tables = expected_tables(&gamma, 0.0);
        for t in &mut tables {
            let total: f64 = t.players.iter().map(|&p| gamma[p]).sum();
            for _ in 0..400 {
                let mut x = rng.random::<f64>() * total;
                let k = t
                    .players
                    .iter()
                    .position(|&p| {
                        x -= gamma[p];
                        x < 0.0
                    })
                    .unwrap_or(3);
                t.wins[k] += 1.0;
            }
        }
        let f = fit(6, &tables, 1.0);
        let want = centred_log(&gamma);
        for (i, &w) in want.iter().enumerate() {
            let (lo, hi) = f.interval(i, 0.999);
            assert!(lo <= w && w <= hi, "player {i}: {lo}..{hi} against {w}");
        }
        assert_eq!(f.order()[0], 0);
    }

    /// A lopsided matrix of pairs like the starter decks': records of 1990–10 and 2000–0
    /// next to even ones, 2,000 games per pair.
    fn lopsided() -> Vec<Table> {
        [
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
        ]
        .into_iter()
        .map(|(a, b, wa, wb)| Table::pair(a, b, wa, wb))
        .collect()
    }

    /// The penalised likelihood's gradient in log-strength at the fit's scale (mean
    /// strength 1, where the fit reports it up to the centring), written out from the
    /// tables on their own.
    fn gradient_at_fit(tables: &[Table], prior: f64, f: &PlFit) -> Vec<f64> {
        let n = f.log_strength.len();
        let mut gamma: Vec<f64> = f.log_strength.iter().map(|t| t.exp()).collect();
        let m = gamma.iter().sum::<f64>() / n as f64;
        gamma.iter_mut().for_each(|g| *g /= m);
        let mut grad = vec![0.0; n];
        for t in tables {
            let total: f64 = t.players.iter().map(|&p| gamma[p]).sum();
            let games: f64 = t.wins.iter().sum();
            for (&p, &w) in t.players.iter().zip(&t.wins) {
                grad[p] += w - games * gamma[p] / total;
            }
        }
        for (g, gam) in grad.iter_mut().zip(&gamma) {
            *g += prior * (1.0 - gam);
        }
        grad
    }

    #[test]
    fn a_lopsided_matrix_of_pairs_converges_to_the_maximum() {
        // Plain MM creeps here for hundreds of thousands of iterations along the common
        // scale of the strengths; the rescaling after each iteration is what ends it.
        let tables = lopsided();
        let f = fit(5, &tables, 1.0);
        assert!(f.converged && f.iterations < 20_000, "{f:?}");
        let grad = gradient_at_fit(&tables, 1.0, &f);
        assert!(grad.iter().all(|g| g.abs() < 1e-6), "{grad:?}");
        assert_eq!(f.order(), vec![0, 3, 1, 2, 4]);
    }

    #[test]
    fn two_players_with_a_prior_give_their_closed_form() {
        // A table of two, w wins of g games, prior p: the likelihood equations add up to
        // γ_A + γ_B = 2, so γ_A = (w + p) / (g/2 + p) and the log-strengths differ by
        // ln((w + p) / (g − w + p)).
        for (w, g, p) in [
            (1990.0, 2000.0, 1.0),
            (2000.0, 2000.0, 1.0),
            (30.0, 40.0, 1.0),
            (7.0, 7.0, 0.5),
        ] {
            let f = fit(2, &[Table::pair(0, 1, w, g - w)], p);
            assert!(f.converged, "{f:?}");
            let d = ((w + p) / (g - w + p)).ln();
            assert!((f.log_strength[0] - d / 2.0).abs() < 1e-9, "{f:?} vs {d}");
            assert!((f.log_strength[1] + d / 2.0).abs() < 1e-9, "{f:?} vs {d}");
        }
    }

    #[test]
    fn the_prior_keeps_a_perfect_record_of_pairs_finite() {
        // A wins all 100 games against B and C; B and C split theirs.
        let tables = [
            Table::pair(0, 1, 100.0, 0.0),
            Table::pair(0, 2, 100.0, 0.0),
            Table::pair(1, 2, 50.0, 50.0),
        ];
        let f = fit(3, &tables, 1.0);
        assert!(f.converged, "{f:?}");
        assert!(f.log_strength.iter().all(|t| t.is_finite()));
        assert!(f.se.iter().all(|s| s.is_finite() && *s > 0.0), "{f:?}");
        assert_eq!(f.ranks()[0], 1);
        assert!(f.win_probability(0, &[0, 1]) > 0.97, "{f:?}");
        assert!((f.log_strength[1] - f.log_strength[2]).abs() < 1e-9);
    }

    #[test]
    fn players_who_never_meet_have_no_finite_error() {
        // 0 and 1 play, 2 and 3 play, the two groups never: nothing links their levels.
        let tables = [Table::pair(0, 1, 6.0, 4.0), Table::pair(2, 3, 5.0, 5.0)];
        let f = fit(4, &tables, 1.0);
        assert!(f.se.iter().all(|s| s.is_infinite()), "{:?}", f.se);
    }

    #[test]
    fn degenerate_input_does_not_fail() {
        let f = fit(0, &[], 1.0);
        assert!(f.log_strength.is_empty() && f.converged);
        // A table naming a player twice, or out of range, is ignored.
        let bad = vec![
            Table {
                players: vec![0, 0],
                wins: vec![1.0, 1.0],
            },
            Table {
                players: vec![0, 9],
                wins: vec![1.0, 1.0],
            },
        ];
        let f = fit(2, &bad, 1.0);
        assert_eq!(f.log_strength, vec![0.0, 0.0]);
    }
}
