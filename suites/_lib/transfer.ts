// Host-buffer helpers shared by the transfer, buffer and async suites.
import type { Client, Device, Memory, Buffer } from '../../src/pjrt/index.js';
import { typeRefused } from './declined.js';
import { elementCount } from './patterns.js';

interface UnsupportedCtx {
  unsupported(reason: string): never;
}

/** Upload; a refusal of the element type (suites/_lib/declined.ts typeRefused) makes the case unsupported. */
export async function uploadOrUnsupported(
  ctx: UnsupportedCtx,
  client: Client,
  data: Uint8Array,
  spec: { dtype: string; dims: readonly number[]; device?: Device; memory?: Memory; byteStrides?: number[] },
): Promise<Buffer> {
  try {
    return await client.upload(data, { ...spec, dims: [...spec.dims] });
  } catch (e) {
    const refused = typeRefused(e, spec.dtype);
    if (refused) ctx.unsupported(`${spec.dtype}${JSON.stringify(spec.dims)}: ${refused}`);
    throw e;
  }
}

/** Host bytes laid out with `byteStrides` (elements at arbitrary strides, gaps filled with 0xAB), from dense `dense`. */
export function strided(dense: Uint8Array, dims: readonly number[], elemBytes: number, byteStrides: readonly number[]): Uint8Array {
  const n = elementCount(dims);
  let span = elemBytes;
  dims.forEach((d, i) => (span += d > 0 ? (d - 1) * byteStrides[i]! : 0));
  const out = new Uint8Array(n === 0 ? 0 : span).fill(0xab);
  const idx = new Array<number>(dims.length).fill(0);
  for (let e = 0; e < n; e++) {
    const at = idx.reduce((acc, x, i) => acc + x * byteStrides[i]!, 0);
    out.set(dense.subarray(e * elemBytes, (e + 1) * elemBytes), at);
    for (let k = dims.length - 1; k >= 0; k--) {
      if (++idx[k]! < dims[k]!) break;
      idx[k] = 0;
    }
  }
  return out;
}
