//! Day histograms: on which day games end.

use super::{
    AXIS, Canvas, GRID, MUTED, TEXT, WIDTH, d, esc, legend, n, nice_ticks, tick_label, tick_values,
};
use crate::report::{pct, thousands};

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
