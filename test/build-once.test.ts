// The reference plugin's cache is shared by concurrent first uses (parallel CI shards): buildOnce must build once,
// in a directory of its own, and rename a whole file into place. A fake producer stands in for CMake.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildOnce } from '../src/runner/build-once.js';
import { ROOT, tmpDir } from './runner-helpers.js';

const MODULE = pathToFileURL(path.join(ROOT, 'dist', 'src', 'runner', 'build-once.js')).href;

/** A process that asks for `target`; its producer logs a line to `log`, then writes 8 chunks 50 ms apart. */
function contender(target: string, log: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = `
    import { appendFileSync, writeFileSync } from 'node:fs';
    import path from 'node:path';
    const { buildOnce } = await import(${JSON.stringify(MODULE)});
    const nap = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    const out = buildOnce(${JSON.stringify(target)}, (work) => {
      appendFileSync(${JSON.stringify(log)}, process.pid + '\\n');
      const f = path.join(work, 'lib.so');
      for (let i = 0; i < 8; i++) { appendFileSync(f, 'chunk' + i + '\\n'); nap(50); }
      return f;
    });
    process.stdout.write(out);`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const WHOLE = Array.from({ length: 8 }, (_, i) => `chunk${i}\n`).join('');

describe('build-once: a cache file built by concurrent first uses', function () {
  this.timeout(30_000);

  it('two processes at once: one builds, the other waits; both get the whole file; nothing is left behind', async () => {
    const dir = tmpDir();
    try {
      const target = path.join(dir, 'libpjrt_reference.so');
      const log = path.join(dir, 'builds.log');
      const [a, b] = await Promise.all([contender(target, log), contender(target, log)]);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(b.code, 0, b.stderr);
      assert.equal(a.stdout, target);
      assert.equal(b.stdout, target);
      assert.equal(readFileSync(log, 'utf8').trim().split('\n').length, 1, 'built once');
      assert.equal(readFileSync(target, 'utf8'), WHOLE);
      assert.deepEqual(readdirSync(dir).sort(), ['builds.log', 'libpjrt_reference.so'], 'no lock nor build directory left');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a lock left by a dead process is broken; a failed build leaves the cache as it was', () => {
    const dir = tmpDir();
    try {
      const target = path.join(dir, 'lib.so');
      writeFileSync(`${target}.lock`, '999999999');
      assert.throws(() => buildOnce(target, () => { throw new Error('compiler failed'); }), /compiler failed/);
      assert.deepEqual(readdirSync(dir), [], 'no lock, no build directory, no partial library');
      writeFileSync(`${target}.lock`, '999999999');
      assert.equal(buildOnce(target, (work) => { const f = path.join(work, 'x'); writeFileSync(f, 'ok'); return f; }), target);
      assert.equal(readFileSync(target, 'utf8'), 'ok');
      assert.ok(!existsSync(`${target}.lock`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
