//! Sentence forms the reader learned after its first version: "If you don't, ...", "Then
//! ...", "Choose three", moving one expedition back and the other forward, conditions on
//! Landmarks, boosts and exhausted Reserve cards, "Distribute N boosts", tokens in each
//! player's Landmarks or an opponent's Expedition, sacrificing the highest Base Cost, cost
//! reductions with a minimum. Kept apart from `read.rs`, which
//! calls into this file where its own forms end (each function answers `None` for a sentence
//! it does not know, so the reader stays strict).
//!
//! Layer: part of [`crate::cards`]; may use `error` and nothing else of the crate.

use std::sync::LazyLock;

use regex::Regex;

use super::norm::{NStep, filter_str, op, target_str};
use super::read::Reader;
use super::reduce::{cmp_str, token_str};
use crate::cards::effect::{Cmp, Filter, Whose, fkind, fzone};
use crate::cards::types::{Stats, terrain};

macro_rules! rx {
    ($name:ident, $p:expr) => {
        static $name: LazyLock<Regex> = LazyLock::new(|| Regex::new($p).expect("a valid pattern"));
    };
}

fn number(w: &str) -> Option<i16> {
    Some(match w {
        "a" | "an" | "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        d => d.trim_matches(|c| c == '{' || c == '}').parse().ok()?,
    })
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Sentences that take the sentences after them, or that change how the next one reads:
/// the steps and how many sentences they used, or `None`.
pub fn sentences(r: &Reader, sents: &[String]) -> Result<Option<(Vec<NStep>, usize)>, String> {
    let s = sents[0].trim().trim_end_matches('.').trim();
    // "If you don't, X": X only when the optional step before was not done.
    if let Some(rest) = s.strip_prefix("If you don't, ") {
        let body = r.clause(&upper_first(rest))?;
        return Ok(Some((
            vec![NStep::If("not(Did)".into(), body, Vec::new())],
            1,
        )));
    }
    // "Then X" / "Then, X": X, after what came before.
    if let Some(rest) = s.strip_prefix("Then, ").or_else(|| s.strip_prefix("Then ")) {
        return Ok(Some((r.body(&[upper_first(rest)])?, 1)));
    }
    // One expedition of yours goes back a region and, only if it did, the other one goes
    // forward: a choice of which expedition goes back.
    if s == "One of your Expeditions @moves_back"
        && sents.get(1).map(|t| t.trim().trim_end_matches('.'))
            == Some("If it does, your other Expedition @moves_forward")
    {
        let mode = |a: &str, b: &str| {
            vec![
                op("back", &[a, "yours"]),
                NStep::If("Did".into(), vec![op("forward", &[b, "yours"])], Vec::new()),
            ]
        };
        return Ok(Some((
            vec![NStep::Choose(vec![
                mode("Fixed(Hero)", "Fixed(Companion)"),
                mode("Fixed(Companion)", "Fixed(Hero)"),
            ])],
            2,
        )));
    }
    // "Choose up to one: • A • B": one mode, or none.
    if s == "Choose up to one:" {
        let mut modes = Vec::new();
        let mut i = 1;
        while i < sents.len() && sents[i].starts_with('•') {
            // "• Sacrifice a Permanent. If you do, ...": the mode's own second sentence.
            let (m, used) = super::read::bullet_of(&sents[i..]);
            modes.push(r.body(&m)?);
            i += used;
        }
        if modes.len() < 2 {
            return Err("a choice with fewer than two modes".into());
        }
        return Ok(Some((vec![NStep::May(vec![NStep::Choose(modes)])], i)));
    }
    // "Choose up to N: • A • B • C" with N at least the number of modes: any set of them.
    // "Choose up to N, you may choose the same option\x20multiple times": N choices.
    rx!(
        UP_TO_N,
        r"^Choose up to (two|three)(, you may choose the same\x20option multiple times)?:$"
    );
    if let Some(c) = UP_TO_N.captures(s) {
        let n = if &c[1] == "two" { 2 } else { 3 };
        let mut modes = Vec::new();
        let mut i = 1;
        while i < sents.len() && sents[i].starts_with('•') {
            let (m, used) = super::read::bullet_of(&sents[i..]);
            modes.push(r.body(&m)?);
            i += used;
        }
        if modes.len() < 2 {
            return Err("a choice with fewer than two modes".into());
        }
        let steps = if c.get(2).is_some() {
            up_to_n_again(modes, n)
        } else {
            up_to_n_sets(modes, n)?
        };
        return Ok(Some((steps, i)));
    }
    // "Choose three: • A • B • C • D": three different modes, in the printed order.
    // "Choose three", with the same option allowed more than once: three choices.
    if s == "Choose three:" || s == "Choose three" {
        let repeat = s == "Choose three";
        let mut i = 1;
        if repeat {
            let again = sents.get(1).map(|t| t.trim()).unwrap_or("");
            if !(again.starts_with("You may pick the same option") && again.ends_with(" times:")) {
                return Ok(None);
            }
            i = 2;
        }
        let mut modes = Vec::new();
        while i < sents.len() && sents[i].starts_with('•') {
            let m = sents[i].trim_start_matches('•').trim().to_string();
            modes.push(r.body(&[m])?);
            i += 1;
        }
        if modes.len() < 3 {
            return Err("a choice of three with fewer than three modes".into());
        }
        if repeat {
            return Ok(Some((vec![NStep::Choose(modes); 3], i)));
        }
        let mut triples = Vec::new();
        for a in 0..modes.len() {
            for b in a + 1..modes.len() {
                for c in b + 1..modes.len() {
                    let mut m = modes[a].clone();
                    m.extend(modes[b].iter().cloned());
                    m.extend(modes[c].iter().cloned());
                    triples.push(m);
                }
            }
        }
        return Ok(Some((vec![NStep::Choose(triples)], i)));
    }
    Ok(None)
}

/// Whether a mode may do nothing by itself (an effect on up to N targets, [Sabotage]'s up
/// to one card in a Reserve): choosing it and choosing nothing are then the same.
pub(in crate::cards::textread) fn optional_by_itself(mode: &[NStep]) -> bool {
    matches!(mode, [NStep::Op(o)] if o.starts_with("sabotage(") || o.contains("target[0-"))
}

/// "Choose up to N" of distinct modes, N at least their number: any set of the modes, each
/// done in the printed order. A mode that may do nothing by itself is in every set (a set
/// without it is the same set with it, its effect done on nothing); the sets are listed from
/// all the other modes down to none of them (the first printed mode the highest bit). When
/// no mode is optional by itself, the choice of no mode is the choice not made ("may").
fn up_to_n_sets(modes: Vec<Vec<NStep>>, n: usize) -> Result<Vec<NStep>, String> {
    if n < modes.len() {
        return Err("a choice of fewer modes than it has".into());
    }
    let optional: Vec<bool> = modes.iter().map(|m| optional_by_itself(m)).collect();
    let others: Vec<usize> = (0..modes.len()).filter(|&i| !optional[i]).collect();
    let mut sets = Vec::new();
    for mask in (0..1usize << others.len()).rev() {
        let chosen = |i: usize| {
            optional[i]
                || others
                    .iter()
                    .position(|&o| o == i)
                    .is_some_and(|k| mask & (1 << (others.len() - 1 - k)) != 0)
        };
        let set: Vec<NStep> = (0..modes.len())
            .filter(|&i| chosen(i))
            .flat_map(|i| modes[i].iter().cloned())
            .collect();
        if !set.is_empty() {
            sets.push(set);
        }
    }
    Ok(if optional.iter().any(|&o| o) {
        vec![NStep::Choose(sets)]
    } else {
        vec![NStep::May(vec![NStep::Choose(sets)])]
    })
}

/// "Choose up to N, the same option allowed more than once": N choices, each of which may
/// be none; a mode that may do nothing by itself already is none, so then each choice is
/// one of the modes.
fn up_to_n_again(modes: Vec<Vec<NStep>>, n: usize) -> Vec<NStep> {
    let choice = if modes.iter().any(|m| optional_by_itself(m)) {
        NStep::Choose(modes)
    } else {
        NStep::May(vec![NStep::Choose(modes)])
    };
    vec![choice; n]
}

/// Noun phrases that name the opponent's objects by a clause: "X they control" (after
/// "target opponent ..."), "X controlled by another player".
pub fn noun(r: &Reader, s: &str) -> Option<Result<super::read::Np, String>> {
    // "up to two cards in Reserve" (Winter Nova): chosen cards, as targets.
    rx!(UP_TO_CARDS, r"^up to (two|three) cards in Reserve$");
    if let Some(c) = UP_TO_CARDS.captures(s) {
        return Some(r.noun(
            &format!("up to {} target cards in Reserve", &c[1]),
            Whose::Any,
        ));
    }
    for phrase in [" they control", " controlled by another player"] {
        if let Some(i) = s.find(phrase) {
            let plain = format!("{}{}", &s[..i], &s[i + phrase.len()..]);
            return Some(r.noun(&plain, Whose::Opposing).map(|mut np| {
                np.filter.whose = Whose::Opposing;
                np
            }));
        }
    }
    None
}

/// Conditions of "If ..., X".
pub fn cond(r: &Reader, c: &str) -> Option<Result<String, String>> {
    // "I'm [[Anchored]]": a status of mine.
    if let Some(st) = c
        .strip_prefix("I'm [[")
        .and_then(|r| r.strip_suffix("]]"))
        .filter(|st| matches!(*st, "Anchored" | "Asleep" | "Fleeting"))
    {
        return Some(Ok(format!("me_has({})", st.to_ascii_lowercase())));
    }
    if c == "there's another card in your Landmarks" {
        let f = Filter {
            kinds: fkind::CARD,
            whose: Whose::Yours,
            zones: fzone::LANDMARKS,
            other: true,
            ..Filter::default()
        };
        return Some(Ok(cmp_str(
            &format!("count({})", filter_str(&f, r.ctx)),
            Cmp::Ge,
            1,
        )));
    }
    if c == "I have no boosts" {
        return Some(Ok("not(MeBoosted)".into()));
    }
    rx!(
        LANDMARKS,
        r"^there are (two|three|four|five|\d+) or more cards in your Landmarks$"
    );
    if let Some(m) = LANDMARKS.captures(c) {
        let f = Filter {
            kinds: fkind::CARD,
            whose: Whose::Yours,
            zones: fzone::LANDMARKS,
            ..Filter::default()
        };
        let n = number(&m[1])?;
        return Some(Ok(cmp_str(
            &format!("count({})", filter_str(&f, r.ctx)),
            Cmp::Ge,
            n,
        )));
    }
    rx!(
        EXHAUSTED,
        r"^there(?:'s an| are (two|three|four|\d+) or more) exhausted cards? in Reserve$"
    );
    if let Some(m) = EXHAUSTED.captures(c) {
        let n = m.get(1).map_or(Some(1), |w| number(w.as_str()))?;
        let f = Filter {
            kinds: fkind::CARD,
            zones: fzone::RESERVE,
            exhausted: Some(true),
            ..Filter::default()
        };
        return Some(Ok(cmp_str(
            &format!("count({})", filter_str(&f, r.ctx)),
            Cmp::Ge,
            n,
        )));
    }
    // The event's Character (`it`): "it's in {V}", "its Expedition is behind".
    let it_is = |f: Filter| Some(Ok(format!("it_is({})", filter_str(&f, r.ctx))));
    let terrain = match c {
        "it's in {V}" => terrain::FOREST,
        "it's in {M}" => terrain::MOUNTAIN,
        "it's in {O}" => terrain::WATER,
        _ => 0,
    };
    if terrain != 0 {
        return it_is(Filter {
            region_terrain: terrain,
            ..Filter::default()
        });
    }
    if c == "its Expedition is behind" {
        return it_is(Filter {
            in_behind: true,
            ..Filter::default()
        });
    }
    None
}

/// The same condition written two ways made one: "I have no boosts" is encoded either as
/// not boosted or as a boost count of 0.
pub fn canon_cond(c: &str) -> String {
    match c {
        "MyBoosts = 0" | "MyBoosts <= 0" => "not(MeBoosted)".into(),
        _ => c.to_string(),
    }
}

/// Events of "When ... —".
pub fn event(r: &Reader, what: &str) -> Option<String> {
    Some(match what {
        "I go to Reserve from anywhere" => "ToReserveAny".into(),
        w if w.starts_with("an opponent draws one or more cards")
            && w.ends_with(" or [Resupplies]") =>
        {
            "OpponentDraws".into()
        }
        "a non-token Character leaves your Expeditions" => {
            let f = Filter {
                token: Some(false),
                ..Filter::default()
            };
            format!("leaves({})", filter_str(&f, r.ctx))
        }
        _ => return None,
    })
}

/// Effects.
pub fn effect(r: &Reader, s: &str) -> Option<Result<Vec<NStep>, String>> {
    // Landmark tokens in each player's, that player's (the owner of `it`), or N in yours.
    rx!(
        LANDMARK_TOKENS,
        r"^(?i:create) (an?|two|three) \[(Manaseed|Aerolith)\] tokens? in (each player's|that player's|your) Landmarks$"
    );
    if let Some(c) = LANDMARK_TOKENS.captures(s) {
        let name = c[2].to_ascii_lowercase();
        let n = number(&c[1])?;
        let whose = match &c[3] {
            "each player's" => "Each",
            "that player's" => "OfIt",
            _ => "You",
        };
        return Some(Ok(vec![op(
            "landmark_token",
            &[&name, whose, &n.to_string()],
        )]));
    }
    // "Target Expedition moves forward one region": the player's own in Confluence play,
    // either side's head to head (D60), as a token "in target Expedition".
    if s == "Target Expedition @moves_forward" {
        return Some(Ok(vec![op("forward", &["Target", "yours"])]));
    }
    // "Target Expedition can't move forward this Day": either side's.
    if s == "Target Expedition can't move forward this Day" {
        return Some(Ok(vec![NStep::Choose(vec![
            vec![op("block_forward", &["Target", "false"])],
            vec![op("block_forward", &["Target", "true"])],
        ])]));
    }
    // "Target player sacrifices a Character": the opponent or you.
    if s == "Target player sacrifices a Character" {
        return Some(Ok(vec![NStep::Choose(vec![
            vec![op("sacrifice_one", &["Opponent"])],
            vec![op("sacrifice_one", &["You"])],
        ])]));
    }
    if s == "Target an opponent, they draw a card" || s == "target an opponent, they draw a card" {
        return Some(Ok(vec![op("draw", &["Opponent", "1"])]));
    }
    // N boosts spread over targeted Characters (in play, or also in Reserve): one boost at a
    // time, each to a target (the same one may be chosen again).
    rx!(
        DISTRIBUTE,
        r"^(?i:distribute) (two|three|four|five|\d+) boosts among any target Characters in\x20play( or in Reserve)?$"
    );
    if let Some(c) = DISTRIBUTE.captures(s) {
        let n = number(&c[1])?;
        let mut zones = fzone::EXPEDITION;
        if c.get(2).is_some() {
            zones |= fzone::RESERVE;
        }
        let f = Filter {
            kinds: fkind::CHARACTER,
            zones,
            ..Filter::default()
        };
        let t = target_str(&filter_str(&f, r.ctx), 1, 1, false, "");
        return Some(Ok((0..n).map(|_| op("boost", &[&t, "1"])).collect()));
    }
    // A token in an opponent's expedition (the one on the side the controller targets).
    rx!(
        TOKEN_OPP,
        r"^(?i:create) (an?|one|two) \[([^\]]+?) (\d+)/(\d+)/(\d+)\] [A-Za-z ]*?tokens? in an opponent's Expedition$"
    );
    if let Some(c) = TOKEN_OPP.captures(s) {
        let n = number(&c[1])?;
        let stat = |k: usize| c[k].parse().unwrap_or(0);
        let stats = Stats::new(stat(3), stat(4), stat(5));
        let t = token_str(&c[2], stats);
        return Some(Ok(vec![op(
            "token",
            &[&t, "Target", &n.to_string(), "opposing"],
        )]));
    }
    // The opponent sacrifices its Character (or Character or Permanent) of highest Base
    // Cost.
    rx!(
        SACRIFICE_HIGHEST,
        r"^(?i:target) opponent sacrifices the (Character|Character or Permanent) they\x20control with the highest Base Cost$"
    );
    if let Some(c) = SACRIFICE_HIGHEST.captures(s) {
        let mut kinds = fkind::CHARACTER;
        if &c[1] != "Character" {
            kinds |= fkind::PERMANENT;
        }
        let f = Filter {
            kinds,
            whose: Whose::Opposing,
            ..Filter::default()
        };
        return Some(Ok(vec![op(
            "sacrifice_highest",
            &["Opponent", &filter_str(&f, r.ctx)],
        )]));
    }
    // "Reduce the cost of the next X you play this Afternoon by {N}".
    rx!(
        REDUCE_NEXT,
        r"^(?i:reduce) the cost of the next (.+?) you play this (turn|Afternoon) by \{(\d+)\}$"
    );
    if let Some(c) = REDUCE_NEXT.captures(s) {
        let mut f = match r.noun(&format!("a {}", &c[1]), Whose::Yours) {
            Ok(np) => np.filter,
            Err(e) => return Some(Err(e)),
        };
        f.whose = Whose::Yours;
        let until = if &c[2] == "turn" { "turn" } else { "afternoon" };
        return Some(Ok(vec![op(
            "discount",
            &[&filter_str(&f, r.ctx), &c[3], "min 0", until],
        )]));
    }
    // A reduction of N for the next X played this turn, not below M.
    rx!(
        PAY_LESS,
        r"^(?i:pay) \{(\d+)\} less for the next (.+?) you play this turn, down\x20to a minimum of \{(\d+)\}$"
    );
    if let Some(c) = PAY_LESS.captures(s) {
        let mut f = match r.noun(&format!("a {}", &c[2]), Whose::Yours) {
            Ok(np) => np.filter,
            Err(e) => return Some(Err(e)),
        };
        f.whose = Whose::Yours;
        return Some(Ok(vec![op(
            "discount",
            &[
                &filter_str(&f, r.ctx),
                &c[1],
                &format!("min {}", &c[3]),
                "turn",
            ],
        )]));
    }
    None
}

/// [`canon_cond`] applied to every condition of every ability (both sides use it), and a
/// boost only while I have none made a boost up to a max of 1.
pub fn canon_conds(v: Vec<super::norm::NAbility>) -> Vec<super::norm::NAbility> {
    fn steps(v: Vec<NStep>) -> Vec<NStep> {
        v.into_iter()
            .map(|s| match s {
                NStep::If(c, t, e) => {
                    let (c, t, e) = (canon_cond(&c), steps(t), steps(e));
                    // Gaining 1 boost only while I have none is a boost up to a max of 1:
                    // with none it gains one, with one or more it would gain none.
                    if c == "not(MeBoosted)"
                        && e.is_empty()
                        && matches!(t.as_slice(), [NStep::Op(o)] if o == "boost(me, 1)")
                    {
                        NStep::Op("boost(me, 1, max 1)".into())
                    } else {
                        NStep::If(c, t, e)
                    }
                }
                NStep::May(b) => NStep::May(steps(b)),
                NStep::Pay(c, b) => NStep::Pay(c, steps(b)),
                NStep::Choose(m) => NStep::Choose(m.into_iter().map(steps).collect()),
                NStep::Roll(br) => {
                    NStep::Roll(br.into_iter().map(|(a, b, s)| (a, b, steps(s))).collect())
                }
                NStep::Repeat(n, b) => NStep::Repeat(n, steps(b)),
                other => other,
            })
            .collect()
    }
    v.into_iter()
        .map(|mut a| {
            a.body = steps(a.body);
            a
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::cards::textread::{disagrees, verdict_of};

    use crate::cards::textread::Verdict;

    #[test]
    fn a_boost_event_reads_with_a_test_of_the_character_boosted() {
        let mine = "When a Character you control qq gains 1 or more qq boosts — I gain 1 boost.";
        let reserve =
            "When a Character in your qq Reserve gains 1 or qq more boosts — I gain 1 boost.";
        let me = "When I gain 1 or qq more boosts — Draw a card.";
        let cases = [
            (
                mine,
                "when boosted if it_is(character in_expedition): boost(me, 1)",
            ),
            (
                reserve,
                "when boosted if it_is(character yours in_reserve): boost(me, 1)",
            ),
            (
                me,
                "when boosted if it_is(character in_expedition) and not it_is(character in_expedition other): draw",
            ),
        ];
        for (text, enc) in cases {
            assert_eq!(verdict_of(&[enc], text), Verdict::Verified, "{text}");
        }
        // The wrong character tested, or none: a disagreement.
        assert!(disagrees(verdict_of(
            &["when boosted if it_is(character in_expedition): boost(me, 1)"],
            reserve
        )));
        assert!(disagrees(verdict_of(&["when boosted: boost(me, 1)"], mine)));
        assert!(disagrees(verdict_of(
            &["when boosted if it_is(character in_expedition): draw"],
            me
        )));
    }

    #[test]
    fn sabotage_then_if_it_was_a_character() {
        let text = "{R} [Sabotage]. If you discarded qq a Character this way, I qq gain 1 boost.";
        let enc = |cond: &str, n: u8| {
            format!(
                "R: may {{ select(card in_reserve); if it_is({cond} in_reserve) {{ discard(it); boost(me, {n}) }} else {{ discard(it) }} }}"
            )
        };
        assert_eq!(verdict_of(&[&enc("character", 1)], text), Verdict::Verified);
        assert!(disagrees(verdict_of(&[&enc("character", 2)], text)));
        assert!(disagrees(verdict_of(&[&enc("spell", 1)], text)));
    }

    #[test]
    fn a_base_cost_tested_after_the_effect_on_the_target() {
        let text = "{J} Discard target Character qq or Permanent. If its Base Cost qq was {2} or less, create qq a [Manaseed] token in your Landmarks.";
        let enc = |n: u8, other: &str| {
            format!(
                "J: select(character permanent); if it_is(character permanent base_cost<={n}) {{ discard(it); token(Manaseed) }} else {{ {other}(it) }}"
            )
        };
        assert_eq!(verdict_of(&[&enc(2, "discard")], text), Verdict::Verified);
        assert!(disagrees(verdict_of(&[&enc(3, "discard")], text)));
        // Not the same first effect in both branches: not reduced to one effect.
        assert!(disagrees(verdict_of(&[&enc(2, "exhaust")], text)));
    }

    #[test]
    fn a_permanent_in_play_or_a_card_in_reserve_is_a_choice() {
        let text = "{J} You may exhaust target Permanent qq in play or target card in Reserve.";
        let good = "J: may { choose { exhaust(target permanent) } or { exhaust(target card in_reserve) } }";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let bad = "J: may { exhaust(target permanent) }";
        assert!(disagrees(verdict_of(&[bad], text)));
        let bad = "J: choose { exhaust(target permanent) } or { exhaust(target card in_reserve) }";
        assert!(disagrees(verdict_of(&[bad], text)));
    }

    #[test]
    fn a_keyword_under_a_condition() {
        let text = "If I'm [[Boosted]], qq I'm [Eternal].";
        let good = "static keyword(eternal) if boosted";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let bad = "static keyword(defender) if boosted";
        assert!(disagrees(verdict_of(&[bad], text)));
    }

    #[test]
    fn if_you_dont_is_the_negated_did() {
        let text = "{J} You may pass. If you don't, draw a card.";
        let good = verdict_of(&["J: may { pass }; if not did { draw }"], text);
        assert_eq!(good, Verdict::Verified);
        assert!(disagrees(verdict_of(
            &["J: may { pass }; if did { draw }"],
            text
        )));
        assert!(disagrees(verdict_of(&["J: may { pass }; draw"], text)));
    }

    #[test]
    fn no_boosts_reads_as_either_spelling_and_landmark_counts_keep_their_number() {
        let text = "{R} If I have no boosts, I gain 2 boosts.";
        for enc in [
            "R: if not boosted { boost(me, 2) }",
            "R if boosts = 0: boost(me, 2)",
        ] {
            assert_eq!(verdict_of(&[enc], text), Verdict::Verified, "{enc}");
        }
        assert!(disagrees(verdict_of(
            &["R: if boosted { boost(me, 2) }"],
            text
        )));
        let text = "{R} If there are two or more qq cards in your Landmarks, I qq gain 1 boost.";
        let good = "R if count(card yours in_landmarks) >= 2: boost(me, 1)";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let bad = "R if count(card yours in_landmarks) >= 3: boost(me, 1)";
        assert!(disagrees(verdict_of(&[bad], text)));
    }

    #[test]
    fn distribute_and_then_read_step_by_step() {
        let text =
            "{R} Distribute 2 boosts among any qq target Characters in play. Then draw a card.";
        let good = "R: repeat 2 { boost(target character, 1) }; draw";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let bad = "R: repeat 3 { boost(target character, 1) }; draw";
        assert!(disagrees(verdict_of(&[bad], text)));
    }

    #[test]
    fn choose_three_is_three_different_modes_in_order() {
        let text = "{R} Choose three: • Draw a card. • I gain 1 boost. • [Resupply]. • [Sabotage].";
        let triple = |a: &str, b: &str, c: &str| format!("{{ {a}; {b}; {c} }}");
        let (d, b, r, s) = ("draw", "boost(me, 1)", "resupply", "sabotage");
        let good = format!(
            "R: choose {} or {} or {} or {}",
            triple(d, b, r),
            triple(d, b, s),
            triple(d, r, s),
            triple(b, r, s)
        );
        assert_eq!(verdict_of(&[&good], text), Verdict::Verified);
        let bad = format!(
            "R: choose {} or {} or {}",
            triple(d, b, r),
            triple(d, b, s),
            triple(d, r, s)
        );
        assert!(disagrees(verdict_of(&[&bad], text)));
    }

    #[test]
    fn opposing_tokens_highest_sacrifices_and_two_way_moves_keep_their_side() {
        let text = "{R} Create a [Mana Moth 2/2/2] qq Illusion token in an opponent's Expedition.";
        assert_eq!(
            verdict_of(&["R: opponent_token(Mana Moth, target)"], text),
            Verdict::Verified
        );
        assert!(disagrees(verdict_of(
            &["R: token(Mana Moth, target)"],
            text
        )));
        let text = "{R} Target opponent sacrifices the Character qq they control with the highest Base Cost.";
        let good = "R: opponent_sacrifices_highest(character)";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let bad = "R: opponent_sacrifices_highest(character permanent)";
        assert!(disagrees(verdict_of(&[bad], text)));
        let text = "{R} One of your Expeditions qq moves backwards one region. If it qq does, your other Expedition moves qq forward one region.";
        let good = "R: choose { back(hero); if did { forward(companion) } } or { back(companion); if did { forward(hero) } }";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let bad =
            "R: choose { back(hero); forward(companion) } or { back(companion); forward(hero) }";
        assert!(disagrees(verdict_of(&[bad], text)));
        let text = "{R} If there's an exhausted card qq in Reserve, I gain 1 boost.";
        let good = "R: if count(card any exhausted in_reserve) >= 1 { boost(me, 1) }";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let bad = "R: if count(card yours exhausted in_reserve) >= 1 { boost(me, 1) }";
        assert!(disagrees(verdict_of(&[bad], text)));
    }

    #[test]
    fn opposing_nouns_landmark_tokens_and_blocks_read_their_side() {
        let text = "{R} Return target Character controlled qq by another player to its qq owner's hand. Then, create a qq [Manaseed] token in that qq player's Landmarks.";
        let good = "R: to_hand(target character opposing); token(Manaseed, its)";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let bad = "R: to_hand(target character); token(Manaseed, its)";
        assert!(disagrees(verdict_of(&[bad], text)));
        let bad = "R: to_hand(target character opposing); token(Manaseed, opponent)";
        assert!(disagrees(verdict_of(&[bad], text)));
        let text = "{R} Target Expedition can't move forward this Day.";
        let good = "R: choose { block_forward(target) } or { block_opponent_forward(target) }";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        assert!(disagrees(verdict_of(&["R: block_forward(target)"], text)));
        let text = "{R} Create two [Manaseed] qq tokens in your Landmarks.";
        let good = "R: token(Manaseed, yours, 2)";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        assert!(disagrees(verdict_of(&["R: token(Manaseed, yours)"], text)));
    }

    #[test]
    fn conditions_on_the_event_object_and_up_to_one_mode() {
        let text = "When you play a Character — If it's qq in {V}, I gain 1 boost.";
        let good = "when play(character): if it_is(character in_forest) { boost(me, 1) }";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let bad = "when play(character): if it_is(character in_water) { boost(me, 1) }";
        assert!(disagrees(verdict_of(&[bad], text)));
        let text = "{R} If there are two or more qq exhausted cards in Reserve, I qq gain 1 boost.";
        let good = "R if count(card any in_reserve exhausted) >= 2: boost(me, 1)";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let bad = "R if count(card any in_reserve exhausted) >= 1: boost(me, 1)";
        assert!(disagrees(verdict_of(&[bad], text)));
        let text = "{R} Choose up to one: • Draw a card. • I gain 1 boost.";
        let good = "R: may { choose { draw } or { boost(me, 1) } }";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let bad = "R: choose { draw } or { boost(me, 1) }";
        assert!(disagrees(verdict_of(&[bad], text)));
    }

    #[test]
    fn issue_25_forms_keep_their_amounts_sides_and_guards() {
        let text = "{R} You may spend 1 qq of my boosts qq to [Resupply].";
        let good = "R: may { if boosts >= 1 { boost(me, -1); resupply } }";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let bad = "R: may { boost(me, -1); resupply }";
        assert!(disagrees(verdict_of(&[bad], text)));
        let text = "{R} Exchange target card from qq your Reserve with a card from qq your hand.";
        let good = "R: if hand >= 1 and count(card yours in_reserve) >= 1 { select(card yours in_reserve); hand_to_reserve; to_hand(it) }";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let bad = "R: if hand >= 1 and count(card yours in_reserve) >= 1 { select(card opposing in_reserve); hand_to_reserve; to_hand(it) }";
        assert!(disagrees(verdict_of(&[bad], text)));
        let text = "{R} If your hand is qq empty, draw a card.";
        assert_eq!(
            verdict_of(&["R: if hand = 0 { draw }"], text),
            Verdict::Verified
        );
        assert!(disagrees(verdict_of(&["R: if hand = 1 { draw }"], text)));
        let text = "{R} Unless I'm in {O}, I qq gain [[Fleeting]].";
        let good = "R if not terrain(O): gain(me, fleeting)";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let bad = "R if terrain(O): gain(me, fleeting)";
        assert!(disagrees(verdict_of(&[bad], text)));
    }

    #[test]
    fn if_you_do_after_a_bullet_belongs_to_that_mode() {
        let text = "{R} Choose up to one: • Draw a card. • Sacrifice a Permanent. If you qq do, I gain 2 boosts.";
        let good = "R: may { choose { draw } or { if control(permanent yours) { sacrifice(target permanent yours); boost(me, 2) } } }";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        for bad in [
            // The boost after either mode, or after the sacrifice without "if you do".
            "R: may { choose { draw } or { sacrifice(target permanent yours) } ; boost(me, 2) }",
            "R: may { choose { draw } or { if control(permanent yours) { sacrifice(target permanent yours); boost(me, 3) } } }",
        ] {
            assert!(disagrees(verdict_of(&[bad], text)), "{bad}");
        }
    }

    #[test]
    fn choose_up_to_three_is_any_set_of_the_modes() {
        let text =
            "{R} Choose up to three: • Draw a card. • Discard target Permanent. • [Sabotage].";
        let (d, p, s) = ("draw", "discard(target permanent)", "sabotage");
        // [Sabotage] may do nothing: it is in every set.
        let good = format!(
            "R: choose {{ {d}; {p}; {s} }} or {{ {d}; {s} }} or {{ {p}; {s} }} or {{ {s} }}"
        );
        assert_eq!(verdict_of(&[&good], text), Verdict::Verified);
        let missing = format!("R: choose {{ {d}; {p}; {s} }} or {{ {d}; {s} }} or {{ {s} }}");
        assert!(disagrees(verdict_of(&[&missing], text)));
        let all_three = format!("R: {d}; {p}; {s}");
        assert!(disagrees(verdict_of(&[&all_three], text)));
        let one = format!("R: choose {{ {d} }} or {{ {p} }} or {{ {s} }}");
        assert!(disagrees(verdict_of(&[&one], text)));
        // Without a mode that may do nothing, choosing none is the choice not made.
        let text = "{R} Choose up to two: • Draw a card. • I gain 1 boost.";
        let good = "R: may { choose { draw; boost(me, 1) } or { draw } or { boost(me, 1) } }";
        assert_eq!(verdict_of(&[good], text), Verdict::Verified);
        let forced = "R: choose { draw; boost(me, 1) } or { draw } or { boost(me, 1) }";
        assert!(disagrees(verdict_of(&[forced], text)));
        // Up to two of three modes is not read (sets of two would have to leave one out).
        let text = "{R} Choose up to two: • Draw a card. • I gain 1 boost. • [Sabotage].";
        assert!(
            matches!(verdict_of(&[good], text), Verdict::Declared(w) if w.starts_with("unread"))
        );
    }

    #[test]
    fn choose_up_to_three_again_is_three_choices() {
        let text = "{R} Choose up to three, you qq may choose the same qq option multiple times: • Draw a card. • Discard target Permanent. • [Sabotage].";
        let modes = "choose { draw } or { discard(target permanent) } or { sabotage }";
        assert_eq!(
            verdict_of(&[&format!("R: repeat 3 {{ {modes} }}")], text),
            Verdict::Verified
        );
        assert!(disagrees(verdict_of(
            &[&format!("R: repeat 2 {{ {modes} }}")],
            text
        )));
        let no_sabotage = "choose { draw } or { discard(target permanent) }";
        assert!(disagrees(verdict_of(
            &[&format!("R: repeat 3 {{ {no_sabotage} }}")],
            text
        )));
    }

    #[test]
    fn an_also_from_a_higher_base_cost_splits_the_play_trigger() {
        let text = "When you play a Spell qq with Base Cost {4} qq or more — You qq may exhaust me ({T}) qq to create a qq [Mana qq Moth 2/2/2] qq Illusion token in qq your Hero Expedition. If qq the Base Cost qq was {7} or more, also qq draw a card.";
        let low = "when play(spell base_cost>=4 base_cost<=6): pay(T) { token(Mana Moth, hero) }";
        let high = "when play(spell base_cost>=7): pay(T) { token(Mana Moth, hero); draw }";
        assert_eq!(verdict_of(&[low, high], text), Verdict::Verified);
        // The draw outside the optional exhaust, or the split at another cost, disagree.
        let free_draw = "when play(spell base_cost>=7): pay(T) { token(Mana Moth, hero) }; draw";
        assert!(disagrees(verdict_of(&[low, free_draw], text)));
        let low6 = "when play(spell base_cost>=4 base_cost<=5): pay(T) { token(Mana Moth, hero) }";
        let high6 = "when play(spell base_cost>=6): pay(T) { token(Mana Moth, hero); draw }";
        assert!(disagrees(verdict_of(&[low6, high6], text)));
        let one = "when play(spell base_cost>=4): pay(T) { token(Mana Moth, hero); draw }";
        assert!(disagrees(verdict_of(&[one], text)));
    }

    #[test]
    fn a_boost_only_without_boosts_is_a_boost_up_to_one() {
        let text = "{R} If I have no qq boosts, I gain 1 boost.";
        assert_eq!(
            verdict_of(&["R: boost(me, 1, max 1)"], text),
            Verdict::Verified
        );
        assert_eq!(
            verdict_of(&["R if boosts = 0: boost(me, 1)"], text),
            Verdict::Verified
        );
        assert!(disagrees(verdict_of(&["R: boost(me, 1, max 2)"], text)));
        assert!(disagrees(verdict_of(&["R: boost(me, 1)"], text)));
    }

    #[test]
    fn boosted_tokens_are_defenders_while_a_condition_holds() {
        let text = "{R} Draw a card. If you have less than qq eight Mana Orbs, [[Boosted]] tokens qq you control are [Defender].";
        let aura = "static aura(token boosted, defender) if mana < 8";
        assert_eq!(verdict_of(&["R: draw", aura], text), Verdict::Verified);
        for bad in [
            "static aura(token boosted, defender) if mana < 7",
            "static aura(token, defender) if mana < 8",
            "static aura(character boosted, defender) if mana < 8",
            "static aura(token boosted, defender)",
        ] {
            assert!(disagrees(verdict_of(&["R: draw", bad], text)), "{bad}");
        }
    }

    #[test]
    fn creating_a_token_character_is_the_token_event_on_the_token() {
        let text = "When you create qq a token Character — It gains qq 1 boost.";
        for good in [
            "when token_created(character): boost(event, 1)",
            "when token_created: boost(event, 1)",
        ] {
            assert_eq!(verdict_of(&[good], text), Verdict::Verified, "{good}");
        }
        // A token joining your expeditions is another event; the boost on another object or
        // of another amount differs too.
        for bad in [
            "when joins(token): boost(event, 1)",
            "when token_created(character): boost(me, 1)",
            "when token_created(character): boost(event, 2)",
        ] {
            assert!(disagrees(verdict_of(&[bad], text)), "{bad}");
        }
    }
}
