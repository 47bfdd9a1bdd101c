// Reports are written whole or not at all: into a temporary file in the target's directory, then renamed over it.
// A full disk or a file system that refuses the write (/proc) leaves no truncated file behind, and one report that
// cannot be written costs neither the others nor the console summary (ReportOutputs collects the failures).
import { renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXIT } from './summary.js';

/** Writes `data` to `file` atomically (same-directory temp file + rename; the directory exists: outputs.ts checked it
 * before the run). Throws the file system's error. */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const abs = path.resolve(file);
  const tmp = tempPathFor(abs);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      throw Object.assign(new Error(`${path.dirname(abs)} does not let a file be created in it`), { code });
    }
    try {
      unlinkSync(tmp);
    } catch { /* never created */ }
    throw e;
  }
}

/** The temporary file a report is written to before it is renamed over `file`. */
export const tempPathFor = (file: string): string => path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);

/** "no space left on device (ENOSPC)" from a file system error. */
function writeFailure(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const text = err.message.replace(/^[A-Z]+: /, '').replace(/, \w+( '.*')?$/, '');
  return err.code ? `${text} (${err.code})` : err.message;
}

/** The reports of one command: what was written, and one line per report that could not be. */
export class ReportOutputs {
  readonly files: string[] = [];
  readonly failures: string[] = [];
  constructor(files: readonly string[] = []) {
    this.files.push(...files);
  }
  /** Runs `write`; a failure is recorded (naming `what` and `file`) instead of thrown. */
  write(what: string, file: string, write: () => void): void {
    try {
      write();
      this.files.push(`${what}: ${file}`);
    } catch (e) {
      this.fail(what, file, e);
    }
  }
  fail(what: string, file: string, e: unknown): void {
    this.files.push(`${what}: ${file}: NOT WRITTEN (${writeFailure(e)})`);
    this.failures.push(`pjrt-cts: error: ${file}: cannot write the ${what}: ${writeFailure(e)}`);
  }
  /** Prints the failures (one line each) and returns the exit code: `code`, or EXIT.internal when a report is missing. */
  finish(code: number, err: NodeJS.WritableStream = process.stderr): number {
    for (const f of this.failures) err.write(`${f}\n`);
    return this.failures.length ? EXIT.internal : code;
  }
}
