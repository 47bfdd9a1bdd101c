#!/usr/bin/env bash
# Validate llandsmeer-ai/pjrt-ocl (a PJRT plugin on OpenCL) with pjrt-cts.
#
#   scripts/validate-pjrt-ocl.sh SRC_DIR [extra `pjrt-cts run` args]
#
# SRC_DIR is a checkout of pjrt-ocl (docs/validation/pjrt-ocl.md names the validated commit); this script
# fetches and installs nothing. It checks the prerequisites (one line says what is missing and how to get it),
# builds the plugin in a build dir outside SRC_DIR, warms PoCL's kernel cache with the plugin's own
# runtime_test (a cold cache compiles each kernel for over a minute), then runs the CTS with the expectations
# of expectations/pjrt-ocl.json.
#
# Environment (all optional):
#   OCL_BUILD_DIR   build dir (default: /tmp/pjrt-ocl-build)
#   OCL_OUT_DIR     results dir: results.json (+ .jsonl), junit.xml, times.txt (default: /tmp/pjrt-ocl-cts)
#   PJRT_OCL_PYTHON a python with jaxlib for the plugin's lowering service (default: .cache/xla-venv/bin/python)
#   OCL_JOBS        CTS worker processes (default: 2)
set -euo pipefail

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 SRC_DIR [extra pjrt-cts run args]  (SRC_DIR: a pjrt-ocl checkout)" >&2
  exit 2
fi
SRC=$(cd "$1" && pwd); shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${OCL_BUILD_DIR:-/tmp/pjrt-ocl-build}
OUT=${OCL_OUT_DIR:-/tmp/pjrt-ocl-cts}
JOBS=${OCL_JOBS:-2}
PY=${PJRT_OCL_PYTHON:-$ROOT/.cache/xla-venv/bin/python}
SERVICE=$SRC/python/pjrt_ocl/lower_service.py

die() { echo "validate-pjrt-ocl: $*" >&2; exit 1; }

# --- prerequisites: report everything missing in one line ---
missing=() pkgs=()
for tool in cmake ninja clinfo; do
  command -v "$tool" >/dev/null || { missing+=("$tool"); pkgs+=("$tool"); }
done
[ -f /usr/include/CL/cl.h ] || { missing+=("OpenCL headers"); pkgs+=(opencl-headers); }
ls /usr/lib/*/libOpenCL.so >/dev/null 2>&1 || { missing+=("libOpenCL.so (ICD loader)"); pkgs+=(ocl-icd-opencl-dev); }
if command -v clinfo >/dev/null && ! clinfo -l 2>/dev/null | grep -q 'Device #'; then
  missing+=("an OpenCL device"); pkgs+=(pocl-opencl-icd)
fi
if [ ${#missing[@]} -gt 0 ]; then
  die "missing: ${missing[*]}; install with: DEBIAN_FRONTEND=noninteractive apt-get install -y ${pkgs[*]}"
fi
[ -f "$SRC/pjrt_plugin/CMakeLists.txt" ] && [ -f "$SERVICE" ] || die "$SRC is not a pjrt-ocl checkout (no pjrt_plugin/CMakeLists.txt or $SERVICE)"
"$PY" -c 'import jaxlib, jax' 2>/dev/null || die "$PY cannot import jax/jaxlib (the lowering service needs them); set PJRT_OCL_PYTHON to a python that can"
[ -f "$ROOT/dist/bin/pjrt-cts.js" ] || die "pjrt-cts is not built; run: npx tsc -p tsconfig.json"

mkdir -p "$OUT"
TIMES=$OUT/times.txt
: > "$TIMES"
stamp() { date +%s.%N; }
record() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%s %.1f s\n", n, b - a }' | tee -a "$TIMES"; }

# --- build (outside SRC: the checkout's committed build dirs are stale and never used) ---
t0=$(stamp)
# runtime_test (the warm-up below) is built only with PJRT_OCL_BUILD_TESTS; it defaults to ON, but a reused
# build dir may have it cached OFF, so it is asked for explicitly.
cmake -S "$SRC/pjrt_plugin" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPJRT_OCL_BUILD_TESTS=ON >"$OUT/build.log" 2>&1 \
  && ninja -C "$BUILD" -j"$JOBS" >>"$OUT/build.log" 2>&1 || die "build failed; see $OUT/build.log"
[ -x "$BUILD/runtime_test" ] || die "$BUILD/runtime_test was not built (PJRT_OCL_BUILD_TESTS); see $OUT/build.log"
record build "$t0" "$(stamp)"

# --- warm PoCL's kernel cache (its cache dir: POCL_CACHE_DIR, default ~/.cache/pocl) ---
t0=$(stamp)
"$BUILD/runtime_test" >"$OUT/warmup.log" 2>&1 || die "runtime_test failed; see $OUT/warmup.log"
record warm-up "$t0" "$(stamp)"

# --- the CTS ---
export PJRT_OCL_PLUGIN=$BUILD/libpjrt_ocl.so PJRT_OCL_PYTHON=$PY PJRT_OCL_LOWER_SERVICE=$SERVICE
# the framework tier (tier 4) runs JAX on the plugin: the same Python, which has jax
export PJRT_CTS_PYTHON=${PJRT_CTS_PYTHON:-$PY}
cd "$ROOT"
t0=$(stamp)
rc=0
node dist/bin/pjrt-cts.js run --plugin pjrt-ocl --expectations expectations/pjrt-ocl.json --jobs "$JOBS" \
  --json "$OUT/results.json" --junit "$OUT/junit.xml" "$@" || rc=$?
record cts-run "$t0" "$(stamp)"
echo "validate-pjrt-ocl: results in $OUT (results.json, junit.xml, times.txt); pjrt-cts exit $rc"
exit $rc
