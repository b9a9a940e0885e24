//! `meta.json`: what a run was (version, commit, command, seed, games, decks' coverage).
//!
//! Layer: part of [`crate::job`].

use serde_json::{Value, json};

use super::load;
use super::summary::RunMeta;

/// The short git commit of the working directory's repository, if there is one.
pub fn git_commit() -> Option<String> {
    let out = std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()?;
    let commit = out
        .status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())?;
    // Local changes to the code or data (outputs under reports/ aside) make it "-dirty".
    let dirty = std::process::Command::new("git")
        .args(["diff", "--quiet", "HEAD", "--", ".", ":(exclude)reports"])
        .status()
        .is_ok_and(|s| s.code() == Some(1));
    Some(if dirty {
        format!("{commit}-dirty")
    } else {
        commit
    })
}

pub fn meta(m: &RunMeta<'_>, experiment: Option<&str>, games: &str, configs: usize) -> Value {
    let decks: Vec<Value> = m
        .players
        .iter()
        .map(|d| {
            json!({
                "deck": d.name,
                "hero": m.lib.db.card(d.hero).name,
                "cards": d.cards.len() + 1,
                "not_exact": load::non_exact(m.lib, d),
            })
        })
        .collect();
    json!({
        "tool": "confluence-sim",
        "version": env!("CARGO_PKG_VERSION"),
        "git_commit": git_commit(),
        "created": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "command": command_line(),
        "experiment": experiment,
        "seed": m.seed,
        "games": games,
        "configs": configs,
        "day_cap": m.day_cap,
        "confluence_deck": m.confluence.name,
        "policies": m.policies.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        // The expert's weights when they are not the committed ones (with their content
        // hash, as a run's spec records the files it read).
        "expert_weights": model_file(m.expert_weights),
        "value_weights": model_file(m.value_weights),
        "decks": decks,
        // The what-if edits applied to the decks, in order (see docs/balancing.md).
        "edits": edit_strings(m.edits),
    })
}

/// A model file read instead of the committed one (`--expert-weights`, `--value-weights`)
/// as `meta.json` records it: `{path, blake3}`, or null for the committed one.
pub fn model_file(p: Option<&std::path::Path>) -> Value {
    p.map_or(Value::Null, |p| match super::spec::data_file(p) {
        Ok(f) => json!({"path": f.path, "blake3": f.blake3}),
        Err(_) => json!({"path": p}),
    })
}

/// The what-if edits as `meta.json` records them: `CARD: CHANGE`, in order.
pub fn edit_strings(edits: &[crate::deck::Edit]) -> Vec<String> {
    edits.iter().map(|e| e.to_string()).collect()
}

/// What a command that writes a table (ladder, compare) records in `meta.json`: the tool,
/// its version and commit, when and how it ran (`kind` names the command), and `fields`.
pub fn command_meta(kind: &str, fields: Value) -> Value {
    let mut m = json!({
        "tool": "confluence-sim",
        "kind": kind,
        "version": env!("CARGO_PKG_VERSION"),
        "git_commit": git_commit(),
        "created": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "command": command_line(),
    });
    if let (Some(m), Value::Object(f)) = (m.as_object_mut(), fields) {
        m.extend(f);
    }
    m
}

/// `meta.json`'s bytes: pretty JSON and a final newline.
pub fn to_bytes(m: &Value) -> Vec<u8> {
    (serde_json::to_string_pretty(m).expect("serializes") + "\n").into_bytes()
}

/// The command line, with the program as its bare name (not the path it was run from).
pub fn command_line() -> String {
    let mut args = std::env::args_os().map(|a| a.to_string_lossy().into_owned());
    let program = args
        .next()
        .map(|p| {
            std::path::Path::new(&p)
                .file_name()
                .map_or(p.clone(), |f| f.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "confluence-sim".into());
    std::iter::once(program)
        .chain(args)
        .map(|a| super::checkpoint::shell_quoted(&a))
        .collect::<Vec<_>>()
        .join(" ")
}
