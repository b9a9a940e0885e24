//! Plays one game of the Bravos starter deck against the reference Confluence deck with all
//! commons, by the `expert` policy: game 17 of seed 1, the game that
//! `confluence-sim replay --policy expert --rares 0 --game-index 17` shows day by day.
//! Run from the repository root: `cargo run --release --example one_game`.

use std::path::Path;

use confluence_sim::cards::Library;
use confluence_sim::deck::{ConfluenceDeck, PlayerDeck, RareMix};
use confluence_sim::engine::{ChoiceList, event::NoObserver, setup::Matchup};
use confluence_sim::policy::{PolicyData, PolicySpec};
use confluence_sim::sim::{GameSeeds, play_game};

fn main() -> anyhow::Result<()> {
    let decks = Path::new("decks"); // run from the repository root
    let mut lib = Library::load(&decks.join("cards"))?;
    let deck = PlayerDeck::load(&decks.join("player/BR_kojo_booda.txt"), &lib.pool, &lib.db)?;
    let conf = ConfluenceDeck::load(&decks.join("confluence/reference.toml"), &mut lib.db)?;
    let conf_cards = conf.cards_for(RareMix(0)); // all commons (RareMix::all(15): all rares)
    let m = Matchup {
        player_hero: deck.hero,
        player_cards: &deck.cards,
        confluence_hero: conf.hero,
        confluence_cards: &conf_cards,
        day_cap: 30,
    };
    let spec: PolicySpec = "expert".parse().map_err(anyhow::Error::msg)?; // --policy expert
    let mut policy = spec.build(&PolicyData::new(&lib.db));
    let (seeds, mut buf) = (GameSeeds::new(1, 17), ChoiceList::new()); // --seed 1, game 17
    let r = play_game(&lib.db, &m, &seeds, &mut policy, &mut buf, &mut NoObserver);
    println!("{:?} on day {}", r.outcome, r.days); // WinMet on day 4
    Ok(())
}
