//! The data files the binary holds, so that an installed binary runs from any directory:
//! the card pool and its encodings (`decks/cards`), the reference Confluence deck, the six
//! starter decks, `decks/boosters.toml` and the example experiments (the models are held by
//! [`crate::policy`]). They are the same bytes as the repository's files at build time
//! (a test checks it), so a default reads the same data in the repository and elsewhere.
//!
//! A default (no flag) is the built-in copy, written `builtin:decks/...`. A path given on
//! the command line is read from disk; one under `decks/` that is not on disk (run outside
//! the repository) is the built-in copy of that name, so the README's commands run as
//! written anywhere. Built-in data are shown by their name in the repository
//! (`decks/cards/pool.csv`), as the same files read from the repository root are.
//!
//! Layer: part of [`crate::job`].

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

/// How a path names a built-in file or directory.
pub const PREFIX: &str = "builtin:";

/// The default card directory: the built-in `decks/cards`.
pub const CARDS: &str = "builtin:decks/cards";
/// The default Confluence deck.
pub const CONFLUENCE: &str = "builtin:decks/confluence/reference.toml";
/// The default booster slots of `booster-war`.
pub const BOOSTERS: &str = "builtin:decks/boosters.toml";

macro_rules! files {
    ($($p:literal),* $(,)?) => {
        &[$(($p, include_str!(concat!("../../", $p)))),*]
    };
}

/// Every built-in file: its name in the repository and its text.
pub static FILES: &[(&str, &str)] = files![
    "decks/boosters.toml",
    "decks/cards/abilities/AX.toml",
    "decks/cards/abilities/BR.toml",
    "decks/cards/abilities/LY.toml",
    "decks/cards/abilities/MU.toml",
    "decks/cards/abilities/NE.toml",
    "decks/cards/abilities/OR.toml",
    "decks/cards/abilities/YZ.toml",
    "decks/cards/head_to_head_gaps.toml",
    "decks/cards/pool.csv",
    "decks/cards/reader_exceptions.toml",
    "decks/cards/verified.txt",
    "decks/confluence/reference.toml",
    "decks/experiments/precision.toml",
    "decks/experiments/rare_impact.toml",
    "decks/experiments/starter_decks.toml",
    "decks/experiments/starter_decks_fastsearch.toml",
    "decks/player/AX_sierra_oddball.txt",
    "decks/player/BR_kojo_booda.txt",
    "decks/player/LY_nevenka_blotch.txt",
    "decks/player/MU_teija_nauraa.txt",
    "decks/player/OR_sigismar_wingspan.txt",
    "decks/player/YZ_akesha_taru.txt",
];

/// Where a path's data come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A file or directory on disk.
    Disk(PathBuf),
    /// A built-in file or directory, by its name in the repository (`decks/cards`).
    Builtin(String),
}

/// A relative path without `.` and `..`, with `/` between its parts; `None` for an
/// absolute path or one that leaves its directory.
fn normal(p: &Path) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::Normal(s) => parts.push(s.to_str()?),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The text of the built-in file `name`.
pub fn file(name: &str) -> Option<&'static str> {
    FILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The built-in files under directory `name`, as (path inside it, text), sorted by path.
pub fn dir(name: &str) -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&'static str, &'static str)> = FILES
        .iter()
        .filter_map(|(n, t)| {
            n.strip_prefix(name)
                .and_then(|r| r.strip_prefix('/'))
                .map(|r| (r, *t))
        })
        .collect();
    out.sort_by(|a, b| Path::new(a.0).cmp(Path::new(b.0)));
    out
}

fn known(name: &str) -> bool {
    file(name).is_some() || !dir(name).is_empty()
}

/// The built-in file or directory a path names (`builtin:NAME` or NAME), whatever is on
/// disk.
pub fn name_of(path: &Path) -> Option<String> {
    let s = path.to_str()?;
    let n = normal(Path::new(s.strip_prefix(PREFIX).unwrap_or(s)))?;
    known(&n).then_some(n)
}

/// Where the data of `path` come from: `builtin:NAME` is built in; a path on disk is read
/// from disk; a relative path not on disk that names a built-in file or directory is built
/// in; anything else is the disk's (and reading it says it is missing).
pub fn locate(path: &Path) -> Source {
    if let Some(rest) = path.to_str().and_then(|s| s.strip_prefix(PREFIX)) {
        return Source::Builtin(normal(Path::new(rest)).unwrap_or_else(|| rest.to_string()));
    }
    if path.exists() {
        return Source::Disk(path.to_path_buf());
    }
    match normal(path) {
        Some(n) if known(&n) => Source::Builtin(n),
        _ => Source::Disk(path.to_path_buf()),
    }
}

/// `builtin:NAME` for a path that [`locate`]s to a built-in copy, else the path itself (the
/// form a run's description records, so that it reads the same data when resumed).
pub fn recorded(path: &Path) -> PathBuf {
    match locate(path) {
        Source::Builtin(n) => PathBuf::from(format!("{PREFIX}{n}")),
        Source::Disk(p) => p,
    }
}

/// A path as outputs show it: a built-in one by its name in the repository.
pub fn shown(path: &Path) -> String {
    match path.to_str().and_then(|s| s.strip_prefix(PREFIX)) {
        Some(rest) => rest.to_string(),
        None => path.display().to_string(),
    }
}

/// The names of the built-in files, for an error about one that is not.
fn listing() -> String {
    FILES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

/// The error of a built-in name the binary does not hold.
pub fn missing(name: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::NotFound,
        format!(
            "{PREFIX}{name}: the binary holds no such file (it holds {})",
            listing()
        ),
    )
}

/// The text of a file, from disk or built in, and the path to show for it.
pub fn read(path: &Path) -> std::io::Result<(PathBuf, Cow<'static, str>)> {
    match locate(path) {
        Source::Disk(p) => {
            let t = std::fs::read_to_string(&p)?;
            Ok((p, Cow::Owned(t)))
        }
        Source::Builtin(n) => match file(&n) {
            Some(t) => Ok((PathBuf::from(n), Cow::Borrowed(t))),
            None => Err(missing(&n)),
        },
    }
}

/// Whether a path names data, on disk or built in.
pub fn exists(path: &Path) -> bool {
    match locate(path) {
        Source::Disk(p) => p.exists(),
        Source::Builtin(n) => known(&n),
    }
}

/// The content hash of a built-in file, or of every file under a built-in directory, as
/// [`super::spec::data_file`] hashes the same files on disk.
pub fn hash(name: &str) -> Option<blake3::Hash> {
    if let Some(t) = file(name) {
        return Some(blake3::hash(t.as_bytes()));
    }
    let files = dir(name);
    if files.is_empty() {
        return None;
    }
    let mut h = blake3::Hasher::new();
    for (rel, text) in files {
        h.update(&(rel.len() as u64).to_le_bytes());
        h.update(rel.as_bytes());
        h.update(&(text.len() as u64).to_le_bytes());
        h.update(text.as_bytes());
    }
    Some(h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }

    #[test]
    fn the_built_in_files_are_the_repositorys_data_byte_for_byte() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut on_disk = Vec::new();
        walk(&root.join("decks"), &mut on_disk);
        let mut names: Vec<String> = on_disk
            .iter()
            .map(|p| {
                p.strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/")
            })
            // Documentation changes no result; the models are built in by `policy`.
            .filter(|n| !n.ends_with(".md") && !n.starts_with("decks/policies/"))
            .collect();
        names.sort();
        let held: Vec<String> = FILES.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(held, names, "FILES must list every data file under decks/");
        for (n, t) in FILES {
            assert_eq!(std::fs::read_to_string(root.join(n)).unwrap(), *t, "{n}");
        }
    }

    #[test]
    fn a_built_in_directory_hashes_as_the_same_directory_on_disk() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for name in [
            "decks/cards",
            "decks/player",
            "decks/confluence/reference.toml",
        ] {
            let disk = super::super::spec::data_file(&root.join(name)).unwrap();
            assert_eq!(
                hash(name).unwrap().to_hex().to_string(),
                disk.blake3,
                "{name}"
            );
        }
    }

    #[test]
    fn paths_locate_on_disk_first_then_built_in() {
        assert_eq!(
            locate(Path::new(CARDS)),
            Source::Builtin("decks/cards".into())
        );
        assert_eq!(
            locate(Path::new("builtin:./decks/player/../cards")),
            Source::Builtin("decks/cards".into())
        );
        let nowhere = Path::new("no/such/dir/decks/cards");
        assert_eq!(locate(nowhere), Source::Disk(nowhere.into()));
        assert_eq!(
            shown(Path::new(CONFLUENCE)),
            "decks/confluence/reference.toml"
        );
        assert!(read(Path::new("builtin:decks/nope.toml")).is_err());
        let (p, t) = read(Path::new("builtin:decks/player/BR_kojo_booda.txt")).unwrap();
        assert_eq!(p, Path::new("decks/player/BR_kojo_booda.txt"));
        assert!(t.contains("Kojo"));
    }
}
