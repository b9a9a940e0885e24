#!/usr/bin/env bash
# Regenerates decks/policies/expert.toml, the expert policy's learned weights, in three
# rounds (as in DAgger): scripts/train_models.sh expert (its header says how; GAMES, SEARCH,
# SEARCH1 and CONFLUENCE set the games per deck, the teacher, the first round's teacher and
# the Confluence deck). About 30 minutes of games on 2 cores, plus the builds.
exec "$(dirname "$0")/train_models.sh" expert
