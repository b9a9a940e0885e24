//! Parquet exporter and reader, through polars (kept behind this module).
//!
//! Layer: part of [`crate::export`]; may use `error` and nothing else of the crate.

use std::io::Write;
use std::path::Path;

use polars_core::prelude::*;
use polars_io::prelude::*;

use super::{ColumnData, Table};

fn to_column(name: &str, c: &ColumnData) -> Column {
    let name: PlSmallStr = name.into();
    match c {
        ColumnData::U32(v) => Column::new(name, v),
        ColumnData::U64(v) => Column::new(name, v),
        // NaN marks a missing value in our tables (a rate with no games): Parquet gets a
        // null, as CSV gets an empty cell, so that `avg()` and `mean()` skip it.
        ColumnData::F64(v) => Column::new(
            name,
            v.iter()
                .map(|&x| (!x.is_nan()).then_some(x))
                .collect::<Vec<Option<f64>>>(),
        ),
        ColumnData::Str(v) => Column::new(name, v),
        ColumnData::Bool(v) => Column::new(name, v),
        ColumnData::ListU64(v) => {
            let series: Vec<Series> = v
                .iter()
                .map(|l| Series::new(PlSmallStr::EMPTY, l))
                .collect();
            Column::new(name, series)
        }
    }
}

pub fn to_frame(t: &Table) -> Result<DataFrame, String> {
    let cols: Vec<Column> = t.columns.iter().map(|(n, c)| to_column(n, c)).collect();
    DataFrame::new(t.rows(), cols).map_err(|e| e.to_string())
}

/// Writes a whole table as one Parquet file.
pub fn write<W: Write>(t: &Table, w: W) -> Result<(), String> {
    let mut df = to_frame(t)?;
    ParquetWriter::new(w)
        .finish(&mut df)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Writes tables with the same columns as successive row groups of one file, so that a
/// long run streams its rows with flat memory.
pub struct BatchWriter<W: Write> {
    inner: Option<polars_io::parquet::write::BatchedWriter<W>>,
    w: Option<W>,
}

impl<W: Write> BatchWriter<W> {
    pub fn new(w: W) -> BatchWriter<W> {
        BatchWriter {
            inner: None,
            w: Some(w),
        }
    }

    pub fn write(&mut self, t: &Table) -> Result<(), String> {
        let df = to_frame(t)?;
        if self.inner.is_none() {
            let w = self.w.take().expect("writer");
            self.inner = Some(
                ParquetWriter::new(w)
                    .batched(df.schema())
                    .map_err(|e| e.to_string())?,
            );
        }
        self.inner
            .as_mut()
            .expect("batched writer")
            .write_batch(&df)
            .map_err(|e| e.to_string())
    }

    /// Finishes the file. A writer that never got a batch writes nothing.
    pub fn finish(self) -> Result<(), String> {
        if let Some(b) = self.inner {
            b.finish().map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

/// Reads a Parquet file written by this module back into a table.
pub fn read(path: &Path) -> Result<Table, String> {
    let f = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let df = ParquetReader::new(f).finish().map_err(|e| e.to_string())?;
    let mut t = Table::new();
    for col in df.columns() {
        let name = col.name().to_string();
        let data = match col.dtype() {
            DataType::UInt32 => ColumnData::U32(
                col.u32()
                    .map_err(|e| e.to_string())?
                    .iter()
                    .map(|x| x.unwrap_or(0))
                    .collect(),
            ),
            DataType::UInt64 => ColumnData::U64(
                col.u64()
                    .map_err(|e| e.to_string())?
                    .iter()
                    .map(|x| x.unwrap_or(0))
                    .collect(),
            ),
            DataType::Float64 => ColumnData::F64(
                col.f64()
                    .map_err(|e| e.to_string())?
                    .iter()
                    .map(|x| x.unwrap_or(f64::NAN))
                    .collect(),
            ),
            DataType::String => ColumnData::Str(
                col.str()
                    .map_err(|e| e.to_string())?
                    .iter()
                    .map(|x| x.unwrap_or("").to_string())
                    .collect(),
            ),
            DataType::Boolean => ColumnData::Bool(
                col.bool()
                    .map_err(|e| e.to_string())?
                    .iter()
                    .map(|x| x.unwrap_or(false))
                    .collect(),
            ),
            DataType::List(inner) if **inner == DataType::UInt64 => {
                let mut rows = Vec::new();
                for s in col.list().map_err(|e| e.to_string())?.series_iter() {
                    let v = match s {
                        Some(s) => s
                            .u64()
                            .map_err(|e| e.to_string())?
                            .iter()
                            .map(|x| x.unwrap_or(0))
                            .collect(),
                        None => Vec::new(),
                    };
                    rows.push(v);
                }
                ColumnData::ListU64(rows)
            }
            other => return Err(format!("column {name} has unsupported type {other}")),
        };
        t.push(&name, data);
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_column_type() {
        let mut t = Table::new();
        t.push("a", ColumnData::U32(vec![1, 2]))
            .push("b", ColumnData::U64(vec![3, 4]))
            .push("c", ColumnData::F64(vec![0.25, 1.5]))
            .push("d", ColumnData::Str(vec!["x".into(), "".into()]))
            .push("e", ColumnData::ListU64(vec![vec![1, 2, 3], vec![]]))
            .push("f", ColumnData::Bool(vec![true, false]));
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.parquet");
        write(&t, std::fs::File::create(&p).unwrap()).unwrap();
        assert_eq!(read(&p).unwrap(), t);
    }

    #[test]
    fn missing_values_are_nulls_not_nan() {
        let mut t = Table::new();
        t.push("rate", ColumnData::F64(vec![0.5, f64::NAN, 0.25]));
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.parquet");
        write(&t, std::fs::File::create(&p).unwrap()).unwrap();
        let df = ParquetReader::new(std::fs::File::open(&p).unwrap())
            .finish()
            .unwrap();
        let col = df.column("rate").unwrap().f64().unwrap();
        assert_eq!(col.null_count(), 1);
        assert!(col.iter().flatten().all(|x| !x.is_nan()));
        // What a reader of the file computes: the mean of the values present.
        assert_eq!(col.mean(), Some(0.375));
        // And this module reads a null back as the NaN the tables use for "missing".
        let back = read(&p).unwrap();
        match back.column("rate") {
            Some(ColumnData::F64(v)) => assert!(v[0] == 0.5 && v[1].is_nan() && v[2] == 0.25),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn batches_become_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("g.parquet");
        let mut w = BatchWriter::new(std::fs::File::create(&p).unwrap());
        for k in 0..3u64 {
            let mut t = Table::new();
            t.push("g", ColumnData::U64(vec![k * 2, k * 2 + 1]));
            w.write(&t).unwrap();
        }
        w.finish().unwrap();
        assert_eq!(
            read(&p).unwrap().column("g"),
            Some(&ColumnData::U64(vec![0, 1, 2, 3, 4, 5]))
        );
    }
}
