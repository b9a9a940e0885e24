//! `confluence-sim train-value`: plays self-play games, records the positions the player
//! decides in (as [`crate::policy::value::encode`] sees them) labelled by each game's
//! outcome, trains the value network and its logistic baseline on the same inputs with
//! candle, and writes the network (by default to `decks/policies/value.toml`, which the
//! binary embeds). It prints the held-out log loss of both models and the network's
//! calibration by decile. The same flags give the same file byte for byte.

use anyhow::Result;
use rand::{RngExt, SeedableRng};

use super::cli::{PositionsAt, TrainValueArgs};
use crate::deck::RareMix;
use crate::engine::ChoiceList;
use crate::engine::GameRng;
use crate::engine::event::NoObserver;
use crate::engine::view::View;
use crate::job::load;
use crate::policy::value::fit::{self, FitParams, Positions};
use crate::policy::value::{N_IN, encode, outcome_value};
use crate::policy::{AnyPolicy, PolicyRng};
use crate::sim::seed::splitmix64;
use crate::sim::{GameSeeds, play_watched};

/// Every tenth game (by index) is held out of training, for the log loss and calibration.
pub const HOLD_OUT_EVERY: u64 = 10;

/// The mean outcome of `k` games finished by `finisher` from samples of the hidden cards
/// drawn from the player's view (`--rollouts`): a label of the position with less noise
/// than the one game's outcome, and as blind as the view.
fn rollout_label(
    view: &View<'_>,
    finisher: &mut AnyPolicy,
    k: u32,
    seed: u64,
    buf: &mut ChoiceList,
) -> f32 {
    let db = view.db();
    let mut sum = 0f32;
    for j in 0..k {
        let s = splitmix64(seed ^ splitmix64(j as u64 + 1));
        let mut rng = GameRng::seed_from_u64(s);
        let mut g = view.determinize(&mut rng);
        let mut prng = PolicyRng::seed_from_u64(s ^ 0x9011);
        let r = crate::sim::finish_game(
            db,
            &mut g,
            &mut rng,
            finisher,
            &mut prng,
            buf,
            &mut NoObserver,
        );
        sum += outcome_value(Some(r.outcome));
    }
    sum / k as f32
}

pub fn train_value(a: TrainValueArgs) -> Result<()> {
    let m = crate::job::load::training_decks(&(&a.m).into(), "expert");
    if m.policies.len() != 1 {
        return Err(crate::job::error::usage(
            "train-value takes one --policy: the player whose games are recorded",
        ));
    }
    if a.every == 0 {
        return Err(crate::job::error::usage("--every must be at least 1"));
    }
    let loaded = load::load(&m)?;
    let db = &loaded.lib.db;
    let data = loaded.policy_data();
    let acting = &loaded.policies[0];
    let roller = load::policies(std::slice::from_ref(&a.rollout_policy))?.remove(0);
    let n_rares = loaded.confluence.rares.len();
    let tasks: Vec<(usize, u64)> = (0..loaded.players.len())
        .flat_map(|d| (0..a.games).map(move |g| (d, g)))
        .collect();
    // Per game: its positions and whether it is held out.
    let per_game: Vec<(Positions, bool)> =
        super::selfplay::each_task(&tasks, a.threads, a.quiet, |&(d, g)| {
            let seeds = GameSeeds::new(a.seed, (d as u64) << 32 | g);
            // A mix drawn per game: a number of rares, then which.
            let mut mix_rng = PolicyRng::seed_from_u64(splitmix64(seeds.game ^ 0x313));
            let count = mix_rng.random_range(0..=n_rares);
            let mut idx: Vec<usize> = (0..n_rares).collect();
            rand::seq::SliceRandom::shuffle(idx.as_mut_slice(), &mut mix_rng);
            let mix = RareMix(idx[..count].iter().fold(0u16, |b, &i| b | 1 << i));
            let conf = loaded.confluence.cards_for(mix);
            let mt = loaded.matchup(d, &conf, m.day_cap);
            let mut player = acting.build(&data);
            let mut finisher = roller.build(&data);
            let mut rbuf = ChoiceList::new();
            // The day of the last decision with a real choice (for --at day-start).
            let mut seen_day = 0u8;
            // Held-out positions keep the game's outcome as their label: the log loss
            // and calibration say how well the model predicts real games.
            let held = g % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1;
            let mut buf = ChoiceList::new();
            let mut x = [0f32; N_IN];
            // Each recorded position and its label (`None`: the game's outcome).
            let mut rows: Vec<([f32; N_IN], Option<f32>)> = Vec::new();
            let mut k = 0u64;
            let outcome = play_watched(
                db,
                &mt,
                &seeds,
                &mut player,
                false,
                &mut buf,
                |view, options, _| {
                    if options.len() < 2 {
                        return;
                    }
                    k += 1;
                    let at = match a.at {
                        PositionsAt::All => true,
                        PositionsAt::DayStart => view.day() >= 2 && view.day() != seen_day,
                    };
                    seen_day = view.day();
                    if at && splitmix64(seeds.game ^ k).is_multiple_of(a.every) {
                        encode(view, &mut x);
                        let label = (a.rollouts > 0 && !held).then(|| {
                            rollout_label(
                                view,
                                &mut finisher,
                                a.rollouts,
                                splitmix64(seeds.game ^ k ^ 0x1abe1),
                                &mut rbuf,
                            )
                        });
                        rows.push((x, label));
                    }
                },
            );
            let y = outcome_value(Some(outcome));
            let mut p = Positions::default();
            for (r, label) in &rows {
                p.push(r, label.unwrap_or(y));
            }
            (p, held)
        })?;
    let (mut train, mut held) = (Positions::default(), Positions::default());
    for (p, h) in per_game {
        if h { held.extend(p) } else { train.extend(p) }
    }
    if train.is_empty() || held.is_empty() {
        return Err(crate::job::error::usage(
            "too few positions to train and evaluate: raise --games (at least 10 per deck)",
        ));
    }
    let mut hash = blake3::Hasher::new();
    for v in train.x.iter().chain(&train.y) {
        hash.update(&v.to_le_bytes());
    }
    let hash = hash.finalize().to_hex();
    let params = FitParams {
        hidden: a.hidden as usize,
        epochs: a.epochs,
        batch: a.batch as usize,
        lr: a.lr,
        decay: a.decay,
        seed: a.seed,
    };
    let say = |what: &str, e: u32, l: f64| {
        if !a.quiet {
            eprintln!("confluence-sim: {what} epoch {e}: training log loss {l:.4}");
        }
    };
    let net = fit::fit(&train, &params, |e, l| say("network", e, l))
        .map_err(|e| anyhow::anyhow!("training: {e}"))?;
    let linear = fit::fit(
        &train,
        &FitParams {
            hidden: 0,
            ..params
        },
        |e, l| say("logistic", e, l),
    )
    .map_err(|e| anyhow::anyhow!("training: {e}"))?;
    let base = held.y.iter().map(|&y| y as f64).sum::<f64>() / held.len() as f64;
    let constant = -(base * base.ln() + (1.0 - base) * (1.0 - base).ln());
    let mut out = String::new();
    out += &format!(
        "{} positions for training, {} held out (every {}th game); held-out win rate {:.1}%\n\n",
        train.len(),
        held.len(),
        HOLD_OUT_EVERY,
        100.0 * base
    );
    out += "| model | held-out log loss | training log loss |\n|---|---|---|\n";
    out += &format!("| constant (the base rate) | {constant:.4} | |\n");
    out += &format!(
        "| logistic, same inputs | {:.4} | {:.4} |\n",
        fit::log_loss(&linear, &held),
        fit::log_loss(&linear, &train)
    );
    out += &format!(
        "| network, {} hidden units | {:.4} | {:.4} |\n\n",
        a.hidden,
        fit::log_loss(&net, &held),
        fit::log_loss(&net, &train)
    );
    out += "| decile | network: predicted | observed | logistic: predicted | observed |\n";
    out += "|---|---|---|---|---|\n";
    for (d, (n, l)) in fit::calibration(&net, &held)
        .iter()
        .zip(fit::calibration(&linear, &held))
        .enumerate()
    {
        out += &format!(
            "| {} | {:.1}% | {:.1}% | {:.1}% | {:.1}% |\n",
            d + 1,
            100.0 * n.0,
            100.0 * n.1,
            100.0 * l.0,
            100.0 * l.1
        );
    }
    let deck_names: Vec<String> = m.players.iter().map(|p| p.display().to_string()).collect();
    // The options that choose and label the positions, when they are not the defaults (so
    // that a file made with the defaults keeps the header it had before they existed).
    let mut labels = String::new();
    if a.at == PositionsAt::DayStart {
        labels += " --at day-start";
    }
    if a.rollouts > 0 {
        labels += &format!(" --rollouts {} --rollout-policy {roller}", a.rollouts);
    }
    // The network the player read, where it read one: the value model of the network's
    // games is trained in the games of `search:net=N`, by its own chain.
    let (network, rounds) = if acting.uses_pnet() {
        (
            format!(
                "\nThe player used the policy network embedded then: blake3 {}",
                blake3::hash(crate::policy::pnet::PNET_TOML.as_bytes()).to_hex()
            ),
            "scripts/train_models.sh netvalue",
        )
    } else {
        (String::new(), "scripts/train_value.sh")
    };
    let header = format!(
        "The value model: the player's win probability from a position (src/policy/value).\n\
         Produced by: confluence-sim train-value --games {} --seed {} --policy {} --every {}{} \
         --hidden {} --epochs {} --batch {} --lr {} --decay {} --confluence {} --day-cap {}\n\
         Decks: {}\n\
         Data: {} training positions, blake3 {}\n\
         {}{}\n\
         Every round: {}. Rebuild after regenerating: the binary embeds this file.",
        a.games,
        a.seed,
        acting,
        a.every,
        labels,
        a.hidden,
        a.epochs,
        a.batch,
        a.lr,
        a.decay,
        crate::job::builtin::shown(&m.confluence),
        m.day_cap,
        deck_names.join(" "),
        train.len(),
        hash,
        if acting.uses_value() {
            // The model the player read: the --value-weights file's, or the embedded one.
            // Named by content only, so that the file does not depend on where it was.
            let (whose, bytes) = match &m.value_weights {
                Some(p) => ("of --value-weights", std::fs::read(p)?),
                None => (
                    "embedded then",
                    crate::policy::value::VALUE_TOML.as_bytes().to_vec(),
                ),
            };
            format!(
                "The player used the value model {whose}: blake3 {}",
                blake3::hash(&bytes).to_hex()
            )
        } else if acting.uses_net_value() {
            format!(
                "The player used the network's value model embedded then: blake3 {}",
                blake3::hash(crate::policy::value::NET_VALUE_TOML.as_bytes()).to_hex()
            )
        } else {
            "The player used no value model.".to_string()
        },
        network,
        rounds
    );
    crate::job::outputs::write_whole(&a.out, &net.to_toml(&header))?;
    print!("{out}");
    eprintln!("confluence-sim: wrote {}", a.out.display());
    Ok(())
}
