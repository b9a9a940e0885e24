//! The policy network's training data: at each card-into-Mana and Afternoon-turn decision,
//! the position's encoding, every option's inputs and the teacher's (a search's) choice.
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

use super::{N_IN, OPT_IN};
use crate::engine::Choice;
use crate::engine::view::View;
use crate::policy::value::encode;
use crate::policy::{Expert, Policy, PolicyRng, Search};

/// Decisions with their options, flat: decision `d`'s options are rows
/// `start[d]..start[d + 1]` of `opts`, and the teacher chose row `start[d] + label[d]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Decisions {
    /// `N_IN` inputs per decision.
    pub pos: Vec<f32>,
    /// `OPT_IN` inputs per option.
    pub opts: Vec<f32>,
    pub start: Vec<u32>,
    pub label: Vec<u32>,
}

impl Default for Decisions {
    fn default() -> Self {
        Decisions {
            pos: Vec::new(),
            opts: Vec::new(),
            start: vec![0],
            label: Vec::new(),
        }
    }
}

impl Decisions {
    pub fn len(&self) -> usize {
        self.label.len()
    }
    pub fn is_empty(&self) -> bool {
        self.label.is_empty()
    }
    /// Options in all.
    pub fn rows(&self) -> usize {
        self.opts.len() / OPT_IN
    }
    pub fn push(&mut self, x: &[f32; N_IN], opts: &[[f32; OPT_IN]], label: usize) {
        self.pos.extend_from_slice(x);
        for o in opts {
            self.opts.extend_from_slice(o);
        }
        self.start.push(self.rows() as u32);
        self.label.push(label as u32);
    }
    pub fn extend(&mut self, o: &Decisions) {
        let base = self.rows() as u32;
        self.pos.extend_from_slice(&o.pos);
        self.opts.extend_from_slice(&o.opts);
        self.start.extend(o.start[1..].iter().map(|s| s + base));
        self.label.extend_from_slice(&o.label);
    }
    pub fn position(&self, d: usize) -> &[f32; N_IN] {
        self.pos[d * N_IN..(d + 1) * N_IN]
            .try_into()
            .expect("N_IN inputs per decision")
    }
    /// Decision `d`'s options' inputs.
    pub fn options(&self, d: usize) -> &[[f32; OPT_IN]] {
        let (a, b) = (self.start[d] as usize, self.start[d + 1] as usize);
        let flat = &self.opts[a * OPT_IN..b * OPT_IN];
        let (rows, rest) = flat.as_chunks::<OPT_IN>();
        debug_assert!(rest.is_empty());
        rows
    }
    /// A hash of the data (blake3 of every number's bytes in order), for the weights' header.
    pub fn hash(&self) -> String {
        let mut h = blake3::Hasher::new();
        for v in self.pos.iter().chain(&self.opts) {
            h.update(&v.to_le_bytes());
        }
        for v in self.start.iter().chain(&self.label) {
            h.update(&v.to_le_bytes());
        }
        h.finalize().to_hex().to_string()
    }
}

/// At a decision the network scores (card into Mana, Afternoon turn, with at least two
/// options), asks the teacher and records the position, the options' inputs (from
/// `expert`, which must have no network of its own) and its choice.
pub fn record(
    view: &View<'_>,
    options: &[Choice],
    expert: &mut Expert,
    teacher: &mut Search,
    rng: &mut PolicyRng,
    out: &mut Decisions,
) {
    if options.len() < 2 || crate::policy::features::family(view.decision()).is_none() {
        return;
    }
    let mut inputs = [[0f32; OPT_IN]; 256];
    let n = expert.option_inputs(view, options, &mut inputs);
    let chosen = teacher.choose(view, options, rng);
    if n < 2 || chosen >= n {
        return;
    }
    let mut x = [0f32; N_IN];
    encode(view, &mut x);
    out.push(&x, &inputs[..n], chosen);
}
