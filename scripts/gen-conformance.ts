// Regenerates docs/conformance.md and the README's source counts from the case catalogue.
// Usage: node dist/scripts/gen-conformance.js [--check]  (--check: exit 1 when either file is out of date)
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderConformance, withSourceCounts } from '../src/docs/conformance.js';
import { allCases, catalogueEntry } from '../src/harness/registry.js';
import { loadSuites } from '../src/worker/load-suites.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const check = process.argv.includes('--check');

await loadSuites(path.join(root, 'dist', 'suites'));
const entries = allCases().map(catalogueEntry);
const targets: [string, string | undefined][] = [
  [path.join(root, 'docs', 'conformance.md'), renderConformance(entries)],
  [path.join(root, 'README.md'), withSourceCounts(readFileSync(path.join(root, 'README.md'), 'utf8'), entries)],
];
let stale = 0;
for (const [file, text] of targets) {
  if (text === undefined) {
    console.error(`gen-conformance: ${file} lacks its source-counts markers`);
    process.exit(2);
  }
  const now = readFileSync(file, 'utf8').toString();
  if (now === text) continue;
  if (check) {
    console.error(`gen-conformance: ${path.relative(root, file)} is out of date: run node dist/scripts/gen-conformance.js`);
    stale++;
  } else writeFileSync(file, text);
}
process.exit(stale ? 1 : 0);
