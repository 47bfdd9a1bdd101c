// The final results file (schema src/config/results.ts, schemaVersion 1).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';

export function writeJsonReport(file: string, results: ResultsFile): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
}
