//! Scenarios: a game position written in a small TOML file, steps to run from it, and an
//! optional `[expect]` table checked afterwards. Format documented in
//! tests/scenarios/README.md (and docs/decks.md, "Scenarios"); `tests/scenarios/` holds one
//! per rule.
//!
//! Layer: may use `cards`, `deck`, `engine`, `gamelog`, `policy`, `suggest` and nothing else of the
//! crate.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use rand::SeedableRng;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::cards::db::{CardDb, CardDef};
use crate::cards::effect::CardIdx;
use crate::cards::pool::normalize_name;
use crate::cards::types::*;
use crate::cards::{CardPool, Library};
use crate::deck::ConfluenceDeck;
use crate::deck::confluence::{FileCard, build_card};
use crate::engine::event::Observer;
use crate::engine::state::*;
use crate::engine::view::View;
use crate::engine::{
    ChoiceList, GameRng, Step, advance_until, apply_unchecked, invariants, legal_choices,
};
use crate::gamelog::describe_choice;
use crate::policy::{AnyPolicy, Policy, PolicyData, PolicyError, PolicyRng, PolicySpec};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    description: String,
    #[serde(default = "one")]
    seed: u64,
    #[serde(default)]
    policy: Option<String>,
    /// A Confluence deck whose cards can be named (path relative to the scenario file).
    #[serde(default)]
    confluence_deck: Option<String>,
    #[serde(default, rename = "card")]
    cards: Vec<FileCard>,
    #[serde(default)]
    game: GameSpec,
    #[serde(default)]
    player: SideSpec,
    #[serde(default)]
    confluence: SideSpec,
    steps: Vec<String>,
    /// Scripted player choices, in order, as `describe_choice` words (e.g. "play Kappa
    /// from hand into the hero expedition", "yes", "the companion expedition"). An entry
    /// "not: WORDS" takes no choice: it checks that WORDS is not among the options of the
    /// decision at hand (a mandatory play offers no "done"), and the next entry decides.
    #[serde(default)]
    choices: Vec<String>,
    #[serde(default)]
    expect: toml::Table,
}

fn one() -> u64 {
    1
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct GameSpec {
    day: Option<u8>,
    threatened: Option<String>,
    /// Terrains of the 8 regions, e.g. ["FMO", "M", "FO", "MO", "F", "FM", "O", "FMO"].
    adventure: Option<Vec<String>>,
    /// Tumult slots (0, 1, 2 for regions 1-2, 3-4, 5-6) already revealed.
    revealed: Option<Vec<u8>>,
    /// Terrain Markers on the 8 regions ("" for none), e.g. ["", "", "O", "", "", "", "", ""].
    markers: Option<Vec<String>>,
    hero_position: Option<i8>,
    companion_position: Option<i8>,
    /// "confluence" (default) or "duel": head-to-head, the `[confluence]` side is the
    /// second player, whose choices are scripted in `choices` like the first's.
    mode: Option<String>,
    /// Head-to-head: the second player's expedition regions.
    opponent_hero_position: Option<i8>,
    opponent_companion_position: Option<i8>,
    /// Head-to-head: the Arena tiebreaker is on.
    #[serde(default)]
    arena: bool,
    /// Head-to-head: "standard" (default), "booster_war" (digest §7.4) or
    /// "booster_war_day_one_mana" (`booster-war --day-one-mana`).
    variant: Option<String>,
    /// Cards the player has played today (the loop guard of D51).
    #[serde(default)]
    plays_today: u8,
    darkness_hero: Option<i8>,
    darkness_companion: Option<i8>,
    midnight_card: Option<String>,
    day_cap: Option<u8>,
    /// Expeditions that advanced at today's Dusk (for Midnight "progressing", Rest).
    #[serde(default)]
    advanced_today: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SideSpec {
    hero: Option<String>,
    #[serde(default)]
    deck: Vec<Entry>,
    #[serde(default)]
    hand: Vec<Entry>,
    #[serde(default)]
    reserve: Vec<Entry>,
    #[serde(default)]
    landmarks: Vec<Entry>,
    #[serde(default)]
    hero_expedition: Vec<Entry>,
    #[serde(default)]
    companion_expedition: Vec<Entry>,
    #[serde(default)]
    discard: Vec<Entry>,
    #[serde(default)]
    mana: u8,
    mana_ready: Option<u8>,
    /// Counters on the hero (Quest counters and the like); default: those it begins the
    /// game with.
    hero_counters: Option<u8>,
    /// The player's hero's Terrain Markers not yet placed (default: those it begins with).
    hero_markers: Option<Vec<String>>,
}

#[derive(Deserialize, Clone)]
#[serde(untagged)]
enum Entry {
    Name(String),
    Full(FullEntry),
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct FullEntry {
    card: String,
    #[serde(default)]
    rarity: Option<String>,
    #[serde(default)]
    boosts: u8,
    #[serde(default)]
    counters: u8,
    #[serde(default)]
    status: Vec<String>,
    #[serde(default)]
    exhausted: bool,
    #[serde(default)]
    token: bool,
}

impl Entry {
    fn full(&self) -> FullEntry {
        match self {
            Entry::Name(n) => FullEntry {
                card: n.clone(),
                rarity: None,
                boosts: 0,
                counters: 0,
                status: vec![],
                exhausted: false,
                token: false,
            },
            Entry::Full(f) => f.clone(),
        }
    }
}

/// A loaded scenario, ready to run.
pub struct Scenario {
    pub path: PathBuf,
    pub description: String,
    pub db: CardDb,
    pub state: GameState,
    pub steps: Vec<String>,
    pub choices: VecDeque<String>,
    pub expect: toml::Table,
    pub rng: GameRng,
    pub policy: AnyPolicy,
    pub prng: PolicyRng,
}

/// A scenario error: the file and what is wrong.
#[derive(Debug, thiserror::Error)]
#[error("{}: {msg}", path.display())]
pub struct ScenarioError {
    pub path: PathBuf,
    pub msg: String,
}

struct Resolver<'a> {
    pool: &'a CardPool,
    inline: Vec<CardIdx>,
    confluence: Vec<CardIdx>,
}

impl Resolver<'_> {
    fn find(&self, db: &CardDb, name: &str, rarity: Option<&str>) -> Result<CardIdx, String> {
        let want = match rarity.map(|r| r.to_ascii_lowercase()) {
            None => None,
            Some(r) => Some(
                Rarity::parse(&r)
                    .ok_or_else(|| format!("rarity '{r}' (expected common or rare)"))?,
            ),
        };
        let key = normalize_name(name);
        for list in [&self.inline, &self.confluence] {
            if let Some(&c) = list.iter().find(|&&c| {
                let d = db.card(c);
                normalize_name(&d.name) == key && want.is_none_or(|r| d.rarity == r)
            }) {
                return Ok(c);
            }
        }
        if let Some(c) = db.by_ref(name) {
            return Ok(c);
        }
        let facts = match want {
            Some(r) => self.pool.resolve_name(name, r, None),
            None => self
                .pool
                .resolve_name(name, Rarity::Common, None)
                .or_else(|| self.pool.by_name(name).next()),
        };
        facts
            .and_then(|f| db.by_ref(&f.reference))
            .ok_or_else(|| {
                let names = self
                    .inline
                    .iter()
                    .chain(&self.confluence)
                    .map(|&c| db.card(c).name.as_str())
                    .chain(self.pool.cards.iter().map(|c| c.name.as_str()));
                format!(
                    "unknown card '{name}' (not a scenario card, not in the Confluence deck, not in the pool){}",
                    crate::suggest::did_you_mean(name, names)
                )
            })
    }
}

fn side_hero(db: &mut CardDb, name: &str) -> CardIdx {
    let def = CardDef::hero(
        format!("SCENARIO:hero:{name}"),
        name.to_string(),
        "SCENARIO",
        Faction::Neutral,
        2,
        2,
    );
    db.by_ref(&def.reference)
        .unwrap_or_else(|| db.push_card(def))
}

fn filler(db: &mut CardDb) -> CardIdx {
    let h = side_hero(db, "Mana orb");
    let mut def = db.card(h).clone();
    def.reference = "SCENARIO:mana".into();
    def.name = "Mana orb".into();
    def.kind = CardKind::Spell;
    db.by_ref(&def.reference)
        .unwrap_or_else(|| db.push_card(def))
}

fn terrain_bits(s: &str) -> Option<u8> {
    let mut b = 0;
    for c in s.chars().filter(|c| c.is_alphabetic()) {
        b |= terrain::parse(&c.to_string())?;
    }
    (b != 0).then_some(b)
}

fn exp_of(s: &str) -> Result<Exp, String> {
    match s.to_ascii_lowercase().as_str() {
        "hero" => Ok(Exp::Hero),
        "companion" => Ok(Exp::Companion),
        _ => Err(format!(
            "'{s}' is not an expedition (expected hero or companion)"
        )),
    }
}

/// Sets the state at the start of a scenario step; the condition that ends the step.
fn start_step(s: &mut GameState, step: &str) -> Box<dyn Fn(&GameState) -> bool> {
    let start_day = s.day;
    match step {
        "morning" => {
            s.phase = Phase::Morning;
            Box::new(|g| g.phase == Phase::Noon)
        }
        "noon" => {
            s.phase = Phase::Noon;
            Box::new(|g| g.phase == Phase::Turn)
        }
        "afternoon" => {
            s.phase = Phase::AfternoonStart;
            Box::new(|g| g.phase == Phase::Dusk)
        }
        "confluence-turn" | "player-turn" => {
            let side = if step == "player-turn" {
                Side::Player
            } else {
                Side::Confluence
            };
            s.phase = Phase::Turn;
            s.to_act = side;
            s.passed &= !side.bit();
            Box::new(move |g| g.phase == Phase::TurnEnd)
        }
        "dusk" => {
            s.phase = Phase::Dusk;
            Box::new(|g| g.phase == Phase::Night)
        }
        "rest" => {
            s.phase = Phase::Rest;
            Box::new(|g| g.phase == Phase::Cleanup)
        }
        "cleanup" => {
            s.phase = Phase::Cleanup;
            Box::new(|g| g.phase == Phase::Midnight)
        }
        "midnight" => {
            s.phase = Phase::Midnight;
            Box::new(|g| g.phase == Phase::Morning)
        }
        "night" => {
            s.phase = Phase::Night;
            Box::new(|g| g.phase == Phase::Morning)
        }
        "day" => {
            // A whole day, from its Morning to the next Morning.
            s.phase = Phase::Morning;
            Box::new(move |g| g.phase == Phase::Morning && g.day > start_day)
        }
        "until-end" => Box::new(|_| false),
        _ => unreachable!("steps are checked at load"),
    }
}

/// A card the file places: its card, the zone and expedition it starts in, its entry.
type Placed = (CardIdx, Zone, Exp, FullEntry);
/// A token the file places in an expedition: its side, card, expedition and entry.
type PlacedToken = (Side, CardIdx, Zone, Exp, FullEntry);

/// The cards the file places, by side (the player's, then the Confluence's), each with the
/// zone it starts in: the zones' cards by name, the Mana orbs as filler cards and the
/// Midnight card last; the tokens apart.
fn place_cards(
    file: &File,
    db: &CardDb,
    resolver: &Resolver<'_>,
    mana_card: CardIdx,
) -> Result<([Vec<Placed>; 2], Vec<PlacedToken>), String> {
    let mut placed: [Vec<Placed>; 2] = [Vec::new(), Vec::new()];
    let mut tokens: Vec<PlacedToken> = Vec::new();
    for (side, spec) in [
        (Side::Player, &file.player),
        (Side::Confluence, &file.confluence),
    ] {
        let zones: [(&Vec<Entry>, Zone, Exp); 7] = [
            (&spec.deck, Zone::Deck, Exp::Hero),
            (&spec.hand, Zone::Hand, Exp::Hero),
            (&spec.reserve, Zone::Reserve, Exp::Hero),
            (&spec.landmarks, Zone::Landmarks, Exp::Hero),
            (&spec.hero_expedition, Zone::Expedition, Exp::Hero),
            (&spec.companion_expedition, Zone::Expedition, Exp::Companion),
            (&spec.discard, Zone::Discard, Exp::Hero),
        ];
        for (list, zone, exp) in zones {
            for e in list {
                let f = e.full();
                let c = resolver.find(db, &f.card, f.rarity.as_deref())?;
                let kind = db.card(c).kind;
                if f.token || matches!(kind, CardKind::Token | CardKind::LandmarkToken) {
                    // A Landmark token (Aerolith, Manaseed) lies in the Landmarks, any other
                    // token in an expedition.
                    let allowed = if kind == CardKind::LandmarkToken {
                        Zone::Landmarks
                    } else {
                        Zone::Expedition
                    };
                    if zone != allowed {
                        let place = match allowed {
                            Zone::Landmarks => "the Landmarks",
                            _ => "an expedition",
                        };
                        return Err(format!("token '{}' can only be in {place}", f.card));
                    }
                    tokens.push((side, c, zone, exp, f));
                } else {
                    placed[side.index()].push((c, zone, exp, f));
                }
            }
        }
        for _ in 0..spec.mana {
            placed[side.index()].push((
                mana_card,
                Zone::Mana,
                Exp::Hero,
                Entry::Name(String::new()).full(),
            ));
        }
    }
    if let Some(m) = &file.game.midnight_card {
        let c = resolver.find(db, m, None)?;
        placed[1].push((c, Zone::Midnight, Exp::Hero, Entry::Name(m.clone()).full()));
    }
    if placed.iter().any(|p| p.len() > 63) {
        return Err("more than 63 cards on one side".into());
    }
    Ok((placed, tokens))
}

/// The placed cards as the state's objects (zones, boosts, counters, statuses, what is
/// known, each side's Mana and hero counters), then the tokens; `heroes` are the player's
/// and the Confluence's.
fn place_objects(
    s: &mut GameState,
    db: &CardDb,
    file: &File,
    heroes: (CardIdx, CardIdx),
    placed: &[Vec<Placed>; 2],
    tokens: Vec<PlacedToken>,
) -> Result<(), String> {
    let pc: Vec<CardIdx> = placed[0].iter().map(|p| p.0).collect();
    let cc: Vec<CardIdx> = placed[1].iter().map(|p| p.0).collect();
    s.place_decks(db, (heroes.0, &pc), (heroes.1, &cc));
    for side in Side::BOTH {
        s.side_mut(side).deck.clear();
        let first = s.first_obj[side] as usize + 1;
        // Decks are listed top first; the list's last element is the top.
        let mut deck_ids = Vec::new();
        for (i, (_, zone, exp, f)) in placed[side.index()].iter().enumerate() {
            let id = (first + i) as ObjId;
            let ts = s.next_ts();
            let o = s.obj_mut(id);
            o.zone = *zone;
            o.exp = *exp;
            o.ts = ts;
            o.boosts = f.boosts;
            o.counters = f.counters;
            for st in &f.status {
                o.flags |= kw::parse(&st.to_ascii_lowercase())
                    .ok_or_else(|| format!("unknown status '{st}'"))?;
            }
            if f.exhausted {
                o.flags |= flag::EXHAUSTED;
            }
            let hidden = matches!(zone, Zone::Deck | Zone::Mana)
                || (side == Side::Confluence && *zone == Zone::Hand);
            if !hidden {
                o.flags |= flag::KNOWN;
            }
            match zone {
                Zone::Deck => deck_ids.push(id),
                Zone::Midnight => s.midnight_card = id,
                _ => {
                    let ok = s.zone_list_mut(side, *zone, *exp).expect("list").push(id);
                    if !ok {
                        return Err("a zone is over capacity".into());
                    }
                }
            }
        }
        for id in deck_ids.into_iter().rev() {
            let _ = s.side_mut(side).deck.push(id);
        }
        let spec = if side == Side::Player {
            &file.player
        } else {
            &file.confluence
        };
        let st = s.side_mut(side);
        st.mana_ready = spec.mana_ready.unwrap_or(spec.mana).min(spec.mana);
        let hero = st.hero;
        let start = crate::engine::setup::start_counters(db, s.obj(hero).card);
        s.obj_mut(hero).counters = spec.hero_counters.or(start).unwrap_or(0);
    }
    for (k, (side, card, zone, exp, f)) in tokens.into_iter().enumerate() {
        let id = (TOKEN_BASE + k) as ObjId;
        let ts = s.next_ts();
        let mut flags = flag::TOKEN | flag::KNOWN;
        for st in &f.status {
            flags |= kw::parse(&st.to_ascii_lowercase())
                .ok_or_else(|| format!("unknown status '{st}'"))?;
        }
        *s.obj_mut(id) = Obj {
            card,
            flags,
            ts,
            zone,
            side,
            exp,
            boosts: f.boosts,
            counters: f.counters,
            tough: 0,
            left_boosts: 0,
            left_kw: 0,
        };
        let list = if zone == Zone::Landmarks {
            &mut s.side_mut(side).landmarks
        } else {
            &mut s.side_mut(side).exp[exp.index()]
        };
        let _ = list.push(id);
    }
    Ok(())
}

/// The `[game]` section and the sides' markers: the day, the Threatened expedition, the
/// adventure, the positions, the mode and variant, the revealed Tumult cards, today's
/// advances and the markers.
fn apply_game(s: &mut GameState, db: &CardDb, file: &File) -> Result<(), String> {
    let g = &file.game;
    s.day = g.day.unwrap_or(1);
    s.day_cap = g.day_cap.unwrap_or(30);
    s.threatened = exp_of(g.threatened.as_deref().unwrap_or("hero"))?;
    s.first = GameState::first_with(s.threatened);
    if let Some(a) = &g.adventure {
        if a.len() != 8 {
            return Err(format!("adventure has {} regions; it needs 8", a.len()));
        }
        for (r, t) in a.iter().enumerate() {
            s.adventure.terrain[r] = terrain_bits(t)
                .ok_or_else(|| format!("region {r}: terrain '{t}' (expected letters F, M, O)"))?;
        }
    }
    s.pos[Side::Player] = ByExp([
        g.hero_position.unwrap_or(0),
        g.companion_position.unwrap_or(7),
    ]);
    s.dark = ByExp([
        g.darkness_hero.unwrap_or(-1),
        g.darkness_companion.unwrap_or(8),
    ]);
    s.mode = match g.mode.as_deref() {
        None | Some("confluence") => Mode::Confluence,
        Some("duel") => Mode::Duel,
        Some(m) => {
            return Err(format!("mode '{m}' (expected \"confluence\" or \"duel\")"));
        }
    };
    s.pos[Side::Confluence] = ByExp([
        g.opponent_hero_position.unwrap_or(0),
        g.opponent_companion_position.unwrap_or(7),
    ]);
    s.arena = g.arena;
    s.today.plays[Side::Player] = g.plays_today;
    s.variant = match g.variant.as_deref() {
        None | Some("standard") => Variant::default(),
        Some("booster_war") if s.mode == Mode::Duel => Variant::BOOSTER_WAR,
        Some("booster_war_day_one_mana") if s.mode == Mode::Duel => Variant {
            mana_setup: true,
            ..Variant::BOOSTER_WAR
        },
        Some(v) => {
            return Err(format!(
                "variant '{v}' (expected \"standard\", or \"booster_war\" or \"booster_war_day_one_mana\" with mode = \"duel\")"
            ));
        }
    };
    s.adventure.revealed = match &g.revealed {
        Some(v) => v.iter().fold(0, |m, &k| m | (1 << k.min(2))),
        None => {
            let mut m = 0;
            for e in Exp::BOTH {
                let r = s.region(e);
                if (1..=6).contains(&r) {
                    m |= 1 << ((r - 1) / 2);
                }
            }
            m
        }
    };
    for a in &g.advanced_today {
        let e = exp_of(a)?;
        s.today.seats[Side::Player].advanced.set(e, true);
        s.today.seats[Side::Player].moved.set(e, true);
    }
    s.start_markers(db);
    for (side, spec) in [
        (Side::Player, &file.player),
        (Side::Confluence, &file.confluence),
    ] {
        if let Some(m) = &spec.hero_markers {
            s.adventure.set_supply(side, 0b111, false);
            for t in m {
                let bits = match t.as_str() {
                    "F" | "M" | "O" => terrain_bits(t).unwrap_or(0),
                    _ => return Err(format!("hero_markers: '{t}' (expected F, M or O)")),
                };
                s.adventure.set_supply(side, bits, true);
            }
        }
    }
    if let Some(m) = &g.markers {
        if m.len() != 8 {
            return Err(format!("markers has {} regions; it needs 8", m.len()));
        }
        for (r, t) in m.iter().enumerate() {
            s.adventure.replaced[r] = match t.as_str() {
                "" => 0,
                "F" | "M" | "O" => terrain_bits(t).unwrap_or(0),
                _ => {
                    return Err(format!(
                        "region {r}: marker '{t}' (expected \"\", F, M or O)"
                    ));
                }
            };
        }
    }
    Ok(())
}

impl Scenario {
    pub fn load(path: &Path, lib: &Library) -> Result<Scenario, ScenarioError> {
        let err = |msg: String| ScenarioError {
            path: path.to_path_buf(),
            msg,
        };
        let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
        Self::parse(&text, path, lib)
    }

    /// Builds a scenario from the text of its file (`path` names it in errors and anchors
    /// its relative paths).
    pub fn parse(text: &str, path: &Path, lib: &Library) -> Result<Scenario, ScenarioError> {
        let err = |msg: String| ScenarioError {
            path: path.to_path_buf(),
            msg,
        };
        // A byte-order mark (Windows editors write one) is not part of the file's text.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let file: File = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start].bytes().filter(|&b| b == b'\n').count() + 1)
                .unwrap_or(0);
            err(format!("line {line}: {}", e.message().trim()))
        })?;
        let mut db = lib.db.clone();
        let mut resolver = Resolver {
            pool: &lib.pool,
            inline: Vec::new(),
            confluence: Vec::new(),
        };
        let mut conf_hero = None;
        if let Some(d) = &file.confluence_deck {
            let p = path.parent().unwrap_or(Path::new(".")).join(d);
            let deck = ConfluenceDeck::load(&p, &mut db).map_err(|e| err(e.to_string()))?;
            resolver.confluence = deck
                .slots
                .iter()
                .map(|s| s.common)
                .chain(deck.rares.iter().copied())
                .collect();
            conf_hero = Some(deck.hero);
        }
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        for c in &file.cards {
            let (idx, _) = build_card(&mut db, &format!("scenario-{stem}"), c, false)
                .map_err(|m| err(format!("card '{}': {m}", c.name)))?;
            resolver.inline.push(idx);
        }
        let player_hero = match &file.player.hero {
            Some(h) => resolver.find(&db, h, None).map_err(&err)?,
            None => side_hero(&mut db, "No hero (2/2 limits)"),
        };
        let confluence_hero = match (&file.confluence.hero, conf_hero) {
            (Some(h), _) => resolver.find(&db, h, None).map_err(&err)?,
            (None, Some(h)) => h,
            (None, None) => side_hero(&mut db, "The Confluence"),
        };
        let mana_card = filler(&mut db);

        let (placed, tokens) = place_cards(&file, &db, &resolver, mana_card).map_err(&err)?;
        let mut s = GameState::empty();
        let heroes = (player_hero, confluence_hero);
        place_objects(&mut s, &db, &file, heroes, &placed, tokens).map_err(&err)?;
        apply_game(&mut s, &db, &file).map_err(&err)?;
        s.phase = Phase::Turn;
        s.setup_left = 0;
        s.recount_statics(&db);
        invariants::check(&s, &db)
            .map_err(|m| err(format!("the described position is not consistent: {m}")))?;
        let policy: PolicySpec = file
            .policy
            .as_deref()
            .unwrap_or("greedy")
            .parse()
            .map_err(|m: PolicyError| err(m.to_string()))?;
        for step in &file.steps {
            if !STEPS.contains(&step.as_str()) {
                return Err(err(format!(
                    "unknown step '{step}' (expected one of: {})",
                    STEPS.join(", ")
                )));
            }
        }
        let policy = policy.build(&PolicyData::new(&db));
        Ok(Scenario {
            path: path.to_path_buf(),
            description: file.description,
            db,
            state: s,
            steps: file.steps,
            choices: file.choices.into(),
            expect: file.expect,
            rng: GameRng::seed_from_u64(file.seed),
            policy,
            prng: PolicyRng::seed_from_u64(file.seed ^ 0x9011),
        })
    }

    /// Runs every step; the observer sees the events.
    pub fn run<O: Observer>(&mut self, obs: &mut O) -> Result<(), ScenarioError> {
        let steps = self.steps.clone();
        for step in &steps {
            if self.state.outcome.is_some() {
                break;
            }
            self.step(step, obs)?;
        }
        Ok(())
    }

    fn step<O: Observer>(&mut self, step: &str, obs: &mut O) -> Result<(), ScenarioError> {
        let stop = start_step(&mut self.state, step);
        let mut buf = ChoiceList::new();
        let mut guard = 0u32;
        loop {
            guard += 1;
            if guard > 100_000 {
                return Err(ScenarioError {
                    path: self.path.clone(),
                    msg: format!("step '{step}' did not finish"),
                });
            }
            let res = advance_until(&mut self.state, &self.db, &mut self.rng, obs, &*stop);
            if self.state.overflow
                && self.expect.get("engine_error") != Some(&toml::Value::Boolean(true))
            {
                return Err(ScenarioError {
                    path: self.path.clone(),
                    msg: format!(
                        "step '{step}': more reactions triggered at once than the engine queues ({}); some were not resolved",
                        self.state.pending.len()
                    ),
                });
            }
            match res {
                Step::Over(_) | Step::Stopped => break,
                Step::Decide => {
                    legal_choices(&self.state, &self.db, &mut buf);
                    while let Some(absent) = self
                        .choices
                        .front()
                        .and_then(|w| w.trim().strip_prefix("not:"))
                    {
                        let a = absent.trim().to_ascii_lowercase();
                        if buf.iter().any(|&c| {
                            describe_choice(&self.db, &self.state, c).to_ascii_lowercase() == a
                        }) {
                            return Err(ScenarioError {
                                path: self.path.clone(),
                                msg: format!(
                                    "'{}' is an option of decision {:?}, which the scenario says it is not",
                                    absent.trim(),
                                    self.state.decision
                                ),
                            });
                        }
                        self.choices.pop_front();
                    }
                    let k = match self.choices.pop_front() {
                        Some(want) => {
                            let w = want.trim().to_ascii_lowercase();
                            buf.iter()
                                .position(|&c| describe_choice(&self.db, &self.state, c).to_ascii_lowercase() == w)
                                .ok_or_else(|| ScenarioError {
                                    path: self.path.clone(),
                                    msg: format!(
                                        "scripted choice '{want}' is not legal for decision {:?}; legal: {}",
                                        self.state.decision,
                                        buf.iter()
                                            .map(|&c| format!("'{}'", describe_choice(&self.db, &self.state, c)))
                                            .collect::<Vec<_>>()
                                            .join(", ")
                                    ),
                                })?
                        }
                        None if buf.len() == 1 => 0,
                        None => self.policy.choose(
                            &View::new(&self.state, &self.db),
                            &buf,
                            &mut self.prng,
                        ),
                    };
                    apply_unchecked(&mut self.state, &self.db, &mut self.rng, obs, buf[k]);
                }
            }
        }
        if step == "confluence-turn" || step == "player-turn" {
            // End the turn (its reactions have resolved, "this turn" modifiers expire; "this
            // Afternoon" ones stay) without
            // starting the next one.
            if self.state.phase == Phase::TurnEnd {
                let side = self.state.to_act;
                let s = &mut self.state;
                let kept: Vec<TurnMod> = s
                    .mods()
                    .iter()
                    .copied()
                    .filter(|m| {
                        m.side != side || m.flags & crate::cards::effect::modflag::AFTERNOON != 0
                    })
                    .collect();
                s.n_mods = kept.len() as u8;
                s.mods[..kept.len()].copy_from_slice(&kept);
                s.phase = Phase::Turn;
            }
        }
        Ok(())
    }

    /// The state as JSON (what `scenario` prints and `[expect]` is checked against).
    pub fn state_json(&self) -> Value {
        state_json(&self.state, &self.db)
    }

    /// Mismatches between `[expect]` and the state: `key: expected X, found Y`.
    pub fn check(&self) -> Vec<String> {
        let state = self.state_json();
        let mut out = Vec::new();
        for (key, want) in &self.expect {
            let want: Value = serde_json::to_value(want).unwrap_or(Value::Null);
            let got = key
                .split('.')
                .try_fold(&state, |v, k| match (v, k.parse::<usize>()) {
                    (Value::Array(a), Ok(i)) => a.get(i),
                    _ => v.get(k),
                })
                .cloned()
                .unwrap_or(Value::Null);
            if !matches(&want, &got) {
                out.push(format!("{key}: expected {want}, found {got}"));
            }
        }
        out
    }
}

pub const STEPS: [&str; 12] = [
    "morning",
    "noon",
    "afternoon",
    "confluence-turn",
    "player-turn",
    "dusk",
    "rest",
    "cleanup",
    "midnight",
    "night",
    "day",
    "until-end",
];

/// `want` matches `got` when equal, when a list of names matches a list of objects by
/// name, or when a table's fields all match.
fn matches(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Array(w), Value::Array(g)) => {
            w.len() == g.len() && w.iter().zip(g).all(|(a, b)| matches(a, b))
        }
        (Value::String(name), Value::Object(o)) => {
            o.get("name") == Some(&Value::String(name.clone()))
        }
        (Value::Object(w), Value::Object(g)) => w
            .iter()
            .all(|(k, v)| g.get(k).is_some_and(|x| matches(v, x))),
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        _ => want == got,
    }
}

fn obj_json(s: &GameState, db: &CardDb, id: ObjId) -> Value {
    let o = s.obj(id);
    let def = db.card(o.card);
    let statuses: Vec<&str> = kw::describe(o.flags & 0xffff);
    json!({
        "name": def.name,
        "id": id,
        "stats": s.stats(db, id).to_string(),
        "boosts": o.boosts,
        "counters": o.counters,
        "status": statuses,
        "exhausted": o.has(flag::EXHAUSTED),
        "token": o.is_token(),
    })
}

pub fn state_json(s: &GameState, db: &CardDb) -> Value {
    let list =
        |l: &Zone64| -> Value { Value::Array(l.iter().map(|id| obj_json(s, db, id)).collect()) };
    let side_json = |side: Side| {
        let st = s.side(side);
        let deck_top_first: Vec<Value> = st
            .deck
            .as_slice()
            .iter()
            .rev()
            .map(|&id| obj_json(s, db, id))
            .collect();
        json!({
            "hero": db.card(s.obj(st.hero).card).name,
            "hero_counters": s.obj(st.hero).counters,
            "hero_exhausted": s.obj(st.hero).has(flag::EXHAUSTED),
            "deck": deck_top_first,
            "deck_size": st.deck.len(),
            "hand_size": st.hand.len(),
            "hand": list(&st.hand),
            "reserve": list(&st.reserve),
            "landmarks": list(&st.landmarks),
            "hero_expedition": list(&st.exp[0]),
            "companion_expedition": list(&st.exp[1]),
            "discard": list(&st.discard),
            "mana": st.mana.len(),
            "mana_ready": st.mana_ready,
            "ascended": Exp::BOTH.iter().filter(|&&e| s.ascended(side, e)).map(|e| e.name()).collect::<Vec<_>>(),
        })
    };
    json!({
        "day": s.day,
        "threatened": s.threatened.name(),
        "first_player": s.first_player().name(),
        "outcome": s.outcome.map_or("none", |o| o.result()),
        "engine_error": s.overflow,
        "cause": s.outcome.map_or("none", |o| o.cause()),
        "hero_position": s.pos[Side::Player].get(Exp::Hero),
        "companion_position": s.pos[Side::Player].get(Exp::Companion),
        "darkness_hero": s.dark.get(Exp::Hero),
        "darkness_companion": s.dark.get(Exp::Companion),
        "opponent_hero_position": s.pos[Side::Confluence].get(Exp::Hero),
        "opponent_companion_position": s.pos[Side::Confluence].get(Exp::Companion),
        "arena": s.arena,
        "winner": s.outcome.and_then(|o| o.winner()).map(|w| w.name()),
        "midnight_card": (s.midnight_card != NO_OBJ).then(|| db.card(s.obj(s.midnight_card).card).name.clone()),
        "advanced_today": Exp::BOTH.iter().filter(|&&e| s.today.seats[Side::Player].advanced.get(e)).map(|e| e.name()).collect::<Vec<_>>(),
        "adventure": (0..8).map(|r| json!({"region": r, "terrains": terrain::describe(s.region_terrains(db, r)), "revealed": s.adventure.is_revealed(r)})).collect::<Vec<_>>(),
        "passed": {"player": s.has_passed(Side::Player), "confluence": s.has_passed(Side::Confluence)},
        "player": side_json(Side::Player),
        "confluence": side_json(Side::Confluence),
    })
}
