//! Single effects: one verb on its objects (drawing, moving objects between zones, boosts,
//! counters and statuses, tokens, a discount or a gift for the next card played).

use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::super::norm::{NStep, filter_str, op, target_str};
use super::super::reduce::token_str;
use super::{Patterns, Reader, Reading, num_word};
use crate::cards::effect::Whose;
use crate::cards::types::Stats;

/// The error of an effect the patterns match but cannot read.
fn bad<T>(c: &Captures<'_>) -> Reading<T> {
    Err(format!("an effect '{}'", &c[0]))
}

/// A card the next one of which you play this turn is changed: the filter, yours.
pub(super) fn next_card(
    r: &Reader<'_>,
    what: &str,
) -> Result<crate::cards::effect::Filter, String> {
    let mut f = r.noun(&format!("a {what}"), Whose::Yours)?.filter;
    f.whose = Whose::Yours;
    Ok(f)
}

/// Verbs on one object that are one op each, tried after [`EFFECTS`]: the pattern (the
/// object is its group 1, or 2 where 1 took no part) and the op.
const ONE_OBJECT: [(&str, &str); 12] = [
    (
        r"^(?i:send) (?:to Reserve (.+)|(.+?) to Reserve)$",
        "move_Reserve",
    ),
    (r"^(.+?) goes to Reserve$", "move_Reserve"),
    (r"^(?i:discard) (.+)$", "move_Discard"),
    (r"^(?i:sacrifice) (.+)$", "move_Sacrifice"),
    (
        r"^(?i:return|put) (.+?) (?:to|on) the top of (?:its|their) owners?'?s? deck$",
        "move_DeckTop",
    ),
    (
        r"^(?i:put) (.+?) (?:in (?:its owner's|your) Mana zone|@owners_mana) @exhausted_orb$",
        "move_Mana",
    ),
    (r"^(?i:exhaust) (.+)$", "exhaust"),
    (r"^(?i:ready) (.+)$", "ready"),
    (r"^(.+?) defects?$", "defect"),
    (r"^(.+?) switch(?:es)? Expeditions$", "switch"),
    (r"^(?i:activate) the \{J\} abilities of (.+)$", "activate_j"),
    (r"^(.+?) activates its \{J\} abilities$", "activate_j"),
];

/// Effects with objects, numbers or names to read, in the order they are tried.
static EFFECTS: Patterns<Vec<NStep>> = Patterns::new(&[
    // "Target another Character, it loses X and gains Y": the target, then `it`.
    (r"^(?i:target) ([^,]+), it (.+)$", |r, c| {
        let (o, _) = r.obj(&format!("target {}", &c[1]))?;
        let mut steps = r.clause(&format!("It {}", &c[2]))?;
        if let Some(NStep::Op(first)) = steps.first_mut() {
            *first = first.replacen("(it", &format!("({o}"), 1);
        }
        Ok(Some(steps))
    }),
    // "we both gain N boosts": the targeted Character, then me.
    (r"^we both gain (\d+|one|two) boosts?$", |_, c| {
        let n = num_word(&c[1]).unwrap_or(0).to_string();
        Ok(Some(vec![
            op("boost", &["it", &n]),
            op("boost", &["me", &n]),
        ]))
    }),
    (r"^(?i:draw) (two|three|four|\d+) cards$", |_, c| {
        let n = num_word(&c[1]).unwrap_or(0);
        Ok(Some(vec![op("draw", &["You", &n.to_string()])]))
    }),
    // Next card modifiers.
    (
        r"^(?i:the) next (.+?) you play this (turn|Afternoon) costs \{(\d+)\} less$",
        |r, c| {
            let f = next_card(r, &c[1])?;
            let until = if &c[2] == "turn" { "turn" } else { "afternoon" };
            Ok(Some(vec![op(
                "discount",
                &[&filter_str(&f, r.ctx), &c[3], "min 0", until],
            )]))
        },
    ),
    (
        r"^(?i:the) next (.+?) you play( in \{[VMO]\})? this turn gains (\d+) boosts?$",
        |r, c| {
            let what = format!("{}{}", &c[1], c.get(2).map_or("", |m| m.as_str()));
            let f = next_card(r, &what)?;
            Ok(Some(vec![op(
                "next_boost",
                &[&filter_str(&f, r.ctx), &c[3]],
            )]))
        },
    ),
    (
        r"^(?i:the) next (.+?) you play this turn is free$",
        |r, c| {
            let f = next_card(r, &c[1])?;
            Ok(Some(vec![op("next_mod", &[&filter_str(&f, r.ctx), "8"])]))
        },
    ),
    (
        r"^The next (.+?) (?:you play from your hand|played from your hand) this turn activates (?:its|one of its) \{R\} abilities$",
        |r, c| {
            let mut f = next_card(r, &c[1])?;
            f.from_reserve = Some(false);
            Ok(Some(vec![op("next_activate_r", &[&filter_str(&f, r.ctx)])]))
        },
    ),
    (
        r"^(.+?) gains? (\d+) (boost|[A-Z][a-z]+ counter) per (.+)$",
        |r, c| {
            let (o, _) = r.obj(&c[1])?;
            if &c[2] != "1" {
                return bad(c);
            }
            let count = r.count(&c[4])?;
            let name = if &c[3] == "boost" {
                "boost"
            } else {
                "counters"
            };
            Ok(Some(vec![op(name, &[&o, &count])]))
        },
    ),
    (
        r"^(?i:the) next (.+?)(?: that)? you play this turn( with (?:Hand|Base) Cost \{\d+\} or less)? (gains|loses) \[\[(Fleeting|Anchored|Asleep)\]\]$",
        |r, c| {
            let what = format!("{}{}", &c[1], c.get(2).map_or("", |m| m.as_str()));
            let f = next_card(r, &what)?;
            let name = if &c[3] == "gains" {
                "next_gain"
            } else {
                "next_lose"
            };
            Ok(Some(vec![op(
                name,
                &[&filter_str(&f, r.ctx), &c[4].to_ascii_lowercase()],
            )]))
        },
    ),
    // Boosts, counters and statuses.
    // Each Character in an Expedition chosen (either side's, D21).
    (
        r"^(?i:each) Character in target Expedition gains (\d+|one|two) boosts?$",
        |_, c| {
            let n = num_word(&c[1]).unwrap_or(0).to_string();
            Ok(Some(vec![
                op("select_exp", &["Any", "false"]),
                op("boost", &["each(character any in:exp place:Selected)", &n]),
            ]))
        },
    ),
    (r"^(.+?) loses all its boosts$", |r, c| {
        let (o, _) = r.obj(&c[1])?;
        Ok(Some(vec![op("boost", &[&o, "-ItsBoosts"])]))
    }),
    (
        r"^(.+?) (?:gains?|each gain) (\d+|one|two|three|X) boosts?(?:, up to a max of (\d+)|, where X is the result)?$",
        |r, c| {
            let (o, _) = r.obj(&c[1])?;
            let n = match &c[2] {
                "X" if c[0].ends_with("where X is the result") => "X".to_string(),
                "X" => return bad(c),
                w => num_word(w).unwrap_or(0).to_string(),
            };
            let mut args = vec![o, n];
            if let Some(m) = c.get(3) {
                args.push(format!("max {}", m.as_str()));
            }
            let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
            Ok(Some(vec![op("boost", &a)]))
        },
    ),
    (r"^(?i:give) (.+?) (\d+|one|two|three) boosts?$", |r, c| {
        let (o, _) = r.obj(&c[1])?;
        let n = num_word(&c[2]).unwrap_or(0);
        Ok(Some(vec![op("boost", &[&o, &n.to_string()])]))
    }),
    (
        r"^(.+?) gains? (\d+|an?|one|two|three) [A-Z][a-z]+ counters?(?:, up to a max of (\d+))?$",
        |r, c| {
            let (o, _) = r.obj(&c[1])?;
            let n = num_word(&c[2]).unwrap_or(0).to_string();
            let mut args = vec![o, n];
            if let Some(m) = c.get(3) {
                args.push(format!("max {}", m.as_str()));
            }
            let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
            Ok(Some(vec![op("counters", &a)]))
        },
    ),
    (
        r"^(.+?) (gains?|loses?) \[\[(Fleeting|Anchored|Asleep|Eternal|Seasoned|Defender|Gigantic)\]\]$",
        |r, c| {
            let (o, _) = r.obj(&c[1])?;
            let st = c[3].to_ascii_lowercase();
            let name = if c[2].starts_with("gain") {
                "gain"
            } else {
                "lose"
            };
            Ok(Some(vec![op(name, &[&o, &st])]))
        },
    ),
    (r"^(.+?) gains? \[Tough (\d+)\]$", |r, c| {
        let (o, _) = r.obj(&c[1])?;
        Ok(Some(vec![op("gain", &[&o, &format!("tough {}", &c[2])])]))
    }),
    // Returning to hand (the other verbs on one object are [`ONE_OBJECT`]).
    (
        r"^(?i:return) (.+?) to (?:its owner's|your|their owner's|their owners') (hand|deck)$",
        |r, c| {
            if c[1].ends_with(" from your Reserve") {
                return Ok(None);
            }
            let (o, _) = r.obj(&c[1])?;
            if &c[2] != "hand" {
                return bad(c);
            }
            Ok(Some(vec![op("move_Hand", &[&o])]))
        },
    ),
    // Tokens.
    (
        r"^(?i:create) (an?|one|two|three|four) \[([^\]]+?) (\d+)/(\d+)/(\d+)\] (?:[A-Za-z ]*?tokens? )?(?:in|into) (target Expedition|my Expedition|your Hero Expedition|your Companion Expedition|a Hero Expedition|a Companion Expedition|your other Expedition|each of your Expeditions|target opponent's Companion Expedition|target opponent's Hero Expedition)( after Rest)?$",
        |_, c| {
            let n = num_word(&c[1]).unwrap_or(0);
            let stats = Stats::new(
                c[3].parse().unwrap_or(0),
                c[4].parse().unwrap_or(0),
                c[5].parse().unwrap_or(0),
            );
            let at = match &c[6] {
                "target Expedition" => "Target",
                "my Expedition" => "Mine",
                "your Hero Expedition" => "Fixed(Hero)",
                "your Companion Expedition" => "Fixed(Companion)",
                // Either player's, head to head (D60).
                "a Hero Expedition" => "AnyOf(Hero)",
                "a Companion Expedition" => "AnyOf(Companion)",
                "target opponent's Companion Expedition" => "Fixed(Companion)",
                "target opponent's Hero Expedition" => "Fixed(Hero)",
                "your other Expedition" => "Other",
                _ => "Each",
            };
            let name = if c.get(7).is_some() {
                "token_after_rest"
            } else {
                "token"
            };
            let side = if c[6].starts_with("target opponent's") {
                "opposing"
            } else {
                "yours"
            };
            Ok(Some(vec![op(
                name,
                &[&token_str(&c[2], stats), at, &n.to_string(), side],
            )]))
        },
    ),
    (
        r"^(?i:give) (\d+|one|two|three) boosts? to (.+)$",
        |r, c| {
            let (o, _) = r.obj(&c[2])?;
            let n = num_word(&c[1]).unwrap_or(0);
            Ok(Some(vec![op("boost", &[&o, &n.to_string()])]))
        },
    ),
    // Each Permanent you control may activate its {J} abilities.
    (
        r"^For each (.+?), you may activate its \{J\} abilities$",
        |r, c| {
            let mut f = r.noun(&format!("a {}", &c[1]), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            Ok(Some(vec![op("activate_j_each", &[&filter_str(&f, r.ctx)])]))
        },
    ),
    // [Augment] gives a counter to what has counters: only those are worth targeting.
    (
        r"^\[Augment\] (any number of target|target) (cards?) in play or in Reserve$",
        |r, c| {
            let mut np = r.noun(
                &format!("target {} in play or in Reserve", &c[2]),
                Whose::Any,
            )?;
            np.filter.countered = Some(true);
            let f = filter_str(&np.filter, r.ctx);
            if c[1].starts_with("any") {
                return Ok(Some(vec![op("augment_any", &[&f])]));
            }
            Ok(Some(vec![op(
                "augment",
                &[&target_str(&f, 1, 1, false, "")],
            )]))
        },
    ),
    // N tokens spread over target Expeditions: one at a time, each to a target.
    (
        r"^(?i:create) (two|three|four|five) \[([^\]]+?) (\d+)/(\d+)/(\d+)\] [A-Za-z ]*?tokens, distributed (?:as you choose\x20among any number of target|among any) Expeditions$",
        |_, c| {
            let n = num_word(&c[1]).unwrap_or(0);
            let stat = |k: usize| c[k].parse().unwrap_or(0);
            let t = token_str(&c[2], Stats::new(stat(3), stat(4), stat(5)));
            Ok(Some(
                (0..n)
                    .map(|_| op("token", &[&t, "Target", "1", "yours"]))
                    .collect(),
            ))
        },
    ),
    // Tokens in each of your Expeditions that is behind (or tied).
    (
        r"^(?i:create) an? \[([^\]]+?) (\d+)/(\d+)/(\d+)\] [A-Za-z ]*?token in each of\x20your Expeditions that's behind or tied$",
        |_, c| {
            let stat = |k: usize| c[k].parse().unwrap_or(0);
            let t = token_str(&c[1], Stats::new(stat(2), stat(3), stat(4)));
            let one = |e: &str| {
                NStep::If(
                    format!("BehindExp({e})"),
                    vec![op("token", &[&t, &format!("Fixed({e})"), "1", "yours"])],
                    Vec::new(),
                )
            };
            Ok(Some(vec![one("Hero"), one("Companion")]))
        },
    ),
    // Sacrificing some of your Characters of a kind or place: your choice among yours.
    (r"^(?i:sacrifice) (a|two|three) (.+)$", |r, c| {
        if &c[2] == "Character" {
            return Ok(None);
        }
        let mut np = r.noun(&format!("{} {}", &c[1], &c[2]), Whose::Yours)?;
        if np.quant != super::Quant::A {
            return Ok(None);
        }
        np.filter.whose = Whose::Yours;
        let n = num_word(&c[1]).unwrap_or(1) as u8;
        let f = filter_str(&np.filter, r.ctx);
        Ok(Some(vec![op(
            "move_Sacrifice",
            &[&target_str(&f, n, n, false, "")],
        )]))
    }),
    // Discarding a card of your Reserve that you choose (another one than me: "other").
    (
        r"^(?i:discard) (an?|another) (.+?) from your Reserve$",
        |r, c| {
            let mut np = r.noun(&format!("a {}", &c[2]), Whose::Yours)?;
            if np.quant != super::Quant::A {
                return Ok(None);
            }
            np.filter.zones = crate::cards::effect::fzone::RESERVE;
            np.filter.whose = Whose::Yours;
            np.filter.other |= &c[1] == "another";
            let f = filter_str(&np.filter, r.ctx);
            Ok(Some(vec![op(
                "move_Discard",
                &[&target_str(&f, 1, 1, false, "")],
            )]))
        },
    ),
    (
        r"^(?i:return) (.+?) from your Reserve to your hand$",
        |r, c| {
            let mut np = r.noun(&c[1], Whose::Yours)?;
            np.filter.zones = crate::cards::effect::fzone::RESERVE;
            np.filter.whose = Whose::Yours;
            let f = filter_str(&np.filter, r.ctx);
            Ok(Some(vec![op(
                "move_Hand",
                &[&target_str(&f, np.min, np.max, false, "")],
            )]))
        },
    ),
]);

impl Reader<'_> {
    /// One effect, no "may".
    pub(super) fn effect(&self, s: &str) -> Result<Vec<NStep>, String> {
        let expanded = s.replace("@reserve_card", "a card from your Reserve");
        let s = expanded.trim().trim_end_matches('.');
        match s {
            "Draw a card" | "draw a card" => return Ok(vec![op("draw", &["You", "1"])]),
            "[Resupply]" | "[resupply]" => return Ok(vec![op("resupply", &["You"])]),
            "[Exhausted Resupply]" => return Ok(vec![op("resupply_exhausted", &["You"])]),
            "[Sabotage]" => return Ok(vec![op("sabotage", &["Any"])]),
            "[After You]" => return Ok(vec![op("after_you", &[])]),
            "my Expedition [Ascends]" | "My Expedition [Ascends]" => {
                return Ok(vec![op("ascend", &["Mine"])]);
            }
            "Sacrifice me" | "sacrifice me" => return Ok(vec![op("move_Sacrifice", &["me"])]),
            "Put me in Reserve" | "put me in Reserve" | "Send me to Reserve" => {
                return Ok(vec![op("move_Reserve", &["me"])]);
            }
            "Roll a die" => return Ok(vec![NStep::Roll(Vec::new())]),
            // The top card revealed, then played for free, put into the hand, or left on
            // top (`more::joined_sentences`).
            super::more::REVEAL_PLAY_OR_HAND => return Ok(vec![op("top_play_or_hand", &[])]),
            "Discard one of your Mana Orbs" => return Ok(vec![op("lose_mana", &["1"])]),
            "Put @topdeck in your Mana zone @exhausted_orb"
            | "put @topdeck in your Mana zone @exhausted_orb" => {
                return Ok(vec![op("mana_from_deck", &["You", "exhausted"])]);
            }
            "Each player puts @theirtopdeck in their Mana zone @exhausted_orb" => {
                return Ok(vec![op("mana_from_deck", &["Each", "exhausted"])]);
            }
            "Sacrifice a Character" => return Ok(vec![op("sacrifice_one", &["You"])]),
            "[Rush]" => return Ok(vec![op("rush", &[])]),
            "[Resupply], then [Resupply] again" => {
                return Ok(vec![op("resupply", &["You"]), op("resupply", &["You"])]);
            }
            "Both of your Expeditions [Ascend]" => return Ok(vec![op("ascend", &["Each"])]),
            "your Hero Expedition [Ascends]" | "Your Hero Expedition [Ascends]" => {
                return Ok(vec![op("ascend", &["Fixed(Hero)"])]);
            }
            "your Companion Expedition [Ascends]" | "Your Companion Expedition [Ascends]" => {
                return Ok(vec![op("ascend", &["Fixed(Companion)"])]);
            }
            "Target player puts @their_hand_card in Reserve"
            | "target player puts @their_hand_card in Reserve" => {
                return Ok(vec![NStep::Choose(vec![
                    vec![op("from_hand", &["You", "Reserve", "1"])],
                    vec![op("from_hand", &["Opponent", "Reserve", "1"])],
                ])]);
            }
            // The player chosen becomes first player (you, or your opponent).
            "Target player becomes first player" | "target player becomes first player" => {
                return Ok(vec![NStep::Choose(vec![
                    vec![op("become_first", &["You"])],
                    vec![op("become_first", &["Opponent"])],
                ])]);
            }
            "You become first player" | "you become first player" => {
                return Ok(vec![op("become_first", &["You"])]);
            }
            "Each player draws a card" => return Ok(vec![op("draw", &["Each", "1"])]),
            "Pass" | "Immediately pass" => return Ok(vec![op("pass", &[])]),
            "You win the game" => return Ok(vec![op("win_game", &[])]),
            "Put the top two cards\x20of your deck in your Mana zone @exhausted_orbs" => {
                return Ok(vec![
                    op("mana_from_deck", &["You", "exhausted"]),
                    op("mana_from_deck", &["You", "exhausted"]),
                ]);
            }
            "Each player discards their hand,\x20then draws three cards" => {
                return Ok(vec![
                    op("from_hand", &["Each", "Discard", "20"]),
                    op("draw", &["Each", "3"]),
                ]);
            }
            "Expeditions can't move forward this Day" => {
                return Ok(vec![
                    op("block_forward", &["Each", "false"]),
                    op("block_forward", &["Each", "true"]),
                ]);
            }
            "Create a [Manaseed] token @opp_landmarks"
            | "create a [Manaseed] token @opp_landmarks" => {
                return Ok(vec![op("landmark_token", &["manaseed", "Opponent", "1"])]);
            }
            "Create an [Aerolith] token @opp_landmarks"
            | "create an [Aerolith] token @opp_landmarks" => {
                return Ok(vec![op("landmark_token", &["aerolith", "Opponent", "1"])]);
            }
            "Create a [Manaseed] token @player_landmarks"
            | "create a [Manaseed] token @player_landmarks" => {
                return Ok(vec![NStep::Choose(vec![
                    vec![op("landmark_token", &["manaseed", "You", "1"])],
                    vec![op("landmark_token", &["manaseed", "Opponent", "1"])],
                ])]);
            }
            "Create an [Aerolith] token @player_landmarks"
            | "create an [Aerolith] token @player_landmarks" => {
                return Ok(vec![NStep::Choose(vec![
                    vec![op("landmark_token", &["aerolith", "You", "1"])],
                    vec![op("landmark_token", &["aerolith", "Opponent", "1"])],
                ])]);
            }
            "Target opponent draws a card" | "target opponent draws a card" => {
                return Ok(vec![op("draw", &["Opponent", "1"])]);
            }
            "Target opponent [Resupplies]" | "target opponent [Resupplies]" => {
                return Ok(vec![op("resupply", &["Opponent"])]);
            }
            "Target opponent [Exhausted Resupplies]" | "target opponent [Exhausted Resupplies]" => {
                return Ok(vec![op("resupply_exhausted", &["Opponent"])]);
            }
            "Each player [Resupplies]" => return Ok(vec![op("resupply", &["Each"])]),
            "Each player sacrifices a Character" => {
                return Ok(vec![op("sacrifice_one", &["Each"])]);
            }
            "Target opponent discards @their_hand_card" => {
                return Ok(vec![op("from_hand", &["Opponent", "Discard", "1"])]);
            }
            "Put @hand_card in Reserve" | "put @hand_card in Reserve" => {
                return Ok(vec![op("from_hand", &["You", "Reserve", "1"])]);
            }
            "Target Expedition [Ascends]" => {
                return Ok(vec![
                    op("select_exp", &["Any", "false"]),
                    op("ascend", &["Selected"]),
                ]);
            }
            "Create a [Manaseed] token in your Landmarks"
            | "create a [Manaseed] token in your Landmarks" => {
                return Ok(vec![op("landmark_token", &["manaseed", "You", "1"])]);
            }
            "Create an [Aerolith] token in your Landmarks"
            | "create an [Aerolith] token in your Landmarks" => {
                return Ok(vec![op("landmark_token", &["aerolith", "You", "1"])]);
            }
            "Your opponent's Expedition facing me @moves_back" => {
                return Ok(vec![op("back", &["Mine", "opposing"])]);
            }
            "My Expedition @moves_forward" | "my Expedition @moves_forward" => {
                return Ok(vec![op("forward", &["Mine", "yours"])]);
            }
            _ => {}
        }

        rx!(READY_ORBS, r"^(?i:ready) (one|two|three|\d+) Mana Orbs?$");
        if let Some(c) = READY_ORBS.captures(s) {
            let n = num_word(&c[1]).unwrap_or(0);
            return Ok(vec![op("ready_mana", &[&n.to_string()])]);
        }
        if let Some(e) = self.mo_effect(s) {
            return e;
        }
        if let Some(e) = self.x_effect(s) {
            return e;
        }
        if let Some(e) = self.deck_effect(s) {
            return e;
        }
        if let Some(e) = self.cd_effect(s) {
            return e;
        }
        if let Some(e) = self.du_effect(s) {
            return e;
        }
        if let Some(e) = self.set_effect(s) {
            return e;
        }
        if let Some(e) = self.n9_effect(s) {
            return e;
        }
        if let Some(e) = EFFECTS.read(self, s) {
            return e;
        }
        static COMPILED: LazyLock<Vec<Regex>> =
            LazyLock::new(|| ONE_OBJECT.iter().map(|(p, _)| super::re(p)).collect());
        for ((_, name), rx) in ONE_OBJECT.iter().zip(COMPILED.iter()) {
            if let Some(c) = rx.captures(s) {
                let object = c.get(1).or(c.get(2)).map_or("", |m| m.as_str());
                let (o, _) = self.obj(object)?;
                return Ok(vec![op(name, &[&o])]);
            }
        }
        if let Some(r) = crate::cards::textread::forms::effect(self, s) {
            return r;
        }
        Err(format!("an effect '{s}'"))
    }
}

#[cfg(test)]
mod tests {
    use crate::cards::textread::check;

    #[test]
    fn first_player_hand_cards_and_mana_orbs_of_a_player_chosen() {
        check(
            "{H} If you are first qq player, target player becomes first player.",
            &["H if first_player: choose { become_first } or { opponent_becomes_first }"],
            &[
                &["H: choose { become_first } or { opponent_becomes_first }"],
                &["H if first_player: opponent_becomes_first"],
            ],
        );
        check(
            "{H} If your opponent is qq first player, you become first player.",
            &["H if not first_player: become_first"],
            &[&["H if first_player: become_first"]],
        );
        check(
            "{I} When you play qq a Character — I gain 1 qq Arcane counter, up to a max qq of 3.",
            &["support when play(character): counters(me, 1, max 3)"],
            &[
                &["support when play(character): counters(me, 1)"],
                &["support when play(character): counters(me, 1, max 4)"],
                &["support when play(character): counters(me, 2, max 3)"],
            ],
        );
        check(
            "At Noon — Target player puts a card qq from their hand in Reserve.",
            &["noon: choose { hand_to_reserve } or { opponent_hand_to_reserve }"],
            &[
                &["noon: opponent_hand_to_reserve"],
                &["noon: hand_to_reserve"],
            ],
        );
        check(
            "{R} Ready two Mana Orbs. [Resupply], then [Resupply] again.",
            &["R: ready_mana(2); resupply; resupply"],
            &[
                &["R: ready_mana(1); resupply; resupply"],
                &["R: ready_mana(2); resupply"],
            ],
        );
    }

    #[test]
    fn permanents_activated_cards_to_mana_and_rolls_in_a_mode() {
        check(
            "{J} Target Permanent you qq control activates its {J} abilities.",
            &["J: activate_j(target permanent yours)"],
            &[&["J: activate_j(target permanent)"]],
        );
        check(
            "{J} Return target qq Character to its owner's hand, then put qq me in your qq Mana zone (as an exhausted Mana Orb).",
            &["J: to_hand(target character); to_mana(me)"],
            &[&["J: to_hand(target character); sacrifice(me)"]],
        );
        check(
            "{J} Choose one: • Draw a card, then roll qq a die. On a 4+, [Resupply]. • I gain 1 boost.",
            &["J: choose { draw; roll { 4-6: resupply } } or { boost(me, 1) }"],
            &[
                &["J: choose { draw; roll { 5-6: resupply } } or { boost(me, 1) }"],
                &["J: choose { draw; roll { 4-6: draw } } or { boost(me, 1) }"],
            ],
        );
        check(
            "When I leave the qq Expedition zone, if I qq was [[Fleeting]] — Draw a card.",
            &["when leave if was(fleeting): draw"],
            &[&["when leave: draw"], &["when leave if was(asleep): draw"]],
        );
        check(
            "{J} If you have qq two or more cards qq in Reserve, draw a card.",
            &["J if reserve >= 2: draw"],
            &[&["J if reserve >= 3: draw"]],
        );
    }

    #[test]
    fn reserve_cards_subtypes_terrains_and_boosts_lost() {
        check(
            "{J} Discard another card qq from your Reserve. If you do, draw a card.",
            &[
                "J: if count(card yours in_reserve other) >= 1 { discard(target card yours in_reserve other); draw }",
            ],
            &[&[
                "J: if count(card yours in_reserve) >= 1 { discard(target card yours in_reserve); draw }",
            ]],
        );
        check(
            "When you sacrifice a non-Illusion Character — I gain 1 boost.",
            &["when you_sacrifice(character not_illusion): boost(me, 1)"],
            &[&["when you_sacrifice(character): boost(me, 1)"]],
        );
        check(
            "{J} I gain 1 qq boost per Expedition in {V}.",
            &["J: boost(me, all_exps_in(F))"],
            &[
                &["J: boost(me, all_exps_in(M))"],
                &["J: boost(me, exps_in(F))"],
            ],
        );
        check(
            "{T} : The next Character qq you play in {V} qq this turn gains 1 boost.",
            &["quick(T): next_boost(character in_forest, 1)"],
            &[&["quick(T): next_boost(character, 1)"]],
        );
        check(
            "{J} If you have two qq or more cards in Reserve, I qq gain 1 boost and [[Fleeting]].",
            &["J if reserve >= 2: boost(me, 1); gain(me, fleeting)"],
            &[&["J if reserve >= 2: boost(me, 1); gain(target character, fleeting)"]],
        );
        check(
            "{J} Target Character in Expedition or in qq Reserve loses all its boosts.",
            &["J: select(character in_expedition in_reserve); boost(it, -its_boosts)"],
            &[&["J: select(character in_expedition); boost(it, -its_boosts)"]],
        );
        check(
            "{J} Each Character in target qq Expedition gains 1 boost.",
            &["J: select_exp(any); boost(each character any in_selected, 1)"],
            &[&["J: select_exp(any); boost(each character any in_selected, 2)"]],
        );
        check(
            "{J} Each player chooses a Character qq they control. It gains [[Asleep]].",
            &[
                "J: select(character yours); gain(it, asleep); opponent_select(character opposing); gain(it, asleep)",
            ],
            &[&["J: select(character yours); gain(it, asleep)"]],
        );
    }

    #[test]
    fn statics_of_costs_reserves_and_auras() {
        check(
            "I cost {2} less to play qq in an Expedition with no Characters.",
            &["static cost_empty_exp(-2)"],
            &[&["static cost_empty_exp(-1)"]],
        );
        check(
            "{I} I don't count towards qq your Reserve limit.",
            &["support static uncounted_reserve"],
            &[&["support static extra_exhausted_reserve"]],
        );
        check(
            "[Tough X], where X is the number qq of plants you control.",
            &["static tough_x(count(plant))"],
            &[&["static tough_x(count(character))"]],
        );
        check(
            "{J} [Resupply]. Characters you control qq are [Tough 1].",
            &["J: resupply", "static tough_aura(character, 1)"],
            &[
                &["J: resupply", "static tough_aura(character, 2)"],
                &["J: resupply"],
            ],
        );
        check(
            "{J} [Resupply]. You may play exhausted qq Characters from your Reserve qq in my Expedition.",
            &["J: resupply", "static play_exhausted(character, mine)"],
            &[&["J: resupply", "static play_exhausted(card, mine)"]],
        );
        check(
            "{J} [Resupply]. You may keep one qq more card in Reserve during qq Night if it's exhausted.",
            &["J: resupply", "static extra_exhausted_reserve"],
            &[&["J: resupply"]],
        );
    }
}
