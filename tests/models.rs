//! Model files named on the command line (`--value-weights`; `--expert-weights` head to
//! head), the value model's training options (`train-value --at`, `--rollouts`) and
//! `compare --reuse`, through the binary.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use confluence_sim::policy::ExpertWeights;

use predicates::prelude::*;

mod common;
use common::{root, sim};

/// `compare` of the Bravos starter, all commons, with `extra` flags; returns compare.csv
/// without the two columns that say how the rows were had (speed, reused).
fn compare(out: &Path, policies: &[&str], games: &str, extra: &[&str]) -> String {
    let mut c = sim();
    c.args([
        "compare",
        "--player",
        "decks/player/BR_kojo_booda.txt",
        "--rares",
        "0",
    ]);
    for p in policies {
        c.args(["--policy", p]);
    }
    c.args(["--games", games, "-q", "--out"])
        .arg(out)
        .args(extra)
        .assert()
        .success();
    let mut r = csv::Reader::from_path(out.join("compare.csv")).unwrap();
    let head = r.headers().unwrap().clone();
    let keep: Vec<usize> = (0..head.len())
        .filter(|&i| !matches!(&head[i], "games_per_second" | "reused"))
        .collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            keep.iter()
                .map(|&i| rec[i].to_string())
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn compare_reuses_the_games_of_an_earlier_run() {
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    compare(&first, &["greedy", "planner"], "120", &[]);
    let games = std::fs::read_to_string(first.join("games.csv")).unwrap();
    assert!(
        games.starts_with(
            "schema_version,player_deck,rare_mix,policy,game_index,won,engine_error\n"
        )
    );
    assert_eq!(games.lines().count(), 1 + 2 * 120);
    // Fewer games, the baseline taken from the first run: the same table as playing it.
    let reused = tmp.path().join("reused");
    let with = compare(
        &reused,
        &["greedy", "random"],
        "80",
        &["--reuse", first.to_str().unwrap()],
    );
    let played = compare(&tmp.path().join("played"), &["greedy", "random"], "80", &[]);
    assert_eq!(with, played);
    // A games.csv of schema 4, without the engine_error column, is reused the same way.
    let old = tmp.path().join("old");
    std::fs::create_dir(&old).unwrap();
    std::fs::copy(first.join("meta.json"), old.join("meta.json")).unwrap();
    let v4: String = games
        .lines()
        .map(|l| {
            let l = l.rsplit_once(',').unwrap().0;
            format!(
                "{}\n",
                l.strip_prefix("5,")
                    .map_or(l.to_string(), |r| format!("4,{r}"))
            )
        })
        .collect();
    std::fs::write(old.join("games.csv"), v4).unwrap();
    let from_old = compare(
        &tmp.path().join("from_old"),
        &["greedy", "random"],
        "80",
        &["--reuse", old.to_str().unwrap()],
    );
    assert_eq!(from_old, played);
    let csv = std::fs::read_to_string(reused.join("compare.csv")).unwrap();
    let flags: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap())
        .collect();
    assert_eq!(
        flags,
        ["true", "false"],
        "greedy reused, random played:\n{csv}"
    );
    // More games than the earlier run holds: played again.
    let more = tmp.path().join("more");
    compare(
        &more,
        &["greedy", "random"],
        "150",
        &["--reuse", first.to_str().unwrap()],
    );
    let csv = std::fs::read_to_string(more.join("compare.csv")).unwrap();
    assert!(csv.lines().skip(1).all(|l| l.ends_with(",false")), "{csv}");
    // Refreshed in place from nothing (`--reuse DIR --out DIR`, DIR missing): every game
    // played, the same table; a missing --reuse that is not --out stays an error.
    let fresh = tmp.path().join("fresh");
    let from_nothing = compare(
        &fresh,
        &["greedy", "random"],
        "80",
        &["--reuse", fresh.to_str().unwrap()],
    );
    assert_eq!(from_nothing, played);
    sim()
        .args([
            "compare",
            "--player",
            "decks/player/BR_kojo_booda.txt",
            "--rares",
            "0",
        ])
        .args([
            "--policy", "greedy", "--policy", "random", "--games", "8", "-q",
        ])
        .arg("--reuse")
        .arg(tmp.path().join("missing"))
        .arg("--out")
        .arg(tmp.path().join("elsewhere"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--reuse"));
    assert!(!tmp.path().join("elsewhere").exists());
}

/// The `reused` flags of a compare.csv, row by row.
fn reused_flags(dir: &Path) -> Vec<String> {
    let csv = std::fs::read_to_string(dir.join("compare.csv")).unwrap();
    csv.lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap().to_string())
        .collect()
}

/// A spec whose defaults changed is another player: `--reuse` plays it again. An earlier
/// directory names each policy with its parameters written out (`resolved_policies`); one
/// written before it did is read as those versions read their specs (a search with a
/// horizon did not follow the expert's ranking then).
#[test]
fn compare_replays_a_policy_whose_defaults_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    let pols = ["search:horizon=0,rollouts=2", "search:rollouts=2"];
    compare(&first, &pols, "6", &[]);
    let meta_path = first.join("meta.json");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&meta_path).unwrap()).unwrap();
    let resolved = |spec: &str| {
        meta["resolved_policies"][spec]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(
        resolved("search:rollouts=2")
            .starts_with(
                "search:rollouts=2,width=5,expert=1,only=7,horizon=1,rank=1,deep=3,dwidth=2,narrow=1,keep="
            ),
        "{meta}"
    );
    assert!(
        resolved("search:horizon=0,rollouts=2")
            .starts_with("search:rollouts=2,width=5,expert=1,only=7,horizon=0,rank=0,keep="),
        "{meta}"
    );
    let again = tmp.path().join("again");
    compare(&again, &pols, "6", &["--reuse", first.to_str().unwrap()]);
    assert_eq!(reused_flags(&again), ["true", "true"]);
    // The same directory as an older version wrote it: no resolved policies.
    let mut old = meta.clone();
    old.as_object_mut().unwrap().remove("resolved_policies");
    std::fs::write(&meta_path, serde_json::to_string_pretty(&old).unwrap()).unwrap();
    let legacy = tmp.path().join("legacy");
    let with = compare(&legacy, &pols, "6", &["--reuse", first.to_str().unwrap()]);
    assert_eq!(
        reused_flags(&legacy),
        ["true", "false"],
        "the horizon=0 search is the same player, the default one is not"
    );
    assert_eq!(with, compare(&tmp.path().join("played"), &pols, "6", &[]));
    // A recorded resolution that differs from this version's: played again.
    let mut other = meta;
    other["resolved_policies"]["search:horizon=0,rollouts=2"] = "search:changed".into();
    std::fs::write(&meta_path, serde_json::to_string_pretty(&other).unwrap()).unwrap();
    let changed = tmp.path().join("changed");
    compare(&changed, &pols, "6", &["--reuse", first.to_str().unwrap()]);
    assert_eq!(reused_flags(&changed), ["false", "true"]);
}

/// The committed models are recorded by their content hash: after a new value model, new
/// expert weights or a new policy network, `--reuse` plays again the policies that read it,
/// and only those. A directory that records no hashes is taken as written with another
/// value model and another network.
#[test]
fn compare_replays_the_policies_whose_model_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    let pols = ["greedy", "expert", "search:rollouts=2", "expert:net=1"];
    compare(&first, &pols, "6", &[]);
    let meta_path = first.join("meta.json");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&meta_path).unwrap()).unwrap();
    for model in ["expert", "value", "pnet"] {
        let h = meta["model_hashes"][model].as_str().unwrap_or("");
        assert_eq!(h.len(), 64, "{model}: {meta}");
    }
    let reuse = |name: &str, meta: &serde_json::Value| {
        std::fs::write(&meta_path, serde_json::to_string_pretty(meta).unwrap()).unwrap();
        let out = tmp.path().join(name);
        compare(&out, &pols, "6", &["--reuse", first.to_str().unwrap()]);
        reused_flags(&out)
    };
    assert_eq!(reuse("same", &meta), ["true", "true", "true", "true"]);
    let mut value = meta.clone();
    value["model_hashes"]["value"] = "0".repeat(64).into();
    assert_eq!(reuse("value", &value), ["true", "true", "false", "true"]);
    let mut expert = meta.clone();
    expert["model_hashes"]["expert"] = "0".repeat(64).into();
    assert_eq!(
        reuse("expert", &expert),
        ["true", "false", "false", "false"]
    );
    let mut pnet = meta.clone();
    pnet["model_hashes"]["pnet"] = "0".repeat(64).into();
    assert_eq!(reuse("pnet", &pnet), ["true", "true", "true", "false"]);
    let mut legacy = meta;
    legacy.as_object_mut().unwrap().remove("model_hashes");
    assert_eq!(reuse("legacy", &legacy), ["true", "true", "false", "false"]);
}

#[test]
fn compare_refuses_games_that_are_not_the_same() {
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    compare(&first, &["greedy", "random"], "20", &[]);
    let out = tmp.path().join("out");
    let base = [
        "compare",
        "--player",
        "decks/player/BR_kojo_booda.txt",
        "--rares",
        "0",
        "--policy",
        "greedy",
        "--policy",
        "random",
        "--games",
        "20",
        "-q",
    ];
    sim()
        .args(base)
        .args(["--seed", "2", "--reuse"])
        .arg(&first)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "played with --seed 1, this run has 2",
        ));
    assert!(!out.exists());
    // Games of another version of the simulator (a directory written before the canonical
    // deck order records none: version 1) are not this binary's games.
    let meta = first.join("meta.json");
    let text = std::fs::read_to_string(&meta).unwrap();
    let now = format!("\"games_version\": {}", confluence_sim::sim::GAMES_VERSION);
    assert!(text.contains(&now), "{text}");
    std::fs::write(&meta, text.replace(&now, "\"games_version\": 1")).unwrap();
    sim()
        .args(base)
        .arg("--reuse")
        .arg(&first)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "played with games version 1, this run has {}",
            confluence_sim::sim::GAMES_VERSION
        )));
    assert!(!out.exists());
    std::fs::write(&meta, text).unwrap();
    // A broken games file is named with its line.
    let games = first.join("games.csv");
    let text = std::fs::read_to_string(&games).unwrap();
    std::fs::write(&games, text.replacen(",greedy,3,", ",greedy,7,", 1)).unwrap();
    sim()
        .args(base)
        .arg("--reuse")
        .arg(&first)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "games.csv line 5: game_index 7, expected 3",
        ));
    assert!(!out.exists());
}

#[test]
fn value_weights_from_a_file_replace_the_embedded_ones() {
    let tmp = tempfile::tempdir().unwrap();
    // rank=0: the expert's pick then the planner's as candidates (with the expert's own
    // ranking, these 24 games came out the same under a flat model).
    let policies = ["greedy", "search:horizon=1,rollouts=4,width=3,rank=0"];
    let embedded = compare(&tmp.path().join("a"), &policies, "24", &[]);
    let committed = root().join("decks/policies/value.toml");
    let same = compare(
        &tmp.path().join("b"),
        &policies,
        "24",
        &["--value-weights", committed.to_str().unwrap()],
    );
    assert_eq!(
        embedded, same,
        "the committed file plays as the embedded copy"
    );
    // A model that values every position alike (all weights 0): the search can no longer
    // tell its candidates apart at the horizon, and plays other games.
    let mut flat = confluence_sim::policy::value::ValueNet::embedded();
    flat.w1
        .iter_mut()
        .chain(&mut flat.w2)
        .for_each(|w| *w = 0.0);
    let file = tmp.path().join("flat.toml");
    std::fs::write(&file, flat.to_toml("a flat model")).unwrap();
    let other = compare(
        &tmp.path().join("c"),
        &policies,
        "24",
        &["--value-weights", file.to_str().unwrap()],
    );
    // Game by game (its result and its days): the win counts alone can come out alike.
    let games = |d: &str| std::fs::read_to_string(tmp.path().join(d).join("games.csv")).unwrap();
    assert_ne!(games("a"), games("c"), "{embedded}\n{other}");
    let meta = std::fs::read_to_string(tmp.path().join("c/meta.json")).unwrap();
    assert!(meta.contains("flat.toml"), "{meta}");
    // Not a value model: a clear error, exit 1, nothing written.
    let bad = tmp.path().join("bad.toml");
    std::fs::write(&bad, "hidden = 3\n").unwrap();
    let out = tmp.path().join("d");
    sim()
        .args([
            "run",
            "--policy",
            "search:horizon=1",
            "--rares",
            "0",
            "--games",
            "2",
            "-q",
        ])
        .arg("--value-weights")
        .arg(&bad)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "not a value model as train-value writes",
        ));
    assert!(!out.exists());
}

#[test]
fn train_value_labels_day_starts_by_rollouts_the_same_on_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let train = |name: &str, threads: &str, rollouts: &str| {
        let out = dir.path().join(name);
        sim()
            .args([
                "train-value",
                "--player",
                "decks/player/BR_kojo_booda.txt",
                "--games",
                "30",
                "--every",
                "1",
                "--at",
                "day-start",
                "--rollouts",
                rollouts,
                "--hidden",
                "4",
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
        std::fs::read_to_string(&out).unwrap()
    };
    let text = train("a.toml", "1", "3");
    assert!(
        text.contains("--every 1 --at day-start --rollouts 3 --rollout-policy expert"),
        "{text}"
    );
    assert_eq!(train("b.toml", "2", "3"), text);
    // The rollouts' labels are not the games' outcomes: other data, other weights.
    let outcomes = train("c.toml", "2", "0");
    let data = |t: &str| {
        t.lines()
            .find(|l| l.starts_with("# Data:"))
            .unwrap()
            .to_string()
    };
    assert_ne!(data(&outcomes), data(&text));
}

/// The committed expert weights with every weight negated (general and per card), written
/// into `dir` as `train-expert` writes a weights file.
fn negated_expert(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(root().join("decks/policies/expert.toml")).unwrap();
    let mut w = ExpertWeights::parse(&text).unwrap();
    for x in w
        .mana
        .iter_mut()
        .chain(w.turn.iter_mut())
        .chain(w.cards.values_mut().flatten())
    {
        *x = -*x;
    }
    let path = dir.join("negated.toml");
    std::fs::write(
        &path,
        w.to_toml("every weight of the committed file negated"),
    )
    .unwrap();
    path
}

/// Every file a head-to-head run (`args`, then `extra`) writes but meta.json (which says
/// when and how it ran), with its bytes, in name order.
fn head_to_head(out: &Path, args: &[&str], extra: &[&str]) -> Vec<(String, Vec<u8>)> {
    sim()
        .args(args)
        .args(["-q", "--threads", "2", "--out"])
        .arg(out)
        .args(extra)
        .assert()
        .success();
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(name, _)| name != "meta.json")
        .map(|(name, path)| (name, std::fs::read(path).unwrap()))
        .collect();
    files.sort();
    files
}

/// The rows of matchups.csv, each by its column names, keyed by its pair of entries.
fn matchup_rows(out: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(out.join("matchups.csv")).unwrap();
    let head = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let row: BTreeMap<String, String> = head
                .iter()
                .zip(rec.unwrap().iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect();
            (format!("{} vs {}", row["entry_a"], row["entry_b"]), row)
        })
        .collect()
}

/// The `expert_weights` and `value_weights` of a run's meta.json.
fn model_files(out: &Path) -> (serde_json::Value, serde_json::Value) {
    let text = std::fs::read_to_string(out.join("meta.json")).unwrap();
    let meta: serde_json::Value = serde_json::from_str(&text).unwrap();
    (
        meta["expert_weights"].clone(),
        meta["value_weights"].clone(),
    )
}

#[test]
fn matchup_plays_the_expert_by_the_weights_file_given() {
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "matchup",
        "--player",
        "decks/player/BR_kojo_booda.txt",
        "--player",
        "decks/player/AX_sierra_oddball.txt",
        "--policy",
        "expert",
        "--policy",
        "greedy",
        "--games",
        "150",
    ];
    let embedded = head_to_head(&tmp.path().join("embedded"), &args, &[]);
    assert_eq!(
        model_files(&tmp.path().join("embedded")),
        (serde_json::Value::Null, serde_json::Value::Null)
    );
    // The committed files, read at run time, play exactly as the embedded copies.
    let expert = root().join("decks/policies/expert.toml");
    let value = root().join("decks/policies/value.toml");
    let same = tmp.path().join("same");
    let committed = head_to_head(
        &same,
        &args,
        &[
            "--expert-weights",
            expert.to_str().unwrap(),
            "--value-weights",
            value.to_str().unwrap(),
        ],
    );
    assert_eq!(committed, embedded);
    let (e, v) = model_files(&same);
    assert!(
        e["path"]
            .as_str()
            .unwrap()
            .ends_with("decks/policies/expert.toml"),
        "{e}"
    );
    assert!(
        v["path"]
            .as_str()
            .unwrap()
            .ends_with("decks/policies/value.toml"),
        "{v}"
    );
    assert_eq!(e["blake3"].as_str().map(str::len), Some(64), "{e}");
    assert_eq!(v["blake3"].as_str().map(str::len), Some(64), "{v}");
    // Negated weights play the expert's seats (both of them in its mirror pairs) another
    // game; the greedy pairs are the same games.
    let negated = negated_expert(tmp.path());
    let other = tmp.path().join("negated");
    let changed = head_to_head(
        &other,
        &args,
        &["--expert-weights", negated.to_str().unwrap()],
    );
    assert_ne!(changed, embedded);
    let before = matchup_rows(&tmp.path().join("embedded"));
    let after = matchup_rows(&other);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>()
    );
    for (k, b) in &before {
        let a = &after[k];
        let expert_plays = b["policy_a"] == "expert" || b["policy_b"] == "expert";
        assert_eq!(a != b, expert_plays, "{k}:\n{b:?}\n{a:?}");
    }
    let (e, v) = model_files(&other);
    assert!(e["path"].as_str().unwrap().ends_with("negated.toml"), "{e}");
    assert_eq!(v, serde_json::Value::Null);
}

#[test]
fn booster_war_plays_the_expert_by_the_weights_file_given() {
    let tmp = tempfile::tempdir().unwrap();
    let args = ["booster-war", "--policy", "expert", "--games", "150"];
    let embedded = head_to_head(&tmp.path().join("embedded"), &args, &[]);
    let expert = root().join("decks/policies/expert.toml");
    let same = tmp.path().join("same");
    let committed = head_to_head(
        &same,
        &args,
        &["--expert-weights", expert.to_str().unwrap()],
    );
    assert_eq!(committed, embedded);
    let negated = negated_expert(tmp.path());
    let other = tmp.path().join("negated");
    let changed = head_to_head(
        &other,
        &args,
        &["--expert-weights", negated.to_str().unwrap()],
    );
    assert_ne!(changed, embedded);
    let (e, v) = model_files(&other);
    assert!(e["path"].as_str().unwrap().ends_with("negated.toml"), "{e}");
    assert_eq!(e["blake3"].as_str().map(str::len), Some(64), "{e}");
    assert_eq!(v, serde_json::Value::Null);
    assert_eq!(
        model_files(&tmp.path().join("embedded")).0,
        serde_json::Value::Null
    );
}

#[test]
fn head_to_head_model_files_that_are_not_model_files_exit_1_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let bad_expert = tmp.path().join("bad-expert.toml");
    std::fs::write(&bad_expert, "[mana]\n[turn]\nnot_a_feature = 1\n").unwrap();
    let bad_value = tmp.path().join("bad-value.toml");
    std::fs::write(&bad_value, "[net]\nhidden = \"many\"\n").unwrap();
    let commands: [&[&str]; 2] = [
        &["matchup", "--player", "decks/player/BR_kojo_booda.txt"],
        &["booster-war"],
    ];
    for cmd in commands {
        for (flag, file, what) in [
            (
                "--expert-weights",
                &bad_expert,
                "not an expert weights file as train-expert writes",
            ),
            (
                "--value-weights",
                &bad_value,
                "not a value model as train-value writes",
            ),
        ] {
            let out = tmp.path().join("out");
            sim()
                .args(cmd)
                .args(["--policy", "expert", "--games", "10", "-q", flag])
                .arg(file)
                .arg("--out")
                .arg(&out)
                .assert()
                .failure()
                .code(1)
                .stderr(predicate::str::contains(file.to_str().unwrap()))
                .stderr(predicate::str::contains(what));
            assert!(!out.exists(), "{cmd:?} {flag}");
        }
        // The expert's lookahead on the value model plays the solo game: refused (exit 2)
        // rather than played.
        let out = tmp.path().join("out");
        sim()
            .args(cmd)
            .args(["--policy", "expert:value=2", "--games", "10", "-q", "--out"])
            .arg(&out)
            .assert()
            .failure()
            .code(2)
            .stderr(predicate::str::contains("expert:value=2"));
        assert!(!out.exists(), "{cmd:?}");
    }
}
