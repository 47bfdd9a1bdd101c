// The fault matrix: every reference-plugin fault is switched on in turn and the cases that claim to catch it
// must end fail/crash/timeout; every fault must be detected by at least one case; with no fault the whole run
// (through the CLI) must pass with every plugin call first using 4 MiB of the caller's stack
// (PJRT_REFERENCE_CALL_STACK_KIB: XLA's GPU compiler needs that much). The claim runs use the runner's scheduler in this process, with one catalogue.
// A fault the plugin reads at load (faults.json atLoad: the API table's) gets fresh workers with
// PJRT_REFERENCE_FAULTS; every other claim runs in a few long-lived workers that switch from claim to claim through
// the plugin's `faults` create option (each switch replaces the worker's shared client and forgets its probes), so a
// claim costs its cases, not a worker start. Writes .cts-out/fault-matrix.json (per claim: each case's status and
// the time its cases took; the time of each lane).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allCases } from '../src/harness/registry.js';
import type { CatalogueEntry } from '../src/harness/types.js';
import { loadCatalogue } from '../src/runner/catalogue.js';
import { loadSuites } from '../src/worker/load-suites.js';
import type { ResolvedPlugin } from '../src/config/resolved-plugin.js';
import { pluginsFilePath, resolvePlugin } from '../src/runner/plugins.js';
import { schedule } from '../src/runner/scheduler.js';
import { WITHOUT_FRAMEWORK_TIER } from './runner-helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(root, 'dist', 'bin', 'pjrt-cts.js');
const SUITES = path.join(root, 'dist', 'suites');
const OUT = path.join(root, '.cts-out', 'fault-matrix.json');
const DETECTED = new Set(['fail', 'crash', 'timeout']);
/** Long enough that no case times out merely from load (the slowest clean case takes ~2.5 s), so a timeout is a hang. */
const CASE_TIMEOUT_MS = 5000;
/** Workers at a time, in all (waits on hangs overlap with other claims' work): this many switch between claims, */
const SWITCHING_WORKERS = 2;
/** and this many run the claims of faults read at load, one fresh worker per claim run (and per crash: most are). */
const AT_LOAD_LANES = 2;

/** The stack every PJRT_Api function of the reference plugin uses first in the deep-stack run (PJRT_REFERENCE_CALL_STACK_KIB). */
const DEEP_STACK_KIB = 4096;

interface FaultDef { name: string; arg?: string; atLoad?: boolean }
interface Record_ { id: string; status: string; message?: string }
/** A claim's cases and their statuses; `ms`: the wall time of its runs (at load) or the sum of its cases' times. */
interface ClaimRun { claim: string; statuses: Record<string, string>; ms: number }
/** How a lane spent its time: its wall time, the claims and cases it ran, the workers it started. */
interface LaneReport { lane: string; wallMs: number; claims: number; cases: number; workersStarted: number }

const faults = (JSON.parse(readFileSync(path.join(root, 'fixtures', 'reference-plugin', 'faults.json'), 'utf8')) as { faults: FaultDef[] }).faults;
const faultOf = (claim: string): string => claim.split('=')[0]!;
const readAtLoad = new Set(faults.filter((f) => f.atLoad).map((f) => f.name));

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
        if (lines.length === 0) throw new Error(`pjrt-cts run ${args.join(' ')} wrote no results: ${stderr.slice(-2000)}`);
        resolve(lines.map((l) => JSON.parse(l) as Record_).filter((r) => typeof r.id === 'string' && typeof r.status === 'string'));
      } catch (e) {
        reject(e);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/** The claim's cases, run with its fault switched on; a worker that cannot run at all leaves them 'missing'. */
async function runClaim(plugin: ResolvedPlugin, catalogue: ReadonlyMap<string, CatalogueEntry>, claim: string, ids: readonly string[]): Promise<ClaimRun & { workers: number }> {
  const t0 = Date.now();
  const statuses: Record<string, string> = Object.fromEntries(ids.map((id) => [id, 'missing']));
  const cases = ids.flatMap((id) => catalogue.get(id) ?? []);
  let workers = 0;
  try {
    const { counters } = await schedule(
      { cases, plugin: { ...plugin, env: { ...plugin.env, PJRT_REFERENCE_FAULTS: claim } }, jobs: 1, retries: 0, defaultTimeoutMs: CASE_TIMEOUT_MS },
      { onResult: (r) => (statuses[r.entry.id] = r.status) },
    );
    workers = counters.workersStarted;
  } catch (e) {
    statuses['(run)'] = `fatal: ${e instanceof Error ? e.message.slice(0, 500) : String(e)}`;
  }
  return { claim, statuses, ms: Date.now() - t0, workers };
}

/**
 * Every claim of a fault the plugin can switch per client, in one schedule: each case carries its claim in the
 * `faults` create option, queued claim by claim, so a worker switches only between claims (and a fresh worker
 * replaces one only after a crash or timeout).
 */
async function runSwitching(plugin: ResolvedPlugin, catalogue: ReadonlyMap<string, CatalogueEntry>, claims: ReadonlyMap<string, string[]>): Promise<{ runs: ClaimRun[]; lane: LaneReport }> {
  const t0 = Date.now();
  const runs = new Map<string, ClaimRun>();
  const claimOf = new Map<CatalogueEntry, string>();
  const cases: CatalogueEntry[] = [];
  for (const [claim, ids] of [...claims].sort((a, b) => a[0].localeCompare(b[0]))) {
    runs.set(claim, { claim, statuses: Object.fromEntries(ids.map((id) => [id, 'missing'])), ms: 0 });
    for (const id of ids) {
      const e = catalogue.get(id);
      if (!e) continue;
      const own = { ...e }; // one object per (claim, case): the result names its claim
      claimOf.set(own, claim);
      cases.push(own);
    }
  }
  let workersStarted = 0;
  try {
    const { counters } = await schedule(
      {
        cases, plugin, jobs: SWITCHING_WORKERS, retries: 0, defaultTimeoutMs: CASE_TIMEOUT_MS,
        createOptionsFor: (e) => ({ ...plugin.createOptions, faults: claimOf.get(e)! }),
      },
      {
        onResult: (r) => {
          const run = runs.get(claimOf.get(r.entry)!)!;
          run.statuses[r.entry.id] = r.status;
          run.ms += r.durationMs;
        },
      },
    );
    workersStarted = counters.workersStarted;
  } catch (e) {
    for (const run of runs.values()) run.statuses['(run)'] = `fatal: ${e instanceof Error ? e.message.slice(0, 500) : String(e)}`;
  }
  return { runs: [...runs.values()], lane: { lane: 'switching', wallMs: Date.now() - t0, claims: runs.size, cases: cases.length, workersStarted } };
}

/** A claim's cases per run at most: a claim that many cases make (a crash most programs catch, each crash costing a
 *  fresh worker) is split so that the lanes share it. */
const CHUNK = 40;

/** Runs each claim of a fault read at load with its fault on, `AT_LOAD_LANES` runs at a time, the biggest first. */
async function runAtLoad(plugin: ResolvedPlugin, catalogue: ReadonlyMap<string, CatalogueEntry>, claims: ReadonlyMap<string, string[]>): Promise<{ runs: ClaimRun[]; lanes: LaneReport[] }> {
  const queue = [...claims.entries()]
    .flatMap(([claim, ids]) => Array.from({ length: Math.ceil(ids.length / CHUNK) }, (_, k) => [claim, ids.slice(k * CHUNK, (k + 1) * CHUNK)] as const))
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  const runs = new Map<string, ClaimRun>();
  const lane = async (k: number): Promise<LaneReport> => {
    const t0 = Date.now();
    const report: LaneReport = { lane: `at-load ${k + 1}`, wallMs: 0, claims: 0, cases: 0, workersStarted: 0 };
    for (let next = queue.shift(); next; next = queue.shift()) {
      const r = await runClaim(plugin, catalogue, next[0], next[1]);
      report.claims++;
      report.cases += next[1].length;
      report.workersStarted += r.workers;
      const seen = runs.get(r.claim);
      runs.set(r.claim, seen ? { claim: r.claim, statuses: { ...seen.statuses, ...r.statuses }, ms: seen.ms + r.ms } : { claim: r.claim, statuses: r.statuses, ms: r.ms });
    }
    return { ...report, wallMs: Date.now() - t0 };
  };
  const lanes = await Promise.all(Array.from({ length: AT_LOAD_LANES }, (_, k) => lane(k)));
  return { runs: [...runs.values()], lanes };
}

/** Runs each claim's cases with its fault on: the faults read at load in fresh workers, the others switching. */
async function runClaims(entry: string, claims: ReadonlyMap<string, string[]>): Promise<{ runs: ClaimRun[]; lanes: LaneReport[] }> {
  const plugin = resolvePlugin(pluginsFilePath(), entry);
  const catalogue = new Map((await loadCatalogue()).map((e) => [e.id, e]));
  const part = (atLoad: boolean) => new Map([...claims].filter(([k]) => readAtLoad.has(faultOf(k)) === atLoad));
  const [atLoad, switching] = await Promise.all([runAtLoad(plugin, catalogue, part(true)), runSwitching(plugin, catalogue, part(false))]);
  return { runs: [...atLoad.runs, ...switching.runs].sort((a, b) => a.claim.localeCompare(b.claim)), lanes: [...atLoad.lanes, switching.lane] };
}

/**
 * The reference plugin's personalities (plugins.json entries): ours, and one that takes every latitude of the
 * header the way XLA's CPU plugin does. Both are conforming, so both must pass clean; a `quality` case may warn
 * on the XLA one (its latitude is conforming), and there the matrix covers the cases that run clean on it.
 */
const PERSONALITIES = [
  { entry: 'reference', clean: new Set(['pass', 'skip', 'unsupported']), claimants: 'every' },
  { entry: 'reference-xla', clean: new Set(['pass', 'skip', 'unsupported', 'warn']), claimants: 'one' },
] as const;
// Every case's claims are proven on `reference`. On `reference-xla` each fault is proven by one case that claims it
// (the first that runs clean there): proving each claim again there mostly repeats the proof (issue 40, "spend the
// time where it buys proof"), and that personality's clean runs already prove its own paths.

const allClaims = new Map<string, string[]>(); // 'name' or 'name=arg' → case ids

describe('fault matrix', function () {
  before(async function () {
    if (!existsSync(CLI) || !pluginBuilt()) this.skip();
    await loadSuites(SUITES);
    for (const c of allCases()) for (const k of c.catches) allClaims.set(k, [...(allClaims.get(k) ?? []), c.id]);
  });

  it('names only faults that exist', () => {
    const names = new Set(faults.map((f) => f.name));
    const unknown = [...allClaims.keys()].filter((k) => !names.has(faultOf(k)));
    assert.deepEqual(unknown, [], 'catches must name entries of faults.json');
  });

  it('every fault is claimed by at least one case', () => {
    const claimed = new Set([...allClaims.keys()].map(faultOf));
    assert.deepEqual(faults.map((f) => f.name).filter((n) => !claimed.has(n)), []);
  });

  it('every tier-1/2 case claims at least one fault', () => {
    const bare = allCases().filter((c) => (c.tier === 1 || c.tier === 2) && c.catches.length === 0).map((c) => c.id);
    assert.deepEqual(bare, []);
  });

  for (const personality of PERSONALITIES) {
    describe(`personality ${personality.entry}`, function () {
      this.timeout(600_000);
      /** The cases that passed without a fault: the ones a fault can be seen in. */
      const ranClean = new Set<string>();
      let runs: Promise<{ runs: ClaimRun[]; lanes: LaneReport[] }> | undefined;
      const matrixRuns = (): Promise<{ runs: ClaimRun[]; lanes: LaneReport[] }> => {
        if (runs) return runs;
        const claims = new Map<string, string[]>();
        for (const [k, ids] of allClaims) {
          const seen = ids.filter((id) => ranClean.has(id));
          if (seen.length) claims.set(k, personality.claimants === 'every' ? seen : seen.slice(0, 1));
        }
        return (runs = runClaims(personality.entry, claims));
      };

      // One clean run serves two proofs: no fault and every plugin call first using DEEP_STACK_KIB of its caller's
      // stack (a plugin that needs several MiB per call, as XLA's compilers do, must pass as ours does). The framework
      // tier runs JAX in processes of its own, whose threads are JAX's, not the CTS's: it runs clean in a run of its own.
      it(`with no fault the full run passes, every call on ${DEEP_STACK_KIB} KiB of its caller's stack (as a real compiler) (warnings listed)`, async function () {
        if (allClaims.size === 0) this.skip();
        const env: NodeJS.ProcessEnv = { ...process.env };
        delete env['PJRT_REFERENCE_FAULTS'];
        const frameworkTier = allCases().filter((c) => c.tier === 4).map((c) => c.id);
        const [deep, framework] = await Promise.all([
          runCli(['--plugin', personality.entry, ...WITHOUT_FRAMEWORK_TIER], { ...env, PJRT_REFERENCE_CALL_STACK_KIB: String(DEEP_STACK_KIB) }),
          frameworkTier.length ? runCli(['--plugin', personality.entry, '--filter', 'tier4.**'], env) : Promise.resolve([]),
        ]);
        const recs = [...deep, ...framework];
        const bad = recs.filter((r) => !personality.clean.has(r.status)).map((r) => `${r.id}: ${r.status} ${r.message ?? ''}`);
        assert.deepEqual(bad, [], `the ${personality.entry} personality without faults must pass every case`);
        assert.equal(recs.length, allCases().length, 'the two runs together cover the catalogue');
        // A case that warns without a fault cannot show one; the matrix covers the cases that pass clean.
        for (const r of recs) if (r.status === 'pass') ranClean.add(r.id);
        const warns = recs.filter((r) => r.status === 'warn');
        if (warns.length) console.log(`      ${personality.entry}: ${warns.length} warning(s):\n${warns.map((w) => `        ${w.id}: ${(w.message ?? '').split('\n')[0]}`).join('\n')}`);
      });

      it(personality.claimants === 'every' ? 'each fault is detected by every case that claims it' : 'each fault is detected by the first case that claims it and runs clean', async function () {
        if (ranClean.size === 0) this.skip();
        const t0 = Date.now();
        const { runs: done, lanes } = await matrixRuns();
        const out = personality.entry === 'reference' ? OUT : OUT.replace(/\.json$/, `.${personality.entry}.json`);
        mkdirSync(path.dirname(out), { recursive: true });
        const report = {
          personality: personality.entry,
          faults: faults.map((f) => f.name),
          wallMs: Date.now() - t0,
          matrix: Object.fromEntries(done.map((r) => [r.claim, r.statuses])),
          lanes,
          claimMs: Object.fromEntries(done.map((r) => [r.claim, r.ms])),
        };
        writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
        const missed = done.flatMap((r) => Object.entries(r.statuses).filter(([, s]) => !DETECTED.has(s)).map(([id, s]) => `${r.claim}: ${id} ended ${s === 'missing' ? 'without a result' : s}`));
        assert.deepEqual(missed, [], 'a case that claims a fault must fail, crash or time out when it is switched on');
      });

      it('each fault is detected by at least one case (of those that run on this personality)', async function () {
        if (ranClean.size === 0) this.skip();
        const { runs: done } = await matrixRuns();
        const observable = new Set(done.map((r) => faultOf(r.claim)));
        const detected = new Set(done.filter((r) => Object.values(r.statuses).some((s) => DETECTED.has(s))).map((r) => faultOf(r.claim)));
        if (personality.entry === 'reference') assert.deepEqual(faults.map((f) => f.name).filter((n) => !observable.has(n)), [], 'every fault must be claimed by a case that runs clean');
        assert.deepEqual([...observable].filter((n) => !detected.has(n)), [], 'every fault must make at least one case fail, crash or time out');
      });
    });
  }
});
