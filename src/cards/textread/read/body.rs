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
    (
        r"^you have (two|three|four|five|\d+) or more cards in (?:your )?Reserve$",
        |_, m| {
            Ok(Some(cmp_str(
                "ReserveSize",
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
            if let Some((steps, used)) = self.mo_sentences(&sents[i..])? {
                out.extend(steps);
                i += used;
                continue;
            }
            if let Some((steps, used)) = self.du_sentences(&sents[i..])? {
                out.extend(steps);
                i += used;
                continue;
            }
            if let Some((steps, used)) = self.pair(&sents[i..])? {
                out.extend(steps);
                i += used;
                continue;
            }
            if let Some((steps, used)) = self.deck_sentences(&sents[i..])? {
                out.extend(steps);
                i += used;
                continue;
            }
            if let Some((steps, used)) = self.cd_sentences(&sents[i..])? {
                out.extend(steps);
                i += used;
                continue;
            }
            if let Some((steps, used)) = self.set_sentences(&sents[i..])? {
                out.extend(steps);
                i += used;
                continue;
            }
            if let Some((steps, used)) = self.n9_sentences(&sents[i..])? {
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
            // Each player chooses a Character of theirs, and "it" (each one) gains a status:
            // yours a target of yours, the opponent's chosen by the opponent.
            rx!(
                IT_GAINS,
                r"^It gains \[\[(Asleep|Anchored|Fleeting)\]\]\.?$"
            );
            if s == "Each player chooses a Character they control"
                && let Some(c) = sents.get(i + 1).and_then(|n| IT_GAINS.captures(n))
            {
                let st = c[1].to_ascii_lowercase();
                out.extend([
                    op("gain", &["target[1-1](character yours in:exp)", &st]),
                    op("opponent_select", &["character opposing in:exp"]),
                    op("gain", &["it", &st]),
                ]);
                i += 2;
                continue;
            }
            // Choose one: • A. • B.
            if s == "Choose one:" || s == "Choose two:" {
                let two = s == "Choose two:";
                let mut modes = Vec::new();
                i += 1;
                while i < sents.len() && sents[i].starts_with('•') {
                    let (m, used) = bullet(&sents[i..]);
                    modes.push(self.body(&m)?);
                    i += used;
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
            // "X, then roll a die. On a 4+, Y": the branches of that roll.
            rx!(ON_A_AFTER, r"^On a (\d)(\+|-(\d))?, (.+)$");
            if let Some(c) = ON_A_AFTER.captures(s)
                && let Some(NStep::Roll(br)) = out.last_mut()
            {
                let lo: u8 = c[1].parse().unwrap_or(0);
                let hi: u8 = match (c.get(2).map(|m| m.as_str()), c.get(3)) {
                    (Some("+"), _) => 6,
                    (_, Some(h)) => h.as_str().parse().unwrap_or(0),
                    _ => lo,
                };
                br.push((lo, hi, self.body(&[c[4].to_string()])?));
                i += 1;
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
                let then = self.clause(r)?;
                // After putting a card from your hand in Reserve, or discarding a Mana Orb:
                // done when there was one to put or discard (the encodings' guard).
                if let Some((k, guard)) = paid_from(&out) {
                    let mut block: Vec<NStep> = out.drain(k..).collect();
                    match block.as_mut_slice() {
                        [NStep::May(b)] => {
                            b.extend(then);
                            let inner = std::mem::take(b);
                            block = vec![NStep::May(vec![NStep::If(guard, inner, Vec::new())])];
                        }
                        _ => {
                            block.extend(then);
                            block = vec![NStep::If(guard, block, Vec::new())];
                        }
                    }
                    out.extend(block);
                    i += 1;
                    continue;
                }
                out.push(NStep::If("Did".into(), then, Vec::new()));
                i += 1;
                continue;
            }
            if let Some(r) = s.strip_prefix("Otherwise, ") {
                let mut els = self.clause(r)?;
                // "If C, target X gains 4 boosts. Otherwise, it gains 2": with C false no
                // target was chosen; "it" is a target of the same kind.
                if let Some(NStep::If(_, t, _)) = out.last()
                    && let [NStep::Op(o)] = t.as_slice()
                    && let Some(target) = first_target(o)
                {
                    els = super::map_ops(els, &|e| {
                        e.replacen("(it, ", &format!("({target}, "), 1).replacen(
                            "(it)",
                            &format!("({target})"),
                            1,
                        )
                    });
                }
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
        if let Some(r) = self.mo_cond(c) {
            return r;
        }
        Ok(match c {
            "you are the first player" | "you are first player" => "FirstPlayer".into(),
            "your opponent is first player" | "your opponent is the first player" => {
                "not(FirstPlayer)".into()
            }
            "I'm [[Boosted]]" | "I am [[Boosted]]" => "MeBoosted".into(),
            "you do" | "you did" => "Did".into(),
            "my Expedition is behind" | "my Expedition is behind the opposing one" => {
                "Behind".into()
            }
            "I'm in contact" | "my Expedition is in contact" => "InContact".into(),
            "it's your turn" => "YourTurn".into(),
            "I'm [In Contact]" => "InContact".into(),
            // The Expedition I am in ("my Expedition") is Ascended.
            "I'm in an Ascended Expedition" | "my Expedition is Ascended" => "MyExpAscends".into(),
            _ => match super::conds::MORE_CONDITIONS
                .read(self, c)
                .or_else(|| CONDITIONS.read(self, c))
            {
                Some(cond) => cond?,
                None => {
                    match crate::cards::textread::forms::cond(self, c).or_else(|| self.cd_cond(c)) {
                        Some(r) => return r,
                        // The ALIZE and BISE forms last: one of them takes "there are N
                        // or more X among ..." for another count than the CYCLONE form.
                        None => match super::alibise::CONDITIONS.read(self, c) {
                            Some(cond) => cond?,
                            None => return Err(format!("a condition '{c}'")),
                        },
                    }
                }
            },
        })
    }

    /// One sentence (or clause) of effect.
    pub(in crate::cards::textread) fn clause(&self, s: &str) -> Result<Vec<NStep>, String> {
        let s = s.trim().trim_end_matches('.').trim();
        if let Some(r) = self.cost_clause(s) {
            return r;
        }
        if let Some(r) = self.cd_clause(s) {
            return r;
        }
        // "You may X" / "You may pay {N} to X" / "You may exhaust me to X".
        rx!(
            MAY_PAY_TO,
            r"^You may (pay \{(\d+)\}|exhaust me|sacrifice a Character|spend (one|two|three|four|five|\d+) of my [A-Z][a-z]+ counters?)(?: and (spend (one|two|three|four|five|\d+) of my [A-Z][a-z]+ counters?|exhaust me))?(?: to (?P<body>.+)|)$"
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
            // A hand card put in Reserve "to" do Y: Y only when there was a card to put.
            if inner.len() > 1
                && let Some((0, guard)) = paid_from(&inner[..1])
            {
                return Ok(vec![NStep::May(vec![NStep::If(guard, inner, Vec::new())])]);
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
                    && let (Ok(mut x), Ok(y)) = (
                        self.effect(a),
                        self.clause(&if a.starts_with("I ") {
                            format!("I gain {b}")
                        } else {
                            format!("it gains {b}")
                        }),
                    )
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
            // Every card of both Reserves.
            "card in each player's Reserve" => {
                let f = crate::cards::effect::Filter {
                    kinds: crate::cards::effect::fkind::CARD,
                    whose: Whose::Any,
                    zones: crate::cards::effect::fzone::RESERVE,
                    ..crate::cards::effect::Filter::default()
                };
                format!("count({})", filter_str(&f, self.ctx))
            }
            "Mana Orb in your Mana zone" | "Mana Orb you have" => "ManaOrbs".into(),
            // Every Expedition, either player's, in a region of that terrain.
            "Expedition in {V}" => "all_exps_in(F)".into(),
            "Expedition in {M}" => "all_exps_in(M)".into(),
            "Expedition in {O}" => "all_exps_in(O)".into(),
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

/// The sentences of one bullet of a choice: the bullet, and the sentences after it that
/// can only continue it ("If you do, ...", "On a 4+, ..."); and how many there are.
pub(in crate::cards::textread) fn bullet(sents: &[String]) -> (Vec<String>, usize) {
    let mut m = vec![sents[0].trim_start_matches('•').trim().to_string()];
    while let Some(next) = sents.get(m.len())
        && (next.starts_with("If you do, ") || next.starts_with("On a "))
        && !next.trim_end_matches('.').ends_with(':')
    {
        m.push(next.clone());
    }
    let n = m.len();
    (m, n)
}

/// Where the steps before "If you do" start with a payment that can only fail for want of
/// something to pay (a card from your hand put in Reserve, a Mana Orb discarded), and the
/// guard that there is one: the index of that step (optional or not; the rest are its
/// plain effects) and the condition.
fn paid_from(out: &[NStep]) -> Option<(usize, String)> {
    let guard = |o: &str| match o {
        "from_hand(You, Reserve, 1)" => Some("HandSize >= 1".to_string()),
        "lose_mana(1)" => Some("ManaOrbs >= 1".to_string()),
        _ => None,
    };
    let plain = |s: &NStep| matches!(s, NStep::Op(o) if o.starts_with("exhaust(it"));
    match out.last()? {
        NStep::May(b) => match b.first() {
            Some(NStep::Op(o)) if b[1..].iter().all(plain) => Some((out.len() - 1, guard(o)?)),
            _ => None,
        },
        _ => {
            let k = out.iter().rposition(|s| !plain(s))?;
            match &out[k] {
                NStep::Op(o) => Some((k, guard(o)?)),
                _ => None,
            }
        }
    }
}

/// The first argument of an op when it is a target ("target[1-1](...)").
fn first_target(o: &str) -> Option<&str> {
    let start = o.find('(')? + 1;
    if !o[start..].starts_with("target[") {
        return None;
    }
    let mut depth = 0;
    for (i, c) in o[start..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(&o[start..start + i]),
            ')' => depth -= 1,
            ',' if depth == 0 => return Some(&o[start..start + i]),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::cards::textread::{Verdict, disagrees, verdict_of};

    #[test]
    fn if_you_do_after_a_hand_card_or_a_mana_orb_is_guarded_by_having_one() {
        let hand =
            "{R} You may put qq a card from your hand qq in Reserve. If you do, qq draw a card.";
        let hand_to = "{R} You may put qq a card from your hand qq in Reserve to draw a card.";
        let good = "R: may { if hand >= 1 { hand_to_reserve; draw } }";
        for text in [hand, hand_to] {
            assert_eq!(verdict_of(&[good], text), Verdict::Verified, "{text}");
            // No guard (a draw with an empty hand), or no "may".
            for bad in [
                "R: may { hand_to_reserve; draw }",
                "R: if hand >= 1 { hand_to_reserve; draw }",
            ] {
                assert!(disagrees(verdict_of(&[bad], text)), "{bad}: {text}");
            }
        }
        let mana = "{R} Discard one of your Mana qq Orbs. If you do, draw a card.";
        assert_eq!(
            verdict_of(&["R: if mana >= 1 { lose_mana; draw }"], mana),
            Verdict::Verified
        );
        assert!(disagrees(verdict_of(&["R: lose_mana; draw"], mana)));
        assert!(disagrees(verdict_of(
            &["R: if mana >= 1 { lose_mana; draw(2) }"],
            mana
        )));
    }

    #[test]
    fn otherwise_it_is_a_new_target_of_the_same_kind() {
        let text = "{J} If you are the first player, target Character gains 4 qq boosts. Otherwise, it gains 2 boosts.";
        let good =
            "J: if first_player { boost(target character, 4) } else { boost(target character, 2) }";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        for bad in [
            "J: if first_player { boost(target character, 4) } else { boost(target character, 3) }",
            "J: if first_player { boost(target character, 4) } else { boost(me, 2) }",
            "J: if first_player { boost(target character, 4) }",
        ] {
            assert!(disagrees(verdict_of(&[bad], text)), "{bad}");
        }
    }
}
