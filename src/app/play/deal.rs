//! What `play` deals: the decks, the rare mix and the opponent, loaded once from the flags,
//! and each game's start from (seed, game index) as `replay` deals it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::Value;

use super::super::cli::{PlayArgs, PlayMode};
use super::super::records;
use crate::cards::db::CardDb;
use crate::cards::effect::CardIdx;
use crate::engine::setup::Matchup;
use crate::engine::{GameRng, GameState};
use crate::gamelog::GameLog;
use crate::job::error::usage;
use crate::job::{load, mixes};
use crate::policy::{PolicyData, PolicySpec};
use crate::record::{Header, Mode, Opponent};
use crate::sim::GameSeeds;
use crate::sim::duel::{DuelRules, DuelSeat, start_duel};
use crate::sim::game::start_game;

/// Everything a game of this server is dealt from; loaded once, shared by every game and
/// worker thread.
pub struct Table {
    pub loaded: load::Loaded,
    pub mode: PlayMode,
    /// Solo: the Confluence's cards with the rare mix swapped in, and the rares' names.
    pub conf_cards: Vec<CardIdx>,
    pub rares: Vec<String>,
    /// Matchup: the policy that plays seat B.
    pub opponent_policy: PolicySpec,
    /// The advisor's policy (`None`: `--no-advisor`).
    pub advisor: Option<PolicySpec>,
    pub data: PolicyData,
    pub name: String,
    pub seed: u64,
    pub game_index: Option<u64>,
    pub games_dir: PathBuf,
    pub day_cap: u8,
    /// The deck files as given (the player's, then the opponent's).
    pub deck_files: Vec<PathBuf>,
    pub confluence_file: PathBuf,
    /// Printed texts by card reference (`--card-texts`).
    pub texts: HashMap<String, String>,
}

impl Table {
    /// Loads the decks, mix, policies and texts the flags name; bad flags are usage errors.
    pub fn load(a: &PlayArgs) -> Result<Table> {
        let m = &a.m;
        if !m.policies.is_empty() {
            return Err(usage(
                "play: you are the player, so --policy has no meaning here (head to head, the opponent's policy is --opponent-policy)",
            ));
        }
        if m.players.len() > 1 {
            return Err(usage(
                "play: give one --player, your deck (head to head, the opponent's deck is --opponent)",
            ));
        }
        let mut m = m.clone();
        if m.players.is_empty() {
            m.players.push(PathBuf::from(load::DEFAULT_PLAYER));
        }
        match (a.mode, &a.opponent) {
            (PlayMode::Matchup, Some(o)) => m.players.push(o.clone()),
            (PlayMode::Matchup, None) => {
                return Err(usage(
                    "play --mode matchup: give --opponent DECK, the deck the opponent policy plays",
                ));
            }
            (PlayMode::Solo, Some(_)) => {
                return Err(usage(
                    "--opponent: only head to head (--mode matchup); solo, the Confluence is the opponent",
                ));
            }
            (PlayMode::Solo, None) => {}
        }
        if m.rares.is_empty() && m.rare_sets.is_empty() {
            m.rares.push("0".into());
        }
        let opponent_policy = load::head_to_head_policies(
            std::slice::from_ref(&a.opponent_policy),
            "play --mode matchup",
        )
        .map_err(|e| {
            usage(format!(
                "--opponent-policy: {}",
                crate::job::error::message(&e)
            ))
        })?
        .remove(0);
        let advisor = if a.no_advisor {
            None
        } else {
            let spec: PolicySpec = a
                .advisor
                .parse()
                .map_err(|e| usage(format!("--advisor {}: {e}", a.advisor)))?;
            Some(spec)
        };
        let loaded = load::load(&(&m).into())?;
        for w in &loaded.warnings {
            eprintln!("confluence-sim: warning: {w}");
        }
        let db = &loaded.lib.db;
        let (conf_cards, rares) = if a.mode == PlayMode::Solo {
            let mixes = mixes::mixes(
                &loaded.confluence,
                db,
                &m.rares,
                &m.rare_sets,
                m.subsets,
                a.seed,
            )?;
            let &[mix] = &mixes[..] else {
                return Err(usage(format!(
                    "play deals one game: these rare flags give {} mixes; give one --rares N or one --rare-set",
                    mixes.len()
                )));
            };
            (
                loaded.confluence.cards_for(mix),
                loaded.confluence.mix_names(mix, db),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        let texts = match &a.card_texts {
            Some(p) => read_texts(p)?,
            None => HashMap::new(),
        };
        let data = loaded.policy_data();
        Ok(Table {
            deck_files: m.players.clone(),
            confluence_file: m.confluence.clone(),
            loaded,
            mode: a.mode,
            conf_cards,
            rares,
            opponent_policy,
            advisor,
            data,
            name: a.name.clone(),
            seed: a.seed,
            game_index: a.game_index,
            games_dir: a.games_dir.clone(),
            day_cap: m.day_cap,
            texts,
        })
    }

    pub fn db(&self) -> &CardDb {
        &self.loaded.lib.db
    }

    pub fn matchup(&self) -> bool {
        self.mode == PlayMode::Matchup
    }

    /// The solo game of the player's deck against the Confluence with the mix.
    pub fn solo(&self) -> Matchup<'_> {
        self.loaded.matchup(0, &self.conf_cards, self.day_cap)
    }

    /// A head-to-head game's seats: the player's deck, then the opponent's.
    pub fn seats(&self) -> [DuelSeat<'_>; 2] {
        std::array::from_fn(|k| DuelSeat {
            hero: self.loaded.players[k].hero,
            cards: &self.loaded.players[k].cards,
            ordered: false,
        })
    }

    /// The seat that plays first on day 1 of head-to-head game `index`, as `matchup` has it.
    pub fn first_seat(index: u64) -> u8 {
        crate::sim::matchup::first_seat(index)
    }

    /// Deals game (seed, index) with `log` watching its setup.
    pub fn deal(
        &self,
        seeds: &GameSeeds,
        index: u64,
        log: &mut GameLog<'_>,
    ) -> (GameState, GameRng) {
        let db = self.db();
        if self.matchup() {
            start_duel(
                db,
                self.seats(),
                Self::first_seat(index),
                DuelRules::standard(self.day_cap),
                seeds,
                log,
            )
        } else {
            start_game(db, &self.solo(), seeds, log)
        }
    }

    /// The record's header (docs/outputs.md, "Game records") for game (seed, index).
    pub fn header(&self, index: u64, started: String) -> Header {
        let db = self.db();
        let p = &self.loaded.players;
        let solo = !self.matchup();
        Header {
            event: "record".into(),
            format: crate::record::FORMAT,
            version: env!("CARGO_PKG_VERSION").into(),
            player: self.name.clone(),
            mode: if solo { Mode::Solo } else { Mode::Matchup },
            seat: "a".into(),
            player_deck: self.deck_files[0].display().to_string(),
            deck: records::deck_facts(db, &p[0]),
            confluence: solo.then(|| crate::job::builtin::shown(&self.confluence_file)),
            rares: self.rares.clone(),
            edits: self.loaded.edits.iter().map(ToString::to_string).collect(),
            opponent: (!solo).then(|| Opponent {
                player_deck: self.deck_files[1].display().to_string(),
                deck: records::deck_facts(db, &p[1]),
                policy: self.opponent_policy.to_string(),
            }),
            day_cap: self.day_cap,
            seed: self.seed,
            game_index: index,
            advisor: self.advisor.is_some(),
            started: Some(started),
        }
    }

    /// The game index of a new game: the flag's, or one after the highest recorded in
    /// --games-dir for this seed (0 when none is).
    pub fn next_index(&self) -> u64 {
        if let Some(i) = self.game_index {
            return i;
        }
        recorded_indices(&self.games_dir, self.seed)
            .into_iter()
            .max()
            .map_or(0, |i| i + 1)
    }
}

/// The game indices of the records in `dir` dealt from `seed` (files that are not records
/// are skipped: they name no deal).
fn recorded_indices(dir: &Path, seed: u64) -> Vec<u64> {
    let Ok(files) = records::files(&[dir.to_path_buf()]) else {
        return Vec::new();
    };
    files
        .iter()
        .filter_map(|f| records::read(f).ok())
        .filter(|r| r.header.seed == seed)
        .map(|r| r.header.game_index)
        .collect()
}

/// `--card-texts`: the printed text of each card by reference (main effect, then echo).
fn read_texts(path: &Path) -> Result<HashMap<String, String>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--card-texts {}", path.display()))?;
    let mut out = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).map_err(|e| {
            anyhow::anyhow!(
                "{} line {}: not a JSON object with ref and main_effect_en: {e}",
                path.display(),
                i + 1
            )
        })?;
        let Some(r) = v["ref"].as_str() else {
            anyhow::bail!("{} line {}: no \"ref\" field", path.display(), i + 1);
        };
        let parts: Vec<&str> = ["main_effect_en", "echo_effect_en"]
            .iter()
            .filter_map(|k| v[*k].as_str())
            .filter(|s| !s.is_empty())
            .collect();
        out.insert(r.to_string(), parts.join(" / Echo: "));
    }
    Ok(out)
}
