//! Decks: the player's (community text format) and the Confluence's (TOML).

pub mod booster;
pub mod confluence;
pub mod player;

pub use confluence::{ConfluenceDeck, RareMix};
pub use player::PlayerDeck;
