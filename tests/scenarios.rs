//! Runs every scenario in tests/scenarios/: each pins a rule, and its [expect] table must
//! hold after its steps. Failures name the file and every broken expectation.

use std::path::Path;

use confluence_sim::cards::Library;
use confluence_sim::engine::event::NoObserver;
use confluence_sim::scenario::Scenario;

#[test]
fn every_scenario_holds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = Library::load(&root.join("decks/cards")).expect("card library loads");
    let mut files: Vec<_> = std::fs::read_dir(root.join("tests/scenarios"))
        .expect("tests/scenarios exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no scenarios found");
    let mut failures = Vec::new();
    for f in &files {
        let mut sc = match Scenario::load(f, &lib) {
            Ok(sc) => sc,
            Err(e) => {
                failures.push(format!("{e}"));
                continue;
            }
        };
        if sc.expect.is_empty() {
            failures.push(format!("{}: no [expect] table", f.display()));
            continue;
        }
        if let Err(e) = sc.run(&mut NoObserver) {
            failures.push(format!("{e}"));
            continue;
        }
        for d in sc.check() {
            failures.push(format!("{}: {d}", f.file_name().unwrap().to_string_lossy()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenario(s) failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
