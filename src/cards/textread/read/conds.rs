//! Conditions taught for issue 25: the hand, my counters, my terrain, what faces me, the
//! visible regions, base statistics of 0 and cards in Reserve; tried after the first
//! conditions of `body`.

use super::super::norm::filter_str;
use super::super::reduce::cmp_str;
use super::{Patterns, num_word};
use crate::cards::effect::{Cmp, Filter, Where, Whose, fkind, fzone};
use crate::cards::types::terrain;

/// The terrain a `{V}`/`{M}`/`{O}` mark names.
pub(super) fn terrain_of(mark: &str) -> Option<u8> {
    Some(match mark {
        "{V}" => terrain::FOREST,
        "{M}" => terrain::MOUNTAIN,
        "{O}" => terrain::WATER,
        _ => return None,
    })
}

fn n(w: &str) -> Result<i16, String> {
    num_word(w).ok_or_else(|| format!("a number '{w}'"))
}

/// Conditions of "If ..., X" (and of "Unless ..., X", negated by the caller).
pub(super) static MORE_CONDITIONS: Patterns<String> = Patterns::new(&[
    (r"^your hand is empty$", |_, _| {
        Ok(Some(cmp_str("HandSize", Cmp::Eq, 0)))
    }),
    (r"^I have less than (\w+) [A-Z][a-z]+ counters?$", |_, c| {
        Ok(Some(cmp_str("MyCounters", Cmp::Lt, n(&c[1])?)))
    }),
    (r"^I have (\w+) or more [A-Z][a-z]+ counters?$", |_, c| {
        Ok(Some(cmp_str("MyCounters", Cmp::Ge, n(&c[1])?)))
    }),
    (r"^you have less than (\w+) Mana Orbs$", |_, c| {
        Ok(Some(cmp_str("ManaOrbs", Cmp::Lt, n(&c[1])?)))
    }),
    (r"^I'm in (\{[VMO]\})$", |_, c| {
        let t = terrain_of(&c[1]).ok_or("a terrain")?;
        Ok(Some(format!("terrain({})", terrain::describe(t))))
    }),
    (
        r"^(\w+) or more single-terrain regions are visible$",
        |_, c| Ok(Some(cmp_str("SingleTerrainRegions", Cmp::Ge, n(&c[1])?))),
    ),
    (r"^I'm facing a Character$", |r, _| {
        let f = Filter {
            kinds: fkind::CHARACTER,
            whose: Whose::Opposing,
            place: Where::FacingMe,
            ..Filter::default()
        };
        Ok(Some(cmp_str(
            &format!("count({})", filter_str(&f, r.ctx)),
            Cmp::Ge,
            1,
        )))
    }),
    (
        r"^you have (\w+) or more base statistics of\x200 among Characters you control$",
        |r, c| {
            let f = Filter {
                kinds: fkind::CHARACTER,
                whose: Whose::Yours,
                ..Filter::default()
            };
            Ok(Some(cmp_str(
                &format!("zero_stats_of({})", filter_str(&f, r.ctx)),
                Cmp::Ge,
                n(&c[1])?,
            )))
        },
    ),
    (
        r"^there are (\w+) or more (Spells|Characters|cards) in your Reserve$",
        |r, c| {
            let kinds = match &c[2] {
                "Spells" => fkind::SPELL,
                "Characters" => fkind::CHARACTER,
                _ => fkind::CARD,
            };
            let f = Filter {
                kinds,
                whose: Whose::Yours,
                zones: fzone::RESERVE,
                ..Filter::default()
            };
            Ok(Some(cmp_str(
                &format!("count({})", filter_str(&f, r.ctx)),
                Cmp::Ge,
                n(&c[1])?,
            )))
        },
    ),
    (
        r"^it's in a terrain where\x20its base statistic is 0$",
        |r, _| {
            let f = Filter {
                zero_stat_here: true,
                ..Filter::default()
            };
            Ok(Some(format!("it_is({})", filter_str(&f, r.ctx))))
        },
    ),
    // No Character in the Expedition facing me: none there, and no Gigantic one (it is
    // in every Expedition).
    (
        r"^there are no Characters in\x20the Expedition facing me$",
        |r, _| {
            let facing = Filter {
                whose: Whose::Opposing,
                place: Where::FacingMe,
                without: crate::cards::types::kw::GIGANTIC,
                ..Filter::default()
            };
            let gigantic = Filter {
                whose: Whose::Opposing,
                with: crate::cards::types::kw::GIGANTIC,
                ..Filter::default()
            };
            let count =
                |f: &Filter| cmp_str(&format!("count({})", filter_str(f, r.ctx)), Cmp::Eq, 0);
            Ok(Some(format!(
                "({} and {})",
                count(&facing),
                count(&gigantic)
            )))
        },
    ),
    (r"^I'm facing an Expedition in (\{[VMO]\})$", |_, c| {
        let t = terrain_of(&c[1]).ok_or("a terrain")?;
        Ok(Some(format!("FacingTerrain({t})")))
    }),
    (
        r"^(?:an|target) opponent controls (\w+) or more (Characters|Permanents)$",
        |r, c| {
            let kinds = if &c[2] == "Characters" {
                fkind::CHARACTER
            } else {
                fkind::PERMANENT
            };
            let f = Filter {
                kinds,
                whose: Whose::Opposing,
                ..Filter::default()
            };
            Ok(Some(cmp_str(
                &format!("count({})", filter_str(&f, r.ctx)),
                Cmp::Ge,
                n(&c[1])?,
            )))
        },
    ),
    (
        r"^(?:at least one|one or more) of\x20your Expeditions is Ascended$",
        |_, _| Ok(Some(cmp_str("AscendedExps", Cmp::Ge, 1))),
    ),
    (r"^there's an exhausted card in your Reserve$", |r, _| {
        let f = Filter {
            kinds: fkind::CARD,
            whose: Whose::Yours,
            zones: fzone::RESERVE,
            exhausted: Some(true),
            ..Filter::default()
        };
        Ok(Some(cmp_str(
            &format!("count({})", filter_str(&f, r.ctx)),
            Cmp::Ge,
            1,
        )))
    }),
    // Three different Characters of yours, each with its own status.
    (
        r"^you control an? (.+?), another (.+?) and yet another (.+)$",
        |r, c| {
            let mut fs = Vec::new();
            for k in 1..=3 {
                let mut f = r.noun(&format!("a {}", &c[k]), Whose::Yours)?.filter;
                f.whose = Whose::Yours;
                fs.push(filter_str(&f, r.ctx));
            }
            Ok(Some(format!("distinct({})", fs.join("; "))))
        },
    ),
    (
        r"^one or more of\x20your Expeditions are \[In Contact\]$",
        |_, _| Ok(Some(cmp_str("ExpsInContact", Cmp::Ge, 1))),
    ),
]);
