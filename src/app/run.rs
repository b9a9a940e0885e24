//! `confluence-sim run`: from flags or an experiment file to a job, then the job to outputs.

use std::time::Instant;

use anyhow::{Context, Result};

use super::cli::RunArgs;
use crate::export::OutputDir;
use crate::job::checkpoint::Checkpoint;
use crate::job::experiment;
use crate::job::load;
use crate::job::mixes;
use crate::job::outputs::{CHECKPOINT, Guard, output_dir, write_games, write_tables};
use crate::job::plan::{
    GamesRule, Job, default_threads, print_summary, progress_bar, total_games, widest_half_width,
};
use crate::job::spec::RunSpec;
use crate::sim::state::{StateReader, StateWriter};
use crate::sim::{ConfigSpec, RunPlan, Stop};
use crate::stats::Accum;
use crate::stats::interval::games_for_half_width;

pub fn run(a: RunArgs) -> Result<()> {
    if let Some(dir) = &a.resume {
        let spec_path = dir.join(CHECKPOINT).join("run.json");
        if !spec_path.exists() {
            anyhow::bail!(
                "--resume {}: no unfinished run there ({} does not exist; a run that finished removes its checkpoint)",
                dir.display(),
                spec_path.display()
            );
        }
        let kind = crate::job::checkpoint::kind_of(&crate::job::checkpoint::read_spec(&spec_path)?)
            .to_string();
        if kind != "run" {
            anyhow::bail!(
                "--resume {}: it holds an unfinished {kind}, not a run; continue it with `confluence-sim {kind} --resume {}`",
                dir.display(),
                dir.display()
            );
        }
        let spec = RunSpec::read(&spec_path)?;
        let job = spec
            .job(dir.clone(), default_threads(a.threads)?, a.quiet)
            .with_context(|| format!("--resume {}", dir.display()))?;
        return execute(job, false);
    }
    let mut job = match &a.experiment {
        Some(path) => experiment::job(path, &(&a.m).into(), &(&a).into())?,
        None => {
            load::distinct_policies(&a.m.policies)?;
            let play = crate::job::config::Play::from(&a.m);
            let loaded = load::load(&play)?;
            let mixes = mixes::mixes(
                &loaded.confluence,
                &loaded.lib.db,
                &a.m.rares,
                &a.m.rare_sets,
                a.m.subsets,
                a.seed,
            )?;
            let games = a.games.unwrap_or_else(|| games_for_half_width(0.01, 0.95));
            let configs = loaded.players.len() * loaded.policies.len() * mixes.len();
            total_games(games, configs)
                .map_err(|e| crate::job::error::usage(format!("--games {games}: {e}")))?;
            Job {
                loaded,
                mixes,
                games: GamesRule::Fixed(games),
                seed: a.seed,
                day_cap: a.m.day_cap,
                out: a.out.clone(),
                threads: default_threads(a.threads)?,
                per_game: a.per_game,
                quiet: a.quiet,
                experiment: None,
                source: play,
                shard: None,
            }
        }
    };
    job.shard = a.shard;
    execute(job, a.force)
}

/// Runs a job and writes all its outputs. The finished units go to a checkpoint in the
/// output directory as they finish, so that an interrupted run can continue; the outputs
/// replace the directory in one step at the end. Unless `force`, an output directory
/// holding a finished shard, or an unfinished run with other settings, is refused.
pub fn execute(job: Job, force: bool) -> Result<()> {
    let loaded = &job.loaded;
    for w in &loaded.warnings {
        eprintln!("confluence-sim: warning: {w}");
    }
    if !loaded.edits.is_empty() && !job.quiet {
        eprintln!(
            "confluence-sim: what-if edits: {}",
            crate::job::meta::edit_strings(&loaded.edits).join("; ")
        );
    }
    for deck in &loaded.players {
        let n = load::non_exact(&loaded.lib, deck);
        if n > 0 {
            eprintln!(
                "confluence-sim: warning: {} holds {n} card(s) whose abilities are not fully encoded; they play with what is encoded (see `confluence-sim cards coverage`)",
                deck.path.display()
            );
        }
    }
    let mut configs = Vec::new();
    for player in 0..loaded.players.len() {
        for policy in 0..loaded.policies.len() {
            for &mix in &job.mixes {
                configs.push(ConfigSpec {
                    player,
                    policy,
                    mix,
                });
            }
        }
    }
    if let (Some(sh), GamesRule::Precision { .. }) = (job.shard, &job.games) {
        anyhow::bail!(
            "--shard {sh}: a precision-target experiment (target_half_width) cannot be sharded: whether each batch is played depends on the results of all the games before it; give the experiment per_config games to shard it"
        );
    }
    let spec = RunSpec::of(&job)?;
    // The progress total, checked before anything is written.
    let per_config = match job.games {
        GamesRule::Fixed(g) => g,
        GamesRule::Precision { max, .. } => max,
    };
    let checked_total = total_games(per_config, configs.len()).map_err(anyhow::Error::msg)?;
    // Check the output directory before running anything.
    drop(output_dir(
        &job.out,
        Guard {
            force: Some(force),
            resumes: true,
        },
    )?);
    let spec_text = serde_json::to_string_pretty(&spec).expect("a spec serializes");
    let checkpoint = Checkpoint::take(&job.out, &spec_text, force)?;
    // Whatever fails from here on, the checkpoint keeps the finished games: say so.
    play_and_write(&job, checkpoint, &spec_text, checked_total, configs)
        .map_err(|e| crate::job::checkpoint::kept(e, &job.out))
}

/// [`execute`] once the checkpoint is taken: plays the games and writes the outputs.
fn play_and_write(
    job: &Job,
    checkpoint: Checkpoint,
    spec_text: &str,
    checked_total: u64,
    configs: Vec<ConfigSpec>,
) -> Result<()> {
    let loaded = &job.loaded;
    let (ck, stop) = (&checkpoint.dir, &checkpoint.stop);
    let mut state = StateWriter::open(ck, job.per_game)?;
    let kept = state.kept_games();
    if kept > 0 {
        eprintln!(
            "confluence-sim: continuing the unfinished run in {}: {kept} games already played",
            job.out.display()
        );
    }
    let mut plan = RunPlan {
        db: &loaded.lib.db,
        players: &loaded.players,
        confluence: &loaded.confluence,
        policies: &loaded.policies,
        configs,
        games: 0,
        first_game: 0,
        seed: job.seed,
        threads: job.threads,
        day_cap: job.day_cap,
        models: loaded.models(),
    };
    let n_configs = plan.configs.len() as u64;
    let (first_batch, total_hint) = match job.games {
        GamesRule::Fixed(g) => {
            let (lo, hi) = job.shard.map_or((0, g), |s| s.range(g));
            plan.first_game = lo;
            // A shard plays a slice of the checked total, so this cannot overflow.
            (hi - lo, (hi - lo) * n_configs)
        }
        GamesRule::Precision { batch, max, .. } => (batch.min(max), checked_total),
    };
    let pb = progress_bar(total_hint, job.quiet);
    let started = Instant::now();
    let progress = |n: u64| pb.inc(n);
    let mut accums = vec![Accum::default(); plan.configs.len()];
    let mut stop_note = String::new();
    plan.games = first_batch;
    loop {
        let result = match crate::sim::run_units(&plan, &progress, Some(stop), &mut state) {
            Ok(r) => r,
            Err(Stop::Interrupted) => {
                pb.finish_and_clear();
                state.sync()?;
                let done = state.kept_games() + state.new_games();
                return Err(checkpoint.interrupted(&job.out, done));
            }
            Err(Stop::Error(e)) => return Err(e.into()),
        };
        for (acc, r) in accums.iter_mut().zip(&result.accums) {
            *acc += r;
        }
        plan.first_game += plan.games;
        let GamesRule::Precision {
            half_width,
            max,
            batch,
        } = job.games
        else {
            break;
        };
        let widest = widest_half_width(&accums);
        if widest <= half_width {
            stop_note = format!(
                "precision reached: every configuration's 95% half-width is at most {half_width} (widest {widest:.4}) after {} games each",
                plan.first_game
            );
            break;
        }
        if plan.first_game >= max {
            stop_note = format!(
                "stopped at the cap of {max} games per configuration; the widest 95% half-width is {widest:.4} (target {half_width})"
            );
            break;
        }
        plan.games = batch.min(max - plan.first_game);
    }
    state.sync()?;
    drop(state);
    pb.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();
    let total: u64 = accums.iter().map(|a| a.games).sum();
    let mut out =
        OutputDir::new(&job.out).with_context(|| format!("--out {}", job.out.display()))?;
    let table = if let Some(sh) = job.shard {
        checkpoint.write_shard(&mut out, spec_text, job.per_game)?;
        eprintln!(
            "confluence-sim: shard {sh}: games {}..{} of each configuration; merge the {} shards with `confluence-sim merge`",
            plan.first_game - first_batch,
            plan.first_game,
            sh.count
        );
        None
    } else {
        let games_note = match job.games {
            GamesRule::Fixed(g) => format!("{g} per configuration"),
            GamesRule::Precision { .. } => stop_note.clone(),
        };
        let table = write_tables(&mut out, job, &plan.configs, &accums, &games_note)?;
        if job.per_game {
            let mut src = [StateReader::open(ck, true)?];
            write_games(&mut out, &plan.configs, &mut src)?;
        }
        Some(table)
    };
    let written = out.commit()?;
    if let Some(table) = table
        && !job.quiet
    {
        print_summary(&table);
    }
    if !stop_note.is_empty() {
        eprintln!("confluence-sim: {stop_note}");
    }
    job.warn_engine_errors(&plan.configs, &accums);
    eprintln!(
        "confluence-sim: {}; wrote {} files in {}",
        crate::job::plan::games_and_speed(total, total.saturating_sub(kept), elapsed, job.threads),
        written.len(),
        job.out.display()
    );
    Ok(())
}
