#!/usr/bin/env bash
# Regenerates every committed weight file, from a fresh clone, in order, each by expert
# iteration (as in DAgger): round 1 in the games of a given player, each later round in the
# games of the player that the previous round's file makes, until a round gains less than
# $GAIN points or $ROUNDS rounds have run (per chain: EXPERT_ROUNDS, VALUE_ROUNDS,
# PNET_ROUNDS). A round's gain is the change of its player's pooled win rate over the six
# starters at all commons and all rares (1,000 games each, seed 1, the same games every
# round), in $STATE/NAME-K.score; a round that loses is undone (the file goes back to the
# round before).
#   expert  decks/policies/expert.toml, the expert's learned scores: the search's choices
#           in the planner's games, then in the expert's. Scored by `expert`.
#   value   decks/policies/value.toml, the value model: the outcomes of the expert's
#           self-play games, then of the games of the search that scores its rollouts with
#           the previous round's network ($VALUE_SEARCH). Scored by that search.
#   pnet    decks/policies/pnet.toml, the policy network of `expert:net=1`: the choices of
#           the search as its defaults were when the network was trained (24 samples, no
#           `deep`: search:rollouts=24,deep=0) in the expert's games, then in the games of
#           `expert:net=1`. Scored by `expert:net=1`.
#   netvalue  decks/policies/net_value.toml, the value model of the network's games: the
#           outcomes of the games of the network's cheap search (`search:net=3,$FAST`,
#           which reads the value model), then of the same search reading the previous
#           round's file instead (`search:net=7,$FAST`). Scored by `search:net=7,$FAST`
#           (`fastsearch` is the same with five candidates, `width=5`).
# Usage: scripts/train_models.sh [all|expert|value|pnet|netvalue]   (default all: expert,
# then value, whose first round plays the new expert, then pnet, whose teacher reads both,
# then netvalue, whose players read all three).
#
# The decks: the six starters (decks/player) and the twelve community decks beside the
# project (../shared/data/decks/bga_demo_* and bga_skybound_*). The same code and decks give
# the same files byte for byte, on any number of threads.
#
# Resumable: after each round the script writes a stamp under $STATE (the hash of the file
# the round wrote). Run it again after an interruption and each chain resumes after its last
# round whose stamp matches the file on disk; once a round runs, every round after it runs.
# A chain that has stopped writes $STATE/NAME-final.done. The binary embeds the files, hence
# a build after each round. In a fresh clone on 2026-11-27 (2 cores, one of them often busy
# with other work, a cold build cache) it took 71 minutes and wrote the committed files
# byte for byte: the first build 10, the expert 45 (51.07%, 52.73%, 52.99%: three rounds),
# the value model 5.5 (71.10%, 71.27%: two), the policy network 10 (59.80%, 60.51%,
# 60.92%: three), each with its builds and scores. (That run was of the version before
# this loop, which ran the expert's and the value model's rounds a fixed number of times,
# three and two, and recorded their scores: the loop stops where they stopped. Rerun on the
# stamps it left, this version trains nothing and writes each chain's final stamp. This
# version from no stamps, `value` then `pnet` on the quiet machine: 7 and 10 minutes, the
# same bytes; `expert`, that evening in a fresh clone: 42 minutes, the same three scores and
# bytes.) `netvalue`, added after that run, took 15 minutes from a fresh clone on the
# evening of 2026-11-27 (75.48%, then 75.40%: round 2 undone), twice the same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
WHAT="${1:-all}"
case "$WHAT" in all | expert | value | pnet | netvalue) ;; *)
    echo "usage: scripts/train_models.sh [all|expert|value|pnet|netvalue]" >&2
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
# The network's cheap search whose games the value model of the network's games learns
# from, less its `net` (the fast strong player of 2026-11-27; `fastsearch` takes five
# candidates instead of four).
FAST="${FAST:-rollouts=5,width=4,deep=0,narrow=1,dwidth=2,margin=2}"
EXPERT_ROUNDS="${EXPERT_ROUNDS:-5}"
VALUE_ROUNDS="${VALUE_ROUNDS:-5}"
PNET_ROUNDS="${PNET_ROUNDS:-5}"
NETVALUE_ROUNDS="${NETVALUE_ROUNDS:-5}"
GAIN="${GAIN:-0.5}"
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
# round_NAME K: trains round K of a chain (the binary embeds the files of the rounds before).
# The expert's later rounds also read the previous round's file with --expert-weights (the
# acting expert and the teacher's expert rollouts alike).
round_expert() {
    if [ "$1" = 1 ]; then
        expert planner "$SEARCH1"
    else
        expert expert "$SEARCH" --expert-weights "$E"
    fi
}
round_value() {
    if [ "$1" = 1 ]; then
        value --policy expert --games 20000
    else
        value --policy "$VALUE_SEARCH" --games 1500 --every 1
    fi
}
round_netvalue() {
    local net=7
    [ "$1" = 1 ] && net=3
    value --policy "search:net=$net,$FAST" --games 6000 --every 2 --out "$NV"
}
round_pnet() {
    if [ "$1" = 1 ]; then
        pnet --policy expert --hidden 48 --epochs 10
    else
        pnet --policy expert:net=1 --hidden 48 --epochs 10
    fi
}
# score NAME: the pooled win rate, in points, over the twelve starter rows (1,000 games each,
# seed 1) of the player that NAME's chain trains, with the files the binary embeds.
score() {
    local out="$STATE/$1-measure" pol
    case "$1" in
    expert) pol=expert ;;
    value) pol="$VALUE_SEARCH" ;;
    netvalue) pol="search:net=7,$FAST" ;;
    *) pol=expert:net=1 ;;
    esac
    cargo run --release --quiet -- compare --policy "$pol" --policy greedy --games 1000 \
        --seed 1 --out "$out" --quiet
    # The player's rows are those that are not greedy's; its name may hold commas (quoted),
    # so the win rate is counted from the end of the row.
    awk -F, 'NR > 1 && $5 != "greedy" { s += $(NF - 14); n++ }
        END { printf "%.2f\n", 100 * s / n }' "$out/compare.csv"
}
# gain NAME K: round K's score less round K-1's, in points.
gain() {
    awk 'NR == 1 { a = $1 } NR == 2 { printf "%.2f", $1 - a }' \
        "$STATE/$1-$(($2 - 1)).score" "$STATE/$1-$2.score"
}
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
# iterate NAME FILE ROUNDS: the rounds of one chain (see the top of this file).
iterate() {
    local name="$1" file="$2" rounds="$3" from k g
    if [ "$fresh" = 0 ] && [ -f "$STATE/$name-final.done" ] &&
        [ "$(cat "$STATE/$name-final.done")" = "$(hash_of "$file")" ]; then
        echo "train_models.sh: $name already done"
        return
    fi
    from=$(chain "$file" "$rounds" "$name")
    # Resumed after a round that already stopped the chain (interrupted before the stamp).
    if [ "$from" -gt 2 ] && [ -f "$STATE/$name-$((from - 1)).score" ] &&
        below "$(gain "$name" $((from - 1)))" "$GAIN"; then
        echo "train_models.sh: $name stopped after round $((from - 1)) (it gained less than $GAIN)"
        from=$((rounds + 1))
    fi
    for ((k = from; k <= rounds; k++)); do
        fresh=1
        echo "train_models.sh: $name-$k ..."
        "round_$name" "$k"
        cargo build --release --quiet
        score "$name" >"$STATE/$name-$k.score"
        cp "$file" "$STATE/$name-$k.toml"
        hash_of "$file" >"$STATE/$name-$k.done"
        echo "train_models.sh: $name-$k: $(cat "$STATE/$name-$k.score")% pooled"
        [ "$k" = 1 ] && continue
        g=$(gain "$name" "$k")
        if below "$g" "$GAIN"; then
            if below "$g" 0; then
                echo "train_models.sh: $name-$k lost ${g#-} points: back to $name-$((k - 1))"
                cp "$STATE/$name-$((k - 1)).toml" "$file"
                cargo build --release --quiet
            else
                echo "train_models.sh: $name-$k gained $g points (< $GAIN): done"
            fi
            break
        fi
    done
    hash_of "$file" >"$STATE/$name-final.done"
}

cargo build --release --quiet
E=decks/policies/expert.toml
V=decks/policies/value.toml
P=decks/policies/pnet.toml
NV=decks/policies/net_value.toml
if [ "$WHAT" = all ] || [ "$WHAT" = expert ]; then iterate expert "$E" "$EXPERT_ROUNDS"; fi
if [ "$WHAT" = all ] || [ "$WHAT" = value ]; then iterate value "$V" "$VALUE_ROUNDS"; fi
if [ "$WHAT" = all ] || [ "$WHAT" = pnet ]; then iterate pnet "$P" "$PNET_ROUNDS"; fi
if [ "$WHAT" = all ] || [ "$WHAT" = netvalue ]; then
    iterate netvalue "$NV" "$NETVALUE_ROUNDS"
fi
echo "train_models.sh: done; the release binary embeds the regenerated files:"
for f in "$E" "$V" "$P" "$NV"; do echo "  $f $(hash_of "$f")"; done
