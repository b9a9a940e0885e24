//! Shows, for each card reference given, what the independent text reader reads in its
//! English text and what its encoding reduces to, side by side in the normal form, and the
//! verdict (`docs/verified-cards.md`). A tool for teaching the reader new sentence forms.
//! Run from the repository root:
//! `cargo run --release --example reader_diff -- ALT_CORE_B_BR_04_C ...`.

use std::path::Path;

use confluence_sim::cards::textread::{self, Ctx, Texts};
use confluence_sim::cards::types::CardKind;
use confluence_sim::cards::{CardDef, Library};

fn main() -> anyhow::Result<()> {
    let cards = Path::new("decks/cards"); // run from the repository root
    let lib = Library::load(cards)?;
    let texts = Texts::load(&textread::default_texts_path(cards))
        .map_err(anyhow::Error::msg)?
        .ok_or_else(|| anyhow::anyhow!("the card texts are absent"))?;
    let ctx = Ctx::new(&lib.db);
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        // Every card's verdict, one a line, and the number verified: the cards that
        // `confluence-sim cards coverage` counts (the pool less its Landmark and Mana tokens,
        // which no deck plays), so that the two numbers agree.
        let counted = |d: &&CardDef| {
            d.pool_index.is_some()
                && !matches!(d.kind, CardKind::OtherToken | CardKind::LandmarkToken)
        };
        let mut verified = 0;
        for def in lib.db.cards.iter().filter(counted) {
            let v = textread::verdict(&ctx, def, &texts);
            verified += usize::from(v == textread::Verdict::Verified);
            println!("{} {} {v:?}", def.reference, v.class());
        }
        println!("verified: {verified}");
        return Ok(());
    }
    for r in args {
        let Some(idx) = lib.db.by_ref(&r) else {
            println!("{r}: unknown reference");
            continue;
        };
        let def = lib.db.card(idx);
        println!("{r} {}", def.name);
        match texts.by_ref.get(&r) {
            Some(t) => match textread::read_text(&ctx, def, t) {
                Ok(v) => v.iter().for_each(|a| println!("  text: {a}")),
                Err(e) => println!("  text: unread: {e}"),
            },
            None => println!("  text: none"),
        }
        match textread::encoded(&ctx, def) {
            Ok(v) => v.iter().for_each(|a| println!("  enc:  {a}")),
            Err(e) => println!("  enc:  not reduced: {e}"),
        }
        println!("  => {:?}", textread::verdict(&ctx, def, &texts));
    }
    Ok(())
}
