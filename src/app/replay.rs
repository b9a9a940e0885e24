//! `confluence-sim replay`: one game of a run, as a log a person can read.

use std::io::Write;

use anyhow::Result;
use serde_json::{Value, json};

use super::cli::{ReplayArgs, ReplayMode, WarVariant};
use super::records;
use crate::deck::booster::{Booster, BoosterPool};
use crate::engine::ffa::FFA_MAX_CARDS;
use crate::engine::view::View;
use crate::engine::{ChoiceList, Step, Variant, advance, apply_unchecked, legal_choices};
use crate::gamelog::GameLog;
use crate::job::load;
use crate::job::mixes;
use crate::policy::{AnyPolicy, Policy, PolicyData};
use crate::record::{Header, Mode};
use crate::sim::GameSeeds;
use crate::sim::booster_war::{Build, deal};
use crate::sim::duel::{DuelGame, DuelRules, DuelSeat, play_duel_with};
use crate::sim::ffa::{FfaGame, FfaSeeds, SEATINGS, SEATS, first_seat, play_ffa_with, pods};
use crate::sim::matchup::Entry;

pub fn replay(a: ReplayArgs) -> Result<()> {
    if let Some(f) = &a.file {
        return replay_file(f, a.json);
    }
    if a.records.is_some() && !matches!(a.mode, ReplayMode::Run | ReplayMode::Matchup) {
        return Err(crate::job::error::usage(
            "--records writes game records of solo games and matchups (--mode run or matchup)",
        ));
    }
    match a.mode {
        ReplayMode::Run => {}
        ReplayMode::Matchup => return replay_matchup(&a),
        ReplayMode::BoosterWar => return replay_booster_war(&a),
        ReplayMode::Ffa => return replay_ffa(&a),
    }
    let loaded = load::load(&(&a.m).into())?;
    if loaded.players.len() != 1 || loaded.policies.len() != 1 {
        return Err(crate::job::error::usage(
            "replay plays one game: give one --player and one --policy",
        ));
    }
    let mixes = mixes::mixes(
        &loaded.confluence,
        &loaded.lib.db,
        &a.m.rares,
        &a.m.rare_sets,
        a.m.subsets,
        a.seed,
    )?;
    let Some(&mix) = mixes.get(a.mix_index) else {
        return Err(crate::job::error::usage(format!(
            "--mix-index {} is out of range: these rare flags give {} mix(es)",
            a.mix_index,
            mixes.len()
        )));
    };
    let conf_cards = loaded.confluence.cards_for(mix);
    let data = loaded.policy_data();
    let game = |g: u64| solo_game(&a, &loaded, &data, mix, &conf_cards, g);
    match &a.records {
        Some(dir) => write_records(&a, dir, &loaded.policies[0].to_string(), |g| {
            game(g).records
        }),
        None => write_log(&game(a.game_index), a.json),
    }
}

/// `replay --records DIR --games N`: the records of games `--game-index` to
/// `--game-index + N - 1`, one file each, played on `--threads`.
fn write_records(
    a: &ReplayArgs,
    dir: &std::path::Path,
    player: &str,
    game: impl Fn(u64) -> Vec<Value> + Sync + Send,
) -> Result<()> {
    let games: Vec<u64> = (a.game_index..a.game_index + a.games).collect();
    let name = crate::job::players::spec_name(player).replace(['/', ' '], "-");
    let written = super::selfplay::each_task(&games, a.threads, false, |&g| {
        let path = dir.join(format!("{name}-s{}-g{g}.jsonl", a.seed));
        records::write_atomic(&path, &game(g))
    })?;
    written.into_iter().collect::<Result<Vec<_>>>()?;
    eprintln!(
        "wrote {} game records of {player} into {}",
        games.len(),
        dir.display()
    );
    Ok(())
}

/// One solo game of `loaded`'s deck and policy against the Confluence's `mix`, with its
/// log (a game record, header first).
fn solo_game<'l>(
    a: &ReplayArgs,
    loaded: &'l load::Loaded,
    data: &crate::policy::PolicyData,
    mix: crate::deck::RareMix,
    conf_cards: &[crate::cards::effect::CardIdx],
    game_index: u64,
) -> GameLog<'l> {
    let db = &loaded.lib.db;
    let deck = &loaded.players[0];
    let m = loaded.matchup(0, conf_cards, a.m.day_cap);
    let seeds = GameSeeds::new(a.seed, game_index);
    let mut log = GameLog::new(db);
    let header = Header {
        event: "record".into(),
        format: crate::record::FORMAT,
        version: env!("CARGO_PKG_VERSION").into(),
        player: loaded.policies[0].to_string(),
        mode: Mode::Solo,
        seat: "a".into(),
        player_deck: deck.path.display().to_string(),
        deck: records::deck_facts(db, deck),
        confluence: Some(crate::job::builtin::shown(&a.m.confluence)),
        rares: loaded.confluence.mix_names(mix, db),
        edits: loaded.edits.iter().map(ToString::to_string).collect(),
        opponent: None,
        day_cap: a.m.day_cap,
        seed: a.seed,
        game_index,
        advisor: false,
        started: None,
    };
    log.records.push(header.to_json());
    log.lines.push(format!(
        "Game {} of seed {} (game seed {}): {} ({}) with policy {} against {}; rares: {}",
        game_index,
        a.seed,
        seeds.game,
        deck.name,
        db.card(deck.hero).name,
        loaded.policies[0],
        loaded.confluence.name,
        {
            let names = loaded.confluence.mix_names(mix, db);
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        }
    ));
    let (mut s, mut rng) = crate::sim::game::start_game(db, &m, &seeds, &mut log);
    let mut prng = seeds.policy_rng();
    let mut policy = loaded.policies[0].build(data);
    let mut buf = ChoiceList::new();
    let mut n = 0;
    loop {
        match advance(&mut s, db, &mut rng, &mut log) {
            Step::Over(_) | Step::Stopped => break,
            Step::Decide => {
                legal_choices(&s, db, &mut buf);
                let k = if buf.len() == 1 {
                    0
                } else {
                    policy.choose(&View::new(&s, db), &buf, &mut prng)
                };
                log.recorded_decision(&s, &buf, k, n, None, false);
                n += 1;
                apply_unchecked(&mut s, db, &mut rng, &mut log, buf[k]);
            }
        }
    }
    log
}

/// `replay --file GAME.jsonl`: a game record dealt again and re-played choice by choice,
/// shown as any replay is (its log, or with `--json` its records); the game must end as the
/// record says, and an unfinished record is shown up to its last decision.
fn replay_file(path: &std::path::Path, json: bool) -> Result<()> {
    let what = path.display().to_string();
    let rec = records::read(path)?;
    let dealt = records::deal(&rec.header, &what)?;
    let mut log = dealt.log();
    let h = &rec.header;
    log.records.push(h.to_json());
    log.lines.push(format!(
        "Game record {what}: {} playing {} ({}), game {} of seed {}{}",
        h.player,
        h.deck.name,
        match h.mode {
            Mode::Solo => "against the Confluence",
            Mode::Matchup => "head to head",
        },
        h.game_index,
        h.seed,
        match h.mode {
            Mode::Solo if h.rares.is_empty() => "; rares: none".to_string(),
            Mode::Solo => format!("; rares: {}", h.rares.join(", ")),
            Mode::Matchup => String::new(),
        }
    ));
    let replayed = dealt.replay(&rec, &what, &mut log, |_, _, _| {})?;
    match (&rec.end, &replayed.end) {
        (Some(want), Some(got)) if !records::same_end(want, got) => {
            anyhow::bail!(
                "{what}: the game re-played to {got} where the record ends {want} (a record of another version?)"
            )
        }
        (Some(_), None) => anyhow::bail!(
            "{what}: the record ends the game, but its {} decisions stop before the end",
            replayed.decisions
        ),
        (None, Some(_)) => anyhow::bail!(
            "{what}: the record has no end, but its decisions play the game to its end"
        ),
        (None, None) => {
            log.records
                .push(crate::record::unfinished(replayed.decisions, "unfinished"));
            log.lines.push(format!(
                "(unfinished: the record stops after {} decisions)",
                replayed.decisions
            ));
        }
        _ => {}
    }
    write_log(&log, json)
}

/// Writes the log to stdout: its lines, or with `--json` its records as JSON Lines.
fn write_log(log: &GameLog<'_>, json: bool) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if json {
        for r in &log.records {
            writeln!(out, "{r}")?;
        }
    } else {
        for l in &log.lines {
            writeln!(out, "{l}")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// One seat of a head-to-head game as the replay describes it.
struct SeatInfo {
    /// How the heading describes it ("AX_sierra_oddball (Sierra & Oddball), greedy").
    about: String,
    /// How the log names it ("A (Sierra & Oddball)").
    name: String,
    json: Value,
}

/// Plays a head-to-head game with the log watching, and returns the log: a game record's
/// header where there is one (a matchup), a record (`game`) describing the game and its
/// seats, then the game's events and every seat's decisions.
#[allow(clippy::too_many_arguments)]
fn duel_log<'d>(
    a: &ReplayArgs,
    db: &'d crate::cards::db::CardDb,
    game: &DuelGame<'_>,
    seats: [SeatInfo; 2],
    mut policies: [AnyPolicy; 2],
    what: Value,
    heading: String,
    record: Option<Header>,
    game_index: u64,
) -> GameLog<'d> {
    let [sa, sb] = seats;
    let mut log = GameLog::duel(db, [sa.name.clone(), sb.name.clone()]);
    // A matchup's replay is a game record (its header first): `calibrate` reads it.
    if let Some(h) = record {
        log.records.push(h.to_json());
    }
    let first = if game.first == 0 { "a" } else { "b" };
    let mut head = json!({
        "event": "game",
        "seed": a.seed,
        "game_index": game_index,
        "game_seed": game.seeds.game,
        "first_player": first,
        "day_cap": game.rules.day_cap,
        "seats": {"a": sa.json, "b": sb.json},
    });
    if let (Some(h), Value::Object(w)) = (head.as_object_mut(), what) {
        h.extend(w);
    }
    log.records.push(head);
    log.lines.push(heading);
    log.lines.push(format!("Seat A: {}", sa.about));
    log.lines.push(format!("Seat B: {}", sb.about));
    log.lines.push(format!(
        "First player on day 1: seat {}",
        first.to_uppercase()
    ));
    let [pa, pb] = &mut policies;
    let mut buf = ChoiceList::new();
    let mut n = 0;
    play_duel_with(
        db,
        game,
        [pa, pb],
        &mut buf,
        &mut log,
        |log, s, options, k| {
            log.recorded_decision(s, options, k, n, None, false);
            n += 1;
        },
    );
    log
}

/// Game `--game-index` of a matchup between two entries: seat A is the first --player
/// with the first --policy, seat B the second --player (or the first again) with the
/// second --policy (or the first again), as the matchup plays the pair of those entries
/// when seat A's is the lower entry.
fn replay_matchup(a: &ReplayArgs) -> Result<()> {
    let m = &a.m;
    if m.players.is_empty() || m.players.len() > 2 || m.policies.len() > 2 {
        return Err(crate::job::error::usage(
            "replay --mode matchup plays one game of a pair: give one or two --player (seat A, then seat B; one for a mirror pair) and one or two --policy (the same for both seats, or seat A's then seat B's)",
        ));
    }
    let policies = load::head_to_head_policies(&m.policies, "replay --mode matchup")?;
    let lib = load::library(&m.cards)?;
    let expert = load::expert_weights(m.expert_weights.as_deref())?;
    let value = load::value_weights(m.value_weights.as_deref())?;
    let mut warnings = Vec::new();
    let decks: Vec<_> = m
        .players
        .iter()
        .map(|p| load::player_deck(&lib, p, m.allow_illegal, &mut warnings))
        .collect::<Result<_>>()?;
    for w in &warnings {
        eprintln!("confluence-sim: warning: {w}");
    }
    let data = PolicyData::for_run(
        &lib.db,
        crate::policy::Models {
            expert: expert.as_ref(),
            value: value.as_ref(),
        },
    );
    let pick = |k: usize| k.min(decks.len() - 1);
    let pol = |k: usize| &policies[k.min(policies.len() - 1)];
    let db = &lib.db;
    let seat_info = |k: usize| {
        let d = &decks[pick(k)];
        SeatInfo {
            about: format!("{} ({}), {}", d.name, db.card(d.hero).name, pol(k)),
            name: format!("{} ({})", ["A", "B"][k], db.card(d.hero).name),
            json: json!({"deck": d.name, "hero": db.card(d.hero).name, "policy": pol(k).to_string()}),
        }
    };
    let one = |g: u64| {
        let seeds = GameSeeds::new(a.seed, g);
        let seat = |k: usize| DuelSeat {
            hero: decks[pick(k)].hero,
            cards: &decks[pick(k)].cards,
            ordered: false,
        };
        let game = DuelGame {
            seats: [seat(0), seat(1)],
            first: crate::sim::matchup::first_seat(g),
            rules: DuelRules::standard(m.day_cap),
            seeds: &seeds,
        };
        let heading = format!(
            "Matchup game {} of seed {} (game seed {}), day cap {}",
            g, a.seed, seeds.game, m.day_cap
        );
        let path = |k: usize| m.players[k.min(m.players.len() - 1)].display().to_string();
        let header = Header {
            event: "record".into(),
            format: crate::record::FORMAT,
            version: env!("CARGO_PKG_VERSION").into(),
            player: pol(0).to_string(),
            mode: Mode::Matchup,
            seat: "a".into(),
            player_deck: path(0),
            deck: records::deck_facts(db, &decks[pick(0)]),
            confluence: None,
            rares: Vec::new(),
            edits: Vec::new(),
            opponent: Some(crate::record::Opponent {
                player_deck: path(1),
                deck: records::deck_facts(db, &decks[pick(1)]),
                policy: pol(1).to_string(),
            }),
            day_cap: m.day_cap,
            seed: a.seed,
            game_index: g,
            advisor: false,
            started: None,
        };
        duel_log(
            a,
            db,
            &game,
            [seat_info(0), seat_info(1)],
            [pol(0).build(&data), pol(1).build(&data)],
            json!({"mode": "matchup"}),
            heading,
            Some(header),
            g,
        )
    };
    match &a.records {
        Some(dir) => write_records(a, dir, &pol(0).to_string(), |g| one(g).records),
        None => write_log(&one(a.game_index), a.json),
    }
}

/// Game `--game-index` of a Booster War in `--variant`: the two boosters opened (and, for
/// the ordered variant, stacked) as the run dealt them.
fn replay_booster_war(a: &ReplayArgs) -> Result<()> {
    let m = &a.m;
    let build = match a.variant {
        WarVariant::Shuffled => Build::Shuffled,
        WarVariant::Ordered => Build::Ordered,
        WarVariant::Both => {
            return Err(crate::job::error::usage(
                "--variant both: a game is played in one variant; give shuffled or ordered",
            ));
        }
    };
    if !m.players.is_empty() || m.policies.len() > 1 {
        return Err(crate::job::error::usage(
            "replay --mode booster-war deals its decks from boosters: give no --player, and one --policy (both players', default planner)",
        ));
    }
    let names = if m.policies.is_empty() {
        vec!["planner".to_string()]
    } else {
        m.policies.clone()
    };
    let policy = load::head_to_head_policies(&names, "replay --mode booster-war")?.remove(0);
    let lib = load::library(&m.cards)?;
    let expert = load::expert_weights(m.expert_weights.as_deref())?;
    let value = load::value_weights(m.value_weights.as_deref())?;
    let slots_file = load::boosters(&a.boosters)?;
    let Some(&slots) = slots_file.get(&a.set) else {
        return Err(crate::job::error::usage(format!(
            "--set {}: {} describes no booster of that set",
            a.set,
            crate::job::builtin::shown(&a.boosters)
        )));
    };
    let pool = BoosterPool::new(&lib, &a.set, slots).map_err(|e| {
        anyhow::anyhow!(
            "{}: [{}]: {e}",
            crate::job::builtin::shown(&a.boosters),
            a.set
        )
    })?;
    let db = &lib.db;
    let seeds = GameSeeds::new(a.seed, a.game_index);
    let mut boosters = [Booster::default(), Booster::default()];
    deal(db, &pool, &policy, build, &seeds, &mut boosters);
    let data = PolicyData::for_run(
        db,
        crate::policy::Models {
            expert: expert.as_ref(),
            value: value.as_ref(),
        },
    );
    let seat_info = |k: usize| {
        let b = &boosters[k];
        let cards: Vec<&str> = b.cards.iter().map(|&c| db.card(c).name.as_str()).collect();
        SeatInfo {
            about: format!(
                "{} ({}), {}",
                db.card(b.hero).name,
                db.card(b.hero).faction.code(),
                policy
            ),
            name: format!("{} ({})", ["A", "B"][k], db.card(b.hero).name),
            json: json!({"hero": db.card(b.hero).name, "policy": policy.to_string(), "deck": cards,
                         "references": b.cards.iter().map(|&c| db.card(c).reference.as_str()).collect::<Vec<_>>()}),
        }
    };
    let ordered = build == Build::Ordered;
    let seat = |k: usize| DuelSeat {
        hero: boosters[k].hero,
        cards: &boosters[k].cards,
        ordered,
    };
    let game = DuelGame {
        seats: [seat(0), seat(1)],
        first: crate::sim::booster_war::first_seat(a.game_index),
        rules: DuelRules {
            day_cap: m.day_cap,
            variant: Variant {
                mana_setup: a.day_one_mana,
                ..Variant::BOOSTER_WAR
            },
        },
        seeds: &seeds,
    };
    let mut heading = format!(
        "Booster War game {} of seed {} (game seed {}), {} variant, set {}, day cap {}",
        a.game_index,
        a.seed,
        seeds.game,
        build.name(),
        a.set,
        m.day_cap
    );
    for (k, b) in boosters.iter().enumerate() {
        let cards: Vec<&str> = b.cards.iter().map(|&c| db.card(c).name.as_str()).collect();
        heading.push_str(&format!(
            "\n{} booster{}: {}",
            if k == 0 { "Seat A's" } else { "Seat B's" },
            if ordered { ", stacked top first" } else { "" },
            cards.join(", ")
        ));
    }
    let log = duel_log(
        a,
        db,
        &game,
        [seat_info(0), seat_info(1)],
        [policy.build(&data), policy.build(&data)],
        json!({"mode": "booster-war", "variant": build.name(), "set": a.set}),
        heading,
        None,
        a.game_index,
    );
    write_log(&log, a.json)
}

/// Game `--game-index` of seating `--seating` of pod `--pod` of an `ffa` run, given the
/// run's --player decks and --policy names in the run's order: the entries, pods and
/// seatings are the run's, so `--pod` and `--seating` are the columns of its `pods.csv`,
/// and the game draws its streams from (seed, pod and seating, game) as the run did.
fn replay_ffa(a: &ReplayArgs) -> Result<()> {
    let m = &a.m;
    let policies = load::head_to_head_policies(&m.policies, "replay --mode ffa")?;
    for p in &policies {
        if let Err(e) = p.check_ffa() {
            return Err(crate::job::error::usage(format!("--policy {p}: {e}")));
        }
    }
    let n = m.players.len() * policies.len();
    if n < SEATS {
        return Err(crate::job::error::usage(format!(
            "replay --mode ffa names a game of an ffa run: give the run's --player decks and --policy names, in its order (at least 4 entries); {} deck(s) x {} policy(ies) make {n}",
            m.players.len(),
            policies.len()
        )));
    }
    let pod_list = pods(n);
    let Some(pod) = pod_list.get(a.pod) else {
        return Err(crate::job::error::usage(format!(
            "--pod {} is out of range: {n} entries make {} pods (0 to {})",
            a.pod,
            pod_list.len(),
            pod_list.len() - 1
        )));
    };
    let Some(seating) = SEATINGS.get(a.seating) else {
        return Err(crate::job::error::usage(format!(
            "--seating {} is out of range: a pod plays {} seatings (0 to {})",
            a.seating,
            SEATINGS.len(),
            SEATINGS.len() - 1
        )));
    };
    let lib = load::library(&m.cards)?;
    let expert = load::expert_weights(m.expert_weights.as_deref())?;
    let value = load::value_weights(m.value_weights.as_deref())?;
    let mut warnings = Vec::new();
    let decks = load::player_decks(&lib, &m.players, m.allow_illegal, &mut warnings)?;
    for w in &warnings {
        eprintln!("confluence-sim: warning: {w}");
    }
    for d in &decks {
        if d.cards.len() > FFA_MAX_CARDS {
            anyhow::bail!(
                "{}: {} cards besides the hero; Free for All seats decks of at most {FFA_MAX_CARDS}",
                d.path.display(),
                d.cards.len()
            );
        }
    }
    // The entries in the run's order: each deck with each policy.
    let entries: Vec<Entry> = (0..decks.len())
        .flat_map(|deck| (0..policies.len()).map(move |policy| Entry { deck, policy }))
        .collect();
    let db = &lib.db;
    let data = PolicyData::for_run(
        db,
        crate::policy::Models {
            expert: expert.as_ref(),
            value: value.as_ref(),
        },
    );
    let entry = |s: usize| (pod[seating[s] as usize], &entries[pod[seating[s] as usize]]);
    let keys = ["a", "b", "c", "d"];
    let mut seat_json = serde_json::Map::new();
    let mut about = Vec::new();
    for (s, key) in keys.iter().enumerate() {
        let (i, e) = entry(s);
        let d = &decks[e.deck];
        let hero = &db.card(d.hero).name;
        seat_json.insert(
            (*key).into(),
            json!({"entry": i, "deck": d.name, "hero": hero, "policy": policies[e.policy].to_string()}),
        );
        about.push(format!(
            "Seat {} (seat {s}): entry {i}, {} ({hero}), {}",
            key.to_uppercase(),
            d.name,
            policies[e.policy]
        ));
    }
    let names: [String; 4] = std::array::from_fn(|s| {
        format!(
            "{} ({})",
            keys[s].to_uppercase(),
            db.card(decks[entry(s).1.deck].hero).name
        )
    });
    let mut pols = Vec::with_capacity(SEATS);
    for s in 0..SEATS {
        let spec = &policies[entry(s).1.policy];
        pols.push(
            spec.build_ffa(&data)
                .map_err(|e| crate::job::error::usage(e.to_string()))?,
        );
    }
    let config = (a.pod * SEATINGS.len() + a.seating) as u64;
    let seeds = FfaSeeds::new(a.seed, config, a.game_index);
    let first = first_seat(a.game_index);
    let seat = |s: usize| DuelSeat {
        hero: decks[entry(s).1.deck].hero,
        cards: &decks[entry(s).1.deck].cards,
        ordered: false,
    };
    let game = FfaGame {
        seats: std::array::from_fn(seat),
        first,
        day_cap: m.day_cap,
        seeds: &seeds,
        mirror_lanes: false,
    };
    let mut log = GameLog::ffa(db, names);
    log.records.push(json!({
        "event": "game",
        "mode": "ffa",
        "seed": a.seed,
        "pod": a.pod,
        "seating": a.seating,
        "game_index": a.game_index,
        "first_player": keys[first as usize],
        "day_cap": m.day_cap,
        "seats": seat_json,
    }));
    log.lines.push(format!(
        "Free for All game {} of pod {} seating {}, seed {}, day cap {}; seats clockwise:",
        a.game_index, a.pod, a.seating, a.seed, m.day_cap
    ));
    log.lines.extend(about);
    log.lines.push(format!(
        "First player on day 1: seat {}. Lanes: A's and B's Hero expeditions race each other, and C's and D's; B's and C's Companion expeditions, and D's and A's.",
        keys[first as usize].to_uppercase()
    ));
    let [p0, p1, p2, p3] = &mut pols[..] else {
        unreachable!("four seats")
    };
    let mut buf = ChoiceList::new();
    play_ffa_with(
        db,
        &game,
        [p0, p1, p2, p3],
        &mut buf,
        &mut log,
        |log, s, n, c| log.decision(s, n, c),
    );
    write_log(&log, a.json)
}
