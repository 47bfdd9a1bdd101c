// `pjrt-cts run`: plan (plan.ts) → session (run-session.ts) → finish (finish.ts); the outputs are the reporters
// registered in reporters/index.ts.
import { reportersFor, Reporters } from '../../reporters/index.js';
import { finishRun } from '../runner/finish.js';
import { markBrokenPrograms } from './program-blame.js';
import { makePlan, type RunOptions } from '../runner/plan.js';
import { runSession } from '../runner/run-session.js';
import { EXIT } from '../runner/summary.js';

export { DEFAULT_MAX_CALL_FAILURES, DEFAULT_MAX_CLIENT_FAILURES, DEFAULT_WARMUP_TIMEOUT_MS, printList, workerPlan, type RunOptions } from '../runner/plan.js';

export async function runCommand(o: RunOptions): Promise<number> {
  const plan = await makePlan(o);
  if (!plan) return EXIT.ok;
  const out = new Reporters((await reportersFor({
    jsonl: plan.jsonlFile, console: { stream: o.stdout, matrix: o.matrix },
    ...(o.json ? { json: o.json } : {}), ...(o.junit ? { junit: o.junit } : {}), ...(o.html ? { html: o.html } : {}),
    ...(o.writeExpectations ? { writeExpectations: o.writeExpectations } : {}),
  })).all);
  out.begin({ total: plan.selected.length, pluginLabel: plan.pluginLabel, header: plan.header });
  const session = await runSession(plan, out);
  return finishRun(plan, session, out, markBrokenPrograms);
}
