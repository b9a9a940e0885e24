//! Outputs: a column table model with one exporter per format (CSV, Parquet), and the
//! output directory ([`OutputDir`]) every command writes through: the files go into a
//! temporary directory that replaces the destination whole only when everything
//! succeeded, so a failed command leaves no partial files.
//!
//! Layer: may use `error` and nothing else of the crate.

pub mod csv;
pub mod dir;
#[cfg(feature = "parquet")]
pub mod parquet;
/// Built without the `parquet` feature (the fuzz build): same API, every call fails.
#[cfg(not(feature = "parquet"))]
#[path = "parquet_off.rs"]
pub mod parquet;

pub use dir::OutputDir;

/// The values of one column.
#[derive(Clone, Debug, PartialEq)]
pub enum ColumnData {
    U32(Vec<u32>),
    U64(Vec<u64>),
    F64(Vec<f64>),
    Str(Vec<String>),
    Bool(Vec<bool>),
    /// A list of counts per row (CSV writes it as `;`-separated numbers).
    ListU64(Vec<Vec<u64>>),
}

impl ColumnData {
    pub fn len(&self) -> usize {
        match self {
            ColumnData::U32(v) => v.len(),
            ColumnData::U64(v) => v.len(),
            ColumnData::F64(v) => v.len(),
            ColumnData::Str(v) => v.len(),
            ColumnData::Bool(v) => v.len(),
            ColumnData::ListU64(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Parquet/polars type name, for the schema documentation and tests.
    pub fn type_name(&self) -> &'static str {
        match self {
            ColumnData::U32(_) => "u32",
            ColumnData::U64(_) => "u64",
            ColumnData::F64(_) => "f64",
            ColumnData::Str(_) => "string",
            ColumnData::Bool(_) => "bool",
            ColumnData::ListU64(_) => "list<u64>",
        }
    }
}

/// Named columns of equal length.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub columns: Vec<(String, ColumnData)>,
}

impl Table {
    pub fn new() -> Table {
        Table::default()
    }

    pub fn push(&mut self, name: &str, data: ColumnData) -> &mut Self {
        debug_assert!(
            self.columns.is_empty() || self.columns[0].1.len() == data.len(),
            "column {name} has {} rows, others {}",
            data.len(),
            self.columns[0].1.len()
        );
        self.columns.push((name.to_string(), data));
        self
    }

    pub fn rows(&self) -> usize {
        self.columns.first().map_or(0, |c| c.1.len())
    }

    pub fn column(&self, name: &str) -> Option<&ColumnData> {
        self.columns.iter().find(|(n, _)| n == name).map(|(_, c)| c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn outputs_get_the_usual_mode_not_a_private_one() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("out");
        let mut out = OutputDir::new(&dest).unwrap();
        out.write_bytes("report.md", b"# r").unwrap();
        out.commit().unwrap();
        for p in [dest.join("report.md"), dest.clone()] {
            let mode = std::fs::metadata(&p).unwrap().permissions().mode();
            // The usual mode less the umask: the owner can read and write, and a file is
            // never more open than 0644 (a directory 0755).
            assert_eq!(mode & 0o600, 0o600, "{mode:o}");
            assert_eq!(mode & !0o755 & 0o777, 0, "{mode:o}");
        }
    }
}
