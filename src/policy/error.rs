//! The errors of the policy layer: a policy spec that does not parse, and a policy asked
//! to play where it cannot. Each message names the spec or the parameter at fault and says
//! what was expected.
//!
//! Layer: part of [`crate::policy`]; uses nothing else of the crate.

/// Why a policy spec was refused, or a policy cannot be built as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// A name that is neither a policy nor an alias.
    #[error("unknown policy '{name}' (expected one of: {expected})")]
    UnknownPolicy { name: String, expected: String },
    #[error("policy parameter '{0}' is not key=value")]
    NotKeyValue(String),
    /// `takes`: the parameters the policy has, if any.
    #[error("policy '{policy}' has no parameter '{key}'{}", takes.as_ref().map(|t| format!(" (it takes: {t})")).unwrap_or_default())]
    UnknownParameter {
        policy: &'static str,
        key: String,
        takes: Option<String>,
    },
    #[error("policy parameter {key}='{value}' is not a whole number")]
    NotANumber { key: &'static str, value: String },
    /// A named set with a name that is not one of its members.
    #[error(
        "policy parameter {key}='{value}': '{member}' is not one of {members} (a set is its members joined by +, all or none; or a number)"
    )]
    NotAMember {
        key: &'static str,
        value: String,
        member: String,
        members: String,
    },
    #[error("policy parameter {key}={value} is out of range ({min} to {max})")]
    OutOfRange {
        key: &'static str,
        value: u32,
        min: u32,
        max: u32,
    },
    #[error(
        "policy parameter t='{value}' is not a temperature (a decimal number of points from 0 to {max}, at most three decimals, e.g. t=2.5)"
    )]
    NotATemperature { value: String, max: u32 },
    #[error("policy 'skill': name={0}: expected a player's name without ',', '=' or ':'")]
    BadPlayerName(String),
    #[error("policy 'skill' has no parameter '{0}' (it takes: t, name, and from=SPEC last)")]
    UnknownSkillParameter(String),
    #[error(
        "policy 'skill' needs t=T, its temperature in points of win probability (e.g. skill:t=2)"
    )]
    NoTemperature,
    #[error("policy 'skill': from= names no evaluator (e.g. from=fastsearch)")]
    NoEvaluator,
    /// `skill`'s evaluator (`from=`) does not parse.
    #[error("policy 'skill', from={from}: {error}")]
    InEvaluator {
        from: String,
        error: Box<PolicyError>,
    },
    #[error(
        "policy 'skill', from={0}: an evaluator must be blind, and clairvoyant sees the hidden cards (use search)"
    )]
    ClairvoyantEvaluator(String),
    #[error(
        "policy 'skill', from={0}: the evaluator must be a search (search:..., fastsearch, deepsearch), the policy that values options"
    )]
    EvaluatorNotSearch(String),
    /// An alias with parameters that its spec refuses.
    #[error("{alias} ({spec}): {error}")]
    InAlias {
        alias: &'static str,
        spec: &'static str,
        error: Box<PolicyError>,
    },
    #[error(
        "policy '{0}': rank=1 follows the expert's ranking, and expert=0 plays without the expert"
    )]
    RankWithoutExpert(String),
    #[error(
        "policy '{0}': net puts the policy network into the expert, and expert=0 plays without the expert"
    )]
    NetWithoutExpert(String),
    #[error(
        "policy '{policy}' does not play Free for All yet (it reads two seats); ffa accepts: {accepted}"
    )]
    NotAtFreeForAll {
        policy: &'static str,
        accepted: String,
    },
    /// An evaluator (`calibrate --evaluator`, `skill`'s) that sees the hidden cards.
    #[error("'{0}' sees the hidden cards: an evaluator must be blind (use search)")]
    EvaluatorNotBlind(String),
    /// An evaluator that is not a search.
    #[error(
        "'{0}' does not value options: an evaluator is a search (search:..., fastsearch, deepsearch)"
    )]
    NotAnEvaluator(String),
}
