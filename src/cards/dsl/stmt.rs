//! Statements: sequences, blocks, `may`, `pay`, `if`/`else`, `choose`, `roll` and `repeat`,
//! and the objects and amounts effects take.

use super::*;

impl<'a, A: Arena> Parser<'a, A> {
    pub(super) fn seq(&mut self, body: &mut Vec<Op>) -> PResult<()> {
        self.stmt(body)?;
        while self.eat_punct(";") {
            if self.is_punct("}") || self.peek() == &Tok::End {
                break;
            }
            self.stmt(body)?;
        }
        Ok(())
    }

    pub(super) fn block(&mut self, body: &mut Vec<Op>) -> PResult<()> {
        self.expect_punct("{")?;
        self.seq(body)?;
        self.expect_punct("}")
    }

    pub(super) fn here(body: &[Op]) -> u16 {
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
            "choose" | "opponent_choose" => {
                self.pos += 1;
                let by_opponent = w == "opponent_choose";
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
                    by_opponent,
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
                // repeat AMOUNT { ... }: a loop, the amount read once when it starts;
                // repeat any { ... }: again while the body's may or pay is taken.
                self.pos += 1;
                let any = self.eat_word("any");
                let n = if any {
                    Amount::Const(0)
                } else {
                    self.amount()?
                };
                let at = body.len();
                body.push(Op::LoopStart { n, end: 0 });
                self.block(body)?;
                if body[at + 1..]
                    .iter()
                    .any(|op| matches!(op, Op::LoopStart { .. } | Op::LoopAny { .. }))
                {
                    return self
                        .fail("a repeat with an amount (or any) can't hold another one".into());
                }
                body.push(Op::LoopNext {
                    to: at as u16 + 1,
                    any,
                });
                let end = Self::here(body);
                body[at] = if any {
                    Op::LoopAny { end }
                } else {
                    Op::LoopStart { n, end }
                };
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
    pub(super) fn obj(&mut self, body: &mut Vec<Op>) -> PResult<ObjRef> {
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

    pub(super) fn amount(&mut self) -> PResult<Amount> {
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
                    // A count plus a number: `counters+2`.
                    Some(c) if self.eat_punct("+") => {
                        Ok(Amount::Plus(c, self.small("amount added", 1, 20)? as i8))
                    }
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

    pub(super) fn opt_amount(&mut self, default: i8) -> PResult<Amount> {
        if self.eat_punct("(") {
            let a = self.amount()?;
            self.expect_punct(")")?;
            Ok(a)
        } else {
            Ok(Amount::Const(default))
        }
    }

    pub(super) fn exp_ref(&mut self) -> PResult<ExpRef> {
        const EXPECTED: &str = "an expedition (mine, other, hero, companion, each, target, its, selected, left, any_hero, any_companion)";
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
            "any_hero" => ExpRef::AnyOf(Exp::Hero),
            "any_companion" => ExpRef::AnyOf(Exp::Companion),
            _ => {
                self.pos -= 1;
                return self.err(EXPECTED);
            }
        })
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
        Op::LoopAny { end } => Op::LoopAny { end: end + offset },
        Op::LoopNext { to, any } => Op::LoopNext {
            to: to + offset,
            any,
        },
        other => other,
    }
}
