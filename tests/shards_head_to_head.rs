//! `matchup` and `booster-war` sharded, merged, interrupted and resumed, through the real
//! binary: the same bytes as one run (meta.json too, but for the command line and the
//! time it records).

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
fn assert_same_outputs(a: &Path, b: &Path, table: &str) {
    let (na, nb) = (names(a), names(b));
    assert_eq!(
        na,
        nb,
        "{} and {} hold other files",
        a.display(),
        b.display()
    );
    assert!(na.contains(&table.to_string()), "{na:?}");
    for f in na.iter().filter(|f| *f != "meta.json") {
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

/// Two decks, one policy: three pairs.
const MATCHUP: [&str; 7] = [
    "matchup",
    "--player",
    "decks/player/AX_sierra_oddball.txt",
    "--player",
    "decks/player/BR_kojo_booda.txt",
    "--policy",
    "greedy",
];

const WAR: [&str; 3] = ["booster-war", "--policy", "greedy"];

fn run(args: &[&str], extra: &[&str], out: &Path) {
    sim()
        .args(args)
        .args(extra)
        .args(["-q", "--out"])
        .arg(out)
        .assert()
        .success();
}

fn sharded_and_merged_equals_unsharded(args: &[&str], games: &str, table: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    run(args, &["--games", games, "--threads", "2"], &whole);
    for n in [1u32, 2, 3] {
        let mut dirs = Vec::new();
        // The shards run in reverse order, on one thread: neither may matter.
        for i in (0..n).rev() {
            let d = tmp.path().join(format!("n{n}/shard-{i}"));
            let shard = format!("{i}/{n}");
            run(
                args,
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
        assert_same_outputs(&whole, &merged, table);
    }
}

#[test]
fn a_matchup_sharded_and_merged_equals_the_unsharded_matchup_for_1_2_and_3_shards() {
    sharded_and_merged_equals_unsharded(&MATCHUP, "1100", "matchups.csv");
}

#[test]
fn a_booster_war_sharded_and_merged_equals_the_unsharded_one_for_1_2_and_3_shards() {
    sharded_and_merged_equals_unsharded(&WAR, "700", "card_effects.csv");
}

fn shard(tmp: &Path, name: &str, args: &[&str], extra: &[&str], shard: &str) -> PathBuf {
    let d = tmp.join(name);
    run(
        args,
        &[&["--games", "40", "--shard", shard], extra].concat(),
        &d,
    );
    d
}

#[test]
fn merge_refuses_other_flags_a_missing_shard_and_shards_of_other_commands() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let out = t.join("out");
    let merge = |dirs: &[&PathBuf]| {
        let mut c = sim();
        c.args(["merge", "-q", "--out"]).arg(&out).args(dirs);
        c.assert().failure().code(1)
    };
    let m0 = shard(t, "m0", &MATCHUP, &[], "0/2");
    let m1 = shard(t, "m1", &MATCHUP, &[], "1/2");
    merge(&[&m0]).stderr(predicate::str::contains("missing 1 of the 2 shards: 1/2"));
    let other_seed = shard(t, "m1s", &MATCHUP, &["--seed", "6"], "1/2");
    merge(&[&m0, &other_seed]).stderr(predicate::str::contains(
        "not shards of the same run: seed: 1 vs 6",
    ));
    let other_cap = shard(t, "m1d", &MATCHUP, &["--day-cap", "20"], "1/2");
    merge(&[&m0, &other_cap]).stderr(predicate::str::contains("day_cap"));
    let w1 = shard(t, "w1", &WAR, &[], "1/2");
    merge(&[&m0, &w1]).stderr(predicate::str::contains("kind: matchup vs booster-war"));
    let r1 = t.join("r1");
    sim()
        .args([
            "run", "--games", "40", "--rares", "0", "-q", "--shard", "1/2",
        ])
        .arg("--out")
        .arg(&r1)
        .assert()
        .success();
    merge(&[&m0, &r1]).stderr(predicate::str::contains("kind: matchup vs run"));
    merge(&[&r1, &m0]).stderr(predicate::str::contains("kind: run vs matchup"));
    // A damaged shard is refused.
    let log = m1.join("units.log");
    let len = std::fs::metadata(&log).unwrap().len();
    let f = std::fs::OpenOptions::new().write(true).open(&log).unwrap();
    f.set_len(len - 3).unwrap();
    merge(&[&m0, &m1]).stderr(predicate::str::contains("incomplete or damaged"));
    assert!(!out.exists(), "a failed merge wrote {out:?}");
}

#[test]
fn shards_played_with_other_expert_weights_are_not_merged() {
    let tmp = tempfile::tempdir().unwrap();
    let weights = tmp.path().join("w.toml");
    std::fs::copy(root().join("decks/policies/expert.toml"), &weights).unwrap();
    let w = weights.to_str().unwrap().to_string();
    let expert = ["--policy", "expert", "--expert-weights", w.as_str()];
    let args: Vec<&str> = MATCHUP[..5].iter().copied().chain(expert).collect();
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

/// Kills a run with SIGKILL once its checkpoint holds a unit: only the checkpoint is left.
fn killed(args: &[&str], out: &Path) {
    let mut child = start(args, out);
    signal(&child, libc::SIGKILL);
    child.wait().unwrap();
    assert_eq!(names(out), vec!["checkpoint"]);
}

/// `COMMAND --resume out` succeeds and leaves the outputs of `whole`.
fn resumes(command: &str, out: &Path, whole: &Path, table: &str) {
    sim()
        .args([command, "--resume"])
        .arg(out)
        .args(["--threads", "2", "-q"])
        .assert()
        .success()
        .stderr(predicate::str::contains("continuing the unfinished run"));
    assert_same_outputs(whole, out, table);
}

#[test]
fn a_matchup_stopped_by_any_signal_resumes_to_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let long: Vec<&str> = MATCHUP.iter().copied().chain(["--games", "5000"]).collect();
    let whole = tmp.path().join("whole");
    run(&long, &["--threads", "2"], &whole);
    // SIGKILL: nothing but the checkpoint, continued with --resume.
    let out = tmp.path().join("killed");
    killed(&long, &out);
    resumes("matchup", &out, &whole, "matchups.csv");
    sim()
        .args(["matchup", "--resume"])
        .arg(&out)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("no unfinished run"));
    // SIGINT and SIGTERM: a clean stop that says how to continue; the same command again
    // continues (as a requeued job would).
    for (sig, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let out = tmp.path().join(format!("out{sig}"));
        let child = start(&long, &out);
        signal(&child, sig);
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(code), "{err}");
        assert!(
            err.contains(&format!(
                "confluence-sim matchup --resume {}",
                out.display()
            )),
            "{err}"
        );
        assert_eq!(names(&out), vec!["checkpoint"]);
        sim()
            .args(&long)
            .args(["--threads", "2", "-q", "--out"])
            .arg(&out)
            .assert()
            .success()
            .stderr(predicate::str::contains("continuing the unfinished run"));
        assert_same_outputs(&whole, &out, "matchups.csv");
    }
}

#[test]
fn a_killed_booster_war_resumes_to_the_same_bytes_and_not_as_another_command() {
    let tmp = tempfile::tempdir().unwrap();
    let long: Vec<&str> = WAR.iter().copied().chain(["--games", "3000"]).collect();
    let whole = tmp.path().join("whole");
    run(&long, &["--threads", "2"], &whole);
    let out = tmp.path().join("killed");
    killed(&long, &out);
    // Another command neither resumes it nor replaces it.
    for cmd in ["run", "matchup"] {
        sim()
            .args([cmd, "--resume"])
            .arg(&out)
            .assert()
            .failure()
            .code(1)
            .stderr(predicate::str::contains(format!(
                "continue it with `confluence-sim booster-war --resume {}`",
                out.display()
            )));
    }
    let mut other = MATCHUP.to_vec();
    other.extend(["--games", "10", "-q", "--out"]);
    sim()
        .args(&other)
        .arg(&out)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains(
            "unfinished run with other settings",
        ))
        .stderr(predicate::str::contains("booster-war --resume"));
    resumes("booster-war", &out, &whole, "card_effects.csv");
}

#[test]
fn a_finished_head_to_head_shard_is_never_replaced_without_force() {
    let tmp = tempfile::tempdir().unwrap();
    let s0 = shard(tmp.path(), "s0", &MATCHUP, &[], "0/2");
    let before = std::fs::read(s0.join("units.log")).unwrap();
    sim()
        .args(WAR)
        .args(["--games", "10", "--out"])
        .arg(&s0)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains(
            "it holds shard 0/2 of a sharded run",
        ));
    assert_eq!(std::fs::read(s0.join("units.log")).unwrap(), before);
    sim()
        .args(WAR)
        .args(["--games", "10", "--force", "--out"])
        .arg(&s0)
        .assert()
        .success();
    assert!(names(&s0).contains(&"booster_war.csv".to_string()));
}
