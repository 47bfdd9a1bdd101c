// The final results file (schema src/config/results.ts, schemaVersion 1).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import type { Reporter, RunEnd } from './reporter.js';

export function writeJsonReport(file: string, results: ResultsFile): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
}

export class JsonReporter implements Reporter {
  constructor(readonly file: string) {}
  begin(): void {}
  result(): void {}
  end(e: RunEnd): void {
    writeJsonReport(this.file, e.file);
    e.files.push(`JSON: ${this.file}`);
  }
}
