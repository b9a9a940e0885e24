//! Card data and the effect language: the pool of real cards (facts), ability encodings
//! (our own text, compiled once), and the compiled card table the engine reads.
//!
//! Layer: may use `error` and nothing else of the crate.

pub mod db;
pub mod dsl;
pub mod effect;
pub mod encoding;
pub mod pool;
pub mod textread;
pub mod types;

use std::path::Path;

use crate::error::CardError;
pub use db::{CardDb, CardDef, Coverage};
pub use pool::CardPool;

/// The card pool and the compiled card table built from `decks/cards/`.
pub struct Library {
    pub pool: CardPool,
    pub db: CardDb,
}

impl Library {
    /// Loads `dir/pool.csv` and every encoding in `dir/abilities/`.
    pub fn load(dir: &Path) -> Result<Library, CardError> {
        let pool = CardPool::load(&dir.join("pool.csv"))?;
        let mut db = CardDb::from_pool(&pool);
        let encodings = encoding::read_dir(&dir.join("abilities"))?;
        encoding::apply(&mut db, &pool, &encodings)?;
        Ok(Library { pool, db })
    }

    /// The same from texts already read: the pool (its path, for errors and
    /// [`CardPool::source`]) and the encoding files (path, text) in the order
    /// [`encoding::read_dir`] reads them (by file name).
    pub fn from_texts<'a>(
        pool: (&Path, &str),
        abilities: impl IntoIterator<Item = (&'a Path, &'a str)>,
    ) -> Result<Library, CardError> {
        let pool = CardPool::parse(pool.1, pool.0)?;
        let mut db = CardDb::from_pool(&pool);
        let mut encodings = Vec::new();
        for (path, text) in abilities {
            encodings.extend(encoding::parse(text, path)?);
        }
        encoding::apply(&mut db, &pool, &encodings)?;
        Ok(Library { pool, db })
    }
}
