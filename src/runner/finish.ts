// `run`, step 3 of 3: the finish. The judged results (every status already final: status.ts) are put in plan
// order, summed into the results file, handed to every reporter's `end`, and turned into the exit code.
import { globList } from '../config/expectations.js';
import type { CaseResult, ResultsFile } from '../config/results.js';
import type { Reporter } from './reporter.js';
import { ReportOutputs } from './atomic-write.js';
import { certify } from './certify.js';
import { environment } from './identity.js';
import { ctsVersion } from '../config/paths.js';
import { NOT_RUN, type RunPlan } from './plan.js';
import { profileHeadline } from './profile.js';
import { interruptedBeforeText } from './plan-interrupted.js';
import { derivedFromResults } from './derived.js';
import type { SessionOutcome } from './run-session.js';
import { EXIT, verdict } from './summary.js';

/** Notes, on failing cases of external programs, whether the bundled reference plugin rejects them too; given by
 * the `run` command (src/cli/program-blame.ts), since it runs the CTS again. */
type ProgramBlame = (results: CaseResult[], programs: string | undefined, library: string) => Promise<void>;

/** Called with the results file before any report is written (run --repro-dir: reproducers for its root causes). */
type BeforeReports = (file: ResultsFile) => Promise<void>;

export async function finishRun(plan: RunPlan, s: SessionOutcome, out: Reporter, blamePrograms: ProgramBlame, beforeReports?: BeforeReports): Promise<number> {
  const { o, selected, identity } = plan;
  const order = new Map(selected.map((c, i) => [c.id, i]));
  const results = [...s.results].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const sha = await plan.sha;
  if (sha) identity.sha256 = sha;
  // A message, never a status: the reference plugin is asked only after the run, about the programs that failed.
  if (!s.internal && !s.interrupted) await blamePrograms(results, o.programs, plan.plugin.library);
  const v = verdict(results, { ...(plan.gate !== undefined ? { gate: plan.gate } : {}), interrupted: s.interrupted });
  let code = s.internal ? EXIT.internal : v.code;
  if (s.interrupted && s.signalName === 'SIGTERM') code = EXIT.terminated;
  let text = s.internal ? `pjrt-cts itself failed: ${s.internal.message}` : v.text;
  if (s.interruptedBefore) text = `${text} ${interruptedBeforeText(s.interruptedBefore)}`;
  if (s.stopped && !s.internal) {
    code = EXIT.gateFailed;
    text = `run STOPPED: ${s.stopped}; ${results.filter((r) => r.message?.startsWith(NOT_RUN)).length} case(s) not run. ${v.text}`;
  } else if (s.blocked.length && !s.internal && !s.interrupted) {
    code = EXIT.gateFailed;
    const calls = s.blocked.map((b) => `${b.call} ${b.how} (${b.cases} case(s) skipped; see ${b.firstCase})`).join(', ');
    text = `${v.code ? v.text : `${v.text.replace(/ passed$/, '')} FAILED`}; blocked: ${calls}`;
  }
  const certification = plan.certification && !s.internal && !s.interrupted ? certify(results, plan.certification) : undefined;
  if (certification) {
    text = `${text}; ${certification.text}`;
    if (!certification.certified && code === EXIT.ok) code = EXIT.gateFailed;
  }
  if (s.soak && !s.internal) {
    const trend = s.soak.workers.map((w) => `worker ${w.worker} ${w.rssMiB.map((m) => (m === null ? '–' : m)).join('→')} MiB`).join(', ');
    text = `${text}; soak: ${s.soak.repetitions} repetition(s), ${s.soak.changed.length} case(s) changed verdict${s.soak.changed.length ? ` (${s.soak.changed.slice(0, 5).join(', ')}${s.soak.changed.length > 5 ? ', …' : ''})` : ''}${trend ? `; resident set per repetition: ${trend}` : ''}`;
    // A soak is run to find what changes between repetitions: a changed verdict fails it.
    if (s.soak.changed.length && code === EXIT.ok) {
      code = EXIT.gateFailed;
      text = text.replace(/^run passed/, 'run FAILED (a verdict changed between repetitions)');
    }
  }
  const headline = profileHeadline({ run: plan.header.run, results });
  if (headline) text = `${headline}. ${text}`;
  const stale = plan.expectations
    ? plan.expectations.stale(plan.catalogue.map((c) => c.id), s.interrupted || s.stopped ? undefined : { selected: selected.map((c) => c.id), results })
      .map((e) => ({ tests: globList(e.tests), ...(e.rules ? { rules: globList(e.rules) } : {}), reason: e.reason }))
    : [];
  const file: ResultsFile = {
    schemaVersion: 1,
    cts: { version: ctsVersion() },
    startedAt: plan.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: s.durationMs,
    interrupted: s.interrupted,
    ...(s.interruptedBefore ? { interruptedBefore: s.interruptedBefore } : {}),
    ...(s.stopped ? { stopped: s.stopped } : {}),
    ...(s.blocked.length ? { blocked: s.blocked } : {}),
    run: plan.header.run,
    plugin: identity,
    environment: environment(),
    results,
    ...derivedFromResults(results, s.calledSlots),
    staleExpectations: stale,
    ...(certification ? { certification: { certified: certification.certified, missing: certification.missing } } : {}),
    ...(s.counters ? { counters: s.counters } : {}),
    ...(s.warmup ? { warmup: { ok: s.warmup.ok, ms: Math.round(s.warmup.ms), ...(s.warmup.message ? { message: s.warmup.message } : {}) } } : {}),
    ...(s.soak ? { soak: s.soak } : {}),
    coverage: { selected: selected.length, selfTests: selected.filter((c) => c.selfTest).length },
    exitCode: code,
  };
  if (beforeReports && !s.internal && !s.interrupted) await beforeReports(file);
  o.onResults?.(file);
  // Reports are written whatever happened to stdout (a closed pipe must not cost the results).
  // Each report is written whole or not at all; one that cannot be written is named, and the rest still are.
  const outputs = new ReportOutputs();
  out.end({ file, verdict: text, stale, outputs });
  return outputs.finish(code);
}
