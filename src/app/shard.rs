//! `--shard I/N`: one slice of every configuration's games, for runs split across
//! machines and merged afterwards.

use serde::{Deserialize, Serialize};

/// Shard `index` of `count` (0-based: `0/4` .. `3/4`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' (expected I/N with 0 <= I < N, e.g. 0/4; I counts from 0)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse::<u64>().map_err(|_| bad())?,
            n.trim().parse::<u64>().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// The games of each configuration this shard plays: `[index * g / count, (index + 1)
    /// * g / count)`.
    pub fn range(&self, games: u64) -> (u64, u64) {
        let at = |i: u64| ((i as u128 * games as u128) / self.count as u128) as u64;
        (at(self.index), at(self.index + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_from_zero_and_cover_every_game_once() {
        assert_eq!("0/4".parse::<Shard>(), Ok(Shard { index: 0, count: 4 }));
        assert!("4/4".parse::<Shard>().is_err());
        assert!("1/0".parse::<Shard>().is_err());
        assert!("1".parse::<Shard>().is_err());
        assert!("-1/3".parse::<Shard>().is_err());
        for n in [1u64, 2, 3, 7] {
            for g in [0u64, 1, 5, 700, 9604] {
                let mut next = 0;
                for i in 0..n {
                    let (a, b) = Shard { index: i, count: n }.range(g);
                    assert_eq!(a, next);
                    next = b;
                }
                assert_eq!(next, g);
            }
        }
    }
}
