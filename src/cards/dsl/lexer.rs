//! The lexer: one ability line into identifiers, integers and punctuation, each with its
//! column.

use super::DslError;

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    Ident(String),
    Int(i32),
    Punct(&'static str),
    End,
}

pub(super) struct Lexer;

impl Lexer {
    pub(super) fn lex(src: &str) -> Result<Vec<(Tok, usize)>, DslError> {
        let chars: Vec<char> = src.chars().collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            if c.is_ascii_digit() {
                let mut n: i32 = 0;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    n = n
                        .saturating_mul(10)
                        .saturating_add(chars[i] as i32 - '0' as i32);
                    i += 1;
                }
                out.push((Tok::Int(n), start));
                continue;
            }
            if c.is_alphabetic() || c == '_' || c == '"' {
                if c == '"' {
                    i += 1;
                    let s = i;
                    while i < chars.len() && chars[i] != '"' {
                        i += 1;
                    }
                    if i >= chars.len() {
                        return Err(DslError {
                            col: start,
                            msg: "unterminated quoted name".into(),
                        });
                    }
                    let name: String = chars[s..i].iter().collect();
                    i += 1;
                    out.push((Tok::Ident(name), start));
                    continue;
                }
                while i < chars.len()
                    && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '\'')
                {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                out.push((Tok::Ident(word), start));
                continue;
            }
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            let p: &'static str = match two.as_str() {
                "<=" => "<=",
                ">=" => ">=",
                "==" => "==",
                _ => match c {
                    '(' => "(",
                    ')' => ")",
                    '{' => "{",
                    '}' => "}",
                    ',' => ",",
                    ';' => ";",
                    ':' => ":",
                    '|' => "|",
                    '<' => "<",
                    '>' => ">",
                    '=' => "=",
                    '-' => "-",
                    '+' => "+",
                    '/' => "/",
                    _ => {
                        return Err(DslError {
                            col: start,
                            msg: format!("unexpected character '{c}'"),
                        });
                    }
                },
            };
            i += p.len();
            out.push((Tok::Punct(p), start));
        }
        out.push((Tok::End, chars.len()));
        Ok(out)
    }
}
