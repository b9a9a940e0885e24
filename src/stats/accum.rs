//! Per-thread accumulators of game results, merged with `+=`. Integer counts only, so a
//! merge in any order gives bit-identical results (thread-count independence).
//!
//! Layer: part of [`crate::stats`]; may use `engine` and nothing else of the crate.

use super::interval::{Interval, wilson};
use crate::engine::Outcome;

/// Outcome codes, in the order of `engine::Outcome`.
pub const OUTCOMES: usize = Outcome::ALL.len();
/// Deck slots tracked per side for "played" statistics.
pub const SLOTS: usize = 64;
/// Days tracked by the histogram (a day cap is at most 255).
pub const MAX_DAYS: usize = 256;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accum {
    pub games: u64,
    pub outcomes: [u64; OUTCOMES],
    /// `day_hist[d]`: games that ended on day `d`.
    pub day_hist: [u64; MAX_DAYS],
    pub win_day_sum: u64,
    /// Per side, per deck slot: games in which the card was played, and how many of those
    /// the player won.
    pub played: [[u64; SLOTS]; 2],
    pub played_wins: [[u64; SLOTS]; 2],
    /// Cards played, per side, over all games.
    pub plays: [u64; 2],
    /// Paired comparison with a baseline configuration on the same game indices (common
    /// random numbers): games paired, sum of (win - baseline win), sum of its absolute value
    /// (the square, since it is -1, 0 or 1).
    pub paired_games: u64,
    pub paired_sum: i64,
    pub paired_abs: u64,
    /// Games in which the engine failed (see `sim::GameResult::engine_error`), and the
    /// lowest index among them (`u64::MAX`: none). Merged by sum and by minimum, so a run
    /// split into threads, units or shards names the same first game.
    pub engine_errors: u64,
    pub first_engine_error: u64,
}

impl Default for Accum {
    fn default() -> Self {
        Accum {
            games: 0,
            outcomes: [0; OUTCOMES],
            day_hist: [0; MAX_DAYS],
            win_day_sum: 0,
            played: [[0; SLOTS]; 2],
            played_wins: [[0; SLOTS]; 2],
            plays: [0; 2],
            paired_games: 0,
            paired_sum: 0,
            paired_abs: 0,
            engine_errors: 0,
            first_engine_error: u64::MAX,
        }
    }
}

/// One game's result as the accumulator sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameTally {
    pub outcome: usize,
    pub win: bool,
    pub days: u8,
    pub played: [u64; 2],
    pub plays: [u16; 2],
    /// The game's index, when the engine failed during it.
    pub engine_error: Option<u64>,
}

impl Accum {
    #[inline]
    pub fn push(&mut self, g: &GameTally) {
        self.games += 1;
        self.outcomes[g.outcome] += 1;
        self.day_hist[g.days as usize] += 1;
        if g.win {
            self.win_day_sum += g.days as u64;
        }
        for side in 0..2 {
            let mut bits = g.played[side];
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                self.played[side][i] += 1;
                if g.win {
                    self.played_wins[side][i] += 1;
                }
                bits &= bits - 1;
            }
            self.plays[side] += g.plays[side] as u64;
        }
        if let Some(game) = g.engine_error {
            self.engine_errors += 1;
            self.first_engine_error = self.first_engine_error.min(game);
        }
    }

    /// The index of the first game with an engine error, if any.
    pub fn first_engine_error(&self) -> Option<u64> {
        (self.engine_errors > 0).then_some(self.first_engine_error)
    }

    /// Records the pairing of one game with the baseline's game of the same index.
    #[inline]
    pub fn push_pair(&mut self, win: bool, baseline_win: bool) {
        let d = win as i64 - baseline_win as i64;
        self.paired_games += 1;
        self.paired_sum += d;
        self.paired_abs += d.unsigned_abs();
    }

    /// The paired difference in win rate against the baseline, with its standard error:
    /// mean and standard error of the per-game differences (each -1, 0 or 1).
    pub fn paired_difference(&self) -> Option<(f64, f64)> {
        let n = self.paired_games;
        if n < 2 {
            return None;
        }
        let nf = n as f64;
        let mean = self.paired_sum as f64 / nf;
        let var = (self.paired_abs as f64 - nf * mean * mean) / (nf - 1.0);
        Some((mean, (var.max(0.0) / nf).sqrt()))
    }

    pub fn merge(mut self, o: Accum) -> Accum {
        self += &o;
        self
    }

    /// Games the player won, whatever the cause.
    pub fn won(&self) -> u64 {
        self.games_where(Outcome::is_win)
    }

    /// Games the player lost, whatever the cause.
    pub fn lost(&self) -> u64 {
        self.games_where(Outcome::is_loss)
    }

    fn games_where(&self, pred: fn(Outcome) -> bool) -> u64 {
        Outcome::ALL
            .iter()
            .filter(|&&o| pred(o))
            .map(|o| self.outcomes[o.index()])
            .sum()
    }

    pub fn win_interval(&self, wins: u64) -> Interval {
        wilson(wins, self.games, 0.95)
    }

    pub fn days_mean(&self) -> f64 {
        if self.games == 0 {
            return f64::NAN;
        }
        let s: u64 = self
            .day_hist
            .iter()
            .enumerate()
            .map(|(d, &n)| d as u64 * n)
            .sum();
        s as f64 / self.games as f64
    }

    /// Nearest-rank quantile of the day count: the smallest day `d` with at least
    /// `q * games` games ending on or before `d`.
    pub fn days_quantile(&self, q: f64) -> u8 {
        let target = ((q * self.games as f64).ceil() as u64).max(1);
        let mut cum = 0;
        for (d, &n) in self.day_hist.iter().enumerate() {
            cum += n;
            if cum >= target {
                return d as u8;
            }
        }
        0
    }

    /// The histogram up to the last day that has games (or `upto`, if larger).
    pub fn day_histogram(&self, upto: usize) -> Vec<u64> {
        let last = self
            .day_hist
            .iter()
            .rposition(|&n| n > 0)
            .unwrap_or(0)
            .max(upto);
        self.day_hist[1..=last.max(1)].to_vec()
    }
}

impl std::ops::AddAssign<&Accum> for Accum {
    fn add_assign(&mut self, o: &Accum) {
        self.games += o.games;
        for i in 0..OUTCOMES {
            self.outcomes[i] += o.outcomes[i];
        }
        for d in 0..MAX_DAYS {
            self.day_hist[d] += o.day_hist[d];
        }
        self.win_day_sum += o.win_day_sum;
        for s in 0..2 {
            for i in 0..SLOTS {
                self.played[s][i] += o.played[s][i];
                self.played_wins[s][i] += o.played_wins[s][i];
            }
            self.plays[s] += o.plays[s];
        }
        self.paired_games += o.paired_games;
        self.paired_sum += o.paired_sum;
        self.paired_abs += o.paired_abs;
        self.engine_errors += o.engine_errors;
        self.first_engine_error = self.first_engine_error.min(o.first_engine_error);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tally(o: usize, days: u8, p: u64) -> GameTally {
        GameTally {
            outcome: o,
            win: o < 2,
            days,
            played: [p, p.rotate_left(7)],
            plays: [3, 4],
            engine_error: p.is_multiple_of(5).then_some(p % 1000),
        }
    }

    #[test]
    fn wins_and_losses_count_every_cause() {
        let mut a = Accum::default();
        for o in Outcome::ALL {
            a.push(&tally(o.index(), 3, 0));
        }
        // Wins: expeditions met, Confluence deck-out, a card; losses: both Darknesses, a
        // card; the day cap is neither.
        assert_eq!((a.won(), a.lost(), a.games), (3, 3, 7));
        assert_eq!(a.outcomes[Outcome::WinByCard.index()], 1);
    }

    #[test]
    fn quantiles_use_nearest_rank() {
        let mut a = Accum::default();
        for d in [3u8, 4, 4, 5, 9] {
            a.push(&tally(0, d, 1));
        }
        assert_eq!(a.days_quantile(0.5), 4);
        assert_eq!(a.days_quantile(0.1), 3);
        assert_eq!(a.days_quantile(0.9), 9);
        assert_eq!(a.day_histogram(0), vec![0, 0, 1, 2, 1, 0, 0, 0, 1]);
    }

    #[test]
    fn engine_errors_add_up_and_keep_the_first_game_in_any_merge_order() {
        let one = |g: u64| {
            let mut a = Accum::default();
            a.push(&GameTally {
                engine_error: Some(g),
                ..tally(0, 3, 1)
            });
            a
        };
        let none = Accum::default();
        assert_eq!(none.first_engine_error(), None);
        let ab = one(70).merge(one(12)).merge(none.clone());
        let ba = none.merge(one(12)).merge(one(70));
        assert_eq!(ab, ba);
        assert_eq!((ab.engine_errors, ab.first_engine_error()), (2, Some(12)));
    }

    proptest! {
        #[test]
        fn merge_equals_accumulating_the_concatenation(
            a in proptest::collection::vec((0usize..5, 1u8..31, any::<u64>()), 0..40),
            b in proptest::collection::vec((0usize..5, 1u8..31, any::<u64>()), 0..40),
        ) {
            let acc = |v: &[(usize, u8, u64)]| {
                let mut x = Accum::default();
                for &(o, d, p) in v { x.push(&tally(o, d, p)); }
                x
            };
            let both: Vec<_> = a.iter().chain(b.iter()).copied().collect();
            prop_assert_eq!(acc(&a).merge(acc(&b)), acc(&both));
        }
    }
}
