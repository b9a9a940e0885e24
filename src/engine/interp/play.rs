//! Playing cards from inside an effect: for free or for less, Rush, revealing and putting
//! cards into expeditions, playing the top card, and moving cards out of hand.

use super::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// Playing a card immediately for free (for each player: the controller first), for N
    /// less, or at full cost (Rush with a filter, D33). The player chooses (or
    /// not); the Confluence reveals from the top of its hand until a card qualifies, plays
    /// it and shuffles its hand (FAQ "Play Limitations"). The played card becomes `it`.
    pub(super) fn exec_play_free(
        &mut self,
        f: &Frame,
        who: Who,
        filter: FilterId,
        less: u8,
        exp: Option<Exp>,
        flags: u8,
    ) -> Flow {
        let mut sides = List::<2>::new();
        if who != Who::Opponent {
            let _ = sides.push(f.controller as u8);
        }
        if who != Who::You {
            let _ = sides.push(self.opp_of(f) as u8);
        }
        let k = f.count as usize;
        if k == 0 {
            self.frame_mut().did = false;
        }
        let Some(side) = sides.get(k) else {
            return Flow::Next;
        };
        let side = Side::of_seat(side);
        match self.s.scripted(side) {
            false => {
                // The options are the deciding side's: set it before listing them.
                self.s.decider = side;
                let mut options = crate::engine::choice::ChoiceList::new();
                crate::engine::choice::play_now_choices(self.s, self.db, f, &mut options);
                if options.iter().any(|c| *c != Choice::Done) {
                    self.ask(Decision::PlayFree, side);
                    return Flow::Wait;
                }
                self.frame_mut().count += 1;
                Flow::Moved
            }
            true => {
                self.frame_mut().count += 1;
                let mut found = None;
                if flags & (playflag::ME | playflag::IT) != 0 {
                    self.s.play_now_options(
                        self.db,
                        f,
                        Side::Confluence,
                        (filter, less, exp, flags),
                        |id, r, _| {
                            if self.s.cost_paying_less(self.db, id, r, less)
                                <= self.s.side(Side::Confluence).mana_ready
                            {
                                found = found.or(Some((id, r)));
                            }
                        },
                    );
                } else {
                    let hand = self.s.side(Side::Confluence).hand;
                    let ready = self.s.side(Side::Confluence).mana_ready;
                    found = hand
                        .iter()
                        .find(|&id| {
                            self.s
                                .matches_card(self.db, self.db.filter(filter), id, f.controller)
                                && self.s.cost_paying_less(self.db, id, false, less) <= ready
                        })
                        .map(|id| (id, false));
                }
                if let Some((id, from_reserve)) = found {
                    self.take_control(id, Side::Confluence);
                    self.s.obj_mut(id).flags |= flag::KNOWN;
                    let fr = self.frame_mut();
                    fr.did = true;
                    fr.it.clear();
                    let _ = fr.it.push(id);
                    let (e, icon, fell_back) = self.placement(id);
                    let alt = Alt::paying_less(less);
                    self.play_card(
                        id,
                        from_reserve,
                        exp.unwrap_or(e),
                        Some((icon, fell_back)),
                        alt,
                    );
                }
                if flags & (playflag::ME | playflag::IT) == 0 {
                    // The revealed hand is shuffled face down again.
                    let rng = &mut *self.rng;
                    let side = self.s.side_mut(Side::Confluence);
                    rand::seq::SliceRandom::shuffle(side.hand.as_mut_slice(), rng);
                    let hand = self.s.side(Side::Confluence).hand;
                    for id in hand.iter() {
                        self.s.obj_mut(id).flags &= !flag::KNOWN;
                    }
                }
                Flow::Moved
            }
        }
    }

    /// "Reveal the top N cards of your deck, put up to K matching in your expeditions, they
    /// gain S, discard the others". Steps: 1 choosing (`count` = cards revealed and still
    /// in the deck, `it` = chosen), 2 putting the chosen one by one (an expedition each),
    /// 3 discarding the rest.
    pub(super) fn exec_reveal_put(
        &mut self,
        f: &Frame,
        n: u8,
        k: u8,
        filter: FilterId,
        status: u32,
    ) -> Flow {
        let side = f.controller;
        if f.step == 0 {
            let deck = self.s.side(side).deck;
            let shown = (n as usize).min(deck.len());
            for &id in &deck.as_slice()[deck.len() - shown..] {
                self.s.obj_mut(id).flags |= flag::KNOWN;
            }
            let fr = self.frame_mut();
            fr.it.clear();
            fr.count = shown as u8;
            fr.step = 1;
        }
        loop {
            let f = *self.s.frame().expect("frame");
            match f.step {
                1 => {
                    let cands = self.s.reveal_candidates(self.db, &f, filter);
                    if f.it.len() >= k as usize || cands.is_empty() {
                        self.frame_mut().step = 2;
                        continue;
                    }
                    if self.s.scripted(side) {
                        // The Confluence takes the topmost matching cards.
                        let _ = self.frame_mut().it.push(cands.first().expect("non-empty"));
                    } else {
                        self.ask(Decision::Target, side);
                        return Flow::Wait;
                    }
                }
                2 => {
                    let Some(id) = f.it.first() else {
                        self.frame_mut().step = 3;
                        continue;
                    };
                    let e = match f.exp_reg {
                        Some(e) => e,
                        None if self.s.scripted(side) => self.s.threatened,
                        None => {
                            self.ask(Decision::Expedition, side);
                            return Flow::Wait;
                        }
                    };
                    let fr = self.frame_mut();
                    fr.exp_reg = None;
                    fr.it.remove_item(id);
                    if self.s.side(side).exp[e.index()].is_full() {
                        continue;
                    }
                    let fr = self.frame_mut();
                    fr.count = fr.count.saturating_sub(1);
                    self.move_to(id, Zone::Expedition, e, Why::Effect, false);
                    self.s.obj_mut(id).flags |= status;
                    if !self.s.silenced(self.db, id) {
                        self.trigger_own(id, NO_OBJ, |t| *t == Trigger::Played(PlayFrom::Any));
                    }
                    // A Character or an Expedition Permanent joins the expedition.
                    self.fire(Fire::Joined { obj: id });
                }
                _ => {
                    let deck = self.s.side(side).deck;
                    let shown = (f.count as usize).min(deck.len());
                    for &id in deck.as_slice()[deck.len() - shown..].iter().rev() {
                        self.move_to(id, Zone::Discard, Exp::Hero, Why::Effect, false);
                    }
                    return Flow::Next;
                }
            }
        }
    }

    /// Rush: the player may play another card now, paying for it (a `PlayFree` decision
    /// whose options are the turn's plays); the Confluence plays as on its turn (D31).
    pub(super) fn exec_rush(&mut self, f: &Frame, hand_cost: bool) -> Flow {
        match self.s.scripted(f.controller) {
            false => {
                self.s.decider = f.controller;
                let mut opts = crate::engine::choice::ChoiceList::new();
                crate::engine::choice::rush_plays(self.s, self.db, hand_cost, &mut opts);
                if opts.is_empty() {
                    self.frame_mut().did = false;
                    return Flow::Next;
                }
                self.ask(Decision::PlayFree, f.controller);
                Flow::Wait
            }
            true => {
                let fr = self.frame_mut();
                fr.pc += 1;
                fr.step = 0;
                fr.count = 0;
                let played = self.confluence_rush();
                self.frame_mut().did = played;
                Flow::Moved
            }
        }
    }

    /// Reveal your deck's top card; the player may play it at no cost (from the deck: no {H}
    /// abilities), otherwise it joins the hand. The revealed card is `it` while the choice
    /// is made. The Confluence always plays it.
    pub(super) fn exec_top_play_or_hand(&mut self, f: &Frame) -> Flow {
        let side = f.controller;
        // Not played: the player may put it into their hand, or leave it on top.
        if f.step == 1 {
            self.ask(Decision::May, side);
            return Flow::Wait;
        }
        let Some(id) = self.take_top(side) else {
            return Flow::Next;
        };
        self.s.obj_mut(id).flags |= flag::KNOWN;
        let fr = self.frame_mut();
        fr.it.clear();
        let _ = fr.it.push(id);
        match self.s.scripted(side) {
            false => {
                let kind = self.db.card(self.s.obj(id).card).kind;
                let room = !kind.goes_to_expedition()
                    || Exp::BOTH
                        .iter()
                        .any(|e| !self.s.side(side).exp[e.index()].is_full());
                // Free, but an opponent's "can't cost less than N" still has to be paid.
                if !self.s.playable(self.db, id)
                    || !room
                    || self.s.cost_floor(self.db, id) > self.s.side(side).mana_ready
                {
                    self.frame_mut().step = 1;
                    self.ask(Decision::May, side);
                    return Flow::Wait;
                }
                self.ask(Decision::PlayFree, side);
                Flow::Wait
            }
            true => {
                self.frame_mut().pc += 1;
                let (e, icon, fell_back) = self.placement(id);
                self.play_card(id, false, e, Some((icon, fell_back)), Alt::Free);
                Flow::Moved
            }
        }
    }

    pub(super) fn hand_card_to(&mut self, id: ObjId, dest: Dest) {
        match dest {
            Dest::Reserve => {
                self.move_to(id, Zone::Reserve, Exp::Hero, Why::Effect, false);
                self.trigger_own(id, NO_OBJ, |t| {
                    matches!(
                        t,
                        Trigger::When(EventKind::ToReserve {
                            from_expedition: false
                        })
                    )
                });
            }
            Dest::Mana => self.put_in_mana(id, false, Why::Effect),
            Dest::DeckTop => self.move_to(id, Zone::Deck, Exp::Hero, Why::Effect, true),
            Dest::DeckBottom => self.move_to(id, Zone::Deck, Exp::Hero, Why::Effect, false),
            _ => self.move_to(id, Zone::Discard, Exp::Hero, Why::Effect, false),
        }
    }
}
