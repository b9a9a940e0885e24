//! A win-rate heatmap, shared by the matchup report (row entry against column entry) and
//! the Booster War report (row faction against column faction): each cell coloured by the
//! row's win rate (orange below one half, blue above, white at one half) and labelled with
//! the rate and its 95% interval. Drawn with the report's own SVG canvas, for inlining in
//! HTML like the other charts: every cell is a `<rect data-kind="cell" data-row data-col
//! data-{key}-a data-{key}-b data-rate data-lo data-hi data-games>` with a `<title>`
//! (`key` is `entry` in the matchup report); a pair with no games is a `<rect
//! data-kind="empty">` marked with a dash.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use serde::Serialize;

use crate::stats::{Interval, wilson};

use super::svg::{Canvas, GRID, MUTED, TEXT, d, esc, n, text_width};
use super::{LEVEL, Rich, pct, pct_interval, thousands};

/// Row `a` against column `b` of a win-rate matrix (indices into its labels), from the
/// row's side: the counts, and the row's win rate recomputed from them as the rest of the
/// report does (draws count as not won).
#[derive(Clone, Debug, Serialize)]
pub struct Pair {
    pub a: usize,
    pub b: usize,
    pub games: u64,
    pub wins_a: u64,
    pub wins_b: u64,
    pub draws: u64,
    pub rate: Interval,
}

impl Pair {
    pub fn new(a: usize, b: usize, games: u64, wins_a: u64, wins_b: u64, draws: u64) -> Pair {
        Pair {
            a,
            b,
            games,
            wins_a,
            wins_b,
            draws,
            rate: wilson(wins_a, games, LEVEL),
        }
    }

    /// The pair's cell of the heatmap.
    pub fn heat(&self) -> HeatCell {
        HeatCell::of(&self.rate, self.games)
    }

    /// The pair's row of a table of pairs ([`pair_header`]), the row and column named
    /// `name_a` and `name_b`.
    pub fn row(&self, name_a: String, name_b: String) -> Vec<Rich> {
        vec![
            Rich::text(name_a),
            Rich::text(name_b),
            Rich::text(thousands(self.games)),
            Rich::text(format!("{}–{}–{}", self.wins_a, self.wins_b, self.draws)),
            Rich::text(pct(self.rate.estimate)),
            Rich::text(pct_interval(self.rate.lo, self.rate.hi)),
        ]
    }
}

/// The header of [`Pair::row`]'s columns, a row being a `row` (`Entry`, `Faction`), and
/// which columns are numeric.
pub fn pair_header(row: &str) -> (Vec<String>, Vec<bool>) {
    let header = [
        row,
        "Opponent",
        "Games",
        "Won–lost–drawn",
        "Win rate",
        "95% interval",
    ];
    (
        header.map(String::from).to_vec(),
        vec![false, false, true, true, true, true],
    )
}

/// One cell: the row's win rate against the column with its interval.
#[derive(Clone, Debug)]
pub struct HeatCell {
    pub rate: f64,
    pub lo: f64,
    pub hi: f64,
    pub games: u64,
}

impl HeatCell {
    /// A cell from a win rate with its interval and the games behind it.
    pub fn of(rate: &crate::stats::interval::Interval, games: u64) -> HeatCell {
        HeatCell {
            rate: rate.estimate,
            lo: rate.lo,
            hi: rate.hi,
            games,
        }
    }
}

/// The colour of a win rate: orange (0) to white (one half) to blue (1), from the
/// colour-blind-safe palette's orange and blue.
pub fn rate_color(p: f64) -> String {
    let lerp = |a: [f64; 3], b: [f64; 3], t: f64| {
        [0, 1, 2].map(|k| (a[k] + (b[k] - a[k]) * t).round().clamp(0.0, 255.0) as u8)
    };
    let orange = [213.0, 94.0, 0.0];
    let white = [247.0, 247.0, 247.0];
    let blue = [0.0, 114.0, 178.0];
    let p = if p.is_finite() {
        p.clamp(0.0, 1.0)
    } else {
        0.5
    };
    let c = if p < 0.5 {
        lerp(orange, white, p / 0.5)
    } else {
        lerp(white, blue, (p - 0.5) / 0.5)
    };
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// Text on a cell of this rate: white on the darkest colours, dark otherwise.
fn ink(p: f64) -> &'static str {
    if (p - 0.5).abs() > 0.3 {
        "#ffffff"
    } else {
        TEXT
    }
}

/// What a heatmap shows and how it names it.
#[derive(Clone, Debug)]
pub struct Heatmap<'a> {
    pub title: &'a str,
    /// The rows and columns, in the same order.
    pub labels: &'a [String],
    /// The `data-{id_key}-a`/`data-{id_key}-b` attributes of the cells: the key, and one
    /// value per label (an entry's number in the outputs, a faction's code).
    pub id_key: &'a str,
    pub ids: &'a [String],
    /// The axis captions: what a row is and what a column is.
    pub row_axis: &'a str,
    /// The least width of the row labels' column (px): room for `row_axis` above them
    /// when the labels are short.
    pub min_label_width: f64,
    pub col_axis: &'a str,
    /// The line under the colour key.
    pub note: &'a str,
    /// Row by row (`cells[r][c]`: row `r` against column `c`); `None` for a pair with no
    /// games. The diagonal is drawn dashed (a mirror pair).
    pub cells: &'a [Vec<Option<HeatCell>>],
}

/// The matchup report's heatmap of `labels.len()` entries (rows and columns in the same
/// order), `cells` row by row (`cells[r][c]`: row `r` against column `c`). `entries` are
/// the entries' numbers in the outputs, for `data-entry-a`/`data-entry-b`.
pub fn heatmap(title: &str, labels: &[String], entries: &[u32], cells: &[Vec<HeatCell>]) -> String {
    let ids: Vec<String> = entries.iter().map(u32::to_string).collect();
    let cells: Vec<Vec<Option<HeatCell>>> = cells
        .iter()
        .map(|row| row.iter().cloned().map(Some).collect())
        .collect();
    draw(&Heatmap {
        title,
        labels,
        id_key: "entry",
        ids: &ids,
        row_axis: "row: the entry",
        min_label_width: 40.0,
        col_axis: "column: the opponent",
        note: "the row's win rate; bold: its 95% interval excludes 50%; dashed: a mirror pair",
        cells: &cells,
    })
}

/// Draws `h`.
pub fn draw(h: &Heatmap<'_>) -> String {
    let (title, labels, cells) = (h.title, h.labels, h.cells);
    let k = labels.len();
    let (cw, ch) = (66.0, 42.0);
    let label_w = labels
        .iter()
        .map(|l| text_width(l, 12.0))
        .fold(h.min_label_width, f64::max)
        .min(240.0);
    // Column labels slant up at 45 degrees from the top of their column.
    let slant = label_w * std::f64::consts::FRAC_1_SQRT_2;
    let left = 16.0 + label_w + 10.0;
    let top = 48.0 + 18.0 + slant + 8.0;
    let grid_w = k as f64 * cw;
    let note = h.note;
    let width = (left + grid_w + (slant - cw / 2.0).max(0.0) + 16.0)
        .max(left + text_width(note, 11.0) + 16.0);
    let bottom = top + k as f64 * ch;
    let height = bottom + 76.0;
    let mut c = Canvas::new(width, height, title);
    c.text(
        left + grid_w / 2.0,
        48.0,
        h.col_axis,
        "middle",
        11.0,
        "normal",
        MUTED,
    );
    c.text(16.0, top - 6.0, h.row_axis, "start", 11.0, "normal", MUTED);
    for (j, l) in labels.iter().enumerate() {
        let x = left + (j as f64 + 0.5) * cw;
        let y = top - 6.0;
        c.raw(&format!(
            "<text x=\"{}\" y=\"{}\" transform=\"rotate(-45 {} {})\" text-anchor=\"start\" font-size=\"12\" fill=\"{TEXT}\">{}</text>",
            n(x),
            n(y),
            n(x),
            n(y),
            esc(l)
        ));
    }
    for (i, l) in labels.iter().enumerate() {
        let y = top + (i as f64 + 0.5) * ch;
        c.text(left - 8.0, y + 4.0, l, "end", 12.0, "normal", TEXT);
    }
    for (i, row) in cells.iter().enumerate() {
        for (j, cell) in row.iter().enumerate() {
            let (x, y) = (left + j as f64 * cw, top + i as f64 * ch);
            let mirror = i == j;
            let dash = if mirror {
                " stroke-dasharray=\"4 3\""
            } else {
                ""
            };
            let Some(cell) = cell else {
                c.raw(&format!(
                    "<rect data-kind=\"empty\" data-row=\"{}\" data-col=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#ffffff\" stroke=\"{}\" stroke-width=\"1\"{dash}><title>{} against {}: no games</title></rect>",
                    esc(&labels[i]),
                    esc(&labels[j]),
                    n(x + 1.0),
                    n(y + 1.0),
                    n(cw - 2.0),
                    n(ch - 2.0),
                    if mirror { MUTED } else { GRID },
                    esc(&labels[i]),
                    esc(&labels[j]),
                ));
                c.text(
                    x + cw / 2.0,
                    y + ch / 2.0 + 4.0,
                    "—",
                    "middle",
                    12.0,
                    "normal",
                    MUTED,
                );
                continue;
            };
            let clear = cell.lo > 0.5 || cell.hi < 0.5;
            c.raw(&format!(
                "<rect data-kind=\"cell\" data-row=\"{}\" data-col=\"{}\" data-{key}-a=\"{}\" data-{key}-b=\"{}\" data-rate=\"{}\" data-lo=\"{}\" data-hi=\"{}\" data-games=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{dash}><title>{} against {}: {} {} in {} games</title></rect>",
                esc(&labels[i]),
                esc(&labels[j]),
                esc(&h.ids[i]),
                esc(&h.ids[j]),
                d(cell.rate),
                d(cell.lo),
                d(cell.hi),
                cell.games,
                n(x + 1.0),
                n(y + 1.0),
                n(cw - 2.0),
                n(ch - 2.0),
                rate_color(cell.rate),
                if mirror { MUTED } else { "#ffffff" },
                if mirror { "1.5" } else { "1" },
                esc(&labels[i]),
                esc(&labels[j]),
                pct(cell.rate),
                super::pct_interval(cell.lo, cell.hi),
                cell.games,
                key = esc(h.id_key),
            ));
            let fill = ink(cell.rate);
            c.text(
                x + cw / 2.0,
                y + ch / 2.0 - 1.0,
                &pct(cell.rate),
                "middle",
                12.0,
                if clear { "700" } else { "normal" },
                fill,
            );
            let pc = |v: f64| format!("{:.0}", v * 100.0);
            c.text(
                x + cw / 2.0,
                y + ch / 2.0 + 12.0,
                &format!("{}–{}", pc(cell.lo), pc(cell.hi)),
                "middle",
                9.5,
                "normal",
                fill,
            );
        }
    }
    // The colour key: 0% to 100% in 20 steps, one half marked.
    let (kx, ky, kw, kh) = (left, bottom + 22.0, 200.0_f64.min(grid_w.max(160.0)), 10.0);
    for s in 0..20 {
        let p = (s as f64 + 0.5) / 20.0;
        c.raw(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
            n(kx + s as f64 * kw / 20.0),
            n(ky),
            n(kw / 20.0 + 0.3),
            n(kh),
            rate_color(p)
        ));
    }
    c.line(kx, ky + kh, kx + kw, ky + kh, GRID, 1.0);
    for (p, anchor) in [(0.0, "start"), (0.5, "middle"), (1.0, "end")] {
        c.text(
            kx + p * kw,
            ky + kh + 14.0,
            &format!("{:.0}%", p * 100.0),
            anchor,
            11.0,
            "normal",
            MUTED,
        );
    }
    c.text(kx, ky + kh + 32.0, note, "start", 11.0, "normal", MUTED);
    c.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_run_from_orange_through_white_to_blue() {
        assert_eq!(rate_color(0.0), "#d55e00");
        assert_eq!(rate_color(0.5), "#f7f7f7");
        assert_eq!(rate_color(1.0), "#0072b2");
        assert_eq!(rate_color(f64::NAN), "#f7f7f7");
    }

    #[test]
    fn one_cell_per_pair_with_its_numbers() {
        let cell = |rate: f64| HeatCell {
            rate,
            lo: rate - 0.1,
            hi: rate + 0.1,
            games: 100,
        };
        let svg = heatmap(
            "t",
            &["A & B".into(), "C".into()],
            &[1, 0],
            &[vec![cell(0.5), cell(0.7)], vec![cell(0.3), cell(0.5)]],
        );
        assert_eq!(svg.matches("data-kind=\"cell\"").count(), 4);
        assert!(svg.contains("data-row=\"A &amp; B\" data-col=\"C\" data-entry-a=\"1\" data-entry-b=\"0\" data-rate=\"0.7\""));
        assert_eq!(svg.matches("stroke-dasharray").count(), 2);
    }

    #[test]
    fn a_pair_without_games_is_an_empty_cell() {
        let cell = HeatCell {
            rate: 0.6,
            lo: 0.55,
            hi: 0.65,
            games: 400,
        };
        let labels = ["Axiom".to_string(), "Bravos".to_string()];
        let ids = ["AX".to_string(), "BR".to_string()];
        let svg = draw(&Heatmap {
            title: "t",
            labels: &labels,
            id_key: "faction",
            ids: &ids,
            row_axis: "row: the faction",
            min_label_width: 40.0,
            col_axis: "column: the opponent's faction",
            note: "n",
            cells: &[vec![Some(cell.clone()), None], vec![None, Some(cell)]],
        });
        assert_eq!(svg.matches("data-kind=\"cell\"").count(), 2);
        assert_eq!(svg.matches("data-kind=\"empty\"").count(), 2);
        assert!(svg.contains("data-faction-a=\"BR\" data-faction-b=\"BR\" data-rate=\"0.6\""));
        assert!(svg.contains("Axiom against Bravos: no games"));
        assert!(svg.contains("row: the faction"));
    }
}
