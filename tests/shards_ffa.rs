//! `ffa` sharded, merged, interrupted and resumed, through the real binary: the same bytes
//! as one run (meta.json too, but for the command line and the time it records), as
//! `tests/shards_head_to_head.rs` checks for `matchup` and `booster-war`.

use std::path::{Path, PathBuf};
use std::process::Child;

use predicates::prelude::*;

mod common;
use common::{merge_refused, names, root, signal, sim, start_until_checkpoint};

/// meta.json without what records the process that wrote it (its command line and time).
fn meta_without_process(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("meta.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let m = v.as_object_mut().unwrap();
    m.remove("command").expect("meta.json records the command");
    m.remove("created").expect("meta.json records the time");
    v
}

/// Every output is the same byte for byte, and meta.json but for its command and time.
fn assert_same_outputs(a: &Path, b: &Path) {
    let (na, nb) = (names(a), names(b));
    assert_eq!(
        na,
        nb,
        "{} and {} hold other files",
        a.display(),
        b.display()
    );
    assert!(na.contains(&"pods.csv".to_string()), "{na:?}");
    // The report names the process too (its time, command and directory): report.md is
    // compared without them, report.html is the same document rendered.
    let report = |d: &Path| {
        std::fs::read_to_string(d.join("report.md"))
            .unwrap()
            .lines()
            .filter(|l| {
                !["- **Created:**", "- **Command:**", "- **Directory:**"]
                    .iter()
                    .any(|p| l.starts_with(p))
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(report(a), report(b), "report.md differs");
    let charts = |d: &Path| {
        names(&d.join("charts"))
            .into_iter()
            .map(|f| format!("charts/{f}"))
    };
    let files: Vec<String> = na
        .iter()
        .filter(|f| !["meta.json", "charts", "report.md", "report.html"].contains(&f.as_str()))
        .cloned()
        .chain(charts(a))
        .collect();
    assert_eq!(charts(a).collect::<Vec<_>>(), charts(b).collect::<Vec<_>>());
    for f in &files {
        let (x, y) = (
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
        );
        assert!(
            x == y,
            "{f} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
    assert_eq!(meta_without_process(a), meta_without_process(b));
}

/// Four decks, one policy: one pod, 24 seatings.
const FFA: [&str; 11] = [
    "ffa",
    "--player",
    "decks/player/AX_sierra_oddball.txt",
    "--player",
    "decks/player/BR_kojo_booda.txt",
    "--player",
    "decks/player/LY_nevenka_blotch.txt",
    "--player",
    "decks/player/MU_teija_nauraa.txt",
    "--policy",
    "greedy",
];

fn run(args: &[&str], extra: &[&str], out: &Path) {
    sim()
        .args(args)
        .args(extra)
        .args(["-q", "--out"])
        .arg(out)
        .assert()
        .success();
}

#[test]
fn an_ffa_sharded_and_merged_equals_the_unsharded_run_for_1_2_and_3_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    // 300 games a seating: more than a unit (256), so a shard's slice crosses one.
    let games = "300";
    run(&FFA, &["--games", games, "--threads", "2"], &whole);
    for n in [1u32, 2, 3] {
        let mut dirs = Vec::new();
        // The shards run in reverse order, on one thread: neither may matter.
        for i in (0..n).rev() {
            let d = tmp.path().join(format!("n{n}/shard-{i}"));
            let shard = format!("{i}/{n}");
            run(
                &FFA,
                &["--games", games, "--threads", "1", "--shard", &shard],
                &d,
            );
            assert_eq!(names(&d), vec!["shard.json", "units.log"]);
            dirs.push(d);
        }
        let merged = tmp.path().join(format!("n{n}/merged"));
        sim()
            .args(["merge", "-q", "--out"])
            .arg(&merged)
            .args(&dirs)
            .assert()
            .success();
        assert_same_outputs(&whole, &merged);
    }
}

fn shard(tmp: &Path, name: &str, args: &[&str], extra: &[&str], shard: &str) -> PathBuf {
    let d = tmp.join(name);
    run(
        args,
        &[&["--games", "10", "--shard", shard], extra].concat(),
        &d,
    );
    d
}

#[test]
fn merge_refuses_ffa_shards_of_other_flags_a_missing_shard_and_other_commands() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let out = t.join("out");
    let merge = |dirs: &[&PathBuf]| {
        let mut c = sim();
        c.args(["merge", "-q", "--out"]).arg(&out).args(dirs);
        c.assert().failure().code(1)
    };
    let f0 = shard(t, "f0", &FFA, &[], "0/2");
    let f1 = shard(t, "f1", &FFA, &[], "1/2");
    merge(&[&f0]).stderr(predicate::str::contains("missing 1 of the 2 shards: 1/2"));
    let other_seed = shard(t, "f1s", &FFA, &["--seed", "6"], "1/2");
    merge(&[&f0, &other_seed]).stderr(predicate::str::contains(
        "not shards of the same run: seed: 1 vs 6",
    ));
    let other_cap = shard(t, "f1d", &FFA, &["--day-cap", "20"], "1/2");
    merge(&[&f0, &other_cap]).stderr(predicate::str::contains("day_cap"));
    let m1 = shard(
        t,
        "m1",
        &["matchup", "--player", "decks/player/AX_sierra_oddball.txt"],
        &[],
        "1/2",
    );
    merge(&[&f0, &m1]).stderr(predicate::str::contains("kind: ffa vs matchup"));
    merge(&[&m1, &f0]).stderr(predicate::str::contains("kind: matchup vs ffa"));
    // The same shard twice is not a whole run.
    let mut c = sim();
    c.args(["merge", "-q", "--out"])
        .arg(&out)
        .args([&f0, &f0])
        .assert()
        .failure();
    // A damaged shard is refused.
    let log = f1.join("units.log");
    let len = std::fs::metadata(&log).unwrap().len();
    let f = std::fs::OpenOptions::new().write(true).open(&log).unwrap();
    f.set_len(len - 3).unwrap();
    merge(&[&f0, &f1]).stderr(predicate::str::contains("incomplete or damaged"));
    assert!(!out.exists(), "a failed merge wrote {out:?}");
}

#[test]
fn ffa_shards_read_other_value_weights_are_not_merged() {
    let tmp = tempfile::tempdir().unwrap();
    let weights = tmp.path().join("v.toml");
    std::fs::copy(root().join("decks/policies/value.toml"), &weights).unwrap();
    let w = weights.to_str().unwrap().to_string();
    let args: Vec<&str> = FFA
        .iter()
        .copied()
        .chain(["--value-weights", w.as_str()])
        .collect();
    let s0 = shard(tmp.path(), "a", &args, &[], "0/2");
    let text = std::fs::read_to_string(&weights).unwrap();
    std::fs::write(&weights, text + "\n# changed\n").unwrap();
    let s1 = shard(tmp.path(), "b", &args, &[], "1/2");
    merge_refused(
        &tmp.path().join("out"),
        &[&s0, &s1],
        "not shards of the same run: files",
    );
}

/// Starts a run of several seconds on one thread and returns once its checkpoint holds a
/// unit.
fn start(args: &[&str], out: &Path) -> Child {
    start_until_checkpoint(&[args, &["--threads", "1", "-q"]].concat(), out)
}

#[test]
fn an_ffa_stopped_by_any_signal_resumes_to_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    // 24 seatings of 1,000 games: many units, several seconds on one thread.
    let long: Vec<&str> = FFA.iter().copied().chain(["--games", "1000"]).collect();
    let whole = tmp.path().join("whole");
    run(&long, &["--threads", "2"], &whole);
    // SIGKILL: nothing but the checkpoint, continued with --resume.
    let out = tmp.path().join("killed");
    let mut child = start(&long, &out);
    signal(&child, libc::SIGKILL);
    child.wait().unwrap();
    assert_eq!(names(&out), vec!["checkpoint"]);
    // Another command neither resumes it nor replaces it.
    sim()
        .args(["matchup", "--resume"])
        .arg(&out)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "continue it with `confluence-sim ffa --resume {}`",
            out.display()
        )));
    sim()
        .args(["ffa", "--resume"])
        .arg(&out)
        .args(["--threads", "2", "-q"])
        .assert()
        .success()
        .stderr(predicate::str::contains("continuing the unfinished run"));
    assert_same_outputs(&whole, &out);
    sim()
        .args(["ffa", "--resume"])
        .arg(&out)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("no unfinished run"));
    // SIGTERM: a clean stop that says how to continue; the same command again continues.
    let out = tmp.path().join("termed");
    let child = start(&long, &out);
    signal(&child, libc::SIGTERM);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(143), "{err}");
    assert!(
        err.contains(&format!("confluence-sim ffa --resume {}", out.display())),
        "{err}"
    );
    sim()
        .args(&long)
        .args(["--threads", "2", "-q", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("continuing the unfinished run"));
    assert_same_outputs(&whole, &out);
}

#[test]
fn resume_is_refused_beside_the_flags_it_restores() {
    sim()
        .args(["ffa", "--resume", "x", "--seed", "3"])
        .assert()
        .failure()
        .code(2);
}
