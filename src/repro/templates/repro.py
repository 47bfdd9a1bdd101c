#!/usr/bin/env python3
"""Runs one program of a pjrt-cts failure on a PJRT plugin through jaxlib's own client, without the CTS.

Reads case.json beside this script (written by `pjrt-cts repro`): the program file as the case sent it, the inputs
and expected outputs as .npy, the tolerance of the case's sidecar. Compiles the program with jaxlib's client of the
plugin (loaded by path the way JAX registers a plugin, or a platform JAX already has), runs it on the inputs, prints
got vs expected for every output, and ends with the case's verdict line, worded as the CTS words it (its rule, what
it expected, the findings or report with values spelled as the CTS spells them).

  python3 repro.py --plugin /path/to/libplugin.so [--option name=value ...]   a plugin by path (create options from case.json)
  python3 repro.py --platform cuda                                            a platform JAX has (jax[cuda]: cuda; cpu: XLA's CPU client)

Exit: 0 every output matches, 1 an output differs (the failure reproduced), 3 the plugin refused to create a client,
compile or run it, 2 bad usage (no jax, no such plugin file or platform, too few devices).
"""
import argparse
import json
import math
import os
import re
import struct
import sys
from decimal import ROUND_HALF_UP, Decimal, localcontext

HERE = os.path.dirname(os.path.abspath(__file__))
USAGE = 2  # the exit of bad usage: 1 says the failure reproduced


def usage(message):
    """Bad usage or a missing prerequisite: one line on stderr, exit 2."""
    sys.stderr.write('repro.py: %s\n' % message)
    sys.exit(USAGE)


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
    usage('needs jax and jaxlib (pip install jax; for a GPU, jax[cuda13]): %s' % e)

jax.config.update('jax_enable_x64', True)

NUMPY = {'pred': np.bool_, 's8': np.int8, 's16': np.int16, 's32': np.int32, 's64': np.int64, 'u8': np.uint8,
         'u16': np.uint16, 'u32': np.uint32, 'u64': np.uint64, 'f16': np.float16, 'f32': np.float32, 'f64': np.float64,
         'c64': np.complex64, 'c128': np.complex128}
ML = {'bf16': 'bfloat16', 'f8e5m2': 'float8_e5m2', 'f8e4m3fn': 'float8_e4m3fn', 'f8e4m3b11fnuz': 'float8_e4m3b11fnuz',
      'f8e5m2fnuz': 'float8_e5m2fnuz', 'f8e4m3fnuz': 'float8_e4m3fnuz', 'f8e4m3': 'float8_e4m3', 'f8e3m4': 'float8_e3m4',
      'f8e8m0fnu': 'float8_e8m0fnu', 'f4e2m1fn': 'float4_e2m1fn', 'f6e2m3fn': 'float6_e2m3fn', 'f6e3m2fn': 'float6_e3m2fn',
      's4': 'int4', 'u4': 'uint4', 's2': 'int2', 'u2': 'uint2'}


def np_dtype(name):
    if name in NUMPY:
        return np.dtype(NUMPY[name])
    if name in ML and hasattr(ml_dtypes, ML[name]):
        return np.dtype(getattr(ml_dtypes, ML[name]))
    usage('this ml_dtypes has no %s (pip install -U ml_dtypes)' % name)


def load(value):
    """A .npy of case.json as an array of its dtype (bit patterns are viewed as the ml_dtypes type)."""
    a = np.load(os.path.join(HERE, value['file']))
    return a.view(np_dtype(value['dtype'])) if value.get('bits') else a


def parse_option(text):
    name, sep, v = text.partition('=')
    if not sep:
        usage('--option %s: expected NAME=VALUE' % text)
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
            usage('--plugin %s: no such file' % ARGS.plugin)
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
    except Exception as e:  # JAX has no such backend here (RuntimeError; some versions raise others)
        usage('JAX has no platform %r here (%s); pass --plugin /path/to/the/plugin.so' % (platform, str(e).split('\n')[0]))


# ---- values spelled as the CTS spells them (JavaScript's number formatting; src/corpus/values.ts encodeElement) -----
def js_number(x):
    """ECMAScript Number::toString of a double: what the CTS's String(x) and JSON.stringify print."""
    if x != x:
        return 'NaN'
    if x == 0:
        return '0'
    if x < 0:
        return '-' + js_number(-x)
    if math.isinf(x):
        return 'Infinity'
    _, digits, exp = Decimal(repr(x)).normalize().as_tuple()
    s = ''.join(map(str, digits))
    k, n = len(s), exp + len(s)
    if k <= n <= 21:
        return s + '0' * (n - k)
    if 0 < n <= 21:
        return s[:n] + '.' + s[n:]
    if -6 < n <= 0:
        return '0.' + '0' * -n + s
    return s[0] + ('.' + s[1:] if k > 1 else '') + 'e' + ('+' if n - 1 >= 0 else '-') + str(abs(n - 1))


def js_precision(x, p):
    """ECMAScript Number.prototype.toPrecision(p): p significant digits of the exact value, ties rounded up."""
    if x != x:
        return 'NaN'
    if x < 0:
        return '-' + js_precision(-x, p)
    if math.isinf(x):
        return 'Infinity'
    e = 0
    m = '0' * p
    if x != 0:
        with localcontext() as ctx:
            ctx.prec = 2000
            d = Decimal(x)
            e = d.adjusted()
            n = int(d.scaleb(p - 1 - e).quantize(Decimal(1), rounding=ROUND_HALF_UP))
        if n >= 10 ** p:
            n, e = 10 ** (p - 1), e + 1
        m = str(n)
    if e < -6 or e >= p:
        return m[0] + ('.' + m[1:] if p > 1 else '') + 'e' + ('+' if e >= 0 else '-') + str(abs(e))
    if e == p - 1:
        return m
    if e >= 0:
        return m[:e + 1] + '.' + m[e + 1:]
    return '0.' + '0' * -(e + 1) + m


# ---- element types, as case.json describes them ("type": name, kind, bits; a float's canonical NaN, smallest normal,
# whether its ULP distances are signed; a complex type's part), and bit patterns ---------------------------------------
_TABLES = {}


def value(t, bits):
    """The value of a float pattern, as a Python float."""
    w = t['bits']
    if w == 32:
        return struct.unpack('<f', struct.pack('<I', bits))[0]
    if w == 64:
        return struct.unpack('<d', struct.pack('<Q', bits))[0]
    table = _TABLES.get(t['name'])
    if table is None:
        dt = np_dtype(t['name'])
        raw = np.arange(1 << w, dtype={1: np.uint8, 2: np.uint16}[dt.itemsize])
        table = _TABLES[t['name']] = raw.view(dt).astype(np.float64).tolist()
    return table[bits]


def round_to(t, x):
    """x rounded to the float type t, as a Python float."""
    if t['bits'] == 64:
        return x
    with np.errstate(all='ignore'):
        return float(np.array(x, dtype=np.float64).astype(np_dtype(t['name'])).astype(np.float64))


def patterns(a, t):
    """The elements of an array as bit patterns (Python ints, masked to the type's width), in C order."""
    flat = np.ascontiguousarray(a).reshape(-1)
    if flat.dtype.itemsize == 16:
        return [int(lo) | (int(hi) << 64) for lo, hi in flat.view(np.uint64).reshape(-1, 2).tolist()]
    mask = (1 << t['bits']) - 1
    return [int(x) & mask for x in flat.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[flat.dtype.itemsize]).tolist()]


def hex_of(t, bits):
    return '0x%0*x' % ((t['bits'] + 3) // 4, bits)


def shortest(t, x):
    """The shortest decimal that rounds back to x in t (the CTS's spelling of a float element)."""
    if t['bits'] == 64:
        return x
    for p in range(1, 18):
        y = float(js_precision(x, p))
        if round_to(t, y) == x:
            return y
    return x


def element_json(t, bits):
    kind = t['kind']
    if kind == 'pred':
        return 'true' if bits else 'false'
    if kind in ('sint', 'uint'):
        v = bits - (1 << t['bits']) if kind == 'sint' and bits >> (t['bits'] - 1) else bits
        return '"%d"' % v if t['bits'] > 32 else '%d' % v
    if kind == 'complex':
        part, w = t['part'], t['part']['bits']
        return '[%s,%s]' % (element_json(part, bits & ((1 << w) - 1)), element_json(part, bits >> w))
    x = value(t, bits)
    if x != x:
        return '"nan"' if bits == int(t.get('canonicalNan', '-1'), 16) else '"%s"' % hex_of(t, bits)
    if math.isinf(x):
        return '"inf"' if x > 0 else '"-inf"'
    if x == 0 and math.copysign(1, x) < 0:
        return '"-0"'
    return js_number(shortest(t, x))


def show(t, bits):
    e = element_json(t, bits)
    return '%s (%s)' % (e, hex_of(t, bits)) if t['kind'] in ('float', 'complex') else e


# ---- comparison as the CTS compares (src/corpus/compare.ts), element by element ------------------------------------
def ordered(t, bits):
    if not t.get('signed', True):
        return bits
    sign = 1 << (t['bits'] - 1)
    return -(bits & (sign - 1)) if bits & sign else bits


def element_mismatch(t, e, a, tol):
    """None when pattern a matches pattern e under the tolerance, else why not."""
    if e == a:
        return None
    if t['kind'] == 'complex':
        part, w = t['part'], t['part']['bits']
        re_ = element_mismatch(part, e & ((1 << w) - 1), a & ((1 << w) - 1), tol)
        im = element_mismatch(part, e >> w, a >> w, tol)
        if re_ is None and im is None:
            return None
        return ('real part: %s' % re_ if re_ is not None else '') + ('; ' if re_ is not None and im is not None else '') + \
            ('imaginary part: %s' % im if im is not None else '')
    if t['kind'] != 'float':
        return 'not equal'
    ev, av = value(t, e), value(t, a)
    if ev != ev or av != av:
        return None if ev != ev and av != av else 'NaN mismatch'
    if math.isinf(ev) or math.isinf(av):
        return None if ev == av else 'infinity mismatch'
    if ev == 0 and av == 0:
        return None if tol.get('signedZeros') is False or math.copysign(1, ev) == math.copysign(1, av) else 'sign of zero differs'
    if tol.get('subnormalsMayFlush') and av == 0 and ev != 0 and abs(ev) < t['smallestNormal']:
        return None
    dist = abs(ordered(t, e) - ordered(t, a))
    if dist <= tol.get('ulp', 0):
        return None
    diff = abs(av - ev)
    if 'abs' in tol and diff <= tol['abs']:
        return None
    if 'rel' in tol and diff <= tol['rel'] * abs(ev):
        return None
    return '%d ulp apart' % dist


def mismatches(out, want, got, label):
    """The CTS's finding for one value (inspectValue): None, or how many elements differ and the first ones."""
    t = out['type']
    head = '%s (%s[%s])' % (label, t['name'], ','.join(map(str, out['dims'])))
    if got.size != want.size:
        return '%s: expected %d bytes, got %d' % (head, want.nbytes, got.size * want.itemsize)
    tol = out.get('tolerance', {})
    skip = set(out.get('implementationDefined', []))
    w, g = patterns(want, t), patterns(got, t)
    bad, shown = 0, []
    for i in range(len(w)):
        if i in skip:
            continue
        why = element_mismatch(t, w[i], g[i], tol)
        if why is None:
            continue
        bad += 1
        if len(shown) < CASE['verdict']['listed']:
            idx = ','.join(str(int(k)) for k in np.unravel_index(i, out['dims'])) if out['dims'] else ''
            shown.append('element %d [%s]: expected %s, got %s: %s' % (i, idx, show(t, w[i]), show(t, g[i]), why))
    if not bad:
        return None
    notes = (['tolerance ' + out['toleranceJson']] if tol and t['kind'] in ('float', 'complex') else []) + \
            (['the first %d listed' % len(shown)] if bad > len(shown) else [])
    return '%s: %d of %d elements differ%s: %s' % (head, bad, len(w), ' (%s)' % '; '.join(notes) if notes else '', '; '.join(shown))


def compare(out, got, label):
    """The CTS's finding for one output (inspectOutput): against the expected value, then each alternative."""
    if out.get('anyValue'):
        return None
    first = mismatches(out, load(out), got, label)
    if first is None:
        return None
    why = []
    for alt in out.get('alternatives', []):
        m = mismatches(out, load(alt), got, label)
        if m is None:
            return None
        why.append('the alternative accepted because %s: %s' % (alt['reason'], m[m.index(':') + 2:]))
    return first + ('; nor does it match ' + '; nor '.join(why) if why else '')


# ---- an exhaustive case's report (src/corpus/exhaustive.ts checkResults and describeReport) ---------------------------
def exhaustive_report(out, got, inputs):
    """The report of the case's judge: mismatches, what it accepted how, the largest errors, the first mismatches."""
    rep, t = out['report'], out['type']
    flags, alt_offsets, alt = (np.load(os.path.join(HERE, rep[k])).tolist() for k in ('flags', 'altOffsets', 'alt'))
    bit = rep['flagBits']
    count = 1 << t['bits']
    values = [value(t, b) for b in range(count)]
    rank = [-(b - count // 2) if b >= count // 2 else b for b in range(count)]  # the format's total order (ulp distances)
    zeros = set(rep['zeros'])
    tol = rep['tolerance']
    want, a_bits = patterns(load(out), t), patterns(got, t)
    ins = [patterns(x, t) for x in inputs]

    def why(c, a):
        c = c & (count - 1) if c < 0 else c  # a NaN of a type without one: compared as its bits modulo the width
        if c == a or (values[c] != values[c] and values[a] != values[a]):
            return None
        m = element_mismatch(t, c, a, tol)
        if m is not None:
            return m
        return 'outside [-1, 1]' if rep['unitRange'] and abs(values[a]) > 1 else None

    r = {'mismatches': 0, 'skipped': 0, 'substituted': 0, 'flushed': 0, 'ulp': 0, 'abs': 0.0, 'rel': 0.0, 'worst': None}
    first = []

    def measure(c, a, m):
        if c < 0 or c == a or not math.isfinite(values[c]) or not math.isfinite(values[a]):
            return
        ulp, diff = abs(rank[c] - rank[a]), abs(values[a] - values[c])
        if ulp > r['ulp']:
            r['ulp'], r['worst'] = ulp, m
        r['abs'] = max(r['abs'], diff)
        if values[c] != 0:
            r['rel'] = max(r['rel'], diff / abs(values[c]))

    for i in range(len(want)):
        if flags[i] & bit['skip']:
            r['skipped'] += 1
            continue
        e, a = want[i], a_bits[i]
        if e == a:
            continue
        operands = [x[i] for x in ins]
        m0 = why(e, a)
        if m0 is None:
            measure(e, a, (operands, e, a, ''))
            continue
        if (flags[i] & bit['flushSubnormal'] and values[a] == 0) or (flags[i] & bit['flushInF32'] and a in zeros):
            r['flushed'] += 1
            continue
        c = next((c for c in alt[alt_offsets[i]:alt_offsets[i + 1]] if why(c, a) is None), None)
        if c is not None:
            r['substituted'] += 1
            measure(c, a, (operands, c, a, ''))
            continue
        measure(e, a, (operands, e, a, m0))
        r['mismatches'] += 1
        if len(first) < rep['listed']:
            first.append((operands, e, a, m0))

    def num(x):
        return 'nan' if x != x else '-0' if x == 0 and math.copysign(1, x) < 0 else js_number(x)

    def one(operands, e, a, reason):
        text = '%s \u2192 expected %s (%s), got %s (%s)' % (', '.join('%s (%s)' % (num(values[b]), hex_of(t, b)) for b in operands),
                                                     num(values[e]), hex_of(t, e), num(values[a]), hex_of(t, a))
        return text + (': ' + reason if reason else '')

    worst = ' at ' + one(*r['worst'][:3], '') if r['worst'] else ''
    head = ('%s on %s: %d inputs, %d mismatches, %d not compared (XLA\'s skip rules), %d accepted as subnormal inputs read as '
            '\u00b10/\u00b1smallest normal, %d as subnormal results flushed; largest error %d ulp%s, abs %s, rel %s; %s') % (
        rep['op'], t['name'], len(want), r['mismatches'], r['skipped'], r['substituted'], r['flushed'], r['ulp'], worst,
        js_precision(r['abs'], 3), js_precision(r['rel'], 3), rep['limit'])
    report = head + ('; first mismatches: ' + '; '.join(one(*m) for m in first) if first else '')
    return report if r['mismatches'] else None


# ---- compile and run -----------------------------------------------------------------------------------------------
def main():
    client, where = backend()
    devices = client.local_devices()[:INSTANCES]
    print('plugin: %s (platform %s, %s); jax %s' % (where, client.platform, ' '.join(str(client.platform_version).split()), jax.__version__))
    if len(devices) < INSTANCES:
        usage('the program needs %d devices; the client has %d' % (INSTANCES, len(devices)))
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
    problems, report = [], None
    names = {str(np_dtype(o['dtype'])): o['dtype'] for per in CASE['outputs'] for o in per}
    for i in range(INSTANCES):
        who = '' if INSTANCES == 1 else ('replica %d' % i if CASE['partitions'] == 1 else 'replica %d partition %d' % divmod(i, CASE['partitions']))
        at = (lambda k: '%s output %d' % (who, k)) if who else (lambda k: 'output %d' % k)
        want = CASE['outputs'][i]
        if len(got[i]) != len(want):
            problems.append('%sexpected %d outputs, got %d' % (who + ': ' if who else '', len(want), len(got[i])))
        for k, out in enumerate(want[:len(got[i])]):
            g = got[i][k]
            expected = ('any value: ' + out['anyValue']) if out.get('anyValue') else np.array2string(load(out), threshold=64).replace('\n', '\n           ')
            print('%s (%s[%s]):\n  got      %s\n  expected %s' % (at(k), out['dtype'], ','.join(map(str, out['dims'])),
                  np.array2string(g, threshold=64).replace('\n', '\n           '), expected))
            if str(g.dtype) != str(np_dtype(out['dtype'])):
                problems.append('%s: PJRT_Buffer_ElementType: expected %s, got %s' % (at(k), out['dtype'], names.get(str(g.dtype), str(g.dtype))))
                continue
            if list(g.shape) != list(out['dims']):
                problems.append('%s: PJRT_Buffer_Dimensions: expected %s, got %s' % (at(k), json.dumps(out['dims'], separators=(',', ':')), json.dumps(list(g.shape), separators=(',', ':'))))
            if out.get('report'):
                report = exhaustive_report(out, g, [load(v) for v in CASE['inputs'][i]])
            else:
                m = compare(out, g, at(k))
                if m:
                    problems.append(m)
    # the case's verdict, as the CTS words it: its rule, what it expected, and its findings (or its report)
    v = CASE['verdict']
    got_text = report if report and not problems else '%d finding(s): %s' % (len(problems), '; '.join(problems)) if problems else None
    if got_text:
        print('%s: fail: %s: expected %s, got %s' % (CASE['id'], v['rule'], v['expected'], got_text))
        return 1
    print(CASE['id'] + ': pass: every output matches')
    return 0


if __name__ == '__main__':
    sys.exit(main())
