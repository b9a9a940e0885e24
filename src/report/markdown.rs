//! The report in Markdown (GitHub flavour): the same document as the HTML, with the charts
//! linked as `charts/*.svg` relative to the report.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use std::fmt::Write;

use super::{Block, Chart, DocTable, Document, Inline, Rich};

/// Escapes the characters Markdown would read as markup (and `|`, for table cells).
/// An underscore inside a word (`BR_kojo_booda`) is left alone: GitHub Markdown does not
/// read it as emphasis, and the raw file stays readable.
pub fn esc(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        let inside_word = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_alphanumeric())
        };
        let escape = match c {
            '\\' | '`' | '*' | '<' | '>' | '|' => true,
            '_' => !(inside_word(i.checked_sub(1)) && inside_word(Some(i + 1))),
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn rich(r: &Rich) -> String {
    r.0.iter()
        .map(|i| match i {
            Inline::Text(s) => esc(s),
            // Code spans cannot escape: fence with more backticks than the text holds.
            Inline::Code(s) => {
                let fence = "`".repeat(s.split(|c| c != '`').map(str::len).max().unwrap_or(0) + 1);
                let pad = if s.starts_with('`') || s.ends_with('`') {
                    " "
                } else {
                    ""
                };
                format!("{fence}{pad}{}{pad}{fence}", s.replace('|', "\\|"))
            }
            Inline::Strong(s) => format!("**{}**", esc(s)),
            // Markdown cannot fold: the mix in full.
            Inline::Mix { full, .. } => esc(full),
        })
        .collect()
}

fn table(out: &mut String, t: &DocTable) {
    let cells = |v: Vec<String>| format!("| {} |\n", v.join(" | "));
    out.push_str(&cells(t.header.iter().map(|h| esc(h)).collect()));
    out.push_str(&cells(
        (0..t.header.len())
            .map(|i| {
                if t.numeric.get(i).copied().unwrap_or(false) {
                    "---:".to_string()
                } else {
                    "---".to_string()
                }
            })
            .collect(),
    ));
    for row in &t.rows {
        out.push_str(&cells(row.iter().map(rich).collect()));
    }
    out.push('\n');
}

fn image(out: &mut String, chart: &Chart) {
    write!(
        out,
        "![{}](charts/{})\n\n",
        esc(&chart.title).replace('[', "\\[").replace(']', "\\]"),
        chart.file
    )
    .expect("write");
}

fn block(out: &mut String, b: &Block) {
    match b {
        Block::Heading { level, text } => {
            let l = (*level).clamp(3, 6) as usize;
            write!(out, "{} {}\n\n", "#".repeat(l), esc(text)).expect("write");
        }
        Block::Paragraph(r) => {
            write!(out, "{}\n\n", rich(r)).expect("write");
        }
        Block::Note(r) => {
            write!(out, "> {}\n\n", rich(r)).expect("write");
        }
        Block::Facts(facts) => {
            for (k, v) in facts {
                writeln!(out, "- **{}:** {}", esc(k), rich(v)).expect("write");
            }
            out.push('\n');
        }
        Block::Table(t) => table(out, t),
        Block::Figure { chart, caption } => {
            image(out, chart);
            write!(out, "*{}*\n\n", rich(caption)).expect("write");
        }
        Block::List(items) => {
            for i in items {
                writeln!(out, "- {}", rich(i)).expect("write");
            }
            out.push('\n');
        }
        Block::Panels { charts, caption } => {
            for c in charts {
                image(out, c);
            }
            write!(out, "*{}*\n\n", rich(caption)).expect("write");
        }
        Block::Grid(cells) => {
            for b in cells.iter().flatten() {
                block(out, b);
            }
        }
        // GitHub renders <details> in Markdown; the blank lines let Markdown inside it.
        Block::Details { summary, blocks } => {
            write!(
                out,
                "<details>\n<summary>{}</summary>\n\n",
                super::html::esc(summary)
            )
            .expect("write");
            for b in blocks {
                block(out, b);
            }
            out.push_str("</details>\n\n");
        }
    }
}

/// Renders the document as Markdown.
pub fn render(doc: &Document) -> String {
    let mut out = String::new();
    write!(out, "# {}\n\n{}\n\n", esc(&doc.title), rich(&doc.lead)).expect("write to String");
    for s in &doc.sections {
        write!(out, "## {}\n\n", esc(&s.title)).expect("write to String");
        for b in &s.blocks {
            block(&mut out, b);
        }
    }
    write!(out, "---\n\n{}\n", rich(&doc.footer)).expect("write to String");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_deck_names_and_pipes() {
        assert_eq!(esc("BR_kojo_booda | x"), "BR_kojo_booda \\| x");
        assert_eq!(esc("_a_ *b* <c>"), "\\_a\\_ \\*b\\* \\<c\\>");
    }
}
