//! Forms of the demo and Skybound community decks, taught for issue 25: revealing the top
//! card of your deck and drawing or discarding it by what it is, a target named in one
//! sentence and played for free in the next, an alternative lower cost of a Spell that
//! narrows its target when paid, a
//! test of the target's region after the effect on it ("If it was in {O}, ..."), a
//! sacrifice of one of two kinds a filter cannot join ("another Robot or Permanent") with
//! what happens when you can't, a token created in the expedition of the target just
//! discarded, every Character of a target expedition and then that expedition moving back,
//! a Terrain Marker moved to my region, a Darkness allowed forward only due to a terrain, up
//! to N counters of any kind removed from a target, and a card revealed from hand so as to
//! do something.
//! Each answers `None` for a sentence it does not know, so the reader stays strict.

use super::super::norm::{NStep, filter_str, op, target_str};
use super::super::reduce::{cmp_str, token_str};
use super::{Reader, upper_first};
use crate::cards::effect::{Cmp, Filter, Whose, fkind, fzone, playflag};
use crate::cards::types::{Stats, terrain};

fn trimmed(s: &str) -> &str {
    s.trim().trim_end_matches('.').trim()
}

impl Reader<'_> {
    /// The filters of "a X or Y" whose two parts one filter cannot join (a subtype of
    /// Characters or a kind of card: "a Robot or Permanent"), each as `noun` reads it with
    /// `whose`; `None` when `s` is not such a pair.
    fn either_kind(&self, s: &str, whose: Whose) -> Option<Result<Vec<Filter>, String>> {
        rx!(EITHER, r"^(an?|another) ([A-Z][a-z]+) or ([A-Z][a-z]+)$");
        let c = EITHER.captures(s)?;
        let other = &c[1] == "another";
        let mut out = Vec::new();
        for w in [&c[2], &c[3]] {
            let np = match self.noun(&format!("a {w}"), whose) {
                Ok(np) => np,
                Err(e) => return Some(Err(e)),
            };
            let mut f = np.filter;
            f.whose = whose;
            // "another" only ever excludes me, a Character: it says nothing of a Permanent.
            f.other = other && f.kinds & fkind::CHARACTER != 0;
            out.push(f);
        }
        // One filter joins two subtypes of the same kinds ("an Artist or Song"): not this form.
        if out[0].kinds & out[1].kinds != 0 {
            return None;
        }
        Some(Ok(out))
    }

    /// A noun phrase with a trailing "with Reserve Cost {N} or less/more", read as a bound
    /// on the Base Cost of a card in Reserve (its Reserve Cost there).
    fn reserve_cost_noun(&self, s: &str) -> Result<Option<Filter>, String> {
        rx!(
            RESERVE_COST,
            r"^(.+) with Reserve Cost \{(\d+)\} or (less|more)$"
        );
        let Some(c) = RESERVE_COST.captures(s) else {
            return Ok(None);
        };
        let mut f = self.noun(&c[1], Whose::Any)?.filter;
        if f.zones != fzone::RESERVE {
            return Err(format!("a Reserve Cost outside Reserve '{s}'"));
        }
        let n: u8 = c[2].parse().map_err(|_| "a cost")?;
        f.base_cost = true;
        if &c[3] == "less" {
            f.cost_max = n;
        } else {
            f.cost_min = n;
        }
        Ok(Some(f))
    }

    /// The steps of a form of these decks that spans sentences, at the start of `sents`,
    /// and how many sentences it used; `None` when none starts there.
    pub(super) fn deck_sentences(
        &self,
        sents: &[String],
    ) -> Result<Option<(Vec<NStep>, usize)>, String> {
        let Some(a) = sents.first().map(|a| trimmed(a)) else {
            return Ok(None);
        };
        let b = sents.get(1).map_or("", |b| trimmed(b));
        let c3 = sents.get(2).map_or("", |c| trimmed(c));
        // An optional condition, the deck's top card revealed, then drawn when it is an X
        // ("If it's X, draw it"), else discarded.
        rx!(REVEAL, r"^(?:If (.+?), )?(?i:reveal) @topdeck$");
        rx!(IF_ITS, r"^If it's (an? .+), draw it$");
        if let Some(ca) = REVEAL.captures(a)
            && let Some(cb) = IF_ITS.captures(b)
            && c3 == "Otherwise, discard it"
        {
            let test = self.n9_it_is_either(&cb[1], fzone::DECK)?;
            let mut steps = vec![
                op("reveal_top", &[]),
                NStep::If(
                    test,
                    vec![op("draw", &["You", "1"])],
                    vec![op("move_Discard", &["it"])],
                ),
            ];
            if let Some(cond) = ca.get(1) {
                steps = vec![NStep::If(self.cond(cond.as_str())?, steps, Vec::new())];
            }
            return Ok(Some((steps, 3)));
        }
        // "Target a X. Play it for free.": the card chosen, played for free (into one of
        // your expeditions, as playing a card puts it).
        rx!(TARGET_A, r"^Target (an? .+)$");
        if let Some(ca) = TARGET_A.captures(a)
            && b == "Play it for free"
        {
            let f = match self.reserve_cost_noun(&ca[1])? {
                Some(f) => f,
                None => self.noun(&ca[1], Whose::Any)?.filter,
            };
            let t = target_str(&filter_str(&f, self.ctx), 1, 1, false, "");
            let played = Filter {
                kinds: fkind::CARD,
                zones: fzone::RESERVE | fzone::HAND,
                ..Filter::default()
            };
            return Ok(Some((
                vec![
                    op("select", &[&t]),
                    op(
                        "play",
                        &[
                            "You",
                            &filter_str(&played, self.ctx),
                            "free",
                            "None",
                            &playflag::IT.to_string(),
                        ],
                    ),
                ],
                2,
            )));
        }
        // "If you do, I can only target X. <effect on target Y>" after "You may play me
        // for {N} less" (a cost of its own, `AltLess`): the effect on a target narrowed to
        // X when the lower cost was paid, on any Y otherwise.
        rx!(ONLY_TARGET, r"^If you do, I can only target an? (.+)$");
        if let Some(ca) = ONLY_TARGET.captures(a) {
            let narrow = &ca[1];
            let head = narrow.split(' ').next().unwrap_or("");
            let wide = format!("target {head}");
            if !b.contains(&wide) || b.matches("target ").count() != 1 {
                return Err(format!("a narrowed target '{a}'"));
            }
            let paid = self.clause(&b.replacen(&wide, &format!("target {narrow}"), 1))?;
            let other = self.clause(b)?;
            return Ok(Some((vec![NStep::If("PaidLess".into(), paid, other)], 2)));
        }
        // "<effect on target X>. If it was in {T}, Y": Y when the target stood in a region
        // of that terrain.
        rx!(IF_WAS_IN, r"^If it was in (\{[VMO]\}), (.+)$");
        if let Some(cb) = IF_WAS_IN.captures(b)
            && a.matches("target ").count() == 1
        {
            let first = self.clause(a)?;
            let Some(NStep::Op(o)) = first.first() else {
                return Ok(None);
            };
            let Some(np) = o
                .split_once("target[1-1](")
                .and_then(|(_, r)| r.strip_suffix(')'))
                .and_then(|r| r.split_once(')'))
                .map(|(f, _)| f.to_string())
            else {
                return Ok(None);
            };
            // The target's filter again, from the text, with the region's terrain.
            rx!(TARGET_NOUN, r"target ([A-Z][a-z]+)");
            let Some(tn) = TARGET_NOUN.captures(a) else {
                return Ok(None);
            };
            let mut f = self.noun(&format!("a {}", &tn[1]), Whose::Any)?.filter;
            if filter_str(&f, self.ctx) != np {
                return Ok(None);
            }
            f.region_terrain = super::conds::terrain_of(&cb[1]).ok_or("a terrain")?;
            let then = self.clause(&upper_first(&cb[2]))?;
            let mut steps = first;
            steps.push(NStep::If(
                format!("it_is({})", filter_str(&f, self.ctx)),
                then,
                Vec::new(),
            ));
            return Ok(Some((steps, 2)));
        }
        // Revealing a card of a kind from your hand (it stays there) so as to do Y: Y, if
        // you choose to, when you have such a card.
        rx!(REVEAL_HAND, r"^You may reveal (an? .+) from your hand$");
        if let Some(ca) = REVEAL_HAND.captures(a)
            && let Some(rest) = b.strip_prefix("If you do, ")
        {
            let mut f = self.noun(&ca[1], Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            f.zones = fzone::HAND;
            let then = self.clause(&upper_first(rest))?;
            let have = cmp_str(&format!("count({})", filter_str(&f, self.ctx)), Cmp::Ge, 1);
            return Ok(Some((
                vec![NStep::If(have, vec![NStep::May(then)], Vec::new())],
                2,
            )));
        }
        // "Sacrifice another X or Y. If you can't, Z": one of yours of either kind (your
        // choice when you have both), Z when you have neither.
        rx!(SAC_EITHER, r"^(?i:sacrifice) (.+)$");
        if let Some(ca) = SAC_EITHER.captures(a)
            && let Some(rest) = b.strip_prefix("If you can't, ")
            && let Some(fs) = self.either_kind(&ca[1], Whose::Yours)
        {
            let fs = fs?;
            let none = self.clause(&upper_first(rest))?;
            let count =
                |f: &Filter| cmp_str(&format!("count({})", filter_str(f, self.ctx)), Cmp::Ge, 1);
            let sac = |f: &Filter| {
                vec![op(
                    "move_Sacrifice",
                    &[&target_str(&filter_str(f, self.ctx), 1, 1, false, "")],
                )]
            };
            let steps = vec![NStep::If(
                format!("({} and {})", count(&fs[0]), count(&fs[1])),
                vec![NStep::Choose(vec![sac(&fs[0]), sac(&fs[1])])],
                vec![NStep::If(
                    count(&fs[0]),
                    sac(&fs[0]),
                    vec![NStep::If(count(&fs[1]), sac(&fs[1]), none)],
                )],
            )];
            return Ok(Some((steps, 2)));
        }
        Ok(None)
    }

    /// A one-sentence effect of these decks; `None` when `s` is not one.
    pub(super) fn deck_effect(&self, s: &str) -> Option<Result<Vec<NStep>, String>> {
        self.deck_effect_inner(s).transpose()
    }

    fn deck_effect_inner(&self, s: &str) -> Result<Option<Vec<NStep>>, String> {
        // Moving a Terrain Marker of a terrain from wherever it is to my region.
        rx!(
            MOVE_MARKER,
            r"^(?i:move) a (\{[VMO]\}) @marker from any region to my region$"
        );
        if let Some(c) = MOVE_MARKER.captures(s) {
            let t = super::conds::terrain_of(&c[1]).ok_or("a terrain")?;
            return Ok(Some(vec![op("move_marker", &[&terrain::describe(t)])]));
        }
        // Up to N counters of any kind removed from a target: boosts and the card's other
        // counters in any split of 1 to N (or none, "up to"), the larger totals first and,
        // for each total, all boosts, all other counters, then the mixed splits.
        rx!(
            REMOVE_UP_TO,
            r"^(?i:remove) up to (\w+) counters from (.+)$"
        );
        if let Some(c) = REMOVE_UP_TO.captures(s) {
            let n = super::num_word(&c[1]).ok_or("a number")?;
            let (o, _) = self.obj(&c[2])?;
            if !o.starts_with("target[1-1](") {
                return Err(format!("counters removed from '{}'", &c[2]));
            }
            let mut modes = Vec::new();
            for total in (1..=n).rev() {
                let t = total.to_string();
                modes.push(vec![op("boost", &["it", &format!("-{t}")])]);
                modes.push(vec![op("counters", &["it", &format!("-{t}")])]);
                for b in (1..total).rev() {
                    modes.push(vec![
                        op("boost", &["it", &format!("-{b}")]),
                        op("counters", &["it", &format!("-{}", total - b)]),
                    ]);
                }
            }
            return Ok(Some(vec![
                op("select", &[&o]),
                NStep::May(vec![NStep::Choose(modes)]),
            ]));
        }
        // "Target [[Fleeting]] or [[Boosted]] Character gains X": a status and being
        // boosted are two properties one filter cannot join, so one of the two targets.
        rx!(
            STATUS_OR_BOOSTED,
            r"^Target (\[\[(?:Fleeting|Asleep|Anchored)\]\]) or \[\[Boosted\]\] (.+)$"
        );
        if let Some(c) = STATUS_OR_BOOSTED.captures(s) {
            let a = self.clause(&format!("Target {} {}", &c[1], &c[2]))?;
            let b = self.clause(&format!("Target [[Boosted]] {}", &c[2]))?;
            return Ok(Some(vec![NStep::Choose(vec![a, b])]));
        }
        // Discarding every Character of a target expedition, which then moves back one
        // region: an expedition of any side (D21), its Characters, then it.
        rx!(
            EACH_THEN_BACK,
            r"^(?i:discard) each Character from target\x20Expedition, then that Expedition @moves_back$"
        );
        if EACH_THEN_BACK.is_match(s) {
            let f = Filter {
                kinds: fkind::CHARACTER,
                place: crate::cards::effect::Where::Selected,
                ..Filter::default()
            };
            return Ok(Some(vec![
                op("select_exp", &["Any", "false"]),
                op(
                    "move_Discard",
                    &[&format!("each({})", filter_str(&f, self.ctx))],
                ),
                op("back", &["Selected", "yours"]),
            ]));
        }
        // "Discard target X, then create a [T a/b/c] token in its Expedition": the token
        // joins the expedition the target was in, on its side (an opposing one is a Gift).
        rx!(
            THEN_TOKEN_ITS,
            r"^(.+ target [^,]+), then create an? \[([^\]]+?) (\d+)/(\d+)/(\d+)\] [A-Za-z ]*?token in its Expedition$"
        );
        if let Some(c) = THEN_TOKEN_ITS.captures(s) {
            let mut steps = self.clause(&c[1])?;
            if !matches!(steps.as_slice(), [NStep::Op(o)] if o.starts_with("move_Discard(target[1-1](character "))
            {
                return Err(format!("a token in its Expedition after '{}'", &c[1]));
            }
            let n = |i: usize| c[i].parse::<i16>().map_err(|_| "a statistic".to_string());
            let stats = Stats::new(n(3)?, n(4)?, n(5)?);
            let tok = token_str(&c[2], stats);
            let opp = Filter {
                kinds: fkind::CHARACTER,
                whose: Whose::Opposing,
                ..Filter::default()
            };
            steps.push(NStep::If(
                format!("it_is({})", filter_str(&opp, self.ctx)),
                vec![op("token", &[&tok, "OfIt", "1", "opposing"])],
                vec![op("token", &[&tok, "OfIt", "1", "yours"])],
            ));
            return Ok(Some(steps));
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use crate::cards::textread::check;

    #[test]
    fn a_revealed_card_is_drawn_when_it_is_one_kind_and_discarded_otherwise() {
        let text = "At Dusk — If I'm qq [[Boosted]], reveal the top qq card of your deck. If it's qq an Artist or Song, draw it. qq Otherwise, discard it.";
        check(
            text,
            &[
                "dusk if boosted: reveal_top; if it_is(card artist song in_deck) { draw } else { discard(it) }",
            ],
            &[
                // Only Characters, no test of being boosted, the card kept on a miss.
                &[
                    "dusk if boosted: reveal_top; if it_is(character artist song in_deck) { draw } else { discard(it) }",
                ],
                &[
                    "dusk: reveal_top; if it_is(card artist song in_deck) { draw } else { discard(it) }",
                ],
                &["dusk if boosted: reveal_top; if it_is(card artist song in_deck) { draw }"],
            ],
        );
    }

    #[test]
    fn a_sacrifice_of_either_kind_falls_back_on_me() {
        let text = "{J} Sacrifice another Robot or qq Permanent. If you can't, sacrifice me.";
        let good = "J: if control(robot yours other) and control(permanent yours) { choose { sacrifice(target robot yours other) } or { sacrifice(target permanent yours) } } else if control(robot yours other) { sacrifice(target robot yours other) } else if control(permanent yours) { sacrifice(target permanent yours) } else { sacrifice(me) }";
        check(
            text,
            &[good],
            &[
                // The Robot may be me, the Permanent an opponent's, nothing when you can't.
                &[&good.replace("robot yours other", "robot yours")],
                &[&good.replace("permanent yours", "permanent any")],
                &[&good.replace(" else { sacrifice(me) }", "")],
            ],
        );
    }

    #[test]
    fn a_card_of_any_reserve_is_played_for_free_and_only_up_to_its_reserve_cost() {
        let text = "{J} Target a Character in qq any Reserve with Reserve qq Cost {2} or less. qq Play it for free.";
        let good = "J: select(character in_reserve base_cost<=2); play_now(it, free)";
        check(
            text,
            &[good],
            &[
                &["J: select(character in_reserve cost<=2); play_now(it, free)"],
                &["J: select(character yours in_reserve base_cost<=2); play_now(it, free)"],
                &["J: select(character in_reserve base_cost<=3); play_now(it, free)"],
            ],
        );
    }

    #[test]
    fn counters_removed_up_to_n_are_every_split_of_boosts_and_other_counters() {
        let text = "{H} Remove up to 2 counters qq from target card in play qq or in Reserve.";
        let good = "H: select(card in_play in_reserve); may { choose { boost(it, -2) } or { counters(it, -2) } or { boost(it, -1); counters(it, -1) } or { boost(it, -1) } or { counters(it, -1) } }";
        check(
            text,
            &[good],
            &[
                // Boosts only, not optional, a card in play only.
                &[
                    "H: select(card in_play in_reserve); may { choose { boost(it, -2) } or { boost(it, -1) } }",
                ],
                &[
                    "H: select(card in_play in_reserve); choose { boost(it, -2) } or { counters(it, -2) } or { boost(it, -1); counters(it, -1) } or { boost(it, -1) } or { counters(it, -1) }",
                ],
                &[&good.replace("in_play in_reserve", "in_play")],
            ],
        );
    }

    #[test]
    fn a_card_revealed_from_hand_is_a_condition_of_having_one() {
        let text = "{R} You may reveal a Spell with qq Hand Cost {4} or more qq from your hand. If you do, qq draw a card.";
        check(
            text,
            &["R: if control(spell in_hand cost>=4) { may { draw } }"],
            &[
                &["R: may { draw }"],
                &["R: if control(spell in_hand cost>=4) { draw }"],
                &["R: if control(spell in_hand cost>=3) { may { draw } }"],
            ],
        );
    }

    #[test]
    fn a_status_or_being_boosted_is_a_choice_of_two_targets() {
        let text = "{J} Target [[Fleeting]] or [[Boosted]] Character gains [[Anchored]].";
        check(
            text,
            &[
                "J: choose { gain(target character fleeting, anchored) } or { gain(target character boosted, anchored) }",
            ],
            &[
                &["J: gain(target character fleeting, anchored)"],
                &[
                    "J: choose { gain(target character fleeting, anchored) } or { gain(target character, anchored) }",
                ],
            ],
        );
    }

    #[test]
    fn a_darkness_forward_only_due_to_a_terrain_and_a_marker_moved_here() {
        let text = "If an Expedition qq facing me is in qq {O}, it can't move qq forward during Dusk except due to {O}.";
        check(
            text,
            &["static darkness_only_due(O)"],
            &[&["static darkness_only_due(F)"]],
        );
        let text = "{R} You may move a {V} Terrain qq Marker from any region to my region.";
        check(
            text,
            &["R: may { move_marker(F) }"],
            &[&["R: move_marker(F)"], &["R: may { move_marker(O) }"]],
        );
    }
}
