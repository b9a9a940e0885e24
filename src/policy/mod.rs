//! Player policies. At every decision the engine lists the legal options; a policy picks
//! one, seeing only what the player can see (a [`View`]) and drawing any randomness from
//! its own stream.
//!
//! Layer: may use `cards`, `engine` and nothing else of the crate.

pub mod config;
pub mod deck_order;
pub mod duel;
mod error;
pub mod expert;
pub mod features;
mod greedy;
pub mod needs;
mod planner;
pub mod pnet;
pub mod profile;
mod random;
mod search;
pub mod simd;
pub mod skill;
pub mod train;
pub mod value;

use std::fmt;
use std::sync::Arc;

pub use config::{Decisions, Knob, Network, Settings};
pub use error::PolicyError;
pub use expert::{Expert, ExpertModel, ExpertWeights};
pub use greedy::Greedy;
pub use planner::{Planner, PlannerParams};
pub use random::Random;
pub use search::{DEEP, DWIDTH, Estimates, MAX_VALUED, NARROW, SEARCH_ALL, Search, SearchParams};
pub use skill::{Evaluator, Skill};

use crate::cards::db::CardDb;
use profile::Profiles;

use crate::engine::Choice;
use crate::engine::ffa::FfaView;
use crate::engine::state::MAX_OBJS;
use crate::engine::view::View;

/// The random stream of a policy (separate from the game's shuffles and dice).
pub type PolicyRng = rand_xoshiro::Xoshiro256PlusPlus;

/// A player: at every decision of a table of `N` seats (two: the solo game and head to
/// head; four: Free for All) it picks one of the legal options, seeing only its seat's
/// [`View`]. Every policy of the crate is one code for both tables, monomorphised for
/// each; `Policy` alone is the two-seat one.
pub trait Policy<const N: usize = 2, const M: usize = MAX_OBJS>: Send {
    /// Index into `options` (never empty) of the chosen option.
    fn choose(&mut self, view: &View<'_, N, M>, options: &[Choice], rng: &mut PolicyRng) -> usize;
}

/// A view of one of the two tables the policies play at: two seats ([`View`]: the solo
/// game and head to head) or Free for All's four ([`FfaView`]). Generic policy code reaches
/// what exists at two seats only through it: the value model and the policy network read
/// two-seat positions (against the Confluence). Monomorphised, the other size's branch is
/// gone.
pub trait Seated<'a> {
    /// This view, when it is a two-seat one.
    fn two_seat(&self) -> Option<&View<'a>>;
}

impl<'a> Seated<'a> for View<'a> {
    #[inline]
    fn two_seat(&self) -> Option<&View<'a>> {
        Some(self)
    }
}

impl<'a> Seated<'a> for FfaView<'a> {
    #[inline]
    fn two_seat(&self) -> Option<&View<'a>> {
        None
    }
}

/// Free for All's opponent choice (`Decision::Seat`): the opponent furthest ahead (the
/// most regions its two expeditions have come), the first offered on ties: a guess that
/// treats the effect as one that hinders its target (as `greedy` guesses a target's
/// intent), and the leader as the one to hold back. The effect itself is not read.
pub(crate) fn seat_choice<const N: usize, const M: usize>(
    view: &View<'_, N, M>,
    options: &[Choice],
) -> usize {
    use crate::cards::types::{Exp, Side};
    argmax_by(options, |c| match *c {
        Choice::Seat(s) => {
            let side = Side::of_seat(s);
            (view.progress_of(side, Exp::Hero) + view.progress_of(side, Exp::Companion)) as i32
        }
        _ => i32::MIN,
    })
}

/// The index of the option with the highest score (the first on ties).
pub(crate) fn argmax_by<F: Fn(&Choice) -> i32>(options: &[Choice], score: F) -> usize {
    let mut best = 0;
    let mut best_s = i32::MIN;
    for (i, c) in options.iter().enumerate() {
        let s = score(c);
        if s > best_s {
            best_s = s;
            best = i;
        }
    }
    best
}

/// Rest order (the next card to enter its side's Reserve): the Confluence's strongest card
/// first, so that it stands leftmost, where its Clean-up discards the excess; the player's
/// weakest card first, where the Confluence's "leftmost" effects reach.
pub(crate) fn rest_order<const N: usize, const M: usize>(
    view: &View<'_, N, M>,
    options: &[Choice],
) -> usize {
    argmax_by(options, |c| {
        card_of(c).map_or(i32::MIN, |id| {
            let d = view.card(id);
            let worth = d.hand_cost as i32 * 100 + d.stats.sum() as i32;
            if view.obj(id).side == view.me() {
                -worth
            } else {
                worth
            }
        })
    })
}

/// The bit of a decision in an `only` mask: 1 a card into Mana (setup and Expand), 2 an
/// Afternoon turn, 4 any other decision.
pub(crate) fn decision_bit(d: crate::engine::Decision) -> u8 {
    match features::family(d) {
        Some(features::Family::Mana) => 1,
        Some(features::Family::Turn) => 2,
        None => 4,
    }
}

/// The choices every heuristic player makes alike: "may" yes, the first mode, the highest
/// die. `None` for any other decision.
pub(crate) fn routine(decision: crate::engine::Decision, options: &[Choice]) -> Option<usize> {
    use crate::engine::Decision;
    match decision {
        Decision::May => Some(options.iter().position(|c| *c == Choice::Yes).unwrap_or(0)),
        Decision::Mode => Some(0),
        Decision::Die => Some(argmax_by(options, |c| match *c {
            Choice::Mode(v) => v as i32,
            _ => 0,
        })),
        _ => None,
    }
}

/// The card an option names, if it is a card choice.
pub(crate) fn card_of(c: &Choice) -> Option<crate::engine::ObjId> {
    match *c {
        Choice::Card(id) => Some(id),
        _ => None,
    }
}

/// The most samples per decision `search` accepts.
pub const MAX_ROLLOUTS: u32 = 1_000_000;

/// A policy named on the command line, with its parameters: `greedy`, `random`,
/// `search:rollouts=64`, `skill:t=2.5,from=search:rollouts=32`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PolicySpec {
    pub kind: PolicyKind,
    /// The parameters as written, in their order, a named set as its number: what the
    /// spec displays. `skill`'s temperature `t` is kept here in thousandths of a point
    /// ([`PolicySpec::temperature`]).
    params: Vec<(Knob, u32)>,
    /// The same, typed: read once when the spec is made ([`PolicySpec::settings`]).
    settings: Settings,
    /// `skill`'s evaluator (`from=SPEC`), `None` for the default ([`DEFAULT_EVALUATOR`])
    /// and for every other policy.
    pub from: Option<Box<PolicySpec>>,
    /// `skill`'s player name (`name=NAME`, from `--players calibration.json`): names the
    /// calibrated player in outputs ("players like NAME"), and changes no choice.
    pub name: Option<String>,
}

/// The evaluator of `skill` unless `from=` names another.
pub const DEFAULT_EVALUATOR: &str = "fastsearch";

/// The highest temperature `skill` accepts, in points.
pub const MAX_TEMPERATURE: u32 = 1_000_000;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PolicyKind {
    Random,
    Greedy,
    Planner,
    Expert,
    Search,
    Clairvoyant,
    /// The quantal-response player over a search's option values (`skill:t=T`). Not in
    /// [`PolicyKind::ALL`]: it is a dial, not a rung of the ladder.
    Skill,
}

impl PolicyKind {
    /// Weakest first; `clairvoyant` last, as it is a bound and not a player.
    pub const ALL: [PolicyKind; 6] = [
        PolicyKind::Random,
        PolicyKind::Greedy,
        PolicyKind::Planner,
        PolicyKind::Expert,
        PolicyKind::Search,
        PolicyKind::Clairvoyant,
    ];

    /// True for policies that see hidden information: upper bounds, not players.
    pub fn is_bound(self) -> bool {
        self == PolicyKind::Clairvoyant
    }

    /// Whether the policy plays at a Free for All table ([`Policy`] at four seats): every one does
    /// (`expert` and the searches since 2026-11-27). Kept so that a policy that reads two
    /// seats only can be added and refused with exit code 2.
    pub fn plays_ffa(self) -> bool {
        matches!(
            self,
            PolicyKind::Random
                | PolicyKind::Greedy
                | PolicyKind::Planner
                | PolicyKind::Expert
                | PolicyKind::Search
                | PolicyKind::Clairvoyant
                | PolicyKind::Skill
        )
    }

    /// The skill level in a player's words.
    pub fn skill(self) -> &'static str {
        match self {
            PolicyKind::Random => "random",
            PolicyKind::Greedy => "casual",
            PolicyKind::Planner => "careful",
            PolicyKind::Expert => "strong",
            PolicyKind::Search => "near-optimal",
            PolicyKind::Clairvoyant => "upper bound (sees hidden cards)",
            PolicyKind::Skill => "dialled (quantal response)",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::Random => "random",
            PolicyKind::Greedy => "greedy",
            PolicyKind::Planner => "planner",
            PolicyKind::Expert => "expert",
            PolicyKind::Search => "search",
            PolicyKind::Clairvoyant => "clairvoyant",
            PolicyKind::Skill => "skill",
        }
    }

    fn known_params(self) -> &'static [Knob] {
        match self {
            PolicyKind::Random | PolicyKind::Greedy => &[],
            PolicyKind::Skill => &[Knob::T],
            PolicyKind::Planner => &[Knob::Keep, Knob::Mana],
            PolicyKind::Expert => &[Knob::Keep, Knob::Mana, Knob::Value, Knob::Vonly, Knob::Net],
            // The search's knobs: every one but the value model's and the skill's, which
            // `Knob::ALL` lists last.
            PolicyKind::Search | PolicyKind::Clairvoyant => &Knob::ALL[..18],
        }
    }

    /// The names of [`PolicyKind::known_params`], joined by ", " (for messages).
    fn known_names(self) -> String {
        let names: Vec<&str> = self.known_params().iter().map(|k| k.name()).collect();
        names.join(", ")
    }
}

impl fmt::Display for PolicySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind.name())?;
        if self.kind == PolicyKind::Skill {
            write!(f, ":t={}", points(self.settings.t))?;
            if let Some(n) = &self.name {
                write!(f, ",name={n}")?;
            }
            if let Some(e) = &self.from {
                write!(f, ",from={e}")?;
            }
            return Ok(());
        }
        for (i, (k, v)) in self.params.iter().enumerate() {
            write!(f, "{}{}={v}", if i == 0 { ':' } else { ',' }, k.name())?;
        }
        Ok(())
    }
}

/// Short names for measured players: a name and the spec it stands for. The spec is what
/// every output records (the same games as the spec typed out), and parameters after the
/// name replace the spec's own (`fastsearch:rollouts=6`).
pub const ALIASES: &[(&str, &str)] = &[
    // The fast strong player (docs/studies/2026-11-27-fastsearch.md): the
    // policy network's search among five candidates, its rollouts scored by the value
    // model of the network's games; about 1,000 games/s per core.
    (
        "fastsearch",
        "search:net=7,rollouts=5,width=5,deep=0,narrow=1,dwidth=2,margin=2",
    ),
    // The same search looking a second day, with 40 samples, at the cards into Mana and
    // the turns where the game is in doubt (the value model between 10% and 90%): within
    // 5 points of `search:horizon=0,rollouts=192` on every starter row where `fastsearch`
    // is not, about three times the default search's speed
    // (docs/studies/2026-11-27-deepsearch.md).
    (
        "deepsearch",
        "search:net=7,rollouts=5,width=5,deep=3,narrow=1,dwidth=2,margin=2,drollouts=40,doubt=10",
    ),
];

impl std::str::FromStr for PolicySpec {
    type Err = PolicyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (name, rest) = s.split_once(':').unwrap_or((s, ""));
        if name.trim() == PolicyKind::Skill.name() {
            return parse_skill(rest);
        }
        if let Some(&(alias, spec)) = ALIASES.iter().find(|(a, _)| *a == name.trim()) {
            let mut base: PolicySpec = spec.parse()?;
            let over: PolicySpec = format!("{}:{rest}", base.kind.name())
                .parse()
                .map_err(|e| PolicyError::InAlias {
                    alias,
                    spec,
                    error: Box::new(e),
                })?;
            for (k, v) in over.params {
                match base.params.iter_mut().find(|(b, _)| *b == k) {
                    Some(p) => p.1 = v,
                    None => base.params.push((k, v)),
                }
            }
            return PolicySpec::of(base.kind, base.params, None, None).checked();
        }
        let kind = PolicyKind::ALL
            .into_iter()
            .find(|k| k.name() == name.trim())
            .ok_or_else(|| {
                let names: Vec<&str> = PolicyKind::ALL
                    .iter()
                    .map(|k| k.name())
                    .chain(ALIASES.iter().map(|(a, _)| *a))
                    .collect();
                PolicyError::UnknownPolicy {
                    name: name.to_string(),
                    expected: names.join(", "),
                }
            })?;
        let mut params = Vec::new();
        for p in rest.split(',').filter(|p| !p.trim().is_empty()) {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| PolicyError::NotKeyValue(p.to_string()))?;
            let k = k.trim();
            let Some(knob) = Knob::named(k).filter(|n| kind.known_params().contains(n)) else {
                return Err(PolicyError::UnknownParameter {
                    policy: kind.name(),
                    key: k.to_string(),
                    takes: (!kind.known_params().is_empty()).then(|| kind.known_names()),
                });
            };
            let v: u32 = match named_set(kind, knob, v.trim()) {
                Some(set) => set?,
                None => v.trim().parse().map_err(|_| PolicyError::NotANumber {
                    key: knob.name(),
                    value: v.to_string(),
                })?,
            };
            // Values a run could not use (a width above MAX_WIDTH, a set member that
            // names nothing, a budget no run would finish) are refused, not clamped.
            let (min, max) = match knob {
                Knob::Expert | Knob::Rank => (0, 1),
                // The expert's is the policy network on or off; the search's a set
                // ([`Network`]).
                Knob::Net if kind == PolicyKind::Expert => (0, 1),
                Knob::Net => (0, Network::ALL.bits()),
                Knob::Gate | Knob::Margin | Knob::Close | Knob::Doubt => (0, 100),
                Knob::Settled => (0, 49),
                Knob::Only | Knob::Vonly | Knob::Deep | Knob::Narrow => (0, Decisions::ALL.bits()),
                Knob::Value => (0, value::afterstate::MAX_SAMPLES),
                Knob::Horizon => (0, 30),
                Knob::Width => (1, search::MAX_WIDTH as u32),
                Knob::Dwidth => (0, search::MAX_WIDTH as u32),
                Knob::Rollouts | Knob::Drollouts => (0, MAX_ROLLOUTS),
                Knob::Keep | Knob::Mana => (0, u8::MAX as u32),
                Knob::T => (0, u32::MAX),
            };
            if !(min..=max).contains(&v) {
                return Err(PolicyError::OutOfRange {
                    key: knob.name(),
                    value: v,
                    min,
                    max,
                });
            }
            params.push((knob, v));
        }
        PolicySpec::of(kind, params, None, None).checked()
    }
}

/// `v` as a named set if `k` is a set-valued parameter of `kind` and `v` is not a number:
/// `None` where the value is to be read as a number. The decisions of `only`, `vonly`,
/// `deep` and `narrow` ([`Decisions`]) and what of the search follows the policy network
/// (`net`, [`Network`]) are written as their members joined by `+` (`deep=mana+turns`),
/// `all` or `none`; a set reads as the number it stands for, so `deep=mana+turns` is
/// `deep=3` and names the same player in every output.
fn named_set(kind: PolicyKind, k: Knob, v: &str) -> Option<Result<u32, PolicyError>> {
    const DECISIONS: [(&str, u32); 3] = [
        (Decisions::NAMES[0].0, Decisions::NAMES[0].1.bits()),
        (Decisions::NAMES[1].0, Decisions::NAMES[1].1.bits()),
        (Decisions::NAMES[2].0, Decisions::NAMES[2].1.bits()),
    ];
    const NETWORK: [(&str, u32); 3] = [
        (Network::NAMES[0].0, Network::NAMES[0].1.bits()),
        (Network::NAMES[1].0, Network::NAMES[1].1.bits()),
        (Network::NAMES[2].0, Network::NAMES[2].1.bits()),
    ];
    let members: &[(&str, u32)] = match k {
        Knob::Only | Knob::Vonly | Knob::Deep | Knob::Narrow => &DECISIONS,
        Knob::Net if kind != PolicyKind::Expert => &NETWORK,
        _ => return None,
    };
    if v.is_empty() || v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let names = || {
        members
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let k = k.name();
    Some(match v {
        "none" => Ok(0),
        "all" => Ok(members.iter().map(|(_, b)| b).sum()),
        _ => v.split('+').try_fold(0, |set, name| {
            members
                .iter()
                .find(|(n, _)| *n == name.trim())
                .map(|(_, bit)| set | bit)
                .ok_or_else(|| PolicyError::NotAMember {
                    key: k,
                    value: v.to_string(),
                    member: name.to_string(),
                    members: names(),
                })
        }),
    })
}

/// Thousandths of a point written as a decimal without trailing zeros (`2500`: `2.5`).
fn points(milli: u32) -> String {
    let (whole, frac) = (milli / 1000, milli % 1000);
    if frac == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{frac:03}")
            .trim_end_matches('0')
            .to_string()
    }
}

/// A temperature in points (a decimal with at most three decimals, 0 to
/// [`MAX_TEMPERATURE`]) in thousandths of a point.
fn parse_points(v: &str) -> Result<u32, PolicyError> {
    let bad = || PolicyError::NotATemperature {
        value: v.to_string(),
        max: MAX_TEMPERATURE,
    };
    let (whole, frac) = v.split_once('.').unwrap_or((v, ""));
    let digits = |x: &str| x.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) || frac.len() > 3 {
        return Err(bad());
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| bad())?
    };
    let frac: u64 = format!("{frac:0<3}").parse().map_err(|_| bad())?;
    if whole > MAX_TEMPERATURE as u64 || (whole == MAX_TEMPERATURE as u64 && frac > 0) {
        return Err(bad());
    }
    Ok((whole * 1000 + frac) as u32)
}

/// `skill`'s parameters: `t=T` (required) and `from=SPEC`, which must come last and takes
/// the rest of the text, commas included (`skill:t=2,from=search:rollouts=32,width=8`).
fn parse_skill(rest: &str) -> Result<PolicySpec, PolicyError> {
    let (own, from) = match rest.find("from=") {
        Some(i) if i == 0 || rest[..i].trim_end().ends_with(',') => (
            rest[..i].trim_end().trim_end_matches(','),
            Some(&rest[i + 5..]),
        ),
        _ => (rest, None),
    };
    let mut t = None;
    let mut name = None;
    for p in own.split(',').filter(|p| !p.trim().is_empty()) {
        let (k, v) = p
            .split_once('=')
            .ok_or_else(|| PolicyError::NotKeyValue(p.to_string()))?;
        match k.trim() {
            "t" => t = Some(parse_points(v.trim())?),
            "name" if !v.trim().is_empty() && !v.contains(['=', ':']) => {
                name = Some(v.trim().to_string())
            }
            "name" => {
                return Err(PolicyError::BadPlayerName(v.to_string()));
            }
            k => {
                return Err(PolicyError::UnknownSkillParameter(k.to_string()));
            }
        }
    }
    let t = t.ok_or(PolicyError::NoTemperature)?;
    let from = match from {
        None => None,
        Some(f) if f.trim().is_empty() => {
            return Err(PolicyError::NoEvaluator);
        }
        Some(f) => {
            let e: PolicySpec = f.trim().parse().map_err(|e| PolicyError::InEvaluator {
                from: f.trim().to_string(),
                error: Box::new(e),
            })?;
            match e.kind {
                PolicyKind::Search => {}
                PolicyKind::Clairvoyant => {
                    return Err(PolicyError::ClairvoyantEvaluator(e.to_string()));
                }
                _ => {
                    return Err(PolicyError::EvaluatorNotSearch(e.to_string()));
                }
            }
            // The default evaluator is not written out: `skill:t=2,from=fastsearch` is
            // `skill:t=2`.
            (e != default_evaluator()).then(|| Box::new(e))
        }
    };
    Ok(PolicySpec::of(
        PolicyKind::Skill,
        vec![(Knob::T, t)],
        from,
        name,
    ))
}

/// [`DEFAULT_EVALUATOR`]'s spec.
fn default_evaluator() -> PolicySpec {
    DEFAULT_EVALUATOR
        .parse()
        .expect("the default evaluator parses")
}

impl PolicySpec {
    /// The spec of `kind` with the parameters as written (checked for range), its typed
    /// settings read from them.
    fn of(
        kind: PolicyKind,
        params: Vec<(Knob, u32)>,
        from: Option<Box<PolicySpec>>,
        name: Option<String>,
    ) -> PolicySpec {
        let settings = Settings::of(&params, kind == PolicyKind::Expert);
        PolicySpec {
            kind,
            params,
            settings,
            from,
            name,
        }
    }

    /// The same spec with `knob=value` written after its parameters (the last of a
    /// repeated parameter counts), unchecked: for tools that vary one setting.
    pub fn with(mut self, knob: Knob, value: u32) -> PolicySpec {
        self.params.push((knob, value));
        PolicySpec::of(self.kind, self.params, self.from, self.name)
    }

    /// The spec's settings, typed (the evaluator's are in [`PolicySpec::evaluator`]).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Refuses the parameters that contradict each other.
    fn checked(self) -> Result<PolicySpec, PolicyError> {
        let spec = self;
        let s = &spec.settings;
        if s.rank == Some(true) && !s.expert() {
            return Err(PolicyError::RankWithoutExpert(spec.to_string()));
        }
        if spec.kind != PolicyKind::Expert && !s.net.is_empty() && !s.expert() {
            return Err(PolicyError::NetWithoutExpert(spec.to_string()));
        }
        Ok(spec)
    }
}

/// A built policy. An enum rather than a trait object so the game loop dispatches
/// statically.
pub enum AnyPolicy {
    Random(Random),
    Greedy(Greedy),
    Planner(Planner),
    Expert(Expert),
    Search(Box<Search>),
    Skill(Box<Skill>),
}

/// What policies read from the card database, computed once per run and shared by every
/// worker.
#[derive(Clone)]
pub struct PolicyData {
    pub(crate) profiles: Arc<Profiles>,
    expert: Arc<ExpertModel>,
    value: Arc<value::ValueNet>,
    /// The policy network of `expert:net=1` (the committed one).
    pnet: Arc<pnet::PolicyNet>,
    /// The value model of the network's own games, read by `search:net=N` with N & 4 (the
    /// committed one).
    net_value: Arc<value::ValueNet>,
}

impl PolicyData {
    pub fn new(db: &CardDb) -> PolicyData {
        PolicyData::for_run(db, Models::default())
    }

    /// The same, with other weights for `expert` (for training and its tests).
    pub fn with_expert(mut self, w: ExpertWeights, db: &CardDb) -> PolicyData {
        self.expert = Arc::new(ExpertModel::new(w, db));
        self
    }

    /// The same, with another value model of the network's games (for its tests).
    pub fn with_net_value(mut self, net: value::ValueNet) -> PolicyData {
        self.net_value = Arc::new(net);
        self
    }

    /// The same, with another policy network for `expert:net=1` (for its tests).
    pub fn with_pnet(mut self, net: pnet::PolicyNet) -> PolicyData {
        self.pnet = Arc::new(net);
        self
    }

    /// The data of a run: the committed models, or those `models` names
    /// (`--expert-weights`, `--value-weights`).
    pub fn for_run(db: &CardDb, models: Models<'_>) -> PolicyData {
        let w = models
            .expert
            .cloned()
            .unwrap_or_else(ExpertWeights::embedded);
        let v = models
            .value
            .cloned()
            .unwrap_or_else(value::ValueNet::embedded);
        PolicyData {
            profiles: Arc::new(Profiles::new(db)),
            expert: Arc::new(ExpertModel::new(w, db)),
            value: Arc::new(v),
            pnet: Arc::new(pnet::PolicyNet::embedded()),
            net_value: Arc::new(value::ValueNet::embedded_net()),
        }
    }
}

/// Model files a run reads instead of the committed ones the binary embeds: the expert's
/// weights (`--expert-weights`) and the value model (`--value-weights`). `None`: the
/// committed one.
#[derive(Clone, Copy, Debug, Default)]
pub struct Models<'a> {
    pub expert: Option<&'a ExpertWeights>,
    pub value: Option<&'a value::ValueNet>,
}

impl PolicySpec {
    /// A parameter's value as written (a named set as its number), or `default`; the
    /// typed [`PolicySpec::settings`] say the same.
    pub fn param(&self, key: &str, default: u32) -> u32 {
        self.params
            .iter()
            .rev()
            .find(|(k, _)| k.name() == key)
            .map_or(default, |&(_, v)| v)
    }

    /// Does the policy read the value model (`expert:value=S`, `search:horizon=D`)?
    /// Whether the policy reads the expert's weights: the expert, and a search whose
    /// candidates or rollouts follow it (`expert=1`, the default).
    pub fn uses_expert(&self) -> bool {
        match self.kind {
            PolicyKind::Skill => self.evaluator().uses_expert(),
            PolicyKind::Expert => true,
            PolicyKind::Search | PolicyKind::Clairvoyant => self.settings.expert(),
            _ => false,
        }
    }

    /// Does the policy read the policy network (`expert:net=1`, and `search:net=N`, whose
    /// candidates (1), rollouts (2) or both (3) follow `expert:net=1`)?
    pub fn uses_pnet(&self) -> bool {
        match self.kind {
            PolicyKind::Skill => self.evaluator().uses_pnet(),
            PolicyKind::Expert => self.settings.pnet,
            _ => !self.settings.net.is_empty(),
        }
    }

    pub fn uses_value(&self) -> bool {
        match self.kind {
            PolicyKind::Skill => self.evaluator().uses_value(),
            PolicyKind::Expert => self.settings.value > 0,
            PolicyKind::Search | PolicyKind::Clairvoyant => {
                self.scores_rollouts() && !self.settings.net.contains(Network::VALUE)
            }
            _ => false,
        }
    }

    /// Does the policy read the network's value model (`search:net=N` with N & 4, where
    /// the value model scores the rollouts), in place of the value model?
    pub fn uses_net_value(&self) -> bool {
        if self.kind == PolicyKind::Skill {
            return self.evaluator().uses_net_value();
        }
        matches!(self.kind, PolicyKind::Search | PolicyKind::Clairvoyant)
            && self.scores_rollouts()
            && self.settings.net.contains(Network::VALUE)
    }

    /// A search whose rollouts end at a horizon, where a value model scores them.
    fn scores_rollouts(&self) -> bool {
        let d =
            SearchParams::defaults(self.kind == PolicyKind::Clairvoyant, self.settings.expert());
        self.settings.horizon.unwrap_or(d.horizon) > 0
    }

    pub fn build(&self, data: &PolicyData) -> AnyPolicy {
        match self.kind {
            PolicyKind::Random => AnyPolicy::Random(Random),
            PolicyKind::Greedy => AnyPolicy::Greedy(Greedy),
            PolicyKind::Planner => {
                AnyPolicy::Planner(Planner::new(data.profiles.clone(), self.planner_params()))
            }
            PolicyKind::Expert => AnyPolicy::Expert(self.build_expert(data)),
            PolicyKind::Search | PolicyKind::Clairvoyant => {
                AnyPolicy::Search(Box::new(self.build_search(data)))
            }
            PolicyKind::Skill => AnyPolicy::Skill(Box::new(Skill::new(
                Evaluator::new(&self.evaluator(), data)
                    .expect("a skill spec's evaluator is a search"),
                self.temperature().unwrap_or(0.0),
            ))),
        }
    }

    /// `skill`'s temperature in points (`None` for every other policy).
    pub fn temperature(&self) -> Option<f64> {
        (self.kind == PolicyKind::Skill).then(|| self.settings.t as f64 / 1000.0)
    }

    /// The search that values `skill`'s options: `from=`, or [`DEFAULT_EVALUATOR`]. For
    /// any other policy, itself.
    pub fn evaluator(&self) -> PolicySpec {
        match (&self.from, self.kind) {
            (Some(e), _) => (**e).clone(),
            (None, PolicyKind::Skill) => default_evaluator(),
            (None, _) => self.clone(),
        }
    }

    /// An `expert` as this spec asks (`net`, `value`).
    fn build_expert(&self, data: &PolicyData) -> Expert {
        let e = Expert::new(
            data.profiles.clone(),
            self.planner_params(),
            data.expert.clone(),
        );
        let e = if self.settings.pnet {
            e.with_net(data.pnet.clone())
        } else {
            e
        };
        let samples = self.settings.value;
        if samples == 0 {
            e
        } else {
            e.with_lookahead(expert::Lookahead::new(
                data.value.clone(),
                samples,
                self.settings.vonly.unwrap_or(Decisions::ALL),
            ))
        }
    }

    /// A `search` or `clairvoyant` as this spec asks, its rollouts playing every seat by
    /// its own rollout policy (the opponents' are added by the callers that know them).
    fn build_search(&self, data: &PolicyData) -> Search {
        let params = self.search_params(true);
        let net = self.settings.net;
        let s = Search::new(
            Planner::new(data.profiles.clone(), self.planner_params()),
            params.expert.then(|| {
                let e = self.expert(data);
                if net.contains(Network::ROLLOUTS) {
                    e.with_net(data.pnet.clone())
                } else {
                    e
                }
            }),
            params,
        )
        .with_value(if net.contains(Network::VALUE) {
            data.net_value.clone()
        } else {
            data.value.clone()
        });
        // `net=1` alone: the candidates follow `expert:net=1` (a better first
        // guess than the expert's), the rollouts the expert (the cheaper player);
        // `net=2` alone: the other way round.
        match (
            net.contains(Network::CANDIDATES),
            net.contains(Network::ROLLOUTS),
        ) {
            (true, false) => s.with_ranker(self.expert(data).with_net(data.pnet.clone())),
            (false, true) if params.expert => s.with_ranker(self.expert(data)),
            _ => s,
        }
    }

    /// An expert with this spec's planner parameters and the run's weights.
    fn expert(&self, data: &PolicyData) -> Expert {
        Expert::new(
            data.profiles.clone(),
            self.planner_params(),
            data.expert.clone(),
        )
    }

    /// A search's parameters, the defaults filled in. `ranked_default`: whether a search
    /// with a horizon follows the expert's ranking unless told (`rank`): true today; false
    /// reads a spec as the versions before `rank` (and the default `deep`) existed did.
    fn search_params(&self, ranked_default: bool) -> SearchParams {
        let s = &self.settings;
        let expert = s.expert();
        let d = SearchParams::defaults(self.kind == PolicyKind::Clairvoyant, expert);
        let horizon = s.horizon.unwrap_or(d.horizon);
        let rank = s.rank.unwrap_or(ranked_default && expert && horizon > 0);
        // The defaults of 2026-11-27 (48 samples; a second day and twice the samples at the
        // cards into Mana and the turns, two candidates at the Mana decisions) come with the
        // expert's ranking and a horizon; `rank=0` and `horizon=0` keep the searches as they
        // were (24 and 12 samples, no `deep`).
        let ranked = rank && horizon > 0;
        let deep = s
            .deep
            .unwrap_or(if ranked { DEEP } else { Decisions::NONE });
        let narrow = s.narrow.unwrap_or(if ranked {
            NARROW.intersection(deep)
        } else {
            Decisions::NONE
        });
        let dwidth = s.dwidth.unwrap_or(if ranked && !narrow.is_empty() {
            DWIDTH
        } else {
            0
        });
        let versus_rollouts = SearchParams::default_versus_rollouts(horizon);
        SearchParams {
            rollouts: s.rollouts.unwrap_or(if ranked {
                SearchParams::default_rollouts(horizon)
            } else {
                versus_rollouts
            }),
            versus_rollouts: s.rollouts.unwrap_or(versus_rollouts),
            width: s.width.unwrap_or(d.width).clamp(1, search::MAX_WIDTH as u8),
            clairvoyant: self.kind == PolicyKind::Clairvoyant,
            expert,
            only: s.only.unwrap_or(d.only),
            horizon,
            rank,
            deep,
            drollouts: s.drollouts,
            dwidth,
            narrow,
            gate: s.gate,
            margin: s.margin,
            close: s.close,
            doubt: s.doubt,
            settled: s.settled,
        }
    }

    /// The policy with every parameter written out, defaults included: two specs that
    /// resolve alike play alike in this version. `compare` records it, so that `--reuse`
    /// never takes games a spec played when its defaults were different.
    pub fn resolved(&self) -> String {
        self.resolved_as(true)
    }

    /// [`PolicySpec::resolved`] as the versions before `search`'s `rank` parameter read the
    /// spec (for a `compare` directory that records no resolved policies).
    pub fn resolved_before_rank(&self) -> String {
        self.resolved_as(false)
    }

    fn resolved_as(&self, ranked_default: bool) -> String {
        let pl = self.planner_params();
        let planner = format!("keep={},mana={}", pl.keep, pl.mana);
        let name = self.kind.name();
        match self.kind {
            PolicyKind::Random | PolicyKind::Greedy => name.to_string(),
            PolicyKind::Skill => format!(
                "{name}:t={},from={}",
                points(self.settings.t),
                self.evaluator().resolved_as(ranked_default)
            ),
            PolicyKind::Planner => format!("{name}:{planner}"),
            // `net` only when set, so that the expert's resolved spec stays as recorded
            // before the policy network existed.
            PolicyKind::Expert => format!(
                "{name}:{planner},value={},vonly={}{}",
                self.settings.value,
                self.settings.vonly.unwrap_or(Decisions::ALL).bits(),
                if self.uses_pnet() { ",net=1" } else { "" }
            ),
            PolicyKind::Search | PolicyKind::Clairvoyant => {
                let s = self.search_params(ranked_default);
                // `net`, `gate`, `deep`, `drollouts`, `dwidth` and `narrow` only when set, so that a
                // search's resolved spec stays as recorded before they existed.
                let mut extra = String::new();
                for (key, v) in [
                    ("net", self.settings.net.bits()),
                    ("gate", s.gate as u32),
                    ("deep", s.deep.bits()),
                    ("drollouts", s.drollouts),
                    ("dwidth", s.dwidth as u32),
                    ("narrow", s.narrow.bits()),
                    ("margin", s.margin as u32),
                    ("close", s.close as u32),
                    ("doubt", s.doubt as u32),
                    ("settled", s.settled as u32),
                ] {
                    if v != 0 {
                        extra.push_str(&format!(",{key}={v}"));
                    }
                }
                format!(
                    "{name}:rollouts={},width={},expert={},only={},horizon={},rank={}{extra},{planner}",
                    s.rollouts,
                    s.width,
                    s.expert as u8,
                    s.only.bits(),
                    s.horizon,
                    s.rank as u8
                )
            }
        }
    }

    /// Head to head: the policy of a seat whose opponent plays `opponent`. A search plays
    /// the opponent's seat in its rollouts by the opponent's policy, and a searching
    /// opponent by that search's rollout policy (`expert`, or `planner` with `expert=0`):
    /// a search inside every rollout would spend its whole budget again at every
    /// decision of every rollout.
    pub fn build_against(&self, data: &PolicyData, opponent: &PolicySpec) -> AnyPolicy {
        match self.build(data) {
            AnyPolicy::Search(s) => AnyPolicy::Search(Box::new(
                s.with_opponent(opponent.rollout_spec().build(data)),
            )),
            AnyPolicy::Skill(s) => AnyPolicy::Skill(Box::new(Skill::new(
                Evaluator::against(&self.evaluator(), data, opponent)
                    .expect("a skill spec's evaluator is a search"),
                s.temperature(),
            ))),
            p => p,
        }
    }

    /// The policy that plays this one's seat in someone else's rollouts: itself, or a
    /// search's rollout policy with its `keep` and `mana`.
    pub fn rollout_spec(&self) -> PolicySpec {
        match self.kind {
            PolicyKind::Skill => self.evaluator().rollout_spec(),
            PolicyKind::Search | PolicyKind::Clairvoyant => PolicySpec::of(
                if self.settings.expert() {
                    PolicyKind::Expert
                } else {
                    PolicyKind::Planner
                },
                self.params
                    .iter()
                    .filter(|(k, _)| matches!(k, Knob::Keep | Knob::Mana))
                    .copied()
                    .collect(),
                None,
                None,
            ),
            _ => self.clone(),
        }
    }

    fn planner_params(&self) -> PlannerParams {
        let d = PlannerParams::default();
        PlannerParams {
            keep: self.settings.keep.unwrap_or(d.keep),
            mana: self.settings.mana.unwrap_or(d.mana),
        }
    }
}

impl PolicySpec {
    /// The policy at a Free for All table, or why it cannot play there (a policy that is
    /// not [`PolicyKind::plays_ffa`]). A search built here plays every seat of its
    /// rollouts by its own rollout policy; [`PolicySpec::build_ffa_at`] gives it the
    /// opponents' policies.
    pub fn build_ffa(&self, data: &PolicyData) -> Result<AnyPolicy, PolicyError> {
        self.check_ffa()?;
        Ok(self.build(data))
    }

    /// The policy of seat `seat` at a Free for All table where seat `t` plays
    /// `table[t]` (`table[seat]` is this spec). As head to head
    /// ([`PolicySpec::build_against`]), a search plays each other seat in its rollouts by
    /// that seat's policy, and a searching opponent by its rollout policy; every other
    /// policy is [`PolicySpec::build_ffa`]'s.
    pub fn build_ffa_at(
        &self,
        data: &PolicyData,
        seat: usize,
        table: [&PolicySpec; 4],
    ) -> Result<AnyPolicy, PolicyError> {
        let opponents = || -> Result<[Option<AnyPolicy>; 4], PolicyError> {
            let mut opponents: [Option<AnyPolicy>; 4] = [None, None, None, None];
            for (t, spec) in table.iter().enumerate() {
                if t != seat {
                    opponents[t] = Some(spec.rollout_spec().build_ffa(data)?);
                }
            }
            Ok(opponents)
        };
        Ok(match self.build_ffa(data)? {
            AnyPolicy::Search(s) => AnyPolicy::Search(Box::new(s.with_ffa_opponents(opponents()?))),
            AnyPolicy::Skill(s) => AnyPolicy::Skill(Box::new(s.with_ffa_opponents(opponents()?))),
            p => p,
        })
    }

    /// `Ok` for a policy that plays Free for All; otherwise the reason, naming those that
    /// do.
    pub fn check_ffa(&self) -> Result<(), PolicyError> {
        match self.kind {
            k if k.plays_ffa() => Ok(()),
            k => Err(PolicyError::NotAtFreeForAll {
                policy: k.name(),
                accepted: PolicyKind::ALL
                    .iter()
                    .filter(|k| k.plays_ffa())
                    .map(|k| k.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }
}

impl<const N: usize, const M: usize> Policy<N, M> for AnyPolicy
where
    for<'v> View<'v, N, M>: Seated<'v>,
{
    #[inline]
    fn choose(&mut self, view: &View<'_, N, M>, options: &[Choice], rng: &mut PolicyRng) -> usize {
        match self {
            AnyPolicy::Random(p) => p.choose(view, options, rng),
            AnyPolicy::Greedy(p) => p.choose(view, options, rng),
            AnyPolicy::Planner(p) => p.choose(view, options, rng),
            AnyPolicy::Expert(p) => p.choose(view, options, rng),
            AnyPolicy::Search(p) => p.choose(view, options, rng),
            AnyPolicy::Skill(p) => p.choose(view, options, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parameters of the search a spec builds.
    fn params_of(p: &PolicySpec) -> SearchParams {
        let AnyPolicy::Search(s) = p.build(&PolicyData::new(&crate::cards::db::CardDb::default()))
        else {
            panic!("{p} is not a search")
        };
        s.params
    }

    #[test]
    fn sets_are_named_or_numbered() {
        // A named set is the number it stands for: the same player, the same name.
        let same = [
            ("search:deep=mana+turns", "search:deep=3"),
            ("search:narrow=mana", "search:narrow=1"),
            ("search:only=all", "search:only=7"),
            ("search:deep=none", "search:deep=0"),
            ("search:deep=turns+mana+other", "search:deep=7"),
            ("search:net=candidates+rollouts+value", "search:net=7"),
            ("clairvoyant:only=turns", "clairvoyant:only=2"),
            ("expert:value=4,vonly=mana", "expert:value=4,vonly=1"),
        ];
        for (named, numbered) in same {
            let a: PolicySpec = named.parse().unwrap();
            let b: PolicySpec = numbered.parse().unwrap();
            assert_eq!(a, b, "{named}");
            assert_eq!(a.to_string(), b.to_string(), "{named}");
        }
        for bad in [
            "search:deep=mana+turn",
            "search:deep=mana+",
            "search:net=mana",
            "expert:net=candidates",
            "search:width=all",
        ] {
            let e = bad.parse::<PolicySpec>().unwrap_err().to_string();
            assert!(
                e.contains("is not one of") || e.contains("not a whole number"),
                "{bad}: {e}"
            );
        }
        let e = "search:deep=mana+turn"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("'turn' is not one of mana, turns, other"), "{e}");
    }

    #[test]
    fn a_spec_reads_into_typed_settings_once() {
        let p: PolicySpec = "search:deep=mana+turns,net=candidates+value,rollouts=9,rollouts=7"
            .parse()
            .unwrap();
        let s = p.settings();
        assert_eq!(s.deep, Some(Decisions::MANA.union(Decisions::TURNS)));
        assert!(s.net.contains(Network::CANDIDATES) && s.net.contains(Network::VALUE));
        assert!(!s.net.contains(Network::ROLLOUTS));
        // The last of a repeated parameter counts; the spec reads as written.
        assert_eq!(s.rollouts, Some(7));
        assert_eq!(p.to_string(), "search:deep=3,net=5,rollouts=9,rollouts=7");
        assert_eq!((s.narrow, s.only, s.width), (None, None, None));
        let q = p.clone().with(Knob::Rollouts, 3);
        assert_eq!(q.settings().rollouts, Some(3));
        assert_eq!(params_of(&q).rollouts, 3);
        // The expert's `net` is the policy network on or off, not a search's set.
        let e: PolicySpec = "expert:net=1,vonly=turns".parse().unwrap();
        assert!(e.settings().pnet && e.settings().net.is_empty());
        assert_eq!(e.settings().vonly, Some(Decisions::TURNS));
        let k: PolicySpec = "skill:t=2.5".parse().unwrap();
        assert_eq!(k.settings().t, 2500);
    }

    #[test]
    fn a_refused_spec_is_a_typed_error_with_the_message_of_old() {
        let e = |s: &str| s.parse::<PolicySpec>().unwrap_err();
        assert!(matches!(
            e("wizard"),
            PolicyError::UnknownPolicy { ref name, .. } if name == "wizard"
        ));
        assert_eq!(
            e("search:width=17"),
            PolicyError::OutOfRange {
                key: "width",
                value: 17,
                min: 1,
                max: 16
            }
        );
        // The messages are those the versions that returned text gave, word for word.
        for (spec, message) in [
            (
                "wizard",
                "unknown policy 'wizard' (expected one of: random, greedy, planner, expert, search, clairvoyant, fastsearch, deepsearch)",
            ),
            ("greedy:depth=3", "policy 'greedy' has no parameter 'depth'"),
            (
                "planner:depth=3",
                "policy 'planner' has no parameter 'depth' (it takes: keep, mana)",
            ),
            (
                "fastsearch:width=17",
                "fastsearch (search:net=7,rollouts=5,width=5,deep=0,narrow=1,dwidth=2,margin=2): policy parameter width=17 is out of range (1 to 16)",
            ),
            (
                "search:deep=mana+turn",
                "policy parameter deep='mana+turn': 'turn' is not one of mana, turns, other (a set is its members joined by +, all or none; or a number)",
            ),
            (
                "search:rollouts= x",
                "policy parameter rollouts=' x' is not a whole number",
            ),
            ("search:width", "policy parameter 'width' is not key=value"),
            (
                "search:expert=0,rank=1",
                "policy 'search:expert=0,rank=1': rank=1 follows the expert's ranking, and expert=0 plays without the expert",
            ),
            (
                "skill:t=2,from=clairvoyant",
                "policy 'skill', from=clairvoyant: an evaluator must be blind, and clairvoyant sees the hidden cards (use search)",
            ),
            (
                "skill:t=2,from=search:width=0",
                "policy 'skill', from=search:width=0: policy parameter width=0 is out of range (1 to 16)",
            ),
            (
                "skill:from=fastsearch",
                "policy 'skill' needs t=T, its temperature in points of win probability (e.g. skill:t=2)",
            ),
        ] {
            assert_eq!(e(spec).to_string(), message, "{spec}");
        }
    }

    #[test]
    fn parses_names_and_rejects_unknown_ones() {
        let p: PolicySpec = "greedy".parse().unwrap();
        assert_eq!(p.kind, PolicyKind::Greedy);
        assert_eq!(p.to_string(), "greedy");
        let e = "wizard".parse::<PolicySpec>().unwrap_err().to_string();
        assert!(e.contains("unknown policy 'wizard'"), "{e}");
        let e = "greedy:depth=3"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("no parameter 'depth'"), "{e}");
        let e = "search:only=8"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("only=8 is out of range (0 to 7)"), "{e}");
        let e = "search:expert=2"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("expert=2 is out of range (0 to 1)"), "{e}");
        let e = "search:width=0"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("width=0 is out of range (1 to 16)"), "{e}");
        let e = "search:width=17"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("width=17 is out of range (1 to 16)"), "{e}");
        let e = "search:rollouts=4000000000"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("out of range (0 to 1000000)"), "{e}");
        let e = "planner:keep=256"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("keep=256 is out of range (0 to 255)"), "{e}");
        assert!(
            "search:width=16,rollouts=1000000"
                .parse::<PolicySpec>()
                .is_ok()
        );
        let e = "search:dwidth=17"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("dwidth=17 is out of range (0 to 16)"), "{e}");
        let e = "search:deep=8"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("deep=8 is out of range (0 to 7)"), "{e}");
        // `deep`, `dwidth` and `narrow` are written out only when set, so that the search
        // specs resolved before they existed read the same.
        let p: PolicySpec = "search:deep=3,narrow=1,dwidth=2".parse().unwrap();
        assert_eq!(
            p.resolved(),
            "search:rollouts=48,width=5,expert=1,only=7,horizon=1,rank=1,deep=3,dwidth=2,narrow=1,keep=0,mana=10"
        );
        // The default search writes them out (it looks a day further at the cards into
        // Mana and the turns); without a horizon there is nothing for them to do.
        let resolved = |s: &str| s.parse::<PolicySpec>().unwrap().resolved();
        assert_eq!(
            resolved("search"),
            "search:rollouts=48,width=5,expert=1,only=7,horizon=1,rank=1,deep=3,dwidth=2,narrow=1,keep=0,mana=10"
        );
        assert!(!resolved("search:horizon=0").contains("deep"));
        assert!(!resolved("search:deep=0,narrow=0,dwidth=0").contains("deep"));
        assert!(!resolved("clairvoyant").contains("deep"));
        // Read as before `rank` (and `deep`): 24 samples, no `deep`.
        assert_eq!(
            "search"
                .parse::<PolicySpec>()
                .unwrap()
                .resolved_before_rank(),
            "search:rollouts=24,width=5,expert=1,only=7,horizon=1,rank=0,keep=0,mana=10"
        );
        let p: PolicySpec = "search:only=2".parse().unwrap();
        let s = params_of(&p);
        assert_eq!(s.only, Decisions::TURNS);
    }

    #[test]
    fn an_alias_is_the_spec_it_stands_for_and_takes_parameters() {
        let long = "search:net=7,rollouts=5,width=5,deep=0,narrow=1,dwidth=2,margin=2";
        let p: PolicySpec = "fastsearch".parse().unwrap();
        assert_eq!(p, long.parse::<PolicySpec>().unwrap());
        assert_eq!(p.to_string(), long);
        // Parameters after the name replace the spec's own, or are added, in place.
        let p: PolicySpec = "fastsearch:rollouts=6,close=3".parse().unwrap();
        assert_eq!(
            p.to_string(),
            "search:net=7,rollouts=6,width=5,deep=0,narrow=1,dwidth=2,margin=2,close=3"
        );
        assert_eq!(p.param("rollouts", 0), 6);
        // The checks hold for the whole: a range, a parameter of no search, a contradiction.
        let e = "fastsearch:width=17"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("fastsearch (search:net=7") && e.contains("width=17"),
            "{e}"
        );
        let e = "fastsearch:depth=2"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("no parameter 'depth'"), "{e}");
        let e = "fastsearch:expert=0"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("expert=0 plays without the expert"), "{e}");
        // `deepsearch` is `fastsearch` looking a second day where the game is in doubt.
        let d: PolicySpec = "deepsearch".parse().unwrap();
        assert_eq!(
            d,
            "fastsearch:deep=3,drollouts=40,doubt=10"
                .parse::<PolicySpec>()
                .unwrap()
        );
        // The unknown-name message lists the aliases too.
        let e = "fastsearches"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("clairvoyant, fastsearch, deepsearch)"), "{e}");
    }

    #[test]
    fn the_search_scores_its_rollouts_by_the_value_model_by_default() {
        let data = PolicyData::new(&crate::cards::db::CardDb::default());
        // (spec, horizon, rollouts, reads the value model, the expert's ranking); head to
        // head a default budget with a horizon is 24 samples (checked below).
        for (spec, horizon, rollouts, valued, rank) in [
            ("search", 1, 48, true, true),
            // `rank=0`: the search of 2026-11-26, 24 samples and no `deep`.
            ("search:rank=0", 1, 24, true, false),
            ("search:horizon=2", 2, 48, true, true),
            // Without a horizon, the search as it was before: to the end, 12 samples, the
            // expert's pick then the planner's ranking.
            ("search:horizon=0", 0, 12, false, false),
            ("search:horizon=0,rollouts=192", 0, 192, false, false),
            ("search:horizon=0,rank=1", 0, 12, false, true),
            // Planner rollouts and the clairvoyant bound play to the end.
            ("search:expert=0", 0, 12, false, false),
            ("clairvoyant", 0, 12, false, false),
            ("clairvoyant:horizon=1", 1, 48, true, true),
        ] {
            let p: PolicySpec = spec.parse().unwrap();
            let AnyPolicy::Search(s) = p.build(&data) else {
                panic!("{spec} is not a search")
            };
            let versus = match (spec.contains("rollouts="), horizon) {
                (true, _) => rollouts,
                (false, 0) => 12,
                (false, _) => 24,
            };
            assert_eq!(
                !s.params.deep.is_empty(),
                rank && horizon > 0,
                "{spec}: deep"
            );
            assert_eq!(s.params.versus_rollouts, versus, "{spec} head to head");
            assert_eq!(
                (
                    s.params.horizon,
                    s.params.rollouts,
                    p.uses_value(),
                    s.params.rank
                ),
                (horizon, rollouts, valued, rank),
                "{spec}"
            );
        }
        // The ranking is the expert's: without it there is none to follow.
        let e = "search:expert=0,rank=1"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("rank=1"), "{e}");
    }

    #[test]
    fn a_search_with_the_policy_network_says_so_and_needs_the_expert() {
        let p: PolicySpec = "search:net=3,rollouts=4,width=2".parse().unwrap();
        assert!(p.uses_pnet() && p.uses_expert() && p.uses_value());
        assert!(!p.uses_net_value());
        // `net=4`: the value model of the network's games instead of the value model,
        // where one scores the rollouts.
        let q: PolicySpec = "search:net=7".parse().unwrap();
        assert!(q.uses_net_value() && !q.uses_value() && q.uses_pnet());
        let q: PolicySpec = "search:net=7,horizon=0".parse().unwrap();
        assert!(!q.uses_net_value() && !q.uses_value());
        let e = "search:net=8"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("net=8 is out of range (0 to 7)"), "{e}");
        assert_eq!(
            p.resolved(),
            "search:rollouts=4,width=2,expert=1,only=7,horizon=1,rank=1,net=3,deep=3,dwidth=2,narrow=1,keep=0,mana=10"
        );
        let g: PolicySpec = "search:gate=50,net=1".parse().unwrap();
        assert!(
            g.resolved()
                .ends_with("rank=1,net=1,gate=50,deep=3,dwidth=2,narrow=1,keep=0,mana=10")
        );
        let s = params_of(&g);
        assert_eq!(s.gate, 50);
        let e = "search:gate=101"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("gate=101 is out of range (0 to 100)"), "{e}");
        // `margin` and `close` are written out only when set, and read as percent.
        let m: PolicySpec = "search:net=3,margin=2,close=3".parse().unwrap();
        assert!(
            m.resolved().contains(",narrow=1,margin=2,close=3,keep=0"),
            "{}",
            m.resolved()
        );
        let s = params_of(&m);
        assert_eq!((s.margin, s.close), (2, 3));
        let d: PolicySpec = "fastsearch:deep=3,drollouts=40,doubt=10".parse().unwrap();
        assert!(
            d.resolved()
                .contains(",drollouts=40,dwidth=2,narrow=1,margin=2,doubt=10,")
        );
        let s = params_of(&d);
        assert_eq!(
            (s.deep, s.doubt),
            (Decisions::MANA.union(Decisions::TURNS), 10)
        );
        let e = "search:doubt=101"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("doubt=101 is out of range (0 to 100)"), "{e}");
        let f: PolicySpec = "fastsearch:settled=3".parse().unwrap();
        assert!(
            f.resolved().contains(",margin=2,settled=3,"),
            "{}",
            f.resolved()
        );
        assert_eq!(params_of(&f).settled, 3);
        let e = "search:settled=50"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("settled=50 is out of range (0 to 49)"), "{e}");
        let e = "search:close=101"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("close=101 is out of range (0 to 100)"), "{e}");
        let e = "expert:net=2"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("net=2 is out of range (0 to 1)"), "{e}");
        // Without `net`, the resolved spec is the one recorded before it existed.
        let q: PolicySpec = "search:rollouts=4,width=2".parse().unwrap();
        assert!(!q.uses_pnet());
        assert!(!q.resolved().contains("net"));
        let e = "search:expert=0,net=1"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("net=1"), "{e}");
    }
}
