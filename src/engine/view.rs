//! What the player can see. Policies get a [`View`], never the state: hidden zones (both
//! decks' order, the Confluence's hand and face-down mana, unrevealed Tumult cards, the
//! future of the random stream) are out of reach except through counts.
//!
//! Layer: part of [`crate::engine`]; may use `cards` and nothing else of the crate.

use arrayvec::ArrayVec;

use super::GameRng;
use super::overcome::{self, DuskReport};
use super::state::*;
use crate::cards::db::{CardDb, CardDef};
use crate::cards::effect::CardIdx;
use crate::cards::types::*;

#[derive(Copy, Clone)]
pub struct View<'a, const N: usize = 2, const M: usize = MAX_OBJS> {
    s: &'a GameState<N, M>,
    db: &'a CardDb,
    /// The side that is deciding: the player in Confluence mode, either seat head-to-head.
    me: Side,
}

impl<'a, const N: usize, const M: usize> View<'a, N, M> {
    /// The view of the side that makes the pending decision.
    pub fn new(s: &'a GameState<N, M>, db: &'a CardDb) -> Self {
        View {
            s,
            db,
            me: s.decider,
        }
    }

    /// The view of side `me`, whoever decides (a table that shows one seat's side
    /// between its decisions).
    pub fn of_side(s: &'a GameState<N, M>, db: &'a CardDb, me: Side) -> Self {
        View { s, db, me }
    }

    /// The side this view belongs to (`Side::Player` in Confluence mode).
    pub fn me(&self) -> Side {
        self.me
    }

    /// The opponent: the Confluence, or the other seat.
    pub fn them(&self) -> Side {
        self.me.other()
    }

    /// Every opponent still playing, clockwise after me (with two seats: [`View::them`]).
    pub fn opponents(&self) -> impl Iterator<Item = Side> {
        let me = self.me;
        self.s.table.sides_from(me).filter(move |&s| s != me)
    }

    /// The seat and expedition across my expedition `e`'s lane (`None` when no other seat
    /// plays): with two seats, the same expedition of the other seat.
    pub fn facing(&self, e: Exp) -> Option<(Side, Exp)> {
        let (seat, fe) = self.s.table.facing(self.me.seat(), e)?;
        Some((Side::of_seat(seat), fe))
    }

    pub fn mode(&self) -> Mode {
        self.s.mode
    }

    /// Every cost in mana is 0 (Booster War).
    pub fn free_mana(&self) -> bool {
        self.s.variant.free_mana
    }

    /// The seat and expedition across my expedition `e`'s lane, as the policies read it:
    /// with two seats the other seat's same expedition (no table to read); with four the
    /// one [`View::facing`] names (myself, when no other seat plays: never during a game).
    #[inline]
    pub fn across(&self, e: Exp) -> (Side, Exp) {
        if N == 2 {
            (self.me.other(), e)
        } else {
            self.facing(e).unwrap_or((self.me, e))
        }
    }

    /// Head-to-head: the region of the opposing expedition, the one across `e`'s lane.
    pub fn their_position(&self, e: Exp) -> i8 {
        let (side, fe) = self.across(e);
        self.s.pos_of(side).get(fe)
    }

    /// The region of any seat's expedition (public).
    pub fn position_of(&self, side: Side, e: Exp) -> i8 {
        self.s.pos_of(side).get(e)
    }

    /// How far any seat's expedition has come from its starting region (public).
    pub fn progress_of(&self, side: Side, e: Exp) -> i8 {
        self.s.progress_of(side, e)
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
    /// The Threatened expedition (solo: the one the Darkness threatens today, which goes
    /// with the first-player token). Head to head no Darkness moves and the state's
    /// `threatened` is seat 0's; the policies that read it (tie-breaks, the expert's
    /// features) read it as seat 0 would in the deciding seat's place: the Companion
    /// expedition while this seat holds the token, else the Hero one, so that which seat a
    /// deck sits in changes nothing (RULES.md F8). At four seats every seat reads the
    /// table's, which alternates each day as the token passes left: turning the table
    /// turns it too.
    pub fn threatened(&self) -> Exp {
        if N == 2 && self.s.mode.versus() {
            if self.s.first_player() == self.me {
                Exp::Companion
            } else {
                Exp::Hero
            }
        } else {
            self.s.threatened
        }
    }
    pub fn first_player(&self) -> Side {
        self.s.first_player()
    }
    pub fn phase(&self) -> Phase {
        self.s.phase
    }
    pub fn position(&self, e: Exp) -> i8 {
        self.s.pos_of(self.me).get(e)
    }
    pub fn progress(&self, e: Exp) -> i8 {
        self.s.progress_of(self.me, e)
    }
    pub fn darkness(&self, e: Exp) -> i8 {
        self.s.dark.get(e)
    }
    pub fn passed(&self, side: Side) -> bool {
        self.s.has_passed(side)
    }

    /// Regions between the Darkness and this seat's expedition (1 = it is right behind).
    ///
    /// The deciding seat's own expeditions, at every table (solo, only the player decides).
    /// Before 2026-11-27 a two-seat view read seat 0's whoever decided, so that head to
    /// head, where no Darkness moves, seat 1's careful players planned by seat 0's progress.
    pub fn darkness_gap(&self, e: Exp) -> i8 {
        match e {
            Exp::Hero => self.s.pos[self.me].get(e) - self.s.dark.get(e),
            Exp::Companion => self.s.dark.get(e) - self.s.pos[self.me].get(e),
        }
    }

    /// Regions the expeditions still have to close before they meet.
    pub fn distance_to_meet(&self) -> i8 {
        let p = self.s.pos_of(self.me);
        p.get(Exp::Companion) - p.get(Exp::Hero)
    }

    /// Head-to-head: the terrains of the opposing expedition's region facing `e` (those it
    /// can win at Dusk against this side's expedition `e`).
    pub fn their_terrains(&self, e: Exp) -> u8 {
        let region = self.their_position(e) as usize;
        self.s.region_terrains(self.db, region)
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
        let region = self.s.pos_of(self.me).get(e) as usize;
        self.s.region_requirement(self.db, region).0
    }

    pub fn hand(&self) -> &'a [ObjId] {
        self.s.side(self.me).hand.as_slice()
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
        self.s.reserve_limit(self.db, self.me)
    }
    pub fn landmark_limit(&self) -> u8 {
        self.s.side(self.me).landmark_limit
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
        // Your own cards outside the deck, and cards of your deck that were revealed.
        if o.side == self.me && (o.zone != Zone::Deck || o.has(flag::KNOWN)) {
            return true;
        }
        // What the players have seen is marked on the card: public zones, reveals, and,
        // head to head and in Free for All, a card that went from a public zone to a hand or
        // a Mana orb (every seat remembers it alike, RULES.md F8). The Confluence, which
        // decides nothing by what it has seen, reads the public zones.
        if self.me == Side::Player || self.s.mode.versus() {
            return o.has(flag::KNOWN);
        }
        matches!(
            o.zone,
            Zone::Reserve
                | Zone::Landmarks
                | Zone::Expedition
                | Zone::Discard
                | Zone::HeroZone
                | Zone::Limbo
        )
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

    /// Does the visible object `id` have the kind, cost and side a filter asks for (for an
    /// ability the player controls)? Where it stands is not checked.
    pub fn matches_card(&self, filter: crate::cards::effect::FilterId, id: ObjId) -> bool {
        debug_assert!(self.is_visible(id));
        self.s
            .matches_card(self.db, self.db.filter(filter), id, self.me)
    }

    /// Boosts the player's next character will get from "next character" effects.
    pub fn pending_next_boosts(&self) -> i16 {
        self.s.mods[..self.s.n_mods as usize]
            .iter()
            .filter(|m| m.side == self.me)
            .map(|m| m.boosts as i16)
            .sum()
    }

    /// What Dusk would do if it started now (all of it is visible information).
    pub fn dusk_preview(&self) -> DuskReport {
        overcome::evaluate(self.s, self.db)
    }

    /// The running ability's source and controller, while a decision is inside one.
    pub fn frame(&self) -> Option<&'a Frame> {
        self.s.frame()
    }

    /// The true state, hidden information included. Only for the `clairvoyant` bound,
    /// which is labelled everywhere as an upper bound and not a player: no policy that
    /// models a player may call it.
    pub fn clairvoyant_state(&self) -> GameState<N, M> {
        *self.s
    }

    /// The positions of a deck whose object the deciding side has not seen there, and the
    /// objects there in canonical (sorted) order.
    fn unseen_slots(&self, deck: &Zone64) -> (ArrayVec<u8, 64>, ArrayVec<ObjId, 64>) {
        let slots: ArrayVec<u8, 64> = (0..deck.len())
            .filter(|&i| !self.is_visible(deck.as_slice()[i]))
            .map(|i| i as u8)
            .collect();
        let mut order: ArrayVec<ObjId, 64> =
            slots.iter().map(|&i| deck.as_slice()[i as usize]).collect();
        order.sort_unstable();
        (slots, order)
    }

    /// A full state consistent with what the player has seen: every deck reshuffled (but
    /// for cards revealed in place, which stay), each opponent's unseen cards (deck, hand,
    /// unseen Mana orbs) redistributed among that opponent's places, unrevealed Tumult
    /// cards re-dealt. Used by search policies. The opponents are the Confluence, or the
    /// other seats still playing; each one's unseen cards keep their identities as a whole
    /// (the deck list is taken as known, as the Confluence's is), only which is where is
    /// sampled.
    ///
    /// The result depends only on what the player can see and on `rng`: every hidden list
    /// is put in a canonical order (sorted) before it is shuffled, so two states that differ
    /// only in their hidden order give the same sample. No allocation.
    pub fn determinize(&self, rng: &mut GameRng) -> GameState<N, M> {
        self.determinizer().sample(rng)
    }

    /// What [`View::determinize`] does before it draws, done once for many samples of the
    /// same position (a search draws one per sample): the hidden lists gathered and put in
    /// their canonical order.
    pub fn determinizer(&self) -> Determinizer<N, M> {
        let mut base = *self.s;
        let me = self.me;
        // The player's own deck order is unknown to them, except the cards revealed in
        // place (the two top cards a Resupply shows): those stay where they are.
        let (slots, order) = self.unseen_slots(&base.sides[me].deck);
        let mut dealt = ArrayVec::new();
        for them in self.opponents() {
            dealt.push(self.unseen_of(&mut base, them));
        }
        // Unrevealed Tumult cards: re-dealt among the unseen slots.
        let adv = &base.adventure;
        let hidden: ArrayVec<u8, 3> = (0..3u8).filter(|&k| adv.revealed & (1 << k) == 0).collect();
        let mut tumult: ArrayVec<u8, 3> = hidden.iter().map(|&k| adv.tumult[k as usize]).collect();
        tumult.sort_unstable();
        Determinizer {
            base,
            me,
            slots,
            order,
            dealt,
            hidden,
            tumult,
        }
    }

    /// Opponent `them`'s unseen cards (deck, hand, unseen Mana orbs), to be dealt anew among
    /// those places keeping the multiset: which object sits where in the deck is as hidden
    /// as which card each object is, so the unseen objects are sorted among their deck
    /// slots (in `g`), and their cards listed in sorted order.
    fn unseen_of(&self, g: &mut GameState<N, M>, them: Side) -> Unseen<M> {
        let (slots, order) = self.unseen_slots(&g.sides[them].deck);
        for (&i, &id) in slots.iter().zip(&order) {
            g.sides[them].deck.as_mut_slice()[i as usize] = id;
        }
        let mut ids: ArrayVec<ObjId, M> = ArrayVec::new();
        let c = g.sides[them];
        ids.extend(order);
        for list in [&c.hand, &c.mana] {
            ids.extend(list.iter().filter(|&id| !self.is_visible(id)));
        }
        let mut cards: ArrayVec<_, M> = ids.iter().map(|&id| g.obj(id).card).collect();
        cards.sort_unstable();
        Unseen { ids, cards }
    }
}

/// One opponent's unseen objects and their cards in canonical order ([`View::determinizer`]).
struct Unseen<const M: usize> {
    ids: ArrayVec<ObjId, M>,
    cards: ArrayVec<CardIdx, M>,
}

/// A position ready to be determinized many times ([`View::determinizer`]): each sample is
/// the same as [`View::determinize`] with the same random stream gives.
pub struct Determinizer<const N: usize, const M: usize> {
    /// The state with each opponent's unseen deck objects in canonical order.
    base: GameState<N, M>,
    me: Side,
    /// The player's unseen deck slots and the objects there, sorted.
    slots: ArrayVec<u8, 64>,
    order: ArrayVec<ObjId, 64>,
    dealt: ArrayVec<Unseen<M>, 3>,
    /// The unrevealed Tumult slots and their cards, sorted.
    hidden: ArrayVec<u8, 3>,
    tumult: ArrayVec<u8, 3>,
}

impl<const N: usize, const M: usize> Determinizer<N, M> {
    /// One sample: the shuffles in the order `determinize` always drew them.
    pub fn sample(&self, rng: &mut GameRng) -> GameState<N, M> {
        let mut g = self.base;
        let me = self.me;
        let mut order = self.order.clone();
        super::shuffle::shuffle(&mut order, rng);
        for (&i, &id) in self.slots.iter().zip(&order) {
            g.sides[me].deck.as_mut_slice()[i as usize] = id;
        }
        for d in &self.dealt {
            let mut cards = d.cards.clone();
            super::shuffle::shuffle(&mut cards, rng);
            for (&id, &card) in d.ids.iter().zip(&cards) {
                g.obj_mut(id).card = card;
            }
        }
        let adv = &mut g.adventure;
        let mut tumult = self.tumult.clone();
        super::shuffle::shuffle(&mut tumult, rng);
        for (&k, &t) in self.hidden.iter().zip(&tumult) {
            adv.tumult[k as usize] = t;
        }
        for &k in &self.hidden {
            adv.flipped[k as usize] = rand::RngExt::random::<bool>(rng);
        }
        let fresh = Adventure::layout(adv.tumult, adv.flipped);
        adv.terrain = fresh.terrain;
        g
    }
}
