//! The short property-test versions of the parser fuzz targets (`fuzz/`, run for real by
//! `scripts/fuzz.sh`): the committed corpus inputs, mutated at random (bytes inserted,
//! deleted, replaced, slices repeated, tricky tokens spliced in), and raw random text. No
//! input may panic; every rejected input gets a message that names the file.

use std::path::PathBuf;

use confluence_sim::fuzz;
use proptest::prelude::*;

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no seed", dir.display());
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

/// Splices that tend to reach error paths: numbers at the edges, TOML and deck syntax,
/// a byte-order mark, long runs.
const TOKENS: &[&str] = &[
    "0",
    "-1",
    "255",
    "65536",
    "18446744073709551616",
    "99999999999999999999999",
    "nan",
    "\u{feff}",
    "\n",
    "=",
    "[",
    "]",
    "[[cards]]",
    "\"",
    "'",
    "#",
    ",",
    "..=",
    "(",
    ")",
    "{",
    "}",
    ":",
    "(R2)",
    "ALT_",
    "x",
    "é",
    "🂡",
    "\\u0000",
];

#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, u8),
    Delete(usize, usize),
    Replace(usize, u8),
    Repeat(usize, usize, usize),
    Token(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let byte = prop_oneof![b' '..=b'~', Just(b'\n'), Just(b'\t')];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(p, b)| Edit::Insert(p, b)),
        (any::<usize>(), 0usize..64).prop_map(|(p, n)| Edit::Delete(p, n)),
        (any::<usize>(), byte).prop_map(|(p, b)| Edit::Replace(p, b)),
        (any::<usize>(), 0usize..64, 1usize..20).prop_map(|(p, n, k)| Edit::Repeat(p, n, k)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(p, t)| Edit::Token(p, t)),
    ]
}

fn apply(mut v: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        let at = |p: usize, len: usize| if len == 0 { 0 } else { p % (len + 1) };
        match *e {
            Edit::Insert(p, b) => {
                let i = at(p, v.len());
                v.insert(i, b);
            }
            Edit::Delete(p, n) => {
                let i = at(p, v.len());
                let j = (i + n).min(v.len());
                v.drain(i..j);
            }
            Edit::Replace(p, b) => {
                if !v.is_empty() {
                    let i = p % v.len();
                    v[i] = b;
                }
            }
            Edit::Repeat(p, n, k) => {
                let i = at(p, v.len());
                let j = (i + n).min(v.len());
                let slice = v[i..j].to_vec();
                for _ in 0..k {
                    v.splice(j..j, slice.iter().copied());
                }
            }
            Edit::Token(p, t) => {
                let i = at(p, v.len());
                v.splice(i..i, TOKENS[t].bytes());
            }
        }
    }
    v
}

/// A seed of the target's corpus with a few random edits, or random text.
fn input(target: &'static str) -> impl Strategy<Value = Vec<u8>> {
    let seeds = seeds(target);
    let n = seeds.len();
    prop_oneof![
        4 => (0..n, prop::collection::vec(edit(), 1..8))
            .prop_map(move |(i, edits)| apply(seeds[i].clone(), &edits)),
        1 => "(?s).{0,400}".prop_map(String::into_bytes),
    ]
}

fn check(result: Result<(), String>) -> Result<(), TestCaseError> {
    if let Err(msg) = result {
        prop_assert!(
            msg.contains(fuzz::FILE),
            "the error does not name the file: {msg}"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn player_deck_parser_never_panics(data in input("player_deck")) {
        check(fuzz::player_deck(&data))?;
    }

    #[test]
    fn confluence_deck_loader_never_panics(data in input("confluence_deck")) {
        check(fuzz::confluence_deck(&data))?;
    }

    #[test]
    fn experiment_loader_never_panics(data in input("experiment")) {
        check(fuzz::experiment(&data))?;
    }

    #[test]
    fn scenario_loader_never_panics(data in input("scenario")) {
        check(fuzz::scenario(&data))?;
    }

    #[test]
    fn effect_language_parser_never_panics(data in input("effect_lines")) {
        check(fuzz::effect_lines(&data))?;
    }
}

/// The seeds themselves: the repository's own files parse (they are valid inputs).
#[test]
fn repository_inputs_parse() {
    for f in [
        "decks/player/BR_kojo_booda.txt",
        "decks/player/YZ_akesha_taru.txt",
    ] {
        let data = std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(f)).unwrap();
        assert_eq!(fuzz::player_deck(&data), Ok(()), "{f}");
    }
    let conf = std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("decks/confluence/reference.toml"),
    )
    .unwrap();
    assert_eq!(fuzz::confluence_deck(&conf), Ok(()));
    let exp = std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("decks/experiments/starter_decks.toml"),
    )
    .unwrap();
    assert_eq!(fuzz::experiment(&exp), Ok(()));
    assert_eq!(fuzz::effect_lines(b"H: hand_to_reserve\n"), Ok(()));
    assert!(fuzz::effect_lines(b"H: hand_to_reserve(").is_err());
}
