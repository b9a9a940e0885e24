//! Parquet without polars: the API of `parquet.rs` for builds without the `parquet`
//! feature (the fuzz build, which would otherwise compile polars with coverage
//! instrumentation). Every call fails with the same clear error; nothing is written.

use std::io::Write;
use std::path::Path;

use super::Table;

const OFF: &str = "this build has no Parquet support (built without the `parquet` feature)";

pub fn write<W: Write>(_t: &Table, _w: W) -> Result<(), String> {
    Err(OFF.into())
}

/// Row groups appended one batch at a time (never, in this build).
pub struct BatchWriter<W: Write> {
    _w: W,
}

impl<W: Write> BatchWriter<W> {
    pub fn new(w: W) -> BatchWriter<W> {
        BatchWriter { _w: w }
    }

    pub fn write(&mut self, _t: &Table) -> Result<(), String> {
        Err(OFF.into())
    }

    pub fn finish(self) -> Result<(), String> {
        Err(OFF.into())
    }
}

pub fn read(_path: &Path) -> Result<Table, String> {
    Err(OFF.into())
}
