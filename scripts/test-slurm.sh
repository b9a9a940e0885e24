#!/usr/bin/env bash
# End-to-end test of scripts/slurm/ on a real one-node Slurm cluster started on this
# machine: installs Slurm and Munge from Debian's packages if needed (root), starts munged,
# slurmctld and slurmd with a throwaway configuration, submits a sharded run and a sharded
# matchup, each as a job array plus its merge job (scripts/slurm/submit.sh), waits for them,
# and checks that the merged outputs equal the unsharded ones byte for byte (meta.json
# aside). The daemons it started
# are stopped however it ends. Skips (exit 0, saying why) only where the packages cannot
# be installed. Run from anywhere; takes about a minute once the packages are installed.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
say() { echo "test-slurm: $*"; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
        say "SKIPPED: Slurm and Munge are not installed and cannot be (needs root and apt-get)"
        exit 0
    fi
    say "installing slurmctld slurmd slurm-client munge"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        slurmctld slurmd slurm-client munge; } >/tmp/test-slurm-apt.log 2>&1; then
        tail -5 /tmp/test-slurm-apt.log
        say "SKIPPED: the Slurm and Munge packages cannot be installed here"
        exit 0
    fi
fi
if [ "$(id -u)" != 0 ]; then
    say "SKIPPED: starting slurmd needs root"
    exit 0
fi

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
# The binary `cargo test` builds (and uses): the same features, so no second build.
cargo test --quiet --no-run
export CONFLUENCE_SIM="$CARGO_TARGET_DIR/debug/confluence-sim"

work=$(mktemp -d /tmp/test-slurm.XXXXXX)
pids=()
started_munge=
cleanup() {
    local rc=$?
    set +e
    if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then
        scancel --quiet --user=root >/dev/null 2>&1
    fi
    for p in "${pids[@]}"; do
        kill "$p" 2>/dev/null
    done
    for p in "${pids[@]}"; do
        ( sleep 10; kill -9 "$p" 2>/dev/null ) &
        wait "$p" 2>/dev/null
    done
    if [ -n "$started_munge" ] && [ -f "$work/munged.pid" ]; then
        m=$(cat "$work/munged.pid")
        kill "$m" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$m" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$m" 2>/dev/null
    fi
    if [ "$rc" != 0 ]; then
        say "FAILED; the daemons' logs:"
        tail -n 20 "$work"/*.log 2>/dev/null
    fi
    rm -rf "$work"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Munge: a key of our own and a daemon of our own, on our own socket.
sock="$work/munge.socket"
mungekey --create --keyfile="$work/munge.key" --force >/dev/null 2>&1 \
    || dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 0400 "$work/munge.key"
munged --force --key-file="$work/munge.key" --socket="$sock" \
    --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge.seed"
started_munge=1

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work/state" "$work/spool"
export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=confluence-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
ReturnToService=2
SlurmctldPort=16817
SlurmdPort=16818
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 60); do
    if sinfo -h -o '%T' 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'; then break; fi
    sleep 1
done
sinfo -h -o '%T' | grep -Eq '^(idle|mixed|allocated)' || { say "the node did not come up"; sinfo; exit 1; }
say "one-node cluster up ($host, $cpus CPUs)"

queued() { squeue -h -t all -j "$1" -o '%T' 2>/dev/null | grep -Eq 'PENDING|RUNNING|CONFIGURING|COMPLETING'; }

# Submits COMMAND ARGS... as 3 shards plus their merge (scripts/slurm/submit.sh) into
# $work/NAME, and the same without shards; checks the merged outputs equal the one-shot run
# byte for byte (meta.json aside).
fail=0
check() {
    local name=$1 command=$2
    shift 2
    local out="$work/$name" sub=()
    [ "$command" = run ] || sub=("$command")
    read -r array merge < <(scripts/slurm/submit.sh 3 "$out" "${sub[@]}" "$@")
    say "$name: submitted array job $array and merge job $merge"
    for _ in $(seq 240); do
        queued "$array,$merge" || break
        sleep 1
    done
    if queued "$array,$merge"; then
        say "$name: the jobs did not finish in 4 minutes"
        squeue
        exit 1
    fi
    cat "$out"/slurm-*.out
    [ -f "$out/merged/meta.json" ] || { say "$name: the merge job wrote no outputs"; exit 1; }
    "$CONFLUENCE_SIM" "$command" "$@" --quiet --out "$work/$name-whole"
    local f base n=0
    for f in "$work/$name-whole"/*; do
        base=$(basename "$f")
        [ "$base" = meta.json ] && continue
        [ -f "$f" ] || continue
        n=$((n + 1))
        if cmp -s "$f" "$out/merged/$base"; then
            say "$name: same bytes: $base"
        else
            say "$name: DIFFERS: $base"
            fail=1
        fi
    done
    [ "$n" -gt 0 ] || { say "$name: the one-shot run wrote no outputs"; exit 1; }
}

# A small sharded experiment: 3 shards of 2 configurations x 500 games, per-game rows too.
check campaign run --games 500 --rares 0 --rares 15 --seed 5 --per-game
# Head to head: two starter decks, each with two policies, 60 games per pair of entries.
check matchup matchup --player decks/player/BR_kojo_booda.txt \
    --player decks/player/LY_nevenka_blotch.txt --policy greedy --policy planner \
    --games 60 --seed 5
[ "$fail" = 0 ] || exit 1
say "PASSED: 3 Slurm array tasks + merge = one unsharded run, byte for byte (run and matchup)"
