//! Every command that plays games names the games that had an engine error and counts them
//! in its table, as `run` does (`tests/engine_errors.rs` provokes one from a scenario): here
//! through the binary, with a card library in which Ratatoskr (3 copies in the Bravos
//! starter, a CORE common costing 1) creates 34 tokens when played and gains a boost for each
//! token created, so playing it queues more reactions at once than the engine holds.

use std::path::{Path, PathBuf};

mod common;
use common::{root, sim};

const BR: &str = "decks/player/BR_kojo_booda.txt";
const AX: &str = "decks/player/AX_sierra_oddball.txt";

/// A copy of `decks/cards` in which Ratatoskr's encoding overflows the reaction queue.
fn bursting_cards(dir: &Path) -> PathBuf {
    let cards = dir.join("cards");
    copy_dir(&root().join("decks/cards"), &cards);
    let path = cards.join("abilities/BR.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let card = "[ALT_CORE_B_BR_04_C]\nname = \"Ratatoskr\"\nabilities = [\"R: boost(me, 2)\"]";
    assert!(text.contains(card), "Ratatoskr's encoding moved");
    let tokens = vec!["token(Brassbug)"; 34].join("; ");
    let burst = format!(
        "[ALT_CORE_B_BR_04_C]\nname = \"Ratatoskr\"\nabilities = [\"J: {tokens}\", \"when token_created: boost(me, 1)\"]"
    );
    std::fs::write(&path, text.replace(card, &burst)).unwrap();
    cards
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// The sum of a CSV's `column` over its games: `matchups.csv`'s two rows of a pair count
/// the same games, so only the rows with `entry_a <= entry_b` are summed there.
fn column_sum(csv: &Path, column: &str) -> u64 {
    let mut r = csv::Reader::from_path(csv).unwrap();
    let head = r.headers().unwrap().clone();
    let at = |name: &str| head.iter().position(|h| h == name);
    let k = at(column).unwrap_or_else(|| panic!("{} has no {column} column", csv.display()));
    let pair = at("entry_a").zip(at("entry_b"));
    r.records()
        .map(|rec| rec.unwrap())
        .filter(|rec| {
            pair.is_none_or(|(a, b)| {
                rec[a].parse::<u32>().unwrap() <= rec[b].parse::<u32>().unwrap()
            })
        })
        .map(|rec| rec[k].parse::<u64>().unwrap())
        .sum()
}

/// Runs `command` with `args` on the bursting cards; returns its stderr and output dir.
fn run(command: &str, args: &[&str]) -> (String, tempfile::TempDir) {
    let tmp = tempfile::tempdir().unwrap();
    let cards = bursting_cards(tmp.path());
    let out = tmp.path().join("out");
    let a = sim()
        .arg(command)
        .args(args)
        .arg("--cards")
        .arg(&cards)
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    (stderr, tmp)
}

/// `command` names on stderr as many failed games as `tables` count together.
fn check(command: &str, args: &[&str], tables: &[&str]) {
    let (stderr, tmp) = run(command, args);
    let errors: u64 = tables
        .iter()
        .map(|t| column_sum(&tmp.path().join("out").join(t), "engine_errors"))
        .sum();
    assert!(
        errors > 0,
        "{command}: no engine error counted in {tables:?}"
    );
    assert!(
        stderr.contains(&format!("warning: {errors} game(s) had an engine error")),
        "{command}: {stderr}"
    );
    assert!(stderr.contains("The first: game "), "{command}: {stderr}");
}

#[test]
fn ladder_counts_and_names_engine_errors() {
    check(
        "ladder",
        &["--player", BR, "--policy", "greedy", "--games", "6"],
        &["ladder.csv"],
    );
}

#[test]
fn compare_counts_and_names_engine_errors() {
    check(
        "compare",
        &[
            "--player", BR, "--policy", "random", "--policy", "greedy", "--rares", "0", "--games",
            "6",
        ],
        &["compare.csv"],
    );
}

#[test]
fn tune_counts_and_names_engine_errors() {
    check(
        "tune",
        &[
            "--target",
            "0.5",
            "--player",
            BR,
            "--policy",
            "greedy",
            "--games",
            "4",
            "--confirm",
            "4",
            "--candidates",
            "2",
        ],
        &["tune_screening.csv", "tune_candidates.csv"],
    );
}

#[test]
fn matchup_counts_and_names_engine_errors() {
    let args = [
        "--player", BR, "--player", AX, "--policy", "greedy", "--games", "4",
    ];
    check("matchup", &args, &["matchups.csv"]);
    report_names_engine_errors("matchup", &args, "matchups.csv");
}

/// The report of `command`'s run names its engine errors, with the count `table` holds.
fn report_names_engine_errors(command: &str, args: &[&str], table: &str) {
    let (_, tmp) = run(command, args);
    let out = tmp.path().join("out");
    let errors = column_sum(&out.join(table), "engine_errors");
    sim().arg("report").arg(&out).assert().success();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains(&format!("{errors} game")) && md.contains("had an engine error"),
        "the {command} report does not name its {errors} engine errors:\n{md}"
    );
}

#[test]
fn booster_war_counts_and_names_engine_errors() {
    let args = ["--policy", "greedy", "--games", "40"];
    check("booster-war", &args, &["booster_war.csv"]);
    report_names_engine_errors("booster-war", &args, "booster_war.csv");
}
