//! The frame the charts of labelled horizontal bars share (the rares' effects, Free for
//! All's shares): one row a bar, the labels at the left, the values with their intervals at
//! the right, an x axis with its grid below, and each bar's interval as a whisker.

use super::{AXIS, Canvas, GRID, MUTED, TEXT, n, text_width};

/// The chart's width.
pub(super) const W: f64 = 640.0;

/// Where the plot area of a chart of `rows` bars sits, its labels and values set beside it.
pub(super) struct Rows {
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub row_h: f64,
    pub bottom: f64,
    pub height: f64,
}

impl Rows {
    /// The frame for these labels (at most `label_max` wide) and value texts.
    pub fn new<'a>(
        labels: impl Iterator<Item = &'a str>,
        values: &[String],
        label_max: f64,
    ) -> Rows {
        let label_w = labels
            .map(|l| text_width(l, 13.0))
            .fold(80.0, f64::max)
            .min(label_max);
        let value_w = values
            .iter()
            .map(|v| text_width(v, 12.0))
            .fold(60.0, f64::max);
        let (top, row_h) = (60.0, 28.0);
        let bottom = top + row_h * values.len().max(1) as f64;
        Rows {
            left: 16.0 + label_w + 12.0,
            right: W - 20.0 - value_w - 12.0,
            top,
            row_h,
            bottom,
            height: bottom + 92.0,
        }
    }

    /// The values' column head, the grid at each tick (`xs` places a value, `label` writes
    /// it), the axis and its title.
    pub fn axis(
        &self,
        c: &mut Canvas,
        head: &str,
        ticks: impl IntoIterator<Item = f64>,
        xs: impl Fn(f64) -> f64,
        label: impl Fn(f64) -> String,
        title: &str,
    ) {
        let (left, right, top, bottom) = (self.left, self.right, self.top, self.bottom);
        c.text(
            right + 12.0,
            top - 10.0,
            head,
            "start",
            12.0,
            "normal",
            MUTED,
        );
        for v in ticks {
            let x = xs(v);
            c.line(x, top - 4.0, x, bottom, GRID, 1.0);
            c.text(x, bottom + 18.0, &label(v), "middle", 12.0, "normal", MUTED);
        }
        c.line(left, bottom, right, bottom, AXIS, 1.0);
        c.text(
            (left + right) / 2.0,
            bottom + 40.0,
            title,
            "middle",
            13.0,
            "600",
            TEXT,
        );
    }

    /// Row `i`'s band (every other row shaded) and label; its centre line's y.
    pub fn row(&self, c: &mut Canvas, i: usize, label: &str) -> f64 {
        let yc = self.top + self.row_h * (i as f64 + 0.5);
        if i % 2 == 1 {
            c.raw(&format!(
                "<rect x=\"16\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f4f6f8\"/>",
                n(yc - self.row_h / 2.0),
                n(W - 32.0),
                n(self.row_h)
            ));
        }
        c.text(
            self.left - 10.0,
            yc + 4.5,
            label,
            "end",
            13.0,
            "normal",
            TEXT,
        );
        yc
    }

    /// A row's interval from `xl` to `xh` (none when either end is unknown), then its
    /// value text.
    pub fn whisker_and_value(
        &self,
        c: &mut Canvas,
        yc: f64,
        ends: Option<(f64, f64)>,
        value: &str,
    ) {
        if let Some((xl, xh)) = ends {
            c.line(xl, yc, xh, yc, TEXT, 1.4);
            c.line(xl, yc - 5.0, xl, yc + 5.0, TEXT, 1.4);
            c.line(xh, yc - 5.0, xh, yc + 5.0, TEXT, 1.4);
        }
        c.text(
            self.right + 12.0,
            yc + 4.5,
            value,
            "start",
            12.0,
            "normal",
            TEXT,
        );
    }
}
