//! The reader of the official English card texts: it splits a text into abilities and
//! sentences and turns each sentence it knows into the normal form. It shares no code with
//! the effect language's parser; what it cannot read it says so (the card is then not
//! verified).
//!
//! Layer: part of [`crate::cards`]; may use `error` and nothing else of the crate.

use std::sync::LazyLock;

use regex::Regex;

use super::norm::{Ctx, NAbility, NStep, filter_str, op, target_str};
use super::reduce::{cmp_str, token_str};
use crate::cards::CardDb;
use crate::cards::effect::{Cmp, Filter, Whose, fkind, fzone};
use crate::cards::types::{CardKind, Stats, kw};

fn re(p: &str) -> Regex {
    Regex::new(p).expect("a valid pattern")
}

macro_rules! rx {
    ($name:ident, $p:expr) => {
        static $name: LazyLock<Regex> = LazyLock::new(|| re($p));
    };
}

rx!(REMINDER, r"\s*\([^)]*\)");
rx!(SPACES, r"\s+");
rx!(
    KEYWORD,
    r"^\[\[?(Fleeting|Gigantic|Defender|Eternal|Cooldown|Seasoned|Anchored|Asleep|Tough (\d+)|Scout\] \{(\d+)\}|Scout (\d+)|Persistent|Constant)\]?\]?$"
);
rx!(WHEN_SPLIT, r"^(When|At) (.+?) — (.*)$");
rx!(
    QUICK,
    r"^((?:\{\d+\}|\{T\}|\{D\}|Spend (?:one|two|three|four|five|\d+) of my [A-Z][a-z]+ counters?|Discard (?:a|one) card from your (?:Reserve|hand)|Sacrifice a Character)(?:, (?:\{\d+\}|\{T\}|\{D\}|Spend (?:one|two|three|four|five|\d+) of my [A-Z][a-z]+ counters?|Discard (?:a|one) card from your (?:Reserve|hand)|Sacrifice a Character))*) ?: (.*)$"
);

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

/// Splits a text into sentences, keeping bullets ("• ...") as sentences of their own.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut depth = 0i32;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            _ => {}
        }
        if c == '•' {
            if !cur.trim().is_empty() {
                out.push(cur.trim().to_string());
            }
            cur = String::from("•");
            i += 1;
            continue;
        }
        cur.push(c);
        if (c == '.' || c == ':') && depth <= 0 && (i + 1 == chars.len() || chars[i + 1] == ' ') {
            // "{T} :" and "On a:" keep going; "Choose one:" ends.
            let t = cur.trim();
            let ends = c == '.' || t.ends_with("Choose one:") || t.ends_with("On a:");
            if ends {
                out.push(t.to_string());
                cur.clear();
            }
        }
        i += 1;
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Does this sentence start a new ability?
fn starts_ability(s: &str) -> bool {
    s.starts_with("{J}")
        || s.starts_with("{H}")
        || s.starts_with("{R}")
        || s.starts_with("{I}")
        || s.starts_with("{D}")
        || s.starts_with("{T}")
        || s.starts_with("At Noon")
        || s.starts_with("At Dusk")
        || s.starts_with("At Night")
        || (s.starts_with("When ") && s.contains(" — "))
        || s.starts_with("I cost {")
        || KEYWORD.is_match(s.trim_end_matches('.'))
        || QUICK.is_match(s)
        || s.split(", ")
            .all(|k| KEYWORD.is_match(k.trim_end_matches('.')))
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
            for s in sentences(&text) {
                let is_kw = s
                    .trim_end_matches('.')
                    .split(", ")
                    .all(|k| KEYWORD.is_match(k));
                if groups.is_empty() || starts_ability(&s) || after_keyword {
                    groups.push(vec![s]);
                } else {
                    groups.last_mut().expect("non-empty").push(s);
                }
                after_keyword = is_kw;
            }
            for g in groups {
                out.extend(self.ability(kind, &g, support)?);
            }
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
        let mut support = support;
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
        } else if let Some(c) = WHEN_SPLIT.captures(&s0) {
            (self.when(&c[1], &c[2])?, c[3].to_string())
        } else if kind == CardKind::Spell {
            ("spell".into(), s0.clone())
        } else {
            return self.static_ability(g, support);
        };
        let mut sents = vec![rest0];
        sents.extend(g[1..].iter().cloned());
        // Activation only while you are the first player.
        let mut only_first = false;
        if sents.last().is_some_and(|l| {
            l.trim_end_matches('.') == "@only_activate if you are the first player"
        }) {
            sents.pop();
            only_first = true;
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
        if only_first {
            body = vec![NStep::If("FirstPlayer".into(), body, Vec::new())];
        }
        if trigger == "night" && after_rest {
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
        if after_rest {
            return Ok(vec![
                NAbility {
                    support,
                    trigger,
                    body: vec![op("delay_rest", &[])],
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
            body = map_ops(body, &|o| o.replace(", Mine,", ", Left,"));
        }
        Ok(vec![NAbility {
            support,
            trigger,
            body: super::canon_body(body),
        }])
    }

    fn quick(&self, costs: &str) -> Result<(String, bool), String> {
        let mut c = crate::cards::effect::Cost::default();
        let mut support = false;
        for part in costs.split(", ") {
            if part == "{T}" {
                c.exhaust = true;
            } else if part == "{D}" {
                c.discard_me = true;
                support = true;
            } else if let Some(n) = part.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
                c.mana = n.parse().map_err(|_| format!("a cost '{part}'"))?;
            } else if let Some(r) = part.strip_prefix("Spend ") {
                let n = num_word(r.split(' ').next().unwrap_or(""))
                    .ok_or_else(|| format!("a cost '{part}'"))?;
                c.counters = n as u8;
            } else if part.starts_with("Discard") && part.ends_with("Reserve") {
                c.discard_reserve = 1;
            } else if part.starts_with("Discard") && part.ends_with("hand") {
                c.discard_hand = 1;
            } else if part == "Sacrifice a Character" {
                c.sacrifice = fkind::CHARACTER;
            } else {
                return Err(format!("a cost '{part}'"));
            }
        }
        let cs = super::reduce::cost_str(&c);
        Ok(if support {
            (format!("D({cs})"), true)
        } else {
            (format!("quick({cs})"), false)
        })
    }

    fn when(&self, at: &str, what: &str) -> Result<String, String> {
        if at == "At" {
            return Ok(match what {
                "Noon" => "noon",
                "Dusk" => "dusk",
                "Night" => "night",
                _ => return Err(format!("a time 'At {what}'")),
            }
            .into());
        }
        let ev = |f: Filter| {
            let mut f = f;
            f.whose = Whose::Any;
            f.zones = Filter::default().zones;
            filter_str(&f, self.ctx)
        };
        let fixed = match what {
            "I'm sacrificed" => Some("Sacrificed".to_string()),
            "I go to Reserve @from_exp" => Some("ToReserve { from_expedition: true }".into()),
            "I go to Reserve from your hand" => Some("ToReserve { from_expedition: false }".into()),
            "I leave the Expedition zone" => Some("LeaveExpedition".into()),
            "I leave the Landmark zone" | "I leave the Landmarks zone" => {
                Some("LeaveLandmarks".into())
            }
            "a card goes @from_deck_or_hand to Reserve" => Some("YourCardToReserve".into()),
            "my Expedition moves forward" | "my Expedition moves forward due to" => {
                Some("MyExpMoves".into())
            }
            "my Expedition @fails_at_dusk" => Some("MyExpFails".into()),
            "you roll one or more dice" | "you roll a die" => Some("YouRoll".into()),
            "you create a token"
            | "you create a Character token"
            | "you create a token Character" => Some("YouCreateToken".into()),
            "you pass first" => Some("YouPassFirst".into()),
            "you make a [Gift]" => Some("YouGift".into()),
            "a card leaves your Reserve @in_afternoon" => {
                Some("LeavesYourReserve@afternoon".into())
            }
            "you exhaust a card in Reserve" => Some("YouExhaustInReserve".into()),
            "an opponent draws @cards_or_resupply" => Some("OpponentDraws".into()),
            "a Character you control gains [[Fleeting]]" => Some("gains(fleeting)".into()),
            "a Character you control gains [[Anchored]]" => Some("gains(anchored)".into()),
            "a Character you control gains [[Asleep]]" => Some("gains(asleep)".into()),
            "I gain [[Asleep]]" => Some("i_gain(asleep)".into()),
            "I gain [[Anchored]]" => Some("i_gain(anchored)".into()),
            "I gain [[Fleeting]]" => Some("i_gain(fleeting)".into()),
            "one of your Expeditions @moves_due {V}" => Some("exp_moves_due(F)".into()),
            "one of your Expeditions @moves_due {M}" => Some("exp_moves_due(M)".into()),
            "one of your Expeditions @moves_due {O}" => Some("exp_moves_due(O)".into()),
            "my Expedition @moves_due {V}" => Some("moves_due(F)".into()),
            "my Expedition @moves_due {M}" => Some("moves_due(M)".into()),
            "my Expedition @moves_due {O}" => Some("moves_due(O)".into()),
            "I leave your Landmark zone" => Some("LeaveLandmarks".into()),
            _ => None,
        };
        if let Some(f) = fixed {
            return Ok(format!("when {f}"));
        }
        if what == "I'm sacrificed, if I was not [[Fleeting]]" {
            let f = Filter {
                kinds: fkind::CHARACTER,
                without: kw::FLEETING,
                ..Filter::default()
            };
            return Ok(format!("when sacrificed_as({})", ev(f)));
        }
        rx!(
            GAIN_NTH,
            r"^I gain my (first|second|third|fourth|fifth|sixth) [A-Z][a-z]+ counter$"
        );
        if let Some(c) = GAIN_NTH.captures(what) {
            return Ok(format!(
                "when CountersReach({})",
                ordinal(&c[1]).unwrap_or(0)
            ));
        }
        rx!(PLAY, r"^you play (.+?)( from your Reserve)?$");
        if let Some(c) = PLAY.captures(what) {
            let f = self.noun(&c[1], Whose::Yours)?;
            let name = if c.get(2).is_some() {
                "play_reserve"
            } else {
                "play"
            };
            return Ok(format!("when {name}({})", ev(f.filter)));
        }
        rx!(FIRST, r"^you play your first (.+?) each Afternoon$");
        if let Some(c) = FIRST.captures(what) {
            let f = self.noun(&format!("a {}", &c[1]), Whose::Yours)?;
            return Ok(format!("when play_first({})", ev(f.filter)));
        }
        rx!(OPP, r"^an opponent plays (.+?)$");
        if let Some(c) = OPP.captures(what) {
            let f = self.noun(&c[1], Whose::Opposing)?;
            return Ok(format!("when opponent_play({})", ev(f.filter)));
        }
        rx!(
            JOINS,
            r"^(.+?) joins (your Expeditions|my Expedition|the Expedition facing me)$"
        );
        if let Some(c) = JOINS.captures(what) {
            let mut f = self.noun(&c[1], Whose::Yours)?.filter;
            let name = match &c[2] {
                "your Expeditions" => "joins",
                "my Expedition" => {
                    f.place = crate::cards::effect::Where::MyExpedition;
                    "joins"
                }
                _ => "joins_facing",
            };
            return Ok(format!("when {name}({})", ev(f)));
        }
        rx!(SACR, r"^you sacrifice (.+?)$");
        if let Some(c) = SACR.captures(what) {
            let f = self.noun(&c[1], Whose::Yours)?;
            return Ok(format!("when you_sacrifice({})", ev(f.filter)));
        }
        if let Some(f) = super::forms::event(self, what) {
            return Ok(format!("when {f}"));
        }
        Err(format!("an event 'When {what}'"))
    }

    fn static_ability(&self, g: &[String], support: bool) -> Result<Vec<NAbility>, String> {
        if g.len() != 1 {
            return Err(format!("a static ability '{}'", g.join(" ")));
        }
        let s = g[0].trim_end_matches('.');
        rx!(TOUGH_AURA, r"^(.+?) are \[Tough (\d+)\]$");
        if let Some(c) = TOUGH_AURA.captures(s) {
            let f = self.noun(&c[1], Whose::Yours)?;
            if f.quant == Quant::Each {
                return Ok(vec![NAbility {
                    support,
                    trigger: format!(
                        "static tough_aura({}, {})",
                        filter_str(&f.filter, self.ctx),
                        &c[2]
                    ),
                    body: Vec::new(),
                }]);
            }
        }
        let st = |t: &str| {
            Ok(vec![NAbility {
                support,
                trigger: format!("static {t}"),
                body: Vec::new(),
            }])
        };
        let st_if = |t: &str, c: &str| {
            Ok(vec![NAbility {
                support,
                trigger: format!("static {t}"),
                body: vec![NStep::If(c.to_string(), Vec::new(), Vec::new())],
            }])
        };
        match s {
            "[Tough X] @x_is_count_of @regions_between" => {
                return st("tough_x(RegionsBetween)");
            }
            "The {J}, {H} and {R} @silenced_facing" => {
                return st("SilenceFacing");
            }
            "@would_leave, you may put me @owners_mana instead" => {
                return st("LeaveToMana { may: true }");
            }
            "@would_leave while I'm [[Boosted]], put me @owners_mana instead @exhausted_orb" => {
                return st_if("LeaveToMana { may: false }", "MeBoosted");
            }
            "During Morning, draw only one card" => return st("DrawOneInMorning"),
            "You may play exhausted cards @from_your_reserve" => {
                let f = Filter {
                    kinds: fkind::CARD,
                    whose: Whose::Yours,
                    ..Filter::default()
                };
                return st(&format!(
                    "play_exhausted({}, false)",
                    filter_str(&f, self.ctx)
                ));
            }
            "@begin_with one {V}, one {M} and one {O} @marker" => {
                return st("StartMarkers(7)");
            }
            "If my Expedition is behind, [Defender] Characters @no_block" => {
                return st_if("DefenderNoBlock", "Behind");
            }
            "Your other Expedition and @facing_it_blocked" => {
                return st("NoForward(Other)");
            }
            "I'm also considered a Spell, @even_out_of_play" => return st("AlsoKind(8)"),
            "@would_gain [[Fleeting]], I gain 1 boost instead" => {
                return st("GainInstead { from: 1, to: 0, boosts: 1 }");
            }
            _ => {}
        }
        rx!(
            START_COUNTERS,
            r"^@begin_with (\d+|one|two|three|four|five) [A-Z][a-z]+ counters?$"
        );
        if let Some(c) = START_COUNTERS.captures(s) {
            return st(&format!("StartCounters({})", num_word(&c[1]).unwrap_or(0)));
        }
        rx!(
            DISCOUNT,
            r"^You may discard @reserve_card @reduce_cost_by \{(\d+)\}$"
        );
        if let Some(c) = DISCOUNT.captures(s) {
            return st(&format!("DiscardDiscount({})", &c[1]));
        }
        rx!(
            MIN_COST,
            r"^(.+?) your opponents play can't cost less than \{(\d+)\}$"
        );
        if let Some(c) = MIN_COST.captures(s) {
            let mut f = self.noun(&format!("a {}", &c[1]), Whose::Opposing)?.filter;
            f.whose = Whose::Opposing;
            return st(&format!(
                "min_cost_opponent({}, {})",
                filter_str(&f, self.ctx),
                &c[2]
            ));
        }
        rx!(
            PLAYABLE,
            r"^@cant_play_if you have less than (\w+) Mana Orbs$"
        );
        if let Some(c) = PLAYABLE.captures(s) {
            let n = num_word(&c[1]).ok_or("a number")?;
            return st_if("PlayableIf", &cmp_str("ManaOrbs", Cmp::Ge, n));
        }
        rx!(
            FIRST_EACH,
            r"^The first (.+?) you play each Afternoon gains (\d+) boosts?$"
        );
        if let Some(c) = FIRST_EACH.captures(s) {
            let f = self.noun(&format!("a {}", &c[1]), Whose::Yours)?;
            let mut f = f.filter;
            f.whose = Whose::Any;
            f.zones = Filter::default().zones;
            return Ok(vec![NAbility {
                support,
                trigger: format!("when play_first({})", filter_str(&f, self.ctx)),
                body: vec![op("boost", &["it", &c[2]])],
            }]);
        }
        rx!(
            AURA,
            r"^(.+?) you play(?: with Hand Cost \{(\d+)\} or less)? have \[\[(Fleeting)\]\]$"
        );
        if let Some(c) = AURA.captures(s) {
            let mut f = self.noun(&format!("a {}", &c[1]), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            if let Some(n) = c.get(2) {
                f.cost_max = n.as_str().parse().unwrap_or(0);
            }
            return st(&format!(
                "aura({}, {})",
                filter_str(&f, self.ctx),
                c[3].to_ascii_lowercase()
            ));
        }
        rx!(COST_LESS, r"^I cost \{(\d+)\} (less|more)$");
        if let Some(c) = COST_LESS.captures(s) {
            let n: i8 = c[1].parse().unwrap_or(0);
            let n = if &c[2] == "less" { -n } else { n };
            return Ok(vec![NAbility {
                support,
                trigger: format!("static Cost({n})"),
                body: Vec::new(),
            }]);
        }
        Err(format!("a static ability '{s}'"))
    }

    /// The body of an ability: its sentences, in order.
    pub fn body(&self, sents: &[String]) -> Result<Vec<NStep>, String> {
        let mut out: Vec<NStep> = Vec::new();
        let mut i = 0;
        while i < sents.len() {
            if let Some((steps, used)) = super::forms::sentences(self, &sents[i..])? {
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
            out.extend(self.clause(s)?);
            i += 1;
        }
        Ok(out)
    }

    pub(super) fn cond(&self, c: &str) -> Result<String, String> {
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
            _ => {
                rx!(
                    HAVE_BOOSTS,
                    r"^I have (\d+|one|two|three|four|five) or more boosts$"
                );
                if let Some(m) = HAVE_BOOSTS.captures(c) {
                    return Ok(cmp_str("MyBoosts", Cmp::Ge, num_word(&m[1]).unwrap_or(0)));
                }
                rx!(
                    CONTROL_N,
                    r"^you control (two|three|four|five|\d+) or more (.+)$"
                );
                if let Some(m) = CONTROL_N.captures(c) {
                    let mut f = self.noun(&m[2], Whose::Yours)?.filter;
                    f.whose = Whose::Yours;
                    return Ok(cmp_str(
                        &format!("count({})", filter_str(&f, self.ctx)),
                        Cmp::Ge,
                        num_word(&m[1]).unwrap_or(0),
                    ));
                }
                rx!(CONTROL, r"^you control (.+)$");
                if let Some(m) = CONTROL.captures(c) {
                    let f = self.noun(&m[1], Whose::Yours)?;
                    let mut ff = f.filter;
                    ff.whose = Whose::Yours;
                    return Ok(cmp_str(
                        &format!("count({})", filter_str(&ff, self.ctx)),
                        Cmp::Ge,
                        f.min.max(1) as i16,
                    ));
                }
                if let Some(r) = super::forms::cond(self, c) {
                    return r;
                }
                return Err(format!("a condition '{c}'"));
            }
        })
    }

    /// One sentence (or clause) of effect.
    pub(super) fn clause(&self, s: &str) -> Result<Vec<NStep>, String> {
        let s = s.trim().trim_end_matches('.').trim();
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
            return Ok(vec![NStep::Pay(super::reduce::cost_str(&cost), body)]);
        }
        if let Some(r) = s.strip_prefix("You may ") {
            let r = upper_first(r);
            let inner = self.clause(&r)?;
            // [Rush] is optional by itself.
            if inner.len() == 1 && inner[0] == op("rush", &[]) {
                return Ok(inner);
            }
            return Ok(vec![NStep::May(inner)]);
        }
        rx!(HAVE, r"^(?:[Hh]ave) (.+?) (gain|lose) (.+)$");
        if let Some(c) = HAVE.captures(s) {
            let subj = if &c[1] == "me" {
                "I".to_string()
            } else {
                c[1].to_string()
            };
            let verb = if &c[1] == "me" {
                c[2].to_string()
            } else {
                format!("{}s", &c[2])
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
    fn count(&self, s: &str) -> Result<String, String> {
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

    fn obj(&self, s: &str) -> Result<(String, Option<Np>), String> {
        let t = s.trim();
        match t {
            "I" | "me" => return Ok(("me".into(), None)),
            "it" | "It" | "them" | "they" | "They" => return Ok(("it".into(), None)),
            _ => {}
        }
        let np = self.noun(t, Whose::Any)?;
        let f = filter_str(&np.filter, self.ctx);
        Ok(match np.quant {
            Quant::Target => (target_str(&f, np.min, np.max, false, ""), Some(np)),
            Quant::Each => (format!("each({f})"), Some(np)),
            Quant::A => return Err(format!("an object '{t}'")),
        })
    }

    /// One effect, no "may".
    fn effect(&self, s: &str) -> Result<Vec<NStep>, String> {
        let expanded = s.replace("@reserve_card", "a card from your Reserve");
        let s = expanded.trim().trim_end_matches('.');
        let bad = || Err(format!("an effect '{s}'"));
        match s {
            "Draw a card" | "draw a card" => return Ok(vec![op("draw", &["You", "1"])]),
            "[Resupply]" | "[resupply]" => return Ok(vec![op("resupply", &["You"])]),
            "[Exhausted Resupply]" => return Ok(vec![op("resupply_exhausted", &["You"])]),
            "[Sabotage]" => return Ok(vec![op("sabotage", &["Any"])]),
            "[After You]" => return Ok(vec![op("after_you", &[])]),
            "my Expedition [Ascends]" | "My Expedition [Ascends]" => {
                return Ok(vec![op("ascend", &["Mine"])]);
            }
            "Sacrifice me" | "sacrifice me" => return Ok(vec![op("move_Sacrifice", &["me"])]),
            "Put me in Reserve" | "put me in Reserve" | "Send me to Reserve" => {
                return Ok(vec![op("move_Reserve", &["me"])]);
            }
            "Roll a die" => return Ok(vec![NStep::Roll(Vec::new())]),
            "Discard one of your Mana Orbs" => return Ok(vec![op("lose_mana", &["1"])]),
            "Put @topdeck in your Mana zone @exhausted_orb"
            | "put @topdeck in your Mana zone @exhausted_orb" => {
                return Ok(vec![op("mana_from_deck", &["You", "exhausted"])]);
            }
            "Each player puts @theirtopdeck in their Mana zone @exhausted_orb" => {
                return Ok(vec![op("mana_from_deck", &["Each", "exhausted"])]);
            }
            "Sacrifice a Character" => return Ok(vec![op("sacrifice_one", &["You"])]),
            "[Rush]" => return Ok(vec![op("rush", &[])]),
            "Each player draws a card" => return Ok(vec![op("draw", &["Each", "1"])]),
            "Pass" | "Immediately pass" => return Ok(vec![op("pass", &[])]),
            "Create a [Manaseed] token @opp_landmarks" => {
                return Ok(vec![op("landmark_token", &["manaseed", "Opponent", "1"])]);
            }
            "Create an [Aerolith] token @opp_landmarks" => {
                return Ok(vec![op("landmark_token", &["aerolith", "Opponent", "1"])]);
            }
            "Create a [Manaseed] token @player_landmarks" => {
                return Ok(vec![NStep::Choose(vec![
                    vec![op("landmark_token", &["manaseed", "You", "1"])],
                    vec![op("landmark_token", &["manaseed", "Opponent", "1"])],
                ])]);
            }
            "Create an [Aerolith] token @player_landmarks" => {
                return Ok(vec![NStep::Choose(vec![
                    vec![op("landmark_token", &["aerolith", "You", "1"])],
                    vec![op("landmark_token", &["aerolith", "Opponent", "1"])],
                ])]);
            }
            "Target opponent draws a card" | "target opponent draws a card" => {
                return Ok(vec![op("draw", &["Opponent", "1"])]);
            }
            "Target opponent [Resupplies]" | "target opponent [Resupplies]" => {
                return Ok(vec![op("resupply", &["Opponent"])]);
            }
            "Target opponent [Exhausted Resupplies]" | "target opponent [Exhausted Resupplies]" => {
                return Ok(vec![op("resupply_exhausted", &["Opponent"])]);
            }
            "Each player [Resupplies]" => return Ok(vec![op("resupply", &["Each"])]),
            "Each player sacrifices a Character" => {
                return Ok(vec![op("sacrifice_one", &["Each"])]);
            }
            "Target opponent discards @their_hand_card" => {
                return Ok(vec![op("from_hand", &["Opponent", "Discard", "1"])]);
            }
            "Put @hand_card in Reserve" | "put @hand_card in Reserve" => {
                return Ok(vec![op("from_hand", &["You", "Reserve", "1"])]);
            }
            "Target Expedition [Ascends]" => {
                return Ok(vec![
                    op("select_exp", &["Any", "false"]),
                    op("ascend", &["Selected"]),
                ]);
            }
            "Create a [Manaseed] token in your Landmarks"
            | "create a [Manaseed] token in your Landmarks" => {
                return Ok(vec![op("landmark_token", &["manaseed", "You", "1"])]);
            }
            "Create an [Aerolith] token in your Landmarks"
            | "create an [Aerolith] token in your Landmarks" => {
                return Ok(vec![op("landmark_token", &["aerolith", "You", "1"])]);
            }
            "Your opponent's Expedition facing me @moves_back" => {
                return Ok(vec![op("back", &["Mine", "opposing"])]);
            }
            "My Expedition @moves_forward" | "my Expedition @moves_forward" => {
                return Ok(vec![op("forward", &["Mine", "yours"])]);
            }
            _ => {}
        }
        rx!(DRAW, r"^(?i:draw) (two|three|four|\d+) cards$");
        if let Some(c) = DRAW.captures(s) {
            let n = num_word(&c[1]).unwrap_or(0);
            return Ok(vec![op("draw", &["You", &n.to_string()])]);
        }
        // Next card modifiers.
        rx!(
            NEXT_COST,
            r"^The next (.+?) you play this (turn|Afternoon) costs \{(\d+)\} less$"
        );
        if let Some(c) = NEXT_COST.captures(s) {
            let f = self.noun(&format!("a {}", &c[1]), Whose::Yours)?;
            let mut ff = f.filter;
            ff.whose = Whose::Yours;
            if ff.kinds == fkind::CARD {
                ff.kinds = fkind::CARD;
            }
            return Ok(vec![op(
                "discount",
                &[
                    &filter_str(&ff, self.ctx),
                    &c[3],
                    "min 0",
                    if &c[2] == "turn" { "turn" } else { "afternoon" },
                ],
            )]);
        }
        rx!(
            NEXT_BOOST,
            r"^The next (.+?) you play this turn gains (\d+) boosts?$"
        );
        if let Some(c) = NEXT_BOOST.captures(s) {
            let f = self.noun(&format!("a {}", &c[1]), Whose::Yours)?;
            let mut ff = f.filter;
            ff.whose = Whose::Yours;
            return Ok(vec![op("next_boost", &[&filter_str(&ff, self.ctx), &c[2]])]);
        }
        rx!(NEXT_FREE, r"^The next (.+?) you play this turn is free$");
        if let Some(c) = NEXT_FREE.captures(s) {
            let mut f = self.noun(&format!("a {}", &c[1]), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            return Ok(vec![op("next_mod", &[&filter_str(&f, self.ctx), "8"])]);
        }
        rx!(
            NEXT_R,
            r"^The next (.+?) (?:you play from your hand|played from your hand) this turn activates (?:its|one of its) \{R\} abilities$"
        );
        if let Some(c) = NEXT_R.captures(s) {
            let mut f = self.noun(&format!("a {}", &c[1]), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            f.from_reserve = Some(false);
            return Ok(vec![op("next_activate_r", &[&filter_str(&f, self.ctx)])]);
        }
        rx!(
            PER,
            r"^(.+?) gains? (\d+) (boost|[A-Z][a-z]+ counter) per (.+)$"
        );
        if let Some(c) = PER.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            if &c[2] != "1" {
                return bad();
            }
            let count = self.count(&c[4])?;
            let name = if &c[3] == "boost" {
                "boost"
            } else {
                "counters"
            };
            return Ok(vec![op(name, &[&o, &count])]);
        }
        rx!(
            NEXT_STATUS,
            r"^The next (.+?) you play this turn (gains|loses) \[\[(Fleeting|Anchored|Asleep)\]\]$"
        );
        if let Some(c) = NEXT_STATUS.captures(s) {
            let mut f = self.noun(&format!("a {}", &c[1]), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            let name = if &c[2] == "gains" {
                "next_gain"
            } else {
                "next_lose"
            };
            return Ok(vec![op(
                name,
                &[&filter_str(&f, self.ctx), &c[3].to_ascii_lowercase()],
            )]);
        }
        // Boosts.
        rx!(
            GAIN_BOOST,
            r"^(.+?) (?:gains?|each gain) (\d+|one|two|three|X) boosts?(?:, up to a max of (\d+)|, where X is the result)?$"
        );
        if let Some(c) = GAIN_BOOST.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            let n = match &c[2] {
                "X" if c[0].ends_with("where X is the result") => "X".to_string(),
                "X" => return bad(),
                w => num_word(w).unwrap_or(0).to_string(),
            };
            let mut args = vec![o, n];
            if let Some(m) = c.get(3) {
                args.push(format!("max {}", m.as_str()));
            }
            let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
            return Ok(vec![op("boost", &a)]);
        }
        rx!(GIVE_BOOST, r"^(?i:give) (.+?) (\d+|one|two|three) boosts?$");
        if let Some(c) = GIVE_BOOST.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            let n = num_word(&c[2]).unwrap_or(0);
            return Ok(vec![op("boost", &[&o, &n.to_string()])]);
        }
        rx!(
            GAIN_COUNTERS,
            r"^(.+?) gains? (\d+|an?|one|two|three) [A-Z][a-z]+ counters?$"
        );
        if let Some(c) = GAIN_COUNTERS.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            let n = num_word(&c[2]).unwrap_or(0);
            return Ok(vec![op("counters", &[&o, &n.to_string()])]);
        }
        rx!(
            GAIN_STATUS,
            r"^(.+?) (gains?|loses?) \[\[(Fleeting|Anchored|Asleep|Eternal|Seasoned|Defender|Gigantic)\]\]$"
        );
        if let Some(c) = GAIN_STATUS.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            let st = c[3].to_ascii_lowercase();
            let name = if c[2].starts_with("gain") {
                "gain"
            } else {
                "lose"
            };
            return Ok(vec![op(name, &[&o, &st])]);
        }
        rx!(GAIN_TOUGH, r"^(.+?) gains? \[Tough (\d+)\]$");
        if let Some(c) = GAIN_TOUGH.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            return Ok(vec![op("gain", &[&o, &format!("tough {}", &c[2])])]);
        }
        // Moves.
        rx!(
            SEND_RESERVE,
            r"^(?i:send) (?:to Reserve (.+)|(.+?) to Reserve)$"
        );
        if let Some(c) = SEND_RESERVE.captures(s) {
            let (o, _) = self.obj(c.get(1).or(c.get(2)).map(|m| m.as_str()).unwrap_or(""))?;
            return Ok(vec![op("move_Reserve", &[&o])]);
        }
        rx!(GOES_RESERVE, r"^(.+?) goes to Reserve$");
        if let Some(c) = GOES_RESERVE.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            return Ok(vec![op("move_Reserve", &[&o])]);
        }
        rx!(DISCARD, r"^(?i:discard) (.+)$");
        if let Some(c) = DISCARD.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            return Ok(vec![op("move_Discard", &[&o])]);
        }
        rx!(SACRIFICE, r"^(?i:sacrifice) (.+)$");
        if let Some(c) = SACRIFICE.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            return Ok(vec![op("move_Sacrifice", &[&o])]);
        }
        rx!(
            RETURN,
            r"^(?i:return) (.+?) to (?:its owner's|your|their owner's|their owners') (hand|deck)$"
        );
        if let Some(c) = RETURN.captures(s)
            && !c[1].ends_with(" from your Reserve")
        {
            let (o, _) = self.obj(&c[1])?;
            let d = if &c[2] == "hand" {
                "move_Hand"
            } else {
                return bad();
            };
            return Ok(vec![op(d, &[&o])]);
        }
        rx!(
            RETURN_TOP,
            r"^(?i:return|put) (.+?) (?:to|on) the top of (?:its|their) owners?'?s? deck$"
        );
        if let Some(c) = RETURN_TOP.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            return Ok(vec![op("move_DeckTop", &[&o])]);
        }
        rx!(
            TO_MANA,
            r"^(?i:put) (.+?) in its owner's Mana zone @exhausted_orb$"
        );
        if let Some(c) = TO_MANA.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            return Ok(vec![op("move_Mana", &[&o])]);
        }
        rx!(EXHAUST, r"^(?i:exhaust) (.+)$");
        if let Some(c) = EXHAUST.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            return Ok(vec![op("exhaust", &[&o])]);
        }
        rx!(READY, r"^(?i:ready) (.+)$");
        if let Some(c) = READY.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            return Ok(vec![op("ready", &[&o])]);
        }
        rx!(DEFECT, r"^(.+?) defects?$");
        if let Some(c) = DEFECT.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            return Ok(vec![op("defect", &[&o])]);
        }
        rx!(SWITCH, r"^(.+?) switch(?:es)? Expeditions$");
        if let Some(c) = SWITCH.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            return Ok(vec![op("switch", &[&o])]);
        }
        rx!(ACTIVATE, r"^(?i:activate) the \{J\} abilities of (.+)$");
        if let Some(c) = ACTIVATE.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            return Ok(vec![op("activate_j", &[&o])]);
        }
        // Tokens.
        rx!(
            TOKEN,
            r"^(?i:create) (an?|one|two|three|four) \[([^\]]+?) (\d+)/(\d+)/(\d+)\] [A-Za-z ]*?tokens? (?:in|into) (target Expedition|my Expedition|your Hero Expedition|your Companion Expedition|your other Expedition|each of your Expeditions)( after Rest)?$"
        );
        if let Some(c) = TOKEN.captures(s) {
            let n = num_word(&c[1]).unwrap_or(0);
            let stats = Stats::new(
                c[3].parse().unwrap_or(0),
                c[4].parse().unwrap_or(0),
                c[5].parse().unwrap_or(0),
            );
            let at = match &c[6] {
                "target Expedition" => "Target",
                "my Expedition" => "Mine",
                "your Hero Expedition" => "Fixed(Hero)",
                "your Companion Expedition" => "Fixed(Companion)",
                "your other Expedition" => "Other",
                _ => "Each",
            };
            return Ok(vec![op(
                if c.get(7).is_some() {
                    "token_after_rest"
                } else {
                    "token"
                },
                &[&token_str(&c[2], stats), at, &n.to_string(), "yours"],
            )]);
        }
        rx!(
            TO_HAND_FROM_RESERVE,
            r"^(?i:return) (.+?) from your Reserve to your hand$"
        );
        if let Some(c) = TO_HAND_FROM_RESERVE.captures(s) {
            let mut np = self.noun(&c[1], Whose::Yours)?;
            np.filter.zones = fzone::RESERVE;
            np.filter.whose = Whose::Yours;
            let f = filter_str(&np.filter, self.ctx);
            return Ok(vec![op(
                "move_Hand",
                &[&target_str(&f, np.min, np.max, false, "")],
            )]);
        }
        if let Some(r) = super::forms::effect(self, s) {
            return r;
        }
        bad()
    }

    /// A noun phrase: how many and which objects.
    pub fn noun(&self, s: &str, default_whose: Whose) -> Result<Np, String> {
        if let Some(np) = super::forms::noun(self, s) {
            return np;
        }
        let bad = || Err(format!("an object '{s}'"));
        let expanded = s.replace("@reserve_card", "a card from your Reserve");
        let s = expanded.as_str();
        let mut words: Vec<&str> = s.split(' ').collect();
        let mut np = Np {
            quant: Quant::A,
            min: 1,
            max: 1,
            filter: Filter {
                kinds: 0,
                whose: Whose::Any,
                ..Filter::default()
            },
        };
        let _ = default_whose;
        // Quantity.
        let mut i = 0;
        let w0 = words.first().copied().unwrap_or("");
        if (w0 == "up" || w0 == "Up") && words.get(1) == Some(&"to") {
            let n = num_word(words.get(2).copied().unwrap_or("")).ok_or("a number")?;
            np.min = 0;
            np.max = n as u8;
            i = 3;
            if words.get(i) != Some(&"target") {
                return bad();
            }
            np.quant = Quant::Target;
            i += 1;
        } else if w0 == "target" {
            np.quant = Quant::Target;
            i = 1;
            if matches!(words.get(1).copied(), Some("a" | "an")) {
                i = 2;
            }
        } else if w0 == "another" && words.get(1) == Some(&"target") {
            np.quant = Quant::Target;
            np.filter.other = true;
            i = 2;
        } else if w0 == "each" || w0 == "all" || w0 == "All" || w0 == "Each" {
            np.quant = Quant::Each;
            i = 1;
        } else if matches!(w0, "a" | "an" | "A" | "An") {
            i = 1;
        } else if w0 == "another" {
            np.filter.other = true;
            i = 1;
        } else if let Some(n) = num_word(w0).filter(|_| w0 != "a" && w0 != "an") {
            np.min = n as u8;
            np.max = n as u8;
            i = 1;
            if words.get(i) == Some(&"target") {
                np.quant = Quant::Target;
                i += 1;
            }
        } else if w0 == "Target" {
            np.quant = Quant::Target;
            i = 1;
        } else {
            np.quant = Quant::Each;
        }
        if words.get(i) == Some(&"other") {
            np.filter.other = true;
            i += 1;
        }
        words.drain(..i);
        let rest = words.join(" ");
        // Trailing qualifiers.
        let mut rest = rest.as_str().to_string();
        rx!(BASE_COST, r" with Base Cost \{(\d+)\} or (less|more)$");
        if let Some(c) = BASE_COST.captures(&rest.clone()) {
            let n: u8 = c[1].parse().unwrap_or(0);
            if &c[2] == "less" {
                np.filter.cost_max = n;
            } else {
                np.filter.cost_min = n;
            }
            np.filter.base_cost = true;
            rest = rest[..c.get(0).expect("match").start()].to_string();
        }
        rx!(HAND_COST, r" with Hand Cost \{(\d+)\} or (less|more)$");
        if let Some(c) = HAND_COST.captures(&rest.clone()) {
            let n: u8 = c[1].parse().unwrap_or(0);
            if &c[2] == "less" {
                np.filter.cost_max = n;
            } else {
                np.filter.cost_min = n;
            }
            rest = rest[..c.get(0).expect("match").start()].to_string();
        }
        if let Some(r) = rest.strip_suffix(" with a base statistic of 0") {
            rest = r.to_string();
            np.filter.zero_stat = Some(true);
        }
        for (suffix, whose, zones, place) in [
            (
                " in play or in Reserve",
                None,
                Some(fzone::IN_PLAY | fzone::RESERVE),
                None,
            ),
            (" you control", Some(Whose::Yours), None, None),
            (" an opponent controls", Some(Whose::Opposing), None, None),
            (
                " target opponent controls",
                Some(Whose::Opposing),
                None,
                None,
            ),
            (" your opponents control", Some(Whose::Opposing), None, None),
            (" in Reserve", None, Some(fzone::RESERVE), None),
            (
                " from your Reserve",
                Some(Whose::Yours),
                Some(fzone::RESERVE),
                None,
            ),
            (
                " in your Reserve",
                Some(Whose::Yours),
                Some(fzone::RESERVE),
                None,
            ),
            (
                " in an opponent's Reserve",
                Some(Whose::Opposing),
                Some(fzone::RESERVE),
                None,
            ),
            (
                " in any Reserve",
                Some(Whose::Any),
                Some(fzone::RESERVE),
                None,
            ),
            (
                " in my Expedition",
                None,
                None,
                Some(crate::cards::effect::Where::MyExpedition),
            ),
            (
                " facing me",
                None,
                None,
                Some(crate::cards::effect::Where::FacingMe),
            ),
            (" in your Expeditions", Some(Whose::Yours), None, None),
        ] {
            if let Some(r) = rest.strip_suffix(suffix) {
                rest = r.to_string();
                if let Some(w) = whose {
                    np.filter.whose = w;
                }
                if let Some(z) = zones {
                    np.filter.zones = z;
                }
                if let Some(p) = place {
                    np.filter.place = p;
                }
                break;
            }
        }
        if let Some(c) = HAND_COST.captures(&rest.clone()) {
            let n: u8 = c[1].parse().unwrap_or(0);
            if &c[2] == "less" {
                np.filter.cost_max = n;
            } else {
                np.filter.cost_min = n;
            }
            rest = rest[..c.get(0).expect("match").start()].to_string();
        }
        // The noun itself.
        let mut ws: Vec<&str> = rest.split(' ').filter(|w| !w.is_empty()).collect();
        if ws.first() == Some(&"opposing") {
            np.filter.whose = Whose::Opposing;
            ws.remove(0);
        }
        let mut j = 0;
        while j < ws.len() {
            let w = ws[j];
            let sing = w.strip_suffix('s').unwrap_or(w);
            match sing {
                "Character" => np.filter.kinds |= fkind::CHARACTER,
                "Permanent" => np.filter.kinds |= fkind::PERMANENT,
                "Spell" => np.filter.kinds |= fkind::SPELL,
                "card" => np.filter.kinds |= fkind::CARD,
                "Landmark" => {
                    np.filter.kinds |= fkind::LANDMARK;
                    if ws.get(j + 1).is_some_and(|n| n.starts_with("Permanent")) {
                        j += 1;
                    }
                }
                "Expedition" if ws.get(j + 1).is_some_and(|n| n.starts_with("Permanent")) => {
                    np.filter.kinds |= fkind::EXP_PERMANENT;
                    j += 1;
                }
                "or" if ws.get(j + 1).is_some_and(|n| {
                    matches!(
                        n.strip_suffix('s').unwrap_or(n),
                        "Character" | "Permanent" | "Spell" | "Landmark" | "card"
                    )
                }) && np.filter.kinds != 0 => {}
                "token" => np.filter.token = Some(true),
                "non-token" => np.filter.token = Some(false),
                "[[Boosted]]" => np.filter.boosted = Some(true),
                "exhausted" => np.filter.exhausted = Some(true),
                "[[Fleeting]]" => np.filter.with |= kw::FLEETING,
                "[[Asleep]]" => np.filter.with |= kw::ASLEEP,
                "[[Anchored]]" => np.filter.with |= kw::ANCHORED,
                _ => {
                    let low = w.to_ascii_lowercase();
                    let lows = sing.to_ascii_lowercase();
                    let bit = self
                        .db
                        .subtype_names
                        .iter()
                        .position(|n| *n == low || *n == lows);
                    match bit {
                        Some(b) if w.chars().next().is_some_and(|c| c.is_uppercase()) => {
                            np.filter.subtypes |= 1u64 << b;
                        }
                        _ => return bad(),
                    }
                }
            }
            j += 1;
        }
        if np.filter.kinds == 0 {
            if np.filter.subtypes != 0 || np.filter.token.is_some() {
                np.filter.kinds = fkind::CHARACTER;
            } else {
                return bad();
            }
        }
        Ok(np)
    }
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

/// The text without reminder text, with plain quotes and single spaces.
pub fn clean(text: &str) -> String {
    // Not reminder text: how a card enters the Mana zone.
    let t = text
        .replace(" (as an exhausted Mana Orb)", " as an exhausted Mana Orb")
        .replace(" (as exhausted Mana Orbs)", " as exhausted Mana Orbs");
    let t = REMINDER.replace_all(&t, "");
    // Long set phrases become short marks (the patterns below read the marks).
    let t = t
        .replace("the top card of your deck", "@topdeck")
        .replace("the top card of their deck", "@theirtopdeck")
        .replace(" as an exhausted Mana Orb", " @exhausted_orb")
        .replace(" as exhausted Mana Orbs", " @exhausted_orbs")
        .replace("from the Expedition zone", "@from_exp")
        .replace("from your deck or hand", "@from_deck_or_hand")
        .replace("fails to move forward during Dusk", "@fails_at_dusk")
        .replace("moves forward due to", "@moves_due")
        .replace("to reduce my cost by", "@reduce_cost_by")
        .replace("I begin the game with", "@begin_with")
        .replace("Terrain Marker", "@marker")
        .replace("a card from your Reserve", "@reserve_card")
        .replace("in target opponent's Landmarks", "@opp_landmarks")
        .replace("in target player's Landmarks", "@player_landmarks")
        .replace(
            "play exhausted cards from your Reserve",
            "play exhausted cards @from_your_reserve",
        )
        .replace("You can only activate this", "@only_activate")
        .replace("during the Afternoon", "@in_afternoon")
        .replace("don't prevent it from moving forward", "@no_block")
        .replace(
            "the Expedition facing it can't move forward",
            "@facing_it_blocked",
        )
        .replace("even when not in play", "@even_out_of_play")
        .replace("If I would gain", "@would_gain")
        .replace("I can't be played if", "@cant_play_if")
        .replace(", where X is the number of", " @x_is_count_of")
        .replace(
            "regions between your Hero and Companion",
            "@regions_between",
        )
        .replace(
            "abilities of Characters facing me can't activate",
            "@silenced_facing",
        )
        .replace("If I would leave the Expedition zone", "@would_leave")
        .replace("in my owner's Mana zone", "@owners_mana")
        .replace("one or more cards or does [Resupply]", "@cards_or_resupply")
        .replace("a card from their hand", "@their_hand_card")
        .replace("a card from your hand", "@hand_card")
        .replace("moves backwards one region", "@moves_back")
        .replace("moves forward one region", "@moves_forward");
    let t = t.replace(['’', '‘'], "'").replace('\u{a0}', " ");
    let t = t.replace(" .", ".");
    SPACES.replace_all(t.trim(), " ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_sentences_and_bullets() {
        let s = sentences("{J} Choose one: • Draw a card. • [Resupply]. At Noon — Draw a card.");
        assert_eq!(
            s,
            [
                "{J} Choose one:",
                "• Draw a card.",
                "• [Resupply].",
                "At Noon — Draw a card."
            ]
        );
    }
}
