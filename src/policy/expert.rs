//! `expert`: a strong player that is cheap enough for sweeps.
//!
//! It is the planner with learned scores at the decisions where the search most often
//! disagrees with it: which card to put into Mana (setup and Expand) and what to do at an
//! Afternoon turn. Each option is scored by a linear function of its features
//! ([`super::features`]), one of which is "the planner picked it", plus a learned
//! preference per card name (what a player learns about their own deck). The weights were
//! fitted to the search's choices by `confluence-sim train-expert` and are data in the
//! repository (`decks/policies/expert.toml`, embedded in the binary). Every other decision
//! is the planner's (Free for All's opponent choice included). It reads only the [`View`],
//! at a table of two seats or four (one generic body: the lanes through `View::across`,
//! "every opponent has passed", its own distance to the Darkness).
//!
//! Layer: part of [`crate::policy`]; may use `cards`, `engine` and nothing else of the crate.

use std::collections::BTreeMap;
use std::sync::Arc;

use arrayvec::ArrayVec;

use super::config::Decisions;
use super::features::{self, CARD_SLOTS, Family, MANA_F, MANA_NAMES, TURN_F, TURN_NAMES};
use super::planner::{Planner, PlannerParams};
use super::pnet::{OPT_EXPERT, OPT_IN, OPT_MANA, OPT_TURN, PolicyNet};
use super::profile::Profiles;
use super::value::{ValueNet, afterstate};
use super::{Policy, PolicyRng, Seated};
use crate::cards::db::CardDb;
use crate::engine::view::View;
use crate::engine::{Choice, ChoiceList};

/// The weights file, as committed.
pub const WEIGHTS_TOML: &str = include_str!("../../decks/policies/expert.toml");

/// The learned weights of both families, and the per-card preferences.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpertWeights {
    pub mana: [f32; MANA_F],
    pub turn: [f32; TURN_F],
    /// Per card name: a preference for playing it from hand, playing it from Reserve,
    /// putting it into Mana and using its quick action, added to the option's score.
    /// Cards not named score 0 there, so a deck of unseen cards is played by the general
    /// weights alone.
    pub cards: BTreeMap<String, [f32; CARD_SLOTS]>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct WeightsFile {
    mana: BTreeMap<String, f64>,
    turn: BTreeMap<String, f64>,
    #[serde(default)]
    cards: BTreeMap<String, [f64; CARD_SLOTS]>,
}

fn section<const N: usize>(
    name: &str,
    map: &BTreeMap<String, f64>,
    names: &[&str; N],
) -> Result<[f32; N], String> {
    let mut w = [0f32; N];
    for (k, v) in map {
        let i = names.iter().position(|n| n == k).ok_or_else(|| {
            format!(
                "[{name}] has an unknown feature '{k}' (expected one of: {})",
                names.join(", ")
            )
        })?;
        w[i] = *v as f32;
    }
    Ok(w)
}

impl ExpertWeights {
    pub fn parse(text: &str) -> Result<ExpertWeights, String> {
        let f: WeightsFile = toml::from_str(text).map_err(|e| e.to_string())?;
        Ok(ExpertWeights {
            mana: section("mana", &f.mana, &MANA_NAMES)?,
            turn: section("turn", &f.turn, &TURN_NAMES)?,
            cards: f
                .cards
                .into_iter()
                .map(|(k, v)| (k, v.map(|x| x as f32)))
                .collect(),
        })
    }

    /// The per-card preferences by card index of `db` (names not in `db` are unused).
    pub fn card_table(&self, db: &CardDb) -> Vec<[f32; CARD_SLOTS]> {
        db.cards
            .iter()
            .map(|c| self.cards.get(&c.name).copied().unwrap_or_default())
            .collect()
    }

    /// The committed weights.
    pub fn embedded() -> ExpertWeights {
        Self::parse(WEIGHTS_TOML).expect("decks/policies/expert.toml is checked by a unit test")
    }

    /// The file `train-expert` writes: a header, then one line per feature.
    pub fn to_toml(&self, header: &str) -> String {
        let mut s = String::new();
        for l in header.lines() {
            s += &format!("# {l}\n");
        }
        s += "\n[mana]\n";
        for (n, w) in MANA_NAMES.iter().zip(self.mana) {
            s += &format!("{n} = {w}\n");
        }
        s += "\n[turn]\n";
        for (n, w) in TURN_NAMES.iter().zip(self.turn) {
            s += &format!("{n} = {w}\n");
        }
        if !self.cards.is_empty() {
            s += "\n# Per card: [play from hand, play from Reserve, into Mana, quick action]\n";
            s += "[cards]\n";
            for (n, w) in &self.cards {
                let key = toml::Value::String(n.clone());
                let w: Vec<String> = w.iter().map(f32::to_string).collect();
                s += &format!("{key} = [{}]\n", w.join(", "));
            }
        }
        s
    }
}

/// The weights an `expert` plays by, with the per-card preferences resolved for one card
/// database; built once per run and shared.
#[derive(Clone, Debug)]
pub struct ExpertModel {
    pub w: ExpertWeights,
    cards: Vec<[f32; CARD_SLOTS]>,
}

impl ExpertModel {
    pub fn new(w: ExpertWeights, db: &CardDb) -> ExpertModel {
        ExpertModel {
            cards: w.card_table(db),
            w,
        }
    }

    /// The learned preference for option `c` (0 for options that name no card).
    #[inline]
    fn card<const N: usize, const M: usize>(&self, view: &View<'_, N, M>, c: &Choice) -> f32 {
        features::card_slot(view, c)
            .and_then(|(card, slot)| self.cards.get(card as usize).map(|w| w[slot]))
            .unwrap_or(0.0)
    }
}

pub struct Expert {
    planner: Planner,
    prof: Arc<Profiles>,
    m: Arc<ExpertModel>,
    /// One-ply lookahead on the value model (`expert:value=S`), when set.
    look: Option<Lookahead>,
    /// The policy network (`expert:net=1`), when set.
    net: Option<Net>,
}

/// Most options of a card-into-Mana decision the expert scores (the others are never
/// picked).
const MANA_CAP: usize = 64;

/// The policy network and the buffer of its option inputs (allocated once per player).
struct Net {
    model: Arc<PolicyNet>,
    inputs: Box<[[f32; OPT_IN]; 256]>,
}

/// The value model and how the expert uses it.
pub struct Lookahead {
    pub net: Arc<ValueNet>,
    /// Samples of the hidden information per decision.
    pub samples: u32,
    /// Which decisions use it (`vonly`, as the search's `only`).
    pub only: Decisions,
    buf: Box<ChoiceList>,
}

impl Lookahead {
    pub fn new(net: Arc<ValueNet>, samples: u32, only: Decisions) -> Lookahead {
        Lookahead {
            net,
            samples,
            only,
            buf: Box::new(ChoiceList::new()),
        }
    }
}

impl Expert {
    pub fn new(prof: Arc<Profiles>, params: PlannerParams, m: Arc<ExpertModel>) -> Expert {
        Expert {
            planner: Planner::new(prof.clone(), params),
            prof,
            m,
            look: None,
            net: None,
        }
    }

    /// The same player, scoring options by the policy network (`expert:net=1`) instead of
    /// the linear weights where it scores them.
    pub fn with_net(mut self, model: Arc<PolicyNet>) -> Expert {
        self.net = Some(Net {
            model,
            inputs: Box::new([[0f32; OPT_IN]; 256]),
        });
        self
    }

    /// The same player, deciding with the value model where `look.only` says.
    pub fn with_lookahead(mut self, look: Lookahead) -> Expert {
        self.look = Some(look);
        self
    }
}

/// The option with the highest score (the first on ties).
fn best(scores: impl Iterator<Item = f32>) -> usize {
    let mut b = 0;
    let mut bs = f32::NEG_INFINITY;
    for (k, s) in scores.enumerate() {
        if s > bs {
            bs = s;
            b = k;
        }
    }
    b
}

impl<const N: usize, const M: usize> Policy<N, M> for Expert
where
    for<'v> View<'v, N, M>: Seated<'v>,
{
    fn choose(&mut self, view: &View<'_, N, M>, options: &[Choice], rng: &mut PolicyRng) -> usize {
        self.decide(view, options, rng)
    }
}

impl Expert {
    /// The choice at a table of any size (its [`Policy`] at two seats and at four). The value model's
    /// lookahead and the policy network read two-seat positions: at four seats they are
    /// never set (`ffa` refuses `value=` and `net=`), and the weights decide.
    pub fn decide<'v, const N: usize, const M: usize>(
        &mut self,
        view: &View<'v, N, M>,
        options: &[Choice],
        rng: &mut PolicyRng,
    ) -> usize
    where
        View<'v, N, M>: Seated<'v>,
    {
        if options.len() == 1 {
            return 0;
        }
        if let Some(l) = &mut self.look
            && l.only.contains(view.decision())
            && let Some(two) = view.two_seat()
        {
            let mut v = [0f32; 256];
            afterstate::values(two, options, &l.net, l.samples, rng, &mut l.buf, &mut v);
            return best(v[..options.len()].iter().copied());
        }
        let mut v = [0f32; 256];
        if self.scores(view, options, &mut v) {
            best(v[..options.len()].iter().copied())
        } else {
            self.planner.decide(view, options)
        }
    }
}

/// What [`Expert::linear`] scored.
enum Scored {
    /// Not a decision the expert scores: the planner decides.
    No,
    Mana,
    /// An Afternoon turn, with the planner's first choice.
    Turn {
        planner_first: usize,
    },
}

impl Expert {
    /// The learned score of each option into `out`, at the decisions the expert scores
    /// (card into Mana, Afternoon turn); false elsewhere (the planner decides there). With
    /// the policy network (`expert:net=1`) the network's scores.
    fn scores<'v, const N: usize, const M: usize>(
        &mut self,
        view: &View<'v, N, M>,
        options: &[Choice],
        out: &mut [f32],
    ) -> bool
    where
        View<'v, N, M>: Seated<'v>,
    {
        // Taken out while the linear part fills its inputs (a move of the box, no copy).
        let mut net = self.net.take();
        let scored = self.linear(view, options, out, net.as_mut().map(|n| &mut n.inputs[..]));
        self.net = net;
        if matches!(scored, Scored::No) {
            return false;
        }
        if let Some(n) = &self.net
            && let Some(two) = view.two_seat()
        {
            // Options past the Mana features' capacity stay unpicked, as the expert's.
            let k = options.len().min(n.inputs.len());
            let k = match scored {
                Scored::Mana => k.min(MANA_CAP),
                _ => k,
            };
            n.model.scores_of(two, &n.inputs[..k], &mut out[..k]);
        }
        if let Scored::Turn { planner_first } = scored {
            // Head to head and in Free for All the weights (fitted against the Confluence)
            // would pass where the planner still has a play that wins a duel
            // (`super::duel`): it plays it.
            let stops = |k: usize| matches!(options[k], Choice::Pass | Choice::Done);
            if super::needs::head_to_head(view) {
                let k = best(out[..options.len()].iter().copied());
                if stops(k) && !stops(planner_first) {
                    out[planner_first] = f32::INFINITY;
                }
            }
        }
        true
    }

    /// The expert's linear scores into `out` and, when `inputs` is given, each option's
    /// inputs of the policy network ([`super::pnet::OPT_IN`]: its features and that score).
    fn linear<const N: usize, const M: usize>(
        &mut self,
        view: &View<'_, N, M>,
        options: &[Choice],
        out: &mut [f32],
        mut inputs: Option<&mut [[f32; OPT_IN]]>,
    ) -> Scored {
        match features::family(view.decision()) {
            Some(Family::Mana) => {
                let pick = self.planner.decide(view, options);
                let mut fs: ArrayVec<features::ManaFeatures, MANA_CAP> = ArrayVec::new();
                features::mana(view, &self.prof, options, pick, &mut fs);
                for (k, f) in fs.iter().enumerate() {
                    out[k] = features::dot(&self.m.w.mana, f) + self.m.card(view, &options[k]);
                    if let Some(i) = inputs.as_deref_mut().and_then(|i| i.get_mut(k)) {
                        *i = [0f32; OPT_IN];
                        i[0] = 1.0;
                        i[OPT_MANA..OPT_MANA + MANA_F].copy_from_slice(f);
                        i[OPT_EXPERT] = out[k];
                    }
                }
                // Options past the feature buffer's capacity are never picked.
                for o in out.iter_mut().take(options.len()).skip(fs.len()) {
                    *o = f32::NEG_INFINITY;
                }
                Scored::Mana
            }
            Some(Family::Turn) => {
                let (ranked, day) = self.planner.ranked_with_day(view, options);
                let ctx = features::TurnCtx::new(view, &day);
                for (k, o) in out.iter_mut().enumerate().take(options.len()) {
                    let f = features::turn(view, &self.prof, &ctx, options, k, &ranked);
                    *o = features::dot(&self.m.w.turn, &f) + self.m.card(view, &options[k]);
                    if let Some(i) = inputs.as_deref_mut().and_then(|i| i.get_mut(k)) {
                        *i = [0f32; OPT_IN];
                        i[OPT_TURN..OPT_TURN + TURN_F].copy_from_slice(&f);
                        i[OPT_EXPERT] = *o;
                    }
                }
                Scored::Turn {
                    planner_first: ranked[0],
                }
            }
            None => Scored::No,
        }
    }

    /// The policy network's inputs of each option into `inputs` (see
    /// [`super::pnet::data::record`]): the number of options filled, 0 at a decision the
    /// expert does not score.
    pub fn option_inputs(
        &mut self,
        view: &View<'_>,
        options: &[Choice],
        inputs: &mut [[f32; OPT_IN]],
    ) -> usize {
        let mut out = [0f32; 256];
        match self.linear(view, options, &mut out, Some(&mut *inputs)) {
            Scored::No => 0,
            Scored::Mana => options.len().min(MANA_CAP).min(inputs.len()),
            Scored::Turn { .. } => options.len().min(inputs.len()),
        }
    }

    /// The options best first by the expert's own scores, up to `out`'s capacity; where it
    /// does not score options (the planner decides), its pick alone. For the search's
    /// candidates (`search:rank=1`). Returns how sure it is of the first: its probability
    /// under a softmax of the scores (the model the weights were fitted as), or `None`
    /// where the planner decides.
    pub fn ranked<'v, const CAP: usize, const N: usize, const M: usize>(
        &mut self,
        view: &View<'v, N, M>,
        options: &[Choice],
        rng: &mut PolicyRng,
        out: &mut ArrayVec<usize, CAP>,
    ) -> Option<f32>
    where
        View<'v, N, M>: Seated<'v>,
    {
        let mut v = [0f32; 256];
        if !self.scores(view, options, &mut v) {
            out.push(self.decide(view, options, rng));
            return None;
        }
        let n = options.len().min(256);
        let top = v[..n].iter().copied().fold(f32::NEG_INFINITY, f32::max);
        // An infinite score (the duel's forced play) is certain.
        let sure = if top == f32::INFINITY {
            1.0
        } else {
            1.0 / v[..n].iter().map(|&x| (x - top).exp()).sum::<f32>()
        };
        let mut idx: ArrayVec<u8, 256> = (0..n as u8).collect();
        // Best first, the first option on ties (as `best`).
        idx.sort_by(|&a, &b| v[b as usize].total_cmp(&v[a as usize]).then(a.cmp(&b)));
        for &k in &idx {
            if out.is_full() {
                break;
            }
            out.push(k as usize);
        }
        Some(sure)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_weights_parse_and_round_trip() {
        let w = ExpertWeights::embedded();
        let again = ExpertWeights::parse(&w.to_toml("header")).unwrap();
        assert_eq!(w, again);
    }

    #[test]
    fn card_preferences_round_trip_with_any_name() {
        let mut w = ExpertWeights::embedded();
        w.cards
            .insert("Odd \"name\" \\ bōshi".into(), [1.0, -2.5, 0.0, 3.25]);
        let again = ExpertWeights::parse(&w.to_toml("header")).unwrap();
        assert_eq!(w, again);
    }

    #[test]
    fn every_card_the_committed_weights_name_is_in_the_pool() {
        let lib = crate::cards::Library::load(std::path::Path::new("decks/cards")).unwrap();
        let table = ExpertWeights::embedded().card_table(&lib.db);
        for name in ExpertWeights::embedded().cards.keys() {
            let found = lib.db.cards.iter().position(|c| &c.name == name);
            assert!(found.is_some(), "'{name}' is not in decks/cards/pool.csv");
        }
        assert_eq!(table.len(), lib.db.cards.len());
    }

    #[test]
    fn unknown_features_are_refused() {
        let e = ExpertWeights::parse("[mana]\nfoo = 1\n[turn]\n").unwrap_err();
        assert!(e.contains("unknown feature 'foo'"), "{e}");
    }
}
