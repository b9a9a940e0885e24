//! The policy network (`expert:net=1`): a score for each legal option of a card-into-Mana
//! or Afternoon-turn decision from the whole visible position (the value model's encoding,
//! [`mod@crate::policy::value::encode`]) together with the option's own inputs (the expert's
//! features of its family and the expert's own linear score, [`OPT_IN`]). One hidden layer
//! of rectified units over both, plus a linear term on the option's inputs:
//!
//! score(option) = w2 · relu(b1 + Wp · position + Wo · option) + wl · option
//!
//! The position's part of the hidden layer (`b1 + Wp · position`) is the same for every
//! option, so it is computed once per decision and each option costs only its own part.
//! The weights are data (`decks/policies/pnet.toml`, embedded in the binary), distilled
//! from the search's choices by `confluence-sim train-policy` ([`fit`], with candle); a
//! file with no hidden units is a linear model of the option's inputs (the one with weight 1
//! on the expert's score alone plays as the expert).
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

pub mod data;
pub mod fit;

use super::features::{MANA_F, MANA_NAMES, TURN_F, TURN_NAMES};
use super::value::{N_IN, encode};

/// The weights file, as committed.
pub const PNET_TOML: &str = include_str!("../../../decks/policies/pnet.toml");

/// Inputs per option: a flag for the card-into-Mana family, its features, the turn
/// family's features (the other family's are zero), and the expert's linear score.
pub const OPT_IN: usize = 1 + MANA_F + TURN_F + 1;
/// Where the Mana features start in an option's inputs.
pub const OPT_MANA: usize = 1;
/// Where the turn features start.
pub const OPT_TURN: usize = 1 + MANA_F;
/// The expert's linear score (general weights and card preference).
pub const OPT_EXPERT: usize = OPT_IN - 1;

/// Most hidden units a weights file may have (the forward pass keeps them on the stack).
pub const MAX_HIDDEN: usize = 256;

/// Names of an option's inputs, in order (the weights file lists them).
pub fn option_names() -> Vec<String> {
    let mut n = vec!["mana_family".to_string()];
    n.extend(MANA_NAMES.iter().map(|s| format!("mana_{s}")));
    n.extend(TURN_NAMES.iter().map(|s| format!("turn_{s}")));
    n.push("expert_score".into());
    n
}

/// The network's weights; build it with [`PolicyNet::new`], which lays the hidden layer out
/// input by input for inference.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyNet {
    pub hidden: usize,
    /// `hidden` rows of `N_IN` weights on the position.
    pub wp: Vec<f32>,
    /// `hidden` rows of `OPT_IN` weights on the option.
    pub wo: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    /// The linear term on the option's inputs.
    pub wl: Vec<f32>,
    /// `wp` and `wo` transposed (input by input), for the vectorized forward pass.
    wpt: Vec<f32>,
    wot: Vec<f32>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NetFile {
    position_inputs: Vec<String>,
    option_inputs: Vec<String>,
    hidden: usize,
    wl: Vec<f32>,
    #[serde(default)]
    b1: Vec<f32>,
    #[serde(default)]
    w2: Vec<f32>,
    #[serde(default)]
    wp: Vec<Vec<f32>>,
    #[serde(default)]
    wo: Vec<Vec<f32>>,
}

fn transpose(w: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut t = vec![0f32; w.len()];
    for j in 0..rows {
        for i in 0..cols {
            t[i * rows + j] = w[j * cols + i];
        }
    }
    t
}

/// `sum f(a[i]) * w[i]` in eight lanes (input i in lane i mod 8), the lanes added in a
/// fixed tree: the same bits for the same inputs, on any CPU.
#[inline(always)]
fn lanes(a: &[f32], w: &[f32], f: impl Fn(f32) -> f32) -> f32 {
    const L: usize = 8;
    let mut acc = [0f32; L];
    let (mut ac, mut wc) = (a.chunks_exact(L), w.chunks_exact(L));
    for (a, w) in (&mut ac).zip(&mut wc) {
        for k in 0..L {
            acc[k] += f(a[k]) * w[k];
        }
    }
    for (k, (a, w)) in ac.remainder().iter().zip(wc.remainder()).enumerate() {
        acc[k] += f(*a) * w;
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]))
}

impl PolicyNet {
    pub fn new(
        hidden: usize,
        wp: Vec<f32>,
        wo: Vec<f32>,
        b1: Vec<f32>,
        w2: Vec<f32>,
        wl: Vec<f32>,
    ) -> PolicyNet {
        PolicyNet {
            wpt: transpose(&wp, hidden, N_IN),
            wot: transpose(&wo, hidden, OPT_IN),
            hidden,
            wp,
            wo,
            b1,
            w2,
            wl,
        }
    }

    /// The network that plays exactly as the expert: no hidden units, weight 1 on the
    /// expert's score.
    pub fn expert_only() -> PolicyNet {
        let mut wl = vec![0f32; OPT_IN];
        wl[OPT_EXPERT] = 1.0;
        PolicyNet::new(0, vec![], vec![], vec![], vec![], wl)
    }

    /// The score of each option (`opts[k]`, its inputs) into `out[k]`, from the position
    /// `x`. Allocation-free; the sums run in a fixed order, so the same inputs give the
    /// same bits on every run (and on every machine: see [`crate::policy::simd`]).
    pub fn scores(&self, x: &[f32; N_IN], opts: &[[f32; OPT_IN]], out: &mut [f32]) {
        #[cfg(target_arch = "x86_64")]
        if crate::policy::simd::avx2() {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.scores_avx2(x, opts, out) };
        }
        self.scores_body(x, opts, out)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn scores_avx2(&self, x: &[f32; N_IN], opts: &[[f32; OPT_IN]], out: &mut [f32]) {
        self.scores_body(x, opts, out)
    }

    #[inline(always)]
    fn scores_body(&self, x: &[f32; N_IN], opts: &[[f32; OPT_IN]], out: &mut [f32]) {
        use crate::policy::simd::{layer, nonzero};
        let h = self.hidden;
        // The position's part of the hidden layer, once for all options.
        let mut nz = [(0u32, 0f32); N_IN];
        let n = nonzero(x, &mut nz);
        let mut hp = [0f32; MAX_HIDDEN];
        let hp = &mut hp[..h];
        layer(&self.b1, &nz[..n], &self.wpt, h, hp);
        let mut ho = [0f32; MAX_HIDDEN];
        let mut nzo = [(0u32, 0f32); OPT_IN];
        for (o, s) in opts.iter().zip(out.iter_mut()) {
            let ho = &mut ho[..h];
            let m = nonzero(o, &mut nzo);
            layer(hp, &nzo[..m], &self.wot, h, ho);
            // The two dot products in lanes (a sum of one after the other was a chain of
            // dependent additions, most of the time here); a fixed order all the same.
            *s = lanes(o, &self.wl, |v| v) + lanes(ho, &self.w2, |a| if a > 0.0 { a } else { 0.0 });
        }
    }

    /// The same, encoding the position from a view.
    pub fn scores_of(
        &self,
        view: &crate::engine::view::View<'_>,
        opts: &[[f32; OPT_IN]],
        out: &mut [f32],
    ) {
        let mut x = [0f32; N_IN];
        encode(view, &mut x);
        self.scores(&x, opts, out);
    }

    pub fn parse(text: &str) -> Result<PolicyNet, String> {
        let f: NetFile = toml::from_str(text).map_err(|e| e.to_string())?;
        for (what, got, want) in [
            (
                "position_inputs",
                &f.position_inputs,
                super::value::encode::names(),
            ),
            ("option_inputs", &f.option_inputs, option_names()),
        ] {
            if *got != want {
                let at = got
                    .iter()
                    .zip(&want)
                    .position(|(a, b)| a != b)
                    .unwrap_or(got.len().min(want.len()));
                return Err(format!(
                    "{what} differ from this build's at input {} ('{}', expected '{}'): the \
                     file was trained for another encoding (train it again with train-policy)",
                    at + 1,
                    got.get(at).map_or("none", |s| s),
                    want.get(at).map_or("none", |s| s)
                ));
            }
        }
        if f.hidden > MAX_HIDDEN {
            return Err(format!(
                "hidden = {} is out of range (0 to {MAX_HIDDEN})",
                f.hidden
            ));
        }
        if f.wl.len() != OPT_IN {
            return Err(format!("wl has {} weights, expected {OPT_IN}", f.wl.len()));
        }
        let h = f.hidden;
        if f.b1.len() != h || f.w2.len() != h || f.wp.len() != h || f.wo.len() != h {
            return Err(format!(
                "b1, w2, wp and wo must have {h} entries (hidden), found {}, {}, {} and {}",
                f.b1.len(),
                f.w2.len(),
                f.wp.len(),
                f.wo.len()
            ));
        }
        for (what, rows, n) in [("wp", &f.wp, N_IN), ("wo", &f.wo, OPT_IN)] {
            if let Some((j, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != n) {
                return Err(format!(
                    "{what} row {} has {} weights, expected {n}",
                    j + 1,
                    r.len()
                ));
            }
        }
        let net = PolicyNet::new(h, f.wp.concat(), f.wo.concat(), f.b1, f.w2, f.wl);
        let all = net
            .wp
            .iter()
            .chain(&net.wo)
            .chain(&net.b1)
            .chain(&net.w2)
            .chain(&net.wl);
        if !all.copied().all(f32::is_finite) {
            return Err("a weight is not a finite number".into());
        }
        Ok(net)
    }

    /// The committed weights.
    pub fn embedded() -> PolicyNet {
        Self::parse(PNET_TOML).expect("decks/policies/pnet.toml is checked by a unit test")
    }

    /// The file `train-policy` writes: a header of comments, then the weights (each `f32`
    /// in its shortest exact form, so the file reads back to the same bits).
    pub fn to_toml(&self, header: &str) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        for l in header.lines() {
            let _ = writeln!(s, "# {l}");
        }
        let list = super::value::f32_list;
        let names = |v: Vec<String>| {
            v.iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            s,
            "\nposition_inputs = [{}]",
            names(super::value::encode::names())
        );
        let _ = writeln!(s, "option_inputs = [{}]", names(option_names()));
        let _ = writeln!(s, "hidden = {}", self.hidden);
        let _ = writeln!(s, "wl = [{}]", list(&self.wl));
        if self.hidden > 0 {
            let _ = writeln!(s, "b1 = [{}]", list(&self.b1));
            let _ = writeln!(s, "w2 = [{}]", list(&self.w2));
            for (what, w, n) in [("wp", &self.wp, N_IN), ("wo", &self.wo, OPT_IN)] {
                let _ = writeln!(s, "{what} = [");
                for row in w.chunks_exact(n) {
                    let _ = writeln!(s, "  [{}],", list(row));
                }
                let _ = writeln!(s, "]");
            }
        }
        s
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Inputs in [-2, 2), a third of them 0 (as the encodings are sparse).
    pub(crate) fn inputs<const N: usize>(seed: &mut u64) -> [f32; N] {
        std::array::from_fn(|_| {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let u = (*seed >> 40) as f32 / (1u64 << 24) as f32;
            if u < 1.0 / 3.0 { 0.0 } else { 4.0 * u - 2.0 }
        })
    }

    /// The AVX2 build of the forward pass (where this CPU has it) gives the same bits as
    /// the baseline one: a game plays the same on every machine.
    #[test]
    fn the_wide_forward_pass_gives_the_same_bits() {
        let n = PolicyNet::embedded();
        let mut seed = 7;
        for _ in 0..200 {
            let x = inputs::<N_IN>(&mut seed);
            let opts: Vec<[f32; OPT_IN]> = (0..7).map(|_| inputs(&mut seed)).collect();
            let (mut a, mut b) = ([0f32; 7], [0f32; 7]);
            n.scores(&x, &opts, &mut a);
            n.scores_body(&x, &opts, &mut b);
            assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits));
        }
    }

    #[test]
    fn the_committed_weights_parse_and_round_trip() {
        let n = PolicyNet::embedded();
        assert_eq!(PolicyNet::parse(&n.to_toml("header")).unwrap(), n);
        let e = PolicyNet::expert_only();
        assert_eq!(PolicyNet::parse(&e.to_toml("header")).unwrap(), e);
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let n = PolicyNet::embedded();
        let text = n.to_toml("h").replacen("\"expert_score\"", "\"score\"", 1);
        let e = PolicyNet::parse(&text).unwrap_err();
        assert!(e.contains("option_inputs differ"), "{e}");
        let mut short = n.clone();
        short.wl.pop();
        let e = PolicyNet::parse(&short.to_toml("h")).unwrap_err();
        assert!(e.contains("wl has"), "{e}");
    }

    #[test]
    fn the_hidden_layer_is_rectified_and_shared_by_position_and_option() {
        // One unit: position input 0 plus option input 0, rectified, times 2; plus the
        // linear term 0.5 on the expert's score.
        let mut wp = vec![0f32; N_IN];
        wp[0] = 1.0;
        let mut wo = vec![0f32; OPT_IN];
        wo[0] = 1.0;
        let mut wl = vec![0f32; OPT_IN];
        wl[OPT_EXPERT] = 0.5;
        let net = PolicyNet::new(1, wp, wo, vec![0.0], vec![2.0], wl);
        let mut x = [0f32; N_IN];
        x[0] = 3.0;
        let mut a = [0f32; OPT_IN];
        a[0] = -1.0;
        a[OPT_EXPERT] = 4.0;
        let mut b = [0f32; OPT_IN];
        b[0] = -5.0;
        let mut out = [0f32; 2];
        net.scores(&x, &[a, b], &mut out);
        assert_eq!(out, [2.0 * 2.0 + 2.0, 0.0]);
    }
}
