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
fn report_on_a_tune_directory_or_an_ffa_one_without_its_table_says_what_it_holds() {
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
    // An ffa directory is reported (tests/ffa_report.rs); without the table its report
    // reads, it is one to read as it is.
    for f in ["pods.parquet", "report.html", "report.md"] {
        std::fs::remove_file(ffa.join(f)).unwrap();
    }
    sim()
        .args(["tune", "--target", "0.5", "--games", "50", "-q", "--out"])
        .arg(&tune)
        .assert()
        .success();
    for (dir, holds) in [
        (&ffa, "it holds the outputs of ffa without pods.parquet"),
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

/// The lines of a terminal table: its header (the first line starting with `header`) and
/// the rows after it, up to the first line that starts with none of `rows`.
fn table_lines<'a>(out: &'a str, header: &str) -> (usize, Vec<&'a str>) {
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(header))
        .unwrap_or_else(|| panic!("no table headed {header:?}: {out}"));
    let rows = lines[at + 1..]
        .iter()
        .take_while(|l| !l.is_empty() && !l.ends_with(':'))
        .copied()
        .collect();
    (at, rows)
}

/// Every figure is printed one way: no signed zero (`-0.0`, `+0.0`, `-0.000`).
fn assert_no_signed_zero(out: &str) {
    for tok in out.split(|c: char| c.is_whitespace() || "[],()%".contains(c)) {
        let t = tok.trim_start_matches(['-', '+', '−']);
        let zero = !t.is_empty() && t.chars().all(|c| c == '0' || c == '.') && t.contains('.');
        assert!(
            !(zero && t.len() < tok.len()),
            "a signed zero {tok:?}: {out}"
        );
    }
}

/// A rate's interval (`%  [`) and the rate's `%` in the same place on every row.
fn assert_aligned(rows: &[&str], out: &str) {
    let at = |l: &str| l.find("%  [").unwrap_or_else(|| panic!("{l}: {out}"));
    assert!(rows.len() >= 2, "{out}");
    assert!(rows.iter().all(|l| at(l) == at(rows[0])), "{out}");
    let pct = |l: &str| l.find('%').unwrap();
    assert!(rows.iter().all(|l| pct(l) == pct(rows[0])), "{out}");
}

/// `ladder`, `tune` and `matchup` keep their columns with a long policy spec and long
/// rare mixes: a label each (`[A]`), named in full once under the table; one number
/// format, never a signed zero.
#[test]
fn ladder_tune_and_matchup_tables_keep_their_columns_with_long_names() {
    const LONG: &str = "search:rollouts=2,width=2,narrow=1,dwidth=2,margin=2,deep=0";
    let d = tempfile::tempdir().unwrap();
    let run = |args: &[&str], out: &str| {
        let o = sim()
            .args(args)
            .arg("--out")
            .arg(d.path().join(out))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let legend_once = |out: &str, label: &str, full: &str| {
        let named: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with(&format!("  {label} ")))
            .collect();
        assert_eq!(named, [format!("  {label} {full}")], "{out}");
    };

    let out = run(
        &[
            "ladder", "--policy", "greedy", "--policy", LONG, "--games", "6",
        ],
        "ladder",
    );
    let (_, rows) = table_lines(&out, "policy");
    assert_eq!(rows.len(), 4, "{out}");
    assert_aligned(&rows, &out);
    assert_eq!(rows.iter().filter(|l| l.starts_with("[A] ")).count(), 2);
    legend_once(&out, "[A]", LONG);
    assert_no_signed_zero(&out);

    let out = run(
        &[
            "matchup",
            "--player",
            "decks/player/BR_kojo_booda.txt",
            "--player",
            "decks/player/AX_sierra_oddball.txt",
            "--policy",
            "greedy",
            "--policy",
            LONG,
            "--games",
            "2",
        ],
        "matchup",
    );
    let (_, rows) = table_lines(&out, "rank");
    assert_eq!(rows.len(), 4, "{out}");
    assert_aligned(&rows, &out);
    assert_eq!(rows.iter().filter(|l| l.contains(" [A] ")).count(), 2);
    legend_once(&out, "[A]", LONG);
    assert_no_signed_zero(&out);

    let out = run(
        &[
            "tune",
            "--target",
            "0.5",
            "--games",
            "20",
            "--confirm",
            "20",
        ],
        "tune",
    );
    let (header, rows) = table_lines(&out, "win");
    assert_eq!(rows.len(), 8, "{out}");
    assert_aligned(&rows, &out);
    // Each mix longer than 40 characters by a label, named in full once under the table.
    let column = out.lines().nth(header).unwrap().find("mix").unwrap();
    let mut labels = 0;
    for r in &rows {
        let mix = r[column..].split("  ").next().unwrap();
        if mix.starts_with('[') {
            labels += 1;
            let full = out
                .lines()
                .find(|l| l.starts_with(&format!("  {mix} ")))
                .unwrap_or_else(|| panic!("{mix} has no legend: {out}"));
            assert!(full.len() - mix.len() > 40, "{out}");
        } else {
            assert!(mix.len() <= 40, "{out}");
        }
    }
    assert!(labels > 0, "the mixes at many rares are labelled: {out}");
    let effects: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Rares by effect"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert_eq!(effects.len(), 15, "{out}");
    assert!(
        effects.iter().all(|l| l.find('[') == effects[0].find('[')),
        "{out}"
    );
    assert_no_signed_zero(&out);
    assert!(!out.contains("..."), "no name cut short: {out}");
}
