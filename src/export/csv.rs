//! CSV exporter.
//!
//! Layer: part of [`crate::export`]; may use `error` and nothing else of the crate.

use std::io::Write;

use super::{ColumnData, Table};

fn cell(c: &ColumnData, row: usize) -> String {
    match c {
        ColumnData::U32(v) => v[row].to_string(),
        ColumnData::U64(v) => v[row].to_string(),
        ColumnData::F64(v) => {
            let x = v[row];
            if x.is_nan() {
                String::new()
            } else {
                format!("{x}")
            }
        }
        ColumnData::Str(v) => v[row].clone(),
        ColumnData::Bool(v) => v[row].to_string(),
        ColumnData::ListU64(v) => v[row]
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(";"),
    }
}

pub fn write<W: Write>(t: &Table, w: W) -> Result<(), String> {
    let mut wr = csv::Writer::from_writer(w);
    wr.write_record(t.columns.iter().map(|(n, _)| n.as_str()))
        .map_err(|e| e.to_string())?;
    let mut rec = Vec::with_capacity(t.columns.len());
    for row in 0..t.rows() {
        rec.clear();
        rec.extend(t.columns.iter().map(|(_, c)| cell(c, row)));
        wr.write_record(&rec).map_err(|e| e.to_string())?;
    }
    wr.flush().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_header_and_rows() {
        let mut t = Table::new();
        t.push("games", ColumnData::U64(vec![10, 20]))
            .push("rate", ColumnData::F64(vec![0.5, f64::NAN]))
            .push("deck", ColumnData::Str(vec!["a,b".into(), "c".into()]))
            .push("hist", ColumnData::ListU64(vec![vec![1, 2], vec![]]));
        let mut out = Vec::new();
        write(&t, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "games,rate,deck,hist\n10,0.5,\"a,b\",1;2\n20,,c,\n"
        );
    }
}
