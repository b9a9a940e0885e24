//! What the game-level test files share: the card library, the six starter decks and the
//! reference Confluence deck, loaded from the repository.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use confluence_sim::cards::Library;
use confluence_sim::cards::effect::CardIdx;
use confluence_sim::deck::{ConfluenceDeck, PlayerDeck};
use confluence_sim::engine::setup::Matchup;

pub struct Setup {
    pub lib: Library,
    /// The starter decks, sorted by file name (AX, BR, LY, MU, OR, YZ).
    pub decks: Vec<PlayerDeck>,
    pub confluence: ConfluenceDeck,
}

impl Setup {
    /// A four-seat game of the starter decks `seats` (indices into [`Setup::decks`]), seat
    /// `first % 4` first, 30 days at most.
    pub fn pod(&self, seats: [usize; 4], first: u64) -> confluence_sim::engine::ffa::FfaSetup<'_> {
        confluence_sim::engine::ffa::FfaSetup {
            heroes: seats.map(|k| self.decks[k].hero),
            cards: seats.map(|k| self.decks[k].cards.as_slice()),
            first: confluence_sim::cards::types::Side::of_seat((first % 4) as u8),
            day_cap: 30,
            mirror_lanes: false,
        }
    }
}

pub fn setup() -> Setup {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut lib = Library::load(&root.join("decks/cards")).expect("library");
    let mut paths: Vec<_> = std::fs::read_dir(root.join("decks/player"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let decks = paths
        .iter()
        .map(|p| PlayerDeck::load(p, &lib.pool, &lib.db).expect("starter deck"))
        .collect();
    let confluence =
        ConfluenceDeck::load(&root.join("decks/confluence/reference.toml"), &mut lib.db)
            .expect("reference deck");
    Setup {
        lib,
        decks,
        confluence,
    }
}

/// A starter deck against the given Confluence cards, with the default day cap.
pub fn matchup<'a>(deck: &'a PlayerDeck, s: &'a Setup, conf: &'a [CardIdx]) -> Matchup<'a> {
    Matchup {
        player_hero: deck.hero,
        player_cards: &deck.cards,
        confluence_hero: s.confluence.hero,
        confluence_cards: conf,
        day_cap: 30,
    }
}

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The binary, run from the repository root (where `decks/` is).
pub fn sim() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("confluence-sim").expect("binary builds");
    c.current_dir(root());
    c
}

/// `merge` of the shard directories `dirs` into `out` is refused as a bad file (exit 1),
/// its message naming `needle` (the setting that differs, or what is wrong).
pub fn merge_refused<P: AsRef<std::ffi::OsStr>>(out: &Path, dirs: &[P], needle: &str) {
    sim()
        .args(["merge", "-q", "--out"])
        .arg(out)
        .args(dirs)
        .assert()
        .failure()
        .code(1)
        .stderr(predicates::str::contains(needle));
}

/// The names in a directory, sorted (none if it does not exist).
pub fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Sends a signal to a child process.
pub fn signal(child: &std::process::Child, sig: i32) {
    // SAFETY: sending a signal to our own child process.
    assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
}

/// Waits (at most a minute) until the checkpoint of a run into `out` holds a unit.
pub fn wait_for_checkpoint(out: &Path) {
    let log = out.join("checkpoint/units.log");
    let t = std::time::Instant::now();
    while std::fs::metadata(&log).map_or(0, |m| m.len()) == 0 {
        assert!(
            t.elapsed() < std::time::Duration::from_secs(60),
            "no checkpoint after 60 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Starts the binary with `args` and `--out out` (stdout discarded, stderr kept) and
/// returns once its checkpoint holds a unit.
pub fn start_until_checkpoint(args: &[&str], out: &Path) -> std::process::Child {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("confluence-sim"))
        .current_dir(root())
        .args(args)
        .arg("--out")
        .arg(out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_checkpoint(out);
    child
}

/// The blindness check of a game with several seats (head to head, four seats): at each
/// sampled decision (`states`: its seed and state, some of every seat's `seats`), every
/// spec of `blind` picks the same option after `perms` rearrangements of what the
/// deciding seat cannot see (`permute(state, k)`), and the legal options never change.
/// Two controls show that the check can fail: `sampler` (a search) picks differently with
/// another sampling seed somewhere, and `cheat` (the clairvoyant bound) reacts to the
/// hidden cards. `choose(spec, state, seed)` is the pick and the legal options.
pub struct Blindness<'a, G> {
    pub states: &'a [(u64, G)],
    pub seats: usize,
    pub decider: &'a dyn Fn(&G) -> usize,
    pub permute: &'a dyn Fn(&G, u64) -> G,
    pub perms: u64,
    pub choose: &'a dyn Fn(&str, &G, u64) -> (usize, confluence_sim::engine::ChoiceList),
    pub where_: &'a str,
}

impl<G: PartialEq> Blindness<'_, G> {
    pub fn assert(&self, blind: &[&str], sampler: &str, cheat: &str) {
        let states = self.states;
        for seat in 0..self.seats {
            assert!(
                states.iter().any(|(_, g)| (self.decider)(g) == seat),
                "no decision of seat {seat} sampled"
            );
        }
        let hidden_changed = states
            .iter()
            .filter(|(seed, g)| (self.permute)(g, seed * 7) != *g)
            .count();
        assert!(
            hidden_changed * 2 >= states.len(),
            "the permutations did not change the hidden state"
        );
        let sensitivity =
            |spec: &str| hidden_sensitivity(spec, states, self.perms, self.permute, self.choose);
        for spec in blind {
            assert_eq!(
                sensitivity(spec),
                0,
                "{spec} chose differently {} after the hidden information was rearranged",
                self.where_
            );
        }
        let seed_sensitive = states
            .iter()
            .filter(|(seed, g)| {
                let k = (self.choose)(sampler, g, *seed).0;
                (1..4).any(|d| (self.choose)(sampler, g, seed + 1000 * d).0 != k)
            })
            .count();
        assert!(
            seed_sensitive > 0,
            "no decision depended on the sampling seed; the blindness check proves nothing"
        );
        assert!(
            sensitivity(cheat) > 0,
            "the clairvoyant bound never reacted to the hidden cards; the check proves nothing"
        );
    }
}

/// How many of the `states` (seed, state) a policy decides differently once what the
/// deciding player cannot see is rearranged (`perms` times each, by `permute`); the legal
/// options must stay the same. `choose(spec, state, seed)` is the pick and the options.
pub fn hidden_sensitivity<G>(
    spec: &str,
    states: &[(u64, G)],
    perms: u64,
    permute: &dyn Fn(&G, u64) -> G,
    choose: &dyn Fn(&str, &G, u64) -> (usize, confluence_sim::engine::ChoiceList),
) -> usize {
    let mut changed = 0;
    for (seed, g) in states {
        let (k, options) = choose(spec, g, *seed);
        let mut differs = false;
        for p in 0..perms {
            let h = permute(g, seed * 7 + p);
            let (k2, options2) = choose(spec, &h, *seed);
            assert_eq!(
                options, options2,
                "the legal options must not depend on hidden state"
            );
            differs |= k != k2;
        }
        changed += differs as usize;
    }
    changed
}

/// Shuffles the objects of `deck` that `seen` does not name among their own slots (the
/// blindness tests' rearrangement of a deck's hidden order).
pub fn shuffle_unseen(
    deck: &mut confluence_sim::engine::state::Zone64,
    seen: impl Fn(u8) -> bool,
    rng: &mut confluence_sim::engine::GameRng,
) {
    use rand::seq::SliceRandom;
    let slots: Vec<usize> = (0..deck.len())
        .filter(|&i| !seen(deck.as_slice()[i]))
        .collect();
    let mut ids: Vec<u8> = slots.iter().map(|&i| deck.as_slice()[i]).collect();
    ids.shuffle(rng);
    for (&i, id) in slots.iter().zip(ids) {
        deck.as_mut_slice()[i] = id;
    }
}

/// Deals the unrevealed Tumult cards anew among their places, each face up or down at
/// random, and lays the terrain out again (the blindness tests' rearrangement of the
/// adventure).
pub fn shuffle_hidden_tumult(
    adv: &mut confluence_sim::engine::state::Adventure,
    rng: &mut confluence_sim::engine::GameRng,
) {
    use rand::RngExt;
    use rand::seq::SliceRandom;
    let hidden: Vec<usize> = (0..3).filter(|k| adv.revealed & (1 << k) == 0).collect();
    let mut t: Vec<u8> = hidden.iter().map(|&k| adv.tumult[k]).collect();
    t.shuffle(rng);
    for (&k, v) in hidden.iter().zip(t) {
        adv.tumult[k] = v;
        adv.flipped[k] = rng.random();
    }
    adv.terrain = confluence_sim::engine::state::Adventure::layout(adv.tumult, adv.flipped).terrain;
}

/// Plays `steps` decisions of `g` at random (the picks drawn from `pick`), then runs to the
/// next decision: the state there, or `None` if the game ended first (the tests' way of
/// sampling positions).
pub fn random_walk<const N: usize, const M: usize>(
    mut g: confluence_sim::engine::state::GameState<N, M>,
    db: &confluence_sim::cards::CardDb,
    rng: &mut confluence_sim::engine::GameRng,
    pick: &mut confluence_sim::policy::PolicyRng,
    steps: u32,
) -> Option<confluence_sim::engine::state::GameState<N, M>> {
    use confluence_sim::engine::event::NoObserver;
    use confluence_sim::engine::{ChoiceList, Step, advance, apply_unchecked, legal_choices};
    use rand::RngExt;
    let mut buf = ChoiceList::new();
    for _ in 0..steps {
        match advance(&mut g, db, rng, &mut NoObserver) {
            Step::Decide => {
                legal_choices(&g, db, &mut buf);
                let k = pick.random_range(0..buf.len());
                apply_unchecked(&mut g, db, rng, &mut NoObserver, buf[k]);
            }
            _ => return None,
        }
    }
    match advance(&mut g, db, rng, &mut NoObserver) {
        Step::Decide => Some(g),
        _ => None,
    }
}
