//! A run's configuration as plain data: what to play (decks, policies, rare mixes, card
//! data, models), the what-if edits and where the outputs go. The command line makes it once from its flags
//! (`From` in `app::cli`), an experiment file and a recorded run (`checkpoint/run.json`,
//! `shard.json`, read by [`super::spec`]) make the same values, and loading, planning and
//! the outputs read only these, never the flags.
//!
//! The head-to-head commands' settings ([`Entries`] for `matchup` and `ffa`,
//! [`BoosterWar`]) are also what their checkpoints and shards record (the `settings` of
//! [`super::headtohead::DuelSpec`]): their JSON is that of the command lines' flags which
//! recorded it before them, field for field, so that older checkpoints resume and older
//! shards merge; where and how such a run goes is [`Place`], never recorded.
//!
//! Layer: part of [`crate::job`].

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::shard::Shard;

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
/// A head-to-head run records it as `models`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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

/// What `matchup` and `ffa` play: entries (each deck with each policy) on the same games.
/// Its JSON is the `settings` of their checkpoints and shards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entries {
    /// Player deck files, one or more.
    pub players: Vec<PathBuf>,
    /// Policy specs, in order (empty: greedy).
    pub policies: Vec<String>,
    /// Games per configuration: per pair of entries (`matchup`), per seating of a pod
    /// (`ffa`).
    pub games: u64,
    /// The base seed.
    pub seed: u64,
    /// The day a game stops as a draw.
    pub day_cap: u8,
    /// Simulate decks that break deck-building rules (with a warning).
    pub allow_illegal: bool,
    /// The card data directory.
    pub cards: PathBuf,
    /// Model files instead of the committed ones.
    pub models: Models,
}

/// Which of seed 003's variants a Booster War plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WarVariant {
    /// Each booster shuffled into a deck.
    Shuffled,
    /// Each player stacks its cards in the order it chooses.
    Ordered,
    /// Both, on the same boosters.
    Both,
}

/// What `booster-war` plays. Its JSON is the `settings` of its checkpoints and shards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoosterWar {
    /// The set whose boosters are opened.
    pub set: String,
    pub variant: WarVariant,
    /// The policy of both players.
    pub policy: String,
    /// Games per variant.
    pub games: u64,
    /// The base seed.
    pub seed: u64,
    /// The day a game stops as a draw.
    pub day_cap: u8,
    /// Keep day 1's Mana and the daily Expand (RULES.md D49).
    pub day_one_mana: bool,
    /// The booster file.
    pub boosters: PathBuf,
    /// The booster file as the command line named it (meta.json shows it so), kept
    /// because the recorded `boosters` is made absolute.
    pub boosters_given: Option<String>,
    /// The card data directory.
    pub cards: PathBuf,
    /// Model files instead of the committed ones.
    pub models: Models,
}

/// Where a head-to-head run writes and how it runs: `--out`, `--threads`, `--quiet`,
/// `--shard` and `--force` (not recorded: they do not decide its results).
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    /// The output directory.
    pub out: PathBuf,
    /// Worker threads (`None`: all cores).
    pub threads: Option<usize>,
    /// No progress bar and no summary on the terminal.
    pub quiet: bool,
    /// The slice of every configuration's games this process plays, if any.
    pub shard: Option<Shard>,
    /// Replace an output directory that holds a finished shard or another unfinished run.
    pub force: bool,
}

/// A head-to-head command as the command line asks for it: its settings and place, or
/// `--resume DIR`, which takes the settings of the unfinished run in DIR (and this
/// request's `threads` and `quiet`).
#[derive(Clone, Debug, PartialEq)]
pub struct Request<S> {
    pub settings: S,
    pub place: Place,
    pub resume: Option<PathBuf>,
}

/// `merge` of a head-to-head run's shards: the shard directories, where the whole run's
/// outputs go, `--force` and `--quiet`.
#[derive(Clone, Debug, PartialEq)]
pub struct Merge {
    pub shards: Vec<PathBuf>,
    pub out: PathBuf,
    pub force: bool,
    pub quiet: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// The `settings` of a shard written before these types existed (by the command
    /// lines' flags), read and written again to the same JSON: older checkpoints resume and
    /// older shards merge.
    fn round_trip<T: Serialize + serde::de::DeserializeOwned>(recorded: Value) {
        let t: T = serde_json::from_value(recorded.clone()).expect("reads");
        assert_eq!(serde_json::to_value(&t).unwrap(), recorded);
    }

    #[test]
    fn the_head_to_head_settings_keep_the_json_their_runs_recorded() {
        round_trip::<Entries>(json!({
            "allow_illegal": false,
            "cards": "builtin:decks/cards",
            "day_cap": 20,
            "games": 6,
            "models": {
                "expert_weights": "/work/decks/policies/expert.toml",
                "value_weights": null
            },
            "players": ["/work/decks/player/AX_sierra_oddball.txt"],
            "policies": ["expert"],
            "seed": 7
        }));
        for variant in ["shuffled", "ordered", "both"] {
            round_trip::<BoosterWar>(json!({
                "boosters": "/work/decks/boosters.toml",
                "boosters_given": "decks/boosters.toml",
                "cards": "builtin:decks/cards",
                "day_cap": 30,
                "day_one_mana": true,
                "games": 6,
                "models": {"expert_weights": null, "value_weights": null},
                "policy": "planner",
                "seed": 5,
                "set": "CORE",
                "variant": variant
            }));
        }
        // The check can fail: a field under another name is not the recorded JSON.
        let renamed = json!({
            "allow_illegal": false, "cards": "c", "day_cap": 20, "games": 6,
            "models": {"expert": null, "value_weights": null},
            "players": [], "policies": [], "seed": 7
        });
        let t: Entries = serde_json::from_value(renamed.clone()).expect("unknown keys pass");
        assert_ne!(serde_json::to_value(&t).unwrap(), renamed);
    }
}
