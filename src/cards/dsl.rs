//! The text form of the effect language: a lexer and a recursive-descent parser that
//! compiles one ability line straight into the arenas of [`Arena`].
//!
//! The grammar is documented in `decks/cards/EFFECTS.md`; in short:
//!
//! ```text
//! line     := keyword [N] | ["support"] trigger ["if" cond] ":" seq | "static" static ["if" cond]
//! trigger  := J | H | R | spell | noon | dusk | night | quick(costs) | D[(costs)] | when event
//! seq      := stmt {";" stmt}
//! stmt     := may {seq} | pay(costs) {seq} | if cond {seq} [else {seq}]
//!           | choose {seq} or {seq} ... | roll [{ a-b: seq | c-d: seq }] | repeat N {seq} | call
//! ```

use super::effect::*;
use super::types::{Exp, kw, terrain};

/// A parse error: the column (0-based, in characters) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DslError {
    pub col: usize,
    pub msg: String,
}

impl std::fmt::Display for DslError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at column {}: {}", self.col + 1, self.msg)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(i32),
    Punct(&'static str),
    End,
}

struct Lexer;

impl Lexer {
    fn lex(src: &str) -> Result<Vec<(Tok, usize)>, DslError> {
        let chars: Vec<char> = src.chars().collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            if c.is_ascii_digit() {
                let mut n: i32 = 0;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    n = n
                        .saturating_mul(10)
                        .saturating_add(chars[i] as i32 - '0' as i32);
                    i += 1;
                }
                out.push((Tok::Int(n), start));
                continue;
            }
            if c.is_alphabetic() || c == '_' || c == '"' {
                if c == '"' {
                    i += 1;
                    let s = i;
                    while i < chars.len() && chars[i] != '"' {
                        i += 1;
                    }
                    if i >= chars.len() {
                        return Err(DslError {
                            col: start,
                            msg: "unterminated quoted name".into(),
                        });
                    }
                    let name: String = chars[s..i].iter().collect();
                    i += 1;
                    out.push((Tok::Ident(name), start));
                    continue;
                }
                while i < chars.len()
                    && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '\'')
                {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                out.push((Tok::Ident(word), start));
                continue;
            }
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            let p: &'static str = match two.as_str() {
                "<=" => "<=",
                ">=" => ">=",
                "==" => "==",
                _ => match c {
                    '(' => "(",
                    ')' => ")",
                    '{' => "{",
                    '}' => "}",
                    ',' => ",",
                    ';' => ";",
                    ':' => ":",
                    '|' => "|",
                    '<' => "<",
                    '>' => ">",
                    '=' => "=",
                    '-' => "-",
                    '+' => "+",
                    '/' => "/",
                    _ => {
                        return Err(DslError {
                            col: start,
                            msg: format!("unexpected character '{c}'"),
                        });
                    }
                },
            };
            i += p.len();
            out.push((Tok::Punct(p), start));
        }
        out.push((Tok::End, chars.len()));
        Ok(out)
    }
}

/// The shared arenas abilities compile into, plus the lookups the compiler needs.
pub trait Arena {
    fn push_filter(&mut self, f: Filter) -> FilterId;
    fn push_cond(&mut self, c: Cond) -> CondId;
    fn subtype_bit(&mut self, name: &str) -> Option<u64>;
    /// A token card by name; `stats`/`subtypes` describe it when it is not in the pool.
    fn token(&mut self, name: &str, spec: Option<(i16, i16, i16, Vec<String>)>) -> Option<CardIdx>;
    /// The token card is a Permanent created in a Landmark zone (Aerolith, Manaseed).
    fn is_landmark_token(&self, _card: CardIdx) -> bool {
        false
    }
}

/// What one line compiled to.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    Keyword { bits: u32, n: u8 },
    Ability { ability: Ability, body: Vec<Op> },
}

pub struct Parser<'a, A: Arena> {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    arena: &'a mut A,
    /// Conditions and effects being parsed inside one another (see [`MAX_NESTING`]).
    depth: u32,
}

/// The deepest nesting of conditions (`(...)`, `not`) and of effects (`{...}`, `else if`)
/// a line may have: far more than any card needs, and bounded so that a pathological line
/// is an error rather than a stack overflow (found by fuzzing).
pub const MAX_NESTING: u32 = 32;

type PResult<T> = Result<T, DslError>;

const STATUS_WORDS: [&str; 8] = [
    "fleeting", "anchored", "asleep", "eternal", "gigantic", "defender", "seasoned", "tough",
];

impl<'a, A: Arena> Parser<'a, A> {
    pub fn compile_line(src: &str, arena: &'a mut A) -> PResult<Line> {
        let toks = Lexer::lex(src)?;
        let mut p = Parser {
            toks,
            pos: 0,
            arena,
            depth: 0,
        };
        let line = p.line()?;
        if p.peek() != &Tok::End {
            return p.err("end of line");
        }
        Ok(line)
    }

    // ---- token helpers ----

    fn peek(&self) -> &Tok {
        &self.toks[self.pos].0
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].0
    }

    fn col(&self) -> usize {
        self.toks[self.pos].1
    }

    /// Runs `f` one nesting level deeper, or fails past [`MAX_NESTING`] levels.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_NESTING {
            return Err(DslError {
                col: self.col(),
                msg: format!(
                    "nested too deeply (at most {MAX_NESTING} levels of (...), not, {{...}} and else if)"
                ),
            });
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn err<T>(&self, expected: &str) -> PResult<T> {
        let found = match self.peek() {
            Tok::Ident(s) => format!("'{s}'"),
            Tok::Int(n) => format!("'{n}'"),
            Tok::Punct(p) => format!("'{p}'"),
            Tok::End => "end of line".to_string(),
        };
        Err(DslError {
            col: self.col(),
            msg: format!("expected {expected}, found {found}"),
        })
    }

    fn fail<T>(&self, msg: String) -> PResult<T> {
        Err(DslError {
            col: self.col(),
            msg,
        })
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if self.is_word(w) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, p: &str) -> PResult<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            self.err(&format!("'{p}'"))
        }
    }

    fn ident(&mut self, what: &str) -> PResult<String> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.pos += 1;
                Ok(s)
            }
            _ => self.err(what),
        }
    }

    fn int(&mut self, what: &str) -> PResult<i32> {
        let neg = self.eat_punct("-");
        if !neg {
            self.eat_punct("+");
        }
        match *self.peek() {
            Tok::Int(n) => {
                self.pos += 1;
                Ok(if neg { -n } else { n })
            }
            _ => self.err(what),
        }
    }

    fn small(&mut self, what: &str, lo: i32, hi: i32) -> PResult<i32> {
        let col = self.col();
        let n = self.int(what)?;
        if n < lo || n > hi {
            return Err(DslError {
                col,
                msg: format!("{what} must be between {lo} and {hi}, found {n}"),
            });
        }
        Ok(n)
    }

    // ---- lines ----

    fn line(&mut self) -> PResult<Line> {
        if let Tok::Ident(w) = self.peek().clone() {
            let is_keyword_line = matches!(
                w.as_str(),
                "gigantic"
                    | "defender"
                    | "eternal"
                    | "fleeting"
                    | "cooldown"
                    | "seasoned"
                    | "persistent"
                    | "constant"
                    | "anchored"
                    | "asleep"
                    | "tough"
                    | "scout"
            ) && matches!(self.peek_at(1), Tok::End | Tok::Int(_));
            if is_keyword_line {
                self.pos += 1;
                let bits = kw::parse(&w).expect("keyword list matches kw::NAMES");
                let n = if matches!(self.peek(), Tok::Int(_)) {
                    self.small("keyword value", 0, 20)? as u8
                } else if w == "tough" || w == "scout" {
                    return self.err(&format!("a number after '{w}'"));
                } else {
                    0
                };
                return Ok(Line::Keyword { bits, n });
            }
            if w == "grant" && self.peek_at(1) == &Tok::Punct("(") {
                // grant(FILTER) J|H|R [if COND]: EFFECTS — an ability the matching objects
                // you control have.
                self.pos += 2;
                let f = self.filter_with(Whose::Yours, fkind::CHARACTER)?;
                self.expect_punct(")")?;
                let from = match self.trigger()? {
                    Trigger::Played(from) => from,
                    _ => return self.fail("grant(...) gives a J, H or R ability".into()),
                };
                let cond = if self.eat_word("if") { self.cond()? } else { 0 };
                self.expect_punct(":")?;
                let mut body = Vec::new();
                self.seq(&mut body)?;
                return Ok(Line::Ability {
                    ability: Ability {
                        trigger: Trigger::Static(Static::Grant(f, from)),
                        active: ActiveIn::Play,
                        cond,
                        start: 0,
                        len: body.len() as u16,
                        line: 0,
                    },
                    body,
                });
            }
            // `support static ...`: a passive ability that works while I am in Reserve.
            let support_static = w == "support" && self.peek_at(1) == &Tok::Ident("static".into());
            if w == "static" || support_static {
                self.pos += 1 + support_static as usize;
                let st = self.static_ability()?;
                let cond = if self.eat_word("if") { self.cond()? } else { 0 };
                let active = match st {
                    _ if support_static => ActiveIn::Reserve,
                    Static::Cost(_)
                    | Static::CostPer(..)
                    | Static::CostInEmptyExp(_)
                    | Static::DiscardDiscount(_)
                    | Static::SacrificeDiscount(_)
                    | Static::AltLess(_)
                    | Static::PlayableIf => ActiveIn::Anywhere,
                    Static::NotCountedInReserve => ActiveIn::Reserve,
                    _ => ActiveIn::Play,
                };
                return Ok(Line::Ability {
                    ability: Ability {
                        trigger: Trigger::Static(st),
                        active,
                        cond,
                        start: 0,
                        len: 0,
                        line: 0,
                    },
                    body: Vec::new(),
                });
            }
        }
        let support = self.eat_word("support");
        let trigger = self.trigger()?;
        let active = match trigger {
            Trigger::Support(_) => ActiveIn::Reserve,
            _ if support => ActiveIn::Reserve,
            Trigger::When(EventKind::ToReserve { .. })
            | Trigger::When(EventKind::ToReserveAny)
            | Trigger::When(EventKind::Sacrificed)
            | Trigger::When(EventKind::SacrificedAs(_))
            | Trigger::Delayed => ActiveIn::Anywhere,
            Trigger::When(EventKind::LeaveExpedition | EventKind::LeaveLandmarks) => {
                ActiveIn::Anywhere
            }
            _ => ActiveIn::Play,
        };
        let cond = if self.eat_word("if") { self.cond()? } else { 0 };
        self.expect_punct(":")?;
        let mut body = Vec::new();
        // A quick action's card costs (discards, a sacrifice) are chosen as it resolves:
        // its body starts by paying them (activation pays the rest and checks them all).
        if let Trigger::Quick(c) = trigger
            && (c.discard_reserve > 0 || c.discard_hand > 0 || c.sacrifice != 0)
        {
            body.push(Op::PayCards {
                cost: Cost {
                    mana: 0,
                    exhaust: false,
                    discard_me: false,
                    counters: 0,
                    ..c
                },
            });
        }
        self.seq(&mut body)?;
        if body.len() > u16::MAX as usize / 2 {
            return self.fail("ability body too long".into());
        }
        Ok(Line::Ability {
            ability: Ability {
                trigger,
                active,
                cond,
                start: 0,
                len: body.len() as u16,
                line: 0,
            },
            body,
        })
    }

    fn static_ability(&mut self) -> PResult<Static> {
        let w = self.ident("a static ability (cost, cost_empty_exp, tough_aura, tough_x, min_cost_opponent, defender_no_block, keep_exhausted, aura, level_stats, silence_facing, also, ascend_resupply, keyword, extra_die, draw_one, discard_discount, sacrifice_discount, alt_less, resupply_two, cost_aura, start_counters, start_markers, playable_if, play_exhausted, leave_to_mana, may_leave_to_mana, gain_instead, regain, your_reserve_limit, extra_exhausted_reserve, not_counted_in_reserve, expand_from_deck, dusk_extra_forward, terrain_add, terrain_set, all_regions, no_forward, darkness_only_due, cost_per, roll_plus_one, uncounted_reserve)")?;
        Ok(match w.as_str() {
            "cost" | "cost_empty_exp" => {
                self.expect_punct("(")?;
                let n = self.small("cost change", -10, 10)?;
                self.expect_punct(")")?;
                if w == "cost" {
                    Static::Cost(n as i8)
                } else {
                    Static::CostInEmptyExp(n as i8)
                }
            }
            "cost_per" => {
                self.expect_punct("(")?;
                let n = self.small("cost change", -10, 10)?;
                self.expect_punct(",")?;
                let w = self.ident("a count (count(...), ascended_exps, hand, reserve, ...)")?;
                let Some(c) = self.count_word(&w)? else {
                    self.pos -= 1;
                    return self.err("a count (count(...), ascended_exps, hand, reserve, ...)");
                };
                self.expect_punct(")")?;
                Static::CostPer(n as i8, c)
            }
            "tough_aura" => {
                self.expect_punct("(")?;
                let f = self.filter(Whose::Yours)?;
                self.expect_punct(",")?;
                let n = self.small("tough value", 1, 10)?;
                self.expect_punct(")")?;
                Static::ToughAura(f, n as u8)
            }
            "defender_no_block" => Static::DefenderNoBlock,
            "keep_exhausted" => Static::KeepExhausted,
            "min_cost_opponent" => {
                self.expect_punct("(")?;
                let f = self.filter_with(Whose::Opposing, fkind::CARD)?;
                self.expect_punct(",")?;
                let n = self.small("minimum cost", 1, 10)?;
                self.expect_punct(")")?;
                Static::OpponentMinCost(f, n as u8)
            }
            "tough_x" => {
                self.expect_punct("(")?;
                let w = self.ident("a count (count(...), regions_between, hand, reserve, ...)")?;
                let Some(c) = self.count_word(&w)? else {
                    self.pos -= 1;
                    return self.err("a count (count(...), regions_between, hand, reserve, ...)");
                };
                self.expect_punct(")")?;
                Static::ToughCount(c)
            }
            "aura" => {
                self.expect_punct("(")?;
                let f = self.filter(Whose::Yours)?;
                self.expect_punct(",")?;
                let bits = self.status_bits()?;
                self.expect_punct(")")?;
                Static::KeywordAura(f, bits)
            }
            "level_stats" => {
                if self.eat_punct("(") {
                    let f = self.filter(Whose::Yours)?;
                    self.expect_punct(")")?;
                    Static::LevelStats(f)
                } else {
                    Static::LevelStats(ME_FILTER)
                }
            }
            "silence_facing" => Static::SilenceFacing,
            "also" => {
                self.expect_punct("(")?;
                let k = self.ident("spell, landmark, expedition_permanent or character")?;
                let kind = match k.as_str() {
                    "spell" => fkind::SPELL,
                    "landmark" => fkind::LANDMARK,
                    "expedition_permanent" => fkind::EXP_PERMANENT,
                    "character" => fkind::CHARACTER,
                    _ => {
                        self.pos -= 1;
                        return self.err("spell, landmark, expedition_permanent or character");
                    }
                };
                self.expect_punct(")")?;
                Static::AlsoKind(kind)
            }
            "ascend_resupply" => Static::AscendResupply,
            "keyword" => {
                self.expect_punct("(")?;
                let bits = self.status_bits()?;
                self.expect_punct(")")?;
                Static::Keyword(bits)
            }
            "extra_die" => Static::ExtraDie,
            "roll_plus_one" => Static::RollPlusOne,
            "draw_one" => Static::DrawOneInMorning,
            "reserve_limit" => {
                self.expect_punct("(")?;
                let n = self.small("Reserve limit change", -5, 5)?;
                self.expect_punct(")")?;
                Static::ReserveLimit(n as i8)
            }
            "discard_discount" | "sacrifice_discount" | "alt_less" => {
                self.expect_punct("(")?;
                let n = self.small("cost reduction", 1, 10)?;
                self.expect_punct(")")?;
                match w.as_str() {
                    "discard_discount" => Static::DiscardDiscount(n as u8),
                    "sacrifice_discount" => Static::SacrificeDiscount(n as u8),
                    _ => Static::AltLess(n as u8),
                }
            }
            "resupply_two" => Static::ResupplyRevealTwo,
            "cost_aura" => {
                self.expect_punct("(")?;
                let f = self.filter_with(Whose::Yours, fkind::CARD)?;
                self.expect_punct(",")?;
                let n = self.small("cost change", -10, 10)?;
                if self.eat_punct(",") {
                    // a reduction with a floor: `min M`
                    if !self.eat_word("min") || n >= 0 {
                        return self.err("'min M' after a reduction (as in cost_aura(robot from_reserve, -1, min 1))");
                    }
                    let m = self.small("minimum cost", 1, 10)?;
                    self.expect_punct(")")?;
                    return Ok(Static::CostAuraMin(f, (-n) as u8, m as u8));
                }
                self.expect_punct(")")?;
                Static::CostAura(f, n as i8)
            }
            "start_counters" => {
                self.expect_punct("(")?;
                let n = self.small("counters", 1, 50)?;
                self.expect_punct(")")?;
                Static::StartCounters(n as u8)
            }
            "no_counters" => {
                self.expect_punct("(")?;
                let f = self.filter_with(Whose::Any, fkind::CARD)?;
                self.expect_punct(")")?;
                Static::NoCounters(f)
            }
            "support_over_max" => {
                self.expect_punct("(")?;
                let n = if self.eat_word("any") {
                    u8::MAX
                } else {
                    self.small("extra counters (or 'any')", 1, 50)? as u8
                };
                self.expect_punct(")")?;
                Static::SupportOverMax(n)
            }
            "start_markers" => {
                self.expect_punct("(")?;
                let mut t = self.terrain_word()?;
                while self.eat_punct(",") {
                    t |= self.terrain_word()?;
                }
                self.expect_punct(")")?;
                Static::StartMarkers(t)
            }
            "playable_if" => Static::PlayableIf,
            "play_exhausted" => {
                if self.eat_punct("(") {
                    let f = self.filter_with(Whose::Yours, fkind::CARD)?;
                    let mine = self.eat_punct(",") && {
                        if !self.eat_word("mine") {
                            return self.err("'mine'");
                        }
                        true
                    };
                    self.expect_punct(")")?;
                    Static::PlayExhausted(f, mine)
                } else {
                    let f = self.arena.push_filter(Filter {
                        kinds: fkind::CARD,
                        whose: Whose::Yours,
                        ..Filter::default()
                    });
                    Static::PlayExhausted(f, false)
                }
            }
            "leave_to_mana" => Static::LeaveToMana { may: false },
            "may_leave_to_mana" => Static::LeaveToMana { may: true },
            "gain_instead" => {
                // gain_instead(STATUS, STATUS) or gain_instead(STATUS, boost N)
                self.expect_punct("(")?;
                let from = self.status_bits()?;
                self.expect_punct(",")?;
                let (to, boosts) = if self.eat_word("boost") {
                    (0, self.small("boosts", 1, 10)? as u8)
                } else {
                    (self.status_bits()?, 0)
                };
                self.expect_punct(")")?;
                Static::GainInstead { from, to, boosts }
            }
            "regain" => {
                self.expect_punct("(")?;
                let b = self.status_bits()?;
                self.expect_punct(")")?;
                Static::Regain(b)
            }
            "your_reserve_limit" => {
                self.expect_punct("(")?;
                let n = self.small("reserve limit change", -5, 5)?;
                self.expect_punct(")")?;
                Static::YourReserveLimit(n as i8)
            }
            "uncounted_reserve" | "not_counted_in_reserve" => Static::NotCountedInReserve,
            "extra_exhausted_reserve" => Static::ExtraExhaustedReserve,
            "expand_from_deck" => Static::ExpandFromDeck,
            "terrain_add" | "terrain_set" | "all_regions" | "darkness_only_due" => {
                self.expect_punct("(")?;
                let t = self.terrain_word()?;
                self.expect_punct(")")?;
                match w.as_str() {
                    "terrain_add" => Static::TerrainAdd(t),
                    "terrain_set" => Static::TerrainSet(t),
                    "all_regions" => Static::AllRegions(t),
                    _ => Static::DarknessOnlyDueTo(t),
                }
            }
            "dusk_extra_forward" => Static::DuskExtraForward,
            "no_forward" => {
                self.expect_punct("(")?;
                let e = self.exp_ref()?;
                self.expect_punct(")")?;
                Static::NoForward(e)
            }
            _ => {
                self.pos -= 1;
                return self.err("a static ability (cost, cost_empty_exp, tough_aura, tough_x, min_cost_opponent, defender_no_block, keep_exhausted, aura, level_stats, silence_facing, also, ascend_resupply, keyword, extra_die, draw_one, discard_discount, sacrifice_discount, alt_less, resupply_two, cost_aura, start_counters, start_markers, playable_if, play_exhausted, leave_to_mana, may_leave_to_mana, gain_instead, regain, your_reserve_limit, extra_exhausted_reserve, not_counted_in_reserve, expand_from_deck, dusk_extra_forward, terrain_add, terrain_set, all_regions, no_forward, darkness_only_due, cost_per, roll_plus_one, uncounted_reserve)");
            }
        })
    }

    /// A terrain letter or word: F/forest, M/mountain, O/water.
    fn terrain_word(&mut self) -> PResult<u8> {
        let t = self.ident("F, M or O")?;
        match terrain::parse(&t) {
            Some(b) => Ok(b),
            None => {
                self.pos -= 1;
                self.err("F, M or O")
            }
        }
    }

    fn status_bits(&mut self) -> PResult<u32> {
        let w = self.ident("a status or keyword")?;
        match kw::parse(&w) {
            Some(b) => Ok(b),
            None => {
                self.pos -= 1;
                self.err("a status or keyword (fleeting, anchored, asleep, eternal, gigantic, defender, seasoned, persistent, constant)")
            }
        }
    }

    fn trigger(&mut self) -> PResult<Trigger> {
        const EXPECTED: &str = "a trigger (J, H, R, spell, noon, dusk, night, night_after_rest, after_rest, quick(...), D, when ...)";
        let w = self.ident(EXPECTED)?;
        Ok(match w.as_str() {
            "J" => Trigger::Played(PlayFrom::Any),
            "H" => Trigger::Played(PlayFrom::Hand),
            "R" => Trigger::Played(PlayFrom::Reserve),
            "spell" => Trigger::Spell,
            "noon" => Trigger::Noon,
            "dusk" => Trigger::Dusk,
            "night" => Trigger::Night,
            "after_rest" => Trigger::Delayed,
            "night_after_rest" => Trigger::AfterRest,
            "quick" => {
                self.expect_punct("(")?;
                let c = self.costs()?;
                self.expect_punct(")")?;
                Trigger::Quick(c)
            }
            "D" => {
                let mut c = if self.eat_punct("(") {
                    let c = self.costs()?;
                    self.simple_cost(&c)?;
                    self.expect_punct(")")?;
                    c
                } else {
                    Cost::default()
                };
                c.discard_me = true;
                Trigger::Support(c)
            }
            "when" => Trigger::When(self.event()?),
            _ => {
                self.pos -= 1;
                return self.err(EXPECTED);
            }
        })
    }

    /// Quick-action costs are paid on activation without further choices.
    fn simple_cost(&self, c: &Cost) -> PResult<()> {
        if c.discard_reserve > 0 || c.discard_hand > 0 || c.sacrifice != 0 {
            return self.fail(
                "a quick action's cost can only use N, T, D and counters; put card costs in the body with pay(...) { ... }".into(),
            );
        }
        Ok(())
    }

    fn event(&mut self) -> PResult<EventKind> {
        const EXPECTED: &str = "an event (leave, leave_landmarks, leaves(...), to_reserve, to_reserve(any), card_to_reserve, sacrificed, sacrificed_as(...), you_sacrifice(...), counters_reach(N), play(...), play_reserve(...), play_first(...), opponent_play(...), opponent_play_reserve(...), joins(...), joins_facing(...), roll, fails, moves, ascended_moves[(unfaced)], moves_due(T), exp_moves_due(T), reserve_leaves, card_discarded, token_created, boosted, gains(STATUS), i_gain(STATUS), exhaust_reserve, pass_first, opponent_draws, gift)";
        let w = self.ident(EXPECTED)?;
        let filtered = |p: &mut Self, default_kinds: u8| -> PResult<FilterId> {
            p.expect_punct("(")?;
            let f = p.filter_with(Whose::Any, default_kinds)?;
            p.expect_punct(")")?;
            Ok(f)
        };
        Ok(match w.as_str() {
            "leave" => EventKind::LeaveExpedition,
            "leave_landmarks" => EventKind::LeaveLandmarks,
            "leaves" => EventKind::LeavesYourExpeditions(filtered(self, fkind::CHARACTER)?),
            "to_reserve" => {
                let mut from_expedition = true;
                if self.eat_punct("(") {
                    let z = self.ident("'expedition', 'hand' or 'any'")?;
                    from_expedition = match z.as_str() {
                        "expedition" => true,
                        "hand" => false,
                        "any" => {
                            self.expect_punct(")")?;
                            return Ok(EventKind::ToReserveAny);
                        }
                        _ => {
                            self.pos -= 1;
                            return self.err("'expedition', 'hand' or 'any'");
                        }
                    };
                    self.expect_punct(")")?;
                }
                EventKind::ToReserve { from_expedition }
            }
            "i_gain" => {
                self.expect_punct("(")?;
                let b = self.status_bits()?;
                self.expect_punct(")")?;
                EventKind::IGain(b)
            }
            "card_to_reserve" => EventKind::YourCardToReserve,
            "sacrificed" => EventKind::Sacrificed,
            "sacrificed_as" => EventKind::SacrificedAs(filtered(self, fkind::CARD)?),
            "you_sacrifice" => EventKind::YouSacrifice(filtered(self, fkind::CHARACTER)?),
            "counters_reach" => {
                self.expect_punct("(")?;
                let n = self.small("counter number", 1, 50)? as u8;
                self.expect_punct(")")?;
                EventKind::CountersReach(n)
            }
            "play" => EventKind::YouPlay(filtered(self, fkind::CARD)?),
            "play_reserve" => EventKind::YouPlayFromReserve(filtered(self, fkind::CARD)?),
            "play_first" => EventKind::YouPlayFirst(filtered(self, fkind::CARD)?),
            "opponent_play" => EventKind::OpponentPlays(filtered(self, fkind::CARD)?),
            "opponent_play_reserve" => {
                EventKind::OpponentPlaysFromReserve(filtered(self, fkind::CARD)?)
            }
            "joins" => EventKind::Joins(filtered(self, fkind::CHARACTER)?),
            "joins_facing" => EventKind::JoinsFacing(filtered(self, fkind::CHARACTER)?),
            "roll" => EventKind::YouRoll,
            "fails" => EventKind::MyExpFails,
            "moves" => EventKind::MyExpMoves,
            "ascended_moves" => {
                let mut unfaced = false;
                if self.eat_punct("(") {
                    if !self.eat_word("unfaced") {
                        return self.err("'unfaced'");
                    }
                    self.expect_punct(")")?;
                    unfaced = true;
                }
                EventKind::AscendedMoves { unfaced }
            }
            "moves_due" | "exp_moves_due" => {
                self.expect_punct("(")?;
                let t = self.terrain_word()?;
                self.expect_punct(")")?;
                if w == "moves_due" {
                    EventKind::MyExpMovesDue(t)
                } else {
                    EventKind::YourExpMovesDue(t)
                }
            }
            "reserve_leaves" => EventKind::LeavesYourReserve,
            "card_discarded" => EventKind::CardDiscarded,
            "gift" => EventKind::YouGift,
            "token_created" => EventKind::YouCreateToken,
            "boosted" => EventKind::YourCharacterBoosted,
            "gains" => {
                self.expect_punct("(")?;
                let bits = self.status_bits()?;
                self.expect_punct(")")?;
                EventKind::YourCharacterGains(bits)
            }
            "exhaust_reserve" => EventKind::YouExhaustInReserve,
            "pass_first" => EventKind::YouPassFirst,
            "opponent_draws" => EventKind::OpponentDraws,
            _ => {
                self.pos -= 1;
                return self.err(EXPECTED);
            }
        })
    }

    fn costs(&mut self) -> PResult<Cost> {
        let mut c = Cost::default();
        loop {
            match self.peek().clone() {
                Tok::Int(_) => {
                    c.mana = c.mana.saturating_add(self.small("mana cost", 0, 20)? as u8)
                }
                Tok::Ident(w) => {
                    self.pos += 1;
                    match w.as_str() {
                        "T" => c.exhaust = true,
                        "D" => c.discard_me = true,
                        "counters" => c.counters = self.small("counters to spend", 1, 20)? as u8,
                        "discard_reserve" => {
                            c.discard_reserve = if matches!(self.peek(), Tok::Int(_)) {
                                self.small("cards", 1, 5)? as u8
                            } else {
                                1
                            }
                        }
                        "discard_hand" => {
                            c.discard_hand = if matches!(self.peek(), Tok::Int(_)) {
                                self.small("cards", 1, 5)? as u8
                            } else {
                                1
                            }
                        }
                        "sacrifice" => {
                            // What is sacrificed: a character unless a kind follows.
                            c.sacrifice = match self.peek() {
                                Tok::Ident(k) if k == "character" => fkind::CHARACTER,
                                Tok::Ident(k) if k == "permanent" => fkind::PERMANENT,
                                Tok::Ident(k) if k == "landmark" => fkind::LANDMARK,
                                _ => 0,
                            };
                            if c.sacrifice == 0 {
                                c.sacrifice = fkind::CHARACTER;
                            } else {
                                self.pos += 1;
                            }
                        }
                        _ => {
                            self.pos -= 1;
                            return self.err("a cost (N, T, D, counters N, discard_reserve, discard_hand, sacrifice)");
                        }
                    }
                }
                _ => {
                    return self.err(
                        "a cost (N, T, D, counters N, discard_reserve, discard_hand, sacrifice)",
                    );
                }
            }
            if !self.eat_punct(",") {
                return Ok(c);
            }
        }
    }

    // ---- conditions ----

    fn cond(&mut self) -> PResult<CondId> {
        let mut left = self.cond_atom()?;
        loop {
            if self.eat_word("and") {
                let right = self.cond_atom()?;
                left = self.arena.push_cond(Cond::And(left, right));
            } else if self.eat_word("or") {
                let right = self.cond_atom()?;
                left = self.arena.push_cond(Cond::Or(left, right));
            } else {
                return Ok(left);
            }
        }
    }

    fn cmp(&mut self) -> PResult<Cmp> {
        let c = match self.peek() {
            Tok::Punct(">=") => Cmp::Ge,
            Tok::Punct("<=") => Cmp::Le,
            Tok::Punct("==") | Tok::Punct("=") => Cmp::Eq,
            Tok::Punct(">") => Cmp::Gt,
            Tok::Punct("<") => Cmp::Lt,
            _ => return self.err("a comparison (>=, <=, =, >, <)"),
        };
        self.pos += 1;
        Ok(c)
    }

    fn count_word(&mut self, w: &str) -> PResult<Option<Count>> {
        Ok(Some(match w {
            "mana" => Count::ManaOrbs,
            "hand" => Count::HandSize,
            "reserve" => Count::ReserveSize,
            "counters" => Count::MyCounters,
            "boosts" => Count::MyBoosts,
            "had_boosts" => Count::MyLeftBoosts,
            "left_boosts" => Count::MyLeftBoosts,
            "x" | "X" => Count::X,
            "roll_result" => Count::LastRoll,
            "opponent_hand" => Count::OpponentHandSize,
            "day" => Count::Day,
            "regions_between" => Count::RegionsBetween,
            "single_regions" => Count::SingleTerrainRegions,
            "hero_counters" => Count::HeroCounters,
            "ascended_exps" => Count::AscendedExps,
            "it_cost" => Count::ItCost,
            "exps_in" | "all_exps_in" => {
                self.expect_punct("(")?;
                let t = self.terrain_word()?;
                self.expect_punct(")")?;
                if w == "exps_in" {
                    Count::ExpsInTerrain(t)
                } else {
                    Count::AllExpsInTerrain(t)
                }
            }
            "zero_stats" => Count::ZeroStats,
            "count" => {
                self.expect_punct("(")?;
                let f = self.filter(Whose::Yours)?;
                self.expect_punct(")")?;
                Count::Objects(f)
            }
            "boosts_of" | "zero_stats_of" => {
                self.expect_punct("(")?;
                let f = self.filter(Whose::Yours)?;
                self.expect_punct(")")?;
                if w == "boosts_of" {
                    Count::BoostsOf(f)
                } else {
                    Count::ZeroStatsOf(f)
                }
            }
            "its_boosts" => Count::ItsBoosts,
            _ => return Ok(None),
        }))
    }

    fn cond_atom(&mut self) -> PResult<CondId> {
        self.nested(Self::cond_atom_inner)
    }

    fn cond_atom_inner(&mut self) -> PResult<CondId> {
        const EXPECTED: &str = "a condition (first_player, behind, all_behind, ahead, in_contact, did, in_mana, paid_less, none_advanced, afternoon, ascended, boosted, has(status), was(status), terrain(F|M|O), roll in a-b, count(...) >= N, mana/hand/reserve/counters/x >= N, control(...), distinct(F, F[, F]), it_is(...), not ..., (...))";
        if self.eat_punct("(") {
            let c = self.cond()?;
            self.expect_punct(")")?;
            return Ok(c);
        }
        let w = self.ident(EXPECTED)?;
        let c = match w.as_str() {
            "not" => {
                let inner = self.cond_atom()?;
                Cond::Not(inner)
            }
            "first_player" => Cond::FirstPlayer,
            "behind" if self.eat_punct("(") => {
                let e = match self.exp_ref()? {
                    ExpRef::Fixed(e) => e,
                    _ => return self.err("hero or companion"),
                };
                self.expect_punct(")")?;
                Cond::BehindExp(e)
            }
            "behind" => Cond::Behind,
            "all_behind" => Cond::AllBehind,
            "ahead" => Cond::Ahead,
            "in_contact" => Cond::InContact,
            "did" => Cond::Did,
            "in_mana" => Cond::MeInMana,
            "paid_less" => Cond::PaidLess,
            "none_advanced" => Cond::NoneAdvanced,
            "afternoon" => Cond::Afternoon,
            "ascended" => Cond::MyExpAscends,
            "your_turn" => Cond::YourTurn,
            "boosted" => Cond::MeBoosted,
            "has" | "was" => {
                self.expect_punct("(")?;
                let b = self.status_bits()?;
                self.expect_punct(")")?;
                if w == "has" {
                    Cond::MeHas(b)
                } else {
                    Cond::MeHad(b)
                }
            }
            "terrain" => {
                self.expect_punct("(")?;
                let t = self.ident("F, M or O")?;
                let bits = match terrain::parse(&t) {
                    Some(b) => b,
                    None => {
                        self.pos -= 1;
                        return self.err("F, M or O");
                    }
                };
                self.expect_punct(")")?;
                Cond::MyTerrain(bits)
            }
            "single_terrain" => Cond::SingleTerrain,
            "roll" => {
                if self.eat_word("in") {
                    let lo = self.small("die value", 1, 6)? as u8;
                    self.expect_punct("-")?;
                    let hi = self.small("die value", 1, 6)? as u8;
                    Cond::Roll(lo, hi)
                } else {
                    let c = self.cmp()?;
                    let n = self.small("die value", 0, 7)?;
                    Cond::Compare(Count::X, c, n as i16)
                }
            }
            "control" => {
                self.expect_punct("(")?;
                let f = self.filter(Whose::Yours)?;
                self.expect_punct(")")?;
                Cond::Control(f)
            }
            "distinct" => {
                self.expect_punct("(")?;
                let mut fs = [0; 3];
                let mut n = 0;
                loop {
                    if n == fs.len() {
                        return self.err("at most 3 filters in distinct(...)");
                    }
                    fs[n] = self.filter(Whose::Yours)?;
                    n += 1;
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                self.expect_punct(")")?;
                if n < 2 {
                    return self.err("2 or 3 filters in distinct(...), separated by commas");
                }
                Cond::Distinct(fs, n as u8)
            }
            "it_is" => {
                self.expect_punct("(")?;
                let f = self.filter(Whose::Any)?;
                self.expect_punct(")")?;
                Cond::ItMatches(f)
            }
            other => match self.count_word(other)? {
                Some(count) => {
                    let c = self.cmp()?;
                    if let Tok::Ident(w) = self.peek().clone() {
                        // Two amounts compared (`it_cost = roll_result`).
                        self.pos += 1;
                        match self.count_word(&w)? {
                            Some(rhs) => Cond::CompareCounts(count, c, rhs),
                            None => {
                                self.pos -= 1;
                                return self
                                    .err("a number or an amount (x, roll_result, it_cost, ...)");
                            }
                        }
                    } else {
                        let n = self.small("number", -50, 200)?;
                        Cond::Compare(count, c, n as i16)
                    }
                }
                None => {
                    self.pos -= 1;
                    return self.err(EXPECTED);
                }
            },
        };
        Ok(self.arena.push_cond(c))
    }

    // ---- filters ----

    fn filter(&mut self, whose: Whose) -> PResult<FilterId> {
        self.filter_with(whose, 0)
    }

    /// Words up to ',' ')' ';' or '}' describe a set of objects.
    fn filter_with(&mut self, whose: Whose, default_kinds: u8) -> PResult<FilterId> {
        let (f, _) = self.filter_parse(whose, default_kinds)?;
        Ok(self.arena.push_filter(f))
    }

    /// A filter for cards to play: from the zones it names, else from `zones`.
    fn card_filter(&mut self, zones: u8) -> PResult<FilterId> {
        let (mut f, zones_set) = self.filter_parse(Whose::Any, fkind::CARD)?;
        if !zones_set {
            f.zones = zones;
        }
        Ok(self.arena.push_filter(f))
    }

    /// A filter and whether it named its zones.
    fn filter_parse(&mut self, whose: Whose, default_kinds: u8) -> PResult<(Filter, bool)> {
        let mut f = Filter {
            whose,
            kinds: 0,
            ..Filter::default()
        };
        let mut zones_set = false;
        let mut any = false;
        while let Tok::Ident(w) = self.peek().clone() {
            if matches!(w.as_str(), "and" | "or" | "else" | "total_cost" | "total") {
                break;
            }
            self.pos += 1;
            any = true;
            let ws = w.strip_suffix('s').unwrap_or(&w).to_string();
            match (w.as_str(), ws.as_str()) {
                (_, "character") => f.kinds |= fkind::CHARACTER,
                (_, "permanent") => f.kinds |= fkind::PERMANENT,
                (_, "landmark") => f.kinds |= fkind::LANDMARK,
                ("expedition_permanent", _) | (_, "expedition_permanent") => {
                    f.kinds |= fkind::EXP_PERMANENT
                }
                (_, "spell") => f.kinds |= fkind::SPELL,
                (_, "card") => f.kinds |= fkind::CARD,
                ("hero", _) => f.kinds |= fkind::HERO,
                (_, "token") => {
                    f.token = Some(true);
                }
                ("non_token", _) => f.token = Some(false),
                ("yours", _) | ("your", _) => f.whose = Whose::Yours,
                ("opposing", _) | ("opponent", _) => f.whose = Whose::Opposing,
                ("any", _) => f.whose = Whose::Any,
                ("in_reserve", _) => {
                    f.zones = if zones_set {
                        f.zones | fzone::RESERVE
                    } else {
                        fzone::RESERVE
                    };
                    zones_set = true;
                }
                ("in_hand", _) => {
                    f.zones = if zones_set {
                        f.zones | fzone::HAND
                    } else {
                        fzone::HAND
                    };
                    zones_set = true;
                }
                ("in_deck", _) => {
                    f.zones = if zones_set {
                        f.zones | fzone::DECK
                    } else {
                        fzone::DECK
                    };
                    zones_set = true;
                }
                ("in_play", _) => {
                    f.zones = if zones_set {
                        f.zones | fzone::IN_PLAY
                    } else {
                        fzone::IN_PLAY
                    };
                    zones_set = true;
                }
                ("in_expedition", _) => {
                    f.zones = if zones_set {
                        f.zones | fzone::EXPEDITION
                    } else {
                        fzone::EXPEDITION
                    };
                    zones_set = true;
                }
                ("in_landmarks", _) => {
                    f.zones = if zones_set {
                        f.zones | fzone::LANDMARKS
                    } else {
                        fzone::LANDMARKS
                    };
                    zones_set = true;
                }
                ("in_my_expedition", _) => f.place = Where::MyExpedition,
                ("in_other_expedition", _) => f.place = Where::OtherExpedition,
                ("facing_me", _) => f.place = Where::FacingMe,
                ("in_selected", _) => f.place = Where::Selected,
                ("other", _) | ("another", _) => f.other = true,
                ("boosted", _) => f.boosted = Some(true),
                ("unboosted", _) => f.boosted = Some(false),
                ("countered", _) => f.countered = Some(true),
                ("uncountered", _) => f.countered = Some(false),
                ("zero_stat", _) => f.zero_stat = Some(true),
                ("zero_stat_here", _) => f.zero_stat_here = true,
                ("in_behind", _) => f.in_behind = true,
                ("in_forest", _) => f.region_terrain |= terrain::FOREST,
                ("in_mountain", _) => f.region_terrain |= terrain::MOUNTAIN,
                ("in_water", _) => f.region_terrain |= terrain::WATER,
                ("in_ascended", _) => f.ascended = true,
                ("in_single_terrain", _) => f.single_terrain = true,
                ("exhausted", _) => f.exhausted = Some(true),
                ("ready", _) => f.exhausted = Some(false),
                ("from_reserve", _) => f.from_reserve = Some(true),
                ("from_hand", _) => f.from_reserve = Some(false),
                ("stats", _) => {
                    // stats<=N: no statistic over N.
                    self.expect_punct("<=")?;
                    f.stat_max = self.small("statistic", 0, 30)? as u8;
                }
                ("cost", _) if matches!(self.peek_at(1), Tok::Ident(x) if x == "x") => {
                    // cost<=x or cost<=x+N: bounded by the running ability's x.
                    if !self.eat_punct("<=") {
                        return self.err("'<=' (only cost<=x+N reads x)");
                    }
                    self.pos += 1;
                    let n = if self.eat_punct("+") {
                        self.small("cost offset", 0, 20)?
                    } else {
                        0
                    };
                    f.cost_max_x = n as i8;
                }
                ("cost", _) | ("base_cost", _) => {
                    f.base_cost |= w == "base_cost";
                    let c = self.cmp()?;
                    let n = self.small("hand cost", 0, 30)? as u8;
                    match c {
                        Cmp::Le => f.cost_max = n,
                        Cmp::Lt => f.cost_max = n.saturating_sub(1),
                        Cmp::Ge => f.cost_min = n,
                        Cmp::Gt => f.cost_min = n + 1,
                        Cmp::Eq => {
                            f.cost_min = n;
                            f.cost_max = n;
                        }
                    }
                }
                _ => {
                    if let Some(neg) = w.strip_prefix("not_")
                        && (STATUS_WORDS.contains(&neg) || kw::parse(neg).is_some())
                    {
                        f.without |= kw::parse(neg).unwrap_or(0);
                        continue;
                    }
                    if let Some(b) = kw::parse(&w) {
                        f.with |= b;
                        continue;
                    }
                    // "non-Illusion": not_ followed by a subtype.
                    if let Some(neg) = w.strip_prefix("not_")
                        && let Some(b) = self.arena.subtype_bit(neg).or_else(|| {
                            self.arena.subtype_bit(neg.strip_suffix('s').unwrap_or(neg))
                        })
                    {
                        f.not_subtypes |= b;
                        continue;
                    }
                    let bit = self
                        .arena
                        .subtype_bit(&w)
                        .or_else(|| self.arena.subtype_bit(&ws));
                    match bit {
                        Some(b) => f.subtypes |= b,
                        None => {
                            self.pos -= 1;
                            return self.fail(format!(
                                "unknown word '{w}' in an object description (expected character, permanent, landmark, spell, card, token, yours, opposing, in_reserve, in_my_expedition, other, cost<=N, a status or a subtype)"
                            ));
                        }
                    }
                }
            }
        }
        if !any {
            return self.err("an object description (e.g. 'character yours cost<=3')");
        }
        if f.kinds == 0 {
            f.kinds = if default_kinds != 0 {
                default_kinds
            } else if f.zones & (fzone::RESERVE | fzone::HAND) != 0 {
                fkind::CARD
            } else {
                fkind::CHARACTER
            };
        }
        if f.token == Some(true) {
            f.kinds |= fkind::CHARACTER;
        }
        Ok((f, zones_set))
    }

    // ---- statements ----

    fn seq(&mut self, body: &mut Vec<Op>) -> PResult<()> {
        self.stmt(body)?;
        while self.eat_punct(";") {
            if self.is_punct("}") || self.peek() == &Tok::End {
                break;
            }
            self.stmt(body)?;
        }
        Ok(())
    }

    fn block(&mut self, body: &mut Vec<Op>) -> PResult<()> {
        self.expect_punct("{")?;
        self.seq(body)?;
        self.expect_punct("}")
    }

    fn here(body: &[Op]) -> u16 {
        body.len() as u16
    }

    fn stmt(&mut self, body: &mut Vec<Op>) -> PResult<()> {
        self.nested(|p| p.stmt_inner(body))
    }

    fn stmt_inner(&mut self, body: &mut Vec<Op>) -> PResult<()> {
        let Tok::Ident(w) = self.peek().clone() else {
            return self.err("an effect");
        };
        match w.as_str() {
            "may" => {
                self.pos += 1;
                let at = body.len();
                body.push(Op::May { skip: 0 });
                self.block(body)?;
                let end = Self::here(body);
                body[at] = Op::May { skip: end };
            }
            "pay" => {
                self.pos += 1;
                self.expect_punct("(")?;
                let cost = self.costs()?;
                self.expect_punct(")")?;
                let at = body.len();
                body.push(Op::Pay { cost, skip: 0 });
                self.block(body)?;
                let end = Self::here(body);
                body[at] = Op::Pay { cost, skip: end };
            }
            "if" => {
                self.pos += 1;
                let cond = self.cond()?;
                let at = body.len();
                body.push(Op::JumpUnless { cond, to: 0 });
                self.block(body)?;
                if self.eat_word("else") {
                    let jmp = body.len();
                    body.push(Op::Jump { to: 0 });
                    let else_start = Self::here(body);
                    body[at] = Op::JumpUnless {
                        cond,
                        to: else_start,
                    };
                    if self.is_word("if") {
                        self.stmt(body)?;
                    } else {
                        self.block(body)?;
                    }
                    let end = Self::here(body);
                    body[jmp] = Op::Jump { to: end };
                } else {
                    let end = Self::here(body);
                    body[at] = Op::JumpUnless { cond, to: end };
                }
            }
            "choose" => {
                self.pos += 1;
                // Choose{n}, then n jumps to the mode bodies, each mode ending with a jump to the end.
                let mut modes: Vec<Vec<Op>> = Vec::new();
                loop {
                    let mut m = Vec::new();
                    self.expect_punct("{")?;
                    self.seq(&mut m)?;
                    self.expect_punct("}")?;
                    modes.push(m);
                    if !self.eat_word("or") {
                        break;
                    }
                }
                if modes.len() < 2 || modes.len() > 6 {
                    return self.fail(format!("choose needs 2 to 6 modes, found {}", modes.len()));
                }
                let base = body.len();
                body.push(Op::Choose {
                    n: modes.len() as u8,
                });
                let table = body.len();
                for _ in &modes {
                    body.push(Op::Jump { to: 0 });
                }
                let mut exits = Vec::new();
                for (i, m) in modes.into_iter().enumerate() {
                    let start = body.len() as u16;
                    body[table + i] = Op::Jump { to: start };
                    let offset = start;
                    for op in m {
                        body.push(relocate(op, offset));
                    }
                    exits.push(body.len());
                    body.push(Op::Jump { to: 0 });
                }
                let end = Self::here(body);
                for e in exits {
                    body[e] = Op::Jump { to: end };
                }
                let _ = base;
            }
            "roll" => {
                self.pos += 1;
                body.push(Op::Roll);
                if self.eat_punct("{") {
                    let mut exits = Vec::new();
                    loop {
                        let lo = self.small("die value", 1, 6)? as u8;
                        let hi = if self.eat_punct("-") {
                            self.small("die value", 1, 6)? as u8
                        } else {
                            lo
                        };
                        if hi < lo {
                            return self.fail(format!("die range {lo}-{hi} is empty"));
                        }
                        self.expect_punct(":")?;
                        let cond = self.arena.push_cond(Cond::Roll(lo, hi));
                        let at = body.len();
                        body.push(Op::JumpUnless { cond, to: 0 });
                        // A branch's body stops at '|' or '}'.
                        self.stmt(body)?;
                        while self.eat_punct(";") {
                            if self.is_punct("|") || self.is_punct("}") {
                                break;
                            }
                            self.stmt(body)?;
                        }
                        exits.push(body.len());
                        body.push(Op::Jump { to: 0 });
                        let next = Self::here(body);
                        body[at] = Op::JumpUnless { cond, to: next };
                        if self.eat_punct("|") {
                            continue;
                        }
                        self.expect_punct("}")?;
                        break;
                    }
                    let end = Self::here(body);
                    for e in exits {
                        body[e] = Op::Jump { to: end };
                    }
                }
            }
            "repeat" if !matches!(self.peek_at(1), Tok::Int(_)) => {
                // repeat AMOUNT { ... }: a loop, the amount read once when it starts.
                self.pos += 1;
                let n = self.amount()?;
                let at = body.len();
                body.push(Op::LoopStart { n, end: 0 });
                self.block(body)?;
                if body[at + 1..]
                    .iter()
                    .any(|op| matches!(op, Op::LoopStart { .. }))
                {
                    return self.fail("a repeat with an amount can't hold another one".into());
                }
                body.push(Op::LoopNext { to: at as u16 + 1 });
                let end = Self::here(body);
                body[at] = Op::LoopStart { n, end };
            }
            "repeat" => {
                self.pos += 1;
                let n = self.small("repeat count", 1, 8)?;
                let mut inner = Vec::new();
                self.block(&mut inner)?;
                for _ in 0..n {
                    let offset = body.len() as u16;
                    for op in &inner {
                        body.push(relocate(*op, offset));
                    }
                }
            }
            _ => self.call(body)?,
        }
        Ok(())
    }

    /// An object argument: me / it / event / each F / target F / up_to N F / targets N F.
    /// Target forms emit a `Select` first and act on `it`.
    fn obj(&mut self, body: &mut Vec<Op>) -> PResult<ObjRef> {
        const EXPECTED: &str = "an object (me, it, event, each ..., target ..., opponent_target ..., up_to N ..., any_number ..., targets N ...)";
        let w = self.ident(EXPECTED)?;
        Ok(match w.as_str() {
            "me" => ObjRef::Me,
            "it" | "them" => ObjRef::It,
            "event" => ObjRef::Event,
            "each" => ObjRef::Each(self.filter(Whose::Yours)?),
            "target" | "opponent_target" => {
                let filter = self.filter(Whose::Any)?;
                body.push(Op::Select {
                    filter,
                    min: 1,
                    max: 1,
                    total_cost: u8::MAX,
                    total_of: 0,
                    by_opponent: w == "opponent_target",
                });
                ObjRef::It
            }
            "up_to" | "targets" | "any_number" => {
                // "Any number": as many as the selection holds (more than an expedition
                // holds in play).
                let n = if w == "any_number" {
                    MAX_TARGETS as u8
                } else {
                    self.small("number of targets", 1, MAX_TARGETS as i32)? as u8
                };
                let filter = self.filter(Whose::Any)?;
                let mut total_cost = u8::MAX;
                let mut total_of = 0;
                if self.eat_word("total_cost") {
                    self.expect_punct("<=")?;
                    total_cost = self.small("total hand cost", 0, 60)? as u8;
                } else if self.eat_word("total") {
                    self.expect_punct("(")?;
                    let t = self.terrain_word()?;
                    self.expect_punct(")")?;
                    self.expect_punct("<=")?;
                    total_of = match t {
                        terrain::FOREST => 1,
                        terrain::MOUNTAIN => 2,
                        _ => 3,
                    };
                    total_cost = self.small("total statistic", 0, 60)? as u8;
                }
                body.push(Op::Select {
                    filter,
                    min: if w == "targets" { n } else { 0 },
                    max: n,
                    total_cost,
                    total_of,
                    by_opponent: false,
                });
                ObjRef::It
            }
            _ => {
                self.pos -= 1;
                return self.err(EXPECTED);
            }
        })
    }

    fn amount(&mut self) -> PResult<Amount> {
        if self.is_punct("-")
            && let Tok::Ident(w) = self.peek_at(1).clone()
        {
            self.pos += 2;
            return match self.count_word(&w)? {
                Some(c) => Ok(Amount::Neg(c)),
                None => {
                    self.pos -= 1;
                    self.err("a count after '-' (as in -its_boosts)")
                }
            };
        }
        match self.peek().clone() {
            Tok::Int(_) | Tok::Punct("-") => {
                Ok(Amount::Const(self.small("amount", -20, 20)? as i8))
            }
            Tok::Ident(w) => {
                self.pos += 1;
                match self.count_word(&w)? {
                    Some(c) => Ok(Amount::Count(c)),
                    None => {
                        self.pos -= 1;
                        self.err(
                            "an amount (N, x, count(...), mana, hand, reserve, counters, boosts)",
                        )
                    }
                }
            }
            _ => self.err("an amount"),
        }
    }

    fn opt_amount(&mut self, default: i8) -> PResult<Amount> {
        if self.eat_punct("(") {
            let a = self.amount()?;
            self.expect_punct(")")?;
            Ok(a)
        } else {
            Ok(Amount::Const(default))
        }
    }

    fn exp_ref(&mut self) -> PResult<ExpRef> {
        const EXPECTED: &str =
            "an expedition (mine, other, hero, companion, each, target, its, selected, left)";
        let w = self.ident(EXPECTED)?;
        Ok(match w.as_str() {
            "mine" | "my" => ExpRef::Mine,
            "other" => ExpRef::Other,
            "hero" => ExpRef::Fixed(Exp::Hero),
            "companion" => ExpRef::Fixed(Exp::Companion),
            "each" | "both" => ExpRef::Each,
            "target" => ExpRef::Target,
            "its" => ExpRef::OfIt,
            "left" => ExpRef::Left,
            "selected" => ExpRef::Selected,
            _ => {
                self.pos -= 1;
                return self.err(EXPECTED);
            }
        })
    }

    fn call(&mut self, body: &mut Vec<Op>) -> PResult<()> {
        const EXPECTED: &str = "an effect (boost, counters, spend_counter, augment, draw, opponent_draws, each_draws, resupply, resupply(it), reveal_top, delay_rest, opponent_resupply_exhausted, token, opponent_token, token_after_rest, sabotage, send_reserve, to_hand, to_deck_top, to_deck_x, to_deck_bottom, discard, sacrifice, to_mana, gain, lose, exhaust, ready, discount, next_boost, next_gain, next_activate_r, next_lose, next_free, day_tough, opponent_day_tough, mana_from_deck, lose_mana, ready_mana, hand_to_reserve, sacrifice_one, each_sacrifices, opponent_sacrifices_highest, play_free, each_play_free, opponent_play_free, rush, block_forward, block_opponent_forward, hand_to_discard, forward, back, opponent_forward, opponent_back, switch, swap_boosts, defect, to_deck_at, after_you, top_play_or_hand, pass, reveal_put, place_marker, move_marker, become_first, opponent_becomes_first, each_passes, select, select_exp, opponent_select, activate_j, ascend, set_x, to_mana_ready, play_now, opponent_play_now, activate_j_each, activate_r)";
        let name = self.ident(EXPECTED)?;
        let col = self.toks[self.pos - 1].1;
        match name.as_str() {
            "spend_counter" => {
                self.expect_punct("(")?;
                let obj = self.obj(body)?;
                self.expect_punct(")")?;
                body.push(Op::SpendCounter { obj });
            }
            "augment" => {
                self.expect_punct("(")?;
                if self.eat_word("any_number") {
                    let filter = self.filter_with(Whose::Any, fkind::CARD)?;
                    body.push(Op::AugmentAny { filter });
                } else {
                    let obj = self.obj(body)?;
                    body.push(Op::Augment { obj });
                }
                self.expect_punct(")")?;
            }
            "boost" | "counters" => {
                self.expect_punct("(")?;
                let obj = self.obj(body)?;
                let n = if self.eat_punct(",") {
                    self.amount()?
                } else {
                    Amount::Const(1)
                };
                let mut max = 0;
                if name == "boost" && self.eat_punct(",") {
                    if !self.eat_word("max") {
                        return self.err("'max N' (as in boost(me, 1, max 2))");
                    }
                    max = self.small("maximum", 1, 50)? as u8;
                }
                self.expect_punct(")")?;
                body.push(if name == "boost" {
                    Op::Boost { obj, n, max }
                } else {
                    Op::Counters { obj, n }
                });
            }
            "draw" | "opponent_draws" | "each_draws" => {
                let n = self.opt_amount(1)?;
                let who = match name.as_str() {
                    "draw" => Who::You,
                    "opponent_draws" => Who::Opponent,
                    _ => Who::Each,
                };
                body.push(Op::Draw { who, n });
            }
            "resupply"
            | "resupply_exhausted"
            | "opponent_resupply"
            | "opponent_resupply_exhausted"
            | "each_resupply" => {
                let who = match name.as_str() {
                    "opponent_resupply" | "opponent_resupply_exhausted" => Who::Opponent,
                    "each_resupply" => Who::Each,
                    _ => Who::You,
                };
                // `resupply(it)`: the card put in Reserve becomes `it`.
                let keep = if who == Who::You && self.eat_punct("(") {
                    if !self.eat_word("it") {
                        return self.err("'it' (as in resupply(it))");
                    }
                    self.expect_punct(")")?;
                    true
                } else {
                    false
                };
                body.push(Op::Resupply {
                    who,
                    exhausted: name.ends_with("_exhausted"),
                    keep,
                });
            }
            "reveal_top" => body.push(Op::RevealTop),
            "delay_rest" => body.push(Op::DelayRest),
            "token" | "opponent_token" | "token_after_rest" => {
                self.expect_punct("(")?;
                // A token name may have several words ("Ordis Recruit") or be quoted.
                let mut tname = self.ident("a token name")?;
                while let Tok::Ident(w) = self.peek().clone() {
                    self.pos += 1;
                    tname.push(' ');
                    tname.push_str(&w);
                }
                let mut spec = None;
                if let Tok::Int(_) = self.peek() {
                    let f = self.small("forest", 0, 20)? as i16;
                    self.expect_punct("/")?;
                    let m = self.small("mountain", 0, 20)? as i16;
                    self.expect_punct("/")?;
                    let o = self.small("water", 0, 20)? as i16;
                    let mut subs = Vec::new();
                    while let Tok::Ident(s) = self.peek().clone() {
                        self.pos += 1;
                        subs.push(s.to_ascii_lowercase());
                    }
                    spec = Some((f, m, o, subs));
                }
                let card = match self.arena.token(&tname, spec) {
                    Some(c) => c,
                    None => {
                        return Err(DslError {
                            col,
                            msg: format!(
                                "unknown token '{tname}' (give its statistics: token({tname} 1/1/1 Subtype, ...))"
                            ),
                        });
                    }
                };
                if self.arena.is_landmark_token(card) {
                    // A Permanent token goes to a player's Landmarks: yours by default.
                    let mut whose = PlayerRef::You;
                    let mut n = 1;
                    if self.eat_punct(",") {
                        const WHOSE: &str = "whose Landmarks (yours, opponent, each, its)";
                        let w = self.ident(WHOSE)?;
                        whose = match w.as_str() {
                            "yours" | "your" => PlayerRef::You,
                            "opponent" | "opposing" => PlayerRef::Opponent,
                            "each" => PlayerRef::Each,
                            "its" => PlayerRef::OfIt,
                            _ => {
                                self.pos -= 1;
                                return self.err(WHOSE);
                            }
                        };
                        if self.eat_punct(",") {
                            n = self.small("number of tokens", 1, 8)? as u8;
                        }
                    }
                    self.expect_punct(")")?;
                    if name == "opponent_token" {
                        return self.fail(
                            "opponent_token creates character tokens; a landmark token names its owner instead (token(NAME, opponent))".into(),
                        );
                    }
                    body.push(Op::LandmarkToken { card, whose, n });
                    return Ok(());
                }
                let mut at = ExpRef::Target;
                let mut n = 1;
                if self.eat_punct(",") {
                    at = self.exp_ref()?;
                    if self.eat_punct(",") {
                        n = self.small("number of tokens", 1, 8)? as u8;
                    }
                }
                self.expect_punct(")")?;
                body.push(Op::Token {
                    card,
                    at,
                    n,
                    opposing: name == "opponent_token",
                    after_rest: name == "token_after_rest",
                });
            }
            "sabotage" => {
                let whose = if self.eat_punct("(") {
                    let w = self.ident("yours, opposing or any")?;
                    self.expect_punct(")")?;
                    match w.as_str() {
                        "yours" => Whose::Yours,
                        "opposing" => Whose::Opposing,
                        "any" => Whose::Any,
                        _ => {
                            self.pos -= 2;
                            return self.err("yours, opposing or any");
                        }
                    }
                } else {
                    Whose::Any
                };
                let filter = self.arena.push_filter(Filter {
                    kinds: fkind::CARD,
                    whose,
                    zones: fzone::RESERVE,
                    ..Filter::default()
                });
                // Sabotage = optionally pick one card in a Reserve and discard it.
                body.push(Op::Select {
                    filter,
                    min: 0,
                    max: 1,
                    total_cost: u8::MAX,
                    total_of: 0,
                    by_opponent: false,
                });
                body.push(Op::Move {
                    obj: ObjRef::It,
                    dest: Dest::Discard,
                });
            }
            "send_reserve"
            | "send_reserve_exhausted"
            | "to_hand"
            | "to_deck_top"
            | "to_deck_x"
            | "to_deck_bottom"
            | "discard"
            | "sacrifice"
            | "to_mana"
            | "to_mana_ready" => {
                self.expect_punct("(")?;
                let obj = self.obj(body)?;
                self.expect_punct(")")?;
                let dest = match name.as_str() {
                    "send_reserve" => Dest::Reserve,
                    "send_reserve_exhausted" => Dest::ReserveExhausted,
                    "to_hand" => Dest::Hand,
                    "to_deck_top" => Dest::DeckTop,
                    "to_deck_x" => Dest::DeckAtX,
                    "to_deck_bottom" => Dest::DeckBottom,
                    "discard" => Dest::Discard,
                    "to_mana" => Dest::Mana,
                    "to_mana_ready" => Dest::ManaReady,
                    _ => Dest::Sacrifice,
                };
                body.push(Op::Move { obj, dest });
            }
            "gain" | "lose" => {
                self.expect_punct("(")?;
                let obj = self.obj(body)?;
                self.expect_punct(",")?;
                let bits = self.status_bits()?;
                let tough = if bits == kw::TOUGH {
                    self.small("tough value", 1, 10)? as u8
                } else {
                    0
                };
                self.expect_punct(")")?;
                body.push(if name == "gain" {
                    Op::Gain {
                        obj,
                        status: bits,
                        tough,
                    }
                } else {
                    Op::Lose { obj, status: bits }
                });
            }
            "exhaust" | "ready" | "switch" | "swap_boosts" | "defect" => {
                self.expect_punct("(")?;
                let obj = self.obj(body)?;
                self.expect_punct(")")?;
                body.push(match name.as_str() {
                    "exhaust" => Op::Exhaust { obj },
                    "ready" => Op::Ready { obj },
                    "swap_boosts" => Op::SwapBoosts { obj },
                    "defect" => Op::Defect { obj },
                    _ => Op::Switch { obj },
                });
            }
            "to_deck_at" => {
                // to_deck_at(OBJ, N): "send it to the Nth position of its owner's deck".
                self.expect_punct("(")?;
                let obj = self.obj(body)?;
                self.expect_punct(",")?;
                let n = self.amount()?;
                self.expect_punct(")")?;
                body.push(Op::ToDeckAt { obj, n });
            }
            "discount" | "next_boost" => {
                self.expect_punct("(")?;
                let filter = self.filter_with(Whose::Yours, fkind::CARD)?;
                self.expect_punct(",")?;
                let n = self.small("amount", -10, 10)? as i8;
                let (mut min, mut afternoon) = (0, false);
                while name == "discount" && self.eat_punct(",") {
                    if self.eat_word("afternoon") {
                        afternoon = true;
                    } else if self.eat_word("min") {
                        min = self.small("minimum cost", 1, 10)? as u8;
                    } else {
                        return self.err("'afternoon' or 'min N'");
                    }
                }
                self.expect_punct(")")?;
                body.push(if name == "discount" {
                    Op::Discount {
                        filter,
                        n,
                        min,
                        afternoon,
                    }
                } else {
                    Op::NextBoost { filter, n }
                });
            }
            "next_free" => {
                self.expect_punct("(")?;
                let filter = self.filter_with(Whose::Yours, fkind::CARD)?;
                let flags = match name.as_str() {
                    _ if self.eat_punct(",") => {
                        if !self.eat_word("hand_loses_fleeting") {
                            return self.err("'hand_loses_fleeting'");
                        }
                        modflag::FREE | modflag::LOSE_FLEETING_HAND
                    }
                    _ => modflag::FREE,
                };
                self.expect_punct(")")?;
                body.push(Op::NextMod { filter, flags });
            }
            "mana_from_deck"
            | "mana_from_deck_exhausted"
            | "opponent_mana_from_deck"
            | "opponent_mana_from_deck_exhausted"
            | "each_mana_from_deck"
            | "each_mana_from_deck_exhausted" => body.push(Op::ManaFromDeck {
                who: who_prefix(&name),
                exhausted: name.ends_with("exhausted"),
            }),
            "lose_mana" => {
                let n = match self.opt_amount(1)? {
                    Amount::Const(n) if n > 0 => n as u8,
                    _ => return self.fail("lose_mana takes a positive number".into()),
                };
                body.push(Op::LoseMana { n });
            }
            "ready_mana" => {
                let n = match self.opt_amount(1)? {
                    Amount::Const(n) if n > 0 => n as u8,
                    _ => return self.fail("ready_mana takes a positive number".into()),
                };
                body.push(Op::ReadyMana { n });
            }
            "hand_to_reserve"
            | "hand_to_discard"
            | "hand_to_mana"
            | "opponent_hand_to_reserve"
            | "opponent_hand_to_discard"
            | "each_hand_to_reserve"
            | "each_hand_to_discard" => {
                // hand_to_reserve[(N[, it])]: with `it`, the moved cards become `it`.
                let mut n = 1;
                let mut keep = false;
                if self.eat_punct("(") {
                    n = match self.amount()? {
                        Amount::Const(n) if n > 0 => n as u8,
                        _ => return self.fail(format!("{name} takes a positive number")),
                    };
                    if self.eat_punct(",") {
                        if !self.eat_word("it") {
                            return self.err("'it' (as in hand_to_reserve(1, it))");
                        }
                        keep = true;
                    }
                    self.expect_punct(")")?;
                }
                let dest = if name.ends_with("reserve") {
                    Dest::Reserve
                } else if name.ends_with("discard") {
                    Dest::Discard
                } else {
                    Dest::Mana
                };
                body.push(Op::FromHand {
                    who: who_prefix(&name),
                    dest,
                    n,
                    keep,
                });
            }
            "next_gain" => {
                self.expect_punct("(")?;
                let filter = self.filter_with(Whose::Yours, fkind::CHARACTER)?;
                self.expect_punct(",")?;
                let status = self.status_bits()?;
                self.expect_punct(")")?;
                body.push(Op::NextGain { filter, status });
            }
            "day_tough" | "opponent_day_tough" => {
                // day_tough(cost>=N, T): this Day, your Characters with Hand Cost N or more
                // are Tough T.
                self.expect_punct("(")?;
                if !self.eat_word("cost") {
                    return self.err("'cost>=N' (as in day_tough(cost>=4, 5))");
                }
                self.expect_punct(">=")?;
                let min_cost = self.small("hand cost", 0, 20)? as u8;
                self.expect_punct(",")?;
                let tough = self.small("tough value", 1, 10)? as u8;
                self.expect_punct(")")?;
                body.push(Op::DayTough {
                    who: who_prefix(&name),
                    min_cost,
                    tough,
                });
            }
            "next_lose" => {
                self.expect_punct("(")?;
                let filter = self.filter_with(Whose::Yours, fkind::CARD)?;
                self.expect_punct(",")?;
                let status = self.status_bits()?;
                self.expect_punct(")")?;
                body.push(Op::NextLose { filter, status });
            }
            "next_activate_r" => {
                self.expect_punct("(")?;
                let filter = self.filter_with(Whose::Yours, fkind::CHARACTER)?;
                self.expect_punct(")")?;
                body.push(Op::NextActivateR { filter });
            }
            "opponent_sacrifices_highest" => {
                self.expect_punct("(")?;
                let filter = self.filter_with(Whose::Opposing, fkind::CHARACTER)?;
                self.expect_punct(")")?;
                body.push(Op::SacrificeHighest {
                    who: Who::Opponent,
                    filter,
                });
            }
            "sacrifice_one" | "opponent_sacrifices" | "each_sacrifices" => {
                let who = match name.as_str() {
                    "sacrifice_one" => Who::You,
                    "opponent_sacrifices" => Who::Opponent,
                    _ => Who::Each,
                };
                body.push(Op::SacrificeOne { who });
            }
            "play_free" | "each_play_free" | "opponent_play_free" => {
                self.expect_punct("(")?;
                let filter = self.card_filter(fzone::HAND)?;
                self.expect_punct(")")?;
                body.push(Op::PlayFree {
                    who: who_prefix(&name),
                    filter,
                    less: playflag::FREE,
                    exp: None,
                    flags: playflag::OPTIONAL,
                });
            }
            "play_now" | "opponent_play_now" | "rush" => {
                // play_now(FILTER | me | it [, less N | free] [, hero | companion] [, may])
                // rush[(FILTER)] [{ ... }]: you may immediately play another card (from hand
                // or Reserve, paying its cost); if you do, the block.
                let (mut less, mut exp, mut flags) = (0u8, None, 0u8);
                let mut filter = None;
                if name == "rush" {
                    flags |= playflag::OPTIONAL;
                }
                if self.eat_punct("(") {
                    if self.eat_word("me") {
                        flags |= playflag::ME;
                    } else if self.eat_word("it") {
                        flags |= playflag::IT;
                    } else {
                        filter = Some(self.card_filter(fzone::HAND | fzone::RESERVE)?);
                    }
                    while name != "rush" && self.eat_punct(",") {
                        if self.eat_word("free") {
                            less = playflag::FREE;
                        } else if self.eat_word("less") {
                            less = self.small("cost reduction", 1, 20)? as u8;
                        } else if self.eat_word("may") {
                            flags |= playflag::OPTIONAL;
                        } else if self.eat_word("hero") {
                            exp = Some(Exp::Hero);
                        } else if self.eat_word("companion") {
                            exp = Some(Exp::Companion);
                        } else {
                            return self.err("'less N', 'free', 'hero', 'companion' or 'may'");
                        }
                    }
                    self.expect_punct(")")?;
                }
                let filter = match filter {
                    Some(f) => f,
                    // A bare Rush: any card, played as on the turn (D31).
                    None if name == "rush" => {
                        body.push(Op::Rush);
                        u16::MAX
                    }
                    None => self.arena.push_filter(Filter {
                        kinds: fkind::CARD,
                        zones: fzone::HAND | fzone::RESERVE,
                        ..Filter::default()
                    }),
                };
                if filter != u16::MAX {
                    body.push(Op::PlayFree {
                        who: if name == "opponent_play_now" {
                            Who::Opponent
                        } else {
                            Who::You
                        },
                        filter,
                        less,
                        exp,
                        flags,
                    });
                }
                if name == "rush" && self.is_punct("{") {
                    let did = self.arena.push_cond(Cond::Did);
                    let at = body.len();
                    body.push(Op::JumpUnless { cond: did, to: 0 });
                    self.block(body)?;
                    let end = Self::here(body);
                    body[at] = Op::JumpUnless { cond: did, to: end };
                }
            }
            "block_forward" | "block_opponent_forward" => {
                self.expect_punct("(")?;
                let at = self.exp_ref()?;
                self.expect_punct(")")?;
                body.push(Op::BlockForward {
                    at,
                    opposing: name == "block_opponent_forward",
                });
            }
            "forward" | "back" | "opponent_forward" | "opponent_back" => {
                self.expect_punct("(")?;
                let at = self.exp_ref()?;
                self.expect_punct(")")?;
                body.push(Op::MoveExp {
                    at,
                    opposing: name.starts_with("opponent"),
                    forward: name.ends_with("forward"),
                });
            }
            "after_you" => body.push(Op::AfterYou),
            "top_play_or_hand" => body.push(Op::TopPlayOrHand),
            "pass" => body.push(Op::Pass),
            "win_game" => body.push(Op::WinGame),
            "reveal_put" => {
                self.expect_punct("(")?;
                let n = self.small("cards revealed", 1, 10)? as u8;
                self.expect_punct(",")?;
                let k = self.small("cards put", 1, MAX_TARGETS as i32)? as u8;
                self.expect_punct(",")?;
                let filter = self.filter_with(Whose::Yours, fkind::CHARACTER)?;
                let status = if self.eat_punct(",") {
                    self.status_bits()?
                } else {
                    0
                };
                self.expect_punct(")")?;
                body.push(Op::RevealPut {
                    n,
                    k,
                    filter,
                    status,
                });
            }
            "place_marker" | "move_marker" => {
                let terrain = if self.eat_punct("(") {
                    let t = self.terrain_word()?;
                    self.expect_punct(")")?;
                    t
                } else if name == "place_marker" {
                    0
                } else {
                    return self.err("'(' and a terrain: move_marker(F|M|O)");
                };
                body.push(if name == "place_marker" {
                    Op::PlaceMarker { terrain }
                } else {
                    Op::MoveMarker { terrain }
                });
            }
            "become_first" | "opponent_becomes_first" => body.push(Op::BecomeFirst {
                who: if name == "become_first" {
                    Who::You
                } else {
                    Who::Opponent
                },
            }),
            "each_passes" => body.push(Op::EachPasses),
            "select_exp" => {
                // An expedition of either side, for `selected` and `in_selected`.
                self.expect_punct("(")?;
                let w = self.ident("yours, opposing or any")?;
                let whose = match w.as_str() {
                    "yours" => Whose::Yours,
                    "opposing" => Whose::Opposing,
                    "any" => Whose::Any,
                    _ => {
                        self.pos -= 1;
                        return self.err("yours, opposing or any");
                    }
                };
                let ahead = self.eat_word("ahead");
                self.expect_punct(")")?;
                body.push(Op::SelectExp { whose, ahead });
            }
            "select" => {
                // A target chosen on its own, for the effects that follow ("it").
                self.expect_punct("(")?;
                let filter = self.filter(Whose::Any)?;
                self.expect_punct(")")?;
                body.push(Op::Select {
                    filter,
                    min: 1,
                    max: 1,
                    total_cost: u8::MAX,
                    total_of: 0,
                    by_opponent: false,
                });
            }
            "activate_j_each" => {
                self.expect_punct("(")?;
                let filter = self.filter(Whose::Yours)?;
                self.expect_punct(")")?;
                body.push(Op::ActivateJEach { filter });
            }
            "opponent_select" => {
                self.expect_punct("(")?;
                let filter = self.filter(Whose::Any)?;
                self.expect_punct(")")?;
                body.push(Op::OpponentSelect { filter });
            }
            "activate_j" | "activate_r" => {
                self.expect_punct("(")?;
                let obj = self.obj(body)?;
                self.expect_punct(")")?;
                body.push(Op::ActivateJ {
                    obj,
                    reserve: name == "activate_r",
                });
            }
            "ascend" => {
                let at = if self.eat_punct("(") {
                    let e = self.exp_ref()?;
                    self.expect_punct(")")?;
                    e
                } else {
                    ExpRef::Mine
                };
                body.push(Op::Ascend { at });
            }
            "set_x" => {
                self.expect_punct("(")?;
                let a = self.amount()?;
                self.expect_punct(")")?;
                body.push(Op::SetX(a));
            }
            _ => {
                return Err(DslError {
                    col,
                    msg: format!("unknown effect '{name}'; {}", &EXPECTED[3..]),
                });
            }
        }
        Ok(())
    }
}

/// `opponent_...` and `each_...` call names.
fn who_prefix(name: &str) -> Who {
    if name.starts_with("opponent_") {
        Who::Opponent
    } else if name.starts_with("each_") {
        Who::Each
    } else {
        Who::You
    }
}

/// Shifts the jump targets of an op compiled in a separate buffer by `offset`.
fn relocate(op: Op, offset: u16) -> Op {
    match op {
        Op::May { skip } => Op::May {
            skip: skip + offset,
        },
        Op::Pay { cost, skip } => Op::Pay {
            cost,
            skip: skip + offset,
        },
        Op::JumpUnless { cond, to } => Op::JumpUnless {
            cond,
            to: to + offset,
        },
        Op::Jump { to } => Op::Jump { to: to + offset },
        Op::LoopStart { n, end } => Op::LoopStart {
            n,
            end: end + offset,
        },
        Op::LoopNext { to } => Op::LoopNext { to: to + offset },
        other => other,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A stand-alone arena for parser tests.
    #[derive(Default)]
    pub struct TestArena {
        pub filters: Vec<Filter>,
        pub conds: Vec<Cond>,
    }

    impl Arena for TestArena {
        fn push_filter(&mut self, f: Filter) -> FilterId {
            self.filters.push(f);
            (self.filters.len() - 1) as u16
        }
        fn push_cond(&mut self, c: Cond) -> CondId {
            if self.conds.is_empty() {
                self.conds.push(Cond::True);
            }
            self.conds.push(c);
            (self.conds.len() - 1) as u16
        }
        fn subtype_bit(&mut self, name: &str) -> Option<u64> {
            ["robot", "plant", "soldier"]
                .iter()
                .position(|s| *s == name)
                .map(|i| 1 << i)
        }
        fn token(
            &mut self,
            name: &str,
            _spec: Option<(i16, i16, i16, Vec<String>)>,
        ) -> Option<CardIdx> {
            (name == "Brassbug").then_some(7)
        }
    }

    fn compile(src: &str) -> (Line, TestArena) {
        let mut a = TestArena::default();
        let l = Parser::compile_line(src, &mut a).unwrap_or_else(|e| panic!("{src}: {e}"));
        (l, a)
    }

    fn body(src: &str) -> Vec<Op> {
        match compile(src).0 {
            Line::Ability { body, .. } => body,
            other => panic!("not an ability: {other:?}"),
        }
    }

    #[test]
    fn keyword_lines() {
        assert_eq!(
            compile("gigantic").0,
            Line::Keyword {
                bits: kw::GIGANTIC,
                n: 0
            }
        );
        assert_eq!(
            compile("tough 2").0,
            Line::Keyword {
                bits: kw::TOUGH,
                n: 2
            }
        );
    }

    #[test]
    fn target_forms_select_first() {
        let b = body("spell: boost(target character, 3)");
        assert!(matches!(b[0], Op::Select { min: 1, max: 1, .. }));
        assert_eq!(
            b[1],
            Op::Boost {
                obj: ObjRef::It,
                n: Amount::Const(3),
                max: 0
            }
        );
    }

    #[test]
    fn may_skips_its_block() {
        let b = body("H: may { send_reserve(target character) }; draw");
        assert_eq!(b[0], Op::May { skip: 3 });
        assert!(matches!(b[3], Op::Draw { .. }));
    }

    #[test]
    fn choose_builds_a_jump_table() {
        let b = body("spell: choose { draw } or { resupply } or { sabotage }");
        assert_eq!(b[0], Op::Choose { n: 3 });
        let Op::Jump { to: first } = b[1] else {
            panic!()
        };
        assert!(matches!(b[first as usize], Op::Draw { .. }));
        let Op::Jump { to: third } = b[3] else {
            panic!()
        };
        assert!(matches!(
            b[third as usize],
            Op::Select { min: 0, max: 1, .. }
        ));
        assert!(matches!(
            b[third as usize + 1],
            Op::Move {
                dest: Dest::Discard,
                ..
            }
        ));
        // every mode ends by jumping past the last mode
        let end = b.len() as u16;
        assert_eq!(b[first as usize + 1], Op::Jump { to: end });
    }

    #[test]
    fn roll_branches_test_ranges() {
        let b = body("J: roll { 1-3: boost(me, 1) | 4-6: boost(me, 2) }");
        assert_eq!(b[0], Op::Roll);
        let Op::JumpUnless { to, .. } = b[1] else {
            panic!()
        };
        assert!(matches!(b[to as usize], Op::JumpUnless { .. }));
    }

    #[test]
    fn conditions_and_filters() {
        let (l, a) = compile("J if count(landmark yours) >= 2: boost(me)");
        let Line::Ability { ability, .. } = l else {
            panic!()
        };
        let Cond::Compare(Count::Objects(f), Cmp::Ge, 2) = a.conds[ability.cond as usize] else {
            panic!("{:?}", a.conds)
        };
        assert_eq!(a.filters[f as usize].kinds, fkind::LANDMARK);
        assert_eq!(a.filters[f as usize].whose, Whose::Yours);
    }

    #[test]
    fn subtypes_accept_plurals() {
        let (_, a) = compile("when joins(robots yours): boost(event)");
        assert_eq!(a.filters[0].subtypes, 1);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let mut a = TestArena::default();
        for (open, close) in [("(", ")"), ("not ", ""), ("may { ", " }")] {
            let ok = |n: usize| {
                if open == "may { " {
                    format!("H: {}draw{}", open.repeat(n), close.repeat(n))
                } else {
                    format!(
                        "H if {}first_player{}: draw",
                        open.repeat(n),
                        close.repeat(n)
                    )
                }
            };
            Parser::compile_line(&ok(20), &mut a).expect("20 levels are fine");
            let e = Parser::compile_line(&ok(100_000), &mut a).unwrap_err();
            assert!(e.msg.contains("nested too deeply"), "{}", e.msg);
        }
    }

    #[test]
    fn errors_name_the_column_and_what_was_expected() {
        let mut a = TestArena::default();
        let e = Parser::compile_line("H: boost(me, 2", &mut a).unwrap_err();
        assert_eq!(e.col, 14);
        assert!(e.msg.contains("expected ')'"), "{}", e.msg);
        let e = Parser::compile_line("H: fly(me)", &mut a).unwrap_err();
        assert!(e.msg.contains("unknown effect 'fly'"), "{}", e.msg);
        let e = Parser::compile_line("J: boost(target wizard)", &mut a).unwrap_err();
        assert!(e.msg.contains("unknown word 'wizard'"), "{}", e.msg);
        let e = Parser::compile_line("token(Nobody)", &mut a).unwrap_err();
        assert!(e.msg.contains("expected a trigger"), "{}", e.msg);
    }

    #[test]
    fn quick_costs() {
        let (l, _) = compile("quick(1, T): draw");
        let Line::Ability { ability, .. } = l else {
            panic!()
        };
        assert_eq!(
            ability.trigger,
            Trigger::Quick(Cost {
                mana: 1,
                exhaust: true,
                ..Cost::default()
            })
        );
        let (l, _) = compile("D: next_boost(character, 1)");
        let Line::Ability { ability, .. } = l else {
            panic!()
        };
        assert!(matches!(
            ability.trigger,
            Trigger::Support(Cost {
                discard_me: true,
                ..
            })
        ));
        assert_eq!(ability.active, ActiveIn::Reserve);
    }

    #[test]
    fn tokens_resolve_or_fail() {
        let b = body("R: token(Brassbug, mine, 2)");
        assert_eq!(
            b[0],
            Op::Token {
                card: 7,
                at: ExpRef::Mine,
                n: 2,
                opposing: false,
                after_rest: false,
            }
        );
        let b = body("J: select_exp(any); opponent_token(Brassbug, selected)");
        assert_eq!(
            b[0],
            Op::SelectExp {
                whose: Whose::Any,
                ahead: false
            }
        );
        assert!(matches!(
            b[1],
            Op::Token {
                at: ExpRef::Selected,
                opposing: true,
                ..
            }
        ));
        let b = body("J: boost(each character, -its_boosts)");
        assert!(matches!(
            b[0],
            Op::Boost {
                n: Amount::Neg(Count::ItsBoosts),
                ..
            }
        ));
        let mut a = TestArena::default();
        let e = Parser::compile_line("R: token(Nobody)", &mut a).unwrap_err();
        assert!(e.msg.contains("unknown token 'Nobody'"));
    }
}
