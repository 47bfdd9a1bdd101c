#!/usr/bin/env python3
"""Runs one program of a pjrt-cts failure on a PJRT plugin through jaxlib's own client, without the CTS.

Reads case.json beside this script (written by `pjrt-cts repro`): the program file as the case sent it, the inputs
and expected outputs as .npy, the tolerance of the case's sidecar. Compiles the program with jaxlib's client of the
plugin (loaded by path the way JAX registers a plugin, or a platform JAX already has), runs it on the inputs, prints
got vs expected for every output, and ends with the verdict line in the CTS's form.

  python3 repro.py --plugin /path/to/libplugin.so [--option name=value ...]   a plugin by path (create options from case.json)
  python3 repro.py --platform cuda                                            a platform JAX has (jax[cuda]: cuda; cpu: XLA's CPU client)

Exit: 0 every output matches, 1 an output differs (the failure reproduced), 3 the plugin refused to create a client,
compile or run it, 2 bad usage or no jax.
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--plugin', help='path to the PJRT plugin library (loaded as JAX loads one by path)')
    p.add_argument('--platform', help='a JAX platform instead of a library: cuda, rocm, tpu, cpu, ...')
    p.add_argument('--option', action='append', default=[], metavar='NAME=VALUE',
                   help='a client create option for --plugin (int, float, true/false, else string); overrides case.json')
    p.add_argument('--no-case-options', action='store_true', help='with --plugin: do not pass the create options of case.json')
    return p.parse_args()


ARGS = parse_args()
if ARGS.plugin:
    # only the plugin given (and no other backend JAX would bring up, such as one registering the same library itself)
    os.environ.setdefault('JAX_PLATFORMS', 'pjrt_repro')
with open(os.path.join(HERE, 'case.json'), encoding='utf-8') as f:
    CASE = json.load(f)
INSTANCES = CASE['replicas'] * CASE['partitions']
if (ARGS.platform or '') == 'cpu' and INSTANCES > 1:
    flags = re.sub(r'--xla_force_host_platform_device_count=\d+', '', os.environ.get('XLA_FLAGS', ''))
    os.environ['XLA_FLAGS'] = (flags + ' --xla_force_host_platform_device_count=%d' % INSTANCES).strip()

try:
    import numpy as np
    import ml_dtypes
    import jax
    from jax.extend import backend as jax_backend
    from jax._src import xla_bridge
    try:
        from jaxlib import _jax
    except ImportError:
        from jax._src.lib import _jax
except ImportError as e:
    sys.exit('repro.py: needs jax and jaxlib (pip install jax; for a GPU, jax[cuda13]): %s' % e)

jax.config.update('jax_enable_x64', True)

NUMPY = {'pred': np.bool_, 's8': np.int8, 's16': np.int16, 's32': np.int32, 's64': np.int64, 'u8': np.uint8,
         'u16': np.uint16, 'u32': np.uint32, 'u64': np.uint64, 'f16': np.float16, 'f32': np.float32, 'f64': np.float64,
         'c64': np.complex64, 'c128': np.complex128}
ML = {'bf16': 'bfloat16', 'f8e5m2': 'float8_e5m2', 'f8e4m3fn': 'float8_e4m3fn', 'f8e4m3b11fnuz': 'float8_e4m3b11fnuz',
      'f8e5m2fnuz': 'float8_e5m2fnuz', 'f8e4m3fnuz': 'float8_e4m3fnuz', 'f8e4m3': 'float8_e4m3', 'f8e3m4': 'float8_e3m4',
      'f8e8m0fnu': 'float8_e8m0fnu', 'f4e2m1fn': 'float4_e2m1fn', 'f6e2m3fn': 'float6_e2m3fn', 'f6e3m2fn': 'float6_e3m2fn',
      's4': 'int4', 'u4': 'uint4', 's2': 'int2', 'u2': 'uint2'}
SIGNLESS = {'f8e8m0fnu'}
PART = {'c64': 'f32', 'c128': 'f64'}


def np_dtype(name):
    if name in NUMPY:
        return np.dtype(NUMPY[name])
    if name in ML and hasattr(ml_dtypes, ML[name]):
        return np.dtype(getattr(ml_dtypes, ML[name]))
    sys.exit('repro.py: this ml_dtypes has no %s (pip install -U ml_dtypes)' % name)


def load(value):
    """A .npy of case.json as an array of its dtype (bit patterns are viewed as the ml_dtypes type)."""
    a = np.load(os.path.join(HERE, value['file']))
    return a.view(np_dtype(value['dtype'])) if value.get('bits') else a


def parse_option(text):
    name, sep, v = text.partition('=')
    if not sep:
        sys.exit('repro.py: --option %s: expected NAME=VALUE' % text)
    if v in ('true', 'false'):
        return name, v == 'true'
    for conv in (int, float):
        try:
            return name, conv(v)
        except ValueError:
            pass
    return name, v


def backend():
    if ARGS.plugin:
        if not os.path.exists(ARGS.plugin):
            sys.exit('repro.py: --plugin %s: no such file' % ARGS.plugin)
        options = {} if ARGS.no_case_options else {k: v for k, v in CASE.get('createOptions', {}).items()}
        options.update(dict(parse_option(o) for o in ARGS.option))
        xla_bridge.register_plugin('pjrt_repro', library_path=os.path.abspath(ARGS.plugin), options=options)
        try:
            return jax_backend.get_backend('pjrt_repro'), ARGS.plugin
        except Exception as e:  # the plugin refused to create a client (e.g. create options it does not know)
            print('%s: error: the plugin created no client with the create options %s: %s' % (CASE['id'], json.dumps(options), str(e).split('\n')[0]))
            sys.exit(3)
    platform = ARGS.platform or CASE.get('platform')
    try:
        return jax_backend.get_backend(platform), 'platform %s' % platform
    except RuntimeError as e:
        sys.exit('repro.py: JAX has no platform %r here (%s); pass --plugin /path/to/the/plugin.so' % (platform, str(e).split('\n')[0]))


# ---- comparison under the sidecar's tolerance (docs/corpus.md), element by element ---------------------------------
def width(name):
    return {'f4e2m1fn': 4, 'f6e2m3fn': 6, 'f6e3m2fn': 6, 'bf16': 16, 'f16': 16, 'f32': 32, 'f64': 64}.get(name, 8)


def is_float(name):
    return name.startswith('f') or name == 'bf16'


def bits_of(dt, x):
    raw = np.array([x], dtype=dt).view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[dt.itemsize])[0]
    return int(raw)


def ordered(name, b):
    if name in SIGNLESS:
        return b
    w = width(name)
    sign = 1 << (w - 1)
    return -(b & (sign - 1)) if b & sign else b


def element_mismatch(name, dt, e, a, tol):
    """None when `a` matches `e` (numpy scalars of dtype `dt`), else why not."""
    if name not in PART and bits_of(dt, e) == bits_of(dt, a):
        return None
    if name in PART:
        pd = np_dtype(PART[name])
        re_ = element_mismatch(PART[name], pd, pd.type(e.real), pd.type(a.real), tol)
        im = element_mismatch(PART[name], pd, pd.type(e.imag), pd.type(a.imag), tol)
        if re_ is None and im is None:
            return None
        return '; '.join(x for x in [re_ and 'real part: ' + re_, im and 'imaginary part: ' + im] if x)
    if not is_float(name):
        return 'not equal'
    ef, af = float(e), float(a)
    if np.isnan(ef) or np.isnan(af):
        return None if np.isnan(ef) and np.isnan(af) else 'NaN mismatch'
    if np.isinf(ef) or np.isinf(af):
        return None if ef == af else 'infinity mismatch'
    if ef == 0 and af == 0:
        return None if tol.get('signedZeros') is False or np.signbit(ef) == np.signbit(af) else 'sign of zero differs'
    if tol.get('subnormalsMayFlush') and af == 0 and abs(ef) < float(ml_dtypes.finfo(dt).smallest_normal):
        return None
    dist = abs(ordered(name, bits_of(dt, e)) - ordered(name, bits_of(dt, a)))
    if dist <= tol.get('ulp', 0):
        return None
    diff = abs(af - ef)
    if 'abs' in tol and diff <= tol['abs']:
        return None
    if 'rel' in tol and diff <= tol['rel'] * abs(ef):
        return None
    return '%d ulp apart' % dist


def show(name, dt, x):
    if name == 'pred':
        return 'true' if x else 'false'
    if not is_float(name) and name not in PART:
        return str(int(x))
    if name in PART:
        pd = np_dtype(PART[name])
        return '[%s, %s]' % (show(PART[name], pd, pd.type(x.real)), show(PART[name], pd, pd.type(x.imag)))
    v = float(x)
    text = 'nan' if np.isnan(v) else ('-0' if v == 0 and np.signbit(v) else ('%d' % v if v == int(v) and abs(v) < 2 ** 53 else repr(v))) if np.isfinite(v) else ('inf' if v > 0 else '-inf') if not np.isnan(v) else 'nan'
    return '%s (0x%0*x)' % (text, (width(name) + 3) // 4, bits_of(dt, x))


def mismatches(name, want, got, tol, open_elements, label, listed=10):
    dt = want.dtype
    if got.shape != want.shape:
        return '%s: expected dims %s, got %s' % (label, list(want.shape), list(got.shape))
    w, g = want.reshape(-1), got.reshape(-1)
    bad, shown = 0, []
    for i in range(w.size):
        if i in open_elements:
            continue
        why = element_mismatch(name, dt, w[i], g[i], tol)
        if why is None:
            continue
        bad += 1
        if len(shown) < listed:
            idx = ','.join(str(int(k)) for k in np.unravel_index(i, want.shape)) if want.ndim else ''
            shown.append('element %d [%s]: expected %s, got %s: %s' % (i, idx, show(name, dt, w[i]), show(name, dt, g[i]), why))
    if not bad:
        return None
    notes = (['tolerance %s' % json.dumps(tol, separators=(',', ':'))] if tol and is_float(name) else []) + \
            (['the first %d listed' % len(shown)] if bad > len(shown) else [])
    return '%s: %d of %d elements differ%s: %s' % (label, bad, w.size, ' (%s)' % '; '.join(notes) if notes else '', '; '.join(shown))


def accepted_mismatches(out, got, label, inputs, listed=8):
    """The exhaustive acceptance: element i passes when its bit pattern lies in one of its accepted intervals."""
    acc = out['accepted']
    offsets, lo, hi = (np.load(os.path.join(HERE, acc[k])).astype(np.int64) for k in ('offsets', 'lo', 'hi'))
    name = out['dtype']
    want = load(out)
    if got.shape != want.shape:
        return '%s: expected dims %s, got %s' % (label, list(want.shape), list(got.shape))
    uint = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[got.dtype.itemsize]
    bits = got.reshape(-1).view(uint).astype(np.int64) & ((1 << width(name)) - 1)
    counts = np.diff(offsets)
    each = np.repeat(bits, counts)
    inside = (lo <= each) & (each <= hi)
    ok = np.logical_or.reduceat(inside, offsets[:-1])
    bad = np.flatnonzero(~ok)
    if bad.size == 0:
        return None
    dt = want.dtype
    flat_want = want.reshape(-1)
    shown = []
    for i in bad[:listed]:
        ins = ', '.join(show(name, x.dtype, x.reshape(-1)[i]) for x in inputs)
        ranges = ', '.join(('0x%x' % a if a == b else '0x%x..0x%x' % (a, b)) for a, b in zip(lo[offsets[i]:offsets[i + 1]], hi[offsets[i]:offsets[i + 1]]))
        shown.append('element %d: %s -> expected %s, got %s (accepted: %s)' % (i, ins, show(name, dt, flat_want[i]), show(name, dt, got.reshape(-1)[i]), ranges))
    return '%s: %d mismatches of %d elements (%d not compared; %s)%s: %s' % (
        label, bad.size, bits.size, acc['notCompared'], acc['rule'], '; the first %d listed' % len(shown) if bad.size > len(shown) else '', '; '.join(shown))


def compare(out, got, label, inputs):
    if out.get('anyValue'):
        return None
    if out.get('accepted'):
        return accepted_mismatches(out, got, label, inputs)
    want = load(out)
    tol = out.get('tolerance', {})
    open_elements = set(out.get('implementationDefined', []))
    first = mismatches(out['dtype'], want, got, tol, open_elements, label)
    if first is None:
        return None
    why = []
    for alt in out.get('alternatives', []):
        m = mismatches(out['dtype'], load(alt), got, tol, open_elements, label)
        if m is None:
            return None
        why.append('the alternative accepted because %s: %s' % (alt['reason'], m[m.index(':') + 2:]))
    return first + ('; nor does it match ' + '; nor '.join(why) if why else '')


# ---- compile and run -----------------------------------------------------------------------------------------------
def main():
    client, where = backend()
    devices = client.local_devices()[:INSTANCES]
    print('plugin: %s (platform %s, %s); jax %s' % (where, client.platform, ' '.join(str(client.platform_version).split()), jax.__version__))
    if len(devices) < INSTANCES:
        sys.exit('repro.py: the program needs %d devices; the client has %d' % (INSTANCES, len(devices)))
    program = os.path.join(HERE, CASE['program'])
    code = open(program, 'rb').read()
    if CASE['form'] == 'text':
        code = code.decode('utf-8')
        print('program: %s (StableHLO text; jaxlib parses it and hands the plugin a portable artifact, as JAX does)' % CASE['program'])
    else:
        print('program: %s (portable artifact, %d bytes)' % (CASE['program'], len(code)))
    co = _jax.CompileOptions()
    co.num_replicas = CASE['replicas']
    co.num_partitions = CASE['partitions']
    co.executable_build_options.num_replicas = CASE['replicas']
    co.executable_build_options.num_partitions = CASE['partitions']
    co.executable_build_options.use_spmd_partitioning = CASE['partitions'] > 1
    co.device_assignment = _jax.DeviceAssignment.create(np.arange(INSTANCES, dtype=np.int32).reshape(CASE['replicas'], CASE['partitions']))
    verdict = CASE['id'] + ': '
    try:
        exe = client.compile_and_load(code, _jax.DeviceList(tuple(devices)), co)
    except Exception as e:  # the plugin's error, as jaxlib raises it
        print(verdict + 'error: compile: ' + str(e).split('\n')[0])
        return 3
    try:
        args = []
        for k in range(len(CASE['inputs'][0]) if CASE['inputs'] else 0):
            shards = [jax.device_put(load(CASE['inputs'][i][k]), devices[i]) for i in range(INSTANCES)]
            if INSTANCES == 1:
                args.append(shards[0])
            else:
                sharding = jax.sharding.NamedSharding(jax.sharding.Mesh(np.array(devices), ('i',)), jax.sharding.PartitionSpec())
                args.append(jax.make_array_from_single_device_arrays(shards[0].shape, sharding, shards))
        per_output = exe.execute_sharded(args).disassemble_into_single_device_arrays()
        got = [[None] * len(per_output) for _ in range(INSTANCES)]
        slot = {d.id: i for i, d in enumerate(devices)}
        for k, arrays in enumerate(per_output):
            for a in arrays:
                got[slot[next(iter(a.devices())).id]][k] = np.asarray(a)
    except Exception as e:
        print(verdict + 'error: execute: ' + str(e).split('\n')[0])
        return 3
    problems = []
    for i in range(INSTANCES):
        who = '' if INSTANCES == 1 else ('replica %d ' % i if CASE['partitions'] == 1 else 'replica %d partition %d ' % divmod(i, CASE['partitions']))
        want = CASE['outputs'][i]
        if len(got[i]) != len(want):
            problems.append('%sexpected %d outputs, got %d' % (who, len(want), len(got[i])))
        for k, out in enumerate(want[:len(got[i])]):
            g = got[i][k]
            label = '%soutput %d' % (who, k)
            if str(g.dtype) != str(np_dtype(out['dtype'])):
                problems.append('%s: expected element type %s, got %s' % (label, out['dtype'], g.dtype))
                continue
            expected = ('any value: ' + out['anyValue']) if out.get('anyValue') else np.array2string(load(out), threshold=64).replace('\n', '\n           ')
            print('%s (%s[%s]):\n  got      %s\n  expected %s' % (label, out['dtype'], ','.join(map(str, out['dims'])),
                  np.array2string(g, threshold=64).replace('\n', '\n           '), expected))
            inputs = [load(v) for v in CASE['inputs'][i]] if CASE.get('elementwise') else []
            m = compare(out, g, '%s (%s[%s])' % (label, out['dtype'], ','.join(map(str, out['dims']))), inputs)
            if m:
                problems.append(m)
    if problems:
        print(verdict + 'fail: ' + '; '.join(problems))
        return 1
    print(verdict + 'pass: every output matches')
    return 0


if __name__ == '__main__':
    sys.exit(main())
