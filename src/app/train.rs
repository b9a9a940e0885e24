//! `confluence-sim train-expert`: fits the `expert`'s weights to the search's choices and
//! writes them (by default to `decks/policies/expert.toml`, which the binary embeds: rebuild
//! after training). The same flags give the same file.

use anyhow::{Result, bail};

use super::cli::TrainArgs;
use crate::job::load;
use crate::policy::AnyPolicy;
use crate::policy::train::{self, Examples};

pub fn train(a: TrainArgs) -> Result<()> {
    let m = crate::job::load::training_decks(&(&a.m).into(), "planner");
    if m.policies.len() != 1 {
        bail!("train-expert takes one --policy: the player whose games are studied");
    }
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let loaded = load::load(&m)?;
    let db = &loaded.lib.db;
    let data = loaded.policy_data();
    let search_spec = load::policies(std::slice::from_ref(&a.search))?.remove(0);
    if !matches!(search_spec.build(&data), AnyPolicy::Search(_)) {
        bail!("--search {}: expected a search policy", a.search);
    }
    let acting = &loaded.policies[0];
    let (tasks, cards) = super::selfplay::both_mixes(&loaded, a.games);
    let per_game: Vec<Examples> =
        super::selfplay::each_task(&tasks, a.threads, a.quiet, |&(d, x, g)| {
            let AnyPolicy::Search(mut search) = search_spec.build(&data) else {
                unreachable!("checked above")
            };
            let mut player = acting.build(&data);
            let mut ex = Examples::default();
            let task = (d, x, g);
            super::selfplay::taught_game(
                &loaded,
                &cards,
                m.day_cap,
                a.seed,
                task,
                &mut player,
                |view, options, srng| {
                    train::record(&data, view, options, &mut search, srng, &mut ex)
                },
            );
            ex
        })?;
    let mut all = Examples::default();
    for e in per_game {
        all.extend(e);
    }
    let w = train::fit_weights(&all, a.alpha, db).map_err(|e| anyhow::anyhow!(e))?;
    let header = format!(
        "Weights of the expert policy's learned scores (features: src/policy/features.rs).\n\
         Produced by: confluence-sim train-expert --games {} --seed {} --search {} --policy {} --alpha {} --confluence {}\n\
         ({} decks x all-common and all-rare; {} decisions, {} mana and {} turn examples.)\n\
         Rebuild after regenerating: the binary embeds this file.",
        a.games,
        a.seed,
        search_spec,
        acting,
        a.alpha,
        crate::job::builtin::shown(&m.confluence),
        loaded.players.len(),
        all.decisions,
        all.mana.len(),
        all.turn.len()
    );
    crate::job::outputs::write_whole(&a.out, &w.to_toml(&header))?;
    eprintln!(
        "confluence-sim: {} decisions, {} mana and {} turn examples; wrote {}",
        all.decisions,
        all.mana.len(),
        all.turn.len(),
        a.out.display()
    );
    Ok(())
}
