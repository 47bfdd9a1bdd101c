// Regenerates the committed StableHLO portable artifacts (docs/artifacts.md) with jaxlib.
// Usage: node dist/scripts/gen-artifacts.js [--python EXE] [--recorded DIR ...]
//   --recorded DIR: a PJRT_CTS_RECORD_PROGRAMS directory of a reference run; the suites' artifact store
//   (fixtures/artifacts/<sha256>.mlirbc) is rewritten from the texts recorded there. Without it only the corpus's
//   artifacts and the every-version program are rewritten.
// To record: PJRT_CTS_RECORD_PROGRAMS=/tmp/rec node dist/bin/pjrt-cts.js run --plugin reference
//   (and the same with --plugin reference-xla into the same directory).
import { performance } from 'node:perf_hooks';
import { planArtifacts, recordedPrograms, summarize, writeArtifacts } from '../src/corpus/artifact-gen.js';
import { pythonWithJax } from '../src/xla/crosscheck.js';

const args = process.argv.slice(2);
let python: string | undefined;
const recorded: string[] = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === '--python') python = args[++i];
  else if (a === '--recorded') recorded.push(args[++i]!);
  else {
    console.error(`gen-artifacts: unknown argument ${a}\nusage: node dist/scripts/gen-artifacts.js [--python EXE] [--recorded DIR ...]`);
    process.exit(2);
  }
}
const py = pythonWithJax(python);
if ('problem' in py) {
  console.error(`gen-artifacts: ${py.problem}`);
  process.exit(4);
}
const t0 = performance.now();
const plan = planArtifacts(py.python, recorded.length ? recordedPrograms(recorded) : undefined);
writeArtifacts(plan);
const r = summarize(plan);
const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;
const dist = (m: Record<string, number>): string => Object.entries(m).map(([v, n]) => `${v}: ${n}`).join(', ');
console.log(`jaxlib ${plan.writer.jaxlib}, VHLO ${plan.writer.minimum} … ${plan.writer.current}; ${((performance.now() - t0) / 1000).toFixed(1)} s`);
console.log(`corpus: ${r.corpus.count} artifacts, ${kib(r.corpus.bytes)}; lowest versions: ${dist(r.corpus.byVersion)}`);
for (const [n, why] of Object.entries(plan.failed)) console.log(`  corpus program ${n} not serialized: ${why}`);
console.log(`suites: ${r.suites.count} artifacts, ${kib(r.suites.bytes)}; lowest versions: ${dist(r.suites.byVersion)}${plan.suitesPlanned ? '' : ' (kept: no --recorded)'}`);
console.log(`  ${r.suites.rejected} recorded text(s) jaxlib refuses (index.json "rejected")`);
console.log(`every-version program: ${r.versions.count} artifacts, ${kib(r.versions.bytes)}`);
if (Object.keys(plan.failed).length) process.exitCode = 1;
