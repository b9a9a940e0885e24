//! Whole lines: keyword lines, static abilities, triggers, the events of `when`, and costs.

use super::*;

impl<'a, A: Arena> Parser<'a, A> {
    pub(super) fn line(&mut self) -> PResult<Line> {
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
                    | Static::CostInContactExp(_)
                    | Static::CostInStartExp(_)
                    | Static::NotInStartExp
                    | Static::DiscardDiscount(_)
                    | Static::ExhaustDiscount(_)
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
        let w = self.ident("a static ability (cost, cost_empty_exp, cost_contact_exp, cost_start_exp, no_start_exp, defect_instead(STATUS), in_contact, behind, tough_aura, tough_x, min_cost_opponent, defender_no_block, keep_exhausted, aura, level_stats, silence_facing, also, ascend_resupply, keyword, extra_die, draw_one, discard_discount, exhaust_discount, sacrifice_discount, alt_less, resupply_two, cost_aura, start_counters, start_markers, playable_if, play_exhausted, leave_to_mana, may_leave_to_mana, gain_instead, regain, your_reserve_limit, extra_exhausted_reserve, not_counted_in_reserve, expand_from_deck, dusk_extra_forward, terrain_add, terrain_set, all_regions, no_forward, darkness_only_due, cost_per, roll_plus_one, uncounted_reserve)")?;
        Ok(match w.as_str() {
            "cost" | "cost_empty_exp" | "cost_contact_exp" | "cost_start_exp" => {
                self.expect_punct("(")?;
                let n = self.small("cost change", -10, 10)?;
                self.expect_punct(")")?;
                match w.as_str() {
                    "cost" => Static::Cost(n as i8),
                    "cost_empty_exp" => Static::CostInEmptyExp(n as i8),
                    "cost_start_exp" => Static::CostInStartExp(n as i8),
                    _ => Static::CostInContactExp(n as i8),
                }
            }
            "in_contact" => Static::ConsideredInContact,
            "no_start_exp" => Static::NotInStartExp,
            "defect_instead" => {
                self.expect_punct("(")?;
                let status = self.status_bits()?;
                self.expect_punct(")")?;
                Static::DefectInstead(status)
            }
            "behind" => Static::ConsideredBehind,
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
            "discard_discount" | "exhaust_discount" | "sacrifice_discount" | "alt_less" => {
                self.expect_punct("(")?;
                let n = self.small("cost reduction", 1, 10)?;
                self.expect_punct(")")?;
                match w.as_str() {
                    "discard_discount" => Static::DiscardDiscount(n as u8),
                    "exhaust_discount" => Static::ExhaustDiscount(n as u8),
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
                return self.err("a static ability (cost, cost_empty_exp, cost_contact_exp, cost_start_exp, no_start_exp, defect_instead(STATUS), in_contact, behind, tough_aura, tough_x, min_cost_opponent, defender_no_block, keep_exhausted, aura, level_stats, silence_facing, also, ascend_resupply, keyword, extra_die, draw_one, discard_discount, exhaust_discount, sacrifice_discount, alt_less, resupply_two, cost_aura, start_counters, start_markers, playable_if, play_exhausted, leave_to_mana, may_leave_to_mana, gain_instead, regain, your_reserve_limit, extra_exhausted_reserve, not_counted_in_reserve, expand_from_deck, dusk_extra_forward, terrain_add, terrain_set, all_regions, no_forward, darkness_only_due, cost_per, roll_plus_one, uncounted_reserve)");
            }
        })
    }

    /// A terrain letter or word: F/forest, M/mountain, O/water.
    pub(super) fn terrain_word(&mut self) -> PResult<u8> {
        let t = self.ident("F, M or O")?;
        match terrain::parse(&t) {
            Some(b) => Ok(b),
            None => {
                self.pos -= 1;
                self.err("F, M or O")
            }
        }
    }

    pub(super) fn status_bits(&mut self) -> PResult<u32> {
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
        const EXPECTED: &str = "an event (leave, leave_landmarks, leaves(...), to_reserve, to_reserve(any), card_to_reserve, sacrificed, sacrificed_as(...), you_sacrifice(...), counters_reach(N), play(...), play_reserve(...), play_first(...), opponent_play(...), opponent_play_reserve(...), joins(...), joins_facing(...), roll, fails, moves, ascended_moves[(unfaced)], moves_due(T), exp_moves_due(T), reserve_leaves, card_discarded, token_created[(...)], boosted, gains(STATUS), i_gain(STATUS), exhaust_reserve, pass_first, opponent_draws, gift)";
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
            // "When you create a token Character": bare, any token character.
            "token_created" => EventKind::YouCreateToken(if self.eat_punct("(") {
                let f = self.filter_with(Whose::Any, fkind::CHARACTER)?;
                self.expect_punct(")")?;
                f
            } else {
                self.arena.push_filter(Filter::default())
            }),
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

    pub(super) fn costs(&mut self) -> PResult<Cost> {
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
}
