// The record of the plugin call in flight, shared by a child that loads a plugin and its parent. The parent creates
// a small file (unlinked at once: nothing is left behind) and hands it to the child as descriptor CALL_FD; the child
// maps it and writes the name of each risky call into it before making it ('' once it returned) — a store to
// memory, no system call and no wake-up of the parent — and the parent reads it after the child died or was killed,
// so a crash or a hang names the call: the bytes are in the shared page before the plugin gets the chance to die.
// Two slots and an index word: a name is written whole into the slot not in use, then the index flips to it, so a
// record read at any moment is one name, never a mix of two.

/** The descriptor of the record in a child: stdio [stdin, stdout, stderr, ipc, call record]. */
export const CALL_FD = 4;

/** The environment a parent gives a child whose descriptor CALL_FD is the record. */
export const CALL_FD_ENV = { PJRT_CTS_CALL_FD: String(CALL_FD) };

/** Size of the record file: an index word, then two slots of [u32 byte length, UTF-8 name]. */
export const CALL_RECORD_BYTES = 4096;
const SLOT_BYTES = (CALL_RECORD_BYTES - 8) / 2;
const slotAt = (i: number): number => 8 + i * SLOT_BYTES;

/** Calls that make up creating a client: a crash or hang in one of these means no case can run. */
export const CLIENT_CREATION_CALLS: ReadonlySet<string> = new Set(['dlopen', 'GetPjrtApi', 'PJRT_Plugin_Initialize', 'PJRT_Client_Create']);

/** A writer of call names into a mapped record (the child's side). A name longer than a slot is cut. */
export function callRecordWriter(record: Uint8Array): (name: string) => void {
  const dv = new DataView(record.buffer, record.byteOffset, CALL_RECORD_BYTES);
  const encoder = new TextEncoder();
  let active = dv.getUint32(0, true) & 1;
  return (name) => {
    const next = active ^ 1;
    const at = slotAt(next);
    const { written } = encoder.encodeInto(name, record.subarray(at + 4, at + SLOT_BYTES));
    dv.setUint32(at, written, true);
    dv.setUint32(0, next, true);
    active = next;
  };
}

/** The call named in a record's bytes ('' for none, or for bytes that are no record). */
export function readCallRecord(bytes: Uint8Array): string {
  if (bytes.byteLength < CALL_RECORD_BYTES) return '';
  const dv = new DataView(bytes.buffer, bytes.byteOffset, CALL_RECORD_BYTES);
  const at = slotAt(dv.getUint32(0, true) & 1);
  const n = Math.min(dv.getUint32(at, true), SLOT_BYTES - 4);
  return new TextDecoder().decode(bytes.subarray(at + 4, at + 4 + n));
}
