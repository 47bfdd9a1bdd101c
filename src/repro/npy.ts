// NumPy's .npy format (version 1.0: magic, a little-endian u16 header length, a Python-literal header padded with
// spaces to a multiple of 64 bytes and ended by a newline, then the raw C-order data), for host values of any CTS
// element type. A type numpy has is written as that type; one it lacks (bf16, the f8/f6/f4 floats, sub-byte integers)
// as its bit patterns in unsigned integers of the host width, which the reproducer views as the ml_dtypes type.
import { hostElementBytes, type DtypeRow } from '../abi/dtypes.js';

const NATIVE: Readonly<Record<string, string>> = {
  pred: '|b1', s8: '|i1', s16: '<i2', s32: '<i4', s64: '<i8', u8: '|u1', u16: '<u2', u32: '<u4', u64: '<u8',
  f16: '<f2', f32: '<f4', f64: '<f8', c64: '<c8', c128: '<c16',
};
const BITS_OF_WIDTH: Readonly<Record<number, string>> = { 1: '|u1', 2: '<u2', 4: '<u4', 8: '<u8' };

/** The descr a value of `d` is stored as, and whether it holds bit patterns rather than the type itself. */
export function npyDescr(d: DtypeRow): { descr: string; bits: boolean } {
  const native = NATIVE[d.name];
  if (native) return { descr: native, bits: false };
  const w = hostElementBytes(d);
  const descr = BITS_OF_WIDTH[w];
  if (!descr) throw new Error(`no .npy form for ${d.name} (${w} host bytes per element)`);
  return { descr, bits: true };
}

/** A .npy file of `dims` over the host bytes of `d` (little-endian, row-major, as the CTS uploads them). */
export function npyBytes(d: DtypeRow, dims: readonly number[], data: Uint8Array): Uint8Array {
  const { descr } = npyDescr(d);
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const unpadded = 10 + header.length + 1;
  header += ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const head = Buffer.alloc(10);
  Buffer.from([0x93, ...Buffer.from('NUMPY', 'latin1'), 1, 0]).copy(head);
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), data]);
}
