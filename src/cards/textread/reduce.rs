//! The compiled form reduced to the normal form: the ops of an ability (flat, with jumps)
//! become a tree of steps, a `Select` and the op that acts on its choice become one op on a
//! target, and every filter, condition and amount is rendered canonically.
//!
//! Layer: part of [`crate::cards`]; may use `error` and nothing else of the crate.

use super::norm::{Ctx, NAbility, NStep, filter_str, op, target_str};
use crate::cards::CardDb;
use crate::cards::effect::*;
use crate::cards::types::{kw, terrain};

/// Reduces one compiled ability; `Err` names what the normal form does not cover.
pub fn ability(ctx: &Ctx, ab: &Ability) -> Result<NAbility, String> {
    let db = ctx.db;
    let ops: Vec<Op> = (0..ab.len).map(|pc| db.op(ab, pc)).collect();
    let r = Reducer { db, ctx };
    let mut body = r.block(&ops, 0, ops.len())?;
    body = merge_targets(body);
    if ab.cond != 0 {
        body = vec![NStep::If(r.cond(ab.cond), body, Vec::new())];
    }
    let trigger = r.trigger(&ab.trigger)?;
    let support = ab.active == ActiveIn::Reserve;
    Ok(NAbility {
        support,
        trigger,
        body: super::canon_body(body),
    })
}

pub struct Reducer<'a> {
    pub db: &'a CardDb,
    pub ctx: &'a Ctx<'a>,
}

/// A `select` step followed by an op on `it` become that op on the target.
pub fn merge_targets(steps: Vec<NStep>) -> Vec<NStep> {
    let mut out: Vec<NStep> = Vec::new();
    let mut pending: Option<String> = None;
    for s in steps {
        let s = match s {
            NStep::May(b) => NStep::May(merge_targets(b)),
            NStep::Pay(c, b) => NStep::Pay(c, merge_targets(b)),
            NStep::If(c, t, e) => NStep::If(c, merge_targets(t), merge_targets(e)),
            NStep::Choose(m) => NStep::Choose(m.into_iter().map(merge_targets).collect()),
            NStep::Roll(br) => NStep::Roll(
                br.into_iter()
                    .map(|(a, b, s)| (a, b, merge_targets(s)))
                    .collect(),
            ),
            NStep::Repeat(n, b) => NStep::Repeat(n, merge_targets(b)),
            other => other,
        };
        // "select(T); if C { X(it); Y } else { X(it); Z }": X on the target, then the test.
        if let (Some(t), NStep::If(c, th, el)) = (&pending, &s)
            && let (Some(NStep::Op(a)), Some(NStep::Op(b))) = (th.first(), el.first())
            && a == b
            && a.contains("(it")
        {
            out.push(NStep::Op(a.replacen("(it", &format!("({t}"), 1)));
            out.push(NStep::If(c.clone(), th[1..].to_vec(), el[1..].to_vec()));
            pending = None;
            continue;
        }
        if let NStep::Op(o) = &s {
            if let Some(t) = o.strip_prefix("select(").and_then(|r| r.strip_suffix(')')) {
                if let Some(p) = pending.take() {
                    out.push(NStep::Op(format!("select({p})")));
                }
                pending = Some(t.to_string());
                continue;
            }
            if let Some(t) = pending.take() {
                if o.contains("(it") {
                    out.push(NStep::Op(o.replacen("(it", &format!("({t}"), 1)));
                    continue;
                }
                out.push(NStep::Op(format!("select({t})")));
            }
        } else if let Some(t) = pending.take() {
            out.push(NStep::Op(format!("select({t})")));
        }
        out.push(s);
    }
    if let Some(t) = pending {
        out.push(NStep::Op(format!("select({t})")));
    }
    out
}

impl Reducer<'_> {
    pub fn filter(&self, id: FilterId) -> String {
        if id == ME_FILTER {
            return "me".into();
        }
        filter_str(self.db.filter(id), self.ctx)
    }

    pub fn obj(&self, o: ObjRef) -> String {
        match o {
            ObjRef::Me => "me".into(),
            ObjRef::It => "it".into(),
            // "it" in a text's "When ... —" ability is the event's object.
            ObjRef::Event => "it".into(),
            ObjRef::Each(f) => format!("each({})", self.filter(f)),
        }
    }

    pub fn count(&self, c: Count) -> String {
        match c {
            Count::Objects(f) => format!("count({})", self.filter(f)),
            Count::BoostsOf(f) => format!("boosts_of({})", self.filter(f)),
            Count::ZeroStatsOf(f) => format!("zero_stats_of({})", self.filter(f)),
            Count::ExpsInTerrain(t) => format!("exps_in({})", terrain::describe(t)),
            Count::AllExpsInTerrain(t) => format!("all_exps_in({})", terrain::describe(t)),
            other => format!("{other:?}"),
        }
    }

    pub fn amount(&self, a: Amount) -> String {
        match a {
            Amount::Const(n) => n.to_string(),
            Amount::Count(c) => self.count(c),
            Amount::Neg(c) => format!("-{}", self.count(c)),
            Amount::Plus(c, n) => format!("{}+{n}", self.count(c)),
        }
    }

    pub fn cond(&self, id: CondId) -> String {
        match self.db.cond(id) {
            Cond::True => "true".into(),
            Cond::Compare(c, cmp, n) => cmp_str(&self.count(c), cmp, n),
            Cond::CompareCounts(a, cmp, b) => {
                format!("{} {:?} {}", self.count(a), cmp, self.count(b))
            }
            Cond::ItMatches(f) => format!("it_is({})", self.filter(f)),
            Cond::Control(f) => cmp_str(&format!("count({})", self.filter(f)), Cmp::Ge, 1),
            Cond::Distinct(fs, n) => format!(
                "distinct({})",
                fs[..n as usize]
                    .iter()
                    .map(|f| self.filter(*f))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            Cond::MeHas(b) => format!("me_has({})", kw::describe(b).join("|")),
            Cond::MeHad(b) => format!("me_had({})", kw::describe(b).join("|")),
            Cond::MyTerrain(t) => format!("terrain({})", terrain::describe(t)),
            Cond::Not(c) => format!("not({})", self.cond(c)),
            Cond::And(a, b) => format!("({} and {})", self.cond(a), self.cond(b)),
            Cond::Or(a, b) => format!("({} or {})", self.cond(a), self.cond(b)),
            other => format!("{other:?}"),
        }
    }

    pub fn trigger(&self, t: &Trigger) -> Result<String, String> {
        Ok(match t {
            Trigger::Spell => "spell".into(),
            Trigger::Played(PlayFrom::Any) => "J".into(),
            Trigger::Played(PlayFrom::Hand) => "H".into(),
            Trigger::Played(PlayFrom::Reserve) => "R".into(),
            Trigger::Noon => "noon".into(),
            Trigger::Dusk => "dusk".into(),
            Trigger::Night => "night".into(),
            Trigger::AfterRest => "night_after_rest".into(),
            Trigger::Delayed => "after_rest".into(),
            Trigger::Quick(c) => format!("quick({})", cost_str(c)),
            Trigger::Support(c) => format!("D({})", cost_str(c)),
            Trigger::When(ev) => format!("when {}", self.event(ev)),
            Trigger::Static(st) => format!("static {}", self.static_str(st)),
        })
    }

    /// An event's filter, read as the text reads it: the event names the side (`you
    /// play`, `an opponent plays`), so a filter naming the same side, or none, reads as
    /// none. A filter naming the other side is kept: the engine tests both, so such a
    /// trigger never fires, and it must not read as the text.
    fn ev_filter(&self, id: FilterId, side: Whose) -> String {
        let mut f = *self.db.filter(id);
        if f.whose == side {
            f.whose = Whose::Any;
        }
        f.zones = Filter::default().zones;
        filter_str(&f, self.ctx)
    }

    /// The events with a filter: the word the encoding writes, and the side the event
    /// itself names.
    fn filtered_event(e: &EventKind) -> Option<(&'static str, FilterId, Whose)> {
        use Whose::{Opposing, Yours};
        Some(match *e {
            EventKind::LeavesYourExpeditions(f) => ("leaves", f, Yours),
            EventKind::SacrificedAs(f) => ("sacrificed_as", f, Yours),
            EventKind::YouSacrifice(f) => ("you_sacrifice", f, Yours),
            EventKind::YouPlay(f) => ("play", f, Yours),
            EventKind::YouPlayFromReserve(f) => ("play_reserve", f, Yours),
            EventKind::YouPlayFirst(f) => ("play_first", f, Yours),
            EventKind::OpponentPlays(f) => ("opponent_play", f, Opposing),
            EventKind::OpponentPlaysFromReserve(f) => ("opponent_play_reserve", f, Opposing),
            EventKind::Joins(f) => ("joins", f, Yours),
            EventKind::JoinsFacing(f) => ("joins_facing", f, Opposing),
            EventKind::YouCreateToken(f) => ("token_created", f, Yours),
            _ => return None,
        })
    }

    fn event(&self, e: &EventKind) -> String {
        if let Some((word, f, side)) = Self::filtered_event(e) {
            return format!("{word}({})", self.ev_filter(f, side));
        }
        match e {
            EventKind::IGain(b) => format!("i_gain({})", kw::describe(*b).join("|")),
            EventKind::YourCharacterGains(b) => format!("gains({})", kw::describe(*b).join("|")),
            EventKind::MyExpMovesDue(t) => format!("moves_due({})", terrain::describe(*t)),
            EventKind::YourExpMovesDue(t) => format!("exp_moves_due({})", terrain::describe(*t)),
            other => format!("{other:?}"),
        }
    }

    fn static_str(&self, s: &Static) -> String {
        match s {
            Static::ToughAura(f, n) => format!("tough_aura({}, {n})", self.filter(*f)),
            Static::ToughCount(c) => format!("tough_x({})", self.count(*c)),
            Static::CostPer(n, c) => format!("cost_per({n}, {})", self.count(*c)),
            Static::OpponentMinCost(f, n) => format!("min_cost_opponent({}, {n})", self.filter(*f)),
            Static::KeywordAura(f, b) => {
                format!("aura({}, {})", self.filter(*f), kw::describe(*b).join("|"))
            }
            Static::Grant(f, from) => format!("grant({}, {from:?})", self.filter(*f)),
            Static::NoCounters(f) => format!("no_counters({})", self.filter(*f)),
            Static::LevelStats(f) => format!("level_stats({})", self.filter(*f)),
            Static::Keyword(b) => format!("keyword({})", kw::describe(*b).join("|")),
            Static::CostAura(f, n) => format!("cost_aura({}, {n})", self.filter(*f)),
            Static::CostAuraMin(f, n, m) => {
                format!("cost_aura({}, -{n}, min {m})", self.filter(*f))
            }
            Static::PlayExhausted(f, mine) => {
                format!("play_exhausted({}, {mine})", self.filter(*f))
            }
            other => format!("{other:?}"),
        }
    }

    /// The steps of `ops[from..to]`.
    pub fn block(&self, ops: &[Op], from: usize, to: usize) -> Result<Vec<NStep>, String> {
        let mut out = Vec::new();
        let mut pc = from;
        while pc < to {
            match ops[pc] {
                Op::May { skip } => {
                    out.push(NStep::May(self.block(ops, pc + 1, skip as usize)?));
                    pc = skip as usize;
                }
                Op::Pay { cost, skip } => {
                    out.push(NStep::Pay(
                        cost_str(&cost),
                        self.block(ops, pc + 1, skip as usize)?,
                    ));
                    pc = skip as usize;
                }
                Op::JumpUnless { cond, to: t } => {
                    let t = t as usize;
                    let else_end = match ops.get(t.wrapping_sub(1)) {
                        Some(Op::Jump { to: end }) if t > pc + 1 && (*end as usize) > t => {
                            Some(*end as usize)
                        }
                        _ => None,
                    };
                    match else_end {
                        Some(end) => {
                            out.push(NStep::If(
                                self.cond(cond),
                                self.block(ops, pc + 1, t - 1)?,
                                self.block(ops, t, end)?,
                            ));
                            pc = end;
                        }
                        None => {
                            out.push(NStep::If(
                                self.cond(cond),
                                self.block(ops, pc + 1, t)?,
                                Vec::new(),
                            ));
                            pc = t;
                        }
                    }
                }
                Op::Roll => {
                    pc += 1;
                    let mut branches = Vec::new();
                    while pc < to {
                        let Op::JumpUnless { cond, to: t } = ops[pc] else {
                            break;
                        };
                        let Cond::Roll(lo, hi) = self.db.cond(cond) else {
                            break;
                        };
                        let t = t as usize;
                        branches.push((lo, hi, self.block(ops, pc + 1, t - 1)?));
                        pc = t;
                    }
                    out.push(NStep::Roll(branches));
                }
                Op::Choose { n, by_opponent } => {
                    let n = n as usize;
                    let starts: Vec<usize> = (0..n)
                        .map(|i| match ops[pc + 1 + i] {
                            Op::Jump { to } => Ok(to as usize),
                            _ => Err("a malformed choose".to_string()),
                        })
                        .collect::<Result<_, _>>()?;
                    // Each mode ends with a jump to the end.
                    let last_exit = {
                        let mut e = starts[n - 1];
                        loop {
                            if e >= to {
                                return Err("a malformed choose".into());
                            }
                            if let Op::Jump { to: end } = ops[e]
                                && end as usize > e
                                && (0..n).all(|i| {
                                    let s = if i + 1 < n { starts[i + 1] } else { e + 1 };
                                    matches!(ops[s - 1], Op::Jump { to: x } if x == end)
                                })
                            {
                                break e;
                            }
                            e += 1;
                        }
                    };
                    let end = match ops[last_exit] {
                        Op::Jump { to } => to as usize,
                        _ => unreachable!(),
                    };
                    let mut modes = Vec::new();
                    for i in 0..n {
                        let s = starts[i];
                        let e = if i + 1 < n {
                            starts[i + 1] - 1
                        } else {
                            last_exit
                        };
                        modes.push(self.block(ops, s, e)?);
                    }
                    // The opponent's choice: a mark before the modes.
                    if by_opponent {
                        out.push(op("opponent_chooses", &[]));
                    }
                    out.push(NStep::Choose(modes));
                    pc = end;
                }
                Op::LoopStart { n, end } => {
                    let end = end as usize;
                    out.push(NStep::Repeat(
                        self.amount(n),
                        self.block(ops, pc + 1, end - 1)?,
                    ));
                    pc = end;
                }
                Op::LoopAny { end } => {
                    let end = end as usize;
                    out.push(NStep::Repeat(
                        "any".into(),
                        self.block(ops, pc + 1, end - 1)?,
                    ));
                    pc = end;
                }
                Op::PayCards { .. } => pc += 1,
                Op::Select {
                    filter,
                    min,
                    max,
                    total_cost,
                    total_of,
                    by_opponent,
                } => {
                    let f = self.db.filter(filter);
                    // [Sabotage]: up to one card of a Reserve, discarded.
                    if min == 0
                        && max == 1
                        && f.kinds == fkind::CARD
                        && f.zones == fzone::RESERVE
                        && *f
                            == (Filter {
                                kinds: fkind::CARD,
                                whose: f.whose,
                                zones: fzone::RESERVE,
                                ..Filter::default()
                            })
                        && matches!(
                            ops.get(pc + 1),
                            Some(Op::Move {
                                obj: ObjRef::It,
                                dest: Dest::Discard
                            })
                        )
                        && pc + 1 < to
                    {
                        out.push(op("sabotage", &[&format!("{:?}", f.whose)]));
                        pc += 2;
                        continue;
                    }
                    let total = match (total_cost, total_of) {
                        (u8::MAX, _) => String::new(),
                        (n, 0) => format!(" total_cost<={n}"),
                        (n, t) => format!(" total{t}<={n}"),
                    };
                    out.push(op(
                        "select",
                        &[&target_str(
                            &self.filter(filter),
                            min,
                            max,
                            by_opponent,
                            &total,
                        )],
                    ));
                    pc += 1;
                }
                o => {
                    out.push(self.op(o)?);
                    pc += 1;
                }
            }
        }
        Ok(out)
    }

    fn op(&self, o: Op) -> Result<NStep, String> {
        let a = |x: Amount| self.amount(x);
        Ok(match o {
            Op::Boost { obj, n, max } => {
                if max == 0 {
                    op("boost", &[&self.obj(obj), &a(n)])
                } else {
                    op("boost", &[&self.obj(obj), &a(n), &format!("max {max}")])
                }
            }
            Op::Counters { obj, n, max } => {
                if max == 0 {
                    op("counters", &[&self.obj(obj), &a(n)])
                } else {
                    op("counters", &[&self.obj(obj), &a(n), &format!("max {max}")])
                }
            }
            Op::SpendCounter { obj } => op("spend_counter", &[&self.obj(obj)]),
            Op::Augment { obj } => op("augment", &[&self.obj(obj)]),
            Op::AugmentAny { filter } => op("augment_any", &[&self.filter(filter)]),
            Op::Draw { who, n } => op("draw", &[&format!("{who:?}"), &a(n)]),
            Op::Resupply {
                who,
                exhausted,
                keep: _,
            } => op(
                if exhausted {
                    "resupply_exhausted"
                } else {
                    "resupply"
                },
                &[&format!("{who:?}")],
            ),
            Op::RevealTop => op("reveal_top", &[]),
            Op::Token {
                card,
                at,
                n,
                opposing,
                after_rest,
            } => {
                let c = self.db.card(card);
                op(
                    if after_rest {
                        "token_after_rest"
                    } else {
                        "token"
                    },
                    &[
                        &token_str(&c.name, c.stats),
                        &format!("{at:?}"),
                        &n.to_string(),
                        if opposing { "opposing" } else { "yours" },
                    ],
                )
            }
            Op::LandmarkToken { card, whose, n } => op(
                "landmark_token",
                &[
                    &crate::cards::pool::normalize_name(&self.db.card(card).name),
                    &format!("{whose:?}"),
                    &n.to_string(),
                ],
            ),
            Op::Move { obj, dest } => op(&format!("move_{dest:?}"), &[&self.obj(obj)]),
            Op::Gain { obj, status, tough } => {
                op("gain", &[&self.obj(obj), &status_str(status, tough)])
            }
            Op::Lose { obj, status } => op("lose", &[&self.obj(obj), &status_str(status, 0)]),
            Op::Exhaust { obj } => op("exhaust", &[&self.obj(obj)]),
            Op::Ready { obj } => op("ready", &[&self.obj(obj)]),
            Op::Discount {
                filter,
                n,
                min,
                afternoon,
            } => op(
                "discount",
                &[
                    &self.filter(filter),
                    &n.to_string(),
                    &format!("min {min}"),
                    if afternoon { "afternoon" } else { "turn" },
                ],
            ),
            // A placement restriction (`mine`, `joins`) is not read from the text yet: it
            // is kept in the form so that such an encoding is never taken as verified.
            Op::NextBoost { filter, n, place } => {
                let f = self.filter(filter);
                let n = n.to_string();
                let pl = format!("place {place}");
                let mut args: Vec<&str> = vec![&f, &n];
                if place != 0 {
                    args.push(&pl);
                }
                op("next_boost", &args)
            }
            Op::ManaFromDeck { who, exhausted } => op(
                "mana_from_deck",
                &[
                    &format!("{who:?}"),
                    if exhausted { "exhausted" } else { "ready" },
                ],
            ),
            Op::LoseMana { n } => op("lose_mana", &[&n.to_string()]),
            Op::ReadyMana { n } => op("ready_mana", &[&n.to_string()]),
            Op::FromHand {
                who,
                dest,
                n,
                keep: _,
                may,
            } => {
                let mut args = vec![format!("{who:?}"), format!("{dest:?}"), n.to_string()];
                if may {
                    args.push("may".into());
                }
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                op("from_hand", &args)
            }
            Op::NextGain { filter, status } => {
                op("next_gain", &[&self.filter(filter), &status_str(status, 0)])
            }
            Op::DayTough {
                who,
                min_cost,
                tough,
            } => op(
                "day_tough",
                &[
                    &format!("{who:?}"),
                    &min_cost.to_string(),
                    &tough.to_string(),
                ],
            ),
            Op::NextLose { filter, status } => {
                op("next_lose", &[&self.filter(filter), &status_str(status, 0)])
            }
            Op::NextActivateR { filter, place } => {
                // The op only ever concerns a character played from hand.
                let mut f = *self.db.filter(filter);
                f.from_reserve = Some(false);
                let f = filter_str(&f, self.ctx);
                let pl = format!("place {place}");
                let mut args: Vec<&str> = vec![&f];
                if place != 0 {
                    args.push(&pl);
                }
                op("next_activate_r", &args)
            }
            Op::NextMod { filter, flags } => {
                op("next_mod", &[&self.filter(filter), &flags.to_string()])
            }
            Op::SacrificeOne { who } => op("sacrifice_one", &[&format!("{who:?}")]),
            Op::SacrificeHighest { who, filter } => op(
                "sacrifice_highest",
                &[&format!("{who:?}"), &self.filter(filter)],
            ),
            Op::PlayFree {
                who,
                filter,
                less,
                exp,
                flags,
            } => op(
                "play",
                &[
                    &format!("{who:?}"),
                    &if filter == u16::MAX {
                        "-".to_string()
                    } else {
                        self.filter(filter)
                    },
                    &if less == playflag::FREE {
                        "free".to_string()
                    } else {
                        format!("less {less}")
                    },
                    &format!("{exp:?}"),
                    &flags.to_string(),
                ],
            ),
            Op::Rush { hand_cost } => {
                if hand_cost {
                    op("rush", &["hand_cost"])
                } else {
                    op("rush", &[])
                }
            }
            Op::TopPlayOrHand => op("top_play_or_hand", &[]),
            Op::BlockForward { at, opposing } => op(
                "block_forward",
                &[&format!("{at:?}"), &opposing.to_string()],
            ),
            Op::MoveExp {
                at,
                opposing,
                forward,
            } => op(
                if forward { "forward" } else { "back" },
                &[
                    &format!("{at:?}"),
                    if opposing { "opposing" } else { "yours" },
                ],
            ),
            Op::Switch { obj } => op("switch", &[&self.obj(obj)]),
            Op::Defect { obj } => op("defect", &[&self.obj(obj)]),
            Op::SwapBoosts { obj } => op("swap_boosts", &[&self.obj(obj)]),
            Op::ToDeckAt { obj, n } => op("to_deck_at", &[&self.obj(obj), &a(n)]),
            Op::AfterYou => op("after_you", &[]),
            Op::WinGame => op("win_game", &[]),
            Op::Pass => op("pass", &[]),
            Op::BecomeFirst { who } => op("become_first", &[&format!("{who:?}")]),
            Op::EachPasses => op("each_passes", &[]),
            // Not read from the text yet: their own names keep such cards unverified.
            Op::TakeControl { obj } => op("take_control", &[&self.obj(obj)]),
            Op::ActivateRAsMine { obj } => op("activate_r_as_mine", &[&self.obj(obj)]),
            Op::ActivateJ { obj, reserve } => op(
                if reserve { "activate_r" } else { "activate_j" },
                &[&self.obj(obj)],
            ),
            Op::ActivateJEach { filter } => op("activate_j_each", &[&self.filter(filter)]),
            Op::RevealPut {
                n,
                k,
                filter,
                status,
            } => op(
                "reveal_put",
                &[
                    &n.to_string(),
                    &k.to_string(),
                    &self.filter(filter),
                    &status_str(status, 0),
                ],
            ),
            Op::PlaceMarker { terrain: t } => op("place_marker", &[&terrain::describe(t)]),
            Op::MoveMarker { terrain: t } => op("move_marker", &[&terrain::describe(t)]),
            Op::Ascend { at } => op("ascend", &[&format!("{at:?}")]),
            Op::DelayRest => op("delay_rest", &[]),
            Op::SetX(n) => op("set_x", &[&a(n)]),
            Op::SelectExp { whose, ahead } => {
                op("select_exp", &[&format!("{whose:?}"), &ahead.to_string()])
            }
            Op::OpponentSelect { filter } => op("opponent_select", &[&self.filter(filter)]),
            Op::Select { .. }
            | Op::Roll
            | Op::May { .. }
            | Op::Pay { .. }
            | Op::PayCards { .. }
            | Op::JumpUnless { .. }
            | Op::Jump { .. }
            | Op::LoopStart { .. }
            | Op::LoopAny { .. }
            | Op::LoopNext { .. }
            | Op::Choose { .. } => return Err(format!("a stray {o:?}")),
        })
    }
}

/// "n >= k" with `>` and `<` turned into `>=` and `<=`, and `count >= 1` for "you control".
pub fn cmp_str(count: &str, cmp: Cmp, n: i16) -> String {
    match cmp {
        Cmp::Gt => format!("{count} >= {}", n + 1),
        Cmp::Lt => format!("{count} <= {}", n - 1),
        Cmp::Ge => format!("{count} >= {n}"),
        Cmp::Le => format!("{count} <= {n}"),
        Cmp::Eq => format!("{count} = {n}"),
    }
}

pub fn cost_str(c: &Cost) -> String {
    let mut v = Vec::new();
    if c.mana > 0 {
        v.push(format!("mana {}", c.mana));
    }
    if c.exhaust {
        v.push("T".into());
    }
    if c.counters > 0 {
        v.push(format!("counters {}", c.counters));
    }
    if c.discard_reserve > 0 {
        v.push(format!("discard_reserve {}", c.discard_reserve));
    }
    if c.discard_hand > 0 {
        v.push(format!("discard_hand {}", c.discard_hand));
    }
    if c.sacrifice != 0 {
        v.push(format!("sacrifice {}", c.sacrifice));
    }
    v.join(", ")
}

pub fn status_str(bits: u32, tough: u8) -> String {
    let mut s = kw::describe(bits).join("|");
    if tough > 0 {
        s.push_str(&format!(" {tough}"));
    }
    s
}

pub fn token_str(name: &str, stats: crate::cards::types::Stats) -> String {
    format!("{} {}", crate::cards::pool::normalize_name(name), stats)
}
