//! The objects a sentence names: "target Character", "each Spell you control", "up to
//! two target Permanents with Hand Cost {3} or less".

use regex::Regex;

use super::super::norm::{filter_str, target_str};
use super::{Np, Quant, Reader, num_word};
use crate::cards::effect::{Filter, Where, Whose, fkind, fzone};
use crate::cards::types::kw;

rx!(BASE_COST, r" with Base Cost \{(\d+)\} or (less|more)$");
rx!(HAND_COST, r" with Hand Cost \{(\d+)\} or (less|more)$");

const YOURS: Option<Whose> = Some(Whose::Yours);
const OPPOSING: Option<Whose> = Some(Whose::Opposing);
const RESERVE: Option<u8> = Some(fzone::RESERVE);

/// A trailing qualifier of a noun phrase: the words, and the controller, zones or place
/// they set.
type Qualifier = (&'static str, Option<Whose>, Option<u8>, Option<Where>);

/// The trailing qualifiers, in the order they are tried (the first that ends the phrase is
/// taken off).
const QUALIFIERS: [Qualifier; 18] = [
    (
        " in Expedition or in Reserve",
        None,
        Some(fzone::EXPEDITION | fzone::RESERVE),
        None,
    ),
    (
        " in play or in Reserve",
        None,
        Some(fzone::IN_PLAY | fzone::RESERVE),
        None,
    ),
    (" you control", YOURS, None, None),
    (" an opponent controls", OPPOSING, None, None),
    (" target opponent controls", OPPOSING, None, None),
    (" your opponents control", OPPOSING, None, None),
    (" in Reserve", None, RESERVE, None),
    (" from your Reserve", YOURS, RESERVE, None),
    (" in your Reserve", YOURS, RESERVE, None),
    (" in an opponent's Reserve", OPPOSING, RESERVE, None),
    (" in any Reserve", Some(Whose::Any), RESERVE, None),
    (" in each player's Reserve", Some(Whose::Any), RESERVE, None),
    (" from a Reserve", Some(Whose::Any), RESERVE, None),
    (" in my Expedition", None, None, Some(Where::MyExpedition)),
    (
        " in the Expedition facing me",
        None,
        None,
        Some(Where::FacingMe),
    ),
    // Only a Gigantic card faces more than one Expedition: every opposing one.
    (" in the Expeditions facing me", OPPOSING, None, None),
    (" facing me", None, None, Some(Where::FacingMe)),
    (" in your Expeditions", YOURS, None, None),
];

/// Takes a trailing cost bound ("with Hand Cost {3} or less", by `rx`) off `rest` into
/// the filter; whether there was one.
fn cost_bound(rest: &mut String, f: &mut Filter, rx: &Regex) -> bool {
    let Some(c) = rx.captures(rest) else {
        return false;
    };
    let n: u8 = c[1].parse().unwrap_or(0);
    if &c[2] == "less" {
        f.cost_max = n;
    } else {
        f.cost_min = n;
    }
    let start = c.get(0).expect("match").start();
    rest.truncate(start);
    true
}

impl Reader<'_> {
    /// An object of an effect: `me`, `it`, a target or every object of a kind.
    pub(super) fn obj(&self, s: &str) -> Result<(String, Option<Np>), String> {
        let t = s.trim();
        match t {
            "I" | "me" => return Ok(("me".into(), None)),
            "it" | "It" | "them" | "they" | "They" | "that Character" | "That Character" => {
                return Ok(("it".into(), None));
            }
            _ => {}
        }
        let np = self.noun(t, Whose::Any)?;
        let f = filter_str(&np.filter, self.ctx);
        Ok(match np.quant {
            Quant::Target => (target_str(&f, np.min, np.max, false, &np.total), Some(np)),
            Quant::Each => (format!("each({f})"), Some(np)),
            Quant::A => return Err(format!("an object '{t}'")),
        })
    }

    /// A noun phrase: how many and which objects.
    pub fn noun(&self, s: &str, default_whose: Whose) -> Result<Np, String> {
        if let Some(np) = crate::cards::textread::forms::noun(self, s) {
            return np;
        }
        if let Some(np) = self.cd_noun(s) {
            return np;
        }
        let bad = || Err(format!("an object '{s}'"));
        // "up to two targets, Characters or Permanents": "up to two target Characters or
        // Permanents".
        rx!(TARGETS_COMMA, r"^(up to \w+) targets, (.+)$");
        if let Some(c) = TARGETS_COMMA.captures(s) {
            return self.noun(&format!("{} target {}", &c[1], &c[2]), default_whose);
        }
        let expanded = s.replace("@reserve_card", "a card from your Reserve");
        let s = expanded.as_str();
        let mut words: Vec<&str> = s.split(' ').collect();
        let mut np = Np {
            quant: Quant::A,
            min: 1,
            max: 1,
            total: String::new(),
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
        if matches!(w0, "any" | "Any")
            && words.get(1) == Some(&"number")
            && words.get(2) == Some(&"of")
            && words.get(3) == Some(&"target")
        {
            np.min = 0;
            np.max = 16;
            np.quant = Quant::Target;
            i = 4;
        } else if (w0 == "up" || w0 == "Up") && words.get(1) == Some(&"to") {
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
        } else if matches!(w0, "another" | "Another") && words.get(1) == Some(&"target") {
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
        if np.quant == Quant::Target && words.get(i) == Some(&"another") {
            np.filter.other = true;
            i += 1;
        }
        if words.get(i) == Some(&"other") {
            np.filter.other = true;
            i += 1;
        }
        words.drain(..i);
        let rest = words.join(" ");
        // Trailing qualifiers.
        let mut rest = rest.as_str().to_string();
        if cost_bound(&mut rest, &mut np.filter, &BASE_COST) {
            np.filter.base_cost = true;
        }
        cost_bound(&mut rest, &mut np.filter, &HAND_COST);
        // A total Hand Cost of {5} or less, a total {M} of 4 or less.
        rx!(
            TOTAL,
            r" with (?:a total Hand Cost \{(\d+)\}|total (\{[VMO]\}) of (\d+)) or less$"
        );
        if let Some(c) = TOTAL.captures(&rest) {
            np.total = match (c.get(1), c.get(2), c.get(3)) {
                (Some(n), _, _) => format!(" total_cost<={}", n.as_str()),
                (_, Some(t), Some(n)) => {
                    let of = match t.as_str() {
                        "{V}" => 1,
                        "{M}" => 2,
                        _ => 3,
                    };
                    format!(" total{of}<={}", n.as_str())
                }
                _ => return bad(),
            };
            let start = c.get(0).expect("match").start();
            rest.truncate(start);
        }
        rx!(STAT_MAX, r" with no statistic over (\d+)$");
        if let Some(c) = STAT_MAX.captures(&rest) {
            np.filter.stat_max = c[1].parse().unwrap_or(0);
            let start = c.get(0).expect("match").start();
            rest.truncate(start);
        }
        if let Some(r) = rest.strip_suffix(" with a base statistic of 0") {
            rest = r.to_string();
            np.filter.zero_stat = Some(true);
        }
        for (suffix, whose, zones, place) in QUALIFIERS {
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
        cost_bound(&mut rest, &mut np.filter, &HAND_COST);
        // "in {V}": in a region with that terrain.
        for (mark, t) in [
            (" in {V}", crate::cards::types::terrain::FOREST),
            (" in {M}", crate::cards::types::terrain::MOUNTAIN),
            (" in {O}", crate::cards::types::terrain::WATER),
        ] {
            if let Some(r) = rest.strip_suffix(mark) {
                rest = r.to_string();
                np.filter.region_terrain = t;
            }
        }
        // The noun itself.
        // "[[Fleeting]], [[Anchored]] or [[Asleep]] Character": a list of statuses.
        let mut ws: Vec<&str> = rest
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(|w| {
                if w.starts_with("[[") {
                    w.trim_end_matches(',')
                } else {
                    w
                }
            })
            .collect();
        if ws.first() == Some(&"opposing") {
            np.filter.whose = Whose::Opposing;
            ws.remove(0);
        }
        let mut j = 0;
        // "an Artist or Song": of any card kind that carries one of the subtypes.
        let mut either_subtype = false;
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
                "or" if ws.get(j + 1).is_some_and(|n| {
                    matches!(*n, "[[Fleeting]]" | "[[Asleep]]" | "[[Anchored]]")
                }) && np.filter.with != 0 => {}
                // "an Artist or Song": either subtype (a filter's subtypes are any of).
                "or" if np.filter.subtypes != 0
                    && np.filter.kinds == 0
                    && ws.get(j + 1).is_some_and(|n| {
                        let low = n.to_ascii_lowercase();
                        let lows = low.strip_suffix('s').unwrap_or(&low).to_string();
                        n.starts_with(|c: char| c.is_uppercase())
                            && self
                                .db
                                .subtype_names
                                .iter()
                                .any(|s| *s == low || *s == lows)
                    }) =>
                {
                    either_subtype = true;
                }
                "token" => np.filter.token = Some(true),
                // "non-Fleeting Character": without that status.
                "non-Fleeting" => np.filter.without |= kw::FLEETING,
                // "non-Illusion Character": of no such subtype.
                _ if w.starts_with("non-") && w != "non-token" => {
                    let low = w["non-".len()..].to_ascii_lowercase();
                    match self.db.subtype_names.iter().position(|n| *n == low) {
                        Some(b) => np.filter.not_subtypes |= 1u64 << b,
                        None => return bad(),
                    }
                }
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
        if np.filter.kinds == 0 && either_subtype {
            np.filter.kinds = fkind::CARD;
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
