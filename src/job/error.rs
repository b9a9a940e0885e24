//! Errors as the user sees them: usage errors (exit code 2) against bad files and failed
//! runs (exit code 1), and the one-line message of an error and its causes. Below every
//! command; uses nothing of the application.
//!
//! Layer: part of [`crate::job`].

/// A bad flag value (or a bad combination of flags): printed like any other error, but the
/// program exits 2, as clap does for its own usage errors (docs/hardening.md, "Exit codes and errors").
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// A usage error (exit code 2) with this message.
pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Usage(msg.into()))
}

/// Whether an error is a usage error (exit code 2) rather than a bad file or a failed run.
pub fn is_usage(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.is::<Usage>())
}

/// The message of an error and its causes, `outer: inner: ...`, each cause once: a cause
/// whose text the message already holds (an I/O error that its wrapper prints itself) is
/// not repeated.
pub fn message(e: &anyhow::Error) -> String {
    let mut msg = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if text.is_empty() || msg.contains(&text) {
            continue;
        }
        if !msg.is_empty() {
            msg.push_str(": ");
        }
        msg.push_str(&text);
    }
    msg
}

/// The exit code of an error: 2 for a usage error, 1 for a bad file or a failed run.
pub fn exit_code(e: &anyhow::Error) -> u8 {
    if is_usage(e) { 2 } else { 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cause_already_in_the_message_is_not_repeated() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let e = anyhow::Error::new(crate::error::DeckError::Io {
            path: "x.txt".into(),
            source: io,
        })
        .context("loading x");
        assert_eq!(message(&e), "loading x: x.txt: No such file");
        assert_eq!(exit_code(&e), 1);
    }

    #[test]
    fn usage_errors_exit_2_even_under_context() {
        let e = usage("--games 0: expected at least 1").context("run");
        assert_eq!(exit_code(&e), 2);
        assert_eq!(message(&e), "run: --games 0: expected at least 1");
    }
}
