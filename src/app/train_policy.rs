//! `confluence-sim train-policy`: distills a search into the policy network of
//! `expert:net=1`. The --policy player plays games of every deck at all commons and all
//! rares; at each card-into-Mana and Afternoon-turn decision the teacher (--search) is
//! asked, and the position, every option's inputs and the teacher's choice are recorded
//! ([`crate::policy::pnet::data`]). The network is trained on them with candle and written
//! (by default to `decks/policies/pnet.toml`, which the binary embeds). It prints how often
//! the expert and the network pick the teacher's option on held-out games. The same flags
//! give the same file byte for byte, on any number of threads.

use anyhow::{Context, Result};

use super::cli::TrainPolicyArgs;
use crate::job::load;
use crate::policy::pnet::PolicyNet;
use crate::policy::pnet::data::{self, Decisions};
use crate::policy::pnet::fit::{self, FitParams};
use crate::policy::{AnyPolicy, PolicySpec};

/// Every tenth game (by index) is held out of training, for the evaluation.
pub const HOLD_OUT_EVERY: u64 = 10;

pub fn train_policy(a: TrainPolicyArgs) -> Result<()> {
    let m = load::training_decks(&(&a.m).into(), "expert");
    if m.policies.len() != 1 {
        return Err(crate::job::error::usage(
            "train-policy takes one --policy: the player whose games are recorded",
        ));
    }
    let loaded = load::load(&m)?;
    let pdata = loaded.policy_data();
    let teacher = load::policies(std::slice::from_ref(&a.search))?.remove(0);
    if !matches!(teacher.build(&pdata), AnyPolicy::Search(_)) {
        return Err(crate::job::error::usage(format!(
            "--search {teacher}: expected a search policy"
        )));
    }
    let plain: PolicySpec = "expert".parse().map_err(anyhow::Error::msg)?;
    let acting = &loaded.policies[0];
    let (tasks, cards) = super::selfplay::both_mixes(&loaded, a.games);
    let per_game: Vec<(Decisions, bool)> =
        super::selfplay::each_task(&tasks, a.threads, a.quiet, |&(d, x, g)| {
            let (AnyPolicy::Search(mut search), AnyPolicy::Expert(mut expert)) =
                (teacher.build(&pdata), plain.build(&pdata))
            else {
                unreachable!("checked above")
            };
            let mut player = acting.build(&pdata);
            let mut rows = Decisions::default();
            let task = (d, x, g);
            super::selfplay::taught_game(
                &loaded,
                &cards,
                m.day_cap,
                a.seed,
                task,
                &mut player,
                |view, options, srng| {
                    data::record(view, options, &mut expert, &mut search, srng, &mut rows)
                },
            );
            (rows, g % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1)
        })?;
    let (mut train, mut held) = (Decisions::default(), Decisions::default());
    for (rows, h) in &per_game {
        if *h {
            held.extend(rows)
        } else {
            train.extend(rows)
        }
    }
    drop(per_game);
    if train.is_empty() || held.is_empty() {
        return Err(crate::job::error::usage(
            "too few decisions to train and evaluate: raise --games (at least 10)",
        ));
    }
    let hash = train.hash();
    let params = FitParams {
        hidden: a.hidden as usize,
        epochs: a.epochs,
        batch: a.batch as usize,
        lr: a.lr,
        decay: a.decay,
        seed: a.seed,
    };
    let net = fit::fit(&train, &params, |e, l| {
        if !a.quiet {
            eprintln!("confluence-sim: epoch {e}: training cross-entropy {l:.4}");
        }
    })
    .map_err(|e| anyhow::anyhow!("training: {e}"))?;
    let mut out = format!(
        "{} decisions ({} options) for training, {} held out (every {}th game)\n\n\
         | model | held-out: picks the teacher's option | cross-entropy | training: picks | cross-entropy |\n\
         |---|---|---|---|---|\n",
        train.len(),
        train.rows(),
        held.len(),
        HOLD_OUT_EVERY
    );
    for (name, n) in [
        (
            "expert (its linear score)".to_string(),
            PolicyNet::expert_only(),
        ),
        (format!("network, {} hidden units", a.hidden), net.clone()),
    ] {
        let (hc, ha) = fit::evaluate(&n, &held);
        let (tc, ta) = fit::evaluate(&n, &train);
        out += &format!(
            "| {name} | {:.1}% | {hc:.4} | {:.1}% | {tc:.4} |\n",
            100.0 * ha,
            100.0 * ta
        );
    }
    let deck_names: Vec<String> = m.players.iter().map(|p| p.display().to_string()).collect();
    // The models the teacher, the inputs and the player read, by content.
    let file_hash = |p: &Option<std::path::PathBuf>, embedded: &str| -> Result<String> {
        let bytes = match p {
            Some(p) => std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?,
            None => embedded.as_bytes().to_vec(),
        };
        Ok(blake3::hash(&bytes).to_hex().to_string())
    };
    let mut models = format!(
        "Expert weights read (the options' inputs, the teacher): blake3 {}",
        file_hash(&m.expert_weights, crate::policy::expert::WEIGHTS_TOML)?
    );
    if teacher.uses_value() || acting.uses_value() {
        models += &format!(
            "\nValue model read: blake3 {}",
            file_hash(&m.value_weights, crate::policy::value::VALUE_TOML)?
        );
    }
    if teacher.uses_net_value() || acting.uses_net_value() {
        models += &format!(
            "\nThe network's value model read: blake3 {}",
            blake3::hash(crate::policy::value::NET_VALUE_TOML.as_bytes()).to_hex()
        );
    }
    if acting.uses_pnet() {
        models += &format!(
            "\nThe player used the policy network embedded then: blake3 {}",
            blake3::hash(crate::policy::pnet::PNET_TOML.as_bytes()).to_hex()
        );
    }
    let header = format!(
        "The policy network of expert:net=1 (src/policy/pnet).\n\
         Produced by: confluence-sim train-policy --games {} --seed {} --search {} --policy {} \
         --hidden {} --epochs {} --batch {} --lr {} --decay {} --confluence {} --day-cap {}\n\
         Decks: {}\n\
         Data: {} training decisions, {} options, blake3 {}\n\
         {}\n\
         Rebuild after regenerating: the binary embeds this file.",
        a.games,
        a.seed,
        teacher,
        acting,
        a.hidden,
        a.epochs,
        a.batch,
        a.lr,
        a.decay,
        crate::job::builtin::shown(&m.confluence),
        m.day_cap,
        deck_names.join(" "),
        train.len(),
        train.rows(),
        hash,
        models
    );
    crate::job::outputs::write_whole(&a.out, &net.to_toml(&header))?;
    print!("{out}");
    eprintln!("confluence-sim: wrote {}", a.out.display());
    Ok(())
}
