// Appends each result to a JSON Lines file as it arrives (synchronously, so a dying CTS loses nothing written).
// The first line is a header with the run's identity (StreamHeader in src/config/results.ts); case records follow
// (readers tell them apart by their string `id`).
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

export class JsonlWriter {
  private fd: number | undefined;
  /** The first write error (a full disk): the stream stops there and the run goes on; the caller reports it. */
  error: Error | undefined;
  constructor(readonly file: string, header?: unknown) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.fd = openSync(file, 'w');
    if (header !== undefined) this.write(header);
  }
  write(record: unknown): void {
    this.writeLine(JSON.stringify(record));
  }
  /** A record already serialized as one line of JSON. */
  writeLine(json: string): void {
    if (this.fd === undefined || this.error) return;
    try {
      writeSync(this.fd, json + '\n');
    } catch (e) {
      this.error = e as Error;
    }
  }
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** `<json>` with .json replaced by .jsonl, or .cts-out/run-<time>.jsonl. */
export function jsonlPath(json: string | undefined, now = new Date()): string {
  if (json) return json.endsWith('.json') ? `${json}l` : `${json}.jsonl`;
  return path.join('.cts-out', `run-${now.toISOString().replace(/[:.]/g, '-')}.jsonl`);
}
