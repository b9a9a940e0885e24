//! The normal form both sides are reduced to: an ability is a trigger and a tree of steps,
//! each effect a canonical string built by the helpers below (the same helpers render what
//! the text reader read and what the compiled encoding does, so equal strings mean equal
//! meaning at the level of detail the normal form keeps).
//!
//! Layer: part of [`crate::cards`]; may use `error` and nothing else of the crate.

use std::fmt;

use crate::cards::CardDb;
use crate::cards::effect::{Filter, Whose, fkind, fzone};
use crate::cards::types::{CardKind, kw, terrain};

/// One ability in normal form.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NAbility {
    /// Works from Reserve (a support ability: {D}, the ∞ abilities).
    pub support: bool,
    pub trigger: String,
    pub body: Vec<NStep>,
}

/// One step of an ability body.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum NStep {
    Op(String),
    May(Vec<NStep>),
    Pay(String, Vec<NStep>),
    If(String, Vec<NStep>, Vec<NStep>),
    Choose(Vec<Vec<NStep>>),
    /// A die roll and its branches (lo, hi, body); none for a bare roll.
    Roll(Vec<(u8, u8, Vec<NStep>)>),
    Repeat(String, Vec<NStep>),
}

impl fmt::Display for NAbility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.support {
            write!(f, "support ")?;
        }
        write!(f, "{}:", self.trigger)?;
        write_steps(f, &self.body)
    }
}

fn write_steps(f: &mut fmt::Formatter<'_>, steps: &[NStep]) -> fmt::Result {
    for (i, s) in steps.iter().enumerate() {
        write!(f, "{}", if i == 0 { " " } else { "; " })?;
        match s {
            NStep::Op(o) => write!(f, "{o}")?,
            NStep::May(b) => {
                write!(f, "may {{")?;
                write_steps(f, b)?;
                write!(f, " }}")?;
            }
            NStep::Pay(c, b) => {
                write!(f, "pay({c}) {{")?;
                write_steps(f, b)?;
                write!(f, " }}")?;
            }
            NStep::If(c, t, e) => {
                write!(f, "if {c} {{")?;
                write_steps(f, t)?;
                write!(f, " }}")?;
                if !e.is_empty() {
                    write!(f, " else {{")?;
                    write_steps(f, e)?;
                    write!(f, " }}")?;
                }
            }
            NStep::Choose(modes) => {
                write!(f, "choose")?;
                for m in modes {
                    write!(f, " {{")?;
                    write_steps(f, m)?;
                    write!(f, " }}")?;
                }
            }
            NStep::Roll(br) => {
                write!(f, "roll")?;
                for (lo, hi, b) in br {
                    write!(f, " [{lo}-{hi}:")?;
                    write_steps(f, b)?;
                    write!(f, " ]")?;
                }
            }
            NStep::Repeat(n, b) => {
                write!(f, "repeat {n} {{")?;
                write_steps(f, b)?;
                write!(f, " }}")?;
            }
        }
    }
    Ok(())
}

/// What the normal form reads from the card table: subtype names, and which card kinds
/// carry each subtype (a "Plant" is only ever a Character, say).
pub struct Ctx<'a> {
    pub db: &'a CardDb,
    pub sub_kinds: Vec<u8>,
}

impl<'a> Ctx<'a> {
    pub fn new(db: &'a CardDb) -> Ctx<'a> {
        let mut sub_kinds = vec![0u8; db.subtype_names.len()];
        for c in db.cards.iter().filter(|c| c.pool_index.is_some()) {
            let k = match c.kind {
                CardKind::Character | CardKind::Token => fkind::CHARACTER,
                CardKind::Spell => fkind::SPELL,
                CardKind::Landmark => fkind::LANDMARK,
                CardKind::ExpeditionPermanent => fkind::EXP_PERMANENT,
                _ => 0,
            };
            for (i, sk) in sub_kinds.iter_mut().enumerate() {
                if c.subtypes & (1u64 << i) != 0 {
                    *sk |= k;
                }
            }
        }
        Ctx { db, sub_kinds }
    }

    /// A filter's kinds narrowed to those that carry its subtypes.
    fn narrow(&self, mut f: Filter) -> Filter {
        if f.subtypes != 0 {
            let allowed = self
                .sub_kinds
                .iter()
                .enumerate()
                .filter(|(i, _)| f.subtypes & (1u64 << i) != 0)
                .fold(0u8, |a, (_, k)| a | k);
            if f.kinds & allowed != 0 {
                f.kinds &= allowed;
            }
        }
        f
    }
}

/// The filter with equivalent spellings made equal: a character (or token) "in play" is in
/// an expedition, a Landmark in play is in the Landmarks.
pub fn canon(mut f: Filter) -> Filter {
    if f.kinds & !(fkind::CHARACTER | fkind::TOKEN) == 0 && f.zones & fzone::LANDMARKS != 0 {
        f.zones &= !fzone::LANDMARKS;
        f.zones |= fzone::EXPEDITION;
    }
    if f.kinds == fkind::LANDMARK && f.zones & fzone::EXPEDITION != 0 {
        f.zones &= !fzone::EXPEDITION;
        f.zones |= fzone::LANDMARKS;
    }
    if f.kinds & fkind::TOKEN != 0 && f.kinds & fkind::CHARACTER != 0 {
        f.kinds &= !fkind::TOKEN;
        f.token = Some(true);
    }
    f
}

/// A compact, injective rendering of a (canonical) filter: every field that differs from
/// the default.
pub fn filter_str(f: &Filter, ctx: &Ctx) -> String {
    let subtype_names = &ctx.db.subtype_names;
    let f = canon(ctx.narrow(*f));
    let d = Filter::default();
    let mut out: Vec<String> = Vec::new();
    let kinds = [
        (fkind::CHARACTER, "character"),
        (fkind::LANDMARK, "landmark"),
        (fkind::EXP_PERMANENT, "exp_permanent"),
        (fkind::SPELL, "spell"),
        (fkind::TOKEN, "token_kind"),
        (fkind::HERO, "hero"),
    ];
    out.push(
        kinds
            .iter()
            .filter(|(b, _)| f.kinds & b != 0)
            .map(|(_, n)| *n)
            .collect::<Vec<_>>()
            .join("|"),
    );
    out.push(
        match f.whose {
            Whose::Any => "any",
            Whose::Yours => "yours",
            Whose::Opposing => "opposing",
        }
        .into(),
    );
    let zones = [
        (fzone::EXPEDITION, "exp"),
        (fzone::LANDMARKS, "landmarks"),
        (fzone::RESERVE, "reserve"),
        (fzone::HAND, "hand"),
        (fzone::DECK, "deck"),
    ];
    out.push(format!(
        "in:{}",
        zones
            .iter()
            .filter(|(b, _)| f.zones & b != 0)
            .map(|(_, n)| *n)
            .collect::<Vec<_>>()
            .join("|")
    ));
    if f.place != d.place {
        out.push(format!("place:{:?}", f.place));
    }
    let names = |bits: u64| {
        subtype_names
            .iter()
            .enumerate()
            .filter(|(i, _)| bits & (1u64 << i) != 0)
            .map(|(_, s)| s.as_str())
            .collect::<Vec<_>>()
            .join("|")
    };
    if f.subtypes != 0 {
        out.push(format!("sub:{}", names(f.subtypes)));
    }
    if f.not_subtypes != 0 {
        out.push(format!("not_sub:{}", names(f.not_subtypes)));
    }
    let cost = if f.base_cost { "base_cost" } else { "cost" };
    if f.cost_min != d.cost_min {
        out.push(format!("{cost}>={}", f.cost_min));
    }
    if f.cost_max != d.cost_max {
        out.push(format!("{cost}<={}", f.cost_max));
    }
    if f.base_cost && f.cost_min == d.cost_min && f.cost_max == d.cost_max {
        out.push("base_cost".into());
    }
    if f.stat_max != d.stat_max {
        out.push(format!("stats<={}", f.stat_max));
    }
    if f.cost_max_x != d.cost_max_x {
        out.push(format!("cost<=x+{}", f.cost_max_x));
    }
    if f.with != 0 {
        out.push(format!("with:{}", kw::describe(f.with).join("|")));
    }
    if f.without != 0 {
        out.push(format!("without:{}", kw::describe(f.without).join("|")));
    }
    let flags: [(&str, bool); 6] = [
        ("other", f.other),
        ("ascended", f.ascended),
        ("single_terrain", f.single_terrain),
        ("zero_stat_here", f.zero_stat_here),
        ("in_behind", f.in_behind),
        ("", false),
    ];
    for (n, v) in flags {
        if v {
            out.push(n.into());
        }
    }
    let opt = |n: &str, v: Option<bool>, out: &mut Vec<String>| {
        if let Some(b) = v {
            out.push(format!("{}{n}", if b { "" } else { "not_" }));
        }
    };
    opt("token", f.token, &mut out);
    opt("boosted", f.boosted, &mut out);
    opt("countered", f.countered, &mut out);
    opt("exhausted", f.exhausted, &mut out);
    opt("zero_stat", f.zero_stat, &mut out);
    opt("from_reserve", f.from_reserve, &mut out);
    if f.region_terrain != 0 {
        out.push(format!("region:{}", terrain::describe(f.region_terrain)));
    }
    out.join(" ")
}

/// A target: `min..=max` objects matching the filter.
pub fn target_str(filter: &str, min: u8, max: u8, by_opponent: bool, total: &str) -> String {
    format!(
        "target[{min}-{max}{}{}]({filter})",
        if by_opponent { " by_opponent" } else { "" },
        total
    )
}

/// An op: a name and its arguments.
pub fn op(name: &str, args: &[&str]) -> NStep {
    NStep::Op(format!("{name}({})", args.join(", ")))
}
