#!/usr/bin/env bash
# Runs two commands side by side and fails if either fails: `npm run typecheck` (two
# single-threaded type checkers, one per core) and `npm test` (the unit and API tests beside the
# type checks, the build and the browser tests, which mostly wait: the cores were idle for more
# than half of a CI run with everything in a row). The first command's output is held back and printed in
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
