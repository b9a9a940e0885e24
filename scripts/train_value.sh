#!/usr/bin/env bash
# Regenerates decks/policies/value.toml, the value model, in rounds of expert iteration
# (two today, the second gaining less than 0.5 points): scripts/train_models.sh value (its
# header says how). About 6 to 10 minutes on 2 cores, builds and scores included.
exec "$(dirname "$0")/train_models.sh" value
