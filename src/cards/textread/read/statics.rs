//! Static abilities: one sentence that holds while the card is in play (or, for a few,
//! from the start of the game).

use super::super::norm::{NAbility, NStep, filter_str, op};
use super::super::reduce::cmp_str;
use super::{Patterns, Quant, Reader, num_word};
use crate::cards::effect::{Cmp, Filter, Whose, fkind, fzone};

/// A static ability's trigger and body.
type Static = (String, Vec<NStep>);

fn st(t: &str) -> Static {
    (format!("static {t}"), Vec::new())
}

fn st_if(t: &str, c: &str) -> Static {
    (
        format!("static {t}"),
        vec![NStep::If(c.to_string(), Vec::new(), Vec::new())],
    )
}

/// Static abilities that name objects or numbers.
static STATICS: Patterns<Static> = Patterns::new(&[
    (r"^(.+?) are \[Tough (\d+)\]$", |r, c| {
        let f = r.noun(&c[1], Whose::Yours)?;
        Ok((f.quant == Quant::Each).then(|| {
            st(&format!(
                "tough_aura({}, {})",
                filter_str(&f.filter, r.ctx),
                &c[2]
            ))
        }))
    }),
    (
        r"^@begin_with (\d+|one|two|three|four|five) [A-Z][a-z]+ counters?$",
        |_, c| {
            Ok(Some(st(&format!(
                "StartCounters({})",
                num_word(&c[1]).unwrap_or(0)
            ))))
        },
    ),
    (
        r"^You may discard @reserve_card @reduce_cost_by \{(\d+)\}$",
        |_, c| Ok(Some(st(&format!("DiscardDiscount({})", &c[1])))),
    ),
    (
        r"^(.+?) your opponents play can't cost less than \{(\d+)\}$",
        |r, c| {
            let mut f = r.noun(&format!("a {}", &c[1]), Whose::Opposing)?.filter;
            f.whose = Whose::Opposing;
            Ok(Some(st(&format!(
                "min_cost_opponent({}, {})",
                filter_str(&f, r.ctx),
                &c[2]
            ))))
        },
    ),
    (
        r"^@cant_play_if you have less than (\w+) Mana Orbs$",
        |_, c| {
            let n = num_word(&c[1]).ok_or("a number")?;
            Ok(Some(st_if("PlayableIf", &cmp_str("ManaOrbs", Cmp::Ge, n))))
        },
    ),
    (
        r"^The first (.+?) you play each Afternoon gains (\d+) boosts?$",
        |r, c| {
            let f = r.noun(&format!("a {}", &c[1]), Whose::Yours)?;
            Ok(Some((
                format!("when play_first({})", r.event(f.filter)),
                vec![op("boost", &["it", &c[2]])],
            )))
        },
    ),
    (
        r"^(.+?) you play(?: with Hand Cost \{(\d+)\} or less)? have \[\[(Fleeting)\]\]$",
        |r, c| {
            let mut f = r.noun(&format!("a {}", &c[1]), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            if let Some(n) = c.get(2) {
                f.cost_max = n.as_str().parse().unwrap_or(0);
            }
            Ok(Some(st(&format!(
                "aura({}, {})",
                filter_str(&f, r.ctx),
                c[3].to_ascii_lowercase()
            ))))
        },
    ),
    // Boosted token Characters of yours are Defenders, maybe only while a condition holds.
    (
        r"^(?:If (.+?), )?\[\[Boosted\]\] tokens you control are \[Defender\]$",
        |r, c| {
            let f = Filter {
                kinds: fkind::CHARACTER,
                whose: Whose::Yours,
                zones: fzone::EXPEDITION,
                token: Some(true),
                boosted: Some(true),
                ..Filter::default()
            };
            let t = format!("aura({}, defender)", filter_str(&f, r.ctx));
            Ok(Some(match c.get(1) {
                Some(cond) => st_if(&t, &r.cond(cond.as_str())?),
                None => st(&t),
            }))
        },
    ),
    (
        r"^You may sacrifice a Permanent @reduce_cost_by \{(\d+)\}$",
        |_, c| Ok(Some(st(&format!("SacrificeDiscount({})", &c[1])))),
    ),
    (r"^Play me for \{(\d+)\} less if (.+)$", |r, c| {
        let cond = r.cond(&c[2])?;
        Ok(Some(st_if(&format!("Cost(-{})", &c[1]), &cond)))
    }),
    (
        r"^(?:If (.+?), y|Y)our Reserve limit is increased by one$",
        |r, c| match c.get(1) {
            Some(cond) => Ok(Some(st_if("YourReserveLimit(1)", &r.cond(cond.as_str())?))),
            None => Ok(Some(st("YourReserveLimit(1)"))),
        },
    ),
    (
        r"^My region is (\{[VMO]\}) in addition to its other terrains$",
        |_, c| {
            let t = super::conds::terrain_of(&c[1]).ok_or("a terrain")?;
            Ok(Some(st(&format!("TerrainAdd({t})"))))
        },
    ),
    (
        r"^My region and the region\x20of the Expedition facing me are (\{[VMO]\}) and lose their other terrains$",
        |_, c| {
            let t = super::conds::terrain_of(&c[1]).ok_or("a terrain")?;
            Ok(Some(st(&format!("TerrainSet({t})"))))
        },
    ),
    (
        r"^All regions are (\{[VMO]\}) and lose their other terrains$",
        |_, c| {
            let t = super::conds::terrain_of(&c[1]).ok_or("a terrain")?;
            Ok(Some(st(&format!("AllRegions({t})"))))
        },
    ),
    (
        r"^The \{V\}, \{M\} and \{O\} of (.+?) are equal to their highest statistic$",
        |r, c| {
            let mut f = r.noun(&format!("each {}", &c[1]), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            Ok(Some(st(&format!("level_stats({})", filter_str(&f, r.ctx)))))
        },
    ),
    (
        r"^I am \[(Defender)\] unless you control (\w+) or more (.+)$",
        |r, c| {
            let n = num_word(&c[2]).ok_or("a number")?;
            let mut f = r.noun(&format!("a {}", &c[3]), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            let cond = cmp_str(&format!("count({})", filter_str(&f, r.ctx)), Cmp::Lt, n);
            Ok(Some(st_if(
                &format!("keyword({})", c[1].to_ascii_lowercase()),
                &cond,
            )))
        },
    ),
    // "If I'm [[Boosted]], I'm [Eternal]": the keyword while the condition holds.
    (
        r"^If (.+?), (?:I'm|I am) \[(Eternal|Defender)\]$",
        |r, c| {
            let cond = r.cond(&c[1])?;
            Ok(Some(st_if(
                &format!("keyword({})", c[2].to_ascii_lowercase()),
                &cond,
            )))
        },
    ),
    (r"^If (.+?), I cost \{(\d+)\} less$", |r, c| {
        let cond = r.cond(&c[1])?;
        Ok(Some(st_if(&format!("Cost(-{})", &c[2]), &cond)))
    }),
    (r"^I cost \{(\d+)\} less if (.+)$", |r, c| {
        let cond = r.cond(&c[2])?;
        Ok(Some(st_if(&format!("Cost(-{})", &c[1]), &cond)))
    }),
    (
        r"^I cost \{(\d+)\} less for each of your Ascended Expeditions$",
        |_, c| Ok(Some(st(&format!("cost_per(-{}, AscendedExps)", &c[1])))),
    ),
    // "You may play X for {N} less[, down to a minimum of {M}][ if their Base Cost is
    // {K} or more]", under a condition or not.
    (
        r"^(?:If (.+?), y|Y)ou may play (.+?) for \{(\d+)\} less(?:, down to a minimum of \{(\d+)\})?(?: if their Base Cost is \{(\d+)\} or more)?$",
        |r, c| {
            let what = c[2].to_string();
            let (what, from_reserve) = match what.strip_suffix(" from your Reserve") {
                Some(w) => (w.to_string(), true),
                None => (what, false),
            };
            if what == "me" {
                return Ok(None);
            }
            let mut f = r.noun(&format!("a {what}"), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            if from_reserve {
                f.from_reserve = Some(true);
            }
            if let Some(k) = c.get(5) {
                f.base_cost = true;
                f.cost_min = k.as_str().parse().unwrap_or(0);
            }
            let fs = filter_str(&f, r.ctx);
            let t = match c.get(4) {
                Some(m) => format!("cost_aura({fs}, -{}, min {})", &c[3], m.as_str()),
                None => format!("cost_aura({fs}, -{})", &c[3]),
            };
            Ok(Some(match c.get(1) {
                Some(cond) => st_if(&t, &r.cond(cond.as_str())?),
                None => st(&t),
            }))
        },
    ),
    (
        r"^I cost \{(\d+)\} less to play in an Expedition\x20with no Characters$",
        |_, c| {
            let n: i8 = c[1].parse().unwrap_or(0);
            Ok(Some(st(&format!("CostInEmptyExp({})", -n))))
        },
    ),
    // Tough equal to how many Characters of a subtype you control.
    (
        r"^\[Tough X\] @x_is_count_of ([a-z]+)s you control$",
        |r, c| {
            let count = r.count(&format!("{} you control", super::upper_first(&c[1])))?;
            Ok(Some(st(&format!("tough_x({count})"))))
        },
    ),
    (r"^I cost \{(\d+)\} (less|more)$", |_, c| {
        let n: i8 = c[1].parse().unwrap_or(0);
        let n = if &c[2] == "less" { -n } else { n };
        Ok(Some(st(&format!("Cost({n})"))))
    }),
    // An alternative cost of the Spell itself, whose effect then reads "If you do"
    // (`PaidLess`).
    (r"^You may play me for \{(\d+)\} less$", |_, c| {
        let n: u8 = c[1].parse().map_err(|_| "a cost")?;
        Ok(Some(st(&format!("AltLess({n})"))))
    }),
    // The Darkness facing me, in a region of a terrain, moves forward at Dusk only due to
    // that terrain (the player failed to overcome it there).
    (
        r"^If an Expedition facing me is in (\{[VMO]\}), it can't move\x20forward during Dusk except due to (\{[VMO]\})$",
        |_, c| {
            if c[1] != c[2] {
                return Err(format!("two terrains '{}'", &c[0]));
            }
            let t = super::conds::terrain_of(&c[1]).ok_or("a terrain")?;
            Ok(Some(st(&format!("DarknessOnlyDueTo({t})"))))
        },
    ),
]);

impl Reader<'_> {
    /// A static ability with nothing to read inside.
    fn fixed_static(&self, s: &str) -> Option<Static> {
        Some(match s {
            "[Tough X] @x_is_count_of @regions_between" => st("tough_x(RegionsBetween)"),
            "The {J}, {H} and {R} @silenced_facing" => st("SilenceFacing"),
            "@would_leave, you may put me @owners_mana instead" => st("LeaveToMana { may: true }"),
            "@would_leave while I'm [[Boosted]], put me @owners_mana instead @exhausted_orb" => {
                st_if("LeaveToMana { may: false }", "MeBoosted")
            }
            "During Morning, draw only one card" => st("DrawOneInMorning"),
            "{I} I don't count towards\x20your Reserve limit"
            | "I don't count towards your Reserve limit" => st("NotCountedInReserve"),
            "If you would roll one\x20or more dice, instead roll that many\x20dice plus one and ignore\x20the roll of your choice" => {
                st("ExtraDie")
            }
            "If I'm [In Contact], my {V},\x20{M} and {O} are equal\x20to my highest statistic" => {
                st_if("level_stats(me)", "InContact")
            }
            "You may play me for\x20{2} less in an Expedition that's [In Contact]" => {
                st("CostInContactExp(-2)")
            }
            "You may play exhausted cards @from_your_reserve" => {
                let f = Filter {
                    kinds: fkind::CARD,
                    whose: Whose::Yours,
                    ..Filter::default()
                };
                st(&format!(
                    "play_exhausted({}, false)",
                    filter_str(&f, self.ctx)
                ))
            }
            "@begin_with one {V}, one {M} and one {O} @marker" => st("StartMarkers(7)"),
            "You may keep one more card in\x20Reserve during Night if it's exhausted" => {
                st("ExtraExhaustedReserve")
            }
            "You may play exhausted Characters from\x20your Reserve in my Expedition" => {
                let f = Filter {
                    kinds: fkind::CHARACTER,
                    whose: Whose::Yours,
                    ..Filter::default()
                };
                st(&format!(
                    "play_exhausted({}, true)",
                    filter_str(&f, self.ctx)
                ))
            }
            "If my Expedition is behind, [Defender] Characters @no_block" => {
                st_if("DefenderNoBlock", "Behind")
            }
            "Your other Expedition and @facing_it_blocked" => st("NoForward(Other)"),
            "I'm also considered a Spell, @even_out_of_play" => st("AlsoKind(8)"),
            "@would_gain [[Fleeting]], I gain 1 boost instead" => {
                st("GainInstead { from: 1, to: 0, boosts: 1 }")
            }
            _ => return None,
        })
    }

    /// An ability of one sentence that is neither triggered nor a quick action.
    pub(super) fn static_ability(
        &self,
        g: &[String],
        support: bool,
    ) -> Result<Vec<NAbility>, String> {
        if g.len() != 1 {
            if let Some(v) = self.mo_static_pair(g, support) {
                return v;
            }
            if let Some(v) = self.static_sentences(g, support) {
                return Ok(v);
            }
            return Err(format!("a static ability '{}'", g.join(" ")));
        }
        let s = g[0].trim_end_matches('.');
        // "{I} X": a static that works from Reserve.
        let (s, support) = match s.strip_prefix("{I} ") {
            Some(r) => (r, true),
            None => (s, support),
        };
        if let Some(v) = self.mo_static(s, support) {
            return v;
        }
        if let Some(v) = self.du_static(s, support) {
            return Ok(v);
        }
        let (trigger, body) = match self.fixed_static(s) {
            Some(t) => t,
            None => match STATICS
                .read(self, s)
                .or_else(|| self.cd_static(s))
                .or_else(|| super::alibise::STATICS.read(self, s))
            {
                Some(t) => t?,
                None => return Err(format!("a static ability '{s}'")),
            },
        };
        Ok(vec![NAbility {
            support,
            trigger,
            body,
        }])
    }
}
