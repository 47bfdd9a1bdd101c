// The parent's side of the call record (src/worker/call-record.ts): a file of CALL_RECORD_BYTES, unlinked as soon
// as it is open, whose descriptor the child gets as stdio[CALL_FD]. Read once the child has ended.
import { randomBytes } from 'node:crypto';
import { closeSync, ftruncateSync, openSync, readSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CALL_RECORD_BYTES, readCallRecord } from '../worker/call-record.js';

export class CallFile {
  readonly fd: number;
  private closed = false;
  constructor() {
    const file = path.join(tmpdir(), `pjrt-cts-call-${process.pid}-${randomBytes(6).toString('hex')}`);
    this.fd = openSync(file, 'wx+', 0o600);
    try {
      ftruncateSync(this.fd, CALL_RECORD_BYTES);
    } finally {
      unlinkSync(file);
    }
  }
  /** The call the child named last ('' for none). */
  read(): string {
    if (this.closed) return '';
    const bytes = new Uint8Array(CALL_RECORD_BYTES);
    readSync(this.fd, bytes, 0, CALL_RECORD_BYTES, 0);
    return readCallRecord(bytes);
  }
  close(): void {
    if (!this.closed) closeSync(this.fd);
    this.closed = true;
  }
}
