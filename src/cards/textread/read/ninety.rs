//! Forms taught to bring the CYCLONE and BISE sets to 90% verified (issue 49, item 5): a
//! card of a kind put from your hand in Reserve, a quick action of a Permanent that
//! sacrifices a Permanent as its cost, a join event of either of two kinds ("a Robot or a
//! token"), a move to Reserve with a test of the boosts I had, and the X of three BISE Spells that counts their Arcane counters (X more
//! repetitions, X more choices, a Hand Cost bound of X plus N).
//! Each answers `None` for a sentence it does not know, so the reader stays strict.

use super::super::norm::{NStep, filter_str, op, target_str};
use super::super::reduce::cmp_str;
use super::Reader;
use super::cydust::subsets;
use crate::cards::effect::{Cmp, Filter, Where, Whose, fkind, fzone};

fn trimmed(s: &str) -> &str {
    s.trim().trim_end_matches('.').trim()
}

/// The X that counts a card's own named counters, in the normal form's words.
const MY_COUNTERS: &str = "MyCounters";

/// The sides whose Expeditions a target Expedition moved back one region may be: only
/// yours ("you control"); `None` for another sentence (any target Expedition moved back is
/// read by `read/more.rs` as the Expedition selected).
fn back_sides(s: &str) -> Option<&'static [&'static str]> {
    match s {
        "Target Expedition you control @moves_back" => Some(&["yours"]),
        _ => None,
    }
}

/// "Choose X+1" of distinct modes, X my counters: with X = k (k+1 below the number of
/// modes) a choice of every set of k+1 modes, each done in the printed order; with more,
/// every mode, in order (there are no more distinct modes to choose).
fn choose_x_plus_one(modes: &[Vec<NStep>]) -> Vec<NStep> {
    let all: Vec<NStep> = modes.iter().flatten().cloned().collect();
    let mut steps = all;
    for k in (0..modes.len() - 1).rev() {
        let sets = subsets(modes.len(), k + 1)
            .into_iter()
            .map(|set| set.iter().flat_map(|&i| modes[i].clone()).collect())
            .collect();
        steps = vec![NStep::If(
            cmp_str(MY_COUNTERS, Cmp::Eq, k as i16),
            vec![NStep::Choose(sets)],
            steps,
        )];
    }
    steps
}

impl Reader<'_> {
    /// One effect of these forms; `None` when `s` is none of them.
    pub(super) fn n9_effect(&self, s: &str) -> Option<Result<Vec<NStep>, String>> {
        self.n9_effect_inner(s).transpose()
    }

    fn n9_effect_inner(&self, s: &str) -> Result<Option<Vec<NStep>>, String> {
        // The Expedition facing mine is the opponent's one in my lane.
        if s == "The Expedition facing me @moves_back" {
            return Ok(Some(vec![op("back", &["Mine", "opposing"])]));
        }
        // A target Expedition "you control" moved back one region: one of yours.
        if let Some(sides) = back_sides(s) {
            let modes = sides
                .iter()
                .flat_map(|side| {
                    ["Fixed(Hero)", "Fixed(Companion)"].map(|e| vec![op("back", &[e, side])])
                })
                .collect();
            return Ok(Some(vec![NStep::Choose(modes)]));
        }
        // Characters of a Hand Cost or more that you (or the player targeted) control are
        // [Tough N] this Day.
        rx!(
            DAY_TOUGH,
            r"^This Day, Characters with Hand Cost \{(\d+)\} or more you\x20control are \[Tough (\d+)\]$"
        );
        if let Some(c) = DAY_TOUGH.captures(s) {
            return Ok(Some(vec![op("day_tough", &["You", &c[1], &c[2]])]));
        }
        // A card played for free, not optional ("Play X for free"): yours, from hand or
        // Reserve.
        rx!(PLAY_FREE, r"^Play (an? .+?) for free$");
        if let Some(c) = PLAY_FREE.captures(s) {
            let mut f = self.noun(&c[1], Whose::Any)?.filter;
            f.zones = fzone::RESERVE | fzone::HAND;
            return Ok(Some(vec![op(
                "play",
                &["You", &filter_str(&f, self.ctx), "free", "None", "0"],
            )]));
        }
        // Exactly N counters of any kind removed from a target: boosts and the card's
        // other counters in any split of N, all boosts first, then all other counters,
        // then the mixed splits (most boosts first), as "up to N" reads its total of N.
        rx!(REMOVE_N, r"^(?i:remove) (\w+) counters from (.+)$");
        if let Some(c) = REMOVE_N.captures(s)
            && let Some(n) = super::num_word(&c[1])
        {
            let (o, _) = self.obj(&c[2])?;
            if !o.starts_with("target[1-1](") {
                return Err(format!("counters removed from '{}'", &c[2]));
            }
            let mut modes = vec![
                vec![op("boost", &["it", &format!("-{n}")])],
                vec![op("counters", &["it", &format!("-{n}")])],
            ];
            for b in (1..n).rev() {
                modes.push(vec![
                    op("boost", &["it", &format!("-{b}")]),
                    op("counters", &["it", &format!("-{}", n - b)]),
                ]);
            }
            return Ok(Some(vec![op("select", &[&o]), NStep::Choose(modes)]));
        }
        // A target gaining X plus N boosts, X my counters: one boost of their number plus N
        // (never capped, as the other forms of X read it).
        rx!(
            GAINS_X_PLUS,
            r"^(.+?) gains X\+(\d+) boosts, where X is\x20my number of [A-Z][a-z]+ [Cc]ounters$"
        );
        if let Some(c) = GAINS_X_PLUS.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            let n: i16 = c[2].parse().map_err(|_| format!("a number '{}'", &c[2]))?;
            return Ok(Some(vec![op(
                "boost",
                &[&o, &format!("{MY_COUNTERS}+{n}")],
            )]));
        }
        // A Hand Cost bound of X plus N, X my counters: X set to their number, then the
        // bound read against it.
        rx!(
            SEND_X_PLUS,
            r"^Send to Reserve target (.+?) with Hand Cost \{X\}\+\{(\d+)\} or less, where X is\x20my number of [A-Z][a-z]+ [Cc]ounters, then exhaust it$"
        );
        if let Some(c) = SEND_X_PLUS.captures(s) {
            let np = self.noun(&format!("target {}", &c[1]), Whose::Any)?;
            let mut f = np.filter;
            f.cost_max_x = c[2].parse().map_err(|_| format!("a cost '{}'", &c[2]))?;
            let t = target_str(&filter_str(&f, self.ctx), np.min, np.max, false, "");
            return Ok(Some(vec![
                op("set_x", &[MY_COUNTERS]),
                op("move_Reserve", &[&t]),
                op("exhaust", &["it"]),
            ]));
        }
        Ok(None)
    }

    /// The steps of a form of these sets that spans sentences, at the start of `sents`,
    /// and how many sentences it used; `None` when none starts there.
    pub(super) fn n9_sentences(
        &self,
        sents: &[String],
    ) -> Result<Option<(Vec<NStep>, usize)>, String> {
        let t = |i: usize| sents.get(i).map_or("", |s| trimmed(s));
        // The bullets from sentence `from` on: each one's steps, and the index after them.
        let bullets = |from: usize| -> Result<(Vec<Vec<NStep>>, usize), String> {
            let mut modes = Vec::new();
            let mut i = from;
            while i < sents.len() && sents[i].starts_with('•') {
                let (m, used) = super::body::bullet(&sents[i..]);
                modes.push(self.body(&m)?);
                i += used;
            }
            Ok((modes, i))
        };
        // "Do the following X+1 times, X my counters: • E": E, then E once per counter.
        rx!(
            X_PLUS_ONE_TIMES,
            r"^Do the following X\+1\x20times, where X is\x20my number of [A-Z][a-z]+ counters:$"
        );
        if X_PLUS_ONE_TIMES.is_match(t(0)) {
            let (modes, i) = bullets(1)?;
            let [e] = modes.as_slice() else {
                return Err(format!("one bullet after '{}'", t(0)));
            };
            let mut out = e.clone();
            out.push(NStep::Repeat(MY_COUNTERS.into(), e.clone()));
            return Ok(Some((out, i)));
        }
        // "Choose X+1", X my counters: of distinct modes, or, when the same option may be
        // picked again, one choice of a mode, then one more per counter.
        rx!(
            CHOOSE_X_PLUS_ONE,
            r"^Choose X\+1, where X is\x20my number of [A-Z][a-z]+ counters(:?)$"
        );
        if let Some(c) = CHOOSE_X_PLUS_ONE.captures(t(0)) {
            let again = c[1].is_empty();
            if again && t(1) != "You may pick the same\x20option multiple times:" {
                return Err(format!("a choice '{}'", t(0)));
            }
            let (modes, i) = bullets(if again { 2 } else { 1 })?;
            if modes.len() < 2 {
                return Err("a choice with fewer than two modes".into());
            }
            let out = if again {
                let one = NStep::Choose(modes);
                vec![one.clone(), NStep::Repeat(MY_COUNTERS.into(), vec![one])]
            } else {
                choose_x_plus_one(&modes)
            };
            return Ok(Some((out, i)));
        }
        // "You may sacrifice a X or Y. If you do, Z": of two kinds one filter cannot join
        // (a Robot, a Character subtype, or a Permanent), the one you choose, then Z if one
        // was sacrificed.
        rx!(
            MAY_SACRIFICE_EITHER,
            r"^You may sacrifice (an? [A-Z][a-z]+) or ([A-Z][a-z]+)$"
        );
        if let Some(c) = MAY_SACRIFICE_EITHER.captures(t(0))
            && let Some(z) = t(1).strip_prefix("If you do, ")
            && self
                .noun(&format!("{} or {}", &c[1], &c[2]), Whose::Yours)
                .is_err()
        {
            let then = self.clause(z)?;
            let mut modes = Vec::new();
            for w in [c[1].to_string(), format!("a {}", &c[2])] {
                let mut f = self.noun(&w, Whose::Yours)?.filter;
                f.whose = Whose::Yours;
                let t = target_str(&filter_str(&f, self.ctx), 1, 1, false, "");
                modes.push(vec![
                    op("move_Sacrifice", &[&t]),
                    NStep::If("Did".into(), then.clone(), Vec::new()),
                ]);
            }
            return Ok(Some((vec![NStep::May(vec![NStep::Choose(modes)])], 2)));
        }
        // "Target a player. This Day, Characters ... that they control are [Tough N]": you
        // or the opponent.
        rx!(
            THEIR_DAY_TOUGH,
            r"^This Day, Characters with Hand Cost \{(\d+)\} or more that they\x20control are \[Tough (\d+)\]$"
        );
        if t(0) == "Target a player"
            && let Some(c) = THEIR_DAY_TOUGH.captures(t(1))
        {
            let mode = |who: &str| vec![op("day_tough", &[who, &c[1], &c[2]])];
            return Ok(Some((
                vec![NStep::Choose(vec![mode("You"), mode("Opponent")])],
                2,
            )));
        }
        // Every boost removed from the Characters in play and in Reserve, then bullets by
        // how many were removed ("1-4: ...", "9+: ...").
        if t(0) == "Remove all boosts from\x20Characters in play and in Reserve"
            && t(1) == "Then, depending on the\x20number of boosts removed this way:"
        {
            let f = Filter {
                kinds: fkind::CHARACTER,
                zones: fzone::EXPEDITION | fzone::RESERVE,
                ..Filter::default()
            };
            let fs = filter_str(&f, self.ctx);
            let mut out = vec![
                op("set_x", &[&format!("boosts_of({fs})")]),
                op("boost", &[&format!("each({fs})"), "-ItsBoosts"]),
            ];
            rx!(RANGE, r"^• (\d+)(?:-(\d+)|\+): (.+)$");
            let mut i = 2;
            while let Some(c) = RANGE.captures(t(i)) {
                let lo: i16 = c[1].parse().map_err(|_| "a number")?;
                let cond = match c.get(2) {
                    Some(hi) => format!(
                        "({} and {})",
                        cmp_str("X", Cmp::Ge, lo),
                        cmp_str("X", Cmp::Le, hi.as_str().parse().map_err(|_| "a number")?)
                    ),
                    None => cmp_str("X", Cmp::Ge, lo),
                };
                out.push(NStep::If(cond, self.body(&[c[3].to_string()])?, Vec::new()));
                i += 1;
            }
            if i == 2 {
                return Err(format!("the bullets after '{}'", t(1)));
            }
            return Ok(Some((out, i)));
        }
        Ok(None)
    }

    /// The test that "it" (a card in `zones`) is `what`: one filter, or, for "a X or Y"
    /// of two that one filter cannot join (a Robot, a Character subtype, or a Permanent),
    /// the test that it is either, in the printed order.
    pub(super) fn n9_it_is_either(&self, what: &str, zones: u8) -> Result<String, String> {
        let one = |w: &str| -> Result<String, String> {
            let mut f = self.noun(w, Whose::Any)?.filter;
            f.whose = Whose::Any;
            f.zones = zones;
            Ok(format!("it_is({})", filter_str(&f, self.ctx)))
        };
        match one(what) {
            Ok(t) => Ok(t),
            Err(e) => {
                rx!(EITHER, r"^(an? [A-Z][a-z]+) or ([A-Z][a-z]+)$");
                let Some(c) = EITHER.captures(what) else {
                    return Err(e);
                };
                Ok(format!(
                    "({} or {})",
                    one(&c[1])?,
                    one(&format!("a {}", &c[2]))?
                ))
            }
        }
    }

    /// Events read as another event and a condition around the body: "When an X or an Y
    /// joins my Expedition" is the join event of any Character in my Expedition and the
    /// test that it is one of the two; my move from the Expedition zone to your Reserve
    /// with "if I had N or more boosts" is that move and a test of the boosts I had when I
    /// left. The trigger and the condition; `None` when `what` is neither.
    pub(super) fn n9_when(&self, what: &str) -> Option<Result<(String, String), String>> {
        self.n9_when_inner(what).transpose()
    }

    fn n9_when_inner(&self, what: &str) -> Result<Option<(String, String)>, String> {
        rx!(
            TO_RESERVE_HAD,
            r"^I go to your Reserve @from_exp, if I had (\w+) or more boosts$"
        );
        if let Some(c) = TO_RESERVE_HAD.captures(what) {
            let n = super::num_word(&c[1]).ok_or_else(|| format!("a number '{}'", &c[1]))?;
            return Ok(Some((
                "when ToReserve { from_expedition: true }".to_string(),
                cmp_str("MyLeftBoosts", Cmp::Ge, n),
            )));
        }
        rx!(
            EITHER_JOINS,
            r"^(an? [A-Za-z]+) or (an? [A-Za-z]+) joins my Expedition$"
        );
        let Some(c) = EITHER_JOINS.captures(what) else {
            return Ok(None);
        };
        let one = |w: &str| -> Result<String, String> {
            let mut f = Filter {
                kinds: fkind::CHARACTER,
                zones: fzone::EXPEDITION,
                ..Filter::default()
            };
            if w == "a token" {
                f.token = Some(true);
            } else {
                let n = self.noun(w, Whose::Any)?.filter;
                if n.subtypes == 0 || n.kinds & fkind::CHARACTER == 0 {
                    return Err(format!("an object '{w}'"));
                }
                f.subtypes = n.subtypes;
            }
            Ok(format!("it_is({})", filter_str(&f, self.ctx)))
        };
        let cond = format!("({} or {})", one(&c[1])?, one(&c[2])?);
        let ev = Filter {
            kinds: fkind::CHARACTER,
            place: Where::MyExpedition,
            ..Filter::default()
        };
        Ok(Some((format!("when joins({})", self.event(ev)), cond)))
    }
}

#[cfg(test)]
mod tests {
    use crate::cards::textread::{Verdict, check, verdict_of};

    #[test]
    fn a_join_event_of_either_of_two_kinds() {
        let text = "When a Robot or a token qq joins my Expedition — qq I gain 1 boost.";
        check(
            text,
            &[
                "when joins(character in_my_expedition): if it_is(robot) or it_is(token) { boost(me, 1) }",
            ],
            &[
                &["when joins(character in_my_expedition): if it_is(robot) { boost(me, 1) }"],
                &["when joins(character): if it_is(robot) or it_is(token) { boost(me, 1) }"],
                &[
                    "when joins(character in_my_expedition): if it_is(robot) or it_is(token) { boost(me, 2) }",
                ],
                &[
                    "when joins(character in_my_expedition): if it_is(plant) or it_is(token) { boost(me, 1) }",
                ],
                // A join filter naming the other side never fires (the event is my side's).
                &[
                    "when joins(character opposing in_my_expedition): if it_is(robot) or it_is(token) { boost(me, 1) }",
                ],
            ],
        );
        // Naming my side, as the event does, is the same trigger.
        let yours = "when joins(character yours in_my_expedition): if it_is(robot) or it_is(token) { boost(me, 1) }";
        assert_eq!(verdict_of(&[yours], text), Verdict::Verified);
    }

    #[test]
    fn a_move_to_reserve_with_a_test_of_the_boosts_i_had() {
        let text = "When I go to your Reserve qq from the Expedition zone, if qq I had 2 or more boosts qq — Draw a card.";
        check(
            text,
            &["when to_reserve if had_boosts >= 2: draw"],
            &[
                &["when to_reserve if had_boosts >= 3: draw"],
                &["when to_reserve: draw"],
                &["when to_reserve(any) if had_boosts >= 2: draw"],
                &["when to_reserve if boosts >= 2: draw"],
                &["when to_reserve if had_boosts >= 2: may { draw }"],
            ],
        );
    }

    #[test]
    fn characters_of_a_hand_cost_or_more_tough_this_day() {
        let text =
            "{H} This Day, Characters with qq Hand Cost {4} or more qq you control are [Tough 5].";
        check(
            text,
            &["H: day_tough(cost>=4, 5)"],
            &[
                &["H: day_tough(cost>=3, 5)"],
                &["H: day_tough(cost>=4, 4)"],
                &["H: opponent_day_tough(cost>=4, 5)"],
                &["H: choose { day_tough(cost>=4, 5) } or { opponent_day_tough(cost>=4, 5) }"],
            ],
        );
        let text = "{H} Target a player. This Day, qq Characters with Hand Cost {3} qq or more that they control qq are [Tough 5].";
        check(
            text,
            &["H: choose { day_tough(cost>=3, 5) } or { opponent_day_tough(cost>=3, 5) }"],
            &[
                &["H: day_tough(cost>=3, 5)"],
                &["H: choose { day_tough(cost>=3, 5) } or { opponent_day_tough(cost>=4, 5) }"],
                &[
                    "H: may { choose { day_tough(cost>=3, 5) } or { opponent_day_tough(cost>=3, 5) } }",
                ],
            ],
        );
    }

    #[test]
    fn a_target_expedition_you_control_moved_back() {
        let text = "{H} Target Expedition you control qq moves backwards one region.";
        check(
            text,
            &["H: choose { back(hero) } or { back(companion) }"],
            &[
                &["H: opponent_back(target)"],
                &[
                    "H: choose { back(hero) } or { back(companion) } or { opponent_back(hero) } or { opponent_back(companion) }",
                ],
                &["H: choose { forward(hero) } or { forward(companion) }"],
            ],
        );
    }

    #[test]
    fn a_robot_or_permanent() {
        let text = "{H} You may sacrifice a qq Robot or Permanent. If you qq do, I gain 2 boosts.";
        let mode = |k: &str, n: u8| {
            format!("{{ sacrifice(target {k} yours); if did {{ boost(me, {n}) }} }}")
        };
        let good = format!(
            "H: may {{ choose {} or {} }}",
            mode("robot", 2),
            mode("permanent", 2)
        );
        check(
            text,
            &[&good],
            &[
                &[&format!(
                    "H: choose {} or {}",
                    mode("robot", 2),
                    mode("permanent", 2)
                )],
                &[&format!(
                    "H: may {{ choose {} or {} }}",
                    mode("robot", 2),
                    mode("permanent", 3)
                )],
                &[&format!(
                    "H: may {{ choose {} or {} }}",
                    mode("robot", 2),
                    mode("plant", 2)
                )],
                &[&good.replace("robot yours", "robot opposing")],
            ],
        );
        let text = "At Dusk — Reveal the top card qq of your deck. If it's a qq Robot or Permanent, draw it. qq Otherwise, discard it.";
        let good = "dusk: reveal_top; if it_is(card robot in_deck) or it_is(permanent in_deck) { draw } else { discard(it) }";
        check(
            text,
            &[good],
            &[
                &["dusk: reveal_top; if it_is(card robot in_deck) { draw } else { discard(it) }"],
                &[
                    "dusk: reveal_top; if it_is(card robot in_deck) or it_is(spell in_deck) { draw } else { discard(it) }",
                ],
                &[
                    "dusk: reveal_top; if it_is(card robot in_deck) or it_is(permanent in_deck) { discard(it) } else { draw }",
                ],
            ],
        );
    }

    #[test]
    fn the_next_card_that_you_play() {
        let text = "{T}, Spend 3 of my qq Performance counters: The next qq Character with a base statistic qq of 0 that you play qq this turn loses [[Fleeting]].";
        check(
            text,
            &["quick(T, counters 3): next_lose(character zero_stat, fleeting)"],
            &[
                &["quick(T, counters 3): next_lose(character, fleeting)"],
                &["quick(T, counters 3): next_gain(character zero_stat, fleeting)"],
                &["quick(T, counters 2): next_lose(character zero_stat, fleeting)"],
            ],
        );
    }

    #[test]
    fn x_plus_two_boosts_x_my_counters() {
        let text =
            "{H} Target Character gains X+2 boosts, qq where X is my number of qq Arcane counters.";
        check(
            text,
            &["H: boost(target character, counters+2)"],
            &[
                // X unrolled only up to a cap: past it the card gives fewer.
                &[
                    "H: select(character); if counters = 0 { boost(it, 2) } else if counters = 1 { boost(it, 3) } else if counters = 2 { boost(it, 4) } else { boost(it, 5) }",
                ],
                // Another number added, or none; two gains; a target of one side.
                &["H: boost(target character, counters+1)"],
                &["H: boost(target character, counters+3)"],
                &["H: boost(target character, counters)"],
                &["H: boost(target character, 2)"],
                &["H: boost(target character, 2); boost(it, counters)"],
                &["H: boost(target character yours, counters+2)"],
                &["H: boost(target character, boosts+2)"],
            ],
        );
    }

    #[test]
    fn x_plus_one_times_x_my_counters() {
        let text = "{H} Do the following X+1 qq times, where X is my qq number of Arcane counters: qq • Target Character gains 1 boost.";
        check(
            text,
            &["H: boost(target character, 1); repeat counters { boost(target character, 1) }"],
            &[
                // X unrolled only up to a cap: a card past it would do fewer.
                &[
                    "H: boost(target character, 1); if counters >= 1 { boost(target character, 1) }; if counters >= 2 { boost(target character, 1) }; if counters >= 3 { boost(target character, 1) }",
                ],
                // X times, not X+1.
                &["H: repeat counters { boost(target character, 1) }"],
                &["H: boost(target character, 2); repeat counters { boost(target character, 2) }"],
                &[
                    "H: boost(target character yours, 1); repeat counters { boost(target character yours, 1) }",
                ],
                &[
                    "H: may { boost(target character, 1) }; repeat counters { boost(target character, 1) }",
                ],
            ],
        );
    }

    #[test]
    fn choose_x_plus_one_x_my_counters() {
        let text = "{H} Choose X+1, where X qq is my number of Arcane qq counters: • Draw a card. • I gain 1 boost. • [Sabotage].";
        let good = "H: if counters = 0 { choose { draw } or { boost(me, 1) } or { sabotage } } else if counters = 1 { choose { draw; boost(me, 1) } or { draw; sabotage } or { boost(me, 1); sabotage } } else { draw; boost(me, 1); sabotage }";
        check(
            text,
            &[good],
            &[
                // Two modes at most: past two counters it would still choose.
                &[
                    "H: if counters = 0 { choose { draw } or { boost(me, 1) } or { sabotage } } else { choose { draw; boost(me, 1) } or { draw; sabotage } or { boost(me, 1); sabotage } }",
                ],
                // A mode left out.
                &[
                    "H: if counters = 0 { choose { draw } or { boost(me, 1) } } else if counters = 1 { choose { draw; boost(me, 1) } or { draw; sabotage } } else { draw; boost(me, 1); sabotage }",
                ],
                &[
                    "H: if counters = 0 { choose { draw } or { boost(me, 2) } or { sabotage } } else if counters = 1 { choose { draw; boost(me, 2) } or { draw; sabotage } or { boost(me, 2); sabotage } } else { draw; boost(me, 2); sabotage }",
                ],
            ],
        );
        let text = "{H} Choose X+1, where X qq is my number of Arcane qq counters. You may pick qq the same option multiple qq times: • Draw a card. • I gain 1 boost.";
        check(
            text,
            &[
                "H: choose { draw } or { boost(me, 1) }; repeat counters { choose { draw } or { boost(me, 1) } }",
            ],
            &[
                &["H: repeat counters { choose { draw } or { boost(me, 1) } }"],
                &[
                    "H: choose { draw } or { boost(me, 1) }; if counters >= 1 { choose { draw } or { boost(me, 1) } }",
                ],
                &[
                    "H: may { choose { draw } or { boost(me, 1) } }; repeat counters { choose { draw } or { boost(me, 1) } }",
                ],
            ],
        );
        // Without its "same option" sentence, a choice ending in a full stop is not read.
        let text = "{H} Choose X+1, where X qq is my number of Arcane qq counters. • Draw a card. • I gain 1 boost.";
        assert!(matches!(
            verdict_of(&["H: draw"], text),
            Verdict::Declared(why) if why.starts_with("unread")
        ));
    }

    #[test]
    fn a_hand_cost_bound_of_x_plus_n_x_my_counters() {
        let text = "{H} Send to Reserve target Character qq with Hand Cost {X}+{2} or less, qq where X is my number of Arcane qq Counters, then exhaust it.";
        check(
            text,
            &["H: set_x(counters); send_reserve(target character cost<=x+2); exhaust(it)"],
            &[
                &["H: set_x(counters); send_reserve(target character cost<=x+3); exhaust(it)"],
                &["H: send_reserve(target character cost<=2); exhaust(it)"],
                &["H: set_x(counters); send_reserve(target character cost<=x+2)"],
                &[
                    "H: set_x(counters); send_reserve(target character opposing cost<=x+2); exhaust(it)",
                ],
                &["H: set_x(counters); discard(target character cost<=x+2); exhaust(it)"],
            ],
        );
    }

    #[test]
    fn exactly_n_counters_removed_from_a_target() {
        let text = "{H} Remove 3 counters from target qq card in play or in Reserve.";
        let splits = "choose { boost(it, -3) } or { counters(it, -3) } or { boost(it, -2); counters(it, -1) } or { boost(it, -1); counters(it, -2) }";
        check(
            text,
            &[&format!("H: select(card in_play in_reserve); {splits}")],
            &[
                &[&format!(
                    "H: select(card in_play in_reserve); may {{ {splits} }}"
                )],
                &[&format!("H: select(card in_play); {splits}")],
                &[
                    "H: select(card in_play in_reserve); choose { boost(it, -2) } or { counters(it, -2) } or { boost(it, -1); counters(it, -1) }",
                ],
                &["H: select(card in_play in_reserve); boost(it, -3)"],
            ],
        );
    }

    #[test]
    fn boosts_removed_then_bullets_by_how_many() {
        let text = "{H} Remove all boosts from Characters qq in play and in Reserve. Then, depending qq on the number of boosts qq removed this way: • 1-4: I gain qq 2 boosts. • 5+: Play a card qq with Hand Cost {3} or less qq for free. • 9+: The Expedition qq facing me moves backwards one region.";
        let all = "set_x(boosts_of(character any in_expedition in_reserve)); boost(each character any in_expedition in_reserve, -its_boosts)";
        check(
            text,
            &[&format!(
                "H: {all}; if x >= 1 and x <= 4 {{ boost(me, 2) }}; if x >= 5 {{ play_now(card cost<=3, free) }}; if x >= 9 {{ opponent_back(mine) }}"
            )],
            &[
                &[&format!(
                    "H: {all}; if x >= 1 and x <= 5 {{ boost(me, 2) }}; if x >= 5 {{ play_now(card cost<=3, free) }}; if x >= 9 {{ opponent_back(mine) }}"
                )],
                &[&format!(
                    "H: {all}; if x >= 1 and x <= 4 {{ boost(me, 2) }}; if x >= 5 {{ play_now(card cost<=3, free, may) }}; if x >= 9 {{ opponent_back(mine) }}"
                )],
                &[&format!(
                    "H: {all}; if x >= 1 and x <= 4 {{ boost(me, 2) }}; if x >= 5 {{ play_now(card in_hand cost<=3, free) }}; if x >= 9 {{ opponent_back(mine) }}"
                )],
                &[&format!(
                    "H: {all}; if x >= 1 and x <= 4 {{ boost(me, 2) }}; if x >= 5 {{ play_now(card cost<=3, free) }}; if x >= 9 {{ back(mine) }}"
                )],
                &[
                    "H: set_x(boosts_of(character any in_expedition)); boost(each character any in_expedition, -its_boosts); if x >= 1 and x <= 4 { boost(me, 2) }; if x >= 5 { play_now(card cost<=3, free) }; if x >= 9 { opponent_back(mine) }",
                ],
            ],
        );
    }
}
