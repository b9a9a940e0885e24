//! Confidence intervals.
//!
//! Layer: part of [`crate::stats`]; may use `engine` and nothing else of the crate.

use statrs::distribution::{ContinuousCDF, Normal};

#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct Interval {
    pub estimate: f64,
    pub lo: f64,
    pub hi: f64,
}

/// The two-sided standard normal quantile for a confidence level (0.95 -> 1.96).
pub fn z_for(level: f64) -> f64 {
    Normal::new(0.0, 1.0)
        .expect("standard normal")
        .inverse_cdf(0.5 + level / 2.0)
}

/// Wilson score interval for `k` successes in `n` trials (Wilson 1927; Brown, Cai &
/// DasGupta 2001, "Interval Estimation for a Binomial Proportion"). Keeps its bounds in
/// [0, 1] and behaves at 0 and n, unlike the normal approximation. `n = 0` gives [0, 1].
pub fn wilson(k: u64, n: u64, level: f64) -> Interval {
    if n == 0 {
        return Interval {
            estimate: 0.0,
            lo: 0.0,
            hi: 1.0,
        };
    }
    let z = z_for(level);
    let n_f = n as f64;
    let p = k as f64 / n_f;
    let z2 = z * z;
    let denom = 1.0 + z2 / n_f;
    let center = (p + z2 / (2.0 * n_f)) / denom;
    let half = z * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / denom;
    // At k = 0 (k = n) the lower (upper) bound is exactly 0 (1); rounding would miss it.
    Interval {
        estimate: p,
        lo: if k == 0 {
            0.0
        } else {
            (center - half).max(0.0)
        },
        hi: if k == n {
            1.0
        } else {
            (center + half).min(1.0)
        },
    }
}

/// Games needed for a Wilson half-width of at most `half` at p = 0.5 (the worst case).
pub fn games_for_half_width(half: f64, level: f64) -> u64 {
    let z = z_for(level);
    (z * z * 0.25 / (half * half)).ceil() as u64
}

/// Mean and standard error of the per-game differences `b - a` (each -1, 0 or 1).
pub fn paired(a: &[bool], b: &[bool]) -> (f64, f64) {
    let n = a.len().min(b.len());
    if n < 2 {
        return (0.0, 0.0);
    }
    let (mut sum, mut abs) = (0i64, 0u64);
    for (x, y) in a.iter().zip(b) {
        let d = *y as i64 - *x as i64;
        sum += d;
        abs += d.unsigned_abs();
    }
    let nf = n as f64;
    let mean = sum as f64 / nf;
    let var = (abs as f64 - nf * mean * mean) / (nf - 1.0);
    (mean, (var.max(0.0) / nf).sqrt())
}

/// The bounds `mean ± z·se` of a paired difference `(mean, se)` from [`paired`], or `None`
/// when its games show no variation (se 0: every paired game gave the same result, or fewer
/// than two games): a zero-width interval would read as certain, and it is not.
pub fn paired_bounds(d: (f64, f64), z: f64) -> Option<(f64, f64)> {
    (d.1 > 0.0).then_some((d.0 - z * d.1, d.0 + z * d.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn no_variation_has_no_interval() {
        let lost = [false; 20];
        assert_eq!(paired(&lost, &lost), (0.0, 0.0));
        assert_eq!(paired_bounds(paired(&lost, &lost), 1.96), None);
        let won = [true; 20];
        // Every game flipped: a difference of exactly +1 in every pair, no variation.
        assert_eq!(paired_bounds(paired(&lost, &won), 1.96), None);
        let (lo, hi) = paired_bounds((0.1, 0.01), 2.0).unwrap();
        assert!((lo - 0.08).abs() < 1e-12 && (hi - 0.12).abs() < 1e-12);
    }

    #[test]
    fn paired_difference_and_its_error() {
        let a = [true, true, false, false];
        let b = [true, false, true, true];
        let (d, se) = paired(&a, &b);
        assert!((d - 0.25).abs() < 1e-12);
        // differences 0, -1, 1, 1: sample variance (3 - 4 * 0.0625) / 3.
        let var: f64 = (3.0 - 4.0 * 0.0625) / 3.0;
        assert!((se - (var / 4.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn matches_a_published_value() {
        // Brown, Cai & DasGupta: k = 0 of n = 20 -> Wilson 95% upper bound ~0.161.
        let i = wilson(0, 20, 0.95);
        assert_eq!(i.lo, 0.0);
        assert!((i.hi - 0.1611).abs() < 1e-3, "{i:?}");
        let i = wilson(50, 100, 0.95);
        assert!(
            (i.lo - 0.4038).abs() < 1e-3 && (i.hi - 0.5962).abs() < 1e-3,
            "{i:?}"
        );
    }

    #[test]
    fn sizes_a_one_percent_run() {
        assert_eq!(games_for_half_width(0.01, 0.95), 9604);
    }

    proptest! {
        #[test]
        fn bounds_hold_the_estimate(n in 1u64..100_000, frac in 0.0f64..=1.0) {
            let k = ((n as f64) * frac).round() as u64;
            let i = wilson(k.min(n), n, 0.95);
            prop_assert!(0.0 <= i.lo && i.lo <= i.estimate && i.estimate <= i.hi && i.hi <= 1.0);
        }
    }
}
