//! What `train-expert`, `train-policy` and `train-value` share: one game per task on a
//! pool of worker threads, with a progress bar, collected in task order so that the data
//! do not depend on the thread count.

use anyhow::{Context, Result};
use rayon::prelude::*;

use super::job::{default_threads, progress_bar};

/// `one(task)` for every task, on `threads` worker threads (`--threads`; all cores when
/// `None`), in task order.
pub fn each_task<T: Sync, R: Send>(
    tasks: &[T],
    threads: Option<usize>,
    quiet: bool,
    one: impl Fn(&T) -> R + Sync + Send,
) -> Result<Vec<R>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(default_threads(threads)?)
        .build()
        .context("thread pool")?;
    let pb = progress_bar(tasks.len() as u64, quiet);
    let out = pool.install(|| {
        tasks
            .par_iter()
            .map(|t| {
                let r = one(t);
                pb.inc(1);
                r
            })
            .collect()
    });
    pb.finish_and_clear();
    Ok(out)
}
