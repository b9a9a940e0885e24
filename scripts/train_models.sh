#!/usr/bin/env bash
# Regenerates every committed weight file, from a fresh clone, in order:
#   expert  decks/policies/expert.toml, the expert's learned scores, in three rounds (as in
#           DAgger): the search's choices in the planner's games, then in the games of the
#           expert the previous round's weights make, twice;
#   value   decks/policies/value.toml, the value model, in two rounds (expert iteration):
#           the expert's self-play games labelled by their outcome, then the games of the
#           search that scores its rollouts with round 1's network;
#           (Each round of these two chains also records its player's pooled win rate over
#           the twelve starter rows, in $STATE/expert-K.score and value-K.score.)
#   pnet    decks/policies/pnet.toml, the policy network of `expert:net=1`, by expert
#           iteration: the choices of the search as its defaults were when the network was
#           trained (24 samples, no `deep`: search:rollouts=24,deep=0) in the expert's games,
#           then in the games of `expert:net=1` with the previous round's network (as in
#           DAgger), round after round until a round gains less than $PNET_GAIN points
#           (pooled win rate of `expert:net=1` over the six starters at all commons and all
#           rares, 1,000 games each, seed 1) or $PNET_ROUNDS rounds have run. A round that
#           loses is undone (the file goes back to the round before). Each round's measure is
#           in $STATE/pnet-K.score; 2 to 12 minutes a round on 2 cores, and a build.
# Usage: scripts/train_models.sh [all|expert|value|pnet]   (default all: expert, then value,
# whose first round plays the new expert, then pnet, whose teacher reads both).
#
# The decks: the six starters (decks/player) and the twelve community decks beside the
# project (../shared/data/decks/bga_demo_* and bga_skybound_*). The same code and decks give
# the same files byte for byte, on any number of threads.
#
# Resumable: after each round the script writes a stamp under $STATE (the hash of the file
# the round wrote). Run it again after an interruption and each chain resumes after its last
# round whose stamp matches the file on disk; once a round runs, every round after it runs.
# The binary embeds the files, hence a build after each round. About 75 to 100 minutes on
# 2 cores with one round of the policy network, builds included (2026-11-27, in a fresh
# clone on the loaded machine with a warm build cache: 76 minutes, the expert's three rounds
# 50 of them, the network's round 11), and 10 to 30 more for its later rounds (its three
# rounds with their builds and measures: 9.5 minutes on the quiet machine of 2026-11-27).
set -euo pipefail
cd "$(dirname "$0")/.."
WHAT="${1:-all}"
case "$WHAT" in all | expert | value | pnet) ;; *)
    echo "usage: scripts/train_models.sh [all|expert|value|pnet]" >&2
    exit 2
    ;;
esac
SHARED="${SHARED:-../shared/data/decks}"
STATE="${STATE:-target/train-models}"
# The expert's teacher, and the Confluence deck the committed expert was trained against
# (the reference deck before its recalibration against this expert). The teacher plays its
# rollouts to the game's end (`horizon=0`) with the planner (`expert=0`): it reads neither
# committed model, so the expert depends on the code and decks alone. (`expert=0` implies
# `horizon=0` today; it is spelled out so that a change of the search's defaults cannot
# make the teacher read the value model, which this script trains from the expert's games:
# a cycle, after which a fresh clone would no longer write the committed files.)
GAMES="${GAMES:-150}"
SEARCH="${SEARCH:-search:rollouts=48,width=8,expert=0,horizon=0}"
# The teacher of the expert's first round (default: the same). A teacher with expert
# rollouts reads the expert the binary embeds, so give the first round one without
# (expert=0) when the later rounds use them: the result then depends on the code and decks.
SEARCH1="${SEARCH1:-$SEARCH}"
CONFLUENCE="${CONFLUENCE:-decks/policies/expert_training_confluence.toml}"
# Round 2 of the value model: the search as it was when the committed model was trained
# (candidates by the expert's pick, `rank=0`; named in full so that a later change of the
# search's defaults does not change what this script trains).
VALUE_SEARCH="${VALUE_SEARCH:-search:horizon=1,rollouts=12,rank=0}"
# The policy network's teacher: the default search of 2026-11-26 (24 samples, one day of
# horizon everywhere), named in full since the defaults of 2026-11-27 look further.
PNET_SEARCH="${PNET_SEARCH:-search:rollouts=24,deep=0}"
PNET_ROUNDS="${PNET_ROUNDS:-5}"
PNET_GAIN="${PNET_GAIN:-0.5}"
decks=()
for f in decks/player/*.txt "$SHARED"/bga_demo_*.txt "$SHARED"/bga_skybound_*.txt; do
    [ -f "$f" ] || {
        echo "train_models.sh: missing deck $f" >&2
        exit 1
    }
    decks+=(--player "$f")
done
mkdir -p "$STATE"

hash_of() { sha256sum "$1" | cut -d' ' -f1; }

# The rounds of one chain (they all rewrite the same file) start after the last one whose
# stamp names that file's current hash; a chain that runs a round makes the later chains
# run whole (the value model's games are the new expert's).
fresh=0
chain() {
    local file="$1" n="$2" from=1 k
    if [ "$fresh" = 0 ]; then
        for ((k = n; k >= 1; k--)); do
            if [ -f "$STATE/$3-$k.done" ] && [ "$(cat "$STATE/$3-$k.done")" = "$(hash_of "$file")" ]; then
                from=$((k + 1))
                break
            fi
        done
    fi
    echo "$from"
}
# round NAME FILE COMMAND...: runs COMMAND (which rewrites FILE), rebuilds so that the binary
# embeds FILE, and stamps NAME.
round() {
    local name="$1" file="$2"
    shift 2
    fresh=1
    echo "train_models.sh: $name ..."
    "$@"
    cargo build --release --quiet
    hash_of "$file" >"$STATE/$name.done"
    # What the round gained, measured and kept (the rounds are fixed; see score_of).
    score_of "$name" >"$STATE/$name.score"
    echo "train_models.sh: $name: $(cat "$STATE/$name.score")% pooled"
}
# score_of NAME: the pooled win rate, in points, over the twelve starter rows (1,000 games
# each, seed 1), of the policy a round of NAME's chain trains with the binary's files: the
# expert for its rounds, the value model's round 2 search for its rounds. A record of what
# each round gained; the expert's and the value model's rounds stay fixed (3 and 2).
score_of() {
    local out="$STATE/${1%-*}-measure" pol
    case "$1" in expert-*) pol=expert ;; *) pol="$VALUE_SEARCH" ;; esac
    cargo run --release --quiet -- compare --policy "$pol" --policy greedy --games 1000 \
        --seed 1 --out "$out" --quiet
    # The policy's rows are those that are not greedy's; its name may hold commas (quoted),
    # so the win rate is counted from the end of the row.
    awk -F, 'NR > 1 && $5 != "greedy" { s += $(NF - 14); n++ }
        END { printf "%.2f\n", 100 * s / n }' "$out/compare.csv"
}

expert() {
    cargo run --release --quiet -- train-expert "${decks[@]}" --games "$GAMES" \
        --search "$2" --policy "$1" --confluence "$CONFLUENCE" --quiet "${@:3}"
}
value() {
    cargo run --release --quiet -- train-value "${decks[@]}" "$@" --quiet
}
pnet() {
    cargo run --release --quiet -- train-policy "${decks[@]}" --search "$PNET_SEARCH" --games 1000 "$@" --quiet
}

cargo build --release --quiet
E=decks/policies/expert.toml
V=decks/policies/value.toml
P=decks/policies/pnet.toml
if [ "$WHAT" = all ] || [ "$WHAT" = expert ]; then
    from=$(chain "$E" 3 expert)
    # The later rounds read the previous round's file with --expert-weights (the acting
    # expert and the teacher's expert rollouts alike).
    [ "$from" -le 1 ] && round expert-1 "$E" expert planner "$SEARCH1"
    [ "$from" -le 2 ] && round expert-2 "$E" expert expert "$SEARCH" --expert-weights "$E"
    [ "$from" -le 3 ] && round expert-3 "$E" expert expert "$SEARCH" --expert-weights "$E"
    [ "$from" -gt 3 ] && echo "train_models.sh: expert already done"
fi
if [ "$WHAT" = all ] || [ "$WHAT" = value ]; then
    from=$(chain "$V" 2 value)
    [ "$from" -le 1 ] && round value-1 "$V" value --policy expert --games 20000
    [ "$from" -le 2 ] && round value-2 "$V" value --policy "$VALUE_SEARCH" --games 1500 --every 1
    [ "$from" -gt 2 ] && echo "train_models.sh: value already done"
fi
# The pooled win rate, in points, of `expert:net=1` with the network the binary embeds.
pnet_score() {
    local out="$STATE/pnet-measure"
    cargo run --release --quiet -- compare --policy expert --policy expert:net=1 --games 1000 \
        --seed 1 --out "$out" --quiet
    awk -F, '$5 == "expert:net=1" { s += $9; n++ } END { printf "%.2f\n", 100 * s / n }' \
        "$out/compare.csv"
}
if [ "$WHAT" = all ] || [ "$WHAT" = pnet ]; then
    if [ "$fresh" = 0 ] && [ -f "$STATE/pnet-final.done" ] &&
        [ "$(cat "$STATE/pnet-final.done")" = "$(hash_of "$P")" ]; then
        echo "train_models.sh: pnet already done"
    else
        from=$(chain "$P" "$PNET_ROUNDS" pnet)
        for ((k = from; k <= PNET_ROUNDS; k++)); do
            player=expert
            [ "$k" -gt 1 ] && player=expert:net=1
            fresh=1
            echo "train_models.sh: pnet-$k (games of $player) ..."
            pnet --policy "$player" --hidden 48 --epochs 10
            cargo build --release --quiet
            pnet_score >"$STATE/pnet-$k.score"
            cp "$P" "$STATE/pnet-$k.toml"
            hash_of "$P" >"$STATE/pnet-$k.done"
            echo "train_models.sh: pnet-$k: expert:net=1 wins $(cat "$STATE/pnet-$k.score")% pooled"
            [ "$k" = 1 ] && continue
            gain=$(awk 'NR == 1 { a = $1 } NR == 2 { printf "%.2f", $1 - a }' \
                "$STATE/pnet-$((k - 1)).score" "$STATE/pnet-$k.score")
            if awk -v g="$gain" -v m="$PNET_GAIN" 'BEGIN { exit !(g < m) }'; then
                if awk -v g="$gain" 'BEGIN { exit !(g < 0) }'; then
                    echo "train_models.sh: pnet-$k lost $gain points: back to pnet-$((k - 1))"
                    cp "$STATE/pnet-$((k - 1)).toml" "$P"
                    cargo build --release --quiet
                else
                    echo "train_models.sh: pnet-$k gained $gain points (< $PNET_GAIN): done"
                fi
                break
            fi
        done
        hash_of "$P" >"$STATE/pnet-final.done"
    fi
fi
echo "train_models.sh: done; the release binary embeds the regenerated files:"
for f in "$E" "$V" "$P"; do echo "  $f $(hash_of "$f")"; done
