//! The report as one self-contained HTML file: inline CSS and inline SVG, no script and
//! no external reference, so it opens offline in any browser.
//!
//! Layer: part of [`crate::report`]; may use `error`, `export`, `stats` and nothing else of the
//! crate.

use std::fmt::Write;

use super::{Block, Chart, DocTable, Document, Inline, Rich};

const STYLE: &str = include_str!("style.css");

/// Escapes text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    super::svg::esc(s)
}

fn rich(r: &Rich) -> String {
    r.0.iter()
        .map(|i| match i {
            Inline::Text(s) => esc(s),
            Inline::Code(s) => format!("<code>{}</code>", esc(s)),
            Inline::Strong(s) => format!("<strong>{}</strong>", esc(s)),
            // Inline elements only (a `<details>` is a block in most browsers, which put
            // the text after it, such as a closing ")", on a line of its own): a hidden
            // checkbox that a click on the short form ticks, and the stylesheet then shows
            // the full form in its place; no script.
            Inline::Mix { short, full } => format!(
                "<label class=\"mix\"><input type=\"checkbox\"><span class=\"short\">{}</span><span class=\"full\">{}</span></label>",
                esc(short),
                esc(full)
            ),
        })
        .collect()
}

fn table(out: &mut String, t: &DocTable) {
    let class = |i: usize| {
        if t.numeric.get(i).copied().unwrap_or(false) {
            " class=\"num\""
        } else {
            ""
        }
    };
    out.push_str("<div class=\"table-wrap\"><table>\n<thead><tr>");
    for (i, h) in t.header.iter().enumerate() {
        write!(out, "<th{}>{}</th>", class(i), esc(h)).expect("write to String");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in &t.rows {
        out.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            write!(out, "<td{}>{}</td>", class(i), rich(cell)).expect("write to String");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table></div>\n");
}

fn figure_id(chart: &Chart) -> String {
    esc(chart.file.trim_end_matches(".svg"))
}

fn block(out: &mut String, b: &Block) {
    match b {
        Block::Heading { level, text } => {
            let l = (*level).clamp(3, 6);
            writeln!(out, "<h{l}>{}</h{l}>", esc(text)).expect("write");
        }
        Block::Paragraph(r) => {
            writeln!(out, "<p>{}</p>", rich(r)).expect("write");
        }
        Block::Note(r) => {
            writeln!(out, "<p class=\"note\">{}</p>", rich(r)).expect("write");
        }
        Block::Facts(facts) => {
            out.push_str("<table class=\"facts\">\n<tbody>\n");
            for (k, v) in facts {
                writeln!(out, "<tr><th>{}</th><td>{}</td></tr>", esc(k), rich(v)).expect("write");
            }
            out.push_str("</tbody>\n</table>\n");
        }
        Block::Table(t) => table(out, t),
        Block::Figure { chart, caption } => {
            write!(
                out,
                "<figure id=\"{}\">\n<div class=\"chart\">{}</div>\n<figcaption>{}</figcaption>\n</figure>\n",
                figure_id(chart),
                chart.svg,
                rich(caption)
            )
            .expect("write");
        }
        Block::List(items) => {
            out.push_str("<ul>\n");
            for i in items {
                writeln!(out, "<li>{}</li>", rich(i)).expect("write");
            }
            out.push_str("</ul>\n");
        }
        Block::Panels { charts, caption } => {
            out.push_str("<figure class=\"panels\">\n<div class=\"panel-grid\">\n");
            for c in charts {
                writeln!(
                    out,
                    "<div class=\"panel\" id=\"{}\">{}</div>",
                    figure_id(c),
                    c.svg
                )
                .expect("write");
            }
            writeln!(
                out,
                "</div>\n<figcaption>{}</figcaption>\n</figure>",
                rich(caption)
            )
            .expect("write");
        }
        Block::Grid(cells) => {
            out.push_str("<div class=\"grid\">\n");
            for cell in cells {
                out.push_str("<div class=\"cell\">\n");
                for b in cell {
                    block(out, b);
                }
                out.push_str("</div>\n");
            }
            out.push_str("</div>\n");
        }
        Block::Details { summary, blocks } => {
            writeln!(out, "<details>\n<summary>{}</summary>", esc(summary)).expect("write");
            for b in blocks {
                block(out, b);
            }
            out.push_str("</details>\n");
        }
    }
}

/// Renders the document as HTML.
pub fn render(doc: &Document) -> String {
    let mut out = String::new();
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>\n{}</style>\n</head>\n<body>\n<main>\n<h1>{}</h1>\n<p class=\"lead\">{}</p>\n",
        esc(&doc.title),
        STYLE,
        esc(&doc.title),
        rich(&doc.lead)
    )
    .expect("write to String");
    out.push_str("<nav class=\"toc\">");
    for s in &doc.sections {
        write!(out, "\n<a href=\"#{}\">{}</a>", esc(&s.id), esc(&s.title)).expect("write");
    }
    out.push_str("\n</nav>\n");
    for s in &doc.sections {
        write!(
            out,
            "<section id=\"{}\">\n<h2>{}</h2>\n",
            esc(&s.id),
            esc(&s.title)
        )
        .expect("write to String");
        for b in &s.blocks {
            block(&mut out, b);
        }
        out.push_str("</section>\n");
    }
    write!(
        out,
        "<footer>{}</footer>\n</main>\n</body>\n</html>\n",
        rich(&doc.footer)
    )
    .expect("write to String");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 48, item 7: a folded rare mix is inline, so the ")" after it stays on its
    /// line (a `<details>` is laid out as a block and left the ")" alone on the next).
    #[test]
    fn a_folded_mix_keeps_the_text_after_it_on_its_line() {
        let r = Rich::text("Lyra 40.0% (")
            .mix(
                "6 rares: A, B +4".into(),
                "6 rares: A, B, C, D, E, F".into(),
            )
            .t(").");
        let html = rich(&r);
        assert!(!html.contains("<details"), "{html}");
        assert!(!html.contains("<div"), "{html}");
        assert!(html.ends_with("</label>)."), "{html}");
        assert!(html.contains("6 rares: A, B +4") && html.contains("6 rares: A, B, C, D, E, F"));
        // The stylesheet shows only the short form until a click, and never as a block.
        assert!(STYLE.contains("label.mix > input:checked ~ .full { display: inline; }"));
        assert!(!STYLE.contains("details.mix"));
    }
}
