//! The quantal-response (Boltzmann) fit of a player's temperature from recorded decisions.
//!
//! The model: at a decision with options of values `Q(a)` (points of win probability,
//! 0 to 100), the player picks `a` with probability `exp(Q(a)/t) / Σ exp(Q(b)/t)`. With
//! `β = 1/t` the log-likelihood of the recorded choices,
//! `ℓ(β) = Σ_i [β Q_i(c_i) − log Σ_b exp(β Q_i(b))]`, is concave in β (its second
//! derivative is minus the sum of the variances of Q under each decision's choice
//! probabilities), so its maximum is unique and the root of `ℓ'` is found by bisection.
//! The 95% interval is the profile-likelihood one on β, `{β : 2(ℓ(β̂) − ℓ(β)) ≤ 3.84}`,
//! mapped to `t = 1/β`: a player who always picked a best option has `β̂ = ∞` (`t = 0`),
//! one whose choices are no better than uniform `β̂ = 0` (`t = ∞`), and either end of the
//! interval may be open (`t_lo = 0`, `t_hi = ∞`).
//!
//! Decisions within a game are correlated (one careless player, one bad day): the
//! profile interval treats them as independent; [`bootstrap`] resamples whole games
//! instead, and [`given_away`]'s interval is cluster-robust over games.
//!
//! How to call it (the coordinator's `calibrate`): evaluate each decision the player faced
//! with [`crate::policy::skill::Evaluator::values`] (points, one per legal option), build a
//! [`FitDecision`] of those values, the index of the option the player chose and the
//! game's number, then `fit(&decisions)` and `given_away(&decisions)`.
//!
//! Layer: part of [`crate::stats`]; may use `engine` and nothing else of the crate (it uses
//! none: pure arithmetic).

use rand::{RngExt, SeedableRng};

use super::interval::Interval;

/// Half the 95% quantile of χ² with one degree of freedom: the profile-likelihood drop
/// that bounds a 95% interval.
const HALF_CHI2_95: f64 = 3.841_458_820_694_124 / 2.0;

/// The largest β tried (a temperature of 10⁻⁶ points): a likelihood still rising there is
/// taken to rise for ever (`t = 0`).
const BETA_MAX: f64 = 1e6;

/// Values that differ by no more than this (points) are equal.
const EQUAL: f64 = 1e-9;

/// One decision a player made: the value of every legal option (points of win
/// probability, 0 to 100), the index of the one chosen, and the game it was made in (for
/// the intervals over whole games; any number that names the game).
#[derive(Clone, Debug, PartialEq)]
pub struct FitDecision {
    pub values: Vec<f64>,
    pub chosen: usize,
    pub game: u64,
}

impl FitDecision {
    /// Whether the decision says anything about the temperature: two or more options whose
    /// values are not all equal (and are all finite, with `chosen` among them).
    pub fn is_informative(&self) -> bool {
        self.is_valid() && {
            let (lo, hi) = min_max(&self.values);
            hi - lo > EQUAL
        }
    }

    fn is_valid(&self) -> bool {
        self.values.len() >= 2
            && self.chosen < self.values.len()
            && self.values.iter().all(|v| v.is_finite())
    }
}

fn min_max(v: &[f64]) -> (f64, f64) {
    v.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        })
}

/// The fitted temperature (points of win probability).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct FitResult {
    /// The maximum-likelihood temperature: 0 when every informative choice was a best
    /// option, `f64::INFINITY` when the choices are no better than uniform, NaN when no
    /// decision is informative.
    pub t: f64,
    /// The 95% profile-likelihood interval on `t`: `t_lo` may be 0 and `t_hi` infinite
    /// (open ends; serde_json writes an infinity as `null`).
    pub t_lo: f64,
    pub t_hi: f64,
    /// `β = 1/t` and its interval (per point), the scale the fit works on.
    pub beta: f64,
    pub beta_lo: f64,
    pub beta_hi: f64,
    /// Decisions that entered the likelihood.
    pub informative: usize,
    /// Decisions left out: a single option, all values equal, or values that are not
    /// finite numbers (or a `chosen` index out of range).
    pub uninformative: usize,
    /// The log-likelihood at the fit (natural log; 0 with no informative decision).
    pub loglik: f64,
}

/// The log-likelihood and its first two derivatives in β over the informative decisions.
struct Loglik<'a> {
    decisions: Vec<&'a FitDecision>,
}

impl Loglik<'_> {
    /// `(ℓ(β), ℓ'(β), ℓ''(β))`; `β = ∞` gives the limit of ℓ.
    fn at(&self, beta: f64) -> (f64, f64, f64) {
        let (mut l, mut d1, mut d2) = (0.0, 0.0, 0.0);
        for d in &self.decisions {
            let (_, max) = min_max(&d.values);
            let qc = d.values[d.chosen];
            if beta.is_infinite() {
                // Every option but the best ones has probability 0.
                let ties = d.values.iter().filter(|&&v| max - v <= EQUAL).count();
                l += if max - qc <= EQUAL {
                    -(ties as f64).ln()
                } else {
                    f64::NEG_INFINITY
                };
                continue;
            }
            let (mut z, mut m1, mut m2) = (0.0, 0.0, 0.0);
            for &v in &d.values {
                let w = (beta * (v - max)).exp();
                z += w;
                m1 += w * v;
                m2 += w * v * v;
            }
            let mean = m1 / z;
            l += beta * (qc - max) - z.ln();
            d1 += qc - mean;
            d2 -= (m2 / z - mean * mean).max(0.0);
        }
        (l, d1, d2)
    }

    fn l(&self, beta: f64) -> f64 {
        self.at(beta).0
    }
}

/// The β in `[lo, hi]` where the increasing (`up`) or decreasing function `f` crosses 0,
/// by bisection in log β where the bracket spans orders of magnitude.
fn bisect(mut lo: f64, mut hi: f64, up: bool, f: impl Fn(f64) -> f64) -> f64 {
    for _ in 0..200 {
        let mid = if lo > 0.0 && hi / lo > 4.0 {
            (lo * hi).sqrt()
        } else {
            0.5 * (lo + hi)
        };
        if mid <= lo || mid >= hi {
            break;
        }
        if (f(mid) < 0.0) == up {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-12 * hi {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// The maximum-likelihood temperature of the choices in `decisions` with its 95%
/// profile-likelihood interval (see the module's documentation). Order-independent;
/// decisions that carry no information are counted in `uninformative` and left out.
pub fn fit(decisions: &[FitDecision]) -> FitResult {
    let informative: Vec<&FitDecision> = decisions.iter().filter(|d| d.is_informative()).collect();
    let uninformative = decisions.len() - informative.len();
    let n = informative.len();
    if n == 0 {
        return FitResult {
            t: f64::NAN,
            t_lo: 0.0,
            t_hi: f64::INFINITY,
            beta: f64::NAN,
            beta_lo: 0.0,
            beta_hi: f64::INFINITY,
            informative: 0,
            uninformative,
            loglik: 0.0,
        };
    }
    let ll = Loglik {
        decisions: informative,
    };
    let d1 = |b: f64| ll.at(b).1;
    // Every choice a best option: ℓ rises for ever (its derivative tends to 0 from above,
    // which floating point cannot tell from the root), the fit is β = ∞.
    let all_best = ll.decisions.iter().all(|d| {
        let (_, max) = min_max(&d.values);
        max - d.values[d.chosen] <= EQUAL
    });
    // ℓ' decreases (ℓ is concave): its root is the fit.
    let beta = if all_best {
        f64::INFINITY
    } else if d1(0.0) <= 0.0 {
        0.0
    } else {
        // Bracket the root by doubling (ℓ' tends to Σ (Q(chosen) − max Q) < 0).
        let mut hi = 1.0;
        while hi < BETA_MAX && d1(hi) > 0.0 {
            hi *= 2.0;
        }
        if d1(hi) > 0.0 {
            f64::INFINITY
        } else {
            bisect(0.0, hi, false, d1)
        }
    };
    let top = ll.l(beta);
    let floor = top - HALF_CHI2_95;
    // The interval's ends: where ℓ falls to `floor` on either side of the fit.
    let beta_lo = if beta == 0.0 || ll.l(0.0) >= floor {
        0.0
    } else {
        bisect(0.0, beta.min(BETA_MAX), true, |b| ll.l(b) - floor)
    };
    let beta_hi = if beta.is_infinite() || ll.l(f64::INFINITY) >= floor {
        f64::INFINITY
    } else {
        let mut hi = (2.0 * beta).max(1.0);
        while hi < BETA_MAX && ll.l(hi) > floor {
            hi *= 2.0;
        }
        if ll.l(hi) > floor {
            f64::INFINITY
        } else {
            bisect(beta, hi, false, |b| ll.l(b) - floor)
        }
    };
    FitResult {
        t: inv(beta),
        t_lo: inv(beta_hi),
        t_hi: inv(beta_lo),
        beta,
        beta_lo,
        beta_hi,
        informative: n,
        uninformative,
        loglik: top,
    }
}

/// `1/β` with `1/0 = ∞` and `1/∞ = 0`.
fn inv(b: f64) -> f64 {
    if b == 0.0 {
        f64::INFINITY
    } else if b.is_infinite() {
        0.0
    } else {
        1.0 / b
    }
}

/// A 95% percentile interval on `t` from `reps` fits to resamples of whole games
/// (decisions grouped by [`FitDecision::game`]), deterministic given `seed`. Each
/// resample draws as many games as there are, with replacement. `None` with fewer than two
/// games. The ends are `t`'s (0 and ∞ allowed). Costs `reps` fits.
pub fn bootstrap(decisions: &[FitDecision], reps: u32, seed: u64) -> Option<(f64, f64)> {
    let mut games: Vec<u64> = decisions.iter().map(|d| d.game).collect();
    games.sort_unstable();
    games.dedup();
    if games.len() < 2 || reps == 0 {
        return None;
    }
    // Decisions by game, in a fixed order (sorted by game, then as given, which `fit`
    // does not depend on).
    let mut by_game: Vec<Vec<&FitDecision>> = vec![Vec::new(); games.len()];
    for d in decisions {
        let g = games.binary_search(&d.game).expect("listed");
        by_game[g].push(d);
    }
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut ts = Vec::with_capacity(reps as usize);
    let mut sample: Vec<FitDecision> = Vec::new();
    for _ in 0..reps {
        sample.clear();
        for _ in 0..games.len() {
            let g = rng.random_range(0..games.len());
            sample.extend(by_game[g].iter().map(|&d| d.clone()));
        }
        let t = fit(&sample).t;
        // A resample with no informative decision says nothing either way.
        ts.push(if t.is_nan() { f64::INFINITY } else { t });
    }
    ts.sort_by(f64::total_cmp);
    let at = |q: f64| ts[((q * (ts.len() - 1) as f64).round() as usize).min(ts.len() - 1)];
    Some((at(0.025), at(0.975)))
}

/// The mean value given away per decision, `Q(best) − Q(chosen)` in points, over every
/// decision with valid values (one with a single option gives away 0), with a 95%
/// interval that is cluster-robust over games (the normal approximation with the variance
/// of the games' sums; one game per decision gives the ordinary standard error). `n = 0`:
/// NaN and an infinite interval.
pub fn given_away(decisions: &[FitDecision]) -> Interval {
    let valid =
        |d: &&FitDecision| d.chosen < d.values.len() && d.values.iter().all(|v| v.is_finite());
    let loss = |d: &FitDecision| min_max(&d.values).1 - d.values[d.chosen];
    let n = decisions.iter().filter(valid).count();
    if n == 0 {
        return Interval {
            estimate: f64::NAN,
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
        };
    }
    let mean = decisions.iter().filter(valid).map(loss).sum::<f64>() / n as f64;
    // Per game: the sum of (loss − mean).
    let mut sums: Vec<(u64, f64)> = decisions
        .iter()
        .filter(valid)
        .map(|d| (d.game, loss(d) - mean))
        .collect();
    sums.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut clusters: Vec<f64> = Vec::new();
    let mut last = None;
    for (g, e) in sums {
        if last == Some(g) {
            *clusters.last_mut().expect("pushed") += e;
        } else {
            clusters.push(e);
            last = Some(g);
        }
    }
    let g = clusters.len() as f64;
    let half = if clusters.len() < 2 {
        f64::INFINITY
    } else {
        let var = g / (g - 1.0) * clusters.iter().map(|s| s * s).sum::<f64>() / (n as f64).powi(2);
        super::interval::z_for(0.95) * var.sqrt()
    };
    Interval {
        estimate: mean,
        lo: (mean - half).max(0.0),
        hi: mean + half,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::Xoshiro256PlusPlus as Rng;

    /// `n` decisions of 2 to 8 options with values uniform in 0..60 points, chosen by a
    /// quantal-response player of temperature `t` (0: a best option), 10 to a game.
    fn synthetic(n: usize, t: f64, seed: u64) -> Vec<FitDecision> {
        let mut rng = Rng::seed_from_u64(seed);
        (0..n)
            .map(|i| {
                let k = rng.random_range(2..=8usize);
                let values: Vec<f64> = (0..k).map(|_| rng.random::<f64>() * 60.0).collect();
                let chosen = if t == 0.0 {
                    let (_, max) = min_max(&values);
                    values.iter().position(|&v| v == max).unwrap()
                } else {
                    let (_, max) = min_max(&values);
                    let w: Vec<f64> = values.iter().map(|v| ((v - max) / t).exp()).collect();
                    let mut x = rng.random::<f64>() * w.iter().sum::<f64>();
                    w.iter()
                        .position(|&w| {
                            x -= w;
                            x < 0.0
                        })
                        .unwrap_or(k - 1)
                };
                FitDecision {
                    values,
                    chosen,
                    game: (i / 10) as u64,
                }
            })
            .collect()
    }

    #[test]
    fn a_known_temperature_is_recovered_within_its_interval() {
        for (t0, seed) in [(2.0, 1), (8.0, 2), (0.5, 3), (20.0, 4)] {
            let d = synthetic(400, t0, seed);
            let f = fit(&d);
            assert!(f.t_lo < t0 && t0 < f.t_hi, "t0 {t0}: {f:?}");
            assert!(f.t_lo < f.t && f.t < f.t_hi, "{f:?}");
            assert_eq!((f.informative, f.uninformative), (400, 0));
            // The derivative vanishes at the fit.
            let ll = Loglik {
                decisions: d.iter().collect(),
            };
            assert!(ll.at(f.beta).1.abs() < 1e-6, "{:?}", ll.at(f.beta));
        }
        // Distinguishable: t = 2 and t = 8 give intervals that do not overlap.
        let a = fit(&synthetic(400, 2.0, 5));
        let b = fit(&synthetic(400, 8.0, 6));
        assert!(a.t_hi < b.t_lo, "{a:?} {b:?}");
    }

    #[test]
    fn the_interval_covers_the_truth_about_95_times_in_100() {
        let mut covered = 0;
        for seed in 0..200 {
            let f = fit(&synthetic(200, 4.0, 100 + seed));
            covered += (f.t_lo <= 4.0 && 4.0 <= f.t_hi) as u32;
        }
        assert!((180..=198).contains(&covered), "{covered} of 200");
    }

    #[test]
    fn the_fit_does_not_depend_on_the_order_of_decisions_or_options() {
        use rand::seq::SliceRandom;
        let d = synthetic(300, 3.0, 9);
        let f = fit(&d);
        let mut rng = Rng::seed_from_u64(10);
        let mut e = d.clone();
        e.shuffle(&mut rng);
        for x in &mut e {
            let mut idx: Vec<usize> = (0..x.values.len()).collect();
            idx.shuffle(&mut rng);
            let values = idx.iter().map(|&i| x.values[i]).collect();
            x.chosen = idx.iter().position(|&i| i == x.chosen).unwrap();
            x.values = values;
        }
        let g = fit(&e);
        for (a, b) in [(f.t, g.t), (f.t_lo, g.t_lo), (f.t_hi, g.t_hi)] {
            assert!((a - b).abs() < 1e-6 * a.max(1.0), "{f:?} {g:?}");
        }
        assert!((f.loglik - g.loglik).abs() < 1e-9);
    }

    #[test]
    fn uninformative_decisions_are_counted_apart() {
        let mut d = synthetic(100, 2.0, 11);
        let f = fit(&d);
        d.push(FitDecision {
            values: vec![40.0],
            chosen: 0,
            game: 99,
        });
        d.push(FitDecision {
            values: vec![40.0, 40.0, 40.0],
            chosen: 2,
            game: 99,
        });
        d.push(FitDecision {
            values: vec![40.0, f64::NAN],
            chosen: 0,
            game: 99,
        });
        d.push(FitDecision {
            values: vec![40.0, 50.0],
            chosen: 2,
            game: 99,
        });
        let g = fit(&d);
        assert_eq!((g.informative, g.uninformative), (100, 4));
        assert_eq!(f.t, g.t);
        let none = fit(&d[100..]);
        assert!(none.t.is_nan() && none.t_lo == 0.0 && none.t_hi.is_infinite());
        assert!(fit(&[]).t.is_nan());
    }

    #[test]
    fn a_perfect_player_fits_zero_and_a_uniform_one_infinity() {
        let f = fit(&synthetic(100, 0.0, 12));
        assert_eq!((f.t, f.t_lo), (0.0, 0.0));
        assert!(f.t_hi > 0.0 && f.t_hi < 1.0, "{f:?}");
        assert!(f.beta.is_infinite());
        // Always the worst option: β̂ = 0 (t = ∞), the interval open above.
        let mut w = synthetic(100, 0.0, 13);
        for d in &mut w {
            let (lo, _) = min_max(&d.values);
            d.chosen = d.values.iter().position(|&v| v == lo).unwrap();
        }
        let f = fit(&w);
        assert!(f.t.is_infinite() && f.t_hi.is_infinite(), "{f:?}");
        // Uniform choices: an interval open above that reaches far.
        let u = fit(&synthetic(100, 1e9, 14));
        assert!(u.t_hi.is_infinite() || u.t_hi > 100.0, "{u:?}");
    }

    #[test]
    fn one_decision_by_hand() {
        // Two options 10 points apart, the better chosen: ℓ(β) = −log(1 + e^(−10β)) rises
        // for ever; the interval's lower β solves ℓ = −1.92.
        let d = [FitDecision {
            values: vec![50.0, 40.0],
            chosen: 0,
            game: 0,
        }];
        let f = fit(&d);
        assert_eq!(f.t, 0.0);
        // ℓ(0) = −ln 2 = −0.69 > −1.92: β = 0 is inside, so the interval is all of [0, ∞).
        assert_eq!((f.beta_lo, f.t_lo, f.t_hi), (0.0, 0.0, f64::INFINITY));
        // Ten such decisions: ℓ(β) = −10 log(1 + e^(−10β)) reaches −1.92 where
        // e^(−10β) = e^0.192 − 1.
        let f = fit(&vec![d[0].clone(); 10]);
        let b = -((HALF_CHI2_95 / 10.0).exp() - 1.0).ln() / 10.0;
        assert!((f.beta_lo - b).abs() < 1e-9, "{} against {b}", f.beta_lo);
        assert!((f.t_hi - 1.0 / b).abs() < 1e-6);
        assert_eq!((f.t, f.t_lo), (0.0, 0.0));
    }

    #[test]
    fn the_bootstrap_over_games_brackets_the_fit() {
        let d = synthetic(300, 4.0, 15);
        let f = fit(&d);
        let (lo, hi) = bootstrap(&d, 200, 1).unwrap();
        assert!(lo < f.t && f.t < hi, "{lo} {hi} {f:?}");
        assert!(lo < 4.0 && 4.0 < hi, "{lo} {hi}");
        assert_eq!(bootstrap(&d, 200, 1), Some((lo, hi)), "deterministic");
        assert!(bootstrap(&d[..5], 10, 1).is_none(), "one game");
    }

    #[test]
    fn value_given_away_is_the_mean_loss_with_an_interval() {
        let d = vec![
            FitDecision {
                values: vec![50.0, 40.0],
                chosen: 1,
                game: 0,
            },
            FitDecision {
                values: vec![50.0, 40.0, 30.0],
                chosen: 0,
                game: 1,
            },
            FitDecision {
                values: vec![70.0],
                chosen: 0,
                game: 2,
            },
        ];
        let g = given_away(&d);
        assert!((g.estimate - 10.0 / 3.0).abs() < 1e-12);
        assert!(g.lo <= g.estimate && g.estimate < g.hi);
        // A player who always picks a best option gives away nothing.
        let z = given_away(&synthetic(50, 0.0, 16));
        assert_eq!((z.estimate, z.lo, z.hi), (0.0, 0.0, 0.0));
        // Warmer players give away more.
        let a = given_away(&synthetic(400, 2.0, 17));
        let b = given_away(&synthetic(400, 8.0, 18));
        assert!(a.hi < b.lo, "{a:?} {b:?}");
        assert!(given_away(&[]).estimate.is_nan());
    }
}
