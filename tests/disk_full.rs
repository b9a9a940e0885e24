//! Issue 48, item 6: a run that fails on a full disk says that its checkpoint keeps the
//! finished games and gives the command that continues it; continued once space is freed,
//! it writes the same outputs and does not claim "0 games/s" for the games it found in its
//! checkpoint. The full disk is a 256 KiB tmpfs mounted in a private mount namespace
//! (`unshare -rm`, or as root); where neither is allowed the test says so and passes.

use std::path::Path;
use std::process::Command;

mod common;
use common::sim;

const RUN: [&str; 8] = [
    "run", "--games", "300", "--rares", "0", "--rares", "15", "-q",
];

#[test]
fn a_full_disk_keeps_the_checkpoint_and_the_resumed_run_gives_its_real_speed() {
    let d = tempfile::tempdir().unwrap();
    let (mnt, logs) = (d.path().join("mnt"), d.path().join("logs"));
    std::fs::create_dir_all(&mnt).unwrap();
    std::fs::create_dir_all(&logs).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("confluence-sim");
    // The tables of this run take about 80 KiB and its checkpoint 2 KiB: 56 KiB left.
    let script = format!(
        r#"set -e
mount -t tmpfs -o size=256k tmpfs "$M"
dd if=/dev/zero of="$M/filler" bs=4k count=50 2>/dev/null
cd "{root}"
if "$BIN" {run} --out "$M/out" 2> "$L/first.err"; then echo "the first run did not fail" >&2; exit 3; fi
test -f "$M/out/checkpoint/run.json"
rm "$M/filler"
"$BIN" run --resume "$M/out" -q 2> "$L/second.err"
cp "$M/out/summary.csv" "$L/summary.csv"
"#,
        root = env!("CARGO_MANIFEST_DIR"),
        run = RUN.join(" "),
    );
    let o = Command::new("unshare")
        .args(["-rm", "sh", "-c", &script])
        .env("M", &mnt)
        .env("L", &logs)
        .env("BIN", &bin)
        .output();
    let o = match o {
        Ok(o) if o.status.success() => o,
        Ok(o) if !logs.join("first.err").exists() => {
            eprintln!(
                "skipped: cannot mount a small filesystem here ({})",
                String::from_utf8_lossy(&o.stderr).trim()
            );
            return;
        }
        Ok(o) => panic!(
            "exit {:?}: {}",
            o.status.code(),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => {
            eprintln!("skipped: no unshare ({e})");
            return;
        }
    };
    let _ = o;
    let read = |f: &str| std::fs::read_to_string(logs.join(f)).unwrap();
    let first = read("first.err");
    let out = mnt.join("out");
    assert!(first.contains("No space left on device"), "{first}");
    assert!(
        first.contains(&format!(
            "the checkpoint in {} keeps the finished games",
            out.join("checkpoint").display()
        )) && first.contains(&format!(
            "continue with `confluence-sim run --resume {}`",
            out.display()
        )),
        "{first}"
    );
    let second = read("second.err");
    assert!(
        second.contains("600 games, all from the checkpoint (none left to play)"),
        "{second}"
    );
    assert!(!second.contains("0 games/s"), "{second}");
    // The same tables as a run on a disk with room.
    let whole = d.path().join("whole");
    sim().args(RUN).arg("--out").arg(&whole).assert().success();
    assert_eq!(
        read("summary.csv"),
        std::fs::read_to_string(Path::new(&whole).join("summary.csv")).unwrap()
    );
}
