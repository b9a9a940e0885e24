//! Step 3's vocabulary: the report as a [`Document`] of sections, headings, paragraphs,
//! tables and figures, which [`super::html`] and [`super::markdown`] render; and the number
//! formats every part of the report shares.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use serde::Serialize;

/// A rate in [0, 1] as a percentage with one decimal: `0.443` -> `44.3%`.
pub fn pct(x: f64) -> String {
    if x.is_finite() {
        format!("{:.1}%", x * 100.0)
    } else {
        "—".into()
    }
}

/// An interval of rates: `[43.3%, 45.3%]`.
pub fn pct_interval(lo: f64, hi: f64) -> String {
    format!("[{},\u{a0}{}]", pct(lo), pct(hi))
}

/// A rate and its interval: `52.3% [50.5%, 54.1%]`.
pub fn rate_ci(i: &crate::stats::Interval) -> String {
    format!("{} {}", pct(i.estimate), pct_interval(i.lo, i.hi))
}

/// A signed number with one decimal and a true minus sign.
pub fn signed(x: f64) -> String {
    let s = format!("{:+.1}", x);
    if s == "-0.0" || s == "+0.0" {
        "0.0".into()
    } else {
        s.replace('-', "−")
    }
}

/// A difference of rates in percentage points: `-0.012` -> `−1.2 pp`.
pub fn pp(x: f64) -> String {
    if x.is_finite() {
        format!("{}\u{a0}pp", signed(x * 100.0))
    } else {
        "—".into()
    }
}

/// An interval of differences in percentage points: `[−2.0, −0.4]`; a null interval (the
/// games showed no variation: diffs.csv) as n/a with that reason, never as `[0.0, 0.0]`.
pub fn pct_interval_pp(lo: f64, hi: f64) -> String {
    if lo.is_nan() && hi.is_nan() {
        return "(interval n/a: no variation in the games)".into();
    }
    let f = |x: f64| {
        if x.is_finite() {
            signed(x * 100.0)
        } else {
            "—".into()
        }
    };
    format!("[{},\u{a0}{}]", f(lo), f(hi))
}

/// Thousands separators: `422576` -> `422,576`.
/// The closing facts of a report's "run" section: version, commit, creation time, command
/// (when `meta.json` recorded them) and the directory read. Returns the blocks of the section
/// with `facts` first and, without `meta.json`, a note saying `what` is not recorded.
pub fn run_blocks(
    mut facts: Vec<(String, Rich)>,
    meta: Option<&super::inputs::RunMeta>,
    dir: &std::path::Path,
    what: &str,
) -> Vec<Block> {
    let or_unknown =
        |v: Option<&String>| Rich::text(v.cloned().unwrap_or_else(|| "not recorded".into()));
    facts.extend([
        (
            "confluence-sim".to_string(),
            or_unknown(meta.and_then(|m| m.version.as_ref())),
        ),
        (
            "Commit".to_string(),
            or_unknown(meta.and_then(|m| m.git_commit.as_ref())),
        ),
        (
            "Created".to_string(),
            or_unknown(meta.and_then(|m| m.created.as_ref())),
        ),
    ]);
    if let Some(c) = meta.and_then(|m| m.command.clone()) {
        facts.push(("Command".to_string(), Rich::default().code(c)));
    }
    facts.push((
        "Directory".to_string(),
        Rich::default().code(dir.display().to_string()),
    ));
    let mut blocks = vec![Block::Facts(facts)];
    if meta.is_none() {
        blocks.push(Block::Note(Rich::text(format!(
            "meta.json is absent: {what} are not recorded."
        ))));
    }
    blocks
}

pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

pub(crate) fn share(n: u64, of: u64) -> String {
    if of == 0 {
        "—".into()
    } else {
        pct(n as f64 / of as f64)
    }
}

pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub(crate) fn join_and(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// A run of text in a paragraph or table cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Inline {
    Text(String),
    Code(String),
    Strong(String),
    /// A rare mix too long for one line: `short` (`6 rares: A, B +4`) folds `full`
    /// (`6 rares: A, B, C, D, E, F`), which a reader opens in HTML; Markdown shows `full`.
    Mix {
        short: String,
        full: String,
    },
}

/// Text made of inline runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Rich(pub Vec<Inline>);

impl Rich {
    pub fn text(s: impl Into<String>) -> Rich {
        Rich(vec![Inline::Text(s.into())])
    }

    pub(crate) fn t(mut self, s: impl Into<String>) -> Rich {
        self.0.push(Inline::Text(s.into()));
        self
    }

    pub(crate) fn code(mut self, s: impl Into<String>) -> Rich {
        self.0.push(Inline::Code(s.into()));
        self
    }

    pub(crate) fn strong(mut self, s: impl Into<String>) -> Rich {
        self.0.push(Inline::Strong(s.into()));
        self
    }

    /// A rare mix: `short` folding `full`, or plain text when they are the same.
    pub(crate) fn mix(mut self, short: String, full: String) -> Rich {
        self.0.push(if short == full {
            Inline::Text(short)
        } else {
            Inline::Mix { short, full }
        });
        self
    }

    /// The text without markup (a folded mix in full).
    pub fn plain(&self) -> String {
        self.0
            .iter()
            .map(|i| match i {
                Inline::Text(s) | Inline::Code(s) | Inline::Strong(s) => s.as_str(),
                Inline::Mix { full, .. } => full.as_str(),
            })
            .collect()
    }
}

/// A table: a header row and body rows; `numeric[i]` right-aligns column i.
#[derive(Clone, Debug, Serialize)]
pub struct DocTable {
    pub header: Vec<String>,
    pub numeric: Vec<bool>,
    pub rows: Vec<Vec<Rich>>,
}

/// A chart: its file name under `charts/`, a title, and the SVG drawn for inlining in HTML
/// (without the XML namespace declaration, which HTML does not need).
#[derive(Clone, Debug, Serialize)]
pub struct Chart {
    pub file: String,
    pub title: String,
    pub svg: String,
}

impl Chart {
    /// The SVG as a standalone file: XML declaration and namespace added.
    pub fn standalone(&self) -> String {
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}\n",
            self.svg
                .replacen("<svg ", "<svg xmlns=\"http://www.w3.org/2000/svg\" ", 1)
        )
    }
}

/// One block of the document.
#[derive(Clone, Debug, Serialize)]
pub enum Block {
    /// A level-3 (`level` = 3) or level-4 heading.
    Heading {
        level: u8,
        text: String,
    },
    Paragraph(Rich),
    /// A paragraph set apart as a note (an absent input, a caveat).
    Note(Rich),
    /// Label/value pairs.
    Facts(Vec<(String, Rich)>),
    Table(DocTable),
    Figure {
        chart: Chart,
        caption: Rich,
    },
    /// A bulleted list.
    List(Vec<Rich>),
    /// Small multiples: several charts side by side (wrapping on narrow screens) under one
    /// caption.
    Panels {
        charts: Vec<Chart>,
        caption: Rich,
    },
    /// Cells laid out in two columns on wide screens, one on narrow ones; each cell is a
    /// list of blocks.
    Grid(Vec<Vec<Block>>),
    /// Blocks folded under a one-line summary (HTML `<details>`, no script), for the long
    /// tables a reader opens when they need the numbers behind a chart.
    Details {
        summary: String,
        blocks: Vec<Block>,
    },
}

impl Block {
    /// The charts of this block and of the blocks inside it, in order.
    pub fn charts(&self) -> Vec<&Chart> {
        match self {
            Block::Figure { chart, .. } => vec![chart],
            Block::Panels { charts, .. } => charts.iter().collect(),
            Block::Grid(cells) => cells.iter().flatten().flat_map(Block::charts).collect(),
            Block::Details { blocks, .. } => blocks.iter().flat_map(Block::charts).collect(),
            _ => Vec::new(),
        }
    }
}

/// A top-level section (`<h2>`).
#[derive(Clone, Debug, Serialize)]
pub struct Section {
    pub id: String,
    pub title: String,
    pub blocks: Vec<Block>,
}

/// The whole report, ready to render as HTML or Markdown.
#[derive(Clone, Debug, Serialize)]
pub struct Document {
    pub title: String,
    pub lead: Rich,
    pub sections: Vec<Section>,
    pub footer: Rich,
}

impl Document {
    /// Every chart, in document order.
    pub fn charts(&self) -> Vec<&Chart> {
        self.sections
            .iter()
            .flat_map(|s| &s.blocks)
            .flat_map(Block::charts)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_rates_and_differences() {
        assert_eq!(pct(0.443), "44.3%");
        assert_eq!(pct(1.0), "100.0%");
        assert_eq!(pct(f64::NAN), "—");
        assert_eq!(pct_interval(0.433, 0.453), "[43.3%,\u{a0}45.3%]");
        assert_eq!(pp(-0.012), "−1.2\u{a0}pp");
        assert_eq!(pp(0.034), "+3.4\u{a0}pp");
        assert_eq!(pp(-0.0001), "0.0\u{a0}pp");
        assert_eq!(thousands(422_576), "422,576");
        assert_eq!(thousands(9604), "9,604");
        assert_eq!(thousands(12), "12");
        // Issue 48, item 4: no variation is n/a with its reason, not a certain [0.0, 0.0].
        assert_eq!(
            pct_interval_pp(f64::NAN, f64::NAN),
            "(interval n/a: no variation in the games)"
        );
    }

    #[test]
    fn standalone_svg_declares_its_namespace() {
        let c = Chart {
            file: "a.svg".into(),
            title: "a".into(),
            svg: "<svg width=\"1\"></svg>".into(),
        };
        assert_eq!(
            c.standalone(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\"></svg>\n"
        );
    }
}
