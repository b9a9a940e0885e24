//! Shards and merge, interrupted and resumed runs, and the atomic output directory, through
//! the real binary.

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

use predicates::prelude::*;

mod common;
use common::{
    merge_refused, names, root, signal, sim, start_until_checkpoint, wait_for_checkpoint,
};

/// Every output but meta.json (which records the command and the time) is the same, byte
/// for byte.
fn assert_same_outputs(a: &Path, b: &Path) {
    let (na, nb) = (names(a), names(b));
    assert_eq!(
        na,
        nb,
        "{} and {} hold different files",
        a.display(),
        b.display()
    );
    assert!(na.contains(&"summary.csv".to_string()), "{na:?}");
    for f in na.iter().filter(|f| *f != "meta.json") {
        let x = std::fs::read(a.join(f)).unwrap();
        let y = std::fs::read(b.join(f)).unwrap();
        assert!(
            x == y,
            "{f} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

/// Two player decks... no: two policies and three mixes, with per-game rows.
const RUN: [&str; 14] = [
    "run",
    "--games",
    "700",
    "--rares",
    "0",
    "--rares",
    "15",
    "--rare-set",
    "Gloom Wisp,Cinder Moth",
    "--policy",
    "greedy",
    "--policy",
    "random",
    "--per-game",
];

#[test]
fn sharded_and_merged_equals_unsharded_byte_for_byte_for_1_2_3_and_7_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    sim()
        .args(RUN)
        .args(["--seed", "11", "-q", "--threads", "2", "--out"])
        .arg(&whole)
        .assert()
        .success();
    for n in [1u32, 2, 3, 7] {
        let mut dirs = Vec::new();
        // The shards run in reverse order, on one thread: neither may matter.
        for i in (0..n).rev() {
            let d = tmp.path().join(format!("n{n}/shard-{i}"));
            sim()
                .args(RUN)
                .args(["--seed", "11", "-q", "--threads", "1"])
                .args(["--shard", &format!("{i}/{n}"), "--out"])
                .arg(&d)
                .assert()
                .success();
            assert_eq!(names(&d), vec!["games.bin", "shard.json", "units.log"]);
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

fn shard(tmp: &Path, name: &str, shard: &str, seed: &str) -> PathBuf {
    let d = tmp.join(name);
    sim()
        .args(["run", "--games", "50", "--rares", "0", "-q", "--seed", seed])
        .args(["--shard", shard, "--out"])
        .arg(&d)
        .assert()
        .success();
    d
}

#[test]
fn merge_names_missing_duplicated_and_foreign_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let s0 = shard(tmp.path(), "a", "0/3", "1");
    let s2 = shard(tmp.path(), "c", "2/3", "1");
    let out = tmp.path().join("out");
    let merge = |dirs: &[&PathBuf]| {
        let mut c = sim();
        c.args(["merge", "-q", "--out"]).arg(&out).args(dirs);
        c.assert()
    };
    merge(&[&s0, &s2])
        .failure()
        .code(1)
        .stderr(predicate::str::contains("missing 1 of the 3 shards: 1/3"));
    merge(&[&s0, &s2, &s0])
        .failure()
        .code(1)
        .stderr(predicate::str::contains("shard 0/3 is given 2 times"));
    let other = shard(tmp.path(), "d", "1/3", "2");
    merge(&[&s0, &other, &s2])
        .failure()
        .code(1)
        .stderr(predicate::str::contains(
            "not shards of the same run: seed: 1 vs 2",
        ));
    let four = shard(tmp.path(), "e", "1/4", "1");
    merge(&[&s0, &four, &s2])
        .failure()
        .code(1)
        .stderr(predicate::str::contains("shard of 3"));
    merge(&[&s0, &tmp.path().to_path_buf()])
        .failure()
        .code(1)
        .stderr(predicate::str::contains("no shard.json"));
    // A damaged shard is refused.
    let s1 = shard(tmp.path(), "b", "1/3", "1");
    let log = s1.join("units.log");
    let len = std::fs::metadata(&log).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&log)
        .unwrap()
        .set_len(len - 3)
        .unwrap();
    merge(&[&s0, &s1, &s2])
        .failure()
        .code(1)
        .stderr(predicate::str::contains("incomplete or damaged"));
    assert!(!out.exists(), "a failed merge wrote {out:?}");
}

#[test]
fn bad_shard_flags_and_precision_experiments_are_refused() {
    for bad in ["3/3", "1", "a/b", "0/0"] {
        sim()
            .args(["run", "--games", "10", "--shard", bad])
            .assert()
            .failure()
            .code(2)
            .stderr(predicate::str::contains("I counts from 0"));
    }
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("p.toml");
    std::fs::write(
        &exp,
        "name = \"p\"\nplayers = [\"decks/player/BR_kojo_booda.txt\"]\n[games]\ntarget_half_width = 0.05\n[mixes]\ncounts = [\"0\"]\n",
    )
    .unwrap();
    sim()
        .args(["run", "-q", "--shard", "0/2", "--experiment"])
        .arg(&exp)
        .arg("--out")
        .arg(tmp.path().join("out"))
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("cannot be sharded"));
}

/// Starts a long run (several seconds) and returns once its checkpoint holds a unit.
fn start_long_run(out: &Path, threads: &str) -> Child {
    start_until_checkpoint(&[&LONG[..], &["--threads", threads]].concat(), out)
}

const LONG: [&str; 11] = [
    "run",
    "--games",
    "16000",
    "--rares",
    "0",
    "--rares",
    "15",
    "--seed",
    "4",
    "--per-game",
    "-q",
];

fn hidden(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = names(dir)
        .into_iter()
        .filter(|n| n.starts_with('.'))
        .collect();
    for d in ["checkpoint", "out"] {
        v.extend(
            names(&dir.join(d))
                .into_iter()
                .filter(|n| n.starts_with('.')),
        );
    }
    v
}

#[test]
fn a_run_killed_with_sigkill_resumes_to_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    sim()
        .args(LONG)
        .args(["--threads", "2", "--out"])
        .arg(&whole)
        .assert()
        .success();
    let out = tmp.path().join("out");
    let mut child = start_long_run(&out, "2");
    signal(&child, libc::SIGKILL);
    child.wait().unwrap();
    // Killed: no outputs, only the checkpoint.
    assert_eq!(names(&out), vec!["checkpoint"]);
    sim()
        .args(["run", "--resume"])
        .arg(&out)
        .args(["--threads", "1", "-q"])
        .assert()
        .success()
        .stderr(predicate::str::contains("continuing the unfinished run"));
    assert_same_outputs(&whole, &out);
    assert!(hidden(tmp.path()).is_empty(), "{:?}", hidden(tmp.path()));
    // Nothing is left to resume.
    sim()
        .args(["run", "--resume"])
        .arg(&out)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("no unfinished run"));
}

#[test]
fn sigint_and_sigterm_stop_cleanly_and_say_how_to_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    sim()
        .args(LONG)
        .args(["--threads", "2", "--out"])
        .arg(&whole)
        .assert()
        .success();
    for (sig, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let out = tmp.path().join(format!("out{sig}"));
        let child = start_long_run(&out, "2");
        signal(&child, sig);
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(code), "{err}");
        assert!(err.contains("interrupted; kept"), "{err}");
        assert!(
            err.contains(&format!("confluence-sim run --resume {}", out.display())),
            "{err}"
        );
        assert_eq!(names(&out), vec!["checkpoint"]);
        assert!(hidden(tmp.path()).is_empty(), "{:?}", hidden(tmp.path()));
        // The same command again continues the same run (as a requeued job would).
        sim()
            .args(LONG)
            .args(["--threads", "1", "--out"])
            .arg(&out)
            .assert()
            .success()
            .stderr(predicate::str::contains("continuing the unfinished run"));
        assert_same_outputs(&whole, &out);
    }
}

#[test]
fn an_unfinished_run_is_not_mixed_with_another_nor_with_changed_data() {
    let tmp = tempfile::tempdir().unwrap();
    // A deck of our own, to change it.
    let deck = tmp.path().join("deck.txt");
    std::fs::copy(root().join("decks/player/BR_kojo_booda.txt"), &deck).unwrap();
    let out = tmp.path().join("out");
    let bin = assert_cmd::cargo::cargo_bin("confluence-sim");
    let mut child = std::process::Command::new(bin)
        .current_dir(root())
        .args(LONG)
        .args(["--threads", "1", "--player"])
        .arg(&deck)
        .arg("--out")
        .arg(&out)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_checkpoint(&out);
    // While it runs, a second run cannot write its checkpoint.
    sim()
        .args(LONG)
        .args(["--threads", "1", "--player"])
        .arg(&deck)
        .arg("--out")
        .arg(&out)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("another confluence-sim run"));
    signal(&child, libc::SIGKILL);
    child.wait().unwrap();
    sim()
        .args(["run", "--games", "10", "--seed", "9", "-q", "--out"])
        .arg(&out)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains(
            "unfinished run with other settings",
        ))
        .stderr(predicate::str::contains("--resume"));
    let text = std::fs::read_to_string(&deck).unwrap();
    std::fs::write(&deck, text + "\n# changed\n").unwrap();
    sim()
        .args(["run", "--resume"])
        .arg(&out)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("changed since the run started"));
    sim()
        .args(["run", "--resume"])
        .arg(&out)
        .args(["--games", "5"])
        .assert()
        .failure()
        .code(2);
}

#[test]
fn a_run_replaces_the_old_set_whole_and_refuses_foreign_files() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let run = |extra: &[&str]| {
        let mut c = sim();
        c.args([
            "run", "--games", "40", "--rares", "0", "--rares", "15", "-q",
        ])
        .args(extra)
        .arg("--out")
        .arg(&out);
        c.assert()
    };
    run(&["--per-game"]).success();
    sim().arg("report").arg(&out).assert().success();
    assert!(names(&out).contains(&"games.parquet".to_string()));
    assert!(names(&out).contains(&"report.html".to_string()));
    // The report replaced the directory too: the run's files are still there, no
    // temporary directory beside it.
    assert!(names(&out).contains(&"summary.parquet".to_string()));
    assert_eq!(names(tmp.path()), vec!["out"]);
    // A new run without --per-game: no games.parquet, no report of the older run.
    run(&[]).success();
    assert_eq!(
        names(&out),
        vec![
            "cards.csv",
            "cards.parquet",
            "diffs.csv",
            "diffs.parquet",
            "meta.json",
            "rares.csv",
            "rares.parquet",
            "summary.csv",
            "summary.parquet"
        ]
    );
    assert_eq!(names(tmp.path()), vec!["out"]);
    // A file that is not an output: the directory is left alone.
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    run(&[])
        .failure()
        .code(1)
        .stderr(predicate::str::contains("notes.txt"))
        .stderr(predicate::str::contains("did not write"));
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine"
    );
    assert!(names(&out).contains(&"summary.csv".to_string()));
}

#[test]
fn a_precision_target_run_resumes_to_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("p.toml");
    std::fs::write(
        &exp,
        "name = \"p\"\nplayers = [\"decks/player/BR_kojo_booda.txt\"]\nseed = 3\n[games]\ntarget_half_width = 0.002\nmax_per_config = 16000\nbatch = 2000\n[mixes]\ncounts = [\"0\", \"15\"]\n",
    )
    .unwrap();
    let whole = tmp.path().join("whole");
    let run = |out: &Path| {
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("confluence-sim"));
        c.current_dir(root())
            .args(["run", "-q", "--per-game", "--experiment"])
            .arg(&exp)
            .arg("--out")
            .arg(out)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        c
    };
    assert!(run(&whole).status().unwrap().success());
    let out = tmp.path().join("out");
    let mut child = run(&out).spawn().unwrap();
    wait_for_checkpoint(&out);
    signal(&child, libc::SIGKILL);
    child.wait().unwrap();
    assert_eq!(names(&out), vec!["checkpoint"]);
    sim()
        .args(["run", "--resume"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("continuing the unfinished run"))
        .stderr(predicate::str::contains("stopped at the cap of 16000"));
    assert_same_outputs(&whole, &out);
}

#[test]
fn shards_played_with_other_expert_weights_are_not_merged() {
    let tmp = tempfile::tempdir().unwrap();
    let weights = tmp.path().join("w.toml");
    std::fs::copy(root().join("decks/policies/expert.toml"), &weights).unwrap();
    let shard = |name: &str, s: &str| {
        let d = tmp.path().join(name);
        sim()
            .args([
                "run", "--games", "40", "--rares", "0", "--policy", "expert", "-q",
            ])
            .args(["--expert-weights"])
            .arg(&weights)
            .args(["--shard", s, "--out"])
            .arg(&d)
            .assert()
            .success();
        d
    };
    let s0 = shard("a", "0/2");
    let text = std::fs::read_to_string(&weights).unwrap();
    // Any change to the file's content counts, as for decks.
    std::fs::write(&weights, text + "\n# changed\n").unwrap();
    let s1 = shard("b", "1/2");
    merge_refused(&tmp.path().join("out"), &[&s0, &s1], "expert_weights");
}

/// Every file of a directory with its content, to check that it was left alone.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    names(dir)
        .into_iter()
        .map(|n| {
            let bytes = std::fs::read(dir.join(&n)).unwrap_or_default();
            (n, bytes)
        })
        .collect()
}

#[test]
fn a_finished_shard_is_never_replaced_without_force() {
    let tmp = tempfile::tempdir().unwrap();
    let s0 = shard(tmp.path(), "s0", "0/2", "1");
    let s1 = shard(tmp.path(), "s1", "1/2", "1");
    let before = contents(&s0);
    // merge's --out may not be one of its inputs, even with --force.
    for force in [&[][..], &["--force"][..]] {
        sim()
            .args(["merge", "-q"])
            .args(force)
            .arg(&s0)
            .arg(&s1)
            .arg("--out")
            .arg(&s0)
            .assert()
            .failure()
            .code(2)
            .stderr(predicate::str::contains("one of the shards being merged"));
    }
    // A run into a finished shard, or a merge into another run's shard, is refused.
    sim()
        .args(["run", "--rares", "0", "--games", "20", "-q", "--out"])
        .arg(&s0)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains(
            "it holds shard 0/2 of a sharded run",
        ))
        .stderr(predicate::str::contains("confluence-sim merge"))
        .stderr(predicate::str::contains("--force"));
    let other = shard(tmp.path(), "other", "0/3", "7");
    let other_before = contents(&other);
    sim()
        .args(["merge", "-q"])
        .arg(&s0)
        .arg(&s1)
        .arg("--out")
        .arg(&other)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("it holds shard 0/3"));
    assert_eq!(contents(&s0), before);
    assert_eq!(contents(&other), other_before);
    // The shards still merge; --force replaces a shard on purpose.
    let merged = tmp.path().join("merged");
    sim()
        .args(["merge", "-q"])
        .arg(&s0)
        .arg(&s1)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    sim()
        .args([
            "run", "--rares", "0", "--games", "20", "-q", "--force", "--out",
        ])
        .arg(&other)
        .assert()
        .success();
    assert!(names(&other).contains(&"summary.csv".to_string()));
}

#[test]
fn an_unfinished_run_is_never_replaced_without_force() {
    let tmp = tempfile::tempdir().unwrap();
    let s0 = shard(tmp.path(), "s0", "0/2", "1");
    let s1 = shard(tmp.path(), "s1", "1/2", "1");
    // An unfinished run's checkpoint (its description is what counts).
    let unfinished = tmp.path().join("unfinished");
    std::fs::create_dir_all(unfinished.join("checkpoint")).unwrap();
    std::fs::copy(
        s0.join("shard.json"),
        unfinished.join("checkpoint/run.json"),
    )
    .unwrap();
    let before = contents(&unfinished.join("checkpoint"));
    sim()
        .args(["merge", "-q"])
        .arg(&s0)
        .arg(&s1)
        .arg("--out")
        .arg(&unfinished)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("it holds an unfinished run"))
        .stderr(predicate::str::contains(format!(
            "confluence-sim run --resume {}",
            unfinished.display()
        )));
    // A run with other settings: refused, and told how to continue or start over.
    sim()
        .args(["run", "--rares", "0", "--games", "20", "-q", "--out"])
        .arg(&unfinished)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains(
            "unfinished run with other settings",
        ))
        .stderr(predicate::str::contains("--resume"))
        .stderr(predicate::str::contains("--force"));
    assert_eq!(contents(&unfinished.join("checkpoint")), before);
    // With --force, the run starts over and finishes.
    sim()
        .args([
            "run", "--rares", "0", "--games", "20", "-q", "--force", "--out",
        ])
        .arg(&unfinished)
        .assert()
        .success();
    assert!(!unfinished.join("checkpoint").exists());
    assert!(names(&unfinished).contains(&"summary.csv".to_string()));
    // And merge --force replaces one too.
    std::fs::create_dir_all(unfinished.join("checkpoint")).unwrap();
    std::fs::copy(
        s0.join("shard.json"),
        unfinished.join("checkpoint/run.json"),
    )
    .unwrap();
    sim()
        .args(["merge", "-q", "--force"])
        .arg(&s0)
        .arg(&s1)
        .arg("--out")
        .arg(&unfinished)
        .assert()
        .success();
    assert!(!unfinished.join("checkpoint").exists());
}

#[test]
fn the_working_directory_its_parents_and_the_root_are_refused_as_out() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path().join("a/b");
    std::fs::create_dir_all(&cwd).unwrap();
    for (out, what) in [
        (".", "is the working directory"),
        ("..", "a parent of the working directory"),
        ("/", "is the root directory"),
    ] {
        let mut c = sim();
        c.current_dir(&cwd)
            .args(["run", "--rares", "0", "--games", "10", "-q", "--cards"])
            .arg(root().join("decks/cards"))
            .arg("--player")
            .arg(root().join("decks/player/BR_kojo_booda.txt"))
            .arg("--confluence")
            .arg(root().join("decks/confluence/reference.toml"))
            .args(["--out", out]);
        c.assert()
            .failure()
            .code(2)
            .stderr(predicate::str::contains(format!("--out {out}: ")))
            .stderr(predicate::str::contains(what));
    }
    assert!(names(&cwd).is_empty());
    assert_eq!(names(tmp.path()), vec!["a"]);
}

#[test]
fn report_says_to_merge_a_shard_and_to_resume_an_unfinished_run() {
    let tmp = tempfile::tempdir().unwrap();
    let s0 = shard(tmp.path(), "s0", "0/2", "1");
    sim()
        .arg("report")
        .arg(&s0)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("shard 0/2 of a sharded run"))
        .stderr(predicate::str::contains("merge the shards first"))
        .stderr(predicate::str::contains(format!(
            "confluence-sim merge {} ... --out DIR",
            s0.display()
        )));
    let unfinished = tmp.path().join("unfinished");
    std::fs::create_dir_all(unfinished.join("checkpoint")).unwrap();
    std::fs::copy(
        s0.join("shard.json"),
        unfinished.join("checkpoint/run.json"),
    )
    .unwrap();
    sim()
        .arg("report")
        .arg(&unfinished)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "continue it with `confluence-sim run --resume {}`",
            unfinished.display()
        )));
    assert_eq!(names(&unfinished), vec!["checkpoint"]);
}

#[test]
fn shards_of_other_seeds_are_named_by_their_seed_whatever_the_mixes() {
    let tmp = tempfile::tempdir().unwrap();
    // One random subset of one rare: the two seeds draw other mixes as well.
    let shard = |name: &str, s: &str, seed: &str| {
        let d = tmp.path().join(name);
        sim()
            .args([
                "run",
                "--games",
                "20",
                "--rares",
                "1",
                "--subsets",
                "1",
                "-q",
            ])
            .args(["--seed", seed, "--shard", s, "--out"])
            .arg(&d)
            .assert()
            .success();
        d
    };
    let a = shard("a", "0/2", "1");
    let b = shard("b", "1/2", "2");
    assert_ne!(
        std::fs::read_to_string(a.join("shard.json"))
            .unwrap()
            .split("\"mixes\"")
            .nth(1)
            .map(|s| s[..20].to_string()),
        std::fs::read_to_string(b.join("shard.json"))
            .unwrap()
            .split("\"mixes\"")
            .nth(1)
            .map(|s| s[..20].to_string()),
        "the test needs shards whose mixes differ"
    );
    merge_refused(
        &tmp.path().join("out"),
        &[&a, &b],
        "not shards of the same run: seed: 1 vs 2",
    );
}

/// Shards played with other edits are not merged, whichever shard has them (a shard's
/// description leaves out an empty list of edits: a missing list equals an empty one).
#[test]
fn shards_played_with_other_edits_are_not_merged_in_either_order() {
    let tmp = tempfile::tempdir().unwrap();
    let plain = shard(tmp.path(), "plain", "0/2", "1");
    let edited = tmp.path().join("edited");
    sim()
        .args(["run", "--games", "50", "--rares", "0", "-q", "--seed", "1"])
        .args(["--edit", "Gloom Wisp: forest -1", "--shard", "1/2", "--out"])
        .arg(&edited)
        .assert()
        .success();
    for dirs in [[&plain, &edited], [&edited, &plain]] {
        sim()
            .args(["merge", "-q", "--out"])
            .arg(tmp.path().join("out"))
            .args(dirs)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(
                "not shards of the same run: edits",
            ));
    }
}

/// A shard of another version of the games (`sim::GAMES_VERSION`; one written before the
/// version was recorded has none) is not merged: its games are not this binary's. (A
/// checkpoint records the same description and is compared the same way.)
#[test]
fn shards_and_checkpoints_of_another_games_version_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let s0 = shard(tmp.path(), "a", "0/2", "1");
    let s1 = shard(tmp.path(), "b", "1/2", "1");
    let json = s1.join("shard.json");
    let text = std::fs::read_to_string(&json).unwrap();
    let now = format!("\"games_version\": {}", confluence_sim::sim::GAMES_VERSION);
    assert!(text.contains(&now), "{text}");
    std::fs::write(&json, text.replace(&now, "\"games_version\": 1")).unwrap();
    merge_refused(&tmp.path().join("out"), &[&s0, &s1], "games_version");
}
