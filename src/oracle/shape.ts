// Data-movement ops: every output element is a bit copy of some operand element (or a padding value).
import type { DtypeRow } from '../abi/dtypes.js';
import { convertScalar } from './convert.js';
import { Tensor, numElements, ravel, unravel } from './tensor.js';

export function iota(d: DtypeRow, dims: readonly number[], dim: number): Tensor {
  const t = new Tensor(d, dims);
  for (let i = 0; i < t.size; i++) t.set(i, convertScalar(BigInt(unravel(i, dims)[dim]!), d));
  return t;
}

export function broadcastInDim(t: Tensor, dims: readonly number[], map: readonly number[]): Tensor {
  return t.gather(dims, (o) => {
    const oi = unravel(o, dims);
    return ravel(map.map((r, k) => (t.dims[k] === 1 ? 0 : oi[r]!)), t.dims);
  });
}

export function reshape(t: Tensor, dims: readonly number[]): Tensor {
  if (numElements(dims) !== t.size) throw new Error('reshape: element count differs');
  return new Tensor(t.dtype, dims, Uint8Array.from(t.bytes));
}

export function transpose(t: Tensor, perm: readonly number[]): Tensor {
  const dims = perm.map((p) => t.dims[p]!);
  return t.gather(dims, (o) => {
    const oi = unravel(o, dims);
    const ii = new Array<number>(perm.length);
    perm.forEach((p, d) => (ii[p] = oi[d]!));
    return ravel(ii, t.dims);
  });
}

export function slice(t: Tensor, start: readonly number[], limit: readonly number[], strides?: readonly number[]): Tensor {
  const st = strides ?? start.map(() => 1);
  const dims = start.map((s, d) => Math.max(0, Math.ceil((limit[d]! - s) / st[d]!)));
  return t.gather(dims, (o) => ravel(unravel(o, dims).map((i, d) => start[d]! + i * st[d]!), t.dims));
}

function clampStarts(starts: readonly bigint[], opDims: readonly number[], sizes: readonly number[]): number[] {
  return starts.map((s, d) => {
    const hi = BigInt(opDims[d]! - sizes[d]!);
    return Number(s < 0n ? 0n : s > hi ? hi : s);
  });
}

export function dynamicSlice(t: Tensor, starts: readonly bigint[], sizes: readonly number[]): Tensor {
  const st = clampStarts(starts, t.dims, sizes);
  return t.gather(sizes, (o) => ravel(unravel(o, sizes).map((i, d) => st[d]! + i), t.dims));
}

export function dynamicUpdateSlice(t: Tensor, update: Tensor, starts: readonly bigint[]): Tensor {
  const st = clampStarts(starts, t.dims, update.dims);
  const out = new Tensor(t.dtype, t.dims, Uint8Array.from(t.bytes));
  for (let u = 0; u < update.size; u++) {
    out.setBits(ravel(unravel(u, update.dims).map((i, d) => st[d]! + i), t.dims), update.bits(u));
  }
  return out;
}

export function concatenate(ts: readonly Tensor[], dim: number): Tensor {
  const dims = [...ts[0]!.dims];
  dims[dim] = ts.reduce((a, t) => a + t.dims[dim]!, 0);
  const out = new Tensor(ts[0]!.dtype, dims);
  for (let o = 0; o < out.size; o++) {
    const oi = unravel(o, dims);
    let k = 0;
    let pos = oi[dim]!;
    while (pos >= ts[k]!.dims[dim]!) pos -= ts[k++]!.dims[dim]!;
    const src = ts[k]!;
    oi[dim] = pos;
    out.setBits(o, src.bits(ravel(oi, src.dims)));
  }
  return out;
}

export function pad(t: Tensor, value: Tensor, low: readonly number[], high: readonly number[], interior: readonly number[]): Tensor {
  const dims = t.dims.map((d, k) => low[k]! + high[k]! + d + Math.max(d - 1, 0) * interior[k]!);
  const out = new Tensor(t.dtype, dims);
  for (let o = 0; o < out.size; o++) {
    const oi = unravel(o, dims);
    const src: number[] = [];
    let inside = true;
    oi.forEach((i, k) => {
      const p = i - low[k]!;
      const step = interior[k]! + 1;
      if (p < 0 || p % step !== 0 || p / step >= t.dims[k]!) inside = false;
      src.push(p / step);
    });
    out.setBits(o, inside ? t.bits(ravel(src, t.dims)) : value.bits(0));
  }
  return out;
}

export function reverse(t: Tensor, dims: readonly number[]): Tensor {
  return t.gather(t.dims, (o) => ravel(unravel(o, t.dims).map((i, d) => (dims.includes(d) ? t.dims[d]! - 1 - i : i)), t.dims));
}
