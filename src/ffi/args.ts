// Raw Args buffers: a zeroed Node Buffer holding one PJRT struct, fields read and written by name through the
// ABI table's layout. Memory the struct points at (strings, arrays, nested structs) is kept alive by the Args.
import koffi from './koffi.js';
import { layoutOf, structDef, type StructLayout } from '../abi/index.js';
import { readString, readBytes, readPtrArray, readI64Array, type Ptr } from './mem.js';
import { UnsupportedError } from './errors.js';
import { fieldSince, needsMinor, spokenMinor } from './minor.js';

export interface FieldInfo {
  readonly offset: number;
  readonly size: number;
  readonly type: string;
}

export class ArgsLayout {
  private readonly byName = new Map<string, FieldInfo>();
  readonly name: string;
  readonly structSize: number;
  readonly sizeof: number;
  constructor(private readonly layout: StructLayout) {
    this.name = layout.name;
    this.structSize = layout.structSize;
    this.sizeof = layout.sizeof;
  }
  has(field: string): boolean {
    return this.layout.has(field);
  }
  /** A direct field or a member of an anonymous union (throws for an unknown name). */
  field(field: string): FieldInfo {
    let f = this.byName.get(field);
    if (f === undefined) {
      if (!this.layout.has(field)) {
        // A field newer than the spoken minor: a framework of that minor could not set or read it.
        const since = fieldSince(this.name, field);
        if (since !== undefined && since > this.layout.minor) throw new UnsupportedError(`${this.name}.${field}`, needsMinor(since));
      }
      const l = this.layout.field(field);
      f = { offset: l.offset, size: l.size, type: l.type };
      this.byName.set(field, f);
    }
    return f;
  }
  offset(field: string): number {
    return this.field(field).offset;
  }
  private readonly sizeFields = new Map<string, string>();
  /** `<ptrField>_size` (cached: building the name per call would cost more than the read). */
  sizeFieldOf(ptrField: string): string {
    let n = this.sizeFields.get(ptrField);
    if (n === undefined) this.sizeFields.set(ptrField, (n = `${ptrField}_size`));
    return n;
  }
  fieldNames(): string[] {
    return this.layout.fields.map((f) => f.name);
  }
}

const layoutsByMinor = new Map<number, Map<string, ArgsLayout>>();

/**
 * Layout of a struct at the minor the CTS speaks (src/ffi/minor.ts; by default the newest the ABI table describes),
 * cached. A struct newer than that minor throws UnsupportedError "needs 0.M".
 */
export function argsLayout(struct: string): ArgsLayout {
  const minor = spokenMinor();
  let layouts = layoutsByMinor.get(minor);
  if (layouts === undefined) layoutsByMinor.set(minor, (layouts = new Map()));
  let l = layouts.get(struct);
  if (l === undefined) {
    const since = structDef(struct).since;
    if (since > minor) throw new UnsupportedError(struct, needsMinor(since));
    layouts.set(struct, (l = new ArgsLayout(layoutOf(struct, minor))));
  }
  return l;
}

type Int64ish = bigint | number;
const EMPTY = Buffer.alloc(8);

// Args memory is carved from 64 KiB slabs and never reused (a slab is freed by GC once no Args refers to it).
// One DataView and one native address per slab: a fresh small Buffer or DataView costs ~350 ns (V8 moves its
// bytes off-heap on first use), a view into an already off-heap slab only an offset.
const SLAB_SIZE = 1 << 16;
interface Slab {
  ab: ArrayBuffer;
  dv: DataView;
  addr: Ptr;
  used: number;
}
function newSlab(size: number): Slab {
  const ab = new ArrayBuffer(size);
  return { ab, dv: new DataView(ab), addr: koffi.address(new Uint8Array(ab)), used: 0 };
}
let slab = newSlab(SLAB_SIZE);
function carve(n: number): { s: Slab; off: number } {
  const size = (n + 15) & ~15;
  if (size > SLAB_SIZE / 4) return { s: newSlab(size), off: 0 };
  if (slab.used + size > SLAB_SIZE) slab = newSlab(SLAB_SIZE);
  const off = slab.used;
  slab.used += size;
  return { s: slab, off };
}

export class Args {
  /** DataView over the whole slab; this struct starts at `base`. */
  readonly dv: DataView;
  readonly base: number;
  /** Bytes reserved for the struct (at least sizeof and struct_size). */
  readonly byteLength: number;
  /** Native address of the struct; valid while this Args is referenced. */
  readonly address: Ptr;
  private readonly ab: ArrayBuffer;
  private refs: unknown[] | null = null;

  /** `structSize` overrides the struct_size written (ABI-skew tests); the memory is large enough for both. */
  constructor(
    readonly layout: ArgsLayout,
    structSize: number = layout.structSize,
  ) {
    const n = Math.max(layout.sizeof, structSize, 16);
    const { s, off } = carve(n);
    this.ab = s.ab;
    this.dv = s.dv;
    this.base = off;
    this.byteLength = n;
    this.address = s.addr + BigInt(off);
    this.dv.setBigUint64(off, BigInt(structSize), true);
  }

  /** The struct's bytes (a view, not a copy). */
  get buf(): Uint8Array {
    return new Uint8Array(this.ab, this.base, this.byteLength);
  }
  get structSize(): number {
    return Number(this.dv.getBigUint64(this.base, true));
  }
  /** Keep `x` alive as long as this Args. */
  keep(x: unknown): this {
    (this.refs ??= []).push(x);
    return this;
  }

  ptr(f: string, v: Ptr | null): this {
    this.dv.setBigUint64(this.base + this.layout.offset(f), v ?? 0n, true);
    return this;
  }
  size(f: string, v: Int64ish): this {
    this.dv.setBigUint64(this.base + this.layout.offset(f), BigInt(v), true);
    return this;
  }
  i64(f: string, v: Int64ish): this {
    this.dv.setBigInt64(this.base + this.layout.offset(f), BigInt(v), true);
    return this;
  }
  i32(f: string, v: number): this {
    this.dv.setInt32(this.base + this.layout.offset(f), v, true);
    return this;
  }
  bool(f: string, v: boolean): this {
    this.dv.setUint8(this.base + this.layout.offset(f), v ? 1 : 0);
    return this;
  }
  f32(f: string, v: number): this {
    this.dv.setFloat32(this.base + this.layout.offset(f), v, true);
    return this;
  }
  /**
   * Point `ptrField` at a copy-free view of `data` and set `sizeField` to its length. A string is UTF-8 encoded with a
   * NUL after it that the size does not count, as a C++ caller's std::string holds it.
   */
  bytes(ptrField: string, sizeField: string | null, data: Uint8Array | string): this {
    const b = typeof data === 'string' ? Buffer.from(`${data}\0`, 'utf8') : data;
    const size = typeof data === 'string' ? b.byteLength - 1 : b.byteLength;
    this.keep(b);
    this.ptr(ptrField, koffi.address(b.byteLength === 0 ? EMPTY : b));
    if (sizeField !== null) this.size(sizeField, size);
    return this;
  }
  /** Point `ptrField` at an int64 array, `countField` (if any) = its length. */
  i64s(ptrField: string, countField: string | null, vals: readonly Int64ish[]): this {
    const a = BigInt64Array.from(vals, (v) => BigInt(v));
    this.keep(a);
    this.ptr(ptrField, vals.length === 0 ? koffi.address(EMPTY) : koffi.address(a));
    if (countField !== null) this.size(countField, vals.length);
    return this;
  }
  /** Point `ptrField` at an array of pointers, `countField` (if any) = its length. */
  ptrs(ptrField: string, countField: string | null, vals: readonly (Ptr | null)[]): this {
    const a = BigUint64Array.from(vals, (v) => v ?? 0n);
    this.keep(a);
    this.ptr(ptrField, vals.length === 0 ? koffi.address(EMPTY) : koffi.address(a));
    if (countField !== null) this.size(countField, vals.length);
    return this;
  }
  /** Point `ptrField` at another struct (kept alive). */
  struct(ptrField: string, other: Args | null): this {
    if (other === null) return this.ptr(ptrField, null);
    this.keep(other);
    return this.ptr(ptrField, other.address);
  }

  getPtr(f: string): Ptr | null {
    const v = this.dv.getBigUint64(this.base + this.layout.offset(f), true);
    return v === 0n ? null : v;
  }
  getSize(f: string): number {
    return Number(this.dv.getBigUint64(this.base + this.layout.offset(f), true));
  }
  getU64(f: string): bigint {
    return this.dv.getBigUint64(this.base + this.layout.offset(f), true);
  }
  getI64(f: string): bigint {
    return this.dv.getBigInt64(this.base + this.layout.offset(f), true);
  }
  getI32(f: string): number {
    return this.dv.getInt32(this.base + this.layout.offset(f), true);
  }
  getBool(f: string): boolean {
    return this.dv.getUint8(this.base + this.layout.offset(f)) !== 0;
  }
  getF32(f: string): number {
    return this.dv.getFloat32(this.base + this.layout.offset(f), true);
  }
  /** A (ptr,len) string output; `sizeField` defaults to `<ptrField>_size`. */
  str(ptrField: string, sizeField?: string): string {
    return readString(this.getPtr(ptrField), this.getU64(sizeField ?? this.layout.sizeFieldOf(ptrField)));
  }
  /** A (ptr,len) byte output, copied. */
  getBytes(ptrField: string, sizeField?: string): Uint8Array {
    return readBytes(this.getPtr(ptrField), this.getSize(sizeField ?? this.layout.sizeFieldOf(ptrField)));
  }
  ptrArray(ptrField: string, countField: string): Ptr[] {
    return readPtrArray(this.getPtr(ptrField), this.getSize(countField));
  }
  i64Array(ptrField: string, countField: string): bigint[] {
    return readI64Array(this.getPtr(ptrField), this.getSize(countField));
  }
}

/** A zeroed Args for `struct` with struct_size of the spoken minor from the ABI table (or `structSize` when given). */
export function makeArgs(struct: string, structSize?: number): Args {
  return new Args(argsLayout(struct), structSize);
}
