#!/usr/bin/env bash
# npm test's mocha step. The test files are independent (each works in its own temp dirs, picks free ports, writes
# its run files under names of its own), so all but the fault matrix run as a parallel mocha, two files at a time:
# many of them mostly wait (hang and timeout scenarios, child processes), which another file's work fills. The
# fault matrix then runs alone: its claim runs keep 4 workers busy and judge hangs by a 5 s deadline, which a
# concurrent file's load must not turn into false timeouts. Extra arguments go to both mocha runs.
set -uo pipefail
cd "$(dirname "$0")/.."
matrix=dist/test/fault-matrix.test.js
mapfile -t rest < <(ls dist/test/*.test.js | grep -vxF "$matrix")
npx mocha --parallel --jobs 2 "$@" "${rest[@]}"; rc=$?
npx mocha "$@" "$matrix" || rc=$?
exit "$rc"
