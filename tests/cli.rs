//! Drives the real binary: outputs, determinism, replay, and every kind of bad input.

use std::path::Path;

use predicates::prelude::*;

mod common;
use common::{names as outputs, root, sim};

fn fixture(p: &str) -> String {
    root().join("tests/fixtures").join(p).display().to_string()
}

#[test]
fn run_writes_summary_csv_and_parquet_that_read_back() {
    let dir = tempfile::tempdir().unwrap();
    sim()
        .args([
            "run",
            "--games",
            "300",
            "--rares",
            "0..=1",
            "--subsets",
            "2",
            "-q",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    assert_eq!(
        outputs(dir.path()),
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
    // 1 (no rares) + 2 subsets of one rare = 3 configurations.
    let csv = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(csv.as_bytes());
    let headers = rdr.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 3);
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    for r in &rows {
        let games: u64 = r[col("games")].parse().unwrap();
        let wins: u64 = r[col("wins")].parse().unwrap();
        let losses: u64 = r[col("losses")].parse().unwrap();
        let caps: u64 = r[col("day_caps")].parse().unwrap();
        assert_eq!(games, 300);
        assert_eq!(wins + losses + caps, games);
        let (lo, p, hi): (f64, f64, f64) = (
            r[col("win_rate_lo")].parse().unwrap(),
            r[col("win_rate")].parse().unwrap(),
            r[col("win_rate_hi")].parse().unwrap(),
        );
        assert!(lo <= p && p <= hi);
        let hist: u64 = r[col("day_histogram")]
            .split(';')
            .map(|x| x.parse::<u64>().unwrap())
            .sum();
        assert_eq!(hist, games);
    }
    let t = confluence_sim::export::parquet::read(&dir.path().join("summary.parquet")).unwrap();
    assert_eq!(t.rows(), 3);
    let names: Vec<&str> = t.columns.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        headers.iter().collect::<Vec<_>>(),
        "CSV and Parquet carry the same columns"
    );
    match t.column("games") {
        Some(confluence_sim::export::ColumnData::U64(v)) => assert_eq!(v, &vec![300, 300, 300]),
        other => panic!("games column: {other:?}"),
    }
}

#[test]
fn same_seed_gives_identical_outputs_on_one_and_two_threads() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    for (dir, threads) in [(&a, "1"), (&b, "2")] {
        sim()
            .args([
                "run",
                "--games",
                "700",
                "--rares",
                "0..=2",
                "--subsets",
                "1",
                "--seed",
                "7",
                "-q",
            ])
            .args([
                "--policy",
                "greedy",
                "--policy",
                "random",
                "--threads",
                threads,
                "--per-game",
                "--out",
            ])
            .arg(dir.path())
            .assert()
            .success();
    }
    for f in ["summary.csv", "summary.parquet", "games.parquet"] {
        let x = std::fs::read(a.path().join(f)).unwrap();
        let y = std::fs::read(b.path().join(f)).unwrap();
        assert!(x == y, "{f} differs between 1 and 2 threads");
    }
}

#[test]
fn per_game_rows_cover_every_game_and_replay_agrees() {
    let dir = tempfile::tempdir().unwrap();
    sim()
        .args([
            "run",
            "--games",
            "40",
            "--rares",
            "15",
            "--seed",
            "3",
            "-q",
            "--per-game",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let t = confluence_sim::export::parquet::read(&dir.path().join("games.parquet")).unwrap();
    assert_eq!(t.rows(), 40);
    let (
        Some(confluence_sim::export::ColumnData::Str(results)),
        Some(confluence_sim::export::ColumnData::U32(days)),
    ) = (t.column("result"), t.column("days"))
    else {
        panic!("games.parquet columns")
    };
    for i in [0usize, 11, 39] {
        let out = sim()
            .args([
                "replay",
                "--rares",
                "15",
                "--seed",
                "3",
                "--game-index",
                &i.to_string(),
                "--json",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let end: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(end["event"], "end");
        assert_eq!(end["result"], results[i].as_str(), "game {i}");
        assert_eq!(end["days"], days[i], "game {i}");
    }
}

#[test]
fn replay_prints_a_readable_log() {
    sim()
        .args(["replay", "--rares", "0", "--game-index", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Adventure as laid out"))
        .stdout(predicate::str::contains("=== Day 1 ===").or(predicate::str::contains("Dusk:")))
        .stdout(predicate::str::contains(
            "Confluence reveals the top card of its hand",
        ))
        .stdout(predicate::str::contains("=== End on day"));
}

#[test]
fn replay_json_logs_dusk_confluence_turns_and_midnight_in_full() {
    let out = sim()
        .args(["replay", "--rares", "0", "--game-index", "5", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let events: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let dusk = events
        .iter()
        .find(|e| e["event"] == "dusk")
        .expect("a dusk event");
    let exp = &dusk["expeditions"][0];
    for k in [
        "region",
        "terrains",
        "totals",
        "facing",
        "requirement",
        "advanced",
        "why",
    ] {
        assert!(!exp[k].is_null(), "dusk lacks {k}");
    }
    let turn = events
        .iter()
        .find(|e| e["event"] == "confluence_turn")
        .expect("a Confluence turn");
    for k in ["hand", "ready_mana", "reserve", "action"] {
        assert!(!turn[k].is_null(), "confluence_turn lacks {k}");
    }
    if let Some(m) = events.iter().find(|e| e["event"] == "midnight") {
        for k in ["card", "indication", "before", "after"] {
            assert!(!m[k].is_null(), "midnight lacks {k}");
        }
    }
}

/// A bad input: exit code 1, the message names what is wrong, and nothing is written.
fn rejects(args: &[&str], needles: &[&str]) {
    rejects_with(1, args, needles)
}

/// A bad flag value: exit code 2 (see also tests/catalogue.rs).
fn rejects_usage(args: &[&str], needles: &[&str]) {
    rejects_with(2, args, needles)
}

fn rejects_with(code: i32, args: &[&str], needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    let mut cmd = sim();
    cmd.args(args)
        .args(["--games", "10", "-q", "--out"])
        .arg(&out_dir);
    let assert = cmd.assert().failure().code(code);
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    for n in needles {
        assert!(err.contains(n), "stderr lacks {n:?}:\n{err}");
    }
    assert!(
        outputs(&out_dir)
            .iter()
            .all(|f| !f.starts_with("summary") && !f.starts_with("games")),
        "partial output left behind: {:?}",
        outputs(&out_dir)
    );
}

#[test]
fn unknown_card_reference_names_file_and_line() {
    let f = fixture("decks/unknown_ref.txt");
    rejects(
        &["run", "--player", &f],
        &[
            "unknown_ref.txt:7",
            "unknown card reference 'ALT_CORE_B_BR_99_C'",
        ],
    );
}

#[test]
fn malformed_line_names_file_line_and_value() {
    let f = fixture("decks/malformed.txt");
    rejects(
        &["run", "--player", &f],
        &["malformed.txt:7", "'three' is not a card count"],
    );
}

#[test]
fn deck_building_rules_are_checked() {
    rejects(
        &["run", "--player", &fixture("decks/too_few.txt")],
        &["too_few.txt", "37 cards", "at least 39"],
    );
    rejects(
        &["run", "--player", &fixture("decks/four_copies.txt")],
        &["four_copies.txt:7", "more than 3 copies of 'Atlas'"],
    );
    rejects(
        &["run", "--player", &fixture("decks/too_many_rares.txt")],
        &["too_many_rares.txt", "more than 15 rare cards"],
    );
    rejects(
        &["run", "--player", &fixture("decks/wrong_faction.txt")],
        &[
            "wrong_faction.txt:7",
            "'Kelon Elemental' is AX",
            "hero's faction",
        ],
    );
    rejects(
        &["run", "--player", &fixture("decks/no_hero.txt")],
        &["no_hero.txt", "no hero"],
    );
    rejects(
        &["run", "--player", &fixture("decks/two_heroes.txt")],
        &["two_heroes.txt:28", "a second hero"],
    );
}

#[test]
fn allow_illegal_simulates_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    sim()
        .args([
            "run",
            "--games",
            "20",
            "--rares",
            "0",
            "-q",
            "--allow-illegal",
            "--player",
        ])
        .arg(fixture("decks/four_copies.txt"))
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success()
        .stderr(predicate::str::contains("more than 3 copies of 'Atlas'"))
        .stderr(predicate::str::contains("--allow-illegal"));
    assert!(dir.path().join("summary.csv").exists());
}

#[test]
fn decks_can_name_cards_in_english() {
    let dir = tempfile::tempdir().unwrap();
    let by_ref = tempfile::tempdir().unwrap();
    for (d, deck) in [(&dir, "decks/by_name.txt"), (&by_ref, "decks/legal.txt")] {
        sim()
            .args(["run", "--games", "50", "--rares", "0", "-q", "--player"])
            .arg(fixture(deck))
            .arg("--out")
            .arg(d.path())
            .assert()
            .success();
    }
    // Same cards, same seed: the same results (the deck name column aside).
    let strip = |p: &Path| {
        std::fs::read_to_string(p.join("summary.csv"))
            .unwrap()
            .replace("by_name", "X")
            .replace("legal", "X")
    };
    assert_eq!(strip(dir.path()), strip(by_ref.path()));
    // Names in decomposed Unicode (as macOS and copy and paste give them), in another case
    // and without accents are the same names.
    let folded = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("decks/by_name.txt"))
        .unwrap()
        .replace("3 Issun-b\u{14d}shi", "3 Issun-bo\u{304}shi")
        .replace("3 Atlas", "3 ATLAS")
        .replace("2 Physical Training\n", "2 physical training\n");
    assert!(text.contains("Issun-bo\u{304}shi"));
    let deck = folded.path().join("by_name.txt");
    std::fs::write(&deck, text).unwrap();
    let out = folded.path().join("out");
    sim()
        .args(["run", "--games", "50", "--rares", "0", "-q", "--player"])
        .arg(&deck)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    assert_eq!(strip(&out), strip(by_ref.path()));
}

#[test]
fn bad_confluence_decks_are_rejected() {
    rejects(
        &["run", "--confluence", &fixture("confluence/not_55.toml")],
        &["not_55.toml", "54 common cards", "exactly 55"],
    );
    rejects(
        &[
            "run",
            "--confluence",
            &fixture("confluence/orphan_rare.toml"),
        ],
        &[
            "orphan_rare.toml",
            "rare 'Grasping Shadowz' has no common twin",
        ],
    );
    rejects(
        &[
            "run",
            "--confluence",
            &fixture("confluence/bad_ability.toml"),
        ],
        &["bad_ability.toml", "Dusk Herald", "unknown effect 'drawe'"],
    );
    // Slips TOML accepts: a field under a section comment joins the card above it.
    rejects(
        &[
            "run",
            "--confluence",
            &fixture("confluence/stray_field.toml"),
        ],
        &[
            "stray_field.toml:375",
            "'keywords' stands apart from its card",
            "line 362",
        ],
    );
    rejects(
        &[
            "run",
            "--confluence",
            &fixture("confluence/landmark_persistent.toml"),
        ],
        &[
            "landmark_persistent.toml",
            "Nightglass Lantern",
            "keyword 'persistent' makes no sense on a landmark",
        ],
    );
}

#[test]
fn unknown_policy_and_rare_names_are_rejected() {
    rejects_usage(
        &["run", "--policy", "wizard"],
        &["--policy wizard", "unknown policy 'wizard'"],
    );
    rejects_usage(
        &["run", "--rare-set", "Gloom Wisp,Nobody"],
        &["--rare-set", "'Nobody' is not a rare"],
    );
    rejects_usage(&["run", "--rares", "16"], &["--rares 16", "<= 15"]);
    rejects_usage(
        &["run", "--policy", "greedy", "--policy", "greedy"],
        &["--policy greedy: given twice"],
    );
}

#[test]
fn help_says_that_a_rare_range_a_dot_dot_b_leaves_b_out() {
    let help = sim().args(["run", "--help"]).assert().success();
    let text = String::from_utf8(help.get_output().stdout.clone()).unwrap();
    assert!(text.contains("A..B, as in"), "{text}");
    assert!(text.contains("leaves B out (3..5 is 3 and 4)"), "{text}");
}

#[test]
fn unwritable_output_directory_is_reported_before_running() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "not a directory").unwrap();
    sim()
        .args(["run", "--games", "10", "--rares", "0", "-q", "--out"])
        .arg(blocker.join("sub"))
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("--out"))
        .stderr(predicate::str::contains("file/sub"));
}

#[test]
fn usage_errors_exit_2() {
    sim()
        .args(["run", "--games", "many"])
        .assert()
        .failure()
        .code(2);
    sim().args(["frobnicate"]).assert().failure().code(2);
}

#[test]
fn starter_decks_are_fully_encoded() {
    let mut cmd = sim();
    cmd.args(["cards", "coverage"]);
    for d in std::fs::read_dir(root().join("decks/player")).unwrap() {
        cmd.arg("--deck").arg(d.unwrap().path());
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let decks: Vec<&str> = text.lines().filter(|l| l.starts_with("deck ")).collect();
    assert_eq!(decks.len(), 6, "{text}");
    for l in decks {
        assert!(l.contains("(100.0%)"), "not fully exact: {l}");
    }
}

#[test]
fn scenario_reports_broken_expectations() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("s.toml");
    std::fs::write(
        &f,
        "description = \"a wrong expectation\"\nsteps = [\"dusk\"]\n[expect]\nhero_position = 5\n",
    )
    .unwrap();
    sim()
        .arg("scenario")
        .arg(&f)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains(
            "hero_position: expected 5, found 0",
        ));
}

#[test]
fn scenario_reports_more_reactions_than_the_engine_queues() {
    sim()
        .arg("scenario")
        .arg(fixture("too_many_reactions.toml"))
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("too_many_reactions.toml"))
        .stderr(predicate::str::contains(
            "more reactions triggered at once than the engine queues (32)",
        ));
}

/// Re-derives every Dusk verdict and every Confluence turn of several games from the logged
/// JSON alone (no engine), and checks they agree with what the log says happened.
#[test]
fn replay_json_is_enough_to_rederive_dusks_and_confluence_turns() {
    let mut dusks = 0;
    let mut turns = 0;
    for (mix, game) in [("0", 1), ("0", 4), ("15", 2), ("15", 9), ("0..=15", 3)] {
        let out = sim()
            .args([
                "replay",
                "--rares",
                mix,
                "--mix-index",
                "0",
                "--game-index",
                &game.to_string(),
                "--json",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let events: Vec<serde_json::Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        for (i, e) in events.iter().enumerate() {
            if e["event"] == "dusk" {
                for x in e["expeditions"].as_array().unwrap() {
                    dusks += 1;
                    let t = &x["totals"];
                    let (mut f, mut m, mut o) = (
                        t["f"].as_i64().unwrap(),
                        t["m"].as_i64().unwrap(),
                        t["o"].as_i64().unwrap(),
                    );
                    let mut all = true;
                    for fo in x["facing"].as_array().unwrap() {
                        if fo["asleep"].as_bool().unwrap() {
                            continue;
                        }
                        if fo["overcome"].as_bool().unwrap() {
                            f -= fo["f"].as_i64().unwrap();
                            m -= fo["m"].as_i64().unwrap();
                            o -= fo["o"].as_i64().unwrap();
                        } else {
                            all = false;
                        }
                    }
                    assert!(
                        f >= 0 && m >= 0 && o >= 0,
                        "overcome objects exceed the totals: {x}"
                    );
                    assert_eq!(
                        (f, m, o),
                        (
                            x["remaining"]["f"].as_i64().unwrap(),
                            x["remaining"]["m"].as_i64().unwrap(),
                            x["remaining"]["o"].as_i64().unwrap()
                        )
                    );
                    let req = x["requirement"].as_str().unwrap();
                    let pays = (!req.contains('F') || f >= 1)
                        && (!req.contains('M') || m >= 1)
                        && (!req.contains('O') || o >= 1);
                    let plain = x["added"] == "-" && !x["ascend"].as_bool().unwrap();
                    if plain
                        && !x["facing"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .any(|fo| fo["gigantic"].as_bool().unwrap())
                    {
                        let cleared = all && pays;
                        assert_eq!(x["cleared"].as_bool().unwrap(), cleared, "{x}");
                        let advanced = cleared
                            && !x["defender"].as_bool().unwrap()
                            && x["why"] != "cleared, but an effect prevents it from moving forward";
                        assert_eq!(x["advanced"].as_bool().unwrap(), advanced, "{x}");
                    }
                }
            }
            if e["event"] == "confluence_turn" {
                turns += 1;
                // The reveals logged just before this record, in order, with their full cost.
                let reveals: Vec<&serde_json::Value> = events[..i]
                    .iter()
                    .rev()
                    .take_while(|r| {
                        r["event"] != "confluence_turn" && r["event"] != "pass"
                            || r["event"] == "confluence_reveals"
                    })
                    .filter(|r| r["event"] == "confluence_reveals")
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let mut ready = e["ready_mana"].as_i64().unwrap();
                let hand = e["hand"].as_array().unwrap();
                let mut expected = None;
                for (k, card) in hand.iter().enumerate() {
                    let cost = reveals.get(k).map_or(card["cost"].as_i64().unwrap(), |r| {
                        r["cost"].as_i64().unwrap()
                    });
                    if cost <= ready
                        && reveals
                            .get(k)
                            .is_none_or(|r| r["playable"].as_bool().unwrap())
                    {
                        expected = Some(("play_from_hand", card["id"].clone()));
                        break;
                    }
                    ready += 1; // into Mana, ready
                }
                if expected.is_none() {
                    // Highest Reserve cost it can afford, leftmost on ties.
                    let mut best: Option<&serde_json::Value> = None;
                    for r in e["reserve"].as_array().unwrap() {
                        let c = r["cost"].as_i64().unwrap();
                        if c <= ready && best.is_none_or(|b| c > b["cost"].as_i64().unwrap()) {
                            best = Some(r);
                        }
                    }
                    expected = Some(match best {
                        Some(b) => ("play_from_reserve", b["id"].clone()),
                        None => ("pass", serde_json::Value::Null),
                    });
                }
                let (kind, id) = expected.unwrap();
                let action = &e["action"];
                assert_eq!(action["type"], kind, "turn {e}");
                if kind != "pass" {
                    assert_eq!(action["card"]["id"], id, "turn {e}");
                }
            }
        }
    }
    assert!(
        dusks > 20 && turns > 20,
        "too few events checked: {dusks} dusks, {turns} turns"
    );
}

fn read_table(p: &Path) -> confluence_sim::export::Table {
    confluence_sim::export::parquet::read(p).unwrap()
}

fn f64s(t: &confluence_sim::export::Table, c: &str) -> Vec<f64> {
    match t.column(c) {
        Some(confluence_sim::export::ColumnData::F64(v)) => v.clone(),
        other => panic!("{c}: {other:?}"),
    }
}

fn u32s(t: &confluence_sim::export::Table, c: &str) -> Vec<u32> {
    match t.column(c) {
        Some(confluence_sim::export::ColumnData::U32(v)) => v.clone(),
        other => panic!("{c}: {other:?}"),
    }
}

#[test]
fn paired_differences_match_the_win_rates_and_rares_are_estimated() {
    let dir = tempfile::tempdir().unwrap();
    sim()
        .args([
            "run",
            "--games",
            "400",
            "--rares",
            "0..=15",
            "--subsets",
            "2",
            "-q",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let summary = read_table(&dir.path().join("summary.parquet"));
    let diffs = read_table(&dir.path().join("diffs.parquet"));
    let rate = f64s(&summary, "win_rate");
    let (id, base, d) = (
        u32s(&diffs, "config_id"),
        u32s(&diffs, "baseline_config_id"),
        f64s(&diffs, "diff"),
    );
    assert_eq!(
        id.len(),
        summary.rows() - 1,
        "every configuration but the baseline is paired"
    );
    for i in 0..id.len() {
        // Same games on the same indices: the mean of the differences is the difference.
        let want = rate[id[i] as usize] - rate[base[i] as usize];
        assert!(
            (d[i] - want).abs() < 1e-12,
            "config {}: {} vs {want}",
            id[i],
            d[i]
        );
        assert!(f64s(&diffs, "diff_lo")[i] <= d[i] && d[i] <= f64s(&diffs, "diff_hi")[i]);
    }
    let rares = read_table(&dir.path().join("rares.parquet"));
    assert_eq!(
        rares.rows(),
        15,
        "one effect per rare from the sweep's regression"
    );
    let cards = read_table(&dir.path().join("cards.parquet"));
    let rates = f64s(&cards, "play_rate");
    assert!(rates.iter().all(|r| (0.0..=1.0).contains(r)));
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("meta.json")).unwrap())
            .unwrap();
    assert_eq!(meta["seed"], 1);
    assert_eq!(meta["decks"][0]["not_exact"], 0);
}

#[test]
fn experiment_files_run_to_a_precision_target() {
    let dir = tempfile::tempdir().unwrap();
    let exp = dir.path().join("e.toml");
    std::fs::write(
        &exp,
        "name = \"t\"\nplayers = [\"decks/player/OR_sigismar_wingspan.txt\"]\npolicies = [\"random\", \"greedy\"]\n\
         [games]\ntarget_half_width = 0.04\nmax_per_config = 5000\nbatch = 300\n\
         [mixes]\ncounts = [\"0\"]\none_at_a_time = [\"from_rare\"]\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    sim()
        .args(["run", "-q", "--experiment"])
        .arg(&exp)
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("precision reached"));
    let summary = read_table(&out.join("summary.parquet"));
    // 2 policies x (all-common + all-rare + 15 all-but-one).
    assert_eq!(summary.rows(), 34);
    let (lo, hi) = (f64s(&summary, "win_rate_lo"), f64s(&summary, "win_rate_hi"));
    assert!(lo.iter().zip(&hi).all(|(l, h)| (h - l) / 2.0 <= 0.04));
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["experiment"], "t");
}

#[test]
fn bad_experiment_files_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let exp = dir.path().join("e.toml");
    std::fs::write(&exp, "name = \"t\"\nplayers = [\"decks/player/BR_kojo_booda.txt\"]\n[games]\n[mixes]\ncounts = [\"0\"]\n").unwrap();
    sim()
        .args(["run", "-q", "--experiment"])
        .arg(&exp)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("needs either per_config"));
    std::fs::write(&exp, "name = \"t\"\nplayer = []\n").unwrap();
    sim()
        .args(["run", "-q", "--experiment"])
        .arg(&exp)
        .assert()
        .failure()
        .stderr(predicate::str::contains("e.toml:2"))
        .stderr(predicate::str::contains("player"));
}

#[test]
fn tune_finds_candidates_and_ranks_rares() {
    let dir = tempfile::tempdir().unwrap();
    sim()
        .args([
            "tune",
            "--target",
            "0.4",
            "--games",
            "300",
            "--candidates",
            "3",
            "--confirm",
            "500",
            "-q",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("Closest mixes"))
        .stdout(predicate::str::contains("Rares by effect"));
    let cand = read_table(&dir.path().join("tune_candidates.parquet"));
    assert_eq!(cand.rows(), 3);
    let dist = f64s(&cand, "distance");
    assert!(
        dist.windows(2).all(|w| w[0] <= w[1]),
        "candidates sorted by distance: {dist:?}"
    );
    let rares = read_table(&dir.path().join("tune_rares.parquet"));
    assert_eq!(rares.rows(), 15);
    let eff = f64s(&rares, "effect");
    assert!(
        eff.windows(2).all(|w| w[0] <= w[1]),
        "rares sorted by effect"
    );
    assert!(dir.path().join("tune_screening.csv").exists());
}

#[test]
fn tune_says_when_no_measured_mix_reaches_the_target() {
    let dir = tempfile::tempdir().unwrap();
    sim()
        .args([
            "tune",
            "--target",
            "0.999",
            "--games",
            "100",
            "--subsets",
            "1",
            "--candidates",
            "2",
            "--confirm",
            "200",
            "-q",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("[interval excludes the target]"))
        .stdout(predicate::str::contains(
            "No measured mix reaches the target 99.9%",
        ))
        .stdout(predicate::str::contains("every one wins less often"));
}

#[test]
fn ladder_writes_every_policy_at_both_mixes_identically_on_any_thread_count() {
    let run = |threads: &str| {
        let dir = tempfile::tempdir().unwrap();
        sim()
            .args([
                "ladder",
                "--games",
                "200",
                "--policy",
                "random",
                "--policy",
                "planner",
                "--policy",
                "search:rollouts=2,width=2",
                "--threads",
                threads,
                "--out",
            ])
            .arg(dir.path())
            .assert()
            .success()
            .stdout(predicate::str::contains("search:rollouts=2,width=2"))
            .stderr(predicate::str::contains("strictly ordered"))
            // The closing line covers both halves; without a terminal, a line per rung.
            .stderr(predicate::str::contains("with all commons, and "))
            .stderr(predicate::str::contains(" with all rares; wrote"))
            .stderr(predicate::str::contains(
                "confluence-sim: ladder: random with all commons: ",
            ))
            .stderr(predicate::str::contains(
                "confluence-sim: ladder: search:rollouts=2,width=2 with all rares: ",
            ));
        assert_eq!(
            outputs(dir.path()),
            vec!["ladder.csv", "ladder.parquet", "meta.json"]
        );
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("meta.json")).unwrap())
                .unwrap();
        assert_eq!(meta["kind"], "ladder");
        assert!(meta["command"].as_str().unwrap().contains(" ladder "));
        let t = read_table(&dir.path().join("ladder.parquet"));
        let csv = std::fs::read_to_string(dir.path().join("ladder.csv")).unwrap();
        (t, csv, dir)
    };
    let (a, csv, _d1) = run("1");
    let (b, _, _d2) = run("2");
    assert_eq!(a.rows(), 6, "3 policies x (all common, all rare)");
    assert_eq!(u32s(&a, "rare_count"), vec![0, 15, 0, 15, 0, 15]);
    let games = match a.column("games") {
        Some(confluence_sim::export::ColumnData::U64(v)) => v.clone(),
        _ => panic!("games column"),
    };
    assert!(games.iter().all(|&g| g == 200));
    let (rate, lo, hi) = (
        f64s(&a, "win_rate"),
        f64s(&a, "win_rate_lo"),
        f64s(&a, "win_rate_hi"),
    );
    for i in 0..6 {
        assert!(lo[i] <= rate[i] && rate[i] <= hi[i]);
    }
    assert!(f64s(&a, "games_per_second").iter().all(|&g| g > 0.0));
    assert!(csv.starts_with("schema_version,policy,"));
    // The committed expert weights: an empty expert_weights column.
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .ends_with(",seed,expert_weights")
    );
    assert!(
        csv.lines()
            .skip(1)
            .all(|l| l.starts_with("4,") && l.ends_with(",")),
        "{csv}"
    );
    // Every column but the measured speed is the same on one and two threads.
    // (Compared as printed: `t_equiv` is NaN without a skill curve, and NaN != NaN.)
    for (name, col) in &a.columns {
        if name != "games_per_second" && name != "threads" {
            assert_eq!(
                format!("{:?}", Some(col)),
                format!("{:?}", b.column(name)),
                "{name}"
            );
        }
    }
}

#[test]
fn ladder_rejects_bad_options() {
    rejects_usage(
        &["ladder", "--policy", "wizard"],
        &["unknown policy 'wizard'"],
    );
    rejects_usage(
        &["ladder", "--half-width", "0"],
        &["--half-width", "between 0 and 0.5"],
    );
    sim()
        .args(["ladder", "--games", "0", "-q"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--games"));
    rejects(
        &["ladder", "--player", "no/such/deck.txt"],
        &["no/such/deck.txt"],
    );
}

/// The experiment file shown in docs/balancing.md runs as written (with fewer games,
/// elsewhere).
#[test]
fn documented_experiment_example_runs() {
    let readme = std::fs::read_to_string(root().join("docs/balancing.md")).unwrap();
    let start = readme
        .find("```toml\nname = ")
        .expect("docs/balancing.md shows an experiment file");
    let body = &readme[start + "```toml\n".len()..];
    let body = &body[..body.find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let text = body
        .replace("per_config = 4000", "per_config = 20")
        .replace("reports/starter-decks", &out.display().to_string());
    assert_ne!(text, body, "the example's games and out lines changed");
    let file = dir.path().join("exp.toml");
    std::fs::write(&file, text).unwrap();
    sim()
        .args(["run", "-q", "--experiment"])
        .arg(&file)
        .assert()
        .success();
    assert!(out.join("summary.parquet").exists());
}

#[test]
fn compare_pairs_policies_on_the_same_games() {
    let dir = tempfile::tempdir().unwrap();
    sim()
        .args([
            "compare",
            "--player",
            "decks/player/BR_kojo_booda.txt",
            "--policy",
            "greedy",
            "--policy",
            "planner",
            "--policy",
            "greedy",
            "--rares",
            "0",
            "--games",
            "300",
            "-q",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    assert_eq!(
        outputs(dir.path()),
        vec!["compare.csv", "compare.parquet", "games.csv", "meta.json"]
    );
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("meta.json")).unwrap())
            .unwrap();
    assert_eq!(meta["kind"], "compare");
    assert_eq!(meta["games"], 300);
    assert!(
        meta["command"]
            .as_str()
            .unwrap()
            .contains(" compare --player decks/player/BR_kojo_booda.txt --policy greedy")
    );
    let t = read_table(&dir.path().join("compare.parquet"));
    assert_eq!(t.rows(), 3);
    let (rate, diff, lo, hi) = (
        f64s(&t, "win_rate"),
        f64s(&t, "diff"),
        f64s(&t, "diff_lo"),
        f64s(&t, "diff_hi"),
    );
    // The baseline's difference with itself is 0; the planner's is its win rate minus the
    // greedy one's (same games); greedy again plays exactly the same games.
    assert_eq!((diff[0], lo[0], hi[0]), (0.0, 0.0, 0.0));
    assert!((diff[1] - (rate[1] - rate[0])).abs() < 1e-12);
    assert!(lo[1] < diff[1] && diff[1] < hi[1]);
    assert!(
        diff[1] > 0.0,
        "the planner beats greedy on the Bravos starter"
    );
    // Its difference is 0 on games that show no variation: no interval (null), never a
    // zero-width one (issue 48, item 4).
    assert_eq!((rate[2], diff[2]), (rate[0], 0.0));
    assert!(lo[2].is_nan() && hi[2].is_nan(), "{} {}", lo[2], hi[2]);
    // Against the policy listed just before: the planner's is its difference from the
    // first; greedy again loses exactly what the planner gained.
    let (prev, prev_lo, prev_hi) = (
        f64s(&t, "diff_prev"),
        f64s(&t, "diff_prev_lo"),
        f64s(&t, "diff_prev_hi"),
    );
    assert_eq!((prev[0], prev_lo[0], prev_hi[0]), (0.0, 0.0, 0.0));
    assert_eq!((prev[1], prev_lo[1], prev_hi[1]), (diff[1], lo[1], hi[1]));
    assert!((prev[2] + diff[1]).abs() < 1e-12, "{prev:?}");
    assert!((prev_lo[2] + hi[1]).abs() < 1e-12 && (prev_hi[2] + lo[1]).abs() < 1e-12);
    let csv = std::fs::read_to_string(dir.path().join("compare.csv")).unwrap();
    let head = csv.lines().next().unwrap();
    assert!(head.ends_with(",seed,expert_weights,reused"), "{head}");
    assert!(csv.lines().nth(1).unwrap().starts_with("5,"), "{csv}");
    sim()
        .args(["compare", "--policy", "greedy", "-q"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("at least two --policy"));
}

#[test]
fn train_expert_writes_weights_the_expert_reads() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("expert.toml");
    let train = |out: &Path| {
        sim()
            .args([
                "train-expert",
                "--player",
                "decks/player/BR_kojo_booda.txt",
                "--games",
                "4",
                "--search",
                // The expert's pick, then the planner's: a teacher that disagrees with the
                // expert often enough for 4 games to give every feature examples (with the
                // expert's own ranking as candidates, it agrees too often).
                "search:rollouts=4,width=3,rank=0",
                "-q",
                "--out",
            ])
            .arg(out)
            .assert()
            .success();
        std::fs::read_to_string(out).unwrap()
    };
    let text = train(&out);
    assert!(text.contains("Produced by: confluence-sim train-expert --games 4"));
    let w = confluence_sim::policy::ExpertWeights::parse(&text).unwrap();
    assert!(w.mana.iter().chain(&w.turn).any(|&x| x != 0.0));
    // Deterministic: the same flags give the same file.
    assert_eq!(train(&dir.path().join("again.toml")), text);
}

#[test]
fn train_value_writes_a_network_the_same_on_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let train = |name: &str, threads: &str| {
        let out = dir.path().join(name);
        let o = sim()
            .args([
                "train-value",
                "--player",
                "decks/player/BR_kojo_booda.txt",
                "--games",
                "30",
                "--hidden",
                "6",
                "--epochs",
                "2",
                "--threads",
                threads,
                "-q",
                "--out",
            ])
            .arg(&out)
            .assert()
            .success();
        let table = String::from_utf8(o.get_output().stdout.clone()).unwrap();
        (std::fs::read_to_string(&out).unwrap(), table)
    };
    let (text, table) = train("a.toml", "1");
    assert!(text.contains("Produced by: confluence-sim train-value --games 30"));
    assert!(text.contains("The player used no value model."));
    let net = confluence_sim::policy::value::ValueNet::parse(&text).unwrap();
    assert_eq!(net.hidden, 6);
    assert!(net.w1.iter().any(|&x| x != 0.0));
    assert!(table.contains("| logistic, same inputs |"), "{table}");
    assert!(table.contains("| network, 6 hidden units |"), "{table}");
    // Byte for byte, whatever the thread count.
    assert_eq!(train("b.toml", "2").0, text);
}

#[test]
fn train_policy_writes_a_network_the_same_on_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let train = |name: &str, threads: &str| {
        let out = dir.path().join(name);
        let o = sim()
            .args([
                "train-policy",
                "--player",
                "decks/player/BR_kojo_booda.txt",
                "--games",
                "10",
                "--search",
                "search:rollouts=4,width=3",
                "--hidden",
                "6",
                "--epochs",
                "2",
                "--threads",
                threads,
                "-q",
                "--out",
            ])
            .arg(&out)
            .assert()
            .success();
        let table = String::from_utf8(o.get_output().stdout.clone()).unwrap();
        (std::fs::read_to_string(&out).unwrap(), table)
    };
    let (text, table) = train("a.toml", "1");
    assert!(text.contains("Produced by: confluence-sim train-policy --games 10"));
    let net = confluence_sim::policy::pnet::PolicyNet::parse(&text).unwrap();
    assert_eq!(net.hidden, 6);
    assert!(
        net.w2.iter().any(|&x| x != 0.0),
        "the hidden layer was trained"
    );
    assert!(table.contains("| expert (its linear score) |"), "{table}");
    assert!(table.contains("| network, 6 hidden units |"), "{table}");
    // Byte for byte, whatever the thread count.
    assert_eq!(train("b.toml", "2").0, text);
}

#[test]
fn train_policy_refuses_bad_flags_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.toml");
    for (flags, msg) in [
        (vec!["--search", "expert"], "expected a search policy"),
        (
            vec!["--policy", "greedy", "--policy", "expert"],
            "one --policy",
        ),
        (vec!["--hidden", "300"], "--hidden"),
        (vec!["--games", "0"], "--games"),
    ] {
        sim()
            .arg("train-policy")
            .args(&flags)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(msg));
        assert!(!out.exists());
    }
}

#[test]
fn disagree_agreement_measures_the_searchs_label_noise() {
    let o = sim()
        .args([
            "disagree",
            "--policy",
            "expert",
            "--search",
            "search:width=3",
            "--agreement",
            "2,4",
            "--games",
            "2",
        ])
        .assert()
        .success();
    let out = String::from_utf8(o.get_output().stdout.clone()).unwrap();
    assert!(out.contains("reference search at 4 samples"), "{out}");
    // One row per family and budget, and the fast policy's row.
    let all: Vec<&str> = out.lines().filter(|l| l.starts_with("all ")).collect();
    assert_eq!(all.len(), 3, "{out}");
    assert!(all[2].contains("expert"), "{out}");
    // The two searches at the reference budget agree with each other only as often as
    // chance allows, but never more than 100%.
    for l in &all[..2] {
        let pcts: Vec<f64> = l
            .split_whitespace()
            .filter_map(|w| w.strip_suffix('%'))
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(pcts.len(), 2, "{l}");
        assert!(pcts.iter().all(|&p| (0.0..=100.0).contains(&p)), "{l}");
    }
    sim()
        .args(["disagree", "--agreement", "0", "--games", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("each at least 1"));
}

#[test]
fn train_value_refuses_bad_flags_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("v.toml");
    for (flags, msg) in [
        (vec!["--every", "0"], "--every must be at least 1"),
        (
            vec!["--policy", "greedy", "--policy", "expert"],
            "one --policy",
        ),
        (vec!["--hidden", "0"], "--hidden"),
    ] {
        sim()
            .arg("train-value")
            .args(&flags)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(msg));
        assert!(!out.exists());
    }
}

#[test]
fn expert_weights_from_a_file_replace_the_embedded_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = tmp.path().join(name);
        sim()
            .args([
                "run", "--policy", "expert", "--rares", "0", "--games", "400",
            ])
            .args(["-q", "--out"])
            .arg(&out)
            .args(extra)
            .assert()
            .success();
        std::fs::read_to_string(out.join("summary.csv")).unwrap()
    };
    let embedded = run("embedded", &[]);
    // The committed file, read at run time, plays exactly as the embedded copy.
    let committed = root().join("decks/policies/expert.toml");
    let same = run("same", &["--expert-weights", committed.to_str().unwrap()]);
    assert_eq!(embedded, same);
    // Weights that always pass at an Afternoon turn play another game, and win less.
    let passer = tmp.path().join("passer.toml");
    std::fs::write(&passer, "[mana]\n[turn]\npass = 100.0\n").unwrap();
    let passes = run("passer", &["--expert-weights", passer.to_str().unwrap()]);
    assert_ne!(embedded, passes);
    let wins = |csv: &str| -> u64 {
        let mut lines = csv.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let row: Vec<&str> = lines.next().unwrap().split(',').collect();
        let i = head.iter().position(|h| *h == "wins").unwrap();
        row[i].parse().unwrap()
    };
    assert!(wins(&passes) < wins(&embedded), "{passes}\n{embedded}");
    let meta = std::fs::read_to_string(tmp.path().join("passer/meta.json")).unwrap();
    assert!(
        meta.contains("passer.toml") && meta.contains("blake3"),
        "{meta}"
    );
    // compare names the file in its expert_weights column.
    let cmp = tmp.path().join("cmp");
    sim()
        .args([
            "compare", "--policy", "greedy", "--policy", "expert", "--rares", "0",
        ])
        .args(["--games", "20", "-q", "--expert-weights"])
        .arg(&passer)
        .arg("--out")
        .arg(&cmp)
        .assert()
        .success();
    let csv = std::fs::read_to_string(cmp.join("compare.csv")).unwrap();
    assert!(
        // (then `reused`, last)
        csv.lines()
            .skip(1)
            .all(|l| l.ends_with("passer.toml,false")),
        "{csv}"
    );
    // A file that is not a weights file is a bad file (exit 1), named with what is wrong;
    // nothing is written.
    let bad = tmp.path().join("bad.toml");
    std::fs::write(&bad, "[mana]\n[turn]\nnot_a_feature = 1\n").unwrap();
    let out = tmp.path().join("bad-out");
    sim()
        .args(["run", "--games", "10", "-q", "--expert-weights"])
        .arg(&bad)
        .arg("--out")
        .arg(&out)
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("bad.toml"))
        .stderr(predicate::str::contains("unknown feature 'not_a_feature'"));
    assert!(!out.exists());
}

#[test]
fn a_confluence_deck_error_names_its_path_once() {
    let path = fixture("confluence/not_55.toml");
    let a = sim()
        .args(["run", "--games", "10", "-q", "--confluence", &path])
        .assert()
        .failure()
        .code(1);
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert_eq!(err.matches("not_55.toml").count(), 1, "{err}");
    assert!(err.contains("the Confluence deck"), "{err}");
}

#[test]
fn cards_coverage_of_a_missing_deck_prints_nothing_before_the_error() {
    let a = sim()
        .args(["cards", "coverage", "--deck", "missing.txt"])
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("missing.txt"));
    assert!(a.get_output().stdout.is_empty());
}

/// Sentences of a report or a log that a blank number or a wrong plural broke.
fn broken_wording(text: &str) -> Vec<String> {
    let bad = regex::Regex::new(
        r"\b1 (rows|decks|days|configs|games|options|configurations|rares)\b|[a-z,]  +[a-z0-9]|\( \)|\([a-z]+ \)|Player decides \([A-Z]",
    )
    .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('|'))
        .filter(|l| bad.is_match(l))
        .map(|l| l.chars().take(200).collect())
        .collect()
}

#[test]
fn reports_and_replays_of_small_odd_runs_have_no_blanks_nor_wrong_plurals() {
    let dir = tempfile::tempdir().unwrap();
    // One mix (all commons), one mix (all rares) with a day cap of 1, one deck and policy.
    for (name, args) in [
        ("one_mix", &["--rares", "0"][..]),
        (
            "all_rares_day_cap_1",
            &["--rares", "15", "--day-cap", "1"][..],
        ),
    ] {
        let out = dir.path().join(name);
        sim()
            .args(["run", "--games", "30", "-q"])
            .args(args)
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        sim().arg("report").arg(&out).assert().success();
        let md = std::fs::read_to_string(out.join("report.md")).unwrap();
        assert_eq!(broken_wording(&md), Vec::<String>::new(), "{name}");
        assert!(!md.contains("the baselines have"), "{name}");
    }
    let log = sim()
        .args(["replay", "--rares", "15", "--game-index", "0"])
        .assert()
        .success();
    let text = String::from_utf8(log.get_output().stdout.clone()).unwrap();
    // A game with decisions of the player's that the log spells out (index 0 since the
    // canonical deck order; index 1 now has none).
    assert!(text.contains("Player decides ("), "{text}");
    assert_eq!(broken_wording(&text), Vec::<String>::new());
}

#[test]
fn bench_reports_cpu_and_wall_time() {
    sim()
        .args(["bench", "--games", "300", "--policy", "greedy"])
        .assert()
        .success()
        .stdout(predicate::str::contains("cpu_s   wall_s  games/s/core"))
        .stdout(predicate::str::contains("greedy   300"));
}

/// ladder and compare write their --out as run, merge and matchup do: the directory is
/// replaced whole (a stale output of another command goes), a file confluence-sim did not
/// write is refused, and so is finished work (a shard), with nothing written.
#[test]
fn ladder_and_compare_replace_their_output_directory_whole_and_protect_what_is_not_theirs() {
    let cases: [(&str, &[&str], &str); 2] = [
        (
            "compare",
            &[
                "--player",
                "decks/player/BR_kojo_booda.txt",
                "--policy",
                "random",
                "--policy",
                "greedy",
                "--rares",
                "0",
                "--games",
                "4",
                "-q",
            ],
            "compare.csv",
        ),
        (
            "ladder",
            &[
                "--policy", "random", "--policy", "greedy", "--games", "4", "-q",
            ],
            "ladder.csv",
        ),
    ];
    for (command, args, table) in cases {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("out");
        std::fs::create_dir(&out).unwrap();
        // A stale output of another command is replaced with the rest.
        std::fs::write(out.join("summary.csv"), "stale").unwrap();
        sim()
            .arg(command)
            .args(args)
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        let parquet = table.replace(".csv", ".parquet");
        let mut want = vec![table, &parquet, "meta.json"];
        if command == "compare" {
            // Every game's result, for a later --reuse.
            want.insert(2, "games.csv");
        }
        assert_eq!(outputs(&out), want, "{command}");
        // Nothing is left beside it.
        assert_eq!(outputs(root.path()), vec!["out"], "{command}");
        // A file the user put there is refused, and nothing is written.
        std::fs::write(out.join("notes.txt"), "mine").unwrap();
        std::fs::remove_file(out.join(table)).unwrap();
        sim()
            .arg(command)
            .args(args)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(
                "notes.txt, which confluence-sim did not write",
            ));
        assert!(!out.join(table).exists(), "{command}");
        std::fs::remove_file(out.join("notes.txt")).unwrap();
        // A finished shard is refused too (the command has no --force).
        std::fs::write(out.join("shard.json"), "{}").unwrap();
        sim()
            .arg(command)
            .args(args)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(1)
            .stderr(predicate::str::contains("a sharded run (shard.json)"))
            .stderr(predicate::str::contains("(or remove it)"));
        assert!(!out.join(table).exists(), "{command}");
    }
}

/// train-expert's help says how to play the weights it writes (--expert-weights), not to
/// rebuild.
#[test]
fn train_expert_help_points_to_expert_weights_not_a_rebuild() {
    for flag in ["-h", "--help"] {
        let out = sim().args(["train-expert", flag]).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("--expert-weights FILE"), "{text}");
        assert!(!text.contains("rebuild afterwards"), "{text}");
    }
}

#[test]
fn cards_coverage_reports_exactness_head_to_head_per_card_and_deck() {
    // Thoth's after-Rest token is the listed head-to-head gap (head_to_head_gaps.toml).
    let out = sim()
        .args(["cards", "show", "ALT_COREKS_B_OR_22_C"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("head to head: not exact (Thoth"), "{text}");
    let out = sim().args(["cards", "show", "Kappa"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("head to head: exact"), "{text}");
    let out = sim()
        .args(["cards", "coverage", "--list", "h2h-gaps", "--deck"])
        .arg(root().join("decks/player/OR_sigismar_wingspan.txt"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("h2h-exact"), "{text}");
    assert!(text.contains("; head to head 40 exact"), "{text}");
    let listed: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("h2h-gaps cards"))
        .skip(1)
        .collect();
    assert!(!listed.is_empty(), "{text}");
    assert!(listed.iter().all(|l| l.contains("Thoth")), "{listed:?}");
}

#[test]
fn a_policy_alias_plays_and_records_the_spec_it_stands_for() {
    let long = "search:net=7,rollouts=5,width=5,deep=0,narrow=1,dwidth=2,margin=2";
    let play = |policy: &str| {
        let dir = tempfile::tempdir().unwrap();
        sim()
            .args(["run", "--games", "12", "--rares", "15", "--policy", policy])
            .args(["-q", "--out"])
            .arg(dir.path())
            .assert()
            .success();
        std::fs::read_to_string(dir.path().join("summary.csv")).unwrap()
    };
    let short = play("fastsearch");
    assert!(short.contains(long), "{short}");
    assert_eq!(short, play(long));
    // Its parameters are checked as the spec's: a usage error, with the spec named.
    sim()
        .args(["run", "--games", "2", "--policy", "fastsearch:width=17"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!("fastsearch ({long})")))
        .stderr(predicate::str::contains(
            "width=17 is out of range (1 to 16)",
        ));
}

#[test]
fn skill_plays_under_its_normalised_name_and_bad_values_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    sim()
        .args([
            "run",
            "--policy",
            "skill:t=2.50,from=fastsearch",
            "--rares",
            "0",
            "--games",
            "20",
            "-q",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let csv = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    assert!(csv.contains(",skill:t=2.5,"), "{csv}");
    rejects_usage(
        &["run", "--policy", "skill:t=-1"],
        &["--policy skill:t=-1", "not a temperature"],
    );
    rejects_usage(&["run", "--policy", "skill"], &["needs t="]);
    rejects_usage(
        &["run", "--policy", "skill:t=1,from=greedy"],
        &["must be a search"],
    );
    // Head to head the default evaluator (fastsearch) reads the policy network: refused,
    // with the way out.
    rejects_usage(
        &[
            "matchup",
            "--player",
            "decks/player/BR_kojo_booda.txt",
            "--policy",
            "skill:t=2",
        ],
        &["skill:t=2,from=search"],
    );
}

/// Issue 48, item 6: a negative number given to a count is "must be ≥ 0" (exit 2), not
/// clap's "unexpected argument '-1'", on every command.
#[test]
fn a_negative_count_must_be_at_least_zero() {
    for args in [
        vec!["run", "--games", "-1"],
        vec!["run", "--threads", "-2"],
        vec!["run", "--seed", "-1"],
        vec!["optimize", "--games", "-1"],
        vec!["compare", "--games", "-5"],
        vec!["matchup", "--games", "-1"],
    ] {
        let o = sim().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        let want = format!("{} {}: must be ≥ 0", args[1], args[2]);
        assert!(err.contains(&want), "{args:?}: expected '{want}' in: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
}

/// Runs the binary; asserts the exit code and returns stderr.
fn fails_with(code: i32, args: &[&str]) -> String {
    let o = sim().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    err
}

/// Issue 48, item 6: a token named in a deck, by name or by reference, is refused in so
/// many words (by name it was "'Brassbug' has no common version").
#[test]
fn a_token_in_a_deck_is_refused_as_a_token() {
    let d = tempfile::tempdir().unwrap();
    let starter =
        std::fs::read_to_string(root().join("decks/player/AX_sierra_oddball.txt")).unwrap();
    for token in ["Brassbug", "ALT_ALIZE_B_AX_31_C"] {
        let deck = d.path().join("deck.txt");
        std::fs::write(&deck, format!("{starter}\n1 {token}\n")).unwrap();
        let err = fails_with(
            1,
            &[
                "run",
                "--player",
                deck.to_str().unwrap(),
                "--games",
                "2",
                "-q",
            ],
        );
        assert!(
            err.contains("'Brassbug' is a token: tokens cannot be in a deck"),
            "{token}: {err}"
        );
    }
}

/// Issue 48, item 6: `cards coverage --set` of no set is a bad flag listing the sets.
#[test]
fn cards_coverage_of_an_unknown_set_lists_the_known_sets() {
    let err = fails_with(2, &["cards", "coverage", "--set", "NOPE"]);
    assert!(
        err.contains("--set NOPE: unknown set (known sets: "),
        "{err}"
    );
    assert!(err.contains("CORE") && err.contains("ALIZE"), "{err}");
}

/// Issue 48, item 6: `compare` with one policy and no --players, or with one game, is a
/// bad flag (exit 2), not a failed run.
#[test]
fn compare_with_one_policy_or_one_game_is_a_bad_flag() {
    let err = fails_with(2, &["compare", "--policy", "greedy", "--games", "10"]);
    assert!(err.contains("at least two --policy"), "{err}");
    let err = fails_with(
        2,
        &[
            "compare", "--policy", "greedy", "--policy", "random", "--games", "1",
        ],
    );
    assert!(err.contains("--games 1: must be at least 2"), "{err}");
}

/// Issue 48, item 6: an empty --boosters file gets a sentence, not "expected one of: )".
#[test]
fn an_empty_boosters_file_says_it_describes_no_booster() {
    let d = tempfile::tempdir().unwrap();
    let empty = d.path().join("empty.toml");
    std::fs::write(&empty, "").unwrap();
    let err = fails_with(
        1,
        &[
            "booster-war",
            "--boosters",
            empty.to_str().unwrap(),
            "--games",
            "2",
            "-q",
        ],
    );
    assert!(err.contains("the file describes no booster"), "{err}");
    assert!(!err.contains("expected one of: )"), "{err}");
}

/// Issue 48, item 6: a deck error is printed once, not once per copy of the card.
#[test]
fn a_deck_error_is_printed_once_not_once_per_copy() {
    let err = fails_with(
        1,
        &[
            "run",
            "--player",
            &fixture("decks/wrong_faction.txt"),
            "--games",
            "2",
            "-q",
        ],
    );
    assert_eq!(err.matches("'Kelon Elemental' is AX").count(), 1, "{err}");
}

/// Issue 48, item 6: a Confluence TOML error names the field and its allowed range (TOML
/// said "expected u8"), and a repeated key names the key.
#[test]
fn confluence_toml_errors_name_the_field_and_its_range() {
    let d = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root().join("decks/confluence/reference.toml")).unwrap();
    let first = |key: &str| text.find(&format!("\n{key} = ")).unwrap() + 1;
    let with = |at: usize, new: &str| {
        let end = at + text[at..].find('\n').unwrap();
        format!("{}{new}{}", &text[..at], &text[end..])
    };
    let hand = first("hand_cost");
    let old = text[hand..hand + text[hand..].find('\n').unwrap()].to_string();
    let cases = [
        (
            with(hand, "hand_cost = -1"),
            "hand_cost = -1 is out of range (a whole number from 0 to 255)",
        ),
        (
            with(hand, "hand_cost = 99999999999999999999"),
            "hand_cost = 99999999999999999999 is out of range (a whole number from 0 to 255)",
        ),
        (
            with(first("count"), "count = -3"),
            "count = -3 is out of range (a whole number from 1 to 55)",
        ),
        (
            with(hand, &format!("{old}\nhand_cost = 2")),
            "'hand_cost' is given twice in one table",
        ),
    ];
    for (i, (toml, want)) in cases.iter().enumerate() {
        let p = d.path().join(format!("c{i}.toml"));
        std::fs::write(&p, toml).unwrap();
        let err = fails_with(
            1,
            &[
                "run",
                "--confluence",
                p.to_str().unwrap(),
                "--games",
                "2",
                "-q",
            ],
        );
        assert!(err.contains(want), "expected '{want}' in: {err}");
        assert!(
            err.contains(&format!("c{i}.toml:")),
            "names the line: {err}"
        );
    }
}

/// Issue 48, item 4: a run whose games show no variation (a deck that never wins: day 1
/// caps every game) writes no zero-width interval: diffs.csv's interval is null and
/// rares.csv has no effect of rounding error, and the run says why; `--games 1` says why
/// diffs.csv is empty.
#[test]
fn no_variation_gives_null_intervals_and_says_why_a_table_is_empty() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("never");
    let o = sim()
        .args([
            "run",
            "--player",
            "decks/player/BR_kojo_booda.txt",
            "--games",
            "20",
        ])
        .args([
            "--day-cap",
            "1",
            "--rares",
            "0",
            "--rares",
            "15",
            "--rares",
            "3",
            "-q",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let diffs = std::fs::read_to_string(out.join("diffs.csv")).unwrap();
    let rows: Vec<&str> = diffs.lines().skip(1).collect();
    assert!(!rows.is_empty(), "{diffs}");
    for r in rows {
        assert!(r.ends_with(",0,,,"), "diff 0, interval null: {r}");
    }
    assert!(err.contains("have no interval"), "{err}");
    let rares = std::fs::read_to_string(out.join("rares.csv")).unwrap();
    assert_eq!(
        rares.lines().count(),
        1,
        "no rare effect of rounding error: {rares}"
    );
    assert!(
        err.contains("rares.csv has no row for BR_kojo_booda · greedy: it lost all its 100 games"),
        "{err}"
    );

    // The report says why the deck has no rare effects, and shows no [0.0, 0.0].
    sim().arg("report").arg(&out).assert().success();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains(
            "rares.parquet has no rows for this deck and policy: it lost all its 100 games"
        ),
        "{md}"
    );
    assert!(
        md.contains("interval n/a: no variation in the games"),
        "{md}"
    );
    assert!(
        !md.contains("[0.0, 0.0]") && !md.contains("[+0.0,\u{a0}+0.0]"),
        "{md}"
    );

    let one = d.path().join("one");
    let o = sim()
        .args([
            "run",
            "--player",
            "decks/player/BR_kojo_booda.txt",
            "--games",
            "1",
            "--rares",
            "0",
            "--rares",
            "15",
            "-q",
        ])
        .arg("--out")
        .arg(&one)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("diffs.csv has no row for 1 of 1 configuration(s): a paired difference needs at least 2 games"),
        "{err}"
    );
}
