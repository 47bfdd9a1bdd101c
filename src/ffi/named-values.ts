// PJRT_NamedValue lists: plain JS objects → native arrays (create options, payloads) and back (attributes).
import koffi from './koffi.js';
import { enumMember, enumValue } from '../abi/index.js';
import { argsLayout, type ArgsLayout } from './args.js';
import { readString, readI64, readI64Array, readF32, readU8, readPtr, readU64, readI32, type Ptr } from './mem.js';

/** bigint → kInt64, number → kFloat, boolean → kBool, string → kString, bigint[] → kInt64List. */
export type NamedValue = string | bigint | number | boolean | bigint[];
export type NamedValues = Record<string, NamedValue>;
export type NamedValueKind = 'kString' | 'kInt64' | 'kInt64List' | 'kFloat' | 'kBool';

export interface NamedValueEntry {
  readonly name: string;
  readonly kind: NamedValueKind | string;
  readonly value: NamedValue;
}

interface NvOffsets {
  layout: ArgsLayout;
  name: number;
  nameSize: number;
  type: number;
  value: number;
  valueSize: number;
}
let offs: NvOffsets | null = null;
function nv(): NvOffsets {
  if (offs === null) {
    const l = argsLayout('PJRT_NamedValue');
    const value = ['value', 'string_value', 'int64_value'].find((n) => l.has(n));
    if (value === undefined) throw new Error('PJRT_NamedValue layout has no value union');
    offs = {
      layout: l,
      name: l.offset('name'),
      nameSize: l.offset('name_size'),
      type: l.offset('type'),
      value: l.offset(value),
      valueSize: l.offset('value_size'),
    };
  }
  return offs;
}

function kindOf(v: NamedValue): NamedValueKind {
  if (typeof v === 'string') return 'kString';
  if (typeof v === 'bigint') return 'kInt64';
  if (typeof v === 'number') return 'kFloat';
  if (typeof v === 'boolean') return 'kBool';
  if (Array.isArray(v) && v.every((x) => typeof x === 'bigint')) return 'kInt64List';
  throw new TypeError(`unsupported NamedValue ${String(v)}`);
}

export interface EncodedNamedValues {
  /** Address of the first PJRT_NamedValue, or null for an empty list. */
  readonly ptr: Ptr | null;
  readonly count: number;
  /** Native memory that must stay referenced while the plugin may read the list. */
  readonly keep: readonly unknown[];
}

/** Encodes a list (entries, so tests can send duplicates or odd types) into a native PJRT_NamedValue array. */
export function encodeNamedValueList(entries: readonly { name: string; value: NamedValue; kind?: string }[]): EncodedNamedValues {
  if (entries.length === 0) return { ptr: null, count: 0, keep: [] };
  const o = nv();
  const stride = o.layout.sizeof;
  const buf = Buffer.alloc(stride * entries.length);
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const keep: unknown[] = [buf];
  const pin = (b: Uint8Array): Ptr => {
    keep.push(b);
    return b.byteLength === 0 ? 0n : koffi.address(b);
  };
  entries.forEach((e, i) => {
    const at = i * stride;
    const kind = e.kind ?? kindOf(e.value);
    const name = Buffer.from(e.name, 'utf8');
    dv.setBigUint64(at, BigInt(o.layout.structSize), true);
    dv.setBigUint64(at + o.name, pin(name), true);
    dv.setBigUint64(at + o.nameSize, BigInt(name.byteLength), true);
    dv.setInt32(at + o.type, enumValue('PJRT_NamedValue_Type', kind), true);
    const v = e.value;
    let size = 1n;
    if (typeof v === 'string') {
      const s = Buffer.from(v, 'utf8');
      dv.setBigUint64(at + o.value, pin(s), true);
      size = BigInt(s.byteLength);
    } else if (typeof v === 'bigint') dv.setBigInt64(at + o.value, v, true);
    else if (typeof v === 'number') dv.setFloat32(at + o.value, v, true);
    else if (typeof v === 'boolean') dv.setUint8(at + o.value, v ? 1 : 0);
    else {
      const a = BigInt64Array.from(v);
      dv.setBigUint64(at + o.value, pin(new Uint8Array(a.buffer)), true);
      size = BigInt(v.length);
    }
    dv.setBigUint64(at + o.valueSize, size, true);
  });
  return { ptr: koffi.address(buf), count: entries.length, keep };
}

export function encodeNamedValues(values: NamedValues): EncodedNamedValues {
  return encodeNamedValueList(Object.entries(values).map(([name, value]) => ({ name, value })));
}

/** Decodes a plugin-owned PJRT_NamedValue array, in order (duplicates kept). */
export function decodeNamedValueList(ptr: Ptr | null, count: number): NamedValueEntry[] {
  if (ptr === null || count === 0) return [];
  const o = nv();
  const out: NamedValueEntry[] = [];
  for (let i = 0; i < count; i++) {
    const at = ptr + BigInt(i * o.layout.sizeof);
    const name = readString(readPtr(at, o.name), readU64(at, o.nameSize));
    const type = readI32(at, o.type);
    const kind = enumMember('PJRT_NamedValue_Type', type) ?? `type_${type}`;
    const size = Number(readU64(at, o.valueSize));
    let value: NamedValue;
    switch (kind) {
      case 'kString': value = readString(readPtr(at, o.value), size); break;
      case 'kInt64': value = readI64(at, o.value); break;
      case 'kInt64List': value = readI64Array(readPtr(at, o.value), size); break;
      case 'kFloat': value = readF32(at, o.value); break;
      case 'kBool': value = readU8(at, o.value) !== 0; break;
      default: value = `<unknown NamedValue type ${type}>`;
    }
    out.push({ name, kind, value });
  }
  return out;
}

export function decodeNamedValues(ptr: Ptr | null, count: number): NamedValues {
  const r: NamedValues = {};
  for (const e of decodeNamedValueList(ptr, count)) r[e.name] = e.value;
  return r;
}
