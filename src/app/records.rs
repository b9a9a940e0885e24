//! Game records on disk (format: crate::record, docs/outputs.md "Game records"): reading
//! one, writing one whole, dealing its game again from its header, and re-playing its
//! choices, for `replay --file`, `calibrate` and `play`.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde_json::Value;

use crate::cards::db::CardDb;
use crate::cards::effect::CardIdx;
use crate::deck::PlayerDeck;
use crate::engine::event::Observer;
use crate::engine::view::View;
use crate::engine::{
    ChoiceList, GameRng, GameState, Step, advance, apply_unchecked, legal_choices,
};
use crate::gamelog::{GameLog, describe_choice};
use crate::job::config::{Edits, Play};
use crate::job::load::{self, Loaded};
use crate::record::{DeckFacts, Header, Mode, Record, RecordedDecision};
use crate::sim::GameSeeds;
use crate::sim::duel::{DuelRules, DuelSeat, start_duel};

/// Reads a record file; a bad one is an error naming the file and the line (exit 1).
pub fn read(path: &Path) -> Result<Record> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the game record {}", path.display()))?;
    Record::parse(&text).map_err(|(line, msg)| anyhow!("{}:{line}: {msg}", path.display()))
}

/// The record files of `dirs`: each `*.jsonl` file directly inside a directory, or a file
/// named itself; sorted by path, so that the order they are given in does not matter.
pub fn files(dirs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for d in dirs {
        if d.is_file() {
            out.push(d.clone());
            continue;
        }
        let entries = std::fs::read_dir(d)
            .with_context(|| format!("cannot read the record directory {}", d.display()))?;
        for e in entries {
            let p = e?.path();
            if p.is_file() && p.extension().is_some_and(|x| x == "jsonl") {
                out.push(p);
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Writes a record whole: into a temporary file beside `path`, renamed over it, so that
/// a reader never sees half a record.
pub fn write_atomic(path: &Path, lines: &[Value]) -> Result<()> {
    use std::io::Write;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let dir = dir.unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the record directory {}", dir.display()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot write a record in {}", dir.display()))?;
    {
        let mut w = std::io::BufWriter::new(tmp.as_file_mut());
        for l in lines {
            writeln!(w, "{l}")?;
        }
        w.flush()?;
    }
    tmp.persist(path).map_err(|e| {
        anyhow!(
            "cannot write the game record {}: {}",
            path.display(),
            e.error
        )
    })?;
    Ok(())
}

/// A deck as a record names it (after the edits).
pub fn deck_facts(db: &CardDb, d: &PlayerDeck) -> DeckFacts {
    DeckFacts {
        name: d.name.clone(),
        hero: db.card(d.hero).reference.clone(),
        cards: d
            .cards
            .iter()
            .map(|&c| db.card(c).reference.clone())
            .collect(),
    }
}

/// A record's game dealt again: the decks and cards its header names, loaded with its
/// edits.
#[derive(Clone)]
pub struct Dealt {
    /// Shared by the deals of one table ([`Dealt::again`]).
    pub loaded: std::sync::Arc<Loaded>,
    pub header: Header,
    /// Solo: the Confluence's cards for the record's rares.
    conf_cards: std::sync::Arc<Vec<CardIdx>>,
    /// What the policies read of the cards, made once per table.
    pub data: crate::policy::PolicyData,
}

/// What a deal's table is made of (decks, rares, edits, rules): the header without its
/// deal (seed, game index) and its player; records with the same table share one load.
pub fn table_key(h: &Header) -> String {
    let mut v = h.to_json();
    if let Some(m) = v.as_object_mut() {
        for k in [
            "seed",
            "game_index",
            "player",
            "started",
            "advisor",
            "version",
        ] {
            m.remove(k);
        }
    }
    v.to_string()
}

/// The flags that load the decks of a record (seat A's deck first in a matchup).
fn match_args(h: &Header) -> Play {
    let mut players = vec![PathBuf::from(&h.player_deck)];
    if let Some(o) = &h.opponent {
        players.push(PathBuf::from(&o.player_deck));
        if h.seat == "b" {
            players.reverse();
        }
    }
    Play {
        players,
        confluence: PathBuf::from(
            h.confluence
                .as_deref()
                .unwrap_or(crate::job::builtin::CONFLUENCE),
        ),
        policies: Vec::new(),
        calibrated: None,
        rares: if h.rares.is_empty() {
            vec!["0".into()]
        } else {
            Vec::new()
        },
        rare_sets: if h.rares.is_empty() {
            Vec::new()
        } else {
            vec![h.rares.join(",")]
        },
        subsets: 1,
        day_cap: h.day_cap,
        allow_illegal: true,
        cards: PathBuf::from(crate::job::builtin::CARDS),
        expert_weights: None,
        value_weights: None,
        edits: Edits {
            edit: h.edits.clone(),
            edits_file: None,
        },
    }
}

/// Deals a record's game again: loads the decks its header names (with its edits) and
/// checks that they are the decks it recorded.
pub fn deal(h: &Header, what: &str) -> Result<Dealt> {
    let m = match_args(h);
    let loaded = load::load(&m).with_context(|| format!("{what}: dealing its game again"))?;
    let db = &loaded.lib.db;
    let seat = h.seat_index();
    let mut expect = vec![(h.player_deck.as_str(), &h.deck, seat)];
    if let Some(o) = &h.opponent {
        expect.push((o.player_deck.as_str(), &o.deck, 1 - seat));
    }
    for (file, facts, k) in expect {
        let k = if h.mode == Mode::Solo { 0 } else { k };
        if deck_facts(db, &loaded.players[k]) != *facts {
            bail!(
                "{what}: the deck file {file} is not the deck this game was played with (its cards differ from the record's)"
            );
        }
    }
    let conf_cards = if h.mode == Mode::Solo {
        let mixes = crate::job::mixes::mixes(
            &loaded.confluence,
            db,
            &m.rares,
            &m.rare_sets,
            m.subsets,
            h.seed,
        )
        .with_context(|| format!("{what}: its rares"))?;
        loaded.confluence.cards_for(mixes[0])
    } else {
        Vec::new()
    };
    Ok(Dealt {
        data: loaded.policy_data(),
        loaded: std::sync::Arc::new(loaded),
        header: h.clone(),
        conf_cards: std::sync::Arc::new(conf_cards),
    })
}

/// How a re-played record ended.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The re-played game's `end` record, or `None` when the record stops before the end.
    pub end: Option<Value>,
    /// Decisions re-played.
    pub decisions: usize,
}

impl Dealt {
    /// The deal of `h` at this deal's table (the same [`table_key`]), sharing its load.
    pub fn again(&self, h: &Header) -> Dealt {
        debug_assert_eq!(table_key(h), table_key(&self.header));
        Dealt {
            header: h.clone(),
            ..self.clone()
        }
    }

    pub fn db(&self) -> &CardDb {
        &self.loaded.lib.db
    }

    /// The game set up, as `run` (solo) or `matchup` (head to head) deals it.
    pub fn start<O: Observer>(&self, obs: &mut O) -> (GameState, GameRng) {
        let h = &self.header;
        let seeds = GameSeeds::new(h.seed, h.game_index);
        let db = self.db();
        match h.mode {
            Mode::Solo => crate::sim::game::start_game(db, &self.solo(), &seeds, obs),
            Mode::Matchup => start_duel(
                db,
                self.duel_seats(),
                crate::sim::matchup::first_seat(h.game_index),
                DuelRules::standard(h.day_cap),
                &seeds,
                obs,
            ),
        }
    }

    /// Head to head: the two seats, seat A first.
    pub fn duel_seats(&self) -> [DuelSeat<'_>; 2] {
        let p = &self.loaded.players;
        let seat = |k: usize| DuelSeat {
            hero: p[k].hero,
            cards: &p[k].cards,
            ordered: false,
        };
        [seat(0), seat(1)]
    }

    /// The solo game of this deal's deck against the Confluence's mix.
    pub fn solo(&self) -> crate::engine::setup::Matchup<'_> {
        self.loaded
            .matchup(0, &self.conf_cards, self.header.day_cap)
    }

    /// A log for this game (a head-to-head one names its seats).
    pub fn log(&self) -> GameLog<'_> {
        let db = self.db();
        match self.header.mode {
            Mode::Solo => GameLog::new(db),
            Mode::Matchup => {
                let p = &self.loaded.players;
                let name = |k: usize| format!("{} ({})", ["A", "B"][k], db.card(p[k].hero).name);
                GameLog::duel(db, [name(0), name(1)])
            }
        }
    }

    /// Re-plays `rec`'s choices on this deal, `log` watching, calling `f` at each decision
    /// before it is applied with the position, the legal options and the record's
    /// decision. A decision whose legal options differ from the record's is an error
    /// naming the file's line.
    pub fn replay<'d>(
        &'d self,
        rec: &Record,
        what: &str,
        log: &mut GameLog<'d>,
        mut f: impl FnMut(&View<'_>, &ChoiceList, &RecordedDecision),
    ) -> Result<Replayed> {
        let db = self.db();
        let (mut s, mut rng) = self.start(log);
        let mut buf = ChoiceList::new();
        let mut next = rec.decisions.iter();
        let mut n = 0usize;
        loop {
            match advance(&mut s, db, &mut rng, log) {
                Step::Over(_) | Step::Stopped => {
                    if let Some(d) = next.next() {
                        bail!(
                            "{what}:{}: a decision after the game's end (the record is not this game's)",
                            d.line
                        );
                    }
                    return Ok(Replayed {
                        end: log.records.last().cloned(),
                        decisions: n,
                    });
                }
                Step::Decide => {
                    legal_choices(&s, db, &mut buf);
                    let Some(d) = next.next() else {
                        return Ok(Replayed {
                            end: None,
                            decisions: n,
                        });
                    };
                    let legal: Vec<String> =
                        buf.iter().map(|&c| describe_choice(db, &s, c)).collect();
                    if legal != d.legal {
                        bail!(
                            "{what}:{}: decision {} offers {:?} here, the record {:?} (a record of another version of the cards or the engine?)",
                            d.line,
                            d.n,
                            legal,
                            d.legal
                        );
                    }
                    let side = ["a", "b", "c", "d"][s.decider.index()];
                    if side != d.side {
                        bail!(
                            "{what}:{}: decision {} is seat {side}'s here, the record says {}'s",
                            d.line,
                            d.n,
                            d.side
                        );
                    }
                    f(&View::new(&s, db), &buf, d);
                    log.recorded_decision(&s, &buf, d.index, d.n, d.seconds, d.advice);
                    apply_unchecked(&mut s, db, &mut rng, log, buf[d.index]);
                    n += 1;
                }
            }
        }
    }
}

/// The fields of an `end` record that say how a game ended.
pub fn same_end(a: &Value, b: &Value) -> bool {
    ["result", "cause", "days", "winner"]
        .iter()
        .all(|k| a.get(k) == b.get(k))
}
