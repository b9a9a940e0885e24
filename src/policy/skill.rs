//! `skill:t=T`: the quantal-response (Boltzmann) player, a continuous skill dial.
//!
//! At every decision with a real choice it values every legal option with its evaluator
//! (a search, `fastsearch` unless `from=SPEC` names another: [`Evaluator`]) and picks
//! option `a` with probability `exp(Q(a)/T) / Σ exp(Q(b)/T)`, `Q` the option's estimated
//! win probability in points (0 to 100) and `T` the temperature in points. `T = 0` plays
//! the best-valued option (the ranker's first guess on ties: as its evaluator ranks);
//! a large `T` plays nearly uniformly. The draw comes from the policy's own stream, and
//! the evaluator reads only the [`View`]: blind, and deterministic given that stream.
//!
//! [`Evaluator`] is also what `calibrate` re-evaluates recorded decisions with, before
//! [`crate::stats::skill_fit::fit`] fits `T` to them.
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

use rand::RngExt;

use super::search::Search;
use super::{AnyPolicy, Policy, PolicyData, PolicyKind, PolicyRng};
use super::{PolicyError, PolicySpec, Seated};
use crate::engine::Choice;
use crate::engine::view::View;

/// The option values of a search: the estimated win probability of every legal option at
/// a decision (see [`Search::values`]).
///
/// How to call it:
/// ```ignore
/// let spec: PolicySpec = "fastsearch".parse()?;            // or a skill spec's evaluator
/// let mut ev = Evaluator::new(&spec, &PolicyData::new(&db))?;
/// let mut q = vec![0.0; options.len()];
/// let samples = ev.values(&view, &options, &mut rng, &mut q); // q[i]: points, 0 to 100
/// ```
/// Blind (it reads the [`View`] only) and deterministic given `rng`; keep one per thread
/// and reuse it (its buffers grow to the largest decision and stay).
pub struct Evaluator {
    search: Box<Search>,
}

impl Evaluator {
    /// The evaluator of a search spec (`search:...`, or an alias such as `fastsearch`).
    /// A `skill` spec gives its own evaluator. Anything else is refused: only a search
    /// values options, and `clairvoyant` is not blind.
    pub fn new(spec: &PolicySpec, data: &PolicyData) -> Result<Evaluator, PolicyError> {
        let spec = evaluator_of(spec)?;
        let AnyPolicy::Search(search) = spec.build(data) else {
            unreachable!("a search spec builds a search")
        };
        Ok(Evaluator { search })
    }

    /// Head to head: the evaluator whose rollouts play the opponent's seat by
    /// `opponent`'s policy (as [`PolicySpec::build_against`] does for a search).
    pub fn against(
        spec: &PolicySpec,
        data: &PolicyData,
        opponent: &PolicySpec,
    ) -> Result<Evaluator, PolicyError> {
        let spec = evaluator_of(spec)?;
        let AnyPolicy::Search(search) = spec.build_against(data, opponent) else {
            unreachable!("a search spec builds a search")
        };
        Ok(Evaluator { search })
    }

    fn from_search(search: Box<Search>) -> Evaluator {
        Evaluator { search }
    }

    /// The estimated win probability (points, 0 to 100) of every option: `out[i]` for
    /// `options[i]` (`out.len() >= options.len()`). Returns the samples each option was
    /// played on. Every option is played on the same samples (common random numbers).
    pub fn values<'v, const N: usize, const M: usize>(
        &mut self,
        view: &View<'v, N, M>,
        options: &[Choice],
        rng: &mut PolicyRng,
        out: &mut [f64],
    ) -> u32
    where
        for<'w> View<'w, N, M>: Seated<'w>,
    {
        self.search.values(view, options, rng, out)
    }

    /// The options of the last [`Evaluator::values`] call, the evaluator's best guess
    /// first (its tie order).
    pub fn order(&self) -> &[usize] {
        self.search.value_order()
    }

    /// The search inside, for the Free for All opponents.
    fn with_ffa_opponents(self, opponents: [Option<AnyPolicy>; 4]) -> Evaluator {
        Evaluator::from_search(Box::new(self.search.with_ffa_opponents(opponents)))
    }
}

/// The search spec that values a spec's options: its own, or a `skill` spec's evaluator.
fn evaluator_of(spec: &PolicySpec) -> Result<PolicySpec, PolicyError> {
    let spec = match spec.kind {
        PolicyKind::Skill => spec.evaluator(),
        _ => spec.clone(),
    };
    match spec.kind {
        PolicyKind::Search => Ok(spec),
        PolicyKind::Clairvoyant => Err(PolicyError::EvaluatorNotBlind(spec.to_string())),
        _ => Err(PolicyError::NotAnEvaluator(spec.to_string())),
    }
}

/// The quantal-response player (module documentation).
pub struct Skill {
    eval: Evaluator,
    /// The temperature, points.
    t: f64,
    values: Vec<f64>,
}

impl Skill {
    /// `t`: the temperature in points (0: the evaluator's best).
    pub fn new(eval: Evaluator, t: f64) -> Skill {
        Skill {
            eval,
            t,
            values: Vec::new(),
        }
    }

    pub(super) fn with_ffa_opponents(self, opponents: [Option<AnyPolicy>; 4]) -> Skill {
        Skill {
            eval: self.eval.with_ffa_opponents(opponents),
            ..self
        }
    }

    /// The temperature, points.
    pub fn temperature(&self) -> f64 {
        self.t
    }

    fn decide<'v, const N: usize, const M: usize>(
        &mut self,
        view: &View<'v, N, M>,
        options: &[Choice],
        rng: &mut PolicyRng,
    ) -> usize
    where
        for<'w> View<'w, N, M>: Seated<'w>,
    {
        if options.len() == 1 {
            return 0;
        }
        self.values.clear();
        self.values.resize(options.len(), 0.0);
        self.eval.values(view, options, rng, &mut self.values);
        pick(self.t, &self.values, self.eval.order(), rng)
    }
}

/// The quantal-response choice at temperature `t` (points) among options of values `q`
/// (points), `order` listing every option, the best guess first. `t = 0`: the best value,
/// the earliest in `order` on ties. Otherwise a draw from `rng`, weights
/// `exp((q − max q)/t)` (no overflow, and a huge `t` is uniform).
pub fn pick(t: f64, q: &[f64], order: &[usize], rng: &mut PolicyRng) -> usize {
    let mut best = order[0];
    for &k in order {
        if q[k] > q[best] {
            best = k;
        }
    }
    if t <= 0.0 {
        return best;
    }
    let max = q[best];
    let total: f64 = order.iter().map(|&k| ((q[k] - max) / t).exp()).sum();
    let mut x = rng.random::<f64>() * total;
    for &k in order {
        x -= ((q[k] - max) / t).exp();
        if x < 0.0 {
            return k;
        }
    }
    best
}

impl<const N: usize, const M: usize> Policy<N, M> for Skill
where
    for<'v> View<'v, N, M>: Seated<'v>,
{
    fn choose(&mut self, view: &View<'_, N, M>, options: &[Choice], rng: &mut PolicyRng) -> usize {
        self.decide(view, options, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn pick_is_the_argmax_at_zero_and_near_uniform_when_hot() {
        let q = [40.0, 55.0, 55.0, 10.0];
        let mut rng = PolicyRng::seed_from_u64(1);
        // Ties go to the earliest in the evaluator's order.
        assert_eq!(pick(0.0, &q, &[0, 1, 2, 3], &mut rng), 1);
        assert_eq!(pick(0.0, &q, &[2, 0, 1, 3], &mut rng), 2);
        let mut n = [0u32; 4];
        for _ in 0..40_000 {
            n[pick(1e9, &q, &[0, 1, 2, 3], &mut rng)] += 1;
        }
        assert!(n.iter().all(|&c| (9_400..10_600).contains(&c)), "{n:?}");
        // At t = 5: the weights e^(−3), 1, 1, e^(−9).
        let mut n = [0u32; 4];
        for _ in 0..40_000 {
            n[pick(5.0, &q, &[0, 1, 2, 3], &mut rng)] += 1;
        }
        let z = 2.0 + (-3.0f64).exp() + (-9.0f64).exp();
        let want = 40_000.0 * (-3.0f64).exp() / z;
        assert!(
            (n[0] as f64 - want).abs() < 5.0 * want.sqrt(),
            "{n:?} {want}"
        );
        assert!(n[3] < 40, "{n:?}");
    }
}
