// Child process entry: loads the suites, runs the given case ids through mocha, streams each result to the parent.
// The plugin is loaded here, never in the parent. Ends with process.exit (koffi-loaded libraries may keep threads).
import Mocha from 'mocha';
import { runCase } from '../harness/execute.js';
import { allCases, catalogueEntry, getCase } from '../harness/registry.js';
import { PluginSession } from '../harness/session.js';
import { loadSuites } from './load-suites.js';
import { suitesDir } from './paths.js';
import type { FromWorker, ToWorker } from './protocol.js';

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

class SilentReporter extends Mocha.reporters.Base {}

/** Preflight: can the library be used at all, and does it accept the configured create options? */
async function probe(msg: Extract<ToWorker, { type: 'probe' }>): Promise<void> {
  const session = new PluginSession(msg.plugin);
  await session.init();
  const { PluginLoadError, PjrtError, Scope } = session.pjrt;
  const scope = new Scope();
  let problem: string | undefined;
  try {
    await session.createClient(scope);
  } catch (e) {
    if (e instanceof PluginLoadError) problem = e.message;
    else if (e instanceof PjrtError && e.codeName === 'INVALID_ARGUMENT') {
      problem = `${msg.plugin.library}: PJRT_Client_Create rejected the create options ${JSON.stringify(Object.keys(msg.plugin.createOptions))}: ${e.message}`;
    }
    // Anything else is the plugin's to answer for, case by case.
  }
  await scope.dispose().catch(() => undefined);
  await send({ type: 'probe', ...(problem ? { problem } : {}) });
}

async function run(msg: Extract<ToWorker, { type: 'run' }>): Promise<void> {
  const session = new PluginSession(msg.plugin);
  await session.init();
  const mocha = new Mocha({ reporter: SilentReporter, timeout: 0, allowUncaught: false });
  const suites = new Map<string, Mocha.Suite>();
  const reported = new Set<string>();
  msg.ids.forEach((id, i) => {
    const def = getCase(id);
    const areaName = def?.area ?? 'unknown';
    let suite = suites.get(areaName);
    if (!suite) suites.set(areaName, (suite = Mocha.Suite.create(mocha.suite, areaName)));
    const test = new Mocha.Test(id, async () => {
      await send({ type: 'start', id });
      const outcome = def
        ? await runCase(def, session, { timeoutMs: msg.timeouts[i] ?? 0 })
        : { status: 'fail' as const, durationMs: 0, message: `pjrt-cts: no case with id ${id} in this worker` };
      const identity = session.takeIdentity();
      if (identity) await send({ type: 'identity', identity });
      if (!reported.has(id)) {
        reported.add(id);
        await send({ type: 'result', id, outcome });
      }
    });
    suite.addTest(test);
  });
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    // An exception mocha attributes to a test outside our wrapper (e.g. thrown from a plugin callback).
    runner.on('fail', (test: Mocha.Runnable, err: Error) => {
      if (!(test instanceof Mocha.Test)) return;
      const id = test.title;
      if (reported.has(id)) return;
      reported.add(id);
      void send({ type: 'result', id, outcome: { status: 'fail', durationMs: test.duration ?? 0, message: `uncaught: ${err.message}` } });
    });
  });
}

// The parent is gone (killed): nobody is left to record results.
process.on('disconnect', () => process.exit(1));

process.once('message', (raw) => {
  const msg = raw as ToWorker;
  void (async () => {
    try {
      if (msg.type === 'probe') {
        await probe(msg);
      } else {
        await loadSuites(suitesDir(), msg.programs, msg.type === 'run' ? msg.files : undefined);
        if (msg.type === 'list') await send({ type: 'catalogue', cases: allCases().map(catalogueEntry) });
        else await run(msg);
      }
      await exit(0);
    } catch (e) {
      await send({ type: 'fatal', message: e instanceof Error ? e.message : String(e) });
      process.exit(3);
    }
  })();
});
