//! Racing for `sensitivity`: the grid's edits play in stages of game counts, and after each
//! stage an edit whose paired interval already shows it hardly matters stops there.
//!
//! Every stage plays the next game indices (the same for the baseline and every edit), so
//! an edit that stops after `n` games has played games `0..n`, paired with the baseline's
//! first `n` games. Which edits stop depends only on the games' results, never on timing or
//! threads: the same flags and seed stop the same edits.
//!
//! Layer: part of [`crate::design`].

/// How the grid is raced: `None` in [`Race::first`] plays every edit on all the games.
#[derive(Clone, Copy, Debug)]
pub struct Race {
    /// Games of the first stage (each later stage doubles the games played so far);
    /// `None`: no racing.
    pub first: Option<u64>,
    /// An edit stops when its paired 95% interval lies within ±`negligible` (a fraction:
    /// 0.01 is one percentage point).
    pub negligible: f64,
    /// With a target: an edit whose win rate's 95% interval holds the target never stops
    /// (it is a candidate answer however small its effect).
    pub target: Option<f64>,
}

impl Race {
    /// The stages' ends: the number of games played after each stage, increasing, the last
    /// one `games`. Without racing, or when `games` is no more than the first stage, one
    /// stage of all the games.
    pub fn stages(&self, games: u64) -> Vec<u64> {
        let mut out = Vec::new();
        if let Some(first) = self.first {
            let mut n = first.max(2);
            while n < games {
                out.push(n);
                n = n.saturating_mul(2);
            }
        }
        out.push(games);
        out
    }

    /// Whether an edit stops after a stage of `games` games, `changed` of which ended
    /// otherwise than the baseline's (won one side, lost the other): when (with a target)
    /// its win rate's interval `win` (low, high) does not hold the target, and either
    /// - the share of games it changed at all is below `negligible` (the upper end of its
    ///   Wilson 95% interval): no effect can be larger than that share; or
    /// - it changed at least [`MIN_CHANGED`] games and its paired difference `diff` (mean,
    ///   standard error) has a 95% interval strictly within ±`negligible`. Fewer changed
    ///   games make the normal interval too narrow to trust (two games won by the edit
    ///   out of 500 give ±0.55 points).
    pub fn stops(&self, diff: (f64, f64), changed: u64, games: u64, win: (f64, f64)) -> bool {
        let (lo, hi) = (diff.0 - Z * diff.1, diff.0 + Z * diff.1);
        let few_changed = wilson(changed, games, 0.95).hi < self.negligible;
        let within = changed >= MIN_CHANGED && -self.negligible < lo && hi < self.negligible;
        let candidate = self.target.is_some_and(|t| win.0 <= t && t <= win.1);
        (few_changed || within) && !candidate
    }
}

use crate::design::Z;

/// Changed games from which the paired difference's normal interval decides.
pub const MIN_CHANGED: u64 = 10;

use crate::stats::interval::wilson;

#[cfg(test)]
mod tests {
    use super::*;

    fn race(first: Option<u64>) -> Race {
        Race {
            first,
            negligible: 0.01,
            target: None,
        }
    }

    #[test]
    fn stages_double_up_to_the_games() {
        assert_eq!(race(Some(500)).stages(4000), [500, 1000, 2000, 4000]);
        assert_eq!(race(Some(500)).stages(3000), [500, 1000, 2000, 3000]);
        assert_eq!(race(Some(500)).stages(500), [500]);
        assert_eq!(race(Some(500)).stages(150), [150]);
        assert_eq!(race(None).stages(4000), [4000]);
    }

    #[test]
    fn an_edit_stops_only_when_its_whole_interval_is_negligible() {
        let r = race(Some(500));
        let w = (0.4, 0.5);
        // 0.2 points with a standard error of 0.3 points over 4,000 games, 80 of them
        // changed: [-0.39, +0.79], within ±1.
        assert!(r.stops((0.002, 0.003), 80, 4000, w));
        // No changed game in 500: at most 0.77% of the games can change.
        assert!(r.stops((0.0, 0.0), 0, 500, w));
        // One changed game in 500 may hide an effect of 1.1 points: it goes on...
        assert!(!r.stops((0.002, 0.002), 1, 500, w));
        // ...and so do two games won by the edit, whose normal interval (+0.4 ± 0.55) is
        // within ±1 but rests on two games.
        assert!(!r.stops((0.004, 0.0028), 2, 500, w));
        // The interval reaches past one point on either side: it goes on.
        assert!(!r.stops((0.005, 0.003), 80, 4000, w));
        assert!(!r.stops((-0.005, 0.003), 80, 4000, w));
        // A large effect, however precise.
        assert!(!r.stops((0.05, 0.001), 400, 4000, w));
        // With a target inside its win-rate interval, even a negligible edit goes on.
        let t = Race {
            target: Some(0.45),
            ..r
        };
        assert!(!t.stops((0.0, 0.0), 0, 500, w));
        assert!(t.stops((0.0, 0.0), 0, 500, (0.5, 0.6)));
    }
}
