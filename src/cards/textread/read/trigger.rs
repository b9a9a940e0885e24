//! What starts an ability: the costs of a quick action, and the times and events of "At
//! ..." and "When ..." abilities.

use super::{Patterns, Reader, num_word, ordinal};
use crate::cards::effect::{Filter, Whose, fkind};
use crate::cards::types::kw;

/// Events with nothing to read inside: the text and the event.
const FIXED_EVENTS: &[(&str, &str)] = &[
    ("I'm sacrificed", "Sacrificed"),
    (
        "I go to Reserve @from_exp",
        "ToReserve { from_expedition: true }",
    ),
    (
        "I go to Reserve from your hand",
        "ToReserve { from_expedition: false }",
    ),
    ("I leave the Expedition zone", "LeaveExpedition"),
    (
        "I leave the Expedition zone,\x20if I was [[Fleeting]]",
        "LeaveExpedition@if:me_had(fleeting)",
    ),
    ("I leave the Landmark zone", "LeaveLandmarks"),
    ("I leave the Landmarks zone", "LeaveLandmarks"),
    (
        "a card goes @from_deck_or_hand to Reserve",
        "YourCardToReserve",
    ),
    ("my Expedition moves forward", "MyExpMoves"),
    (
        "one or more of your\x20Ascended Expeditions moves forward",
        "AscendedMoves { unfaced: false }",
    ),
    ("my Expedition moves forward due to", "MyExpMoves"),
    ("my Expedition @fails_at_dusk", "MyExpFails"),
    ("you roll one or more dice", "YouRoll"),
    ("you roll a die", "YouRoll"),
    ("you pass first", "YouPassFirst"),
    ("you make a [Gift]", "YouGift"),
    // Any player's discard pile (The Hunger).
    ("a card joins the discard pile", "CardDiscarded"),
    // A Character leaving your Expeditions (The Mess), as "a non-token Character" reads.
    (
        "a Character leaves your Expeditions",
        "leaves(character any in:exp)",
    ),
    // Once per boost I had (Bravos Excavator).
    (
        "I leave the Expedition zone,\x20for each of my boosts",
        "LeaveExpedition@repeat:MyLeftBoosts",
    ),
    (
        "a card leaves your Reserve @in_afternoon",
        "LeavesYourReserve@afternoon",
    ),
    ("you exhaust a card in Reserve", "YouExhaustInReserve"),
    ("an opponent draws @cards_or_resupply", "OpponentDraws"),
    (
        "a Character you control gains [[Fleeting]]",
        "gains(fleeting)",
    ),
    (
        "a Character you control gains [[Anchored]]",
        "gains(anchored)",
    ),
    ("a Character you control gains [[Asleep]]", "gains(asleep)"),
    ("I gain [[Asleep]]", "i_gain(asleep)"),
    ("I gain [[Anchored]]", "i_gain(anchored)"),
    ("I gain [[Fleeting]]", "i_gain(fleeting)"),
    ("one of your Expeditions @moves_due {V}", "exp_moves_due(F)"),
    ("one of your Expeditions @moves_due {M}", "exp_moves_due(M)"),
    ("one of your Expeditions @moves_due {O}", "exp_moves_due(O)"),
    ("my Expedition @moves_due {V}", "moves_due(F)"),
    ("my Expedition @moves_due {M}", "moves_due(M)"),
    ("my Expedition @moves_due {O}", "moves_due(O)"),
    ("I leave your Landmark zone", "LeaveLandmarks"),
    // A boost event names no zone: "@if:" tests which character gained them (the body runs
    // only if it holds), as the encodings' `when boosted if it_is(...)` do.
    (
        "a Character you control gains 1\x20or more boosts",
        "YourCharacterBoosted@if:it_is(character any in:exp)",
    ),
    (
        "a Character in your Reserve gains 1\x20or more boosts",
        "YourCharacterBoosted@if:it_is(character yours in:reserve)",
    ),
    (
        "I gain 1 or more boosts",
        "YourCharacterBoosted@if:(it_is(character any in:exp) and not(it_is(character any in:exp other)))",
    ),
];

/// Events that name what happens to which objects.
static EVENTS: Patterns<String> = Patterns::new(&[
    (
        r"^I gain my (first|second|third|fourth|fifth|sixth) [A-Z][a-z]+ counter$",
        |_, c| {
            Ok(Some(format!(
                "CountersReach({})",
                ordinal(&c[1]).unwrap_or(0)
            )))
        },
    ),
    (r"^you play (.+?)( from your Reserve)?$", |r, c| {
        let f = r.noun(&c[1], Whose::Yours)?;
        let name = if c.get(2).is_some() {
            "play_reserve"
        } else {
            "play"
        };
        Ok(Some(format!("{name}({})", r.event(f.filter))))
    }),
    (r"^you play your first (.+?) each Afternoon$", |r, c| {
        let f = r.noun(&format!("a {}", &c[1]), Whose::Yours)?;
        Ok(Some(format!("play_first({})", r.event(f.filter))))
    }),
    (r"^an opponent plays (.+?) from Reserve$", |r, c| {
        let f = r.noun(&c[1], Whose::Opposing)?;
        Ok(Some(format!(
            "opponent_play_reserve({})",
            r.event(f.filter)
        )))
    }),
    (r"^an opponent plays (.+?)$", |r, c| {
        let f = r.noun(&c[1], Whose::Opposing)?;
        Ok(Some(format!("opponent_play({})", r.event(f.filter))))
    }),
    (
        r"^(.+?) joins (your Expeditions|my Expedition|the Expedition facing me)$",
        |r, c| {
            let mut f = r.noun(&c[1], Whose::Yours)?.filter;
            let name = match &c[2] {
                "your Expeditions" => "joins",
                "my Expedition" => {
                    f.place = crate::cards::effect::Where::MyExpedition;
                    "joins"
                }
                _ => "joins_facing",
            };
            Ok(Some(format!("{name}({})", r.event(f))))
        },
    ),
    // A Permanent joining your Expeditions or Landmarks: played or created there, or taken
    // (the join event counts Permanents as well as Characters).
    (
        r"^(.+? Permanents?) joins your Expeditions or\x20Landmarks$",
        |r, c| {
            let f = r.noun(&c[1], Whose::Yours)?.filter;
            Ok(Some(format!("joins({})", r.event(f))))
        },
    ),
    // A token Character you create, wherever it goes (the event object is the token); a
    // text naming any token would count Permanent tokens too, which this event does not.
    (
        r"^you create (?:a token Character|a Character token)$",
        |r, _| {
            let f = r.noun("a Character", Whose::Yours)?;
            Ok(Some(format!("token_created({})", r.event(f.filter))))
        },
    ),
    (r"^you sacrifice (.+?)$", |r, c| {
        let f = r.noun(&c[1], Whose::Yours)?;
        Ok(Some(format!("you_sacrifice({})", r.event(f.filter))))
    }),
]);

impl Reader<'_> {
    /// The costs of a quick action ("{1}, {T} : ..."): its trigger, and whether it is
    /// played from Reserve (a {D} cost).
    pub(super) fn quick(&self, costs: &str) -> Result<(String, bool), String> {
        let mut c = crate::cards::effect::Cost::default();
        let mut support = false;
        for part in costs.split(", ") {
            if part == "{T}" {
                c.exhaust = true;
            } else if part == "{D}" {
                c.discard_me = true;
                support = true;
            } else if let Some(n) = part.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
                c.mana = n.parse().map_err(|_| format!("a cost '{part}'"))?;
            } else if let Some(r) = part.strip_prefix("Spend ") {
                let n = num_word(r.split(' ').next().unwrap_or(""))
                    .ok_or_else(|| format!("a cost '{part}'"))?;
                c.counters = n as u8;
            } else if part == "Discard @reserve_card"
                || (part.starts_with("Discard") && part.ends_with("Reserve"))
            {
                c.discard_reserve = 1;
            } else if part.starts_with("Discard") && part.ends_with("hand") {
                c.discard_hand = 1;
            } else if part == "Sacrifice a Character" {
                c.sacrifice = fkind::CHARACTER;
            } else {
                return Err(format!("a cost '{part}'"));
            }
        }
        let cs = super::super::reduce::cost_str(&c);
        Ok(if support {
            (format!("D({cs})"), true)
        } else {
            (format!("quick({cs})"), false)
        })
    }

    /// The trigger of "At {what}" or "When {what}".
    pub(super) fn when(&self, at: &str, what: &str) -> Result<String, String> {
        if at == "At" {
            return Ok(match what {
                "Noon" => "noon",
                "Dusk" => "dusk",
                "Night" => "night",
                _ => return Err(format!("a time 'At {what}'")),
            }
            .into());
        }
        if let Some((_, e)) = FIXED_EVENTS.iter().find(|(t, _)| *t == what) {
            return Ok(format!("when {e}"));
        }
        if let Some(e) = self.mo_when(what) {
            return Ok(e);
        }
        if what == "I'm sacrificed, if I was not [[Fleeting]]" {
            let f = Filter {
                kinds: fkind::CHARACTER,
                without: kw::FLEETING,
                ..Filter::default()
            };
            return Ok(format!("when sacrificed_as({})", self.event(f)));
        }
        match EVENTS.read(self, what) {
            Some(e) => Ok(format!("when {}", e?)),
            None => match crate::cards::textread::forms::event(self, what) {
                Some(f) => Ok(format!("when {f}")),
                None => Err(format!("an event 'When {what}'")),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::cards::textread::check;

    #[test]
    fn a_permanent_joining_your_expeditions_or_landmarks() {
        let text =
            "When another Permanent joins qq your Expeditions or Landmarks — I gain qq 1 boost.";
        check(
            text,
            &["when joins(permanent other): boost(me, 1)"],
            &[
                // Only played, or any Permanent (me too), or a Character.
                &["when play(permanent): boost(me, 1)"],
                &["when play(permanent other): boost(me, 1)"],
                &["when joins(permanent): boost(me, 1)"],
                &["when joins(character other): boost(me, 1)"],
                // Another amount.
                &["when joins(permanent other): boost(me, 2)"],
            ],
        );
    }
}
