//! The run layer, below the command line: a run's configuration as plain data
//! ([`config`], made once from the flags, an experiment file ([`experiment`]) or a recorded
//! run), loading it ([`load`], [`builtin`], [`mixes`]), planning and running a job ([`plan`]), shards, checkpoints and
//! their merge ([`shard`], [`checkpoint`], [`spec`]), and the outputs ([`outputs`],
//! [`summary`], [`meta`]); the head-to-head commands' one runner ([`headtohead`]) and what
//! each of them plays and writes ([`matchup`], [`booster_war`], [`ffa`]). It knows nothing of how flags are parsed; the commands of
//! [`crate::app`] parse, configure, call it and print.
//!
//! Layer: may use `analysis`, `cards`, `deck`, `engine`, `error`, `export`, `policy`,
//! `report`, `sim` and `stats`, and nothing else of the crate.

pub mod booster_war;
pub mod builtin;
pub mod checkpoint;
pub mod config;
pub mod error;
pub mod experiment;
pub mod ffa;
pub mod headtohead;
pub mod load;
pub mod matchup;
pub mod meta;
pub mod mixes;
pub mod outputs;
pub mod plan;
pub mod players;
pub mod shard;
pub mod spec;
pub mod summary;
