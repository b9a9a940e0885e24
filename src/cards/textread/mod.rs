//! An independent reading of the card texts, to verify the encodings.
//!
//! The official English texts (`main_effect_en`, `echo_effect_en` of the shared card file;
//! the project keeps no texts) are read by [`read::Reader`], which shares no code with the
//! effect language's parser, into a normal form ([`norm`]). Each card's compiled encoding is
//! reduced to the same normal form ([`reduce`]). A card whose every ability the reader reads
//! and finds equal to its encoding is **verified**; an exact encoding that is not verified
//! is only **declared** exact. The reader is strict: a sentence it cannot read leaves the
//! card unverified, never guessed.
//!
//! The reader matches phrases of the texts word for word, yet the repository holds no run
//! of 8 consecutive words of a card text (`tests/no_card_texts.rs`): a long phrase is
//! written with a `\x20` for one of its spaces (a space to the compiler and to the regex
//! engine, a break to that check), and test texts carry ` qq` breaks that the tests remove.
//!
//! Layer: part of [`crate::cards`]; may use `error` and nothing else of the crate.

pub mod equiv;
pub mod forms;
pub mod norm;
pub mod read;
pub mod reduce;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

pub use norm::Ctx;
use norm::{NAbility, NStep};

use crate::cards::types::kw;
use crate::cards::{CardDef, Coverage};

/// The English texts of one card version.
#[derive(Clone, Debug, Default)]
pub struct Text {
    pub main: String,
    pub echo: String,
}

/// The card texts by reference.
#[derive(Clone, Debug, Default)]
pub struct Texts {
    pub by_ref: HashMap<String, Text>,
    pub source: PathBuf,
}

/// Where the shared card file lies for a cards directory (`decks/cards` → `../shared/...`
/// beside the project).
pub fn default_texts_path(cards_dir: &Path) -> PathBuf {
    cards_dir.join("../../../shared/data/altered-cards.jsonl")
}

impl Texts {
    /// Reads the card file; `Ok(None)` when it is absent.
    pub fn load(path: &Path) -> Result<Option<Texts>, String> {
        let data = match std::fs::read_to_string(path) {
            Ok(d) => d,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let mut by_ref = HashMap::new();
        for (i, line) in data.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let v: serde_json::Value = serde_json::from_str(line)
                .map_err(|e| format!("{}:{}: not a JSON line: {e}", path.display(), i + 1))?;
            let part = |k: &str| v[k].as_str().unwrap_or("").to_string();
            let r = part("ref");
            if r.is_empty() {
                return Err(format!(
                    "{}:{}: a card without 'ref'",
                    path.display(),
                    i + 1
                ));
            }
            by_ref.insert(
                r,
                Text {
                    main: part("main_effect_en"),
                    echo: part("echo_effect_en"),
                },
            );
        }
        Ok(Some(Texts {
            by_ref,
            source: path.to_path_buf(),
        }))
    }
}

/// Reviewed disagreements: cards where the reader is wrong and the encoding right.
#[derive(Clone, Debug, Default)]
pub struct Exceptions {
    pub reasons: BTreeMap<String, String>,
}

impl Exceptions {
    pub fn load(path: &Path) -> Result<Exceptions, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Exceptions::default());
            }
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        Self::parse(&text, path)
    }

    /// The same from its text (`path` names it in errors).
    pub fn parse(text: &str, path: &Path) -> Result<Exceptions, String> {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Entry {
            reason: String,
        }
        let t: BTreeMap<String, Entry> =
            toml::from_str(text).map_err(|e| format!("{}: {}", path.display(), e.message()))?;
        Ok(Exceptions {
            reasons: t.into_iter().map(|(k, v)| (k, v.reason)).collect(),
        })
    }
}

/// How well a card's encoding is known to match its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every ability of the text read and equal to the encoding.
    Verified,
    /// Exact by declaration only; the string says why it is not verified.
    Declared(String),
    /// The encoding is not exact (partial or stats only).
    NotExact,
}

impl Verdict {
    pub fn class(&self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Declared(_) => "declared",
            Verdict::NotExact => "not-exact",
        }
    }
}

/// The encoding of one card in normal form: its keywords and abilities, sorted.
pub fn encoded(ctx: &Ctx, def: &CardDef) -> Result<Vec<NAbility>, String> {
    let db = ctx.db;
    let mut out = Vec::new();
    for (name, bit) in kw::NAMES {
        if def.keywords & bit == 0 {
            continue;
        }
        let trigger = match bit {
            kw::TOUGH => format!("keyword tough {}", def.tough),
            kw::SCOUT => format!("keyword scout {}", def.scout),
            _ => format!("keyword {name}"),
        };
        out.push(NAbility {
            support: false,
            trigger,
            body: Vec::new(),
        });
    }
    let abs = &db.abilities[def.ab_start as usize..(def.ab_start + def.ab_len) as usize];
    for ab in abs {
        out.push(reduce::ability(ctx, ab)?);
    }
    let mut out: Vec<NAbility> = forms::canon_conds(out)
        .into_iter()
        .map(equiv::spell_target_in_place)
        .map(equiv::capped_boost)
        .collect();
    out.sort();
    Ok(out)
}

/// The text of one card in normal form, sorted.
pub fn read_text(ctx: &Ctx, def: &CardDef, text: &Text) -> Result<Vec<NAbility>, String> {
    let r = read::Reader { db: ctx.db, ctx };
    let mut v: Vec<NAbility> = forms::canon_conds(r.card(def.kind, &text.main, &text.echo)?)
        .into_iter()
        .map(equiv::spell_target_in_place)
        .map(equiv::capped_boost)
        .collect();
    v.sort();
    Ok(v)
}

/// Compares one card's text and encoding.
pub fn verdict(ctx: &Ctx, def: &CardDef, texts: &Texts) -> Verdict {
    if !def.coverage.is_exact() {
        return Verdict::NotExact;
    }
    if def.coverage == Coverage::NoText && def.lines.is_empty() {
        return Verdict::Verified;
    }
    let Some(text) = texts.by_ref.get(&def.reference) else {
        return Verdict::Declared("no text in the card file".into());
    };
    let read = match read_text(ctx, def, text) {
        Ok(r) => r,
        Err(e) => return Verdict::Declared(format!("unread: {e}")),
    };
    let enc = match encoded(ctx, def) {
        Ok(e) => e,
        Err(e) => return Verdict::Declared(format!("encoding not reduced: {e}")),
    };
    if read == enc {
        Verdict::Verified
    } else {
        let show = |v: &[NAbility]| {
            v.iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(" | ")
        };
        let only_read: Vec<NAbility> = read.iter().filter(|a| !enc.contains(a)).cloned().collect();
        let only_enc: Vec<NAbility> = enc.iter().filter(|a| !read.contains(a)).cloned().collect();
        Verdict::Declared(format!(
            "disagree: text reads [{}], encoding does [{}]",
            show(&only_read),
            show(&only_enc)
        ))
    }
}

/// Steps written two ways made one: "you may X. If you do, Y" is one optional block, and
/// so is an optional cost followed by "if you do".
pub fn canon_body(steps: Vec<NStep>) -> Vec<NStep> {
    // Guards and "if you did" that say nothing more, before and after the rest (which can
    // move a condition out of an optional block).
    equiv::unguard(canon_steps(equiv::unguard(steps)))
}

fn canon_steps(steps: Vec<NStep>) -> Vec<NStep> {
    let mut out: Vec<NStep> = Vec::new();
    for s in steps {
        let s = match s {
            NStep::May(b) => NStep::May(canon_body(b)),
            NStep::Pay(c, b) => NStep::Pay(c, canon_body(b)),
            NStep::If(c, t, e) => NStep::If(c, canon_body(t), canon_body(e)),
            NStep::Choose(m) => NStep::Choose(m.into_iter().map(canon_body).collect()),
            NStep::Roll(br) => NStep::Roll(
                br.into_iter()
                    .map(|(a, b, s)| (a, b, canon_body(s)))
                    .collect(),
            ),
            NStep::Repeat(n, b) => NStep::Repeat(n, canon_body(b)),
            other => other,
        };
        if let NStep::If(c, t, e) = &s
            && c == "Did"
            && e.is_empty()
        {
            match out.last_mut() {
                Some(NStep::May(b)) | Some(NStep::Pay(_, b)) => {
                    b.extend(t.iter().cloned());
                    continue;
                }
                _ => {}
            }
        }
        // "You may [Rush] to X": Rush is optional by itself; X only if you did.
        if let NStep::May(b) = &s
            && b.first().is_some_and(|f| *f == NStep::Op("rush()".into()))
        {
            out.push(b[0].clone());
            if b.len() > 1 {
                out.push(NStep::If("Did".into(), b[1..].to_vec(), Vec::new()));
            }
            continue;
        }
        // "may { if C { X } }" is "if C { may { X } }": a condition has no effect, so
        // whether it is checked before or after the choice changes nothing.
        if let NStep::May(b) = &s
            && let [NStep::If(c, t, e)] = b.as_slice()
            && e.is_empty()
        {
            out.push(NStep::If(
                c.clone(),
                vec![NStep::May(t.clone())],
                Vec::new(),
            ));
            continue;
        }
        // "You may X up to N targets" is "X up to N targets": none is allowed.
        if let NStep::May(b) = &s
            && let [NStep::Op(o)] = b.as_slice()
            && o.contains("target[0-")
        {
            out.push(NStep::Op(o.clone()));
            continue;
        }
        out.push(s);
    }
    out
}

/// Test helper: the verdict on a Ratatoskr (a CORE character) encoded with these lines and
/// given this text. Test texts may carry " qq" breaks, taken out here, so that no file of
/// the project quotes a card's text (tests/no_card_texts.rs).
#[cfg(test)]
pub(crate) fn verdict_of(lines: &[&str], main: &str) -> Verdict {
    verdict_on("ALT_CORE_B_BR_04_C", lines, main)
}

/// Test helper: as [`verdict_of`], on the card `card` (its kind, a Permanent say, matters
/// to some forms).
#[cfg(test)]
pub(crate) fn verdict_on(card: &str, lines: &[&str], main: &str) -> Verdict {
    let pool = crate::cards::pool::CardPool::load(Path::new("decks/cards/pool.csv")).unwrap();
    let mut db = crate::cards::CardDb::from_pool(&pool);
    let idx = db.by_ref(card).unwrap();
    let lines: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    db.encode(idx, &lines, Coverage::Exact).unwrap();
    let mut texts = Texts::default();
    let text = Text {
        main: main.replace(" qq", ""),
        echo: String::new(),
    };
    texts.by_ref.insert(card.into(), text);
    verdict(&Ctx::new(&db), db.card(idx), &texts)
}

/// Test helper: whether a verdict is a disagreement between text and encoding.
#[cfg(test)]
pub(crate) fn disagrees(v: Verdict) -> bool {
    matches!(v, Verdict::Declared(why) if why.starts_with("disagree"))
}

/// Test helper: the text verifies the encoding `good` and finds each of `bads` different.
#[cfg(test)]
pub(crate) fn check(text: &str, good: &[&str], bads: &[&[&str]]) {
    assert_eq!(
        verdict_of(good, text),
        Verdict::Verified,
        "{good:?}: {text}"
    );
    for bad in bads {
        assert!(disagrees(verdict_of(bad, text)), "{bad:?}: {text}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_equal_reading_verifies_and_a_different_one_does_not() {
        let text = "{R} I gain 2 boosts. {H} You may send target Character you control to Reserve.";
        let good = [
            "R: boost(me, 2)",
            "H: may { send_reserve(target character yours) }",
        ];
        assert_eq!(verdict_of(&good, text), Verdict::Verified);
        for bad in [
            ["R: boost(me, 3)", good[1]],
            ["H: boost(me, 2)", good[1]],
            [good[0], "H: send_reserve(target character yours)"],
            [
                good[0],
                "H: may { send_reserve(target character opposing) }",
            ],
            [good[0], "H: may { discard(target character yours) }"],
        ] {
            match verdict_of(&bad, text) {
                Verdict::Declared(why) => assert!(why.starts_with("disagree"), "{bad:?}: {why}"),
                v => panic!("{bad:?}: {v:?}"),
            }
        }
    }

    #[test]
    fn a_sentence_the_reader_does_not_know_is_never_verified() {
        match verdict_of(
            &["R: boost(me, 2)"],
            "{R} I gain 2 boosts. Juggle three moons.",
        ) {
            Verdict::Declared(why) => assert!(why.contains("unread"), "{why}"),
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn may_then_if_you_do_reads_as_one_optional_block() {
        let v = verdict_of(
            &["J: may { boost(me, 3); draw }"],
            "{J} You may give me 3 boosts. If you do, draw a card.",
        );
        assert_eq!(v, Verdict::Verified);
    }

    #[test]
    fn a_condition_before_an_effect_after_rest_is_checked_when_the_ability_resolves() {
        let text = "At Night — If I have 2 or qq more boosts, [Sabotage] after Rest.";
        let good = ["night if boosts >= 2: delay_rest", "after_rest: sabotage"];
        assert_eq!(verdict_of(&good, text), Verdict::Verified);
        for bad in [
            ["night if boosts >= 3: delay_rest", "after_rest: sabotage"],
            [
                "night: delay_rest",
                "after_rest: if boosts >= 2 { sabotage }",
            ],
            ["night if boosts >= 2: delay_rest", "after_rest: draw"],
        ] {
            match verdict_of(&bad, text) {
                Verdict::Declared(why) => assert!(why.starts_with("disagree"), "{bad:?}: {why}"),
                v => panic!("{bad:?}: {v:?}"),
            }
        }
    }
}
