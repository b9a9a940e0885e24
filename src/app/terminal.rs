//! The terminal tables of `ladder`, `tune` and `matchup` (and their number formats): columns
//! as wide as their widest cell, so that a long policy spec or deck name never pushes a
//! row's figures out of line; a cell longer than its column may be (a policy spec of a
//! search, a rare mix at 9 to 15 rares) shown by a short label (`[A]`, `[B]`, ...) that a
//! legend under the table names in full, so that rows whose names begin alike can be told
//! apart; one format for every figure (a rate `44.3%`, its interval `[ 43.3%,  45.3%]`, a
//! signed difference `+1.2`, never `-0.0`).
//!
//! Layer: part of [`crate::app`]; may use every other module; none uses it.

use crate::stats::Interval;

pub use crate::job::summary::{mix_labels as labels, signed};

/// The longest policy spec a table shows whole; a longer one gets a label.
pub const POLICY_MAX: usize = 32;
/// The longest rare mix a table shows whole (as the run table).
pub const MIX_MAX: usize = 40;

/// A rate in [0, 1] as a percentage with one decimal: `0.443` -> `44.3%`.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// An interval of rates, each bound padded so that the brackets line up in a column:
/// `[ 43.3%,  45.3%]`.
pub fn pct_interval(lo: f64, hi: f64) -> String {
    format!("[{:>5.1}%, {:>5.1}%]", 100.0 * lo, 100.0 * hi)
}

/// An interval of signed differences with one decimal, padded: `[ -4.8,  -3.6]`.
pub fn signed_interval(lo: f64, hi: f64) -> String {
    format!("[{:>5}, {:>5}]", signed(lo), signed(hi))
}

/// A rate's interval as [`pct_interval`].
pub fn interval(i: &Interval) -> String {
    pct_interval(i.lo, i.hi)
}

/// A table for the terminal: a header, and for each column whether it is right-aligned
/// (figures) or left-aligned (names).
pub struct Grid {
    header: Vec<String>,
    right: Vec<bool>,
    rows: Vec<Vec<String>>,
}

impl Grid {
    /// Columns `(header, right-aligned)`.
    pub fn new(columns: &[(&str, bool)]) -> Grid {
        Grid {
            header: columns.iter().map(|c| c.0.to_string()).collect(),
            right: columns.iter().map(|c| c.1).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row (as many cells as columns; missing ones are empty).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// The table: each column as wide as its widest cell, two spaces between columns, no
    /// space at the end of a line.
    pub fn render(&self) -> String {
        let width = |k: usize| {
            self.rows
                .iter()
                .filter_map(|r| r.get(k))
                .chain([&self.header[k]])
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..self.header.len()).map(width).collect();
        let line = |cells: &[String]| {
            let mut s = String::new();
            for (k, w) in widths.iter().enumerate() {
                let c = cells.get(k).map(String::as_str).unwrap_or("");
                if k > 0 {
                    s.push_str("  ");
                }
                if self.right[k] {
                    s.push_str(&format!("{c:>w$}"));
                } else {
                    s.push_str(&format!("{c:<w$}"));
                }
            }
            s.trim_end().to_string()
        };
        let mut out = line(&self.header);
        for r in &self.rows {
            out.push('\n');
            out.push_str(&line(r));
        }
        out
    }
}

/// The legend of a table's labels under a title (`policies:`, `rare mixes:`), or nothing.
pub fn legend(title: &str, lines: &[String]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let mut s = format!("{title}:");
    for l in lines {
        s.push_str("\n  ");
        s.push_str(l);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_as_wide_as_their_widest_cell() {
        let mut g = Grid::new(&[("policy", false), ("win", true)]);
        g.row(vec!["greedy".into(), pct(0.443)]);
        g.row(vec!["search:rollouts=24,width=5".into(), pct(0.05)]);
        let t = g.render();
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "policy                        win");
        assert_eq!(lines[1], "greedy                      44.3%");
        assert_eq!(lines[2], "search:rollouts=24,width=5   5.0%");
    }

    #[test]
    fn one_format_for_figures_and_no_minus_zero() {
        assert_eq!(pct_interval(0.05, 0.443), "[  5.0%,  44.3%]");
        assert_eq!(signed_interval(-0.0004, 0.04), "[  0.0,   0.0]");
        assert_eq!(signed_interval(-4.84, -3.6), "[ -4.8,  -3.6]");
        assert_eq!(legend("policies", &[]), "");
        assert_eq!(legend("policies", &["[A] x".into()]), "policies:\n  [A] x");
    }
}
