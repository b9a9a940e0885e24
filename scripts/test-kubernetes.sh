#!/usr/bin/env bash
# Validates the Kubernetes manifests in scripts/kubernetes/ against the Kubernetes API
# schemas (strict: unknown fields are errors) with kubernetes-validate from PyPI, installed
# into a throwaway virtual environment if it is not on the PATH. This checks their shape,
# not a run on a cluster. Skips (exit 0, saying why) only where it cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "test-kubernetes: $*"; }
validate=kubernetes-validate
if ! command -v "$validate" >/dev/null; then
    venv=$(mktemp -d /tmp/test-kubernetes.XXXXXX)
    trap 'rm -rf "$venv"' EXIT
    if ! { python3 -m venv "$venv" && "$venv/bin/pip" install -q kubernetes-validate; } \
        >"$venv/install.log" 2>&1; then
        tail -3 "$venv/install.log"
        say "SKIPPED: kubernetes-validate cannot be installed here"
        exit 0
    fi
    validate="$venv/bin/kubernetes-validate"
fi
"$validate" --strict scripts/kubernetes/*.yaml
say "PASSED: the manifests are valid Kubernetes resources"
