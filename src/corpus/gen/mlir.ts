// Printing StableHLO text the way MLIR/JAX prints it: types, dense literals (MLIR's float printer), modules.
import type { DtypeRow } from '../../abi/dtypes.js';
import { bitsToFloat, roundTo } from '../../oracle/floats.js';
import { partDtype, type Tensor } from '../../oracle/tensor.js';

export function tensorType(d: DtypeRow, dims: readonly number[]): string {
  return `tensor<${dims.map((x) => `${x}x`).join('')}${d.mlir}>`;
}

export function typeOf(t: Tensor): string {
  return tensorType(t.dtype, t.dims);
}

/** Decimal digits (most significant first, trailing zeros dropped) and the power of ten of the last one,
 *  rounded half-up to `p` significant digits from the exact binary value, like APFloat::toString. */
function digits(x: number, p: number): { buf: string; exp: number } {
  const [mant, e] = Math.abs(x).toExponential(p - 1).split('e') as [string, string];
  const buf = mant.replace('.', '').replace(/0+$/, '') || '0';
  return { buf, exp: Number(e) - (buf.length - 1) };
}

/** APFloat::toString with default arguments (precision from the format, max padding 3, truncated zeros). */
function apfloatDefault(d: DtypeRow, x: number): string {
  const precision = 2 + Math.floor(((d.mantissaBits! + 1) * 59) / 196);
  const { buf, exp } = digits(x, precision);
  const sign = x < 0 ? '-' : '';
  const n = buf.length;
  let scientific: boolean;
  if (exp >= 0) scientific = exp > 3 || n + exp > precision;
  else {
    const msd = exp + n - 1;
    scientific = msd >= 0 ? false : -msd > 3;
  }
  if (scientific) {
    const e = exp + n - 1;
    const frac = n === 1 ? '0' : buf.slice(1);
    return `${sign}${buf[0]}.${frac}E${e >= 0 ? '+' : '-'}${Math.abs(e)}`;
  }
  if (exp >= 0) return sign + buf + '0'.repeat(exp); // no '.', the caller falls back to hex
  const whole = exp + n;
  if (whole > 0) return `${sign}${buf.slice(0, whole)}.${buf.slice(whole)}`;
  return `${sign}0.${'0'.repeat(-whole)}${buf}`;
}

function hexBits(d: DtypeRow, bits: bigint): string {
  return '0x' + bits.toString(16).toUpperCase().padStart(d.bits / 4, '0');
}

/** MLIR's printFloatValue: 6-digit exponential if it round-trips, else the default form if it has a '.', else hex. */
export function floatLiteral(d: DtypeRow, bits: bigint): string {
  const x = bitsToFloat(d, bits);
  if (Number.isFinite(x)) {
    const sign = x < 0 || Object.is(x, -0) ? '-' : '';
    const [mant, e] = Math.abs(x).toExponential(5).split('e') as [string, string];
    const sci = `${sign}${mant}0e${e[0]}${e.slice(1).padStart(2, '0')}`;
    if (Object.is(roundTo(d, Number(sci)), x)) return sci;
    const def = apfloatDefault(d, x);
    if (def.includes('.') && Object.is(roundTo(d, Number(def)), x)) return def;
  }
  return hexBits(d, bits);
}

function elementLiteral(t: Tensor, i: number): string {
  const d = t.dtype;
  if (d.kind === 'complex') {
    const part = partDtype(d);
    const b = t.bits(i);
    const mask = (1n << BigInt(part.bits)) - 1n;
    return `(${floatLiteral(part, b & mask)}, ${floatLiteral(part, b >> BigInt(part.bits))})`;
  }
  if (d.kind === 'float') return floatLiteral(d, t.bits(i));
  if (d.kind === 'pred') return t.bits(i) !== 0n ? 'true' : 'false';
  return String(t.get(i));
}

/** `dense<...>` body: splat when all elements are equal, nested lists otherwise. */
function denseLiteral(t: Tensor): string {
  const els = Array.from({ length: t.size }, (_, i) => elementLiteral(t, i));
  if (t.size === 0) return 'dense<>';
  if (els.every((e) => e === els[0])) return `dense<${els[0]}>`;
  if (t.size > 100) throw new Error('constants over 100 elements would print as hex blobs; not supported by the generator');
  let pos = 0;
  const nest = (k: number): string => {
    if (k === t.dims.length) return els[pos++]!;
    return '[' + Array.from({ length: t.dims[k]! }, () => nest(k + 1)).join(', ') + ']';
  };
  return `dense<${nest(0)}>`;
}

/** Builds one function body with JAX-style value names. */
export class FuncBuilder {
  private readonly args: string[] = [];
  private readonly lines: string[] = [];
  private next = 0;
  private constCount = 0;
  constructor(
    readonly name: string,
    readonly visibility: 'public' | 'private' = 'public',
  ) {}

  arg(type: string): string {
    const v = `%arg${this.args.length}`;
    this.args.push(`${v}: ${type}`);
    return v;
  }

  /** Appends `%N = <text>` (or `%N:k = ...` when results > 1) and returns the value name. */
  op(text: string, results = 1): string {
    const v = `%${this.next++}`;
    this.lines.push(`${results > 1 ? `${v}:${results}` : v} = ${text}`);
    return v;
  }

  /** Appends raw lines (regions), indented relative to the body. */
  raw(text: string): void {
    this.lines.push(...text.split('\n'));
  }

  /** Reserve the next value number for a multi-line op whose first line the caller writes. */
  fresh(): string {
    return `%${this.next++}`;
  }

  constant(t: Tensor): string {
    const base = t.dtype.kind === 'float' ? '%cst' : '%c';
    const v = this.constCount === 0 ? base : `${base}_${this.constCount - 1}`;
    this.constCount++;
    this.lines.push(`${v} = stablehlo.constant ${denseLiteral(t)} : ${typeOf(t)}`);
    return v;
  }

  text(results: readonly { value: string; type: string }[], opts: { resultInfo?: boolean } = {}): string {
    const types = results.map((r) => r.type);
    const info = opts.resultInfo ?? this.visibility === 'public';
    let sig: string;
    if (info) {
      sig = `(${results.map((r, i) => `${r.type} {jax.result_info = "${results.length > 1 ? `result[${i}]` : 'result'}"}`).join(', ')})`;
    } else sig = results.length === 1 ? types[0]! : `(${types.join(', ')})`;
    const ret = results.length ? `return ${results.map((r) => r.value).join(', ')} : ${types.join(', ')}` : 'return';
    return [
      `  func.func ${this.visibility} @${this.name}(${this.args.join(', ')}) -> ${sig} {`,
      ...this.lines.map((l) => `    ${l}`),
      `    ${ret}`,
      '  }',
    ].join('\n');
  }
}

export function moduleText(name: string, funcs: readonly string[], replicas = 1, partitions = 1): string {
  return [
    `module @jit_${name} attributes {mhlo.num_partitions = ${partitions} : i32, mhlo.num_replicas = ${replicas} : i32} {`,
    ...funcs,
    '}',
    '',
  ].join('\n');
}
