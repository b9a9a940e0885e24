//! Rare mixes from `--rares` and `--rare-set`.
//!
//! Layer: part of [`crate::job`].

use anyhow::Result;

use super::error::usage;
use rand::SeedableRng;
use rand::seq::SliceRandom;

use crate::cards::CardDb;
use crate::deck::{ConfluenceDeck, RareMix};
use crate::sim::seed::splitmix64;

/// Parses `N` or `A..=B` (also `A..B`, exclusive) into an inclusive range of rare counts;
/// the error says what was expected.
pub fn parse_counts(s: &str, max: usize) -> Result<(usize, usize), String> {
    let bad = || format!("expected a count N or a sweep A..=B with 0 <= A <= B <= {max}");
    let num = |x: &str| x.trim().parse::<usize>().map_err(|_| bad());
    let (a, b) = if let Some((a, b)) = s.split_once("..=") {
        (num(a)?, num(b)?)
    } else if let Some((a, b)) = s.split_once("..") {
        (num(a)?, num(b)?.checked_sub(1).ok_or_else(bad)?)
    } else {
        let n = num(s)?;
        (n, n)
    };
    if a > b || b > max {
        return Err(bad());
    }
    Ok((a, b))
}

/// Splits a `--rare-set` value into rare names; a set that names no rare is an error.
pub fn set_names(s: &str) -> Result<Vec<String>, String> {
    let names: Vec<String> = s
        .split(',')
        .map(|x| x.trim().to_string())
        .filter(|x| !x.is_empty())
        .collect();
    if names.is_empty() {
        return Err(
            "names no rare (expected rare names separated by commas; for all commons use --rares 0)"
                .into(),
        );
    }
    Ok(names)
}

fn binomial(n: usize, k: usize) -> u64 {
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i + 1) as u64)
}

/// `per_count` distinct random subsets of `k` rares among `n` (all of them when there are
/// no more than that), drawn from the base seed so the same flags give the same mixes.
pub fn subsets(n: usize, k: usize, per_count: u32, seed: u64) -> Vec<RareMix> {
    if k == 0 {
        return vec![RareMix(0)];
    }
    if k == n {
        return vec![RareMix::all(n)];
    }
    let total = binomial(n, k);
    if total <= per_count as u64 {
        return (0u32..(1 << n))
            .filter(|m| m.count_ones() as usize == k)
            .map(|m| RareMix(m as u16))
            .collect();
    }
    let mut rng =
        rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(splitmix64(seed ^ 0x5ab5_e700 ^ k as u64));
    let mut out: Vec<RareMix> = Vec::new();
    let mut idx: Vec<usize> = (0..n).collect();
    while out.len() < per_count as usize {
        idx.shuffle(&mut rng);
        let m = idx[..k].iter().fold(0u16, |m, &i| m | (1 << i));
        if !out.contains(&RareMix(m)) {
            out.push(RareMix(m));
        }
    }
    out
}

/// The mixes the rare flags name, or when they name none the two ends, all commons and all
/// rares (the default of `compare` and `sensitivity`).
pub fn named_or_ends(
    deck: &ConfluenceDeck,
    db: &CardDb,
    rares: &[String],
    sets: &[String],
    per_count: u32,
    seed: u64,
) -> Result<Vec<RareMix>> {
    if rares.is_empty() && sets.is_empty() {
        Ok(vec![RareMix(0), RareMix::all(deck.rares.len())])
    } else {
        mixes(deck, db, rares, sets, per_count, seed)
    }
}

/// The mixes a run covers, in order: the sweep (or count) first, then explicit sets.
/// Errors are usage errors naming the flag (`--rares`, `--rare-set`, `--subsets`).
pub fn mixes(
    deck: &ConfluenceDeck,
    db: &CardDb,
    rares: &[String],
    sets: &[String],
    per_count: u32,
    seed: u64,
) -> Result<Vec<RareMix>> {
    let n = deck.rares.len();
    let mut counts = Vec::new();
    for r in rares {
        counts.push(parse_counts(r, n).map_err(|e| usage(format!("--rares {r}: {e}")))?);
    }
    if rares.is_empty() && sets.is_empty() {
        counts.push((0, n));
    }
    let mut named = Vec::new();
    for s in sets {
        named.push(set_names(s).map_err(|e| usage(format!("--rare-set '{s}': {e}")))?);
    }
    if per_count == 0 {
        return Err(usage("--subsets 0: expected at least 1"));
    }
    let mut out = counted(n, &counts, per_count, seed);
    for (s, names) in sets.iter().zip(&named) {
        let mix = deck
            .mix_from_names(names, db)
            .map_err(|e| usage(format!("--rare-set '{s}': {e}")))?;
        if !out.contains(&mix) {
            out.push(mix);
        }
    }
    Ok(out)
}

/// The mixes of these rare counts (`per_count` random subsets for each count strictly
/// between 0 and `n`), each once, in order.
pub fn counted(n: usize, counts: &[(usize, usize)], per_count: u32, seed: u64) -> Vec<RareMix> {
    let mut out = Vec::new();
    for &(a, b) in counts {
        for k in a..=b {
            for m in subsets(n, k, per_count, seed) {
                if !out.contains(&m) {
                    out.push(m);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_counts_and_sweeps() {
        assert_eq!(parse_counts("0", 15).unwrap(), (0, 0));
        assert_eq!(parse_counts("0..=15", 15).unwrap(), (0, 15));
        assert_eq!(parse_counts("2..5", 15).unwrap(), (2, 4));
        assert!(parse_counts("16", 15).is_err());
        assert!(parse_counts("5..=2", 15).is_err());
        assert!(parse_counts("x", 15).unwrap_err().contains("A..=B"));
        assert!(parse_counts("0..0", 15).is_err());
        assert!(set_names("").is_err());
        assert!(set_names(" , ,").is_err());
        assert_eq!(set_names("a, b,").unwrap(), vec!["a", "b"]);
    }

    #[test]
    fn subsets_are_distinct_sized_and_repeatable() {
        let a = subsets(15, 4, 5, 9);
        assert_eq!(a, subsets(15, 4, 5, 9));
        assert_eq!(a.len(), 5);
        for m in &a {
            assert_eq!(m.count(), 4);
        }
        let mut sorted = a.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 5);
        assert_eq!(
            subsets(15, 1, 20, 0).len(),
            15,
            "all 15 singletons when fewer than asked"
        );
        assert_eq!(subsets(15, 15, 3, 0), vec![RareMix::all(15)]);
    }
}
