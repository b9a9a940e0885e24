//! The sentences of an ability's body and how they join: choices, die rolls, "if" and
//! "otherwise", "you may" and costs to pay, effects joined by "and" or "then", and what
//! "per" counts.

use super::super::norm::{NStep, filter_str, op};
use super::super::reduce::cmp_str;
use super::{Patterns, Reader, num_word, upper_first};
use crate::cards::effect::{Cmp, Whose, fkind};

/// Conditions that count objects or boosts.
static CONDITIONS: Patterns<String> = Patterns::new(&[
    (
        r"^I have (\d+|one|two|three|four|five) or more boosts$",
        |_, m| {
            Ok(Some(cmp_str(
                "MyBoosts",
                Cmp::Ge,
                num_word(&m[1]).unwrap_or(0),
            )))
        },
    ),
    (
        r"^you control (two|three|four|five|\d+) or more (.+)$",
        |r, m| {
            let mut f = r.noun(&m[2], Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            Ok(Some(cmp_str(
                &format!("count({})", filter_str(&f, r.ctx)),
                Cmp::Ge,
                num_word(&m[1]).unwrap_or(0),
            )))
        },
    ),
    (r"^you control (.+)$", |r, m| {
        let f = r.noun(&m[1], Whose::Yours)?;
        let mut ff = f.filter;
        ff.whose = Whose::Yours;
        Ok(Some(cmp_str(
            &format!("count({})", filter_str(&ff, r.ctx)),
            Cmp::Ge,
            f.min.max(1) as i16,
        )))
    }),
]);

impl Reader<'_> {
    /// The body of an ability: its sentences, in order.
    pub fn body(&self, sents: &[String]) -> Result<Vec<NStep>, String> {
        let mut out: Vec<NStep> = Vec::new();
        let mut i = 0;
        while i < sents.len() {
            if let Some((steps, used)) = self.pair(&sents[i..])? {
                out.extend(steps);
                i += used;
                continue;
            }
            if let Some((steps, used)) =
                crate::cards::textread::forms::sentences(self, &sents[i..])?
            {
                out.extend(steps);
                i += used;
                continue;
            }
            if let Some((steps, used)) = self.reveal_sentences(&sents[i..]) {
                out.extend(steps);
                i += used;
                continue;
            }
            let s = sents[i].trim().trim_end_matches('.').trim();
            // Choose one: • A. • B.
            if s == "Choose one:" || s == "Choose two:" {
                let two = s == "Choose two:";
                let mut modes = Vec::new();
                i += 1;
                while i < sents.len() && sents[i].starts_with('•') {
                    let m = sents[i].trim_start_matches('•').trim().to_string();
                    modes.push(self.body(&[m])?);
                    i += 1;
                }
                if modes.len() < 2 {
                    return Err("a choice with fewer than two modes".into());
                }
                if two {
                    // Two different modes, in the printed order.
                    let mut pairs = Vec::new();
                    for a in 0..modes.len() {
                        for b in a + 1..modes.len() {
                            let mut m = modes[a].clone();
                            m.extend(modes[b].iter().cloned());
                            pairs.push(m);
                        }
                    }
                    modes = pairs;
                }
                out.push(NStep::Choose(modes));
                continue;
            }
            rx!(TARGET_ROLL, r"^Target (.+?), then roll a die$");
            let mut s = s;
            if let Some(c) = TARGET_ROLL.captures(s) {
                let (o, _) = self.obj(&format!("target {}", &c[1]))?;
                out.push(op("select", &[&o]));
                s = "Roll a die";
            }
            if s == "Roll a die" {
                let mut branches = Vec::new();
                i += 1;
                let mut on_a_list = false;
                while i < sents.len() {
                    let t = sents[i].trim().trim_end_matches('.');
                    if t == "On a:" {
                        on_a_list = true;
                        i += 1;
                        continue;
                    }
                    rx!(ON_A, r"^(?:On a |• )(\d)(\+|-(\d))?, (.+)$");
                    let Some(c) = ON_A.captures(t) else { break };
                    if t.starts_with('•') && !on_a_list {
                        break;
                    }
                    let lo: u8 = c[1].parse().unwrap_or(0);
                    let hi: u8 = match (c.get(2).map(|m| m.as_str()), c.get(3)) {
                        (Some("+"), _) => 6,
                        (_, Some(h)) => h.as_str().parse().unwrap_or(0),
                        _ => lo,
                    };
                    branches.push((lo, hi, self.body(&[c[4].to_string()])?));
                    i += 1;
                }
                out.push(NStep::Roll(branches));
                continue;
            }
            if let Some(r) = s.strip_prefix("If you do, ") {
                // After "exhaust a card ...", done only when one could be: the same block.
                if let Some(NStep::If(c, t, e)) = out.last_mut()
                    && e.is_empty()
                    && c.starts_with("count(")
                    && matches!(t.last(), Some(NStep::Op(o)) if o.starts_with("exhaust(target"))
                {
                    t.extend(self.clause(r)?);
                    i += 1;
                    continue;
                }
                out.push(NStep::If("Did".into(), self.clause(r)?, Vec::new()));
                i += 1;
                continue;
            }
            if let Some(r) = s.strip_prefix("Otherwise, ") {
                let els = self.clause(r)?;
                match out.last_mut() {
                    Some(NStep::If(_, _, e)) if e.is_empty() => *e = els,
                    _ => return Err(format!("'Otherwise' without an if: '{s}'")),
                }
                i += 1;
                continue;
            }
            rx!(IF, r"^If (.+?), (.+)$");
            if let Some(c) = IF.captures(s)
                && let Ok(cond) = self.cond(&c[1])
            {
                out.push(NStep::If(cond, self.clause(&c[2])?, Vec::new()));
                i += 1;
                continue;
            }
            // "X if C" and "X if C or if D": X only when a condition holds.
            rx!(POST_IF, r"^(.+?) if (.+?)(?: or if (.+))?$");
            if let Some(c) = POST_IF.captures(s)
                && !s.starts_with("If ")
                && let Ok(c1) = self.cond(&c[2])
                && let Ok(body) = self.clause(&c[1])
            {
                let cond = match c.get(3) {
                    Some(d) => format!("({c1} or {})", self.cond(d.as_str())?),
                    None => c1,
                };
                out.push(NStep::If(cond, body, Vec::new()));
                i += 1;
                continue;
            }
            // "Unless C, X": X only when C does not hold.
            rx!(UNLESS, r"^Unless (.+?), (.+)$");
            if let Some(c) = UNLESS.captures(s)
                && let Ok(cond) = self.cond(&c[1])
            {
                let body = self.clause(&c[2])?;
                out.push(NStep::If(format!("not({cond})"), body, Vec::new()));
                i += 1;
                continue;
            }
            out.extend(self.clause(s)?);
            i += 1;
        }
        Ok(out)
    }

    /// A condition of "If ..., ...".
    pub(in crate::cards::textread) fn cond(&self, c: &str) -> Result<String, String> {
        Ok(match c {
            "you are the first player" => "FirstPlayer".into(),
            "I'm [[Boosted]]" | "I am [[Boosted]]" => "MeBoosted".into(),
            "you do" | "you did" => "Did".into(),
            "my Expedition is behind" | "my Expedition is behind the opposing one" => {
                "Behind".into()
            }
            "I'm in contact" | "my Expedition is in contact" => "InContact".into(),
            "it's your turn" => "YourTurn".into(),
            "I'm [In Contact]" => "InContact".into(),
            "I'm in an Ascended Expedition" => "MyExpAscends".into(),
            _ => match super::conds::MORE_CONDITIONS
                .read(self, c)
                .or_else(|| CONDITIONS.read(self, c))
            {
                Some(cond) => cond?,
                None => match crate::cards::textread::forms::cond(self, c) {
                    Some(r) => return r,
                    None => return Err(format!("a condition '{c}'")),
                },
            },
        })
    }

    /// One sentence (or clause) of effect.
    pub(in crate::cards::textread) fn clause(&self, s: &str) -> Result<Vec<NStep>, String> {
        let s = s.trim().trim_end_matches('.').trim();
        if let Some(r) = self.cost_clause(s) {
            return r;
        }
        // "You may X" / "You may pay {N} to X" / "You may exhaust me to X".
        rx!(
            MAY_PAY_TO,
            r"^You may (pay \{(\d+)\}|exhaust me|sacrifice a Character|spend (one|two|three|\d+) of my [A-Z][a-z]+ counters?)(?: and (spend (one|two|three|\d+) of my [A-Z][a-z]+ counters?|exhaust me))?(?: to (?P<body>.+)|)$"
        );
        if let Some(c) = MAY_PAY_TO.captures(s) {
            let mut cost = crate::cards::effect::Cost::default();
            for part in [c.get(1), c.get(4)].into_iter().flatten() {
                let p = part.as_str();
                if let Some(r) = p.strip_prefix("pay {") {
                    cost.mana = r.trim_end_matches('}').parse().unwrap_or(0);
                } else if p == "exhaust me" {
                    cost.exhaust = true;
                } else if p == "sacrifice a Character" {
                    cost.sacrifice = fkind::CHARACTER;
                } else if let Some(r) = p.strip_prefix("spend ") {
                    cost.counters = num_word(r.split(' ').next().unwrap_or("")).unwrap_or(0) as u8;
                }
            }
            let body = match c.name("body") {
                Some(m) => self.clause(m.as_str())?,
                None => Vec::new(),
            };
            return Ok(vec![NStep::Pay(
                super::super::reduce::cost_str(&cost),
                body,
            )]);
        }
        if let Some(r) = s
            .strip_prefix("You may ")
            .or_else(|| s.strip_prefix("you may "))
        {
            let r = upper_first(r);
            let inner = self.clause(&r)?;
            // [Rush] is optional by itself.
            if inner.len() == 1 && inner[0] == op("rush", &[]) {
                return Ok(inner);
            }
            return Ok(vec![NStep::May(inner)]);
        }
        rx!(HAVE, r"^(?:[Hh]ave) (.+?) (gain|lose|switch) (.+)$");
        if let Some(c) = HAVE.captures(s) {
            let subj = if &c[1] == "me" {
                "I".to_string()
            } else {
                c[1].to_string()
            };
            let verb = match (&c[1], &c[2]) {
                ("me", v) => v.to_string(),
                (_, "switch") => "switches".to_string(),
                (_, v) => format!("{v}s"),
            };
            return self.clause(&format!("{subj} {verb} {}", &c[3]));
        }
        // "X and Y" of two effects.
        if let Ok(v) = self.effect(s) {
            return Ok(v);
        }
        for sep in [", then ", " and then ", " and ", ", "] {
            if let Some((a, b)) = s.split_once(sep) {
                // "X gains 1 boost and [[Anchored]]": the same subject.
                if sep == " and "
                    && (b.starts_with("[[") || b.starts_with(|c: char| c.is_ascii_digit()))
                    && let (Ok(mut x), Ok(y)) =
                        (self.effect(a), self.clause(&format!("it gains {b}")))
                {
                    x.extend(y);
                    return Ok(x);
                }
                // "X loses [[Fleeting]] and gain 1 boost": the same object gains.
                if sep == " and "
                    && let Some(v) = ["gain ", "gains ", "lose ", "loses "]
                        .iter()
                        .find(|v| b.starts_with(**v))
                    && let (Ok(mut x), Ok(y)) = (
                        self.effect(a),
                        self.clause(&if a.starts_with("I ") {
                            format!("I {} {}", v.trim_end().trim_end_matches('s'), &b[v.len()..])
                        } else {
                            format!(
                                "It {}s {}",
                                v.trim_end().trim_end_matches('s'),
                                &b[v.len()..]
                            )
                        }),
                    )
                {
                    x.extend(y);
                    return Ok(x);
                }
                if let (Ok(mut x), Ok(y)) = (self.effect(a), self.clause(&upper_first(b))) {
                    x.extend(y);
                    return Ok(x);
                }
            }
        }
        // "X to Y": X, then Y.
        if let Some((a, b)) = s.split_once(" to ")
            && let (Ok(mut x), Ok(y)) = (self.effect(a), self.clause(&upper_first(b)))
        {
            x.extend(y);
            return Ok(x);
        }
        self.effect(s)
    }

    /// "per X": what is counted.
    pub(super) fn count(&self, s: &str) -> Result<String, String> {
        Ok(match s {
            "card in your Reserve" => "ReserveSize".into(),
            "card in your hand" => "HandSize".into(),
            "Mana Orb in your Mana zone" | "Mana Orb you have" => "ManaOrbs".into(),
            _ => {
                let f = self.noun(&format!("a {s}"), Whose::Yours)?.filter;
                if f.whose == Whose::Any && f.place == crate::cards::effect::Where::Anywhere {
                    return Err(format!("a count 'per {s}'"));
                }
                format!("count({})", filter_str(&f, self.ctx))
            }
        })
    }
}
