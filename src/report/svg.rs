//! The report's charts: plain functions from data to an SVG string, drawn by hand.
//!
//! The SVG is written for inlining in HTML: it has no `xmlns` (see
//! [`super::Chart::standalone`] for the file version), no external reference and no script.
//! Every data mark carries `data-*` attributes with the exact numbers it shows (written with
//! Rust's shortest round-trip formatting), so tests can check the chart against the tables,
//! and a `<title>` child, which browsers show as a tooltip.

use std::fmt::Write;

use super::{pct, signed, thousands};

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

// ---------------------------------------------------------------------------------------
// Win rate against the number of rares
// ---------------------------------------------------------------------------------------

/// A pooled point: the win rate of every configuration with `x` rares.
#[derive(Clone, Debug)]
pub struct LinePoint {
    pub x: u32,
    pub y: f64,
    pub lo: f64,
    pub hi: f64,
    pub games: u64,
    pub configs: usize,
}

/// One configuration, drawn as a small dot.
#[derive(Clone, Debug)]
pub struct ConfigDot {
    pub config_id: u32,
    pub x: u32,
    pub y: f64,
    pub lo: f64,
    pub hi: f64,
    pub mix: String,
}

/// One (deck, policy) line.
#[derive(Clone, Debug)]
pub struct LineSeries {
    pub name: String,
    pub color: &'static str,
    /// Ascending in `x`.
    pub points: Vec<LinePoint>,
    pub dots: Vec<ConfigDot>,
}

/// The y range of win-rate panels: from the lowest interval bound to the highest of every
/// series (rates as fractions), widened to take in the target and rounded out to ticks of
/// 5 or 10 points. Give every panel of a figure the same range so that they compare.
pub fn fitted_range(series: &[&LineSeries], target: Option<f64>) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for s in series {
        for p in &s.points {
            lo = lo.min(p.lo);
            hi = hi.max(p.hi);
        }
        for d in &s.dots {
            lo = lo.min(d.y);
            hi = hi.max(d.y);
        }
    }
    if let Some(t) = target {
        lo = lo.min(t);
        hi = hi.max(t);
    }
    if !lo.is_finite() || !hi.is_finite() {
        return (0.0, 1.0);
    }
    let step = if hi - lo > 0.3 { 0.1 } else { 0.05 };
    let lo = ((lo / step).floor() * step).max(0.0);
    let hi = ((hi / step).ceil() * step).min(1.0);
    if hi - lo < 0.05 {
        (lo, (lo + 0.1).min(1.0))
    } else {
        (lo, hi)
    }
}

/// Spreads label positions (sorted by their wanted y) at least `gap` apart, keeping them
/// as close as possible to where they want to be.
fn spread_labels(mut ys: Vec<(f64, usize)>, gap: f64) -> Vec<(f64, usize)> {
    ys.sort_by(|a, b| a.0.total_cmp(&b.0));
    for i in 1..ys.len() {
        if ys[i].0 < ys[i - 1].0 + gap {
            ys[i].0 = ys[i - 1].0 + gap;
        }
    }
    ys
}

/// One panel of a small-multiples figure: win rate against the number of rares for one
/// player deck, a line per policy through its pooled points, a shaded band for their
/// intervals, a dot per configuration, each line labelled at its end, and the target as a
/// dashed line. The y axis covers `y_range` (see [`fitted_range`]).
///
/// Pooled points are `<circle data-kind="pooled">` and configuration dots
/// `<circle data-kind="config" data-config="ID">`; both carry `data-series`, `data-x`,
/// `data-y`, `data-lo` and `data-hi` (rates as fractions).
pub fn win_rate_panel(
    title: &str,
    series: &[LineSeries],
    labels: &[String],
    y_range: (f64, f64),
    target: Option<f64>,
) -> String {
    const W: f64 = 420.0;
    let label_w = labels
        .iter()
        .map(|l| text_width(l, 12.0))
        .fold(40.0, f64::max)
        .min(110.0);
    let (left, right, top) = (46.0, W - 14.0 - label_w, 40.0);
    let plot_h = 190.0;
    let bottom = top + plot_h;
    let height = bottom + 44.0;
    let x_max = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.x))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let pad = 0.45;
    let xs = |x: f64| left + (x + pad) / (x_max + 2.0 * pad) * (right - left);
    let (y0, y1) = y_range;
    let ys = |y: f64| bottom - ((y.clamp(y0, y1) - y0) / (y1 - y0)) * plot_h;

    let mut c = Canvas::open(W, height, title);
    c.text(10.0, 22.0, title, "start", 14.0, "600", TEXT);
    // Grid and y axis.
    let (first, last, step) = nice_ticks(y0 * 100.0, y1 * 100.0, 5.0);
    for v in tick_values(first, last, step) {
        if v < y0 * 100.0 - 1e-9 || v > y1 * 100.0 + 1e-9 {
            continue;
        }
        let y = ys(v / 100.0);
        c.line(left, y, right, y, GRID, 1.0);
        c.text(
            left - 6.0,
            y + 4.0,
            &format!("{}%", tick_label(v, step)),
            "end",
            11.0,
            "normal",
            MUTED,
        );
    }
    c.line(left, bottom, right, bottom, AXIS, 1.0);
    // x ticks.
    let xstep = if x_max <= 16.0 {
        if x_max > 8.0 { 3 } else { 1 }
    } else {
        (x_max / 5.0).ceil() as u32
    };
    let mut x = 0;
    while x as f64 <= x_max {
        let px = xs(x as f64);
        c.line(px, bottom, px, bottom + 4.0, AXIS, 1.0);
        c.text(
            px,
            bottom + 17.0,
            &x.to_string(),
            "middle",
            11.0,
            "normal",
            MUTED,
        );
        x += xstep;
    }
    c.text(
        (left + right) / 2.0,
        bottom + 36.0,
        "Rares in the Confluence deck",
        "middle",
        12.0,
        "normal",
        TEXT,
    );
    // The target.
    if let Some(t) = target
        && t >= y0
        && t <= y1
    {
        let y = ys(t);
        c.raw(&format!(
            "<line data-kind=\"target\" data-y=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{TEXT}\" stroke-width=\"1.2\" stroke-dasharray=\"5 4\"/>",
            d(t),
            n(left),
            n(y),
            n(right),
            n(y)
        ));
        // Over the lines: a white halo keeps it readable.
        c.raw(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{TEXT}\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">target {}</text>",
            n(left + 4.0),
            n(y - 5.0),
            esc(&pct(t))
        ));
    }
    // Bands.
    for s in series {
        if s.points.len() >= 2 {
            let mut pts: Vec<String> = s
                .points
                .iter()
                .map(|p| format!("{},{}", n(xs(p.x as f64)), n(ys(p.hi))))
                .collect();
            pts.extend(
                s.points
                    .iter()
                    .rev()
                    .map(|p| format!("{},{}", n(xs(p.x as f64)), n(ys(p.lo)))),
            );
            c.raw(&format!(
                "<polygon points=\"{}\" fill=\"{}\" fill-opacity=\"0.16\" stroke=\"none\"/>",
                pts.join(" "),
                s.color
            ));
        }
    }
    // Lines.
    for s in series {
        if s.points.len() >= 2 {
            let pts: Vec<String> = s
                .points
                .iter()
                .map(|p| format!("{},{}", n(xs(p.x as f64)), n(ys(p.y))))
                .collect();
            c.raw(&format!(
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2.2\" stroke-linejoin=\"round\"/>",
                pts.join(" "),
                s.color
            ));
        }
    }
    // Configuration dots, nudged sideways per series so that they do not hide each other.
    let k = series.len() as f64;
    for (i, s) in series.iter().enumerate() {
        let nudge = if k > 1.0 {
            (i as f64 - (k - 1.0) / 2.0) * (8.0 / k).min(3.0)
        } else {
            0.0
        } + 5.0;
        for dot in &s.dots {
            let mix = if dot.mix.is_empty() {
                "no rare".to_string()
            } else {
                dot.mix.clone()
            };
            c.raw(&format!(
                "<circle data-kind=\"config\" data-config=\"{}\" data-series=\"{}\" data-x=\"{}\" data-y=\"{}\" data-lo=\"{}\" data-hi=\"{}\" cx=\"{}\" cy=\"{}\" r=\"2\" fill=\"{}\" fill-opacity=\"0.7\"><title>{} — config {}, {} rares ({}): {} {}</title></circle>",
                dot.config_id,
                esc(&s.name),
                dot.x,
                d(dot.y),
                d(dot.lo),
                d(dot.hi),
                n(xs(dot.x as f64) + nudge),
                n(ys(dot.y)),
                s.color,
                esc(&s.name),
                dot.config_id,
                dot.x,
                esc(&mix),
                pct(dot.y),
                super::pct_interval(dot.lo, dot.hi),
            ));
        }
    }
    // Pooled points on top.
    for s in series {
        for p in &s.points {
            c.raw(&format!(
                "<circle data-kind=\"pooled\" data-series=\"{}\" data-x=\"{}\" data-y=\"{}\" data-lo=\"{}\" data-hi=\"{}\" cx=\"{}\" cy=\"{}\" r=\"3.2\" fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"1\"><title>{} — {} rares: {} {} ({} games, {} configuration{})</title></circle>",
                esc(&s.name),
                p.x,
                d(p.y),
                d(p.lo),
                d(p.hi),
                n(xs(p.x as f64)),
                n(ys(p.y)),
                s.color,
                esc(&s.name),
                p.x,
                pct(p.y),
                super::pct_interval(p.lo, p.hi),
                thousands(p.games),
                p.configs,
                if p.configs == 1 { "" } else { "s" }
            ));
        }
    }
    // Direct labels at the line ends, pushed apart so that they do not overlap.
    let wanted: Vec<(f64, usize)> = series
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.points.last().map(|p| (ys(p.y) + 4.0, i)))
        .collect();
    for (y, i) in spread_labels(wanted, 14.0) {
        let label = labels
            .get(i)
            .map_or(series[i].name.as_str(), |l| l.as_str());
        c.text(right + 8.0, y, label, "start", 12.0, "600", series[i].color);
    }
    c.finish()
}

// ---------------------------------------------------------------------------------------
// Deck comparison
// ---------------------------------------------------------------------------------------

/// A win rate with its interval at a number of rares.
#[derive(Clone, Copy, Debug)]
pub struct RatePoint {
    pub rares: u32,
    pub y: f64,
    pub lo: f64,
    pub hi: f64,
}

/// One policy's row of a deck in the comparison chart.
#[derive(Clone, Debug)]
pub struct CompRow {
    /// The series name (`deck · policy`), for `data-series`.
    pub series: String,
    pub policy: String,
    pub color: &'static str,
    pub fewest: RatePoint,
    pub most: Option<RatePoint>,
}

/// One deck of the comparison chart.
#[derive(Clone, Debug)]
pub struct CompDeck {
    pub name: String,
    pub rows: Vec<CompRow>,
}

/// Dots with intervals, one row per deck and policy, decks in the given order (sort them
/// before): a filled dot for the win rate with the fewest rares, a hollow one with the
/// most, joined by a line, and the target as a dashed line. Dots are `<circle
/// data-series data-kind="fewest|most" data-x data-y data-lo data-hi>` (`data-x`: rares).
pub fn comparison_chart(title: &str, decks: &[CompDeck], target: Option<f64>) -> String {
    const W: f64 = 560.0;
    // Deck names are bold: wider than `text_width` reckons.
    let name_w = decks
        .iter()
        .map(|d| text_width(&d.name, 13.0) * 1.12)
        .fold(60.0, f64::max)
        .min(200.0);
    let pol_w = decks
        .iter()
        .flat_map(|d| d.rows.iter().map(|r| text_width(&r.policy, 11.0)))
        .fold(30.0, f64::max)
        .min(120.0);
    let left = 14.0 + name_w + 10.0 + pol_w + 10.0;
    let right = W - 24.0;
    let top = 56.0;
    let row_h = 19.0;
    let deck_gap = 12.0;
    let rows: usize = decks.iter().map(|d| d.rows.len()).sum();
    let bottom = top + rows as f64 * row_h + decks.len().saturating_sub(1) as f64 * deck_gap + 6.0;
    let height = bottom + 78.0;
    let mut hi = decks
        .iter()
        .flat_map(|d| &d.rows)
        .flat_map(|r| std::iter::once(r.fewest.hi).chain(r.most.map(|m| m.hi)))
        .fold(0.0, f64::max);
    if let Some(t) = target {
        hi = hi.max(t);
    }
    let (_, last, step) = nice_ticks(0.0, (hi * 100.0).max(10.0), 6.0);
    let xs = |v: f64| left + v * 100.0 / last * (right - left);

    let mut c = Canvas::new(W, height, title);
    for v in tick_values(0.0, last, step) {
        let x = xs(v / 100.0);
        c.line(x, top - 6.0, x, bottom, GRID, 1.0);
        c.text(
            x,
            bottom + 17.0,
            &format!("{}%", tick_label(v, step)),
            "middle",
            11.0,
            "normal",
            MUTED,
        );
    }
    c.line(left, bottom, right, bottom, AXIS, 1.0);
    c.text(
        (left + right) / 2.0,
        bottom + 36.0,
        "Win rate (95% interval)",
        "middle",
        12.0,
        "600",
        TEXT,
    );
    if let Some(t) = target {
        let x = xs(t);
        c.raw(&format!(
            "<line data-kind=\"target\" data-x=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{TEXT}\" stroke-width=\"1.2\" stroke-dasharray=\"5 4\"/>",
            d(t),
            n(x),
            n(top - 14.0),
            n(x),
            n(bottom)
        ));
        c.text(
            x,
            top - 18.0,
            &format!("target {}", pct(t)),
            "middle",
            11.0,
            "normal",
            TEXT,
        );
    }
    let mut y = top;
    for (di, deck) in decks.iter().enumerate() {
        if di > 0 {
            y += deck_gap;
            c.line(
                14.0,
                y - deck_gap / 2.0,
                right,
                y - deck_gap / 2.0,
                GRID,
                1.0,
            );
        }
        for (ri, r) in deck.rows.iter().enumerate() {
            let yc = y + row_h / 2.0;
            if ri == 0 {
                c.text(14.0, yc + 4.5, &deck.name, "start", 13.0, "600", TEXT);
            }
            c.text(
                left - 10.0,
                yc + 4.0,
                &r.policy,
                "end",
                11.0,
                "normal",
                r.color,
            );
            if let Some(m) = r.most {
                c.line(xs(m.y), yc, xs(r.fewest.y), yc, r.color, 1.5);
            }
            let mut dot = |p: &RatePoint, kind: &str, filled: bool| {
                let (xl, xh) = (xs(p.lo), xs(p.hi));
                c.line(xl, yc, xh, yc, r.color, 1.2);
                c.line(xl, yc - 3.5, xl, yc + 3.5, r.color, 1.2);
                c.line(xh, yc - 3.5, xh, yc + 3.5, r.color, 1.2);
                c.raw(&format!(
                    "<circle data-kind=\"{kind}\" data-series=\"{}\" data-x=\"{}\" data-y=\"{}\" data-lo=\"{}\" data-hi=\"{}\" cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1.6\"><title>{}, {} rares: {} {}</title></circle>",
                    esc(&r.series),
                    p.rares,
                    d(p.y),
                    d(p.lo),
                    d(p.hi),
                    n(xs(p.y)),
                    n(yc),
                    if filled { r.color } else { "#ffffff" },
                    r.color,
                    esc(&r.series),
                    p.rares,
                    pct(p.y),
                    super::pct_interval(p.lo, p.hi),
                ));
            };
            if let Some(m) = r.most {
                dot(&m, "most", false);
            }
            dot(&r.fewest, "fewest", true);
            y += row_h;
        }
    }
    // Key.
    let ky = bottom + 62.0;
    let fewest = decks
        .first()
        .and_then(|d| d.rows.first())
        .map_or(0, |r| r.fewest.rares);
    let most = decks
        .first()
        .and_then(|d| d.rows.first())
        .and_then(|r| r.most.map(|m| m.rares));
    c.raw(&format!(
        "<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"{TEXT}\"/>",
        n(left),
        n(ky - 4.0)
    ));
    let k1 = format!("{} rares", fewest);
    c.text(left + 10.0, ky, &k1, "start", 12.0, "normal", TEXT);
    if let Some(m) = most {
        let x2 = left + 10.0 + text_width(&k1, 12.0) + 24.0;
        c.raw(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"#ffffff\" stroke=\"{TEXT}\" stroke-width=\"1.6\"/>",
            n(x2),
            n(ky - 4.0)
        ));
        c.text(
            x2 + 10.0,
            ky,
            &format!("{m} rares"),
            "start",
            12.0,
            "normal",
            TEXT,
        );
    }
    c.finish()
}

// ---------------------------------------------------------------------------------------
// Effects of the rares
// ---------------------------------------------------------------------------------------

/// One horizontal bar: a value with its interval (win-rate fractions; drawn in
/// percentage points).
#[derive(Clone, Debug)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Horizontal bars in the given order (top to bottom), each with an error bar, around a
/// zero line. Bars are `<rect data-label data-value data-lo data-hi>` (fractions, as given).
pub fn effect_chart(title: &str, bars: &[Bar]) -> String {
    const W: f64 = 640.0;
    let label_w = bars
        .iter()
        .map(|b| text_width(&b.label, 13.0))
        .fold(80.0, f64::max)
        .min(200.0);
    let values: Vec<String> = bars
        .iter()
        .map(|b| {
            format!(
                "{} [{}, {}]",
                signed(b.value * 100.0),
                signed(b.lo * 100.0),
                signed(b.hi * 100.0)
            )
        })
        .collect();
    let value_w = values
        .iter()
        .map(|v| text_width(v, 12.0))
        .fold(60.0, f64::max);
    let left = 16.0 + label_w + 12.0;
    let right = W - 20.0 - value_w - 12.0;
    let top = 60.0;
    let row_h = 28.0;
    let bottom = top + row_h * bars.len().max(1) as f64;
    let height = bottom + 92.0;
    // Scale in percentage points, always showing zero.
    let finite = |x: f64| if x.is_finite() { Some(x * 100.0) } else { None };
    let all: Vec<f64> = bars
        .iter()
        .flat_map(|b| [finite(b.value), finite(b.lo), finite(b.hi)])
        .flatten()
        .collect();
    let lo = all.iter().copied().fold(0.0, f64::min);
    let hi = all.iter().copied().fold(0.0, f64::max);
    let (first, last, step) = nice_ticks(lo, hi.max(lo + 0.5), 6.0);
    let xs = |v: f64| left + (v - first) / (last - first) * (right - left);

    let mut c = Canvas::new(W, height, title);
    c.text(
        right + 12.0,
        top - 10.0,
        "pp [95% interval]",
        "start",
        12.0,
        "normal",
        MUTED,
    );
    for v in tick_values(first, last, step) {
        let x = xs(v);
        c.line(x, top - 4.0, x, bottom, GRID, 1.0);
        c.text(
            x,
            bottom + 18.0,
            &tick_label(v, step),
            "middle",
            12.0,
            "normal",
            MUTED,
        );
    }
    c.line(left, bottom, right, bottom, AXIS, 1.0);
    c.text(
        (left + right) / 2.0,
        bottom + 40.0,
        "Change in win rate when the rare replaces its common twin (pp)",
        "middle",
        13.0,
        "600",
        TEXT,
    );
    let zero = xs(0.0);
    for (i, b) in bars.iter().enumerate() {
        let yc = top + row_h * (i as f64 + 0.5);
        if i % 2 == 1 {
            c.raw(&format!(
                "<rect x=\"16\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f4f6f8\"/>",
                n(yc - row_h / 2.0),
                n(W - 32.0),
                n(row_h)
            ));
        }
        c.text(left - 10.0, yc + 4.5, &b.label, "end", 13.0, "normal", TEXT);
        let v = if b.value.is_finite() {
            b.value * 100.0
        } else {
            0.0
        };
        let (x0, x1) = if v < 0.0 {
            (xs(v), zero)
        } else {
            (zero, xs(v))
        };
        let fill = if v < 0.0 { "#D55E00" } else { "#0072B2" };
        c.raw(&format!(
            "<rect data-label=\"{}\" data-value=\"{}\" data-lo=\"{}\" data-hi=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"16\" fill=\"{fill}\" fill-opacity=\"0.85\"><title>{}: {} pp, 95% interval [{}, {}]</title></rect>",
            esc(&b.label),
            d(b.value),
            d(b.lo),
            d(b.hi),
            n(x0),
            n(yc - 8.0),
            n((x1 - x0).max(0.0)),
            esc(&b.label),
            signed(b.value * 100.0),
            signed(b.lo * 100.0),
            signed(b.hi * 100.0),
        ));
        if b.lo.is_finite() && b.hi.is_finite() {
            let (xl, xh) = (xs(b.lo * 100.0), xs(b.hi * 100.0));
            c.line(xl, yc, xh, yc, TEXT, 1.4);
            c.line(xl, yc - 5.0, xl, yc + 5.0, TEXT, 1.4);
            c.line(xh, yc - 5.0, xh, yc + 5.0, TEXT, 1.4);
        }
        c.text(
            right + 12.0,
            yc + 4.5,
            &values[i],
            "start",
            12.0,
            "normal",
            TEXT,
        );
    }
    c.line(zero, top - 4.0, zero, bottom, TEXT, 1.5);
    // Key.
    let ky = bottom + 66.0;
    c.raw(&format!(
        "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"12\" fill=\"#D55E00\" fill-opacity=\"0.85\"/>",
        n(left),
        n(ky - 10.0)
    ));
    c.text(
        left + 20.0,
        ky,
        "the rare makes the Confluence harder",
        "start",
        12.0,
        "normal",
        TEXT,
    );
    let x2 = left + 20.0 + text_width("the rare makes the Confluence harder", 12.0) + 24.0;
    c.raw(&format!(
        "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"12\" fill=\"#0072B2\" fill-opacity=\"0.85\"/>",
        n(x2),
        n(ky - 10.0)
    ));
    c.text(x2 + 20.0, ky, "easier", "start", 12.0, "normal", TEXT);
    c.finish()
}

// ---------------------------------------------------------------------------------------
// Day histograms
// ---------------------------------------------------------------------------------------

/// One histogram series: games ended on day 1, 2, ...
#[derive(Clone, Debug)]
pub struct HistSeries {
    pub name: String,
    pub color: &'static str,
    /// The summary configurations it sums (one, or several pooled).
    pub config_ids: Vec<u32>,
    pub counts: Vec<u64>,
    pub games: u64,
}

/// Grouped bars: for each day up to the last one any game ended on, one bar per series,
/// as a share of that series' games. Bars are `<rect data-series data-config data-day
/// data-count data-share>`; `data-config` lists the configuration ids it sums.
pub fn day_histogram(title: &str, series: &[HistSeries]) -> String {
    let (left, right, top) = (70.0, WIDTH - 28.0, 50.0);
    let plot_h = 260.0;
    let bottom = top + plot_h;
    let days = series
        .iter()
        .filter_map(|s| s.counts.iter().rposition(|&c| c > 0))
        .max()
        .map_or(1, |i| i + 1);
    let share = |s: &HistSeries, day: usize| {
        let c = s.counts.get(day).copied().unwrap_or(0);
        if s.games == 0 {
            0.0
        } else {
            c as f64 / s.games as f64
        }
    };
    let max_share = series
        .iter()
        .flat_map(|s| (0..days).map(move |d| (s, d)))
        .map(|(s, d)| share(s, d))
        .fold(0.0, f64::max);
    let (_, top_v, step) = nice_ticks(0.0, (max_share * 100.0).max(1.0), 5.0);
    let ys = |pct_v: f64| bottom - pct_v / top_v * plot_h;

    let names: Vec<String> = series.iter().map(|s| s.name.clone()).collect();
    let mut probe = Canvas { buf: String::new() };
    let legend_top = bottom + 54.0;
    let legend_end = legend(
        &mut probe,
        legend_top,
        left,
        right,
        &names,
        &|_, _, _, _| {},
    );
    let height = legend_end + 12.0;

    let mut c = Canvas::new(WIDTH, height, title);
    for v in tick_values(0.0, top_v, step) {
        let y = ys(v);
        c.line(left, y, right, y, if v == 0.0 { AXIS } else { GRID }, 1.0);
        c.text(
            left - 8.0,
            y + 4.5,
            &format!("{}%", tick_label(v, step)),
            "end",
            12.0,
            "normal",
            MUTED,
        );
    }
    c.raw(&format!(
        "<text transform=\"translate(18 {}) rotate(-90)\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"600\">Share of games</text>",
        n((top + bottom) / 2.0)
    ));
    c.text(
        (left + right) / 2.0,
        bottom + 40.0,
        "Day on which the game ended",
        "middle",
        13.0,
        "600",
        TEXT,
    );
    let group_w = (right - left) / days as f64;
    let k = series.len().max(1) as f64;
    let bar_w = group_w * 0.8 / k;
    let label_every = (28.0 / group_w).ceil().max(1.0) as usize;
    for day in 0..days {
        let gx = left + group_w * day as f64;
        if (day + 1) % label_every == 0 || day == 0 {
            c.text(
                gx + group_w / 2.0,
                bottom + 18.0,
                &(day + 1).to_string(),
                "middle",
                12.0,
                "normal",
                MUTED,
            );
        }
        for (i, s) in series.iter().enumerate() {
            let count = s.counts.get(day).copied().unwrap_or(0);
            let sh = share(s, day);
            let y = ys(sh * 100.0);
            let ids: Vec<String> = s.config_ids.iter().map(|i| i.to_string()).collect();
            c.raw(&format!(
                "<rect data-series=\"{}\" data-config=\"{}\" data-day=\"{}\" data-count=\"{}\" data-share=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: day {}, {} of {} games ({})</title></rect>",
                esc(&s.name),
                ids.join(","),
                day + 1,
                count,
                d(sh),
                n(gx + group_w * 0.1 + bar_w * i as f64),
                n(y),
                n((bar_w - 1.0).max(1.0)),
                n(bottom - y),
                s.color,
                esc(&s.name),
                day + 1,
                thousands(count),
                thousands(s.games),
                pct(sh)
            ));
        }
    }
    let colors: Vec<&str> = series.iter().map(|s| s.color).collect();
    legend(&mut c, legend_top, left, right, &names, &|c, x, y, i| {
        c.raw(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"26\" height=\"12\" fill=\"{}\"/>",
            n(x),
            n(y - 6.0),
            colors[i]
        ));
    });
    c.finish()
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

    #[test]
    fn histogram_marks_carry_their_counts() {
        let s = day_histogram(
            "t",
            &[HistSeries {
                name: "0 rares".into(),
                color: "#000",
                config_ids: vec![3],
                counts: vec![0, 5, 15, 0, 0],
                games: 20,
            }],
        );
        assert!(s.contains("data-day=\"3\" data-count=\"15\" data-share=\"0.75\""));
        assert!(!s.contains("data-day=\"4\""), "trailing empty days are cut");
    }
}
