#!/usr/bin/env bash
# Regenerates what the games feed, after a change that plays other games (a bump of
# `sim::GAMES_VERSION`; tests/games_version.rs fails until there is one), in the order the
# outputs read each other:
#   models   the committed weights, by scripts/train_models.sh (every chain from its first
#            round: the stamps of the version before are left aside). Then review and
#            commit decks/policies/*.toml before `reports`.
#   reports  every committed example under reports/, each by the command docs/examples.md
#            gives it, at a commit without local changes outside reports/ (tests/examples.rs
#            checks the command and the commit in each meta.json). The compare directories
#            are removed first: `--reuse` would refuse their games (another games version)
#            and, from nothing, plays them all. The five optimize-hour runs (36 million
#            games each, 2 to 3 minutes on 16 cores, about an hour each on 2) run only with
#            OPTIMIZE=1. Resumable: each directory finished writes a stamp under $STAMPS
#            (by games version), and a later run skips the directories stamped, so the two
#            hours can be spread over several sittings (stamps of another games version are
#            not read).
#   figures  lists the figures the docs quote from the outputs, to update by hand from the
#            new outputs (README.md, docs/*.md; the dated pages under docs/studies/ keep
#            the figures of their day and say which version they measured).
# Usage: scripts/regenerate.sh models|reports|figures
# Each step is a long run on 2 cores (models about 80 minutes, reports about 3 hours with
# the convergence study's reference search and the two `fastsearch` examples); the 16-core machine takes a fraction of that.
set -euo pipefail
cd "$(dirname "$0")/.."
WHAT="${1:-}"
case "$WHAT" in models | reports | figures) ;; *)
    echo "usage: scripts/regenerate.sh models|reports|figures" >&2
    exit 2
    ;;
esac

clean_tree() {
    # reports/ aside, as meta.json's commit sets it aside: a resumed run finds the
    # directories of the sittings before it there.
    if [ -n "$(git status --porcelain -- . ':(exclude)reports')" ]; then
        echo "regenerate.sh: commit first: meta.json records the commit, and a -dirty one fails tests/examples.rs" >&2
        exit 1
    fi
}

if [ "$WHAT" = models ]; then
    STATE="${STATE:-target/train-models-v$(grep -o 'GAMES_VERSION: u32 = [0-9]*' src/sim/mod.rs | grep -o '[0-9]*$')}" \
        scripts/train_models.sh all
    git status --short decks/policies
    exit 0
fi

if [ "$WHAT" = figures ]; then
    # Every line of the docs that quotes a committed output's directory, with a number on it.
    grep -rn --include='*.md' -E 'reports/(starter-decks|starter-matchups|booster-war-core|ladder|compare|convergence|unseen|ffa-starters|sensitivity-bravos|optimize-hour)' \
        README.md docs | grep -v '^docs/studies/' | grep -E '[0-9]+(\.[0-9]+)?%' || true
    exit 0
fi

clean_tree
# The binary must be named confluence-sim for meta.json to record the commands as written.
BIN_ROOT="${BIN_ROOT:-target/regenerate-bin}"
cargo install --quiet --locked --path . --root "$BIN_ROOT" --force
export PATH="$PWD/$BIN_ROOT/bin:$PATH"
STARTERS=(decks/player/AX_sierra_oddball.txt decks/player/BR_kojo_booda.txt decks/player/LY_nevenka_blotch.txt
    decks/player/MU_teija_nauraa.txt decks/player/OR_sigismar_wingspan.txt decks/player/YZ_akesha_taru.txt)
players=()
for d in "${STARTERS[@]}"; do players+=(--player "$d"); done

run() {
    echo "== $*" >&2
    "$@"
}
fresh() { rm -rf "$1"; }
VERSION="$(grep -o 'GAMES_VERSION: u32 = [0-9]*' src/sim/mod.rs | grep -o '[0-9]*$')"
STAMPS="${STAMPS:-target/regenerate-v$VERSION}"
mkdir -p "$STAMPS"
# step NAME FUNCTION: runs FUNCTION unless NAME's stamp is there, then writes the stamp.
step() {
    if [ -f "$STAMPS/$1.done" ]; then
        echo "== $1: done in an earlier sitting ($STAMPS/$1.done), skipped" >&2
        return 0
    fi
    "$2"
    echo "games version $VERSION, commit $(git rev-parse --short HEAD)" >"$STAMPS/$1.done"
}

reports_starter_decks() {
    fresh reports/starter-decks
    run confluence-sim run --experiment decks/experiments/starter_decks.toml
    run confluence-sim report reports/starter-decks
}
step starter-decks reports_starter_decks

# The same games played by the fast strong player (about 35 times the CPU time).
reports_starter_decks_fastsearch() {
    fresh reports/starter-decks-fastsearch
    run confluence-sim run --experiment decks/experiments/starter_decks_fastsearch.toml
    run confluence-sim report reports/starter-decks-fastsearch
}
step starter-decks-fastsearch reports_starter_decks_fastsearch

reports_starter_matchups() {
    fresh reports/starter-matchups
    run confluence-sim matchup "${players[@]}" --policy greedy --policy planner --games 2000 --seed 1 --out reports/starter-matchups --quiet
    run confluence-sim report reports/starter-matchups
}
step starter-matchups reports_starter_matchups

reports_booster_war_core() {
    fresh reports/booster-war-core
    run confluence-sim booster-war --set CORE --games 100000 --out reports/booster-war-core
    run confluence-sim report reports/booster-war-core
}
step booster-war-core reports_booster_war_core

reports_ladder() {
    fresh reports/ladder
    run confluence-sim ladder
}
step ladder reports_ladder

reports_ffa_starters() {
    fresh reports/ffa-starters
    run confluence-sim ffa "${players[@]}" --policy planner --games 200 --seed 1 --out reports/ffa-starters --quiet
}
step ffa-starters reports_ffa_starters

reports_sensitivity_bravos() {
    fresh reports/sensitivity-bravos
    run confluence-sim sensitivity --player decks/player/BR_kojo_booda.txt --rares 15 --policy expert --games 4000 --out reports/sensitivity-bravos
    run confluence-sim report reports/sensitivity-bravos
}
step sensitivity-bravos reports_sensitivity_bravos

reports_sensitivity_bravos_fastsearch() {
    fresh reports/sensitivity-bravos-fastsearch
    run confluence-sim sensitivity --player decks/player/BR_kojo_booda.txt --rares 15 --policy fastsearch --games 4000 --out reports/sensitivity-bravos-fastsearch
    run confluence-sim report reports/sensitivity-bravos-fastsearch
}
step sensitivity-bravos-fastsearch reports_sensitivity_bravos_fastsearch

# The two longest last, the convergence study before compare, which reuses its games.
reports_convergence() {
    fresh reports/convergence
    run confluence-sim compare --reuse reports/convergence --policy expert --policy search:rollouts=24 --policy search --policy search:horizon=0 --policy search:horizon=0,rollouts=192 --games 1000 --out reports/convergence
    fresh reports/compare
    run confluence-sim compare --reuse reports/convergence --policy search --policy search:horizon=0 --policy expert --policy planner --games 1000 --out reports/compare
}
step convergence reports_convergence

reports_unseen() {
    fresh reports/unseen
    unseen=()
    for d in AX_della_bolt BR_sol_halua LY_nadir_bubbles MU_turuun_benih OR_matz_hive YZ_moyo_silk; do
        unseen+=(--player "../shared/data/decks/bga_seeds_$d.txt")
    done
    run confluence-sim compare --reuse reports/unseen "${unseen[@]}" --policy search:horizon=0,rollouts=192 --policy expert --policy expert:net=1 \
        --policy search:net=3,only=3,rollouts=6,width=4,deep=0,narrow=1,dwidth=2 \
        --policy search:net=3,rollouts=5,width=4,deep=0,narrow=1,dwidth=2,margin=2 \
        --policy search:net=3,rollouts=6,width=4,deep=0,narrow=1,dwidth=2,margin=2,gate=75 \
        --policy search:net=3,rollouts=6,width=4,deep=0,narrow=1,dwidth=2,margin=2,close=3 \
        --policy search:net=7,rollouts=5,width=4,deep=0,narrow=1,dwidth=2,margin=2 \
        --policy fastsearch --games 500 --quiet --out reports/unseen
}
step unseen reports_unseen

if [ "${OPTIMIZE:-0}" = 1 ]; then
    for s in AX_sierra_oddball BR_kojo_booda MU_teija_nauraa OR_sigismar_wingspan YZ_akesha_taru; do
        eval "reports_optimize_$s() {
            rm -rf /tmp/opt36/$s
            run confluence-sim optimize --player decks/player/$s.txt --pool CORE --against decks/confluence/reference.toml --rares 0 --policy expert --games 36000000 --out /tmp/opt36/$s
            rm -rf reports/optimize-hour/$s
            cp -r /tmp/opt36/$s reports/optimize-hour/$s
        }"
        step "optimize-hour-$s" "reports_optimize_$s"
    done
else
    echo "regenerate.sh: reports/optimize-hour left as it was (OPTIMIZE=1 runs it: 36 million games a starter)" >&2
fi
git status --short reports
echo "regenerate.sh: now update the figures the docs quote (scripts/regenerate.sh figures) and say in CHANGELOG what moved" >&2
