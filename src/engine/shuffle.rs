//! Shuffling a short list exactly as `rand`'s `SliceRandom::shuffle` does (the same draws
//! from the stream, the same swaps, so every game stays bit-identical), without its cost of
//! working out each chunk's bound again: the bounds of the lists the engine shuffles (decks,
//! discard piles, hidden cards, at most 255 ids) come from a table built at compile time.
//!
//! `rand` 0.10 shuffles a slice of `len` elements by Fisher-Yates from the front: for `i` in
//! `0..len` it swaps element `i` with a uniform index in `0..=i`, drawing the indices in
//! chunks: one `random_range(..bound)` gives several, `bound` being the product
//! `(i + 1)(i + 2)...` up to the largest that fits a `u32`. `same_as_rand` below checks the
//! two against each other.
//!
//! Layer: part of [`crate::engine`]; may use `cards` and nothing else of the crate.

use rand::RngExt;

use super::GameRng;

/// `(m)(m + 1)...(m + count - 1)`, the largest such product that fits a `u32`, and `count`
/// (`rand`'s `calculate_bound_u32`).
const fn bound(m: u32) -> (u32, u8) {
    let mut product = m;
    let mut current = m + 1;
    loop {
        match product.checked_mul(current) {
            Some(p) => {
                product = p;
                current += 1;
            }
            None => return (product, (current - m) as u8),
        }
    }
}

/// Entries 1 to 256 of [`bound`] (0 is never asked).
const BOUNDS: [(u32, u8); 257] = {
    let mut t = [(0u32, 0u8); 257];
    let mut m = 1;
    while m < t.len() {
        t[m] = bound(m as u32);
        m += 1;
    }
    t
};

/// Shuffles `v` as `v.shuffle(rng)` would (`rand::seq::SliceRandom`).
#[inline]
pub fn shuffle<T>(v: &mut [T], rng: &mut GameRng) {
    let len = v.len();
    if len <= 1 {
        return;
    }
    // The first index is in 0..=0: no draw.
    let mut chunk = 0u32;
    let mut left = 0u8;
    for i in 1..len {
        let next = i as u32 + 1;
        if left == 0 {
            let (b, count) = match BOUNDS.get(next as usize) {
                Some(&e) => e,
                None => bound(next),
            };
            chunk = rng.random_range(..b);
            left = count;
        }
        left -= 1;
        let k = if left == 0 {
            chunk
        } else {
            let r = chunk % next;
            chunk /= next;
            r
        };
        v.swap(i, k as usize);
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;

    use super::*;

    #[test]
    fn same_as_rand() {
        for len in (0..=70).chain([100, 128, 255, 256, 300]) {
            for seed in 0..40u64 {
                let mut a: Vec<u16> = (0..len as u16).collect();
                let mut b = a.clone();
                let mut ra = GameRng::seed_from_u64(seed);
                let mut rb = GameRng::seed_from_u64(seed);
                a.shuffle(&mut ra);
                shuffle(&mut b, &mut rb);
                assert_eq!(a, b, "len {len} seed {seed}");
                // The streams are left in the same place too.
                assert_eq!(ra, rb, "len {len} seed {seed}");
            }
        }
    }

    #[test]
    fn bounds_match_the_products() {
        // 2 * 3 * ... * 12 fits a u32, times 13 does not.
        assert_eq!(bound(2), (479_001_600, 11));
        assert_eq!(BOUNDS[40], (40 * 41 * 42 * 43 * 44, 5));
        assert_eq!(BOUNDS[256], (256 * 257 * 258, 3));
    }
}
