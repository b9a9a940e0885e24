//! The project keeps card facts, never the publisher's card texts: no file of the
//! repository may hold a run of 8 or more consecutive words of a real card text
//! (`../shared/data/altered-cards.jsonl`, when present). Short quotes of a few words, where a
//! ruling hinges on the wording, stay possible.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use regex::Regex;

/// Consecutive words that make a quote.
const RUN: usize = 8;

fn words(text: &str, re: &Regex) -> Vec<String> {
    re.find_iter(text)
        .map(|m| m.as_str().to_lowercase())
        .collect()
}

fn runs(text: &str, re: &Regex) -> Vec<String> {
    let w = words(text, re);
    w.windows(RUN).map(|r| r.join(" ")).collect()
}

/// The repository's own text files (build outputs and fuzz inputs left out).
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if !matches!(name.as_str(), "target" | "corpus" | "artifacts") && !name.starts_with('.')
            {
                files(&p, out);
            }
        } else if [".rs", ".toml", ".md", ".py", ".sh", ".txt"]
            .iter()
            .any(|x| name.ends_with(x))
        {
            out.push(p);
        }
    }
}

#[test]
fn no_file_quotes_a_card_text() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let jsonl = root.join("../shared/data/altered-cards.jsonl");
    let Ok(data) = std::fs::read_to_string(&jsonl) else {
        eprintln!("skipped: {} is absent", jsonl.display());
        return;
    };
    let re = Regex::new(r"[\w{}']+").unwrap();
    let mut quotes: HashSet<String> = HashSet::new();
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        for key in ["main_effect_en", "echo_effect_en"] {
            if let Some(t) = v[key].as_str() {
                quotes.extend(runs(t, &re));
            }
        }
    }
    assert!(
        quotes.len() > 1000,
        "too few card texts read: the check proves nothing"
    );
    let mut list = Vec::new();
    for dir in [
        "src", "tests", "decks", "scripts", "benches", "fuzz", "docs", "examples",
    ] {
        files(&root.join(dir), &mut list);
    }
    for f in ["README.md", "RULES.md", "CHANGELOG.md", "Cargo.toml"] {
        list.push(root.join(f));
    }
    let mut found = Vec::new();
    for f in &list {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if let Some(q) = runs(&text, &re).into_iter().find(|r| quotes.contains(r)) {
            found.push(format!(
                "{}: \"{q}\"",
                f.strip_prefix(root).unwrap_or(f).display()
            ));
        }
    }
    assert!(
        found.is_empty(),
        "card texts quoted (say it in our own words):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_catches_a_quote() {
    let re = Regex::new(r"[\w{}']+").unwrap();
    let text = "Summon the seven silver owls from the northern tower at dawn";
    let quotes: HashSet<String> = runs(text, &re).into_iter().collect();
    let doc = "// it will summon the seven silver owls from the northern tower at dawn, twice";
    assert!(runs(doc, &re).iter().any(|r| quotes.contains(r)));
    assert!(
        !runs("summon the seven silver owls", &re)
            .iter()
            .any(|r| quotes.contains(r))
    );
}
