#!/usr/bin/env bash
# npm test's mocha step. The test files are independent (each works in its own temp dirs, picks free ports, writes
# its run files under names of its own), so all but the fault matrix run as a parallel mocha, two files at a time:
# many of them partly wait (hang and timeout scenarios, child processes), which the other file's work fills. (Three at
# a time was 2 minutes faster and made the repro test record a crash as an 8 s timeout on a starved machine.) The fault matrix runs alone: its claim runs keep 4 workers busy and judge hangs by a 5 s deadline, which a
# concurrent file's load must not turn into false timeouts. Extra arguments go to both mocha runs.
set -uo pipefail
cd "$(dirname "$0")/.."
# The fault matrix runs first: its clean runs (one per personality) are kept in PJRT_CTS_TEST_CLEAN_RUNS, recording
# the slots each case called and the programs compiled, and the tests that need such a run read it instead of making
# their own (test/clean-runs.ts).
matrix=dist/test/fault-matrix.test.js
# The slow files first (test/slow-first.list), then the others in name order.
mapfile -t slow < <(grep -v '^\s*\(#\|$\)' test/slow-first.list | sed 's|.*|dist/test/&.test.js|')
for f in "${slow[@]}"; do [ -f "$f" ] || { echo "test-mocha: $f (test/slow-first.list) does not exist" >&2; exit 2; }; done
mapfile -t rest < <({ printf '%s\n' "${slow[@]}"; ls dist/test/*.test.js; } | awk '!seen[$0]++' | grep -vxF "$matrix")
PJRT_CTS_TEST_CLEAN_RUNS=$(mktemp -d "${TMPDIR:-/tmp}/pjrt-cts-clean-runs.XXXXXX")
export PJRT_CTS_TEST_CLEAN_RUNS
trap 'rm -rf "$PJRT_CTS_TEST_CLEAN_RUNS"' EXIT
npx mocha "$@" "$matrix"; rc=$?
npx mocha --parallel --jobs 2 "$@" "${rest[@]}" || rc=$?
exit "$rc"
