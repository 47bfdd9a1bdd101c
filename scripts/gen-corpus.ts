// Rewrites fixtures/programs/ from the op specs in src/corpus/gen using the TypeScript oracle.
// Usage: node dist/scripts/gen-corpus.js [outDir]
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCorpus, programFiles } from '../src/corpus/gen/index.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const dir = resolve(process.argv[2] ?? join(root, 'fixtures/programs'));
mkdirSync(dir, { recursive: true });
for (const f of readdirSync(dir)) if (f.endsWith('.mlir') || f.endsWith('.json')) rmSync(join(dir, f));
const programs = generateCorpus();
for (const p of programs) {
  const { mlir, json } = programFiles(p);
  writeFileSync(join(dir, `${p.name}.mlir`), mlir);
  writeFileSync(join(dir, `${p.name}.json`), json);
}
console.log(`wrote ${programs.length} programs to ${dir}`);
