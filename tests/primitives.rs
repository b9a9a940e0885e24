//! Every primitive of the effect language is played by at least one scenario (issue 49,
//! item 4): the reader verifies an encoding's words against a card's text, and the
//! scenarios pin what each primitive then does in the engine.
//!
//! The primitives are listed mechanically: every variant of the effect language's enums
//! (`Op`, `Trigger`, `EventKind`, `Static`, `Cond`, `Count`, `Amount`, `ObjRef`, `Who`,
//! `PlayerRef`, `ExpRef`, `Dest`, `PlayFrom`, `ActiveIn`, `Whose`, `Where`, `Cmp`), read
//! from `src/cards/effect/`, so a new variant is a new primitive without anyone listing it.
//! A scenario plays a primitive when, while it runs, an ability holding it resolves (its
//! trigger, its condition, its body's ops with their objects, amounts, counts, filters and
//! expeditions); a static ability plays when a card holding it is in a hand, a Reserve, the
//! Landmarks, an expedition or the Hero zone at some event of the run.
//!
//! `UNCOVERED` names the primitives no scenario plays yet: it only shrinks (a listed one
//! that a scenario now plays fails the test). `docs/primitives.md` holds the table
//! primitive → scenario: a row for every primitive, and each scenario a row names must play
//! it (`PRIMITIVES_SUGGEST=1` prints a suggested row for each primitive: up to three `prim_*`
//! scenarios that play it, else the first two others).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::path::{Path, PathBuf};

use confluence_sim::cards::Library;
use confluence_sim::cards::db::CardDb;
use confluence_sim::cards::effect::{
    Amount, CondId, Count, EventKind, FilterId, ME_FILTER, ObjRef, Op, Static, Trigger,
};
use confluence_sim::engine::event::{Event, Observer};
use confluence_sim::engine::state::{GameState, Zone};
use confluence_sim::scenario::Scenario;

/// The enums of the effect language, and the file that declares each.
const ENUMS: [(&str, &str); 17] = [
    ("Op", "op.rs"),
    ("ObjRef", "op.rs"),
    ("Amount", "op.rs"),
    ("Who", "op.rs"),
    ("PlayerRef", "op.rs"),
    ("ExpRef", "op.rs"),
    ("Dest", "op.rs"),
    ("Trigger", "event.rs"),
    ("EventKind", "event.rs"),
    ("Static", "event.rs"),
    ("PlayFrom", "event.rs"),
    ("Cond", "filter.rs"),
    ("Count", "filter.rs"),
    ("Cmp", "filter.rs"),
    ("ActiveIn", "filter.rs"),
    ("Whose", "filter.rs"),
    ("Where", "filter.rs"),
];

/// Primitives that no scenario plays yet. Only shrinks: write a scenario, then remove the
/// name here and fill its row in docs/primitives.md.
const UNCOVERED: &[&str] = &[];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The variants of `pub enum NAME` in a source file: the identifiers that open a line at
/// the enum's first indentation level.
fn variants(src: &str, name: &str) -> Vec<String> {
    let head = format!("pub enum {name} {{");
    let start = src
        .find(&head)
        .unwrap_or_else(|| panic!("no `{head}` in src/cards/effect"));
    let body = &src[start + head.len()..];
    let end = body.find("\n}").expect("the enum closes");
    body[..end]
        .lines()
        .filter_map(|l| l.strip_prefix("    "))
        .filter(|l| l.starts_with(|c: char| c.is_ascii_uppercase()))
        .map(|l| {
            l.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// Every primitive as `Enum::Variant`, in the order of `ENUMS`.
fn primitives() -> Vec<String> {
    let mut out = Vec::new();
    for (name, file) in ENUMS {
        let src = std::fs::read_to_string(root().join("src/cards/effect").join(file))
            .expect("effect source reads");
        let vs = variants(&src, name);
        assert!(!vs.is_empty(), "no variants read for {name}");
        out.extend(vs.into_iter().map(|v| format!("{name}::{v}")));
    }
    out
}

/// `Enum::Variant` of a value, from its Debug form's leading identifier.
fn tag<T: Debug>(e: &str, v: &T) -> String {
    let d = format!("{v:?}");
    let name: String = d
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    format!("{e}::{name}")
}

/// Collects the primitives an ability holds.
struct Walk<'a> {
    db: &'a CardDb,
    out: &'a mut BTreeSet<String>,
}

impl Walk<'_> {
    fn add<T: Debug>(&mut self, e: &str, v: &T) {
        self.out.insert(tag(e, v));
    }

    fn filter(&mut self, id: FilterId) {
        if id == ME_FILTER {
            return;
        }
        let f = *self.db.filter(id);
        self.add("Whose", &f.whose);
        self.add("Where", &f.place);
    }

    fn cond(&mut self, id: CondId) {
        use confluence_sim::cards::effect::Cond;
        let c = self.db.conds[id as usize];
        self.add("Cond", &c);
        match c {
            Cond::Compare(n, cmp, _) => {
                self.count(n);
                self.add("Cmp", &cmp);
            }
            Cond::CompareCounts(a, cmp, b) => {
                self.count(a);
                self.add("Cmp", &cmp);
                self.count(b);
            }
            Cond::ItMatches(f) | Cond::Control(f) => self.filter(f),
            Cond::Distinct(fs, n) => fs[..n as usize].iter().for_each(|&f| self.filter(f)),
            Cond::Not(a) => self.cond(a),
            Cond::And(a, b) | Cond::Or(a, b) => {
                self.cond(a);
                self.cond(b);
            }
            _ => {}
        }
    }

    fn count(&mut self, c: Count) {
        self.add("Count", &c);
        if let Count::Objects(f) | Count::BoostsOf(f) | Count::ZeroStatsOf(f) = c {
            self.filter(f);
        }
    }

    fn amount(&mut self, a: Amount) {
        self.add("Amount", &a);
        if let Amount::Count(c) | Amount::Neg(c) | Amount::Plus(c, _) = a {
            self.count(c);
        }
    }

    fn obj(&mut self, o: ObjRef) {
        self.add("ObjRef", &o);
        if let ObjRef::Each(f) = o {
            self.filter(f);
        }
    }

    fn op(&mut self, op: Op) {
        self.add("Op", &op);
        match op {
            Op::Select { filter, .. }
            | Op::OpponentSelect { filter }
            | Op::AugmentAny { filter }
            | Op::Discount { filter, .. }
            | Op::NextBoost { filter, .. }
            | Op::NextGain { filter, .. }
            | Op::NextLose { filter, .. }
            | Op::NextActivateR { filter, .. }
            | Op::NextMod { filter, .. }
            | Op::ActivateJEach { filter }
            | Op::RevealPut { filter, .. } => self.filter(filter),
            Op::SelectExp { whose, .. } => self.add("Whose", &whose),
            Op::Boost { obj, n, .. } | Op::Counters { obj, n, .. } | Op::ToDeckAt { obj, n } => {
                self.obj(obj);
                self.amount(n);
            }
            Op::Move { obj, dest } => {
                self.obj(obj);
                self.add("Dest", &dest);
            }
            Op::SpendCounter { obj }
            | Op::Augment { obj }
            | Op::Gain { obj, .. }
            | Op::Lose { obj, .. }
            | Op::Exhaust { obj }
            | Op::Ready { obj }
            | Op::Switch { obj }
            | Op::Defect { obj }
            | Op::SwapBoosts { obj }
            | Op::ActivateJ { obj, .. }
            | Op::TakeControl { obj }
            | Op::ActivateRAsMine { obj } => self.obj(obj),
            Op::Draw { who, n } => {
                self.add("Who", &who);
                self.amount(n);
            }
            Op::Resupply { who, .. }
            | Op::ManaFromDeck { who, .. }
            | Op::DayTough { who, .. }
            | Op::SacrificeOne { who }
            | Op::BecomeFirst { who } => self.add("Who", &who),
            Op::SacrificeHighest { who, filter } | Op::PlayFree { who, filter, .. } => {
                self.add("Who", &who);
                self.filter(filter);
            }
            Op::FromHand { who, dest, .. } => {
                self.add("Who", &who);
                self.add("Dest", &dest);
            }
            Op::Token { at, .. }
            | Op::BlockForward { at, .. }
            | Op::MoveExp { at, .. }
            | Op::Ascend { at } => self.add("ExpRef", &at),
            Op::LandmarkToken { whose, .. } => self.add("PlayerRef", &whose),
            Op::SetX(n) | Op::LoopStart { n, .. } => self.amount(n),
            Op::JumpUnless { cond, .. } => self.cond(cond),
            _ => {}
        }
    }

    fn event(&mut self, e: EventKind) {
        self.add("EventKind", &e);
        match e {
            EventKind::LeavesYourExpeditions(f)
            | EventKind::SacrificedAs(f)
            | EventKind::YouSacrifice(f)
            | EventKind::YouPlay(f)
            | EventKind::YouPlayFromReserve(f)
            | EventKind::YouPlayFirst(f)
            | EventKind::OpponentPlays(f)
            | EventKind::OpponentPlaysFromReserve(f)
            | EventKind::Joins(f)
            | EventKind::JoinsFacing(f)
            | EventKind::YouCreateToken(f) => self.filter(f),
            _ => {}
        }
    }

    fn statik(&mut self, s: Static) {
        self.add("Static", &s);
        match s {
            Static::CostPer(_, c) | Static::ToughCount(c) => self.count(c),
            Static::NoForward(at) => self.add("ExpRef", &at),
            Static::Grant(f, from) => {
                self.filter(f);
                self.add("PlayFrom", &from);
            }
            Static::ToughAura(f, _)
            | Static::OpponentMinCost(f, _)
            | Static::KeywordAura(f, _)
            | Static::NoCounters(f)
            | Static::LevelStats(f)
            | Static::PlayExhausted(f, _)
            | Static::CostAura(f, _)
            | Static::CostAuraMin(f, _, _) => self.filter(f),
            _ => {}
        }
    }

    /// An ability: its trigger, where it works, its condition and its body.
    fn ability(&mut self, index: usize) {
        let ab = self.db.abilities[index];
        self.add("Trigger", &ab.trigger);
        self.add("ActiveIn", &ab.active);
        match ab.trigger {
            Trigger::Played(from) => self.add("PlayFrom", &from),
            Trigger::When(e) => self.event(e),
            Trigger::Static(s) => self.statik(s),
            _ => {}
        }
        self.cond(ab.cond);
        for pc in 0..ab.len {
            self.op(self.db.op(&ab, pc));
        }
    }
}

/// Records the abilities that resolve, and the static abilities of the cards where they
/// work, while a scenario runs.
struct Played<'a> {
    db: &'a CardDb,
    resolved: BTreeSet<usize>,
    statics: BTreeSet<usize>,
}

impl Played<'_> {
    fn look(&mut self, s: &GameState) {
        for o in s.objs.iter() {
            if matches!(
                o.zone,
                Zone::Hand | Zone::Reserve | Zone::Landmarks | Zone::Expedition | Zone::HeroZone
            ) && (o.card as usize) < self.db.cards.len()
            {
                let c = self.db.card(o.card);
                let start = c.ab_start as usize;
                for (k, ab) in self.db.abilities_of(o.card).iter().enumerate() {
                    if matches!(ab.trigger, Trigger::Static(_)) {
                        self.statics.insert(start + k);
                    }
                }
            }
        }
    }
}

impl Observer for Played<'_> {
    const ENABLED: bool = true;
    fn event(&mut self, s: &GameState, ev: &Event<'_>) {
        if let Event::Ability { ability, .. } = ev {
            self.resolved.insert(*ability as usize);
        }
        self.look(s);
    }
}

/// For each scenario file name, the primitives it plays.
fn played_by_scenario() -> BTreeMap<String, BTreeSet<String>> {
    let lib = Library::load(&root().join("decks/cards")).expect("card library loads");
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/scenarios"))
        .expect("tests/scenarios exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut out = BTreeMap::new();
    for f in &files {
        // A scenario that does not load or run is `tests/scenarios.rs`'s to report; it
        // plays nothing here.
        let Ok(mut sc) = Scenario::load(f, &lib) else {
            continue;
        };
        let db = sc.db.clone();
        let mut obs = Played {
            db: &db,
            resolved: BTreeSet::new(),
            statics: BTreeSet::new(),
        };
        obs.look(&sc.state);
        if sc.run(&mut obs).is_err() {
            continue;
        }
        obs.look(&sc.state);
        let mut prims = BTreeSet::new();
        let mut w = Walk {
            db: &db,
            out: &mut prims,
        };
        for &a in obs.resolved.iter().chain(obs.statics.iter()) {
            w.ability(a);
        }
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        out.insert(name, prims);
    }
    out
}

/// The rows of docs/primitives.md's table: primitive → the scenario files it names.
fn doc_rows() -> BTreeMap<String, Vec<String>> {
    let text = std::fs::read_to_string(root().join("docs/primitives.md")).unwrap_or_default();
    let mut rows = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("| `") else {
            continue;
        };
        let Some((prim, tail)) = rest.split_once('`') else {
            continue;
        };
        if !prim.contains("::") {
            continue;
        }
        let files: Vec<String> = tail
            .split("../tests/scenarios/")
            .skip(1)
            .map(|s| s.split(')').next().unwrap_or("").to_string())
            .collect();
        assert!(
            rows.insert(prim.to_string(), files).is_none(),
            "docs/primitives.md: two rows for {prim}"
        );
    }
    rows
}

#[test]
fn the_primitives_are_read_from_the_source() {
    let src = "pub enum E {\n    /// doc\n    A,\n    B { x: u8 },\n    C(u8),\n        D,\n}\n";
    assert_eq!(variants(src, "E"), ["A", "B", "C"]);
    let all = primitives();
    for p in [
        "Op::Draw",
        "Dest::Hand",
        "EventKind::OpponentDraws",
        "Static::SupportOverMax",
    ] {
        assert!(all.iter().any(|x| x == p), "{p} not listed");
    }
    assert_eq!(
        all.len(),
        all.iter().collect::<BTreeSet<_>>().len(),
        "a primitive listed twice"
    );
}

#[test]
fn every_primitive_is_played_by_a_scenario() {
    let all = primitives();
    let by_scenario = played_by_scenario();
    let mut players: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (file, prims) in &by_scenario {
        for p in prims {
            players.entry(p.as_str()).or_default().push(file.as_str());
        }
    }
    let mut problems = Vec::new();
    for p in &all {
        let covered = players.contains_key(p.as_str());
        let listed = UNCOVERED.contains(&p.as_str());
        if !covered && !listed {
            problems.push(format!("{p}: no scenario plays it (write one)"));
        }
        if covered && listed {
            problems.push(format!(
                "{p}: played by {}, so it leaves UNCOVERED",
                players[p.as_str()][0]
            ));
        }
    }
    for u in UNCOVERED {
        if !all.iter().any(|p| p == u) {
            problems.push(format!("UNCOVERED names {u}, which is no primitive"));
        }
    }
    // The docs' table: a row per primitive; each scenario it names plays it.
    let rows = doc_rows();
    for p in &all {
        match rows.get(p) {
            None => problems.push(format!("docs/primitives.md: no row for {p}")),
            Some(files) => {
                for f in files {
                    if !by_scenario.get(f).is_some_and(|s| s.contains(p)) {
                        problems.push(format!("docs/primitives.md: {f} does not play {p}"));
                    }
                }
                let listed = UNCOVERED.contains(&p.as_str());
                if files.is_empty() != listed {
                    problems.push(format!(
                        "docs/primitives.md: the row of {p} should name {}",
                        if listed { "no scenario" } else { "a scenario" }
                    ));
                }
            }
        }
    }
    for p in rows.keys() {
        if !all.contains(p) {
            problems.push(format!("docs/primitives.md: {p} is no primitive"));
        }
    }
    if std::env::var_os("PRIMITIVES_SUGGEST").is_some() {
        for p in &all {
            let files = players.get(p.as_str()).cloned().unwrap_or_default();
            let mut pick: Vec<&str> = files
                .iter()
                .copied()
                .filter(|f| f.starts_with("prim_"))
                .take(3)
                .collect();
            if pick.is_empty() {
                pick = files.iter().copied().take(2).collect();
            }
            let links: Vec<String> = pick
                .iter()
                .map(|f| format!("[{}](../tests/scenarios/{f})", f.trim_end_matches(".toml")))
                .collect();
            println!(
                "| `{p}` | {} |",
                if links.is_empty() {
                    "none yet".to_string()
                } else {
                    links.join(", ")
                }
            );
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
