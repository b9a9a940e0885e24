//! Seeds. Every random draw of a game comes from streams derived from the run's base seed
//! and the game index alone, so a game is the same whatever the thread count, and game `i`
//! sees the same shuffles in every configuration (common random numbers).
//!
//! Layer: part of [`crate::sim`]; may use `cards`, `deck`, `engine`, `policy`, `stats` and nothing
//! else of the crate.

use rand::SeedableRng;

use crate::engine::GameRng;
use crate::policy::PolicyRng;

/// SplitMix64 (Steele, Lea & Flood 2014), the standard seed scrambler.
#[inline]
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The four independent streams of one game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameSeeds {
    /// This game's own seed (reported per game; derived from base seed and index).
    pub game: u64,
    /// The adventure, then the player's deck order.
    pub setup: u64,
    /// The Confluence's deck order.
    pub confluence: u64,
    /// Dice and reshuffles during the game.
    pub events: u64,
    /// The player policy's own choices.
    pub policy: u64,
}

impl GameSeeds {
    pub fn new(base: u64, game_index: u64) -> GameSeeds {
        let game = splitmix64(base ^ splitmix64(game_index));
        GameSeeds {
            game,
            setup: splitmix64(game ^ 0x5e7u64),
            confluence: splitmix64(game ^ 0xc0f1u64),
            events: splitmix64(game ^ 0xe7e7u64),
            policy: splitmix64(game ^ 0x9011u64),
        }
    }

    pub fn rng(seed: u64) -> GameRng {
        GameRng::seed_from_u64(seed)
    }

    pub fn policy_rng(&self) -> PolicyRng {
        PolicyRng::seed_from_u64(self.policy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_differ_and_are_stable() {
        let a = GameSeeds::new(42, 7);
        assert_eq!(a, GameSeeds::new(42, 7));
        assert_ne!(a.setup, a.confluence);
        assert_ne!(GameSeeds::new(42, 7).game, GameSeeds::new(42, 8).game);
        assert_ne!(GameSeeds::new(42, 7).game, GameSeeds::new(43, 7).game);
        // A published SplitMix64 value (seed 0, first output).
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
    }
}
