// Runs the compiled CLI as a child process (the way CI does) for end-to-end tests.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = path.join(ROOT, 'dist', 'bin', 'pjrt-cts.js');
export const FAKE_SUITES = path.join(ROOT, 'dist', 'test', 'fixtures', 'suites');
/**
 * `run` arguments that leave out the framework tier: its cases are JAX's own processes, so the tests of the CTS's own
 * checks (sanitizers, --api-minor, independence, recordings) run without them.
 */
export const WITHOUT_FRAMEWORK_TIER = ['--exclude', 'tier4.**'] as const;

export interface CliResult { code: number | null; stdout: string; stderr: string }

export function tmpDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'pjrt-cts-test-'));
}

/** env: extra variables; fake: use the fake suites (no plugin needed). */
export function cli(args: string[], opts: { env?: Record<string, string>; fake?: boolean; cwd?: string } = {}): CliResult {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...opts.env };
  if (opts.fake) env['PJRT_CTS_SUITES'] = FAKE_SUITES;
  const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', cwd: opts.cwd ?? ROOT, timeout: 110_000, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function cliAsync(args: string[], opts: { env?: Record<string, string>; fake?: boolean } = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...opts.env };
  if (opts.fake) env['PJRT_CTS_SUITES'] = FAKE_SUITES;
  return spawn(process.execPath, [CLI, ...args], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A usage error: exit 2 and exactly one stderr line, `pjrt-cts: error: …`, matching `pattern`. */
export function oneErrorLine(r: { code: number | null; stderr: string; stdout: string }, pattern: RegExp): void {
  assert.equal(r.code, 2, r.stdout + r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, /^pjrt-cts: error: /);
  assert.match(lines[0]!, pattern);
}
