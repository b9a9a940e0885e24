//! `confluence-sim replay`: one game of a run, as a log a person can read.

use std::io::Write;

use anyhow::Result;

use super::cli::ReplayArgs;
use super::load;
use super::mixes;
use crate::engine::setup::{Matchup, SetupStreams, new_game};
use crate::engine::view::View;
use crate::engine::{ChoiceList, Step, advance, apply_unchecked, legal_choices};
use crate::gamelog::GameLog;
use crate::policy::Policy;
use crate::sim::GameSeeds;

pub fn replay(a: ReplayArgs) -> Result<()> {
    let loaded = load::load(&a.m)?;
    if loaded.players.len() != 1 || loaded.policies.len() != 1 {
        return Err(super::usage(
            "replay plays one game: give one --player and one --policy",
        ));
    }
    let mixes = mixes::mixes(
        &loaded.confluence,
        &loaded.lib.db,
        &a.m.rares,
        &a.m.rare_sets,
        a.m.subsets,
        a.seed,
    )?;
    let Some(&mix) = mixes.get(a.mix_index) else {
        return Err(super::usage(format!(
            "--mix-index {} is out of range: these rare flags give {} mix(es)",
            a.mix_index,
            mixes.len()
        )));
    };
    let db = &loaded.lib.db;
    let deck = &loaded.players[0];
    let conf_cards = loaded.confluence.cards_for(mix);
    let m = Matchup {
        player_hero: deck.hero,
        player_cards: &deck.cards,
        confluence_hero: loaded.confluence.hero,
        confluence_cards: &conf_cards,
        day_cap: a.m.day_cap,
    };
    let seeds = GameSeeds::new(a.seed, a.game_index);
    let mut log = GameLog::new(db);
    log.lines.push(format!(
        "Game {} of seed {} (game seed {}): {} ({}) with policy {} against {}; rares: {}",
        a.game_index,
        a.seed,
        seeds.game,
        deck.name,
        db.card(deck.hero).name,
        loaded.policies[0],
        loaded.confluence.name,
        {
            let names = loaded.confluence.mix_names(mix, db);
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        }
    ));
    let mut setup = GameSeeds::rng(seeds.setup);
    let mut conf = GameSeeds::rng(seeds.confluence);
    let mut rng = GameSeeds::rng(seeds.events);
    let mut prng = seeds.policy_rng();
    let mut policy = loaded.policies[0].build(&loaded.policy_data());
    let mut s = new_game(
        db,
        &m,
        SetupStreams {
            setup: &mut setup,
            confluence: &mut conf,
        },
        &mut rng,
        &mut log,
    );
    let mut buf = ChoiceList::new();
    loop {
        match advance(&mut s, db, &mut rng, &mut log) {
            Step::Over(_) | Step::Stopped => break,
            Step::Decide => {
                legal_choices(&s, db, &mut buf);
                let k = if buf.len() == 1 {
                    0
                } else {
                    policy.choose(&View::new(&s, db), &buf, &mut prng)
                };
                log.decision(&s, buf.len(), buf[k]);
                apply_unchecked(&mut s, db, &mut rng, &mut log, buf[k]);
            }
        }
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if a.json {
        for r in &log.records {
            writeln!(out, "{r}")?;
        }
    } else {
        for l in &log.lines {
            writeln!(out, "{l}")?;
        }
    }
    out.flush()?;
    Ok(())
}
