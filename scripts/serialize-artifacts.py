#!/usr/bin/env python3
"""Serialize StableHLO text programs as portable artifacts (VHLO MLIR bytecode) with jaxlib.

Reads one JSON object on stdin: {"jobs": [{"key": str, "text": str, "versions": [str, ...], "each": bool}]}.
For each job the versions are tried in the order given: without "each" the first one that serializes wins
(the caller passes them lowest first, so that is the lowest target version the program can be written at);
with "each" every version is written. Writes one JSON object on stdout:
  {"jaxlib": str, "minimum": str, "current": str,
   "results": [{"key", "artifacts": [{"version", "bytes" (base64)}], "error"?: str}]}
A job none of whose versions serializes gets no artifacts and the last error.

A text with a CHLO op is serialized as XLA's C-API client serializes every program it sends a plugin
(xla::Serialize, xla/pjrt/mlir_to_hlo.cc): CHLO legalised to StableHLO, the high-level ops (scan, top_k, mulhi,
erf, the hyperbolic and inverse trigonometric functions, ...) wrapped as composites named after them. StableHLO's
own serializer refuses CHLO, so this is the form in which such a program reaches a plugin from a framework. A text
with a Shardy (sdy) op takes the same path: JAX's programs carry them into the artifact, between VHLO ops (StableHLO's
own serializer knows no sdy dialect).

This is the TypeScript side's helper (scripts/gen-artifacts.ts, test/artifacts.test.ts); it only serializes.
Needs jaxlib (tested with 0.10.2); exit 4 when it cannot be imported.
"""
import base64
import json
import re
import sys

try:
    import jaxlib
    from jaxlib import _jax
    from jaxlib.mlir.dialects import stablehlo
except ImportError as e:
    sys.stderr.write('serialize-artifacts: jaxlib not importable (%s)\n' % e)
    sys.exit(4)


MIXED_OP = re.compile(r'(?:^|[\s"])(?:chlo|sdy)\.[a-z_]+', re.M)


def serialize(text, version):
    try:
        if MIXED_OP.search(text):
            # allow_mixed_serialization as the C-API client's xla::Serialize passes it
            return _jax.mlir.serialize_portable_artifact(text, version, True), None
        return stablehlo.serialize_portable_artifact_str(text, version), None
    except Exception as e:  # jaxlib raises ValueError("failed to serialize module"); the diagnostics go to stderr
        return None, '%s: %s' % (type(e).__name__, e)


def run_job(job):
    out = {'key': job['key'], 'artifacts': []}
    error = 'no target version given'
    for v in job['versions']:
        data, error = serialize(job['text'], v)
        if data is None:
            continue
        out['artifacts'].append({'version': v, 'bytes': base64.b64encode(data).decode('ascii')})
        if not job.get('each'):
            break
    if not out['artifacts']:
        out['error'] = error
    return out


def main():
    request = json.load(sys.stdin)
    results = [run_job(j) for j in request['jobs']]
    json.dump({
        'jaxlib': jaxlib.__version__,
        'minimum': stablehlo.get_minimum_version(),
        'current': stablehlo.get_current_version(),
        'results': results,
    }, sys.stdout)


if __name__ == '__main__':
    main()
