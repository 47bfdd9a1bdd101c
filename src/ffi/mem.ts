// Reads of plugin-owned memory by raw address.
import koffi from './koffi.js';

export type Ptr = bigint;

export function readU64(p: Ptr, off = 0): bigint {
  return BigInt(koffi.decode(p, off, 'uint64_t') as number | bigint);
}
export function readI64(p: Ptr, off = 0): bigint {
  return BigInt(koffi.decode(p, off, 'int64_t') as number | bigint);
}
export function readPtr(p: Ptr, off = 0): Ptr | null {
  const v = readU64(p, off);
  return v === 0n ? null : v;
}
export function readI32(p: Ptr, off = 0): number {
  return koffi.decode(p, off, 'int32_t') as number;
}
export function readU8(p: Ptr, off = 0): number {
  return koffi.decode(p, off, 'uint8_t') as number;
}
export function readF32(p: Ptr, off = 0): number {
  return koffi.decode(p, off, 'float') as number;
}
/** (ptr,len) string, not NUL-terminated. */
export function readString(p: Ptr | null, len: number | bigint): string {
  if (p === null || len === 0 || len === 0n) return '';
  return koffi.decode.string(p, len);
}
/** Copy of `len` bytes. */
export function readBytes(p: Ptr | null, len: number): Uint8Array {
  if (p === null || len === 0) return new Uint8Array(0);
  return new Uint8Array(koffi.view(p, len).slice(0));
}
/** A live (aliasing, not copied) view of `len` bytes at `p`; valid only while that memory is. */
export function liveView(p: Ptr, len: number): Uint8Array {
  return len === 0 ? new Uint8Array(0) : new Uint8Array(koffi.view(p, len));
}
export function readPtrArray(p: Ptr | null, n: number): Ptr[] {
  if (p === null || n === 0) return [];
  return Array.from(new BigUint64Array(koffi.view(p, n * 8).slice(0)));
}
export function readI64Array(p: Ptr | null, n: number): bigint[] {
  if (p === null || n === 0) return [];
  return Array.from(new BigInt64Array(koffi.view(p, n * 8).slice(0)));
}
export function readU64Array(p: Ptr | null, n: number): bigint[] {
  return readPtrArray(p, n);
}
export function readI32Array(p: Ptr | null, n: number): number[] {
  if (p === null || n === 0) return [];
  return Array.from(new Int32Array(koffi.view(p, n * 4).slice(0)));
}
export function writeU64(p: Ptr, off: number, v: bigint | number): void {
  koffi.encode(p, off, 'uint64_t', BigInt(v));
}
export function writePtr(p: Ptr, off: number, v: Ptr | null): void {
  koffi.encode(p, off, 'uint64_t', v ?? 0n);
}
/** Address of a JS buffer's bytes (stable while the buffer is referenced). */
export function addressOf(b: Uint8Array | BigInt64Array | BigUint64Array | Int32Array | Float32Array): Ptr {
  return koffi.address(b);
}
