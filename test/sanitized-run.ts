// A run of the catalogue against a sanitizer build of the reference plugin (the ASan and ThreadSanitizer tests): the
// runtime preloaded into node (which is not instrumented), the records read back, and the checks both tests make.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, ROOT, WITHOUT_FRAMEWORK_TIER } from './runner-helpers.js';

export interface SanitizedRecord { id?: string; status?: string; message?: string }
export interface SanitizedRun { output: string; records: SanitizedRecord[]; status: number | null }

/** The sanitizer runtime gcc links (`libasan.so`, `libtsan.so`), to preload. */
export function sanitizerRuntime(library: string): string {
  return execFileSync('gcc', [`-print-file-name=${library}`], { encoding: 'utf8' }).trim();
}

/** `pjrt-cts run --plugin <entry> --jobs 2` without tier 4 (JAX's uninstrumented processes), plus `args`. */
export function runSanitized(entry: string, args: readonly string[], env: Record<string, string>): SanitizedRun {
  const dir = mkdtempSync(path.join(tmpdir(), 'pjrt-cts-sanitized-'));
  try {
    const json = path.join(dir, 'results.json');
    const r = spawnSync(process.execPath, [CLI, 'run', '--plugin', entry, '--jobs', '2', '--json', json, ...WITHOUT_FRAMEWORK_TIER, ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    // (no stream when the run died before its first case: the report says why)
    const records = !existsSync(`${json}l`) ? [] : readFileSync(`${json}l`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as SanitizedRecord);
    return { output: `${r.stdout}\n${r.stderr}`, records, status: r.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** No sanitizer report in the output (`report`), shown with `after` characters of it when there is one. */
export function assertNoReport(run: SanitizedRun, report: RegExp, what: string, after: number): void {
  const m = report.exec(run.output);
  assert.equal(m, null, `${what}:\n${m ? run.output.slice(Math.max(0, m.index - 200), m.index + after) : ''}`);
}

/**
 * Every case ended in an allowed status, at least `minPass` passed, and some case of each of `areas` (id prefixes)
 * passed.
 */
export function assertVerdicts(run: SanitizedRun, opts: { allowed: readonly string[]; minPass: number; areas: readonly string[]; what: string }): void {
  const bad = run.records.filter((x) => x.id && !opts.allowed.includes(x.status ?? '')).map((x) => `${x.id}: ${x.status} ${x.message ?? ''}`);
  assert.deepEqual(bad, []);
  assert.ok(run.records.filter((x) => x.status === 'pass').length >= opts.minPass, opts.what);
  for (const area of opts.areas) assert.ok(run.records.some((x) => x.id?.startsWith(area) && x.status === 'pass'), `expected ${area}* to run and pass`);
}
