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
