#!/usr/bin/env bash
# Regenerates decks/policies/expert.toml, the expert policy's learned weights, in two
# rounds (as in DAgger): the search's choices in the planner's games, then in the games of
# the expert those first weights make. The binary embeds the file, hence the rebuilds.
# The same code and decks give the same file. About 3 minutes of games on 2 cores, plus
# the builds.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES="${GAMES:-100}"
cargo build --release --quiet
cargo run --release --quiet -- train-expert --games "$GAMES" --policy planner --quiet
cargo build --release --quiet
cargo run --release --quiet -- train-expert --games "$GAMES" --policy expert --quiet
cargo build --release --quiet
echo "decks/policies/expert.toml regenerated; the release binary embeds it."
