//! Forms taught to bring the community decks to 97% verified and the pool to 95% (issue 49,
//! item 5): a target Expedition moved back as the Expedition selected, my boosts spent to
//! have a target gain a status (and "You may give it N boosts"), the top card revealed with
//! each roll and drawn when its Hand Cost is the die's result, abilities idle on the first
//! Day (no Morning then) and the Morning's Expand from the deck, a hand card put in Reserve
//! and tested, a choice of one or (under a condition) both, a quick action that costs {1}
//! more when you are not the first player, statics (tokens Gigantic, a cost floor for every
//! card of the opponents, +1 to a die, a status regained, an ability your Characters have,
//! the Mana zone instead of leaving and a draw if not), the sacrifice of my Fleeting self,
//! and three conditions.
//! Each answers `None` for a sentence it does not know, so the reader stays strict.

use super::super::norm::{NAbility, NStep, filter_str, op};
use super::super::reduce::{cmp_str, cost_str};
use super::{Reader, num_word, upper_first};
use crate::cards::effect::{Cmp, Cost, Filter, Where, Whose, fkind, fzone, modflag, playflag};
use crate::cards::types::{CardKind, kw};

fn trimmed(s: &str) -> &str {
    s.trim().trim_end_matches('.').trim()
}

// Sentences that are abilities of their own wherever they stand: an ability your
// Characters have, and a status I can gain again.
rx!(
    pub(super) STANDALONE_MO,
    r#"^Your Characters have: " ?\{[JHR]\} .+"\.?$|^I can gain \[\[(?:Fleeting|Anchored|Asleep)\]\] even if\x20I was already \[\[(?:Fleeting|Anchored|Asleep)\]\]\.?$"#
);

/// The last sentence of a text that idles all its abilities on the first Day.
const FIRST_DAY: &str = "Ignore my abilities during the first Day";
/// Each roll of yours also reveals your top card (The Wayfarer) ...
const ROLL_REVEALS: &str = "If you would roll one\x20or more dice, also reveal @topdeck";
/// ... and an ability reacts to the card revealed.
const REVEALED_THIS_WAY: &str = "When you reveal a card this way — ";
/// The mark the reaction's body carries once joined to the roll.
const REVEALED_MARK: &str = "@revealed_on_roll ";
/// The top card revealed, then the player's option to play it for free or to put it
/// into the hand (Auraq & Kibble): one effect (`top_play_or_hand`), written as this mark
/// in the first sentence.
const REVEAL_TOP: &str = "reveal @topdeck";
const PLAY_OR_HAND: &str = "You may play it for\x20free or put it into\x20your hand";
pub(super) const REVEAL_PLAY_OR_HAND: &str = "@reveal_top_play_or_hand";
/// A quick action's surcharge when you are not the first player.
const SURCHARGE: &str = "This action costs {1} more\x20if you are not the first player";

/// The sentences of a text before they are grouped into abilities: "If you would roll ...,
/// also reveal the top card" followed by "When you reveal a card this way — X" becomes one
/// roll trigger whose body reacts to that card, the top card revealed followed by the
/// option to play it for free, or to put it into the hand, becomes one mark,
/// [`REVEAL_PLAY_OR_HAND`],
/// and a last "Ignore my abilities during the first Day" is taken out (`true`: the abilities read are then idled on day 1, see
/// [`idle_first_day`]).
pub(super) fn joined_sentences(sents: Vec<String>) -> (Vec<String>, bool) {
    let mut out = Vec::new();
    let mut first_day = false;
    let mut i = 0;
    while i < sents.len() {
        let s = &sents[i];
        if trimmed(s) == FIRST_DAY && i + 1 == sents.len() {
            first_day = true;
            i += 1;
            continue;
        }
        if trimmed(s) == ROLL_REVEALS
            && let Some(rest) = sents
                .get(i + 1)
                .and_then(|n| n.strip_prefix(REVEALED_THIS_WAY))
        {
            out.push(format!(
                "When you roll one or more dice — {REVEALED_MARK}{rest}"
            ));
            i += 2;
            continue;
        }
        if let Some(before) = trimmed(s).strip_suffix(REVEAL_TOP)
            && sents.get(i + 1).is_some_and(|n| trimmed(n) == PLAY_OR_HAND)
        {
            out.push(format!("{before}{REVEAL_PLAY_OR_HAND}."));
            i += 2;
            continue;
        }
        out.push(s.clone());
        i += 1;
    }
    (out, first_day)
}

/// "Ignore my abilities during the first Day": day 1 has no Morning (RULES.md), so the
/// Morning statics are idle then anyway; an ability at a time of day is done from day 2 on.
/// Any other ability is not read.
pub(super) fn idle_first_day(v: Vec<NAbility>) -> Result<Vec<NAbility>, String> {
    v.into_iter()
        .map(|a| match a.trigger.as_str() {
            "noon" | "dusk" | "night" => {
                let body = vec![NStep::If(cmp_str("Day", Cmp::Ge, 2), a.body, Vec::new())];
                Ok(NAbility {
                    body: super::super::canon_body(body),
                    ..a
                })
            }
            "static DrawOneInMorning" | "static ExpandFromDeck" => Ok(a),
            t => Err(format!("an ability '{t}' idle on the first Day")),
        })
        .collect()
}

impl Reader<'_> {
    /// One effect of these forms; `None` when `s` is none of them.
    pub(super) fn mo_effect(&self, s: &str) -> Option<Result<Vec<NStep>, String>> {
        self.mo_effect_inner(s).transpose()
    }

    fn mo_effect_inner(&self, s: &str) -> Result<Option<Vec<NStep>>, String> {
        // A target Expedition moved back one region: the Expedition selected, any of the
        // four (RULES.md D21), as the rares' discard of its Characters followed by its move
        // back reads it (Sakarabru's Fury).
        if s == "Target Expedition @moves_back" {
            return Ok(Some(vec![
                op("select_exp", &["Any", "false"]),
                op("back", &["Selected", "yours"]),
            ]));
        }
        // Every Character of a target Expedition (either side's) gains a status.
        rx!(
            ALL_IN_TARGET_EXP,
            r"^All Characters in target Expedition gain \[\[(Fleeting|Anchored|Asleep)\]\]$"
        );
        if let Some(c) = ALL_IN_TARGET_EXP.captures(s) {
            let f = Filter {
                kinds: fkind::CHARACTER,
                place: Where::Selected,
                ..Filter::default()
            };
            return Ok(Some(vec![
                op("select_exp", &["Any", "false"]),
                op(
                    "gain",
                    &[
                        &format!("each({})", filter_str(&f, self.ctx)),
                        &c[1].to_ascii_lowercase(),
                    ],
                ),
            ]));
        }
        // "Sacrifice one Character" is "Sacrifice a Character".
        if let Some(r) = s.strip_prefix("Sacrifice one ") {
            return self.effect(&format!("Sacrifice a {r}")).map(Some);
        }
        // A token created with an ability in quotes: the normal form sees a token's name
        // and statistics only.
        rx!(
            TOKEN_WITH,
            r#"^((?i:create) an? \[[^\]]+\] [A-Za-z ]*?token [^"]+?) with "[^"]+"$"#
        );
        if let Some(c) = TOKEN_WITH.captures(s) {
            return self.effect(&c[1]).map(Some);
        }
        // N boosts for the next Character played from your Reserve this turn.
        rx!(
            NEXT_FROM_RESERVE,
            r"^The next (\w+) you play from your\x20Reserve this turn gains (\d+) boosts?$"
        );
        if let Some(c) = NEXT_FROM_RESERVE.captures(s) {
            let mut f = self.noun(&format!("a {}", &c[1]), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            f.from_reserve = Some(true);
            return Ok(Some(vec![op(
                "next_boost",
                &[&filter_str(&f, self.ctx), &c[2]],
            )]));
        }
        Ok(None)
    }

    /// A condition of these forms; `None` when `c` is none of them.
    pub(super) fn mo_cond(&self, c: &str) -> Option<Result<String, String>> {
        self.mo_cond_inner(c).transpose()
    }

    fn mo_cond_inner(&self, c: &str) -> Result<Option<String>, String> {
        if c == "each of your Expeditions\x20is behind or tied" {
            return Ok(Some("AllBehind".into()));
        }
        rx!(ONE_OR_MORE, r"^you control one or more (.+)$");
        if let Some(m) = ONE_OR_MORE.captures(c) {
            let mut f = self.noun(&m[1], Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            return Ok(Some(cmp_str(
                &format!("count({})", filter_str(&f, self.ctx)),
                Cmp::Ge,
                1,
            )));
        }
        rx!(BOOSTS_OR_LESS, r"^I have (\w+) boosts or less$");
        if let Some(m) = BOOSTS_OR_LESS.captures(c) {
            let n = num_word(&m[1]).ok_or_else(|| format!("a number '{}'", &m[1]))?;
            return Ok(Some(cmp_str("MyBoosts", Cmp::Le, n)));
        }
        Ok(None)
    }

    /// The event of "When I'm sacrificed, if I was [[Fleeting]]"; `None` for another.
    pub(super) fn mo_when(&self, what: &str) -> Option<String> {
        (what == "I'm sacrificed, if I was [[Fleeting]]").then(|| {
            let f = Filter {
                kinds: fkind::CHARACTER,
                with: kw::FLEETING,
                ..Filter::default()
            };
            format!("when sacrificed_as({})", self.event(f))
        })
    }

    /// A one-sentence static of these forms; `None` when `s` is none of them.
    pub(super) fn mo_static(
        &self,
        s: &str,
        support: bool,
    ) -> Option<Result<Vec<NAbility>, String>> {
        self.mo_static_inner(s, support).transpose()
    }

    fn mo_static_inner(&self, s: &str, support: bool) -> Result<Option<Vec<NAbility>>, String> {
        let one = |trigger: String, body: Vec<NStep>| {
            Ok(Some(vec![NAbility {
                support,
                trigger,
                body,
            }]))
        };
        match s {
            // Gigantic means something to Characters only.
            "Tokens you control are [Gigantic]" => {
                let f = Filter {
                    kinds: fkind::CHARACTER,
                    whose: Whose::Yours,
                    zones: fzone::EXPEDITION,
                    token: Some(true),
                    ..Filter::default()
                };
                return one(
                    format!("static aura({}, gigantic)", filter_str(&f, self.ctx)),
                    Vec::new(),
                );
            }
            "If you would roll a die,\x20you may add 1 to its result" => {
                return one("static RollPlusOne".into(), Vec::new());
            }
            _ => {}
        }
        rx!(
            FLOOR_EVERY_CARD,
            r"^Cards your opponents play can't\x20cost less than \{(\d+)\}$"
        );
        if let Some(c) = FLOOR_EVERY_CARD.captures(s) {
            let mut f = self.noun("a card", Whose::Opposing)?.filter;
            f.whose = Whose::Opposing;
            return one(
                format!(
                    "static min_cost_opponent({}, {})",
                    filter_str(&f, self.ctx),
                    &c[1]
                ),
                Vec::new(),
            );
        }
        rx!(
            REGAIN,
            r"^I can gain \[\[(Fleeting|Anchored|Asleep)\]\] even if\x20I was already \[\[(Fleeting|Anchored|Asleep)\]\]$"
        );
        if let Some(c) = REGAIN.captures(s) {
            let bit = match &c[1] {
                _ if c[1] != c[2] => return Ok(None),
                "Fleeting" => kw::FLEETING,
                "Anchored" => kw::ANCHORED,
                _ => kw::ASLEEP,
            };
            return one(format!("static Regain({bit})"), Vec::new());
        }
        // An ability your Characters have: its body, for the zone its icon names.
        rx!(GRANT, r#"^Your Characters have: " ?(\{([JHR])\} .+)"$"#);
        if let Some(c) = GRANT.captures(s) {
            let inner = self.ability(CardKind::Character, &[c[1].to_string()], false)?;
            let [a] = inner.as_slice() else {
                return Err(format!("one ability in '{}'", &c[1]));
            };
            let from = match &c[2] {
                "J" => "Hand",
                "R" => "Reserve",
                _ => "Any",
            };
            let mut f = self.noun("a Character", Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            return one(
                format!("static grant({}, {from})", filter_str(&f, self.ctx)),
                a.body.clone(),
            );
        }
        Ok(None)
    }

    /// A static of two sentences: drawing one card in the Morning, then Expanding the top
    /// card of the deck instead of a hand card; or going to the Mana zone instead of
    /// leaving the Expedition zone, with a draw when I leave it otherwise. `None` for
    /// others.
    pub(super) fn mo_static_pair(
        &self,
        g: &[String],
        support: bool,
    ) -> Option<Result<Vec<NAbility>, String>> {
        let [a, b] = g else { return None };
        let ab = |t: &str, body: Vec<NStep>| NAbility {
            support,
            trigger: t.to_string(),
            body,
        };
        match (trimmed(a), trimmed(b)) {
            (
                "During Morning, draw only\x20one card",
                "Then, put @topdeck in your Mana zone instead of @hand_card"
                | "Then put @topdeck in your Mana zone instead of @hand_card",
            ) => Some(Ok(vec![
                ab("static DrawOneInMorning", Vec::new()),
                ab("static ExpandFromDeck", Vec::new()),
            ])),
            ("@would_leave, you may put me @owners_mana instead", "If you don't, draw a card") => {
                Some(self.clause("Draw a card").map(|draw| {
                    vec![
                        ab("static LeaveToMana { may: true }", Vec::new()),
                        ab(
                            "when LeaveExpedition",
                            vec![NStep::If("not(MeInMana)".into(), draw, Vec::new())],
                        ),
                    ]
                }))
            }
            _ => None,
        }
    }

    /// A quick action whose last sentence makes it cost {1} more when you are not the
    /// first player: two quick actions, the printed one while you are the first player and
    /// one with {1} more otherwise. `None` when `sents` does not end so.
    pub(super) fn mo_surcharge(
        &self,
        trigger: &str,
        sents: &[String],
        support: bool,
    ) -> Option<Result<Vec<NAbility>, String>> {
        let (last, rest) = sents.split_last()?;
        if trimmed(last) != SURCHARGE || rest.is_empty() {
            return None;
        }
        let costs = trigger.strip_prefix("quick(")?.strip_suffix(')')?;
        if costs.contains("mana") {
            return Some(Err(format!("a surcharge on '{trigger}'")));
        }
        let more = if costs.is_empty() {
            "quick(mana 1)".to_string()
        } else {
            format!("quick(mana 1, {costs})")
        };
        Some(self.body(rest).map(|body| {
            let when = |c: &str, t: &str| NAbility {
                support,
                trigger: t.to_string(),
                body: super::super::canon_body(vec![NStep::If(c.into(), body.clone(), Vec::new())]),
            };
            vec![
                when("FirstPlayer", trigger),
                when("not(FirstPlayer)", &more),
            ]
        }))
    }

    /// The steps of a form of these that spans sentences, at the start of `sents`, and how
    /// many sentences it used; `None` when none starts there.
    pub(super) fn mo_sentences(
        &self,
        sents: &[String],
    ) -> Result<Option<(Vec<NStep>, usize)>, String> {
        let t = |i: usize| sents.get(i).map_or("", |s| trimmed(s));
        // The card revealed with a roll, when it is still on top and its Hand Cost is the
        // die's result: drawn, or played for free (from the deck) by exhausting me.
        rx!(
            REVEALED_IF_COST,
            r"^@revealed_on_roll If its Hand Cost is equal\x20to the die's result, (.+)$"
        );
        if let Some(c) = REVEALED_IF_COST.captures(t(0)) {
            let then = match &c[1] {
                "draw it" => self.clause("Draw a card")?,
                "you may exhaust me to play it for free" => {
                    let card = Filter {
                        kinds: fkind::CARD,
                        zones: fzone::RESERVE | fzone::HAND,
                        ..Filter::default()
                    };
                    let play = op(
                        "play",
                        &[
                            "You",
                            &filter_str(&card, self.ctx),
                            "free",
                            "None",
                            &playflag::IT.to_string(),
                        ],
                    );
                    let exhaust = Cost {
                        exhaust: true,
                        ..Cost::default()
                    };
                    vec![NStep::Pay(cost_str(&exhaust), vec![play])]
                }
                _ => return Err(format!("an effect on the card revealed '{}'", &c[1])),
            };
            let f = Filter {
                kinds: fkind::CARD,
                zones: fzone::DECK,
                ..Filter::default()
            };
            let cond = format!(
                "(it_is({}) and ItCost {:?} LastRoll)",
                filter_str(&f, self.ctx),
                Cmp::Eq
            );
            return Ok(Some((vec![NStep::If(cond, then, Vec::new())], 1)));
        }
        // The next X played this turn free, and losing [[Fleeting]] when played from hand:
        // one modifier of the next X.
        rx!(NEXT_FREE, r"^The next (.+?) you play this turn is free$");
        if let Some(c) = NEXT_FREE.captures(t(0))
            && t(1) == "If you play it from\x20your hand, it loses [[Fleeting]]"
        {
            let f = super::effect::next_card(self, &c[1])?;
            let flags = modflag::FREE | modflag::LOSE_FLEETING_HAND;
            return Ok(Some((
                vec![op(
                    "next_mod",
                    &[&filter_str(&f, self.ctx), &flags.to_string()],
                )],
                2,
            )));
        }
        if let Some(r) = self.spend_boosts_to_have(t(0), t(1))? {
            return Ok(Some(r));
        }
        // A hand card put in Reserve, then tested ("If it's a Permanent, ..."), all of it
        // optional.
        rx!(IF_ITS_A, r"^If it's (an? [A-Z][a-z]+), (.+)$");
        if t(0) == "You may put @hand_card in Reserve"
            && let Some(c) = IF_ITS_A.captures(t(1))
        {
            let mut body = self.clause("Put @hand_card in Reserve")?;
            let test = self.n9_it_is_either(&c[1], fzone::RESERVE)?;
            body.push(NStep::If(
                test,
                self.clause(&upper_first(&c[2]))?,
                Vec::new(),
            ));
            return Ok(Some((vec![NStep::May(body)], 2)));
        }
        // "Choose one. If C, you may choose both: • A • B": under C, both (first) or one;
        // otherwise one.
        rx!(OR_BOTH_IF, r"^If (.+), you may choose both:$");
        if t(0) == "Choose one"
            && let Some(c) = OR_BOTH_IF.captures(t(1))
        {
            let cond = self.cond(&c[1])?;
            let mut modes = Vec::new();
            let mut i = 2;
            while i < sents.len() && sents[i].starts_with('•') {
                let (m, used) = super::body::bullet(&sents[i..]);
                modes.push(self.body(&m)?);
                i += used;
            }
            let [a, b] = modes.as_slice() else {
                return Err("a choice of both with other than two modes".into());
            };
            let both: Vec<NStep> = a.iter().chain(b).cloned().collect();
            let one = NStep::Choose(vec![a.clone(), b.clone()]);
            return Ok(Some((
                vec![NStep::If(
                    cond,
                    vec![NStep::Choose(vec![both, a.clone(), b.clone()])],
                    vec![one],
                )],
                i,
            )));
        }
        Ok(None)
    }

    /// "You may spend N of my boosts to have target X gain [[S]]", and then, maybe, "You
    /// may give it M boosts": the target chosen, my boosts spent, the status, and the boosts
    /// given to "it" (the target: there is one only when the first part was done), all
    /// optional and only with N boosts on me. Spending my own boosts changes no possible
    /// target when the target's filter does not test boosts; otherwise `None`.
    fn spend_boosts_to_have(
        &self,
        a: &str,
        b: &str,
    ) -> Result<Option<(Vec<NStep>, usize)>, String> {
        rx!(
            SPEND_TO_HAVE,
            r"^You may spend (\w+) of my boosts to have (target .+?) gain \[\[(Fleeting|Anchored|Asleep)\]\]$"
        );
        let Some(c) = SPEND_TO_HAVE.captures(a) else {
            return Ok(None);
        };
        let n = num_word(&c[1]).ok_or_else(|| format!("a number '{}'", &c[1]))?;
        let (o, np) = self.obj(&c[2])?;
        if np.is_some_and(|np| np.filter.boosted.is_some()) || !o.starts_with("target[1-1](") {
            return Ok(None);
        }
        let mut body = vec![
            op("select", &[&o]),
            op("boost", &["me", &format!("-{n}")]),
            op("gain", &["it", &c[3].to_ascii_lowercase()]),
        ];
        rx!(GIVE_IT, r"^You may give it (\w+) boosts?$");
        let mut used = 1;
        if let Some(g) = GIVE_IT.captures(b) {
            let m = num_word(&g[1]).ok_or_else(|| format!("a number '{}'", &g[1]))?;
            body.push(NStep::May(vec![op("boost", &["it", &m.to_string()])]));
            used = 2;
        }
        let steps = vec![NStep::If(
            cmp_str("MyBoosts", Cmp::Ge, n),
            vec![NStep::May(body)],
            Vec::new(),
        )];
        Ok(Some((steps, used)))
    }
}

#[cfg(test)]
mod tests {
    use crate::cards::textread::{Verdict, check, verdict_of};

    fn unread(lines: &[&str], text: &str) -> bool {
        matches!(verdict_of(lines, text), Verdict::Declared(why) if why.starts_with("unread"))
    }

    #[test]
    fn the_top_card_revealed_then_played_for_free_or_put_into_the_hand() {
        let text = "At Noon — You may spend five of qq my Performance counters to reveal the top qq card of your qq deck. You may play it for qq free or put it qq into your hand.";
        check(
            text,
            &["noon: pay(counters 5) { top_play_or_hand }"],
            &[
                &["noon: pay(counters 4) { top_play_or_hand }"],
                &["noon: top_play_or_hand"],
                &["dusk: pay(counters 5) { top_play_or_hand }"],
                &["noon: pay(counters 5) { reveal_top; to_hand(it) }"],
                &["noon: pay(counters 5) { draw }"],
            ],
        );
        // Revealed and nothing said of it after: not this form.
        assert!(unread(
            &["noon: pay(counters 5) { top_play_or_hand }"],
            "At Noon — You may spend five of qq my Performance counters to reveal the top qq card of your deck. You may qq draw a card."
        ));
    }

    #[test]
    fn a_target_expedition_moved_back_and_its_characters_put_to_sleep() {
        check(
            "{H} Target Expedition moves qq backwards one region.",
            &["H: select_exp(any); back(selected)"],
            &[
                &["H: opponent_back(target)"],
                &["H: select_exp(yours); back(selected)"],
                &["H: select_exp(any); forward(selected)"],
                &["H: may { select_exp(any); back(selected) }"],
            ],
        );
        check(
            "{H} All Characters in target qq Expedition gain [[Asleep]].",
            &["H: select_exp(any); gain(each character any in_selected, asleep)"],
            &[
                &["H: select_exp(any); gain(each character any in_selected, anchored)"],
                &["H: select_exp(opposing); gain(each character any in_selected, asleep)"],
                &["H: select_exp(any); gain(each character yours in_selected, asleep)"],
                &["H: gain(target character, asleep)"],
            ],
        );
    }

    #[test]
    fn my_boosts_spent_to_have_a_target_gain_a_status() {
        let text = "{R} You may spend 1 of my qq boosts to have target Character qq gain [[Asleep]]. You may give qq it 2 boosts.";
        let good = "R: if boosts >= 1 { may { select(character); boost(me, -1); gain(it, asleep); may { boost(it, 2) } } }";
        check(
            text,
            &[good],
            &[
                &[&good.replace("boost(me, -1)", "boost(me, -2)")],
                &[&good.replace("boosts >= 1", "boosts >= 2")],
                &[&good.replace("gain(it, asleep)", "gain(it, anchored)")],
                &[&good.replace("select(character)", "select(character yours)")],
                &[&good.replace("may { boost(it, 2) }", "boost(it, 2)")],
                &[&good.replace("may { boost(it, 2) }", "may { boost(it, 3) }")],
                &[
                    "R: if boosts >= 1 { select(character); boost(me, -1); gain(it, asleep); may { boost(it, 2) } }",
                ],
                &[
                    "R: if boosts >= 1 { may { select(character); boost(me, -1); gain(it, asleep) } }",
                ],
            ],
        );
        check(
            "{R} You may spend 1 of my qq boosts to have target Character qq gain [[Asleep]].",
            &["R: if boosts >= 1 { may { select(character); boost(me, -1); gain(it, asleep) } }"],
            &[&[
                "R: if boosts >= 1 { may { select(character); boost(me, -1); gain(it, asleep); may { boost(it, 2) } } }",
            ]],
        );
    }

    #[test]
    fn the_top_card_revealed_with_each_roll() {
        let text = "If you would roll one or qq more dice, also reveal the top card qq of your deck. When you qq reveal a card qq this way — If its Hand Cost is qq equal to the die's result, draw it.";
        let good = "when roll: if it_is(card in_deck) and it_cost = roll_result { draw }";
        check(
            text,
            &[good],
            &[
                &["when roll: if it_cost = roll_result { draw }"],
                &["when roll: if it_is(card in_deck) and it_cost = roll_result { may { draw } }"],
                &["when roll: if it_is(card in_deck) and it_cost = roll_result { resupply }"],
                &["when roll: draw"],
            ],
        );
        let text = "If you would roll one or qq more dice, also reveal the top card qq of your deck. When you qq reveal a card qq this way — If its Hand Cost is qq equal to the die's result, you may qq exhaust me to play it for free.";
        let good = "when roll: if it_is(card in_deck) and it_cost = roll_result { pay(T) { play_now(it, free) } }";
        check(
            text,
            &[good],
            &[
                &[
                    "when roll: if it_is(card in_deck) and it_cost = roll_result { play_now(it, free) }",
                ],
                &[
                    "when roll: if it_is(card in_deck) and it_cost = roll_result { pay(T) { play_now(it, free, may) } }",
                ],
                &[
                    "when roll: if it_is(card in_deck) and it_cost = roll_result { pay(1) { play_now(it, free) } }",
                ],
                &[
                    "when roll: if it_is(card in_deck) and it_cost = roll_result { pay(T) { play_now(it, less 1) } }",
                ],
                &[
                    "when roll: if it_is(card in_deck) and it_cost = roll_result { pay(T) { draw } }",
                ],
            ],
        );
        // The reaction alone, without the sentence that reveals the card, is not read.
        assert!(unread(
            &[good],
            "When you reveal a card qq this way — If its Hand Cost is qq equal to the die's result, draw it."
        ));
    }

    #[test]
    fn abilities_idle_on_the_first_day_and_the_mornings_expand_from_the_deck() {
        let text = "During Morning, draw only qq one card. Then, put the top card qq of your deck in your Mana zone qq instead of a card from qq your hand. At Noon — [Resupply]. qq Ignore my abilities during the first Day.";
        let good = [
            "static draw_one",
            "static expand_from_deck",
            "noon if day >= 2: resupply",
        ];
        check(
            text,
            &good,
            &[
                &[
                    "static draw_one",
                    "static expand_from_deck",
                    "noon: resupply",
                ],
                &[
                    "static draw_one",
                    "static expand_from_deck",
                    "noon if day >= 3: resupply",
                ],
                &["static draw_one", "noon if day >= 2: resupply"],
                &["static expand_from_deck", "noon if day >= 2: resupply"],
                &[
                    "static draw_one",
                    "static expand_from_deck",
                    "dusk if day >= 2: resupply",
                ],
            ],
        );
        // An ability of another kind on such a card is not read.
        assert!(unread(
            &["J: resupply"],
            "{J} [Resupply]. Ignore my abilities qq during the first Day."
        ));
    }

    #[test]
    fn the_next_spell_free_and_losing_fleeting_from_hand() {
        check(
            "{T} : The next Spell you qq play this turn is free. If you qq play it from your hand, qq it loses [[Fleeting]].",
            &["quick(T): next_free(spell, hand_loses_fleeting)"],
            &[
                &["quick(T): next_free(spell)"],
                &["quick(T): next_free(character, hand_loses_fleeting)"],
                &["quick(1, T): next_free(spell, hand_loses_fleeting)"],
            ],
        );
    }

    #[test]
    fn a_hand_card_put_in_reserve_then_tested() {
        let text = "{R} You may put a card qq from your hand in Reserve. qq If it's a Permanent, draw a card.";
        let good = "R: may { hand_to_reserve(1, it); if it_is(permanent in_reserve) { draw } }";
        check(
            text,
            &[good],
            &[
                &[&good.replace("permanent", "spell")],
                &[&good.replace("{ draw }", "{ resupply }")],
                &["R: hand_to_reserve(1, it); if it_is(permanent in_reserve) { draw }"],
                &["R: may { hand_to_reserve(1, it) }; draw"],
            ],
        );
    }

    #[test]
    fn one_mode_or_both_under_a_condition() {
        let text = "{J} Choose one. If each of qq your Expeditions is behind or tied, qq you may choose both: • Draw a card. • I gain 1 boost.";
        let good = "J: if all_behind { choose { draw; boost(me, 1) } or { draw } or { boost(me, 1) } } else { choose { draw } or { boost(me, 1) } }";
        check(
            text,
            &[good],
            &[
                &["J: choose { draw; boost(me, 1) } or { draw } or { boost(me, 1) }"],
                &[
                    "J: if all_behind { choose { draw } or { boost(me, 1) } } else { choose { draw } or { boost(me, 1) } }",
                ],
                &[
                    "J: if all_behind { choose { draw; boost(me, 1) } or { draw } or { boost(me, 1) } } else { choose { draw; boost(me, 1) } or { draw } or { boost(me, 1) } }",
                ],
                &[&good.replace("boost(me, 1)", "boost(me, 2)")],
                &[&good.replace("all_behind", "behind")],
            ],
        );
    }

    #[test]
    fn a_quick_action_dearer_when_you_are_not_the_first_player() {
        let text = "{T} : Create a [Maw 0/0/0] qq Companion token in your Companion qq Expedition with \"When you sacrifice a qq Character — I gain 2 boosts\". qq This action costs {1} more if qq you are not the first player.";
        let good = [
            "quick(T) if first_player: token(Maw, companion)",
            "quick(1, T) if not first_player: token(Maw, companion)",
        ];
        check(
            text,
            &good,
            &[
                &["quick(T): token(Maw, companion)"],
                &[good[0]],
                &[
                    good[0],
                    "quick(2, T) if not first_player: token(Maw, companion)",
                ],
                &[good[0], "quick(1, T): token(Maw, companion)"],
                &[
                    "quick(T) if not first_player: token(Maw, companion)",
                    "quick(1, T) if first_player: token(Maw, companion)",
                ],
                &[
                    "quick(T) if first_player: token(Maw, hero)",
                    "quick(1, T) if not first_player: token(Maw, hero)",
                ],
            ],
        );
    }

    #[test]
    fn an_ability_your_characters_have_and_the_next_one_played_from_reserve() {
        check(
            "Your Characters have: \" {R} qq I gain 1 boost.\"",
            &["grant(character) R: boost(me, 1)"],
            &[
                &["grant(character) R: boost(me, 2)"],
                &["grant(character) J: boost(me, 1)"],
                &["R: boost(me, 1)"],
            ],
        );
        check(
            "{J} [Resupply]. Your Characters have: \" {R} qq I gain 1 boost.\"",
            &["J: resupply", "grant(character) R: boost(me, 1)"],
            &[&["J: resupply"], &["J: resupply; boost(me, 1)"]],
        );
        check(
            "{T} : The next Character you qq play from your Reserve this qq turn gains 1 boost.",
            &["quick(T): next_boost(character from_reserve, 1)"],
            &[
                &["quick(T): next_boost(character, 1)"],
                &["quick(T): next_boost(character from_reserve, 2)"],
            ],
        );
    }

    #[test]
    fn statics_of_tokens_costs_dice_statuses_and_the_mana_zone() {
        check(
            "Tokens you control are qq [Gigantic].",
            &["static aura(token, gigantic)"],
            &[
                &["static aura(character, gigantic)"],
                &["static aura(token, defender)"],
            ],
        );
        check(
            "Cards your opponents play can't qq cost less than {2}.",
            &["static min_cost_opponent(card, 2)"],
            &[
                &["static min_cost_opponent(card, 3)"],
                &["static min_cost_opponent(character, 2)"],
            ],
        );
        check(
            "If you would roll a die, qq you may add 1 to its result.",
            &["static roll_plus_one"],
            &[&["static extra_die"]],
        );
        check(
            "When I gain [[Fleeting]] — I qq gain 1 boost. qq I can gain [[Fleeting]] even qq if I was already [[Fleeting]].",
            &[
                "when i_gain(fleeting): boost(me, 1)",
                "static regain(fleeting)",
            ],
            &[
                &[
                    "when i_gain(fleeting): boost(me, 1)",
                    "static regain(asleep)",
                ],
                &["when i_gain(fleeting): boost(me, 1)"],
            ],
        );
        check(
            "If I would leave the Expedition qq zone, you may put me qq in my owner's Mana zone instead. qq If you don't, draw a card.",
            &[
                "static may_leave_to_mana",
                "when leave if not in_mana: draw",
            ],
            &[
                &["static may_leave_to_mana", "when leave: draw"],
                &["static may_leave_to_mana", "when leave if in_mana: draw"],
                &["static may_leave_to_mana"],
                &[
                    "static may_leave_to_mana",
                    "when leave if not in_mana: resupply",
                ],
            ],
        );
    }

    #[test]
    fn my_fleeting_self_sacrificed_and_three_conditions() {
        check(
            "When I'm sacrificed, if I qq was [[Fleeting]] — Draw a card.",
            &["when sacrificed_as(character fleeting): draw"],
            &[
                &["when sacrificed_as(character not_fleeting): draw"],
                &["when sacrificed: draw"],
            ],
        );
        check(
            "{J} If you control one qq or more Landmarks, I gain 1 boost.",
            &["J if count(landmark yours) >= 1: boost(me, 1)"],
            &[
                &["J if count(landmark yours) >= 2: boost(me, 1)"],
                &["J if count(landmark opposing) >= 1: boost(me, 1)"],
                &["J if count(character yours) >= 1: boost(me, 1)"],
            ],
        );
        check(
            "{R} If I have 4 qq boosts or less, I lose [[Fleeting]].",
            &["R if boosts <= 4: lose(me, fleeting)"],
            &[
                &["R if boosts <= 3: lose(me, fleeting)"],
                &["R if boosts >= 4: lose(me, fleeting)"],
            ],
        );
        check(
            "{J} Sacrifice one Character.",
            &["J: sacrifice(target character yours)"],
            &[&["J: discard(target character yours)"]],
        );
    }
}
