//! Game records: one game as JSON Lines, a header that deals the game again, the
//! game log's records of `replay --json`, and at every decision the
//! legal options and the one chosen. `play` writes them for people and `replay --json` for
//! simulated players; `replay --file` and `calibrate` read them. The format is documented in
//! docs/outputs.md, "Game records"; this module is its one definition.
//!
//! Layer: uses no other module of the crate (no I/O: the command line reads and writes the
//! files).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The version of the record format this binary writes and reads.
pub const FORMAT: u32 = 1;

/// A deck as the record names it: its name, its hero's reference and every other card's
/// reference in the file's order.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct DeckFacts {
    pub name: String,
    pub hero: String,
    pub cards: Vec<String>,
}

/// The other seat of a head-to-head record.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Opponent {
    pub player_deck: String,
    pub deck: DeckFacts,
    pub policy: String,
}

/// Which game a record holds.
#[derive(Serialize, Deserialize, Copy, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// A player deck against the Confluence.
    Solo,
    /// Two player decks head to head (seat A and seat B).
    Matchup,
}

/// The first line of a record: everything needed to deal the same game again.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// Always "record".
    pub event: String,
    pub format: u32,
    pub version: String,
    /// A person's name, or a simulated player's policy spec.
    pub player: String,
    pub mode: Mode,
    /// The recorded player's seat, "a" or "b" ("a" in a solo game).
    pub seat: String,
    /// The player deck's file as given.
    pub player_deck: String,
    pub deck: DeckFacts,
    /// Solo: the Confluence deck's file as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confluence: Option<String>,
    /// Solo: the rares swapped in, by name.
    #[serde(default)]
    pub rares: Vec<String>,
    /// The what-if edits, as `--edit` takes them, in order.
    #[serde(default)]
    pub edits: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<Opponent>,
    pub day_cap: u8,
    pub seed: u64,
    pub game_index: u64,
    /// Advice could be asked for in this game.
    pub advisor: bool,
    /// When the game started (RFC 3339); `None` for a simulated player.
    pub started: Option<String>,
}

impl Header {
    /// The seat index of the recorded player (0 = seat A).
    pub fn seat_index(&self) -> usize {
        usize::from(self.seat == "b")
    }

    /// The header as its JSON line.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("a header serialises")
    }
}

/// What a record says of one decision, besides the log's `decision` fields.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedDecision {
    /// The record's line (1-based), for errors.
    pub line: usize,
    /// The decision's number in the game, from 0.
    pub n: u32,
    /// Whose decision: "a" or "b".
    pub side: String,
    /// The decision's kind as the log names it (`Turn`, `May`, ...).
    pub kind: String,
    pub day: u32,
    pub legal: Vec<String>,
    pub index: usize,
    pub seconds: Option<f64>,
    pub advice: bool,
}

impl RecordedDecision {
    /// The seat index of the decider (0 = seat A).
    pub fn seat_index(&self) -> usize {
        usize::from(self.side == "b")
    }
}

/// A whole record, read.
#[derive(Clone, Debug)]
pub struct Record {
    pub header: Header,
    /// Every decision, in order.
    pub decisions: Vec<RecordedDecision>,
    /// The `end` record, when the game finished.
    pub end: Option<Value>,
    /// The `unfinished` record, when it did not.
    pub unfinished: Option<Value>,
}

impl Record {
    /// Reads a record's text. An error is the 1-based line and what is wrong there.
    pub fn parse(text: &str) -> Result<Record, (usize, String)> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .filter(|(_, l)| !l.trim().is_empty());
        let Some((hl, first)) = lines.next() else {
            return Err((1, "empty file: expected a game record (JSON Lines)".into()));
        };
        let v: Value = serde_json::from_str(first).map_err(|e| (hl, format!("not JSON: {e}")))?;
        if v.get("event").and_then(Value::as_str) != Some("record") {
            return Err((
                hl,
                "the first line is not a record header (expected {\"event\": \"record\", ...}; \
                 `replay --json` of this version writes one)"
                    .into(),
            ));
        }
        let header: Header =
            serde_json::from_value(v).map_err(|e| (hl, format!("record header: {e}")))?;
        if header.format != FORMAT {
            return Err((
                hl,
                format!(
                    "record format {} (this binary reads format {FORMAT})",
                    header.format
                ),
            ));
        }
        if header.seat != "a" && header.seat != "b" {
            return Err((
                hl,
                format!("seat \"{}\": expected \"a\" or \"b\"", header.seat),
            ));
        }
        let mut rec = Record {
            header,
            decisions: Vec::new(),
            end: None,
            unfinished: None,
        };
        for (ln, l) in lines {
            let v: Value = serde_json::from_str(l).map_err(|e| (ln, format!("not JSON: {e}")))?;
            if rec.end.is_some() || rec.unfinished.is_some() {
                return Err((
                    ln,
                    "a record after the game's last line (end or unfinished)".into(),
                ));
            }
            match v.get("event").and_then(Value::as_str) {
                Some("decision") => {
                    let d = decision(&v, ln)?;
                    if d.n as usize != rec.decisions.len() {
                        return Err((
                            ln,
                            format!(
                                "decision number {}: expected {} (decisions are numbered from 0, in order)",
                                d.n,
                                rec.decisions.len()
                            ),
                        ));
                    }
                    rec.decisions.push(d);
                }
                Some("end") => rec.end = Some(v),
                Some("unfinished") => rec.unfinished = Some(v),
                Some(_) => {}
                None => return Err((ln, "a line without \"event\"".into())),
            }
        }
        Ok(rec)
    }

    /// The decisions of the recorded player.
    pub fn own_decisions(&self) -> impl Iterator<Item = &RecordedDecision> {
        let seat = self.header.seat.clone();
        self.decisions.iter().filter(move |d| d.side == seat)
    }
}

fn decision(v: &Value, ln: usize) -> Result<RecordedDecision, (usize, String)> {
    let field = |k: &str| v.get(k).ok_or((ln, format!("decision without \"{k}\"")));
    let uint = |k: &str| {
        field(k)?
            .as_u64()
            .ok_or((ln, format!("decision \"{k}\": expected a whole number ≥ 0")))
    };
    let legal: Vec<String> = field("legal")?
        .as_array()
        .ok_or((
            ln,
            "decision \"legal\": expected a list of options".to_string(),
        ))?
        .iter()
        .map(|o| o.as_str().map(str::to_string))
        .collect::<Option<_>>()
        .ok_or((ln, "decision \"legal\": expected strings".to_string()))?;
    let index = uint("index")? as usize;
    if index >= legal.len() {
        return Err((
            ln,
            format!(
                "decision \"index\" {index}: expected less than the {} legal option(s)",
                legal.len()
            ),
        ));
    }
    let side = field("side")?
        .as_str()
        .filter(|s| *s == "a" || *s == "b")
        .ok_or((ln, "decision \"side\": expected \"a\" or \"b\"".to_string()))?;
    let seconds = match v.get("seconds") {
        None | Some(Value::Null) => None,
        Some(s) => Some(s.as_f64().filter(|x| *x >= 0.0).ok_or((
            ln,
            "decision \"seconds\": expected a number ≥ 0 or null".to_string(),
        ))?),
    };
    Ok(RecordedDecision {
        line: ln,
        n: uint("n")? as u32,
        side: side.to_string(),
        kind: field("decision")?.as_str().unwrap_or("").to_string(),
        day: v.get("day").and_then(Value::as_u64).unwrap_or(0) as u32,
        legal,
        index,
        seconds,
        advice: v.get("advice").and_then(Value::as_bool).unwrap_or(false),
    })
}

/// The fields a record adds to the log's `decision` record (see `GameLog::decision`):
/// the decision's number, whose it is, the legal options in words, the index chosen, the
/// seconds taken and whether advice was on screen.
pub fn decision_fields(
    n: u32,
    side: &str,
    legal: Vec<String>,
    index: usize,
    seconds: Option<f64>,
    advice: bool,
) -> Value {
    json!({"n": n, "side": side, "legal": legal, "index": index, "seconds": seconds, "advice": advice})
}

/// The last line of a game that stopped before its end.
pub fn unfinished(decisions: usize, reason: &str) -> Value {
    json!({"event": "unfinished", "decisions": decisions, "reason": reason})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            event: "record".into(),
            format: FORMAT,
            version: "0.1.0".into(),
            player: "Alice".into(),
            mode: Mode::Solo,
            seat: "a".into(),
            player_deck: "decks/player/BR_kojo_booda.txt".into(),
            deck: DeckFacts {
                name: "BR".into(),
                hero: "H".into(),
                cards: vec!["X".into()],
            },
            confluence: Some("decks/confluence/reference.toml".into()),
            rares: vec![],
            edits: vec![],
            opponent: None,
            day_cap: 30,
            seed: 1,
            game_index: 0,
            advisor: false,
            started: None,
        }
    }

    fn dec(n: u32, index: usize) -> String {
        let mut v = json!({"event": "decision", "day": 1, "phase": "afternoon", "decision": "Turn", "options": 2, "choice": "pass"});
        let f = decision_fields(
            n,
            "a",
            vec!["pass".into(), "play X".into()],
            index,
            Some(1.5),
            false,
        );
        v.as_object_mut()
            .unwrap()
            .extend(f.as_object().unwrap().clone());
        v.to_string()
    }

    #[test]
    fn a_record_reads_back() {
        let text = format!(
            "{}\n{}\n{{\"event\":\"moved\"}}\n{}\n{}\n",
            header().to_json(),
            dec(0, 1),
            dec(1, 0),
            json!({"event": "end", "result": "win"})
        );
        let r = Record::parse(&text).unwrap();
        assert_eq!(r.header, header());
        assert_eq!(r.decisions.len(), 2);
        assert_eq!(r.decisions[0].index, 1);
        assert_eq!(r.decisions[1].line, 4);
        assert_eq!(r.decisions[0].seconds, Some(1.5));
        assert!(r.end.is_some() && r.unfinished.is_none());
    }

    #[test]
    fn bad_records_name_the_line() {
        let h = header().to_json().to_string();
        assert_eq!(Record::parse("").unwrap_err().0, 1);
        assert!(
            Record::parse("{\"event\":\"setup\"}")
                .unwrap_err()
                .1
                .contains("header")
        );
        let e = Record::parse(&format!("{h}\n{}", dec(1, 0))).unwrap_err();
        assert_eq!(e.0, 2);
        assert!(e.1.contains("expected 0"), "{}", e.1);
        let e = Record::parse(&format!("{h}\n{}", dec(0, 5))).unwrap_err();
        assert!(e.1.contains("index"), "{}", e.1);
        let e = Record::parse(&format!("{h}\nnot json")).unwrap_err();
        assert_eq!(e.0, 2);
        let mut bad = header();
        bad.format = 9;
        let e = Record::parse(&bad.to_json().to_string()).unwrap_err();
        assert!(e.1.contains("format 9"), "{}", e.1);
        let e =
            Record::parse(&format!("{h}\n{}\n{}", unfinished(0, "closed"), dec(0, 0))).unwrap_err();
        assert_eq!(e.0, 3);
    }
}
