//! Training the policy network with candle (`confluence-sim train-policy`): softmax
//! cross-entropy over each decision's legal options against the teacher's choice, AdamW,
//! minibatches of decisions in an order drawn from the run's seed. The network starts as
//! the expert (weight 1 on its score, the hidden layer's output weights at 0), so training
//! moves away from the expert only where the teacher's choices say so. As for the value
//! model, the initial weights and the batches come from seeded streams and candle's CPU
//! kernels are deterministic for these operations: the same data and parameters give the
//! same weights bit for bit.
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

use candle_core::{D, Device, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::data::Decisions;
use super::{N_IN, OPT_EXPERT, OPT_IN, PolicyNet};

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FitParams {
    /// Hidden units (0: a linear model of the option's inputs).
    pub hidden: usize,
    pub epochs: u32,
    /// Decisions per minibatch.
    pub batch: usize,
    /// AdamW's learning rate, decayed linearly to a tenth over the epochs.
    pub lr: f64,
    /// AdamW's weight decay.
    pub decay: f64,
    pub seed: u64,
}

impl Default for FitParams {
    fn default() -> Self {
        FitParams {
            hidden: 48,
            epochs: 10,
            batch: 256,
            lr: 3e-3,
            decay: 1e-4,
            seed: 1,
        }
    }
}

/// Score given to the padding of a decision with fewer options than the batch's widest.
const PAD: f32 = -1e9;

/// The weights as candle variables.
struct Vars {
    wp: Var,
    wo: Var,
    b1: Var,
    w2: Var,
    wl: Var,
}

/// The scores of `rows` options (Rb × OPT_IN) whose decisions' positions are `pos`
/// (B × N_IN), option `r` belonging to decision `group[r]`: (Rb).
fn row_scores(
    pos: &Tensor,
    rows: &Tensor,
    group: &Tensor,
    w: [&Tensor; 5],
    hidden: usize,
) -> candle_core::Result<Tensor> {
    // The weights in the order of [`Vars`].
    let [wp, wo, b1, w2, wl] = w;
    let lin = rows.matmul(&wl.t()?)?;
    let s = if hidden == 0 {
        lin
    } else {
        let hp = pos.matmul(&wp.t()?)?.index_select(group, 0)?;
        let h = hp.add(&rows.matmul(&wo.t()?)?)?.broadcast_add(b1)?.relu()?;
        h.matmul(&w2.t()?)?.add(&lin)?
    };
    s.squeeze(D::Minus1)
}

/// A minibatch laid out for candle: the decisions, their options, each option's decision,
/// and a (B × K) index of each decision's options padded with the index `Rb` (one past
/// the last option, where the padding score goes).
struct Batch {
    dec: Tensor,
    rows: Tensor,
    group: Tensor,
    pad: Tensor,
    labels: Tensor,
    b: usize,
    k: usize,
}

fn batch(data: &Decisions, idx: &[u32], dev: &Device) -> candle_core::Result<Batch> {
    let mut rows = Vec::new();
    let mut group = Vec::new();
    let k = idx
        .iter()
        .map(|&d| (data.start[d as usize + 1] - data.start[d as usize]) as usize)
        .max()
        .unwrap_or(1);
    let mut spans = Vec::with_capacity(idx.len());
    for (g, &d) in idx.iter().enumerate() {
        let (a, b) = (data.start[d as usize], data.start[d as usize + 1]);
        spans.push((rows.len() as u32, b - a));
        rows.extend(a..b);
        group.extend(std::iter::repeat_n(g as u32, (b - a) as usize));
    }
    let rb = rows.len() as u32;
    let mut pad = vec![rb; idx.len() * k];
    for (g, &(at, n)) in spans.iter().enumerate() {
        for j in 0..n {
            pad[g * k + j as usize] = at + j;
        }
    }
    let labels: Vec<u32> = idx.iter().map(|&d| data.label[d as usize]).collect();
    Ok(Batch {
        dec: Tensor::from_slice(idx, idx.len(), dev)?,
        rows: Tensor::from_slice(&rows, rows.len(), dev)?,
        group: Tensor::from_slice(&group, group.len(), dev)?,
        pad: Tensor::from_slice(&pad, pad.len(), dev)?,
        labels: Tensor::from_slice(&labels, labels.len(), dev)?,
        b: idx.len(),
        k,
    })
}

fn uniform(rng: &mut rand_xoshiro::Xoshiro256PlusPlus, n: usize, a: f32) -> Vec<f32> {
    use rand::RngExt;
    (0..n).map(|_| rng.random_range(-a..a)).collect()
}

/// Trains a network on `data`, calling `progress(epoch, mean training cross-entropy)` after
/// each epoch.
pub fn fit(
    data: &Decisions,
    p: &FitParams,
    mut progress: impl FnMut(u32, f64),
) -> candle_core::Result<PolicyNet> {
    let dev = Device::Cpu;
    let h = p.hidden;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(p.seed);
    let a = (6.0 / (N_IN + OPT_IN + h) as f32).sqrt();
    let mut wl0 = vec![0f32; OPT_IN];
    wl0[OPT_EXPERT] = 1.0;
    let v = Vars {
        wp: Var::from_slice(&uniform(&mut rng, h * N_IN, a), (h, N_IN), &dev)?,
        wo: Var::from_slice(&uniform(&mut rng, h * OPT_IN, a), (h, OPT_IN), &dev)?,
        b1: Var::from_slice(&vec![0f32; h], (1, h), &dev)?,
        // At 0 the network starts as the expert.
        w2: Var::from_slice(&vec![0f32; h], (1, h), &dev)?,
        wl: Var::from_slice(&wl0, (1, OPT_IN), &dev)?,
    };
    let mut vars = vec![v.wl.clone()];
    if h > 0 {
        vars.extend([v.wp.clone(), v.wo.clone(), v.b1.clone(), v.w2.clone()]);
    }
    let mut opt = AdamW::new(
        vars,
        ParamsAdamW {
            lr: p.lr,
            weight_decay: p.decay,
            ..Default::default()
        },
    )?;
    let pos = Tensor::from_slice(&data.pos, (data.len(), N_IN), &dev)?;
    let opts = Tensor::from_slice(&data.opts, (data.rows(), OPT_IN), &dev)?;
    let pad = Tensor::from_slice(&[PAD], 1, &dev)?;
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    for epoch in 0..p.epochs {
        let frac = epoch as f64 / p.epochs.max(1) as f64;
        opt.set_learning_rate(p.lr * (1.0 - 0.9 * frac));
        order.shuffle(&mut rng);
        let (mut sum, mut count) = (0f64, 0usize);
        for idx in order.chunks(p.batch.max(1)) {
            let bt = batch(data, idx, &dev)?;
            let s = row_scores(
                &pos.index_select(&bt.dec, 0)?,
                &opts.index_select(&bt.rows, 0)?,
                &bt.group,
                [&v.wp, &v.wo, &v.b1, &v.w2, &v.wl],
                h,
            )?;
            let logits = Tensor::cat(&[&s, &pad], 0)?
                .index_select(&bt.pad, 0)?
                .reshape((bt.b, bt.k))?;
            let loss = candle_nn::loss::cross_entropy(&logits, &bt.labels)?;
            sum += loss.to_scalar::<f32>()? as f64 * bt.b as f64;
            count += bt.b;
            opt.backward_step(&loss)?;
        }
        progress(epoch + 1, sum / count.max(1) as f64);
    }
    let flat = |v: &Var| -> candle_core::Result<Vec<f32>> { v.flatten_all()?.to_vec1::<f32>() };
    Ok(PolicyNet::new(
        h,
        flat(&v.wp)?,
        flat(&v.wo)?,
        flat(&v.b1)?,
        flat(&v.w2)?,
        flat(&v.wl)?,
    ))
}

/// candle's forward pass of `net` on every option of `data` (its scores, row by row), for
/// checking the hand-written inference against the training crate.
pub fn candle_scores(net: &PolicyNet, data: &Decisions) -> candle_core::Result<Vec<f32>> {
    let dev = Device::Cpu;
    let h = net.hidden;
    let group: Vec<u32> = (0..data.len())
        .flat_map(|d| std::iter::repeat_n(d as u32, data.options(d).len()))
        .collect();
    let t = |w: &[f32], r: usize, c: usize| Tensor::from_slice(w, (r, c), &dev);
    row_scores(
        &t(&data.pos, data.len(), N_IN)?,
        &t(&data.opts, data.rows(), OPT_IN)?,
        &Tensor::from_slice(&group, group.len(), &dev)?,
        [
            &t(&net.wp, h, N_IN)?,
            &t(&net.wo, h, OPT_IN)?,
            &t(&net.b1, 1, h)?,
            &t(&net.w2, 1, h)?,
            &t(&net.wl, 1, OPT_IN)?,
        ],
        h,
    )?
    .to_vec1::<f32>()
}

/// How well `net` predicts the teacher on `data`, with our inference: the mean
/// cross-entropy (natural log) and the share of decisions where its best option is the
/// teacher's choice (the first on ties, as the player picks).
pub fn evaluate(net: &PolicyNet, data: &Decisions) -> (f64, f64) {
    let mut out = [0f32; 256];
    let (mut ce, mut agree) = (0f64, 0usize);
    for d in 0..data.len() {
        let o = data.options(d);
        let s = &mut out[..o.len()];
        net.scores(data.position(d), o, s);
        let m = s.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
        let lse = m + s.iter().map(|&x| (x as f64 - m).exp()).sum::<f64>().ln();
        let l = data.label[d] as usize;
        ce += lse - s[l] as f64;
        let best = s
            .iter()
            .enumerate()
            .fold(
                (0, f32::NEG_INFINITY),
                |b, (k, &x)| if x > b.1 { (k, x) } else { b },
            )
            .0;
        agree += (best == l) as usize;
    }
    let n = data.len().max(1) as f64;
    (ce / n, agree as f64 / n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// Decisions whose teacher picks the option with the largest input 3 where the
    /// position's input 5 is positive, and the largest expert score elsewhere: a rule the
    /// expert's score alone cannot follow.
    fn toy(n: usize, seed: u64) -> Decisions {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut d = Decisions::default();
        for _ in 0..n {
            let mut x = [0f32; N_IN];
            for v in x.iter_mut().take(8) {
                *v = rng.random_range(-1.0..1.0);
            }
            let k = rng.random_range(2..7usize);
            let mut opts = vec![[0f32; OPT_IN]; k];
            for o in opts.iter_mut() {
                o[3] = rng.random_range(-1.0..1.0);
                o[OPT_EXPERT] = rng.random_range(-1.0..1.0);
            }
            let key = if x[5] > 0.0 { 3 } else { OPT_EXPERT };
            let label = (0..k)
                .max_by(|&a, &b| opts[a][key].total_cmp(&opts[b][key]))
                .unwrap();
            d.push(&x, &opts, label);
        }
        d
    }

    #[test]
    fn training_is_reproducible_bit_for_bit() {
        let d = toy(600, 3);
        let p = FitParams {
            hidden: 8,
            epochs: 2,
            batch: 32,
            ..Default::default()
        };
        let a = fit(&d, &p, |_, _| {}).unwrap();
        let b = fit(&d, &p, |_, _| {}).unwrap();
        assert_eq!(a.to_toml(""), b.to_toml(""));
        let c = fit(&d, &FitParams { seed: 2, ..p }, |_, _| {}).unwrap();
        assert_ne!(a, c, "the seed must matter");
    }

    #[test]
    fn it_learns_what_the_expert_score_misses_and_our_inference_matches_candle() {
        let d = toy(3000, 5);
        let (ce0, agree0) = evaluate(&PolicyNet::expert_only(), &d);
        let p = FitParams {
            hidden: 16,
            epochs: 30,
            batch: 64,
            lr: 1e-2,
            ..Default::default()
        };
        let net = fit(&d, &p, |_, _| {}).unwrap();
        let (ce, agree) = evaluate(&net, &d);
        assert!(ce < ce0 - 0.2, "{ce} against the expert's {ce0}");
        assert!(
            agree > agree0 + 0.2,
            "{agree} against the expert's {agree0}"
        );
        let theirs = candle_scores(&net, &d).unwrap();
        let mut out = [0f32; 8];
        let mut r = 0;
        for k in 0..d.len() {
            let o = d.options(k);
            net.scores(d.position(k), o, &mut out[..o.len()]);
            for s in &out[..o.len()] {
                assert!(
                    (s - theirs[r]).abs() < 1e-4,
                    "row {r}: {s} against {}",
                    theirs[r]
                );
                r += 1;
            }
        }
        assert_eq!(r, theirs.len());
    }

    #[test]
    fn the_expert_only_network_is_the_expert_score() {
        let d = toy(50, 7);
        let net = PolicyNet::expert_only();
        for k in 0..d.len() {
            let o = d.options(k);
            let mut out = [0f32; 8];
            net.scores(d.position(k), o, &mut out[..o.len()]);
            for (s, i) in out.iter().zip(o) {
                assert_eq!(*s, i[OPT_EXPERT]);
            }
        }
    }
}
