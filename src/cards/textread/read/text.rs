//! A text before it is read: reminder text dropped, long set phrases shortened to marks,
//! and the text cut into sentences and abilities.

rx!(REMINDER, r"\s*\([^)]*\)");
rx!(SPACES, r"\s+");
rx!(
    pub(super) KEYWORD,
    r"^\[\[?(Fleeting|Gigantic|Defender|Eternal|Cooldown|Seasoned|Anchored|Asleep|Tough (\d+)|Scout\] \{(\d+)\}|Scout (\d+)|Persistent|Constant)\]?\]?$"
);
rx!(pub(super) WHEN_SPLIT, r"^(When|At) (.+?) — (.*)$");
rx!(
    pub(super) QUICK,
    r"^((?:\{\d+\}|\{T\}|\{D\}|Spend (?:one|two|three|four|five|\d+) of my [A-Z][a-z]+ counters?|(?:Discard (?:a|one) card from your (?:Reserve|hand)|Discard @reserve_card)|Sacrifice a (?:Character|Permanent))(?:, (?:\{\d+\}|\{T\}|\{D\}|Spend (?:one|two|three|four|five|\d+) of my [A-Z][a-z]+ counters?|(?:Discard (?:a|one) card from your (?:Reserve|hand)|Discard @reserve_card)|Sacrifice a (?:Character|Permanent)))*) ?: (.*)$"
);

/// Long set phrases and the short marks the patterns read in their place, replaced in
/// this order.
const MARKS: [(&str, &str); 35] = [
    // A quick action whose second cost is exhausting a Reserve card: the cost as the
    // sentence "Exhaust a card in your Reserve to X" reads it (only when one is ready).
    (
        "{T}, Exhaust a card in your Reserve: ",
        "{T} : Exhaust a card in your Reserve to ",
    ),
    // A quick action of a Permanent (Brassbug Nursery, the only card with it) whose cost
    // sacrifices a Permanent: the source is one, so the cost can always be paid, and the
    // sacrifice is the ability's first effect.
    (
        "{T}, {1}, Sacrifice a Permanent: ",
        "{T}, {1} : Sacrifice a Permanent. ",
    ),
    // A quick action whose second cost is the opponent's Resupply (it can always be
    // paid): that Resupply as the ability's first effect.
    (
        "{T}, Target opponent [Resupplies]: ",
        "{T} : Target opponent [Resupplies]. ",
    ),
    ("the top card of your deck", "@topdeck"),
    ("the top card of their deck", "@theirtopdeck"),
    (" as an exhausted Mana Orb", " @exhausted_orb"),
    (" as exhausted Mana Orbs", " @exhausted_orbs"),
    ("from the Expedition zone", "@from_exp"),
    ("from your deck or hand", "@from_deck_or_hand"),
    ("fails to move forward during Dusk", "@fails_at_dusk"),
    ("moves forward due to", "@moves_due"),
    ("to reduce my cost by", "@reduce_cost_by"),
    ("I begin the game with", "@begin_with"),
    ("Terrain Marker", "@marker"),
    ("a card from your Reserve", "@reserve_card"),
    ("in target opponent's Landmarks", "@opp_landmarks"),
    ("in target player's Landmarks", "@player_landmarks"),
    (
        "play exhausted cards from your Reserve",
        "play exhausted cards @from_your_reserve",
    ),
    ("You can only activate this", "@only_activate"),
    ("during the Afternoon", "@in_afternoon"),
    ("don't prevent it from moving forward", "@no_block"),
    (
        "the Expedition facing it can't move forward",
        "@facing_it_blocked",
    ),
    ("even when not in play", "@even_out_of_play"),
    ("If I would gain", "@would_gain"),
    ("I can't be played if", "@cant_play_if"),
    (", where X is the number of", " @x_is_count_of"),
    (
        "regions between your Hero and Companion",
        "@regions_between",
    ),
    (
        "abilities of Characters facing me can't activate",
        "@silenced_facing",
    ),
    ("If I would leave the Expedition zone", "@would_leave"),
    ("in my owner's Mana zone", "@owners_mana"),
    ("one or more cards or does [Resupply]", "@cards_or_resupply"),
    ("a card from their hand", "@their_hand_card"),
    ("a card from your hand", "@hand_card"),
    ("moves backwards one region", "@moves_back"),
    ("moves forward one region", "@moves_forward"),
];

/// The text without reminder text, with plain quotes and single spaces.
pub fn clean(text: &str) -> String {
    // Not reminder text: how a card enters the Mana zone.
    // One text names its token by an identifier ("[MANA_MOTH]"); every other text that
    // creates a Mana Moth gives it as 2/2/2.
    let t = text
        .replace("[MANA_MOTH]", "[Mana Moth 2/2/2]")
        // One text keeps a mark ("[BB]") where the others of its card print a boost's
        // reminder text.
        .replace(" boost[BB].", " boost.")
        .replace(" (as an exhausted Mana Orb)", " as an exhausted Mana Orb")
        .replace(" (as exhausted Mana Orbs)", " as exhausted Mana Orbs");
    let mut t = REMINDER.replace_all(&t, "").into_owned();
    // Long set phrases become short marks (the patterns read the marks).
    for (phrase, mark) in MARKS {
        t = t.replace(phrase, mark);
    }
    let t = t.replace(['’', '‘'], "'").replace('\u{a0}', " ");
    let t = t.replace(" .", ".");
    SPACES.replace_all(t.trim(), " ").to_string()
}

/// Splits a text into sentences, keeping bullets ("• ...") as sentences of their own.
pub(super) fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut depth = 0i32;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            _ => {}
        }
        if c == '•' {
            if !cur.trim().is_empty() {
                out.push(cur.trim().to_string());
            }
            cur = String::from("•");
            i += 1;
            continue;
        }
        cur.push(c);
        if (c == '.' || c == ':') && depth <= 0 && (i + 1 == chars.len() || chars[i + 1] == ' ') {
            // "{T} :" and "On a:" keep going; "Choose one:" ends.
            let t = cur.trim();
            let ends = c == '.' || t.ends_with("Choose one:") || t.ends_with("On a:");
            if ends {
                out.push(t.to_string());
                cur.clear();
            }
        }
        i += 1;
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Does this sentence start a new ability?
pub(super) fn starts_ability(s: &str) -> bool {
    s.starts_with("{J}")
        || s.starts_with("{H}")
        || s.starts_with("{R}")
        || s.starts_with("{I}")
        || s.starts_with("{D}")
        || s.starts_with("{T}")
        || s.starts_with("At Noon")
        || s.starts_with("At Dusk")
        || s.starts_with("At Night")
        || (s.starts_with("When ") && s.contains(" — "))
        || s.starts_with("I cost {")
        || KEYWORD.is_match(s.trim_end_matches('.'))
        || QUICK.is_match(s)
        || s.split(", ")
            .all(|k| KEYWORD.is_match(k.trim_end_matches('.')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_sentences_and_bullets() {
        let s = sentences("{J} Choose one: • Draw a card. • [Resupply]. At Noon — Draw a card.");
        assert_eq!(
            s,
            [
                "{J} Choose one:",
                "• Draw a card.",
                "• [Resupply].",
                "At Noon — Draw a card."
            ]
        );
    }

    #[test]
    fn shortens_set_phrases_and_drops_reminders() {
        assert_eq!(
            clean("Stack the top card of your deck (as an exhausted Mana Orb) twice  (a note)."),
            "Stack @topdeck @exhausted_orb twice."
        );
    }
}
