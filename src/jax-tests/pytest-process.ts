// One pytest process over one JAX test file, watched: our pytest plugin (pytest_plugin/pjrt_cts_jax.py) reports
// each test's start and outcome on a pipe, so when the process dies or a test outlives its timeout (the process
// group is killed) the test in flight is known by name. Nothing is parsed from pytest's console output.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { packageRoot } from '../config/paths.js';

/** Our pytest plugin's directory (put on PYTHONPATH) and module name (pytest -p). */
const PLUGIN_DIR = (): string => path.join(packageRoot(), 'src', 'jax-tests', 'pytest_plugin');
const PLUGIN_MODULE = 'pjrt_cts_jax';
/** The file descriptor the plugin writes its events to (PJRT_CTS_JAX_EVENTS_FD). */
const EVENTS_FD = 3;
/** Lines of the process's output kept for a crash's message. */
const TAIL_LINES = 20;

/** One test's outcome as our pytest plugin reports it. */
export interface PytestOutcome {
  id: string;
  outcome: 'passed' | 'failed' | 'skipped';
  duration: number;
  when?: string;
  message?: string;
  exc?: string;
  excMessage?: string;
  phase?: 'compile' | 'run';
  /** Byte offsets of the call log (PJRT_CTS_TRACE_LOG) when the test started and finished. */
  traceFrom?: number | null;
  traceTo?: number | null;
}

export interface CollectedInfo { ids: string[]; platform?: string; devices?: number; platformVersion?: string; jax?: string; backendError?: string }

export interface ProcessRun {
  collected?: CollectedInfo;
  outcomes: PytestOutcome[];
  /** The process died (`crash`) or was killed at a deadline (`timeout`): the test in flight, if one was. */
  died?: { how: 'crash' | 'timeout'; inFlight?: string; traceFrom?: number | null; seconds: number; detail: string };
  /** pytest's exit code (1: some test failed, 2: a collection error, 5: nothing collected). */
  exitCode: number | null;
  /** The last lines pytest printed (a collection error's traceback). */
  tail: string;
}

export interface PytestInvocation {
  python: string;
  checkout: string;
  /** tests/foo_test.py, relative to the checkout */
  file: string;
  env: Record<string, string>;
  /** Node ids to leave out, and (when set) the only ones to run. */
  deselect: readonly string[];
  select?: readonly string[];
  keyword?: string;
  /** Capability skips (capabilities.ts), as the plugin reads them. */
  lackingFile?: string;
  timeoutMs: number;
  /** Deadline while no test is in flight (collection, module setup): JAX initialises the backend then. */
  idleTimeoutMs: number;
  scratch: string;
  traceLog?: string;
}

let serial = 0;

export function runPytest(inv: PytestInvocation): Promise<ProcessRun> {
  const n = ++serial;
  const listFile = (name: string, ids: readonly string[]): string => {
    const f = path.join(inv.scratch, `${name}-${n}.txt`);
    writeFileSync(f, ids.join('\n') + '\n');
    return f;
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env, ...inv.env,
    PYTHONPATH: [PLUGIN_DIR(), process.env['PYTHONPATH']].filter(Boolean).join(path.delimiter),
    // The checkout is the user's: no bytecode or cache written into it.
    PYTHONDONTWRITEBYTECODE: '1',
    PJRT_CTS_JAX_EVENTS_FD: String(EVENTS_FD),
    PJRT_CTS_JAX_DESELECT: listFile('deselect', inv.deselect),
    ...(inv.select ? { PJRT_CTS_JAX_SELECT: listFile('select', inv.select) } : {}),
    ...(inv.lackingFile ? { PJRT_CTS_JAX_LACKING: inv.lackingFile } : {}),
    ...(inv.traceLog ? { PJRT_CTS_TRACE_LOG: inv.traceLog } : {}),
  };
  // -P: the checkout's own jax/ must not shadow the installed one (the checkout's pyproject.toml sets
  // --import-mode=importlib, which keeps tests/ off sys.path too).
  const args = ['-P', '-m', 'pytest', inv.file, '-p', PLUGIN_MODULE, '-p', 'no:cacheprovider', '-q', '--no-header', '-rN', '--color=no',
    ...(inv.keyword ? ['-k', inv.keyword] : [])];
  const child = spawn(inv.python, args, { cwd: inv.checkout, env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  const t0 = Date.now();
  const run: ProcessRun = { outcomes: [], exitCode: null, tail: '' };
  const tail: string[] = [];
  const keep = (chunk: Buffer): void => {
    tail.push(...chunk.toString('utf8').split('\n'));
    if (tail.length > 4 * TAIL_LINES) tail.splice(0, tail.length - TAIL_LINES);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);

  let inFlight: { id: string; traceFrom: number | null } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let killedAt: 'timeout' | undefined;
  const killGroup = (): void => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const arm = (ms: number): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      killedAt = 'timeout';
      killGroup();
    }, ms);
  };
  arm(inv.idleTimeoutMs);
  const events = createInterface({ input: child.stdio[EVENTS_FD] as NodeJS.ReadableStream });
  events.on('line', (line) => {
    let e: { e: string } & Record<string, unknown>;
    try {
      e = JSON.parse(line) as typeof e;
    } catch {
      return;
    }
    if (e.e === 'collected') run.collected = e as unknown as CollectedInfo;
    else if (e.e === 'start') {
      inFlight = { id: String(e['id']), traceFrom: (e['trace'] as number | null) ?? null };
      arm(inv.timeoutMs);
    } else if (e.e === 'result') {
      const o = e as unknown as PytestOutcome & { trace?: number | null };
      run.outcomes.push({ ...o, traceFrom: inFlight?.id === o.id ? inFlight.traceFrom : null, traceTo: o.trace ?? null });
      inFlight = undefined;
      arm(inv.idleTimeoutMs);
    }
  });
  const eventsDone = new Promise<void>((resolve) => events.once('close', resolve));

  return new Promise<ProcessRun>((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      // Children JAX's tests started (subprocess tests) go with the group.
      killGroup();
      void eventsDone.then(() => {
        run.exitCode = code;
        run.tail = tail.slice(-TAIL_LINES).join('\n').trim();
        const seconds = Math.round((Date.now() - t0) / 100) / 10;
        if (killedAt) {
          run.died = { how: 'timeout', seconds, detail: inFlight ? `no result within ${inv.timeoutMs / 1000} s` : `no test started or finished within ${inv.idleTimeoutMs / 1000} s`, ...(inFlight ? { inFlight: inFlight.id, traceFrom: inFlight.traceFrom } : {}) };
        } else if (signal || inFlight) {
          run.died = { how: 'crash', seconds, detail: signal ? `the python process was killed by ${signal}` : `the python process exited with code ${code} during the test`, ...(inFlight ? { inFlight: inFlight.id, traceFrom: inFlight.traceFrom } : {}) };
        }
        resolve(run);
      });
    });
  });
}
