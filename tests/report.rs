//! `confluence-sim report`: drives the real binary on a small real run, with the optional
//! tables written by the test, and checks the files, the charts' XML and the numbers the
//! charts carry against the Parquet tables.
//!
//! Set `CONFLUENCE_SIM_KEEP_REPORT=1` to keep the directory of the full report (its path is
//! printed) and look at it in a browser.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use confluence_sim::export::{ColumnData, Table, parquet};
use predicates::prelude::*;
use quick_xml::events::Event;

mod common;
use common::{root, sim};

/// A small real experiment: 1 deck x 1 policy x (1 + 2 + 2 + 2) rare mixes, 300 games each.
fn run_small(dir: &Path) {
    sim()
        .args([
            "run",
            "--games",
            "300",
            "--rares",
            "0..=3",
            "--subsets",
            "2",
            "-q",
            "--out",
        ])
        .arg(dir)
        .assert()
        .success();
}

fn report(dir: &Path) -> assert_cmd::assert::Assert {
    sim().arg("report").arg(dir).assert()
}

/// The summary, by column.
struct Summary {
    config_id: Vec<u32>,
    deck: Vec<String>,
    hero: Vec<String>,
    policy: Vec<String>,
    rare_count: Vec<u32>,
    rare_mix: Vec<String>,
    games: Vec<u64>,
    wins: Vec<u64>,
    win_rate: Vec<f64>,
    hist: Vec<Vec<u64>>,
}

fn summary(dir: &Path) -> Summary {
    let t = parquet::read(&dir.join("summary.parquet")).unwrap();
    let u32s = |n: &str| match t.column(n) {
        Some(ColumnData::U32(v)) => v.clone(),
        other => panic!("{n}: {other:?}"),
    };
    let u64s = |n: &str| match t.column(n) {
        Some(ColumnData::U64(v)) => v.clone(),
        other => panic!("{n}: {other:?}"),
    };
    let strs = |n: &str| match t.column(n) {
        Some(ColumnData::Str(v)) => v.clone(),
        other => panic!("{n}: {other:?}"),
    };
    Summary {
        config_id: u32s("config_id"),
        deck: strs("player_deck"),
        hero: strs("player_hero"),
        policy: strs("policy"),
        rare_count: u32s("rare_count"),
        rare_mix: strs("rare_mix"),
        games: u64s("games"),
        wins: u64s("wins"),
        win_rate: match t.column("win_rate") {
            Some(ColumnData::F64(v)) => v.clone(),
            other => panic!("win_rate: {other:?}"),
        },
        hist: match t.column("day_histogram") {
            Some(ColumnData::ListU64(v)) => v.clone(),
            other => panic!("day_histogram: {other:?}"),
        },
    }
}

fn write_parquet(path: &Path, t: &Table) {
    parquet::write(t, std::fs::File::create(path).unwrap()).unwrap();
}

/// The rares named in the run's mixes, in order of first appearance.
fn rares_of(s: &Summary) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for mix in &s.rare_mix {
        for r in mix.split(';').filter(|r| !r.is_empty()) {
            if !v.iter().any(|x| x == r) {
                v.push(r.to_string());
            }
        }
    }
    v
}

/// The rares.parquet the test writes: made-up effects, one positive, one with a tiny
/// interval, one with a name that needs escaping.
fn write_rares(dir: &Path, s: &Summary) -> Vec<(String, f64, f64, f64)> {
    let mut names = rares_of(s);
    names.push("Quote \"&\" <Test>".to_string());
    let rows: Vec<(String, f64, f64, f64)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let effect = 0.0123 - 0.00731 * i as f64;
            (n.clone(), effect, effect - 0.0152, effect + 0.0149)
        })
        .collect();
    let k = rows.len();
    let mut t = Table::new();
    t.push("schema_version", ColumnData::U32(vec![1; k]))
        .push("player_deck", ColumnData::Str(vec![s.deck[0].clone(); k]))
        .push("policy", ColumnData::Str(vec![s.policy[0].clone(); k]))
        .push(
            "rare",
            ColumnData::Str(rows.iter().map(|r| r.0.clone()).collect()),
        )
        .push(
            "effect",
            ColumnData::F64(rows.iter().map(|r| r.1).collect()),
        )
        .push(
            "effect_lo",
            ColumnData::F64(rows.iter().map(|r| r.2).collect()),
        )
        .push(
            "effect_hi",
            ColumnData::F64(rows.iter().map(|r| r.3).collect()),
        )
        .push("method", ColumnData::Str(vec!["regression".into(); k]))
        .push("configs", ColumnData::U32(vec![7; k]))
        .push("games", ColumnData::U64(vec![2100; k]));
    write_parquet(&dir.join("rares.parquet"), &t);
    rows
}

/// diffs.parquet: each configuration against the all-common one.
fn write_diffs(dir: &Path, s: &Summary) {
    let base = s.rare_count.iter().position(|&r| r == 0).unwrap();
    let n = s.config_id.len();
    let diff: Vec<f64> = (0..n).map(|i| s.win_rate[i] - s.win_rate[base]).collect();
    let se: Vec<f64> = vec![0.01; n];
    let mut t = Table::new();
    t.push("schema_version", ColumnData::U32(vec![1; n]))
        .push("config_id", ColumnData::U32(s.config_id.clone()))
        .push(
            "baseline_config_id",
            ColumnData::U32(vec![s.config_id[base]; n]),
        )
        .push("diff", ColumnData::F64(diff.clone()))
        .push("diff_se", ColumnData::F64(se))
        .push(
            "diff_lo",
            ColumnData::F64(diff.iter().map(|d| d - 0.0196).collect()),
        )
        .push(
            "diff_hi",
            ColumnData::F64(diff.iter().map(|d| d + 0.0196).collect()),
        );
    write_parquet(&dir.join("diffs.parquet"), &t);
}

/// cards.parquet: a few cards of each side for the all-common configuration, one never
/// played (NaN win rate when played).
fn write_cards(dir: &Path, s: &Summary) {
    let base = s.rare_count.iter().position(|&r| r == 0).unwrap();
    let cards = [
        ("confluence", "Gloom Wisp", 4, 0.91, 0.41),
        ("confluence", "Shard Colossus", 2, 0.37, 0.52),
        ("confluence", "Never Seen", 1, 0.0, f64::NAN),
        ("player", "Kojo & Booda", 1, 1.0, 0.47),
        ("player", "Atlas", 3, 0.78, 0.5),
    ];
    let k = cards.len();
    let games = s.games[base];
    let mut t = Table::new();
    t.push("schema_version", ColumnData::U32(vec![1; k]))
        .push("config_id", ColumnData::U32(vec![s.config_id[base]; k]))
        .push(
            "player_deck",
            ColumnData::Str(vec![s.deck[base].clone(); k]),
        )
        .push("policy", ColumnData::Str(vec![s.policy[base].clone(); k]))
        .push("rare_count", ColumnData::U32(vec![0; k]))
        .push("rare_mix", ColumnData::Str(vec![String::new(); k]))
        .push(
            "side",
            ColumnData::Str(cards.iter().map(|c| c.0.to_string()).collect()),
        )
        .push(
            "card",
            ColumnData::Str(cards.iter().map(|c| c.1.to_string()).collect()),
        )
        .push(
            "reference",
            ColumnData::Str(cards.iter().map(|c| format!("REF_{}", c.1)).collect()),
        )
        .push(
            "copies",
            ColumnData::U32(cards.iter().map(|c| c.2).collect()),
        )
        .push("games", ColumnData::U64(vec![games; k]))
        .push(
            "games_played",
            ColumnData::U64(
                cards
                    .iter()
                    .map(|c| (c.3 * games as f64).round() as u64)
                    .collect(),
            ),
        )
        .push(
            "wins_when_played",
            ColumnData::U64(
                cards
                    .iter()
                    .map(|c| {
                        if c.4.is_nan() {
                            0
                        } else {
                            (c.3 * c.4 * games as f64).round() as u64
                        }
                    })
                    .collect(),
            ),
        )
        .push(
            "play_rate",
            ColumnData::F64(cards.iter().map(|c| c.3).collect()),
        )
        .push(
            "win_rate_when_played",
            ColumnData::F64(cards.iter().map(|c| c.4).collect()),
        )
        .push("win_rate_when_not_played", ColumnData::F64(vec![0.4; k]));
    write_parquet(&dir.join("cards.parquet"), &t);
}

fn write_meta(dir: &Path) {
    let meta = serde_json::json!({
        "tool": "confluence-sim",
        "version": "0.1.0",
        "git_commit": "0123456789abcdef",
        "created": "2025-01-02T03:04:05Z",
        "command": "confluence-sim run --games 300 --rares 0..=3 --subsets 2",
        "experiment": null,
        "seed": 1,
        "games": "300",
        "day_cap": 30,
        "confluence_deck": "Reference Confluence",
        "decks": [{"deck": "BR_kojo_booda", "hero": "Kojo & Booda", "cards": 40, "not_exact": 0}]
    });
    std::fs::write(dir.join("meta.json"), meta.to_string()).unwrap();
}

/// Every element of an SVG file with its attributes; panics unless the file is well-formed
/// XML with a single `<svg>` root.
fn svg_elements(path: &Path) -> Vec<(String, HashMap<String, String>)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut reader = quick_xml::Reader::from_str(&text);
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut roots = 0;
    loop {
        let ev = reader
            .read_event()
            .unwrap_or_else(|e| panic!("{} is not well-formed XML: {e}", path.display()));
        let (e, opens) = match ev {
            Event::Start(e) => (e, true),
            Event::Empty(e) => (e, false),
            Event::End(_) => {
                depth -= 1;
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        if depth == 0 {
            roots += 1;
            assert_eq!(e.name().as_ref(), b"svg", "{}: root", path.display());
        }
        let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
        let attrs = e
            .attributes()
            .map(|a| {
                let a = a.unwrap();
                (
                    String::from_utf8(a.key.as_ref().to_vec()).unwrap(),
                    a.decode_and_unescape_value(reader.decoder())
                        .unwrap()
                        .into_owned(),
                )
            })
            .collect();
        out.push((name, attrs));
        if opens {
            depth += 1;
        }
    }
    assert_eq!(depth, 0, "{}: unclosed elements", path.display());
    assert_eq!(roots, 1, "{}: one root element", path.display());
    out
}

fn marks<'a>(
    els: &'a [(String, HashMap<String, String>)],
    attr: &str,
) -> Vec<&'a HashMap<String, String>> {
    els.iter()
        .filter(|(_, a)| a.contains_key(attr))
        .map(|(_, a)| a)
        .collect()
}

fn f(a: &HashMap<String, String>, k: &str) -> f64 {
    a[k].parse()
        .unwrap_or_else(|_| panic!("{k} = {:?} is not a number", a[k]))
}

fn chart_files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir.join("charts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn report_writes_html_markdown_and_charts_that_match_the_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    run_small(dir);
    let s = summary(dir);
    let rares = write_rares(dir, &s);
    write_diffs(dir, &s);
    write_cards(dir, &s);
    write_meta(dir);
    report(dir)
        .success()
        .stderr(predicate::str::contains("report.html"));

    // The files.
    assert_eq!(
        chart_files(dir),
        vec![
            "days_1.svg",
            "deck_comparison.svg",
            "rare_impact_1.svg",
            "win_rate_1.svg"
        ]
    );
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();

    // Self-contained HTML: every chart inline, no URL, no script.
    for file in chart_files(dir) {
        let svg = std::fs::read_to_string(dir.join("charts").join(&file)).unwrap();
        let inline = svg
            .trim_start_matches("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
            .trim_end()
            .replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1);
        assert!(html.contains(&inline), "{file} is inline in report.html");
        assert!(
            md.contains(&format!("](charts/{file})")),
            "report.md links {file}"
        );
    }
    assert_eq!(html.matches("<svg ").count(), 4);
    for bad in ["http://", "https://", "<script", "<link", "src=\""] {
        assert!(!html.contains(bad), "report.html contains {bad}");
    }
    assert!(!md.contains("http://") && !md.contains("https://"));
    // The sections, in order, in both formats.
    let titles = [
        "Key findings",
        "Deck comparison",
        "Win rate against the number of rares",
        "Which rares make it hardest",
        "How long games last",
        "Cards",
        "The run",
    ];
    for text in [&html, &md] {
        let pos: Vec<usize> = titles
            .iter()
            .map(|t| text.find(t).unwrap_or_else(|| panic!("{t} missing")))
            .collect();
        assert!(pos.windows(2).all(|w| w[0] < w[1]), "{pos:?}");
        assert!(text.contains("0123456789abcdef"), "git commit shown");
        assert!(text.contains("Gloom Wisp") && text.contains("Atlas"));
    }
    assert!(html.contains("Quote &quot;&amp;&quot; &lt;Test&gt;"));

    // Win-rate chart: the pooled points are sum(wins) / sum(games) per rare count.
    let els = svg_elements(&dir.join("charts/win_rate_1.svg"));
    let points = marks(&els, "data-series");
    let mut pooled: BTreeMap<(String, u32), (u64, u64)> = BTreeMap::new();
    for i in 0..s.config_id.len() {
        // The deck is named by its hero.
        let e = pooled
            .entry((format!("{} · {}", s.hero[i], s.policy[i]), s.rare_count[i]))
            .or_default();
        e.0 += s.wins[i];
        e.1 += s.games[i];
    }
    let pooled_marks: Vec<_> = points
        .iter()
        .filter(|a| a["data-kind"] == "pooled")
        .collect();
    assert_eq!(pooled_marks.len(), pooled.len());
    for a in &pooled_marks {
        let key = (
            a["data-series"].clone(),
            a["data-x"].parse::<u32>().unwrap(),
        );
        let (w, g) = pooled[&key];
        let want = w as f64 / g as f64;
        assert!((f(a, "data-y") - want).abs() < 1e-9, "{key:?}");
        let ci = confluence_sim::stats::wilson(w, g, 0.95);
        assert!((f(a, "data-lo") - ci.lo).abs() < 1e-9, "{key:?}");
        assert!((f(a, "data-hi") - ci.hi).abs() < 1e-9, "{key:?}");
    }
    // The target line is drawn where the target is.
    let target: Vec<_> = els
        .iter()
        .filter(|(_, a)| a.get("data-kind").is_some_and(|k| k == "target"))
        .collect();
    assert_eq!(target.len(), 1);
    assert_eq!(target[0].1["data-y"], "0.5");
    // The deck comparison: a filled dot with the fewest rares and a hollow one with the
    // most, each the pooled rate of the summary.
    let els_c = svg_elements(&dir.join("charts/deck_comparison.svg"));
    let dots_c: Vec<_> = marks(&els_c, "data-series");
    assert_eq!(dots_c.len(), 2);
    for a in &dots_c {
        let key = (
            a["data-series"].clone(),
            a["data-x"].parse::<u32>().unwrap(),
        );
        assert_eq!(
            key.1,
            if a["data-kind"] == "fewest" { 0 } else { 3 },
            "{a:?}"
        );
        let (w, g) = pooled[&key];
        assert!(
            (f(a, "data-y") - w as f64 / g as f64).abs() < 1e-12,
            "{key:?}"
        );
    }
    // ... and one dot per configuration with its own win rate.
    let dots: Vec<_> = points
        .iter()
        .filter(|a| a["data-kind"] == "config")
        .collect();
    assert_eq!(dots.len(), s.config_id.len());
    for a in dots {
        let id: u32 = a["data-config"].parse().unwrap();
        let i = s.config_id.iter().position(|&c| c == id).unwrap();
        assert_eq!(a["data-x"], s.rare_count[i].to_string());
        assert!((f(a, "data-y") - s.win_rate[i]).abs() < 1e-12);
    }

    // Day histogram: every bar's count is the summed day_histogram of its configurations,
    // and it shows the all-common configuration and the highest-rare ones.
    let els = svg_elements(&dir.join("charts/days_1.svg"));
    let bars = marks(&els, "data-count");
    assert!(!bars.is_empty());
    let mut configs_shown: Vec<u32> = Vec::new();
    let mut total: BTreeMap<String, u64> = BTreeMap::new();
    for a in &bars {
        let day: usize = a["data-day"].parse().unwrap();
        let ids: Vec<u32> = a["data-config"]
            .split(',')
            .map(|x| x.parse().unwrap())
            .collect();
        let want: u64 = ids
            .iter()
            .map(|id| {
                let i = s.config_id.iter().position(|c| c == id).unwrap();
                s.hist[i].get(day - 1).copied().unwrap_or(0)
            })
            .sum();
        assert_eq!(a["data-count"].parse::<u64>().unwrap(), want, "{a:?}");
        *total.entry(a["data-series"].clone()).or_default() += want;
        for id in ids {
            if !configs_shown.contains(&id) {
                configs_shown.push(id);
            }
        }
    }
    configs_shown.sort();
    let mut expected: Vec<u32> = (0..s.config_id.len())
        .filter(|&i| s.rare_count[i] == 0 || s.rare_count[i] == 3)
        .map(|i| s.config_id[i])
        .collect();
    expected.sort();
    assert_eq!(configs_shown, expected);
    // The days shown hold every game: nothing is cut off.
    for (series, n) in &total {
        assert_eq!(*n, 300, "{series}");
    }

    // Rare effects: one bar per rare, with the numbers of rares.parquet, sorted from the
    // most negative.
    let els = svg_elements(&dir.join("charts/rare_impact_1.svg"));
    let bars = marks(&els, "data-value");
    assert_eq!(bars.len(), rares.len());
    let values: Vec<f64> = bars.iter().map(|a| f(a, "data-value")).collect();
    assert!(values.windows(2).all(|w| w[0] <= w[1]), "{values:?}");
    for a in bars {
        let r = rares.iter().find(|r| r.0 == a["data-label"]).unwrap();
        assert_eq!(
            (f(a, "data-value"), f(a, "data-lo"), f(a, "data-hi")),
            (r.1, r.2, r.3)
        );
    }

    // Paired difference in the comparison table (mean of the two 3-rare configurations).
    let i3: Vec<usize> = (0..s.config_id.len())
        .filter(|&i| s.rare_count[i] == 3)
        .collect();
    let base = s.rare_count.iter().position(|&r| r == 0).unwrap();
    let mean = i3
        .iter()
        .map(|&i| s.win_rate[i] - s.win_rate[base])
        .sum::<f64>()
        / i3.len() as f64;
    let shown = format!("{:+.1}\u{a0}pp", mean * 100.0).replace('-', "−");
    assert!(
        html.contains(&shown),
        "paired difference {shown} in report.html"
    );
    assert!(
        md.contains(&shown),
        "paired difference {shown} in report.md"
    );

    if std::env::var_os("CONFLUENCE_SIM_KEEP_REPORT").is_some() {
        let kept = tmp.keep();
        eprintln!("report kept in {}", kept.display());
    }
}

/// The tables `run` itself writes (not made-up ones) end up in the charts as they are.
#[test]
fn report_draws_the_tables_run_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // A full sweep, so that the regression identifies every rare.
    sim()
        .args([
            "run",
            "--games",
            "200",
            "--rares",
            "0..=15",
            "--subsets",
            "2",
            "-q",
            "--out",
        ])
        .arg(dir)
        .assert()
        .success();
    report(dir).success();
    let rares = parquet::read(&dir.join("rares.parquet")).unwrap();
    let col_s = |n: &str| match rares.column(n) {
        Some(ColumnData::Str(v)) => v.clone(),
        _ => panic!("rares.parquet: {n}"),
    };
    let col_f = |n: &str| match rares.column(n) {
        Some(ColumnData::F64(v)) => v.clone(),
        _ => panic!("rares.parquet: {n}"),
    };
    let (names, eff, lo, hi) = (
        col_s("rare"),
        col_f("effect"),
        col_f("effect_lo"),
        col_f("effect_hi"),
    );
    assert!(!names.is_empty());
    let els = svg_elements(&dir.join("charts/rare_impact_1.svg"));
    let bars = marks(&els, "data-value");
    assert_eq!(bars.len(), names.len());
    for a in bars {
        let i = names.iter().position(|n| *n == a["data-label"]).unwrap();
        assert_eq!(
            (f(a, "data-value"), f(a, "data-lo"), f(a, "data-hi")),
            (eff[i], lo[i], hi[i])
        );
    }
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(!md.contains("This section needs"), "every table is there");

    // The target section lists first the configuration closest to the target.
    sim()
        .args(["report", "--target", "0.4"])
        .arg(dir)
        .assert()
        .success();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let start = md
        .find("## Which mixes give 40.0%")
        .expect("target section");
    let section = &md[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let s = summary(dir);
    let best = (0..s.win_rate.len())
        .min_by(|&a, &b| {
            (s.win_rate[a] - 0.4)
                .abs()
                .total_cmp(&(s.win_rate[b] - 0.4).abs())
                .then(s.config_id[a].cmp(&s.config_id[b]))
        })
        .unwrap();
    // The unfolded table names the closest mix in full (HTML folds a long one under its
    // count and a few names); the folded one lists the three closest with their config ids.
    let first_row = section
        .lines()
        .find(|l| l.starts_with("| Kojo & Booda"))
        .expect("a row named by the deck's hero");
    let rate = format!("{:.1}%", s.win_rate[best] * 100.0);
    assert!(first_row.contains(&rate), "{first_row} lacks {rate}");
    let short = if s.rare_mix[best].is_empty() {
        "all commons".to_string()
    } else {
        let k = s.rare_mix[best].split(';').count();
        format!("{k} rare")
    };
    assert!(first_row.contains(&short), "{first_row} lacks {short}");
    for rare in s.rare_mix[best].split(';').filter(|r| !r.is_empty()) {
        assert!(first_row.contains(rare), "{first_row} lacks {rare}");
    }
    let folded = section
        .lines()
        .filter(|l| l.starts_with("| Kojo & Booda"))
        .nth(1)
        .expect("the folded table");
    assert!(
        folded.contains(&format!("| {} |", s.config_id[best])),
        "{folded}"
    );
    sim()
        .args(["report", "--target", "1.5"])
        .arg(dir)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'1.5' for '--target"));
}

#[test]
fn report_without_optional_tables_says_what_each_section_needs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    run_small(dir);
    // Only the summary, as from an older version or a copied file.
    for f in [
        "rares.parquet",
        "cards.parquet",
        "diffs.parquet",
        "meta.json",
    ] {
        std::fs::remove_file(dir.join(f)).unwrap();
    }
    // A chart of an earlier report that this one no longer draws is removed; a file of
    // the user's is not.
    std::fs::create_dir_all(dir.join("charts")).unwrap();
    std::fs::write(dir.join("charts/rare_impact_4.svg"), "<svg/>").unwrap();
    std::fs::write(dir.join("charts/mine.svg"), "<svg/>").unwrap();
    report(dir).success();
    assert_eq!(
        chart_files(dir),
        vec![
            "days_1.svg",
            "deck_comparison.svg",
            "mine.svg",
            "win_rate_1.svg"
        ]
    );
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    for text in [&html, &md] {
        assert!(text.contains("This section needs a sweep"));
        assert!(text.contains("rares.parquet"));
        assert!(text.contains("cards.parquet"));
        assert!(text.contains("diffs.parquet"));
    }
    for file in ["days_1.svg", "deck_comparison.svg", "win_rate_1.svg"] {
        svg_elements(&dir.join("charts").join(file));
    }
}

#[test]
fn report_fails_clearly_without_a_summary_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    report(tmp.path())
        .code(1)
        .stderr(predicate::str::contains("summary.parquet not found"))
        .stderr(predicate::str::contains("run `confluence-sim run --out"));
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn report_fails_clearly_on_an_unreadable_summary_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("summary.parquet"), "not parquet").unwrap();
    report(tmp.path())
        .code(1)
        .stderr(predicate::str::contains("cannot read"))
        .stderr(predicate::str::contains("summary.parquet"))
        .stderr(predicate::str::contains("confluence-sim run --out"));
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
}

#[test]
fn report_rejects_a_summary_without_its_columns() {
    let tmp = tempfile::tempdir().unwrap();
    let mut t = Table::new();
    t.push("schema_version", ColumnData::U32(vec![2]))
        .push("config_id", ColumnData::U32(vec![0]));
    write_parquet(&tmp.path().join("summary.parquet"), &t);
    report(tmp.path()).code(1).stderr(predicate::str::contains(
        "summary.parquet: no column `player_deck`",
    ));
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
}

#[test]
fn report_needs_a_directory() {
    sim().arg("report").assert().code(2);
}

#[test]
fn report_module_depends_on_export_and_stats_only() {
    // The module and its submodules (matchup/, booster_war/).
    let mut files = Vec::new();
    let mut dirs = vec![root().join("src/report")];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 12, "{files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        for m in [
            "app", "sim", "engine", "policy", "deck", "cards", "scenario",
        ] {
            assert!(
                !text.contains(&format!("crate::{m}")),
                "{} uses crate::{m}",
                path.display()
            );
        }
    }
}

#[test]
fn diffs_name_their_baseline_when_the_run_has_no_all_common_configuration() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    sim()
        .args([
            "run",
            "--games",
            "200",
            "--rares",
            "2",
            "--rares",
            "3",
            "--subsets",
            "1",
            "-q",
            "--out",
        ])
        .arg(dir)
        .assert()
        .success();
    let s = summary(dir);
    assert!(s.rare_count.iter().all(|&r| r > 0), "no all-common mix");
    let diffs = parquet::read(&dir.join("diffs.parquet")).unwrap();
    let (base, count, mix) = match (
        diffs.column("baseline_config_id"),
        diffs.column("baseline_rare_count"),
        diffs.column("baseline_rare_mix"),
    ) {
        (Some(ColumnData::U32(b)), Some(ColumnData::U32(c)), Some(ColumnData::Str(m))) => {
            (b.clone(), c.clone(), m.clone())
        }
        other => panic!("diffs.parquet: {other:?}"),
    };
    assert!(!base.is_empty());
    for i in 0..base.len() {
        let b = s.config_id.iter().position(|&c| c == base[i]).unwrap();
        assert_eq!(count[i], s.rare_count[b]);
        assert_eq!(count[i], 2, "the group's first configuration, with 2 rares");
        assert_eq!(mix[i], s.rare_mix[b]);
    }
    report(dir).success();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        md.contains("no all-common configuration"),
        "the report says so"
    );
    assert!(!md.contains("all-common baseline"));

    // A run with an all-common configuration names it.
    let tmp2 = tempfile::tempdir().unwrap();
    run_small(tmp2.path());
    let diffs = parquet::read(&tmp2.path().join("diffs.parquet")).unwrap();
    match diffs.column("baseline_rare_count") {
        Some(ColumnData::U32(c)) => assert!(c.iter().all(|&x| x == 0)),
        other => panic!("{other:?}"),
    }
}

/// The findings come first and answer in sentences with the run's own numbers.
#[test]
fn key_findings_come_first_with_numbers_and_caveats() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    run_small(dir);
    report(dir).success();
    let s = summary(dir);
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let first = md.find("\n## ").unwrap();
    assert_eq!(&md[first + 4..first + 16], "Key findings");
    let base = s.rare_count.iter().position(|&r| r == 0).unwrap();
    let ci = confluence_sim::stats::wilson(s.wins[base], s.games[base], 0.95);
    let want = format!(
        "Kojo & Booda wins {:.1}% [{:.1}%,\u{a0}{:.1}%] against all commons",
        ci.estimate * 100.0,
        ci.lo * 100.0,
        ci.hi * 100.0
    );
    assert!(md.contains(&want), "{want}");
    assert!(md.contains("Closest to 50.0%"));
    assert!(md.contains("one player policy in this run"));
    assert!(md.contains("What limits these figures"));
    assert!(md.contains("every card of the deck is fully encoded"));
    // The long table is folded.
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let folded = html.find("<summary>The numbers behind the panels").unwrap();
    let table = html[folded..].find("<table>").unwrap() + folded;
    assert!(html[folded..table].find("</details>").is_none());
}

/// Rough height in CSS pixels of what `report.html` shows at 1,400 px with every
/// `<details>` closed: text lines, table rows and charts (scaled to their column), from
/// the markup alone. Checked against headless Chromium when the example was regenerated
/// (docs/outputs.md, "The report").
fn unfolded_height(html: &str) -> f64 {
    // Drop the folded content, keep its summary line. A fold may hold folded rare mixes
    // (<details class="mix">): skip to the fold's own end.
    let mut shown = String::new();
    let mut rest = html;
    while let Some(a) = rest.find("<details>") {
        shown.push_str(&rest[..a]);
        let (mut depth, mut at) = (0usize, a);
        let b = loop {
            let open = rest[at + 1..].find("<details").map(|i| i + at + 1);
            let close = rest[at + 1..].find("</details>").expect("closed details") + at + 1;
            match open {
                Some(o) if o < close => {
                    depth += 1;
                    at = o;
                }
                _ if depth > 0 => {
                    depth -= 1;
                    at = close;
                }
                _ => break close,
            }
        };
        shown.push_str("<p>(folded)</p>");
        rest = &rest[b + "</details>".len()..];
    }
    shown.push_str(rest);
    let body = &shown[shown.find("<body>").unwrap()..];
    let count = |pat: &str| body.matches(pat).count() as f64;
    let mut px = count("<tr>") * 34.0 + count("<p") * 48.0 + count("<li>") * 72.0;
    px += count("<h2>") * 80.0 + count("<h3>") * 50.0 + count("<h4>") * 40.0;
    // Charts: the column they sit in (a panel is a third of the width, a grid cell half),
    // their height scaled to it.
    let width = 1240.0;
    let mut at = 0;
    while let Some(i) = body[at..].find("<svg ") {
        let start = at + i;
        let tag = &body[start..start + body[start..].find('>').unwrap()];
        let attr = |name: &str| -> f64 {
            let k = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            tag[k..k + tag[k..].find('"').unwrap()].parse().unwrap()
        };
        let (w, h) = (attr("width"), attr("height"));
        let before = &body[start.saturating_sub(300)..start];
        let (col, per_row) = if before.contains("class=\"panel\"") {
            (width / 3.0 - 12.0, 3.0)
        } else if before.contains("class=\"cell\"") {
            (width / 2.0 - 14.0, 2.0)
        } else {
            (width, 1.0)
        };
        px += h * (col / w).min(1.0) / per_row;
        at = start + 5;
    }
    px
}

/// The committed example (`reports/starter-decks`, regenerated by the two commands of the
/// README's quick start): its files exist, every SVG parses, the charted numbers equal its
/// tables, its Parquet holds nulls rather than NaN, and what a reader sees without opening a
/// fold is short.
#[test]
fn committed_example_is_complete_consistent_and_short() {
    let dir = root().join("reports/starter-decks");
    for f in [
        "report.html",
        "report.md",
        "summary.parquet",
        "cards.parquet",
        "rares.parquet",
        "diffs.parquet",
        "meta.json",
    ] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let s = summary(&dir);
    let mut pooled: BTreeMap<(String, u32), (u64, u64)> = BTreeMap::new();
    for i in 0..s.config_id.len() {
        let e = pooled
            .entry((format!("{} · {}", s.hero[i], s.policy[i]), s.rare_count[i]))
            .or_default();
        e.0 += s.wins[i];
        e.1 += s.games[i];
    }
    let hero_of: HashMap<String, String> =
        s.deck.iter().cloned().zip(s.hero.iter().cloned()).collect();
    let rares = parquet::read(&dir.join("rares.parquet")).unwrap();
    let rs = |n: &str| match rares.column(n) {
        Some(ColumnData::Str(v)) => v.clone(),
        other => panic!("{n}: {other:?}"),
    };
    let rf = |n: &str| match rares.column(n) {
        Some(ColumnData::F64(v)) => v.clone(),
        other => panic!("{n}: {other:?}"),
    };
    let (r_deck, r_pol, r_rare, r_eff, r_lo, r_hi) = (
        rs("player_deck"),
        rs("policy"),
        rs("rare"),
        rf("effect"),
        rf("effect_lo"),
        rf("effect_hi"),
    );
    let files = chart_files(&dir);
    let decks: Vec<&String> = hero_of.keys().collect();
    assert!(files.contains(&"deck_comparison.svg".to_string()));
    assert_eq!(
        files.iter().filter(|f| f.starts_with("win_rate_")).count(),
        decks.len(),
        "one win-rate panel per deck"
    );
    let (mut checked_points, mut checked_bars) = (0, 0);
    for file in &files {
        let path = dir.join("charts").join(file);
        let els = svg_elements(&path);
        assert!(
            md.contains(&format!("](charts/{file})")),
            "report.md links {file}"
        );
        let inline = std::fs::read_to_string(&path)
            .unwrap()
            .trim_start_matches("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
            .trim_end()
            .replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1);
        assert!(html.contains(&inline), "{file} is inline in report.html");
        if file.starts_with("win_rate_") || file == "deck_comparison.svg" {
            for a in marks(&els, "data-series") {
                let key = (
                    a["data-series"].clone(),
                    a["data-x"].parse::<u32>().unwrap(),
                );
                if a["data-kind"] == "config" {
                    let id: u32 = a["data-config"].parse().unwrap();
                    let i = s.config_id.iter().position(|&c| c == id).unwrap();
                    assert_eq!(f(a, "data-y"), s.win_rate[i], "{file} config {id}");
                } else {
                    let (w, g) = pooled[&key];
                    let ci = confluence_sim::stats::wilson(w, g, 0.95);
                    assert!((f(a, "data-y") - w as f64 / g as f64).abs() < 1e-12);
                    assert!((f(a, "data-lo") - ci.lo).abs() < 1e-12, "{file} {key:?}");
                    assert!((f(a, "data-hi") - ci.hi).abs() < 1e-12, "{file} {key:?}");
                }
                checked_points += 1;
            }
        } else if file.starts_with("rare_impact_") {
            // The chart's series, from its title: "Effect of each rare: HERO · POLICY".
            let label = &els[0].1["aria-label"];
            let series = &label[label.find(": ").unwrap() + 2..];
            let (hero, policy) = series.split_once(" · ").unwrap();
            for a in marks(&els, "data-value") {
                let i = (0..r_rare.len())
                    .find(|&i| {
                        hero_of[&r_deck[i]] == hero
                            && r_pol[i] == policy
                            && r_rare[i] == a["data-label"]
                    })
                    .unwrap_or_else(|| panic!("{file}: {a:?}"));
                assert_eq!(
                    (f(a, "data-value"), f(a, "data-lo"), f(a, "data-hi")),
                    (r_eff[i], r_lo[i], r_hi[i])
                );
                checked_bars += 1;
            }
        }
    }
    assert_eq!(checked_bars, r_rare.len(), "every rare effect is charted");
    assert!(checked_points > s.config_id.len());

    // Missing values are Parquet nulls, not NaN (DuckDB's avg() and polars' mean() skip
    // nulls but return NaN over a NaN).
    use polars_core::prelude::*;
    use polars_io::prelude::*;
    let df = ParquetReader::new(std::fs::File::open(dir.join("cards.parquet")).unwrap())
        .finish()
        .unwrap();
    for name in [
        "win_rate_when_played",
        "win_rate_when_not_played",
        "play_rate",
    ] {
        let col = df.column(name).unwrap().f64().unwrap();
        assert!(
            col.iter().flatten().all(|x| !x.is_nan()),
            "{name} holds NaN"
        );
        assert!(col.mean().is_some_and(|m| m.is_finite()), "{name}");
    }
    let never = df
        .column("games_played")
        .unwrap()
        .u64()
        .unwrap()
        .iter()
        .filter(|x| *x == Some(0))
        .count();
    assert_eq!(
        df.column("win_rate_when_played").unwrap().null_count(),
        never,
        "null exactly where no game played the card"
    );

    // Short: about 15 screens (1,400 x 900) at most with every fold closed.
    let px = unfolded_height(&html);
    assert!(px < 15.0 * 900.0, "unfolded part about {px:.0} px");
    // The long tables are folded, the key findings come first.
    assert!(html.matches("<details>").count() >= 20);
    let h2: Vec<usize> = [
        "Key findings",
        "Deck comparison",
        "Which rares make it hardest",
    ]
    .iter()
    .map(|t| html.find(&format!("{t}</h2>")).unwrap())
    .collect();
    assert!(h2.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn unfolded_height_counts_what_is_shown_only() {
    // A fold holding a folded mix is dropped whole.
    let nested = "<body><details><summary>s</summary><table><tr><td><details class=\"mix\"><summary>m</summary>full</details></td></tr><tr></tr></table></details></body>";
    assert_eq!(unfolded_height(nested), 48.0);
    let page = |inner: &str| format!("<html><body>{inner}</body></html>");
    let one_row = unfolded_height(&page("<table><tr><td>1</td></tr></table>"));
    let folded = unfolded_height(&page(
        "<details><summary>s</summary><table><tr><td>1</td></tr><tr><td>2</td></tr></table></details>",
    ));
    assert_eq!(one_row, 34.0);
    assert_eq!(
        folded, 48.0,
        "a folded table counts as its one summary line"
    );
    let chart = unfolded_height(&page("<svg width=\"2480\" height=\"1000\"></svg>"));
    assert_eq!(chart, 500.0, "scaled to the column");
}

/// Which table cells the stylesheet keeps on one line at a wide window (rules outside
/// `@media` blocks): `(td, th, td.num, th.num)`.
fn nowrap_cells(css: &str) -> (bool, bool, bool, bool) {
    // Drop the @media blocks (one level of nested braces).
    let mut flat = String::new();
    let mut rest = css;
    while let Some(at) = rest.find("@media") {
        flat.push_str(&rest[..at]);
        let open = at + rest[at..].find('{').unwrap();
        let mut depth = 0;
        let mut end = open;
        for (i, c) in rest[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &rest[end..];
    }
    flat.push_str(rest);
    let mut out = (false, false, false, false);
    for rule in flat.split('}') {
        let Some((sel, decl)) = rule.split_once('{') else {
            continue;
        };
        if !decl.replace(' ', "").contains("white-space:nowrap") {
            continue;
        }
        for s in sel.split(',').map(|s| {
            // Strip comments before the selector.
            let s = s.trim();
            s.rsplit("*/").next().unwrap_or(s).trim()
        }) {
            match s {
                "td" => out.0 = true,
                "th" => out.1 = true,
                "td.num" => out.2 = true,
                "th.num" => out.3 = true,
                _ => {}
            }
        }
    }
    out
}

/// The narrowest the deck comparison table can be laid out, in CSS pixels: per column, the
/// widest piece of text that cannot wrap (a whole cell when the stylesheet keeps it on one
/// line, else its longest run between plain spaces; no-break spaces hold), at 8.2 px a
/// character (0.92 rem of 16 px, digits and capitals), plus 20 px of padding.
fn narrowest_table_width(html: &str, table: &str) -> f64 {
    let css = &html[html.find("<style>").unwrap()..html.find("</style>").unwrap()];
    let (td, th, td_num, th_num) = nowrap_cells(css);
    let strip = |s: &str| {
        let mut out = String::new();
        let mut tag = false;
        for c in s.chars() {
            match c {
                '<' => tag = true,
                '>' => tag = false,
                c if !tag => out.push(c),
                _ => {}
            }
        }
        out.replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
    };
    let mut widths: Vec<f64> = Vec::new();
    for row in table.split("<tr>").skip(1) {
        let mut col = 0;
        let mut rest = row;
        while let Some(open) = rest.find("<t") {
            let tag_end = open + rest[open..].find('>').unwrap();
            let tag = &rest[open..tag_end];
            if !(tag.starts_with("<td") || tag.starts_with("<th")) {
                rest = &rest[tag_end..];
                continue;
            }
            let is_th = tag.starts_with("<th");
            let num = tag.contains("class=\"num\"");
            let close = if is_th { "</th>" } else { "</td>" };
            let end = tag_end + rest[tag_end..].find(close).unwrap();
            let text = strip(&rest[tag_end + 1..end]);
            let nowrap = if is_th {
                th || (num && th_num)
            } else {
                td || (num && td_num)
            };
            let chars = if nowrap {
                text.chars().count()
            } else {
                text.split(' ')
                    .map(|w| w.chars().count())
                    .max()
                    .unwrap_or(0)
            };
            let w = chars as f64 * 8.2 + 20.0;
            if widths.len() <= col {
                widths.push(0.0);
            }
            widths[col] = widths[col].max(w);
            col += 1;
            rest = &rest[end..];
        }
    }
    widths.iter().sum()
}

#[test]
fn the_deck_comparison_table_fits_a_laptop_screen() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // Three policies, all commons and all rares: 1 + 3 x 2 + 2 columns.
    sim()
        .args([
            "run", "--policy", "random", "--policy", "greedy", "--policy", "planner", "--rares",
            "0", "--rares", "15", "--games", "100", "-q", "--out",
        ])
        .arg(dir)
        .assert()
        .success();
    report(dir).success();
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let section = &html[html.find("<section id=\"decks\"").unwrap()..];
    let section = &section[..section.find("</section>").unwrap()];
    // The page's text column at 1,400 px: main is at most 1,320 px, less 2 x 40 px padding.
    for (k, table) in section.split("<table>").skip(1).enumerate() {
        let table = &table[..table.find("</table>").unwrap()];
        let head = table.split("</tr>").next().unwrap();
        let cols = head.matches("<th>").count() + head.matches("<th class").count();
        let w = narrowest_table_width(&html, table);
        assert!(
            w <= 1240.0,
            "table {k} of the deck comparison ({cols} columns) needs at least {w:.0} px"
        );
        if k == 0 {
            assert_eq!(cols, 9);
        }
    }
}
