//! The skill fit's proof without people (docs/skill.md): plays games of `skill:t=T0`
//! (Bravos starter against the reference Confluence), records each decision the player
//! faced, re-evaluates it with an evaluator of its own (fresh samples, as `calibrate`
//! does with a recorded game) and fits T to the choices. Prints the fit on all the
//! decisions and on disjoint blocks of 200 informative ones: how often the block's 95%
//! interval holds T0, and its width. Also the fit on the generator's own values (no
//! re-evaluation noise), where the interval must hold T0.
//!
//! `cargo run --release --example skill_fit -- T0 GAMES [FIT_EVALUATOR [GENERATOR]] [--rares]`
//! (T0 may instead be another player's spec, `planner` or `expert`: its decisions are
//! re-evaluated and fitted alike)
//! from the repository root (FIT_EVALUATOR: a search spec, default `fastsearch`; GENERATOR:
//! the player's evaluator, `skill:t=T0,from=GENERATOR`, default `fastsearch`). Deterministic: seed 1, game `i`'s policy stream
//! as `run`'s, the re-evaluation's streams from the game and decision numbers.

use std::path::Path;

use rand::SeedableRng;
use rayon::prelude::*;

use confluence_sim::cards::Library;
use confluence_sim::deck::{ConfluenceDeck, PlayerDeck, RareMix};
use confluence_sim::engine::view::View;
use confluence_sim::engine::{Choice, ChoiceList, event::NoObserver, setup::Matchup};
use confluence_sim::policy::skill::pick;
use confluence_sim::policy::{AnyPolicy, Evaluator, Policy, PolicyData, PolicyRng, PolicySpec};
use confluence_sim::sim::{GameSeeds, play_game};
use confluence_sim::stats::skill_fit::{FitDecision, FitResult, fit, given_away};

/// `skill:t=T0` playing (the same choices as the policy: values, then the draw, from its
/// stream), each decision re-evaluated by `fit` from a stream of its own.
struct Recorder {
    /// Another player instead of `skill:t=T0` (`planner`, `expert`): its choices are
    /// re-evaluated and fitted alike (the generator's values are then not computed).
    player: Option<AnyPolicy>,
    generator: Evaluator,
    refit: Evaluator,
    t: f64,
    game: u64,
    q: Vec<f64>,
    r: Vec<f64>,
    /// (the generator's values, the re-evaluation's), each with the choice.
    out: Vec<(FitDecision, FitDecision)>,
}

impl Policy for Recorder {
    fn choose(&mut self, view: &View<'_>, options: &[Choice], rng: &mut PolicyRng) -> usize {
        if options.len() == 1 {
            return 0;
        }
        self.q.clear();
        self.q.resize(options.len(), 0.0);
        let k = match &mut self.player {
            Some(p) => p.choose(view, options, rng),
            None => {
                self.generator.values(view, options, rng, &mut self.q);
                pick(self.t, &self.q, self.generator.order(), rng)
            }
        };
        let n = self.out.len() as u64;
        let mut frng = PolicyRng::seed_from_u64(self.game << 20 ^ n ^ 0xca11_b4a7e);
        self.r.clear();
        self.r.resize(options.len(), 0.0);
        self.refit.values(view, options, &mut frng, &mut self.r);
        let d = |values: &[f64]| FitDecision {
            values: values.to_vec(),
            chosen: k,
            game: self.game,
        };
        self.out.push((d(&self.q), d(&self.r)));
        k
    }
}

fn show(what: &str, f: &FitResult) {
    println!(
        "{what}: t = {:.2} [{:.2}, {:.2}] from {} informative decisions ({} without information)",
        f.t, f.t_lo, f.t_hi, f.informative, f.uninformative
    );
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rares = args.iter().any(|a| a == "--rares");
    let pos: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    // T0, or the spec of another player whose decisions are fitted (`expert`).
    let first = pos.first().map_or("2", |s| s.as_str());
    let (t0, player): (f64, Option<PolicySpec>) = match first.parse() {
        Ok(t) => (t, None),
        Err(_) => (f64::NAN, Some(first.parse().map_err(anyhow::Error::msg)?)),
    };
    let games: u64 = pos.get(1).map_or(Ok(100), |s| s.parse())?;
    let fit_spec: PolicySpec = pos
        .get(2)
        .map_or("fastsearch", |s| s.as_str())
        .parse()
        .map_err(anyhow::Error::msg)?;
    let gen_spec: PolicySpec = pos
        .get(3)
        .map_or("fastsearch", |s| s.as_str())
        .parse()
        .map_err(anyhow::Error::msg)?;
    let decks = Path::new("decks");
    let mut lib = Library::load(&decks.join("cards"))?;
    let deck = PlayerDeck::load(&decks.join("player/BR_kojo_booda.txt"), &lib.pool, &lib.db)?;
    let conf = ConfluenceDeck::load(&decks.join("confluence/reference.toml"), &mut lib.db)?;
    let mix = if rares {
        RareMix::all(conf.rares.len())
    } else {
        RareMix(0)
    };
    let conf_cards = conf.cards_for(mix);
    let m = Matchup {
        player_hero: deck.hero,
        player_cards: &deck.cards,
        confluence_hero: conf.hero,
        confluence_cards: &conf_cards,
        day_cap: 30,
    };
    let data = PolicyData::new(&lib.db);
    let t = std::time::Instant::now();
    let per_game: Vec<(bool, Vec<(FitDecision, FitDecision)>)> = (0..games)
        .into_par_iter()
        .map(|i| {
            let mut rec = Recorder {
                player: player.as_ref().map(|p| p.build(&data)),
                generator: Evaluator::new(&gen_spec, &data).expect("a search"),
                refit: Evaluator::new(&fit_spec, &data).expect("a search"),
                t: t0,
                game: i,
                q: Vec::new(),
                r: Vec::new(),
                out: Vec::new(),
            };
            let seeds = GameSeeds::new(1, i);
            let mut buf = ChoiceList::new();
            let r = play_game(&lib.db, &m, &seeds, &mut rec, &mut buf, &mut NoObserver);
            (r.outcome.is_win(), rec.out)
        })
        .collect();
    let secs = t.elapsed().as_secs_f64();
    let wins = per_game.iter().filter(|g| g.0).count();
    let (own, refit): (Vec<FitDecision>, Vec<FitDecision>) =
        per_game.into_iter().flat_map(|g| g.1).unzip();
    let who = match &player {
        Some(p) => p.to_string(),
        None => format!("skill:t={t0},from={gen_spec}"),
    };
    println!(
        "{who}, re-evaluated by {fit_spec}, {} mix: {games} games ({wins} won), {} decisions with two or more options, {secs:.0} s",
        if rares { "all rares" } else { "all commons" },
        own.len()
    );
    if player.is_none() {
        show("fit on the generator's own values", &fit(&own));
    }
    show("fit on the re-evaluation", &fit(&refit));
    let g = given_away(&refit);
    println!(
        "value given away per decision (re-evaluated): {:.2} [{:.2}, {:.2}] points",
        g.estimate, g.lo, g.hi
    );
    // Disjoint blocks of 200 informative decisions, in game order.
    for (what, ds) in [("own values", &own), ("re-evaluation", &refit)] {
        if player.is_some() && what == "own values" {
            continue;
        }
        let inf: Vec<FitDecision> = ds.iter().filter(|d| d.is_informative()).cloned().collect();
        let blocks: Vec<FitResult> = inf.chunks_exact(200).map(fit).collect();
        if blocks.is_empty() {
            continue;
        }
        let held = blocks
            .iter()
            .filter(|f| f.t_lo <= t0 && t0 <= f.t_hi)
            .count();
        let widths: Vec<f64> = blocks.iter().map(|f| f.t_hi - f.t_lo).collect();
        let mean_w = widths.iter().sum::<f64>() / widths.len() as f64;
        let max_w = widths.iter().cloned().fold(0.0, f64::max);
        let mean_t = blocks.iter().map(|f| f.t).sum::<f64>() / blocks.len() as f64;
        let held = if player.is_some() {
            String::new()
        } else {
            format!(", T0 inside {held}")
        };
        println!(
            "blocks of 200 ({what}): {} blocks{held}, mean fit {mean_t:.2}, interval width mean {mean_w:.2}, widest {max_w:.2}",
            blocks.len()
        );
    }
    Ok(())
}
