#!/usr/bin/env bash
# Regenerates decks/policies/expert.toml, the expert policy's learned weights, in three
# rounds (as in DAgger): the search's choices in the planner's games, then in the games of
# the expert the previous round's weights make, twice. The binary embeds the file, hence
# the final build. The decks: the six starters (decks/player) and the twelve community decks
# beside the project (../shared/data/decks/bga_demo_* and bga_skybound_*), so that the
# per-card preferences cover every card those decks hold. The same code and decks give
# the same file. About 30 minutes of games on 2 cores, plus the builds.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES="${GAMES:-150}"
SEARCH="${SEARCH:-search:rollouts=48,width=8,expert=0}"
# The teacher of the first round (default: the same). A teacher with expert rollouts reads
# the expert the binary embeds, so give the first round one without (expert=0) when the
# later rounds use them: the result then depends on the code and decks only.
SEARCH1="${SEARCH1:-$SEARCH}"
SHARED="${SHARED:-../shared/data/decks}"
# The Confluence deck the committed weights were trained against (the reference deck before
# its recalibration against this expert); point CONFLUENCE elsewhere to train for another.
CONFLUENCE="${CONFLUENCE:-decks/policies/expert_training_confluence.toml}"
decks=()
for f in decks/player/*.txt "$SHARED"/bga_demo_*.txt "$SHARED"/bga_skybound_*.txt; do
    [ -f "$f" ] || { echo "train_expert.sh: missing deck $f" >&2; exit 1; }
    decks+=(--player "$f")
done
# One build: the later rounds read the previous round's file with --expert-weights (the
# acting expert and the teacher's expert rollouts alike), as a binary rebuilt with that
# file embedded would.
cargo build --release --quiet
round() {
    cargo run --release --quiet -- train-expert "${decks[@]}" --games "$GAMES" \
        --search "$2" --policy "$1" --confluence "$CONFLUENCE" --quiet "${@:3}"
}
round planner "$SEARCH1"
round expert "$SEARCH" --expert-weights decks/policies/expert.toml
round expert "$SEARCH" --expert-weights decks/policies/expert.toml
cargo build --release --quiet
echo "decks/policies/expert.toml regenerated; the release binary embeds it."
