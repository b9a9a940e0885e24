//! Forms of the DUSTER set taught for issue 49 (item 5): a Landmark token in the
//! Landmarks of whoever controls the object just named, exhausting one of your
//! Permanents or one of your Reserve cards (your choice when you have both), a target's
//! controller drawing after a test of its Base Cost, "You may target X" followed by
//! effects on it, a choice of as many modes as you have Landmark cards, one mode or (an
//! exhausted Permanent of yours paying) both, one token per Landmark card of yours (up to
//! N) in a target Expedition, the Tough of Characters with either of two statuses, a
//! Landmark sacrificed to play one for free (Matz & Hive), exhausting a target "if you
//! do" (a ready one: an exhausted one would not be "done"), a Spell (Permanent,
//! Character) put from your hand in Reserve, sacrificing a Permanent as one of yours
//! chosen, and a target Expedition moved back with its side's other one moved forward if
//! it did.
//! Each answers `None` for a sentence it does not know, so the reader stays strict.

use super::super::norm::{NAbility, NStep, filter_str, op, target_str};
use super::super::reduce::{cmp_str, token_str};
use super::cydust::subsets;
use super::{Reader, upper_first};
use crate::cards::effect::{Cmp, Filter, Whose, fzone};
use crate::cards::textread::forms::optional_by_itself;
use crate::cards::types::Stats;

fn trimmed(s: &str) -> &str {
    s.trim().trim_end_matches('.').trim()
}

/// The op with its first "it" argument replaced by `target` (an effect on the object just
/// targeted is that effect on the target, as `reduce::merge_targets` writes it).
fn on_target(o: &str, target: &str) -> Option<String> {
    o.contains("(it")
        .then(|| o.replacen("(it", &format!("({target}"), 1))
}

impl Reader<'_> {
    /// A one-sentence effect of this set; `None` when `s` is not one.
    pub(super) fn du_effect(&self, s: &str) -> Option<Result<Vec<NStep>, String>> {
        self.du_effect_inner(s).transpose()
    }

    fn du_effect_inner(&self, s: &str) -> Result<Option<Vec<NStep>>, String> {
        // A Landmark token in the Landmarks of the controller of the object just named (the
        // target returned, discarded or put to sleep).
        rx!(
            ITS_CONTROLLERS,
            r"^(?i:create) an? \[(Manaseed|Aerolith)\] token in its\x20controller's Landmarks$"
        );
        if let Some(c) = ITS_CONTROLLERS.captures(s) {
            let name = c[1].to_ascii_lowercase();
            return Ok(Some(vec![op("landmark_token", &[&name, "OfIt", "1"])]));
        }
        // A card of a kind put from your hand in Reserve: one of yours there, chosen.
        rx!(
            KIND_HAND_TO_RESERVE,
            r"^(?i:put) (an? (?:Spell|Permanent|Character)) from your hand in Reserve$"
        );
        if let Some(c) = KIND_HAND_TO_RESERVE.captures(s) {
            let mut f = self.noun(&c[1], Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            f.zones = fzone::HAND;
            let t = target_str(&filter_str(&f, self.ctx), 1, 1, false, "");
            return Ok(Some(vec![op("move_Reserve", &[&t])]));
        }
        // "Sacrifice a Permanent": one of yours, chosen (no Tough is paid on one's own).
        if s.eq_ignore_ascii_case("sacrifice a Permanent") {
            let mut f = self.noun("a Permanent", Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            let t = target_str(&filter_str(&f, self.ctx), 1, 1, false, "");
            return Ok(Some(vec![op("move_Sacrifice", &[&t])]));
        }
        // Exhausting one of your Permanents or one of your Reserve cards: one of yours of
        // either kind, your choice when you have both, the one you have otherwise (none
        // when you have neither).
        rx!(
            EXHAUST_EITHER,
            r"^(?i:exhaust) (a Permanent you control) or\x20(a card in your Reserve)$"
        );
        if let Some(c) = EXHAUST_EITHER.captures(s) {
            let mine = |np: &str| -> Result<Filter, String> {
                let mut f = self.noun(np, Whose::Yours)?.filter;
                f.whose = Whose::Yours;
                Ok(f)
            };
            let (p, r) = (mine(&c[1])?, mine(&c[2])?);
            if r.zones != fzone::RESERVE {
                return Err(format!("an object '{}'", &c[2]));
            }
            let count =
                |f: &Filter| cmp_str(&format!("count({})", filter_str(f, self.ctx)), Cmp::Ge, 1);
            let exhaust = |f: &Filter| {
                vec![op(
                    "exhaust",
                    &[&target_str(&filter_str(f, self.ctx), 1, 1, false, "")],
                )]
            };
            return Ok(Some(vec![NStep::If(
                format!("({} and {})", count(&p), count(&r)),
                vec![NStep::Choose(vec![exhaust(&p), exhaust(&r)])],
                vec![NStep::If(count(&p), exhaust(&p), exhaust(&r))],
            )]));
        }
        // Each player exhausting one of their Permanents or one of their Reserve cards: you
        // as above, then the opponent, who chooses (`opponent_choose`, `opponent_select`)
        // between the two kinds when it has both, and takes the one it has otherwise.
        rx!(
            EACH_EXHAUSTS_EITHER,
            r"^Each player exhausts a Permanent they control or\x20a card in their Reserve$"
        );
        if EACH_EXHAUSTS_EITHER.is_match(s) {
            let Some(mut steps) = self
                .du_effect_inner("Exhaust a Permanent you control or\x20a card in your Reserve")?
            else {
                return Ok(None);
            };
            let theirs = |np: &str| -> Result<String, String> {
                let mut f = self.noun(np, Whose::Yours)?.filter;
                f.whose = Whose::Opposing;
                Ok(filter_str(&f, self.ctx))
            };
            let (p, r) = (
                theirs("a Permanent you control")?,
                theirs("a card in your Reserve")?,
            );
            let count = |f: &str| cmp_str(&format!("count({f})"), Cmp::Ge, 1);
            let exhaust = |f: &str| vec![op("opponent_select", &[f]), op("exhaust", &["it"])];
            steps.push(NStep::If(
                format!("({} and {})", count(&p), count(&r)),
                vec![
                    op("opponent_chooses", &[]),
                    NStep::Choose(vec![exhaust(&p), exhaust(&r)]),
                ],
                vec![NStep::If(count(&p), exhaust(&p), exhaust(&r))],
            ));
            return Ok(Some(steps));
        }
        // An Expedition targeted, then one token in it for each card of your Landmarks, up
        // to a number per activation: any expedition chosen, then one token per
        // card counted, at most N.
        rx!(
            PER_CARD_UP_TO,
            r"^Target an Expedition, then create one \[([^\]]+?) (\d+)/(\d+)/(\d+)\] [A-Za-z ]*?token in it per card in\x20your Landmarks, up to (two|three|four) per activation$"
        );
        if let Some(c) = PER_CARD_UP_TO.captures(s) {
            let stat = |i: usize| c[i].parse().unwrap_or(0);
            let t = token_str(&c[1], Stats::new(stat(2), stat(3), stat(4)));
            let max = super::num_word(&c[5]).ok_or("a number")?;
            let mut f = self.noun("cards in your Landmarks", Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            let count = format!("count({})", filter_str(&f, self.ctx));
            let mut steps = vec![op("select_exp", &["Any", "false"])];
            for k in 1..=max {
                steps.push(NStep::If(
                    cmp_str(&count, Cmp::Ge, k),
                    vec![op("token", &[&t, "Selected", "1", "yours"])],
                    Vec::new(),
                ));
            }
            return Ok(Some(steps));
        }
        Ok(None)
    }

    /// Statics of this set: "I'm [Defender]" (the keyword), Defenders that don't block my
    /// Expedition while it is In Contact, and two statuses' Characters of yours with a
    /// Tough, "[[A]] and [[B]] Characters you control are [Tough N]": every Character with
    /// either (one with both counted once: those with B and without A); `None` when `s` is
    /// none of them.
    pub(super) fn du_static(&self, s: &str, support: bool) -> Option<Vec<NAbility>> {
        rx!(
            TWO_STATUSES_TOUGH,
            r"^\[\[(Anchored|Asleep|Fleeting)\]\] and \[\[(Anchored|Asleep|Fleeting)\]\] Characters you control\x20are \[Tough (\d)\]$"
        );
        // "I'm [Defender]" alone: the keyword; and Defenders that don't prevent my
        // Expedition from moving forward while it is In Contact.
        let one = |trigger: &str, body: Vec<NStep>| {
            Some(vec![NAbility {
                support,
                trigger: trigger.to_string(),
                body,
            }])
        };
        match s {
            "I'm [Defender]" | "I am [Defender]" => return one("keyword defender", Vec::new()),
            "If my Expedition is [In Contact],\x20[Defender] Characters @no_block" => {
                let cond = NStep::If("InContact".into(), Vec::new(), Vec::new());
                return one("static DefenderNoBlock", vec![cond]);
            }
            _ => {}
        }
        let c = TWO_STATUSES_TOUGH.captures(s)?;
        let each = |st: &str| -> Option<Filter> {
            let np = self
                .noun(&format!("[[{st}]] Characters you control"), Whose::Yours)
                .ok()?;
            let mut f = np.filter;
            f.whose = Whose::Yours;
            Some(f)
        };
        let fa = each(&c[1])?;
        let mut fb = each(&c[2])?;
        fb.without |= fa.with;
        Some(
            [fa, fb]
                .iter()
                .map(|f| NAbility {
                    support,
                    trigger: format!("static tough_aura({}, {})", filter_str(f, self.ctx), &c[3]),
                    body: Vec::new(),
                })
                .collect(),
        )
    }

    /// The steps of a form of this set that spans sentences, at the start of `sents`, and
    /// how many sentences it used; `None` when none starts there.
    pub(super) fn du_sentences(
        &self,
        sents: &[String],
    ) -> Result<Option<(Vec<NStep>, usize)>, String> {
        let t = |i: usize| sents.get(i).map_or("", |s| trimmed(s));
        if let Some(r) = self.controller_draws(t(0), t(1))? {
            return Ok(Some((r, 2)));
        }
        if let Some(r) = self.may_target_then(t(0), t(1))? {
            return Ok(Some((r, 2)));
        }
        if let Some(r) = back_then_other_forward(t(0), t(1)) {
            return Ok(Some((r, 2)));
        }
        if let Some(r) = self.may_exhaust_if_you_do(t(0), t(1))? {
            return Ok(Some((r, 2)));
        }
        if let Some(r) = self.sacrifice_one_to_play(t(0), t(1))? {
            return Ok(Some((r, 2)));
        }
        if let Some(r) = self.one_or_pay_for_both(sents)? {
            return Ok(Some(r));
        }
        self.choose_up_to_landmarks(sents)
    }

    /// "You may exhaust target X. If you do, Y": a target already exhausted would not be
    /// exhausted, so Y would not be done ("if you do" tests that it was, D61): the same as
    /// declining. The target is a ready X, and Y follows in the optional block.
    fn may_exhaust_if_you_do(&self, a: &str, b: &str) -> Result<Option<Vec<NStep>>, String> {
        rx!(MAY_EXHAUST_TARGET, r"^You may exhaust (target .+)$");
        let (Some(ca), Some(y)) = (
            MAY_EXHAUST_TARGET.captures(a),
            b.strip_prefix("If you do, "),
        ) else {
            return Ok(None);
        };
        let np = self.noun(&ca[1], Whose::Any)?;
        if np.min != 1 || np.max != 1 || np.filter.exhausted.is_some() {
            return Ok(None);
        }
        let mut f = np.filter;
        f.exhausted = Some(false);
        let mut body = vec![op(
            "exhaust",
            &[&target_str(&filter_str(&f, self.ctx), 1, 1, false, "")],
        )];
        body.extend(self.clause(&upper_first(y))?);
        Ok(Some(vec![NStep::May(body)]))
    }

    /// With N or more cards in your Landmarks, one of them may be sacrificed to play for
    /// free a Landmark of Hand Cost up to M more than the sacrificed card's (Matz & Hive):
    /// one of those cards chosen, its Hand Cost kept as X, sacrificed, and
    /// then a Landmark of Hand Cost X+M or less played for free, from hand or Reserve ("play"
    /// names no zone), when there is one ("play" is not "you may play").
    fn sacrifice_one_to_play(&self, a: &str, b: &str) -> Result<Option<Vec<NStep>>, String> {
        rx!(
            IF_N_SACRIFICE_ONE,
            r"^If there are (\w+) or more (cards in your Landmarks),\x20you may sacrifice one$"
        );
        rx!(
            PLAY_AT_MOST_MORE,
            r"^If you do, play for free (an? .+?) with a max Hand Cost of \{(\d)\} more than the sacrificed\x20card$"
        );
        let (Some(ca), Some(cb)) = (
            IF_N_SACRIFICE_ONE.captures(a),
            PLAY_AT_MOST_MORE.captures(b),
        ) else {
            return Ok(None);
        };
        let cond = self.cond(&format!("there are {} or more {}", &ca[1], &ca[2]))?;
        let mut f = self.noun(&ca[2], Whose::Yours)?.filter;
        f.whose = Whose::Yours;
        let mut play = self.noun(&cb[1], Whose::Yours)?.filter;
        play.zones = fzone::HAND | fzone::RESERVE;
        play.cost_max_x = cb[2].parse().map_err(|_| "a cost")?;
        let played = op(
            "play",
            &["You", &filter_str(&play, self.ctx), "free", "None", "0"],
        );
        Ok(Some(vec![NStep::If(
            cond,
            vec![NStep::May(vec![
                op(
                    "select",
                    &[&target_str(&filter_str(&f, self.ctx), 1, 1, false, "")],
                ),
                op("set_x", &["ItCost"]),
                op("move_Sacrifice", &["it"]),
                NStep::If("Did".into(), vec![played], Vec::new()),
            ])],
            Vec::new(),
        )]))
    }

    /// One of two modes, or both when a Permanent of yours is exhausted (Reka Magnate): one of the
    /// two modes, or, paying with a ready Permanent of yours exhausted, both in order (only
    /// one when there is no ready Permanent to exhaust).
    fn one_or_pay_for_both(&self, sents: &[String]) -> Result<Option<(Vec<NStep>, usize)>, String> {
        rx!(
            ONE_OR_BOTH,
            r"^Choose one, or exhaust (a Permanent you\x20control) to choose both:$"
        );
        let Some(c) = sents.first().and_then(|s| ONE_OR_BOTH.captures(s.trim())) else {
            return Ok(None);
        };
        let mut modes: Vec<Vec<NStep>> = Vec::new();
        let mut i = 1;
        while i < sents.len() && sents[i].starts_with('•') {
            let (m, used) = super::bullet_of(&sents[i..]);
            modes.push(self.body(&m)?);
            i += used;
        }
        let [a, b] = <[Vec<NStep>; 2]>::try_from(modes)
            .map_err(|_| "a choice of both with other than two modes".to_string())?;
        let mut f = self.noun(&c[1], Whose::Yours)?.filter;
        f.whose = Whose::Yours;
        f.exhausted = Some(false);
        let fs = filter_str(&f, self.ctx);
        let mut both = vec![op("exhaust", &[&target_str(&fs, 1, 1, false, "")])];
        both.extend(a.iter().cloned());
        both.extend(b.iter().cloned());
        let one = NStep::Choose(vec![a.clone(), b.clone()]);
        Ok(Some((
            vec![NStep::If(
                cmp_str(&format!("count({fs})"), Cmp::Ge, 1),
                vec![NStep::Choose(vec![a, b, both])],
                vec![one],
            )],
            i,
        )))
    }

    /// "Discard target X. If its Base Cost was {N} or more, its controller draws a card":
    /// the target chosen, then discarded, and its controller (you when it is yours, the
    /// opponent otherwise) draws when its Base Cost is at least N.
    fn controller_draws(&self, a: &str, b: &str) -> Result<Option<Vec<NStep>>, String> {
        rx!(DISCARD_TARGET, r"^(?i:discard) (target .+)$");
        rx!(
            COST_THEN_DRAWS,
            r"^If its Base Cost was \{(\d+)\} or more, its controller draws (a|one|two) cards?$"
        );
        let (Some(ca), Some(cb)) = (DISCARD_TARGET.captures(a), COST_THEN_DRAWS.captures(b)) else {
            return Ok(None);
        };
        let np = self.noun(&ca[1], Whose::Any)?;
        let (o, _) = self.obj(&ca[1])?;
        if !o.starts_with("target[1-1](") {
            return Ok(None);
        }
        let n: u8 = cb[1].parse().map_err(|_| "a cost")?;
        let draws = super::num_word(&cb[2]).ok_or("a number")?.to_string();
        let test = |whose: Whose| {
            let mut f = np.filter;
            f.whose = whose;
            f.base_cost = true;
            f.cost_min = n;
            format!("it_is({})", filter_str(&f, self.ctx))
        };
        let discard = op("move_Discard", &["it"]);
        Ok(Some(vec![
            op("select", &[&o]),
            NStep::If(
                test(Whose::Yours),
                vec![discard.clone(), op("draw", &["You", &draws])],
                vec![NStep::If(
                    test(Whose::Any),
                    vec![discard.clone(), op("draw", &["Opponent", &draws])],
                    vec![discard],
                )],
            ),
        ]))
    }

    /// "You may target X. If you do, it ..., then Y" and "You may target X, it .... If you
    /// control it, Y": the effects on "it" are on the target, all of it optional.
    fn may_target_then(&self, a: &str, b: &str) -> Result<Option<Vec<NStep>>, String> {
        rx!(
            MAY_TARGET,
            r"^You may target (an? [A-Z][a-z]+)(?:, (it .+))?$"
        );
        let Some(ca) = MAY_TARGET.captures(a) else {
            return Ok(None);
        };
        let kind = ca[1].split_once(' ').map_or("", |x| x.1);
        let (target, _) = self.obj(&format!("target {kind}"))?;
        if !target.starts_with("target[1-1](") {
            return Ok(None);
        }
        let (first, rest) = match (ca.get(2), b.strip_prefix("If you do, ")) {
            // "You may target X. If you do, it ..., then Y".
            (None, Some(r)) => (self.clause(&upper_first(r))?, Vec::new()),
            // "You may target X, it .... If you control it, Y": Y only for a target of
            // yours.
            (Some(it), None) => {
                let Some(y) = b.strip_prefix("If you control it, ") else {
                    return Ok(None);
                };
                let mut f = self.noun(&ca[1], Whose::Any)?.filter;
                f.whose = Whose::Yours;
                let test = format!("it_is({})", filter_str(&f, self.ctx));
                (
                    self.clause(&upper_first(it.as_str()))?,
                    vec![NStep::If(test, self.clause(&upper_first(y))?, Vec::new())],
                )
            }
            _ => return Ok(None),
        };
        let mut body = Vec::new();
        let mut named = false;
        for s in first {
            match s {
                NStep::Op(o) if !named => match on_target(&o, &target) {
                    Some(t) => {
                        body.push(NStep::Op(t));
                        named = true;
                    }
                    None => return Ok(None),
                },
                other => body.push(other),
            }
        }
        if !named {
            return Ok(None);
        }
        body.extend(rest);
        Ok(Some(vec![NStep::May(body)]))
    }

    /// A choice of up to as many modes as you have cards in your Landmarks: with N cards
    /// there (the most that count, the number of modes, first), up to N of the modes.
    fn choose_up_to_landmarks(
        &self,
        sents: &[String],
    ) -> Result<Option<(Vec<NStep>, usize)>, String> {
        if sents.first().map(|s| s.trim())
            != Some("Choose up to the number of\x20cards in your Landmarks:")
        {
            return Ok(None);
        }
        let mut modes: Vec<Vec<NStep>> = Vec::new();
        let mut i = 1;
        // "Create one in X" after a bullet that created a token: one more of that token.
        rx!(
            TOKEN,
            r"^Create an? (\[[^\]]+\](?: [A-Z][a-z]+)*(?: token)?) in "
        );
        rx!(ONE_MORE, r"^Create one in (.+)$");
        let mut token: Option<String> = None;
        while i < sents.len() && sents[i].starts_with('•') {
            let (mut m, used) = super::bullet_of(&sents[i..]);
            if let Some(c) = ONE_MORE.captures(trimmed(&m[0])) {
                let Some(tok) = &token else {
                    return Err("'Create one' after no token".into());
                };
                m[0] = format!("Create a {tok} in {}", &c[1]);
            }
            if let Some(c) = TOKEN.captures(&m[0]) {
                token = Some(c[1].to_string());
            }
            modes.push(self.body(&m)?);
            i += used;
        }
        if modes.len() < 2 {
            return Err("a choice with fewer than two modes".into());
        }
        let mut f = self.noun("cards in your Landmarks", Whose::Yours)?.filter;
        f.whose = Whose::Yours;
        let count = format!("count({})", filter_str(&f, self.ctx));
        // From one card up: the choice of up to k modes, k from 1 to the number of modes.
        let mut steps: Vec<NStep> = Vec::new();
        for k in 1..=modes.len() {
            let cond = cmp_str(&count, Cmp::Ge, k as i16);
            steps = vec![NStep::If(cond, up_to_k(&modes, k), steps)];
        }
        Ok(Some((steps, i)))
    }
}

/// Up to `k` of the modes, each done in the printed order: one of them when `k` is 1 (or
/// none: optional unless a mode may do nothing by itself); otherwise one of the sets of
/// `k` modes (all of them when `k` is their number), each mode of the set optional unless
/// it may do nothing by itself.
fn up_to_k(modes: &[Vec<NStep>], k: usize) -> Vec<NStep> {
    if k == 1 {
        let choose = NStep::Choose(modes.to_vec());
        return if modes.iter().any(|m| optional_by_itself(m)) {
            vec![choose]
        } else {
            vec![NStep::May(vec![choose])]
        };
    }
    let optional = |m: &Vec<NStep>| {
        if optional_by_itself(m) {
            m.clone()
        } else {
            vec![NStep::May(m.clone())]
        }
    };
    let sets: Vec<Vec<NStep>> = subsets(modes.len(), k)
        .into_iter()
        .map(|set| set.into_iter().flat_map(|i| optional(&modes[i])).collect())
        .collect();
    match <[Vec<NStep>; 1]>::try_from(sets) {
        Ok([one]) => one,
        Err(sets) => vec![NStep::Choose(sets)],
    }
}

/// A target Expedition moved back a region and, if it moved, the other Expedition of its
/// controller moved forward a region (either side's, D21), or of a target Expedition of
/// yours and your other one: a choice of the
/// expedition that goes back (mine, Hero first, then the opponent's), the other one of its
/// side going forward only if it did.
fn back_then_other_forward(a: &str, b: &str) -> Option<Vec<NStep>> {
    let sides: &[&str] = match (a, b) {
        (
            "Target Expedition @moves_back",
            "If it does, its controller moves their\x20other Expedition forward one region",
        ) => &["yours", "opposing"],
        (
            "Target Expedition you control @moves_back",
            "If it does, move your other Expedition\x20forward one region",
        ) => &["yours"],
        _ => return None,
    };
    let mut modes = Vec::new();
    for side in sides {
        for (back, fwd) in [
            ("Fixed(Hero)", "Fixed(Companion)"),
            ("Fixed(Companion)", "Fixed(Hero)"),
        ] {
            modes.push(vec![
                op("back", &[back, side]),
                NStep::If("Did".into(), vec![op("forward", &[fwd, side])], Vec::new()),
            ]);
        }
    }
    Some(vec![NStep::Choose(modes)])
}

#[cfg(test)]
mod tests {
    use crate::cards::textread::{Verdict, check, verdict_of};

    #[test]
    fn a_landmark_token_in_its_controllers_landmarks() {
        let text = "{H} You may return qq target Permanent to its qq owner's hand. If you do, qq create a [Manaseed] token in qq its controller's Landmarks.";
        let good = "H: may { to_hand(target permanent); token(Manaseed, its) }";
        check(
            text,
            &[good],
            &[
                &["H: may { to_hand(target permanent); token(Manaseed) }"],
                &["H: may { to_hand(target permanent); token(Manaseed, opponent) }"],
                &["H: may { to_hand(target permanent); token(Manaseed, its, 2) }"],
                &["H: may { to_hand(target permanent); token(Aerolith, its) }"],
                &["H: to_hand(target permanent); token(Manaseed, its)"],
                &["H: may { to_hand(target permanent) }; token(Manaseed, its)"],
            ],
        );
        check(
            "{R} You may discard qq target Character. If you do, qq create an [Aerolith] token qq in its controller's Landmarks.",
            &["R: may { discard(target character); token(Aerolith, its) }"],
            &[
                &["R: may { discard(target character); token(Aerolith) }"],
                &["R: may { discard(target character); token(Aerolith, each) }"],
                &["R: may { to_hand(target character); token(Aerolith, its) }"],
            ],
        );
    }

    #[test]
    fn a_permanent_you_control_or_a_card_in_your_reserve_is_exhausted() {
        let text = "{H} Exhaust a Permanent qq you control or a card qq in your Reserve.";
        let good = "H: if count(permanent yours) >= 1 and count(card yours in_reserve) >= 1 { choose { exhaust(target permanent yours) } or { exhaust(target card yours in_reserve) } } else if count(permanent yours) >= 1 { exhaust(target permanent yours) } else { exhaust(target card yours in_reserve) }";
        check(
            text,
            &[good],
            &[
                // Either side's Permanent, the opponent's Reserve, a ready one.
                &[&good.replace(
                    "exhaust(target permanent yours)",
                    "exhaust(target permanent)",
                )],
                &[&good.replace(
                    "exhaust(target card yours in_reserve)",
                    "exhaust(target card opposing in_reserve)",
                )],
                &[&good.replace(
                    "{ exhaust(target permanent yours) } or",
                    "{ ready(target permanent yours) } or",
                )],
                // Optional, or only one of the two.
                &[&format!("H: may {{ {} }}", &good[3..])],
                &["H: exhaust(target permanent yours)"],
                &[
                    "H: choose { exhaust(target permanent yours) } or { exhaust(target card yours in_reserve) }",
                ],
            ],
        );
    }

    #[test]
    fn each_player_exhausts_a_permanent_or_a_reserve_card_of_their_choice() {
        let text =
            "{H} Each player exhausts a qq Permanent they control or a card qq in their Reserve.";
        let mine = "if count(permanent yours) >= 1 and count(card yours in_reserve) >= 1 { choose { exhaust(target permanent yours) } or { exhaust(target card yours in_reserve) } } else if count(permanent yours) >= 1 { exhaust(target permanent yours) } else { exhaust(target card yours in_reserve) }";
        let theirs = "if count(permanent opposing) >= 1 and count(card opposing in_reserve) >= 1 { opponent_choose { opponent_select(permanent opposing); exhaust(it) } or { opponent_select(card opposing in_reserve); exhaust(it) } } else if count(permanent opposing) >= 1 { opponent_select(permanent opposing); exhaust(it) } else { opponent_select(card opposing in_reserve); exhaust(it) }";
        let good = format!("H: {mine}; {theirs}");
        check(
            text,
            &[&good],
            &[
                // The opponent's choice made by the player, or none (its Permanent first).
                &[&good.replace("opponent_choose", "choose")],
                &[&format!(
                    "H: {mine}; if count(permanent opposing) >= 1 {{ opponent_select(permanent opposing); exhaust(it) }} else if count(card opposing in_reserve) >= 1 {{ opponent_select(card opposing in_reserve); exhaust(it) }}"
                )],
                // The player's own part only, or the opponent's objects chosen by the player.
                &[&format!("H: {mine}")],
                &[&good.replace(
                    "{ opponent_select(card opposing in_reserve); exhaust(it) } }",
                    "{ exhaust(target card opposing in_reserve) } }",
                )],
                // Another zone or side for the opponent's card, or readied.
                &[&good.replace(
                    "opponent_select(card opposing in_reserve)",
                    "opponent_select(card opposing in_hand)",
                )],
                &[&good.replace(
                    "opponent_select(permanent opposing)",
                    "opponent_select(permanent yours)",
                )],
                &[&good.replace("exhaust(it)", "ready(it)")],
                &[&good.replacen("H:", "R:", 1)],
            ],
        );
    }

    #[test]
    fn a_discarded_targets_controller_draws_when_its_base_cost_is_high() {
        let text = "{H} Discard target Character qq or Permanent. If its qq Base Cost was {3} qq or more, its controller qq draws a card.";
        let good = "H: select(character permanent); if it_is(character permanent yours base_cost>=3) { discard(it); draw } else if it_is(character permanent base_cost>=3) { discard(it); opponent_draws } else { discard(it) }";
        check(
            text,
            &[good],
            &[
                // A wrong cost, side, drawer, amount or zone.
                &[&good.replace(">=3", ">=2")],
                &[&good.replace("yours base_cost>=3", "opposing base_cost>=3")],
                &[&good.replace("{ discard(it); draw }", "{ discard(it); opponent_draws }")],
                &[&good.replace("opponent_draws", "draw")],
                &[&good.replace("{ discard(it); draw }", "{ discard(it); draw(2) }")],
                &[&good.replace("discard(it)", "to_hand(it)")],
                &[&good.replace("select(character permanent)", "select(character)")],
                // No draw for a cheap one, or a draw for any.
                &["H: discard(target character permanent); draw"],
            ],
        );
    }

    #[test]
    fn you_may_target_a_character_then_effects_on_it() {
        let text = "{H} You may target qq a Character. If you qq do, it gains [[Asleep]], qq then create a [Manaseed] qq token in its controller's qq Landmarks.";
        let good = "H: may { gain(target character, asleep); token(Manaseed, its) }";
        check(
            text,
            &[good],
            &[
                &["H: gain(target character, asleep); token(Manaseed, its)"],
                &["H: may { gain(target character, anchored); token(Manaseed, its) }"],
                &["H: may { gain(target character yours, asleep); token(Manaseed, its) }"],
                &["H: may { gain(target character, asleep); token(Manaseed) }"],
                &["H: may { gain(target character, asleep) }"],
            ],
        );
        let text = "{H} You may target qq a Character, it gains qq [[Asleep]]. If you control qq it, create a [Manaseed] qq token in your Landmarks.";
        let good = "H: may { gain(target character, asleep); if it_is(character yours) { token(Manaseed) } }";
        check(
            text,
            &[good],
            &[
                &["H: may { gain(target character, asleep); token(Manaseed) }"],
                &[
                    "H: may { gain(target character, asleep); if it_is(character opposing) { token(Manaseed) } }",
                ],
                &[
                    "H: may { gain(target character, asleep); if it_is(character yours) { token(Manaseed, its) } }",
                ],
                &[
                    "H: may { gain(target character, asleep) }; if it_is(character yours) { token(Manaseed) }",
                ],
                &[
                    "H: gain(target character, asleep); if it_is(character yours) { token(Manaseed) }",
                ],
            ],
        );
    }

    #[test]
    fn a_choice_of_up_to_the_number_of_cards_in_your_landmarks() {
        let text = "{T} : Choose up qq to the number of qq cards in your Landmarks: • Create qq an [Ordis Recruit 1/1/1] qq Soldier token in a qq Companion Expedition. • Create one qq in a Hero Expedition. qq • Up to two target qq Characters gain 1 boost.";
        let a = "token(Ordis Recruit, any_companion)";
        let b = "token(Ordis Recruit, any_hero)";
        let c = "boost(up_to 2 character, 1)";
        let good = format!(
            "quick(T): if count(card yours in_landmarks) >= 3 {{ may {{ {a} }}; may {{ {b} }}; {c} }} else if count(card yours in_landmarks) >= 2 {{ choose {{ may {{ {a} }}; may {{ {b} }} }} or {{ may {{ {a} }}; {c} }} or {{ may {{ {b} }}; {c} }} }} else if count(card yours in_landmarks) >= 1 {{ choose {{ {a} }} or {{ {b} }} or {{ {c} }} }}"
        );
        check(
            text,
            &[&good],
            &[
                // A wrong count, the cards of another zone, a mode lost, the second token
                // of another kind or expedition, a boost of 2, every mode with one card.
                &[&good.replacen(">= 3", ">= 4", 1)],
                &[&good.replace("card yours in_landmarks", "card yours in_reserve")],
                &[&good.replace("card yours in_landmarks", "card any in_landmarks")],
                &[&good.replacen(
                    "or { may { token(Ordis Recruit, any_hero) }; boost(up_to 2 character, 1) } ",
                    "",
                    1,
                )],
                &[&good.replace(b, "token(Ordis Recruit, any_companion)")],
                &[&good.replace(b, "token(Ordis Recruit, hero)")],
                &[&good.replace(b, "token(Brassbug, any_hero)")],
                &[&good.replace(c, "boost(up_to 2 character, 2)")],
                &[&good.replace(
                    "choose { token(Ordis Recruit, any_companion) } or { token(Ordis Recruit, any_hero) } or { boost(up_to 2 character, 1) }",
                    "may { token(Ordis Recruit, any_companion) }; may { token(Ordis Recruit, any_hero) }; boost(up_to 2 character, 1)",
                )],
                &[&good.replace("may { token(Ordis Recruit, any_companion) }", "token(Ordis Recruit, any_companion)")],
            ],
        );
    }

    #[test]
    fn choose_one_or_exhaust_a_permanent_to_choose_both() {
        let text = "{R} Choose one, or qq exhaust a Permanent you qq control to choose both: qq • [Sabotage]. • Create qq a [Manaseed] token in qq your Landmarks.";
        let good = "R: if count(permanent yours ready) >= 1 { choose { sabotage } or { token(Manaseed) } or { exhaust(target permanent yours ready); sabotage; token(Manaseed) } } else { choose { sabotage } or { token(Manaseed) } }";
        check(
            text,
            &[good],
            &[
                // An exhausted Permanent paid with, the opponent's, both without paying,
                // one mode lost, the token elsewhere.
                &[&good.replace("permanent yours ready", "permanent yours")],
                &[&good.replace(
                    "exhaust(target permanent yours ready)",
                    "exhaust(target permanent opposing)",
                )],
                &["R: choose { sabotage } or { token(Manaseed) } or { sabotage; token(Manaseed) }"],
                &["R: choose { sabotage } or { token(Manaseed) }"],
                &[&good.replace("} else { choose { sabotage } or { token(Manaseed) } }", "}")],
                &[&good.replace("token(Manaseed) }", "token(Manaseed, opponent) }")],
                &[&format!("R: may {{ {} }}", &good[3..])],
            ],
        );
    }

    #[test]
    fn one_token_per_card_in_your_landmarks_in_a_target_expedition() {
        let text = "{T} : Target an qq Expedition, then create one qq [Ordis Recruit 1/1/1] Soldier token qq in it per card qq in your Landmarks, up qq to three per activation.";
        let good = "quick(T): select_exp(any); if count(card yours in_landmarks) >= 1 { token(Ordis Recruit, selected) }; if count(card yours in_landmarks) >= 2 { token(Ordis Recruit, selected) }; if count(card yours in_landmarks) >= 3 { token(Ordis Recruit, selected) }";
        check(
            text,
            &[good],
            &[
                // Your own expeditions only, a fourth token, one token fewer, the cards of
                // the Reserve, tokens in my expedition.
                &[&good.replace("select_exp(any)", "select_exp(yours)")],
                &[&format!(
                    "{good}; if count(card yours in_landmarks) >= 4 {{ token(Ordis Recruit, selected) }}"
                )],
                &[&good.replace(
                    "; if count(card yours in_landmarks) >= 3 { token(Ordis Recruit, selected) }",
                    "",
                )],
                &[&good.replace("in_landmarks", "in_reserve")],
                &[&good.replace("selected)", "mine)")],
            ],
        );
    }

    #[test]
    fn the_opponents_resupply_as_a_cost_and_two_statuses_tough() {
        let text = "{T}, Target opponent qq [Resupplies]: The next qq Character you play this qq turn with Base Cost qq {3} or less gains qq [[Anchored]].";
        let good = "quick(T): opponent_resupply; next_gain(character base_cost<=3, anchored)";
        check(
            text,
            &[good],
            &[
                &["quick(T): resupply; next_gain(character base_cost<=3, anchored)"],
                &["quick(T): next_gain(character base_cost<=3, anchored)"],
                &["quick(T): opponent_resupply; next_gain(character cost<=3, anchored)"],
                &["quick(T): opponent_resupply; next_gain(character base_cost<=2, anchored)"],
                &["quick(T): opponent_resupply; next_gain(character base_cost<=3, asleep)"],
                &["quick(1, T): opponent_resupply; next_gain(character base_cost<=3, anchored)"],
            ],
        );
        let text = "[[Anchored]] and [[Asleep]] qq Characters you control are qq [Tough 1].";
        check(
            text,
            &[
                "static tough_aura(character anchored, 1)",
                "static tough_aura(character asleep not_anchored, 1)",
            ],
            &[
                // One of the two, both counted twice, another Tough, the opponent's.
                &["static tough_aura(character anchored, 1)"],
                &[
                    "static tough_aura(character anchored, 1)",
                    "static tough_aura(character asleep, 1)",
                ],
                &[
                    "static tough_aura(character anchored, 2)",
                    "static tough_aura(character asleep not_anchored, 2)",
                ],
                &[
                    "static tough_aura(character opposing anchored, 1)",
                    "static tough_aura(character opposing asleep not_anchored, 1)",
                ],
            ],
        );
    }

    #[test]
    fn a_landmark_sacrificed_to_play_one_for_free_up_to_its_cost_plus_n() {
        let text = "At Noon — If there qq are three or more cards qq in your Landmarks, you qq may sacrifice one. If qq you do, play for free qq a Landmark Permanent with qq a max Hand Cost of qq {2} more than the qq sacrificed card.";
        let good = "noon: if count(card yours in_landmarks) >= 3 { may { select(card yours in_landmarks); set_x(it_cost); sacrifice(it); if did { play_now(landmark cost<=x+2, free) } } }";
        check(
            text,
            &[good],
            &[
                // From hand only, optional, another bound or count, another kind, not
                // optional, a discard instead.
                &[&good.replace(
                    "play_now(landmark cost<=x+2, free)",
                    "play_free(landmark cost<=x+2)",
                )],
                &[&good.replace("free)", "free, may)")],
                &[&good.replace("x+2", "x+1")],
                &[&good.replace(">= 3", ">= 2")],
                &[&good.replace("play_now(landmark", "play_now(card")],
                &[
                    "noon: if count(card yours in_landmarks) >= 3 { select(card yours in_landmarks); set_x(it_cost); sacrifice(it); if did { play_now(landmark cost<=x+2, free) } }",
                ],
                &[&good.replace("sacrifice(it)", "discard(it)")],
            ],
        );
    }

    #[test]
    fn you_may_exhaust_a_target_if_you_do_is_a_ready_target() {
        let text = "{J} You may exhaust qq target card in any qq player's Reserve. If you qq do, create a [Manaseed] qq token in that player's qq Landmarks.";
        let good = "J: may { if count(card any ready in_reserve) >= 1 { exhaust(target card any ready in_reserve); token(Manaseed, its) } }";
        check(
            text,
            &[good],
            &[
                // An exhausted one allowed, one Reserve only, the token always yours or
                // the opponent's, not optional, the token whether or not one was exhausted.
                &[&good.replace(" ready", "")],
                &[&good.replace("card any", "card yours")],
                &[&good.replace("token(Manaseed, its)", "token(Manaseed)")],
                &[&good.replace("token(Manaseed, its)", "token(Manaseed, opponent)")],
                &[
                    "J: if count(card any ready in_reserve) >= 1 { exhaust(target card any ready in_reserve); token(Manaseed, its) }",
                ],
                &[
                    "J: may { if count(card any ready in_reserve) >= 1 { exhaust(target card any ready in_reserve) } }; token(Manaseed, its)",
                ],
            ],
        );
    }

    #[test]
    fn a_defender_whose_expedition_in_contact_is_not_blocked_by_defenders() {
        let text = "If my qq Expedition is [In qq Contact], [Defender] Characters don't qq prevent it from moving forward.";
        let good = "static defender_no_block if in_contact";
        check(
            text,
            &[good],
            &[
                &["static defender_no_block"],
                &["static defender_no_block if behind"],
                &["static defender_no_block if not in_contact"],
            ],
        );
        // "I'm [Defender]" is the keyword (which the test card, Ratatoskr, lacks): read
        // as the keyword and nothing else.
        let with_keyword = format!("I'm [Defender]. {text}");
        assert_eq!(
            verdict_of(&[good], &with_keyword),
            Verdict::Declared("disagree: text reads [keyword defender:], encoding does []".into())
        );
    }

    #[test]
    fn a_card_of_a_kind_from_hand_to_reserve_or_a_permanent_sacrificed() {
        let text = "{H} You may put qq a Permanent from your qq hand in Reserve. If qq you don't, sacrifice a qq Permanent.";
        let good = "H: may { send_reserve(target permanent yours in_hand) }; if not did { sacrifice(target permanent yours) }";
        check(
            text,
            &[good],
            &[
                // Another kind, from the Reserve, not optional, the sacrifice always or
                // of the opponent's or of me.
                &[&good.replace("send_reserve(target permanent", "send_reserve(target spell")],
                &[&good.replace("in_hand", "in_reserve")],
                &[
                    "H: send_reserve(target permanent yours in_hand); if not did { sacrifice(target permanent yours) }",
                ],
                &[
                    "H: may { send_reserve(target permanent yours in_hand) }; sacrifice(target permanent yours)",
                ],
                &[&good.replace(
                    "sacrifice(target permanent yours)",
                    "sacrifice(target permanent opposing)",
                )],
                &[&good.replace("sacrifice(target permanent yours)", "sacrifice(me)")],
            ],
        );
    }

    #[test]
    fn a_permanent_sacrificed_as_a_quick_actions_cost() {
        let text = "{T}, {1}, Sacrifice a qq Permanent: create a [Brassbug qq 2/2/2] Robot token in qq target Expedition.";
        let good = "quick(1, T): sacrifice(target permanent yours); token(Brassbug, target)";
        check(
            text,
            &[good],
            &[
                &["quick(1, T): token(Brassbug, target)"],
                &["quick(T): sacrifice(target permanent yours); token(Brassbug, target)"],
                &["quick(1, T): sacrifice(target character yours); token(Brassbug, target)"],
                &["quick(1, T): sacrifice(target permanent yours); token(Brassbug, mine)"],
            ],
        );
    }

    #[test]
    fn a_target_expedition_back_and_its_sides_other_one_forward() {
        let text = "Target Expedition moves qq backwards one region. If qq it does, its controller qq moves their other Expedition qq forward one region.";
        let mode = |b: &str, f: &str, opp: &str| {
            format!("{{ {opp}back({b}); if did {{ {opp}forward({f}) }} }}")
        };
        let good = format!(
            "spell: choose {} or {} or {} or {}",
            mode("hero", "companion", ""),
            mode("companion", "hero", ""),
            mode("hero", "companion", "opponent_"),
            mode("companion", "hero", "opponent_"),
        );
        let mine = format!(
            "spell: choose {} or {}",
            mode("hero", "companion", ""),
            mode("companion", "hero", "")
        );
        check(
            &format!("{{R}} {text}"),
            &[&good.replace("spell:", "R:")],
            &[
                // Only mine, forward whether or not it went back, the other side forward.
                &[&mine.replace("spell:", "R:")],
                &[&good
                    .replace("spell:", "R:")
                    .replace("if did { forward(companion) }", "forward(companion)")],
                &[&good.replace("spell:", "R:").replacen(
                    "if did { forward(companion) }",
                    "if did { opponent_forward(companion) }",
                    1,
                )],
            ],
        );
        let text = "{R} Target Expedition you qq control moves backwards one qq region. If it does, qq move your other Expedition qq forward one region.";
        check(
            text,
            &[&mine.replace("spell:", "R:")],
            &[
                &[&good.replace("spell:", "R:")],
                &[&mine
                    .replace("spell:", "R:")
                    .replace("forward(hero)", "forward(companion)")],
            ],
        );
    }
}
