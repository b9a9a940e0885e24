//! The report's charts: plain functions from data to an SVG string, drawn by hand.
//!
//! The SVG is written for inlining in HTML: it has no `xmlns` (see
//! [`super::Chart::standalone`] for the file version), no external reference and no script.
//! Every data mark carries `data-*` attributes with the exact numbers it shows (written with
//! Rust's shortest round-trip formatting), so tests can check the chart against the tables,
//! and a `<title>` child, which browsers show as a tooltip.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use std::fmt::Write;

mod bars;
mod comparison;
mod histogram;
mod line;
mod rows;
mod shares;
mod tornado;

pub use bars::*;
pub use comparison::*;
pub use histogram::*;
pub use line::*;
pub use shares::*;
pub use tornado::*;

/// Colour-blind-safe series colours (Okabe & Ito 2008), darkest first; yellow is left out
/// because it does not read on white.
pub const PALETTE: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#6A3D9A", "#4D4D4D",
];

/// Histogram colours for the configurations with the fewest rares (blues)...
pub const LOW_COLORS: [&str; 3] = ["#0072B2", "#56B4E9", "#1F4E79"];
/// ...and with the most rares (oranges and reds).
pub const HIGH_COLORS: [&str; 3] = ["#D55E00", "#E69F00", "#A6401A"];

pub(super) const FONT: &str =
    "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const WIDTH: f64 = 640.0;
pub(super) const TEXT: &str = "#1d232b";
pub(super) const MUTED: &str = "#5b6570";
pub(super) const GRID: &str = "#e3e6ea";
const AXIS: &str = "#8a939c";

/// The colour of series `i` (cycling through [`PALETTE`]).
pub fn color(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// Escapes text for XML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate, to 0.1 px.
pub(super) fn n(x: f64) -> String {
    let s = format!("{x:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// A number in a data attribute: exact (shortest representation that reads back equal).
pub(super) fn d(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else {
        format!("{x}")
    }
}

/// Rough width of a text in px: good enough to lay out labels and legends.
pub(super) fn text_width(s: &str, size: f64) -> f64 {
    s.chars()
        .map(|c| {
            if c.is_ascii_uppercase() || c == 'm' || c == 'w' {
                0.72
            } else if c == ' ' || c == '.' || c == ',' || c == 'i' || c == 'l' || c == 'j' {
                0.3
            } else {
                0.6
            }
        })
        .sum::<f64>()
        * size
}

/// Builds one SVG document.
pub(super) struct Canvas {
    buf: String,
}

impl Canvas {
    pub(super) fn new(width: f64, height: f64, title: &str) -> Canvas {
        let mut c = Canvas::open(width, height, title);
        c.text(16.0, 26.0, title, "start", 16.0, "600", TEXT);
        c
    }

    /// The document and its background, without the visible title.
    fn open(width: f64, height: f64, title: &str) -> Canvas {
        let mut buf = String::new();
        write!(
            buf,
            "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{t}\" font-family=\"{f}\" font-size=\"13\" fill=\"{c}\">\n<title>{t}</title>\n<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n",
            w = n(width),
            h = n(height),
            t = esc(title),
            f = FONT,
            c = TEXT
        )
        .expect("write to String");
        Canvas { buf }
    }

    pub(super) fn raw(&mut self, s: &str) {
        self.buf.push_str(s);
        self.buf.push('\n');
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn text(
        &mut self,
        x: f64,
        y: f64,
        s: &str,
        anchor: &str,
        size: f64,
        weight: &str,
        fill: &str,
    ) {
        let weight = if weight == "normal" {
            String::new()
        } else {
            format!(" font-weight=\"{weight}\"")
        };
        self.raw(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\" font-size=\"{}\"{weight} fill=\"{fill}\">{}</text>",
            n(x),
            n(y),
            n(size),
            esc(s)
        ));
    }

    pub(super) fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str, width: f64) {
        self.raw(&format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            n(x1),
            n(y1),
            n(x2),
            n(y2),
            n(width)
        ));
    }

    pub(super) fn finish(mut self) -> String {
        self.buf.push_str("</svg>");
        self.buf
    }
}

/// Legend entries laid out left to right, wrapping; returns the y below the last row.
/// Each entry is drawn by `swatch(canvas, x, y_middle, i)` in 28 px, then its text.
fn legend(
    c: &mut Canvas,
    top: f64,
    left: f64,
    right: f64,
    names: &[String],
    swatch: &dyn Fn(&mut Canvas, f64, f64, usize),
) -> f64 {
    let row_h = 22.0;
    let (mut x, mut y) = (left, top + row_h / 2.0);
    for (i, name) in names.iter().enumerate() {
        let w = 34.0 + text_width(name, 13.0) + 22.0;
        if x > left && x + w > right {
            x = left;
            y += row_h;
        }
        swatch(c, x, y, i);
        c.text(x + 34.0, y + 4.5, name, "start", 13.0, "normal", TEXT);
        x += w;
    }
    y + row_h / 2.0
}

/// Ticks at a "nice" step (1, 2 or 5 times a power of ten) covering `[lo, hi]`, about
/// `target` of them; returns (first, last, step).
fn nice_ticks(lo: f64, hi: f64, target: f64) -> (f64, f64, f64) {
    let span = (hi - lo).max(1e-9);
    let raw = span / target;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| span / s <= target)
        .unwrap_or(10.0 * mag);
    ((lo / step).floor() * step, (hi / step).ceil() * step, step)
}

fn tick_values(first: f64, last: f64, step: f64) -> Vec<f64> {
    let k = ((last - first) / step).round() as i64;
    (0..=k).map(|i| first + i as f64 * step).collect()
}

/// A tick label with as many decimals as the step needs.
fn tick_label(v: f64, step: f64) -> String {
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10()).ceil() as usize
    };
    let s = format!("{:.*}", decimals, v);
    let s = if s.starts_with('-') && s.trim_start_matches(['-', '0', '.']).is_empty() {
        s.trim_start_matches('-').to_string()
    } else {
        s
    };
    s.replace('-', "−")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_ticks_cover_the_range() {
        let (a, b, s) = nice_ticks(-3.2, 1.1, 6.0);
        assert!(a <= -3.2 && b >= 1.1, "{a} {b} {s}");
        assert_eq!(s, 1.0);
        let (a, b, s) = nice_ticks(0.0, 37.0, 5.0);
        assert_eq!((a, b, s), (0.0, 40.0, 10.0));
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(esc("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn tick_labels_use_a_true_minus() {
        assert_eq!(tick_label(-2.0, 1.0), "−2");
        assert_eq!(tick_label(-0.0, 1.0), "0");
        assert_eq!(tick_label(2.5, 0.5), "2.5");
    }
}
