#!/usr/bin/env bash
# Validates the Kubernetes manifests in scripts/kubernetes/ against the Kubernetes API
# schemas (strict: unknown fields are errors) with kubernetes-validate from PyPI, and the
# syntax of the Dockerfile that builds their image with dockerfile-parse from PyPI
# (scripts/check_dockerfile.py), both installed into a throwaway virtual environment if
# they are not there. This checks their shape, not a run on a cluster nor an image build
# (base images cannot be fetched here). Skips (exit 0, saying why) only where they cannot
# be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "test-kubernetes: $*"; }
validate=kubernetes-validate
python=python3
if ! command -v "$validate" >/dev/null || ! python3 -c 'import dockerfile_parse' 2>/dev/null; then
    venv=$(mktemp -d /tmp/test-kubernetes.XXXXXX)
    trap 'rm -rf "$venv"' EXIT
    if ! { python3 -m venv "$venv" \
        && "$venv/bin/pip" install -q kubernetes-validate dockerfile-parse; } \
        >"$venv/install.log" 2>&1; then
        tail -3 "$venv/install.log"
        say "SKIPPED: kubernetes-validate or dockerfile-parse cannot be installed here"
        exit 0
    fi
    validate="$venv/bin/kubernetes-validate"
    python="$venv/bin/python"
fi
"$validate" --strict scripts/kubernetes/*.yaml
say "PASSED: the manifests are valid Kubernetes resources"
"$python" scripts/check_dockerfile.py Dockerfile
say "PASSED: the Dockerfile parses (multi-stage: release build, then the binary and decks/)"
