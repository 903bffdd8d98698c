#!/usr/bin/env bash
# Runs two commands side by side (each is single-threaded: two cores do both in the time of
# the longer) and fails if either fails. Used by `npm run typecheck`.
set -uo pipefail
bash -c "$1" &
first=$!
bash -c "$2"
second=$?
wait "$first"
first=$?
exit $((first || second))
