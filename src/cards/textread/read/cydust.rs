//! Forms of the CYCLONE and DUSTER sets, taught for issue 49: cards in your Landmarks
//! as a zone of a noun, a boost per count up to a max on me, a Landmark token in another
//! target player's Landmarks, a card played for free ("You may play X for free", "Target
//! opponent may immediately play X for free", "Immediately play for free up to N X"), a
//! token in each of N target Expeditions or in each Expedition, the next Character that
//! joins (or is played from hand in) my Expedition, the top card of the deck revealed and
//! drawn when it is of a kind (left on top otherwise), and a few statics (an Expedition
//! considered In Contact or behind, a starting region barred or costlier, defecting
//! instead of going to Reserve, Defenders not blocking while a condition holds, a
//! Defender "unless" a condition holds).
//! Each answers `None` for a sentence it does not know, so the reader stays strict.

use super::super::norm::{NStep, filter_str, op};
use super::super::reduce::{cmp_str, token_str};
use super::{Np, Reader, num_word};
use crate::cards::effect::{Cmp, Filter, Where, Whose, fkind, fzone, modplace, playflag};
use crate::cards::types::{Stats, kw};

fn trimmed(s: &str) -> &str {
    s.trim().trim_end_matches('.').trim()
}

rx!(
    pub(super) STANDALONE_CD,
    r"^You may exhaust @reserve_card to play me\x20for \{\d+\} less\.?$|^Play me for \{\d+\} less per Expedition \[In Contact\] that you\x20control\.?$"
);

/// The four expeditions a token may be created in, as the token op names them: mine
/// (Hero, Companion), then the opponent's.
const EXPS: [(&str, &str); 4] = [
    ("Fixed(Hero)", "yours"),
    ("Fixed(Companion)", "yours"),
    ("Fixed(Hero)", "opposing"),
    ("Fixed(Companion)", "opposing"),
];

/// Every set of `k` of the indices `0..n`, in lexicographic order.
pub(super) fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for first in 0..n {
        for rest in subsets(n, k - 1) {
            if rest.first().is_none_or(|&r| r > first) {
                let mut s = vec![first];
                s.extend(rest);
                out.push(s);
            }
        }
    }
    out
}

impl Reader<'_> {
    /// "X in your Landmarks": the cards of your Landmarks zone.
    pub(super) fn cd_noun(&self, s: &str) -> Option<Result<Np, String>> {
        // "target Permanent in play": a Permanent is in play by itself.
        if let Some(rest) = s.strip_suffix(" Permanent in play") {
            return Some(self.noun(&format!("{rest} Permanent"), Whose::Any));
        }
        // "target card in any player's Reserve": of either Reserve.
        if let Some(rest) = s.strip_suffix(" in any player's Reserve") {
            return Some(self.noun(rest, Whose::Any).map(|mut np| {
                np.filter.whose = Whose::Any;
                np.filter.zones = fzone::RESERVE;
                np
            }));
        }
        // "target Character in an Ascended Expedition".
        if let Some(rest) = s.strip_suffix(" in an Ascended Expedition") {
            return Some(self.noun(rest, Whose::Any).map(|mut np| {
                np.filter.ascended = true;
                np
            }));
        }
        // "Each Animal and Adventurer in your Reserve": every card of either subtype.
        rx!(
            EACH_AND,
            r"^(?i:each) ([A-Z][a-z]+) and ([A-Z][a-z]+) (in .+)$"
        );
        if let Some(c) = EACH_AND.captures(s) {
            return Some(self.noun(
                &format!("each {} or {} {}", &c[1], &c[2], &c[3]),
                Whose::Any,
            ));
        }
        let rest = s.strip_suffix(" in your Landmarks")?;
        Some(self.noun(rest, Whose::Yours).map(|mut np| {
            np.filter.whose = Whose::Yours;
            np.filter.zones = fzone::LANDMARKS;
            np
        }))
    }

    /// A card played for free: by you or the opponent, from hand or Reserve.
    fn played_free(&self, who: &str, what: &str) -> Result<NStep, String> {
        let mut f = self.noun(what, Whose::Any)?.filter;
        f.zones = fzone::RESERVE | fzone::HAND;
        Ok(op(
            "play",
            &[
                who,
                &filter_str(&f, self.ctx),
                "free",
                "None",
                &playflag::OPTIONAL.to_string(),
            ],
        ))
    }

    /// A one-sentence effect of these sets; `None` when `s` is not one.
    pub(super) fn cd_effect(&self, s: &str) -> Option<Result<Vec<NStep>, String>> {
        self.cd_effect_inner(s).transpose()
    }

    fn cd_effect_inner(&self, s: &str) -> Result<Option<Vec<NStep>>, String> {
        // A Landmark token in another target player's Landmarks: an opponent's.
        rx!(
            ANOTHER_PLAYER,
            r"^(?i:create) an? \[(Manaseed|Aerolith)\] token in another target\x20player's Landmarks$"
        );
        if let Some(c) = ANOTHER_PLAYER.captures(s) {
            let name = c[1].to_ascii_lowercase();
            return Ok(Some(vec![op("landmark_token", &[&name, "Opponent", "1"])]));
        }
        // "I gain 1 boost per X, up to a max of N boosts on me".
        rx!(
            PER_MAX,
            r"^I gain 1 boost per (.+), up to a max\x20of (\d+) boosts on me$"
        );
        if let Some(c) = PER_MAX.captures(s) {
            if c[1].contains(" and per ") {
                return Err(format!("a boost per two counts '{s}'"));
            }
            let count = self.count(&c[1])?;
            let max = format!("max {}", &c[2]);
            return Ok(Some(vec![op("boost", &["me", &count, &max])]));
        }
        // "If I have less than N boosts, I gain 1 boost": the test, then one boost (outside
        // a support ability the same as one boost up to a max of N: `equiv::capped_boost`).
        rx!(
            BELOW_MAX,
            r"^If I have less than (\d+|one|two|three|four) boosts?, I gain 1 boost$"
        );
        if let Some(c) = BELOW_MAX.captures(s) {
            let n = num_word(&c[1]).filter(|&n| n >= 1).ok_or("a number")?;
            return Ok(Some(vec![NStep::If(
                format!("MyBoosts <= {}", n - 1),
                vec![op("boost", &["me", "1"])],
                Vec::new(),
            )]));
        }
        // Playing a card for free, optional: you, or the opponent "immediately".
        rx!(
            OPP_MAY_PLAY,
            r"^(?i:target) opponent may immediately\x20play (an? .+?) for free$"
        );
        if let Some(c) = OPP_MAY_PLAY.captures(s) {
            return Ok(Some(vec![self.played_free("Opponent", &c[1])?]));
        }
        // "Immediately play for free up to N X": N plays, each optional.
        rx!(
            PLAY_UP_TO,
            r"^(?i:immediately) play for free up\x20to (two|three) (.+)$"
        );
        if let Some(c) = PLAY_UP_TO.captures(s) {
            let n = num_word(&c[1]).ok_or("a number")?;
            let one = self.played_free("You", &c[2])?;
            return Ok(Some((0..n).map(|_| one.clone()).collect()));
        }
        // A token in each of N target Expeditions (any of the four, distinct), or in each
        // Expedition.
        rx!(
            N_EXPS,
            r"^Target (two|three) Expeditions and create an? \[([^\]]+?) (\d+)/(\d+)/(\d+)\] [A-Za-z ]*?token in\x20each one$"
        );
        rx!(
            EACH_EXP,
            r"^(?i:create) an? \[([^\]]+?) (\d+)/(\d+)/(\d+)\] [A-Za-z ]*?token in each Expedition$"
        );
        if let Some(c) = N_EXPS.captures(s) {
            let k = num_word(&c[1]).ok_or("a number")? as usize;
            let stat = |i: usize| c[i].parse().unwrap_or(0);
            let t = token_str(&c[2], Stats::new(stat(3), stat(4), stat(5)));
            let modes = subsets(EXPS.len(), k)
                .into_iter()
                .map(|set| {
                    set.into_iter()
                        .map(|i| op("token", &[&t, EXPS[i].0, "1", EXPS[i].1]))
                        .collect()
                })
                .collect();
            return Ok(Some(vec![NStep::Choose(modes)]));
        }
        if let Some(c) = EACH_EXP.captures(s) {
            let stat = |i: usize| c[i].parse().unwrap_or(0);
            let t = token_str(&c[1], Stats::new(stat(2), stat(3), stat(4)));
            return Ok(Some(vec![
                op("token", &[&t, "Each", "1", "yours"]),
                op("token", &[&t, "Each", "1", "opposing"]),
            ]));
        }
        // The next Character that joins my Expedition (a token too) gains N boosts.
        rx!(
            NEXT_JOINS,
            r"^The next (\w+) that joins my Expedition\x20this turn gains (\d+) boosts?$"
        );
        if let Some(c) = NEXT_JOINS.captures(s) {
            let mut f = self.noun(&format!("a {}", &c[1]), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            let place = format!("place {}", modplace::MINE | modplace::JOINS);
            return Ok(Some(vec![op(
                "next_boost",
                &[&filter_str(&f, self.ctx), &c[2], &place],
            )]));
        }
        // The next Character played from hand in my Expedition: one of its {R} abilities
        // activated (and then N boosts gained).
        rx!(
            NEXT_R_MINE,
            r"^The next (\w+) played from your hand\x20in my Expedition this turn activates\x20one of its \{R\} abilities(?:, then gains (\d+) boosts?)?$"
        );
        if let Some(c) = NEXT_R_MINE.captures(s) {
            let mut f = self.noun(&format!("a {}", &c[1]), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            f.from_reserve = Some(false);
            let fs = filter_str(&f, self.ctx);
            let place = format!("place {}", modplace::MINE);
            let mut steps = vec![op("next_activate_r", &[&fs, &place])];
            if let Some(n) = c.get(2) {
                steps.push(op("next_boost", &[&fs, n.as_str(), &place]));
            }
            return Ok(Some(steps));
        }
        match s {
            "Each player passes" | "each player passes" => {
                return Ok(Some(vec![op("each_passes", &[])]));
            }
            // The player chosen (you or the opponent) does an Exhausted Resupply.
            "Target player [Exhausted Resupplies]" => {
                return Ok(Some(vec![NStep::Choose(vec![
                    vec![op("resupply_exhausted", &["You"])],
                    vec![op("resupply_exhausted", &["Opponent"])],
                ])]));
            }
            _ => {}
        }
        // "one of my Markers": the marker is chosen when placed (no terrain named).
        if s == "Place one of my Markers on\x20target visible region"
            || s == "place one of my Markers on\x20target visible region"
        {
            return Ok(Some(vec![op(
                "place_marker",
                &[&crate::cards::types::terrain::describe(0)],
            )]));
        }
        // A token whose subtypes come before its name, in one of your expeditions.
        rx!(
            TOKEN_NAMED_AFTER,
            r"^(?i:create) an? (?:[A-Z][a-z]+ )+\[([^\]]+?) (\d+)/(\d+)/(\d+)\] token in your (Hero|Companion) Expedition$"
        );
        if let Some(c) = TOKEN_NAMED_AFTER.captures(s) {
            let stat = |i: usize| c[i].parse().unwrap_or(0);
            let t = token_str(&c[1], Stats::new(stat(2), stat(3), stat(4)));
            let at = format!("Fixed({})", &c[5]);
            return Ok(Some(vec![op("token", &[&t, &at, "1", "yours"])]));
        }
        // A Terrain Marker placed on a visible region.
        rx!(
            PLACE_MARKER,
            r"^(?i:place) an? (\{[VMO]\}) @marker on target visible region$"
        );
        if let Some(c) = PLACE_MARKER.captures(s) {
            let t = super::conds::terrain_of(&c[1]).ok_or("a terrain")?;
            return Ok(Some(vec![op(
                "place_marker",
                &[&crate::cards::types::terrain::describe(t)],
            )]));
        }
        // "X unless there are N or more Y": X while fewer than N.
        rx!(
            UNLESS_N,
            r"^(.+?) unless there are (two|three|four|\d+) or more (.+)$"
        );
        if let Some(c) = UNLESS_N.captures(s) {
            let n = num_word(&c[2]).ok_or("a number")?;
            let f = self.noun(&c[3], Whose::Any)?.filter;
            let count = format!("count({})", filter_str(&f, self.ctx));
            return Ok(Some(vec![NStep::If(
                cmp_str(&count, Cmp::Lt, n),
                self.clause(&c[1])?,
                Vec::new(),
            )]));
        }
        if s == "My Expedition @moves_back" || s == "my Expedition @moves_back" {
            return Ok(Some(vec![op("back", &["Mine", "yours"])]));
        }
        // A reduction of {N} for the next X played this Afternoon (not below {M}).
        rx!(
            PAY_LESS_AFTERNOON,
            r"^(?i:pay) \{(\d+)\} less for the next (.+?) you play this Afternoon(?:, down\x20to a minimum of \{(\d+)\})?$"
        );
        if let Some(c) = PAY_LESS_AFTERNOON.captures(s) {
            let mut f = self.noun(&format!("a {}", &c[2]), Whose::Yours)?.filter;
            f.whose = Whose::Yours;
            let min = format!("min {}", c.get(3).map_or("0", |m| m.as_str()));
            return Ok(Some(vec![op(
                "discount",
                &[&filter_str(&f, self.ctx), &c[1], &min, "afternoon"],
            )]));
        }
        // Taking control of a target Permanent (an Expedition Permanent joins my
        // Expedition, a Landmark my Landmarks).
        rx!(
            TAKE_CONTROL,
            r"^(?i:take) control of (target .+?)(?:, putting it in my Expedition if\x20it's an Expedition Permanent)?$"
        );
        if let Some(c) = TAKE_CONTROL.captures(s) {
            let (o, _) = self.obj(&c[1])?;
            return Ok(Some(vec![op("take_control", &[&o])]));
        }
        Ok(None)
    }

    /// "You may play X for free": optional by itself (read before the clause's "may").
    pub(super) fn cd_clause(&self, s: &str) -> Option<Result<Vec<NStep>, String>> {
        // "You may immediately play X for {N} less in your Companion Expedition".
        rx!(
            PLAY_IN_EXP,
            r"^You may immediately play (an? .+?) for (?:\{(\d+)\} less|(free)) in your\x20(Hero|Companion) Expedition$"
        );
        if let Some(c) = PLAY_IN_EXP.captures(s) {
            let less = match c.get(2) {
                Some(n) => format!("less {}", n.as_str()),
                None => "free".to_string(),
            };
            let exp = format!("Some({})", &c[4]);
            return Some(self.noun(&c[1], Whose::Any).map(|np| {
                let mut f = np.filter;
                f.zones = fzone::RESERVE | fzone::HAND;
                vec![op(
                    "play",
                    &[
                        "You",
                        &filter_str(&f, self.ctx),
                        &less,
                        &exp,
                        &playflag::OPTIONAL.to_string(),
                    ],
                )]
            }));
        }
        rx!(YOU_MAY_PLAY, r"^You may play (an? .+?) for free$");
        let c = YOU_MAY_PLAY.captures(s)?;
        Some(self.played_free("You", &c[1]).map(|o| vec![o]))
    }

    /// Conditions of these sets; `None` when `c` is not one.
    pub(super) fn cd_cond(&self, c: &str) -> Option<Result<String, String>> {
        let facing = || Filter {
            kinds: fkind::CHARACTER,
            whose: Whose::Opposing,
            place: Where::FacingMe,
            ..Filter::default()
        };
        Some(Ok(match c {
            "each of your Expeditions is [In Contact]" => cmp_str("ExpsInContact", Cmp::Ge, 2),
            "there's a Spell with Reserve Cost {4}\x20or more in your Reserve" => {
                let f = Filter {
                    kinds: fkind::SPELL,
                    whose: Whose::Yours,
                    zones: fzone::RESERVE,
                    base_cost: true,
                    cost_min: 4,
                    ..Filter::default()
                };
                cmp_str(&format!("count({})", filter_str(&f, self.ctx)), Cmp::Ge, 1)
            }
            "I'm in a single-terrain region" => "SingleTerrain".into(),
            "your Hero has 5 or more\x20Quest counters" => cmp_str("HeroCounters", Cmp::Ge, 5),
            "it's in your Reserve" => {
                let f = Filter {
                    kinds: fkind::CARD,
                    whose: Whose::Yours,
                    zones: fzone::RESERVE,
                    ..Filter::default()
                };
                format!("it_is({})", filter_str(&f, self.ctx))
            }
            "I'm facing only one Character" => cmp_str(
                &format!("count({})", filter_str(&facing(), self.ctx)),
                Cmp::Eq,
                1,
            ),
            "neither of my Expeditions is in {V}" => cmp_str("exps_in(F)", Cmp::Eq, 0),
            "neither of my Expeditions is in {M}" => cmp_str("exps_in(M)", Cmp::Eq, 0),
            "neither of my Expeditions is in {O}" => cmp_str("exps_in(O)", Cmp::Eq, 0),
            _ => {
                // Zero base statistics over your Characters counted with "there are": the
                // same count as the "you have" spelling.
                rx!(
                    ZERO_THERE_ARE,
                    r"^there are (\w+) or more (base statistics\x20of 0 among Characters you control)$"
                );
                if let Some(m) = ZERO_THERE_ARE.captures(c) {
                    return Some(self.cond(&format!("you have {} or more {}", &m[1], &m[2])));
                }
                // "I'm not X": the negation of "I'm X".
                if let Some(rest) = c.strip_prefix("I'm not ") {
                    return Some(
                        self.cond(&format!("I'm {rest}"))
                            .map(|c| format!("not({c})")),
                    );
                }
                // A count of base statistics of 0 (or of boosts) over your Characters in
                // play and in Reserve.
                rx!(
                    AMONG_BOTH,
                    r"^there are (\w+) or more (base statistics of 0|boosts) among Characters you\x20control and in your Reserve$"
                );
                if let Some(m) = AMONG_BOTH.captures(c) {
                    let n = num_word(&m[1])?;
                    let f = Filter {
                        kinds: fkind::CHARACTER,
                        whose: Whose::Yours,
                        zones: fzone::EXPEDITION | fzone::RESERVE,
                        ..Filter::default()
                    };
                    let what = if &m[2] == "boosts" {
                        "boosts_of"
                    } else {
                        "zero_stats_of"
                    };
                    let count = format!("{what}({})", filter_str(&f, self.ctx));
                    return Some(Ok(cmp_str(&count, Cmp::Ge, n)));
                }
                rx!(
                    FACING_N,
                    r"^I'm facing (two|three|four) or more Characters$"
                );
                let m = FACING_N.captures(c)?;
                let n = num_word(&m[1])?;
                cmp_str(
                    &format!("count({})", filter_str(&facing(), self.ctx)),
                    Cmp::Ge,
                    n,
                )
            }
        }))
    }

    /// The steps of a form of these sets that spans sentences, at the start of `sents`,
    /// and how many sentences it used; `None` when none starts there.
    pub(super) fn cd_sentences(
        &self,
        sents: &[String],
    ) -> Result<Option<(Vec<NStep>, usize)>, String> {
        let t = |i: usize| sents.get(i).map_or("", |s| trimmed(s));
        // A target named, then its controller Resupplies and you take control of it: the
        // player who controls the target Resupplies (you or the opponent), then it is yours.
        rx!(TARGET_A, r"^Target (an? .+)$");
        if let Some(ca) = TARGET_A.captures(t(0))
            && t(1) == "Its controller [Resupplies], then you\x20take control of it"
        {
            let np = self.noun(&ca[1], Whose::Any)?;
            // Who controls it: its kind and zone, not its cost.
            let mine = Filter {
                kinds: np.filter.kinds,
                whose: Whose::Yours,
                zones: np.filter.zones,
                ..Filter::default()
            };
            let (o, _) = self.obj(&format!("target {}", &ca[1]))?;
            return Ok(Some((
                vec![
                    op("select", &[&o]),
                    NStep::If(
                        format!("it_is({})", filter_str(&mine, self.ctx)),
                        vec![op("resupply", &["You"])],
                        vec![op("resupply", &["Opponent"])],
                    ),
                    op("take_control", &["it"]),
                ],
                2,
            )));
        }
        // "If C, X. Otherwise, Y.": one test, two branches (X naming no target: an "it" in Y
        // after a target of X is read elsewhere).
        rx!(IF_THEN, r"^If ([^,]+), (.+)$");
        if let (Some(ca), Some(y)) = (IF_THEN.captures(t(0)), t(1).strip_prefix("Otherwise, "))
            && !ca[2].contains("target")
        {
            let cond = self.cond(&ca[1])?;
            let x = self.clause(&ca[2])?;
            let y = self.clause(&super::upper_first(y))?;
            return Ok(Some((vec![NStep::If(cond, x, y)], 2)));
        }
        // "You may X target card. If it's in your Reserve, Y": "it" is the target, so Y
        // belongs to the optional block (no target when it is declined).
        rx!(IF_ITS_MINE, r"^If it's in your Reserve, (.+)$");
        if let Some(cb) = IF_ITS_MINE.captures(t(1))
            && t(0).starts_with("You may ")
            && t(0).contains(" target ")
        {
            let mut first = self.clause(t(0))?;
            let [NStep::May(inner)] = first.as_mut_slice() else {
                return Ok(None);
            };
            let cond = self.cond("it's in your Reserve")?;
            inner.push(NStep::If(cond, self.clause(&cb[1])?, Vec::new()));
            return Ok(Some((first, 2)));
        }
        // The top card revealed, drawn when it is an X, put in Reserve when it is a Y, and
        // otherwise left on top of the deck (no "Otherwise" sentence).
        rx!(IF_DRAW, r"^If it's (an? .+), draw it$");
        rx!(IF_RESERVE, r"^If it's (an? .+), put it in Reserve$");
        let Some(cb) = IF_DRAW.captures(t(1)) else {
            return Ok(None);
        };
        if !t(0).eq_ignore_ascii_case("Reveal @topdeck") || t(2).starts_with("Otherwise") {
            return Ok(None);
        }
        let test = |what: &str| -> Result<String, String> {
            let mut f = self.noun(what, Whose::Any)?.filter;
            f.whose = Whose::Any;
            f.zones = fzone::DECK;
            Ok(format!("it_is({})", filter_str(&f, self.ctx)))
        };
        let mut otherwise = Vec::new();
        let mut used = 2;
        if let Some(cc) = IF_RESERVE.captures(t(2)) {
            otherwise.push(NStep::If(
                test(&cc[1])?,
                vec![op("move_Reserve", &["it"])],
                Vec::new(),
            ));
            used = 3;
        }
        let steps = vec![
            op("reveal_top", &[]),
            NStep::If(test(&cb[1])?, vec![op("draw", &["You", "1"])], otherwise),
        ];
        Ok(Some((steps, used)))
    }

    /// A static ability of these sets: its trigger and body; `None` when `s` is not one.
    pub(super) fn cd_static(&self, s: &str) -> Option<Result<(String, Vec<NStep>), String>> {
        let st = |t: &str| Some(Ok((format!("static {t}"), Vec::new())));
        match s {
            "My Expedition and its Characters\x20are considered [In Contact]" => {
                return st("ConsideredInContact");
            }
            "My Expedition is considered behind" => return st("ConsideredBehind"),
            "I can't be played in a\x20starting region" => return st("NotInStartExp"),
            "@would_leave, you may put me @owners_mana instead @exhausted_orb" => {
                return st("LeaveToMana { may: true }");
            }
            "I'm also considered an Expedition Permanent, @even_out_of_play" => {
                return st(&format!("AlsoKind({})", fkind::EXP_PERMANENT));
            }
            "If I would go to Reserve @from_exp, I gain [[Fleeting]] and defect instead" => {
                return st(&format!("DefectInstead({})", kw::FLEETING));
            }
            _ => {}
        }
        rx!(
            EXHAUST_LESS,
            r"^You may exhaust @reserve_card to play me\x20for \{(\d+)\} less$"
        );
        if let Some(c) = EXHAUST_LESS.captures(s) {
            return st(&format!("ExhaustDiscount({})", &c[1]));
        }
        rx!(
            LESS_PER_CONTACT,
            r"^Play me for \{(\d+)\} less per Expedition \[In Contact\] that you\x20control$"
        );
        if let Some(c) = LESS_PER_CONTACT.captures(s) {
            return st(&format!("cost_per(-{}, ExpsInContact)", &c[1]));
        }
        rx!(
            START_MORE,
            r"^Pay \{(\d+)\} more to play me in a\x20starting region$"
        );
        if let Some(c) = START_MORE.captures(s) {
            return st(&format!("CostInStartExp({})", &c[1]));
        }
        let st_if = |t: &str, cond: Result<String, String>| {
            Some(cond.map(|c| {
                (
                    format!("static {t}"),
                    vec![NStep::If(c, Vec::new(), Vec::new())],
                )
            }))
        };
        rx!(
            NO_BLOCK_IF,
            r"^If (.+?), \[Defender\] Characters don't prevent my\x20Expedition from moving forward$"
        );
        if let Some(c) = NO_BLOCK_IF.captures(s) {
            return st_if("DefenderNoBlock", self.cond(&c[1]));
        }
        rx!(
            LEVEL_IF,
            r"^If (.+?), my \{V\}, \{M\},? and \{O\} are equal to my\x20highest statistic$"
        );
        if let Some(c) = LEVEL_IF.captures(s) {
            return st_if("level_stats(me)", self.cond(&c[1]));
        }
        rx!(GIGANTIC_IF, r"^If (.+?), I am \[Gigantic\]$");
        if let Some(c) = GIGANTIC_IF.captures(s) {
            return st_if("keyword(gigantic)", self.cond(&c[1]));
        }
        rx!(DEFENDER_UNLESS, r"^I(?:'m| am) \[Defender\] unless (.+)$");
        if let Some(c) = DEFENDER_UNLESS.captures(s) {
            return st_if(
                "keyword(defender)",
                self.cond(&c[1]).map(|c| format!("not({c})")),
            );
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::cards::textread::{check, disagrees, verdict_of};

    #[test]
    fn subsets_are_every_set_of_k_in_order() {
        assert_eq!(
            super::subsets(4, 2),
            vec![
                vec![0, 1],
                vec![0, 2],
                vec![0, 3],
                vec![1, 2],
                vec![1, 3],
                vec![2, 3]
            ]
        );
        assert_eq!(super::subsets(4, 3).len(), 4);
    }

    #[test]
    fn a_boost_below_a_max_is_one_boost_up_to_that_max() {
        let text = "When you sacrifice a qq Permanent — If I have qq less than 2 boosts, I qq gain 1 boost.";
        check(
            text,
            &["when you_sacrifice(permanent): boost(me, 1, max 2)"],
            &[
                &["when you_sacrifice(permanent): boost(me, 1, max 3)"],
                &["when you_sacrifice(permanent): boost(me, 1)"],
                &["when you_sacrifice(permanent): boost(me, 2, max 2)"],
                &["when you_sacrifice(character): boost(me, 1, max 2)"],
            ],
        );
    }

    #[test]
    fn a_boost_below_a_max_is_a_trigger_condition_outside_support_abilities() {
        let text =
            "When you make a qq [Gift] — If I have less qq than 2 boosts, I gain 1 qq boost.";
        check(
            text,
            &["when gift if boosts < 2: boost(me, 1)"],
            &[
                &["when gift if boosts < 3: boost(me, 1)"],
                &["when gift: boost(me, 1)"],
                &["when gift if boosts < 2: boost(me, 2)"],
            ],
        );
        // A support ability's max may be raised by a static; its condition may not.
        let support =
            "{I} When you make a qq [Gift] — If I have qq less than 2 boosts, I gain qq 1 boost.";
        assert!(disagrees(verdict_of(
            &["support when gift: boost(me, 1, max 2)"],
            support
        )));
    }

    #[test]
    fn your_hero_expedition_ascends_and_an_unfaced_ascended_one_moves() {
        let text = "At Noon — If you qq are first player, your Hero qq Expedition [Ascends]. (Until qq Rest, it can move forward even qq if matched in its qq region's terrains by the opponent's qq Expedition.)\nWhen one or more qq of your Ascended Expeditions qq moves forward — If there qq is no Character facing it, qq draw a card.";
        let good = [
            "noon if first_player: ascend(hero)",
            "when ascended_moves(unfaced): draw",
        ];
        check(
            text,
            &good,
            &[
                &["noon if first_player: ascend(companion)", good[1]],
                &["noon: ascend(hero)", good[1]],
                &[good[0], "when ascended_moves: draw"],
                &[good[0], "when ascended_moves(unfaced): resupply"],
            ],
        );
    }

    #[test]
    fn a_boost_per_card_in_your_landmarks_up_to_a_max() {
        let text = "{J} I gain 1 qq boost per card in qq your Landmarks, up to qq a max of 3 qq boosts on me.";
        let good = "J: boost(me, count(card yours in_landmarks), max 3)";
        check(
            text,
            &[good],
            &[
                &["J: boost(me, count(card yours in_landmarks), max 2)"],
                &["J: boost(me, count(card yours in_landmarks))"],
                &["J: boost(me, count(card yours in_reserve), max 3)"],
                &["J: boost(me, count(card any in_landmarks), max 3)"],
            ],
        );
    }

    #[test]
    fn a_landmark_token_for_another_target_player_is_the_opponents() {
        let text = "{J} Create a [Manaseed] qq token in another target qq player's Landmarks.";
        check(
            text,
            &["J: token(Manaseed, opponent)"],
            &[
                &["J: token(Manaseed)"],
                &["J: token(Aerolith, opponent)"],
                &["J: may { token(Manaseed, opponent) }"],
            ],
        );
    }

    #[test]
    fn a_card_played_for_free_by_you_or_the_opponent() {
        check(
            "{J} You may play qq a Character with Base qq Cost {2} or less qq for free.",
            &["J: play_now(character base_cost<=2, free, may)"],
            &[
                &["J: play_now(character base_cost<=2, free)"],
                &["J: play_now(character base_cost<=3, free, may)"],
                &["J: play_now(character cost<=2, free, may)"],
                &["J: opponent_play_now(character base_cost<=2, free, may)"],
            ],
        );
        check(
            "{J} Target opponent may qq immediately play a Spell qq for free.",
            &["J: opponent_play_now(spell, free, may)"],
            &[
                // From hand only, not optional, played by me.
                &["J: opponent_play_free(spell)"],
                &["J: opponent_play_now(spell, free)"],
                &["J: play_now(spell, free, may)"],
            ],
        );
    }

    #[test]
    fn up_to_n_cards_played_for_free_are_n_optional_plays() {
        let text = "{J} Immediately play for qq free up to two qq Characters with Base Cost qq {3} or less.";
        let one = "play_free(character base_cost<=3 in_hand in_reserve)";
        check(
            text,
            &[&format!("J: {one}; {one}")],
            &[
                &[&format!("J: {one}")],
                &[&format!("J: {one}; {one}; {one}")],
                &["J: play_free(character base_cost<=3); play_free(character base_cost<=3)"],
            ],
        );
    }

    #[test]
    fn a_token_in_each_of_two_target_expeditions_is_any_two_of_the_four() {
        let text = "{J} Target two Expeditions qq and create a [Woollyback qq 1/1/1] Animal token in qq each one.";
        let good = "J: choose { token(Woollyback, hero); token(Woollyback, companion) } or { token(Woollyback, hero); opponent_token(Woollyback, hero) } or { token(Woollyback, hero); opponent_token(Woollyback, companion) } or { token(Woollyback, companion); opponent_token(Woollyback, hero) } or { token(Woollyback, companion); opponent_token(Woollyback, companion) } or { opponent_token(Woollyback, hero); opponent_token(Woollyback, companion) }";
        check(
            text,
            &[good],
            &[
                // Mine only; a missing pair.
                &["J: token(Woollyback, hero); token(Woollyback, companion)"],
                &[&good.replace(
                    " or { opponent_token(Woollyback, hero); opponent_token(Woollyback, companion) }",
                    "",
                )],
            ],
        );
        check(
            "{J} Create a [Woollyback qq 1/1/1] Animal token in qq each Expedition.",
            &["J: token(Woollyback, each); opponent_token(Woollyback, each)"],
            &[&["J: token(Woollyback, each)"]],
        );
    }

    #[test]
    fn the_next_character_joining_or_played_in_my_expedition() {
        check(
            "{T}, {1} : The qq next Character that joins qq my Expedition this turn qq gains 2 boosts.",
            &["quick(1, T): next_boost(character, 2, mine, joins)"],
            &[
                &["quick(1, T): next_boost(character, 2, mine)"],
                &["quick(1, T): next_boost(character, 1, mine, joins)"],
                &["quick(1, T): next_boost(character, 2, joins)"],
            ],
        );
        check(
            "{T} : The next qq Character played from your qq hand in my Expedition qq this turn activates one qq of its {R} abilities, qq then gains 1 boost.",
            &[
                "quick(T): next_activate_r(character, mine); next_boost(character from_hand, 1, mine)",
            ],
            &[
                &["quick(T): next_activate_r(character, mine)"],
                &["quick(T): next_activate_r(character); next_boost(character from_hand, 1, mine)"],
                &["quick(T): next_activate_r(character, mine); next_boost(character, 1, mine)"],
            ],
        );
    }

    #[test]
    fn a_revealed_card_is_drawn_or_put_in_reserve_by_its_kind() {
        check(
            "{T} : Reveal the qq top card of your qq deck. If it's a qq Spell, draw it.",
            &["quick(T): reveal_top; if it_is(spell in_deck) { draw }"],
            &[
                &["quick(T): reveal_top; if it_is(permanent in_deck) { draw }"],
                &["quick(T): reveal_top; if it_is(spell in_deck) { draw } else { discard(it) }"],
            ],
        );
        let text = "{T} : Reveal the qq top card of your qq deck. If it's a qq Spell, draw it. If qq it's a Permanent, put qq it in Reserve.";
        let good = "quick(T): reveal_top; if it_is(spell in_deck) { draw } else if it_is(permanent in_deck) { send_reserve(it) }";
        check(
            text,
            &[good],
            &[
                &["quick(T): reveal_top; if it_is(spell in_deck) { draw }"],
                &[&good.replace("send_reserve(it)", "discard(it)")],
            ],
        );
    }

    #[test]
    fn statics_of_an_expedition_a_starting_region_and_defenders() {
        check(
            "My Expedition and its qq Characters are considered [In qq Contact].",
            &["static in_contact"],
            &[&["static behind"]],
        );
        check(
            "Pay {3} more to qq play me in a qq starting region.",
            &["static cost_start_exp(3)"],
            &[&["static cost_start_exp(2)"], &["static no_start_exp"]],
        );
        check(
            "If I would go qq to Reserve from the qq Expedition zone, I gain qq [[Fleeting]] and defect instead.",
            &["static defect_instead(fleeting)"],
            &[&["static defect_instead(asleep)"]],
        );
        check(
            "If there are two qq or more cards in qq your Landmarks, [Defender] Characters qq don't prevent my Expedition qq from moving forward.",
            &["static defender_no_block if count(card yours in_landmarks) >= 2"],
            &[
                &["static defender_no_block if count(card yours in_landmarks) >= 3"],
                &["static defender_no_block"],
            ],
        );
        check(
            "I'm [Defender] unless there qq are two or more qq cards in your Landmarks.",
            &["static keyword(defender) if not count(card yours in_landmarks) >= 2"],
            &[
                &["static keyword(defender) if count(card yours in_landmarks) >= 2"],
                &["static keyword(defender)"],
            ],
        );
    }

    #[test]
    fn my_expedition_of_a_card_leaving_is_the_one_it_left() {
        let text = "{J} My Expedition moves qq backwards one region. When qq I leave the Expedition qq zone — My Expedition qq moves forward one region.";
        check(
            text,
            &["J: back(mine)", "when leave: forward(left)"],
            &[
                &["J: back(mine)", "when leave: forward(mine)"],
                &["J: forward(mine)", "when leave: forward(left)"],
                &["J: opponent_back(mine)", "when leave: forward(left)"],
            ],
        );
    }

    #[test]
    fn conditions_of_contact_facing_terrains_and_regions() {
        check(
            "{J} If each of qq your Expeditions is [In qq Contact], draw a card.",
            &["J if exps_in_contact >= 2: draw"],
            &[&["J if exps_in_contact >= 1: draw"], &["J: draw"]],
        );
        check(
            "{H} If neither of qq my Expeditions is in qq {M}, draw a card.",
            &["H if exps_in(M) = 0: draw"],
            &[
                &["H if exps_in(F) = 0: draw"],
                &["H if exps_in(M) = 1: draw"],
            ],
        );
        check(
            "I am [Defender] unless qq I'm facing two or qq more Characters.",
            &["static keyword(defender) if not count(character opposing facing_me) >= 2"],
            &[
                &["static keyword(defender) if not count(character opposing facing_me) >= 3"],
                &["static keyword(defender) if not count(character yours facing_me) >= 2"],
            ],
        );
        check(
            "{J} If I'm not qq [In Contact], I gain qq 1 boost.",
            &["J if not in_contact: boost(me, 1)"],
            &[
                &["J if in_contact: boost(me, 1)"],
                &["J if not in_contact: boost(me, 2)"],
            ],
        );
        check(
            "If three or more qq single-terrain regions are visible, qq my {V}, {M}, and qq {O} are equal to qq my highest statistic.",
            &["static level_stats if single_regions >= 3"],
            &[
                &["static level_stats if single_regions >= 2"],
                &["static level_stats"],
            ],
        );
    }

    #[test]
    fn a_targets_controller_resupplies_then_you_take_control_of_it() {
        let text = "Target a Landmark Permanent qq with Hand Cost {2} qq or less. Its controller qq [Resupplies], then you take qq control of it.";
        let good = "J: select(landmark cost<=2); if it_is(landmark yours) { resupply } else { opponent_resupply }; take_control(it)";
        check(
            &format!("{{J}} {text}"),
            &[good],
            &[
                &[&good.replace("cost<=2", "cost<=3")],
                &["J: select(landmark cost<=2); resupply; take_control(it)"],
                &[
                    "J: select(landmark cost<=2); if it_is(landmark yours) { resupply } else { opponent_resupply }",
                ],
            ],
        );
        check(
            "{H} Take control of qq target Landmark Permanent with qq Hand Cost {2} or qq less.",
            &["H: take_control(target landmark cost<=2)"],
            &[
                &["H: take_control(target landmark cost<=3)"],
                &["H: take_control(target permanent cost<=2)"],
            ],
        );
    }

    #[test]
    fn a_test_of_the_targets_reserve_belongs_to_the_optional_block() {
        let text = "{H} You may exhaust qq target card in Reserve. qq If it's in your qq Reserve, [Resupply].";
        let good = "H: may { exhaust(target card any in_reserve); if it_is(card yours in_reserve) { resupply } }";
        check(
            text,
            &[good],
            &[
                &["H: may { exhaust(target card any in_reserve) }; resupply"],
                &[&good.replace("card yours in_reserve)", "card any in_reserve)")],
                &[
                    "H: exhaust(target card any in_reserve); if it_is(card yours in_reserve) { resupply }",
                ],
            ],
        );
    }

    #[test]
    fn nouns_of_ascended_expeditions_permanents_in_play_and_two_subtypes() {
        check(
            "{J} You may give qq 1 boost to target qq Character in an Ascended qq Expedition.",
            &["J: may { boost(target character in_ascended, 1) }"],
            &[&["J: may { boost(target character, 1) }"]],
        );
        check(
            "{J} You may exhaust qq target Permanent in play.",
            &["J: may { exhaust(target permanent) }"],
            &[&["J: may { exhaust(target character permanent) }"]],
        );
        check(
            "{J} Each Animal and qq Adventurer in your Reserve qq gains 1 boost.",
            &["J: boost(each character animal adventurer in_reserve, 1)"],
            &[
                &["J: boost(each character animal in_reserve, 1)"],
                &["J: boost(each character animal adventurer, 1)"],
            ],
        );
    }

    #[test]
    fn a_character_played_at_a_reduced_cost_into_a_named_expedition() {
        let text = "{J} You may immediately qq play a Character for qq {7} less in your qq Companion Expedition. It gains qq [[Anchored]].";
        let good = "J: play_now(character, less 7, companion, may); if did { gain(it, anchored) }";
        check(
            text,
            &[good],
            &[
                &[&good.replace("companion", "hero")],
                &[&good.replace("less 7", "less 6")],
                &[&good.replace(", may", "")],
            ],
        );
    }

    #[test]
    fn cost_statics_and_a_discount_this_afternoon() {
        check(
            "You may exhaust a qq card from your Reserve qq to play me for qq {1} less.",
            &["static exhaust_discount(1)"],
            &[
                &["static exhaust_discount(2)"],
                &["static discard_discount(1)"],
            ],
        );
        check(
            "{J} Pay {7} less qq for the next Spell qq you play this Afternoon.",
            &["J: discount(spell, 7, afternoon)"],
            &[
                &["J: discount(spell, 7)"],
                &["J: discount(spell, 6, afternoon)"],
            ],
        );
        check(
            "{J} Pay {1} less qq for the next Spell qq you play this Afternoon, qq down to a minimum qq of {1}.",
            &["J: discount(spell, 1, afternoon, min 1)"],
            &[
                &["J: discount(spell, 1, afternoon)"],
                &["J: discount(spell, 1, min 1)"],
            ],
        );
        check(
            "I'm also considered an qq Expedition Permanent, even when qq not in play.",
            &["static also(expedition_permanent)"],
            &[&["static also(spell)"]],
        );
    }

    #[test]
    fn counts_among_characters_and_reserve_and_a_spell_of_your_reserve() {
        check(
            "{H} If there are nine qq or more base statistics qq of 0 among Characters qq you control and in qq your Reserve, each player qq passes.",
            &["H if zero_stats_of(character yours in_expedition in_reserve) >= 9: each_passes"],
            &[
                &["H if zero_stats_of(character yours in_expedition) >= 9: each_passes"],
                &["H if zero_stats_of(character yours in_expedition in_reserve) >= 8: each_passes"],
                &["H if zero_stats_of(character yours in_expedition in_reserve) >= 9: pass"],
            ],
        );
        check(
            "{H} If there are 7 qq or more boosts among qq Characters you control and qq in your Reserve, each qq player passes.",
            &["H if boosts_of(character yours in_expedition in_reserve) >= 7: each_passes"],
            &[&["H if boosts_of(character any in_expedition in_reserve) >= 7: each_passes"]],
        );
        check(
            "I cost {2} less qq if there's a Spell qq with Reserve Cost {4} qq or more in your qq Reserve.",
            &["static cost(-2) if count(spell yours in_reserve base_cost>=4) >= 1"],
            &[
                &["static cost(-2) if count(spell any in_reserve base_cost>=4) >= 1"],
                &["static cost(-2) if count(spell yours in_reserve cost>=4) >= 1"],
            ],
        );
    }

    #[test]
    fn a_marker_a_players_exhausted_resupply_and_an_effect_unless_a_count() {
        check(
            "{J} Place a {V} qq Terrain Marker on target qq visible region.",
            &["J: place_marker(F)"],
            &[&["J: place_marker(M)"]],
        );
        check(
            "{J} Target player [Exhausted Resupplies].",
            &["J: choose { resupply_exhausted } or { opponent_resupply_exhausted }"],
            &[
                &["J: resupply_exhausted"],
                &["J: choose { resupply } or { opponent_resupply }"],
            ],
        );
        check(
            "{J} I gain [[Fleeting]] qq unless there are two qq or more exhausted cards qq in Reserve.",
            &["J: if count(card any exhausted in_reserve) < 2 { gain(me, fleeting) }"],
            &[
                &["J: if count(card any exhausted in_reserve) < 3 { gain(me, fleeting) }"],
                &["J: if count(card yours exhausted in_reserve) < 2 { gain(me, fleeting) }"],
                &["J: gain(me, fleeting)"],
            ],
        );
    }

    #[test]
    fn if_otherwise_markers_a_named_token_and_conditional_statics() {
        check(
            "{H} If I'm in qq a single-terrain region, [Sabotage]. qq Otherwise, my Expedition [Ascends].",
            &["H: if single_terrain { sabotage } else { ascend }"],
            &[
                &["H: if single_terrain { ascend } else { sabotage }"],
                &["H: if single_terrain { sabotage }"],
            ],
        );
        check(
            "At Noon — You qq may place one of qq my Markers on target qq visible region.",
            &["noon: may { place_marker }"],
            &[&["noon: place_marker"], &["noon: may { place_marker(F) }"]],
        );
        check(
            "{J} Create a Leviathan qq Companion [Halua 2/2/2] token qq in your Companion Expedition.",
            &["J: token(Halua, companion)"],
            &[
                &["J: token(Halua, hero)"],
                &["J: opponent_token(Halua, companion)"],
            ],
        );
        check(
            "If your Hero has qq 5 or more Quest qq counters, I am [Gigantic].",
            &["static keyword(gigantic) if hero_counters >= 5"],
            &[
                &["static keyword(gigantic) if hero_counters >= 4"],
                &["static keyword(defender) if hero_counters >= 5"],
            ],
        );
    }

    #[test]
    fn base_statistics_of_0_among_characters_you_control() {
        check(
            "{R} If there are qq three or more base qq statistics of 0 among qq Characters you control, draw qq a card.",
            &["R if zero_stats_of(character yours) >= 3: draw"],
            &[
                &["R if zero_stats_of(character yours) >= 2: draw"],
                &["R if zero_stats_of(character any) >= 3: draw"],
                &["R if zero_stats_of(character yours in_expedition in_reserve) >= 3: draw"],
            ],
        );
    }
}
