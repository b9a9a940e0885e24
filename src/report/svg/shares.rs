//! Shares of games won: horizontal bars from zero with their intervals, against the share
//! an even field would give (Free for All's entries and seats).

use super::rows::{Rows, W};
use super::{Bar, Canvas, TEXT, d, esc, n, nice_ticks, text_width, tick_values};
use crate::report::pct;

/// Horizontal bars of shares (fractions, drawn in percent) in the given order, top to
/// bottom, each with its interval as an error bar, and a dashed line at `even` (the share
/// of an entry no better than the others), named in the key. Bars are `<rect data-label
/// data-value data-lo data-hi>` (fractions, as given).
pub fn share_chart(title: &str, bars: &[Bar], even: f64, axis: &str) -> String {
    let values: Vec<String> = bars
        .iter()
        .map(|b| format!("{} [{}, {}]", pct(b.value), pct(b.lo), pct(b.hi)))
        .collect();
    let rows = Rows::new(bars.iter().map(|b| b.label.as_str()), &values, 220.0);
    let Rows {
        left,
        right,
        top,
        bottom,
        height,
        ..
    } = rows;
    let most = bars
        .iter()
        .flat_map(|b| [b.value, b.hi])
        .filter(|x| x.is_finite())
        .fold(even, f64::max)
        * 100.0;
    let (first, last, step) = nice_ticks(0.0, most.max(1.0), 6.0);
    let xs = |v: f64| left + (v - first) / (last - first) * (right - left);

    let mut c = Canvas::new(W, height, title);
    rows.axis(
        &mut c,
        "won [95% interval]",
        tick_values(first, last, step),
        xs,
        |v| format!("{v:.0}%"),
        axis,
    );
    for (i, b) in bars.iter().enumerate() {
        let yc = rows.row(&mut c, i, &b.label);
        let v = if b.value.is_finite() { b.value } else { 0.0 };
        let fill = if b.lo > even {
            "#0072B2"
        } else if b.hi < even {
            "#D55E00"
        } else {
            "#8a939c"
        };
        c.raw(&format!(
            "<rect data-label=\"{}\" data-value=\"{}\" data-lo=\"{}\" data-hi=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"16\" fill=\"{fill}\" fill-opacity=\"0.85\"><title>{}: {}</title></rect>",
            esc(&b.label),
            d(b.value),
            d(b.lo),
            d(b.hi),
            n(xs(0.0)),
            n(yc - 8.0),
            n((xs(v * 100.0) - xs(0.0)).max(0.0)),
            esc(&b.label),
            values[i],
        ));
        let ends =
            (b.lo.is_finite() && b.hi.is_finite()).then(|| (xs(b.lo * 100.0), xs(b.hi * 100.0)));
        rows.whisker_and_value(&mut c, yc, ends, &values[i]);
    }
    let xe = xs(even * 100.0);
    c.raw(&format!(
        "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"{TEXT}\" stroke-width=\"1.5\" stroke-dasharray=\"5 4\"/>",
        n(top - 4.0),
        n(bottom),
        x = n(xe)
    ));
    // Key.
    let ky = bottom + 66.0;
    let mut x = left;
    for (fill, what) in [
        ("#0072B2", "above the even share"),
        ("#D55E00", "below it"),
        ("#8a939c", "not told apart"),
    ] {
        c.raw(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"12\" fill=\"{fill}\" fill-opacity=\"0.85\"/>",
            n(x),
            n(ky - 10.0)
        ));
        c.text(x + 20.0, ky, what, "start", 12.0, "normal", TEXT);
        x += 20.0 + text_width(what, 12.0) + 24.0;
    }
    c.raw(&format!(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{TEXT}\" stroke-width=\"1.5\" stroke-dasharray=\"5 4\"/>",
        n(x),
        n(ky - 4.0),
        n(x + 18.0),
        n(ky - 4.0)
    ));
    c.text(
        x + 24.0,
        ky,
        &format!("even share, {}", pct(even)),
        "start",
        12.0,
        "normal",
        TEXT,
    );
    c.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bar_carries_its_numbers_and_the_even_share_is_drawn() {
        let bars = [
            Bar {
                label: "A & B".into(),
                value: 0.5,
                lo: 0.45,
                hi: 0.55,
            },
            Bar {
                label: "C".into(),
                value: 0.1,
                lo: 0.08,
                hi: 0.12,
            },
        ];
        let svg = share_chart("Won", &bars, 0.25, "Games won (%)");
        assert!(svg.contains(
            "data-label=\"A &amp; B\" data-value=\"0.5\" data-lo=\"0.45\" data-hi=\"0.55\""
        ));
        assert!(svg.contains("fill=\"#0072B2\" fill-opacity=\"0.85\"><title>A &amp; B"));
        assert!(svg.contains("fill=\"#D55E00\" fill-opacity=\"0.85\"><title>C"));
        assert!(svg.contains("stroke-dasharray"));
        assert!(svg.contains("even share, 25.0%"));
    }
}
