#!/usr/bin/env bash
# Submits a sharded run to Slurm: an array of N shard tasks, then a merge job that starts
# when all of them succeeded (--dependency=afterok).
#
#   scripts/slurm/submit.sh N OUT [RUN_ARGS...]
#   scripts/slurm/submit.sh 64 campaign --experiment decks/experiments/rare_impact.toml
#   scripts/slurm/submit.sh 16 war booster-war --set CORE --games 1000000
#
# Prints the two job ids (array, merge). The results land in OUT/merged. Extra sbatch
# options (partition, account, time limit) go in SBATCH_ARGS, e.g.
# SBATCH_ARGS="--partition=long --time=04:00:00". CONFLUENCE_SIM names the binary
# (default: confluence-sim on the PATH). Run it from the directory the run's paths are
# relative to (the repository root for decks/...).
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,14p' "$0" >&2
    exit 2
fi
N=$1
OUT=$2
shift 2
case "$N" in '' | *[!0-9]* | 0) echo "submit.sh: N must be a whole number > 0, not '$N'" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_ARGS:-} --chdir="$PWD" --array="0-$((N - 1))" \
    --output="$OUT/slurm-%A_%a.out" \
    --export="ALL,SHARDS=$N,OUT=$OUT" "$here/shards.sbatch" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --chdir="$PWD" --dependency="afterok:$array" \
    --kill-on-invalid-dep=yes --output="$OUT/slurm-%j-merge.out" \
    --export="ALL,OUT=$OUT" "$here/merge.sbatch")
merge=${merge%%;*}
echo "$array $merge"
