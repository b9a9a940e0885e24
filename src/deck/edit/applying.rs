//! Applying an edit to the decks: the edited copy of a card, added to the card table, and
//! the decks pointed at it.

use super::*;

pub(super) fn targets(
    card: &CardRef,
    db: &CardDb,
    conf: &ConfluenceDeck,
    players: &[PlayerDeck],
) -> Result<(Vec<CardIdx>, Vec<CardIdx>), String> {
    let mut conf_cards: Vec<CardIdx> = Vec::new();
    for c in conf
        .slots
        .iter()
        .map(|s| s.common)
        .chain(conf.rares.iter().copied())
    {
        if !conf_cards.contains(&c) {
            conf_cards.push(c);
        }
    }
    let mut player_cards: Vec<CardIdx> = Vec::new();
    for d in players {
        for &c in &d.cards {
            if !player_cards.contains(&c) {
                player_cards.push(c);
            }
        }
    }
    let named = |v: &[CardIdx]| -> Vec<CardIdx> {
        v.iter().copied().filter(|&c| card.names(db, c)).collect()
    };
    let (cn, pn) = (named(&conf_cards), named(&player_cards));
    if cn.is_empty() && pn.is_empty() {
        let names: Vec<&str> = conf_cards
            .iter()
            .chain(&player_cards)
            .map(|&c| db.card(c).name.as_str())
            .collect();
        let hero = if players.iter().any(|d| card.names(db, d.hero)) {
            " (it is a player's hero: edits change deck cards)"
        } else {
            ""
        };
        return Err(format!(
            "unknown card '{}': not in the Confluence deck or the player decks{hero}{}",
            card.name,
            crate::suggest::did_you_mean(&card.name, names)
        ));
    }
    let any_common = cn
        .iter()
        .chain(&pn)
        .any(|&c| db.card(c).rarity == Rarity::Common);
    let keep = |v: Vec<CardIdx>| -> Vec<CardIdx> {
        v.into_iter()
            .filter(|&c| match card.print {
                Print::Default => !any_common || db.card(c).rarity == Rarity::Common,
                _ => card.rarity_fits(db, c),
            })
            .collect()
    };
    let (cn, pn) = (keep(cn), keep(pn));
    if cn.is_empty() && pn.is_empty() {
        return Err(format!(
            "'{}': the decks hold no {} print of it",
            card.name,
            match card.print {
                Print::Common => "common".to_string(),
                Print::Rare(None) => "rare".to_string(),
                Print::Rare(Some(v)) => format!("R{v}"),
                Print::Default => unreachable!("the default print keeps a card"),
            }
        ));
    }
    Ok((cn, pn))
}

/// Every deck position holding `from` now holds `to` (the rare twins' list included).
pub(super) fn redirect(
    from: CardIdx,
    to: CardIdx,
    conf: &mut ConfluenceDeck,
    players: &mut [PlayerDeck],
) {
    for s in &mut conf.slots {
        if s.common == from {
            s.common = to;
        }
    }
    for r in &mut conf.rares {
        if *r == from {
            *r = to;
        }
    }
    for d in players {
        for c in &mut d.cards {
            if *c == from {
                *c = to;
            }
        }
    }
}

pub(super) fn has_stats(kind: CardKind) -> bool {
    matches!(kind, CardKind::Character | CardKind::ExpeditionPermanent)
}

pub(super) fn kind_word(kind: CardKind) -> &'static str {
    match kind {
        CardKind::Character | CardKind::Token | CardKind::OtherToken => "character",
        CardKind::ExpeditionPermanent => "expedition permanent",
        CardKind::Landmark | CardKind::LandmarkToken => "landmark",
        CardKind::Spell => "spell",
        CardKind::Hero => "hero",
    }
}

/// A copy of card `idx` with the change made, added to `db`; `confluence`: the card is a
/// Confluence card (Midnight and placement exist only there).
pub(super) fn edited_copy(
    db: &mut CardDb,
    idx: CardIdx,
    change: &Change,
    confluence: bool,
) -> Result<CardIdx, String> {
    let mut def = db.card(idx).clone();
    let name = def.name.clone();
    match *change {
        Change::Number(n, amount) => {
            if n.is_stat() && !has_stats(def.kind) {
                return Err(format!(
                    "'{name}' is a {}: it has no Forest, Mountain or Water",
                    kind_word(def.kind)
                ));
            }
            let check = |old: i16, label: &str| -> Result<i16, String> {
                let v = amount.apply(old);
                if (0..=MAX_VALUE).contains(&v) {
                    Ok(v)
                } else {
                    Err(format!(
                        "{name}'s {label} would be {v} (it is {old}; values go from 0 to {MAX_VALUE})"
                    ))
                }
            };
            match n {
                Number::Forest => def.stats.f = check(def.stats.f, "Forest")?,
                Number::Mountain => def.stats.m = check(def.stats.m, "Mountain")?,
                Number::Water => def.stats.o = check(def.stats.o, "Water")?,
                Number::HandCost => def.hand_cost = check(def.hand_cost as i16, "hand cost")? as u8,
                Number::ReserveCost => {
                    def.reserve_cost = check(def.reserve_cost as i16, "reserve cost")? as u8
                }
                Number::Cost => {
                    def.hand_cost = check(def.hand_cost as i16, "hand cost")? as u8;
                    def.reserve_cost = check(def.reserve_cost as i16, "reserve cost")? as u8;
                }
            }
        }
        Change::Midnight(p) | Change::Placement(p) => {
            if !confluence {
                return Err(format!(
                    "'{name}' is a player card: only Confluence cards have a {}",
                    if matches!(change, Change::Midnight(_)) {
                        "Midnight indication"
                    } else {
                        "placement rule"
                    }
                ));
            }
            if matches!(change, Change::Midnight(_)) {
                def.midnight = p;
            } else {
                def.placement = p;
            }
        }
        Change::Keyword(bit, on) => {
            let word = keyword_name(bit);
            if on && bit & keywords_for(def.kind) == 0 {
                return Err(format!(
                    "{word} makes no sense on '{name}', a {} (it may have: {})",
                    kind_word(def.kind),
                    kw::describe(keywords_for(def.kind)).join(", ")
                ));
            }
            let has = def.keywords & bit != 0;
            if has == on {
                return Err(if on {
                    format!("'{name}' is {word} already: nothing to turn on")
                } else {
                    format!("'{name}' is not {word}: nothing to turn off")
                });
            }
            def.keywords ^= bit;
        }
        Change::Valued(bit, n) => {
            let word = keyword_name(bit);
            if n > 0 && bit & keywords_for(def.kind) == 0 {
                return Err(format!(
                    "{word} makes no sense on '{name}', a {} (it may have: {})",
                    kind_word(def.kind),
                    kw::describe(keywords_for(def.kind)).join(", ")
                ));
            }
            if n == 0 {
                def.keywords &= !bit;
            } else {
                def.keywords |= bit;
            }
            if bit == kw::TOUGH {
                def.tough = n;
            } else {
                def.scout = n;
            }
        }
        Change::Swap(..) | Change::Remove(_) | Change::Rare => {
            unreachable!("not a change of the card's data")
        }
    }
    Ok(db.push_variant(def))
}

/// Replaces `from` by `to` in a player deck: every copy, or the first `count`.
pub(super) fn swap_in_deck(
    d: &mut PlayerDeck,
    from: CardIdx,
    to: CardIdx,
    count: Option<usize>,
) -> Result<(), String> {
    let have = d.cards.iter().filter(|&&c| c == from).count();
    if have == 0 {
        return Ok(());
    }
    let n = count.unwrap_or(have);
    if n > have {
        return Err(format!("{} holds only {have} copies", d.name));
    }
    let mut left = n;
    for c in &mut d.cards {
        if *c == from && left > 0 {
            *c = to;
            left -= 1;
        }
    }
    Ok(())
}

/// Resolves the card a player card is swapped for, from the pool.
pub(super) fn pool_card(db: &CardDb, pool: &CardPool, r: &CardRef) -> Result<CardIdx, String> {
    let facts = if r.is_reference() {
        pool.get(&r.name).ok_or_else(|| {
            format!(
                "unknown card reference '{}' (not in the pool){}",
                r.name,
                crate::suggest::closest_reference(
                    &r.name,
                    pool.cards.iter().map(|c| c.reference.as_str())
                )
                .map(|c| format!("; did you mean '{c}'?"))
                .unwrap_or_default()
            )
        })?
    } else {
        let (rarity, variant) = match r.print {
            Print::Default | Print::Common => (Rarity::Common, None),
            Print::Rare(v) => (Rarity::Rare, v),
        };
        let found = pool.resolve_name(&r.name, rarity, variant).or_else(|| {
            // A name with no common print (a unique Hero's deck card): its only print.
            (r.print == Print::Default)
                .then(|| {
                    let mut all = pool.by_name(&r.name).filter(|c| {
                        !matches!(
                            c.kind,
                            CardKind::Token | CardKind::LandmarkToken | CardKind::OtherToken
                        )
                    });
                    let first = all.next();
                    first.filter(|_| all.next().is_none())
                })
                .flatten()
        });
        match found {
            Some(f) => f,
            None if pool.by_name(&r.name).next().is_some() => {
                return Err(format!(
                    "'{}' has no {} print in the pool",
                    r.name,
                    match r.print {
                        Print::Rare(Some(v)) => format!("R{v}"),
                        Print::Rare(None) => "rare".into(),
                        _ => "common".into(),
                    }
                ));
            }
            None => {
                return Err(format!(
                    "unknown card '{}' (not in the pool){}",
                    r.name,
                    crate::suggest::did_you_mean(
                        &r.name,
                        pool.cards.iter().map(|c| c.name.as_str())
                    )
                ));
            }
        }
    };
    let idx = db
        .by_ref(&facts.reference)
        .expect("the db holds every pool card");
    if matches!(
        facts.kind,
        CardKind::Hero | CardKind::Token | CardKind::LandmarkToken | CardKind::OtherToken
    ) {
        return Err(format!(
            "'{}' is a {}, not a deck card",
            facts.name,
            if facts.kind == CardKind::Hero {
                "hero"
            } else {
                "token"
            }
        ));
    }
    Ok(idx)
}

/// Applies one edit to the decks, adding the edited cards to `db`. The decks' other cards,
/// and every card of `db` already there, are unchanged.
pub fn apply(
    edit: &Edit,
    db: &mut CardDb,
    pool: &CardPool,
    conf: &mut ConfluenceDeck,
    players: &mut [PlayerDeck],
) -> Result<(), String> {
    let (ct, pt) = targets(&edit.card, db, conf, players)?;
    match &edit.change {
        Change::Swap(count, other) => {
            if !ct.is_empty() {
                // A Confluence card is swapped for another card of the Confluence deck.
                let (oc, _) = targets(other, db, conf, &[]).map_err(|e| {
                    format!("swap: {e} (a Confluence card is swapped for another card of its deck)")
                })?;
                let to = oc[0];
                for &from in &ct {
                    let mut left = count.unwrap_or(usize::MAX);
                    let have = conf.slots.iter().filter(|s| s.common == from).count()
                        + conf.rares.iter().filter(|&&r| r == from).count();
                    if let Some(n) = count
                        && *n > have
                    {
                        return Err(format!("the Confluence deck holds only {have} copies"));
                    }
                    for s in &mut conf.slots {
                        if s.common == from && left > 0 {
                            s.common = to;
                            left -= 1;
                        }
                    }
                    for r in &mut conf.rares {
                        if *r == from && left > 0 {
                            *r = to;
                            left -= 1;
                        }
                    }
                }
            }
            if !pt.is_empty() {
                let to = pool_card(db, pool, other).map_err(|e| format!("swap: {e}"))?;
                for &from in &pt {
                    for d in players.iter_mut() {
                        swap_in_deck(d, from, to, *count)?;
                    }
                }
            }
        }
        Change::Remove(count) => {
            if !ct.is_empty() {
                return Err(format!(
                    "'{}' is a Confluence card: a Confluence deck keeps its {} cards (swap it for another instead)",
                    edit.card.name,
                    crate::deck::confluence::CONFLUENCE_DECK_SIZE
                ));
            }
            for &from in &pt {
                for d in players.iter_mut() {
                    let have = d.cards.iter().filter(|&&c| c == from).count();
                    if have == 0 {
                        continue;
                    }
                    let n = count.unwrap_or(have);
                    if n > have {
                        return Err(format!("{} holds only {have} copies", d.name));
                    }
                    let mut left = n;
                    let mut keep = Vec::with_capacity(d.cards.len());
                    let mut lines = Vec::with_capacity(d.cards.len());
                    for (&c, &l) in d.cards.iter().zip(&d.card_lines) {
                        if c == from && left > 0 {
                            left -= 1;
                        } else {
                            keep.push(c);
                            lines.push(l);
                        }
                    }
                    d.cards = keep;
                    d.card_lines = lines;
                }
            }
        }
        Change::Rare => {
            for &from in &ct {
                let mut done = false;
                for s in &mut conf.slots {
                    if s.common == from
                        && let Some(r) = s.rare
                    {
                        s.common = conf.rares[r as usize];
                        done = true;
                    }
                }
                if !done {
                    return Err(format!(
                        "'{}' has no rare twin in the Confluence deck (or it is the rare)",
                        db.card(from).name
                    ));
                }
            }
            for &from in &pt {
                let def = db.card(from);
                if def.rarity != Rarity::Common {
                    return Err(format!("'{}' is not a common", def.name));
                }
                let name = def.name.clone();
                let to = pool
                    .resolve_name(&name, Rarity::Rare, Some(1))
                    .ok_or_else(|| format!("'{name}' has no rare print in the pool"))?;
                let to = db
                    .by_ref(&to.reference)
                    .expect("the db holds every pool card");
                for d in players.iter_mut() {
                    swap_in_deck(d, from, to, None)?;
                }
            }
        }
        change => {
            for &from in &ct {
                let to = edited_copy(db, from, change, true)?;
                redirect(from, to, conf, players);
            }
            for &from in &pt {
                let to = edited_copy(db, from, change, false)?;
                redirect(from, to, conf, players);
            }
        }
    }
    Ok(())
}
