//! Conditions (`if ...`) and the card filters they and the effects select with.

use super::*;

const STATUS_WORDS: [&str; 8] = [
    "fleeting", "anchored", "asleep", "eternal", "gigantic", "defender", "seasoned", "tough",
];

impl<'a, A: Arena> Parser<'a, A> {
    // ---- conditions ----

    pub(super) fn cond(&mut self) -> PResult<CondId> {
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

    pub(super) fn count_word(&mut self, w: &str) -> PResult<Option<Count>> {
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
            "exps_in_contact" => Count::ExpsInContact,
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
        const EXPECTED: &str = "a condition (first_player, behind, all_behind, ahead, in_contact, did, in_mana, paid_less, none_advanced, afternoon, ascended, boosted, has(status), was(status), terrain(F|M|O), facing_terrain(F|M|O), roll in a-b, count(...) >= N, mana/hand/reserve/counters/x >= N, control(...), distinct(F, F[, F]), it_is(...), not ..., (...))";
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
            "terrain" | "facing_terrain" => {
                let facing = w == "facing_terrain";
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
                if facing {
                    Cond::FacingTerrain(bits)
                } else {
                    Cond::MyTerrain(bits)
                }
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

    pub(super) fn filter(&mut self, whose: Whose) -> PResult<FilterId> {
        self.filter_with(whose, 0)
    }

    /// Words up to ',' ')' ';' or '}' describe a set of objects.
    pub(super) fn filter_with(&mut self, whose: Whose, default_kinds: u8) -> PResult<FilterId> {
        let (f, _) = self.filter_parse(whose, default_kinds)?;
        Ok(self.arena.push_filter(f))
    }

    /// A filter for cards to play: from the zones it names, else from `zones`.
    pub(super) fn card_filter(&mut self, zones: u8) -> PResult<FilterId> {
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
        // `token` alone is a token Character (and whatever the context defaults to); with a
        // kind it is a token of that kind only ("target token Permanent": Milady de Winter).
        let kinds_named = f.kinds != 0;
        if f.kinds == 0 {
            f.kinds = if default_kinds != 0 {
                default_kinds
            } else if f.zones & (fzone::RESERVE | fzone::HAND) != 0 {
                fkind::CARD
            } else {
                fkind::CHARACTER
            };
        }
        if f.token == Some(true) && !kinds_named {
            f.kinds |= fkind::CHARACTER;
        }
        Ok((f, zones_set))
    }
}
