//! `play` in a real browser: Chromium, driven by playwright-core (tests/browser/play.mjs),
//! plays a whole solo game clicking only the options the page offers; the record then
//! re-plays to the result the page showed, and the screenshot of docs/playing.md is saved.
//! Skipped, with a notice, where Chromium, Node or the npm package is missing (`.ci/run`
//! installs them).

use std::path::Path;
use std::process::Command;

mod common;
mod play_support;

/// Where Chromium is: `$CHROMIUM`, else Debian's.
fn chromium() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())
}

fn missing() -> Option<String> {
    let root = common::root();
    if !Path::new(&chromium()).exists() {
        return Some(format!(
            "no Chromium at {} (apt-get install chromium chromium-driver)",
            chromium()
        ));
    }
    if Command::new("node").arg("--version").output().is_err() {
        return Some("no node".into());
    }
    if !root
        .join("tests/browser/node_modules/playwright-core")
        .exists()
    {
        return Some("no playwright-core (cd tests/browser && npm install)".into());
    }
    None
}

#[test]
fn a_whole_solo_game_is_played_in_a_real_browser() {
    if let Some(why) = missing() {
        eprintln!("SKIPPED a_whole_solo_game_is_played_in_a_real_browser: {why}");
        return;
    }
    let root = common::root();
    let srv = play_support::start(&[
        "--player",
        "decks/player/BR_kojo_booda.txt",
        "--seed",
        "1",
        "--game-index",
        "1",
        "--name",
        "browser-test",
    ]);
    let shot = root.join("docs/playing.png");
    let out = Command::new("node")
        .current_dir(root.join("tests/browser"))
        .env("CHROMIUM", chromium())
        .arg("play.mjs")
        .arg(format!("http://{}/", srv.addr))
        .arg(&shot)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the browser game failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last: serde_json::Value =
        serde_json::from_str(stdout.lines().last().expect("a result line")).unwrap();
    assert!(last["clicks"].as_u64().unwrap() > 0);
    assert_eq!(last["game_index"], 1);
    let (path, record) = play_support::record_of(&srv.games, 1);
    assert_eq!(record[0]["player"], "browser-test");
    let replayed = play_support::replay(&path);
    assert_eq!(replayed["result"], last["result"]["result"]);
    assert!(shot.exists());
}
