//! An output set written as a whole directory: every file goes into a temporary directory
//! beside the destination, and [`OutputDir::commit`] swaps it with the destination in one
//! step (`renameat2(RENAME_EXCHANGE)` on Linux), then removes the old one. A failure
//! before the swap leaves the old directory as it was; after it, the new one is complete.
//! Files of the old directory that the new set does not carry over are gone with it.
//!
//! Layer: part of [`crate::export`]; may use `error` and nothing else of the crate.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Table, csv, parquet};
use crate::error::ExportError;

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
    move |source| ExportError::Io {
        path: path.to_path_buf(),
        source,
    }
}

pub struct OutputDir {
    dest: PathBuf,
    tmp: tempfile::TempDir,
    files: Vec<PathBuf>,
}

/// The directory that will hold `dest`, and `dest`'s own name.
fn split(dest: &Path) -> Result<(PathBuf, std::ffi::OsString), ExportError> {
    let bad = || ExportError::Io {
        path: dest.to_path_buf(),
        source: std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a directory name (give a path ending in a name, not '.' or '/')",
        ),
    };
    // Follow a link to the directory it names, so that the link itself stays.
    let dest = match std::fs::canonicalize(dest) {
        Ok(p) => p,
        Err(_) => dest.to_path_buf(),
    };
    let name = dest.file_name().ok_or_else(bad)?.to_os_string();
    if name == ".." {
        return Err(bad());
    }
    let parent = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name))
}

impl OutputDir {
    /// Prepares a new set for `dest` (created with its parents if needed): checks that
    /// `dest` is not a file and that its parent can be written, and makes the temporary
    /// directory there.
    pub fn new(dest: &Path) -> Result<OutputDir, ExportError> {
        if dest.exists() && !dest.is_dir() {
            return Err(ExportError::Io {
                path: dest.to_path_buf(),
                source: std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "exists and is not a directory",
                ),
            });
        }
        let (parent, name) = split(dest)?;
        std::fs::create_dir_all(&parent).map_err(io(&parent))?;
        let prefix = format!(".{}.new-", name.to_string_lossy());
        let tmp = tempfile::Builder::new()
            .prefix(&prefix)
            .tempdir_in(&parent)
            .map_err(io(&parent))?;
        // The usual directory mode (the destination's, else 0755 less the umask), not the
        // temporary directory's private 0700.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dest).map_or(0o755, |m| m.permissions().mode() & 0o7777);
            let _ = std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(mode));
        }
        Ok(OutputDir {
            dest: parent.join(name),
            tmp,
            files: Vec::new(),
        })
    }

    /// The destination.
    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// A new file that will be `dest/name` (`name` may hold subdirectories).
    pub fn create(&mut self, name: &str) -> Result<File, ExportError> {
        let path = self.tmp.path().join(name);
        if let Some(p) = path.parent() {
            std::fs::create_dir_all(p).map_err(io(&self.dest.join(name)))?;
        }
        let f = File::create(&path).map_err(io(&self.dest.join(name)))?;
        self.files.push(PathBuf::from(name));
        Ok(f)
    }

    pub fn write_csv(&mut self, name: &str, t: &Table) -> Result<(), ExportError> {
        let path = self.dest.join(name);
        let mut f = self.create(name)?;
        csv::write(t, &mut f).map_err(|msg| ExportError::Format { path, msg })
    }

    pub fn write_parquet(&mut self, name: &str, t: &Table) -> Result<(), ExportError> {
        let path = self.dest.join(name);
        let f = self.create(name)?;
        parquet::write(t, f).map_err(|msg| ExportError::Format { path, msg })
    }

    pub fn write_bytes(&mut self, name: &str, bytes: &[u8]) -> Result<(), ExportError> {
        let path = self.dest.join(name);
        let mut f = self.create(name)?;
        f.write_all(bytes).map_err(io(&path))
    }

    /// Puts the file `src` into the set as `name`: a hard link when it can (no copy), else
    /// a copy.
    pub fn link(&mut self, src: &Path, name: &str) -> Result<(), ExportError> {
        self.link_quietly(src, name)?;
        self.files.push(PathBuf::from(name));
        Ok(())
    }

    fn link_quietly(&mut self, src: &Path, name: &str) -> Result<(), ExportError> {
        let path = self.tmp.path().join(name);
        if let Some(p) = path.parent() {
            std::fs::create_dir_all(p).map_err(io(&self.dest.join(name)))?;
        }
        if std::fs::hard_link(src, &path).is_err() {
            std::fs::copy(src, &path).map_err(io(src))?;
        }
        Ok(())
    }

    /// Carries over the files of the current destination whose path (relative to it)
    /// `keep` accepts, as links.
    pub fn carry(&mut self, keep: &dyn Fn(&Path) -> bool) -> Result<(), ExportError> {
        fn walk(
            root: &Path,
            rel: &Path,
            keep: &dyn Fn(&Path) -> bool,
            out: &mut Vec<PathBuf>,
        ) -> Result<(), ExportError> {
            let dir = root.join(rel);
            let Ok(rd) = std::fs::read_dir(&dir) else {
                return Ok(());
            };
            for e in rd {
                let e = e.map_err(io(&dir))?;
                let r = rel.join(e.file_name());
                let t = e.file_type().map_err(io(&e.path()))?;
                if t.is_dir() {
                    walk(root, &r, keep, out)?;
                } else if keep(&r) {
                    out.push(r);
                }
            }
            Ok(())
        }
        let mut found = Vec::new();
        walk(&self.dest.clone(), Path::new(""), keep, &mut found)?;
        found.sort();
        for r in found {
            let src = self.dest.join(&r);
            let is_link = std::fs::symlink_metadata(&src).is_ok_and(|m| m.file_type().is_symlink());
            #[cfg(unix)]
            if is_link {
                let target = std::fs::read_link(&src).map_err(io(&src))?;
                let path = self.tmp.path().join(&r);
                if let Some(p) = path.parent() {
                    std::fs::create_dir_all(p).map_err(io(&src))?;
                }
                std::os::unix::fs::symlink(target, &path).map_err(io(&src))?;
                continue;
            }
            let _ = is_link;
            self.link_quietly(&src, &r.to_string_lossy())?;
        }
        Ok(())
    }

    /// Makes the new set the destination, in one step, and removes the old one. Returns
    /// the paths of the files written (not those carried over).
    pub fn commit(self) -> Result<Vec<PathBuf>, ExportError> {
        let OutputDir { dest, tmp, files } = self;
        // Everything on the disk before the swap makes it visible.
        sync_tree(tmp.path())?;
        let parent = dest.parent().unwrap_or(Path::new(".")).to_path_buf();
        if !dest.exists() {
            std::fs::rename(tmp.path(), &dest).map_err(io(&dest))?;
            // The directory now is `dest`: nothing is left to remove.
            let _ = tmp.keep();
        } else {
            exchange(tmp.path(), &dest)?;
            // `tmp` now holds the old set; dropping it removes it.
            let old = tmp.path().to_path_buf();
            tmp.close().map_err(io(&old))?;
        }
        if let Ok(d) = File::open(&parent) {
            let _ = d.sync_all();
        }
        let mut written: Vec<PathBuf> = files.iter().map(|f| dest.join(f)).collect();
        written.sort();
        Ok(written)
    }
}

fn sync_tree(dir: &Path) -> Result<(), ExportError> {
    for e in std::fs::read_dir(dir).map_err(io(dir))? {
        let e = e.map_err(io(dir))?;
        let t = e.file_type().map_err(io(&e.path()))?;
        if t.is_dir() {
            sync_tree(&e.path())?;
        } else if t.is_file() {
            File::open(e.path())
                .and_then(|f| f.sync_all())
                .map_err(io(&e.path()))?;
        }
    }
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Swaps two directories. On Linux in one atomic step; elsewhere (or on a file system that
/// cannot), by two renames, between which `b` briefly does not exist.
fn exchange(a: &Path, b: &Path) -> Result<(), ExportError> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        let ca = std::ffi::CString::new(a.as_os_str().as_bytes()).map_err(|e| io(a)(e.into()))?;
        let cb = std::ffi::CString::new(b.as_os_str().as_bytes()).map_err(|e| io(b)(e.into()))?;
        // SAFETY: both are valid NUL-terminated paths; renameat2 only reads them.
        let r = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                ca.as_ptr(),
                libc::AT_FDCWD,
                cb.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        if r == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if !matches!(e.raw_os_error(), Some(libc::EINVAL) | Some(libc::ENOSYS)) {
            return Err(io(b)(e));
        }
    }
    // a -> b by way of a third name.
    let side = a.with_extension("swap");
    std::fs::rename(b, &side).map_err(io(b))?;
    if let Err(e) = std::fs::rename(a, b) {
        let _ = std::fs::rename(&side, b);
        return Err(io(b)(e));
    }
    std::fs::rename(&side, a).map_err(io(a))
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
    fn the_new_set_replaces_the_old_one_whole() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("out");
        std::fs::create_dir(&dest).unwrap();
        std::fs::write(dest.join("games.parquet"), "old run").unwrap();
        std::fs::write(dest.join("summary.csv"), "old").unwrap();
        let mut out = OutputDir::new(&dest).unwrap();
        out.write_bytes("summary.csv", b"new").unwrap();
        out.write_bytes("charts/a.svg", b"<svg/>").unwrap();
        // Nothing is visible before the commit.
        assert_eq!(
            std::fs::read_to_string(dest.join("summary.csv")).unwrap(),
            "old"
        );
        out.commit().unwrap();
        assert_eq!(names(&dest), vec!["charts", "summary.csv"]);
        assert_eq!(
            std::fs::read_to_string(dest.join("summary.csv")).unwrap(),
            "new"
        );
        // No temporary directory is left beside it.
        assert_eq!(names(root.path()), vec!["out"]);
    }

    #[test]
    fn dropping_without_commit_leaves_the_old_set() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("out");
        std::fs::create_dir(&dest).unwrap();
        std::fs::write(dest.join("summary.csv"), "old").unwrap();
        let mut out = OutputDir::new(&dest).unwrap();
        out.write_bytes("summary.csv", b"new").unwrap();
        drop(out);
        assert_eq!(names(root.path()), vec!["out"]);
        assert_eq!(
            std::fs::read_to_string(dest.join("summary.csv")).unwrap(),
            "old"
        );
    }

    #[test]
    fn carries_over_what_it_is_told_and_creates_a_new_destination() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("a/b");
        let mut out = OutputDir::new(&dest).unwrap();
        out.write_bytes("summary.csv", b"x").unwrap();
        out.commit().unwrap();
        let mut out = OutputDir::new(&dest).unwrap();
        out.carry(&|p| p == Path::new("summary.csv")).unwrap();
        out.write_bytes("report.md", b"# r").unwrap();
        let written = out.commit().unwrap();
        assert_eq!(written, vec![dest.join("report.md")]);
        assert_eq!(names(&dest), vec!["report.md", "summary.csv"]);
    }

    #[test]
    fn a_file_in_the_way_is_an_error() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("out");
        std::fs::write(&dest, "a file").unwrap();
        assert!(OutputDir::new(&dest).is_err());
    }
}
