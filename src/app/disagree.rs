//! `confluence-sim disagree`: where a fast policy and the search choose differently.
//!
//! It plays games with the fast policy (`--policy`, default `planner`) and, at every
//! decision with a real choice, asks the search (`--search`) as well. It counts the
//! decisions per kind, how often the two disagree, and what the search expects to gain by
//! its choice over the fast one's (both measured in the same race, on the same samples),
//! then prints the positions where the expected gain is largest. It is the tool for
//! finding what a heuristic player misses.

use anyhow::{Result, bail};

use super::cli::DisagreeArgs;
use super::load;
use crate::deck::RareMix;
use crate::engine::event::NoObserver;
use crate::engine::setup::Matchup;
use crate::engine::view::View;
use crate::engine::{
    ChoiceList, Decision, GameState, Step, advance, apply_unchecked, legal_choices,
};
use crate::gamelog::describe_choice;
use crate::policy::{AnyPolicy, Policy};
use crate::sim::GameSeeds;

#[derive(Default, Clone, Copy)]
struct Kind {
    decisions: u64,
    disagree: u64,
    /// Sum of the search's expected gain over the disagreements it measured.
    gain: f64,
}

struct Example {
    gain: f64,
    text: String,
}

pub fn disagree(a: DisagreeArgs) -> Result<()> {
    let mut m = a.m.clone();
    if m.policies.is_empty() {
        m.policies = vec!["planner".into()];
    }
    if m.policies.len() != 1 {
        bail!("disagree takes one --policy (the fast policy); the search is --search");
    }
    let loaded = load::load(&m)?;
    let db = &loaded.lib.db;
    let data = loaded.policy_data();
    let mut fast = loaded.policies[0].build(&data);
    let search_spec = load::policies(std::slice::from_ref(&a.search))?.remove(0);
    let AnyPolicy::Search(mut search) = search_spec.build(&data) else {
        bail!("--search {}: expected search or clairvoyant", a.search);
    };
    let mix = if a.all_rares {
        RareMix::all(loaded.confluence.rares.len())
    } else {
        RareMix(0)
    };
    let conf = loaded.confluence.cards_for(mix);
    let deck = &loaded.players[0];
    let mt = Matchup {
        player_hero: deck.hero,
        player_cards: &deck.cards,
        confluence_hero: loaded.confluence.hero,
        confluence_cards: &conf,
        day_cap: m.day_cap,
    };
    let mut kinds: Vec<(Decision, Kind)> = Vec::new();
    let mut examples: Vec<Example> = Vec::new();
    let mut buf = ChoiceList::new();
    let mut wins = 0;
    for game in 0..a.games {
        let seeds = GameSeeds::new(a.seed, game);
        let (mut s, mut rng) = crate::sim::start_game(db, &mt, &seeds, &mut NoObserver);
        let mut prng = seeds.policy_rng();
        let mut srng = GameSeeds::rng(seeds.policy ^ 0xd15a);
        loop {
            match advance(&mut s, db, &mut rng, &mut NoObserver) {
                Step::Decide => {
                    legal_choices(&s, db, &mut buf);
                    let view = View::new(&s, db);
                    let k = fast.choose(&view, &buf, &mut prng);
                    if buf.len() > 1 {
                        let ks = search.choose(&view, &buf, &mut srng);
                        let slot = match kinds.iter().position(|(d, _)| *d == s.decision) {
                            Some(i) => i,
                            None => {
                                kinds.push((s.decision, Kind::default()));
                                kinds.len() - 1
                            }
                        };
                        let kind = &mut kinds[slot].1;
                        kind.decisions += 1;
                        if ks != k {
                            kind.disagree += 1;
                            let est = search.estimates();
                            let mean =
                                |o: usize| est.candidates.iter().find(|c| c.0 == o).map(|c| c.2);
                            if let (Some(vs), Some(vf)) = (mean(ks), mean(k)) {
                                kind.gain += vs - vf;
                                examples.push(Example {
                                    gain: vs - vf,
                                    text: position(&s, db, &buf, k, ks, vf, vs, game),
                                });
                            }
                        }
                    }
                    apply_unchecked(&mut s, db, &mut rng, &mut NoObserver, buf[k]);
                }
                Step::Over(o) => {
                    wins += o.is_win() as u32;
                    break;
                }
                Step::Stopped => break,
            }
        }
    }
    println!(
        "{} games of {} ({} wins); at each decision with a choice, {} was asked too.\n",
        a.games, loaded.policies[0], wins, search_spec
    );
    println!(
        "{:<16} {:>9} {:>9} {:>7} {:>22}",
        "decision", "decisions", "disagree", "share", "mean expected gain (pp)"
    );
    kinds.sort_by(|a, b| b.1.gain.total_cmp(&a.1.gain));
    for (d, k) in &kinds {
        println!(
            "{:<16} {:>9} {:>9} {:>6.1}% {:>22.2}",
            format!("{d:?}"),
            k.decisions,
            k.disagree,
            100.0 * k.disagree as f64 / k.decisions.max(1) as f64,
            100.0 * k.gain / k.disagree.max(1) as f64
        );
    }
    examples.sort_by(|a, b| b.gain.total_cmp(&a.gain));
    for e in examples.iter().take(a.show) {
        println!("\n{}", e.text);
    }
    Ok(())
}

/// A position in words: the day, both expeditions, the hand and the two choices.
#[allow(clippy::too_many_arguments)]
fn position(
    s: &GameState,
    db: &crate::cards::db::CardDb,
    options: &[crate::engine::Choice],
    fast: usize,
    search: usize,
    vf: f64,
    vs: f64,
    game: u64,
) -> String {
    use crate::cards::types::{Exp, Side};
    let v = View::new(s, db);
    let name = |id| db.card(s.obj(id).card).name.clone();
    let mut t = format!(
        "game {game}, day {}, {:?}: expected gain {:+.1} pp\n",
        s.day,
        s.decision,
        100.0 * (vs - vf)
    );
    for e in Exp::BOTH {
        let mine: Vec<String> = v
            .expedition(Side::Player, e)
            .iter()
            .map(|&i| name(i))
            .collect();
        let theirs: Vec<String> = v
            .expedition(Side::Confluence, e)
            .iter()
            .map(|&i| name(i))
            .collect();
        t += &format!(
            "  {:<9} region {} (darkness gap {}), requirement {:03b}: [{}] facing [{}]\n",
            e.name(),
            v.position(e),
            v.darkness_gap(e),
            v.requirement(e),
            mine.join(", "),
            theirs.join(", ")
        );
    }
    let hand: Vec<String> = v.hand().iter().map(|&i| name(i)).collect();
    let reserve: Vec<String> = v.reserve(Side::Player).iter().map(|&i| name(i)).collect();
    t += &format!(
        "  hand [{}], reserve [{}], mana {:?}, midnight target {:?}\n",
        hand.join(", "),
        reserve.join(", "),
        v.mana(Side::Player),
        v.midnight_target()
    );
    t += &format!(
        "  fast:   {} ({:.1}%)\n  search: {} ({:.1}%)",
        describe_choice(db, s, options[fast]),
        100.0 * vf,
        describe_choice(db, s, options[search]),
        100.0 * vs
    );
    t
}
