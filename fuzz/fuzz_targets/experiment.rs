//! Fuzz target: `confluence_sim::fuzz::experiment` on arbitrary bytes (see src/fuzz.rs).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = confluence_sim::fuzz::experiment(data);
});
