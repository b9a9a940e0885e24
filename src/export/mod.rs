//! Outputs: a column table model with one exporter per format (CSV, Parquet), and an
//! output set that writes every file under a temporary name and renames them all only
//! when everything succeeded, so a failed run leaves no partial files.
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

use std::path::{Path, PathBuf};

use crate::error::ExportError;

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

/// Files written under temporary names in the destination directory, renamed into place
/// by [`OutputSet::commit`]. Dropping the set without committing removes them.
pub struct OutputSet {
    dir: PathBuf,
    pending: Vec<(tempfile::NamedTempFile, PathBuf)>,
}

impl OutputSet {
    /// Creates the directory if needed and checks that it can be written.
    pub fn new(dir: &Path) -> Result<OutputSet, ExportError> {
        std::fs::create_dir_all(dir).map_err(|e| ExportError::Io {
            path: dir.to_path_buf(),
            source: e,
        })?;
        // Fail now, before any game runs, if the directory is not writable.
        tempfile::NamedTempFile::new_in(dir).map_err(|e| ExportError::Io {
            path: dir.to_path_buf(),
            source: e,
        })?;
        Ok(OutputSet {
            dir: dir.to_path_buf(),
            pending: Vec::new(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A new temporary file that will become `dir/name` on commit. `name` may hold
    /// subdirectories (`charts/a.svg`): they are created, and the temporary file is made
    /// next to its target so that the rename stays on one file system.
    pub fn create(&mut self, name: &str) -> Result<&mut std::fs::File, ExportError> {
        let target = self.dir.join(name);
        let parent = target.parent().unwrap_or(&self.dir).to_path_buf();
        std::fs::create_dir_all(&parent).map_err(|e| ExportError::Io {
            path: parent.clone(),
            source: e,
        })?;
        let file_name = target
            .file_name()
            .map_or_else(|| name.to_string(), |f| f.to_string_lossy().into_owned());
        let prefix = format!(".{file_name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // Outputs are meant to be shared: the usual file mode (less the umask), not
        // tempfile's private 0600.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o644));
        }
        let tmp = builder.tempfile_in(&parent).map_err(|e| ExportError::Io {
            path: target.clone(),
            source: e,
        })?;
        self.pending.push((tmp, target));
        Ok(self
            .pending
            .last_mut()
            .expect("just pushed")
            .0
            .as_file_mut())
    }

    pub fn write_csv(&mut self, name: &str, t: &Table) -> Result<(), ExportError> {
        let path = self.dir.join(name);
        let f = self.create(name)?;
        csv::write(t, f).map_err(|msg| ExportError::Format { path, msg })
    }

    pub fn write_parquet(&mut self, name: &str, t: &Table) -> Result<(), ExportError> {
        let path = self.dir.join(name);
        let f = self.create(name)?;
        parquet::write(t, f).map_err(|msg| ExportError::Format { path, msg })
    }

    /// Writes `bytes` as `dir/name` (on commit).
    pub fn write_bytes(&mut self, name: &str, bytes: &[u8]) -> Result<(), ExportError> {
        use std::io::Write;
        let path = self.dir.join(name);
        let f = self.create(name)?;
        f.write_all(bytes)
            .map_err(|e| ExportError::Io { path, source: e })
    }

    /// Renames every file into place.
    pub fn commit(self) -> Result<Vec<PathBuf>, ExportError> {
        let mut done = Vec::new();
        for (tmp, target) in self.pending {
            tmp.as_file().sync_all().map_err(|e| ExportError::Io {
                path: target.clone(),
                source: e,
            })?;
            tmp.persist(&target).map_err(|e| ExportError::Io {
                path: target.clone(),
                source: e.error,
            })?;
            done.push(target);
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn writes_into_subdirectories_only_on_commit() {
        let dir = tempfile::tempdir().unwrap();
        let mut out = OutputSet::new(dir.path()).unwrap();
        out.write_bytes("charts/a.svg", b"<svg/>").unwrap();
        out.write_bytes("report.md", b"# r").unwrap();
        assert!(!dir.path().join("charts/a.svg").exists());
        assert!(!dir.path().join("report.md").exists());
        out.commit().unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("charts/a.svg")).unwrap(),
            "<svg/>"
        );
        assert_eq!(names(&dir.path().join("charts")), vec!["a.svg"]);
        assert_eq!(names(dir.path()), vec!["charts", "report.md"]);
    }

    #[cfg(unix)]
    #[test]
    fn outputs_get_the_usual_mode_not_a_private_one() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mut out = OutputSet::new(dir.path()).unwrap();
        out.write_bytes("report.md", b"# r").unwrap();
        out.commit().unwrap();
        let mode = std::fs::metadata(dir.path().join("report.md"))
            .unwrap()
            .permissions()
            .mode();
        // 0644 less the umask: at least the owner can read and write, and it is never
        // more open than 0644.
        assert_eq!(mode & 0o600, 0o600, "{mode:o}");
        assert_eq!(mode & !0o644 & 0o777, 0, "{mode:o}");
    }

    #[test]
    fn dropping_without_commit_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut out = OutputSet::new(dir.path()).unwrap();
        out.write_bytes("charts/a.svg", b"<svg/>").unwrap();
        out.write_bytes("report.md", b"# r").unwrap();
        drop(out);
        assert_eq!(names(dir.path()), vec!["charts"]);
        assert!(names(&dir.path().join("charts")).is_empty());
    }
}
