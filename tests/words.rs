//! Issue 48, item 6 (words): the command line in meta.json and the report runs again as
//! shown; `report` on a directory it does not read says what the directory holds and never
//! advises running over it; `optimize` with a budget too small for one round warns and says
//! the least budget.

use std::path::Path;

mod common;
use common::sim;

fn meta_command(dir: &Path) -> String {
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
    meta["command"].as_str().unwrap().to_string()
}

#[test]
fn the_command_in_meta_json_and_the_report_runs_again_as_shown() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("a"), d.path().join("b"));
    sim()
        .args(["run", "--edit", "Gloom Wisp: forest -1", "--games", "30"])
        .args(["--rares", "0", "-q", "--out"])
        .arg(&a)
        .assert()
        .success();
    let command = meta_command(&a);
    assert!(
        command.starts_with("confluence-sim run --edit 'Gloom Wisp: forest -1' --games 30"),
        "{command}"
    );
    // The shell reads it back as the same arguments: the same run, into another directory.
    let again = command.replace(&a.display().to_string(), &b.display().to_string());
    let bin = assert_cmd::cargo::cargo_bin("confluence-sim");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = std::process::Command::new("sh")
        .args(["-c", &again])
        .env("PATH", path)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(a.join("summary.csv")).unwrap(),
        std::fs::read(b.join("summary.csv")).unwrap()
    );
    assert!(meta_command(&b).contains("--edit 'Gloom Wisp: forest -1'"));
    sim().arg("report").arg(&a).assert().success();
    let md = std::fs::read_to_string(a.join("report.md")).unwrap();
    assert!(md.contains("--edit 'Gloom Wisp: forest -1'"), "{md}");
}

#[test]
fn report_on_an_ffa_or_tune_directory_says_what_it_holds() {
    let d = tempfile::tempdir().unwrap();
    let (ffa, tune) = (d.path().join("ffa"), d.path().join("tune"));
    sim()
        .args(["ffa", "--games", "1", "-q"])
        .args(["--player", "decks/player/AX_sierra_oddball.txt"])
        .args(["--player", "decks/player/BR_kojo_booda.txt"])
        .args(["--player", "decks/player/LY_nevenka_blotch.txt"])
        .args(["--player", "decks/player/MU_teija_nauraa.txt"])
        .arg("--out")
        .arg(&ffa)
        .assert()
        .success();
    sim()
        .args(["tune", "--target", "0.5", "--games", "50", "-q", "--out"])
        .arg(&tune)
        .assert()
        .success();
    for (dir, holds) in [
        (&ffa, "it holds the outputs of ffa (pods.csv, ratings.csv"),
        (&tune, "it holds the outputs of tune (tune_candidates.csv"),
    ] {
        let o = sim().arg("report").arg(dir).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains(holds), "{err}");
        assert!(
            !err.contains("--out"),
            "never advises running over it: {err}"
        );
        assert!(!dir.join("report.html").exists());
    }
}

#[test]
fn optimize_with_a_budget_below_one_round_warns_with_the_least_budget() {
    let d = tempfile::tempdir().unwrap();
    let run = |games: &str, out: &str| {
        let out = d.path().join(out);
        let o = sim()
            .args(["optimize", "--player", "decks/player/BR_kojo_booda.txt"])
            .args(["--policy", "greedy", "--batch", "2", "--stage-games", "10"])
            .args(["--confirm", "20", "--measure", "20", "-q", "--games", games])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let rounds = std::fs::read_to_string(out.join("trajectory.csv"))
            .unwrap()
            .lines()
            .filter(|l| l.contains(",round,"))
            .count();
        (String::from_utf8_lossy(&o.stderr).into_owned(), rounds)
    };
    // A round of 2 candidates: 3 decks x 10 games, then 2 x 20 to confirm: 70 games.
    let (err, rounds) = run("69", "small");
    assert!(
        err.contains("--games 69 is too small for one round of the search")
            && err.contains("give --games 70 at least"),
        "{err}"
    );
    assert_eq!(rounds, 0);
    let (err, rounds) = run("70", "enough");
    assert!(!err.contains("too small"), "{err}");
    assert!(rounds >= 1, "70 games play a round");
}

/// Terminal tables keep their columns with a long policy spec, and rows of long rare mixes
/// can be told apart: a label each, its mix in full under the table.
#[test]
fn the_run_table_keeps_its_columns_and_labels_long_mixes() {
    let d = tempfile::tempdir().unwrap();
    let o = sim()
        .args(["run", "--policy", "greedy", "--policy", "expert:net=0"])
        .args([
            "--rares",
            "0",
            "--rares",
            "14",
            "--rares",
            "15",
            "--subsets",
            "2",
        ])
        .args(["--games", "10", "--out"])
        .arg(d.path().join("run"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("Kojo")).collect();
    assert_eq!(rows.len(), 8, "{out}");
    // The interval and the days start at the same column on every row, the header's too.
    let at = |l: &str| l.find('[').unwrap();
    assert!(rows.iter().all(|l| at(l) == at(rows[0])), "{out}");
    let header = out.lines().next().unwrap();
    let days = |l: &str| l.find("days").unwrap_or(0);
    assert!(days(header) > at(rows[0]), "{out}");
    // Three long mixes (two of 14 rares, all 15): three labels, each named once in full.
    for label in ["[A]", "[B]", "[C]"] {
        assert_eq!(
            rows.iter().filter(|l| l.ends_with(label)).count(),
            2,
            "{out}"
        );
        let legend: Vec<&str> = out
            .lines()
            .filter(|l| l.trim_start().starts_with(label))
            .collect();
        assert_eq!(legend.len(), 1, "{out}");
        assert!(legend[0].split(';').count() >= 14, "{out}");
    }
    assert!(!out.contains("..."), "no mix cut short: {out}");
}
