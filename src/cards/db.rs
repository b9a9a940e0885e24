//! The compiled card table every game of a run reads: card facts plus compiled abilities,
//! shared read-only by all threads.
//!
//! Layer: part of [`crate::cards`]; may use `error` and nothing else of the crate.

use std::collections::HashMap;

use super::dsl::{Arena, DslError, Line, Parser};
use super::effect::*;
use super::pool::{CardFacts, CardPool};
use super::types::*;

/// How completely a card's abilities are encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// The card has no ability text.
    NoText,
    /// Every ability is encoded.
    Exact,
    /// Some abilities are encoded; the string says what is missing.
    Partial(String),
    /// Nothing is encoded yet: the card plays with its statistics alone.
    StatsOnly,
}

impl Coverage {
    pub fn is_exact(&self) -> bool {
        matches!(self, Coverage::NoText | Coverage::Exact)
    }

    pub fn class(&self) -> &'static str {
        match self {
            Coverage::NoText | Coverage::Exact => "exact",
            Coverage::Partial(_) => "partial",
            Coverage::StatsOnly => "stats-only",
        }
    }
}

/// One card as the engine sees it.
#[derive(Clone, Debug)]
pub struct CardDef {
    pub reference: String,
    pub name: String,
    pub set: String,
    pub faction: Faction,
    pub rarity: Rarity,
    pub kind: CardKind,
    pub subtypes: u64,
    pub hand_cost: u8,
    pub reserve_cost: u8,
    pub stats: Stats,
    /// Printed keywords (`kw` bits).
    pub keywords: u32,
    pub tough: u8,
    pub scout: u8,
    /// Confluence cards: which player expedition it faces when played.
    pub placement: Placement,
    /// Confluence cards: which Darkness it advances as the Midnight card.
    pub midnight: Placement,
    pub reserve_limit: u8,
    pub landmark_limit: u8,
    /// `abilities[ab_start..ab_start+ab_len]` of the db.
    pub ab_start: u16,
    pub ab_len: u16,
    /// Union of `Trigger::mask_bit` over the card's abilities.
    pub trigger_mask: u32,
    /// Union of `EventKind::fire_classes` over the card's "When ..." abilities.
    pub fire_mask: u32,
    /// `fkind` bits of the kinds a static adds ("I'm also considered a Spell").
    pub also_kinds: u8,
    pub coverage: Coverage,
    /// The encoding lines, for display.
    pub lines: Vec<String>,
    /// Index into the pool when the card comes from it.
    pub pool_index: Option<usize>,
}

impl CardDef {
    /// A hero card made outside the pool (the Confluence's, a scenario's): no statistics,
    /// no abilities yet, only its limits.
    pub fn hero(
        reference: String,
        name: String,
        set: &str,
        faction: Faction,
        reserve_limit: u8,
        landmark_limit: u8,
    ) -> CardDef {
        CardDef {
            reference,
            name,
            set: set.into(),
            faction,
            rarity: Rarity::Common,
            kind: CardKind::Hero,
            subtypes: 0,
            hand_cost: 0,
            reserve_cost: 0,
            stats: Stats::ZERO,
            keywords: 0,
            tough: 0,
            scout: 0,
            placement: Placement::Threatened,
            midnight: Placement::Threatened,
            reserve_limit,
            landmark_limit,
            ab_start: 0,
            ab_len: 0,
            trigger_mask: 0,
            fire_mask: 0,
            also_kinds: 0,
            coverage: Coverage::Exact,
            lines: Vec::new(),
            pool_index: None,
        }
    }

    pub fn is_unique(&self) -> bool {
        self.rarity == Rarity::Unique
    }
}

/// Compiled cards and the arenas their abilities point into.
#[derive(Debug, Default, Clone)]
pub struct CardDb {
    pub cards: Vec<CardDef>,
    pub abilities: Vec<Ability>,
    pub ops: Vec<Op>,
    pub filters: Vec<Filter>,
    pub conds: Vec<Cond>,
    pub subtype_names: Vec<String>,
    by_ref: HashMap<String, CardIdx>,
    token_by_name: HashMap<String, CardIdx>,
    /// The ability a card played with Scout gains: "{H}: send me to Reserve".
    pub scout_ability: u16,
}

/// Raised while compiling one card's encoding.
#[derive(Debug)]
pub struct EncodingError {
    pub reference: String,
    pub line: usize,
    pub source_line: String,
    pub err: DslError,
}

impl CardDb {
    pub fn new() -> CardDb {
        CardDb {
            conds: vec![Cond::True],
            ops: vec![Op::Move {
                obj: ObjRef::Me,
                dest: Dest::Reserve,
            }],
            abilities: vec![Ability {
                trigger: Trigger::Played(PlayFrom::Hand),
                active: ActiveIn::Play,
                cond: 0,
                start: 0,
                len: 1,
                line: u8::MAX,
            }],
            scout_ability: 0,
            ..Default::default()
        }
    }

    #[inline]
    pub fn card(&self, idx: CardIdx) -> &CardDef {
        &self.cards[idx as usize]
    }

    #[inline]
    pub fn abilities_of(&self, idx: CardIdx) -> &[Ability] {
        let c = &self.cards[idx as usize];
        &self.abilities[c.ab_start as usize..(c.ab_start + c.ab_len) as usize]
    }

    #[inline]
    pub fn op(&self, ab: &Ability, pc: u16) -> Op {
        self.ops[(ab.start + pc) as usize]
    }

    #[inline]
    pub fn filter(&self, id: FilterId) -> &Filter {
        &self.filters[id as usize]
    }

    #[inline]
    pub fn cond(&self, id: CondId) -> Cond {
        self.conds[id as usize]
    }

    pub fn by_ref(&self, reference: &str) -> Option<CardIdx> {
        self.by_ref.get(reference).copied()
    }

    pub fn subtype_names(&self, bits: u64) -> Vec<&str> {
        self.subtype_names
            .iter()
            .enumerate()
            .filter(|(i, _)| bits & (1u64 << i) != 0)
            .map(|(_, s)| s.as_str())
            .collect()
    }

    /// The bit of a subtype, interning it if new (64 distinct subtypes at most).
    pub fn add_subtype(&mut self, name: &str) -> Option<u64> {
        let name = name.to_ascii_lowercase();
        if let Some(i) = self.subtype_names.iter().position(|s| *s == name) {
            return Some(1u64 << i);
        }
        if self.subtype_names.len() >= 64 {
            return None;
        }
        self.subtype_names.push(name);
        Some(1u64 << (self.subtype_names.len() - 1))
    }

    fn subtype_bits(&mut self, names: &[String]) -> u64 {
        names
            .iter()
            .filter_map(|s| self.add_subtype(s))
            .fold(0, |a, b| a | b)
    }

    /// Adds a card from the pool, with no abilities yet.
    pub fn add_pool_card(&mut self, facts: &CardFacts, pool_index: usize) -> CardIdx {
        let subtypes = self.subtype_bits(&facts.subtypes);
        let def = CardDef {
            reference: facts.reference.clone(),
            name: facts.name.clone(),
            set: facts.set.clone(),
            faction: facts.faction,
            rarity: facts.rarity,
            kind: facts.kind,
            subtypes,
            hand_cost: facts.hand_cost,
            reserve_cost: facts.reserve_cost,
            stats: facts.stats,
            keywords: 0,
            tough: 0,
            scout: 0,
            placement: Placement::Threatened,
            midnight: Placement::Threatened,
            reserve_limit: facts.reserve_limit,
            landmark_limit: facts.landmark_limit,
            ab_start: 0,
            ab_len: 0,
            trigger_mask: 0,
            fire_mask: 0,
            also_kinds: 0,
            coverage: if facts.has_no_text() {
                Coverage::NoText
            } else {
                Coverage::StatsOnly
            },
            lines: Vec::new(),
            pool_index: Some(pool_index),
        };
        self.push_card(def)
    }

    /// Adds a card defined outside the pool (a Confluence card or an inline token).
    pub fn push_card(&mut self, def: CardDef) -> CardIdx {
        let idx = self.cards.len() as CardIdx;
        self.by_ref.insert(def.reference.clone(), idx);
        if matches!(def.kind, CardKind::Token | CardKind::LandmarkToken) {
            self.token_by_name
                .entry(super::pool::normalize_name(&def.name))
                .or_insert(idx);
        }
        self.cards.push(def);
        idx
    }

    /// Adds a variant of a card already in the table (a what-if edit's copy): it keeps the
    /// card's reference for display, and lookups by that reference still find the card.
    pub fn push_variant(&mut self, def: CardDef) -> CardIdx {
        let idx = self.cards.len() as CardIdx;
        self.cards.push(def);
        idx
    }

    /// Compiles encoding lines onto card `idx`, replacing any earlier abilities.
    pub fn encode(
        &mut self,
        idx: CardIdx,
        lines: &[String],
        coverage: Coverage,
    ) -> Result<(), EncodingError> {
        let start = self.abilities.len();
        let mut keywords = 0u32;
        let mut tough = 0u8;
        let mut scout = 0u8;
        let mut mask = 0u32;
        let mut fire_mask = 0u32;
        let mut also_kinds = 0u8;
        for (i, src) in lines.iter().enumerate() {
            let line = Parser::compile_line(src, self).map_err(|err| EncodingError {
                reference: self.cards[idx as usize].reference.clone(),
                line: i + 1,
                source_line: src.clone(),
                err,
            })?;
            match line {
                Line::Keyword { bits, n } => {
                    keywords |= bits;
                    if bits == kw::TOUGH {
                        tough = n;
                    }
                    if bits == kw::SCOUT {
                        scout = n;
                    }
                }
                Line::Ability { mut ability, body } => {
                    ability.start = self.ops.len() as u16;
                    ability.len = body.len() as u16;
                    ability.line = i as u8;
                    mask |= ability.trigger.mask_bit();
                    if let Trigger::When(ev) = ability.trigger {
                        fire_mask |= ev.fire_classes();
                    }
                    if let Trigger::Static(Static::AlsoKind(k)) = ability.trigger {
                        also_kinds |= k;
                    }
                    self.ops.extend(body);
                    self.abilities.push(ability);
                }
            }
        }
        let c = &mut self.cards[idx as usize];
        c.keywords |= keywords;
        if tough > 0 {
            c.tough = tough;
        }
        if scout > 0 {
            c.scout = scout;
        }
        c.ab_start = start as u16;
        c.ab_len = (self.abilities.len() - start) as u16;
        c.trigger_mask = mask;
        c.fire_mask = fire_mask;
        c.also_kinds = also_kinds;
        c.lines = lines.to_vec();
        c.coverage = coverage;
        Ok(())
    }

    /// Builds the db for the whole pool (every card, abilities not yet encoded).
    pub fn from_pool(pool: &CardPool) -> CardDb {
        let mut db = CardDb::new();
        for (i, facts) in pool.cards.iter().enumerate() {
            db.add_pool_card(facts, i);
        }
        db
    }
}

impl Arena for CardDb {
    fn is_landmark_token(&self, card: CardIdx) -> bool {
        self.cards[card as usize].kind == CardKind::LandmarkToken
    }

    fn push_filter(&mut self, f: Filter) -> FilterId {
        if let Some(i) = self.filters.iter().position(|g| *g == f) {
            return i as FilterId;
        }
        self.filters.push(f);
        (self.filters.len() - 1) as FilterId
    }

    fn push_cond(&mut self, c: Cond) -> CondId {
        if let Some(i) = self.conds.iter().position(|d| *d == c) {
            return i as CondId;
        }
        self.conds.push(c);
        (self.conds.len() - 1) as CondId
    }

    fn subtype_bit(&mut self, name: &str) -> Option<u64> {
        let name = name.to_ascii_lowercase();
        self.subtype_names
            .iter()
            .position(|s| *s == name)
            .map(|i| 1u64 << i)
    }

    fn token(&mut self, name: &str, spec: Option<(i16, i16, i16, Vec<String>)>) -> Option<CardIdx> {
        let key = super::pool::normalize_name(name);
        match spec {
            None => self.token_by_name.get(&key).copied(),
            Some((f, m, o, subs)) => {
                let stats = Stats::new(f, m, o);
                let subtypes = self.subtype_bits(&subs);
                // Reuse an identical token card when one exists.
                if let Some(&idx) = self.token_by_name.get(&key) {
                    let c = &self.cards[idx as usize];
                    if c.stats == stats && c.subtypes == subtypes {
                        return Some(idx);
                    }
                }
                let reference = format!("TOKEN:{name}:{f}/{m}/{o}");
                if let Some(idx) = self.by_ref.get(&reference) {
                    return Some(*idx);
                }
                let def = CardDef {
                    reference,
                    name: name.to_string(),
                    set: "TOKEN".into(),
                    faction: Faction::Neutral,
                    rarity: Rarity::Common,
                    kind: CardKind::Token,
                    subtypes,
                    hand_cost: 0,
                    reserve_cost: 0,
                    stats,
                    keywords: 0,
                    tough: 0,
                    scout: 0,
                    placement: Placement::Threatened,
                    midnight: Placement::Threatened,
                    reserve_limit: 0,
                    landmark_limit: 0,
                    ab_start: 0,
                    ab_len: 0,
                    trigger_mask: 0,
                    fire_mask: 0,
                    also_kinds: 0,
                    coverage: Coverage::Exact,
                    lines: Vec::new(),
                    pool_index: None,
                };
                Some(self.push_card(def))
            }
        }
    }
}
