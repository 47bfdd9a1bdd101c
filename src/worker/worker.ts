// Child process entry: loads the suites once, then runs the cases the parent sends one at a time, streaming each
// result (with the worker's counters) to the parent.
// The plugin is loaded here, never in the parent. Ends with process.exit (koffi-loaded libraries may keep threads).
import { performance } from 'node:perf_hooks';
import { callLog } from '../ffi/call-log.js';
import { setCallMarker } from '../ffi/call-stats.js';
import { forgetCapabilities, runCase, type CaseOutcome } from '../harness/execute.js';
import { markCall } from './call-trace.js';
import { forgetProgramForms, PROBE_PROGRAM, programFor } from '../harness/program-forms.js';
import { allCases, catalogueEntry, getCase } from '../harness/registry.js';
import type { PluginSession } from '../harness/session.js';
import { clientCreateProblem, compileOnlyHint } from './client-probe.js';
import { exitWithParent } from '../ffi/exit-with-parent.js';
import { loadSuites } from './load-suites.js';
import { suitesDir } from '../config/paths.js';
import { TracedSession } from './traced-session.js';
import { forgetCompileTopology, topologyProblem } from '../harness/compile-only.js';
import type { CaseOrder, FromWorker, ToWorker, WarmupDeadlines, WorkerCounters } from './protocol.js';

function send(msg: FromWorker): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(msg, undefined, {}, () => resolve());
  });
}

async function exit(code: number): Promise<never> {
  await send({ type: 'done' });
  process.exit(code);
}

/** The worker's own machinery failed (not a case): say so and stop; the parent records it. */
async function fatal(e: unknown): Promise<never> {
  await send({ type: 'fatal', message: e instanceof Error ? e.message : String(e) });
  process.exit(3);
}

/** Preflight: can the library be used at all, and does it accept the configured create options? */
async function probe(msg: Extract<ToWorker, { type: 'probe' }>): Promise<void> {
  // Traced: a crash or hang in dlopen, GetPjrtApi, Plugin_Initialize or Client_Create is named by the parent.
  const session = new TracedSession(msg.plugin);
  await session.init();
  const { PluginLoadError, PjrtError, Scope } = session.pjrt;
  const scope = new Scope();
  let problem: string | undefined;
  let about: 'createOptions' | undefined;
  try {
    if (msg.plugin.compileOnly) problem = topologyProblem(() => session.plugin(), msg.plugin);
    else await session.createClient(scope);
  } catch (e) {
    if (e instanceof PluginLoadError) problem = e.message;
    else if (e instanceof PjrtError && e.codeName === 'INVALID_ARGUMENT') {
      problem = `${msg.plugin.library}: PJRT_Client_Create rejected the create options ${JSON.stringify(Object.keys(msg.plugin.createOptions))}: ${e.message}`;
      about = 'createOptions';
    } else if (e instanceof PjrtError) {
      // No client, so no case could run. Said first, so a crash or hang in the topology attempt still reports it.
      problem = clientCreateProblem(msg.plugin, e);
      await send({ type: 'probe', problem });
      const hint = compileOnlyHint(msg.plugin, session.plugin(), scope);
      if (hint) problem += ` (${hint})`;
    }
    // Anything else is the plugin's to answer for, case by case.
  }
  await scope.dispose().catch(() => undefined);
  await send({ type: 'probe', ...(problem ? { problem } : {}), ...(about ? { about } : {}) });
}

/** A trivial StableHLO program (f32[] + 1) for the warm-up: the program-form probe's, so it needs no artifact of its own. */
const WARMUP_PROGRAM = PROBE_PROGRAM;

/**
 * Compiles and runs a trivial program on the shared client, so a plugin's slow first use (JIT caches, device
 * bring-up) happens under the warm-up's deadline instead of the first case's. A failure is reported, never a case's.
 */
async function warmUp(session: PluginSession, deadlines: WarmupDeadlines): Promise<{ ok: boolean; ms: number; message?: string }> {
  const t0 = performance.now();
  const scope = new session.pjrt.Scope();
  try {
    // Creating the client and running the program are no first-use compile: they keep a case's deadline.
    await send({ type: 'warmup-start', deadlineMs: deadlines.caseMs });
    const client = await session.sharedClient();
    await send({ type: 'warmup-start', deadlineMs: deadlines.ms });
    client.useScope(scope);
    const exe = await client.compile(await programFor(client, WARMUP_PROGRAM));
    await send({ type: 'warmup-start', deadlineMs: deadlines.caseMs });
    const device = exe.addressableDevices()[0]!;
    const arg = await client.upload(new Uint8Array(new Float32Array([41]).buffer), { dtype: 'f32', dims: [], device });
    const { outputs } = await exe.execute([[arg]]);
    const out = new Float32Array((await outputs[0]![0]!.toHost({ dtype: 'f32', dims: [] })).slice().buffer);
    if (out[0] !== 42) return { ok: false, ms: performance.now() - t0, message: `the warm-up program computed 41 + 1 = ${out[0]}` };
    return { ok: true, ms: performance.now() - t0 };
  } catch (e) {
    return { ok: false, ms: performance.now() - t0, message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  } finally {
    await scope.dispose().catch(() => undefined);
  }
}

/**
 * One case. An error thrown where the case cannot catch it (a plugin callback, a stray promise) while the case runs
 * ends the case as a failure at once, as the test runner would.
 */
async function runOne(session: PluginSession, id: string, timeoutMs: number): Promise<CaseOutcome> {
  const def = getCase(id);
  if (!def) return { status: 'fail', durationMs: 0, message: `pjrt-cts: no case with id ${id} in this worker` };
  const t0 = performance.now();
  let trap: (e: unknown) => void = () => undefined;
  const uncaught = new Promise<CaseOutcome>((resolve) => {
    trap = (e) => resolve({ status: 'fail', durationMs: performance.now() - t0, message: `uncaught: ${e instanceof Error ? e.message : String(e)}` });
  });
  process.on('uncaughtException', trap);
  process.on('unhandledRejection', trap);
  try {
    return await Promise.race([runCase(def, session, { timeoutMs }), uncaught]);
  } catch (e) {
    return { status: 'fail', durationMs: performance.now() - t0, message: `uncaught: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    process.off('uncaughtException', trap);
    process.off('unhandledRejection', trap);
  }
}

function forgetProbes(): void {
  forgetCapabilities();
  forgetProgramForms();
  forgetCompileTopology();
}

function counters(session: PluginSession): WorkerCounters {
  const c = session.counters;
  return {
    ...c, sharedClientResets: [...c.sharedClientResets], maxRssKiB: process.resourceUsage().maxRSS, rssKiB: Math.round(process.memoryUsage.rss() / 1024),
    slots: session.isLoaded ? session.pjrt.takeChangedStats() : {},
  };
}

/**
 * A long-lived worker: cases run one at a time in the order they arrive (the parent sends several ahead); each is
 * announced (start) and answered (result). When the next case is already here and needs no switch of create options,
 * its start rides on the previous result: one message per case instead of two.
 */
function serve(session: PluginSession): void {
  const orders: CaseOrder[] = [];
  let running = false;
  let ending = false;
  const pump = async (): Promise<void> => {
    running = true;
    let announced = false;
    while (orders.length) {
      const order = orders[0]!;
      if (callLog) {
        // a recording (src/repro/calls.ts) is one case's calls: what an earlier case probed is probed again in it
        callLog.caseStarts(order.id, order.createOptions);
        forgetProbes();
      }
      // What was probed under the old options is not known of the new ones: probed again, as in a fresh worker.
      if (order.createOptions && (await session.switchCreateOptions(order.createOptions))) forgetProbes();
      if (!announced) await send({ type: 'start', id: order.id });
      const outcome = await runOne(session, order.id, order.timeoutMs);
      orders.shift();
      const identity = session.takeIdentity();
      if (identity) await send({ type: 'identity', identity });
      const next = orders[0];
      announced = next !== undefined && next.createOptions === undefined;
      await send({ type: 'result', id: order.id, outcome, counters: counters(session), ...(announced ? { next: next!.id } : {}) });
    }
    running = false;
    if (ending) {
      await session.dropSharedClient(undefined).catch(() => undefined);
      await exit(0);
    }
  };
  process.on('message', (raw) => {
    const msg = raw as ToWorker;
    if (msg.type === 'cases') orders.push(...msg.cases);
    else if (msg.type === 'end') ending = true;
    else return;
    if (!running) pump().catch(fatal);
  });
}

// Every PJRT call is named in the call record before it is made, so a crash or a hang names the call in flight.
setCallMarker(markCall);

// The parent is gone (killed): nobody is left to record results. (Blocked in a plugin call, the kernel ends it.)
process.on('disconnect', () => process.exit(1));
exitWithParent();

/**
 * The first message decides what this process is: the preflight's probe, the list worker (which, asked to `stay`,
 * then waits for the message that makes it a run worker: its suites are already imported), or a run worker. Messages
 * are taken one after the other: an `init` that arrives while a `list` is still importing waits for it.
 */
let setup = Promise.resolve();
const onSetupMessage = (raw: unknown): void => {
  setup = setup.then(() => handleSetup(raw as ToWorker));
};

async function handleSetup(msg: ToWorker): Promise<void> {
  try {
    if (msg.type === 'probe') {
      await probe(msg);
    } else if (msg.type === 'list') {
      await loadSuites(suitesDir(), msg.programs);
      await send({ type: 'catalogue', cases: allCases().map(catalogueEntry) });
      if (msg.stay) return;
    } else if (msg.type === 'import') {
      await loadSuites(suitesDir(), msg.programs);
      return;
    } else if (msg.type === 'init') {
      process.off('message', onSetupMessage);
      await loadSuites(suitesDir(), msg.programs, msg.files);
      const session = new TracedSession(msg.plugin);
      await session.init();
      if (msg.warmup !== undefined) await send({ type: 'warmup', ...(await warmUp(session, msg.warmup)) });
      serve(session);
      await send({ type: 'ready' });
      return;
    }
    await exit(0);
  } catch (e) {
    await fatal(e);
  }
}

process.on('message', onSetupMessage);
