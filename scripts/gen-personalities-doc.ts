// Regenerates the personality table of fixtures/reference-plugin/README.md from personalities.json.
// Usage: node dist/scripts/gen-personalities-doc.js [--check]  (--check: exit 1 when the README is out of date)
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPersonalities, withPersonalities } from '../src/docs/personalities.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const readme = path.join(root, 'fixtures', 'reference-plugin', 'README.md');
const now = readFileSync(readme, 'utf8');
const text = withPersonalities(now, readPersonalities(root));
if (text === undefined) {
  console.error(`gen-personalities-doc: ${readme} lacks its personalities markers`);
  process.exit(2);
}
if (now !== text) {
  if (process.argv.includes('--check')) {
    console.error('gen-personalities-doc: fixtures/reference-plugin/README.md is out of date: run node dist/scripts/gen-personalities-doc.js');
    process.exit(1);
  }
  writeFileSync(readme, text);
}
