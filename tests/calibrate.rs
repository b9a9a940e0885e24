//! `calibrate` through the binary, on records of simulated players whose skill is known:
//! it recovers the temperature of `skill:t=T` players within its intervals, puts `planner`
//! and `expert` nearest their own rungs, does not depend on the order of the records or the
//! thread count, and `--players` turns its output into "players like NAME" rows.

use std::collections::HashMap;
use std::path::Path;

use predicates::prelude::*;

mod common;
use common::sim;

/// The evaluator calibrate uses by default, and the one the synthetic players use.
const EVAL: &str = "fastsearch:rollouts=80";

/// Writes the records of `games` games of `policy` (seed 1) into `dir`.
fn records(policy: &str, games: &str, dir: &Path) {
    sim()
        .args([
            "replay", "--policy", policy, "--games", games, "--seed", "1",
        ])
        .arg("--records")
        .arg(dir)
        .assert()
        .success();
}

/// calibration.csv as rows of column to value, by player.
fn calibration(out: &Path) -> HashMap<String, HashMap<String, String>> {
    let mut r = csv::Reader::from_path(out.join("calibration.csv")).unwrap();
    let head = r.headers().unwrap().clone();
    r.records()
        .map(|row| {
            let row = row.unwrap();
            let m: HashMap<String, String> = head
                .iter()
                .zip(row.iter())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            (m["player"].clone(), m)
        })
        .collect()
}

fn num(row: &HashMap<String, String>, k: &str) -> f64 {
    row[k]
        .parse()
        .unwrap_or_else(|_| panic!("{k} = {:?}", row[k]))
}

#[test]
fn calibrate_recovers_the_temperature_of_skill_players() {
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let (two, eight) = (
        format!("skill:t=2,from={EVAL}"),
        format!("skill:t=8,from={EVAL}"),
    );
    records(&two, "12", &dir.path().join("two"));
    records(&eight, "12", &dir.path().join("eight"));
    sim()
        .arg("calibrate")
        .arg(dir.path().join("two"))
        .arg(dir.path().join("eight"))
        .arg("--out")
        .arg(out.path().join("cal"))
        .args(["-q", "--bootstrap", "50"])
        .assert()
        .success();
    let rows = calibration(&out.path().join("cal"));
    assert_eq!(rows.len(), 2);
    for (t0, width) in [(2.0, 2.5), (8.0, 10.0)] {
        let row = rows
            .values()
            .find(|r| r["player"].starts_with(&format!("skill:t={t0},")))
            .unwrap();
        let (t, lo, hi) = (num(row, "t"), num(row, "t_lo"), num(row, "t_hi"));
        assert!(num(row, "decisions") >= 200.0, "{row:?}");
        assert!(lo <= t0 && t0 <= hi, "t0 {t0}: fitted {t} [{lo}, {hi}]");
        // Measured at about 200 decisions (docs/calibration.md): 1.4 to 2.2 points wide at
        // t = 2, 5.3 to 8.0 at t = 8.
        assert!(
            hi - lo < width,
            "t0 {t0}: interval [{lo}, {hi}] wider than {width}"
        );
    }
    // The cooler player gives away less value per decision.
    let by = |t0: &str| {
        rows.values()
            .find(|r| r["player"].starts_with(t0))
            .map(|r| num(r, "given_away"))
            .unwrap()
    };
    assert!(by("skill:t=2,") < by("skill:t=8,"));
}

#[test]
fn calibrate_puts_each_rung_nearest_itself_and_does_not_depend_on_order_or_threads() {
    let dir = tempfile::tempdir().unwrap();
    let (p, e) = (dir.path().join("p"), dir.path().join("e"));
    records("planner", "8", &p);
    records("expert", "8", &e);
    let out = tempfile::tempdir().unwrap();
    let run = |dirs: [&Path; 2], threads: &str, name: &str| {
        sim()
            .arg("calibrate")
            .args(dirs)
            .arg("--out")
            .arg(out.path().join(name))
            .args(["-q", "--threads", threads, "--bootstrap", "20"])
            .assert()
            .success();
        out.path().join(name)
    };
    let a = run([&p, &e], "1", "a");
    let b = run([&e, &p], "2", "b");
    for f in ["calibration.csv", "calibration.json"] {
        let text = |d: &Path| std::fs::read_to_string(d.join(f)).unwrap();
        assert_eq!(
            text(&a),
            text(&b),
            "{f} depends on the order or the threads"
        );
    }
    let rows = calibration(&a);
    for rung in ["planner", "expert"] {
        let row = &rows[rung];
        let own = num(row, &format!("agree_{rung}"));
        for other in ["greedy", "planner", "expert", "fastsearch"] {
            if other != rung {
                assert!(
                    own > num(row, &format!("agree_{other}")),
                    "{rung} agrees with {other} more than with itself: {row:?}"
                );
            }
        }
    }
    assert!(
        std::fs::read_to_string(a.join("calibration.md"))
            .unwrap()
            .contains("replay --file")
    );
}

#[test]
fn players_like_yours_are_rows_of_a_run() {
    let dir = tempfile::tempdir().unwrap();
    records(&format!("skill:t=4,from={EVAL}"), "3", dir.path());
    let out = tempfile::tempdir().unwrap();
    let cal = out.path().join("cal");
    sim()
        .arg("calibrate")
        .arg(dir.path())
        .arg("--out")
        .arg(&cal)
        .args(["-q", "--bootstrap", "0"])
        .assert()
        .success();
    // A person's name as play records it: rename the player in the calibration.
    let path = cal.join("calibration.json");
    let mut j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    j["players"][0]["player"] = "Alice".into();
    std::fs::write(&path, j.to_string()).unwrap();
    let run = out.path().join("run");
    sim()
        .args([
            "run", "--policy", "greedy", "--games", "4", "--rares", "0", "-q",
        ])
        .arg("--players")
        .arg(&path)
        .arg("--out")
        .arg(&run)
        .assert()
        .success();
    let summary = std::fs::read_to_string(run.join("summary.csv")).unwrap();
    assert!(summary.contains("name=Alice"), "{summary}");
    // compare takes one --policy and the calibrated players as the others.
    let cmp = out.path().join("compare");
    sim()
        .args([
            "compare", "--policy", "greedy", "--games", "4", "--rares", "0", "-q",
        ])
        .args(["--player", "decks/player/BR_kojo_booda.txt", "--players"])
        .arg(&path)
        .arg("--out")
        .arg(&cmp)
        .assert()
        .success();
    assert!(
        std::fs::read_to_string(cmp.join("compare.csv"))
            .unwrap()
            .contains("name=Alice")
    );
    sim().arg("report").arg(&run).assert().success();
    let report = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(report.contains("players like Alice (skill t="), "{report}");
}

#[test]
fn calibrate_says_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let calibrate = |extra: &[&str]| {
        let mut c = sim();
        c.arg("calibrate")
            .arg(dir.path())
            .args(extra)
            .arg("--out")
            .arg(out.path().join("c"));
        c.assert()
    };
    calibrate(&[])
        .code(1)
        .stderr(predicate::str::contains("no game records"));
    std::fs::write(dir.path().join("bad.jsonl"), "{\"event\":\"record\"}\n").unwrap();
    calibrate(&[])
        .code(1)
        .stderr(predicate::str::contains("bad.jsonl:1:"));
    std::fs::remove_file(dir.path().join("bad.jsonl")).unwrap();
    records("greedy", "1", dir.path());
    calibrate(&["--evaluator", "greedy"])
        .code(2)
        .stderr(predicate::str::contains("--evaluator"));
    assert!(!out.path().join("c").exists(), "no partial output");
}

/// `ladder --skill`: the skill curve's points are rows of their own, and each rung gets the
/// temperature whose win rate equals its own, or none outside the curve.
#[test]
fn the_ladder_reads_each_rung_on_the_skill_curve() {
    let out = tempfile::tempdir().unwrap();
    let ladder = |skill: &str, name: &str| {
        let dir = out.path().join(name);
        sim()
            .args([
                "ladder", "--policy", "greedy", "--skill", skill, "--games", "60", "-q",
            ])
            .arg("--out")
            .arg(&dir)
            .assert()
            .success();
        let mut r = csv::Reader::from_path(dir.join("ladder.csv")).unwrap();
        let head = r.headers().unwrap().clone();
        r.records()
            .map(|row| {
                let row = row.unwrap();
                head.iter()
                    .zip(row.iter())
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect::<HashMap<_, _>>()
            })
            .collect::<Vec<_>>()
    };
    let rows = ladder("0,64", "wide");
    assert_eq!(rows.len(), 6, "greedy and two curve points, at two mixes");
    for r in &rows {
        let curve = r["skill_curve"] == "true";
        assert_eq!(curve, r["policy"].starts_with("skill:t="), "{r:?}");
        if curve {
            assert_eq!(r["t_equiv"], "", "{r:?}");
        } else {
            let t = num(r, "t_equiv");
            assert!(t > 0.0 && t < 64.0, "greedy reads as t = {t}");
        }
    }
    // Between t = 0 and 1 there is no player as weak as greedy: outside the curve.
    let rows = ladder("0,1", "narrow");
    let greedy = rows.iter().find(|r| r["policy"] == "greedy").unwrap();
    assert_eq!(greedy["t_equiv"], "");
}

/// `tune --players` tunes for the one calibrated player of the file, and with several asks
/// which (listing the specs to give).
#[test]
fn tune_takes_one_calibrated_player() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.json");
    let cal = |players: &str| {
        format!("{{\"evaluator\": \"search:rollouts=2,width=2\", \"players\": [{players}]}}")
    };
    std::fs::write(&one, cal("{\"player\": \"Bob\", \"t\": 3.0}")).unwrap();
    let out = dir.path().join("tune");
    sim()
        .args(["tune", "--target", "0.5", "--games", "2", "--subsets", "1"])
        .args(["--candidates", "1", "--confirm", "2", "-q", "--players"])
        .arg(&one)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let text = std::fs::read_to_string(out.join("tune_candidates.csv")).unwrap();
    assert!(
        text.contains("skill:t=3,name=Bob,from=search:rollouts=2,width=2"),
        "{text}"
    );
    let two = dir.path().join("two.json");
    std::fs::write(
        &two,
        cal("{\"player\": \"Bob\", \"t\": 3.0}, {\"player\": \"Eve\", \"t\": 9.5}"),
    )
    .unwrap();
    sim()
        .args(["tune", "--target", "0.5", "--players"])
        .arg(&two)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "'skill:t=9.5,name=Eve,from=search:rollouts=2,width=2'",
        ));
}
