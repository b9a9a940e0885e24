//! `confluence-sim cards`: coverage of the effect language over the card pool.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::cli::{CardsArgs, CardsCommand};
use crate::cards::textread::{self, Exceptions, Texts, Verdict};
use crate::cards::types::CardKind;
use crate::cards::{CardDef, Coverage, Library};
use crate::job::builtin;
use crate::job::load;

#[derive(Default, Clone, Copy)]
struct Count {
    exact: usize,
    partial: usize,
    stats: usize,
    /// Exact cards the text reader verified.
    verified: usize,
    /// Exact cards with no known head-to-head gap (`head_to_head_gaps.toml`).
    h2h: usize,
}

impl Count {
    fn add(&mut self, c: &Coverage, v: &Verdict, h2h_gap: bool) {
        if c.is_exact() && !h2h_gap {
            self.h2h += 1;
        }
        match c {
            Coverage::NoText | Coverage::Exact => self.exact += 1,
            Coverage::Partial(_) => self.partial += 1,
            Coverage::StatsOnly => self.stats += 1,
        }
        if *v == Verdict::Verified {
            self.verified += 1;
        }
    }
    /// Verified, as a share of the exact cards.
    fn vpct(&self) -> f64 {
        100.0 * self.verified as f64 / self.exact.max(1) as f64
    }
    /// Verified, as a share of all the cards.
    fn vpct_all(&self) -> f64 {
        100.0 * self.verified as f64 / self.total().max(1) as f64
    }
    fn total(&self) -> usize {
        self.exact + self.partial + self.stats
    }
    fn pct(&self) -> f64 {
        100.0 * self.exact as f64 / self.total().max(1) as f64
    }
}

/// Cards that can appear in a game (mana and landmark tokens of later sets cannot).
fn counted(def: &CardDef) -> bool {
    def.pool_index.is_some() && !matches!(def.kind, CardKind::OtherToken | CardKind::LandmarkToken)
}

fn missing(def: &CardDef) -> String {
    match &def.coverage {
        Coverage::Partial(m) => m.clone(),
        Coverage::StatsOnly => "no encoding".into(),
        _ => String::new(),
    }
}

pub fn cards(a: CardsArgs) -> Result<()> {
    let lib = load::library(&a.cards)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match a.command {
        CardsCommand::Coverage { list, set, decks } => {
            coverage(&lib, &a.cards, &mut out, list, set, decks)?
        }
        CardsCommand::Show { card } => show(&lib, &a.cards, &mut out, &card)?,
    }
    out.flush()?;
    Ok(())
}

fn row(out: &mut impl Write, label: &str, c: &Count) -> std::io::Result<()> {
    writeln!(
        out,
        "{label:<12} {:>6} {:>6} {:>8} {:>11} {:>7.1}% {:>9} {:>9} {:>9.1}% {:>10}",
        c.total(),
        c.exact,
        c.partial,
        c.stats,
        c.pct(),
        c.verified,
        c.exact - c.verified,
        c.vpct(),
        c.h2h
    )
}

const HEADER: [&str; 9] = [
    "cards",
    "exact",
    "partial",
    "stats-only",
    "exact%",
    "verified",
    "declared",
    "verified%",
    "h2h-exact",
];

fn header(out: &mut impl Write, label: &str) -> std::io::Result<()> {
    let h = HEADER;
    writeln!(
        out,
        "{label:<12} {:>6} {:>6} {:>8} {:>11} {:>8} {:>9} {:>9} {:>10} {:>10}",
        h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]
    )
}

/// A file beside the encodings (`head_to_head_gaps.toml`, `verified.txt`): its path to show
/// and its text, built in when the card directory is; `None` when it is absent.
fn beside(cards_dir: &Path, file: &str) -> Result<Option<(PathBuf, Cow<'static, str>)>> {
    match builtin::locate(cards_dir) {
        builtin::Source::Builtin(name) => {
            let name = format!("{name}/{file}");
            Ok(builtin::file(&name).map(|t| (PathBuf::from(name), Cow::Borrowed(t))))
        }
        builtin::Source::Disk(dir) => {
            let p = dir.join(file);
            match std::fs::read_to_string(&p) {
                Ok(t) => Ok(Some((p, Cow::Owned(t)))),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(anyhow::anyhow!("{}: {e}", p.display())),
            }
        }
    }
}

/// A reviewed list beside the encodings, in the format of `reader_exceptions.toml`.
fn exceptions(cards_dir: &Path, file: &str) -> Result<Exceptions> {
    match beside(cards_dir, file)? {
        Some((p, t)) => Exceptions::parse(&t, &p).map_err(anyhow::Error::msg),
        None => Ok(Exceptions::default()),
    }
}

/// The exact cards known to play differently head to head, with why
/// (`head_to_head_gaps.toml` beside the encodings, in the format of `reader_exceptions.toml`).
fn h2h_gaps(cards_dir: &Path) -> Result<Exceptions> {
    exceptions(cards_dir, "head_to_head_gaps.toml")
}

/// The card versions the text reader verified when the list was last made with the card
/// texts (`verified.txt` beside the encodings; tests/verified.rs keeps it true), and its
/// path; `None` without the file.
fn committed_verified(cards_dir: &Path) -> Result<Option<(PathBuf, HashSet<String>)>> {
    Ok(beside(cards_dir, "verified.txt")?.map(|(p, t)| {
        let refs = t
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect();
        (p, refs)
    }))
}

/// The reason a reviewed list gives for a card: its own entry, or that of a reprint with the
/// same name and text.
fn listed<'a>(lib: &Library, list: &'a Exceptions, def: &CardDef) -> Option<&'a String> {
    let same_text = |r: &str| {
        lib.pool
            .get(r)
            .map(|f| (crate::cards::pool::normalize_name(&f.name), f.text_hash))
    };
    list.reasons.get(&def.reference).or_else(|| {
        let key = same_text(&def.reference)?;
        list.reasons
            .iter()
            .find(|(r, _)| same_text(r) == Some(key.clone()))
            .map(|(_, why)| why)
    })
}

/// Each card's verdict (by card index). Without the texts, an exact card is verified when
/// the committed list (`committed`) names it, else only declared.
fn verdicts(
    lib: &Library,
    texts: Option<&Texts>,
    committed: Option<&HashSet<String>>,
) -> Vec<Verdict> {
    let ctx = textread::Ctx::new(&lib.db);
    lib.db
        .cards
        .iter()
        .map(|def| match texts {
            Some(t) => textread::verdict(&ctx, def, t),
            None if def.coverage.is_exact()
                && committed.is_some_and(|c| c.contains(&def.reference)) =>
            {
                Verdict::Verified
            }
            None if def.coverage.is_exact() => Verdict::Declared("no card texts".into()),
            None => Verdict::NotExact,
        })
        .collect()
}

fn coverage(
    lib: &Library,
    cards_dir: &Path,
    out: &mut impl Write,
    list: Option<String>,
    set: Option<String>,
    decks: Vec<std::path::PathBuf>,
) -> Result<()> {
    // A set no card is in would list nothing, as if the set had no such cards.
    if let Some(s) = &set {
        let known: std::collections::BTreeSet<&str> =
            lib.db.cards.iter().map(|d| d.set.as_str()).collect();
        if !known.contains(s.as_str()) {
            return Err(crate::job::error::usage(format!(
                "--set {s}: unknown set (known sets: {})",
                known.into_iter().collect::<Vec<_>>().join(", ")
            )));
        }
    }
    // Every deck is read before anything is printed: a bad one prints nothing.
    let mut loaded = Vec::new();
    for path in &decks {
        let mut w = Vec::new();
        loaded.push((path, load::player_deck(lib, path, true, &mut w)?));
    }
    // The texts lie beside the repository: for the built-in cards, as for the repository's
    // decks/cards read from its root.
    let shown_dir = PathBuf::from(builtin::shown(cards_dir));
    let texts_path = textread::default_texts_path(&shown_dir);
    let texts = Texts::load(&texts_path).map_err(anyhow::Error::msg)?;
    let exceptions = exceptions(cards_dir, "reader_exceptions.toml")?;
    let committed = match texts {
        Some(_) => None,
        None => committed_verified(cards_dir)?,
    };
    let verdict = verdicts(lib, texts.as_ref(), committed.as_ref().map(|c| &c.1));
    let gaps = h2h_gaps(cards_dir)?;
    let reviewed = |def: &CardDef| -> Option<&String> { listed(lib, &exceptions, def) };
    let gap = |def: &CardDef| -> Option<&String> { listed(lib, &gaps, def) };
    let vof = |def: &CardDef| -> &Verdict {
        let idx = lib.db.by_ref(&def.reference).expect("a card of the db");
        &verdict[idx as usize]
    };
    let mut by_set: BTreeMap<String, Count> = BTreeMap::new();
    let mut by_faction: BTreeMap<String, Count> = BTreeMap::new();
    let mut core_cr = Count::default();
    let mut all = Count::default();
    for def in lib.db.cards.iter().filter(|d| counted(d)) {
        by_set
            .entry(def.set.clone())
            .or_default()
            .add(&def.coverage, vof(def), gap(def).is_some());
        by_faction
            .entry(def.faction.code().to_string())
            .or_default()
            .add(&def.coverage, vof(def), gap(def).is_some());
        all.add(&def.coverage, vof(def), gap(def).is_some());
        if def.set == "CORE" && def.kind != CardKind::Token {
            core_cr.add(&def.coverage, vof(def), gap(def).is_some());
        }
    }
    writeln!(
        out,
        "Coverage of the card pool ({}): exact = every ability encoded (cards without ability text count as exact); partial = some abilities encoded; stats-only = none.",
        lib.pool.source.display()
    )?;
    match &texts {
        Some(t) => writeln!(
            out,
            "Verified = an exact card whose text ({}) the independent text reader reads ability by ability and finds equal to its encoding; declared = exact, not verified; verified% is of the exact cards.",
            t.source.display()
        )?,
        None => match &committed {
            Some((list, _)) => writeln!(
                out,
                "The card texts ({}) are absent: verified is the committed level, the cards {} lists (verified with the texts when the list was last made); the card texts are needed to re-verify.",
                texts_path.display(),
                list.display()
            )?,
            None => writeln!(
                out,
                "The card texts ({}) are absent and no verified.txt lies beside the encodings: no card is verified (the card texts are needed to verify).",
                texts_path.display()
            )?,
        },
    }
    header(out, "set")?;
    for (s, c) in &by_set {
        row(out, s, c)?;
    }
    writeln!(out)?;
    header(out, "faction")?;
    for (f, c) in &by_faction {
        row(out, f, c)?;
    }
    writeln!(out)?;
    row(out, "CORE C+R", &core_cr)?;
    row(out, "all sets", &all)?;
    for (path, deck) in &loaded {
        let mut c = Count::default();
        let mut lines = Vec::new();
        for idx in std::iter::once(deck.hero).chain(deck.cards.iter().copied()) {
            let def = lib.db.card(idx);
            c.add(&def.coverage, &verdict[idx as usize], gap(def).is_some());
            if !def.coverage.is_exact() {
                lines.push(format!(
                    "  {:<24} {:<32} {}",
                    def.reference,
                    def.name,
                    missing(def)
                ));
            } else if let Some(why) = gap(def) {
                lines.push(format!(
                    "  {:<24} {:<32} head to head: {why}",
                    def.reference, def.name
                ));
            }
        }
        writeln!(out)?;
        writeln!(
            out,
            "deck {}: {} of {} cards exact ({:.1}%), {} verified ({:.1}%); head to head {} exact",
            path.display(),
            c.exact,
            c.total(),
            c.pct(),
            c.verified,
            c.vpct_all(),
            c.h2h
        )?;
        lines.sort();
        lines.dedup();
        for l in lines {
            writeln!(out, "{l}")?;
        }
    }
    if let Some(class) = list {
        writeln!(out)?;
        writeln!(
            out,
            "{class} cards{}:",
            set.as_ref().map(|s| format!(" of {s}")).unwrap_or_default()
        )?;
        for def in lib.db.cards.iter().filter(|d| counted(d)) {
            let v = vof(def);
            let shown = match class.as_str() {
                "verified" | "declared" => v.class() == class,
                "h2h-gaps" => def.coverage.is_exact() && gap(def).is_some(),
                _ => def.coverage.class() == class,
            };
            if set.as_ref().is_some_and(|s| &def.set != s) || !shown {
                continue;
            }
            let why = match v {
                Verdict::Declared(why) if class == "declared" => match reviewed(def) {
                    Some(r) => format!("reviewed: {r} ({why})"),
                    None => why.clone(),
                },
                _ if class == "h2h-gaps" => gap(def).cloned().unwrap_or_default(),
                _ => missing(def),
            };
            writeln!(out, "  {:<24} {:<32} {}", def.reference, def.name, why)?;
        }
    }
    Ok(())
}

fn show(lib: &Library, cards_dir: &Path, out: &mut impl Write, card: &str) -> Result<()> {
    let gaps = h2h_gaps(cards_dir)?;
    let found: Vec<&CardDef> = match lib.db.by_ref(card) {
        Some(i) => vec![lib.db.card(i)],
        None => lib
            .db
            .cards
            .iter()
            .filter(|d| {
                crate::cards::pool::normalize_name(&d.name)
                    == crate::cards::pool::normalize_name(card)
            })
            .collect(),
    };
    if found.is_empty() {
        let known = lib
            .db
            .cards
            .iter()
            .flat_map(|d| [d.name.as_str(), d.reference.as_str()]);
        return Err(crate::job::error::usage(format!(
            "no card with reference or name '{card}' in {}{}",
            lib.pool.source.display(),
            crate::suggest::did_you_mean(card, known)
        )));
    }
    for def in found {
        writeln!(out, "{} ({})", def.name, def.reference)?;
        writeln!(
            out,
            "  {} {} {}, set {}, subtypes: {}",
            def.faction.code(),
            def.rarity.name(),
            def.kind.name(),
            def.set,
            lib.db.subtype_names(def.subtypes).join(", ")
        )?;
        match def.kind {
            CardKind::Hero => writeln!(
                out,
                "  reserve limit {}, landmark limit {}",
                def.reserve_limit, def.landmark_limit
            )?,
            _ => writeln!(
                out,
                "  hand cost {}, reserve cost {}, statistics {}",
                def.hand_cost, def.reserve_cost, def.stats
            )?,
        }
        writeln!(
            out,
            "  coverage: {}{}",
            def.coverage.class(),
            match &def.coverage {
                Coverage::Partial(m) => format!(" (missing: {m})"),
                Coverage::NoText => " (no ability text)".into(),
                _ => String::new(),
            }
        )?;
        if def.coverage.is_exact() {
            match listed(lib, &gaps, def) {
                Some(why) => writeln!(out, "  head to head: not exact ({why})")?,
                None => writeln!(out, "  head to head: exact")?,
            }
        }
        for l in &def.lines {
            writeln!(out, "  | {l}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}
