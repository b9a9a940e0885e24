//! Equivalent spellings of a step list made one, beyond [`super::canon_body`]'s: a guard
//! that a target exists around the effect on that target, and "if you did" after playing a
//! card around effects on the card played. Both sides (the text read and the encoding
//! reduced) go through the same rewriting, so it can only make equal what means the same.
//!
//! Layer: part of [`crate::cards`]; may use `error` and nothing else of the crate.

use super::norm::{NAbility, NStep};

/// The filter `F` of a guard "count(F) >= 1" (at least one object to target).
fn guard_filter(c: &str) -> Option<&str> {
    c.strip_prefix("count(")?.strip_suffix(") >= 1")
}

/// Whether `op` acts on exactly one target of filter `f` (its first argument).
fn targets(op: &str, f: &str) -> bool {
    if op == SACRIFICE_ONE {
        return f == "character yours in:exp";
    }
    let pat = format!("(target[1-1]({f})");
    op.find(&pat).is_some_and(|i| {
        op[..i]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
            && matches!(op[i + pat.len()..].chars().next(), Some(')' | ','))
    })
}

/// Whether `op` moves its target to another zone (it always happens to a chosen target, so
/// "if you do" after it means "if there was one").
fn moves(op: &str) -> bool {
    op.starts_with("move_") || op == SACRIFICE_ONE
}

/// Whether every step is an effect on "it" (the object of the step before).
fn only_on_it(steps: &[NStep]) -> bool {
    !steps.is_empty()
        && steps.iter().all(|s| match s {
            NStep::Op(o) => o.contains("(it)") || o.contains("(it,"),
            _ => false,
        })
}

/// One op written two ways made one: sacrificing one Character of yours, chosen, is the
/// same whether it is called a target or not (no Tough is paid on one's own objects, and
/// with none there is nothing to sacrifice either way).
fn canon_op(o: String) -> String {
    if o == "move_Sacrifice(target[1-1](character yours in:exp))" {
        return SACRIFICE_ONE.into();
    }
    o
}

/// Sacrificing one Character of yours, of your choice.
const SACRIFICE_ONE: &str = "sacrifice_one(You)";

/// "You may sacrifice a Permanent to X" written as a cost paid is the optional sacrifice of
/// one Permanent of yours, X done only if it was (the normal form's optional block).
fn canon_pay(c: &str, b: &[NStep]) -> Option<NStep> {
    if c != "sacrifice 6" {
        return None;
    }
    let mut v = vec![NStep::Op(
        "move_Sacrifice(target[1-1](landmark|exp_permanent yours in:exp|landmarks))".into(),
    )];
    v.extend(b.iter().cloned());
    Some(NStep::May(v))
}

/// A target chosen in advance and then tested is the effect on that target:
/// "select(target F); if it_is(F) { X(it); Y } else { Z }" is "X(target F); if Did { Y }
/// else { Z }", an effect on one target being done exactly when a target was chosen; and
/// "may { select(target F) }; if it_is(F) { X(it) } else { Z }" is "may { X(target F) };
/// if not(Did) { Z }". The test must be of the very filter selected (an object chosen by
/// it passes it until something moves it), or of that filter for either side's objects
/// (Aroro's "spell yours in:reserve" tested as "spell any in:reserve"), and nothing after
/// X may name "it". `None` when
/// the steps are not of that shape.
fn selected_then_tested(prev: &NStep, next: &NStep) -> Option<Vec<NStep>> {
    let (sel, optional) = match prev {
        NStep::Op(o) => (o, false),
        NStep::May(b) => match b.as_slice() {
            [NStep::Op(o)] => (o, true),
            _ => return None,
        },
        _ => return None,
    };
    let target = sel.strip_prefix("select(")?.strip_suffix(')')?;
    let f = target.strip_prefix("target[1-1](")?.strip_suffix(')')?;
    let NStep::If(c, t, e) = next else {
        return None;
    };
    if *c != format!("it_is({f})") && *c != format!("it_is({})", any_whose(f)?) {
        return None;
    }
    let (NStep::Op(first), rest) = t.split_first()? else {
        return None;
    };
    let (verb, args) = match first.strip_suffix("(it)") {
        Some(v) => (v, ""),
        None => {
            let i = first.find("(it, ")?;
            (&first[..i], &first[i + 3..first.len() - 1])
        }
    };
    let on_it = |s: &NStep| matches!(s, NStep::Op(o) if o.contains("(it)") || o.contains("(it,"));
    if rest.iter().any(on_it) || (optional && !rest.is_empty()) {
        return None;
    }
    let x = NStep::Op(format!("{verb}({target}{args})"));
    let mut out = vec![if optional { NStep::May(vec![x]) } else { x }];
    if rest.is_empty() {
        if !e.is_empty() {
            out.push(NStep::If("not(Did)".into(), e.clone(), Vec::new()));
        }
    } else {
        out.push(NStep::If("Did".into(), rest.to_vec(), e.clone()));
    }
    Some(out)
}

/// The filter `f` (as `filter_str` writes it: kinds, whose, zones, ...) for either side's
/// objects: a test of it is passed by every object `f` selects, whatever its side. `None`
/// when `f` names no side of its own.
fn any_whose(f: &str) -> Option<String> {
    let mut w: Vec<&str> = f.split(' ').collect();
    if !matches!(w.get(1), Some(&"yours" | &"opposing")) {
        return None;
    }
    w[1] = "any";
    Some(w.join(" "))
}

/// The step list with these spellings made one, at every depth:
///
/// - "if count(F) >= 1 { may { X(target F); ... } }" is "may { X(target F); ... }": with no
///   object to target, "you may X" cannot be done, and what follows it is done only if X
///   was ("you may X. If you do, ...", the normal form's optional block);
/// - "if count(F) >= 1 { X(target F) }" is "X(target F)": an effect with no object to
///   target does nothing;
/// - "if count(F) >= 1 { M(target F); Y }", M moving its target, is "M(target F); if Did
///   { Y }": a chosen target is always moved;
/// - "may { X; if Did { Y } }" is "may { X; Y }", as the normal form's optional block reads
///   (and as [`super::canon_body`] makes "may { X }; if Did { Y }");
/// - "play(...); if Did { E(it) }" is "play(...); E(it)": "it" is the card played, and
///   with none played there is nothing for E to act on.
pub fn unguard(steps: Vec<NStep>) -> Vec<NStep> {
    let mut out: Vec<NStep> = Vec::new();
    for s in steps {
        let s = match s {
            NStep::May(b) => NStep::May(unguard(b)),
            NStep::Pay(c, b) => {
                let b = unguard(b);
                match canon_pay(&c, &b) {
                    Some(m) => m,
                    None => NStep::Pay(c, b),
                }
            }
            NStep::If(c, t, e) => NStep::If(c, unguard(t), unguard(e)),
            NStep::Choose(m) => NStep::Choose(m.into_iter().map(unguard).collect()),
            NStep::Roll(br) => {
                NStep::Roll(br.into_iter().map(|(a, b, s)| (a, b, unguard(s))).collect())
            }
            NStep::Repeat(n, b) => NStep::Repeat(n, unguard(b)),
            NStep::Op(o) => NStep::Op(canon_op(o)),
        };
        if let Some(prev) = out.last()
            && let Some(v) = selected_then_tested(prev, &s)
        {
            out.pop();
            out.extend(unguard(v));
            continue;
        }
        if let NStep::If(c, t, e) = &s
            && e.is_empty()
            && let Some(f) = guard_filter(c)
        {
            match t.as_slice() {
                [NStep::May(b)] if matches!(b.first(), Some(NStep::Op(o)) if targets(o, f)) => {
                    out.push(t[0].clone());
                    continue;
                }
                [NStep::Op(o)] if targets(o, f) => {
                    out.push(t[0].clone());
                    continue;
                }
                [NStep::Op(o), rest @ ..] if targets(o, f) && moves(o) => {
                    out.push(t[0].clone());
                    out.push(NStep::If("Did".into(), rest.to_vec(), Vec::new()));
                    continue;
                }
                _ => {}
            }
        }
        // Inside an optional block what follows its first effect is done only if it was:
        // "may { X; if Did { Y } }" is "may { X; Y }".
        if let NStep::May(b) = &s
            && let [NStep::Op(_), NStep::If(c, t, e), ..] = b.as_slice()
            && c == "Did"
            && e.is_empty()
        {
            let mut flat = vec![b[0].clone()];
            flat.extend(t.iter().cloned());
            flat.extend(b[2..].iter().cloned());
            out.push(NStep::May(flat));
            continue;
        }
        if let NStep::If(c, t, e) = &s
            && c == "Did"
            && e.is_empty()
            && only_on_it(t)
            && matches!(out.last(), Some(NStep::Op(p)) if p.starts_with("play("))
        {
            out.extend(t.iter().cloned());
            continue;
        }
        out.push(s);
    }
    out
}

/// "If I have less than N boosts, I gain 1 boost" and one boost "up to a max of N" do the
/// same outside a support ability (a boost of 0 does nothing; only a support ability's max
/// may be raised by a static, `support_over_max`): the capped boost is the one form.
pub fn capped_boost(mut a: NAbility) -> NAbility {
    if a.support {
        return a;
    }
    if let [NStep::If(c, then, otherwise)] = a.body.as_slice()
        && otherwise.is_empty()
        && then.as_slice() == [NStep::Op("boost(me, 1)".into())]
        && let Some(n) = c
            .strip_prefix("MyBoosts <= ")
            .and_then(|n| n.parse::<u8>().ok())
    {
        a.body = vec![NStep::Op(format!("boost(me, 1, max {})", n + 1))];
    }
    a
}

/// A Spell's targets are chosen when it is declared (digest, "Playing a card": "Spells:
/// choose modes and targets"), before anything it does: an encoding that selects the
/// target first, then does A, then acts on it, and a text that does A, then acts on
/// "target X", say the same. The target is written where the text names it, when the
/// steps between neither name "it" nor choose anything.
pub fn spell_target_in_place(mut a: NAbility) -> NAbility {
    if a.trigger != "spell" {
        return a;
    }
    let Some(NStep::Op(first)) = a.body.first() else {
        return a;
    };
    let Some(target) = first
        .strip_prefix("select(")
        .and_then(|s| s.strip_suffix(')'))
        .filter(|t| t.starts_with("target["))
        .map(str::to_string)
    else {
        return a;
    };
    // The one step that acts on "it" (its first argument), and nothing else naming it.
    let on_it = |o: &str| {
        o.find("(it").is_some_and(|i| {
            o[..i]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
                && matches!(o[i + 3..].chars().next(), Some(')' | ','))
                && !o[i + 3..].contains("it")
        })
    };
    let mut user = None;
    for (i, s) in a.body.iter().enumerate().skip(1) {
        match s {
            NStep::Roll(b) if b.is_empty() => {}
            NStep::Op(o) if user.is_none() && on_it(o) => user = Some(i),
            NStep::Op(o) if !o.contains("it") && !o.contains("target") => {}
            _ => return a,
        }
    }
    let Some(i) = user else {
        return a;
    };
    if let NStep::Op(o) = &mut a.body[i] {
        *o = o.replacen("(it", &format!("({target}"), 1);
    }
    a.body.remove(0);
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::textread::verdict_of;

    use crate::cards::textread::Verdict;

    #[test]
    fn an_encoding_that_guards_its_target_verifies_and_a_wrong_one_still_disagrees() {
        let text = "{H} You may send target Character you control to Reserve.";
        let guarded =
            "H: if count(character yours) >= 1 { may { send_reserve(target character yours) } }";
        assert_eq!(verdict_of(&[guarded], text), Verdict::Verified);
        for bad in [
            // Another side, the "may" dropped, another effect.
            "H: if count(character yours) >= 1 { may { send_reserve(target character opposing) } }",
            "H: if count(character yours) >= 1 { send_reserve(target character yours) }",
            "H: if count(character yours) >= 1 { may { discard(target character yours) } }",
        ] {
            match verdict_of(&[bad], text) {
                Verdict::Declared(why) => assert!(why.starts_with("disagree"), "{bad}: {why}"),
                v => panic!("{bad}: {v:?}"),
            }
        }
    }

    fn op(s: &str) -> NStep {
        NStep::Op(s.into())
    }

    fn ability(trigger: &str, body: Vec<NStep>) -> NAbility {
        NAbility {
            support: false,
            trigger: trigger.into(),
            body,
        }
    }

    #[test]
    fn a_spells_target_chosen_first_is_written_where_the_text_names_it() {
        const T: &str = "target[1-1](character any in:exp)";
        let first = |trigger: &str, between: NStep| {
            ability(
                trigger,
                vec![op(&format!("select({T})")), between, op("boost(it, X)")],
            )
        };
        let roll = NStep::Roll(Vec::new());
        assert_eq!(
            spell_target_in_place(first("spell", roll.clone())),
            ability("spell", vec![roll.clone(), op(&format!("boost({T}, X)"))])
        );
        // Not a Spell (a quick action's target is left where it is), a step between that
        // names "it" or another target, or no step on "it": unchanged.
        for a in [
            first("H", roll.clone()),
            first("spell", op("exhaust(it)")),
            first("spell", op(&format!("boost({T}, 1)"))),
            ability("spell", vec![op(&format!("select({T})")), roll]),
        ] {
            assert_eq!(spell_target_in_place(a.clone()), a);
        }
    }

    const F: &str = "landmark|exp_permanent yours in:exp|landmarks";

    fn guard(body: Vec<NStep>) -> NStep {
        NStep::If(format!("count({F}) >= 1"), body, Vec::new())
    }

    #[test]
    fn a_guard_that_the_target_exists_is_no_step_of_its_own() {
        let sac = format!("move_Sacrifice(target[1-1]({F}))");
        let may = NStep::May(vec![op(&sac), op("draw(You, 1)")]);
        assert_eq!(unguard(vec![guard(vec![may.clone()])]), vec![may.clone()]);
        assert_eq!(unguard(vec![guard(vec![op(&sac)])]), vec![op(&sac)]);
        // A moved target, then more: the rest only if it was moved.
        assert_eq!(
            unguard(vec![guard(vec![op(&sac), op("draw(You, 1)")])]),
            vec![
                op(&sac),
                NStep::If("Did".into(), vec![op("draw(You, 1)")], Vec::new())
            ]
        );
        // A guard on another filter, or an effect on another target, stays.
        let other = format!("move_Sacrifice(target[1-1]({F} other))");
        for body in [
            vec![NStep::May(vec![op(&other)])],
            vec![op(&other)],
            vec![op("draw(You, 1)"), op(&sac)],
        ] {
            let kept = vec![guard(body)];
            assert_eq!(unguard(kept.clone()), kept);
        }
        // An effect that does not move its target says nothing of "if you do".
        let boost = format!("boost(target[1-1]({F}), 1)");
        let kept = vec![guard(vec![op(&boost), op("draw(You, 1)")])];
        assert_eq!(unguard(kept.clone()), kept);
        // Selected among your own, tested among either side's: every object selected
        // passes, so it is the effect on the target; the other way round it is not.
        let widened = |sel: &str, test: &str| {
            vec![
                op(&format!("select(target[1-1]({sel}))")),
                NStep::If(
                    format!("it_is({test})"),
                    vec![op("move_Discard(it)"), op("boost(me, 1)")],
                    Vec::new(),
                ),
            ]
        };
        assert_eq!(
            unguard(widened("spell yours in:reserve", "spell any in:reserve")),
            vec![
                op("move_Discard(target[1-1](spell yours in:reserve))"),
                NStep::If("Did".into(), vec![op("boost(me, 1)")], Vec::new()),
            ]
        );
        for (sel, test) in [
            ("spell any in:reserve", "spell yours in:reserve"),
            ("spell yours in:reserve", "spell opposing in:reserve"),
            ("spell yours in:reserve", "character any in:reserve"),
            ("spell yours in:reserve", "spell any in:exp"),
        ] {
            assert_eq!(
                unguard(widened(sel, test)),
                widened(sel, test),
                "{sel} / {test}"
            );
        }
    }

    #[test]
    fn if_you_did_inside_an_optional_block_is_the_block_itself() {
        let did = |b: Vec<NStep>| NStep::If("Did".into(), b, Vec::new());
        let x = op("move_Discard(target[1-1](character yours in:reserve))");
        assert_eq!(
            unguard(vec![NStep::May(vec![
                x.clone(),
                did(vec![op("draw(You, 1)")])
            ])]),
            vec![NStep::May(vec![x.clone(), op("draw(You, 1)")])]
        );
        // Not after the block's first effect: kept.
        let kept = vec![NStep::May(vec![
            x.clone(),
            op("draw(You, 1)"),
            did(vec![op("draw(You, 1)")]),
        ])];
        assert_eq!(unguard(kept.clone()), kept);
    }

    #[test]
    fn if_you_did_after_a_play_is_implied_for_effects_on_the_card_played() {
        let play = op("play(You, character any in:reserve|hand, less 3, None, 1)");
        let did = |b: Vec<NStep>| NStep::If("Did".into(), b, Vec::new());
        assert_eq!(
            unguard(vec![play.clone(), did(vec![op("boost(it, 2)")])]),
            vec![play.clone(), op("boost(it, 2)")]
        );
        // Anything but an effect on the card played stays under "if you did".
        for b in [
            vec![op("draw(You, 1)")],
            vec![op("boost(it, 2)"), op("draw(You, 1)")],
        ] {
            let kept = vec![play.clone(), did(b)];
            assert_eq!(unguard(kept.clone()), kept);
        }
        let kept = vec![op("draw(You, 1)"), did(vec![op("boost(it, 2)")])];
        assert_eq!(unguard(kept.clone()), kept);
    }

    #[test]
    fn sacrificing_a_character_of_yours_is_one_step_however_written() {
        let text = "{J} Sacrifice a Character. If you do, draw a card.";
        assert_eq!(
            verdict_of(
                &["J: if control(character) { sacrifice(target character yours); draw }"],
                text
            ),
            Verdict::Verified
        );
        for bad in [
            "J: if control(character) { sacrifice(target character opposing); draw }",
            "J: if control(character) { sacrifice(target character yours); draw(2) }",
            "J: if control(character) { discard(target character yours); draw }",
        ] {
            match verdict_of(&[bad], text) {
                Verdict::Declared(why) => assert!(why.starts_with("disagree"), "{bad}: {why}"),
                v => panic!("{bad}: {v:?}"),
            }
        }
    }

    #[test]
    fn a_target_selected_then_tested_is_the_effect_on_that_target() {
        let cases = [
            (
                "{H} You may discard target qq Permanent. If you don't, I qq gain 2 boosts.",
                "H: may { select(permanent) }; if it_is(permanent) { discard(it) } else { boost(me, 2) }",
                [
                    "H: may { select(permanent) }; if it_is(permanent) { discard(it) } else { boost(me, 1) }",
                    "H: may { select(character) }; if it_is(character) { discard(it) } else { boost(me, 2) }",
                    "H: select(permanent); if it_is(permanent) { discard(it) } else { boost(me, 2) }",
                ],
            ),
            (
                "{H} You may have target Character gain [[Anchored]]. If you qq do, I gain [[Anchored]].",
                "H: may { select(character); if it_is(character) { gain(it, anchored); gain(me, anchored) } }",
                [
                    "H: may { select(character); if it_is(character) { gain(it, asleep); gain(me, anchored) } }",
                    "H: select(character); if it_is(character) { gain(it, anchored); gain(me, anchored) }",
                    "H: may { select(character); if it_is(character) { gain(it, anchored) } }",
                ],
            ),
        ];
        for (text, good, bads) in cases {
            assert_eq!(verdict_of(&[good], text), Verdict::Verified, "{good}");
            for bad in bads {
                match verdict_of(&[bad], text) {
                    Verdict::Declared(why) => assert!(why.starts_with("disagree"), "{bad}: {why}"),
                    v => panic!("{bad}: {v:?}"),
                }
            }
        }
        // Tested against another filter than the one selected: not the same steps.
        let kept = vec![
            op("select(target[1-1](character any in:exp))"),
            NStep::If(
                "it_is(character yours in:exp)".into(),
                vec![op("boost(it, 1)")],
                Vec::new(),
            ),
        ];
        assert_eq!(unguard(kept.clone()), kept);
    }

    #[test]
    fn a_permanent_sacrificed_as_a_cost_is_an_optional_sacrifice() {
        let text = "{R} You may sacrifice a Permanent qq to draw a card.";
        assert_eq!(
            verdict_of(&["R: pay(sacrifice permanent) { draw }"], text),
            Verdict::Verified
        );
        for bad in [
            "R: pay(sacrifice character) { draw }",
            "R: pay(sacrifice permanent) { draw(2) }",
            "R: draw",
        ] {
            match verdict_of(&[bad], text) {
                Verdict::Declared(why) => assert!(why.starts_with("disagree"), "{bad}: {why}"),
                v => panic!("{bad}: {v:?}"),
            }
        }
    }
}
