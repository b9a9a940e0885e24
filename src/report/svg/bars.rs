//! Effects of the rares: horizontal bars with their intervals.

use super::rows::{Rows, W};
use super::{Canvas, TEXT, d, esc, n, nice_ticks, text_width, tick_label, tick_values};
use crate::report::signed;

/// One horizontal bar: a value with its interval (win-rate fractions; drawn in
/// percentage points).
#[derive(Clone, Debug)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

/// The range in percentage points that shows every bar and whisker of `bars` and zero:
/// give one range to the charts that sit side by side (one deck's policies), so that bars
/// of equal length mean equal effects.
pub fn effect_range<'a>(bars: impl IntoIterator<Item = &'a Bar>) -> (f64, f64) {
    let finite = |x: f64| if x.is_finite() { Some(x * 100.0) } else { None };
    bars.into_iter()
        .flat_map(|b| [finite(b.value), finite(b.lo), finite(b.hi)])
        .flatten()
        .fold((0.0, 0.0), |(lo, hi), v| (f64::min(lo, v), f64::max(hi, v)))
}

/// Horizontal bars in the given order (top to bottom), each with an error bar, around a
/// zero line, on the x range `range` (percentage points; see [`effect_range`]), widened to
/// show every bar. Bars are `<rect data-label data-value data-lo data-hi>` (fractions, as
/// given).
pub fn effect_chart(title: &str, bars: &[Bar], range: (f64, f64)) -> String {
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
    let rows = Rows::new(bars.iter().map(|b| b.label.as_str()), &values, 200.0);
    let Rows {
        left,
        right,
        top,
        bottom,
        height,
        ..
    } = rows;
    // Scale in percentage points, always showing zero and every bar.
    let own = effect_range(bars);
    let (lo, hi) = (own.0.min(range.0), own.1.max(range.1));
    let (first, last, step) = nice_ticks(lo, hi.max(lo + 0.5), 6.0);
    let xs = |v: f64| left + (v - first) / (last - first) * (right - left);

    let mut c = Canvas::new(W, height, title);
    rows.axis(
        &mut c,
        "pp [95% interval]",
        tick_values(first, last, step),
        xs,
        |v| tick_label(v, step),
        "Change in win rate when the rare replaces its common twin (pp)",
    );
    let zero = xs(0.0);
    for (i, b) in bars.iter().enumerate() {
        let yc = rows.row(&mut c, i, &b.label);
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
        let ends =
            (b.lo.is_finite() && b.hi.is_finite()).then(|| (xs(b.lo * 100.0), xs(b.hi * 100.0)));
        rows.whisker_and_value(&mut c, yc, ends, &values[i]);
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
