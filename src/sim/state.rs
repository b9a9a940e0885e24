//! The state of a run on disk: its finished units (exact statistics and a baseline's wins) in
//! an append-only log, and their per-game rows in a second file. A checkpoint and a shard
//! are both such a directory; adding the units of several gives exactly the statistics of
//! one run that played them all.
//!
//! `units.log` is a sequence of records `magic (u32) | length (u32) | payload | CRC-32 of
//! the payload (u32)`, little-endian, the payload in LEB128 varints (bit sets as 8-byte
//! words). `games.bin` holds 26-byte rows (config u32, game u64, seed u64, outcome u8 whose
//! top bit says the game had an engine error, days u8, player plays u16, Confluence plays
//! u16); each record names its rows' offset,
//! count and CRC-32; a unit in which some game had an engine error ends its payload with
//! their count and the first one's index (absent otherwise). Records are appended in the
//! order the units run, rows before their record; a record whose bytes or rows are missing or damaged (a power cut) ends the valid
//! part, and an interrupted run continues from there.
//!
//! The head-to-head runners keep the same log of their own units ([`LogUnit`]: a
//! configuration, its games and their tally; see [`super::tally`]), with a magic number
//! of their own and no rows.
//!
//! Layer: part of [`crate::sim`]; may use `cards`, `deck`, `engine`, `policy`, `stats` and nothing
//! else of the crate.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::runner::{GameRow, Unit, Units};
use crate::engine::Outcome;
use crate::stats::Accum;
use crate::stats::accum::{MAX_DAYS, OUTCOMES, SLOTS};

pub const LOG: &str = "units.log";
pub const ROWS: &str = "games.bin";
/// Games per unit of a checkpointed run: at most this many games are played again after a
/// crash, per configuration under way.
pub const UNIT_GAMES: u64 = 4096;

/// "CSU2": seven outcome codes (format 1, "CSU1", had five: no wins or losses by a card).
const MAGIC: u32 = 0x3255_5343;
const MAGIC_V1: u32 = 0x3155_5343;
const ROW_BYTES: usize = 26;
const MAX_PAYLOAD: u32 = 1 << 20;
/// A power cut loses at most about this much work.
const SYNC_EVERY: Duration = Duration::from_secs(2);

#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {msg}", path.display())]
    Bad { path: PathBuf, msg: String },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StateError + '_ {
    move |source| StateError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Where a unit's rows are in `games.bin`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RowsAt {
    pub offset: u64,
    pub count: u64,
    pub crc: u32,
}

/// One record of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record<U = Unit> {
    pub unit: U,
    pub rows: RowsAt,
}

/// What a log's records carry: the finished units of one kind of runner (a run's
/// [`Unit`], or a head-to-head runner's tallies), each with its own magic number so that
/// one kind's log is never read as another's.
pub trait LogUnit: Clone {
    /// The first four bytes of every record.
    const MAGIC: u32;
    /// The configuration and the games `start..end` the unit holds.
    fn span(&self) -> (u32, u64, u64);
    /// Appends the record's payload (the unit, and where its rows are).
    fn encode(&self, rows: &RowsAt, p: &mut Vec<u8>);
    /// The unit and its rows' place, or `None` for a payload this kind never writes.
    fn decode(p: &[u8]) -> Option<(Self, RowsAt)>;
}

/// Appends `v` as an LEB128 varint.
pub fn put(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// Reads the varints [`put`] wrote.
pub struct Cursor<'a> {
    pub b: &'a [u8],
}

impl Cursor<'_> {
    pub fn get(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let (&b, rest) = self.b.split_first()?;
            self.b = rest;
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }
    fn word(&mut self) -> Option<u64> {
        let (w, rest) = self.b.split_first_chunk::<8>()?;
        self.b = rest;
        Some(u64::from_le_bytes(*w))
    }
}

impl LogUnit for Unit {
    const MAGIC: u32 = MAGIC;

    fn span(&self) -> (u32, u64, u64) {
        (self.config, self.start, self.end)
    }

    fn encode(&self, rows: &RowsAt, p: &mut Vec<u8>) {
        encode_unit(self, rows, p)
    }

    fn decode(p: &[u8]) -> Option<(Unit, RowsAt)> {
        decode(p).map(|r| (r.unit, r.rows))
    }
}

fn encode_unit(u: &Unit, rows: &RowsAt, p: &mut Vec<u8>) {
    let p = &mut *p;
    let a = &u.accum;
    put(p, u.config as u64);
    put(p, u.start);
    put(p, u.end);
    put(p, a.games);
    a.outcomes.iter().for_each(|&x| put(p, x));
    a.day_hist.iter().for_each(|&x| put(p, x));
    put(p, a.win_day_sum);
    for s in 0..2 {
        a.played[s].iter().for_each(|&x| put(p, x));
        a.played_wins[s].iter().for_each(|&x| put(p, x));
        put(p, a.plays[s]);
    }
    put(p, a.paired_games);
    put(p, ((a.paired_sum << 1) ^ (a.paired_sum >> 63)) as u64);
    put(p, a.paired_abs);
    put(p, u.wins.len() as u64);
    for w in &u.wins {
        p.extend_from_slice(&w.to_le_bytes());
    }
    put(p, rows.offset);
    put(p, rows.count);
    put(p, rows.crc as u64);
    // Written only when some game failed, so that the records of runs without engine
    // errors keep the bytes they had before this field existed.
    if a.engine_errors > 0 {
        put(p, a.engine_errors);
        put(p, a.first_engine_error);
    }
}

/// A record's bytes: the unit's magic, the payload's length, the payload and its CRC-32.
fn encode<U: LogUnit>(r: &Record<U>) -> Vec<u8> {
    let mut p = Vec::with_capacity(1024);
    r.unit.encode(&r.rows, &mut p);
    let mut out = Vec::with_capacity(p.len() + 12);
    out.extend_from_slice(&U::MAGIC.to_le_bytes());
    out.extend_from_slice(&(p.len() as u32).to_le_bytes());
    out.extend_from_slice(&p);
    out.extend_from_slice(&crc32fast::hash(&p).to_le_bytes());
    out
}

fn decode(p: &[u8]) -> Option<Record> {
    let mut c = Cursor { b: p };
    let config = u32::try_from(c.get()?).ok()?;
    let (start, end) = (c.get()?, c.get()?);
    let mut a = Accum {
        games: c.get()?,
        ..Accum::default()
    };
    for i in 0..OUTCOMES {
        a.outcomes[i] = c.get()?;
    }
    for d in 0..MAX_DAYS {
        a.day_hist[d] = c.get()?;
    }
    a.win_day_sum = c.get()?;
    for s in 0..2 {
        for i in 0..SLOTS {
            a.played[s][i] = c.get()?;
        }
        for i in 0..SLOTS {
            a.played_wins[s][i] = c.get()?;
        }
        a.plays[s] = c.get()?;
    }
    a.paired_games = c.get()?;
    let z = c.get()?;
    a.paired_sum = ((z >> 1) as i64) ^ -((z & 1) as i64);
    a.paired_abs = c.get()?;
    let n = c.get()?;
    if n > (end.saturating_sub(start)).div_ceil(64) {
        return None;
    }
    let wins = (0..n).map(|_| c.word()).collect::<Option<Vec<u64>>>()?;
    let rows = RowsAt {
        offset: c.get()?,
        count: c.get()?,
        crc: u32::try_from(c.get()?).ok()?,
    };
    if !c.b.is_empty() {
        a.engine_errors = c.get()?;
        a.first_engine_error = c.get()?;
        if a.engine_errors == 0 || a.engine_errors > end.saturating_sub(start) {
            return None;
        }
    }
    (c.b.is_empty() && start <= end).then_some(Record {
        unit: Unit {
            config,
            start,
            end,
            accum: a,
            wins,
        },
        rows,
    })
}

/// Reads the next valid record (and its length in bytes), or `None` at the end of the valid
/// part of the log.
fn next_record<U: LogUnit, R: Read>(r: &mut R) -> Option<(Record<U>, u64)> {
    let mut head = [0u8; 8];
    r.read_exact(&mut head).ok()?;
    let magic = u32::from_le_bytes(head[..4].try_into().ok()?);
    let len = u32::from_le_bytes(head[4..].try_into().ok()?);
    if magic != U::MAGIC || len > MAX_PAYLOAD {
        return None;
    }
    let mut p = vec![0u8; len as usize + 4];
    r.read_exact(&mut p).ok()?;
    let (payload, crc) = p.split_at(len as usize);
    if crc32fast::hash(payload).to_le_bytes() != crc {
        return None;
    }
    U::decode(payload).map(|(unit, rows)| (Record { unit, rows }, 8 + len as u64 + 4))
}

fn encode_rows(rows: &[GameRow], out: &mut Vec<u8>) {
    out.clear();
    out.reserve(rows.len() * ROW_BYTES);
    for r in rows {
        out.extend_from_slice(&r.config.to_le_bytes());
        out.extend_from_slice(&r.game.to_le_bytes());
        out.extend_from_slice(&r.seed.to_le_bytes());
        // The outcome's byte keeps its top bit for the engine error (older logs have it
        // clear), so the row's size and the logs written before stay as they were.
        out.push(r.outcome.index() as u8 | (r.engine_error as u8) << 7);
        out.push(r.days);
        out.extend_from_slice(&r.player_plays.to_le_bytes());
        out.extend_from_slice(&r.confluence_plays.to_le_bytes());
    }
}

fn decode_rows(b: &[u8]) -> Option<Vec<GameRow>> {
    b.chunks_exact(ROW_BYTES)
        .map(|r| {
            Some(GameRow {
                config: u32::from_le_bytes(r[0..4].try_into().ok()?),
                game: u64::from_le_bytes(r[4..12].try_into().ok()?),
                seed: u64::from_le_bytes(r[12..20].try_into().ok()?),
                outcome: *Outcome::ALL.get((r[20] & 0x7f) as usize)?,
                days: r[21],
                player_plays: u16::from_le_bytes(r[22..24].try_into().ok()?),
                confluence_plays: u16::from_le_bytes(r[24..26].try_into().ok()?),
                engine_error: r[20] & 0x80 != 0,
            })
        })
        .collect()
}

/// Reads `count` rows at `offset` and checks them against `crc`.
fn read_rows_at(f: &mut File, at: RowsAt) -> Option<Vec<GameRow>> {
    let mut b = vec![0u8; usize::try_from(at.count).ok()?.checked_mul(ROW_BYTES)?];
    f.seek(SeekFrom::Start(at.offset)).ok()?;
    f.read_exact(&mut b).ok()?;
    (crc32fast::hash(&b) == at.crc).then_some(())?;
    decode_rows(&b)
}

/// The valid records of a state directory, with where the valid part of each file ends.
/// A record is valid when its bytes and its rows are intact and it follows the previous
/// one; the first that is not ends the valid part.
#[allow(clippy::type_complexity)]
fn scan<U: LogUnit>(dir: &Path, per_game: bool) -> Result<(Vec<Record<U>>, u64, u64), StateError> {
    let log_path = dir.join(LOG);
    let log = match File::open(&log_path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((vec![], 0, 0)),
        Err(e) => return Err(io(&log_path)(e)),
    };
    let rows_path = dir.join(ROWS);
    let mut rows = if per_game {
        match File::open(&rows_path) {
            Ok(f) => Some(f),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(io(&rows_path)(e)),
        }
    } else {
        None
    };
    let mut r = BufReader::new(log);
    // A state written by an older format is refused, not read as damaged (a resumed run
    // would otherwise start over and overwrite it).
    let mut head = [0u8; 4];
    if r.read_exact(&mut head).is_ok() && u32::from_le_bytes(head) == MAGIC_V1 {
        return Err(StateError::Bad {
            path: log_path,
            msg: "written by an older confluence-sim (state format 1); run it again with this one, or merge it with the confluence-sim that wrote it".into(),
        });
    }
    r.seek(SeekFrom::Start(0)).map_err(io(&log_path))?;
    let (mut records, mut log_end, mut rows_end) = (Vec::new(), 0u64, 0u64);
    while let Some((rec, len)) = next_record::<U, _>(&mut r) {
        if rec.rows.offset != rows_end
            || (per_game && rec.rows.count != rec.unit.span().2 - rec.unit.span().1)
        {
            break;
        }
        if per_game {
            let ok = rows
                .as_mut()
                .is_some_and(|f| read_rows_at(f, rec.rows).is_some());
            if !ok {
                break;
            }
        }
        rows_end += rec.rows.count * ROW_BYTES as u64;
        log_end += len;
        records.push(rec);
    }
    Ok((records, log_end, rows_end))
}

/// Reads a finished state directory (a shard, a completed checkpoint).
pub struct LogReader<U> {
    pub records: Vec<Record<U>>,
    rows: Option<(PathBuf, File)>,
    damaged: bool,
}

/// Reads a run's state.
pub type StateReader = LogReader<Unit>;

impl<U: LogUnit> LogReader<U> {
    pub fn open(dir: &Path, per_game: bool) -> Result<LogReader<U>, StateError> {
        let (records, log_end, _) = scan::<U>(dir, per_game)?;
        let log_len = std::fs::metadata(dir.join(LOG)).map_or(0, |m| m.len());
        let rows = if per_game {
            let p = dir.join(ROWS);
            let f = File::open(&p).map_err(io(&p))?;
            Some((p, f))
        } else {
            None
        };
        Ok(LogReader {
            records,
            rows,
            damaged: log_end != log_len,
        })
    }

    /// Whether the log holds bytes after its valid part (a damaged or truncated file).
    pub fn damaged(&self) -> bool {
        self.damaged
    }

    /// The rows of one record.
    pub fn rows(&mut self, rec: &Record<U>) -> Result<Vec<GameRow>, StateError> {
        let Some((path, f)) = self.rows.as_mut() else {
            return Ok(Vec::new());
        };
        let (config, start, end) = rec.unit.span();
        read_rows_at(f, rec.rows).ok_or_else(|| StateError::Bad {
            path: path.clone(),
            msg: format!("the rows of configuration {config} games {start}..{end} are damaged"),
        })
    }
}

/// Appends finished units to a state directory, continuing after its valid part (as
/// [`StateWriter`], the [`Units`] of a checkpointed run).
pub struct LogWriter<U> {
    dir: PathBuf,
    per_game: bool,
    /// The valid records found when opening, handed back in order by [`LogWriter::done`].
    found: std::vec::IntoIter<Record<U>>,
    /// A unit was asked for that is not the next found one: the log does not belong to
    /// this run's sequence of units.
    mismatch: bool,
    kept: u64,
    added: u64,
    log: BufWriter<File>,
    rows: Option<BufWriter<File>>,
    rows_end: u64,
    buf: Vec<u8>,
    last_sync: Instant,
}

/// Appends to a run's state.
pub type StateWriter = LogWriter<Unit>;

impl<U: LogUnit> LogWriter<U> {
    /// Opens (or creates) the state in `dir`, dropping any damaged tail.
    pub fn open(dir: &Path, per_game: bool) -> Result<LogWriter<U>, StateError> {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let (records, log_end, rows_end) = scan::<U>(dir, per_game)?;
        let open = |name: &str, end: u64| -> Result<BufWriter<File>, StateError> {
            let p = dir.join(name);
            let f = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&p)
                .map_err(io(&p))?;
            f.set_len(end).map_err(io(&p))?;
            let mut w = BufWriter::with_capacity(1 << 16, f);
            w.seek(SeekFrom::Start(end)).map_err(io(&p))?;
            Ok(w)
        };
        let log = open(LOG, log_end)?;
        let rows = per_game.then(|| open(ROWS, rows_end)).transpose()?;
        let kept = records
            .iter()
            .map(|r| r.unit.span().2 - r.unit.span().1)
            .sum();
        Ok(LogWriter {
            dir: dir.to_path_buf(),
            per_game,
            found: records.into_iter(),
            mismatch: false,
            kept,
            added: 0,
            log,
            rows,
            rows_end,
            buf: Vec::new(),
            last_sync: Instant::now(),
        })
    }

    /// Games (summed over configurations) the state held when it was opened.
    pub fn kept_games(&self) -> u64 {
        self.kept
    }

    /// Games (summed over configurations) recorded since it was opened.
    pub fn new_games(&self) -> u64 {
        self.added
    }

    /// Writes everything to the disk.
    pub fn sync(&mut self) -> Result<(), StateError> {
        if let Some(r) = self.rows.as_mut() {
            let p = self.dir.join(ROWS);
            r.flush().map_err(io(&p))?;
            r.get_ref().sync_data().map_err(io(&p))?;
        }
        let p = self.dir.join(LOG);
        self.log.flush().map_err(io(&p))?;
        self.log.get_ref().sync_data().map_err(io(&p))?;
        self.last_sync = Instant::now();
        Ok(())
    }
}

impl<U: LogUnit> LogWriter<U> {
    /// The unit of `config` that starts at game `start`, if the state held it when opened;
    /// units are asked for in the order they were recorded.
    pub fn done(&mut self, config: u32, start: u64) -> Option<U> {
        if self.mismatch {
            return None;
        }
        let next = self.found.as_slice().first()?;
        let (c, s, _) = next.unit.span();
        if c == config && s == start {
            return self.found.next().map(|r| r.unit);
        }
        self.mismatch = true;
        None
    }

    /// Records a unit just played, with its rows (none unless the state keeps them).
    pub fn finished(&mut self, unit: &U, rows: &[GameRow]) -> Result<(), StateError> {
        if self.mismatch || self.found.len() > 0 {
            return Err(StateError::Bad {
                path: self.dir.join(LOG),
                msg: "the checkpoint does not match this run (its units come in another order)"
                    .into(),
            });
        }
        let mut buf = std::mem::take(&mut self.buf);
        encode_rows(rows, &mut buf);
        let at = RowsAt {
            offset: self.rows_end,
            count: rows.len() as u64,
            crc: crc32fast::hash(&buf),
        };
        if let Some(w) = self.rows.as_mut() {
            let p = self.dir.join(ROWS);
            w.write_all(&buf).map_err(io(&p))?;
            // Rows reach the OS before the record that names them.
            w.flush().map_err(io(&p))?;
        }
        self.rows_end += buf.len() as u64;
        self.buf = buf;
        let rec = encode(&Record {
            unit: unit.clone(),
            rows: at,
        });
        let p = self.dir.join(LOG);
        self.log.write_all(&rec).map_err(io(&p))?;
        self.log.flush().map_err(io(&p))?;
        let (_, start, end) = unit.span();
        self.added += end - start;
        if self.last_sync.elapsed() >= SYNC_EVERY {
            self.sync()?;
        }
        Ok(())
    }
}

impl Units for StateWriter {
    type Error = StateError;

    fn unit_games(&self) -> u64 {
        UNIT_GAMES
    }

    fn want_rows(&self) -> bool {
        self.per_game
    }

    fn done(&mut self, config: u32, start: u64) -> Option<Unit> {
        LogWriter::done(self, config, start)
    }

    fn finished(&mut self, unit: &Unit, rows: &[GameRow]) -> Result<(), StateError> {
        LogWriter::finished(self, unit, rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::accum::GameTally;

    fn unit(config: u32, start: u64, end: u64, wins: bool) -> (Unit, Vec<GameRow>) {
        let mut accum = Accum::default();
        let mut rows = Vec::new();
        let mut bits = vec![
            0u64;
            if wins {
                (end - start).div_ceil(64) as usize
            } else {
                0
            }
        ];
        for g in start..end {
            let o = (g * 7 + config as u64) as usize % 5;
            accum.push(&GameTally {
                outcome: o,
                win: o < 2,
                days: (g % 9) as u8 + 1,
                played: [g.rotate_left(3), g.wrapping_mul(0x9e37)],
                plays: [3, (g % 4) as u16],
                engine_error: (g % 97 == 5).then_some(g),
            });
            accum.push_pair(o < 2, g % 3 == 0);
            if wins && o < 2 {
                let k = (g - start) as usize;
                bits[k / 64] |= 1 << (k % 64);
            }
            rows.push(GameRow {
                config,
                game: g,
                seed: g ^ 0xabcdef,
                outcome: Outcome::ALL[o],
                days: (g % 9) as u8 + 1,
                player_plays: 3,
                confluence_plays: (g % 4) as u16,
                engine_error: g % 97 == 5,
            });
        }
        (
            Unit {
                config,
                start,
                end,
                accum,
                wins: bits,
            },
            rows,
        )
    }

    #[test]
    fn a_state_of_the_older_format_is_refused_not_read_as_damaged() {
        let dir = tempfile::tempdir().unwrap();
        let mut old = MAGIC_V1.to_le_bytes().to_vec();
        old.extend_from_slice(&[0; 16]);
        std::fs::write(dir.path().join(LOG), old).unwrap();
        let err = StateReader::open(dir.path(), false).err().expect("refused");
        assert!(err.to_string().contains("older confluence-sim"), "{err}");
    }

    #[test]
    fn records_round_trip() {
        let (u, _) = unit(3, 100, 300, true);
        let rec = Record {
            unit: u,
            rows: RowsAt {
                offset: 52,
                count: 200,
                crc: 0xdead_beef,
            },
        };
        assert_eq!(rec.unit.accum.engine_errors, 3);
        let bytes = encode(&rec);
        assert_eq!(
            next_record::<Unit, _>(&mut &bytes[..]).unwrap(),
            (rec.clone(), bytes.len() as u64)
        );
        // Without engine errors the record ends at its rows' CRC, as before the field.
        let mut clean = rec;
        clean.unit.accum.engine_errors = 0;
        clean.unit.accum.first_engine_error = u64::MAX;
        let short = encode(&clean);
        assert!(short.len() < bytes.len());
        assert_eq!(next_record::<Unit, _>(&mut &short[..]).unwrap().0, clean);
    }

    fn write(dir: &Path, units: &[(Unit, Vec<GameRow>)]) {
        let mut w = StateWriter::open(dir, true).unwrap();
        for (u, rows) in units {
            assert!(w.done(u.config, u.start).is_none());
            w.finished(u, rows).unwrap();
        }
        w.sync().unwrap();
    }

    #[test]
    fn a_torn_tail_is_dropped_and_the_rest_is_handed_back_in_order() {
        let units: Vec<_> = (0..4u64)
            .map(|k| unit((k % 2) as u32, k * 100, k * 100 + 100, k % 2 == 0))
            .collect();
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), &units);
        let r = StateReader::open(dir.path(), true).unwrap();
        assert_eq!(r.records.len(), 4);
        assert!(!r.damaged());
        // Cut the log inside its last record, as a power cut may.
        let log = dir.path().join(LOG);
        let len = std::fs::metadata(&log).unwrap().len();
        let f = OpenOptions::new().write(true).open(&log).unwrap();
        f.set_len(len - 5).unwrap();
        let r = StateReader::open(dir.path(), true).unwrap();
        assert_eq!(r.records.len(), 3);
        assert!(r.damaged());
        // Reopening for writing keeps the three and continues after them.
        let mut w = StateWriter::open(dir.path(), true).unwrap();
        assert_eq!(w.kept_games(), 300);
        for (u, _) in &units[..3] {
            assert_eq!(w.done(u.config, u.start).as_ref(), Some(u));
        }
        assert!(w.done(units[3].0.config, units[3].0.start).is_none());
        w.finished(&units[3].0, &units[3].1).unwrap();
        w.sync().unwrap();
        let mut r = StateReader::open(dir.path(), true).unwrap();
        assert!(!r.damaged());
        let recs = r.records.clone();
        for ((u, rows), rec) in units.iter().zip(&recs) {
            assert_eq!(&rec.unit, u);
            assert_eq!(&r.rows(rec).unwrap(), rows);
        }
    }

    #[test]
    fn damaged_rows_end_the_valid_part() {
        let units: Vec<_> = (0..3).map(|k| unit(0, k * 64, k * 64 + 64, true)).collect();
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), &units);
        // Zero the rows of the second unit (pages lost in a power cut).
        let rows = dir.path().join(ROWS);
        let mut b = std::fs::read(&rows).unwrap();
        b[64 * ROW_BYTES..66 * ROW_BYTES].fill(0);
        std::fs::write(&rows, b).unwrap();
        assert_eq!(
            StateReader::open(dir.path(), true).unwrap().records.len(),
            1
        );
        let w = StateWriter::open(dir.path(), true).unwrap();
        assert_eq!(w.kept_games(), 64);
        assert_eq!(
            std::fs::metadata(&rows).unwrap().len(),
            64 * ROW_BYTES as u64
        );
    }

    #[test]
    fn a_unit_out_of_order_is_refused() {
        let units: Vec<_> = (0..2)
            .map(|k| unit(0, k * 64, k * 64 + 64, false))
            .collect();
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), &units);
        let mut w = StateWriter::open(dir.path(), true).unwrap();
        assert!(w.done(5, 0).is_none());
        assert!(w.finished(&units[0].0, &units[0].1).is_err());
    }
}
