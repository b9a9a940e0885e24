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
use crate::deck::RareMix;
use crate::engine::event::NoObserver;
use crate::engine::setup::Matchup;
use crate::engine::view::View;
use crate::engine::{
    ChoiceList, Decision, GameState, Step, advance, apply_unchecked, legal_choices,
};
use crate::gamelog::describe_choice;
use crate::job::load;
use crate::policy::{AnyPolicy, Knob, Policy};
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
    let loaded = load::load(&(&m).into())?;
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
    let mt = loaded.matchup(0, &conf, m.day_cap);
    if !a.agreement.is_empty() {
        return agreement(&a, &loaded, &mt, &search_spec, &mut fast);
    }
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

/// Agreement counts of one family of decisions.
#[derive(Default, Clone, Copy)]
struct Agree {
    positions: u64,
    /// Per budget: the two searches agree; the first agrees with the reference.
    same: [u64; 8],
    with_ref: [u64; 8],
    fast_with_ref: u64,
}

/// `disagree --agreement B,B,...`: the label-noise ceiling of the search as a teacher.
fn agreement(
    a: &DisagreeArgs,
    loaded: &load::Loaded,
    mt: &Matchup<'_>,
    search_spec: &crate::policy::PolicySpec,
    fast: &mut AnyPolicy,
) -> Result<()> {
    let budgets = &a.agreement;
    if budgets.len() > 8 || budgets.contains(&0) {
        return Err(crate::job::error::usage(
            "--agreement takes 1 to 8 budgets, each at least 1",
        ));
    }
    let top = *budgets.iter().max().expect("not empty");
    let data = loaded.policy_data();
    let db = &loaded.lib.db;
    let at = |b: u32| search_spec.clone().with(Knob::Rollouts, b);
    let mut searches: Vec<AnyPolicy> = budgets.iter().map(|&b| at(b).build(&data)).collect();
    let mut reference = at(top).build(&data);
    // Families: Mana, Turn, other, all.
    let mut fam = [Agree::default(); 4];
    let mut buf = ChoiceList::new();
    for game in 0..a.games {
        let seeds = GameSeeds::new(a.seed, game);
        let (mut s, mut rng) = crate::sim::start_game(db, mt, &seeds, &mut NoObserver);
        let mut prng = seeds.policy_rng();
        // Independent streams for the first and the second search of each budget and for
        // the reference.
        let mut r1 = GameSeeds::rng(seeds.policy ^ 0xa1);
        let mut r2 = GameSeeds::rng(seeds.policy ^ 0xb2);
        let mut rr = GameSeeds::rng(seeds.policy ^ 0xc3);
        while let Step::Decide = advance(&mut s, db, &mut rng, &mut NoObserver) {
            legal_choices(&s, db, &mut buf);
            let view = View::new(&s, db);
            let k = fast.choose(&view, &buf, &mut prng);
            if buf.len() > 1 {
                let f = match crate::policy::decision_bit(s.decision) {
                    1 => 0,
                    2 => 1,
                    _ => 2,
                };
                let r = reference.choose(&view, &buf, &mut rr);
                for slot in [f, 3] {
                    fam[slot].positions += 1;
                    fam[slot].fast_with_ref += (k == r) as u64;
                }
                for (i, p) in searches.iter_mut().enumerate() {
                    let x = p.choose(&view, &buf, &mut r1);
                    let y = p.choose(&view, &buf, &mut r2);
                    for slot in [f, 3] {
                        fam[slot].same[i] += (x == y) as u64;
                        fam[slot].with_ref[i] += (x == r) as u64;
                    }
                }
            }
            apply_unchecked(&mut s, db, &mut rng, &mut NoObserver, buf[k]);
        }
    }
    println!(
        "{} games of {} on {}; at each decision with a choice, two searches per budget \
         ({}) and a reference search at {} samples, each on its own stream.\n",
        a.games, loaded.policies[0], loaded.players[0].name, search_spec, top
    );
    println!(
        "{:<8} {:>9} {:>7} {:>16} {:>20}",
        "family", "positions", "budget", "two agree", "agrees with ref"
    );
    for (name, f) in ["Mana", "Turn", "other", "all"].iter().zip(&fam) {
        let pct = |x: u64| 100.0 * x as f64 / f.positions.max(1) as f64;
        for (i, b) in budgets.iter().enumerate() {
            println!(
                "{:<8} {:>9} {:>7} {:>15.1}% {:>19.1}%",
                name,
                f.positions,
                b,
                pct(f.same[i]),
                pct(f.with_ref[i])
            );
        }
        println!(
            "{:<8} {:>9} {:>7} {:>16} {:>19.1}%",
            name,
            f.positions,
            loaded.policies[0].to_string(),
            "",
            pct(f.fast_with_ref)
        );
    }
    Ok(())
}
