//! "Did you mean ...?": the closest known spelling of a misspelt name (card names and
//! references, rare names), by edit distance with transpositions (`strsim`).
//!
//! Layer: may use `cards` and nothing else of the crate.

/// Below this similarity (0 to 1) no suggestion is made: a guess that far off misleads.
const MIN_SIMILARITY: f64 = 0.7;

/// The candidate closest to `word` (case-insensitive), when it is close enough.
/// Similarity is 1 - (optimal string alignment distance) / (longer length): a typo, a
/// missing or doubled letter or two swapped letters in a name of 10 letters is 0.9.
pub fn closest<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let w = crate::cards::pool::normalize_name(word);
    let wlen = w.chars().count();
    if wlen == 0 {
        return None;
    }
    let mut best: Option<(&'a str, f64)> = None;
    let mut last: Option<&str> = None;
    for c in candidates {
        // Versions of one card share its name: compare each name once in a row.
        if last == Some(c) {
            continue;
        }
        last = Some(c);
        let clen = c.chars().count();
        let longer = wlen.max(clen) as f64;
        // The length difference alone bounds the similarity from above.
        if 1.0 - (wlen.abs_diff(clen) as f64) / longer < MIN_SIMILARITY {
            continue;
        }
        let c_low = crate::cards::pool::normalize_name(c);
        // So does the difference of their letter counts (cheap; it prunes most names).
        if 1.0 - bag_distance(&w, &c_low) as f64 / longer < MIN_SIMILARITY {
            continue;
        }
        let score = 1.0 - strsim::osa_distance(&w, &c_low) as f64 / longer;
        if score >= MIN_SIMILARITY && best.is_none_or(|(_, b)| score > b) {
            best = Some((c, score));
        }
    }
    best.map(|(c, _)| c)
}

/// A lower bound of the edit distance: how many letters one string has that the other
/// lacks, counted with multiplicity (non-ASCII characters share one bucket).
fn bag_distance(a: &str, b: &str) -> usize {
    let mut counts = [0i32; 128];
    for ch in a.chars() {
        counts[(ch as usize).min(127)] += 1;
    }
    for ch in b.chars() {
        counts[(ch as usize).min(127)] -= 1;
    }
    let (more, fewer) = counts.iter().fold(
        (0, 0),
        |(m, f), &c| {
            if c > 0 { (m + c, f) } else { (m, f - c) }
        },
    );
    more.max(fewer) as usize
}

/// The card reference closest to `word`: references (`ALT_CORE_B_BR_20_C`) are fields
/// joined by `_`, and a mistyped one differs from the intended one in one field.
pub fn closest_reference<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let w = word.trim().to_ascii_uppercase();
    let fields: Vec<&str> = w.split('_').collect();
    let near = candidates.into_iter().filter(|c| {
        let mut n = 0;
        let mut differ = 0;
        for (i, f) in c.split('_').enumerate() {
            n += 1;
            if fields.get(i) != Some(&f.to_ascii_uppercase().as_str()) {
                differ += 1;
            }
        }
        n == fields.len() && differ <= 1
    });
    closest(word, near)
}

/// `"; did you mean 'X'?"` for the closest candidate, or an empty string.
pub fn did_you_mean<'a, I>(word: &str, candidates: I) -> String
where
    I: IntoIterator<Item = &'a str>,
{
    closest(word, candidates)
        .map(|c| format!("; did you mean '{c}'?"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_differ_in_one_field() {
        let refs = [
            "ALT_CORE_B_BR_20_C",
            "ALT_CORE_B_BR_21_C",
            "ALT_CORE_B_AX_20_C",
        ];
        assert_eq!(
            closest_reference("ALT_CORE_B_BR_20_D", refs),
            Some("ALT_CORE_B_BR_20_C")
        );
        assert_eq!(
            closest_reference("alt_core_b_br_02_c", refs),
            Some("ALT_CORE_B_BR_20_C")
        );
        assert_eq!(closest_reference("ALT_CORE_B_YZ_99_R2", refs), None);
        assert_eq!(bag_distance("atlas", "atlass"), 1);
        assert_eq!(bag_distance("teh", "the"), 0);
    }

    #[test]
    fn suggests_the_closest_spelling_and_nothing_when_far() {
        let names = ["Kojo the Guide", "Booda", "Shard Colossus", "Storm Remnant"];
        assert_eq!(closest("kojo teh guide", names), Some("Kojo the Guide"));
        assert_eq!(closest("Shard Colosus", names), Some("Shard Colossus"));
        assert_eq!(closest("Storm", names), None);
        assert_eq!(closest("", names), None);
        assert_eq!(
            did_you_mean("Booda", ["Boda", "Banana"]),
            "; did you mean 'Boda'?"
        );
        assert_eq!(did_you_mean("zzz", ["Boda"]), "");
    }
}
