//! A run's configuration as plain data: what to play (decks, policies, rare mixes, card
//! data, models), the what-if edits and where the outputs go. The command line makes it once from its flags
//! (`TryFrom` in `app::cli`), an experiment file and a recorded run (`checkpoint/run.json`,
//! `shard.json`, read by [`super::spec`]) make the same values, and loading, planning and
//! the outputs read only these, never the flags.
//!
//! Layer: part of [`crate::job`].

use std::path::PathBuf;

/// What-if edits of cards of the Confluence deck and the player decks, applied at load time
/// (the files are not changed): `--edits FILE`, then each `--edit`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Edits {
    /// Each edit as `CARD: CHANGE`, applied in order after the file's.
    pub edit: Vec<String>,
    /// A file of `[[edit]]` tables, applied first.
    pub edits_file: Option<PathBuf>,
}

/// Model files instead of the committed ones the binary embeds (`None`: the committed one).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Models {
    /// Weights for the expert, a file `train-expert` wrote.
    pub expert_weights: Option<PathBuf>,
    /// The value model, a file `train-value` wrote.
    pub value_weights: Option<PathBuf>,
}

/// What to play: decks, policies and rare mixes, the card data and the models (what a
/// configuration is made of).
#[derive(Clone, Debug, PartialEq)]
pub struct Play {
    /// Player deck files (empty: the built-in default, [`super::load::DEFAULT_PLAYER`]).
    pub players: Vec<PathBuf>,
    /// The Confluence deck file.
    pub confluence: PathBuf,
    /// Policy specs, in order.
    pub policies: Vec<String>,
    /// A calibration.json whose players join the policies.
    pub calibrated: Option<PathBuf>,
    /// Rare counts, `N` or a sweep `A..=B`.
    pub rares: Vec<String>,
    /// Explicit sets of rares, comma-separated names.
    pub rare_sets: Vec<String>,
    /// Random subsets per rare count in a sweep.
    pub subsets: u32,
    /// The day a game stops as a day-cap outcome.
    pub day_cap: u8,
    /// Simulate decks that break deck-building rules (with a warning).
    pub allow_illegal: bool,
    /// The card data directory.
    pub cards: PathBuf,
    /// Weights for the expert instead of the committed ones.
    pub expert_weights: Option<PathBuf>,
    /// The value model instead of the committed one.
    pub value_weights: Option<PathBuf>,
    /// The what-if edits.
    pub edits: Edits,
}

/// Where a run writes and how it runs: `run`'s --out, --threads, --per-game and --quiet.
#[derive(Clone, Debug, PartialEq)]
pub struct Outputs {
    /// The output directory.
    pub out: PathBuf,
    /// Worker threads (`None`: all cores).
    pub threads: Option<usize>,
    /// Also write games.parquet, one row per game.
    pub per_game: bool,
    /// No progress bar and no summary table on the terminal.
    pub quiet: bool,
}
