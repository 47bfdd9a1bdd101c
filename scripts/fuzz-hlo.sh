#!/usr/bin/env bash
# Bounded libFuzzer run of the StableHLO text parser (fixtures/reference-plugin/src/hlo).
# Usage: scripts/fuzz-hlo.sh [seconds=60]. Needs clang++ (apt-get install -y clang).
# Prints executions and crashes; exits 1 if a crash/leak/timeout artifact was produced.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
secs="${1:-60}"
out="$root/build/hlo-fuzz"
src="$root/fixtures/reference-plugin/src/hlo"
tdir="$root/test/native/hlo-tests"
command -v clang++ >/dev/null || { echo "fuzz-hlo: clang++ not found (apt-get install -y clang)" >&2; exit 2; }
[[ -f "$root/build/reference-plugin/generated/fault_hooks.h" ]] || { echo "fuzz-hlo: build the plugin first (npm run build:plugin): the parser includes its generated/fault_hooks.h" >&2; exit 2; }
mkdir -p "$out/corpus" "$out/artifacts"
cp -n "$tdir"/corpus/* "$out/corpus/" 2>/dev/null || true
bin="$out/fuzz_parse"
newest_src="$(ls -t "$src"/*.cc "$src"/*.h "$tdir/fuzz_parse.cc" | head -1)"
if [[ ! -x "$bin" || "$newest_src" -nt "$bin" ]]; then
  echo "fuzz-hlo: building $bin"
  clang++ -std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$src" -I"$src/.." -I"$root/build/reference-plugin" "$src"/*.cc "$tdir/fuzz_parse.cc" -pthread -o "$bin"
fi
log="$out/fuzz.log"
set +e
"$bin" "$out/corpus" -dict="$tdir/fuzz.dict" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$out/artifacts/" -print_final_stats=1 >"$log" 2>&1
rc=$?
set -e
execs="$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo '?')"
crashes="$(ls "$out/artifacts" | grep -Ec '^(crash|leak|timeout|oom)-' || true)"
echo "fuzz-hlo: ${secs}s, executions: $execs, crash artifacts: $crashes (exit $rc), log: $log"
if [[ $rc -ne 0 || "$crashes" != "0" ]]; then
  grep -E 'ERROR|SUMMARY|==[0-9]+==' "$log" | head -20 || true
  exit 1
fi
