// Opt-in record of every PJRT call made through RawApi with its arguments in readable form: `$PJRT_CTS_CALL_LOG`
// names a file that gets one JSON line before each call (written synchronously, so a crash leaves the call in flight on
// record) and one after it with the fields the call wrote back, or its error. Off by default, at no cost: a normal run
// never sets the variable. `pjrt-cts repro` sets it to turn a case into its call sequence (src/repro/calls.ts).
import './env.js';
import { openSync, writeSync } from 'node:fs';
import { enumMember, isEnum, isStruct, layoutOf, OPAQUE_TYPES, type StructLayout } from '../abi/index.js';
import { isCallback } from '../abi/table.js';
import { API_SLOTS } from '../abi/slots.js';
import { isGuardPage } from './libc.js';
import { readBytes, readI64Array, readPtrArray, readU64, type Ptr } from './mem.js';
import { spokenMinor } from './minor.js';
import { decodeNamedValueList } from './named-values.js';

export const CALL_LOG_ENV = 'PJRT_CTS_CALL_LOG';

/** A field as read: a number, a string, a handle name (`PJRT_Buffer#2`), a list, bytes, or null for NULL. */
export type LoggedValue = string | number | boolean | null | LoggedValue[] | LoggedBytes | { [k: string]: LoggedValue | undefined };
/**
 * A (pointer, size) byte string: text when it is printable UTF-8, else hex; `nul`: whether a NUL follows `size`;
 * `guard`: an unreadable page follows the bytes (`after_code`) or their NUL (`after_nul`), src/pjrt/program-args.ts.
 */
export interface LoggedBytes { size: number; text?: string; hex?: string; nul: boolean; guard?: 'after_code' | 'after_nul'; [k: string]: LoggedValue | undefined }

/**
 * One line of the log. `call` before the call, `return` after it (with what changed), `error` for a PJRT error;
 * `case` where a worker starts a case (with the create options it asked for, `optionsKey`), so that one log can hold
 * the calls of several cases; `worker` where a process opens the log (the lines before its first `case` are its setup).
 */
export type LogLine =
  | { seq: number; at: 'call'; slot: string; args: Record<string, LoggedValue> }
  | { seq: number; at: 'return'; slot: string; out: Record<string, LoggedValue> }
  | { seq: number; at: 'error'; slot: string; code: string; message: string }
  | { at: 'case'; id: string; options?: string }
  | { at: 'worker'; pid: number };

/** Create options as one string, the same for the same options whatever their order (a case marker's `options`). */
export function optionsKey(options: Readonly<Record<string, unknown>>): string {
  const plain = (v: unknown): unknown => (typeof v === 'bigint' ? v.toString() : Array.isArray(v) ? v.map(plain) : v);
  return JSON.stringify(Object.keys(options).sort().map((k) => [k, plain(options[k])]));
}

/** Bytes kept per byte string: programs are kept whole up to this, longer ones as their head. */
const MAX_BYTES = 1 << 20;
const OPAQUE = new Set(OPAQUE_TYPES);
const SLOT_ARGS = new Map(API_SLOTS.map((s) => [s.name, s.args]));
/** Count fields whose names do not follow `num_<field>` / `<field>_size`. */
const COUNT_OF: Readonly<Record<string, string>> = { create_options: 'num_options', argument_lists: 'num_devices', output_lists: 'num_devices' };

const base = (t: string): string => t.replace(/\bconst\b/g, '').replace(/\bstruct\b/g, '').trim();

class CallLog {
  private seq = 0;
  private readonly names = new Map<bigint, string>();
  private readonly perType = new Map<string, number>();
  private readonly open = new Map<number, { layout: StructLayout; address: Ptr; before: Record<string, LoggedValue> }>();

  constructor(private readonly fd: number) {
    this.write({ at: 'worker', pid: process.pid });
  }

  private write(line: LogLine): void {
    try {
      writeSync(this.fd, `${JSON.stringify(line)}\n`);
    } catch { /* a log that cannot be written must not change the case */ }
  }

  /** `PJRT_Buffer#3`: one name per address and type, numbered per type in order of first sight. */
  private nameOf(type: string, p: bigint): string {
    const known = this.names.get(p);
    if (known) return known;
    const n = (this.perType.get(type) ?? 0) + 1;
    this.perType.set(type, n);
    const name = `${type}#${n}`;
    this.names.set(p, name);
    return name;
  }

  private countOf(layout: StructLayout, field: string, at: Ptr): number | undefined {
    for (const c of [COUNT_OF[field], `num_${field}`, `${field}_size`, field.replace(/^([a-z]+)_/, '$1_num_')]) {
      if (c && layout.has(c) && c !== field) return Number(readU64(at, layout.field(c).offset));
    }
    return undefined;
  }

  private value(layout: StructLayout, name: string, type: string, at: Ptr, depth: number): LoggedValue {
    const f = layout.field(name);
    const t = base(type);
    if (isCallback(t)) return readU64(at, f.offset) === 0n ? null : 'fn';
    if (!t.includes('*') && isStruct(t)) return this.decode(layoutOf(t, spokenMinor()), at + BigInt(f.offset), depth + 1);
    if (!t.includes('*')) {
      if (isEnum(t)) {
        const v = Number(readU64(at, f.offset) & 0xffffffffn) | 0;
        return enumMember(t, v) ?? v;
      }
      if (t === 'bool') return (Number(readU64(at, f.offset)) & 0xff) !== 0;
      if (t === 'float') return new Float32Array(new Uint32Array([Number(readU64(at, f.offset) & 0xffffffffn)]).buffer)[0]!;
      const raw = readU64(at, f.offset);
      const masked = f.size >= 8 ? raw : raw & ((1n << BigInt(f.size * 8)) - 1n);
      // an address passed as an integer (PJRT_Buffer_UnsafePointer): named, as addresses differ from run to run
      if (t === 'uintptr_t') return masked === 0n ? 0 : this.nameOf('address', masked);
      return masked <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(masked) : masked.toString();
    }
    const p = readU64(at, f.offset);
    if (p === 0n) return null;
    if (type.includes('(*')) return 'fn';
    const pointee = t.replace(/\*$/, '').trim();
    if (OPAQUE.has(pointee)) return this.nameOf(pointee, p);
    const n = this.countOf(layout, name, at);
    if (pointee.endsWith('*') && OPAQUE.has(pointee.replace(/\*$/, '').trim()) && n !== undefined) {
      const h = pointee.replace(/\*$/, '').trim();
      return readPtrArray(p, Math.min(n, 4096)).map((x) => (x === 0n ? null : this.nameOf(h, x)));
    }
    if (pointee === 'char' && layout.has(`${name}_size`)) return this.bytes(p, Number(readU64(at, layout.field(`${name}_size`).offset)));
    if (pointee === 'int64_t' && n !== undefined) return readI64Array(p, Math.min(n, 4096)).map((x) => Number(x));
    if (pointee === 'PJRT_NamedValue' && n !== undefined) {
      try {
        // a float keeps its type (`{float: x}`): a whole float would read back as an int64
        return decodeNamedValueList(p, n).map((v) => ({ [v.name]: typeof v.value === 'bigint' ? Number(v.value) : Array.isArray(v.value) ? v.value.map(Number) : v.kind === 'kFloat' ? { float: v.value as number } : v.value }));
      } catch {
        return `PJRT_NamedValue[${n}]`;
      }
    }
    if (isStruct(pointee) && n === undefined && depth < 2) {
      try {
        return this.decode(layoutOf(pointee, spokenMinor()), p, depth + 1);
      } catch { /* a struct newer than the spoken minor */ }
    }
    return this.nameOf('address', p);
  }

  private bytes(p: Ptr, size: number): LoggedBytes {
    const kept = readBytes(p, Math.min(size, MAX_BYTES));
    const end = p + BigInt(size);
    // the byte after them is read only when it is readable: a guard page ends the string there
    const guardAfterCode = isGuardPage(end);
    const nul = !guardAfterCode && size <= MAX_BYTES ? readBytes(end, 1)[0] === 0 : false;
    const guard = guardAfterCode ? { guard: 'after_code' as const } : nul && isGuardPage(end + 1n) ? { guard: 'after_nul' as const } : {};
    const text = Buffer.from(kept).toString('utf8');
    const printable = Buffer.from(text, 'utf8').equals(Buffer.from(kept)) && !/[\x00-\x08\x0e-\x1f]/.test(text);
    return printable ? { size, text, nul, ...guard } : { size, hex: Buffer.from(kept).toString('hex'), nul, ...guard };
  }

  private decode(layout: StructLayout, at: Ptr, depth = 0): Record<string, LoggedValue> {
    const out: Record<string, LoggedValue> = {};
    for (const f of layout.fields) {
      if (f.anonymous) {
        // a union: only the member its struct's `type` selects (PJRT_Buffer_MemoryLayout: Tiled → tiled), never a guess
        const kind = layout.has('type') ? this.value(layout, 'type', layout.field('type').type, at, depth) : undefined;
        const member = typeof kind === 'string' ? kind.toLowerCase() : undefined;
        if (member && layout.has(member) && member !== 'type') {
          try {
            out[member] = this.value(layout, member, layout.field(member).type, at, depth);
          } catch {
            out[member] = '?';
          }
        }
        continue;
      }
      if (f.name === 'struct_size' || f.name === 'extension_start') continue;
      try {
        out[f.name] = this.value(layout, f.name, f.type, at, depth);
      } catch {
        out[f.name] = '?';
      }
    }
    return out;
  }

  before(slot: string, address: Ptr): number {
    const seq = ++this.seq;
    const struct = SLOT_ARGS.get(slot);
    if (!struct) {
      this.write({ seq, at: 'call', slot, args: {} });
      return seq;
    }
    const layout = layoutOf(struct, spokenMinor());
    const args = this.decode(layout, address);
    this.open.set(seq, { layout, address, before: args });
    this.write({ seq, at: 'call', slot, args });
    return seq;
  }

  after(seq: number, slot: string): void {
    const o = this.open.get(seq);
    this.open.delete(seq);
    if (!o) return this.write({ seq, at: 'return', slot, out: {} });
    const now = this.decode(o.layout, o.address);
    const out: Record<string, LoggedValue> = {};
    for (const [k, v] of Object.entries(now)) if (JSON.stringify(v) !== JSON.stringify(o.before[k])) out[k] = v;
    this.write({ seq, at: 'return', slot, out });
  }

  error(seq: number, slot: string, code: string, message: string): void {
    this.write({ seq, at: 'error', slot, code, message });
  }

  /** A case starts here (before its create options are switched to, so its client's creation is among its calls). */
  caseStarts(id: string, options: Readonly<Record<string, unknown>> | undefined): void {
    this.write({ at: 'case', id, ...(options ? { options: optionsKey(options) } : {}) });
  }
}

const file = process.env[CALL_LOG_ENV];
/** The process's call log, when `$PJRT_CTS_CALL_LOG` names a file; undefined otherwise (the normal case). */
export const callLog: CallLog | undefined = file ? new CallLog(openSync(file, 'a')) : undefined;
