// dot_general: result dims = batch, lhs free, rhs free. Products are summed exactly in f64 (floats) or
// BigInt (ints) and rounded/wrapped once to the result type; XLA's order differs, hence tolerances.
import type { DtypeRow } from '../abi/dtypes.js';
import { convertScalar } from './convert.js';
import { roundTo } from './floats.js';
import { Tensor, ravel, unravel } from './tensor.js';

export interface DotDims {
  lhsBatch: readonly number[];
  rhsBatch: readonly number[];
  lhsContract: readonly number[];
  rhsContract: readonly number[];
}

function free(rank: number, used: readonly number[]): number[] {
  return Array.from({ length: rank }, (_, i) => i).filter((i) => !used.includes(i));
}

function dotResultDims(lhs: readonly number[], rhs: readonly number[], dd: DotDims): number[] {
  const lf = free(lhs.length, [...dd.lhsBatch, ...dd.lhsContract]);
  const rf = free(rhs.length, [...dd.rhsBatch, ...dd.rhsContract]);
  return [...dd.lhsBatch.map((d) => lhs[d]!), ...lf.map((d) => lhs[d]!), ...rf.map((d) => rhs[d]!)];
}

export function dotGeneral(lhs: Tensor, rhs: Tensor, dd: DotDims, out: DtypeRow): Tensor {
  const lf = free(lhs.dims.length, [...dd.lhsBatch, ...dd.lhsContract]);
  const rf = free(rhs.dims.length, [...dd.rhsBatch, ...dd.rhsContract]);
  const dims = dotResultDims(lhs.dims, rhs.dims, dd);
  const cdims = dd.lhsContract.map((d) => lhs.dims[d]!);
  const ccount = cdims.reduce((a, b) => a * b, 1);
  const r = new Tensor(out, dims);
  const nb = dd.lhsBatch.length;
  for (let o = 0; o < r.size; o++) {
    const oi = unravel(o, dims);
    const li = new Array<number>(lhs.dims.length);
    const ri = new Array<number>(rhs.dims.length);
    dd.lhsBatch.forEach((d, k) => (li[d] = oi[k]!));
    dd.rhsBatch.forEach((d, k) => (ri[d] = oi[k]!));
    lf.forEach((d, k) => (li[d] = oi[nb + k]!));
    rf.forEach((d, k) => (ri[d] = oi[nb + lf.length + k]!));
    let fsum = 0;
    let isum = 0n;
    for (let c = 0; c < ccount; c++) {
      const ci = unravel(c, cdims);
      dd.lhsContract.forEach((d, k) => (li[d] = ci[k]!));
      dd.rhsContract.forEach((d, k) => (ri[d] = ci[k]!));
      const a = convertScalar(lhs.get(ravel(li, lhs.dims)), out);
      const b = convertScalar(rhs.get(ravel(ri, rhs.dims)), out);
      if (typeof a === 'number') fsum += a * (b as number);
      else if (typeof a === 'bigint') isum += a * (b as bigint);
      else isum += a && b ? 1n : 0n;
    }
    if (out.kind === 'float') r.set(o, roundTo(out, fsum));
    else if (out.kind === 'pred') r.set(o, isum !== 0n);
    else r.set(o, isum);
  }
  return r;
}
