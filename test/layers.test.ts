// The layer order of docs/architecture.md ("Layers"): a file imports only from its own layer or from lower ones.
// Every import of every .ts file outside test/ is read with the TypeScript compiler's pre-processor (static
// imports, re-exports, `import()` and `import type`), resolved, and checked against the order.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ROOT } from './runner-helpers.js';

/** Lowest first. A folder's layer is that of the longest prefix naming it. */
export const LAYERS: readonly (readonly string[])[] = [
  ['src/abi', 'src/proto', 'src/oracle'],
  ['src/config'],
  ['src/ffi'],
  ['src/pjrt'],
  ['src/corpus'],
  ['src/harness'],
  ['src/kv'],
  ['src/framework'],
  ['suites'],
  ['src/xla', 'src/docs'],
  ['src/worker'],
  ['src/runner', 'src/framework'],
  ['reporters'],
  ['src/repro', 'src/jax-tests'],
  ['src/cli'],
  ['bin', 'scripts'],
];
const CHECKED = ['bin', 'src', 'suites', 'reporters', 'scripts'];

function tsFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return tsFiles(rel);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

function layerOf(file: string): number | undefined {
  let best: { layer: number; len: number } | undefined;
  LAYERS.forEach((prefixes, layer) => {
    for (const p of prefixes) if ((file === p || file.startsWith(`${p}/`)) && p.length > (best?.len ?? -1)) best = { layer, len: p.length };
  });
  return best?.layer;
}

/** The project files `file` imports (relative specifiers only; packages and node: builtins are not layered). */
function importsOf(file: string): { spec: string; target: string }[] {
  const info = ts.preProcessFile(readFileSync(path.join(ROOT, file), 'utf8'), true, true);
  return info.importedFiles
    .filter((i) => i.fileName.startsWith('./') || i.fileName.startsWith('../'))
    .map((i) => ({ spec: i.fileName, target: path.posix.normalize(path.posix.join(path.posix.dirname(file), i.fileName)).replace(/\.js$/, '.ts') }));
}

const name = (layer: number): string => LAYERS[layer]!.join(', ');

describe('layers: no import runs up the declared order', function () {
  const files = CHECKED.flatMap(tsFiles);

  it('every source file belongs to a layer', function () {
    assert.deepEqual(files.filter((f) => layerOf(f) === undefined), []);
  });

  it('every import goes to the same layer or a lower one', function () {
    const upward: string[] = [];
    for (const f of files) {
      const from = layerOf(f)!;
      for (const { spec, target } of importsOf(f)) {
        const to = layerOf(target);
        if (to !== undefined && to > from) upward.push(`${f} imports '${spec}' (${target}): ${name(from)} may not import ${name(to)}`);
      }
    }
    assert.deepEqual(upward, []);
  });

  it('only src/ffi/koffi.ts imports koffi (it configures the call stacks before any library loads)', function () {
    const direct = [...files, ...tsFiles('test')].filter((f) => f !== 'src/ffi/koffi.ts')
      .filter((f) => ts.preProcessFile(readFileSync(path.join(ROOT, f), 'utf8'), true, true).importedFiles.some((i) => i.fileName === 'koffi'));
    assert.deepEqual(direct, []);
  });

  it('reads every kind of import', function () {
    const seen = importsOf('src/worker/traced-session.ts').map((i) => i.target);
    assert.ok(seen.includes('src/ffi/libc.ts'), 'type-level import() of src/ffi/libc.ts');
    assert.ok(seen.includes('src/harness/session.ts'));
  });
});
