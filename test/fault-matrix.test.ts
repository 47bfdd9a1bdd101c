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
import { markCleanRunPassed, recordCleanRun } from './clean-runs.js';
import { WITHOUT_FRAMEWORK_TIER } from './runner-helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(root, 'dist', 'bin', 'pjrt-cts.js');
const SUITES = path.join(root, 'dist', 'suites');
const OUT = path.join(root, '.cts-out', 'fault-matrix.json');
const DETECTED = new Set(['fail', 'crash', 'timeout']);
/** Long enough that no case times out merely from load (the slowest clean case takes ~2.5 s), so a timeout is a hang. */
const CASE_TIMEOUT_MS = 5000;
/**
 * Lanes at a time, each one worker (waits on hangs overlap with other lanes' work). A lane takes tasks from one queue:
 * the claims of faults read at load (a fresh worker per claim run, and per crash: most are), biggest first, and
 * groups of switching claims (one long-lived worker per group that switches from claim to claim). Two lanes start
 * with each kind and take the other kind when theirs runs out, so all four end together.
 */
const LANES = 4;
/**
 * A group of switching claims ends when its cases' weight reaches this: an ordinary case weighs 1, a case its area
 * declares heavy (a program over every input of a type) HEAVY_WEIGHT, a slow one (tier 4: a JAX process) SLOW_WEIGHT,
 * about their cost relative to an ordinary case under a fault. Small groups keep the lanes' ends close together; each
 * group costs a worker start.
 */
const SWITCHING_GROUP_WEIGHT = 400;
const HEAVY_WEIGHT = 8;
const SLOW_WEIGHT = 60;

/** The stack every PJRT_Api function of the reference plugin uses first in the deep-stack run (PJRT_REFERENCE_CALL_STACK_KIB). */
const DEEP_STACK_KIB = 4096;

interface FaultDef { name: string; arg?: string; atLoad?: boolean }
interface Record_ { id: string; status: string; message?: string }
/** A claim's cases and their statuses; `ms`: the wall time of its runs (at load) or the sum of its cases' times. */
interface ClaimRun { claim: string; statuses: Record<string, string>; ms: number }
/** How a lane spent its time: its wall time, the claims and cases it ran, the workers it started. */
interface LaneReport { lane: string; wallMs: number; claims: number; cases: number; workersStarted: number; tasks: string[] }

const faults = (JSON.parse(readFileSync(path.join(root, 'fixtures', 'reference-plugin', 'faults.json'), 'utf8')) as { faults: FaultDef[] }).faults;
const faultOf = (claim: string): string => claim.split('=')[0]!;
const readAtLoad = new Set(faults.filter((f) => f.atLoad).map((f) => f.name));

function pluginBuilt(): boolean {
  return ['reference-plugin', 'reference-plugin-asan'].some((d) => existsSync(path.join(root, 'build', d, 'libpjrt_reference.so')));
}

/** One CLI run; resolves with the per-case records of the JSON Lines stream. */
function runCli(args: string[], env: NodeJS.ProcessEnv, keep?: { args: string[]; env: Record<string, string> }): Promise<Record_[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pjrt-cts-matrix-'));
  // A run kept for other tests (clean-runs.ts) writes its results where they read them.
  const kept = keep?.args.includes('--json') ? keep.args[keep.args.indexOf('--json') + 1]! : undefined;
  const json = kept ?? path.join(dir, 'results.json');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'run', '--jobs', '2', ...args, ...(kept ? keep!.args : ['--json', json])], { env: { ...env, ...keep?.env }, stdio: ['ignore', 'ignore', 'pipe'] });
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
 * A group of claims of faults the plugin can switch per client, in one schedule with one worker: each case carries its
 * claim in the `faults` create option, queued claim by claim, so the worker switches only between claims (and a fresh
 * worker replaces it only after a crash or timeout).
 */
async function runSwitching(plugin: ResolvedPlugin, catalogue: ReadonlyMap<string, CatalogueEntry>, claims: readonly (readonly [string, string[]])[]): Promise<{ runs: ClaimRun[]; workers: number }> {
  const runs = new Map<string, ClaimRun>();
  const claimOf = new Map<CatalogueEntry, string>();
  const cases: CatalogueEntry[] = [];
  for (const [claim, ids] of claims) {
    runs.set(claim, { claim, statuses: Object.fromEntries(ids.map((id) => [id, 'missing'])), ms: 0 });
    for (const id of ids) {
      const e = catalogue.get(id);
      if (!e) continue;
      const own = { ...e }; // one object per (claim, case): the result names its claim
      claimOf.set(own, claim);
      cases.push(own);
    }
  }
  let workers = 0;
  try {
    const { counters } = await schedule(
      {
        cases, plugin, jobs: 1, retries: 0, defaultTimeoutMs: CASE_TIMEOUT_MS,
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
    workers = counters.workersStarted;
  } catch (e) {
    for (const run of runs.values()) run.statuses['(run)'] = `fatal: ${e instanceof Error ? e.message.slice(0, 500) : String(e)}`;
  }
  return { runs: [...runs.values()], workers };
}

/** A claim's cases per run at most: a claim that many cases make (a crash most programs catch, each crash costing a
 *  fresh worker) is split so that the lanes share it. */
const CHUNK = 40;

type Task = { kind: 'at-load'; claim: string; ids: string[] } | { kind: 'switching'; claims: [string, string[]][] };

/** Runs each claim's cases with its fault on, LANES tasks at a time (see LANES). */
async function runClaims(entry: string, claims: ReadonlyMap<string, string[]>): Promise<{ runs: ClaimRun[]; lanes: LaneReport[] }> {
  const plugin = resolvePlugin(pluginsFilePath(), entry);
  const catalogue = new Map((await loadCatalogue()).map((e) => [e.id, e]));
  const atLoad: Task[] = [...claims].filter(([k]) => readAtLoad.has(faultOf(k)))
    .flatMap(([claim, ids]) => Array.from({ length: Math.ceil(ids.length / CHUNK) }, (_, k) => ({ kind: 'at-load' as const, claim, ids: ids.slice(k * CHUNK, (k + 1) * CHUNK) })))
    .sort((a, b) => b.ids.length - a.ids.length || a.claim.localeCompare(b.claim));
  const switching: Task[] = [];
  let group: [string, string[]][] = [];
  let size = 0;
  const weight = (id: string): number => { const e = catalogue.get(id); return e?.slow ? SLOW_WEIGHT : e?.heavy ? HEAVY_WEIGHT : 1; };
  for (const [claim, ids] of [...claims].filter(([k]) => !readAtLoad.has(faultOf(k))).sort((a, b) => a[0].localeCompare(b[0]))) {
    group.push([claim, ids]);
    size += ids.reduce((n, id) => n + weight(id), 0);
    if (size >= SWITCHING_GROUP_WEIGHT) { switching.push({ kind: 'switching', claims: group }); group = []; size = 0; }
  }
  if (group.length) switching.push({ kind: 'switching', claims: group });
  const runs = new Map<string, ClaimRun>();
  const merge = (r: ClaimRun): void => {
    const seen = runs.get(r.claim);
    runs.set(r.claim, seen ? { claim: r.claim, statuses: { ...seen.statuses, ...r.statuses }, ms: seen.ms + r.ms } : r);
  };
  const lane = async (k: number): Promise<LaneReport> => {
    const t0 = Date.now();
    const report: LaneReport = { lane: `lane ${k + 1}`, wallMs: 0, claims: 0, cases: 0, workersStarted: 0, tasks: [] };
    const [mine, other] = k % 2 === 0 ? [atLoad, switching] : [switching, atLoad];
    for (let task = mine.shift() ?? other.shift(); task; task = mine.shift() ?? other.shift()) {
      if (task.kind === 'at-load') {
        const r = await runClaim(plugin, catalogue, task.claim, task.ids);
        merge(r);
        report.claims++;
        report.cases += task.ids.length;
        report.workersStarted += r.workers;
        report.tasks.push(`at-load ${task.claim} (${task.ids.length})`);
      } else {
        const r = await runSwitching(plugin, catalogue, task.claims);
        r.runs.forEach(merge);
        report.claims += task.claims.length;
        report.cases += task.claims.reduce((n, [, ids]) => n + ids.length, 0);
        report.workersStarted += r.workers;
        report.tasks.push(`switching ${task.claims[0]![0]} … ${task.claims.at(-1)![0]} (${task.claims.length} claims)`);
      }
    }
    return { ...report, wallMs: Date.now() - t0 };
  };
  const lanes = await Promise.all(Array.from({ length: LANES }, (_, k) => lane(k)));
  return { runs: [...runs.values()].sort((a, b) => a.claim.localeCompare(b.claim)), lanes };
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
          runCli(['--plugin', personality.entry, ...WITHOUT_FRAMEWORK_TIER], { ...env, PJRT_REFERENCE_CALL_STACK_KIB: String(DEEP_STACK_KIB) }, recordCleanRun(personality.entry)),
          frameworkTier.length ? runCli(['--plugin', personality.entry, '--filter', 'tier4.**'], env) : Promise.resolve([]),
        ]);
        const recs = [...deep, ...framework];
        const bad = recs.filter((r) => !personality.clean.has(r.status)).map((r) => `${r.id}: ${r.status} ${r.message ?? ''}`);
        assert.deepEqual(bad, [], `the ${personality.entry} personality without faults must pass every case`);
        assert.equal(recs.length, allCases().length, 'the two runs together cover the catalogue');
        markCleanRunPassed(personality.entry);
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
