//! The reader of the official English card texts: it splits a text into abilities and
//! sentences and turns each sentence it knows into the normal form. It shares no code with
//! the effect language's parser; what it cannot read it says so (the card is then not
//! verified).
//!
//! The sentences are read by family, each in its own file: the text's marks, sentences
//! and abilities ([`clean`]); triggers and costs (`trigger`); static abilities (`statics`);
//! the sentences of a body and their conditions (`body`); single effects (`effect`); and
//! the objects they name (`noun`). A family's sentence patterns are a table
//! (`Patterns`): tried in order, the first that reads a sentence wins.
//!
//! Layer: part of [`crate::cards`]; may use `error` and nothing else of the crate.

use std::sync::OnceLock;

use regex::{Captures, Regex};

use super::norm::{Ctx, NAbility, NStep, op};
use crate::cards::CardDb;
use crate::cards::effect::Filter;
use crate::cards::types::CardKind;

fn re(p: &str) -> Regex {
    Regex::new(p).expect("a valid pattern")
}

/// A pattern compiled on first use.
macro_rules! rx {
    ($vis:vis $name:ident, $p:expr) => {
        $vis static $name: std::sync::LazyLock<regex::Regex> =
            std::sync::LazyLock::new(|| regex::Regex::new($p).expect("a valid pattern"));
    };
}

rx!(
    STANDALONE,
    r"@reduce_cost_by|^Play me for \{\d+\} less if|^(?:If .+?, y|Y)our Reserve limit is increased by one|^All regions are \{[VMO]\} and lose their other terrains|^(?:If [^,]+, )?I cost \{\d+\} less(?: if .+| for each of your Ascended Expeditions)?\.?$|^Characters you control are \[Tough \d+\]\.?$|^(?:If [^,]+, )?\[\[Boosted\]\] tokens you control are \[Defender\]\.?$|^You may keep one more card in\x20Reserve during Night if it's exhausted\.?$|^You may play exhausted Characters from\x20your Reserve in my Expedition\.?$|^You may play me for \{\d+\} less\.?$"
);

mod alibise;
mod body;
mod conds;
mod costs;
mod cydust;
mod duster;
mod effect;
mod more;
mod ninety;
mod noun;
mod pairs;
mod skybound;
mod statics;
mod text;
mod trigger;
mod xforms;

pub(in crate::cards::textread) use body::bullet as bullet_of;
pub use text::clean;
use text::{KEYWORD, QUICK, WHEN_SPLIT, sentences, starts_ability};

/// What a pattern reads a sentence it matched as: `Ok(None)` when the sentence is not
/// this pattern's after all (the next pattern is tried), `Err` when it is but cannot be
/// read.
type Reading<T> = Result<Option<T>, String>;

/// How a pattern reads its match.
type Rule<T> = fn(&Reader<'_>, &Captures<'_>) -> Reading<T>;

/// A family of sentence patterns, tried in order; each pattern is anchored at both ends,
/// so a match is the whole sentence.
struct Patterns<T: 'static> {
    rules: &'static [(&'static str, Rule<T>)],
    compiled: OnceLock<Vec<Regex>>,
}

impl<T> Patterns<T> {
    const fn new(rules: &'static [(&'static str, Rule<T>)]) -> Patterns<T> {
        Patterns {
            rules,
            compiled: OnceLock::new(),
        }
    }

    /// The reading of the first pattern that matches `s` and takes it; `None` when none
    /// does.
    fn read(&self, r: &Reader<'_>, s: &str) -> Option<Result<T, String>> {
        let compiled = self
            .compiled
            .get_or_init(|| self.rules.iter().map(|(p, _)| re(p)).collect());
        for ((_, rule), rx) in self.rules.iter().zip(compiled) {
            if let Some(c) = rx.captures(s) {
                match rule(r, &c) {
                    Ok(None) => continue,
                    Ok(Some(t)) => return Some(Ok(t)),
                    Err(e) => return Some(Err(e)),
                }
            }
        }
        None
    }
}

/// Reads every ability of a card; `Err` gives the first sentence it could not read.
pub struct Reader<'a> {
    pub db: &'a CardDb,
    pub ctx: &'a Ctx<'a>,
}

fn num_word(w: &str) -> Option<i16> {
    Some(match w.to_ascii_lowercase().as_str() {
        "a" | "an" | "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        "ten" => 10,
        d => d.trim_matches(|c| c == '{' || c == '}').parse().ok()?,
    })
}

fn ordinal(w: &str) -> Option<u8> {
    Some(match w {
        "first" => 1,
        "second" => 2,
        "third" => 3,
        "fourth" => 4,
        "fifth" => 5,
        "sixth" => 6,
        _ => return None,
    })
}

impl<'a> Reader<'a> {
    /// Reads a card's main and support texts.
    pub fn card(&self, kind: CardKind, main: &str, echo: &str) -> Result<Vec<NAbility>, String> {
        let mut out = Vec::new();
        for (text, support) in [(main, false), (echo, true)] {
            let text = clean(text);
            if text.is_empty() {
                continue;
            }
            let mut groups: Vec<Vec<String>> = Vec::new();
            let mut after_keyword = true;
            let mut after_alone = false;
            let (sents, first_day) = more::joined_sentences(sentences(&text));
            for s in sents {
                // A static sentence written among a card's effects is an ability of its
                // own ("You may discard ... to reduce my cost by {2}." in a Spell).
                let alone = STANDALONE.is_match(&s)
                    || cydust::STANDALONE_CD.is_match(&s)
                    || alibise::STANDALONE.is_match(&s)
                    || more::STANDALONE_MO.is_match(&s);
                let is_kw = s
                    .trim_end_matches('.')
                    .split(", ")
                    .all(|k| KEYWORD.is_match(k));
                if groups.is_empty() || starts_ability(&s) || after_keyword || alone || after_alone
                {
                    groups.push(vec![s]);
                } else {
                    groups.last_mut().expect("non-empty").push(s);
                }
                after_keyword = is_kw;
                after_alone = alone;
            }
            let mut read = Vec::new();
            for g in groups {
                read.extend(self.ability(kind, &g, support)?);
            }
            if first_day {
                read = more::idle_first_day(read)?;
            }
            out.extend(read);
        }
        Ok(out)
    }

    fn ability(
        &self,
        kind: CardKind,
        g: &[String],
        support: bool,
    ) -> Result<Vec<NAbility>, String> {
        let first = g[0].trim_end_matches('.');
        // Keywords.
        if first.split(", ").all(|k| KEYWORD.is_match(k)) && g.len() == 1 {
            let mut out = Vec::new();
            for k in first.split(", ") {
                let c = KEYWORD.captures(k).expect("matched");
                let t = if let Some(n) = c.get(2) {
                    format!("keyword tough {}", n.as_str())
                } else if let Some(n) = c.get(3).or(c.get(4)) {
                    format!("keyword scout {}", n.as_str())
                } else {
                    format!("keyword {}", c[1].to_ascii_lowercase())
                };
                out.push(NAbility {
                    support: false,
                    trigger: t,
                    body: Vec::new(),
                });
            }
            return Ok(out);
        }
        if g.len() == 1
            && (STANDALONE.is_match(&g[0])
                || cydust::STANDALONE_CD.is_match(&g[0])
                || alibise::STANDALONE.is_match(&g[0])
                || more::STANDALONE_MO.is_match(&g[0]))
        {
            return self.static_ability(g, support);
        }
        let mut support = support;
        let mut time_cond: Option<String> = None;
        let mut s0 = g[0].clone();
        if let Some(r) = s0.strip_prefix("{I} ") {
            s0 = r.to_string();
            support = true;
        }
        let (trigger, rest0): (String, String) = if let Some(r) = s0.strip_prefix("{J} ") {
            ("J".into(), r.into())
        } else if let Some(r) = s0.strip_prefix("{H} ") {
            ("H".into(), r.into())
        } else if let Some(r) = s0.strip_prefix("{R} ") {
            ("R".into(), r.into())
        } else if let Some(c) = QUICK.captures(&s0) {
            let (t, sup) = self.quick(&c[1])?;
            support |= sup;
            (t, c[2].to_string())
        } else if let Some(c) = WHEN_SPLIT.captures(&s0)
            && &c[1] == "When"
            && let Some(j) = self.n9_when(&c[2])
        {
            let (t, cond) = j?;
            time_cond = Some(cond);
            (t, c[3].to_string())
        } else if let Some(c) = WHEN_SPLIT.captures(&s0) {
            // "At Dusk, if C — X": X at Dusk, only when C holds.
            rx!(TIME_IF, r"^(Noon|Dusk|Night), if (.+)$");
            match TIME_IF.captures(&c[2]).filter(|_| &c[1] == "At") {
                Some(t) => {
                    time_cond = Some(self.cond(&t[2])?);
                    (t[1].to_ascii_lowercase(), c[3].to_string())
                }
                None => (self.when(&c[1], &c[2])?, c[3].to_string()),
            }
        } else if kind == CardKind::Spell {
            ("spell".into(), s0.clone())
        } else {
            return self.static_ability(g, support);
        };
        // The Ascended Expeditions' move followed by a test that nobody faces "it", then X:
        // the event counts only an Expedition nobody faces.
        let (trigger, rest0) = match rest0.strip_prefix("If there is no Character facing it, ") {
            Some(x) if trigger == "when AscendedMoves { unfaced: false }" => (
                "when AscendedMoves { unfaced: true }".to_string(),
                upper_first(x),
            ),
            _ => (trigger, rest0),
        };
        let mut sents = vec![rest0];
        sents.extend(g[1..].iter().cloned());
        if let Some(v) = self.mo_surcharge(&trigger, &sents, support) {
            return v;
        }
        // Activation only while you are the first player.
        let mut only_first = false;
        if sents.last().is_some_and(|l| {
            matches!(
                l.trim_end_matches('.'),
                "@only_activate if you are the first player"
                    | "@only_activate if you are first player"
            )
        }) {
            sents.pop();
            only_first = true;
        }
        // "When you play X with Base Cost {M} or more — Y. If the Base Cost was {N} or
        // more, also Z": two abilities, Y for the costs M to N-1, Y and Z (inside Y's optional
        // block, "also") from N on.
        if let Some(split) = base_cost_split(&trigger, &sents) {
            let (low, high, also) = split?;
            let n = sents.len() - 1;
            let body = self.body(&sents[..n])?;
            let mut more = body.clone();
            let z = self.body(&[also])?;
            match more.last_mut() {
                Some(NStep::May(b)) | Some(NStep::Pay(_, b)) => b.extend(z),
                _ => more.extend(z),
            }
            return Ok(vec![
                NAbility {
                    support,
                    trigger: low,
                    body: super::canon_body(body),
                },
                NAbility {
                    support,
                    trigger: high,
                    body: super::canon_body(more),
                },
            ]);
        }
        // "X after Rest": armed now, done after Rest.
        let mut after_rest = false;
        if sents.len() == 1
            && sents[0].trim_end_matches('.').ends_with(" after Rest")
            && !sents[0].contains("token")
        {
            sents[0] = sents[0]
                .trim_end_matches('.')
                .trim_end_matches(" after Rest")
                .to_string();
            after_rest = true;
        }
        let mut body = self.body(&sents)?;
        if let Some(c) = time_cond {
            body = vec![NStep::If(c, body, Vec::new())];
        }
        if only_first {
            body = vec![NStep::If("FirstPlayer".into(), body, Vec::new())];
        }
        // "If C, X after Rest": C is checked as the ability resolves, X waits for Rest.
        let mut delayed_if: Option<String> = None;
        if after_rest
            && let [NStep::If(c, t, e)] = body.as_slice()
            && e.is_empty()
        {
            delayed_if = Some(c.clone());
            body = t.clone();
        }
        if trigger == "night" && after_rest && delayed_if.is_none() {
            return Ok(vec![NAbility {
                support,
                trigger: "night_after_rest".into(),
                body: super::canon_body(body),
            }]);
        }
        if trigger == "when LeavesYourReserve@afternoon" {
            body = vec![NStep::If("Afternoon".into(), body, Vec::new())];
        }
        let trigger = trigger.replace("@afternoon", "");
        // An event read with a number of times ("@repeat:N"): the body that many times.
        let trigger = match trigger.split_once("@repeat:") {
            Some((t, n)) => {
                body = vec![NStep::Repeat(n.to_string(), body)];
                t.to_string()
            }
            None => trigger,
        };
        // An event read with a test of its object ("@if:C"): the body only when C holds.
        let trigger = match trigger.split_once("@if:") {
            Some((t, c)) => {
                body = vec![NStep::If(c.to_string(), body, Vec::new())];
                t.to_string()
            }
            None => trigger,
        };
        if after_rest {
            return Ok(vec![
                NAbility {
                    support,
                    trigger,
                    body: match delayed_if {
                        Some(c) => vec![NStep::If(c, vec![op("delay_rest", &[])], Vec::new())],
                        None => vec![op("delay_rest", &[])],
                    },
                },
                NAbility {
                    support: false,
                    trigger: "after_rest".into(),
                    body: super::canon_body(body),
                },
            ]);
        }
        if trigger == "when LeaveExpedition" {
            // "my Expedition" of a card leaving it: the one it left.
            body = map_ops(body, &|o| {
                o.replace(", Mine,", ", Left,")
                    .replace("forward(Mine,", "forward(Left,")
                    .replace("back(Mine,", "back(Left,")
            });
        }
        Ok(vec![NAbility {
            support,
            trigger,
            body: super::canon_body(body),
        }])
    }

    /// A filter as an event names it: of any controller, in any zone.
    fn event(&self, mut f: Filter) -> String {
        f.whose = crate::cards::effect::Whose::Any;
        f.zones = Filter::default().zones;
        super::norm::filter_str(&f, self.ctx)
    }
}

/// A play trigger on a Base Cost of {M} or more whose last sentence adds an effect from a
/// Base Cost of {N} on ("If the Base Cost was {N} or more, also Z"): the triggers for the
/// costs M to N-1 and from N on, and Z as a sentence; `None` when the ability is not of
/// that shape.
fn base_cost_split(
    trigger: &str,
    sents: &[String],
) -> Option<Result<(String, String, String), String>> {
    rx!(
        ALSO,
        r"^If the Base Cost was \{(\d+)\} or more, also (.+?)\.?$"
    );
    rx!(FROM, r"^when play\([^)]* base_cost>=(\d+)\)$");
    let c = ALSO.captures(sents.last()?.trim())?;
    if sents.len() < 2 {
        return None;
    }
    let m: u8 = FROM.captures(trigger)?[1].parse().ok()?;
    let Ok(n) = c[1].parse::<u8>() else {
        return Some(Err("a Base Cost".into()));
    };
    if n <= m {
        return Some(Err("a Base Cost bound below the trigger's".into()));
    }
    let from = format!("base_cost>={m})");
    let low = trigger.replace(&from, &format!("base_cost>={m} base_cost<={})", n - 1));
    let high = trigger.replace(&from, &format!("base_cost>={n})"));
    Some(Ok((low, high, upper_first(&c[2]))))
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Quant {
    Target,
    Each,
    /// "a Character": neither targeted nor every one.
    A,
}

#[derive(Clone, Debug)]
pub struct Np {
    pub quant: Quant,
    pub min: u8,
    pub max: u8,
    pub filter: Filter,
    /// A bound on the targets' total, as the normal form writes it (" total_cost<=5"), or
    /// empty.
    pub total: String,
}

/// Rewrites every op of a body.
fn map_ops(steps: Vec<NStep>, f: &dyn Fn(&str) -> String) -> Vec<NStep> {
    steps
        .into_iter()
        .map(|s| match s {
            NStep::Op(o) => NStep::Op(f(&o)),
            NStep::May(b) => NStep::May(map_ops(b, f)),
            NStep::Pay(c, b) => NStep::Pay(c, map_ops(b, f)),
            NStep::If(c, t, e) => NStep::If(c, map_ops(t, f), map_ops(e, f)),
            NStep::Choose(m) => NStep::Choose(m.into_iter().map(|b| map_ops(b, f)).collect()),
            NStep::Roll(br) => NStep::Roll(
                br.into_iter()
                    .map(|(a, b, s)| (a, b, map_ops(s, f)))
                    .collect(),
            ),
            NStep::Repeat(n, b) => NStep::Repeat(n, map_ops(b, f)),
        })
        .collect()
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
