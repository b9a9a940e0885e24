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
//!           | choose {seq} or {seq} ... | roll [{ a-b: seq | c-d: seq }]
//!           | repeat (N | amount | any) {seq} | call
//! ```
//!
//! The parser's methods are split by what they read: `lexer` makes the tokens, `line`
//! whole lines (keywords, statics, triggers, costs), `cond` conditions and filters, `stmt`
//! statements and their operands, `names` the effect calls by name.
//!
//! Layer: part of [`crate::cards`]; may use `error` and nothing else of the crate.

mod cond;
mod lexer;
mod line;
mod names;
mod stmt;

use super::effect::*;
use super::types::{Exp, kw, terrain};
use lexer::{Lexer, Tok};

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
        assert_eq!(
            b[0],
            Op::Choose {
                n: 3,
                by_opponent: false
            }
        );
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

    #[test]
    fn a_count_plus_a_number_and_a_loop_until_declined() {
        let b = body("spell: boost(target character, counters+2)");
        assert_eq!(
            b[1],
            Op::Boost {
                obj: ObjRef::It,
                n: Amount::Plus(Count::MyCounters, 2),
                max: 0
            }
        );
        let b = body("J: repeat any { pay(discard_reserve) { draw } }; boost(me, 1)");
        assert_eq!(b[0], Op::LoopAny { end: 4 });
        assert!(matches!(b[1], Op::Pay { skip: 3, .. }));
        assert_eq!(b[3], Op::LoopNext { to: 1, any: true });
        assert!(matches!(b[4], Op::Boost { .. }));
        let b = body("J: repeat counters { draw }");
        assert!(matches!(b[0], Op::LoopStart { end: 3, .. }));
        assert_eq!(b[2], Op::LoopNext { to: 1, any: false });
        let b = body("H: opponent_choose { draw } or { resupply }");
        assert_eq!(
            b[0],
            Op::Choose {
                n: 2,
                by_opponent: true
            }
        );
        for bad in [
            "J: repeat any { repeat any { draw } }",
            "J: repeat counters { repeat any { draw } }",
            "J: boost(me, counters+0)",
        ] {
            let mut a = TestArena::default();
            assert!(Parser::compile_line(bad, &mut a).is_err(), "{bad}");
        }
    }

    #[test]
    fn next_character_modifiers_take_their_places() {
        assert_eq!(
            body("quick(T): next_boost(character, 2, mine, joins)")[0],
            Op::NextBoost {
                filter: 0,
                n: 2,
                place: modplace::MINE | modplace::JOINS
            }
        );
        assert_eq!(
            body("quick(T): next_activate_r(character, mine)")[0],
            Op::NextActivateR {
                filter: 0,
                place: modplace::MINE
            }
        );
        assert_eq!(
            body("D: next_boost(character, 1)")[0],
            Op::NextBoost {
                filter: 0,
                n: 1,
                place: 0
            }
        );
        let mut a = TestArena::default();
        let e = Parser::compile_line("D: next_boost(character, 1, yours)", &mut a).unwrap_err();
        assert!(e.msg.contains("'mine' or 'joins'"), "{}", e.msg);
    }

    #[test]
    fn rush_may_pay_the_hand_cost_from_reserve() {
        assert_eq!(body("H: rush(hand_cost)")[0], Op::Rush { hand_cost: true });
        assert_eq!(body("H: rush")[0], Op::Rush { hand_cost: false });
        // rush(FILTER) is still a filtered Rush, not a bare one.
        assert!(matches!(body("H: rush(character)")[0], Op::PlayFree { .. }));
    }

    #[test]
    fn expedition_statics_and_new_calls() {
        let stat = |src: &str| match compile(src).0 {
            Line::Ability { ability, .. } => (ability.trigger, ability.active),
            other => panic!("not an ability: {other:?}"),
        };
        assert_eq!(
            stat("static cost_contact_exp(-2)"),
            (
                Trigger::Static(Static::CostInContactExp(-2)),
                ActiveIn::Anywhere
            )
        );
        assert_eq!(
            stat("static cost_start_exp(3)"),
            (
                Trigger::Static(Static::CostInStartExp(3)),
                ActiveIn::Anywhere
            )
        );
        assert_eq!(
            stat("static no_start_exp"),
            (Trigger::Static(Static::NotInStartExp), ActiveIn::Anywhere)
        );
        assert_eq!(
            stat("static exhaust_discount(1)"),
            (
                Trigger::Static(Static::ExhaustDiscount(1)),
                ActiveIn::Anywhere
            )
        );
        assert_eq!(
            stat("static in_contact"),
            (Trigger::Static(Static::ConsideredInContact), ActiveIn::Play)
        );
        assert_eq!(
            stat("static behind"),
            (Trigger::Static(Static::ConsideredBehind), ActiveIn::Play)
        );
        assert_eq!(
            stat("static defect_instead(fleeting)"),
            (
                Trigger::Static(Static::DefectInstead(kw::FLEETING)),
                ActiveIn::Play
            )
        );
        assert_eq!(
            body("J: take_control(it)")[0],
            Op::TakeControl { obj: ObjRef::It }
        );
        assert_eq!(
            body("J: activate_r_as_mine(it)")[0],
            Op::ActivateRAsMine { obj: ObjRef::It }
        );
        let (l, a) = compile("J if exps_in_contact >= 2: draw");
        let Line::Ability { ability, .. } = l else {
            panic!()
        };
        assert_eq!(
            a.conds[ability.cond as usize],
            Cond::Compare(Count::ExpsInContact, Cmp::Ge, 2)
        );
    }
}
