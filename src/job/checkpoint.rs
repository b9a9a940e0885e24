//! What makes a long command resumable and shardable, shared by `run`, `matchup` and
//! `booster-war`: the checkpoint in its output directory (the run's description,
//! `checkpoint/run.json`, beside its state), the lock that keeps two processes off one
//! checkpoint, the signals that stop a run cleanly, and a finished shard's files.
//!
//! A description is JSON; a head-to-head command's has a `kind` (its command's name), a
//! `run`'s has none.
//!
//! Layer: part of [`crate::job`].

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use anyhow::{Context, Result};
use serde_json::Value;

use super::shard::Shard;
use crate::export::OutputDir;
use crate::sim::state;

/// The checkpoint of an unfinished run, inside its output directory.
pub const CHECKPOINT: &str = "checkpoint";

/// The description of the run a checkpoint holds, inside it.
pub const SPEC: &str = "run.json";

/// A run stopped by a signal after saving its checkpoint; the process exits with 128 + the
/// signal's number.
#[derive(Debug)]
pub struct Interrupted(pub i32);

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "interrupted by signal {}", self.0)
    }
}

impl std::error::Error for Interrupted {}

/// The command that wrote a run's description: its `kind`, or `run`.
pub fn kind_of(spec: &Value) -> &str {
    spec.get("kind").and_then(Value::as_str).unwrap_or("run")
}

/// The shard a description describes, if any.
pub fn shard_of(spec: &Value) -> Option<Shard> {
    spec.get("shard")
        .and_then(|v| serde_json::from_value(v.clone()).ok())
}

/// Which shard a directory's `shard.json` says it holds, in words ("shard 1/4").
pub fn which_shard(dir: &Path) -> String {
    read_spec(&dir.join("shard.json"))
        .ok()
        .as_ref()
        .and_then(shard_of)
        .map_or_else(|| "a shard".to_string(), |s| format!("shard {s}"))
}

/// Reads a description (a checkpoint's `run.json`, a shard's `shard.json`) as JSON.
pub fn read_spec(path: &Path) -> Result<Value> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
    serde_json::from_str(&text).with_context(|| {
        format!(
            "{}: not a run description written by confluence-sim {}",
            path.display(),
            env!("CARGO_PKG_VERSION")
        )
    })
}

/// The command that continues the unfinished run in `out`, as the messages say it.
pub fn resume_command(out: &Path) -> String {
    let kind = read_spec(&out.join(CHECKPOINT).join(SPEC))
        .map(|v| kind_of(&v).to_string())
        .unwrap_or_else(|_| "run".into());
    format!(
        "confluence-sim {kind} --resume {}",
        shell_quoted(&out.display().to_string())
    )
}

/// The error of a run that failed after taking its checkpoint in `out` (a full disk, a write
/// refused): the error, then that the checkpoint keeps the finished games and the command
/// that continues the run. An interruption, which said so itself, passes through, and so
/// does any error when no checkpoint is there.
pub fn kept(e: anyhow::Error, out: &Path) -> anyhow::Error {
    let ck = out.join(CHECKPOINT);
    if e.downcast_ref::<Interrupted>().is_some() || !ck.join(SPEC).is_file() {
        return e;
    }
    anyhow::anyhow!(
        "{}
(the checkpoint in {} keeps the finished games; once the cause is fixed, e.g. space freed on a full disk, continue with `{}`)",
        super::error::message(&e),
        ck.display(),
        resume_command(out)
    )
}

/// Writes a description as `path`, by way of a temporary name.
pub fn write_spec(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension("json.part");
    std::fs::write(&tmp, format!("{text}\n")).with_context(|| format!("{}", tmp.display()))?;
    std::fs::File::open(&tmp)
        .and_then(|f| f.sync_all())
        .with_context(|| format!("{}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("{}", path.display()))?;
    Ok(())
}

/// The first setting in which two descriptions differ, as "name: a vs b" (a setting
/// inside another named by its path, "settings.day_cap"), or `None`: the command that
/// wrote them first, then their format, version and seed (the settings others follow
/// from: the seed draws the random subsets, so two seeds give other mixes too, and the
/// seed is the cause to name), then the rest in order.
pub fn difference(a: &Value, b: &Value, ignore_shard: bool) -> Option<String> {
    if kind_of(a) != kind_of(b) {
        return Some(format!("kind: {} vs {}", kind_of(a), kind_of(b)));
    }
    let skip: &[&str] = if ignore_shard { &["shard"] } else { &[] };
    first_difference(a, b, "", skip)
}

fn first_difference(a: &Value, b: &Value, path: &str, skip: &[&str]) -> Option<String> {
    let name = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            const FIRST: [&str; 3] = ["format", "version", "seed"];
            // Every key of either side: a setting that one side leaves out (as a spec
            // leaves out an empty list of edits) is compared with the other's as empty.
            let keys = FIRST
                .iter()
                .copied()
                .filter(|k| a.contains_key(*k) || b.contains_key(*k))
                .chain(a.keys().map(String::as_str).filter(|k| !FIRST.contains(k)))
                .chain(
                    b.keys()
                        .map(String::as_str)
                        .filter(|k| !FIRST.contains(k) && !a.contains_key(*k)),
                );
            for k in keys.filter(|k| !skip.contains(k)) {
                let (va, vb) = (a.get(k), b.get(k));
                let empty = |v: &Value| match v {
                    Value::Null => true,
                    Value::Array(x) => x.is_empty(),
                    Value::Object(x) => x.is_empty(),
                    _ => false,
                };
                match (va, vb) {
                    (Some(x), None) | (None, Some(x)) if empty(x) => continue,
                    _ => {}
                }
                let null = Value::Null;
                let (va, vb) = (va.unwrap_or(&null), vb.unwrap_or(&null));
                if let Some(d) = first_difference(va, vb, &name(k), &[]) {
                    return Some(d);
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() && !path.is_empty() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (x, y))| first_difference(x, y, &format!("{path}[{i}]"), &[])),
        _ if a == b => None,
        _ => {
            let short = |v: &Value| {
                let s = v.to_string();
                if s.chars().count() > 120 {
                    format!("{}...", s.chars().take(117).collect::<String>())
                } else {
                    s
                }
            };
            Some(format!("{path}: {} vs {}", short(a), short(b)))
        }
    }
}

/// Raised on SIGINT or SIGTERM, with the signal's number; a second SIGINT ends the
/// process at once.
fn stop_on_signals() -> Result<(Arc<AtomicBool>, Arc<AtomicUsize>)> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let stop = Arc::new(AtomicBool::new(false));
    let which = Arc::new(AtomicUsize::new(0));
    signal_hook::flag::register_conditional_shutdown(SIGINT, 130, Arc::clone(&stop))
        .context("installing the SIGINT handler")?;
    for sig in [SIGINT, SIGTERM] {
        signal_hook::flag::register_usize(sig, Arc::clone(&which), sig as usize)
            .context("installing a signal handler")?;
        signal_hook::flag::register(sig, Arc::clone(&stop))
            .context("installing a signal handler")?;
    }
    Ok((stop, which))
}

/// Takes the checkpoint's lock for as long as the file is open, so that two runs never
/// write the same checkpoint (on file systems with `flock`).
fn lock(ck: &Path) -> Result<std::fs::File> {
    let p = ck.join("lock");
    let f = std::fs::File::create(&p).with_context(|| format!("{}", p.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: flock on a file descriptor we own.
        if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            anyhow::bail!(
                "{}: another confluence-sim run is writing this checkpoint; wait for it, or stop it and use `confluence-sim {} --resume`",
                ck.display(),
                read_spec(&ck.join(SPEC)).map_or("run".to_string(), |v| kind_of(&v).to_string())
            );
        }
    }
    Ok(f)
}

/// A checkpoint taken for one run: its directory, held locked, and the flag a signal
/// raises.
pub struct Checkpoint {
    pub dir: PathBuf,
    pub stop: Arc<AtomicBool>,
    which: Arc<AtomicUsize>,
    _lock: std::fs::File,
}

impl Checkpoint {
    /// Takes `out`'s checkpoint for the run described by `spec` (its JSON text, as it is
    /// written): an unfinished run with the same description continues, one with other
    /// settings is refused unless `force` (then it starts over), and a new one starts.
    pub fn take(out: &Path, spec: &str, force: bool) -> Result<Checkpoint> {
        let ck = out.join(CHECKPOINT);
        let spec_path = ck.join(SPEC);
        if spec_path.exists() {
            let old = read_spec(&spec_path)?;
            let new: Value = serde_json::from_str(spec).expect("a description is JSON");
            match difference(&old, &new, false) {
                Some(d) if !force => anyhow::bail!(
                    "--out {}: it holds an unfinished run with other settings ({d}); continue that one with `{}`, or add --force to start over (its games are lost)",
                    out.display(),
                    resume_command(out),
                ),
                Some(_) => {
                    // Not while another run writes it.
                    drop(lock(&ck)?);
                    std::fs::remove_dir_all(&ck).with_context(|| format!("{}", ck.display()))?;
                    std::fs::create_dir_all(&ck)
                        .with_context(|| format!("--out {}", out.display()))?;
                    write_spec(&spec_path, spec)?;
                }
                None => {}
            }
        } else {
            if ck.exists() {
                // A checkpoint without its description never recorded a unit.
                std::fs::remove_dir_all(&ck).with_context(|| format!("{}", ck.display()))?;
            }
            std::fs::create_dir_all(&ck).with_context(|| format!("--out {}", out.display()))?;
            write_spec(&spec_path, spec)?;
        }
        let lock = lock(&ck)?;
        let (stop, which) = stop_on_signals()?;
        Ok(Checkpoint {
            dir: ck,
            stop,
            which,
            _lock: lock,
        })
    }

    /// The error a run stopped by a signal ends with, after saying what it kept and how
    /// to continue (`games`: the games its checkpoint holds).
    pub fn interrupted(&self, out: &Path, games: u64) -> anyhow::Error {
        eprintln!(
            "confluence-sim: interrupted; kept {games} finished games in {}; continue with `{}`",
            self.dir.display(),
            resume_command(out)
        );
        Interrupted(self.which.load(Ordering::Relaxed) as i32).into()
    }

    /// A finished shard's files: its description (`shard.json`) and its state, linked
    /// from the checkpoint.
    pub fn write_shard(&self, out: &mut OutputDir, spec: &str, per_game: bool) -> Result<()> {
        out.write_bytes("shard.json", format!("{spec}\n").as_bytes())?;
        out.link(&self.dir.join(state::LOG), state::LOG)?;
        if per_game {
            out.link(&self.dir.join(state::ROWS), state::ROWS)?;
        }
        Ok(())
    }
}

/// An argument as a POSIX shell reads it back: as it is when every character is one the
/// shell leaves alone, else in single quotes (a `'` inside as `'\''`), so that a command
/// line shown in meta.json and the report runs again as shown
/// (`--edit 'Gloom Wisp: forest -1'`).
pub fn shell_quoted(a: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c);
    if !a.is_empty() && a.chars().all(plain) {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{difference, shell_quoted};

    #[test]
    fn a_setting_one_side_leaves_out_is_compared_both_ways() {
        let plain = json!({"kind": "run", "seed": 1});
        let edited = json!({"kind": "run", "seed": 1, "edits": ["Gloom Wisp: forest -1"]});
        assert!(difference(&plain, &edited, true).unwrap().contains("edits"));
        assert!(difference(&edited, &plain, true).unwrap().contains("edits"));
        // A missing list equals an empty one.
        let empty = json!({"kind": "run", "seed": 1, "edits": []});
        assert_eq!(difference(&plain, &empty, true), None);
        assert_eq!(difference(&empty, &plain, true), None);
    }

    #[test]
    fn arguments_are_quoted_only_where_a_shell_would_read_them_otherwise() {
        for plain in [
            "run",
            "--games",
            "search:horizon=0,rollouts=192",
            "decks/x.txt",
            "-1",
        ] {
            assert_eq!(shell_quoted(plain), plain);
        }
        assert_eq!(
            shell_quoted("Gloom Wisp: forest -1"),
            "'Gloom Wisp: forest -1'"
        );
        assert_eq!(shell_quoted(""), "''");
        assert_eq!(shell_quoted("it's"), "'it'\\''s'");
        assert_eq!(shell_quoted("$HOME"), "'$HOME'");
        assert_eq!(shell_quoted("a*"), "'a*'");
    }
}
