//! Command-line arguments (clap derive structs only), and the run layer's configuration
//! made once from them (`From`: [`crate::job::config`]); the head-to-head commands'
//! checkpoints and shards record that configuration, never the flags.
//!
//! Layer: part of [`crate::app`]; may use every other module; none uses it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::job::config::{BoosterWar, Entries, Place, Request};

#[derive(Parser, Debug)]
#[command(
    name = "confluence-sim",
    version,
    about = "Simulate Altered Confluence: how often a deck beats the Confluence, at each common/rare mix",
    long_about = None
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Simulate games for every configuration (deck x policy x rare mix) and write
    /// summary.csv and summary.parquet (and games.parquet with --per-game).
    Run(RunArgs),
    /// Find the rare mixes whose win rate is closest to a target, and rank the rares.
    Tune(TuneArgs),
    /// Card pool coverage: which cards have every ability encoded.
    Cards(CardsArgs),
    /// Run a scenario file: a position, steps, and expectations checked afterwards.
    Scenario(ScenarioArgs),
    /// Replay one game of a run as a readable day-by-day log (or JSON Lines).
    Replay(ReplayArgs),
    /// Fit the skill of the players of recorded games (play's records, replay --json's):
    /// the t of skill:t=T that best explains their choices, agreement with each rung, the
    /// value given away.
    Calibrate(CalibrateArgs),
    /// Measure games per second per core and peak memory on the default matchup.
    Bench(BenchArgs),
    /// Write report.html, report.md and charts/*.svg from the outputs of a run (or of a
    /// matchup) in DIR.
    Report(ReportArgs),
    /// Merge the shard directories of one sharded run (of run, matchup, booster-war or ffa)
    /// into the outputs of the whole run.
    Merge(MergeArgs),
    /// Every policy on one matchup, with all commons and with all rares: win rate, 95%
    /// interval, mean days and games per second, as ladder.csv and ladder.parquet.
    Ladder(LadderArgs),
    /// Policies on the same games, each compared game by game with the first (paired
    /// differences): skill gaps, and whether the search has converged.
    Compare(CompareArgs),
    /// Which single change to a Confluence card moves the win rate most: every edit of a
    /// grid (each card's statistics and costs by one, each Midnight indication, each
    /// keyword toggled, each common replaced by its rare) played on the same games as the
    /// unedited decks, with paired differences; writes sensitivity.csv/.parquet (ranked by
    /// effect) and meta.json.
    Sensitivity(SensitivityArgs),
    /// Where a fast policy and the search choose differently: per decision kind, and the
    /// positions where the search expects to gain most.
    Disagree(DisagreeArgs),
    /// Fit the expert policy's weights to the search's choices and write them to --out;
    /// every command plays by such a file with --expert-weights FILE (no rebuild).
    TrainExpert(TrainArgs),
    /// Train the value model (the player's win probability from a position) on self-play
    /// positions labelled by the games' outcomes, and write it
    /// (decks/policies/value.toml; rebuild afterwards: the binary embeds it).
    TrainValue(TrainValueArgs),
    /// Distill the search into the policy network of `expert:net=1`: the teacher's choices
    /// at card-into-Mana and Afternoon-turn decisions, and write the network
    /// (decks/policies/pnet.toml; rebuild afterwards: the binary embeds it).
    TrainPolicy(TrainPolicyArgs),
    /// Head-to-head: every pair of entries (each --player deck with each --policy), mirror
    /// pairs included, plays --games games with the seats and the first player balanced;
    /// writes matchups.csv/.parquet (one row per ordered pair), ranking.csv/.parquet (a
    /// Bradley-Terry fit) and meta.json.
    Matchup(MatchupArgs),
    /// Booster War (seed 003): each game opens two boosters of --set; each player's Hero
    /// comes out of its booster and the rest is its deck; unlimited mana, 3 cards each
    /// Morning, 4 days. Writes booster_war.csv (per variant: seats, first player, days),
    /// factions.csv, heroes.csv and card_effects.csv (with .parquet twins) and meta.json.
    BoosterWar(BoosterWarArgs),
    /// Improve a player deck by swapping one card at a time for a card of a pool (sets or a
    /// collection), keeping a swap when paired games show it better; writes the best deck
    /// (best_deck.txt), its win rate and the start deck's on fresh games (optimize.csv),
    /// the search's trajectory (trajectory.csv) and meta.json.
    Optimize(OptimizeArgs),
    /// Free for All (four players, digest §7.1): pods of four entries (each --player deck
    /// with each --policy), every 4-subset of the entries in all 24 seatings, --games games
    /// each; writes pods.csv/.parquet (one row per pod, seating and seat), ratings.csv (a
    /// Plackett-Luce fit of who wins among four, with intervals), report.md and meta.json.
    Ffa(FfaArgs),
    /// Play it yourself: a local web page where you play a deck against the Confluence (or
    /// head to head against a policy), choosing among the engine's legal options, with the
    /// simulator as advisor on request; every game is recorded in --games-dir.
    Play(PlayArgs),
}

/// Who sits across the table in `play`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayMode {
    /// Your deck against the Confluence.
    Solo,
    /// Your deck (seat A) head to head against --opponent played by --opponent-policy.
    Matchup,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Decks, rares and edits as in `run` (one --player: yours; --policy has no meaning,
    /// you are the player).
    #[command(flatten)]
    pub m: MatchArgs,
    /// The port to listen on (0: a free one).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub port: u16,
    /// The address to listen on.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub listen: String,
    /// Do not open the page in the default browser (print its address only).
    #[arg(long)]
    pub no_browser: bool,
    /// The deal's seed, as `run --seed`.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The deal's game index, as in `run` and `replay` (default: the next deal, one after
    /// the highest index recorded in --games-dir for this seed, or 0).
    #[arg(long, value_name = "I")]
    pub game_index: Option<u64>,
    /// `solo` (against the Confluence) or `matchup` (head to head against --opponent).
    #[arg(long, value_enum, value_name = "MODE", default_value = "solo")]
    pub mode: PlayMode,
    /// matchup: the opponent's deck file.
    #[arg(long, value_name = "FILE")]
    pub opponent: Option<PathBuf>,
    /// matchup: the policy that plays the opponent's seat.
    #[arg(long, value_name = "SPEC", default_value = "planner")]
    pub opponent_policy: String,
    /// Your name, written in the game records.
    #[arg(long, value_name = "NAME", default_value = "anonymous")]
    pub name: String,
    /// Where the game records are written (one JSON Lines file per game).
    #[arg(long, value_name = "DIR", default_value = "played")]
    pub games_dir: PathBuf,
    /// No advisor (for games recorded to calibrate a player: advice changes the player).
    #[arg(long)]
    pub no_advisor: bool,
    /// The policy whose rollouts estimate each option's win probability.
    #[arg(long, value_name = "SPEC", default_value = "fastsearch")]
    pub advisor: String,
    /// A card file (JSON Lines with ref, main_effect_en, echo_effect_en) whose printed
    /// texts are shown beside our encoding of each card.
    #[arg(long, value_name = "FILE")]
    pub card_texts: Option<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub struct FfaArgs {
    /// Player deck file (repeat for several). Each deck with each --policy is one entry;
    /// four entries at least.
    #[arg(long = "player", value_name = "FILE")]
    pub players: Vec<PathBuf>,
    /// Policy playing the decks: random, greedy, planner, expert, search or clairvoyant,
    /// with parameters as NAME:KEY=N (repeatable; default greedy).
    #[arg(long = "policy", value_name = "NAME")]
    pub policies: Vec<String>,
    /// Games per seating of each pod (each pod plays its 24 seatings; the first player
    /// turns round the table with the game index).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = positive_u64())]
    pub games: u64,
    /// Base seed: game g of a pod's seating draws from (seed, pod, seating, g) alone.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Stop a game after this many days and record it as a draw.
    #[arg(long, value_name = "DAYS", default_value_t = 30, value_parser = clap::value_parser!(u8).range(1..=250))]
    pub day_cap: u8,
    /// Output directory (replaced whole at the end).
    #[arg(long, value_name = "DIR", default_value = "reports/ffa")]
    pub out: PathBuf,
    /// Simulate decks that break deck-building rules (with a warning).
    #[arg(long)]
    pub allow_illegal: bool,
    /// Directory holding pool.csv and abilities/ (default: the card pool and encodings built
    /// into the binary, the repository's decks/cards; a directory is read only when named).
    #[arg(long, value_name = "DIR", default_value = crate::job::builtin::CARDS)]
    pub cards: PathBuf,
    #[command(flatten)]
    pub models: ModelArgs,
    /// No progress bar and no ranking table on the terminal.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub scale: ScaleArgs,
    /// Continue the interrupted ffa run whose --out was DIR, with the settings it started
    /// with (--threads and --quiet may be given).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["players", "policies", "games", "seed", "day_cap", "out", "allow_illegal", "cards", "expert_weights", "value_weights", "shard", "force"])]
    pub resume: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct OptimizeArgs {
    /// The deck to improve (a legal deck; its size and hero stay).
    #[arg(long, value_name = "FILE")]
    pub player: PathBuf,
    /// The cards it may take in: the exact cards of these sets, comma-separated set codes of
    /// pool.csv (e.g. CORE or CORE,ALIZE; all for every set). Default CORE.
    #[arg(long, value_name = "SETS", conflicts_with = "collection")]
    pub pool: Option<String>,
    /// Instead of --pool: the cards you own, one `N REFERENCE` or `N Card Name` a line (the
    /// deck file format); the deck's own cards count as owned.
    #[arg(long, value_name = "FILE")]
    pub collection: Option<PathBuf>,
    /// The Confluence deck played against (default: the reference deck built into the
    /// binary, the repository's decks/confluence/reference.toml).
    #[arg(long, value_name = "FILE", default_value = crate::job::builtin::CONFLUENCE)]
    pub against: PathBuf,
    /// Rares in the Confluence deck: a count N (0: all commons; between 0 and all, one random
    /// set of N rares drawn from --seed).
    #[arg(long, value_name = "N", default_value = "0")]
    pub rares: String,
    /// The player's policy (the strongest affordable one is expert).
    #[arg(long, value_name = "NAME", default_value = "expert")]
    pub policy: String,
    /// The search's budget: games played by all decks during the search (the final
    /// measurement comes on top). Same flags and seed, same result.
    #[arg(long, value_name = "N", default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..=1 << 44))]
    pub games: u64,
    /// Also stop the search after this many seconds (the result then depends on the
    /// machine's speed and load: not reproducible).
    #[arg(long, value_name = "SECONDS", value_parser = positive_u64())]
    pub time: Option<u64>,
    /// Candidate swaps raced per round.
    #[arg(long, value_name = "K", default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub batch: u32,
    /// Games per deck in a round's first stage; each later stage plays twice as many with
    /// half the candidates.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1 << 32))]
    pub stage_games: u64,
    /// Games per deck that confirm a round's survivor against the current deck (a swap is
    /// kept when the paired difference's 95% interval is above zero).
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(2..=1 << 40))]
    pub confirm: u64,
    /// Random swaps applied to the best deck at each restart.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub kick: u32,
    /// Games per deck of the final measurement of the start and the best deck, on game
    /// indices the search never played.
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(2..=1 << 40))]
    pub measure: u64,
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Stop a game after this many days and record it as a day-cap outcome.
    #[arg(long, value_name = "DAYS", default_value_t = 30, value_parser = clap::value_parser!(u8).range(1..=250))]
    pub day_cap: u8,
    /// Directory holding pool.csv and abilities/ (default: the card pool and encodings built
    /// into the binary, the repository's decks/cards; a directory is read only when named).
    #[arg(long, value_name = "DIR", default_value = crate::job::builtin::CARDS)]
    pub cards: PathBuf,
    /// Weights for the expert instead of the committed ones the binary embeds.
    #[arg(long, value_name = "FILE")]
    pub expert_weights: Option<PathBuf>,
    /// The value model instead of the committed one the binary embeds.
    #[arg(long, value_name = "FILE")]
    pub value_weights: Option<PathBuf>,
    /// Output directory (replaced whole at the end).
    #[arg(long, value_name = "DIR", default_value = "reports/optimize")]
    pub out: PathBuf,
    /// No progress bar and no summary on the terminal.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Which of seed 003's variants `booster-war` plays.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarVariant {
    /// The least technical: each booster shuffled into a deck.
    Shuffled,
    /// The most technical: each player stacks its 12 cards in the order it chooses.
    Ordered,
    /// Both, on the same boosters.
    Both,
}

#[derive(Args, Debug, Clone)]
pub struct BoosterWarArgs {
    /// The set whose boosters are opened (a table of --boosters, e.g. CORE).
    #[arg(long, value_name = "SET", default_value = "CORE")]
    pub set: String,
    /// The variant(s) of seed 003 to play.
    #[arg(long, value_enum, value_name = "V", default_value = "both")]
    pub variant: WarVariant,
    /// Policy of both players: random, greedy, planner, expert, search or clairvoyant
    /// (NAME:KEY=N for parameters; no value-model lookahead head to head). It also stacks
    /// the ordered variant's deck.
    #[arg(long, value_name = "NAME", default_value = "planner")]
    pub policy: String,
    /// Games per variant (the first player alternates with the game index).
    #[arg(long, value_name = "N", default_value_t = 10000, value_parser = positive_u64())]
    pub games: u64,
    /// Base seed: game g opens the same two boosters in every variant.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Stop a game after this many days and record it as a draw (the Arena can last).
    #[arg(long, value_name = "DAYS", default_value_t = 30, value_parser = clap::value_parser!(u8).range(6..=250))]
    pub day_cap: u8,
    /// Keep day 1's Mana (3 cards from hand) and the daily Expand under unlimited mana, the
    /// seed's "usual rules" read literally; by default both are skipped, as the digest's
    /// interpretation says (RULES.md D49). Mana Orbs then count for cards that count them
    /// (Tomoe Gozen).
    #[arg(long)]
    pub day_one_mana: bool,
    /// Output directory (replaced whole at the end).
    #[arg(long, value_name = "DIR", default_value = "reports/booster-war")]
    pub out: PathBuf,
    /// What a booster holds, per set (default: the file built into the binary, the
    /// repository's decks/boosters.toml).
    #[arg(long, value_name = "FILE", default_value = crate::job::builtin::BOOSTERS)]
    pub boosters: PathBuf,
    /// Directory holding pool.csv and abilities/ (default: the card pool and encodings built
    /// into the binary, the repository's decks/cards; a directory is read only when named).
    #[arg(long, value_name = "DIR", default_value = crate::job::builtin::CARDS)]
    pub cards: PathBuf,
    #[command(flatten)]
    pub models: ModelArgs,
    /// No progress bar and no tables on the terminal.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub scale: ScaleArgs,
    /// Continue the interrupted booster-war whose --out was DIR, with the settings it started
    /// with (--threads and --quiet may be given).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["set", "variant", "policy", "games", "seed", "day_cap", "day_one_mana", "out", "boosters", "cards", "expert_weights", "value_weights", "shard", "force"])]
    pub resume: Option<PathBuf>,
}

/// A head-to-head command's shard and `--force` (the checkpoint and shard records keep
/// them apart from the flags that decide the results).
#[derive(Args, Debug, Clone, Default)]
pub struct ScaleArgs {
    /// Play only slice I of N (I counts from 0) of every pair's (variant's, seating's)
    /// games, and write the shard's mergeable state to --out (see `confluence-sim merge`).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<crate::job::shard::Shard>,
    /// Replace --out even when it holds a finished shard, or an unfinished run with other
    /// settings (without it, both are refused: they are work that would be lost).
    #[arg(long)]
    pub force: bool,
}

/// Model files instead of the committed ones the binary embeds, for the head-to-head
/// commands (matchup, booster-war, ffa).
#[derive(Args, Debug, Clone, Default)]
pub struct ModelArgs {
    /// Weights for the expert instead of the committed ones the binary embeds (every seat
    /// that plays `expert`): a file `train-expert` wrote.
    #[arg(long, value_name = "FILE")]
    pub expert_weights: Option<PathBuf>,
    /// The value model instead of the committed one the binary embeds: a file
    /// `train-value` wrote. No policy a head-to-head game accepts reads it (expert:value=S
    /// looks ahead in the solo game); it is checked and recorded in meta.json.
    #[arg(long, value_name = "FILE")]
    pub value_weights: Option<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub struct MatchupArgs {
    /// Player deck file (repeat for several; at least one).
    #[arg(long = "player", value_name = "FILE")]
    pub players: Vec<PathBuf>,
    /// Policy playing the decks: random, greedy, planner, expert, search or clairvoyant,
    /// with parameters as NAME:KEY=N (no value-model lookahead head to head; repeatable;
    /// default greedy). Each deck with each policy is one entry.
    #[arg(long = "policy", value_name = "NAME")]
    pub policies: Vec<String>,
    /// Games per pair of entries (seats and first player balanced within each pair).
    #[arg(long, value_name = "N", default_value_t = 9604, value_parser = positive_u64())]
    pub games: u64,
    /// Base seed: game g of every pair uses the seeds of game g (common random numbers).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Stop a game after this many days and record it as a draw.
    #[arg(long, value_name = "DAYS", default_value_t = 30, value_parser = clap::value_parser!(u8).range(1..=250))]
    pub day_cap: u8,
    /// Output directory (replaced whole at the end).
    #[arg(long, value_name = "DIR", default_value = "reports/matchup")]
    pub out: PathBuf,
    /// Simulate decks that break deck-building rules (with a warning).
    #[arg(long)]
    pub allow_illegal: bool,
    /// Directory holding pool.csv and abilities/ (default: the card pool and encodings built
    /// into the binary, the repository's decks/cards; a directory is read only when named).
    #[arg(long, value_name = "DIR", default_value = crate::job::builtin::CARDS)]
    pub cards: PathBuf,
    #[command(flatten)]
    pub models: ModelArgs,
    /// No progress bar and no ranking table on the terminal.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub scale: ScaleArgs,
    /// Continue the interrupted matchup whose --out was DIR, with the settings it started
    /// with (--threads and --quiet may be given).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["players", "policies", "games", "seed", "day_cap", "out", "allow_illegal", "cards", "expert_weights", "value_weights", "shard", "force"])]
    pub resume: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Decks (default: the six starter decks), the player whose games are studied
    /// (--policy, default planner) and options.
    #[command(flatten)]
    pub m: MatchArgs,
    /// The search asked at every decision.
    #[arg(
        long,
        value_name = "NAME",
        default_value = "search:rollouts=48,width=8,expert=0"
    )]
    pub search: String,
    /// Games per deck, at all commons and at all rares.
    #[arg(long, value_name = "N", default_value_t = 150)]
    pub games: u64,
    #[arg(long, value_name = "S", default_value_t = 1001)]
    pub seed: u64,
    /// L2 penalty of the logistic fit.
    #[arg(long, value_name = "A", default_value_t = 0.01)]
    pub alpha: f64,
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// The weights file to write. The default is the committed weights, which the binary
    /// embeds (a rebuild makes them the default); any other file is played with
    /// --expert-weights FILE.
    #[arg(
        long,
        value_name = "FILE",
        default_value = "decks/policies/expert.toml"
    )]
    pub out: PathBuf,
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct TrainValueArgs {
    /// Decks (default: the six starter decks), the player whose games are recorded
    /// (--policy, default expert) and options. Each game draws its own rare mix.
    #[command(flatten)]
    pub m: MatchArgs,
    /// Games per deck (every tenth is held out for evaluation).
    #[arg(long, value_name = "N", default_value_t = 20000, value_parser = positive_u64())]
    pub games: u64,
    /// Record one decision in N (decisions with a real choice), chosen by a hash.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub every: u64,
    /// Which decisions are recorded: `all`, or `day-start`, the first decision with a
    /// real choice of each day from day 2 on (the positions `search:horizon=D` scores).
    #[arg(long, value_enum, value_name = "WHICH", default_value = "all")]
    pub at: PositionsAt,
    /// The label of a position: 0, the outcome of the game played (default); K, the mean
    /// outcome of K games finished by --rollout-policy from samples of the hidden cards
    /// drawn from the player's view (less noise; the rollout player's values).
    #[arg(long, value_name = "K", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1024))]
    pub rollouts: u32,
    /// The player who finishes the label rollouts (--rollouts).
    #[arg(long, value_name = "NAME", default_value = "expert")]
    pub rollout_policy: String,
    #[arg(long, value_name = "S", default_value_t = 2024)]
    pub seed: u64,
    /// Hidden units of the network.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub hidden: u16,
    /// Passes over the training positions.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub epochs: u32,
    /// Positions per minibatch.
    #[arg(long, value_name = "N", default_value_t = 512, value_parser = positive_u64())]
    pub batch: u64,
    /// AdamW's learning rate (decayed linearly to a tenth).
    #[arg(long, value_name = "R", default_value_t = 3e-3)]
    pub lr: f64,
    /// AdamW's weight decay.
    #[arg(long, value_name = "R", default_value_t = 1e-4)]
    pub decay: f64,
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    #[arg(long, value_name = "FILE", default_value = "decks/policies/value.toml")]
    pub out: PathBuf,
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct TrainPolicyArgs {
    /// Decks (default: the six starter decks), the player whose games are recorded
    /// (--policy, default expert) and options.
    #[command(flatten)]
    pub m: MatchArgs,
    /// The teacher asked at every card-into-Mana and Afternoon-turn decision.
    #[arg(long, value_name = "NAME", default_value = "search")]
    pub search: String,
    /// Games per deck, at all commons and at all rares (every tenth is held out for
    /// evaluation).
    #[arg(long, value_name = "N", default_value_t = 150, value_parser = positive_u64())]
    pub games: u64,
    #[arg(long, value_name = "S", default_value_t = 3001)]
    pub seed: u64,
    /// Hidden units of the network (0: a linear model of the option's inputs).
    #[arg(long, value_name = "N", default_value_t = 48, value_parser = clap::value_parser!(u16).range(0..=256))]
    pub hidden: u16,
    /// Passes over the training decisions.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub epochs: u32,
    /// Decisions per minibatch.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = positive_u64())]
    pub batch: u64,
    /// AdamW's learning rate (decayed linearly to a tenth).
    #[arg(long, value_name = "R", default_value_t = 3e-3)]
    pub lr: f64,
    /// AdamW's weight decay.
    #[arg(long, value_name = "R", default_value_t = 1e-4)]
    pub decay: f64,
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    #[arg(long, value_name = "FILE", default_value = "decks/policies/pnet.toml")]
    pub out: PathBuf,
    #[arg(long, short)]
    pub quiet: bool,
}

/// Which positions `train-value` records.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionsAt {
    /// Every decision with a real choice (one in --every).
    All,
    /// The first decision with a real choice of each day, from day 2 on.
    DayStart,
}

#[derive(Args, Debug)]
pub struct DisagreeArgs {
    /// The deck (the first --player), the fast policy (--policy, default planner) and
    /// options.
    #[command(flatten)]
    pub m: MatchArgs,
    /// The search asked at every decision.
    #[arg(long, value_name = "NAME", default_value = "search")]
    pub search: String,
    /// Against all rares instead of all commons.
    #[arg(long)]
    pub all_rares: bool,
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub games: u64,
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Positions to print, largest expected gain first.
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub show: usize,
    /// Instead: the label-noise ceiling. At each decision with a choice in the fast
    /// policy's games, two independent searches (--search with rollouts=B) for each
    /// budget B listed, and a reference search at the largest budget: how often the two
    /// agree, and how often each agrees with the reference (the fast policy too).
    #[arg(long, value_name = "B,B,...", value_delimiter = ',')]
    pub agreement: Vec<u32>,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Decks, policies (at least two; the first is the baseline), rare mixes (default:
    /// all commons and all rares) and options; with no --player, the six starter decks.
    #[command(flatten)]
    pub m: MatchArgs,
    /// Games per deck, mix and policy (the same game indices for every policy).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub games: u64,
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    #[arg(long, value_name = "DIR", default_value = "reports/compare")]
    pub out: PathBuf,
    /// An earlier compare's output directory: each deck, mix and policy whose games it holds
    /// (its games.csv, same seed, day cap, Confluence deck and expert weights, at least
    /// --games games) is taken from there instead of played again. For an expensive
    /// reference (`search:rollouts=192`) played once and compared with many policies. The
    /// same directory as --out refreshes it in place; when it does not exist yet, every
    /// game is played.
    #[arg(long, value_name = "DIR")]
    pub reuse: Option<PathBuf>,
    /// No progress bar and no table on the terminal.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct SensitivityArgs {
    /// Decks, policies, rare mixes (default: all commons and all rares), edits applied
    /// before the grid's (the baseline) and options.
    #[command(flatten)]
    pub m: MatchArgs,
    /// Games per edit, deck, policy and mix: game indices 0..N, the same as the baseline's
    /// (at most: racing stops an edit whose effect is negligible earlier).
    #[arg(long, value_name = "N", default_value_t = 2000, value_parser = positive_u64())]
    pub games: u64,
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Only the edits of this Confluence card (repeatable; "NAME (rare)" for its rare twin
    /// alone); default every card.
    #[arg(long, value_name = "CARD")]
    pub only: Vec<String>,
    /// Also: which edits reach this win rate (0 to 1): the single edits closest to it, then
    /// every pair of the --pairs-of edits that move it most towards it, played on the same
    /// games; writes sensitivity_target.csv/.parquet.
    #[arg(long, value_name = "RATE")]
    pub target: Option<f64>,
    /// With --target: how many of the edits that move the win rate most towards the target
    /// are combined in pairs (each pair plays --games games per deck, policy and mix).
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..=12))]
    pub pairs_of: u32,
    /// Racing: games of the first stage; each later stage doubles the games played so far,
    /// up to --games, and after each stage the edits whose effect is shown to lie within
    /// ±--negligible points (their paired 95% interval) stop; the others play on.
    #[arg(long, value_name = "N", default_value_t = 500, value_parser = clap::value_parser!(u64).range(2..))]
    pub race_games: u64,
    /// Racing: an effect this small (percentage points) does not matter.
    #[arg(long, value_name = "POINTS", default_value_t = 1.0)]
    pub negligible: f64,
    /// No racing: every edit plays all --games.
    #[arg(long, conflicts_with_all = ["race_games", "negligible"])]
    pub no_race: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    #[arg(long, value_name = "DIR", default_value = "reports/sensitivity")]
    pub out: PathBuf,
    /// No progress bar and no table on the terminal.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct LadderArgs {
    #[command(flatten)]
    pub deck: DeckArgs,
    /// Policies, weakest first (repeatable; default: random, greedy, planner, expert,
    /// search and the clairvoyant bound, with their default parameters).
    #[arg(long = "policy", value_name = "NAME")]
    pub policies: Vec<String>,
    /// Also play the skill curve: skill:t=T for each temperature listed (points, e.g.
    /// 0,1,2,4,8,16,32), and give each rung the t whose win rate equals its own.
    #[arg(long, value_name = "T,T,...", value_delimiter = ',')]
    pub skill: Vec<String>,
    /// Games per policy and mix (default: batches of --batch until the 95% interval is at
    /// most +-1%, or --max-games).
    #[arg(long, value_name = "N", value_parser = positive_u64())]
    pub games: Option<u64>,
    /// Games per batch when --games is not given.
    #[arg(long, value_name = "N", default_value_t = 2000, value_parser = positive_u64())]
    pub batch: u64,
    /// Most games per policy and mix when --games is not given.
    #[arg(long, value_name = "N", default_value_t = 40_000, value_parser = positive_u64())]
    pub max_games: u64,
    /// Target 95% half-width when --games is not given.
    #[arg(long, value_name = "W", default_value_t = 0.01, value_parser = half_width)]
    pub half_width: f64,
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    #[arg(long, value_name = "DIR", default_value = "reports/ladder")]
    pub out: PathBuf,
    #[arg(long, value_name = "DAYS", default_value_t = 30, value_parser = clap::value_parser!(u8).range(1..=250))]
    pub day_cap: u8,
    #[arg(long)]
    pub allow_illegal: bool,
    /// No progress bar and no table on the terminal.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The run's output directory (the --out of `confluence-sim run`), holding
    /// summary.parquet and, when present, cards.parquet, rares.parquet, diffs.parquet and
    /// meta.json; or the --out of `confluence-sim matchup` (matchups.parquet,
    /// ranking.parquet), `booster-war`, `ffa` (pods.parquet) or `sensitivity`, for
    /// their reports. The report is written there.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The win rate the "which mixes give ..." section looks for (0-1).
    #[arg(long, value_name = "P", default_value_t = 0.5, value_parser = open_win_rate)]
    pub target: f64,
}

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Target win rate (0-1).
    #[arg(long, value_name = "P", value_parser = win_rate)]
    pub target: f64,
    #[command(flatten)]
    pub deck: DeckArgs,
    /// Player policy (random, greedy, planner, expert, search, clairvoyant; see `run --help`).
    #[arg(
        long,
        value_name = "NAME",
        default_value = "greedy",
        conflicts_with = "calibrated"
    )]
    pub policy: String,
    /// Tune for a calibrated player instead of --policy: a calibration.json holding one
    /// player (its skill:t=T,name=NAME).
    #[arg(long = "players", value_name = "calibration.json")]
    pub calibrated: Option<PathBuf>,
    #[command(flatten)]
    pub edits: EditArgs,
    /// Games per configuration of the screening design.
    #[arg(long, value_name = "N", default_value_t = 2000, value_parser = positive_u64())]
    pub games: u64,
    /// Random subsets per rare count in the screening design (besides the all-common,
    /// all-rare and one-at-a-time mixes).
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = positive_u32())]
    pub subsets: u32,
    /// Candidate mixes to confirm.
    #[arg(long, value_name = "K", default_value_t = 8, value_parser = candidates)]
    pub candidates: usize,
    /// Games per candidate when confirming (default: enough for +-1%).
    #[arg(long, value_name = "N", value_parser = positive_u64())]
    pub confirm: Option<u64>,
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    #[arg(long, value_name = "DIR", default_value = "reports/tune")]
    pub out: PathBuf,
    #[arg(long, value_name = "DAYS", default_value_t = 30, value_parser = clap::value_parser!(u8).range(1..=250))]
    pub day_cap: u8,
    #[arg(long)]
    pub allow_illegal: bool,
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct CardsArgs {
    #[command(subcommand)]
    pub command: CardsCommand,
    /// Directory holding pool.csv and abilities/ (default: the card pool and encodings built
    /// into the binary, the repository's decks/cards; a directory is read only when named).
    #[arg(long, value_name = "DIR", default_value = crate::job::builtin::CARDS, global = true)]
    pub cards: PathBuf,
}

#[derive(Subcommand, Debug)]
pub enum CardsCommand {
    /// Exact / partial / stats-only counts per set and per faction (and per deck).
    Coverage {
        /// Also list the cards of one class: exact, partial or stats-only; or, of the exact
        /// ones, verified (the text reader agrees) or declared (with why not verified), or
        /// h2h-gaps (exact in Confluence play, known to differ head to head, with why).
        #[arg(long, value_name = "CLASS", value_parser = ["exact", "partial", "stats-only", "verified", "declared", "h2h-gaps"])]
        list: Option<String>,
        /// Restrict --list to one set (e.g. CORE).
        #[arg(long, value_name = "SET")]
        set: Option<String>,
        /// Report these player decks card by card.
        #[arg(long = "deck", value_name = "FILE")]
        decks: Vec<PathBuf>,
    },
    /// A card's facts and its encoded abilities.
    Show {
        /// Card reference (ALT_...) or English name.
        card: String,
    },
}

#[derive(Args, Debug)]
pub struct ScenarioArgs {
    /// Scenario file (TOML).
    pub file: PathBuf,
    /// Print the events as JSON Lines, then the final state as one JSON line.
    #[arg(long)]
    pub json: bool,
    /// Print the readable game log of the steps on stderr.
    #[arg(long)]
    pub log: bool,
    /// Directory holding pool.csv and abilities/ (default: the card pool and encodings built
    /// into the binary, the repository's decks/cards; a directory is read only when named).
    #[arg(long, value_name = "DIR", default_value = crate::job::builtin::CARDS)]
    pub cards: PathBuf,
}

#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// Directories of game records (*.jsonl), or record files; records are grouped by
    /// their player's name.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// Output directory: calibration.csv, calibration.json, calibration.md.
    #[arg(long, value_name = "DIR", default_value = "reports/calibration")]
    pub out: PathBuf,
    /// The evaluator of the options at each decision (a search: fastsearch, or search
    /// with parameters). The default values each option on 80 samples where `fastsearch`
    /// takes 5: noisy values make a careful player look careless (they inflate t; see
    /// docs/skill.md).
    #[arg(long, value_name = "SPEC", default_value = "fastsearch:rollouts=80")]
    pub evaluator: String,
    /// The width of t's 95% interval (points) the report asks for; with fewer decisions it
    /// says how many more are needed.
    #[arg(long, value_name = "POINTS", default_value_t = 4.0)]
    pub width: f64,
    /// How many of the costliest decisions to list per player.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub worst: usize,
    /// Resamples of whole games for the bootstrap interval on t (besides the profile
    /// likelihood's); 0 for none.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub bootstrap: u32,
    /// Worker threads (default: all cores); the results do not depend on it.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// No progress bar and no table on the terminal.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub m: MatchArgs,
    /// Base seed of the run the game belongs to.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Index of the game in the run (0-based).
    #[arg(long, value_name = "I", default_value_t = 0)]
    pub game_index: u64,
    /// When the rare flags give several mixes, which one (0-based, in run order).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub mix_index: usize,
    /// Write the events as JSON Lines instead of text (a game record: docs/outputs.md, "Game
    /// records").
    #[arg(long)]
    pub json: bool,
    /// Show a recorded game (a record `play` or `replay --json` wrote), dealt again from
    /// its header and re-played choice by choice; the game flags are then not used.
    #[arg(long, value_name = "GAME.jsonl")]
    pub file: Option<PathBuf>,
    /// Write the game records of --games games (from --game-index on) into this
    /// directory, one file each, instead of showing one game (solo and matchup): the
    /// records `calibrate` reads for a simulated player.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// With --records: how many games.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = positive_u64(), requires = "records")]
    pub games: u64,
    /// With --records: worker threads (default: all cores); the records do not depend on it.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Which command's game: `run` (a deck against the Confluence), `matchup` (seat A the
    /// first --player with the first --policy, seat B the second, or the same again),
    /// `booster-war` (--set, --boosters, --variant, --day-one-mana) or `ffa` (the run's
    /// --player decks and --policy names in its order, --pod, --seating).
    #[arg(long, value_enum, value_name = "MODE", default_value = "run")]
    pub mode: ReplayMode,
    /// ffa: the pod (pods.csv's `pod`: every 4 of the run's entries, in order).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub pod: usize,
    /// ffa: the seating of the pod (pods.csv's `seating`, 0 to 23).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub seating: usize,
    /// booster-war: the set whose boosters are opened.
    #[arg(long, value_name = "SET", default_value = "CORE")]
    pub set: String,
    /// booster-war: what a booster holds, per set (default: the file built into the binary,
    /// the repository's decks/boosters.toml).
    #[arg(long, value_name = "FILE", default_value = crate::job::builtin::BOOSTERS)]
    pub boosters: PathBuf,
    /// booster-war: the variant the game was played in (shuffled or ordered).
    #[arg(long, value_enum, value_name = "V", default_value = "shuffled")]
    pub variant: WarVariant,
    /// booster-war: the run kept day 1's Mana and the daily Expand.
    #[arg(long)]
    pub day_one_mana: bool,
}

/// Which command's game `replay` plays.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayMode {
    /// A deck against the Confluence, as `run` plays it.
    Run,
    /// Two entries head to head, as `matchup` plays them.
    Matchup,
    /// Two boosters head to head, as `booster-war` plays them.
    BoosterWar,
    /// Four entries at a Free for All table, as `ffa` plays them.
    Ffa,
}

/// One player deck against one Confluence deck (tune, ladder, bench).
#[derive(Args, Debug, Clone)]
pub struct DeckArgs {
    /// Player deck (default: the Bravos starter built into the binary, the repository's
    /// decks/player/BR_kojo_booda.txt).
    #[arg(long, value_name = "FILE", default_value = crate::job::load::DEFAULT_PLAYER)]
    pub player: PathBuf,
    /// Confluence deck file (default: the reference deck built into the binary, the
    /// repository's decks/confluence/reference.toml).
    #[arg(long, value_name = "FILE", default_value = crate::job::builtin::CONFLUENCE)]
    pub confluence: PathBuf,
    /// Directory holding pool.csv and abilities/ (default: the card pool and encodings built
    /// into the binary, the repository's decks/cards; a directory is read only when named).
    #[arg(long, value_name = "DIR", default_value = crate::job::builtin::CARDS)]
    pub cards: PathBuf,
    /// Weights for the expert (and for the search's expert rollouts) instead of the
    /// committed ones the binary embeds: a file `train-expert` wrote, e.g. for your deck.
    #[arg(long, value_name = "FILE")]
    pub expert_weights: Option<PathBuf>,
    /// The value model instead of the committed one the binary embeds (for the policies
    /// that read it: `search:horizon=D`, `expert:value=S`): a file `train-value` wrote.
    #[arg(long, value_name = "FILE")]
    pub value_weights: Option<PathBuf>,
}

/// What-if edits of cards of the Confluence deck and the player decks, applied at load time
/// (the files are not changed).
#[derive(Args, Debug, Clone, Default)]
pub struct EditArgs {
    /// A what-if edit, CARD: CHANGE (repeatable, applied in order), e.g. "Gloom Wisp: forest
    /// -1", "Gloom Wisp (rare): persistent off", "Gloom Wisp: midnight water", "Gloom Wisp:
    /// rare", "Kappa: swap Atlas", "Kappa: remove 1". Changes: forest, mountain, water,
    /// hand_cost, reserve_cost, cost (+N, -N or N), midnight, placement, a keyword on/off
    /// (tough N, scout N), swap CARD or swap N CARD, remove or remove N, rare.
    #[arg(long = "edit", value_name = "EDIT")]
    pub edit: Vec<String>,
    /// A file of what-if edits: `[[edit]]` tables with card = "..." and change = "...",
    /// applied before the --edit ones.
    #[arg(long = "edits", value_name = "FILE")]
    pub edits_file: Option<PathBuf>,
}

/// Decks, policies and rare mixes: what a configuration is made of.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// Player deck file (repeat for several decks). Default: the Bravos starter built into
    /// the binary (the repository's decks/player/BR_kojo_booda.txt); compare and the training
    /// commands default to the six built-in starters (decks/player/*.txt). A path under
    /// decks/ that is not on disk is the built-in file of that name.
    #[arg(long = "player", value_name = "FILE")]
    pub players: Vec<PathBuf>,
    /// Confluence deck file (default: the reference deck built into the binary, the
    /// repository's decks/confluence/reference.toml).
    #[arg(long, value_name = "FILE", default_value = crate::job::builtin::CONFLUENCE)]
    pub confluence: PathBuf,
    /// Player policy: random, greedy (casual), planner (careful), expert (strong), search
    /// (near-optimal) or clairvoyant (an upper bound that sees hidden cards), with
    /// parameters as NAME:KEY=N,KEY=N (e.g. search:rollouts=32); repeat for several.
    /// fastsearch is short for the fast strong player, a cheap search, and deepsearch for
    /// the same looking a second day where the game is in doubt (outputs name them by
    /// their specs, search:net=7,...). skill:t=T is a dial between them: it picks each
    /// option with probability proportional to exp(Q/T), Q its win probability by
    /// fastsearch in points, T a decimal (0: the best; skill:t=T,from=SPEC values by
    /// another search, from= last; docs/skill.md).
    #[arg(long = "policy", value_name = "NAME")]
    pub policies: Vec<String>,
    /// Calibrated players (a calibration.json `calibrate` wrote): each adds the policy
    /// skill:t=T,name=NAME at the player's fitted t, reported as "players like NAME".
    #[arg(long = "players", value_name = "calibration.json")]
    pub calibrated: Option<PathBuf>,
    /// Number of rares: N, or a sweep A..=B (repeatable; default: 0..=all). A..B, as in
    /// Rust, leaves B out (3..5 is 3 and 4). Counts strictly between 0 and all use
    /// --subsets random subsets each.
    #[arg(long, value_name = "N|A..=B")]
    pub rares: Vec<String>,
    /// An explicit set of rares by name, comma-separated (repeat for several sets).
    #[arg(long = "rare-set", value_name = "NAME,NAME")]
    pub rare_sets: Vec<String>,
    /// Random subsets per rare count in a sweep.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = positive_u32())]
    pub subsets: u32,
    /// Stop a game after this many days and record it as a day-cap outcome.
    #[arg(long, value_name = "DAYS", default_value_t = 30, value_parser = clap::value_parser!(u8).range(1..=250))]
    pub day_cap: u8,
    /// Simulate decks that break deck-building rules (with a warning).
    #[arg(long)]
    pub allow_illegal: bool,
    /// Directory holding pool.csv and abilities/ (default: the card pool and encodings built
    /// into the binary, the repository's decks/cards; a directory is read only when named).
    #[arg(long, value_name = "DIR", default_value = crate::job::builtin::CARDS)]
    pub cards: PathBuf,
    /// Weights for the expert (and for the search's expert rollouts) instead of the
    /// committed ones the binary embeds: a file `train-expert` wrote, e.g. for your deck.
    #[arg(long, value_name = "FILE")]
    pub expert_weights: Option<PathBuf>,
    /// The value model instead of the committed one the binary embeds (for the policies
    /// that read it: `search:horizon=D`, `expert:value=S`): a file `train-value` wrote.
    #[arg(long, value_name = "FILE")]
    pub value_weights: Option<PathBuf>,
    #[command(flatten)]
    pub edits: EditArgs,
}

/// The configuration the flags describe: made once, then the run layer reads only it.
impl From<&EditArgs> for crate::job::config::Edits {
    fn from(e: &EditArgs) -> Self {
        Self {
            edit: e.edit.clone(),
            edits_file: e.edits_file.clone(),
        }
    }
}

impl From<&ModelArgs> for crate::job::config::Models {
    fn from(m: &ModelArgs) -> Self {
        Self {
            expert_weights: m.expert_weights.clone(),
            value_weights: m.value_weights.clone(),
        }
    }
}

impl From<&RunArgs> for crate::job::config::Outputs {
    fn from(a: &RunArgs) -> Self {
        Self {
            out: a.out.clone(),
            threads: a.threads,
            per_game: a.per_game,
            quiet: a.quiet,
        }
    }
}

/// A head-to-head command's place: `--out`, `--threads`, `--quiet`, `--shard`, `--force`.
fn place(out: &std::path::Path, threads: Option<usize>, quiet: bool, s: &ScaleArgs) -> Place {
    Place {
        out: out.to_path_buf(),
        threads,
        quiet,
        shard: s.shard,
        force: s.force,
    }
}

/// `matchup` and `ffa` name the same flags for their entries: one request from either.
macro_rules! entries_request {
    ($($args:ty),+) => {$(
        impl From<&$args> for Request<Entries> {
            fn from(a: &$args) -> Self {
                Request {
                    settings: Entries {
                        players: a.players.clone(),
                        policies: a.policies.clone(),
                        games: a.games,
                        seed: a.seed,
                        day_cap: a.day_cap,
                        allow_illegal: a.allow_illegal,
                        cards: a.cards.clone(),
                        models: (&a.models).into(),
                    },
                    place: place(&a.out, a.threads, a.quiet, &a.scale),
                    resume: a.resume.clone(),
                }
            }
        }
    )+};
}

entries_request!(MatchupArgs, FfaArgs);

impl From<WarVariant> for crate::job::config::WarVariant {
    fn from(v: WarVariant) -> Self {
        match v {
            WarVariant::Shuffled => Self::Shuffled,
            WarVariant::Ordered => Self::Ordered,
            WarVariant::Both => Self::Both,
        }
    }
}

impl From<&BoosterWarArgs> for Request<BoosterWar> {
    fn from(a: &BoosterWarArgs) -> Self {
        Request {
            settings: BoosterWar {
                set: a.set.clone(),
                variant: a.variant.into(),
                policy: a.policy.clone(),
                games: a.games,
                seed: a.seed,
                day_cap: a.day_cap,
                day_one_mana: a.day_one_mana,
                boosters: a.boosters.clone(),
                // The run's description records `boosters` made absolute.
                boosters_given: Some(crate::job::builtin::shown(&a.boosters)),
                cards: a.cards.clone(),
                models: (&a.models).into(),
            },
            place: place(&a.out, a.threads, a.quiet, &a.scale),
            resume: a.resume.clone(),
        }
    }
}

impl From<&MergeArgs> for crate::job::config::Merge {
    fn from(m: &MergeArgs) -> Self {
        Self {
            shards: m.shards.clone(),
            out: m.out.clone(),
            force: m.force,
            quiet: m.quiet,
        }
    }
}

impl From<&MatchArgs> for crate::job::config::Play {
    fn from(m: &MatchArgs) -> Self {
        Self {
            players: m.players.clone(),
            confluence: m.confluence.clone(),
            policies: m.policies.clone(),
            calibrated: m.calibrated.clone(),
            rares: m.rares.clone(),
            rare_sets: m.rare_sets.clone(),
            subsets: m.subsets,
            day_cap: m.day_cap,
            allow_illegal: m.allow_illegal,
            cards: m.cards.clone(),
            expert_weights: m.expert_weights.clone(),
            value_weights: m.value_weights.clone(),
            edits: (&m.edits).into(),
        }
    }
}

#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub m: MatchArgs,
    /// Run the experiment described in this TOML file (decks, policies, mixes, games);
    /// --out, --threads, --per-game and --quiet still apply. The examples
    /// decks/experiments/*.toml are built into the binary: named so, they run outside the
    /// repository too.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["players", "policies", "rares", "rare_sets", "games", "seed"])]
    pub experiment: Option<PathBuf>,
    /// Games per configuration (default: enough for a 95% interval of at most +-1%).
    #[arg(long, value_name = "N", value_parser = positive_u64())]
    pub games: Option<u64>,
    /// Base seed: the same flags and seed give identical outputs on any thread count.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Output directory.
    #[arg(long, value_name = "DIR", default_value = "reports/latest")]
    pub out: PathBuf,
    /// Also write games.parquet, one row per game.
    #[arg(long)]
    pub per_game: bool,
    /// No progress bar and no summary table on the terminal.
    #[arg(long, short)]
    pub quiet: bool,
    /// Play only slice I of N (I counts from 0) of every configuration's games, and write
    /// the shard's mergeable state to --out (see `confluence-sim merge`).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<crate::job::shard::Shard>,
    /// Replace --out even when it holds a finished shard, or an unfinished run with other
    /// settings (without it, both are refused: they are work that would be lost).
    #[arg(long)]
    pub force: bool,
    /// Continue the interrupted run whose --out was DIR, with the settings it started with
    /// (--threads and --quiet may be given).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["experiment", "players", "policies", "rares", "rare_sets", "games", "seed", "out", "per_game", "shard", "force", "confluence", "subsets", "day_cap", "allow_illegal", "cards", "edit", "edits_file"])]
    pub resume: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shard directories (the --out of each `run --shard I/N`, or of matchup's,
    /// booster-war's or ffa's), in any order.
    #[arg(value_name = "SHARD_DIR", required = true)]
    pub shards: Vec<PathBuf>,
    /// Output directory: the same files as one unsharded run. It may not be one of the
    /// shard directories.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Replace --out even when it holds a finished shard or an unfinished run (without it,
    /// both are refused: they are work that would be lost).
    #[arg(long)]
    pub force: bool,
    /// No summary table on the terminal.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Games per policy.
    #[arg(long, value_name = "N", default_value_t = 200_000, value_parser = positive_u64())]
    pub games: u64,
    /// Policies to time (repeatable; default: random, greedy, planner and expert).
    #[arg(long = "policy", value_name = "NAME")]
    pub policies: Vec<String>,
    #[command(flatten)]
    pub deck: DeckArgs,
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
}

/// Counts that must be at least 1 (games, batches, subsets): 0 is a usage error (exit 2).
fn positive_u64() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..)
}

fn positive_u32() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..)
}

/// The most candidate mixes `tune` confirms (there are 2^15 mixes in all).
pub const MAX_CANDIDATES: usize = 1 << 15;

fn candidates(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(k) if (1..=MAX_CANDIDATES).contains(&k) => Ok(k),
        _ => Err(format!(
            "expected a whole number from 1 to {MAX_CANDIDATES}"
        )),
    }
}

/// A win rate: a number from 0 to 1 (NaN and infinities refused).
fn win_rate(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err("expected a win rate from 0 to 1 (e.g. 0.5)".into()),
    }
}

/// A win rate strictly between 0 and 1.
fn open_win_rate(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(p) if p > 0.0 && p < 1.0 => Ok(p),
        _ => Err("expected a win rate strictly between 0 and 1 (e.g. 0.5)".into()),
    }
}

/// A 95% half-width strictly between 0 and 0.5.
fn half_width(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(w) if w > 0.0 && w < 0.5 => Ok(w),
        _ => Err("expected a number strictly between 0 and 0.5 (e.g. 0.01 for +-1%)".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_consistent() {
        Cli::command().debug_assert();
    }
}
