//! `--players calibration.json`: the players `calibrate` fitted, as the policies that
//! play like them (`skill:t=T,name=NAME`), reported as "players like NAME".
//!
//! Layer: part of [`crate::job`].

use anyhow::{Result, bail};

/// A player's name as a policy spec can carry it: the characters that separate a spec's
/// parameters (`,`, `=`, `:`) become `-`.
pub fn spec_name(name: &str) -> String {
    name.chars()
        .map(|c| if matches!(c, ',' | '=' | ':') { '-' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// `,from=EVALUATOR` for a skill spec valued by `evaluator`, or nothing for the default
/// evaluator (and for none).
pub fn from_clause(evaluator: &str) -> String {
    let default = crate::policy::DEFAULT_EVALUATOR.parse::<crate::policy::PolicySpec>();
    match evaluator.parse::<crate::policy::PolicySpec>() {
        Ok(e) if Ok(&e) != default.as_ref() => format!(",from={e}"),
        _ => String::new(),
    }
}

/// The players of a calibration.json, as `--players` reads it: (name, `skill:t=T̂`).
pub fn players_of(path: &std::path::Path) -> Result<Vec<(String, String)>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("--players {}: {e}", path.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: not a calibration.json: {e}", path.display()))?;
    let Some(list) = v.get("players").and_then(|p| p.as_array()) else {
        bail!(
            "{}: not a calibration.json (no \"players\" list)",
            path.display()
        );
    };
    // The players play with the values they were fitted on.
    let from = from_clause(v.get("evaluator").and_then(|e| e.as_str()).unwrap_or(""));
    let mut out = Vec::new();
    for (i, p) in list.iter().enumerate() {
        let name = p.get("player").and_then(|n| n.as_str());
        let t = p.get("t").and_then(|t| t.as_f64());
        match (name, t) {
            (Some(n), Some(t)) => out.push((
                n.to_string(),
                format!("skill:t={},name={}{from}", fmt_t(t), spec_name(n)),
            )),
            // No fitted t (no decision that tells, or choices no better than chance).
            (Some(n), None) => eprintln!(
                "confluence-sim: warning: {}: player {n} has no finite fitted t; left out",
                path.display()
            ),
            _ => bail!(
                "{}: player {} has no \"player\" name",
                path.display(),
                i + 1
            ),
        }
    }
    Ok(out)
}

/// `t` as a policy spec writes it (two decimals, no trailing zeros).
pub fn fmt_t(t: f64) -> String {
    if !t.is_finite() {
        return "1000".into();
    }
    let s = format!("{:.2}", t.max(0.0));
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
