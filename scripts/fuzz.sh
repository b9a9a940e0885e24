#!/usr/bin/env bash
# Fuzzes the parsers with cargo-fuzz (libFuzzer; needs the nightly toolchain and
# `cargo install cargo-fuzz`): player decks, Confluence decks, experiment files, scenario
# files and the effect language. Targets are in fuzz/fuzz_targets/, their entry points in
# src/fuzz.rs; the short property-test versions run in `cargo test` (tests/fuzz_smoke.rs).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]    each target for SECONDS (default 600)
#   scripts/fuzz.sh --cmin [TARGET...]       minimise the committed corpora
#   scripts/fuzz.sh --seed                   (re)seed fuzz/corpus/ from the repository's files
#
# The build is light: the main crate is compiled without its `parquet` feature (no polars)
# and with `--sanitizer none` (safe Rust: a panic, a hang or runaway memory is what we look
# for, not memory errors), with debug assertions on (integer overflow panics). Limits per
# input: 10 s (a hang), 2 GiB of RSS (runaway memory). A finding is written under
# fuzz/artifacts/TARGET/ and the script exits 1. Set FUZZ_TARGET_DIR to build elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

ALL=(player_deck confluence_deck experiment scenario effect_lines)
TARGET_DIR=${FUZZ_TARGET_DIR:-fuzz/target}
FUZZ=(cargo +nightly fuzz)
BUILD_FLAGS=(--sanitizer none --debug-assertions --target-dir "$TARGET_DIR")

seed() {
    local c=fuzz/corpus
    mkdir -p "$c"/{player_deck,confluence_deck,experiment,scenario,effect_lines}
    cp decks/player/*.txt tests/fixtures/decks/*.txt "$c/player_deck/"
    cp decks/confluence/*.toml tests/fixtures/confluence/*.toml "$c/confluence_deck/"
    cp decks/experiments/*.toml "$c/experiment/"
    cp tests/scenarios/*.toml "$c/scenario/"
    # One seed per encoded card: its ability lines.
    python3 - "$c/effect_lines" <<'PY'
import pathlib, sys, tomllib
out = pathlib.Path(sys.argv[1])
for f in sorted(pathlib.Path("decks/cards/abilities").glob("*.toml")):
    for ref, entry in tomllib.loads(f.read_text()).items():
        lines = entry.get("abilities", [])
        if lines:
            (out / ref).write_text("\n".join(lines) + "\n")
PY
}

case "${1:-}" in
--seed)
    seed
    exit 0
    ;;
--cmin)
    shift
    targets=("$@")
    [ ${#targets[@]} -eq 0 ] && targets=("${ALL[@]}")
    for t in "${targets[@]}"; do
        nice -n 10 "${FUZZ[@]}" cmin "${BUILD_FLAGS[@]}" "$t" -- -set_cover_merge=1
    done
    exit 0
    ;;
esac

secs=${1:-600}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${ALL[@]}")
[ -d fuzz/corpus/player_deck ] || seed

status=0
for t in "${targets[@]}"; do
    log=$(mktemp)
    echo "== $t: ${secs}s"
    if nice -n 10 "${FUZZ[@]}" run "${BUILD_FLAGS[@]}" "$t" -- \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 >"$log" 2>&1; then
        result=ok
    else
        result="FAILED (see fuzz/artifacts/$t/)"
        status=1
        tail -n 40 "$log"
    fi
    runs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | tail -1 || true)
    peak=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    echo "$t: $result; ${runs:-no summary}; $cov; peak RSS ${peak:-?} MB; corpus $(ls "fuzz/corpus/$t" | wc -l) files"
    rm -f "$log"
done
exit $status
