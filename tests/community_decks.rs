//! The community decks of `../shared/data/decks/bga_seeds_*.txt` (DUSTER heroes): each
//! loads, is encoded to within one card (`cards coverage --deck`), and plays whole games
//! through the real binary with no error, for a policy that decides and one that does not.
//! Skipped (with a note) where `../shared` is absent, as `tests/exactness.rs` is.

mod common;

use common::{root, sim};

/// The `bga_seeds_*` deck files, sorted; None when the shared folder is absent.
fn community_decks() -> Option<Vec<std::path::PathBuf>> {
    let dir = root().join("../shared/data/decks");
    let rd = std::fs::read_dir(&dir).ok()?;
    let mut v: Vec<_> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("bga_seeds_"))
        })
        .collect();
    v.sort();
    Some(v)
}

#[test]
fn every_bga_seeds_deck_is_encoded_to_within_one_card() {
    let Some(decks) = community_decks() else {
        eprintln!("skipped: ../shared/data/decks is absent");
        return;
    };
    assert_eq!(
        decks.len(),
        8,
        "expected the eight bga_seeds_* decks: {decks:?}"
    );
    let line = regex::Regex::new(r": (\d+) of (\d+) cards exact").unwrap();
    for d in &decks {
        let out = sim()
            .args(["cards", "coverage", "--deck"])
            .arg(d)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        let c = line
            .captures(&text)
            .unwrap_or_else(|| panic!("no deck line for {}:\n{text}", d.display()));
        let exact: u32 = c[1].parse().unwrap();
        let cards: u32 = c[2].parse().unwrap();
        assert_eq!(cards, 40, "{}", d.display());
        assert!(
            cards - exact <= 1,
            "{}: {} cards not exact\n{text}",
            d.display(),
            cards - exact
        );
    }
}

#[test]
fn every_bga_seeds_deck_plays_games_without_error() {
    let Some(decks) = community_decks() else {
        eprintln!("skipped: ../shared/data/decks is absent");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (i, d) in decks.iter().enumerate() {
        let out = dir.path().join(format!("run{i}"));
        sim()
            .args(["run", "--player"])
            .arg(d)
            .args([
                "--policy",
                "expert",
                "--policy",
                "random",
                "--rares",
                "0",
                "--games",
                "12",
                "--threads",
                "1",
                "--quiet",
                "--out",
            ])
            .arg(&out)
            .assert()
            .success();
        let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
        let mut rows = summary.lines();
        let header: Vec<&str> = rows.next().unwrap().split(',').collect();
        let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
        let rows: Vec<Vec<&str>> = rows.map(|r| r.split(',').collect()).collect();
        assert_eq!(rows.len(), 2, "{}: one row per policy", d.display());
        for r in &rows {
            assert_eq!(r[col("games")], "12", "{}", d.display());
            let ended: u32 = ["wins", "losses", "day_caps"]
                .iter()
                .map(|c| r[col(c)].parse::<u32>().unwrap())
                .sum();
            assert_eq!(ended, 12, "{}: every game ends", d.display());
            assert!(
                r[col("player_cards_not_exact")].parse::<u32>().unwrap() <= 1,
                "{}",
                d.display()
            );
        }
    }
}
