// Regenerates the generated sections of docs/corpus.md.
// Usage: node dist/scripts/gen-corpus-doc.js [--results FILE] [--check]
//   coverage (ops × types, programs per op, spec ops left out): from fixtures/programs and src/corpus/spec-ops.ts;
//   --results FILE: also the largest observed errors, from the results JSON of a corpus run of the reference plugin
//     (node dist/bin/pjrt-cts.js run --plugin reference --filter 'tier1.program.*' --json FILE);
//   --check: exit 1 when the coverage section is out of date (writes nothing).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ResultsFile } from '../src/config/results.js';
import { loadCorpus } from '../src/corpus/load.js';
import { COVERAGE_MARKERS, coverageSection, ERROR_MARKERS, errorSection, replaceBetween } from '../src/docs/corpus-doc.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const docFile = path.join(root, 'docs', 'corpus.md');
const args = process.argv.slice(2);
const check = args.includes('--check');
const resultsAt = args.indexOf('--results');
const resultsFile = resultsAt >= 0 ? args[resultsAt + 1] : undefined;
if (resultsAt >= 0 && !resultsFile) {
  console.error('gen-corpus-doc: --results needs a file');
  process.exit(2);
}

const entries = loadCorpus(path.join(root, 'fixtures', 'programs'));
const before = readFileSync(docFile, 'utf8');
let doc = replaceBetween(before, COVERAGE_MARKERS, coverageSection(entries));
if (doc !== undefined && resultsFile) {
  const parsed = ResultsFile.safeParse(JSON.parse(readFileSync(resultsFile, 'utf8')));
  if (!parsed.success) {
    console.error(`gen-corpus-doc: ${resultsFile} is not a results file: ${parsed.error.issues[0]?.message}`);
    process.exit(2);
  }
  doc = replaceBetween(doc, ERROR_MARKERS, errorSection(entries, parsed.data));
}
if (doc === undefined) {
  console.error('gen-corpus-doc: docs/corpus.md lacks its generated-section markers');
  process.exit(2);
}
if (doc !== before) {
  if (check) {
    console.error('gen-corpus-doc: docs/corpus.md is out of date: run node dist/scripts/gen-corpus-doc.js');
    process.exit(1);
  }
  writeFileSync(docFile, doc);
  console.log('gen-corpus-doc: wrote docs/corpus.md');
}
