//! Effect calls by name (`boost`, `draw`, `to_hand`, ...): each name and its arguments
//! compiled into ops.

use super::*;

impl<'a, A: Arena> Parser<'a, A> {
    pub(super) fn call(&mut self, body: &mut Vec<Op>) -> PResult<()> {
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
                if self.eat_punct(",") {
                    if !self.eat_word("max") {
                        return self.err(&format!("'max N' (as in {name}(me, 1, max 2))"));
                    }
                    max = self.small("maximum", 1, 50)? as u8;
                }
                self.expect_punct(")")?;
                body.push(if name == "boost" {
                    Op::Boost { obj, n, max }
                } else {
                    Op::Counters { obj, n, max }
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
                let place = if name == "next_boost" {
                    self.mod_place()?
                } else {
                    0
                };
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
                    Op::NextBoost { filter, n, place }
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
                // hand_to_reserve[(N[, it][, may])]: with `it`, the moved cards become `it`;
                // with `may`, an opponent's "may" (each chooser may decline).
                let mut n = 1;
                let mut keep = false;
                let mut may = false;
                if self.eat_punct("(") {
                    n = match self.amount()? {
                        Amount::Const(n) if n > 0 => n as u8,
                        _ => return self.fail(format!("{name} takes a positive number")),
                    };
                    while self.eat_punct(",") {
                        if !keep && self.eat_word("it") {
                            keep = true;
                        } else if !may && self.eat_word("may") {
                            may = true;
                        } else {
                            return self
                                .err("'it' or 'may' (as in opponent_hand_to_reserve(1, may))");
                        }
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
                    may,
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
                let place = self.mod_place()?;
                self.expect_punct(")")?;
                body.push(Op::NextActivateR { filter, place });
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
                let mut hand_cost = false;
                if name == "rush" {
                    flags |= playflag::OPTIONAL;
                }
                // rush(hand_cost): a bare Rush; a card from Reserve may cost its Hand Cost
                // rather than the Reserve Cost.
                if name == "rush"
                    && self.is_punct("(")
                    && matches!(self.peek_at(1), Tok::Ident(w) if w == "hand_cost")
                {
                    self.pos += 1;
                    self.eat_word("hand_cost");
                    self.expect_punct(")")?;
                    hand_cost = true;
                } else if self.eat_punct("(") {
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
                        body.push(Op::Rush { hand_cost });
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
            "take_control" => {
                self.expect_punct("(")?;
                let obj = self.obj(body)?;
                self.expect_punct(")")?;
                body.push(Op::TakeControl { obj });
            }
            "activate_r_as_mine" => {
                self.expect_punct("(")?;
                let obj = self.obj(body)?;
                self.expect_punct(")")?;
                body.push(Op::ActivateRAsMine { obj });
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

    /// The optional places of a "the next Character ..." modifier, after its other
    /// arguments: `, mine` (only into the expedition I stand in) and `, joins` (a token
    /// created there takes it too: "the next Character that joins ...").
    fn mod_place(&mut self) -> PResult<u8> {
        let mut place = 0;
        while self.eat_punct(",") {
            if self.eat_word("mine") {
                place |= modplace::MINE;
            } else if self.eat_word("joins") {
                place |= modplace::JOINS;
            } else {
                return self.err("'mine' or 'joins'");
            }
        }
        Ok(place)
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
