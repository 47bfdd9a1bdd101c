// Runs one framework-tier workload: JAX, pointed at the plugin as JAX loads plugins (jax-env.ts), runs it on the
// plugin's devices and on JAX's CPU backend in one process (jax_workloads.py) and says how they compared.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';
import { builtTraceShim } from '../config/reference-paths.js';
import { toJsonValue } from '../config/named-value.js';
import { topologyCreateOptions } from '../harness/compile-only.js';
import { describeBlame, describeValuePath, parseCallLog } from './call-log.js';
import { targetEnv } from './jax-env.js';
import { TRACE_ENV } from './trace-shim.js';
import { jaxRefusalOf, type JaxRefusal } from './jax-refusals.js';
import type { Workload } from './workloads.js';

/** The JAX release the workloads are written for (the one the CTS's referee venv installs, .ci/run). */
export const JAX_VERSION = '0.10.2';
const DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'src', 'framework', 'jax_workloads.py');

/**
 * How a workload ended. `calls` (fail, error, died) names the PJRT calls behind it, from the call-trace shim's record
 * of what JAX called: the call in flight or the last error, else where the values came from; absent without a shim.
 */
export type WorkloadOutcome =
  | { kind: 'pass' }
  | { kind: 'fail'; message: string; calls?: string }
  /** JAX raised: `code` is the PJRT error code JAX's message starts with, when it does. */
  | { kind: 'error'; phase: string; type: string; message: string; code?: string; calls?: string }
  | { kind: 'refused'; refusal: JaxRefusal; message: string }
  | { kind: 'unsupported'; message: string }
  | { kind: 'died'; message: string; calls?: string };

const PJRT_CODE = /^(CANCELLED|UNKNOWN|INVALID_ARGUMENT|DEADLINE_EXCEEDED|NOT_FOUND|ALREADY_EXISTS|PERMISSION_DENIED|RESOURCE_EXHAUSTED|FAILED_PRECONDITION|ABORTED|OUT_OF_RANGE|UNIMPLEMENTED|INTERNAL|UNAVAILABLE|DATA_LOSS|UNAUTHENTICATED): /;

const CUSTOM_CALL = /custom_call/;

let jaxProbe: { python: string } | { problem: string } | undefined;

/**
 * A Python with jax JAX_VERSION: $PJRT_CTS_PYTHON, else the CTS's referee venv (.cache/xla-venv), once per process;
 * else why not, in one line that says how to enable the tier.
 */
export function jaxPython(env: NodeJS.ProcessEnv = process.env): { python: string } | { problem: string } {
  if (jaxProbe) return jaxProbe;
  const venv = path.join(path.dirname(DRIVER), '..', '..', '.cache', 'xla-venv', 'bin', 'python');
  const python = env['PJRT_CTS_PYTHON'] || venv;
  const r = spawnSync(python, ['-c', 'import jax; print(jax.__version__)'], { encoding: 'utf8', timeout: 120_000 });
  const how = `set PJRT_CTS_PYTHON to a Python with jax==${JAX_VERSION} (pip install jax==${JAX_VERSION})`;
  if (r.error || r.status !== 0) jaxProbe = { problem: `the framework tier needs JAX and ${python} has none: ${how}` };
  else if (r.stdout.trim() !== JAX_VERSION) jaxProbe = { problem: `the framework tier's workloads are written for jax ${JAX_VERSION}, ${python} has ${r.stdout.trim()}: ${how}` };
  else jaxProbe = { python };
  return jaxProbe;
}

/** Per Python and module: why the workload cannot run there, or undefined when the module is there. */
const moduleProbe = new Map<string, string | undefined>();

/**
 * Why `python` cannot run `w`: the first of its declared modules (Workload.pythonModules) it cannot import, in one
 * line that says how to install it; undefined when it has them all. Each module is probed once per process.
 */
export function missingPythonModule(python: string, w: Workload): string | undefined {
  for (const m of w.pythonModules ?? []) {
    const key = `${python}\0${m}`;
    if (!moduleProbe.has(key)) {
      // exit 3: not importable (no spec, or the import system refuses it); anything else the probe could not tell
      const probe = `import importlib.util, sys\ntry:\n    found = importlib.util.find_spec(${JSON.stringify(m)}) is not None\nexcept ImportError:\n    found = False\nsys.exit(0 if found else 3)`;
      const r = spawnSync(python, ['-c', probe], { timeout: 60_000 });
      moduleProbe.set(key, r.status === 0 ? undefined
        : r.status === 3 ? `JAX's ${w.name} imports the Python module '${m}' and ${python} has none: pip install ${m} into it (or set PJRT_CTS_PYTHON to a Python that has it)`
          : `cannot tell whether ${python} has the Python module '${m}' that JAX's ${w.name} imports: the probe ${r.error ? `failed (${r.error.message})` : `ended ${r.signal ?? `with exit ${r.status}`}`}`);
    }
    const problem = moduleProbe.get(key);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Runs `w` against `plugin` within `timeoutMs` (the process group is killed past it), through the call-trace shim
 * when it is built (`npm run build:plugin`, `pjrt-cts build-reference`).
 */
export function runWorkload(python: string, plugin: ResolvedPlugin, w: Workload, timeoutMs: number): Promise<WorkloadOutcome> {
  const traceShim = builtTraceShim();
  const target = targetEnv({ kind: 'plugin', plugin, ...(traceShim ? { traceShim } : {}) });
  const log = path.join(target.tmp, 'calls.log');
  // Ahead of time, JAX makes no client of the plugin's (only its topology), so only the CPU backend is initialised.
  const platforms = w.aot ? 'cpu' : `${target.platform},cpu`;
  const env = { ...process.env, ...target.env, JAX_PLATFORMS: platforms, ...(traceShim ? { [TRACE_ENV.log]: log } : {}) };
  // Ahead of time, the topology gets what the CTS's own AOT cases give PJRT_TopologyDescription_Create: the entry's
  // create options with its topologyOptions over them (JAX passes get_topology_desc's keyword arguments as they are).
  const topologyOptions = w.aot ? Object.fromEntries(Object.entries(topologyCreateOptions(plugin)).map(([k, v]) => [k, toJsonValue(v)])) : undefined;
  const args = JSON.stringify({ workload: w.name, platform: target.platform, devices: w.devices, x64: w.x64 === true, ...(plugin.topology ? { topology: plugin.topology } : {}), ...(topologyOptions ? { topologyOptions } : {}) });
  return new Promise((resolve) => {
    const child = spawn(python, [DRIVER, args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { err = (err + d.toString()).slice(-4000); });
    const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ } }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const calls = existsSync(log) ? parseCallLog(readFileSync(log, 'utf8')) : undefined;
      rmSync(target.tmp, { recursive: true, force: true });
      // Wrong values came from the executions JAX read back (an error JAX got past, e.g. an UNIMPLEMENTED
      // OptimizedProgram, is not their cause); an error or a death from the call that failed or was in flight.
      const blameFor = (o: WorkloadOutcome): string | undefined =>
        !calls ? undefined : o.kind === 'fail' ? describeValuePath(calls) ?? describeBlame(calls) : describeBlame(calls) ?? describeValuePath(calls);
      const withCalls = <T extends WorkloadOutcome>(o: T): T => {
        const blame = o.kind === 'fail' || o.kind === 'error' || o.kind === 'died' ? blameFor(o) : undefined;
        return blame ? { ...o, calls: blame } : o;
      };
      const last = out.trim().split('\n').pop() ?? '';
      let parsed: Record<string, string> | undefined;
      try { parsed = JSON.parse(last) as Record<string, string>; } catch { parsed = undefined; }
      if (!parsed) {
        const why = signal ? `killed by ${signal}${signal === 'SIGKILL' ? ` (no answer within ${timeoutMs} ms)` : ''}` : `exit ${code}`;
        resolve(withCalls({ kind: 'died', message: `JAX's process ended without a verdict (${why}); its last output: ${(err.trim().split('\n').pop() ?? '').slice(0, 500)}` }));
        return;
      }
      resolve(withCalls(outcomeOf(parsed)));
    });
  });
}

function outcomeOf(r: Record<string, string>): WorkloadOutcome {
  const message = r['message'] ?? '';
  switch (r['status']) {
    case 'pass': return { kind: 'pass' };
    case 'fail': return { kind: 'fail', message };
    case 'unsupported': return { kind: 'unsupported', message };
    default: {
      const refusal = jaxRefusalOf(message);
      if (refusal) return { kind: 'refused', refusal, message };
      const code = PJRT_CODE.exec(message)?.[1];
      // JAX lowers some operations to custom calls chosen by platform name (LAPACK on 'cpu', host callbacks): a
      // plugin that does not implement one lacks a platform extension, not a core path.
      if (code === 'UNIMPLEMENTED' && r['phase'] === 'plugin' && CUSTOM_CALL.test(message)) {
        return { kind: 'unsupported', message: `the plugin does not implement a custom call JAX emitted for its platform name (custom calls are per-platform extensions; a plugin whose platform is 'cpu' is sent JAX's CPU custom calls: LAPACK, host callbacks): ${message.split('\n')[0]!.slice(0, 400)}` };
      }
      // UNIMPLEMENTED is how the header lets a plugin decline what it lacks: a capability's absence, as for the
      // CTS's own programs (suites/_lib/declined.ts). The suite still fails a declined Shardy op (shardy.ts).
      if (code === 'UNIMPLEMENTED' && r['phase'] === 'plugin') {
        return { kind: 'unsupported', message: `the plugin declines what JAX asked for: ${message.split('\n')[0]!.slice(0, 600)}` };
      }
      return { kind: 'error', phase: r['phase'] ?? '?', type: r['type'] ?? '?', message, ...(code ? { code } : {}) };
    }
  }
}
