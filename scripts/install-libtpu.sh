#!/usr/bin/env bash
# Installs libtpu (Google's Cloud TPU PJRT plugin) from the machine's local wheel index into the venv .ci/run makes
# for jax (.cache/xla-venv, or $1), with .ci/run's pip flags and index overrides. Offline; exits 1 with one line when
# it cannot. The plugins.json `libtpu` entry finds it there (discover "python:libtpu", with PJRT_CTS_PYTHON set to
# the venv's python) or through TPU_LIBRARY_PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${1:-.cache/xla-venv}
LIBTPU_VERSION=0.0.42.1
if [ ! -x "$VENV/bin/python" ]; then
  echo "install-libtpu.sh: error: no venv at $VENV (.ci/run creates it with jax first)" >&2
  exit 1
fi
have() { "$VENV/bin/python" -c "import importlib.metadata as m, os, libtpu; assert m.version('libtpu') == '$LIBTPU_VERSION'; assert os.path.exists(libtpu.get_library_path())" 2>/dev/null; }
if ! have; then
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-cache-dir \
    --index-url "${PJRT_CTS_WHEEL_INDEX:-file:///opt/pypi/simple}" \
    --extra-index-url "${PJRT_CTS_WHEEL_EXTRA_INDEX:-file:///opt/pypi-more/simple}" \
    --find-links "${PJRT_CTS_WHEEL_LINKS:-/opt/wheels}" \
    "libtpu==$LIBTPU_VERSION" || { echo "install-libtpu.sh: error: pip could not install libtpu==$LIBTPU_VERSION into $VENV" >&2; exit 1; }
  have || { echo "install-libtpu.sh: error: libtpu==$LIBTPU_VERSION installed into $VENV but libtpu/libtpu.so is not importable there" >&2; exit 1; }
fi
"$VENV/bin/python" -c "import libtpu; print(libtpu.get_library_path())"
