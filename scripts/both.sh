#!/usr/bin/env bash
# Runs two commands side by side and fails if either fails: `npm run typecheck` (two
# single-threaded type checkers, one per core) and `npm test` (the type checks, beside the unit
# and API tests, which leave the cores partly idle). The first command's output is held back and printed in
# one piece after the second's, under a heading, so the two never interleave.
set -uo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
bash -c "$1" >"$log" 2>&1 &
first=$!
bash -c "$2"
second=$?
wait "$first"
first=$?
printf '\n── %s (ran alongside; exit %s) ──\n' "$1" "$first"
cat "$log"
exit $((first || second))
