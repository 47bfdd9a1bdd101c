// `pjrt-cts run`: plan (plan.ts) → session (run-session.ts) → finish (finish.ts); the outputs are the reporters
// registered in reporters/index.ts. SIGINT and SIGTERM are watched from the start: a run interrupted before its
// first case (listing, preflight) still writes its reports (plan-interrupted.ts).
import { reportersFor, Reporters } from '../../reporters/index.js';
import { finishRun } from '../runner/finish.js';
import { markBrokenPrograms } from './program-blame.js';
import { makePlan, type RunOptions, type RunPlan } from '../runner/plan.js';
import { PlanInterrupted } from '../runner/plan-interrupted.js';
import { signalNameOf, watchSignals } from '../runner/interrupt.js';
import { runSession, type SessionOutcome } from '../runner/run-session.js';
import { reproduceRootCauses } from '../repro/index.js';
import { EXIT } from '../runner/summary.js';

export { DEFAULT_MAX_CALL_FAILURES, DEFAULT_MAX_CLIENT_FAILURES, DEFAULT_WARMUP_TIMEOUT_MS, printList, workerPlan, type RunOptions } from '../runner/plan.js';

async function reporters(plan: RunPlan): Promise<Reporters> {
  const o = plan.o;
  return new Reporters((await reportersFor({
    jsonl: plan.jsonlFile, console: { stream: o.stdout, matrix: o.matrix },
    ...(o.json ? { json: o.json } : {}), ...(o.junit ? { junit: o.junit } : {}), ...(o.html ? { html: o.html } : {}),
    ...(o.writeExpectations ? { writeExpectations: o.writeExpectations } : {}),
  })).all);
}

/**
 * `run`'s options with --repro-dir (one reproducer per root cause, written before the reports: src/repro); the
 * directory is checked with every other path of the command line (src/cli/path-roles.ts).
 */
export type RunCommandOptions = RunOptions & { reproDir?: string };

/** `o.signal` (the caller's) or the process's SIGINT/SIGTERM, watched for the whole command. */
export async function runCommand(o: RunCommandOptions): Promise<number> {
  const watch = o.signal || o.list ? undefined : watchSignals();
  try {
    return await runWith(watch ? { ...o, signal: watch.signal } : o);
  } finally {
    watch?.dispose();
  }
}

async function runWith(o: RunCommandOptions): Promise<number> {
  let plan: RunPlan | undefined;
  try {
    plan = await makePlan(o);
  } catch (e) {
    if (!(e instanceof PlanInterrupted)) throw e;
    const out = await reporters(e.plan);
    out.begin({ total: e.plan.selected.length, pluginLabel: e.plan.pluginLabel, header: e.plan.header });
    const session: SessionOutcome = {
      results: [], interrupted: true, signalName: o.signal ? signalNameOf(o.signal) : 'SIGINT', blocked: [], durationMs: Date.now() - e.plan.startedAt.getTime(),
      calledSlots: new Map(), interruptedBefore: e.before,
    };
    return finishRun(e.plan, session, out, markBrokenPrograms);
  }
  if (!plan) return EXIT.ok;
  const out = await reporters(plan);
  out.begin({ total: plan.selected.length, pluginLabel: plan.pluginLabel, header: plan.header });
  const session = await runSession(plan, out);
  const reproDir = o.reproDir;
  const repro = reproDir === undefined ? undefined : (file: Parameters<typeof reproduceRootCauses>[0]) =>
    reproduceRootCauses(file, reproDir, o.json ?? plan.jsonlFile, (s) => void process.stderr.write(s));
  return finishRun(plan, session, out, markBrokenPrograms, repro);
}
