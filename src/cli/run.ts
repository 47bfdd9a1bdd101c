// `pjrt-cts run`: plan (plan.ts) → session (run-session.ts) → finish (finish.ts); the outputs are the reporters
// registered in reporters/index.ts.
import { reportersFor, Reporters } from '../../reporters/index.js';
import { finishRun } from '../runner/finish.js';
import { markBrokenPrograms } from './program-blame.js';
import { makePlan, type RunOptions } from '../runner/plan.js';
import { runSession } from '../runner/run-session.js';
import { EXIT } from '../runner/summary.js';
import { checkReproDir, reproduceRootCauses } from '../repro/index.js';

export { DEFAULT_MAX_CALL_FAILURES, DEFAULT_MAX_CLIENT_FAILURES, DEFAULT_WARMUP_TIMEOUT_MS, printList, workerPlan, type RunOptions } from '../runner/plan.js';

/** `run`'s options with --repro-dir (one reproducer per root cause, written before the reports: src/repro). */
export type RunCommandOptions = RunOptions & { reproDir?: string };

export async function runCommand(o: RunCommandOptions): Promise<number> {
  if (o.reproDir !== undefined && !o.list) {
    checkReproDir('--repro-dir', o.reproDir, [
      { flag: '--programs', path: o.programs, dir: true }, { flag: '--expectations', path: o.expectations }, { flag: '--rerun-failed', path: o.rerunFailed },
      { flag: '--json', path: o.json }, { flag: '--junit', path: o.junit }, { flag: '--html', path: o.html }, { flag: '--write-expectations', path: o.writeExpectations },
    ]);
  }
  const plan = await makePlan(o);
  if (!plan) return EXIT.ok;
  const out = new Reporters((await reportersFor({
    jsonl: plan.jsonlFile, console: { stream: o.stdout, matrix: o.matrix },
    ...(o.json ? { json: o.json } : {}), ...(o.junit ? { junit: o.junit } : {}), ...(o.html ? { html: o.html } : {}),
    ...(o.writeExpectations ? { writeExpectations: o.writeExpectations } : {}),
  })).all);
  out.begin({ total: plan.selected.length, pluginLabel: plan.pluginLabel, header: plan.header });
  const session = await runSession(plan, out);
  const reproDir = o.reproDir;
  const repro = reproDir === undefined ? undefined : (file: Parameters<typeof reproduceRootCauses>[0]) =>
    reproduceRootCauses(file, reproDir, o.json ?? plan.jsonlFile, (s) => void process.stderr.write(s));
  return finishRun(plan, session, out, markBrokenPrograms, repro);
}
