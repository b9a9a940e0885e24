//! Deck comparison: win rate at each number of rares, one row per deck.

use super::{
    AXIS, Canvas, GRID, MUTED, TEXT, d, esc, n, nice_ticks, text_width, tick_label, tick_values,
};
use crate::report::pct;

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
                    crate::report::pct_interval(p.lo, p.hi),
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
