//! A policy spec's settings, typed: the decision sets and the network's uses as named
//! sets, each parameter a named field. [`crate::policy::PolicySpec`] reads its text into
//! them once, when it is parsed; the builders and the resolved spec read the fields.
//!
//! Layer: part of [`crate::policy`]; may use `engine` and nothing else of the crate.

use crate::engine::Decision;

/// A set of kinds of decision (`only`, `vonly`, `deep`, `narrow`): the cards into Mana
/// (setup and Expand), the Afternoon turns, and every other decision. Written in a spec
/// as its members joined by `+` (`deep=mana+turns`), `all`, `none`, or the number the
/// versions before the names recorded (`deep=3`); it displays as that number, so both
/// name the same player.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Decisions(u8);

impl Decisions {
    pub const NONE: Decisions = Decisions(0);
    /// A card into Mana (setup and Expand).
    pub const MANA: Decisions = Decisions(1);
    /// An Afternoon turn.
    pub const TURNS: Decisions = Decisions(2);
    /// Any other decision.
    pub const OTHER: Decisions = Decisions(4);
    pub const ALL: Decisions = Decisions(7);
    /// The members by name, as a spec writes them.
    pub const NAMES: [(&'static str, Decisions); 3] = [
        ("mana", Decisions::MANA),
        ("turns", Decisions::TURNS),
        ("other", Decisions::OTHER),
    ];

    /// The set a spec's number stands for (bits beyond [`Decisions::ALL`] dropped).
    pub const fn from_bits(bits: u32) -> Decisions {
        Decisions((bits & Decisions::ALL.0 as u32) as u8)
    }

    /// The number a spec records for the set.
    pub const fn bits(self) -> u32 {
        self.0 as u32
    }

    pub const fn union(self, other: Decisions) -> Decisions {
        Decisions(self.0 | other.0)
    }

    pub const fn intersection(self, other: Decisions) -> Decisions {
        Decisions(self.0 & other.0)
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds the kind of `decision`.
    #[inline]
    pub fn contains(self, decision: Decision) -> bool {
        self.0 & super::decision_bit(decision) != 0
    }
}

/// What of a search follows the policy network (`search:net=...`): the candidates (the
/// ranker becomes `expert:net=1`), the rollouts (the rollout policy becomes
/// `expert:net=1`) and the value model of the network's own games in place of the value
/// model. Written as a set (`net=candidates+rollouts+value`) or its number (`net=7`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Network(u8);

impl Network {
    pub const NONE: Network = Network(0);
    pub const CANDIDATES: Network = Network(1);
    pub const ROLLOUTS: Network = Network(2);
    pub const VALUE: Network = Network(4);
    pub const ALL: Network = Network(7);
    /// The members by name, as a spec writes them.
    pub const NAMES: [(&'static str, Network); 3] = [
        ("candidates", Network::CANDIDATES),
        ("rollouts", Network::ROLLOUTS),
        ("value", Network::VALUE),
    ];

    /// The set a spec's number stands for (bits beyond [`Network::ALL`] dropped).
    pub const fn from_bits(bits: u32) -> Network {
        Network((bits & Network::ALL.0 as u32) as u8)
    }

    /// The number a spec records for the set.
    pub const fn bits(self) -> u32 {
        self.0 as u32
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds every member of `other`.
    pub const fn contains(self, other: Network) -> bool {
        self.0 & other.0 == other.0
    }
}

/// A parameter of a policy spec, by name (`rollouts=`, `deep=`, ...).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Knob {
    Rollouts,
    Width,
    Expert,
    Only,
    Horizon,
    Rank,
    Net,
    Gate,
    Keep,
    Mana,
    Deep,
    Drollouts,
    Dwidth,
    Narrow,
    Margin,
    Close,
    Doubt,
    Settled,
    Value,
    Vonly,
    /// `skill`'s temperature, in thousandths of a point.
    T,
}

impl Knob {
    /// Every knob: the search's first (`PolicyKind::known_params` takes the first 18), then
    /// the value model's and the skill's.
    pub const ALL: [Knob; 21] = [
        Knob::Rollouts,
        Knob::Width,
        Knob::Expert,
        Knob::Only,
        Knob::Horizon,
        Knob::Rank,
        Knob::Net,
        Knob::Gate,
        Knob::Keep,
        Knob::Mana,
        Knob::Deep,
        Knob::Drollouts,
        Knob::Dwidth,
        Knob::Narrow,
        Knob::Margin,
        Knob::Close,
        Knob::Doubt,
        Knob::Settled,
        Knob::Value,
        Knob::Vonly,
        Knob::T,
    ];

    /// The name a spec writes.
    pub const fn name(self) -> &'static str {
        match self {
            Knob::Rollouts => "rollouts",
            Knob::Width => "width",
            Knob::Expert => "expert",
            Knob::Only => "only",
            Knob::Horizon => "horizon",
            Knob::Rank => "rank",
            Knob::Net => "net",
            Knob::Gate => "gate",
            Knob::Keep => "keep",
            Knob::Mana => "mana",
            Knob::Deep => "deep",
            Knob::Drollouts => "drollouts",
            Knob::Dwidth => "dwidth",
            Knob::Narrow => "narrow",
            Knob::Margin => "margin",
            Knob::Close => "close",
            Knob::Doubt => "doubt",
            Knob::Settled => "settled",
            Knob::Value => "value",
            Knob::Vonly => "vonly",
            Knob::T => "t",
        }
    }

    /// The parameter a spec names `name`.
    pub fn named(name: &str) -> Option<Knob> {
        Knob::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Every setting of a spec, typed and named: `None` (or the documented default) where the
/// spec leaves it, since a search's defaults depend on one another (the builders resolve
/// them). Only the fields of the spec's policy are ever set.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Settings {
    /// The planner's (and every rollout policy's) `keep` and `mana`.
    pub keep: Option<u8>,
    pub mana: Option<u8>,
    /// `expert:value=S`: samples of the value model's lookahead (0: none).
    pub value: u32,
    /// `expert:vonly=`: the decisions of that lookahead (default all).
    pub vonly: Option<Decisions>,
    /// `expert:net=1`: the policy network scores the options.
    pub pnet: bool,
    /// The search's (and `clairvoyant`'s) settings, as [`super::SearchParams`] documents
    /// them.
    pub rollouts: Option<u32>,
    pub width: Option<u8>,
    /// `expert=0` sets it false (default true).
    pub no_expert: bool,
    pub only: Option<Decisions>,
    pub horizon: Option<u8>,
    pub rank: Option<bool>,
    pub net: Network,
    pub gate: u8,
    pub deep: Option<Decisions>,
    pub drollouts: u32,
    pub dwidth: Option<u8>,
    pub narrow: Option<Decisions>,
    pub margin: u8,
    pub close: u8,
    pub doubt: u8,
    pub settled: u8,
    /// `skill:t=T`, thousandths of a point.
    pub t: u32,
}

impl Settings {
    /// The settings of the parameters as written (checked for range), the last of a
    /// repeated one counting. `expert_kind`: the spec is an `expert`, whose `net` is the
    /// policy network on or off rather than a search's set.
    pub fn of(params: &[(Knob, u32)], expert_kind: bool) -> Settings {
        let mut s = Settings::default();
        for &(k, v) in params {
            let byte = v.min(u8::MAX as u32) as u8;
            let pct = v.min(100) as u8;
            match k {
                Knob::Rollouts => s.rollouts = Some(v),
                Knob::Width => s.width = Some(byte),
                Knob::Expert => s.no_expert = v == 0,
                Knob::Only => s.only = Some(Decisions::from_bits(v)),
                Knob::Horizon => s.horizon = Some(byte),
                Knob::Rank => s.rank = Some(v != 0),
                Knob::Net if expert_kind => s.pnet = v != 0,
                Knob::Net => s.net = Network::from_bits(v),
                Knob::Gate => s.gate = pct,
                Knob::Keep => s.keep = Some(byte),
                Knob::Mana => s.mana = Some(byte),
                Knob::Deep => s.deep = Some(Decisions::from_bits(v)),
                Knob::Drollouts => s.drollouts = v,
                Knob::Dwidth => s.dwidth = Some(byte),
                Knob::Narrow => s.narrow = Some(Decisions::from_bits(v)),
                Knob::Margin => s.margin = pct,
                Knob::Close => s.close = pct,
                Knob::Doubt => s.doubt = pct,
                Knob::Settled => s.settled = pct,
                Knob::Value => s.value = v,
                Knob::Vonly => s.vonly = Some(Decisions::from_bits(v)),
                Knob::T => s.t = v,
            }
        }
        s
    }

    /// Whether the search's rollouts and first candidate follow the expert (`expert=1`,
    /// the default).
    pub fn expert(&self) -> bool {
        !self.no_expert
    }
}
