//! Decks: the player's (community text format) and the Confluence's (TOML).
//!
//! Layer: may use `cards`, `error`, `suggest` and nothing else of the crate.

pub mod booster;
pub mod confluence;
pub mod edit;
pub mod player;
pub mod swap;

pub use confluence::{ConfluenceDeck, RareMix};
pub use edit::Edit;
pub use player::PlayerDeck;
