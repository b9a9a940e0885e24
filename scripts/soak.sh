#!/usr/bin/env bash
# The soak: 10,000,000 games with the engine's invariant checker compiled in (cargo feature
# `invariants`: every engine step is checked, and every choice a policy makes is checked
# to be legal, at release speed). The six starter decks x each policy x 16 rare mixes
# (all-common, all-rare and one random subset of each count from 1 to 14), the games split
# evenly over the configurations. Prints games, violations and peak memory (the figures
# README quotes). The checker stops the run at the first violation (a panic naming it), so
# a finished soak has 0.
#
#   scripts/soak.sh [POLICY...]        default: random greedy planner
#   SOAK_GAMES=N scripts/soak.sh       fewer (or more) games in all
#
# Run from anywhere; builds into $CARGO_TARGET_DIR (default target/) and runs under
# `nice -n 10` on all cores (SOAK_THREADS to change).
set -euo pipefail
cd "$(dirname "$0")/.."

policies=("$@")
[ ${#policies[@]} -eq 0 ] && policies=(random greedy planner)
total=${SOAK_GAMES:-10000000}
mixes=16
decks=(decks/player/*.txt)
configs=$(( ${#decks[@]} * ${#policies[@]} * mixes ))
per_config=$(( (total + configs - 1) / configs ))

cargo build --release --quiet --features invariants
bin="${CARGO_TARGET_DIR:-target}/release/confluence-sim"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
    echo 'name = "soak: every starter deck x policy at 16 rare mixes, invariants checked"'
    printf 'players = ['
    printf '"%s", ' "${decks[@]/#/$PWD/}"
    printf ']\npolicies = ['
    printf '"%s", ' "${policies[@]}"
    printf ']\nconfluence = "%s/decks/confluence/reference.toml"\n' "$PWD"
    printf 'cards = "%s/decks/cards"\nseed = %s\n' "$PWD" "${SOAK_SEED:-1}"
    printf '[games]\nper_config = %s\n' "$per_config"
    printf '[mixes]\ncounts = ["0", "15", "1..=14"]\nsubsets = 1\n'
} >"$work/soak.toml"

echo "soak: ${#decks[@]} decks x ${#policies[@]} policies (${policies[*]}) x $mixes mixes = $configs configurations x $per_config games"
threads=()
[ -n "${SOAK_THREADS:-}" ] && threads=(--threads "$SOAK_THREADS")
status=0
/usr/bin/time -v nice -n 10 "$bin" run --experiment "$work/soak.toml" --out "$work/out" -q "${threads[@]}" \
    >"$work/stdout" 2>"$work/stderr" || status=$?

games=$(grep -o '[0-9]* games in [0-9.]*s' "$work/stderr" | tail -1 || true)
peak=$(grep 'Maximum resident set size' "$work/stderr" | grep -o '[0-9]*$' || true)
wall=$(grep 'Elapsed (wall clock)' "$work/stderr" | awk '{print $NF}' || true)
if [ "$status" -eq 0 ]; then
    echo "soak: ${games:-? games}; violations: 0; peak memory: $(( ${peak:-0} / 1024 )) MiB; wall $wall"
    # Games played, from the summary: must equal configurations x games per configuration.
    played=$(python3 -c 'import csv,sys; print(sum(int(r["games"]) for r in csv.DictReader(open(sys.argv[1]))))' "$work/out/summary.csv")
    echo "soak: summary.csv counts $played games over $(( $(wc -l <"$work/out/summary.csv") - 1 )) configurations"
else
    echo "soak: FAILED (exit $status); violations: at least 1"
    grep -E 'invariant broken|illegal choice|panicked|error' "$work/stderr" | head -20
    exit 1
fi
