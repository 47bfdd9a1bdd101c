#!/usr/bin/env bash
# After the case set changed: regenerates, in order, everything made from it on this machine — the suites'
# artifact store (fixtures/artifacts/, from the program texts full runs of both reference personalities compile,
# through jaxlib: PJRT_CTS_PYTHON or .cache/xla-venv), then certification/must-pass-<version>.json,
# docs/conformance.md and docs/api-coverage.md.
# The validation records (docs/validation/*.md) need their plugins' own runs: their recipes are printed at the end.
# Usage: scripts/refresh-generated.sh [WORK_DIR]   (default: a fresh temporary directory, kept for inspection)
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:-$(mktemp -d -t pjrt-cts-refresh-XXXXXX)}"
mkdir -p "$work"
python="${PJRT_CTS_PYTHON:-$PWD/.cache/xla-venv/bin/python}"
[ -x "$python" ] || { echo "refresh-generated: error: no Python with jaxlib at $python (set PJRT_CTS_PYTHON)" >&2; exit 2; }
export PJRT_CTS_PYTHON="$python"

npm run --silent build:ts
full_runs() {  # $1: a directory to record the suites' program texts in, or empty
  for p in reference reference-xla; do
    echo "refresh-generated: full run of $p${1:+ (recording programs)}"
    PJRT_CTS_RECORD_PROGRAMS="$1" node dist/bin/pjrt-cts.js run -p "$p" --jobs 2 --json "$work/$p.json" > "$work/$p.txt" \
      || { tail -5 "$work/$p.txt"; echo "refresh-generated: error: the $p run did not pass ($work/$p.json)" >&2; exit 1; }
    tail -1 "$work/$p.txt"
  done
}
# The artifact store first: its texts are cases too (tier1.aot_compile.suite_program.<sha12>), so the runs that the
# must-pass list is made from come after it.
rm -rf "$work/recorded"
full_runs "$work/recorded"
node dist/scripts/gen-artifacts.js --python "$python" --recorded "$work/recorded"
full_runs ""
node dist/scripts/gen-must-pass.js --reference "$work/reference.json" --reference-xla "$work/reference-xla.json"
node dist/scripts/gen-conformance.js
node dist/scripts/gen-api-coverage.js
node dist/scripts/gen-personalities-doc.js
# docs/validation/cuda.md: measured on hardware, projected onto today's case set here
node dist/scripts/gen-measured-record.js docs/validation/cuda.md docs/validation/data/cuda-h100-2026-11-27.tsv \
  docs/validation/data/cuda-readings.json expectations/cuda.json
cat <<MSG
refresh-generated: done (runs in $work). Review 'git diff --stat'. Validation records still to refresh, each with its
own plugin (then: node dist/scripts/gen-validation-tables.js docs/validation/<plugin>.md <results.json> expectations/<plugin>.json):
  pjrt-ocl: PJRT_OCL_PYTHON=... scripts/validate-pjrt-ocl.sh <pjrt-ocl source dir>   (docs/validation/pjrt-ocl.md)
  libtpu:   node dist/bin/pjrt-cts.js run --plugin libtpu --compile-only --json <results.json>   (docs/validation/libtpu.md)
MSG
