//! Tornado chart: the effects of single edits on the win rate, largest first, one bar per
//! edit with its interval.

use super::{AXIS, Canvas, GRID, MUTED, TEXT, d, esc, n, nice_ticks, text_width, tick_label};

/// One edit's effect: the paired difference from the baseline and its 95% interval
/// (fractions: 0.02 is 2 points).
#[derive(Clone, Debug)]
pub struct TornadoBar {
    pub label: String,
    pub diff: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Lowers the win rate (the Confluence harder) / raises it.
const DOWN: &str = "#D55E00";
const UP: &str = "#0072B2";

/// Horizontal bars from zero to each edit's effect, in the order given (sort them before),
/// with the interval as a whisker and both in numbers at the right; the axis in percentage
/// points. Bars are `<rect data-edit data-diff data-lo data-hi>`. A label longer than the
/// label column is cut with an ellipsis (the bar's tooltip holds it whole).
pub fn tornado_chart(title: &str, bars: &[TornadoBar]) -> String {
    const W: f64 = 720.0;
    /// The numbers' column at the right: "-10.4 [-11.4, -9.4]" at 11 px.
    const VALUES_W: f64 = 120.0;
    let label_w = bars
        .iter()
        .map(|b| text_width(&b.label, 12.0))
        .fold(80.0, f64::max)
        .min(300.0);
    let left = 16.0 + label_w + 12.0;
    let right = W - 16.0 - VALUES_W;
    let top = 56.0;
    let row_h = 20.0;
    let bottom = top + bars.len().max(1) as f64 * row_h + 6.0;
    let height = bottom + 62.0;
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    let lo = bars
        .iter()
        .map(|b| finite(b.lo).min(finite(b.diff)))
        .fold(0.0, f64::min);
    let hi = bars
        .iter()
        .map(|b| finite(b.hi).max(finite(b.diff)))
        .fold(0.0, f64::max);
    let (first, last, step) = nice_ticks(lo * 100.0, (hi * 100.0).max(lo * 100.0 + 0.5), 6.0);
    let xs = |v: f64| left + (v * 100.0 - first) / (last - first) * (right - left);

    let mut c = Canvas::new(W, height, title);
    let k = ((last - first) / step).round() as i64;
    for i in 0..=k {
        let v = first + i as f64 * step;
        let x = xs(v / 100.0);
        c.line(x, top - 6.0, x, bottom, GRID, 1.0);
        c.text(
            x,
            bottom + 17.0,
            &tick_label(v, step),
            "middle",
            11.0,
            "normal",
            MUTED,
        );
    }
    c.line(xs(0.0), top - 6.0, xs(0.0), bottom, AXIS, 1.4);
    c.line(left, bottom, right, bottom, AXIS, 1.0);
    // Centred under the plot, but never past the canvas's edges (a wide label column
    // pushes the plot's centre to the right).
    let axis_label = "Change in win rate, percentage points (95% interval, paired)";
    let half = text_width(axis_label, 12.0) / 2.0;
    c.text(
        ((left + right) / 2.0).clamp(16.0 + half, W - 16.0 - half),
        bottom + 38.0,
        axis_label,
        "middle",
        12.0,
        "600",
        TEXT,
    );
    c.text(
        W - 16.0,
        top - 12.0,
        "points [95%]",
        "end",
        11.0,
        "normal",
        MUTED,
    );
    for (i, b) in bars.iter().enumerate() {
        let yc = top + i as f64 * row_h + row_h / 2.0;
        c.text(
            left - 10.0,
            yc + 4.0,
            &fit(&b.label, label_w, 12.0),
            "end",
            12.0,
            "normal",
            TEXT,
        );
        // No interval where the games show no variation: n/a, never "[NaN, NaN]".
        let iv = if b.lo.is_finite() && b.hi.is_finite() {
            format!("[{:+.1}, {:+.1}]", b.lo * 100.0, b.hi * 100.0)
        } else {
            "(interval n/a: no variation)".to_string()
        };
        c.text(
            W - 16.0,
            yc + 4.0,
            &format!("{:+.1} {iv}", b.diff * 100.0),
            "end",
            11.0,
            "normal",
            MUTED,
        );
        let (x0, x1) = (xs(0.0), xs(finite(b.diff)));
        let color = if b.diff < 0.0 { DOWN } else { UP };
        c.raw(&format!(
            "<rect data-edit=\"{}\" data-diff=\"{}\" data-lo=\"{}\" data-hi=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{color}\" fill-opacity=\"0.75\"><title>{}: {:+.1} points {iv}</title></rect>",
            esc(&b.label),
            d(b.diff),
            d(b.lo),
            d(b.hi),
            n(x0.min(x1)),
            n(yc - 6.0),
            n((x1 - x0).abs().max(1.0)),
            n(12.0),
            esc(&b.label),
            b.diff * 100.0,
        ));
        if b.lo.is_finite() && b.hi.is_finite() {
            let (xl, xh) = (xs(b.lo), xs(b.hi));
            c.line(xl, yc, xh, yc, TEXT, 1.2);
            c.line(xl, yc - 4.0, xl, yc + 4.0, TEXT, 1.2);
            c.line(xh, yc - 4.0, xh, yc + 4.0, TEXT, 1.2);
        }
    }
    c.finish()
}

/// `s` cut to `width` pixels at `size` (by [`text_width`]'s estimate), ending in an ellipsis
/// when cut.
fn fit(s: &str, width: f64, size: f64) -> String {
    if text_width(s, size) <= width {
        return s.to_string();
    }
    let mut out = String::new();
    for ch in s.chars() {
        out.push(ch);
        if text_width(&out, size) + text_width("…", size) > width {
            out.pop();
            break;
        }
    }
    out.trim_end().to_string() + "…"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_label_is_cut_to_the_column() {
        assert_eq!(
            fit("Gloom Wisp: forest +1", 300.0, 12.0),
            "Gloom Wisp: forest +1"
        );
        let long = "Ouroboros Inkcaster (rare): midnight progressing, and more words";
        let cut = fit(long, 200.0, 12.0);
        assert!(
            cut.ends_with('…') && text_width(&cut, 12.0) <= 200.0,
            "{cut}"
        );
        assert!(long.starts_with(cut.trim_end_matches('…')));
    }
}
