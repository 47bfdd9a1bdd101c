// Rewrites results files (run --json) in place so that they name no directory of the machine that made them: the
// plugin library by its file name (its sha256 says which build it was), absolute paths in the plugin's environment as
// placeholders, the run's input files and the reproducers' folders by their names. For results committed as the
// sources of reproducers (docs/validation/data/cuda-repro-*.json, made as scripts/gen-cuda-repro.sh says); `repro`
// records such a run of the reference plugin on this checkout's build, with the run's create options and faults.
// Usage: node dist/scripts/portable-results.js RESULTS.json...
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ResultsFile } from '../src/config/results.js';
import { placeholderPaths } from '../src/repro/portable.js';

const files = process.argv.slice(2);
if (!files.length) {
  console.error('usage: portable-results RESULTS.json...');
  process.exit(2);
}

const name = (p: string | undefined): string | undefined => (p === undefined ? undefined : path.basename(p));

for (const file of files) {
  const r = JSON.parse(readFileSync(file, 'utf8')) as ResultsFile;
  ResultsFile.parse(r); // a results file; rewritten as it is, its keys in their order
  r.plugin.path = path.basename(r.plugin.path);
  if (r.plugin.env) r.plugin.env = Object.fromEntries(Object.entries(r.plugin.env).map(([k, v]) => [k, placeholderPaths(v)]));
  const run = r.run;
  if (run.expectations !== undefined) run.expectations = name(run.expectations)!;
  if (run.programs !== undefined) run.programs = name(run.programs)!;
  if (run.rerun) run.rerun.file = name(run.rerun.file)!;
  if (run.certify) run.certify.list = name(run.certify.list)!;
  for (const rc of r.rootCauses ?? []) {
    if (rc.repro !== undefined) rc.repro = name(rc.repro)!;
    for (const f of rc.following ?? []) if (f.repro !== undefined) f.repro = name(f.repro)!;
  }
  writeFileSync(file, `${JSON.stringify(r, null, 2)}\n`);
  console.log(`${file}: plugin ${r.plugin.path}`);
}
