#!/usr/bin/env bash
# Throughput per core (random, greedy, planner, search) and peak memory for 100k and 10M games.
# Run from the repository root; prints the figures quoted in docs/performance.md.
set -euo pipefail
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/confluence-sim"
echo "== machine"; nproc; grep -m1 "model name" /proc/cpuinfo || true
echo "== throughput (single thread)"
"$bin" bench --games "${BENCH_GAMES:-200000}"
"$bin" bench --games "${SEARCH_GAMES:-1000}" --policy search
out=$(mktemp -d)
for n in 100000 10000000; do
  echo "== peak memory, run --rares 0 --games $n"
  /usr/bin/time -v "$bin" run --rares 0 --games "$n" --out "$out" -q 2>&1 \
    | grep -E "games in|Maximum resident"
done
rm -rf "$out"
