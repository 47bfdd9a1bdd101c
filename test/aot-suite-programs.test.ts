// The suites' programs as AOT cases (suites/tier1/aot-suite-programs.ts): the devices each needs come from the
// module's attributes (else the recorded compile options), every indexed text is kept, and an output type newer
// than the plugin's minor is named instead of asked for.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { moduleDevices, recordedPrograms } from '../src/corpus/artifact-gen.js';
import { readSuiteIndex, suiteTextFile } from '../src/corpus/artifacts.js';
import { typesTooNew } from '../suites/tier1/aot-compile.js';
import { tmpDir } from './runner-helpers.js';

describe('AOT cases of the suites\' programs', () => {
  it('reads mhlo.num_replicas / num_partitions from the module line only', () => {
    assert.deepEqual(moduleDevices('module @m attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 4 : i32} {\n}'), { replicas: 4, partitions: 2 });
    assert.deepEqual(moduleDevices('module @m {\n  func.func @main() attributes {mhlo.num_replicas = 8 : i32}'), {});
  });

  it('prefers the module\'s counts to the recorded options, and the largest recorded count otherwise', () => {
    const dir = tmpDir();
    mkdirSync(dir, { recursive: true });
    const stated = 'module @a attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 4 : i32} {\n}';
    const bare = 'module @b {\n}';
    writeFileSync(path.join(dir, '1.jsonl'), [{ text: stated }, { text: bare, replicas: 2, partitions: 1 }, { text: bare, replicas: 1, partitions: 1 }].map((x) => JSON.stringify(x)).join('\n') + '\n');
    const got = new Map(recordedPrograms([dir]).map((p) => [p.text, [p.replicas, p.partitions]]));
    assert.deepEqual(got.get(stated), [4, 1]);
    assert.deepEqual(got.get(bare), [2, 1]);
  });

  it('keeps the text of every indexed program and every rejected one', () => {
    const index = readSuiteIndex();
    assert.ok(index);
    const missing = [...Object.keys(index.programs), ...Object.keys(index.rejected)].filter((sha) => !existsSync(suiteTextFile(sha)));
    assert.deepEqual(missing, [], 'regenerate with `node dist/scripts/gen-artifacts.js --recorded <dir>` (docs/artifacts.md)');
  });

  it('names the minor an output type needs when the plugin speaks an older one', () => {
    assert.equal(typesTooNew(114, ['f6e2m3fn', 'f32']), undefined);
    assert.match(typesTooNew(112, ['f6e2m3fn', 'f32', 'f6e2m3fn']) ?? '', /^PJRT_Buffer_Type_F6E2M3FN \(f6e2m3fn\) needs 0\.114; the plugin speaks 0\.112$/);
  });
});
