//! Equivalent spellings of a step list made one, beyond [`super::canon_body`]'s: a guard
//! that a target exists around the effect on that target, and "if you did" after playing a
//! card around effects on the card played. Both sides (the text read and the encoding
//! reduced) go through the same rewriting, so it can only make equal what means the same.
//!
//! Layer: part of [`crate::cards`]; may use `error` and nothing else of the crate.

use super::norm::NStep;

/// The filter `F` of a guard "count(F) >= 1" (at least one object to target).
fn guard_filter(c: &str) -> Option<&str> {
    c.strip_prefix("count(")?.strip_suffix(") >= 1")
}

/// Whether `op` acts on exactly one target of filter `f` (its first argument).
fn targets(op: &str, f: &str) -> bool {
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
    op.starts_with("move_")
}

/// Whether every step is an effect on "it" (the object of the step before).
fn only_on_it(steps: &[NStep]) -> bool {
    !steps.is_empty()
        && steps.iter().all(|s| match s {
            NStep::Op(o) => o.contains("(it)") || o.contains("(it,"),
            _ => false,
        })
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
            NStep::Pay(c, b) => NStep::Pay(c, unguard(b)),
            NStep::If(c, t, e) => NStep::If(c, unguard(t), unguard(e)),
            NStep::Choose(m) => NStep::Choose(m.into_iter().map(unguard).collect()),
            NStep::Roll(br) => {
                NStep::Roll(br.into_iter().map(|(a, b, s)| (a, b, unguard(s))).collect())
            }
            NStep::Repeat(n, b) => NStep::Repeat(n, unguard(b)),
            other => other,
        };
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
}
