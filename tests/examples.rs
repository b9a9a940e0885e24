//! The committed examples under reports/ are what the documentation says: each one's
//! `meta.json` names a clean commit (no local changes when it was made) and the exact
//! command that the documentation (README.md or a page of docs/) gives for it.

mod common;
use common::root;

/// Examples not regenerated yet at their current schema (no meta.json): each must lack
/// meta.json, so regenerating one fails this test until it leaves the list.
const PENDING: [&str; 0] = [];

/// A command as the documentation may write it, on one line: line continuations joined,
/// spaces collapsed, and `cargo run --release --` read as `confluence-sim`.
fn normalise(s: &str) -> String {
    s.replace("\\\n", " ")
        .replace("cargo run --release --", "confluence-sim")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every command line shown in README.md and docs/*.md (code blocks and inline code,
/// each line that starts with `confluence-sim` or `cargo run --release --`), normalised.
fn documented_commands() -> Vec<String> {
    let mut files = vec![root().join("README.md")];
    if let Ok(rd) = std::fs::read_dir(root().join("docs")) {
        let mut pages: Vec<_> = rd
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        pages.sort();
        files.extend(pages);
    }
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        // Join continued lines first, then cut comments off.
        let joined = text.replace("\\\n", " ");
        for line in joined.lines() {
            for piece in line.split('`') {
                let piece = piece.split("  #").next().unwrap_or(piece).trim();
                let n = normalise(piece);
                if n.starts_with("confluence-sim ") {
                    out.push(n);
                }
            }
        }
    }
    out
}

fn is_clean_commit(c: &str) -> bool {
    c.len() >= 7 && c.chars().all(|ch| ch.is_ascii_hexdigit())
}

#[test]
fn each_committed_example_names_a_clean_commit_and_a_documented_command() {
    let documented = documented_commands();
    let mut dirs: Vec<String> = std::fs::read_dir(root().join("reports"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 6, "{dirs:?}");
    // A directory without meta.json groups examples of one kind, one per subdirectory
    // (reports/optimize-hour/<starter>/): each of those is checked as an example.
    let mut examples = Vec::new();
    for d in dirs {
        let path = root().join("reports").join(&d);
        if path.join("meta.json").exists() || PENDING.contains(&d.as_str()) {
            examples.push(d);
            continue;
        }
        let mut subs: Vec<String> = std::fs::read_dir(&path)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .map(|e| format!("{d}/{}", e.file_name().to_string_lossy()))
            .collect();
        assert!(
            !subs.is_empty(),
            "reports/{d} has neither meta.json nor examples"
        );
        subs.sort();
        examples.extend(subs);
    }
    for d in &examples {
        let meta = root().join("reports").join(d).join("meta.json");
        if PENDING.contains(&d.as_str()) {
            assert!(
                !meta.exists(),
                "reports/{d} has a meta.json now: take it off PENDING"
            );
            continue;
        }
        let m: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(&meta)
                .unwrap_or_else(|e| panic!("reports/{d}/meta.json: {e}")),
        )
        .unwrap();
        let commit = m["git_commit"].as_str().unwrap_or("");
        assert!(
            is_clean_commit(commit),
            "reports/{d}/meta.json: git_commit {commit:?} is not a clean commit"
        );
        let command = normalise(m["command"].as_str().unwrap_or(""));
        assert!(
            documented.contains(&command),
            "reports/{d}/meta.json: the command {command:?} is not given in README.md or docs/"
        );
    }
}

#[test]
fn the_check_reads_commands_as_the_documentation_writes_them() {
    assert_eq!(
        normalise("cargo run --release -- run --experiment x.toml"),
        "confluence-sim run --experiment x.toml"
    );
    assert_eq!(
        normalise("confluence-sim compare --policy a \\\n  --policy b"),
        "confluence-sim compare --policy a --policy b"
    );
    assert!(is_clean_commit("4f46e7f"));
    assert!(!is_clean_commit("5273881-dirty"));
    assert!(!is_clean_commit(""));
}
