//! Shares of games won: horizontal bars from zero with their intervals, against the share
//! an even field would give (Free for All's entries and seats).

use super::{AXIS, Bar, Canvas, GRID, MUTED, TEXT, d, esc, n, nice_ticks, text_width, tick_values};
use crate::report::pct;

/// Horizontal bars of shares (fractions, drawn in percent) in the given order, top to
/// bottom, each with its interval as an error bar, and a dashed line at `even` (the share
/// of an entry no better than the others), named in the key. Bars are `<rect data-label
/// data-value data-lo data-hi>` (fractions, as given).
pub fn share_chart(title: &str, bars: &[Bar], even: f64, axis: &str) -> String {
    const W: f64 = 640.0;
    let label_w = bars
        .iter()
        .map(|b| text_width(&b.label, 13.0))
        .fold(80.0, f64::max)
        .min(220.0);
    let values: Vec<String> = bars
        .iter()
        .map(|b| format!("{} [{}, {}]", pct(b.value), pct(b.lo), pct(b.hi)))
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
    let most = bars
        .iter()
        .flat_map(|b| [b.value, b.hi])
        .filter(|x| x.is_finite())
        .fold(even, f64::max)
        * 100.0;
    let (first, last, step) = nice_ticks(0.0, most.max(1.0), 6.0);
    let xs = |v: f64| left + (v - first) / (last - first) * (right - left);

    let mut c = Canvas::new(W, height, title);
    c.text(
        right + 12.0,
        top - 10.0,
        "won [95% interval]",
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
            &format!("{v:.0}%"),
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
        axis,
        "middle",
        13.0,
        "600",
        TEXT,
    );
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
