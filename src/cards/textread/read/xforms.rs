//! Sentences whose number depends on the game, unrolled the way the encodings unroll
//! them: a Hand Cost bound of X "where X is the number of ..." or a Hand Cost up to that
//! of a Character you control (from 12, the highest Hand Cost of the pool, down to 0), and
//! exchanging a Reserve card with a hand card (only when both exist).

use super::super::norm::{NStep, filter_str, op, target_str};
use super::super::reduce::cmp_str;
use super::Reader;
use crate::cards::effect::{Cmp, Filter, Whose, fkind, fzone};

/// The highest Hand Cost a bound is unrolled from.
const TOP: i16 = 12;

impl Reader<'_> {
    /// Revealing the top N cards of your Deck, choosing up to M Characters among them to
    /// put in your Expeditions (they gain [[Fleeting]]) and discarding the rest: the steps
    /// and the sentences used.
    pub(super) fn reveal_sentences(&self, sents: &[String]) -> Option<(Vec<NStep>, usize)> {
        let t = |i: usize| sents.get(i).map(|s| s.trim().trim_end_matches('.'));
        rx!(REVEAL, r"^Reveal the top (\w+) cards of your Deck$");
        rx!(
            CHOOSE,
            r"^Choose up to (\w+) Characters from these cards\x20and put them in your Expeditions$"
        );
        rx!(THEY_GAIN, r"^They gain \[\[(\w+)\]\]$");
        let n = super::num_word(&REVEAL.captures(t(0)?)?[1])?;
        let k = super::num_word(&CHOOSE.captures(t(1)?)?[1])?;
        let status = THEY_GAIN.captures(t(2)?)?[1].to_ascii_lowercase();
        if t(3)? != "Discard the other cards" {
            return None;
        }
        let f = Filter {
            kinds: fkind::CHARACTER,
            whose: Whose::Yours,
            ..Filter::default()
        };
        let fs = filter_str(&f, self.ctx);
        Some((
            vec![op(
                "reveal_put",
                &[&n.to_string(), &k.to_string(), &fs, &status],
            )],
            4,
        ))
    }

    /// An effect with a bound that depends on the game; `None` when `s` is not one.
    pub(super) fn x_effect(&self, s: &str) -> Option<Result<Vec<NStep>, String>> {
        self.x_effect_inner(s).transpose()
    }

    fn x_effect_inner(&self, s: &str) -> Result<Option<Vec<NStep>>, String> {
        // A Hand Cost bound of {X} where X counts the Characters you control.
        rx!(
            X_COUNT,
            r"^(.+ with Hand Cost )\{X\}( or less) @x_is_count_of (.+)$"
        );
        if let Some(c) = X_COUNT.captures(s) {
            let mut f = self.noun(&format!("a {}", &c[3]), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            let counted = format!("count({})", filter_str(&f, self.ctx));
            let at = |n: i16| self.effect(&format!("{}{{{n}}}{}", &c[1], &c[2]));
            let mut steps = at(0)?;
            for n in 1..=TOP {
                steps = vec![NStep::If(cmp_str(&counted, Cmp::Ge, n), at(n)?, steps)];
            }
            return Ok(Some(steps));
        }
        // A Hand Cost bound by that of a Character you control.
        rx!(
            X_OF_YOURS,
            r"^(.+) with Hand Cost less\x20than or equal to the Hand Cost of\x20a Character you control$"
        );
        if let Some(c) = X_OF_YOURS.captures(s) {
            let yours = |min: u8| {
                let f = Filter {
                    kinds: fkind::CHARACTER,
                    whose: Whose::Yours,
                    cost_min: min,
                    ..Filter::default()
                };
                cmp_str(&format!("count({})", filter_str(&f, self.ctx)), Cmp::Ge, 1)
            };
            let mut steps: Vec<NStep> = Vec::new();
            for n in 0..=TOP {
                let body = if n == TOP {
                    self.effect(&c[1])?
                } else {
                    self.effect(&format!("{} with Hand Cost {{{n}}} or less", &c[1]))?
                };
                steps = vec![NStep::If(yours(n as u8), body, steps)];
            }
            return Ok(Some(steps));
        }
        // Exchanging a target card of your Reserve with one from your hand.
        rx!(
            EXCHANGE,
            r"^(you may |You may )?(?i:exchange) (target|a|another) (card|Character|Spell) (?:from|in) your Reserve with @hand_card$"
        );
        if let Some(c) = EXCHANGE.captures(s) {
            let kinds = match &c[3] {
                "Character" => fkind::CHARACTER,
                "Spell" => fkind::SPELL,
                _ => fkind::CARD,
            };
            let f = Filter {
                kinds,
                whose: Whose::Yours,
                zones: fzone::RESERVE,
                other: &c[2] == "another",
                ..Filter::default()
            };
            let fs = filter_str(&f, self.ctx);
            let cond = format!(
                "({} and {})",
                cmp_str("HandSize", Cmp::Ge, 1),
                cmp_str(&format!("count({fs})"), Cmp::Ge, 1)
            );
            let body = vec![
                op("select", &[&target_str(&fs, 1, 1, false, "")]),
                op("from_hand", &["You", "Reserve", "1"]),
                op("move_Hand", &["it"]),
            ];
            let step = NStep::If(cond, body, Vec::new());
            return Ok(Some(if c.get(1).is_some() {
                vec![NStep::May(vec![step])]
            } else {
                vec![step]
            }));
        }
        Ok(None)
    }
}
