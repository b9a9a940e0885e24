//! Plain statistics over numbers: mergeable accumulators, intervals, quantiles. Knows
//! nothing of cards or games beyond the outcome codes it counts.
//!
//! Layer: may use `engine` and nothing else of the crate.

pub mod accum;
pub mod interval;
pub mod plackett_luce;
pub mod regression;
pub mod skill_fit;

pub use accum::Accum;
pub use interval::{Interval, wilson};
