// Protobuf wire format, message-agnostic: whether bytes parse as some message (every field's tag, wire type and
// length in range). What a ParseFromArray of any message type needs before it looks at field numbers.
import protobuf from 'protobufjs';

/**
 * null when `bytes` is a well-formed protobuf message; otherwise why not. `zeroTagEnds`: a tag of 0 ends the message,
 * as protobuf's C++ parser treats it (generated _InternalParse stops at tag 0), so what follows is never read.
 */
export function wireFormatError(bytes: Uint8Array, opts: { zeroTagEnds?: boolean } = {}): string | null {
  const r = protobuf.Reader.create(bytes);
  try {
    while (r.pos < r.len) {
      const tag = r.uint32();
      if (tag === 0 && opts.zeroTagEnds) return null;
      if (tag >>> 3 === 0) return `field number 0 at byte ${r.pos}`;
      r.skipType(tag & 7);
    }
    return r.pos === r.len ? null : `ran ${r.pos - r.len} bytes past the end`;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
