#!/usr/bin/env node
// Sums the self time of a V8 .cpuprofile (node --cpu-prof) by where the code lives: the CTS's own layers (harness,
// FFI binding, runner, reporting, oracle, suites), mocha, koffi and the plugin under it, Node itself, GC.
// Usage: node scripts/cpuprofile-summary.mjs FILE.cpuprofile [--top N]
import { readFileSync } from 'node:fs';

const [file, flag, n] = process.argv.slice(2);
if (!file) { console.error('usage: cpuprofile-summary.mjs FILE.cpuprofile [--top N]'); process.exit(2); }
const prof = JSON.parse(readFileSync(file, 'utf8'));
const top = flag === '--top' ? Number(n) : 0;

/** Layer of a call frame, by its script URL (first match wins). */
const LAYERS = [
  [/^\(garbage collector\)$/, 'gc'],
  [/^\(idle\)$/, 'idle'],
  [/^\(program\)$/, 'native (V8/Node, no JS frame)'],
  [/\/dist\/src\/ffi\//, 'ffi binding (src/ffi)'],
  [/node_modules\/koffi\//, 'koffi'],
  [/\/dist\/src\/harness\//, 'harness (src/harness)'],
  [/\/dist\/src\/oracle\//, 'oracle (src/oracle)'],
  [/\/dist\/src\/corpus\//, 'corpus (src/corpus)'],
  [/\/dist\/src\/runner\//, 'runner (src/runner)'],
  [/\/dist\/(src\/report|reporters)\//, 'reporting'],
  [/\/dist\/suites\//, 'suites (case code)'],
  [/\/dist\/src\//, 'other src'],
  [/node_modules\/mocha\//, 'mocha'],
  [/node_modules\//, 'other node_modules'],
  [/^node:|^internal\//, 'node core (JS)'],
  [/^$/, 'native call (koffi → plugin, Buffer, …)'],
];
const layerOf = (node) => {
  const { url, functionName } = node.callFrame;
  const key = url || (functionName.startsWith('(') ? functionName : '');
  for (const [re, name] of LAYERS) if (re.test(key)) return name;
  return 'other';
};

const byId = new Map(prof.nodes.map((x) => [x.id, x]));
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const layers = new Map();
const fns = new Map();
for (const [id, us] of self) {
  const node = byId.get(id);
  const layer = layerOf(node);
  layers.set(layer, (layers.get(layer) ?? 0) + us);
  const f = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${node.callFrame.lineNumber + 1}`;
  fns.set(f, (fns.get(f) ?? 0) + us);
}
const ms = (us) => (us / 1000).toFixed(1).padStart(9);
console.log(`${file}: ${ms(total)} ms sampled`);
for (const [k, v] of [...layers].sort((a, b) => b[1] - a[1])) console.log(`${ms(v)} ms ${(100 * v / total).toFixed(1).padStart(5)} %  ${k}`);
if (top) {
  console.log(`top ${top} functions by self time:`);
  for (const [k, v] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(v)} ms  ${k}`);
}
