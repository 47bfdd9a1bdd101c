#!/usr/bin/env bash
# The inner loop before a commit: the TypeScript and plugin builds (incremental), then the test files of
# test/quick.list as a parallel mocha, two at a time. `npm test` is the whole suite (CI runs it).
set -uo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(grep -v '^\s*\(#\|$\)' test/quick.list | sed 's#.*#dist/test/&.test.js#')
for f in "${files[@]}"; do [ -f "$f" ] || { echo "test-quick: $f (test/quick.list) does not exist" >&2; exit 2; }; done
npx mocha --parallel --jobs 2 "$@" "${files[@]}"
