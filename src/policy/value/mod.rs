//! The value model: the probability that the player wins from a position, computed from
//! the player's view only ([`mod@encode`]), by a small network with one hidden layer of
//! rectified units (TD-Gammon's shape), or by a logistic model on the same inputs (no
//! hidden layer) as the baseline.
//!
//! The weights are data (`decks/policies/value.toml`, embedded in the binary), produced by
//! `confluence-sim train-value` ([`fit`], with candle). Inference runs here on the
//! exported weights, allocation-free and in a fixed loop order, so that it costs a few
//! microseconds and gives the same bits on every run; a test checks it against candle's
//! forward pass.
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

pub mod afterstate;
pub mod encode;
pub mod fit;

pub use encode::{N_IN, encode};

use crate::engine::view::View;

/// The weights file, as committed.
pub const VALUE_TOML: &str = include_str!("../../../decks/policies/value.toml");

/// The network's value model as committed: the same kind of model, trained on the games of
/// the search that the policy network plays (`search:net=N` with N & 4 reads it), so that
/// it values the network's continuation rather than the expert's.
pub const NET_VALUE_TOML: &str = include_str!("../../../decks/policies/net_value.toml");

/// Most hidden units a weights file may have.
pub const MAX_HIDDEN: usize = 1024;

/// A network's weights. `hidden == 0`: a logistic model, `w2` has `N_IN` weights on the
/// inputs. Otherwise `w1` holds `hidden` rows of `N_IN` weights, `w2` one weight per unit.
/// Build it with [`ValueNet::new`], which also lays `w1` out input by input for inference
/// (so change weights by building a new network, not by editing `w1` in place).
#[derive(Clone, Debug, PartialEq)]
pub struct ValueNet {
    pub hidden: usize,
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: f32,
    /// `w1` transposed: `N_IN` rows of `hidden` weights (see [`ValueNet::logit`]).
    w1t: Vec<f32>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NetFile {
    inputs: Vec<String>,
    hidden: usize,
    b2: f32,
    w2: Vec<f32>,
    #[serde(default)]
    b1: Vec<f32>,
    #[serde(default)]
    w1: Vec<Vec<f32>>,
}

impl ValueNet {
    /// The logit of the win probability.
    #[inline]
    pub fn logit(&self, x: &[f32; N_IN]) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if crate::policy::simd::avx2() {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.logit_avx2(x) };
        }
        self.logit_body(x)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn logit_avx2(&self, x: &[f32; N_IN]) -> f32 {
        self.logit_body(x)
    }

    #[inline(always)]
    fn logit_body(&self, x: &[f32; N_IN]) -> f32 {
        let mut z = self.b2;
        if self.hidden == 0 {
            for (w, v) in self.w2.iter().zip(x) {
                z += w * v;
            }
            return z;
        }
        // Unit by unit this is the row-major dot product (the bias, then inputs 0 to N_IN - 1
        // in order, so the same bits as candle's layout read row by row), but with the
        // inputs outermost the inner loop runs across independent units and vectorizes: the
        // search spent 40% of its time here. An input of 0 adds a signed zero, which can
        // change a sum only from 0 to -0 or back, and a unit counts only when above 0:
        // skipping it changes nothing.
        let mut nz = [(0u32, 0f32); N_IN];
        let m = crate::policy::simd::nonzero(x, &mut nz);
        const CHUNK: usize = 64;
        let mut h = [0f32; CHUNK];
        for c0 in (0..self.hidden).step_by(CHUNK) {
            let n = CHUNK.min(self.hidden - c0);
            let h = &mut h[..n];
            let b1 = &self.b1[c0..c0 + n];
            crate::policy::simd::layer(b1, &nz[..m], &self.w1t[c0..], self.hidden, h);
            for (a, w) in h.iter().zip(&self.w2[c0..c0 + n]) {
                if *a > 0.0 {
                    z += w * a;
                }
            }
        }
        z
    }

    /// A network from its weights (`w1` row by row, one row of `N_IN` per hidden unit).
    pub fn new(hidden: usize, w1: Vec<f32>, b1: Vec<f32>, w2: Vec<f32>, b2: f32) -> ValueNet {
        let mut w1t = vec![0f32; w1.len()];
        for (j, row) in w1.chunks_exact(N_IN).enumerate() {
            for (i, &w) in row.iter().enumerate() {
                w1t[i * hidden + j] = w;
            }
        }
        ValueNet {
            hidden,
            w1,
            b1,
            w2,
            b2,
            w1t,
        }
    }

    /// The win probability.
    #[inline]
    pub fn prob(&self, x: &[f32; N_IN]) -> f32 {
        sigmoid(self.logit(x))
    }

    /// The win probability of the position `view` shows.
    pub fn value(&self, view: &View<'_>) -> f32 {
        let mut x = [0f32; N_IN];
        encode(view, &mut x);
        self.prob(&x)
    }

    pub fn parse(text: &str) -> Result<ValueNet, String> {
        let f: NetFile = toml::from_str(text).map_err(|e| e.to_string())?;
        let names = encode::names();
        if f.inputs != names {
            let at = f
                .inputs
                .iter()
                .zip(&names)
                .position(|(a, b)| a != b)
                .unwrap_or(f.inputs.len().min(names.len()));
            return Err(format!(
                "the inputs differ from this build's at input {} ('{}', expected '{}'): the \
                 file was trained for another encoding (train it again with train-value)",
                at + 1,
                f.inputs.get(at).map_or("none", |s| s),
                names.get(at).map_or("none", |s| s)
            ));
        }
        if f.hidden > MAX_HIDDEN {
            return Err(format!(
                "hidden = {} is out of range (0 to {MAX_HIDDEN})",
                f.hidden
            ));
        }
        let want_w2 = if f.hidden == 0 { N_IN } else { f.hidden };
        if f.w2.len() != want_w2 {
            return Err(format!("w2 has {} weights, expected {want_w2}", f.w2.len()));
        }
        if f.b1.len() != f.hidden || f.w1.len() != f.hidden {
            return Err(format!(
                "b1 and w1 must have {} entries (hidden), found {} and {}",
                f.hidden,
                f.b1.len(),
                f.w1.len()
            ));
        }
        if let Some((j, r)) = f.w1.iter().enumerate().find(|(_, r)| r.len() != N_IN) {
            return Err(format!(
                "w1 row {} has {} weights, expected {N_IN}",
                j + 1,
                r.len()
            ));
        }
        let net = ValueNet::new(f.hidden, f.w1.concat(), f.b1, f.w2, f.b2);
        if !net.all().all(f32::is_finite) {
            return Err("a weight is not a finite number".into());
        }
        Ok(net)
    }

    fn all(&self) -> impl Iterator<Item = f32> + '_ {
        self.w1
            .iter()
            .chain(&self.b1)
            .chain(&self.w2)
            .copied()
            .chain(std::iter::once(self.b2))
    }

    /// The committed weights.
    pub fn embedded() -> ValueNet {
        Self::parse(VALUE_TOML).expect("decks/policies/value.toml is checked by a unit test")
    }

    /// The committed value model of the network's games.
    pub fn embedded_net() -> ValueNet {
        Self::parse(NET_VALUE_TOML)
            .expect("decks/policies/net_value.toml is checked by a unit test")
    }

    /// The file `train-value` writes: a header of comments, then the weights (each `f32`
    /// printed in its shortest exact form, so the file reads back to the same bits).
    pub fn to_toml(&self, header: &str) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        for l in header.lines() {
            let _ = writeln!(s, "# {l}");
        }
        let list = f32_list;
        let names: Vec<String> = encode::names().iter().map(|n| format!("\"{n}\"")).collect();
        let _ = writeln!(s, "\ninputs = [{}]", names.join(", "));
        let _ = writeln!(s, "hidden = {}", self.hidden);
        let _ = writeln!(s, "b2 = {:?}", self.b2);
        let _ = writeln!(s, "w2 = [{}]", list(&self.w2));
        if self.hidden > 0 {
            let _ = writeln!(s, "b1 = [{}]", list(&self.b1));
            let _ = writeln!(s, "w1 = [");
            for row in self.w1.chunks_exact(N_IN) {
                let _ = writeln!(s, "  [{}],", list(row));
            }
            let _ = writeln!(s, "]");
        }
        s
    }
}

/// The value of a finished game: a win 1, a day-cap draw ½, a loss 0 (the labels the
/// model is trained on).
pub fn outcome_value(o: Option<crate::engine::Outcome>) -> f32 {
    match o {
        Some(o) if o.is_win() => 1.0,
        Some(crate::engine::Outcome::DayCap) => 0.5,
        _ => 0.0,
    }
}

/// Weights as a TOML list, each `f32` in its shortest exact form (`{:?}`), so a weight file
/// reads back to the same bits; `train-value` and `train-policy` write their files with it.
pub fn f32_list(v: &[f32]) -> String {
    v.iter()
        .map(|x| format!("{x:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[inline]
pub fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The AVX2 build of the forward pass (where this CPU has it) gives the same bits as
    /// the baseline one (see `crate::policy::simd`).
    #[test]
    fn the_wide_forward_pass_gives_the_same_bits() {
        let n = ValueNet::embedded();
        let mut seed = 11;
        for _ in 0..500 {
            let x = crate::policy::pnet::tests::inputs::<N_IN>(&mut seed);
            assert_eq!(n.logit(&x).to_bits(), n.logit_body(&x).to_bits());
        }
    }

    #[test]
    fn the_committed_weights_parse_and_round_trip() {
        for n in [ValueNet::embedded(), ValueNet::embedded_net()] {
            assert_eq!(ValueNet::parse(&n.to_toml("header")).unwrap(), n);
        }
        // The wide forward pass holds for the network's model too (another hidden size).
        let n = ValueNet::embedded_net();
        let mut seed = 12;
        for _ in 0..200 {
            let x = crate::policy::pnet::tests::inputs::<N_IN>(&mut seed);
            assert_eq!(n.logit(&x).to_bits(), n.logit_body(&x).to_bits());
        }
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let n = ValueNet::embedded();
        let text = n.to_toml("h").replacen("bias_one", "bias_two", 1);
        let e = ValueNet::parse(&text).unwrap_err();
        assert!(
            e.contains("input 1 ('bias_two', expected 'bias_one')"),
            "{e}"
        );
        let mut short = n.clone();
        short.w2.pop();
        let e = ValueNet::parse(&short.to_toml("h")).unwrap_err();
        assert!(e.contains("w2 has"), "{e}");
    }

    /// The row-major forward pass, as candle computes it unit by unit.
    fn row_major(net: &ValueNet, x: &[f32; N_IN]) -> f32 {
        let mut z = net.b2;
        for (j, row) in net.w1.chunks_exact(N_IN).enumerate() {
            let mut h = net.b1[j];
            for (w, v) in row.iter().zip(x) {
                h += w * v;
            }
            if h > 0.0 {
                z += net.w2[j] * h;
            }
        }
        z
    }

    #[test]
    fn the_vectorized_forward_pass_gives_the_row_major_bits() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        // 64 units (one chunk, the committed shape) and 100 (a chunk and a remainder).
        for hidden in [64, 100] {
            let mut r = |n: usize| (0..n).map(|_| rng.random_range(-1.0f32..1.0)).collect();
            let net = ValueNet::new(hidden, r(hidden * N_IN), r(hidden), r(hidden), 0.3);
            for k in 0..200 {
                let mut x = [0f32; N_IN];
                for (i, v) in x.iter_mut().enumerate() {
                    // Sparse like real positions: most inputs 0, some negative zeros.
                    *v = match (i + k) % 4 {
                        0 => rng.random_range(-3.0f32..3.0),
                        1 => -0.0,
                        _ => 0.0,
                    };
                }
                assert_eq!(
                    net.logit(&x).to_bits(),
                    row_major(&net, &x).to_bits(),
                    "hidden {hidden}, position {k}"
                );
            }
        }
        // The committed model on real positions is covered by the candle test and by the
        // outputs of every search staying byte-identical.
    }

    #[test]
    fn the_hidden_layer_is_rectified() {
        // One unit that fires on the first input only when it is positive.
        let mut w1 = vec![0f32; N_IN];
        w1[0] = 1.0;
        let net = ValueNet::new(1, w1, vec![0.0], vec![2.0], -1.0);
        let mut x = [0f32; N_IN];
        x[0] = 3.0;
        assert_eq!(net.logit(&x), 5.0);
        x[0] = -3.0;
        assert_eq!(net.logit(&x), -1.0);
    }
}
