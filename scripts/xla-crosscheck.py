#!/usr/bin/env python3
"""Run corpus programs through XLA's own CPU compiler (jaxlib) and report what XLA answers.

For every `<name>.mlir` + `<name>.json` pair of a corpus directory (docs/corpus.md) the StableHLO text is
compiled with jaxlib's CPU client, run with the sidecar's inputs (programs with R replicas x P partitions on
R*P host devices, with an explicit device assignment: replica r, partition p on device r*P + p; with P > 1
compiled as JAX compiles SPMD programs, use_spmd_partitioning on), and XLA's outputs are written as exact little-endian
bytes (hex) with their dtype and dims, or XLA's error (status code name + message). Programs that must be
rejected (`--invalid DIR`: every `.mlir` there, no sidecar needed) are compiled and must fail.

This script only reports; comparing with the sidecars' expected outputs (under the corpus's tolerance rules)
is done by the TypeScript side (`pjrt-cts xla-check`, src/xla/crosscheck.ts).

Usage: xla-crosscheck.py [--programs DIR] [--invalid DIR] [--only NAME ...] [--form text|artifact] [--out FILE] [--devices N]
Needs jax + jaxlib (tested with 0.10.2); see docs/xla-referee.md for the install recipe.
"""
import argparse
import json
import os
import re
import sys
import time
from fractions import Fraction

# The number of host devices must be fixed before jax is imported.
DEFAULT_DEVICES = 8


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--programs', default='fixtures/programs', help='corpus directory (default: fixtures/programs)')
    p.add_argument('--invalid', action='append', default=[], help='directory of .mlir programs XLA must reject (repeatable)')
    p.add_argument('--only', action='append', default=[], help='only these program names (repeatable)')
    p.add_argument('--out', default='-', help='report file (default: stdout)')
    p.add_argument('--form', choices=['text', 'artifact'], default='text',
                   help='compile each <name>.mlir (text, default) or its portable artifact <name>.mlirbc (docs/artifacts.md)')
    p.add_argument('--devices', type=int, default=0, help='host devices (default: the largest replica count, at least %d)' % DEFAULT_DEVICES)
    return p.parse_args(argv)


ARGS = parse_args(sys.argv[1:])


def load_sidecars(directory, only):
    names = sorted(f[:-5] for f in os.listdir(directory) if f.endswith('.json'))
    if only:
        wanted = set(only)
        missing = wanted - set(names)
        if missing:
            sys.exit('xla-crosscheck: no such program(s) in %s: %s' % (directory, ', '.join(sorted(missing))))
        names = [n for n in names if n in wanted]
    out = []
    for n in names:
        try:
            with open(os.path.join(directory, n + '.json'), encoding='utf-8') as f:
                sidecar = json.load(f)
            if not isinstance(sidecar, dict):
                raise ValueError('not a JSON object')
        except ValueError as e:
            sidecar = {'__error__': 'sidecar is not valid JSON: %s' % e}
        out.append((n, sidecar))
    return out


SIDECARS = load_sidecars(ARGS.programs, ARGS.only) if ARGS.programs else []
def instances_of(sidecar):
    r, p = sidecar.get('replicas', 1), sidecar.get('partitions', 1)
    return r * p if isinstance(r, int) and isinstance(p, int) else 1


NEEDED = max([instances_of(s) for _, s in SIDECARS] + [1])
DEVICES = ARGS.devices or max(NEEDED, DEFAULT_DEVICES)
flags = os.environ.get('XLA_FLAGS', '')
flags = re.sub(r'--xla_force_host_platform_device_count=\d+', '', flags)
os.environ['XLA_FLAGS'] = (flags + ' --xla_force_host_platform_device_count=%d' % DEVICES).strip()
os.environ.setdefault('JAX_PLATFORMS', 'cpu')

try:
    import numpy as np
    import ml_dtypes
    import jax
    import jaxlib
    from jax.extend import backend as jax_backend
    from jax.sharding import Mesh, NamedSharding, PartitionSpec
    from jaxlib import _jax
except ImportError as e:  # the TypeScript side turns exit 4 into its install hint
    sys.stderr.write('xla-crosscheck: jax/jaxlib not importable (%s)\n' % e)
    sys.exit(4)

jax.config.update('jax_enable_x64', True)  # keep 64-bit inputs 64-bit

# ---- dtypes ------------------------------------------------------------------------------------------------
DTYPES = {
    'pred': np.dtype(np.bool_),
    's8': np.dtype(np.int8), 's16': np.dtype(np.int16), 's32': np.dtype(np.int32), 's64': np.dtype(np.int64),
    'u8': np.dtype(np.uint8), 'u16': np.dtype(np.uint16), 'u32': np.dtype(np.uint32), 'u64': np.dtype(np.uint64),
    'f16': np.dtype(np.float16), 'bf16': np.dtype(ml_dtypes.bfloat16), 'f32': np.dtype(np.float32), 'f64': np.dtype(np.float64),
    'c64': np.dtype(np.complex64), 'c128': np.dtype(np.complex128),
}
PART_OF = {np.dtype(np.complex64): np.dtype(np.float32), np.dtype(np.complex128): np.dtype(np.float64)}
for _name, _attr in [('f8e5m2', 'float8_e5m2'), ('f8e4m3fn', 'float8_e4m3fn'), ('f8e4m3b11fnuz', 'float8_e4m3b11fnuz'),
                     ('f8e5m2fnuz', 'float8_e5m2fnuz'), ('f8e4m3fnuz', 'float8_e4m3fnuz'), ('f8e4m3', 'float8_e4m3'),
                     ('f8e3m4', 'float8_e3m4'), ('f8e8m0fnu', 'float8_e8m0fnu'), ('f4e2m1fn', 'float4_e2m1fn'),
                     ('f6e2m3fn', 'float6_e2m3fn'), ('f6e3m2fn', 'float6_e3m2fn')]:
    if hasattr(ml_dtypes, _attr):
        DTYPES[_name] = np.dtype(getattr(ml_dtypes, _attr))
# sub-byte integers: ml_dtypes keeps one element per byte, the value in the low bits (the corpus' host form)
SUB_BYTE_INTS = set()
for _name, _attr in [('s4', 'int4'), ('u4', 'uint4'), ('s2', 'int2'), ('u2', 'uint2')]:
    if hasattr(ml_dtypes, _attr):
        DTYPES[_name] = np.dtype(getattr(ml_dtypes, _attr))
        SUB_BYTE_INTS.add(DTYPES[_name])
NAME_OF = {v: k for k, v in DTYPES.items()}
UINT_OF_WIDTH = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


class BadValue(Exception):
    pass


def from_bits(dt, bits):
    return np.array([bits], dtype=UINT_OF_WIDTH[dt.itemsize]).view(dt)[0]


def to_bits(dt, x):
    return int(np.array([x], dtype=dt).view(UINT_OF_WIDTH[dt.itemsize])[0])


def nearest_float(dt, x):
    """The value of float dtype `dt` nearest to the double `x` (round half to even), without double rounding
    (ml_dtypes may convert a double through float32 first)."""
    if dt == np.float64 or x != x:
        return np.array([x], dtype=dt)[0]
    with np.errstate(over='ignore', invalid='ignore'):
        c = np.array([x], dtype=dt)[0]
    if x in (float('inf'), float('-inf')):
        return c
    fx = Fraction(x)
    finfo = ml_dtypes.finfo(dt)  # numpy's finfo rejects some ml_dtypes types (float8_e5m2: 'not inexact')
    big = Fraction(float(finfo.max))
    if abs(fx) > big:
        # beyond the largest finite value: round to infinity from max + half an ulp on (a tie goes to infinity,
        # max being odd); types without infinity give whatever ml_dtypes gives
        ulp_at_max = Fraction(float(finfo.eps)) * Fraction(2) ** int(np.floor(np.log2(float(finfo.max))))
        with np.errstate(over='ignore', invalid='ignore'):
            inf = np.array([float('inf') if x > 0 else float('-inf')], dtype=dt)[0]
        if not np.isinf(float(inf)):
            return c
        return inf if abs(fx) >= big + ulp_at_max / 2 else np.array([float(finfo.max) if x > 0 else -float(finfo.max)], dtype=dt)[0]
    bits = to_bits(dt, c)
    best = None
    for b in (bits - 1, bits, bits + 1):
        if b < 0 or b >= 1 << (8 * dt.itemsize):
            continue
        v = from_bits(dt, b)
        fv = float(v)
        if fv != fv or fv in (float('inf'), float('-inf')) or (fv != 0 and (fv < 0) != (x < 0)):
            continue
        key = (abs(Fraction(fv) - fx), b & 1)
        if best is None or key < best[0]:
            best = (key, v)
    v = best[1] if best else c
    if float(v) == 0:  # the sign of a zero follows x (an underflow keeps its sign)
        v = np.array([-0.0 if np.signbit(x) else 0.0], dtype=dt)[0]
    return v


INT_RE = re.compile(r'^-?[0-9]+$')
HEX_RE = re.compile(r'^0x[0-9a-fA-F]+$')


def decode(dt, e):
    """One JSON element (docs/corpus.md, 'Values') as a numpy scalar of dtype `dt`."""
    if dt in PART_OF:  # complex: [real, imaginary], each a float element of the part type
        if not isinstance(e, list) or len(e) != 2:
            raise BadValue('%s element %r is not a [real, imaginary] pair' % (NAME_OF[dt], e))
        z = np.zeros(1, dtype=dt)
        parts = z.view(PART_OF[dt])
        parts[0], parts[1] = decode(PART_OF[dt], e[0]), decode(PART_OF[dt], e[1])
        return z[0]
    if isinstance(e, str) and HEX_RE.match(e):
        b = int(e, 16)
        if b >> (8 * dt.itemsize):
            raise BadValue('bit pattern %s is wider than %s' % (e, NAME_OF[dt]))
        return from_bits(dt, b)
    if dt == np.bool_:
        if e is True or e == 1:
            return np.bool_(True)
        if e is False or e == 0:
            return np.bool_(False)
        raise BadValue('pred element %r' % (e,))
    if dt.kind in 'iu' or dt in SUB_BYTE_INTS:
        if isinstance(e, bool) or not (isinstance(e, int) or (isinstance(e, float) and e.is_integer()) or (isinstance(e, str) and INT_RE.match(e))):
            raise BadValue('%s element %r is not an integer' % (NAME_OF[dt], e))
        i = int(e)
        info = ml_dtypes.iinfo(dt) if dt in SUB_BYTE_INTS else np.iinfo(dt)
        if not info.min <= i <= info.max:
            raise BadValue('%s element %d out of range' % (NAME_OF[dt], i))
        return np.array([i], dtype=dt)[0]
    # floats
    if e == 'nan':
        return np.array([float('nan')], dtype=dt)[0]
    if e == 'inf':
        x = float('inf')
    elif e == '-inf':
        x = float('-inf')
    elif e == '-0':
        x = -0.0
    elif isinstance(e, (int, float)) and not isinstance(e, bool):
        x = float(e)
    elif isinstance(e, str):
        try:
            x = float(e)
        except ValueError:
            raise BadValue('%s element %r' % (NAME_OF[dt], e))
    else:
        raise BadValue('%s element %r' % (NAME_OF[dt], e))
    return nearest_float(dt, x)


def to_array(v):
    dt = DTYPES.get(v['dtype'])
    if dt is None:
        raise BadValue('unknown dtype %r' % v['dtype'])
    dims = [int(d) for d in v['dims']]
    data = v['data']
    n = 1
    for d in dims:
        n *= d
    if len(data) != n:
        raise BadValue('%d elements for dims %s' % (len(data), dims))
    flat = np.empty(n, dtype=dt)
    for i, e in enumerate(data):
        flat[i] = decode(dt, e)
    return flat.reshape(dims)


# ---- running -----------------------------------------------------------------------------------------------
CODE_RE = re.compile(r'^([A-Z_]+): ')


def error_of(e, stage):
    msg = str(e)
    m = CODE_RE.match(msg)
    code = m.group(1) if m else type(e).__name__
    if m:
        msg = msg[m.end():]
    return {'stage': stage, 'code': code, 'message': msg[:2000]}


BACKEND = jax_backend.get_backend('cpu')
ALL_DEVICES = BACKEND.devices()


def compile_program(text, replicas, partitions=1):
    devs = ALL_DEVICES[:replicas * partitions]
    co = _jax.CompileOptions()
    co.num_replicas = replicas
    co.num_partitions = partitions
    co.executable_build_options.num_replicas = replicas
    co.executable_build_options.num_partitions = partitions
    # XLA refuses num_partitions > 1 without SPMD partitioning; JAX turns it on for every such program (pxla.py)
    co.executable_build_options.use_spmd_partitioning = partitions > 1
    # JAX >= 0.7 compiles every program with Shardy (jax_use_shardy_partitioner, default True; pxla.py passes it in the
    # build options): without it XLA's partitioner rejects the sdy ops JAX's programs carry
    co.executable_build_options.use_shardy_partitioner = True
    co.device_assignment = _jax.DeviceAssignment.create(np.arange(replicas * partitions, dtype=np.int32).reshape(replicas, partitions))
    return BACKEND.compile_and_load(text, _jax.DeviceList(tuple(devs)), co), devs


def execute(exe, devs, per_replica_args):
    """per_replica_args[i][k]: numpy array of program instance i (on devs[i]); returns outputs[i][k] as numpy arrays."""
    mesh = Mesh(np.array(devs), ('replica',))
    replicated = NamedSharding(mesh, PartitionSpec())
    args = []
    nargs = len(per_replica_args[0]) if per_replica_args else 0
    for k in range(nargs):
        shards = [jax.device_put(per_replica_args[r][k], devs[r]) for r in range(len(devs))]
        # one logical argument whose shard on device r is replica r's value (shapes agree across replicas)
        args.append(jax.make_array_from_single_device_arrays(shards[0].shape, replicated, shards))
    results = exe.execute_sharded(args)
    per_output = results.disassemble_into_single_device_arrays()
    by_device = {}
    for i, arrays in enumerate(per_output):
        for a in arrays:
            by_device.setdefault(a.devices().pop().id if hasattr(a, 'devices') else a.device.id, {})[i] = a
    out = []
    for d in devs:
        got = by_device.get(d.id, {})
        out.append([np.asarray(got[i]) for i in range(len(per_output))])
    return out


def describe(a):
    a = np.asarray(a)
    name = NAME_OF.get(a.dtype, str(a.dtype))
    return {'dtype': name, 'dims': list(a.shape), 'hex': a.tobytes(order='C').hex()}


def run_one(name, sidecar, text):
    rec = {'name': name, 'expect': 'valid'}
    if '__error__' in sidecar:
        rec.update(status='error', replicas=1, error={'stage': 'inputs', 'code': 'BAD_SIDECAR', 'message': sidecar['__error__']})
        return rec
    replicas = int(sidecar.get('replicas', 1))
    partitions = int(sidecar.get('partitions', 1))
    rec['replicas'] = replicas
    rec['partitions'] = partitions
    t0 = time.perf_counter()
    try:
        raw = sidecar.get('inputs', [])
        per = raw if replicas * partitions > 1 else [raw]
        if len(per) != replicas * partitions:
            raise BadValue('inputs do not hold one list per program instance')
        inputs = [[to_array(v) for v in vs] for vs in per]
    except (BadValue, KeyError, TypeError, ValueError) as e:
        rec.update(status='error', error={'stage': 'inputs', 'code': 'BAD_SIDECAR', 'message': str(e)})
        return rec
    # the bytes XLA was given, so that the caller can check this decoding against its own
    rec['inputs'] = [[a.tobytes(order='C').hex() for a in vs] for vs in inputs]
    try:
        exe, devs = compile_program(text, replicas, partitions)
    except Exception as e:  # noqa: BLE001 - XlaRuntimeError and friends
        rec.update(status='error', error=error_of(e, 'compile'))
        return rec
    try:
        outs = execute(exe, devs, inputs)
    except Exception as e:  # noqa: BLE001
        rec.update(status='error', error=error_of(e, 'execute'))
        return rec
    rec['status'] = 'ok'
    rec['outputs'] = [[describe(a) for a in o] for o in outs]
    rec['ms'] = round((time.perf_counter() - t0) * 1000, 1)
    return rec


def run_invalid(name, text):
    rec = {'name': name, 'expect': 'invalid', 'replicas': 1}
    m = re.search(r'mhlo\.num_replicas\s*=\s*(\d+)', text)
    replicas = int(m.group(1)) if m else 1
    try:
        compile_program(text, min(max(replicas, 1), len(ALL_DEVICES)))
    except Exception as e:  # noqa: BLE001
        rec.update(status='error', error=error_of(e, 'compile'))
        return rec
    rec['status'] = 'ok'  # compiled: XLA accepted a program that must be rejected
    return rec


def main():
    t0 = time.perf_counter()
    programs = []
    for name, sidecar in SIDECARS:
        ext = '.mlirbc' if ARGS.form == 'artifact' else '.mlir'
        path = os.path.join(ARGS.programs, name + ext)
        if not os.path.exists(path):
            programs.append({'name': name, 'expect': 'valid', 'status': 'error',
                             'error': {'stage': 'inputs', 'code': 'BAD_SIDECAR', 'message': 'no %s%s' % (name, ext)}})
            continue
        with open(path, 'rb') as f:
            code = f.read()
        programs.append(run_one(name, sidecar, code if ARGS.form == 'artifact' else code.decode('utf-8')))
    for d in ARGS.invalid:
        for f in sorted(os.listdir(d)):
            if f.endswith('.mlir'):
                with open(os.path.join(d, f), encoding='utf-8') as fh:
                    programs.append(run_invalid(f[:-5], fh.read()))
    report = {
        'tool': 'xla-crosscheck',
        'jax': jax.__version__,
        'jaxlib': jaxlib.__version__,
        'platform': BACKEND.platform,
        'platform_version': BACKEND.platform_version,
        'devices': len(ALL_DEVICES),
        'seconds': round(time.perf_counter() - t0, 2),
        'programs': programs,
    }
    text = json.dumps(report, indent=1)
    if ARGS.out == '-':
        sys.stdout.write(text + '\n')
    else:
        with open(ARGS.out, 'w', encoding='utf-8') as f:
            f.write(text + '\n')
    bad = sum(1 for p in programs if p['status'] != 'ok')
    sys.stderr.write('xla-crosscheck: %d programs, %d with an error, %.1f s (jaxlib %s, %d host devices)\n'
                     % (len(programs), bad, report['seconds'], jaxlib.__version__, len(ALL_DEVICES)))


if __name__ == '__main__':
    main()
