//! Win rate against the number of rares: the pooled line panel.

use super::{
    AXIS, Canvas, GRID, MUTED, TEXT, d, esc, n, nice_ticks, text_width, tick_label, tick_values,
};
use crate::report::{pct, thousands};

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
                crate::report::pct_interval(dot.lo, dot.hi),
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
                crate::report::pct_interval(p.lo, p.hi),
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
