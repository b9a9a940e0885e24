//! An installed binary works from any directory (issue 48, item 5): `cargo install --path .`
//! into a temporary root, then `run`, `report`, `replay`, a built-in experiment, a starter
//! deck named by its repository path and `cards coverage` from an empty temporary
//! directory, with the same outputs as the binary run from the repository root.
//!
//! The install is a debug build (`--debug`) in the build directory the test suite already
//! filled (`cargo install --path` uses the crate's target directory, or CARGO_TARGET_DIR),
//! so it links the binary this suite built instead of compiling anew; `--offline`: nothing
//! is fetched. This file is its only test, so `cargo test` installs once.

use std::path::Path;
use std::process::{Command, Output};

fn ok(out: Output, what: &str) -> Output {
    assert!(
        out.status.success(),
        "{what}: exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn an_installed_binary_runs_reports_and_replays_from_any_directory() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let prefix = tmp.path().join("install");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    ok(
        Command::new(cargo)
            .args(["install", "--path"])
            .arg(root)
            .arg("--root")
            .arg(&prefix)
            .args(["--debug", "--offline", "--locked", "--quiet"])
            .output()
            .unwrap(),
        "cargo install --debug --offline",
    );
    let bin = prefix.join("bin").join("confluence-sim");
    assert!(bin.is_file(), "{} was not installed", bin.display());
    // A directory with nothing of the repository in it.
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let here = |args: &[&str]| {
        ok(
            Command::new(&bin)
                .args(args)
                .current_dir(&work)
                .output()
                .unwrap(),
            &args.join(" "),
        )
    };
    let there = |args: &[&str]| {
        ok(
            Command::new(env!("CARGO_BIN_EXE_confluence-sim"))
                .args(args)
                .current_dir(root)
                .output()
                .unwrap(),
            &args.join(" "),
        )
    };

    // run: the default deck, Confluence deck and cards, built in.
    let run = [
        "run", "--games", "200", "--rares", "0", "--rares", "15", "-q", "--out",
    ];
    let away = work.join("run");
    let home = tmp.path().join("run-in-repo");
    here(&[&run[..], &[away.to_str().unwrap()]].concat());
    there(&[&run[..], &[home.to_str().unwrap()]].concat());
    for f in ["summary.csv", "cards.csv", "diffs.csv", "rares.csv"] {
        assert_eq!(
            std::fs::read(away.join(f)).unwrap(),
            std::fs::read(home.join(f)).unwrap(),
            "{f}: the built-in data must play the repository's games"
        );
    }

    // report, on the run made away from the repository.
    here(&["report", away.to_str().unwrap()]);
    assert!(away.join("report.html").is_file() && away.join("report.md").is_file());

    // replay: the same game, day by day and as a record.
    for args in [
        &["replay", "--game-index", "3"][..],
        &["replay", "--game-index", "3", "--rares", "15", "--json"][..],
    ] {
        assert_eq!(here(args).stdout, there(args).stdout, "{}", args.join(" "));
    }

    // A starter deck and an example experiment named by their paths in the repository.
    let ly = [
        "replay",
        "--player",
        "decks/player/LY_nevenka_blotch.txt",
        "--game-index",
        "1",
    ];
    assert_eq!(here(&ly).stdout, there(&ly).stdout);
    let x = work.join("experiment");
    here(&[
        "run",
        "--experiment",
        "decks/experiments/starter_decks.toml",
        "--shard",
        "1/4000",
        "-q",
        "--out",
        x.to_str().unwrap(),
    ]);
    assert!(x.join("shard.json").is_file());

    // cards coverage without the card texts: the committed verified level, and why.
    let cov = String::from_utf8(here(&["cards", "coverage"]).stdout).unwrap();
    assert!(
        cov.contains("verified is the committed level")
            && cov.contains("the card texts are needed to re-verify"),
        "{cov}"
    );
    let all = cov.lines().find(|l| l.starts_with("all sets")).unwrap();
    let verified: usize = all.split_whitespace().nth(7).unwrap().parse().unwrap();
    assert!(verified > 1000, "{all}");
}
