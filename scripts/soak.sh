#!/usr/bin/env bash
# The soak: 10,000,000 games with the engine's invariant checker compiled in (cargo feature
# `invariants`: every engine step is checked, and every choice a policy makes is checked
# to be legal, at release speed). The six starter decks x each policy x 16 rare mixes
# (all-common, all-rare and one random subset of each count from 1 to 14), the games split
# evenly over the configurations and over SOAK_CHUNKS runs (default 10, seeds 1, 2, ...,
# so that a soak cut short still reports what it played). Prints games, violations and peak
# memory (the figures docs/hardening.md quotes). The checker stops the run at the first violation (a
# panic naming it), so a finished soak has 0.
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
chunks=${SOAK_CHUNKS:-10}
seed0=${SOAK_SEED:-1}
mixes=16
decks=(decks/player/*.txt)
configs=$(( ${#decks[@]} * ${#policies[@]} * mixes ))
per_config=$(( (total + configs * chunks - 1) / (configs * chunks) ))

cargo build --release --quiet --features invariants
bin="${CARGO_TARGET_DIR:-target}/release/confluence-sim"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "soak: ${#decks[@]} decks x ${#policies[@]} policies (${policies[*]}) x $mixes mixes = $configs configurations; $chunks chunks (seeds $seed0..$(( seed0 + chunks - 1 ))) of $per_config games per configuration"
threads=()
[ -n "${SOAK_THREADS:-}" ] && threads=(--threads "$SOAK_THREADS")
played=0
peak_max=0
secs=0
for (( c = 0; c < chunks; c++ )); do
    seed=$(( seed0 + c ))
    {
        echo 'name = "soak: every starter deck x policy at 16 rare mixes, invariants checked"'
        printf 'players = ['
        printf '"%s", ' "${decks[@]/#/$PWD/}"
        printf ']\npolicies = ['
        printf '"%s", ' "${policies[@]}"
        printf ']\nconfluence = "%s/decks/confluence/reference.toml"\n' "$PWD"
        printf 'cards = "%s/decks/cards"\nseed = %s\n' "$PWD" "$seed"
        printf '[games]\nper_config = %s\n' "$per_config"
        printf '[mixes]\ncounts = ["0", "15", "1..=14"]\nsubsets = 1\n'
    } >"$work/soak.toml"
    status=0
    /usr/bin/time -v nice -n 10 "$bin" run --experiment "$work/soak.toml" --out "$work/out" -q "${threads[@]}" \
        >"$work/stdout" 2>"$work/stderr" || status=$?
    if [ "$status" -ne 0 ]; then
        echo "soak: chunk $((c + 1)) (seed $seed) FAILED (exit $status) after $played games; violations: at least 1"
        grep -E 'invariant broken|illegal choice|panicked|error' "$work/stderr" | head -20
        exit 1
    fi
    # Games played, from the summary (not from the plan).
    n=$(python3 -c 'import csv,sys; print(sum(int(r["games"]) for r in csv.DictReader(open(sys.argv[1]))))' "$work/out/summary.csv")
    peak=$(grep 'Maximum resident set size' "$work/stderr" | grep -o '[0-9]*$')
    t=$(grep -o 'games in [0-9.]*s' "$work/stderr" | grep -o '[0-9.]*' | tail -1)
    played=$(( played + n ))
    peak_max=$(( peak > peak_max ? peak : peak_max ))
    secs=$(python3 -c "print(round($secs + $t, 1))")
    echo "soak: chunk $((c + 1))/$chunks (seed $seed): $n games in ${t}s, peak $(( peak / 1024 )) MiB; so far $played games, 0 violations, ${secs}s"
done
echo "soak: $played games; violations: 0; peak memory: $(( peak_max / 1024 )) MiB; ${secs}s of simulation"
