//! Loading the card library and the decks named on the command line.
//!
//! Layer: part of [`crate::job`].

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::cards::Library;
use crate::deck::{ConfluenceDeck, Edit, PlayerDeck};
use crate::policy::value::ValueNet;
use crate::policy::{ExpertWeights, Models, PolicySpec};

use super::builtin;
use super::config::{Edits, Play};

/// The default player deck: the built-in Bravos starter.
pub const DEFAULT_PLAYER: &str = "builtin:decks/player/BR_kojo_booda.txt";

pub struct Loaded {
    pub lib: Library,
    pub players: Vec<PlayerDeck>,
    pub confluence: ConfluenceDeck,
    pub policies: Vec<PolicySpec>,
    pub warnings: Vec<String>,
    /// `--expert-weights`, read; `None`: the committed weights.
    pub expert: Option<ExpertWeights>,
    /// `--value-weights`, read; `None`: the committed value model.
    pub value: Option<ValueNet>,
    /// The what-if edits applied to the decks, in order.
    pub edits: Vec<Edit>,
}

/// A what-if edit and where it was written, for its errors.
#[derive(Clone, Debug)]
pub struct SourcedEdit {
    pub edit: Edit,
    /// `--edit "..."`, or `FILE:LINE`.
    pub origin: String,
    /// Given on the command line: its errors are usage errors (exit 2).
    pub flag: bool,
}

/// The edits of `--edits FILE` (a bad file: exit 1), then of each `--edit` (a bad flag:
/// exit 2), read but not yet applied.
pub fn edits(e: &Edits) -> Result<Vec<SourcedEdit>> {
    let mut out = Vec::new();
    if let Some(p) = &e.edits_file {
        let text =
            std::fs::read_to_string(p).with_context(|| format!("--edits {}", p.display()))?;
        let list = crate::deck::edit::parse_file(&text)
            .map_err(|(line, msg)| anyhow::anyhow!("{}:{line}: {msg}", p.display()))?;
        if list.is_empty() {
            bail!(
                "{}: no [[edit]] table (each edit is a table with card = \"...\" and change = \"...\")",
                p.display()
            );
        }
        out.extend(list.into_iter().map(|(line, edit)| SourcedEdit {
            edit,
            origin: format!("{}:{line}", p.display()),
            flag: false,
        }));
    }
    for s in &e.edit {
        let edit = s
            .parse::<Edit>()
            .map_err(|m| super::error::usage(format!("--edit \"{s}\": {m}")))?;
        out.push(SourcedEdit {
            edit,
            origin: format!("--edit \"{s}\""),
            flag: true,
        });
    }
    Ok(out)
}

/// Applies the edits to the decks, in order, adding the edited cards to the library; then
/// checks the player decks' deck-building rules again (unless `allow_illegal`).
pub fn apply_edits(
    edits: &[SourcedEdit],
    lib: &mut Library,
    confluence: &mut ConfluenceDeck,
    players: &mut [PlayerDeck],
    allow_illegal: bool,
) -> Result<Vec<Edit>> {
    for e in edits {
        crate::deck::edit::apply(&e.edit, &mut lib.db, &lib.pool, confluence, players).map_err(
            |msg| {
                let text = format!("{}: {msg}", e.origin);
                if e.flag {
                    super::error::usage(text)
                } else {
                    anyhow::anyhow!(text)
                }
            },
        )?;
    }
    if !allow_illegal {
        for d in players.iter() {
            let v = d.violations(&lib.db);
            if !v.is_empty() {
                let lines: Vec<String> = v.iter().map(|e| e.to_string()).collect();
                let text = format!(
                    "after the edits: {}\n(pass --allow-illegal to simulate it anyway)",
                    lines.join("\n")
                );
                return Err(if edits.iter().any(|e| e.flag) {
                    super::error::usage(text)
                } else {
                    anyhow::anyhow!(text)
                });
            }
        }
    }
    Ok(edits.iter().map(|e| e.edit.clone()).collect())
}

impl Loaded {
    /// The game of player deck `deck` against the Confluence deck's `cards` (one rare mix's,
    /// from [`ConfluenceDeck::cards_for`]).
    pub fn matchup<'a>(
        &'a self,
        deck: usize,
        cards: &'a [crate::cards::effect::CardIdx],
        day_cap: u8,
    ) -> crate::engine::setup::Matchup<'a> {
        let p = &self.players[deck];
        crate::engine::setup::Matchup {
            player_hero: p.hero,
            player_cards: &p.cards,
            confluence_hero: self.confluence.hero,
            confluence_cards: cards,
            day_cap,
        }
    }
    /// What the policies of this run share.
    pub fn policy_data(&self) -> crate::policy::PolicyData {
        crate::policy::PolicyData::for_run(&self.lib.db, self.models())
    }

    /// The model files this run read instead of the committed ones.
    pub fn models(&self) -> Models<'_> {
        Models {
            expert: self.expert.as_ref(),
            value: self.value.as_ref(),
        }
    }
}

/// The six starter decks: the default decks of compare, train-expert and train-value.
pub const STARTERS: [&str; 6] = [
    "builtin:decks/player/AX_sierra_oddball.txt",
    "builtin:decks/player/BR_kojo_booda.txt",
    "builtin:decks/player/LY_nevenka_blotch.txt",
    "builtin:decks/player/MU_teija_nauraa.txt",
    "builtin:decks/player/OR_sigismar_wingspan.txt",
    "builtin:decks/player/YZ_akesha_taru.txt",
];

/// Reads a model file named by `flag`, if one is given (`None`: the committed model), with
/// `parse`; a file it refuses is "not WHAT".
fn model_file<T>(
    path: Option<&Path>,
    flag: &str,
    what: &str,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<Option<T>> {
    let Some(path) = path else {
        return Ok(None);
    };
    let text =
        std::fs::read_to_string(path).with_context(|| format!("{flag} {}", path.display()))?;
    parse(&text)
        .map(Some)
        .map_err(|e| anyhow::anyhow!("{}: not {what}: {}", path.display(), e.trim_end()))
}

/// Reads the `--expert-weights` file, if one is given (`None`: the committed weights).
pub fn expert_weights(path: Option<&Path>) -> Result<Option<ExpertWeights>> {
    model_file(
        path,
        "--expert-weights",
        "an expert weights file as train-expert writes",
        ExpertWeights::parse,
    )
}

/// Reads the `--value-weights` file, if one is given (`None`: the committed value model).
pub fn value_weights(path: Option<&Path>) -> Result<Option<ValueNet>> {
    model_file(
        path,
        "--value-weights",
        "a value model as train-value writes",
        ValueNet::parse,
    )
}

/// The `expert_weights` column of the ladder and compare tables: the `--expert-weights`
/// file as given, or empty for the committed weights.
pub fn weights_label(p: Option<&Path>) -> String {
    p.map(|p| p.display().to_string()).unwrap_or_default()
}

/// The card library of `--cards` (the built-in `decks/cards` by default; see
/// [`super::builtin`]).
pub fn library(dir: &Path) -> Result<Library> {
    match builtin::locate(dir) {
        builtin::Source::Builtin(name) => {
            let files = builtin::dir(&name);
            let pool = files
                .iter()
                .find(|(rel, _)| *rel == "pool.csv")
                .ok_or_else(|| builtin::missing(&format!("{name}/pool.csv")))?
                .1;
            let shown = Path::new(&name);
            let abilities: Vec<(PathBuf, &str)> = files
                .iter()
                .filter_map(|(rel, text)| {
                    let r = rel.strip_prefix("abilities/")?;
                    (r.ends_with(".toml") && !r.contains('/')).then(|| (shown.join(rel), *text))
                })
                .collect();
            Ok(Library::from_texts(
                (&shown.join("pool.csv"), pool),
                abilities.iter().map(|(p, t)| (p.as_path(), *t)),
            )?)
        }
        builtin::Source::Disk(dir) => {
            if !dir.join("pool.csv").exists() {
                bail!(
                    "cannot find {} (--cards names the directory holding pool.csv and abilities/; without --cards the binary's own decks/cards is read)",
                    dir.join("pool.csv").display()
                );
            }
            Ok(Library::load(&dir)?)
        }
    }
}

/// The Confluence deck of `path` (from disk or built in).
pub fn confluence(path: &Path, db: &mut crate::cards::CardDb) -> Result<ConfluenceDeck> {
    match builtin::locate(path) {
        builtin::Source::Disk(p) => Ok(ConfluenceDeck::load(&p, db)?),
        builtin::Source::Builtin(_) => {
            let (shown, text) = builtin::read(path)?;
            Ok(ConfluenceDeck::parse(&text, &shown, db)?)
        }
    }
}

/// The booster slots of `--boosters` (from disk or built in).
pub fn boosters(path: &Path) -> Result<crate::deck::booster::BoosterFile> {
    match builtin::locate(path) {
        builtin::Source::Disk(p) => Ok(crate::deck::booster::read_slots(&p)?),
        builtin::Source::Builtin(_) => {
            let (shown, text) = builtin::read(path)?;
            Ok(crate::deck::booster::parse_slots(&text, &shown)?)
        }
    }
}

/// A player deck file, from disk or built in (syntax and cards; no deck-building rules).
fn player_file(lib: &Library, path: &Path) -> Result<PlayerDeck, crate::error::DeckError> {
    match builtin::locate(path) {
        builtin::Source::Disk(p) => PlayerDeck::load(&p, &lib.pool, &lib.db),
        builtin::Source::Builtin(_) => {
            let (shown, text) = builtin::read(path).map_err(|e| crate::error::DeckError::Io {
                path: path.to_path_buf(),
                source: e,
            })?;
            PlayerDeck::parse(&text, &shown, &lib.pool, &lib.db)
        }
    }
}

/// Loads a player deck and checks deck-building rules (errors unless `allow_illegal`).
pub fn player_deck(
    lib: &Library,
    path: &Path,
    allow_illegal: bool,
    warnings: &mut Vec<String>,
) -> Result<PlayerDeck> {
    let deck = match player_file(lib, path) {
        Ok(d) => d,
        Err(e) if e.is_rule() && allow_illegal => {
            bail!("{e} (this cannot be simulated even with --allow-illegal)")
        }
        Err(e) => return Err(e.into()),
    };
    let v = deck.violations(&lib.db);
    if !v.is_empty() {
        let lines: Vec<String> = v.iter().map(|e| e.to_string()).collect();
        if allow_illegal {
            warnings.extend(
                lines
                    .into_iter()
                    .map(|l| format!("{l} (simulated anyway: --allow-illegal)")),
            );
        } else {
            bail!(
                "{}\n(pass --allow-illegal to simulate it anyway)",
                lines.join("\n")
            );
        }
    }
    Ok(deck)
}

pub fn policies(names: &[String]) -> Result<Vec<PolicySpec>> {
    let names: Vec<String> = if names.is_empty() {
        vec!["greedy".into()]
    } else {
        names.to_vec()
    };
    names
        .iter()
        .map(|n| {
            n.parse::<PolicySpec>()
                .map_err(|e| super::error::usage(format!("--policy {n}: {e}")))
        })
        .collect()
}

/// `run`'s policies, each once: a policy given twice would play the same games twice
/// (`compare` allows it, as a check that a policy matches itself).
pub fn distinct_policies(names: &[String]) -> Result<()> {
    let specs = policies(names)?;
    for (i, p) in specs.iter().enumerate() {
        if specs[..i].contains(p) {
            return Err(super::error::usage(format!(
                "--policy {}: given twice (it would play the same games twice); give each policy once",
                names[i]
            )));
        }
    }
    Ok(())
}

/// The policies of a head-to-head command (`command` names it in the errors).
pub fn head_to_head_policies(names: &[String], command: &str) -> Result<Vec<PolicySpec>> {
    let specs = policies(names)?;
    for (i, p) in specs.iter().enumerate() {
        // A `skill` player is checked as its evaluator (a search).
        let e = p.evaluator();
        let search = matches!(
            e.kind,
            crate::policy::PolicyKind::Search | crate::policy::PolicyKind::Clairvoyant
        );
        // Head to head a search plays its rollouts to the end: the value model scores
        // positions of the solo game, so a horizon given explicitly is refused.
        if search && e.param("horizon", 0) > 0 {
            return Err(super::error::usage(format!(
                "--policy {p}: {command} plays the search's rollouts to the end of the game (the value model that scores a horizon values positions against the Confluence, not in a duel); drop horizon="
            )));
        }
        if !search && p.uses_value() {
            return Err(super::error::usage(format!(
                "--policy {p}: {command} cannot use the value model's lookahead (it looks ahead in the solo game against the Confluence, not in a duel); use expert without value="
            )));
        }
        if p.uses_pnet() {
            let fix = if p.kind == crate::policy::PolicyKind::Skill {
                format!(
                    "value by a search without it, e.g. skill:t={},from=search",
                    p.temperature().unwrap_or(0.0)
                )
            } else {
                "drop net=".to_string()
            };
            return Err(super::error::usage(format!(
                "--policy {p}: {command} cannot use the policy network (it was distilled from games against the Confluence, not duels); {fix}"
            )));
        }
        if specs[..i].contains(p) {
            return Err(super::error::usage(format!("--policy {p}: given twice")));
        }
    }
    Ok(specs)
}

/// The decks and player of a training command: the six starter decks when no --player is
/// given, `policy` when no --policy is.
pub fn training_decks(m: &Play, policy: &str) -> Play {
    let mut m = m.clone();
    if m.players.is_empty() {
        m.players = STARTERS.iter().map(Into::into).collect();
    }
    if m.policies.is_empty() {
        m.policies = vec![policy.into()];
    }
    m
}

pub fn load(m: &Play) -> Result<Loaded> {
    load_with(m, Vec::new())
}

/// [`load`], with `first` (an experiment file's edits) applied before the edits of `m`.
pub fn load_with(m: &Play, first: Vec<SourcedEdit>) -> Result<Loaded> {
    let mut all = first;
    all.extend(edits(&m.edits)?);
    let mut lib = library(&m.cards)?;
    let mut names = m.policies.clone();
    if let Some(f) = &m.calibrated {
        for (_, spec) in super::players::players_of(f)? {
            if !names.contains(&spec) {
                names.push(spec);
            }
        }
    }
    let policies = policies(&names)?;
    let mut warnings = Vec::new();
    let paths: Vec<PathBuf> = if m.players.is_empty() {
        vec![PathBuf::from(DEFAULT_PLAYER)]
    } else {
        m.players.clone()
    };
    let mut players = Vec::new();
    for p in &paths {
        players.push(player_deck(&lib, p, m.allow_illegal, &mut warnings)?);
    }
    let mut confluence = self::confluence(&m.confluence, &mut lib.db)
        .context("the Confluence deck (--confluence)")?;
    let edits = apply_edits(
        &all,
        &mut lib,
        &mut confluence,
        &mut players,
        m.allow_illegal,
    )?;
    let expert = expert_weights(m.expert_weights.as_deref())?;
    let value = value_weights(m.value_weights.as_deref())?;
    Ok(Loaded {
        lib,
        players,
        confluence,
        policies,
        warnings,
        expert,
        value,
        edits,
    })
}

/// Cards of a deck (hero included) whose abilities are not fully encoded.
pub fn non_exact(lib: &Library, deck: &PlayerDeck) -> usize {
    std::iter::once(deck.hero)
        .chain(deck.cards.iter().copied())
        .filter(|&c| !lib.db.card(c).coverage.is_exact())
        .count()
}

/// The decks of the command line, loaded and checked as `run` does; a deck given twice,
/// or two decks with the same file stem (the name outputs give a deck), is a usage error.
/// (`matchup` and `ffa`.)
pub fn player_decks(
    lib: &crate::cards::Library,
    players: &[std::path::PathBuf],
    allow_illegal: bool,
    warnings: &mut Vec<String>,
) -> Result<Vec<crate::deck::PlayerDeck>> {
    let mut decks: Vec<crate::deck::PlayerDeck> = Vec::new();
    for p in players {
        let d = player_deck(lib, p, allow_illegal, warnings)?;
        if let Some(o) = decks.iter().find(|o| o.name == d.name) {
            let same = std::fs::canonicalize(&o.path).ok() == std::fs::canonicalize(&d.path).ok();
            return Err(super::error::usage(if same {
                format!("--player {}: given twice", p.display())
            } else {
                format!(
                    "--player {} and --player {}: two decks named {} (the outputs name a deck by its file stem); rename one",
                    o.path.display(),
                    p.display(),
                    d.name
                )
            }));
        }
        decks.push(d);
    }
    Ok(decks)
}
