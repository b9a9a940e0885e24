//! Wider vectors for the networks' forward passes, where the CPU has them.
//!
//! The hidden layers' inner loops (`ValueNet::logit`, `PolicyNet::scores`) run across
//! independent hidden units, so the compiler vectorizes them; built for the baseline x86-64
//! it uses 4 lanes. On a CPU with AVX2 the same code compiled for AVX2 uses 8. The results
//! are the same bits: each lane is still one unit's multiply then add, in the same order
//! (AVX2 without FMA: Rust never fuses a multiply and an add on its own), so a game plays
//! the same on any machine, as shards run on mixed nodes need.
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

/// Does this CPU have AVX2? (`std` caches the answer: a load per call.)
#[inline(always)]
pub fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The nonzero entries of `x` in order, as (index, value), into `out`; returns how many.
/// An input of 0 adds nothing to a unit's sum (see `ValueNet::logit`), so the layers below
/// walk only these.
#[inline(always)]
pub fn nonzero(x: &[f32], out: &mut [(u32, f32)]) -> usize {
    let mut n = 0;
    for (i, &v) in x.iter().enumerate() {
        if v != 0.0 {
            out[n] = (i as u32, v);
            n += 1;
        }
    }
    n
}

/// The sums of one block of `C` units over every input, kept in registers while the inputs
/// are added (`C` a multiple of 8: two to six AVX2 registers, independent chains of
/// additions).
#[inline(always)]
fn block<const C: usize>(
    init: &[f32],
    nz: &[(u32, f32)],
    wt: &[f32],
    stride: usize,
    c0: usize,
    out: &mut [f32],
) {
    let mut acc: [f32; C] = init[c0..c0 + C].try_into().expect("a block");
    for &(i, v) in nz {
        let row: &[f32; C] = wt[i as usize * stride + c0..][..C]
            .try_into()
            .expect("a block");
        for k in 0..C {
            acc[k] += row[k] * v;
        }
    }
    out[c0..c0 + C].copy_from_slice(&acc);
}

/// A hidden layer's sums before rectifying: `out[j] = init[j] + Σ v · wt[i · stride + j]`
/// over the inputs `nz` in their order, for every unit `j < out.len()` (`wt` laid out
/// input by input, `stride` weights per input). Unit by unit the additions come in the
/// same order as a plain loop over the inputs, so the bits are the same; the units go in
/// blocks whose sums stay in registers (a loop over a run-time number of units loaded and
/// stored each sum once per input, and one block of 16 was a chain of dependent additions
/// two registers wide).
#[inline(always)]
pub fn layer(init: &[f32], nz: &[(u32, f32)], wt: &[f32], stride: usize, out: &mut [f32]) {
    let n = out.len();
    let mut c0 = 0;
    if n.is_multiple_of(48) {
        while n - c0 >= 48 {
            block::<48>(init, nz, wt, stride, c0, out);
            c0 += 48;
        }
    }
    while n - c0 >= 32 {
        block::<32>(init, nz, wt, stride, c0, out);
        c0 += 32;
    }
    if n - c0 >= 16 {
        block::<16>(init, nz, wt, stride, c0, out);
        c0 += 16;
    }
    for j in c0..n {
        let mut a = init[j];
        for &(i, v) in nz {
            a += wt[i as usize * stride + j] * v;
        }
        out[j] = a;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocked layer gives the bits of the plain loop (bias, then the inputs in order,
    /// zeros skipped) for every width, including the ones that end in a partial block.
    #[test]
    fn the_blocked_layer_adds_in_the_plain_order() {
        let mut seed = 3u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let u = (seed >> 40) as f32 / (1u64 << 24) as f32;
            if u < 0.3 { 0.0 } else { 8.0 * u - 4.0 }
        };
        for h in [0, 1, 7, 16, 20, 32, 40, 48, 64, 96, 100, 130] {
            let n_in = 37;
            let x: Vec<f32> = (0..n_in).map(|_| next()).collect();
            let wt: Vec<f32> = (0..n_in * h).map(|_| next()).collect();
            let b: Vec<f32> = (0..h).map(|_| next()).collect();
            let mut nz = [(0u32, 0f32); 37];
            let m = nonzero(&x, &mut nz);
            let mut got = vec![0f32; h];
            layer(&b, &nz[..m], &wt, h, &mut got);
            for j in 0..h {
                let mut a = b[j];
                for (i, &v) in x.iter().enumerate() {
                    if v != 0.0 {
                        a += wt[i * h + j] * v;
                    }
                }
                assert_eq!(got[j].to_bits(), a.to_bits(), "unit {j} of {h}");
            }
        }
    }
}
