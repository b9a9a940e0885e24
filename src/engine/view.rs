//! What the player can see. Policies get a [`View`], never the state: hidden zones (both
//! decks' order, the Confluence's hand and face-down mana, unrevealed Tumult cards, the
//! future of the random stream) are out of reach except through counts.

use rand::seq::SliceRandom;

use super::GameRng;
use super::overcome::{self, DuskReport};
use super::state::*;
use crate::cards::db::{CardDb, CardDef};
use crate::cards::types::*;

#[derive(Copy, Clone)]
pub struct View<'a> {
    s: &'a GameState,
    db: &'a CardDb,
}

impl<'a> View<'a> {
    pub fn new(s: &'a GameState, db: &'a CardDb) -> View<'a> {
        View { s, db }
    }

    pub fn db(&self) -> &'a CardDb {
        self.db
    }

    pub fn decision(&self) -> Decision {
        self.s.decision
    }
    pub fn day(&self) -> u8 {
        self.s.day
    }
    pub fn day_cap(&self) -> u8 {
        self.s.day_cap
    }
    pub fn threatened(&self) -> Exp {
        self.s.threatened
    }
    pub fn first_player(&self) -> Side {
        self.s.first_player()
    }
    pub fn phase(&self) -> Phase {
        self.s.phase
    }
    pub fn position(&self, e: Exp) -> i8 {
        self.s.pos.get(e)
    }
    pub fn progress(&self, e: Exp) -> i8 {
        self.s.progress(e)
    }
    pub fn darkness(&self, e: Exp) -> i8 {
        self.s.dark.get(e)
    }
    pub fn passed(&self, side: Side) -> bool {
        self.s.passed[side.index()]
    }

    /// Regions between the Darkness and the expedition (1 = it is right behind).
    pub fn darkness_gap(&self, e: Exp) -> i8 {
        match e {
            Exp::Hero => self.s.pos.get(e) - self.s.dark.get(e),
            Exp::Companion => self.s.dark.get(e) - self.s.pos.get(e),
        }
    }

    /// Regions the expeditions still have to close before they meet.
    pub fn distance_to_meet(&self) -> i8 {
        self.s.pos.get(Exp::Companion) - self.s.pos.get(Exp::Hero)
    }

    /// Terrain of a region, if the player can see it.
    pub fn terrain(&self, region: usize) -> Option<u8> {
        self.s
            .adventure
            .is_revealed(region)
            .then(|| self.s.region_terrains(self.db, region))
    }

    /// The terrain the region of an expedition asks to be paid (always visible).
    pub fn requirement(&self, e: Exp) -> u8 {
        self.s.region_requirement(self.db, self.s.region(e)).0
    }

    pub fn hand(&self) -> &'a [ObjId] {
        self.s.side(Side::Player).hand.as_slice()
    }
    pub fn reserve(&self, side: Side) -> &'a [ObjId] {
        self.s.side(side).reserve.as_slice()
    }
    pub fn landmarks(&self, side: Side) -> &'a [ObjId] {
        self.s.side(side).landmarks.as_slice()
    }
    pub fn expedition(&self, side: Side, e: Exp) -> &'a [ObjId] {
        self.s.side(side).exp[e.index()].as_slice()
    }
    pub fn discard(&self, side: Side) -> &'a [ObjId] {
        self.s.side(side).discard.as_slice()
    }
    pub fn hero(&self, side: Side) -> ObjId {
        self.s.side(side).hero
    }
    pub fn mana(&self, side: Side) -> (u8, u8) {
        let st = self.s.side(side);
        (st.mana.len() as u8, st.mana_ready)
    }
    pub fn deck_size(&self, side: Side) -> usize {
        self.s.side(side).deck.len()
    }
    pub fn hand_size(&self, side: Side) -> usize {
        self.s.side(side).hand.len()
    }
    pub fn reserve_limit(&self) -> u8 {
        self.s.side(Side::Player).reserve_limit
    }
    pub fn landmark_limit(&self) -> u8 {
        self.s.side(Side::Player).landmark_limit
    }

    /// The revealed Midnight card, if any.
    pub fn midnight_card(&self) -> Option<ObjId> {
        (self.s.midnight_card != NO_OBJ).then_some(self.s.midnight_card)
    }

    /// Which Darkness the revealed Midnight card will advance tonight.
    pub fn midnight_target(&self) -> Option<Exp> {
        self.s.midnight_target(self.db)
    }

    /// Is this object's identity visible to the player?
    pub fn is_visible(&self, id: ObjId) -> bool {
        let o = self.s.obj(id);
        (o.side == Side::Player && o.zone != Zone::Deck) || o.has(flag::KNOWN)
    }

    /// The object, when visible. Panics in debug builds when a policy peeks.
    pub fn obj(&self, id: ObjId) -> &'a Obj {
        debug_assert!(self.is_visible(id), "a policy looked at hidden object {id}");
        self.s.obj(id)
    }

    pub fn card(&self, id: ObjId) -> &'a CardDef {
        self.db.card(self.obj(id).card)
    }

    pub fn stats(&self, id: ObjId) -> Stats {
        debug_assert!(self.is_visible(id));
        self.s.stats(self.db, id)
    }

    pub fn has_kw(&self, id: ObjId, bits: u32) -> bool {
        debug_assert!(self.is_visible(id));
        self.s.has_kw(self.db, id, bits)
    }

    pub fn play_cost(&self, id: ObjId, from_reserve: bool) -> u8 {
        self.s.play_cost(self.db, id, from_reserve)
    }

    pub fn tough(&self, id: ObjId) -> u8 {
        self.s.tough(self.db, id)
    }

    /// What Dusk would do if it started now (all of it is visible information).
    pub fn dusk_preview(&self) -> DuskReport {
        overcome::evaluate(self.s, self.db)
    }

    /// The running ability's source and controller, while a decision is inside one.
    pub fn frame(&self) -> Option<&'a Frame> {
        self.s.frame()
    }

    /// A full state consistent with what the player has seen: both decks reshuffled, the
    /// Confluence's unseen cards (deck, hand, unseen Mana orbs) redistributed among those
    /// places, unrevealed Tumult cards re-dealt. Used by search policies; the hidden parts
    /// of the real state are never read beyond their sizes.
    pub fn determinize(&self, rng: &mut GameRng) -> GameState {
        let mut g = *self.s;
        // The player's own deck order is unknown to them.
        g.sides[0].deck.as_mut_slice().shuffle(rng);
        // The Confluence's unseen cards: pool them, shuffle the identities, put back.
        let mut slots: Vec<(Zone, usize)> = Vec::new();
        let mut ids: Vec<ObjId> = Vec::new();
        let c = g.sides[1];
        for (i, id) in c.deck.iter().enumerate() {
            slots.push((Zone::Deck, i));
            ids.push(id);
        }
        for (i, id) in c.hand.iter().enumerate() {
            if !g.obj(id).has(flag::KNOWN) {
                slots.push((Zone::Hand, i));
                ids.push(id);
            }
        }
        for (i, id) in c.mana.iter().enumerate() {
            if !g.obj(id).has(flag::KNOWN) {
                slots.push((Zone::Mana, i));
                ids.push(id);
            }
        }
        // Object ids are deck-list positions; what is hidden is which card each holds.
        let mut cards: Vec<_> = ids.iter().map(|&id| g.obj(id).card).collect();
        cards.shuffle(rng);
        for (&id, card) in ids.iter().zip(cards) {
            g.obj_mut(id).card = card;
        }
        let _ = slots;
        // Unrevealed Tumult cards: re-deal the unseen ones among the unseen slots.
        let adv = &mut g.adventure;
        let hidden: Vec<usize> = (0..3).filter(|k| adv.revealed & (1 << k) == 0).collect();
        if hidden.len() > 1 {
            let mut cards: Vec<u8> = hidden.iter().map(|&k| adv.tumult[k]).collect();
            cards.shuffle(rng);
            for (&k, c) in hidden.iter().zip(cards) {
                adv.tumult[k] = c;
            }
        }
        for &k in &hidden {
            adv.flipped[k] = rand::RngExt::random::<bool>(rng);
        }
        let fresh = Adventure::layout(adv.tumult, adv.flipped);
        adv.terrain = fresh.terrain;
        g
    }
}
