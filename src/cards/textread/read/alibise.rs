//! Forms of the ALIZE and BISE sets, taught for issue 49: an empty Reserve, a count of
//! cards of a kind in your Reserve and a number of Mana Orbs as conditions; a keyword
//! unless (or if) you have that many Mana Orbs, cards that can't gain counters, and two
//! static sentences in one ability; each player in turn playing a card for free, a card
//! chosen in Reserve, every Character of a target expedition sent to Reserve exhausted,
//! every other card in play and in Reserve discarded, each player putting a card from
//! hand in Reserve if they like; and a test of a status of the target just affected.
//! Each answers `None` for a sentence it does not know, so the reader stays strict.

use super::super::norm::{NAbility, NStep, filter_str, op, target_str};
use super::super::reduce::cmp_str;
use super::{Patterns, Reader, num_word};
use crate::cards::effect::{Cmp, Filter, Where, Whose, fkind, fzone, playflag};
use crate::cards::types::kw;

fn n(w: &str) -> Result<i16, String> {
    num_word(w).ok_or_else(|| format!("a number '{w}'"))
}

/// Static sentences that may follow another ability's sentences in the same paragraph
/// ("{J} ... . My region is {V} ...", "{R} ... . If I'm in {V}, I am Eternal."): each is
/// an ability of its own, never an effect (a keyword an effect gives is "gains").
pub(super) static STANDALONE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"^(?:My region (?:is|and the region\x20of the Expedition facing me are) \{[VMO]\} |The \{V\}, \{M\} and \{O\} of .+ are equal to their highest statistic\.?$|\[Defender\] Characters don't prevent my Expedition\x20from moving forward\.?$|If [^,]+, I am \[(?:Eternal|Gigantic|Defender)\]\.?$|If there is only one\x20Character in my\x20Expedition, it is \[Gigantic\]\.?$|Characters in my Expedition are \[Seasoned\]\.?$|The Support abilities of cards\x20in Reserve can give them |Exhausted Characters in Reserve remain exhausted\x20during Morning\.?$|If my Expedition would\x20move forward during Dusk, it moves\x20forward one more region instead\.?$)",
    )
    .expect("a valid pattern")
});

/// Conditions of "If ..., X", tried after the others.
pub(super) static CONDITIONS: Patterns<String> = Patterns::new(&[
    (r"^your Reserve is empty$", |_, _| {
        Ok(Some(cmp_str("ReserveSize", Cmp::Eq, 0)))
    }),
    // "there are N or more base statistics of 0 among ...": as "you have N or more ...".
    (
        r"^there are (\w+) or more base statistics of\x200 among Characters you control$",
        |r, c| {
            r.cond(&format!(
                "you have {} or more base statistics of\x200 among Characters you control",
                &c[1]
            ))
            .map(Some)
        },
    ),
    // The result of the die just rolled.
    (r"^the result is (\d)\+$", |_, c| {
        Ok(Some(cmp_str("LastRoll", Cmp::Ge, n(&c[1])?)))
    }),
    (r"^you have (\w+) or more Mana Orbs$", |_, c| {
        Ok(Some(cmp_str("ManaOrbs", Cmp::Ge, n(&c[1])?)))
    }),
    // A count of one kind of card in your Reserve, a cost bound included.
    (r"^there are (\w+) or more (.+ in your Reserve)$", |r, c| {
        let np = r.noun(&format!("each {}", &c[2]), Whose::Yours)?;
        Ok(Some(cmp_str(
            &format!("count({})", filter_str(&np.filter, r.ctx)),
            Cmp::Ge,
            n(&c[1])?,
        )))
    }),
]);

/// A static ability's trigger and body.
type Static = (String, Vec<NStep>);

fn st_if(t: &str, c: String) -> Static {
    (
        format!("static {t}"),
        vec![NStep::If(c, Vec::new(), Vec::new())],
    )
}

/// Static abilities, tried after the others.
pub(super) static STATICS: Patterns<Static> = Patterns::new(&[
    // A keyword while you have fewer than N Mana Orbs.
    (
        r"^Unless you have (\w+) or more Mana Orbs, I am \[(Defender|Gigantic)\]$",
        |_, c| {
            Ok(Some(st_if(
                &format!("keyword({})", c[2].to_ascii_lowercase()),
                cmp_str("ManaOrbs", Cmp::Lt, n(&c[1])?),
            )))
        },
    ),
    (r"^If (.+?), (?:I'm|I am) \[(Gigantic)\]$", |r, c| {
        Ok(Some(st_if(
            &format!("keyword({})", c[2].to_ascii_lowercase()),
            r.cond(&c[1])?,
        )))
    }),
    (
        r"^\[Defender\] Characters don't prevent my Expedition\x20from moving forward$",
        |_, _| Ok(Some(("static DefenderNoBlock".into(), Vec::new()))),
    ),
    (
        r"^If my Expedition would\x20move forward during Dusk, it moves\x20forward one more region instead$",
        |_, _| Ok(Some(("static DuskExtraForward".into(), Vec::new()))),
    ),
    (
        r"^Characters in my Expedition are \[(Seasoned)\]$",
        |r, c| {
            let f = Filter {
                kinds: fkind::CHARACTER,
                whose: Whose::Yours,
                place: Where::MyExpedition,
                ..Filter::default()
            };
            Ok(Some((
                format!(
                    "static aura({}, {})",
                    filter_str(&f, r.ctx),
                    c[1].to_ascii_lowercase()
                ),
                Vec::new(),
            )))
        },
    ),
    // Statistics levelled to the highest while a condition holds.
    (
        r"^If (.+?), the \{V\}, \{M\},? and \{O\} of (.+?) are equal\x20to their highest statistic$",
        |r, c| {
            let mut f = r.noun(&format!("each {}", &c[2]), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            Ok(Some(st_if(
                &format!("level_stats({})", filter_str(&f, r.ctx)),
                r.cond(&c[1])?,
            )))
        },
    ),
    // Support abilities may put counters past their cap: one more, or any number.
    (
        r"^The Support abilities of cards\x20in Reserve can\x20give them (1 more counter than|counters beyond) their maximum$",
        |_, c| {
            let n = if c[1].starts_with('1') { 1 } else { 255 };
            Ok(Some((format!("static SupportOverMax({n})"), Vec::new())))
        },
    ),
    // Every player's exhausted Characters in Reserve stay exhausted.
    (
        r"^Exhausted Characters in Reserve remain exhausted\x20during Morning$",
        |_, _| Ok(Some(("static KeepExhausted".into(), Vec::new()))),
    ),
    (
        r"^\[Tough X\] @x_is_count_of (exhausted cards in Reserve)$",
        |r, c| {
            let f = r.noun(&format!("each {}", &c[1]), Whose::Any)?.filter;
            Ok(Some((
                format!("static tough_x(count({}))", filter_str(&f, r.ctx)),
                Vec::new(),
            )))
        },
    ),
    // A status I would gain replaced by another.
    (
        r"^@would_gain \[\[(Asleep|Anchored|Fleeting)\]\], I gain \[\[(Asleep|Anchored|Fleeting)\]\] instead$",
        |_, c| {
            let bit = |w: &str| match w {
                "Asleep" => kw::ASLEEP,
                "Anchored" => kw::ANCHORED,
                _ => kw::FLEETING,
            };
            Ok(Some((
                format!(
                    "static GainInstead {{ from: {}, to: {}, boosts: 0 }}",
                    bit(&c[1]),
                    bit(&c[2])
                ),
                Vec::new(),
            )))
        },
    ),
    // Every player's cards played from Reserve cost more, or less down to a floor.
    (
        r"^Cards played from Reserve cost \{(\d+)\} (more|less)(?:, down to a minimum of \{(\d+)\})?$",
        |r, c| {
            let f = Filter {
                kinds: fkind::CARD,
                whose: Whose::Any,
                from_reserve: Some(true),
                ..Filter::default()
            };
            let n = if &c[2] == "more" {
                c[1].to_string()
            } else {
                format!("-{}", &c[1])
            };
            let fs = filter_str(&f, r.ctx);
            Ok(Some((
                match c.get(3) {
                    Some(m) => format!("static cost_aura({fs}, {n}, min {})", m.as_str()),
                    None => format!("static cost_aura({fs}, {n})"),
                },
                Vec::new(),
            )))
        },
    ),
    // Your only Character in my Expedition is Gigantic.
    (
        r"^If there is only one\x20Character in my\x20Expedition, it is \[(Gigantic)\]$",
        |r, c| {
            let f = Filter {
                kinds: fkind::CHARACTER,
                whose: Whose::Yours,
                place: Where::MyExpedition,
                ..Filter::default()
            };
            let fs = filter_str(&f, r.ctx);
            Ok(Some(st_if(
                &format!("aura({fs}, {})", c[1].to_ascii_lowercase()),
                cmp_str(&format!("count({fs})"), Cmp::Eq, 1),
            )))
        },
    ),
    // Cards of your opponent's Reserve; cards with counters, in play or in Reserve.
    (
        r"^Cards (.+?)( with counters)? can't gain counters$",
        |r, c| {
            let what = c[1].replace(" your opponent's Reserve", " an opponent's Reserve");
            let mut f = r.noun(&format!("each cards {what}"), Whose::Any)?.filter;
            if c.get(2).is_some() {
                f.countered = Some(true);
            }
            Ok(Some((
                format!("static no_counters({})", filter_str(&f, r.ctx)),
                Vec::new(),
            )))
        },
    ),
]);

impl Reader<'_> {
    /// An ability of several static sentences: each an ability of its own, as the
    /// encodings write them; `None` when one of them is not a static this reader knows.
    pub(super) fn static_sentences(&self, g: &[String], support: bool) -> Option<Vec<NAbility>> {
        let mut out = Vec::new();
        for s in g {
            out.extend(self.static_ability(std::slice::from_ref(s), support).ok()?);
        }
        Some(out)
    }

    /// The steps of a form of these sets read from whole sentences, at the start of
    /// `sents`, and how many sentences it used; `None` when none starts there.
    pub(super) fn set_sentences(
        &self,
        sents: &[String],
    ) -> Result<Option<(Vec<NStep>, usize)>, String> {
        let Some(a) = sents.first().map(|a| a.trim().trim_end_matches('.')) else {
            return Ok(None);
        };
        // You may, and your opponent may too (their own choice); a whole sentence only (with
        // "to draw a card" each player's draw is theirs and only if they did).
        if a == "Each player may put @their_hand_card in Reserve" {
            return Ok(Some((
                vec![
                    NStep::May(vec![op("from_hand", &["You", "Reserve", "1"])]),
                    op("from_hand", &["Opponent", "Reserve", "1", "may"]),
                ],
                1,
            )));
        }
        // Spending a counter from a card of yours to do X: only with such a card.
        rx!(
            SPEND_TO,
            r"^(You may s|S)pend 1 counter from a card\x20(you control or in\x20your Reserve|in your Reserve or Landmarks) to (.+)$"
        );
        if let Some(c) = SPEND_TO.captures(a) {
            let mut f = Filter {
                kinds: fkind::CARD,
                whose: Whose::Yours,
                zones: fzone::RESERVE | fzone::LANDMARKS,
                countered: Some(true),
                ..Filter::default()
            };
            if c[2].starts_with("you control") {
                f.kinds |= fkind::HERO;
                f.zones = fzone::IN_PLAY | fzone::RESERVE;
            }
            let fs = filter_str(&f, self.ctx);
            let mut body = vec![op("spend_counter", &[&target_str(&fs, 1, 1, false, "")])];
            body.extend(self.clause(&super::upper_first(&c[3]))?);
            // "You may": with no such card it cannot be done (the normal form's guard of
            // an optional effect on a target is the optional block itself, `equiv`).
            if c[1].starts_with("You may") {
                return Ok(Some((vec![NStep::May(body)], 1)));
            }
            let guard = cmp_str(&format!("count({fs})"), Cmp::Ge, 1);
            return Ok(Some((vec![NStep::If(guard, body, Vec::new())], 1)));
        }
        let Some(b) = sents.get(1).map(|b| b.trim().trim_end_matches('.')) else {
            return Ok(None);
        };
        // After a Resupply, a test that the card it put in Reserve is a Character, and what
        // may be done with that card.
        rx!(
            IF_RESUPPLIED,
            r"^If you put a Character\x20in Reserve this way, you may\x20(immediately play it for \{(\d+)\} less|then put it\x20in your hand)$"
        );
        if a == "[Resupply]"
            && let Some(c) = IF_RESUPPLIED.captures(b)
        {
            let then = match c.get(2) {
                Some(n) => {
                    let card = Filter {
                        kinds: fkind::CARD,
                        zones: fzone::RESERVE | fzone::HAND,
                        ..Filter::default()
                    };
                    op(
                        "play",
                        &[
                            "You",
                            &filter_str(&card, self.ctx),
                            &format!("less {}", n.as_str()),
                            "None",
                            &(playflag::OPTIONAL | playflag::IT).to_string(),
                        ],
                    )
                }
                None => NStep::May(vec![op("move_Hand", &["it"])]),
            };
            let f = Filter {
                kinds: fkind::CHARACTER,
                zones: fzone::RESERVE,
                ..Filter::default()
            };
            return Ok(Some((
                vec![
                    op("resupply", &["You"]),
                    NStep::If(
                        format!("it_is({})", filter_str(&f, self.ctx)),
                        vec![then],
                        Vec::new(),
                    ),
                ],
                2,
            )));
        }
        // "If C, create two X tokens ... . Otherwise, create only one.": one of them else.
        rx!(CREATE_TWO, r"^If .+, create two .+ tokens .+$");
        if b == "Otherwise, create only one" && CREATE_TWO.is_match(a) {
            let steps = self.body(&[a.to_string()])?;
            if let [NStep::If(c, t, e)] = steps.as_slice()
                && e.is_empty()
                && let [NStep::Op(o)] = t.as_slice()
                && o.starts_with("token(")
                && o.contains(", 2, ")
            {
                let one = NStep::Op(o.replacen(", 2, ", ", 1, ", 1));
                return Ok(Some((vec![NStep::If(c.clone(), t.clone(), vec![one])], 2)));
            }
            return Err(format!("an effect '{b}'"));
        }
        // A target gains or loses something, then "If it is [[Asleep]], it ...": a test of
        // the status of that target.
        rx!(TARGET_GAINS, r"^Target (.+?) (?:gains|loses) .+$");
        rx!(
            IF_IT_IS,
            r"^If it is \[\[(Asleep|Anchored|Fleeting)\]\], it (gains \[\[\w+\]\] and )?loses \[\[(\w+)\]\]$"
        );
        let (Some(ca), Some(cb)) = (TARGET_GAINS.captures(a), IF_IT_IS.captures(b)) else {
            return Ok(None);
        };
        let mut f = self.noun(&format!("target {}", &ca[1]), Whose::Any)?.filter;
        f.with |= match &cb[1] {
            "Asleep" => kw::ASLEEP,
            "Anchored" => kw::ANCHORED,
            _ => kw::FLEETING,
        };
        let mut steps = self.clause(a)?;
        let mut then = Vec::new();
        if let Some(g) = cb.get(2) {
            then.extend(self.clause(&format!("it {}", g.as_str().trim_end_matches(" and ")))?);
        }
        then.extend(self.clause(&format!("it loses [[{}]]", &cb[3]))?);
        steps.push(NStep::If(
            format!("it_is({})", filter_str(&f, self.ctx)),
            then,
            Vec::new(),
        ));
        Ok(Some((steps, 2)))
    }

    /// "a card in Reserve" as the one target it is (`None` when the card is not one of a
    /// Reserve): a card in Reserve has no Tough, so choosing it is targeting it.
    fn reserve_target(&self, s: &str) -> Result<Option<String>, String> {
        let f = self.noun(s, Whose::Any)?.filter;
        if f.zones != fzone::RESERVE {
            return Ok(None);
        }
        Ok(Some(target_str(&filter_str(&f, self.ctx), 1, 1, false, "")))
    }

    /// One effect of these sets; `None` when `s` is none of them.
    pub(super) fn set_effect(&self, s: &str) -> Option<Result<Vec<NStep>, String>> {
        self.set_effect_inner(s).transpose()
    }

    fn set_effect_inner(&self, s: &str) -> Result<Option<Vec<NStep>>, String> {
        // Each player in turn, you first, may play a card for free (from hand or Reserve).
        rx!(
            EACH_PLAYS,
            r"^Starting with you, each player\x20may immediately play (an? .+?) for free$"
        );
        if let Some(c) = EACH_PLAYS.captures(s) {
            let mut f = self.noun(&c[1], Whose::Any)?.filter;
            f.zones = fzone::RESERVE | fzone::HAND;
            return Ok(Some(vec![op(
                "play",
                &[
                    "Each",
                    &filter_str(&f, self.ctx),
                    "free",
                    "None",
                    &playflag::OPTIONAL.to_string(),
                ],
            )]));
        }
        // "Ready an exhausted card in Reserve": a card of a Reserve has no ability but its
        // Support ones (no [Tough]), so choosing it is targeting it.
        rx!(READY_A, r"^(?i:ready) (an? .+ in Reserve)$");
        if let Some(c) = READY_A.captures(s) {
            return Ok(self
                .reserve_target(&c[1])?
                .map(|t| vec![op("ready", &[&t])]));
        }
        // A card of your Reserve (chosen, so targeted) to your Mana zone, exhausted or ready.
        rx!(
            TO_MANA,
            r"^(?i:put) (an? .+ from your Reserve) in your Mana zone (@exhausted_orb|as a ready Mana Orb)$"
        );
        if let Some(c) = TO_MANA.captures(s) {
            let verb = if &c[2] == "@exhausted_orb" {
                "move_Mana"
            } else {
                "move_ManaReady"
            };
            return Ok(self.reserve_target(&c[1])?.map(|t| vec![op(verb, &[&t])]));
        }
        // Two targets whose boosts are exchanged.
        rx!(SWAP, r"^Target two (.+?) and exchange their boosts$");
        if let Some(c) = SWAP.captures(s) {
            let (o, _) = self.obj(&format!("two target {}", &c[1]))?;
            return Ok(Some(vec![op("swap_boosts", &[&o])]));
        }
        // Every Character of the expedition chosen (either side's) gains N boosts.
        rx!(
            EXP_GAIN,
            r"^Characters in target Expedition gain (\d+) boosts?$"
        );
        if let Some(c) = EXP_GAIN.captures(s) {
            let f = Filter {
                kinds: fkind::CHARACTER,
                whose: Whose::Any,
                place: Where::Selected,
                ..Filter::default()
            };
            return Ok(Some(vec![
                op("select_exp", &["Any", "false"]),
                op(
                    "boost",
                    &[&format!("each({})", filter_str(&f, self.ctx)), &c[1]],
                ),
            ]));
        }
        // Sent to the deck at the position the die just rolled says.
        rx!(
            TO_XTH,
            r"^Send (target .+?) to the Xth position\x20of its owner's deck, where X\x20is the result$"
        );
        if let Some(c) = TO_XTH.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            return Ok(Some(vec![op("to_deck_at", &[&o, "X"])]));
        }
        // N boosts, one at a time, among Characters in Reserve (no [Tough] there: each
        // one chosen is a target).
        rx!(
            DISTRIBUTE,
            r"^Distribute (\w+) boosts among any (Characters in Reserve)$"
        );
        if let Some(c) = DISTRIBUTE.captures(s) {
            let Some(t) = self.reserve_target(&format!("a {}", &c[2]))? else {
                return Ok(None);
            };
            let k = n(&c[1])?;
            return Ok(Some((0..k).map(|_| op("boost", &[&t, "1"])).collect()));
        }
        match s {
            // Each Character gains as many boosts as it has.
            "Double the number of boosts\x20on each Character you control\x20and in your Reserve" =>
            {
                let f = Filter {
                    kinds: fkind::CHARACTER,
                    whose: Whose::Yours,
                    zones: fzone::EXPEDITION | fzone::RESERVE,
                    ..Filter::default()
                };
                Ok(Some(vec![op(
                    "boost",
                    &[&format!("each({})", filter_str(&f, self.ctx)), "ItsBoosts"],
                )]))
            }
            // Every Character of the expedition chosen (either side's), to Reserve exhausted.
            "Send to Reserve each Character from\x20target Expedition, then exhaust them" => {
                let f = Filter {
                    kinds: fkind::CHARACTER,
                    whose: Whose::Any,
                    place: Where::Selected,
                    ..Filter::default()
                };
                Ok(Some(vec![
                    op("select_exp", &["Any", "false"]),
                    op(
                        "move_ReserveExhausted",
                        &[&format!("each({})", filter_str(&f, self.ctx))],
                    ),
                ]))
            }
            // Every other card of either side, in play or in a Reserve.
            "Discard all other cards\x20in play and in Reserve" => {
                let f = Filter {
                    kinds: fkind::CARD,
                    whose: Whose::Any,
                    zones: fzone::IN_PLAY | fzone::RESERVE,
                    other: true,
                    ..Filter::default()
                };
                Ok(Some(vec![op(
                    "move_Discard",
                    &[&format!("each({})", filter_str(&f, self.ctx))],
                )]))
            }
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::cards::textread::{Verdict, check, verdict_of};

    #[test]
    fn an_empty_reserve_and_a_count_of_mana_orbs_are_conditions() {
        let text =
            "{R} If your hand is empty, qq draw a card. If your qq Reserve is empty, draw a card.";
        let good = "R: if hand = 0 { draw }; if reserve = 0 { draw }";
        check(
            text,
            &[good],
            &[
                &["R: if hand = 0 { draw }; if reserve = 1 { draw }"],
                &["R: if hand = 0 { draw }; if hand = 0 { draw }"],
                &["R: if hand = 0 { draw }; if reserve = 0 { opponent_draws }"],
            ],
        );
        let text = "Unless you have eight qq or more Mana Orbs, I am [Defender].";
        check(
            text,
            &["static keyword(defender) if mana < 8"],
            &[
                &["static keyword(defender) if mana < 7"],
                &["static keyword(defender) if mana >= 8"],
                &["static keyword(gigantic) if mana < 8"],
            ],
        );
        // Two statics in one paragraph: two abilities.
        let text = "Unless you have eight or qq more Mana Orbs, I am qq [Defender]. If you have ten or more qq Mana Orbs, I am [Gigantic].";
        let good = [
            "static keyword(defender) if mana < 8",
            "static keyword(gigantic) if mana >= 10",
        ];
        check(
            text,
            &good,
            &[
                &[good[0]],
                &[good[0], "static keyword(gigantic) if mana >= 9"],
                &[good[0], "static keyword(gigantic)"],
            ],
        );
    }

    #[test]
    fn a_count_of_cards_of_a_kind_in_your_reserve() {
        let text = "If there are one or more Characters qq with Hand Cost qq {7} or more in your qq Reserve, your Reserve limit qq is increased by one.";
        check(
            text,
            &["static your_reserve_limit(1) if count(character in_reserve cost>=7) >= 1"],
            &[
                &["static your_reserve_limit(1) if count(character in_reserve cost>=6) >= 1"],
                &["static your_reserve_limit(1) if count(spell in_reserve cost>=7) >= 1"],
                &["static your_reserve_limit(1) if count(character in_reserve cost>=7) >= 2"],
                &[
                    "static your_reserve_limit(1) if count(character opposing in_reserve cost>=7) >= 1",
                ],
            ],
        );
    }

    #[test]
    fn cards_that_cant_gain_counters() {
        check(
            "Cards in your opponent's qq Reserve can't gain counters.",
            &["static no_counters(card opposing in_reserve)"],
            &[
                &["static no_counters(card in_reserve)"],
                &["static no_counters(card yours in_reserve)"],
                &["static no_counters(card opposing in_play)"],
            ],
        );
        check(
            "Cards in play or in qq Reserve with counters can't qq gain counters.",
            &["static no_counters(card countered in_play in_reserve)"],
            &[
                &["static no_counters(card in_play in_reserve)"],
                &["static no_counters(card countered in_play)"],
            ],
        );
    }

    #[test]
    fn each_player_in_turn_may_play_a_card_for_free() {
        let text = "{H} Starting with you, each player qq may immediately play a card qq with Hand Cost {3} qq or less for free.";
        check(
            text,
            &["H: each_play_free(card cost<=3 in_hand in_reserve)"],
            &[
                &["H: play_free(card cost<=3 in_hand in_reserve)"],
                &["H: opponent_play_free(card cost<=3 in_hand in_reserve)"],
                &["H: each_play_free(card cost<=2 in_hand in_reserve)"],
                &["H: each_play_free(character cost<=3 in_hand in_reserve)"],
            ],
        );
    }

    #[test]
    fn a_card_chosen_in_reserve_is_a_target() {
        check(
            "{J} You may ready an qq exhausted card in Reserve.",
            &["J: may { ready(target card any in_reserve exhausted) }"],
            &[
                &["J: ready(target card any in_reserve exhausted)"],
                &["J: may { ready(target card yours in_reserve exhausted) }"],
                &["J: may { ready(target card any in_reserve) }"],
                &["J: may { exhaust(target card any in_reserve exhausted) }"],
            ],
        );
        check(
            "{J} You may put a card qq from your Reserve in qq your Mana zone (as an qq exhausted Mana Orb).",
            &["J: may { to_mana(target card yours in_reserve) }"],
            &[
                &["J: may { to_mana_ready(target card yours in_reserve) }"],
                &["J: may { to_mana(target card any in_reserve) }"],
                &["J: to_mana(target card yours in_reserve)"],
            ],
        );
        check(
            "{J} You may put a card qq from your Reserve qq in your Mana zone qq as a ready Mana Orb.",
            &["J: may { to_mana_ready(target card yours in_reserve) }"],
            &[
                &["J: may { to_mana(target card yours in_reserve) }"],
                &["J: may { to_mana_ready(target character yours in_reserve) }"],
            ],
        );
    }

    #[test]
    fn two_targets_exchange_their_boosts() {
        let text = "{H} Target two [[Boosted]] Characters qq in play or in Reserve qq and exchange their boosts. qq Then, draw a card.";
        let good = "H: swap_boosts(targets 2 character boosted in_play in_reserve); draw";
        check(
            text,
            &[good],
            &[
                &["H: swap_boosts(targets 2 character in_play in_reserve); draw"],
                &["H: swap_boosts(targets 2 character boosted in_play); draw"],
                &["H: swap_boosts(target character boosted in_play in_reserve); draw"],
                &["H: swap_boosts(targets 2 character boosted in_play in_reserve)"],
            ],
        );
    }

    #[test]
    fn every_character_of_a_target_expedition_to_reserve_exhausted() {
        check(
            "{H} Send to Reserve each qq Character qq from target Expedition, then exhaust them.",
            &["H: select_exp(any); send_reserve_exhausted(each character any in_selected)"],
            &[
                &["H: select_exp(any); send_reserve(each character any in_selected)"],
                &[
                    "H: select_exp(opposing); send_reserve_exhausted(each character any in_selected)",
                ],
                &["H: select_exp(any); send_reserve_exhausted(each character yours in_selected)"],
            ],
        );
    }

    #[test]
    fn every_other_card_discarded_and_a_card_joining_a_discard_pile() {
        let text = "{H} Discard all other cards in qq play and in Reserve. When a qq card joins the discard pile — qq I gain 1 boost.";
        let good = [
            "H: discard(each card any in_play in_reserve other)",
            "when card_discarded: boost(me, 1)",
        ];
        check(
            text,
            &good,
            &[
                &["H: discard(each card any in_play in_reserve)", good[1]],
                &["H: discard(each card any in_play other)", good[1]],
                &[
                    "H: discard(each card yours in_play in_reserve other)",
                    good[1],
                ],
                &[good[0], "when card_discarded: boost(me, 2)"],
            ],
        );
    }

    #[test]
    fn each_player_may_put_a_card_from_hand_in_reserve() {
        let text = "{J} Each player may put qq a card from their hand qq in Reserve.";
        check(
            text,
            &["J: may { hand_to_reserve }; opponent_hand_to_reserve(1, may)"],
            &[
                &["J: may { hand_to_reserve }; opponent_hand_to_reserve"],
                &["J: hand_to_reserve; opponent_hand_to_reserve(1, may)"],
                &["J: may { hand_to_reserve }"],
            ],
        );
        // With "to draw a card" each player draws only if they did: not this form.
        let text =
            "{J} Each player may put qq a card from qq their hand in Reserve qq to draw a card.";
        let v = verdict_of(
            &["J: may { hand_to_reserve }; opponent_hand_to_reserve(1, may); draw"],
            text,
        );
        assert_ne!(v, Verdict::Verified);
    }

    #[test]
    fn a_status_of_the_target_just_boosted_is_tested() {
        let text =
            "{H} Target Character gains 1 qq boost. If it qq is [[Asleep]], it loses [[Asleep]].";
        let good =
            "H: select(character); boost(it, 1); if it_is(character asleep) { lose(it, asleep) }";
        check(
            text,
            &[good],
            &[
                &[&good.replace("boost(it, 1)", "boost(it, 2)")],
                &[&good.replace("it_is(character asleep)", "it_is(character anchored)")],
                &[&good.replace("lose(it, asleep)", "gain(it, asleep)")],
                &[&good.replace("select(character)", "select(character yours)")],
            ],
        );
        let text = "{H} Target Character gains 1 qq boost. If it qq is [[Asleep]], it qq gains [[Anchored]] and loses [[Asleep]].";
        let good = "H: select(character); boost(it, 1); if it_is(character asleep) { gain(it, anchored); lose(it, asleep) }";
        check(
            text,
            &[good],
            &[
                &[
                    "H: select(character); boost(it, 1); if it_is(character asleep) { lose(it, asleep) }",
                ],
                &[&good.replace("gain(it, anchored)", "gain(it, fleeting)")],
            ],
        );
    }

    #[test]
    fn a_static_after_an_ability_is_an_ability_of_its_own() {
        let text = "{J} Target Character qq gains 1 boost. My region is {V} qq in addition to its other terrains.";
        let good = ["J: boost(target character, 1)", "static terrain_add(F)"];
        check(
            text,
            &good,
            &[
                &[good[0], "static terrain_add(M)"],
                &[good[0]],
                &["J: boost(target character, 2)", good[1]],
            ],
        );
        let text = "{R} I lose [[Fleeting]]. If I'm [[Fleeting]], qq I am [Gigantic].";
        let good = [
            "R: lose(me, fleeting)",
            "static keyword(gigantic) if has(fleeting)",
        ];
        check(
            text,
            &good,
            &[
                &[good[0], "static keyword(gigantic)"],
                &[good[0], "static keyword(eternal) if has(fleeting)"],
                &[good[0], "static keyword(gigantic) if has(anchored)"],
            ],
        );
        let text = "{J} I gain [[Fleeting]]. [Defender] Characters qq don't prevent my Expedition qq from moving forward.";
        let good = ["J: gain(me, fleeting)", "static defender_no_block"];
        check(
            text,
            &good,
            &[&[good[0]], &[good[0], "static defender_no_block if behind"]],
        );
        let text = "{J} I gain [[Fleeting]]. If my Expedition qq would move forward during qq Dusk, it moves forward one more qq region instead.";
        check(
            text,
            &["J: gain(me, fleeting)", "static dusk_extra_forward"],
            &[&["J: gain(me, fleeting)"]],
        );
    }

    #[test]
    fn the_only_character_of_my_expedition_is_gigantic() {
        let text = "If there is only qq one Character in my qq Expedition, it is [Gigantic].";
        let good = "static aura(character yours in_my_expedition, gigantic) if count(character in_my_expedition) = 1";
        check(
            text,
            &[good],
            &[
                &[&good.replace("= 1", ">= 1")],
                &[&good.replace("gigantic)", "defender)")],
                &[
                    "static aura(character yours, gigantic) if count(character in_my_expedition) = 1",
                ],
            ],
        );
    }

    #[test]
    fn base_statistics_of_0_counted_as_there_are() {
        let text = "I cost {2} less if there qq are three or more base statistics qq of 0 among Characters you control.";
        check(
            text,
            &["static cost(-2) if zero_stats_of(character yours) >= 3"],
            &[
                &["static cost(-2) if zero_stats_of(character yours) >= 2"],
                &["static cost(-1) if zero_stats_of(character yours) >= 3"],
                &["static cost(-2) if zero_stats_of(character opposing) >= 3"],
            ],
        );
    }

    #[test]
    fn exhausted_cards_in_reserve_kept_counted_and_chosen() {
        let text = "[Eternal]. [Tough X], where X is qq the number of exhausted cards qq in Reserve. {J} You may exhaust ({T}) qq target card in Reserve. Exhausted Characters qq in Reserve remain exhausted during qq Morning.";
        let good = [
            "eternal",
            "static tough_x(count(card any exhausted in_reserve))",
            "J: may { exhaust(target card in_reserve) }",
            "static keep_exhausted",
        ];
        check(
            text,
            &good,
            &[
                &[good[0], good[1], good[2]],
                &[
                    good[0],
                    "static tough_x(count(card yours exhausted in_reserve))",
                    good[2],
                    good[3],
                ],
                &[
                    good[0],
                    "static tough_x(count(card any in_reserve))",
                    good[2],
                    good[3],
                ],
            ],
        );
        let text = "{H} Discard target exhausted card qq from a Reserve.";
        check(
            text,
            &["H: discard(target card in_reserve exhausted)"],
            &[
                &["H: discard(target card yours in_reserve exhausted)"],
                &["H: discard(target card in_reserve)"],
                &["H: discard(target card exhausted)"],
            ],
        );
    }

    #[test]
    fn a_target_in_the_expedition_facing_me() {
        let text = "{H} Target Character in the qq Expedition facing me gains [[Asleep]].";
        check(
            text,
            &["H: gain(target character facing_me, asleep)"],
            &[
                &["H: gain(target character, asleep)"],
                &["H: gain(target character in_my_expedition, asleep)"],
                &["H: gain(target character facing_me, anchored)"],
            ],
        );
    }

    #[test]
    fn a_status_replaced_and_cards_played_from_reserve_cost_more_or_less() {
        check(
            "If I would gain [[Asleep]], qq I gain [[Anchored]] instead.",
            &["static gain_instead(asleep, anchored)"],
            &[
                &["static gain_instead(anchored, asleep)"],
                &["static gain_instead(asleep, fleeting)"],
            ],
        );
        check(
            "Cards played from Reserve qq cost {1} more.",
            &["static cost_aura(card any from_reserve, 1)"],
            &[
                &["static cost_aura(card any from_reserve, 2)"],
                &["static cost_aura(card any from_reserve, -1)"],
                &["static cost_aura(card yours from_reserve, 1)"],
                &["static cost_aura(card any, 1)"],
            ],
        );
        check(
            "Cards played from Reserve qq cost {1} less, down qq to a minimum of {1}.",
            &["static cost_aura(card any from_reserve, -1, min 1)"],
            &[
                &["static cost_aura(card any from_reserve, -1)"],
                &["static cost_aura(card any from_reserve, -1, min 2)"],
            ],
        );
    }

    #[test]
    fn two_tokens_if_a_condition_holds_otherwise_one() {
        let text = "{J} If you control two qq or more Permanents, create two qq [Brassbug 2/2/2] qq Robot tokens in target qq Expedition. Otherwise, create only one.";
        let good = "J: if count(permanent yours) >= 2 { token(Brassbug, target, 2) } else { token(Brassbug, target) }";
        check(
            text,
            &[good],
            &[
                &["J: if count(permanent yours) >= 2 { token(Brassbug, target, 2) }"],
                &[
                    "J: if count(permanent yours) >= 2 { token(Brassbug, target, 2) } else { token(Brassbug, target, 2) }",
                ],
                &[
                    "J: if count(permanent yours) >= 3 { token(Brassbug, target, 2) } else { token(Brassbug, target) }",
                ],
                &[
                    "J: if count(permanent yours) >= 2 { token(Brassbug, mine, 2) } else { token(Brassbug, mine) }",
                ],
            ],
        );
    }

    #[test]
    fn a_support_static_statistics_levelled_under_a_condition_and_seasoned() {
        check(
            "{I} You may play qq exhausted cards from your Reserve.",
            &["support static play_exhausted"],
            &[&["static play_exhausted"]],
        );
        let text = "If I'm [[Boosted]], qq the {V}, {M}, and {O} of other qq Characters you control are qq equal to their highest statistic.";
        check(
            text,
            &["static level_stats(character yours other) if boosted"],
            &[
                &["static level_stats(character yours) if boosted"],
                &["static level_stats(character opposing other) if boosted"],
                &["static level_stats(character yours other)"],
            ],
        );
        let text =
            "{J} Target Character gains 1 boost. qq Characters in my Expedition qq are [Seasoned].";
        let good = [
            "J: boost(target character, 1)",
            "static aura(character in_my_expedition, seasoned)",
        ];
        check(
            text,
            &good,
            &[
                &[good[0]],
                &[
                    good[0],
                    "static aura(character opposing in_my_expedition, seasoned)",
                ],
                &[good[0], "static aura(character, seasoned)"],
            ],
        );
    }

    #[test]
    fn a_die_result_a_character_leaving_and_boosts_doubled() {
        check(
            "When you roll one qq or more dice — If the result qq is 6+, draw a card.",
            &["when roll: if roll_result >= 6 { draw }"],
            &[
                &["when roll: if roll_result >= 5 { draw }"],
                &["when roll: draw"],
            ],
        );
        check(
            "When a Character leaves qq your Expeditions — I gain qq 1 Food counter.",
            &["when leaves(character): counters(me, 1)"],
            &[
                &["when leaves(character): counters(me, 2)"],
                &["when leaves(character non_token): counters(me, 1)"],
            ],
        );
        check(
            "{H} Double the number of qq boosts on each Character you control qq and in your Reserve.",
            &["H: boost(each character yours in_play in_reserve, its_boosts)"],
            &[
                &["H: boost(each character yours in_play, its_boosts)"],
                &["H: boost(each character opposing in_play in_reserve, its_boosts)"],
                &["H: boost(each character yours in_play in_reserve, 1)"],
            ],
        );
        check(
            "{H} Characters in target qq Expedition gain 1 boost.",
            &["H: select_exp(any); boost(each character any in_selected, 1)"],
            &[
                &["H: select_exp(any); boost(each character any in_selected, 2)"],
                &["H: select_exp(yours); boost(each character any in_selected, 1)"],
                &["H: select_exp(any); boost(each character yours in_selected, 1)"],
            ],
        );
    }

    #[test]
    fn the_card_resupplied_played_or_taken_and_a_die_result_as_a_deck_position() {
        let text = "{H} [Resupply]. If you put qq a Character in Reserve this qq way, you may immediately play qq it for {2} less.";
        let good = "H: resupply; if it_is(character in_reserve) { play_now(it, less 2, may) }";
        check(
            text,
            &[good],
            &[
                &["H: resupply; if it_is(character in_reserve) { play_now(it, less 1, may) }"],
                &["H: resupply; if it_is(character in_reserve) { play_now(it, less 2) }"],
                &["H: resupply; if it_is(card in_reserve) { play_now(it, less 2, may) }"],
            ],
        );
        let text = "{H} [Resupply]. If you put qq a Character in Reserve this qq way, you may then qq put it in your hand.";
        check(
            text,
            &["H: resupply; if it_is(character in_reserve) { may { to_hand(it) } }"],
            &[
                &["H: resupply; if it_is(character in_reserve) { to_hand(it) }"],
                &["H: resupply; may { to_hand(it) }"],
            ],
        );
        let text = "{H} Roll a die. Send target Character qq to the Xth position of its owner's qq deck, where X is the result.";
        check(
            text,
            &["H: roll; to_deck_at(target character, x)"],
            &[
                &["H: roll; to_deck_at(target character, 1)"],
                &["H: roll; to_deck_at(target character yours, x)"],
                &["H: roll; to_deck_top(target character)"],
            ],
        );
    }

    #[test]
    fn a_counter_spent_from_a_card_boosts_distributed_and_caps_raised() {
        let text = "{H} Spend 1 counter from qq a card you control or in qq your Reserve to discard target Permanent.";
        let good = "H: if count(card hero yours countered in_play in_reserve) >= 1 { spend_counter(target card hero yours countered in_play in_reserve); discard(target permanent) }";
        check(
            text,
            &[good],
            &[
                &[
                    "H: spend_counter(target card hero yours countered in_play in_reserve); discard(target permanent)",
                ],
                &[&good.replace("discard(target permanent)", "discard(target character)")],
                &[&good.replace(" yours countered", " countered")],
            ],
        );
        let text = "At Night — You may spend qq 1 counter from a card in qq your Reserve or Landmarks to [Sabotage] qq after Rest.";
        check(
            text,
            &[
                "night_after_rest: may { spend_counter(target card yours countered in_reserve in_landmarks); sabotage }",
            ],
            &[
                &[
                    "night_after_rest: spend_counter(target card yours countered in_reserve in_landmarks); sabotage",
                ],
                &[
                    "night: may { spend_counter(target card yours countered in_reserve in_landmarks); sabotage }",
                ],
                &[
                    "night_after_rest: may { spend_counter(target card yours countered in_reserve); sabotage }",
                ],
            ],
        );
        let text = "{H} Distribute 3 boosts among qq any Characters in Reserve.";
        check(
            text,
            &["H: repeat 3 { boost(target character in_reserve, 1) }"],
            &[
                &["H: repeat 2 { boost(target character in_reserve, 1) }"],
                &["H: boost(each character in_reserve, 1)"],
                &["H: repeat 3 { boost(target character yours in_reserve, 1) }"],
            ],
        );
        let text = "{J} [Resupply]. The Support abilities qq of cards in Reserve can qq give them 1 more counter qq than their maximum.";
        check(
            text,
            &["J: resupply", "static support_over_max(1)"],
            &[
                &["J: resupply", "static support_over_max(any)"],
                &["J: resupply"],
            ],
        );
        let text = "{J} [Resupply]. The Support abilities qq of cards in Reserve can qq give them counters beyond qq their maximum.";
        check(
            text,
            &["J: resupply", "static support_over_max(any)"],
            &[&["J: resupply", "static support_over_max(1)"]],
        );
    }

    #[test]
    fn once_for_each_boost_i_had_when_i_leave() {
        let text = "When I leave the Expedition qq zone, for each of my boosts qq — Another target Character in qq your Reserve gains 1 boost.";
        let good =
            "when leave: repeat had_boosts { boost(target character other yours in_reserve, 1) }";
        check(
            text,
            &[good],
            &[
                &["when leave: boost(target character other yours in_reserve, 1)"],
                &["when leave: repeat had_boosts { boost(target character yours in_reserve, 1) }"],
                &[
                    "when leave: repeat had_boosts { boost(target character other yours in_reserve, 2) }",
                ],
                &["when leave: repeat had_boosts { boost(target character other in_reserve, 1) }"],
            ],
        );
    }
}
