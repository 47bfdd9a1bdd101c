#!/usr/bin/env bash
# Runs each mocha file of dist/test alone, one after the other, and writes one line per file:
# wall seconds, CPU seconds (user+sys of the file's whole process tree), peak RSS, passing/failing/pending.
# Usage: scripts/profile-mocha.sh OUTDIR [test-file-glob...]   (default: every dist/test/*.test.js)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?OUTDIR}; shift
mkdir -p "$out"
files=("$@"); [ ${#files[@]} -gt 0 ] || files=(dist/test/*.test.js)
for f in "${files[@]}"; do
  name=$(basename "$f" .test.js)
  /usr/bin/time -f '%e %U %S %M' -o "$out/$name.time" \
    npx mocha --reporter json --reporter-option "output=$out/$name.json" "$f" >"$out/$name.log" 2>&1
  read -r wall user sys rss <"$out/$name.time" 2>/dev/null || true
  stats=$(node -e 'const s=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).stats;console.log(`${s.passes} ${s.failures} ${s.pending}`)' "$out/$name.json" 2>/dev/null || echo '? ? ?')
  printf '%-22s wall %7.1f s  cpu %7.1f s  maxrss %6d MiB  pass/fail/pending %s\n' "$name" "$wall" "$(echo "$user + $sys" | bc)" "$((rss / 1024))" "$stats" | tee -a "$out/summary.txt"
done
