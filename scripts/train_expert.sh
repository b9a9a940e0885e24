#!/usr/bin/env bash
# Regenerates decks/policies/expert.toml, the expert policy's learned weights, in rounds of
# expert iteration (as in DAgger; three today, the third gaining less than 0.5 points):
# scripts/train_models.sh expert (its header says how; GAMES, SEARCH, SEARCH1, CONFLUENCE
# and EXPERT_ROUNDS set the games per deck, the teacher, the first round's teacher, the
# Confluence deck and the most rounds). About 45 minutes on 2 cores, builds and scores
# included.
exec "$(dirname "$0")/train_models.sh" expert
