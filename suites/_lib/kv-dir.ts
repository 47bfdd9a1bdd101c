// A key-value store kept in a directory: the test process owns the directory, node processes read and write
// it synchronously (PJRT key-value callbacks must answer before returning to the plugin).
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const enc = (key: string) => Buffer.from(key, 'utf8').toString('base64url');
const dec = (file: string) => Buffer.from(file, 'base64url').toString('utf8');
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

export class DirKvStore {
  /** `getCapMs`: a get gives up (DEADLINE_EXCEEDED) after at most this long, whatever timeout the plugin asked for. */
  constructor(
    readonly dir: string,
    readonly getCapMs?: number,
  ) {
    mkdirSync(dir, { recursive: true });
  }
  put(key: string, value: Uint8Array): void {
    const f = path.join(this.dir, enc(key));
    writeFileSync(`${f}.tmp${process.pid}`, value);
    renameSync(`${f}.tmp${process.pid}`, f);
  }
  tryGet(key: string): Uint8Array | undefined {
    const f = path.join(this.dir, enc(key));
    return existsSync(f) ? new Uint8Array(readFileSync(f)) : undefined;
  }
  get(key: string, timeoutMs: number): Uint8Array {
    if (this.getCapMs !== undefined) timeoutMs = Math.min(timeoutMs, this.getCapMs);
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = this.tryGet(key);
      if (v !== undefined) return v;
      if (Date.now() >= end) throw Object.assign(new Error(`key '${key}' not found within ${timeoutMs} ms`), { codeName: 'DEADLINE_EXCEEDED' });
      sleep(5);
    }
  }
  keys(): string[] {
    return readdirSync(this.dir).filter((f) => !f.includes('.tmp')).map(dec);
  }
}
