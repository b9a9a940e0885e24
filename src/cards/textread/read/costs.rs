//! Sentences that pay for what follows, taught for issue 25: spending my boosts, paying
//! Mana and putting a hand card in Reserve, discarding a Reserve card, exhausting a card
//! you choose (only when one can be exhausted), a {T} cost inside a choice, and "you may
//! immediately play". Tried before the other readings of a clause.

use super::super::norm::{NStep, filter_str, op, target_str};
use super::super::reduce::{cmp_str, cost_str};
use super::{Reader, num_word, upper_first};
use crate::cards::effect::{Cmp, Cost, Whose, fzone, playflag};

impl Reader<'_> {
    /// A clause that pays for its effect; `None` when `s` is not one.
    pub(super) fn cost_clause(&self, s: &str) -> Option<Result<Vec<NStep>, String>> {
        self.cost_clause_inner(s).transpose()
    }

    fn cost_clause_inner(&self, s: &str) -> Result<Option<Vec<NStep>>, String> {
        // "{T} : X" inside a choice: the mode exhausts me.
        if let Some(rest) = s.strip_prefix("{T} : ") {
            let c = Cost {
                exhaust: true,
                ..Cost::default()
            };
            return Ok(Some(vec![NStep::Pay(cost_str(&c), self.clause(rest)?)]));
        }
        // "Spend N of my boosts to X": only with that many boosts.
        rx!(SPEND_BOOSTS, r"^(?i:spend) (\w+) of my boosts to (.+)$");
        if let Some(c) = SPEND_BOOSTS.captures(s) {
            let n = num_word(&c[1]).ok_or("a number")?;
            let mut body = vec![op("boost", &["me", &(-n).to_string()])];
            body.extend(self.clause(&upper_first(&c[2]))?);
            return Ok(Some(vec![NStep::If(
                cmp_str("MyBoosts", Cmp::Ge, n),
                body,
                Vec::new(),
            )]));
        }
        // Paying {N} and putting a card from hand in Reserve to do X: only with a card in
        // hand; the payment is the choice.
        rx!(
            PAY_AND_PUT,
            r"^You may pay \{(\d+)\} and put @hand_card in Reserve to (.+)$"
        );
        if let Some(c) = PAY_AND_PUT.captures(s) {
            let cost = Cost {
                mana: c[1].parse().map_err(|_| "a cost")?,
                ..Cost::default()
            };
            let mut body = vec![op("from_hand", &["You", "Reserve", "1"])];
            body.extend(self.clause(&upper_first(&c[2]))?);
            return Ok(Some(vec![NStep::If(
                cmp_str("HandSize", Cmp::Ge, 1),
                vec![NStep::Pay(cost_str(&cost), body)],
                Vec::new(),
            )]));
        }
        // Discarding "any number" of Reserve cards (sacrificing any number of Permanents)
        // to do E "that many" times: the one-card form, repeated until the player stops or
        // nothing is left to pay (`repeat any`, RULES.md D66), E once for each card.
        rx!(
            ANY_NUMBER_TO,
            r"^You may (discard|sacrifice) any number of (.+?) to (.+) that many (boosts|cards)$"
        );
        if let Some(c) = ANY_NUMBER_TO.captures(s) {
            let one = match (&c[1], &c[2]) {
                ("discard", "cards from your Reserve") => "@reserve_card".to_string(),
                ("sacrifice", plural) if !plural.contains(' ') && plural.ends_with('s') => {
                    format!("a {}", plural.trim_end_matches('s'))
                }
                _ => return Ok(None),
            };
            let each = match &c[4] {
                "boosts" => "1 boost",
                _ => "a card",
            };
            let sentence = format!("You may {} {one} to {} {each}", &c[1], &c[3]);
            let Some(round) = self.cost_clause_inner(&sentence)? else {
                return Ok(None);
            };
            return Ok(Some(vec![NStep::Repeat("any".into(), round)]));
        }
        // "You may sacrifice a Permanent to X": only with one to sacrifice.
        rx!(SACRIFICE_TO, r"^You may sacrifice (an? .+?) to (.+)$");
        if let Some(c) = SACRIFICE_TO.captures(s)
            && &c[1] != "a Character"
        {
            let mut f = self.noun(&c[1], Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            let fs = filter_str(&f, self.ctx);
            let mut body = vec![op("move_Sacrifice", &[&target_str(&fs, 1, 1, false, "")])];
            body.extend(self.clause(&upper_first(&c[2]))?);
            return Ok(Some(vec![NStep::If(
                cmp_str(&format!("count({fs})"), Cmp::Ge, 1),
                vec![NStep::May(body)],
                Vec::new(),
            )]));
        }
        // Discarding a card from your Reserve to do X.
        if let Some(rest) = s.strip_prefix("You may discard @reserve_card to ") {
            let cost = Cost {
                discard_reserve: 1,
                ..Cost::default()
            };
            let body = self.clause(&upper_first(rest))?;
            return Ok(Some(vec![NStep::Pay(cost_str(&cost), body)]));
        }
        // "Exhaust a card in your Reserve [to X]" (not targeted): only when one is ready.
        rx!(EXHAUST_ONE, r"^(?i:exhaust) (an? .+?)(?: to (.+))?$");
        if let Some(c) = EXHAUST_ONE.captures(s) {
            let Ok(np) = self.noun(&c[1], Whose::Any) else {
                return Ok(None);
            };
            if np.quant != super::Quant::A {
                return Ok(None);
            }
            let mut f = np.filter;
            if f.zones == fzone::RESERVE && f.whose == Whose::Any {
                return Ok(None);
            }
            f.exhausted = Some(false);
            let fs = filter_str(&f, self.ctx);
            let mut body = vec![op("exhaust", &[&target_str(&fs, 1, 1, false, "")])];
            if let Some(rest) = c.get(2) {
                body.extend(self.clause(&upper_first(rest.as_str()))?);
            }
            return Ok(Some(vec![NStep::If(
                cmp_str(&format!("count({fs})"), Cmp::Ge, 1),
                body,
                Vec::new(),
            )]));
        }
        // Playing me for free, and I gain [[Asleep]] (when I go to Reserve).
        rx!(
            PLAY_ME,
            r"^You may play me for\x20free and I gain \[\[(\w+)\]\]$"
        );
        if let Some(c) = PLAY_ME.captures(s) {
            let f = crate::cards::effect::Filter {
                kinds: crate::cards::effect::fkind::CARD,
                zones: fzone::RESERVE | fzone::HAND,
                ..crate::cards::effect::Filter::default()
            };
            let flags = playflag::OPTIONAL | playflag::ME;
            return Ok(Some(vec![
                op(
                    "play",
                    &[
                        "You",
                        &filter_str(&f, self.ctx),
                        "free",
                        "None",
                        &flags.to_string(),
                    ],
                ),
                NStep::If(
                    "Did".into(),
                    vec![op("gain", &["it", &c[1].to_ascii_lowercase()])],
                    Vec::new(),
                ),
            ]));
        }
        // "You may immediately play a Character for {N} less" (from hand or Reserve).
        rx!(
            PLAY_NOW,
            r"^(You may )?(?i:immediately) play (an? .+?) for (\{\d+\} less|free)$"
        );
        if let Some(c) = PLAY_NOW.captures(s) {
            let mut f = self.noun(&c[2], Whose::Any)?.filter;
            f.zones = fzone::RESERVE | fzone::HAND;
            let less = match &c[3] {
                "free" => "free".to_string(),
                l => format!(
                    "less {}",
                    l.trim_start_matches('{').split('}').next().unwrap_or("")
                ),
            };
            let flags = if c.get(1).is_some() {
                playflag::OPTIONAL
            } else {
                0
            };
            return Ok(Some(vec![op(
                "play",
                &[
                    "You",
                    &filter_str(&f, self.ctx),
                    &less,
                    "None",
                    &flags.to_string(),
                ],
            )]));
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use crate::cards::textread::{Verdict, check, verdict_of};

    fn unread(lines: &[&str], text: &str) -> bool {
        matches!(verdict_of(lines, text), Verdict::Declared(why) if why.starts_with("unread"))
    }

    #[test]
    fn any_number_of_reserve_cards_discarded_for_that_many_boosts_or_cards() {
        let text = "{J} You may discard any number qq of cards from your Reserve qq to give me that many qq boosts.";
        let good = "J: repeat any { pay(discard_reserve) { boost(me, 1) } }";
        check(
            text,
            &[good],
            &[
                // Another amount, zone, effect or trigger.
                &["J: repeat any { pay(discard_reserve) { boost(me, 2) } }"],
                &["J: repeat any { pay(discard_hand) { boost(me, 1) } }"],
                &["J: repeat any { pay(discard_reserve) { draw } }"],
                &["H: repeat any { pay(discard_reserve) { boost(me, 1) } }"],
                // A cap, a count read once, a single card.
                &["J: repeat 8 { pay(discard_reserve) { boost(me, 1) } }"],
                &["J: repeat reserve { pay(discard_reserve) { boost(me, 1) } }"],
                &["J: pay(discard_reserve) { boost(me, 1) }"],
                // Not optional.
                &[
                    "J: repeat any { if reserve >= 1 { discard(target card yours in_reserve); boost(me, 1) } }",
                ],
            ],
        );
        let text = "{J} You may discard any number qq of cards from your Reserve qq to draw that many qq cards.";
        check(
            text,
            &["J: repeat any { pay(discard_reserve) { draw } }"],
            &[
                &["J: repeat any { pay(discard_reserve) { draw(2) } }"],
                &["J: repeat any { pay(discard_reserve) { opponent_draws } }"],
                &["J: repeat 8 { pay(discard_reserve) { draw } }"],
            ],
        );
        // Another zone is not this form.
        assert!(unread(
            &["J: repeat any { pay(discard_hand) { draw } }"],
            "{J} You may discard any number qq of cards from your hand qq to draw that many qq cards."
        ));
    }

    #[test]
    fn any_number_of_permanents_sacrificed_for_that_many_boosts() {
        let text =
            "{J} You may sacrifice any number qq of Permanents to give qq me that many boosts.";
        let good = "J: repeat any { if control(permanent yours) { may { sacrifice(target permanent yours); boost(me, 1) } } }";
        check(
            text,
            &[good],
            &[
                &[&good.replace("boost(me, 1)", "boost(me, 2)")],
                &[&good.replace("target permanent yours", "target permanent opposing")],
                &[&good.replace("target permanent yours", "target character yours")],
                &[&good.replace("repeat any", "repeat 8")],
                &[
                    "J: repeat any { if control(permanent yours) { sacrifice(target permanent yours); boost(me, 1) } }",
                ],
                &[&good.replace("J:", "R:")],
            ],
        );
        // The guard says no more than the target it guards (`equiv.rs`).
        assert_eq!(
            verdict_of(
                &["J: repeat any { may { sacrifice(target permanent yours); boost(me, 1) } }"],
                text
            ),
            Verdict::Verified
        );
    }
}
