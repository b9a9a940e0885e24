#!/usr/bin/env bash
# Regenerates decks/policies/value.toml, the value model, in two rounds (expert iteration):
# scripts/train_models.sh value (its header says how). About 10 minutes on 2 cores, builds
# included.
exec "$(dirname "$0")/train_models.sh" value
