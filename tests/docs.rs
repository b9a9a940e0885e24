//! The documentation holds together: every relative Markdown link in README.md, CHANGELOG.md,
//! RULES.md and docs/*.md leads to a file that exists (and, with a `#anchor` into a Markdown
//! file, to one of its headings, by GitHub's anchor rules), and every command the docs show
//! in a code block (`confluence-sim CMD ...` or `cargo run --release -- CMD ...`) uses only
//! long flags that `confluence-sim CMD --help` lists. Pages added to docs/ or docs/studies/
//! later are checked too (the directories are read, not listed here). Each check is also run on a broken example,
//! so that it is known to fail when it should.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, CHANGELOG.md, RULES.md and every docs/*.md and docs/studies/*.md (sorted).
fn checked_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["README.md", "CHANGELOG.md", "RULES.md"]
        .iter()
        .map(|f| root().join(f))
        .collect();
    files.extend(doc_pages());
    files
}

/// Every docs/*.md and docs/studies/*.md (the dated study pages the policy guide links to).
fn doc_pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = ["docs", "docs/studies"]
        .iter()
        .flat_map(|d| {
            std::fs::read_dir(root().join(d))
                .unwrap_or_else(|e| panic!("{d}/: {e}"))
                .map(|e| e.unwrap().path())
        })
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages
}

/// The text's lines, each with whether it lies inside a fenced code block (the fence lines
/// themselves count as inside).
fn fenced(text: &str) -> Vec<(bool, &str)> {
    let mut fence: Option<&str> = None;
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        let marker = if t.starts_with("```") {
            Some("```")
        } else if t.starts_with("~~~") {
            Some("~~~")
        } else {
            None
        };
        match (fence, marker) {
            (None, Some(m)) => {
                fence = Some(m);
                out.push((true, line));
            }
            (Some(f), Some(m)) if f == m => {
                fence = None;
                out.push((true, line));
            }
            (Some(_), _) => out.push((true, line)),
            (None, None) => out.push((false, line)),
        }
    }
    out
}

/// A heading's anchor as GitHub makes it: the heading's text (inline code, emphasis and link
/// targets reduced to their text), lower-cased, with every character other than a letter,
/// a digit, a space, a hyphen or an underscore removed and each space made a hyphen.
fn slug(heading: &str) -> String {
    // `[text](target)` -> `text`
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|c| open + c) else {
            break;
        };
        let Some(end) = rest[close..].find(')').map(|e| close + e) else {
            break;
        };
        text.push_str(&rest[..open]);
        text.push_str(&rest[open + 1..close]);
        rest = &rest[end + 1..];
    }
    text.push_str(rest);
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor of a Markdown text: its headings' slugs, a repeated slug numbered `-1`,
/// `-2`, ... as GitHub does.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (in_code, line) in fenced(text) {
        if in_code {
            continue;
        }
        let t = line.trim_start();
        let hashes = t.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || hashes > 6 || !t[hashes..].starts_with(' ') {
            continue;
        }
        let s = slug(t[hashes..].trim().trim_end_matches('#').trim());
        let n = seen.entry(s.clone()).or_insert(0);
        out.insert(if *n == 0 {
            s.clone()
        } else {
            format!("{s}-{n}")
        });
        *n += 1;
    }
    out
}

/// The link targets of a Markdown text outside code (fenced blocks and inline code), with
/// their line numbers: `[text](target)` and `![alt](target)`.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, (in_code, line)) in fenced(text).into_iter().enumerate() {
        if in_code {
            continue;
        }
        // Drop inline code spans.
        let mut plain = String::new();
        for (k, part) in line.split('`').enumerate() {
            if k % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            out.push((i + 1, target.to_string()));
            rest = &after[end..];
        }
    }
    out
}

/// What is wrong with the relative links of `file` (whose text is `text`): one message per
/// link that leads nowhere.
fn broken_links(file: &Path, text: &str) -> Vec<String> {
    let dir = file.parent().unwrap();
    let mut errors = Vec::new();
    for (line, target) in links(text) {
        if target.is_empty()
            || target.contains("://")
            || target.starts_with("mailto:")
            || target.starts_with('<')
        {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target.as_str(), None),
        };
        let resolved = if path.is_empty() {
            file.to_path_buf()
        } else {
            dir.join(path)
        };
        let at = format!("{}:{line}: link `{target}`", file.display());
        if !resolved.exists() {
            errors.push(format!("{at}: no file {}", resolved.display()));
            continue;
        }
        if let Some(anchor) = anchor
            && resolved.extension().is_some_and(|e| e == "md")
        {
            let target_text = std::fs::read_to_string(&resolved).unwrap();
            if !anchors(&target_text).contains(anchor) {
                errors.push(format!(
                    "{at}: no heading with anchor #{anchor} in {}",
                    resolved.display()
                ));
            }
        }
    }
    errors
}

/// The commands a Markdown text shows in its code blocks, as (line, words after the program
/// name): lines starting `confluence-sim ` or `cargo run --release -- ` (after an optional
/// `$ ` prompt), with `\` continuations joined and a trailing `# comment` dropped.
fn documented_commands(text: &str) -> Vec<(usize, Vec<String>)> {
    let lines = fenced(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (in_code, line) = lines[i];
        let first = i + 1;
        i += 1;
        if !in_code {
            continue;
        }
        let mut full = line.trim().trim_start_matches("$ ").to_string();
        while full.ends_with('\\') && i < lines.len() {
            full.pop();
            full.push(' ');
            full.push_str(lines[i].1.trim());
            i += 1;
        }
        let rest = if let Some(r) = full.strip_prefix("confluence-sim ") {
            r
        } else if let Some(r) = full.strip_prefix("cargo run --release -- ") {
            r
        } else {
            continue;
        };
        let rest = match rest.find(" #") {
            Some(c) => &rest[..c],
            None => rest,
        };
        let words: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
        if !words.is_empty() {
            out.push((first, words));
        }
    }
    out
}

/// `confluence-sim ARGS --help`, or None when it fails (an unknown command).
fn help(args: &[&str]) -> Option<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_confluence-sim"))
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Whether `help` lists `flag` (`--games`, not as the start of `--games-x`).
fn lists_flag(help: &str, flag: &str) -> bool {
    help.match_indices(flag).any(|(at, _)| {
        let next = help[at + flag.len()..].chars().next();
        !matches!(next, Some(c) if c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

/// What is wrong with the commands `file` shows: an unknown command, or a long flag its
/// `--help` does not list. `helps` caches the help texts by command.
fn bad_flags(
    file: &Path,
    text: &str,
    helps: &mut BTreeMap<Vec<String>, Option<String>>,
) -> Vec<String> {
    let mut errors = Vec::new();
    for (line, words) in documented_commands(text) {
        let at = format!("{}:{line}: `{}`", file.display(), words.join(" "));
        // The command, with its subcommand when it has any (`cards coverage`).
        let mut command = vec![words[0].clone()];
        let top = helps
            .entry(command.clone())
            .or_insert_with(|| help(&[words[0].as_str()]))
            .clone();
        let Some(top) = top else {
            errors.push(format!("{at}: `{}` is not a command", words[0]));
            continue;
        };
        let mut text = top.clone();
        if top.contains("\nCommands:")
            && let Some(sub) = words.get(1).filter(|w| !w.starts_with('-'))
        {
            command.push(sub.clone());
            let args: Vec<&str> = command.iter().map(String::as_str).collect();
            match helps
                .entry(command.clone())
                .or_insert_with(|| help(&args))
                .clone()
            {
                Some(sub_help) => text.push_str(&sub_help),
                None => {
                    errors.push(format!("{at}: `{}` is not a command", command.join(" ")));
                    continue;
                }
            }
        }
        for word in &words[command.len()..] {
            let Some(flag) = word.strip_prefix("--").map(|_| word.as_str()) else {
                continue;
            };
            let flag = flag.split('=').next().unwrap();
            if flag.len() > 2 && !lists_flag(&text, flag) {
                errors.push(format!(
                    "{at}: `{}` --help lists no {flag}",
                    command.join(" ")
                ));
            }
        }
    }
    errors
}

#[test]
fn every_relative_link_leads_to_a_file_and_heading() {
    let files = checked_files();
    assert!(files.len() > 4, "docs/ holds the guide's pages");
    let mut errors = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
            panic!("{}: {e}", file.display());
        });
        errors.extend(broken_links(file, &text));
    }
    assert!(errors.is_empty(), "broken links:\n{}", errors.join("\n"));
}

#[test]
fn every_documented_command_uses_flags_its_help_lists() {
    let mut helps = BTreeMap::new();
    let mut errors = Vec::new();
    let mut commands = 0;
    let mut files = vec![root().join("README.md")];
    files.extend(doc_pages());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        commands += documented_commands(&text).len();
        errors.extend(bad_flags(file, &text, &mut helps));
    }
    assert!(commands > 20, "the docs show commands ({commands} found)");
    assert!(
        errors.is_empty(),
        "flags the commands do not have:\n{}",
        errors.join("\n")
    );
}

#[test]
fn github_anchors() {
    assert_eq!(slug("Running on a cluster"), "running-on-a-cluster");
    assert_eq!(
        slug("Hardening: bad input, fuzzing and the soak"),
        "hardening-bad-input-fuzzing-and-the-soak"
    );
    assert_eq!(
        slug("summary (one row per configuration; `schema_version` = 2)"),
        "summary-one-row-per-configuration-schema_version--2"
    );
    assert_eq!(slug("See [RULES](RULES.md) too"), "see-rules-too");
    let a = anchors("# A\n```\n# Not a heading\n```\n## A\n### B b\n");
    let want: BTreeSet<String> = ["a", "a-1", "b-b"].iter().map(|s| s.to_string()).collect();
    assert_eq!(a, want);
}

/// The link check fails on a missing file, a missing heading and a missing anchor in the
/// same file, and passes links in code.
#[test]
fn the_link_check_can_fail() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("other.md"), "# Present heading\n").unwrap();
    let page = dir.path().join("page.md");
    let text = "# Page\n\
                [ok](other.md) [ok](other.md#present-heading) [ok](#page)\n\
                [gone](missing.md)\n\
                [no heading](other.md#absent)\n\
                [no anchor](#nowhere)\n\
                `[code](missing.md)`\n\
                ```\n[in a block](missing.md)\n```\n\
                [web](https://example.com/x.md)\n";
    std::fs::write(&page, text).unwrap();
    let errors = broken_links(&page, text);
    assert_eq!(errors.len(), 3, "{errors:#?}");
    assert!(errors[0].contains(":3:") && errors[0].contains("missing.md"));
    assert!(errors[1].contains("#absent"));
    assert!(errors[2].contains("#nowhere"));
}

/// The flag check fails on an invented flag, an invented command and an invented
/// subcommand, and reads continuation lines and `cargo run --release --`.
#[test]
fn the_flag_check_can_fail() {
    let text = "```\n\
                confluence-sim run --games 10 --seed=3 --out x   # a --comment-flag\n\
                cargo run --release -- tune --target 0.5 \\\n    --no-such-flag 3\n\
                confluence-sim run --game 10\n\
                confluence-sim cards coverage --list partial --cards decks/cards\n\
                confluence-sim cards uncover\n\
                confluence-sim nonsense --games 1\n\
                ```\n\
                confluence-sim run --outside-code\n";
    let mut helps = BTreeMap::new();
    let errors = bad_flags(Path::new("page.md"), text, &mut helps);
    assert_eq!(errors.len(), 4, "{errors:#?}");
    assert!(errors[0].contains(":3:") && errors[0].contains("--no-such-flag"));
    assert!(errors[1].contains(":5:") && errors[1].contains("--game"));
    assert!(errors[2].contains("cards uncover"));
    assert!(errors[3].contains("nonsense"));
}

/// The library example docs/development.md shows is `examples/one_game.rs`, which
/// `cargo test` compiles.
#[test]
fn the_development_page_shows_the_compiled_example() {
    let page = std::fs::read_to_string(root().join("docs/development.md")).unwrap();
    let example = std::fs::read_to_string(root().join("examples/one_game.rs")).unwrap();
    let start = page.find("```rust\n").expect("a rust block") + "```rust\n".len();
    let shown = &page[start..];
    let shown = &shown[..shown.find("```").unwrap()];
    assert_eq!(
        shown, example,
        "docs/development.md and examples/one_game.rs differ"
    );
}

/// The `pub mod` files of the crate rooted at `src/lib.rs` under `src`, each with its
/// top-level module: `(file, top)`.
fn public_modules(src: &Path) -> Vec<(PathBuf, String)> {
    let decl = regex::Regex::new(r"(?m)^\s*pub mod (\w+);").unwrap();
    let mut out = Vec::new();
    // (file declaring modules, directory its modules live in, top-level module)
    let mut todo = vec![(src.join("lib.rs"), src.to_path_buf(), String::new())];
    while let Some((file, dir, top)) = todo.pop() {
        let text = std::fs::read_to_string(&file).unwrap();
        for c in decl.captures_iter(&text) {
            let name = &c[1];
            let top = if top.is_empty() {
                name.to_string()
            } else {
                top.clone()
            };
            let flat = dir.join(format!("{name}.rs"));
            let nested = dir.join(name).join("mod.rs");
            let module = if flat.exists() { flat } else { nested };
            if out.iter().any(|(f, _)| f == &module) {
                continue; // declared twice under different cfgs
            }
            out.push((module.clone(), top.clone()));
            todo.push((module, dir.join(name), top));
        }
    }
    out.sort();
    out
}

/// The `//! Layer: ...` sentence of a module file's doc comment, on one line.
fn layer_sentence(text: &str) -> Option<String> {
    let mut lines = text.lines().take_while(|l| l.starts_with("//!"));
    let first = lines.find(|l| l.starts_with("//! Layer:"))?;
    let mut s = first[4..].to_string();
    for l in lines.take_while(|l| l.len() > 4) {
        s.push(' ');
        s.push_str(&l[4..]);
    }
    Some(s)
}

/// The crate's top-level modules a source text uses (`crate::NAME`, also inside
/// `use crate::{...}`), comments left out.
fn uses(text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                // Names at depth 1 of the group: after `{` or a `,` at depth 1.
                let mut depth = 1;
                let mut start = true;
                let mut word = String::new();
                for c in group.chars() {
                    if c.is_alphanumeric() || c == '_' {
                        if start {
                            word.push(c);
                        }
                        continue;
                    }
                    if !word.is_empty() {
                        out.insert(std::mem::take(&mut word));
                        start = false;
                    }
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 1 => start = true,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.insert(name);
            }
        }
    }
    out.retain(|m| modules.contains(m));
    out
}

/// What is wrong with the layers of the crate under `src`: a public module without a
/// `Layer:` sentence, or a file that uses a top-level module its top-level module's
/// sentence does not allow.
fn layer_violations(src: &Path) -> Vec<String> {
    let public = public_modules(src);
    let tops: BTreeSet<String> = public.iter().map(|(_, t)| t.clone()).collect();
    let mut allowed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut errors = Vec::new();
    for (file, top) in &public {
        let text = std::fs::read_to_string(file).unwrap();
        let Some(sentence) = layer_sentence(&text) else {
            errors.push(format!(
                "{}: its //! doc comment has no `Layer:` sentence",
                file.display()
            ));
            continue;
        };
        let is_top = file.ends_with(format!("{top}.rs")) || file.ends_with(format!("{top}/mod.rs"));
        if !is_top {
            continue;
        }
        let may: BTreeSet<String> = if sentence.contains("every other module") {
            tops.clone()
        } else {
            sentence
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .filter(|m| tops.contains(m))
                .collect()
        };
        allowed.insert(top.clone(), may);
    }
    // Every source file, by the top-level module it belongs to.
    let mut files = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let top = first.trim_end_matches(".rs").to_string();
        let Some(may) = allowed.get(&top) else {
            continue; // lib.rs, main.rs
        };
        let text = std::fs::read_to_string(&file).unwrap();
        for used in uses(&text, &tops) {
            if used != top && !may.contains(&used) {
                errors.push(format!(
                    "{}: uses `{used}`, which the Layer sentence of `{top}` does not allow",
                    file.display()
                ));
            }
        }
    }
    errors
}

/// Every public module says in its doc comment what it may use, and the code keeps to it.
#[test]
fn every_public_module_states_its_layer_and_keeps_to_it() {
    let src = root().join("src");
    assert!(public_modules(&src).len() > 50);
    let errors = layer_violations(&src);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// The layer check fails on a module that uses one it may not, and on a public module with
/// no Layer sentence.
#[test]
fn the_layer_check_can_fail() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir(src.join("b")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod a;\npub mod b;\n").unwrap();
    std::fs::write(
        src.join("a.rs"),
        "//! A.\n//!\n//! Layer: uses no other module of the crate.\n\nuse crate::{x, b::Thing};\n",
    )
    .unwrap();
    std::fs::write(
        src.join("b/mod.rs"),
        "//! B.\n//!\n//! Layer: may use `a` and nothing\n//! else.\n\npub mod c;\n// crate::c in a comment\nuse crate::a::One;\n",
    )
    .unwrap();
    std::fs::write(src.join("b/c.rs"), "//! C, no layer.\nuse crate::a::Two;\n").unwrap();
    let errors = layer_violations(src);
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(errors.iter().any(|e| e.contains("a.rs: uses `b`")));
    assert!(
        errors
            .iter()
            .any(|e| e.contains("c.rs") && e.contains("no `Layer:`"))
    );
}

/// The `.rs` files under `src` outside the command line (`src/app`) that use clap (`use
/// clap`, `clap::`), as paths relative to `src`, sorted. A comment that names clap is fine.
fn clap_users(src: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path != src.join("app") {
                    dirs.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let code = text
                    .lines()
                    .map(|l| l.split("//").next().unwrap_or(""))
                    .any(|l| l.contains("use clap") || l.contains("clap::"));
                if code {
                    out.push(path.strip_prefix(src).unwrap().display().to_string());
                }
            }
        }
    }
    out.sort();
    out
}

/// Issue 50: clap is the command line's business. Nothing below `src/app` (the library's
/// modules, and `src/main.rs`, which only calls `app::main`) uses it, so the run's
/// configuration, checkpoints and algorithms do not depend on how flags are parsed.
#[test]
fn only_the_command_line_uses_clap() {
    let users = clap_users(&root().join("src"));
    assert!(users.is_empty(), "clap outside src/app: {users:?}");
    assert!(
        std::fs::read_to_string(root().join("src/app/cli.rs"))
            .unwrap()
            .contains("use clap"),
        "the command line itself uses clap"
    );
}

/// The clap check finds a use outside `src/app` and passes over one inside it and a comment.
#[test]
fn the_clap_check_can_fail() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("app")).unwrap();
    std::fs::create_dir_all(src.join("job")).unwrap();
    std::fs::write(src.join("app/cli.rs"), "use clap::Parser;\n").unwrap();
    std::fs::write(src.join("job/spec.rs"), "pub struct A(clap::ArgMatches);\n").unwrap();
    std::fs::write(
        src.join("lib.rs"),
        "//! Free of clap: see `clap::Parser`.\n",
    )
    .unwrap();
    assert_eq!(
        clap_users(src),
        vec![format!("job{}spec.rs", std::path::MAIN_SEPARATOR)]
    );
}

/// The README stays a short front page (at most 300 lines); the manual is in docs/.
#[test]
fn the_readme_stays_short() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines; move detail into docs/"
    );
}

/// Issue 48, item 7: what the docs say of the search's `net` range, of `ffa` and its expert
/// weights, and of the commands that write an output directory is what the binary does.
#[test]
fn the_docs_say_what_the_binary_does() {
    use confluence_sim::policy::PolicySpec;
    let read = |p: &str| std::fs::read_to_string(root().join(p)).unwrap();
    // The text with its line breaks and indentation as single spaces.
    let words = |p: &str| read(p).split_whitespace().collect::<Vec<_>>().join(" ");
    // policies.md: the search's `net` is 0 to 7, as the parser takes it.
    let policies = words("docs/policies.md");
    assert!("search:net=7".parse::<PolicySpec>().is_ok());
    let e = "search:net=8"
        .parse::<PolicySpec>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("(0 to 7)"), "{e}");
    assert!(
        policies.contains("0 to 7 for the search"),
        "policies.md: net range"
    );
    // free-for-all.md: ffa reads --expert-weights, and never says it ignores them.
    let ffa = words("docs/free-for-all.md");
    assert!(
        read("src/job/ffa.rs").contains("Field::load(a, ")
            && read("src/job/headtohead.rs").contains("load::expert_weights(models.expert_weights"),
        "ffa reads its expert weights"
    );
    assert!(
        !ffa.contains("reads them yet"),
        "free-for-all.md says ffa ignores them"
    );
    // output-directories.md: every command that writes a directory with --force, ffa too.
    let dirs = words("docs/output-directories.md");
    for cmd in ["matchup", "booster-war", "ffa"] {
        assert!(
            help(&[cmd]).is_some_and(|h| lists_flag(&h, "--force")),
            "{cmd} --force"
        );
        assert!(
            dirs.contains(&format!("`{cmd}`,")),
            "output-directories.md: {cmd}"
        );
    }
    assert!(dirs.contains("`booster-war`, `ffa` and `merge` replace it with `--force`"));
}
