// The fault matrix: every reference-plugin fault is switched on in turn and the cases that claim to catch it
// must end fail/crash/timeout; with no fault the whole run must pass. Writes .cts-out/fault-matrix.json.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allCases } from '../src/harness/registry.js';
import { loadSuites } from '../src/runner/load-suites.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(root, 'dist', 'bin', 'pjrt-cts.js');
const SUITES = path.join(root, 'dist', 'suites');
const OUT = path.join(root, '.cts-out', 'fault-matrix.json');
const DETECTED = new Set(['fail', 'crash', 'timeout']);
const CLEAN = new Set(['pass', 'skip', 'unsupported']);
const CASE_TIMEOUT_MS = 5000;

interface FaultDef { name: string; arg?: string }
interface Record_ { id: string; status: string; message?: string }

const faults = (JSON.parse(readFileSync(path.join(root, 'fixtures', 'reference-plugin', 'faults.json'), 'utf8')) as { faults: FaultDef[] }).faults;

function pluginBuilt(): boolean {
  return ['reference-plugin', 'reference-plugin-asan'].some((d) => existsSync(path.join(root, 'build', d, 'libpjrt_reference.so')));
}

/** One CLI run; resolves with the per-case records of the JSON Lines stream. */
function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<Record_[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pjrt-cts-matrix-'));
  const json = path.join(dir, 'results.json');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'run', '--json', json, '--jobs', '2', ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      try {
        const lines = existsSync(`${json}l`) ? readFileSync(`${json}l`, 'utf8').split('\n').filter(Boolean) : [];
        resolve(lines.map((l) => JSON.parse(l) as Record_).filter((r) => typeof r.id === 'string' && typeof r.status === 'string'));
        if (lines.length === 0) reject(new Error(`pjrt-cts run ${args.join(' ')} wrote no results: ${stderr.slice(-2000)}`));
      } catch (e) {
        reject(e);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

describe('fault matrix', function () {
  this.timeout(600_000);
  const claims = new Map<string, string[]>(); // 'name' or 'name=arg' → case ids

  before(async function () {
    if (!existsSync(CLI) || !pluginBuilt()) this.skip();
    await loadSuites(SUITES);
    for (const c of allCases()) for (const k of c.catches) claims.set(k, [...(claims.get(k) ?? []), c.id]);
  });

  it('names only faults that exist', () => {
    const names = new Set(faults.map((f) => f.name));
    const unknown = [...claims.keys()].filter((k) => !names.has(k.split('=')[0]!));
    assert.deepEqual(unknown, [], 'catches must name entries of faults.json');
  });

  it('every fault is claimed by at least one case', () => {
    const claimed = new Set([...claims.keys()].map((k) => k.split('=')[0]!));
    assert.deepEqual(faults.map((f) => f.name).filter((n) => !claimed.has(n)), []);
  });

  it('every tier-1/2 case claims at least one fault', () => {
    const bare = allCases().filter((c) => (c.tier === 1 || c.tier === 2) && c.catches.length === 0).map((c) => c.id);
    assert.deepEqual(bare, []);
  });

  it('with no fault the full run passes', async () => {
    const env = { ...process.env };
    delete env['PJRT_REFERENCE_FAULTS'];
    const recs = await runCli([], env);
    const bad = recs.filter((r) => !CLEAN.has(r.status)).map((r) => `${r.id}: ${r.status} ${r.message ?? ''}`);
    assert.deepEqual(bad, [], 'the reference plugin without faults must pass every case');
  });

  it('each fault is detected by every case that claims it', async () => {
    const matrix: Record<string, Record<string, string>> = {};
    const missed: string[] = [];
    for (const [claim, ids] of [...claims.entries()].sort()) {
      const recs = await runCli(['--timeout', String(CASE_TIMEOUT_MS), ...ids.flatMap((id) => ['--filter', id])], {
        ...process.env,
        PJRT_REFERENCE_FAULTS: claim,
      });
      const byId = new Map(recs.map((r) => [r.id, r.status]));
      matrix[claim] = Object.fromEntries(ids.map((id) => [id, byId.get(id) ?? 'missing']));
      for (const id of ids) if (!DETECTED.has(byId.get(id) ?? 'missing')) missed.push(`${claim}: ${id} ended ${byId.get(id) ?? 'without a record'}`);
    }
    mkdirSync(path.dirname(OUT), { recursive: true });
    writeFileSync(OUT, `${JSON.stringify({ faults: faults.map((f) => f.name), matrix }, null, 2)}\n`);
    assert.deepEqual(missed, [], 'a case that claims a fault must fail, crash or time out when it is switched on');
  });
});
