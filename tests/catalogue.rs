//! The catalogue of bad inputs: every one gets one clear error, the documented exit code
//! (2 for a bad flag value, 1 for a bad file or a failed run), no panic, and leaves the
//! `--out` directory untouched. Plus the inputs that used to be refused and are fine
//! (a byte-order mark).

use std::path::Path;

mod common;
use common::{root, sim};

const BR: &str = "decks/player/BR_kojo_booda.txt";

/// The bad files the catalogue names as `{dir}/NAME`.
fn write_files(dir: &Path) {
    let starter = std::fs::read_to_string(root().join(BR)).unwrap();
    let reference =
        std::fs::read_to_string(root().join("decks/confluence/reference.toml")).unwrap();
    let exp = |body: &str| {
        format!(
            "name = \"t\"\nplayers = [\"{}\"]\n{body}",
            root().join(BR).display()
        )
    };
    let ok_games = "[games]\nper_config = 10\n";
    let ok_mixes = "[mixes]\ncounts = [\"0\"]\n";
    let files: Vec<(&str, String)> = vec![
        ("misspelt_name.txt", "1 Kojo & Booda\n3 Atlass\n".into()),
        ("misspelt_ref.txt", "1 ALT_CORE_B_BR_01_C\n3 ALT_CORE_B_BR_20_D\n".into()),
        ("malformed.txt", "1 Kojo & Booda\nAtlas\n".into()),
        ("zero.txt", "1 Kojo & Booda\n0 Atlas\n".into()),
        ("huge_count.txt", "1 Kojo & Booda\n99999999999999999999 Atlas\n".into()),
        ("bad_rarity.txt", "1 Kojo & Booda\n3 Atlas (R9)\n".into()),
        ("empty.txt", "# nothing\n".into()),
        ("too_few.txt", "1 Kojo & Booda\n3 Atlas\n".into()),
        ("bom.txt", format!("\u{feff}{starter}")),
        ("conf_syntax.toml", "name = \"x\"\n[hero\n".into()),
        ("conf_bom.toml", format!("\u{feff}{reference}")),
        ("exp_players_empty.toml", "name = \"t\"\nplayers = []\n[games]\nper_config = 10\n[mixes]\ncounts = [\"0\"]\n".into()),
        ("exp_policies_empty.toml", exp(&format!("policies = []\n{ok_games}{ok_mixes}"))),
        ("exp_policy_unknown.toml", exp(&format!("policies = [\"wizard\"]\n{ok_games}{ok_mixes}"))),
        ("exp_max_zero.toml", exp(&format!("[games]\ntarget_half_width = 0.01\nmax_per_config = 0\n{ok_mixes}"))),
        ("exp_batch_zero.toml", exp(&format!("[games]\ntarget_half_width = 0.01\nbatch = 0\n{ok_mixes}"))),
        ("exp_per_config_zero.toml", exp(&format!("[games]\nper_config = 0\n{ok_mixes}"))),
        ("exp_both_rules.toml", exp(&format!("[games]\nper_config = 10\ntarget_half_width = 0.01\n{ok_mixes}"))),
        ("exp_unknown_key.toml", exp(&format!("colour = \"red\"\n{ok_games}{ok_mixes}"))),
        ("exp_no_mix.toml", exp(&format!("{ok_games}[mixes]\n"))),
        ("exp_counts_16.toml", exp(&format!("{ok_games}[mixes]\ncounts = [\"16\"]\n"))),
        ("exp_empty_set.toml", exp(&format!("{ok_games}[mixes]\nsets = [[]]\n"))),
        ("exp_wrong_rare.toml", exp(&format!("{ok_games}[mixes]\nsets = [[\"Gloom Wsip\"]]\n"))),
        ("exp_day_cap_zero.toml", exp(&format!("day_cap = 0\n{ok_games}{ok_mixes}"))),
        ("exp_subsets_zero.toml", exp(&format!("{ok_games}[mixes]\ncounts = [\"1\"]\nsubsets = 0\n"))),
        ("exp_missing_deck.toml", "name = \"t\"\nplayers = [\"no/such/deck.txt\"]\n[games]\nper_config = 10\n[mixes]\ncounts = [\"0\"]\n".into()),
        ("exp_huge.toml", exp("[games]\nper_config = 9223372036854775807\n[mixes]\ncounts = [\"0..=15\"]\n")),
        ("exp_bom.toml", format!("\u{feff}{}", exp(&format!("{ok_games}{ok_mixes}")))),
        ("scen_syntax.toml", "steps = [\"dusk\"\n".into()),
        ("scen_misspelt.toml", "description = \"x\"\nsteps = [\"dusk\"]\n[player]\nhero_expedition = [\"Atlass\"]\n".into()),
        ("scen_step.toml", "description = \"x\"\nsteps = [\"teatime\"]\n".into()),
    ];
    for (name, body) in files {
        std::fs::write(dir.join(name), body).unwrap();
    }
    std::fs::create_dir(dir.join("empty_run")).unwrap();
}

struct Case {
    args: &'static [&'static str],
    code: i32,
    /// Fragments the error message holds.
    says: &'static [&'static str],
}

const fn bad(args: &'static [&'static str], code: i32, says: &'static [&'static str]) -> Case {
    Case { args, code, says }
}

/// Commands that write to `--out` get it; `{dir}` is the directory of the bad files.
const CATALOGUE: &[Case] = &[
    // Bad flag values: exit 2.
    bad(&["run", "--games", "0"], 2, &["--games", "0"]),
    bad(&["run", "--games", "many"], 2, &["invalid value 'many'"]),
    bad(&["run", "--games", "-5"], 2, &["--games -5: must be ≥ 0"]),
    bad(
        &[
            "run",
            "--games",
            "18446744073709551615",
            "--rares",
            "0..=15",
        ],
        2,
        &[
            "--games 18446744073709551615",
            "more than 18446744073709551615 games",
        ],
    ),
    bad(
        &["run", "--threads", "0"],
        2,
        &["--threads 0", "expected 1 to 256"],
    ),
    bad(
        &["run", "--threads", "10000"],
        2,
        &["--threads 10000", "expected 1 to 256"],
    ),
    bad(&["run", "--rares", "16"], 2, &["--rares 16", "<= 15"]),
    bad(&["run", "--rares", "5..=2"], 2, &["--rares 5..=2"]),
    bad(&["run", "--rares", "x"], 2, &["--rares x", "A..=B"]),
    bad(&["run", "--rares", "0..0"], 2, &["--rares 0..0"]),
    bad(
        &["run", "--rare-set", ""],
        2,
        &["--rare-set ''", "names no rare"],
    ),
    bad(
        &["run", "--rare-set", ","],
        2,
        &["--rare-set ','", "names no rare"],
    ),
    bad(
        &["run", "--rare-set", "Gloom Wisp,Nobody"],
        2,
        &["'Nobody' is not a rare"],
    ),
    bad(
        &["run", "--rare-set", "Gloom Wsip"],
        2,
        &["did you mean 'Gloom Wisp'?"],
    ),
    bad(
        &["run", "--policy", "wizard"],
        2,
        &["--policy wizard", "unknown policy 'wizard'"],
    ),
    bad(
        &["run", "--policy", "search:depth=3"],
        2,
        &["has no parameter 'depth'"],
    ),
    bad(
        &["run", "--policy", "search:width=17"],
        2,
        &[
            "--policy search:width=17",
            "width=17 is out of range (1 to 16)",
        ],
    ),
    bad(&["run", "--subsets", "0"], 2, &["--subsets"]),
    bad(&["run", "--day-cap", "0"], 2, &["--day-cap"]),
    bad(&["run", "--day-cap", "251"], 2, &["--day-cap"]),
    bad(&["run", "--seed", "-1"], 2, &["--seed -1: must be ≥ 0"]),
    bad(
        &["run", "--experiment", "{dir}/exp_bom.toml", "--games", "5"],
        2,
        &["cannot be used with"],
    ),
    bad(
        &["tune", "--target", "1.5"],
        2,
        &["--target", "from 0 to 1"],
    ),
    bad(
        &["tune", "--target", "NaN"],
        2,
        &["--target", "from 0 to 1"],
    ),
    bad(
        &["tune", "--target", "0.5", "--candidates", "0"],
        2,
        &["--candidates"],
    ),
    bad(
        &["tune", "--target", "0.5", "--games", "0"],
        2,
        &["--games"],
    ),
    bad(
        &["tune", "--target", "0.5", "--confirm", "0"],
        2,
        &["--confirm"],
    ),
    bad(
        &["tune", "--target", "0.5", "--games", "18446744073709551615"],
        2,
        &["more than"],
    ),
    bad(&["ladder", "--games", "0"], 2, &["--games"]),
    bad(
        &["ladder", "--half-width", "0"],
        2,
        &["--half-width", "between 0 and 0.5"],
    ),
    bad(&["ladder", "--max-games", "0"], 2, &["--max-games"]),
    bad(&["ladder", "--threads", "100000"], 2, &["--threads 100000"]),
    bad(&["bench", "--games", "0"], 2, &["--games"]),
    bad(
        &["report", "{dir}/empty_run", "--target", "0"],
        2,
        &["--target", "strictly between 0 and 1"],
    ),
    bad(
        &["replay", "--rares", "0", "--mix-index", "5"],
        2,
        &["--mix-index 5", "1 mix(es)"],
    ),
    bad(
        &["replay", "--policy", "greedy", "--policy", "random"],
        2,
        &["replay plays one game"],
    ),
    bad(
        &["cards", "show", "Kojo & Boda"],
        2,
        &["did you mean 'Kojo & Booda'?"],
    ),
    bad(&["frobnicate"], 2, &["unrecognized subcommand"]),
    // Bad files: exit 1.
    bad(
        &["run", "--player", "no/such/deck.txt"],
        1,
        &["no/such/deck.txt", "No such file"],
    ),
    bad(
        &["run", "--player", "{dir}/misspelt_name.txt"],
        1,
        &["misspelt_name.txt:2", "'Atlass'", "did you mean 'Atlas'?"],
    ),
    bad(
        &["run", "--player", "{dir}/misspelt_ref.txt"],
        1,
        &["misspelt_ref.txt:2", "did you mean 'ALT_CORE_B_BR_20_C'?"],
    ),
    bad(
        &["run", "--player", "{dir}/malformed.txt"],
        1,
        &["malformed.txt:2", "malformed line 'Atlas'"],
    ),
    bad(
        &["run", "--player", "{dir}/zero.txt"],
        1,
        &["zero.txt:2", "count 0 is out of range"],
    ),
    bad(
        &["run", "--player", "{dir}/huge_count.txt"],
        1,
        &["huge_count.txt:2", "not a card count"],
    ),
    bad(
        &["run", "--player", "{dir}/bad_rarity.txt"],
        1,
        &["bad_rarity.txt:2", "unknown rarity"],
    ),
    bad(&["run", "--player", "{dir}/empty.txt"], 1, &["empty.txt"]),
    bad(
        &["run", "--player", "{dir}/too_few.txt"],
        1,
        &["too_few.txt", "illegal deck"],
    ),
    bad(
        &["run", "--confluence", "no/such/conf.toml"],
        1,
        &["no/such/conf.toml", "No such file"],
    ),
    bad(
        &["run", "--confluence", "{dir}/conf_syntax.toml"],
        1,
        &["conf_syntax.toml:2"],
    ),
    bad(
        &["run", "--cards", "no/such/dir"],
        1,
        &["no/such/dir/pool.csv"],
    ),
    bad(
        &["run", "--experiment", "no/such/exp.toml"],
        1,
        &["no/such/exp.toml", "No such file"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_players_empty.toml"],
        1,
        &["exp_players_empty.toml:2", "players = []"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_policies_empty.toml"],
        1,
        &["exp_policies_empty.toml:3", "policies = []"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_policy_unknown.toml"],
        1,
        &["exp_policy_unknown.toml:3", "unknown policy 'wizard'"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_max_zero.toml"],
        1,
        &["exp_max_zero.toml:5", "max_per_config = 0"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_batch_zero.toml"],
        1,
        &["exp_batch_zero.toml:5", "batch = 0"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_per_config_zero.toml"],
        1,
        &["exp_per_config_zero.toml:4", "per_config = 0"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_both_rules.toml"],
        1,
        &["needs either per_config"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_unknown_key.toml"],
        1,
        &["exp_unknown_key.toml:3", "colour"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_no_mix.toml"],
        1,
        &["[mixes] names no mix"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_counts_16.toml"],
        1,
        &["mixes.counts: '16'"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_empty_set.toml"],
        1,
        &["mixes.sets", "names no rare"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_wrong_rare.toml"],
        1,
        &["did you mean 'Gloom Wisp'?"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_day_cap_zero.toml"],
        1,
        &["day_cap = 0"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_subsets_zero.toml"],
        1,
        &["mixes.subsets = 0"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_missing_deck.toml"],
        1,
        &["no/such/deck.txt"],
    ),
    bad(
        &["run", "--experiment", "{dir}/exp_huge.toml"],
        1,
        &["more than 18446744073709551615 games"],
    ),
    bad(
        &["scenario", "no/such/scenario.toml"],
        1,
        &["no/such/scenario.toml", "No such file"],
    ),
    bad(
        &["scenario", "{dir}/scen_syntax.toml"],
        1,
        &["scen_syntax.toml"],
    ),
    bad(
        &["scenario", "{dir}/scen_misspelt.toml"],
        1,
        &["'Atlass'", "did you mean 'Atlas'?"],
    ),
    bad(
        &["scenario", "{dir}/scen_step.toml"],
        1,
        &["unknown step 'teatime'"],
    ),
    bad(
        &["report", "{dir}/empty_run"],
        1,
        &["summary.parquet not found"],
    ),
];

fn takes_out(cmd: &str) -> bool {
    matches!(cmd, "run" | "tune" | "ladder")
}

fn listing(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let bytes = if e.path().is_file() {
                std::fs::read(e.path()).unwrap()
            } else {
                Vec::new()
            };
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_bad_input_gets_one_clear_error_its_exit_code_and_no_output() {
    assert!(CATALOGUE.len() >= 40, "{} cases", CATALOGUE.len());
    let tmp = tempfile::tempdir().unwrap();
    let files = tmp.path().join("files");
    std::fs::create_dir(&files).unwrap();
    write_files(&files);
    let mut failures = Vec::new();
    for (i, case) in CATALOGUE.iter().enumerate() {
        let out = tmp.path().join(format!("out{i}"));
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("keep.txt"), "from an earlier run").unwrap();
        let before = listing(&out);
        let empty_before = listing(&files.join("empty_run"));
        let args: Vec<String> = case
            .args
            .iter()
            .map(|a| a.replace("{dir}", &files.display().to_string()))
            .collect();
        let mut cmd = sim();
        cmd.args(&args);
        if takes_out(case.args[0]) {
            cmd.arg("-q").arg("--out").arg(&out);
        }
        let output = cmd.output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr).into_owned();
        let what = format!("{args:?}");
        let code = output.status.code();
        if code != Some(case.code) {
            failures.push(format!(
                "{what}: exit {code:?}, expected {}\n{err}",
                case.code
            ));
            continue;
        }
        for s in case.says {
            if !err.contains(s) {
                failures.push(format!("{what}: the message lacks {s:?}:\n{err}"));
            }
        }
        if err.contains("panicked") || err.contains("RUST_BACKTRACE") {
            failures.push(format!("{what}: a panic:\n{err}"));
        }
        if err.matches("os error").count() > 1 {
            failures.push(format!("{what}: the cause is printed twice:\n{err}"));
        }
        if listing(&out) != before {
            failures.push(format!("{what}: --out was touched: {:?}", listing(&out)));
        }
        if listing(&files.join("empty_run")) != empty_before {
            failures.push(format!("{what}: the report directory was touched"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        CATALOGUE.len(),
        failures.join("\n\n")
    );
}

#[test]
fn a_byte_order_mark_is_not_part_of_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let files = tmp.path().join("files");
    std::fs::create_dir(&files).unwrap();
    write_files(&files);
    let out = tmp.path().join("out");
    sim()
        .args(["run", "--games", "20", "--rares", "0", "-q", "--player"])
        .arg(files.join("bom.txt"))
        .arg("--confluence")
        .arg(files.join("conf_bom.toml"))
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    assert!(out.join("summary.csv").exists());
    let out2 = tmp.path().join("out2");
    sim()
        .args(["run", "-q", "--experiment"])
        .arg(files.join("exp_bom.toml"))
        .arg("--out")
        .arg(&out2)
        .assert()
        .success();
    assert!(out2.join("summary.csv").exists());
}

#[test]
fn more_threads_than_cores_is_a_warning_not_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores >= 256 {
        return;
    }
    let assert = sim()
        .args(["run", "--games", "20", "--rares", "0", "-q", "--threads"])
        .arg((cores + 1).to_string())
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(err.contains("warning: --threads"), "{err}");
}
