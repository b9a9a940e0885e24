//! What a card does for the Dusk arithmetic, read once from its compiled abilities so the
//! planner can weigh a card without running it. Only the effects that change an
//! expedition's totals or the facing objects today are read; the rest (draws aside) count
//! for nothing here.
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

use crate::cards::db::CardDb;
use crate::cards::effect::*;
use crate::cards::types::*;

/// The effect of playing a card from one place (hand or Reserve).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayProfile {
    /// Statistics it brings to its own expedition: printed, plus the boosts it gives itself.
    pub body: Stats,
    /// Tokens it creates in its own expedition and in the other one.
    pub token_here: Stats,
    pub token_other: Stats,
    /// Boosts it gives one friendly character of the player's choice.
    pub boost_target: i16,
    /// Boosts it gives each other friendly character in its expedition.
    pub boost_each_here: i16,
    /// It can send away (or put to sleep) one opposing object: the target filter.
    pub removal: Option<FilterId>,
    /// Cards it draws.
    pub draws: i16,
    /// It puts a card from the player's deck into Mana (worth nothing when mana is free).
    pub ramp: bool,
}

/// Both ways of playing a card, and what it can do from the Reserve.
#[derive(Copy, Clone, Debug, Default)]
pub struct CardProfile {
    /// Indexed by `from_reserve as usize`.
    pub play: [PlayProfile; 2],
    /// A support ability ("discard me from Reserve: the next character gets N boosts"):
    /// its ability index and N.
    pub support_boost: Option<(u8, i16)>,
    /// How much the card is worth keeping, in rough statistic points (for Mana, Expand,
    /// discards).
    pub worth: i16,
    /// Worth of the card as a Reserve card, per the cost of playing it from there.
    pub reserve_worth: i16,
    /// It can only be played while a condition holds (Tomoe Gozen: enough Mana Orbs).
    pub conditional: bool,
}

/// Profiles of every card of the database, indexed like `CardDb::cards`.
#[derive(Clone, Debug, Default)]
pub struct Profiles {
    cards: Vec<CardProfile>,
}

fn const_amount(a: Amount) -> i16 {
    match a {
        Amount::Const(n) => n as i16,
        // Counted amounts depend on the board; one is a cautious guess.
        Amount::Count(_) => 1,
        Amount::Neg(_) => -1,
        Amount::Plus(_, n) => 1 + n as i16,
    }
}

fn boost_stats(n: i16) -> Stats {
    Stats::new(n, n, n)
}

/// Reads one ability body into `p`.
fn read_body(db: &CardDb, ab: &Ability, p: &mut PlayProfile) {
    let mut selected: Option<FilterId> = None;
    for pc in 0..ab.len {
        match db.op(ab, pc) {
            Op::Select { filter, .. } => selected = Some(filter),
            Op::Boost { obj, n, .. } => {
                let n = const_amount(n);
                match obj {
                    ObjRef::Me => p.body = p.body + boost_stats(n),
                    ObjRef::It => {
                        if selected.is_some_and(|f| db.filter(f).whose != Whose::Opposing) {
                            p.boost_target += n;
                        }
                    }
                    ObjRef::Each(f) => {
                        let f = db.filter(f);
                        if f.whose == Whose::Yours && f.place == Where::MyExpedition {
                            p.boost_each_here += n;
                        }
                    }
                    ObjRef::Event => {}
                }
            }
            Op::Token {
                card,
                at,
                n,
                opposing: false,
                ..
            } => {
                let st = db.card(card).stats.clamp_zero();
                let st = Stats::new(st.f * n as i16, st.m * n as i16, st.o * n as i16);
                match at {
                    ExpRef::Other => p.token_other = p.token_other + st,
                    ExpRef::Each => {
                        p.token_here = p.token_here + st;
                        p.token_other = p.token_other + st;
                    }
                    _ => p.token_here = p.token_here + st,
                }
            }
            Op::Move {
                obj: ObjRef::It, ..
            } => {
                if let Some(f) = selected
                    && db.filter(f).whose != Whose::Yours
                {
                    p.removal = Some(f);
                }
            }
            Op::Gain {
                obj: ObjRef::It,
                status,
                ..
            } if status & kw::ASLEEP != 0 => {
                if let Some(f) = selected
                    && db.filter(f).whose != Whose::Yours
                {
                    p.removal = Some(f);
                }
            }
            Op::Draw { who: Who::You, n } => p.draws += const_amount(n),
            Op::ManaFromDeck { who: Who::You, .. } => p.ramp = true,
            _ => {}
        }
    }
}

impl CardProfile {
    pub fn of(db: &CardDb, idx: CardIdx) -> CardProfile {
        let def = db.card(idx);
        let mut c = CardProfile::default();
        for p in &mut c.play {
            if def.kind.is_character() {
                p.body = def.stats.clamp_zero();
            }
        }
        for (k, ab) in db.abilities_of(idx).iter().enumerate() {
            match ab.trigger {
                Trigger::Spell => {
                    for p in &mut c.play {
                        read_body(db, ab, p);
                    }
                }
                Trigger::Played(from) => {
                    for (r, p) in c.play.iter_mut().enumerate() {
                        let applies = match from {
                            PlayFrom::Any => true,
                            PlayFrom::Hand => r == 0,
                            PlayFrom::Reserve => r == 1,
                        };
                        if applies {
                            read_body(db, ab, p);
                        }
                    }
                }
                Trigger::Static(Static::PlayableIf) => c.conditional = true,
                Trigger::Support(cost) if cost.mana == 0 && cost.discard_reserve == 0 => {
                    if let Op::NextBoost { n, .. } = db.op(ab, 0)
                        && ab.len == 1
                    {
                        c.support_boost = Some((k as u8, n as i16));
                    }
                }
                _ => {}
            }
        }
        let points = |p: &PlayProfile| -> i16 {
            p.body.sum()
                + p.token_here.sum()
                + p.token_other.sum()
                + 3 * p.boost_target
                + 2 * p.boost_each_here
                + if p.removal.is_some() { 5 } else { 0 }
                + 2 * p.draws
        };
        // Spells and Landmarks with nothing readable still do something.
        let floor = if def.kind.is_character() { 0 } else { 2 };
        c.worth = points(&c.play[0]).max(floor) + c.support_boost.map_or(0, |(_, n)| n);
        c.reserve_worth = (points(&c.play[1]).max(floor) * 4) / (def.reserve_cost as i16 + 1)
            + c.support_boost.map_or(0, |(_, n)| 3 * n);
        c
    }
}

impl Profiles {
    pub fn new(db: &CardDb) -> Profiles {
        Profiles {
            cards: (0..db.cards.len())
                .map(|i| CardProfile::of(db, i as CardIdx))
                .collect(),
        }
    }

    #[inline]
    pub fn card(&self, idx: CardIdx) -> &CardProfile {
        &self.cards[idx as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Library;

    fn profile(reference: &str) -> CardProfile {
        let lib = Library::load(std::path::Path::new("decks/cards")).unwrap();
        let idx = lib.db.by_ref(reference).expect(reference);
        CardProfile::of(&lib.db, idx)
    }

    #[test]
    fn reads_self_boosts_from_reserve_only() {
        // Sun Wukong, "R: boost(me, 2)": 2 more of each statistic when played from Reserve.
        let p = profile("ALT_CORE_B_BR_18_C");
        assert_eq!(p.play[1].body.sum(), p.play[0].body.sum() + 6);
    }

    #[test]
    fn reads_target_boosts_and_support_boosts() {
        assert_eq!(profile("ALT_CORE_B_BR_26_C").play[0].boost_target, 3);
        let w = profile("ALT_CORE_B_BR_17_R1");
        assert_eq!(w.support_boost.map(|(_, n)| n), Some(1));
    }

    #[test]
    fn reads_removal() {
        assert!(profile("ALT_CORE_B_BR_28_C").play[0].removal.is_some());
        assert!(profile("ALT_CORE_B_BR_17_R1").play[0].removal.is_none());
    }
}
