//! Two-sentence forms of the DUSTER community decks, taught for issue 25: a sentence whose
//! meaning depends on the one after it (a Sabotage followed by "if you discarded a
//! Character ...", a discard from your Reserve followed by "if you do, I activate ...", an
//! exhaust in any Reserve whose owner Resupplies when it was the only card there, a Rush
//! whose card does more when played from hand, a Hand Cost paid instead of a Reserve Cost), and a target's Base
//! Cost read after the effect on it ("Discard target X. If its Base Cost was {N} or less,
//! Y"); and single sentences of the same decks that the clause reader does not split:
//! a target Permanent in play or a target card in Reserve (a choice of the two targets),
//! "If C, X, otherwise Y", spending a counter from a card you control to do something.
//! Tried before the other readings of a body.

use super::super::norm::{NStep, filter_str, op, target_str};
use super::super::reduce::cmp_str;
use super::{Reader, upper_first};
use crate::cards::effect::{Cmp, Filter, Whose, fkind, fzone};

fn trimmed(s: &str) -> &str {
    s.trim().trim_end_matches('.').trim()
}

impl Reader<'_> {
    fn filter(&self, kinds: u8, whose: Whose, zones: u8) -> Filter {
        Filter {
            kinds,
            whose,
            zones,
            ..Filter::default()
        }
    }

    /// The steps of a two-sentence form at the start of `sents` and how many sentences it
    /// used; `None` when none starts there.
    pub(super) fn pair(&self, sents: &[String]) -> Result<Option<(Vec<NStep>, usize)>, String> {
        let Some(a) = sents.first().map(|a| trimmed(a)) else {
            return Ok(None);
        };
        let b = sents.get(1).map_or("", |b| trimmed(b));
        // "X target Permanent in play or ... card in Reserve": one of the two targets; a
        // sentence after it that makes targeting a Permanent of Hand Cost {M} or more cost
        // {N} more makes that target a third choice, paid.
        const EITHER: &str = " target Permanent in play or\x20target card in Reserve";
        if let Some(head) = a.strip_suffix(EITHER) {
            let (may, verb) = match head.strip_prefix("You may ") {
                Some(v) => (true, v),
                None => (false, head),
            };
            let mode = |what: &str| self.clause(&upper_first(&format!("{verb} {what}")));
            rx!(
                COSTS_MORE,
                r"^This costs \{(\d+)\} more to target a\x20Permanent in play with Hand Cost \{(\d+)\} or more$"
            );
            let (modes, used) = match COSTS_MORE.captures(b) {
                Some(c) => {
                    let more: u8 = c[1].parse().map_err(|_| "a cost")?;
                    let m: u8 = c[2].parse().map_err(|_| "a cost")?;
                    let cost = crate::cards::effect::Cost {
                        mana: more,
                        ..crate::cards::effect::Cost::default()
                    };
                    let cheap = mode(&format!(
                        "target Permanent with Hand Cost {{{}}} or less",
                        m.saturating_sub(1)
                    ))?;
                    let dear = mode(&format!("target Permanent with Hand Cost {{{m}}} or more"))?;
                    let modes = vec![
                        cheap,
                        vec![NStep::Pay(super::super::reduce::cost_str(&cost), dear)],
                        mode("target card in Reserve")?,
                    ];
                    (modes, 2)
                }
                None => (
                    vec![mode("target Permanent")?, mode("target card in Reserve")?],
                    1,
                ),
            };
            let choose = NStep::Choose(modes);
            return Ok(Some((
                vec![if may {
                    NStep::May(vec![choose])
                } else {
                    choose
                }],
                used,
            )));
        }
        // Spending a counter (from a card of yours in play or in Reserve) to do X: only with
        // a card of yours (the Hero too) that has a counter.
        if let Some(rest) = a.strip_prefix(
            "You may spend 1 counter from\x20a card you control or in\x20your Reserve to ",
        ) {
            let mut f = self.filter(
                fkind::CARD | fkind::HERO,
                Whose::Yours,
                fzone::IN_PLAY | fzone::RESERVE,
            );
            f.countered = Some(true);
            let fs = filter_str(&f, self.ctx);
            let mut body = vec![op("spend_counter", &[&target_str(&fs, 1, 1, false, "")])];
            body.extend(self.clause(&upper_first(rest))?);
            return Ok(Some((
                vec![NStep::If(
                    cmp_str(&format!("count({fs})"), Cmp::Ge, 1),
                    vec![NStep::May(body)],
                    Vec::new(),
                )],
                1,
            )));
        }
        // "If C, X, otherwise Y".
        rx!(IF_OTHERWISE, r"^If ([^,]+), (.+), otherwise (.+)$");
        if let Some(c) = IF_OTHERWISE.captures(a) {
            let cond = self.cond(&c[1])?;
            let then = self.clause(&upper_first(&c[2]))?;
            let other = self.clause(&upper_first(&c[3]))?;
            return Ok(Some((vec![NStep::If(cond, then, other)], 1)));
        }
        if b.is_empty() {
            return Ok(None);
        }
        // [Sabotage], then something for the owner of the discarded card: for you when it
        // was in your Reserve, for the opponent otherwise.
        if a == "[Sabotage]"
            && let Some(rest) = b.strip_prefix("If you discarded a card this way, ")
        {
            let mine = match rest {
                "its owner [Exhausted Resupplies]" => "[Exhausted Resupply]".to_string(),
                r => match r.strip_suffix(" in the Companion Expedition of its owner") {
                    Some(what) => format!("{what} in your Companion Expedition"),
                    None => return Ok(None),
                },
            };
            let mine = self.clause(&upper_first(&mine))?;
            let theirs: Vec<NStep> = mine
                .iter()
                .map(|st| match st {
                    NStep::Op(o) => NStep::Op(
                        o.replace("(You", "(Opponent")
                            .replace(", yours)", ", opposing)"),
                    ),
                    other => other.clone(),
                })
                .collect();
            let card = self.filter(fkind::CARD, Whose::Any, fzone::RESERVE);
            let t = target_str(&filter_str(&card, self.ctx), 1, 1, false, "");
            let yours = self.filter(fkind::CARD, Whose::Yours, fzone::RESERVE);
            let cond = format!("it_is({})", filter_str(&yours, self.ctx));
            return Ok(Some((
                vec![NStep::May(vec![
                    op("move_Discard", &[&t]),
                    NStep::If(cond, mine, theirs),
                ])],
                2,
            )));
        }
        // [Sabotage] (up to one target card in a Reserve, discarded), then what follows when
        // it was a Character; "otherwise" also when nothing was discarded.
        if a == "[Sabotage]"
            && let Some(rest) = b.strip_prefix("If you discarded a Character this way, ")
        {
            let card = self.filter(fkind::CARD, Whose::Any, fzone::RESERVE);
            let t = target_str(&filter_str(&card, self.ctx), 1, 1, false, "");
            let ch = self.filter(fkind::CHARACTER, Whose::Any, fzone::RESERVE);
            let cond = format!("it_is({})", filter_str(&ch, self.ctx));
            let discard = op("move_Discard", &[&t]);
            return Ok(Some(match rest.split_once(", otherwise ") {
                None => {
                    let then = self.clause(&upper_first(rest))?;
                    (
                        vec![NStep::May(vec![discard, NStep::If(cond, then, Vec::new())])],
                        2,
                    )
                }
                Some((then, other)) => {
                    let then = self.clause(&upper_first(then))?;
                    let other = self.clause(&upper_first(other))?;
                    let did = vec![discard, NStep::If(cond, then, other.clone())];
                    (vec![NStep::Choose(vec![did, other])], 2)
                }
            }));
        }
        // A Character discarded from your Reserve whose {R} ability I then activate as mine:
        // only with one to discard.
        if a == "You may discard a Character\x20from your Reserve"
            && b == "If you do, I activate one\x20of its {R} abilities as\x20if it was mine"
        {
            let f = self.filter(fkind::CHARACTER, Whose::Yours, fzone::RESERVE);
            let fs = filter_str(&f, self.ctx);
            let body = vec![
                op("move_Discard", &[&target_str(&fs, 1, 1, false, "")]),
                op("activate_r_as_mine", &["it"]),
            ];
            return Ok(Some((
                vec![NStep::If(
                    cmp_str(&format!("count({fs})"), Cmp::Ge, 1),
                    vec![NStep::May(body)],
                    Vec::new(),
                )],
                2,
            )));
        }
        // Exhausting a card of any Reserve (the text does not ask for a ready one); its owner
        // [Resupplies] when it was the only card there.
        if a == "You may exhaust target card in any player's Reserve"
            && b == "If it was the only\x20card in their Reserve, they [Resupply]"
        {
            let f = self.filter(fkind::CARD, Whose::Any, fzone::RESERVE);
            let fs = filter_str(&f, self.ctx);
            let only = |whose: Whose| {
                let g = filter_str(&self.filter(fkind::CARD, whose, fzone::RESERVE), self.ctx);
                format!(
                    "(it_is({g}) and {})",
                    cmp_str(&format!("count({g})"), Cmp::Eq, 1)
                )
            };
            let body = vec![
                op("exhaust", &[&target_str(&fs, 1, 1, false, "")]),
                NStep::If(
                    only(Whose::Yours),
                    vec![op("resupply", &["You"])],
                    vec![NStep::If(
                        only(Whose::Opposing),
                        vec![op("resupply", &["Opponent"])],
                        Vec::new(),
                    )],
                ),
            ];
            return Ok(Some((vec![NStep::May(body)], 2)));
        }
        // A Rushed Character that, played from your hand, activates one of its {R}
        // abilities: a Character from hand or Reserve, at its cost.
        if a == "You may [Rush] a Character"
            && b == "If played from your hand, it activates\x20one of its {R} abilities"
        {
            let f = self.filter(fkind::CHARACTER, Whose::Any, fzone::RESERVE | fzone::HAND);
            let mut played = self.filter(fkind::CHARACTER, Whose::Any, fzone::EXPEDITION);
            played.from_reserve = Some(false);
            let play = op(
                "play",
                &[
                    "You",
                    &filter_str(&f, self.ctx),
                    "less 0",
                    "None",
                    &crate::cards::effect::playflag::OPTIONAL.to_string(),
                ],
            );
            let activate = NStep::If(
                format!("it_is({})", filter_str(&played, self.ctx)),
                vec![op("activate_r", &["it"])],
                Vec::new(),
            );
            return Ok(Some((
                vec![play, NStep::If("Did".into(), vec![activate], Vec::new())],
                2,
            )));
        }
        // A Rush whose card, played from Reserve, may be paid at its Hand Cost.
        if a == "You may [Rush]"
            && b == "If you would play\x20a card from Reserve this\x20way, you may pay\x20its Hand Cost instead\x20of its Reserve Cost"
        {
            return Ok(Some((vec![op("rush", &["hand_cost"])], 2)));
        }
        // "Discard target X. If its Base Cost was {N} or less, Y": Y when the target's Base
        // Cost is at most N.
        rx!(
            BASE_COST_AFTER,
            r"^If its Base Cost was \{(\d+)\} or (less|more), (.+)$"
        );
        rx!(ON_TARGET, r"^(?i:discard|sacrifice|exhaust) (target .+)$");
        if let (Some(t), Some(c)) = (ON_TARGET.captures(a), BASE_COST_AFTER.captures(b)) {
            let mut np = self.noun(&t[1], Whose::Any)?;
            let mut first = self.clause(a)?;
            let Some(NStep::Op(_)) = first.first() else {
                return Ok(None);
            };
            let n: u8 = c[1].parse().map_err(|_| "a cost")?;
            np.filter.base_cost = true;
            if &c[2] == "less" {
                np.filter.cost_max = n;
            } else {
                np.filter.cost_min = n;
            }
            let cond = format!("it_is({})", filter_str(&np.filter, self.ctx));
            first.push(NStep::If(
                cond,
                self.clause(&upper_first(&c[3]))?,
                Vec::new(),
            ));
            return Ok(Some((first, 2)));
        }
        Ok(None)
    }
}
