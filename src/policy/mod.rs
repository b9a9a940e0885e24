//! Player policies. At every decision the engine lists the legal options; a policy picks
//! one, seeing only what the player can see (a [`View`]) and drawing any randomness from
//! its own stream.

mod greedy;
pub mod needs;
mod random;

use std::fmt;

pub use greedy::Greedy;
pub use random::Random;

use crate::engine::Choice;
use crate::engine::view::View;

/// The random stream of a policy (separate from the game's shuffles and dice).
pub type PolicyRng = rand_xoshiro::Xoshiro256PlusPlus;

pub trait Policy: Send {
    /// Index into `options` (never empty) of the chosen option.
    fn choose(&mut self, view: &View<'_>, options: &[Choice], rng: &mut PolicyRng) -> usize;
}

/// A policy named on the command line, with its parameters: `greedy`, `random`,
/// `search:rollouts=64`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PolicySpec {
    pub kind: PolicyKind,
    pub params: Vec<(String, u32)>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PolicyKind {
    Random,
    Greedy,
}

impl PolicyKind {
    pub const ALL: [PolicyKind; 2] = [PolicyKind::Random, PolicyKind::Greedy];

    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::Random => "random",
            PolicyKind::Greedy => "greedy",
        }
    }

    fn known_params(self) -> &'static [&'static str] {
        &[]
    }
}

impl fmt::Display for PolicySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind.name())?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

impl std::str::FromStr for PolicySpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (name, rest) = s.split_once(':').unwrap_or((s, ""));
        let kind = PolicyKind::ALL
            .into_iter()
            .find(|k| k.name() == name.trim())
            .ok_or_else(|| {
                let names: Vec<&str> = PolicyKind::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "unknown policy '{name}' (expected one of: {})",
                    names.join(", ")
                )
            })?;
        let mut params = Vec::new();
        for p in rest.split(',').filter(|p| !p.trim().is_empty()) {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| format!("policy parameter '{p}' is not key=value"))?;
            let k = k.trim();
            if !kind.known_params().contains(&k) {
                return Err(format!(
                    "policy '{}' has no parameter '{k}'{}",
                    kind.name(),
                    if kind.known_params().is_empty() {
                        String::new()
                    } else {
                        format!(" (it takes: {})", kind.known_params().join(", "))
                    }
                ));
            }
            let v: u32 = v
                .trim()
                .parse()
                .map_err(|_| format!("policy parameter {k}='{v}' is not a whole number"))?;
            params.push((k.to_string(), v));
        }
        Ok(PolicySpec { kind, params })
    }
}

/// A built policy. An enum rather than a trait object so the game loop dispatches
/// statically.
pub enum AnyPolicy {
    Random(Random),
    Greedy(Greedy),
}

impl PolicySpec {
    pub fn build(&self) -> AnyPolicy {
        match self.kind {
            PolicyKind::Random => AnyPolicy::Random(Random),
            PolicyKind::Greedy => AnyPolicy::Greedy(Greedy),
        }
    }
}

impl Policy for AnyPolicy {
    #[inline]
    fn choose(&mut self, view: &View<'_>, options: &[Choice], rng: &mut PolicyRng) -> usize {
        match self {
            AnyPolicy::Random(p) => p.choose(view, options, rng),
            AnyPolicy::Greedy(p) => p.choose(view, options, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_rejects_unknown_ones() {
        let p: PolicySpec = "greedy".parse().unwrap();
        assert_eq!(p.kind, PolicyKind::Greedy);
        assert_eq!(p.to_string(), "greedy");
        let e = "wizard".parse::<PolicySpec>().unwrap_err();
        assert!(e.contains("unknown policy 'wizard'"), "{e}");
        let e = "greedy:depth=3".parse::<PolicySpec>().unwrap_err();
        assert!(e.contains("no parameter 'depth'"), "{e}");
    }
}
