//! Training the value model with candle (`confluence-sim train-value`): binary
//! cross-entropy on positions labelled by the game's outcome, AdamW, minibatches in an
//! order drawn from the run's seed. Everything that could vary between runs is fixed: the
//! initial weights come from our own seeded stream, the batches from a seeded shuffle, and
//! candle's CPU kernels are deterministic for these operations, so the same data and
//! parameters give the same weights bit for bit.
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

use candle_core::{D, DType, Device, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::{N_IN, ValueNet};

/// Positions and their labels: `x` holds `N_IN` inputs per position, `y` the outcome
/// (1 a win, 0 a loss, ½ a day-cap draw).
#[derive(Clone, Debug, Default)]
pub struct Positions {
    pub x: Vec<f32>,
    pub y: Vec<f32>,
}

impl Positions {
    pub fn len(&self) -> usize {
        self.y.len()
    }
    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }
    pub fn push(&mut self, x: &[f32; N_IN], y: f32) {
        self.x.extend_from_slice(x);
        self.y.push(y);
    }
    pub fn extend(&mut self, o: Positions) {
        self.x.extend(o.x);
        self.y.extend(o.y);
    }
    pub fn row(&self, i: usize) -> &[f32; N_IN] {
        self.x[i * N_IN..(i + 1) * N_IN]
            .try_into()
            .expect("rows have N_IN inputs")
    }
}

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FitParams {
    /// Hidden units (0: a logistic model).
    pub hidden: usize,
    pub epochs: u32,
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
            hidden: 64,
            epochs: 8,
            batch: 512,
            lr: 3e-3,
            decay: 1e-4,
            seed: 1,
        }
    }
}

fn uniform(rng: &mut rand_xoshiro::Xoshiro256PlusPlus, n: usize, a: f32) -> Vec<f32> {
    use rand::RngExt;
    (0..n).map(|_| rng.random_range(-a..a)).collect()
}

/// The candle graph of a network: logits of a batch `x` (n × N_IN) → (n × 1).
fn logits(
    x: &Tensor,
    w1: &Tensor,
    b1: &Tensor,
    w2: &Tensor,
    b2: &Tensor,
    hidden: usize,
) -> candle_core::Result<Tensor> {
    let h = if hidden == 0 {
        x.clone()
    } else {
        x.matmul(&w1.t()?)?.broadcast_add(b1)?.relu()?
    };
    h.matmul(&w2.t()?)?.broadcast_add(b2)
}

/// Trains a network on `data`, calling `progress(epoch, mean training loss)` after each
/// epoch.
pub fn fit(
    data: &Positions,
    p: &FitParams,
    mut progress: impl FnMut(u32, f64),
) -> candle_core::Result<ValueNet> {
    let dev = Device::Cpu;
    let n = data.len();
    let h = p.hidden;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(p.seed);
    let inner = if h == 0 { N_IN } else { h };
    let mean_y =
        (data.y.iter().map(|&y| y as f64).sum::<f64>() / n.max(1) as f64).clamp(0.01, 0.99);
    // Glorot-uniform weights, zero hidden biases, the output bias at the base rate.
    let w1 = Var::from_slice(
        &uniform(&mut rng, h * N_IN, (6.0 / (N_IN + h) as f32).sqrt()),
        (h, N_IN),
        &dev,
    )?;
    let b1 = Var::from_slice(&vec![0f32; h], (1, h), &dev)?;
    let w2 = Var::from_slice(
        &uniform(&mut rng, inner, (6.0 / (inner + 1) as f32).sqrt()),
        (1, inner),
        &dev,
    )?;
    let b2 = Var::from_slice(&[(mean_y / (1.0 - mean_y)).ln() as f32], (1, 1), &dev)?;
    let mut vars = vec![w2.clone(), b2.clone()];
    if h > 0 {
        vars.push(w1.clone());
        vars.push(b1.clone());
    }
    let mut opt = AdamW::new(
        vars,
        ParamsAdamW {
            lr: p.lr,
            weight_decay: p.decay,
            ..Default::default()
        },
    )?;
    let xs = Tensor::from_slice(&data.x, (n, N_IN), &dev)?;
    let ys = Tensor::from_slice(&data.y, (n, 1), &dev)?;
    let mut order: Vec<u32> = (0..n as u32).collect();
    let batch = p.batch.max(1);
    for epoch in 0..p.epochs {
        let frac = epoch as f64 / p.epochs.max(1) as f64;
        opt.set_learning_rate(p.lr * (1.0 - 0.9 * frac));
        order.shuffle(&mut rng);
        let (mut sum, mut count) = (0f64, 0usize);
        for idx in order.chunks(batch) {
            let idx = Tensor::from_slice(idx, idx.len(), &dev)?;
            let xb = xs.index_select(&idx, 0)?;
            let yb = ys.index_select(&idx, 0)?;
            let z = logits(&xb, &w1, &b1, &w2, &b2, h)?;
            let loss = candle_nn::loss::binary_cross_entropy_with_logit(&z, &yb)?;
            sum += loss.to_scalar::<f32>()? as f64 * idx.dim(0)? as f64;
            count += idx.dim(0)?;
            opt.backward_step(&loss)?;
        }
        progress(epoch + 1, sum / count.max(1) as f64);
    }
    let flat = |v: &Var| -> candle_core::Result<Vec<f32>> { v.flatten_all()?.to_vec1::<f32>() };
    Ok(ValueNet::new(
        h,
        flat(&w1)?,
        flat(&b1)?,
        flat(&w2)?,
        flat(&b2)?[0],
    ))
}

/// candle's forward pass of `net` on `x` (win probabilities), for checking the hand-written
/// inference against the training crate.
pub fn candle_probs(net: &ValueNet, x: &[f32]) -> candle_core::Result<Vec<f32>> {
    let dev = Device::Cpu;
    let n = x.len() / N_IN;
    let xs = Tensor::from_slice(x, (n, N_IN), &dev)?;
    let inner = if net.hidden == 0 { N_IN } else { net.hidden };
    let w1 = Tensor::from_slice(&net.w1, (net.hidden, N_IN), &dev)?;
    let b1 = Tensor::from_slice(&net.b1, (1, net.hidden), &dev)?;
    let w2 = Tensor::from_slice(&net.w2, (1, inner), &dev)?;
    let b2 = Tensor::from_slice(&[net.b2], (1, 1), &dev)?;
    let z = logits(&xs, &w1, &b1, &w2, &b2, net.hidden)?;
    candle_nn::ops::sigmoid(&z)?
        .squeeze(D::Minus1)?
        .to_dtype(DType::F32)?
        .to_vec1::<f32>()
}

/// Mean log loss of `net` on `data` (natural log), with our inference.
pub fn log_loss(net: &ValueNet, data: &Positions) -> f64 {
    let mut s = 0f64;
    for i in 0..data.len() {
        let q = (net.prob(data.row(i)) as f64).clamp(1e-6, 1.0 - 1e-6);
        let y = data.y[i] as f64;
        s -= y * q.ln() + (1.0 - y) * (1.0 - q).ln();
    }
    s / data.len().max(1) as f64
}

/// Calibration by decile of the predicted probability: (mean predicted, mean observed,
/// positions) per decile.
pub fn calibration(net: &ValueNet, data: &Positions) -> Vec<(f64, f64, usize)> {
    let mut pred: Vec<(f32, f32)> = (0..data.len())
        .map(|i| (net.prob(data.row(i)), data.y[i]))
        .collect();
    pred.sort_by(|a, b| a.0.total_cmp(&b.0));
    let n = pred.len();
    (0..10)
        .map(|d| {
            let part = &pred[d * n / 10..(d + 1) * n / 10];
            let k = part.len().max(1) as f64;
            (
                part.iter().map(|p| p.0 as f64).sum::<f64>() / k,
                part.iter().map(|p| p.1 as f64).sum::<f64>() / k,
                part.len(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions whose label follows a known rule of two inputs.
    fn toy(n: usize, seed: u64) -> Positions {
        use rand::RngExt;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut d = Positions::default();
        for _ in 0..n {
            let mut x = [0f32; N_IN];
            for v in x.iter_mut().take(8) {
                *v = rng.random_range(-1.0..1.0);
            }
            let p = super::super::sigmoid(3.0 * x[1] - 2.0 * x[2] * x[3]);
            d.push(&x, (rng.random::<f32>() < p) as u8 as f32);
        }
        d
    }

    #[test]
    fn training_is_reproducible_bit_for_bit() {
        let d = toy(2000, 3);
        let p = FitParams {
            hidden: 8,
            epochs: 3,
            batch: 64,
            ..Default::default()
        };
        let a = fit(&d, &p, |_, _| {}).unwrap();
        let b = fit(&d, &p, |_, _| {}).unwrap();
        assert_eq!(a.to_toml(""), b.to_toml(""));
        let c = fit(&d, &FitParams { seed: 2, ..p }, |_, _| {}).unwrap();
        assert_ne!(a, c, "the seed must matter");
    }

    #[test]
    fn it_learns_and_our_inference_matches_candle() {
        let d = toy(4000, 5);
        let base = log_loss(&ValueNet::new(0, vec![], vec![], vec![0.0; N_IN], 0.0), &d);
        for hidden in [0, 16] {
            let p = FitParams {
                hidden,
                epochs: 20,
                batch: 128,
                lr: 1e-2,
                ..Default::default()
            };
            let net = fit(&d, &p, |_, _| {}).unwrap();
            let ll = log_loss(&net, &d);
            assert!(ll < base - 0.1, "hidden {hidden}: {ll} against {base}");
            let theirs = candle_probs(&net, &d.x).unwrap();
            for (i, q) in theirs.iter().enumerate() {
                let ours = net.prob(d.row(i));
                assert!((ours - q).abs() < 1e-5, "row {i}: {ours} against {q}");
            }
        }
    }
}
