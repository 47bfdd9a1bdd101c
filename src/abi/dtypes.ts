// The element-type table: one row per PJRT_Buffer_Type the CTS knows.
// Enum values live in the ABI table (enums.ts); this table refers to them by member name only.
// `mlir` is the StableHLO element-type spelling; `bits` is the storage width of one element.

export type DtypeKind = 'pred' | 'sint' | 'uint' | 'float' | 'complex' | 'token';

export interface DtypeRow {
  /** short name used in test ids and the corpus, e.g. "f32" */
  readonly name: string;
  /** PJRT_Buffer_Type member without the prefix, e.g. "F32" */
  readonly pjrt: string;
  readonly kind: DtypeKind;
  /** storage bits per element (sub-byte types pack; 0 for TOKEN) */
  readonly bits: number;
  /** StableHLO/MLIR spelling, e.g. "f32", "i1", "ui8", "complex<f32>" */
  readonly mlir: string;
  /** float formats: exponent and explicit mantissa bits */
  readonly exponentBits?: number;
  readonly mantissaBits?: number;
  /** the core set every plugin is expected to round-trip and the reference interpreter computes in */
  readonly core: boolean;
}

/**
 * How a float format spends its bit patterns, declared per type (data, not derived from the type's name):
 * - `ieee`: exponent all ones is infinity (zero mantissa) or NaN (any other mantissa);
 * - `fn`: no infinities; only exponent and mantissa all ones is NaN;
 * - `fnuz`: no infinities, one unsigned zero; the negative-zero pattern (sign bit alone) is the single NaN;
 * - `e8m0`: exponent only (no sign, no zero, no subnormals); all ones is NaN;
 * - `none`: every pattern is a finite number (the MX types f4E2M1FN, f6E2M3FN, f6E3M2FN).
 */
type NanEncoding = 'ieee' | 'fn' | 'fnuz' | 'e8m0' | 'none';

/**
 * What rounding a finite value past the largest finite one gives (rounding is to nearest even in an unbounded
 * exponent range; "past" means the rounded value exceeds the largest finite value): infinity, NaN, or the largest
 * finite value of the same sign (`saturate`). f8E8M0FNU rounds differently: up from 1.5·2^k (see floats.ts).
 */
type OverflowRule = 'inf' | 'nan' | 'saturate';

export interface FloatFormat {
  readonly exponentBits: number;
  readonly mantissaBits: number;
  readonly bias: number;
  readonly nan: NanEncoding;
  /** the largest finite value */
  readonly maxFinite: number;
  readonly overflow: OverflowRule;
  /** the NaN bit pattern results carry; for `none`, the pattern a NaN converts to (XLA's CPU compiler: -0) */
  readonly nanBits: number;
}

/**
 * The float formats by dtype name. Checked bit for bit against ml_dtypes 0.6 and XLA's CPU compiler (jaxlib 0.10.2):
 * every f32/f16/bf16 → T conversion of the sweep of all bf16 patterns and their ties, every T → f32/f16/bf16, and
 * add/subtract/multiply/divide/maximum/minimum on every operand pair (XLA rounds each result once to T).
 */
export const FLOAT_FORMATS: Readonly<Record<string, FloatFormat>> = {
  f16: { exponentBits: 5, mantissaBits: 10, bias: 15, nan: 'ieee', maxFinite: 65504, overflow: 'inf', nanBits: 0x7e00 },
  bf16: { exponentBits: 8, mantissaBits: 7, bias: 127, nan: 'ieee', maxFinite: 3.3895313892515355e38, overflow: 'inf', nanBits: 0x7fc0 },
  f32: { exponentBits: 8, mantissaBits: 23, bias: 127, nan: 'ieee', maxFinite: 3.4028234663852886e38, overflow: 'inf', nanBits: 0x7fc00000 },
  f64: { exponentBits: 11, mantissaBits: 52, bias: 1023, nan: 'ieee', maxFinite: Number.MAX_VALUE, overflow: 'inf', nanBits: 0x7ff8000000000000 },
  f8e5m2: { exponentBits: 5, mantissaBits: 2, bias: 15, nan: 'ieee', maxFinite: 57344, overflow: 'inf', nanBits: 0x7e },
  f8e4m3: { exponentBits: 4, mantissaBits: 3, bias: 7, nan: 'ieee', maxFinite: 240, overflow: 'inf', nanBits: 0x7c },
  f8e3m4: { exponentBits: 3, mantissaBits: 4, bias: 3, nan: 'ieee', maxFinite: 15.5, overflow: 'inf', nanBits: 0x78 },
  f8e4m3fn: { exponentBits: 4, mantissaBits: 3, bias: 7, nan: 'fn', maxFinite: 448, overflow: 'nan', nanBits: 0x7f },
  f8e4m3fnuz: { exponentBits: 4, mantissaBits: 3, bias: 8, nan: 'fnuz', maxFinite: 240, overflow: 'nan', nanBits: 0x80 },
  f8e5m2fnuz: { exponentBits: 5, mantissaBits: 2, bias: 16, nan: 'fnuz', maxFinite: 57344, overflow: 'nan', nanBits: 0x80 },
  f8e4m3b11fnuz: { exponentBits: 4, mantissaBits: 3, bias: 11, nan: 'fnuz', maxFinite: 30, overflow: 'nan', nanBits: 0x80 },
  f8e8m0fnu: { exponentBits: 8, mantissaBits: 0, bias: 127, nan: 'e8m0', maxFinite: 2 ** 127, overflow: 'nan', nanBits: 0xff },
  f4e2m1fn: { exponentBits: 2, mantissaBits: 1, bias: 1, nan: 'none', maxFinite: 6, overflow: 'saturate', nanBits: 0x8 },
  f6e2m3fn: { exponentBits: 2, mantissaBits: 3, bias: 1, nan: 'none', maxFinite: 7.5, overflow: 'saturate', nanBits: 0x20 },
  f6e3m2fn: { exponentBits: 3, mantissaBits: 2, bias: 3, nan: 'none', maxFinite: 28, overflow: 'saturate', nanBits: 0x20 },
};

/** The format of a float dtype (throws for any other). */
export function floatFormat(d: DtypeRow): FloatFormat {
  const f = FLOAT_FORMATS[d.name];
  if (!f) throw new Error(`dtype ${d.name} has no float format`);
  return f;
}

/** The small floats (f8*, f6*, f4*): non-core float types of at most 8 bits. */
export function isSmallFloat(d: DtypeRow): boolean {
  return d.kind === 'float' && d.bits <= 8;
}

export const DTYPES: readonly DtypeRow[] = [
  { name: 'pred', pjrt: 'PRED', kind: 'pred', bits: 8, mlir: 'i1', core: true },
  { name: 's8', pjrt: 'S8', kind: 'sint', bits: 8, mlir: 'i8', core: true },
  { name: 's16', pjrt: 'S16', kind: 'sint', bits: 16, mlir: 'i16', core: true },
  { name: 's32', pjrt: 'S32', kind: 'sint', bits: 32, mlir: 'i32', core: true },
  { name: 's64', pjrt: 'S64', kind: 'sint', bits: 64, mlir: 'i64', core: true },
  { name: 'u8', pjrt: 'U8', kind: 'uint', bits: 8, mlir: 'ui8', core: true },
  { name: 'u16', pjrt: 'U16', kind: 'uint', bits: 16, mlir: 'ui16', core: true },
  { name: 'u32', pjrt: 'U32', kind: 'uint', bits: 32, mlir: 'ui32', core: true },
  { name: 'u64', pjrt: 'U64', kind: 'uint', bits: 64, mlir: 'ui64', core: true },
  { name: 'f16', pjrt: 'F16', kind: 'float', bits: 16, mlir: 'f16', exponentBits: 5, mantissaBits: 10, core: true },
  { name: 'bf16', pjrt: 'BF16', kind: 'float', bits: 16, mlir: 'bf16', exponentBits: 8, mantissaBits: 7, core: true },
  { name: 'f32', pjrt: 'F32', kind: 'float', bits: 32, mlir: 'f32', exponentBits: 8, mantissaBits: 23, core: true },
  { name: 'f64', pjrt: 'F64', kind: 'float', bits: 64, mlir: 'f64', exponentBits: 11, mantissaBits: 52, core: true },
  { name: 'c64', pjrt: 'C64', kind: 'complex', bits: 64, mlir: 'complex<f32>', core: false },
  { name: 'c128', pjrt: 'C128', kind: 'complex', bits: 128, mlir: 'complex<f64>', core: false },
  { name: 'f8e5m2', pjrt: 'F8E5M2', kind: 'float', bits: 8, mlir: 'f8E5M2', exponentBits: 5, mantissaBits: 2, core: false },
  { name: 'f8e4m3fn', pjrt: 'F8E4M3FN', kind: 'float', bits: 8, mlir: 'f8E4M3FN', exponentBits: 4, mantissaBits: 3, core: false },
  { name: 'f8e4m3b11fnuz', pjrt: 'F8E4M3B11FNUZ', kind: 'float', bits: 8, mlir: 'f8E4M3B11FNUZ', exponentBits: 4, mantissaBits: 3, core: false },
  { name: 'f8e5m2fnuz', pjrt: 'F8E5M2FNUZ', kind: 'float', bits: 8, mlir: 'f8E5M2FNUZ', exponentBits: 5, mantissaBits: 2, core: false },
  { name: 'f8e4m3fnuz', pjrt: 'F8E4M3FNUZ', kind: 'float', bits: 8, mlir: 'f8E4M3FNUZ', exponentBits: 4, mantissaBits: 3, core: false },
  { name: 'f8e4m3', pjrt: 'F8E4M3', kind: 'float', bits: 8, mlir: 'f8E4M3', exponentBits: 4, mantissaBits: 3, core: false },
  { name: 'f8e3m4', pjrt: 'F8E3M4', kind: 'float', bits: 8, mlir: 'f8E3M4', exponentBits: 3, mantissaBits: 4, core: false },
  { name: 'f8e8m0fnu', pjrt: 'F8E8M0FNU', kind: 'float', bits: 8, mlir: 'f8E8M0FNU', exponentBits: 8, mantissaBits: 0, core: false },
  { name: 'f4e2m1fn', pjrt: 'F4E2M1FN', kind: 'float', bits: 4, mlir: 'f4E2M1FN', exponentBits: 2, mantissaBits: 1, core: false },
  { name: 'f6e2m3fn', pjrt: 'F6E2M3FN', kind: 'float', bits: 6, mlir: 'f6E2M3FN', exponentBits: 2, mantissaBits: 3, core: false },
  { name: 'f6e3m2fn', pjrt: 'F6E3M2FN', kind: 'float', bits: 6, mlir: 'f6E3M2FN', exponentBits: 3, mantissaBits: 2, core: false },
  { name: 's4', pjrt: 'S4', kind: 'sint', bits: 4, mlir: 'i4', core: false },
  { name: 'u4', pjrt: 'U4', kind: 'uint', bits: 4, mlir: 'ui4', core: false },
  { name: 's2', pjrt: 'S2', kind: 'sint', bits: 2, mlir: 'i2', core: false },
  { name: 'u2', pjrt: 'U2', kind: 'uint', bits: 2, mlir: 'ui2', core: false },
  { name: 's1', pjrt: 'S1', kind: 'sint', bits: 1, mlir: 'i1', core: false },
  { name: 'u1', pjrt: 'U1', kind: 'uint', bits: 1, mlir: 'ui1', core: false },
];

const byName = new Map(DTYPES.map((d) => [d.name, d]));
const byPjrt = new Map(DTYPES.map((d) => [d.pjrt, d]));

export function dtype(name: string): DtypeRow {
  const d = byName.get(name);
  if (!d) throw new Error(`unknown dtype '${name}'`);
  return d;
}

export function dtypeByPjrt(member: string): DtypeRow | undefined {
  return byPjrt.get(member);
}

/** Bytes a dense row-major array of `count` elements occupies (sub-byte types packed, rounded up). */
export function denseByteSize(d: DtypeRow, count: number): number {
  return Math.ceil((d.bits * count) / 8);
}

/**
 * Bytes one element occupies in a host buffer of the default (dense, row-major) host layout. Sub-byte types
 * (S1/U1, S2/U2, S4/U4, F4E2M1FN, F6*) are one element per byte, the value in the low bits: XLA's clients
 * unpack them (`ShapeUtil::DeviceShapeToHostShape` drops `element_size_in_bits`; ml_dtypes arrays hold one
 * element per byte), so `[1,-2,7,-8]` as S4 is host bytes `01 0e 07 08`.
 */
export function hostElementBytes(d: DtypeRow): number {
  return d.bits < 8 ? 1 : d.bits / 8;
}

/** One element's bits from little-endian host bytes (the low `d.bits` bits of a sub-byte element's byte). */
export function readHostBits(d: DtypeRow, bytes: Uint8Array, i: number): bigint {
  const w = hostElementBytes(d);
  let v = 0n;
  for (let k = w - 1; k >= 0; k--) v = (v << 8n) | BigInt(bytes[i * w + k]!);
  return BigInt.asUintN(d.bits, v);
}

/** Writes one element's bits as little-endian host bytes (masked to `d.bits`). */
export function writeHostBits(d: DtypeRow, bytes: Uint8Array, i: number, bits: bigint): void {
  const w = hostElementBytes(d);
  let v = BigInt.asUintN(d.bits, bits);
  for (let k = 0; k < w; k++) {
    bytes[i * w + k] = Number(v & 0xffn);
    v >>= 8n;
  }
}

/** Bytes a dense row-major host array of `count` elements occupies (one byte per sub-byte element). */
export function hostByteSize(d: DtypeRow, count: number): number {
  return hostElementBytes(d) * count;
}
