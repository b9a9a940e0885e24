//! A check on "exact": an encoding declares itself exact, and this test reads the card texts
//! (`../shared/data/altered-cards.jsonl`, when present: the project keeps no texts) to flag an
//! exact encoding whose text states something the encoding lacks: a trigger symbol ({J} {H}
//! {R} {D} {T}), At Noon / Dusk / Night, a keyword, "gains N boosts", "Hand Cost N or
//! less/more", or a number of tokens. It is a net for slips, not a proof of faithfulness.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::LazyLock;

use confluence_sim::cards::effect::Op;
use confluence_sim::cards::{Coverage, Library};
use regex::Regex;

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap()
}

static REMINDER: LazyLock<Regex> = LazyLock::new(|| re(r"\([^)]*\)"));
static TRIGGERS: LazyLock<[(&str, Regex); 4]> = LazyLock::new(|| {
    // An ability granted to other objects ("Your Characters have: '{R} ...'") counts.
    ["J", "H", "R", "D"].map(|sym| (sym, re(&format!(r"^(support |grant\([^)]*\) )?{sym}\b"))))
});
static TAP: LazyLock<Regex> = LazyLock::new(|| re(r"(quick|pay)\([^)]*\bt\b"));
static KEYWORDS: LazyLock<Vec<(&str, Regex)>> = LazyLock::new(|| {
    [
        "Fleeting", "Gigantic", "Defender", "Eternal", "Cooldown", "Seasoned", "Anchored", "Asleep",
    ]
    .into_iter()
    .map(|k| (k, re(&format!(r"\b{k}\b"))))
    .collect()
});
static TOUGH: LazyLock<Regex> = LazyLock::new(|| re(r"\bTough (\d+)"));
static SCOUT: LazyLock<Regex> = LazyLock::new(|| re(r"\bScout (\d+)"));
static BOOSTS: LazyLock<Regex> = LazyLock::new(|| re(r"gains? (\d+) boosts?( per)?"));
static HAND_COST: LazyLock<Regex> = LazyLock::new(|| re(r"Hand Cost \{?(\d+)\}? or (less|more)"));
static NAMED_SYMBOLS: LazyLock<Regex> = LazyLock::new(|| re(r"(\{[JHRD]\}(, | and )?)+ abilit"));
static TOKENS: LazyLock<Regex> = LazyLock::new(|| re(r"[Cc]reate (two|three|four) \["));

/// What `lines` (an exact encoding) lacks of what `text` (the card's English text) states.
fn lacks(text: &str, lines: &[String]) -> Vec<String> {
    let text = REMINDER.replace_all(text, "");
    // "activate the {J} abilities of ..." and "the {J}, {H} and {R} abilities of ... can't
    // activate" name the symbols without being them.
    let text = NAMED_SYMBOLS.replace_all(&text, "abilit");
    let all = lines.join(" ; ").to_lowercase();
    let mut out = Vec::new();
    for (sym, trigger) in TRIGGERS.iter() {
        if text.contains(&format!("{{{sym}}}")) && !lines.iter().any(|l| trigger.is_match(l)) {
            out.push(format!("{{{sym}}}"));
        }
    }
    if text.contains("{T}") && !TAP.is_match(&all) {
        out.push("{T}".into());
    }
    let lower = text.to_lowercase();
    for (words, word) in [
        ("at noon", "noon"),
        ("at dusk", "dusk"),
        ("at night", "night"),
    ] {
        if lower.contains(words) && !all.contains(word) {
            out.push(words.into());
        }
    }
    for (k, word) in KEYWORDS.iter() {
        if word.is_match(&text) && !all.contains(&k.to_lowercase()) {
            out.push(k.to_string());
        }
    }
    let numbered =
        |pattern: &Regex, need: &dyn Fn(&str) -> String, what: &str, out: &mut Vec<_>| {
            for c in pattern.captures_iter(&text) {
                let n = &c[1];
                if !Regex::new(&need(n)).unwrap().is_match(&all) {
                    out.push(format!("{what} {n}"));
                }
            }
        };
    numbered(
        &TOUGH,
        &|n| format!(r"tough[^;]*\b{n}\b"),
        "Tough",
        &mut out,
    );
    numbered(&SCOUT, &|n| format!(r"scout {n}\b"), "Scout", &mut out);
    for c in BOOSTS.captures_iter(&text) {
        // "gains 1 boost per ..." is an amount the encoding counts, not a number.
        let n = &c[1];
        if c.get(2).is_none()
            && !Regex::new(&format!(r"boost[^;]*\b{n}\b"))
                .unwrap()
                .is_match(&all)
        {
            out.push(format!("gains boosts: {n}"));
        }
    }
    let compact = all.replace(' ', "");
    for c in HAND_COST.captures_iter(&text) {
        let op = if &c[2] == "less" { "<=" } else { ">=" };
        if !compact.contains(&format!("cost{op}{}", &c[1])) {
            out.push(format!("Hand Cost {} or {}", &c[1], &c[2]));
        }
    }
    for c in TOKENS.captures_iter(&text) {
        let k = match &c[1] {
            "two" => 2,
            "three" => 3,
            _ => 4,
        };
        // A token created after Rest counts as one created.
        let ok = all.matches("token(").count() + all.matches("token_after_rest(").count() >= k
            || Regex::new(&format!(r"token(_after_rest)?\([^;]*,\s*{k}\)"))
                .unwrap()
                .is_match(&all)
            || all.contains(&format!("repeat {k}"));
        if !ok {
            out.push(format!("{} tokens", &c[1]));
        }
    }
    out
}

#[test]
fn the_check_flags_what_an_encoding_lacks() {
    let l = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lacks("{J} I gain 2 boosts.", &l(&["J: boost(me, 2)"])).is_empty());
    assert_eq!(
        lacks("{J} I gain 2 boosts.", &l(&["J: boost(me, 1)"])),
        ["gains boosts: 2"]
    );
    assert_eq!(lacks("{H} Draw a card.", &l(&["J: draw"])), ["{H}"]);
    assert_eq!(
        lacks("[[Fleeting]]. At Noon, draw.", &l(&["noon: draw"])),
        ["Fleeting"]
    );
    assert_eq!(lacks("[Tough 2].", &l(&["tough 1"])), ["Tough 2"]);
    assert_eq!(
        lacks(
            "{R} A target Character that has Hand Cost {3} or less goes to Reserve.",
            &l(&["R: send_reserve(target character cost<=2)"])
        ),
        ["Hand Cost 3 or less"]
    );
    assert_eq!(
        lacks(
            "{J} Create two [Mossling 1/1/1] Plant tokens beside me.",
            &l(&["J: token(Mossling, mine)"])
        ),
        ["two tokens"]
    );
    assert!(
        lacks(
            "{J} Create two [Mossling 1/1/1] Plant tokens beside me.",
            &l(&["J: token(Mossling, mine, 2)"])
        )
        .is_empty()
    );
    // Symbols that name abilities are not triggers.
    assert!(
        lacks(
            "Characters facing me: their {J}, {H} and {R} abilities can't activate.",
            &l(&["static silence_facing"])
        )
        .is_empty()
    );
    // Reminder text and "per" amounts are not requirements.
    assert!(
        lacks(
            "{J} I gain 1 boost per Reserve card you hold. (Fleeting: ...)",
            &l(&["J: boost(me, reserve)"])
        )
        .is_empty()
    );
}

#[test]
fn exact_encodings_state_what_their_texts_state() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let jsonl = root.join("../shared/data/altered-cards.jsonl");
    let Ok(data) = std::fs::read_to_string(&jsonl) else {
        eprintln!("skipped: {} is absent", jsonl.display());
        return;
    };
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let part = |k: &str| v[k].as_str().unwrap_or("").to_string();
        texts.insert(
            part("ref"),
            format!("{}\n{}", part("main_effect_en"), part("echo_effect_en")),
        );
    }
    let lib = Library::load(&root.join("decks/cards")).expect("library");
    let mut checked = 0;
    let mut flagged = Vec::new();
    for def in &lib.db.cards {
        if def.pool_index.is_none() || def.coverage != Coverage::Exact {
            continue;
        }
        let Some(text) = texts.get(&def.reference) else {
            continue;
        };
        checked += 1;
        // A token a card creates is part of it: the token's own encoding counts too
        // ("create a Maw token with 'When you sacrifice a Character, I gain 2 boosts'").
        let mut lines = def.lines.clone();
        for ab in &lib.db.abilities[def.ab_start as usize..(def.ab_start + def.ab_len) as usize] {
            for pc in 0..ab.len {
                if let Op::Token { card, .. } | Op::LandmarkToken { card, .. } = lib.db.op(ab, pc) {
                    lines.extend(lib.db.card(card).lines.iter().cloned());
                }
            }
        }
        let l = lacks(text, &lines);
        if !l.is_empty() {
            flagged.push(format!(
                "{} {}: lacks {}",
                def.reference,
                def.name,
                l.join(", ")
            ));
        }
    }
    assert!(checked > 1000, "only {checked} exact cards checked");
    assert!(
        flagged.is_empty(),
        "{} exact encodings lack what their text states:\n{}",
        flagged.len(),
        flagged.join("\n")
    );
}
