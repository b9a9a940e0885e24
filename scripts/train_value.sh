#!/usr/bin/env bash
# Regenerates decks/policies/value.toml, the value model, in two rounds (expert iteration):
#   1. the expert's self-play games label positions by their outcome; the network learns
#      the expert's win probability;
#   2. the search scoring its rollouts with round 1's network at the end of the decision's
#      day (search:horizon=1) plays the games of round 2, and the network learns its win
#      probability instead (a stronger player's values, which score its own rollouts better).
# The decks: the six starters and the twelve community decks beside the project (as for the
# expert). The binary embeds the file, hence a build after each round. The same code and
# decks give the same file byte for byte. About 10 minutes on 2 cores, builds included.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED="${SHARED:-../shared/data/decks}"
decks=()
for f in decks/player/*.txt "$SHARED"/bga_demo_*.txt "$SHARED"/bga_skybound_*.txt; do
    [ -f "$f" ] || { echo "train_value.sh: missing deck $f" >&2; exit 1; }
    decks+=(--player "$f")
done
cargo build --release --quiet
cargo run --release --quiet -- train-value "${decks[@]}" --policy expert --games 20000 --quiet
cargo build --release --quiet
cargo run --release --quiet -- train-value "${decks[@]}" --policy search:horizon=1,rollouts=12 \
    --games 1500 --every 1 --quiet
cargo build --release --quiet
echo "decks/policies/value.toml regenerated; the release binary embeds it."
