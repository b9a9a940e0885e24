//! The head-to-head runners' units of work and the loop that plays them: each
//! configuration's games (a slice of them, for a shard) cut into units of a fixed size,
//! played on a rayon pool in batches, each finished unit's tally recorded in a state log
//! ([`LogWriter`]) in unit order, so that an interrupted run continues where it stopped
//! and the shards of a run add up to the whole run. Tallies are integer counts, so the
//! sums are the same whatever the threads, the shards or the interruptions.
//!
//! Layer: part of [`crate::sim`]; may use `cards`, `deck`, `engine`, `policy`, `stats` and nothing
//! else of the crate.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::runner::Stop;
use super::state::{Cursor, LogUnit, LogWriter, RowsAt, StateError, put};

/// A head-to-head runner's counts for some games: added up over units, written to and read
/// from a state log.
pub trait Tally: Clone + Send {
    /// The magic number of its log's records.
    const MAGIC: u32;
    /// Adds another tally of the same configuration.
    fn add(&mut self, o: &Self);
    /// The games it counts.
    fn games(&self) -> u64;
    /// Appends its counts as varints ([`super::state::put`]).
    fn encode(&self, p: &mut Vec<u8>);
    /// Reads what [`Tally::encode`] wrote.
    fn decode(c: &mut Cursor<'_>) -> Option<Self>;
}

/// The games of a head-to-head tally that had an engine error (more reactions at once than
/// the engine queues; `DuelResult::engine_error`): how many, and the lowest game index.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineErrors {
    pub count: u64,
    pub first: Option<u64>,
}

impl EngineErrors {
    /// Counts game `g`, which had an engine error.
    pub fn push(&mut self, g: u64) {
        self.count += 1;
        self.first = Some(self.first.map_or(g, |f| f.min(g)));
    }

    /// Adds another tally's count (the first game is the lower of the two).
    pub fn add(&mut self, o: &EngineErrors) {
        self.count += o.count;
        self.first = match (self.first, o.first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }

    /// Appends the count and the first game to a unit's payload, only when some game
    /// failed: a record without them (every record written before they were counted)
    /// reads as none.
    pub fn encode(&self, p: &mut Vec<u8>) {
        if let (n @ 1.., Some(first)) = (self.count, self.first) {
            put(p, n);
            put(p, first);
        }
    }

    /// Reads what [`EngineErrors::encode`] wrote at the end of a payload.
    pub fn decode(c: &mut Cursor<'_>) -> Option<EngineErrors> {
        if c.b.is_empty() {
            return Some(EngineErrors::default());
        }
        let (count, first) = (c.get()?, c.get()?);
        (count > 0).then_some(EngineErrors {
            count,
            first: Some(first),
        })
    }
}

/// Games `start..end` (absolute indices) of configuration `config`, counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TallyUnit<T> {
    pub config: u32,
    pub start: u64,
    pub end: u64,
    pub tally: T,
}

impl<T: Tally> LogUnit for TallyUnit<T> {
    const MAGIC: u32 = T::MAGIC;

    fn span(&self) -> (u32, u64, u64) {
        (self.config, self.start, self.end)
    }

    fn encode(&self, _rows: &RowsAt, p: &mut Vec<u8>) {
        super::state::put(p, self.config as u64);
        super::state::put(p, self.start);
        super::state::put(p, self.end);
        self.tally.encode(p);
    }

    fn decode(p: &[u8]) -> Option<(Self, RowsAt)> {
        let mut c = Cursor { b: p };
        let config = u32::try_from(c.get()?).ok()?;
        let (start, end) = (c.get()?, c.get()?);
        let tally = T::decode(&mut c)?;
        // Head-to-head units keep no per-game rows.
        let rows = RowsAt {
            offset: 0,
            count: 0,
            crc: 0,
        };
        (c.b.is_empty() && start <= end).then_some((
            TallyUnit {
                config,
                start,
                end,
                tally,
            },
            rows,
        ))
    }
}

/// Which games a head-to-head run plays: `games` games of each of `configs`
/// configurations from game `first_game` on, in units of `unit` games.
#[derive(Copy, Clone, Debug)]
pub struct Slices {
    pub configs: usize,
    pub first_game: u64,
    pub games: u64,
    pub unit: u64,
    pub threads: usize,
}

/// How a runner plays: a tally with no games, a worker (policies and buffers reused
/// between games), and one game counted into a tally.
pub struct Play<'a, T, W> {
    pub zero: &'a (dyn Fn() -> T + Sync),
    pub worker: &'a (dyn Fn() -> W + Sync + Send),
    /// `(worker, configuration, game index, tally)`.
    pub game: &'a (dyn Fn(&mut W, usize, u64, &mut T) + Sync),
}

/// Plays every unit of `slices` that `log` does not already hold, configuration by
/// configuration, and returns each configuration's tally (those held added in).
/// `progress` is called with the games of each unit finished or found. When `stop` is
/// raised, the games under way are abandoned and the run returns [`Stop::Interrupted`]
/// after recording the units finished before them.
pub fn run_slices<T: Tally, W>(
    s: &Slices,
    play: &Play<'_, T, W>,
    progress: &(dyn Fn(u64) + Sync),
    stop: Option<&AtomicBool>,
    log: &mut LogWriter<TallyUnit<T>>,
) -> Result<Vec<T>, Stop<StateError>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(s.threads.max(1))
        .build()
        .expect("thread pool");
    let stopped = || stop.is_some_and(|f| f.load(Ordering::Relaxed));
    let per = s.games.div_ceil(s.unit);
    // The caller checks that the games of all configurations fit in 64 bits.
    let n_units = per.saturating_mul(s.configs as u64);
    let end_game = s.first_game.saturating_add(s.games);
    let unit = |u: u64| {
        let (c, k) = ((u / per) as usize, u % per);
        let start = s.first_game + k * s.unit;
        (c, start, start.saturating_add(s.unit).min(end_game))
    };
    // A few units per thread between two records: enough to keep every thread busy, few
    // enough that an interruption loses little.
    let batch = 4 * s.threads.max(1);
    let mut out: Vec<T> = (0..s.configs).map(|_| (play.zero)()).collect();
    let mut next = 0;
    while next < n_units {
        let mut todo = Vec::with_capacity(batch);
        while next < n_units && todo.len() < batch {
            let (c, start, end) = unit(next);
            next += 1;
            match log.done(c as u32, start) {
                Some(u) => {
                    out[c].add(&u.tally);
                    progress(end - start);
                }
                None => todo.push((c, start, end)),
            }
        }
        if todo.is_empty() {
            continue;
        }
        if stopped() {
            return Err(Stop::Interrupted);
        }
        let played: Vec<Option<T>> = pool.install(|| {
            todo.par_iter()
                .map_init(play.worker, |w, &(c, start, end)| {
                    let mut t = (play.zero)();
                    for g in start..end {
                        if stopped() {
                            return None;
                        }
                        (play.game)(w, c, g, &mut t);
                    }
                    progress(end - start);
                    Some(t)
                })
                .collect()
        });
        // Recorded in unit order, up to the first unit the stop abandoned.
        for (&(c, start, end), t) in todo.iter().zip(played) {
            let Some(tally) = t else {
                log.sync().map_err(Stop::Error)?;
                return Err(Stop::Interrupted);
            };
            let u = TallyUnit {
                config: c as u32,
                start,
                end,
                tally,
            };
            log.finished(&u, &[]).map_err(Stop::Error)?;
            out[c].add(&u.tally);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games and the sum of their indices.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Sum(u64, u64);

    impl Tally for Sum {
        const MAGIC: u32 = 0x5453_4554;
        fn add(&mut self, o: &Sum) {
            self.0 += o.0;
            self.1 += o.1;
        }
        fn games(&self) -> u64 {
            self.0
        }
        fn encode(&self, p: &mut Vec<u8>) {
            super::super::state::put(p, self.0);
            super::super::state::put(p, self.1);
        }
        fn decode(c: &mut Cursor<'_>) -> Option<Sum> {
            Some(Sum(c.get()?, c.get()?))
        }
    }

    fn run(
        dir: &std::path::Path,
        first: u64,
        games: u64,
        stop_after: Option<u64>,
    ) -> Option<Vec<Sum>> {
        let s = Slices {
            configs: 3,
            first_game: first,
            games,
            unit: 7,
            threads: 2,
        };
        let flag = AtomicBool::new(false);
        let seen = std::sync::atomic::AtomicU64::new(0);
        let play = Play {
            zero: &Sum::default,
            worker: &|| (),
            game: &|_: &mut (), c: usize, g: u64, t: &mut Sum| {
                t.0 += 1;
                t.1 += g * (c as u64 + 1);
                if stop_after.is_some_and(|n| seen.fetch_add(1, Ordering::Relaxed) + 1 >= n) {
                    flag.store(true, Ordering::Relaxed);
                }
            },
        };
        let mut log = LogWriter::open(dir, false).unwrap();
        let r = run_slices(&s, &play, &|_| {}, Some(&flag), &mut log);
        log.sync().unwrap();
        r.ok()
    }

    #[test]
    fn an_interrupted_run_and_the_slices_of_a_run_add_up_to_the_whole_run() {
        let whole = run(tempfile::tempdir().unwrap().path(), 0, 100, None).unwrap();
        assert_eq!(whole[1], Sum(100, 2 * 99 * 100 / 2));
        let dir = tempfile::tempdir().unwrap();
        assert!(run(dir.path(), 0, 100, Some(60)).is_none(), "stopped");
        let kept = LogWriter::<TallyUnit<Sum>>::open(dir.path(), false).unwrap();
        assert!(kept.kept_games() > 0 && kept.kept_games() < 300);
        drop(kept);
        assert_eq!(run(dir.path(), 0, 100, None).unwrap(), whole);
        let mut parts = vec![Sum::default(); 3];
        for (lo, hi) in [(0, 33), (33, 66), (66, 100)] {
            let p = run(tempfile::tempdir().unwrap().path(), lo, hi - lo, None).unwrap();
            for (a, b) in parts.iter_mut().zip(&p) {
                a.add(b);
            }
        }
        assert_eq!(parts, whole);
    }
}
