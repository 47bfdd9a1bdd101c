// The one place a case's status is decided. A worker's raw outcome passes through ordered, side-effect-free steps
// (outcome → flaky → source/quality → dependency → waiver → gate) once, before any output sees it; every reporter
// then writes the same status. A dependent case's result waits until its precondition's is known.
import { FAILING, type CaseResult, type PluginIdentity, type Status } from '../config/results.js';
import type { CatalogueEntry } from '../harness/types.js';
import type { Expectations } from './expectations.js';
import type { RawResult } from './scheduler.js';

/** A status on its way through the steps. */
interface Judgement {
  status: Status;
  message?: string;
  expectation?: CaseResult['expectation'];
  /** The rule key the raw outcome broke (brokenRule), which a waiver may name. */
  rule?: string;
}

interface StatusContext {
  /** --strict: flaky and skipped required cases fail; no waivers. */
  strict: boolean;
  expectations?: Expectations;
  identity: Partial<PluginIdentity>;
  /** The status of the case's precondition (`dependsOn`) after the quality step, when it ran in this run. */
  precondition?: Status;
}

type Step = (j: Judgement, e: CatalogueEntry, ctx: StatusContext) => Judgement;

/** strict: a case that needed a retry to pass is not conformant. */
const flaky: Step = (j, e, ctx) => (ctx.strict && j.status === 'flaky' && e.source !== 'quality' ? { ...j, status: 'fail' } : j);

/** How a quality case's failure message starts, before the status its body ended with. */
const QUALITY_WORDS = 'quality check (never fails a gate) ended';
const QUALITY_HEAD = new RegExp(`^${QUALITY_WORDS.replace(/[()]/g, '\\$&')} (\\w+): ?`);

/** A `quality` case never fails a gate: its failure is a warning. */
const quality: Step = (j, e, ctx) => {
  if (e.source !== 'quality' || !(FAILING.has(j.status) || (ctx.strict && j.status === 'flaky'))) return j;
  return { ...j, status: 'warn', message: `${QUALITY_WORDS} ${j.status}: ${j.message ?? ''}`.trimEnd() };
};

/**
 * The status a failed case's body ended with and its own message: a `warn`'s, read back from the quality step's
 * wording; an `xfail`'s or `flaky`'s from the rule (a crash's or hang's rule is the call in flight and the status).
 */
export function ownOutcome(r: Pick<CaseResult, 'status' | 'message' | 'rule'>): { status: string; message: string } {
  const message = r.message ?? '';
  const q = QUALITY_HEAD.exec(message);
  if (q) return { status: q[1]!, message: message.slice(q[0].length) };
  if (FAILING.has(r.status)) return { status: r.status, message };
  return { status: /:(crash|timeout)$/.exec(r.rule ?? '')?.[1] ?? 'fail', message };
}

const PAST: Partial<Record<Status, string>> = { fail: 'failed', crash: 'crashed', timeout: 'timed out' };

/**
 * A dependent case that failed (or, for a quality case, warned) after its precondition failed in this run is
 * skipped: the precondition's failure is the root cause.
 */
const dependency: Step = (j, e, ctx) => {
  const pre = ctx.precondition;
  if (!e.dependsOn || !pre || !FAILING.has(pre) || !(FAILING.has(j.status) || j.status === 'warn')) return j;
  const own = j.message ? `; this case's own failure: ${j.message.split('\n')[0]}` : '';
  return { status: 'skip', message: `depends on ${e.dependsOn}, which ${PAST[pre]}${own}` };
};

/** An expectations file turns allowed failures into xfail and waived passes into xpass (by id, or by the rule broken). */
const waiver: Step = (j, e, ctx) => {
  if (!ctx.expectations) return j;
  const w = ctx.expectations.apply(e.id, j.status, j.message, ctx.identity, j.rule);
  return {
    status: w.status, ...(w.message !== undefined ? { message: w.message } : {}), ...(w.expectation ? { expectation: w.expectation } : {}),
    ...(j.rule ? { rule: j.rule } : {}),
  };
};

/** strict: a required case must run. */
const gate: Step = (j, e, ctx) => {
  if (!ctx.strict || !e.required || (j.status !== 'skip' && j.status !== 'unsupported')) return j;
  return { ...j, status: 'fail', message: `required case was ${j.status} in a strict run${j.message ? `: ${j.message}` : ''}` };
};

/** The steps in order; `upTo` stops after the named one (a precondition's status is read after `quality`). */
const STEPS: readonly [string, Step][] = [['flaky', flaky], ['quality', quality], ['dependency', dependency], ['waiver', waiver], ['gate', gate]];

function judge(raw: Pick<RawResult, 'status' | 'message' | 'rule' | 'call'>, e: CatalogueEntry, ctx: StatusContext, upTo?: string): Judgement {
  const rule = brokenRule(raw);
  let j: Judgement = { status: raw.status, ...(raw.message ? { message: raw.message } : {}), ...(rule ? { rule } : {}) };
  for (const [name, step] of STEPS) {
    j = step(j, e, ctx);
    if (name === upTo) break;
  }
  return j;
}

/** The rule a raw outcome broke: the worker's check key, or for a crash or hang the PJRT call in flight. */
function brokenRule(raw: Pick<RawResult, 'status' | 'rule' | 'call'>): string | undefined {
  return raw.status === 'crash' || raw.status === 'timeout' ? `${raw.call ?? 'worker'}:${raw.status}` : raw.rule;
}

/** The rule a non-pass broke, as recorded. */
function ruleOf(raw: RawResult, status: Status): string | undefined {
  if (raw.status === 'crash' || raw.status === 'timeout') return brokenRule(raw);
  return FAILING.has(status) || status === 'warn' || status === 'xfail' ? raw.rule : undefined;
}

/** The result record of a raw outcome, with its judged status. */
function toCaseResult(raw: RawResult, ctx: StatusContext, recordSlots = false): CaseResult {
  const e = raw.entry;
  const j = judge(raw, e, ctx);
  const r: CaseResult = {
    id: e.id, area: e.area, tier: e.tier, status: j.status, durationMs: Math.round(raw.durationMs * 1000) / 1000,
    source: e.source, cite: e.cite, ...(e.selfTest ? { selfTest: e.selfTest } : {}), requires: e.requires,
  };
  if (j.expectation) r.expectation = j.expectation;
  if (j.message) r.message = j.message;
  const rule = ruleOf(raw, j.status);
  if (rule) r.rule = rule;
  if (e.required) r.required = true;
  if (raw.attempts > 1) r.attempts = raw.attempts;
  if (e.catches.length) r.faultsCaught = e.catches;
  if (raw.capabilities) r.capabilities = raw.capabilities;
  if (raw.details) r.details = raw.details;
  if (recordSlots && raw.slots) r.slots = raw.slots;
  if (raw.repetitions) r.repetitions = raw.repetitions;
  return r;
}

/**
 * Judges each raw result once and hands it on. A dependent case whose precondition is selected but not yet
 * judged is held until it is (or until `flush`, when the run ended without it).
 */
export class StatusPipeline {
  private readonly judged = new Map<string, Status>();
  private readonly held = new Map<string, RawResult[]>();

  constructor(
    private readonly ctx: Omit<StatusContext, 'precondition'>,
    private readonly selected: ReadonlySet<string>,
    private readonly emit: (r: CaseResult) => void,
    private readonly recordSlots = false,
  ) {}

  accept(raw: RawResult): void {
    const dep = raw.entry.dependsOn;
    if (dep && this.selected.has(dep) && !this.judged.has(dep)) {
      (this.held.get(dep) ?? this.held.set(dep, []).get(dep)!).push(raw);
      return;
    }
    this.release(raw);
  }

  /** Results still waiting for a precondition that never reported (the run stopped): judged without it. */
  flush(): void {
    for (const list of this.held.values()) for (const raw of list) this.release(raw);
    this.held.clear();
  }

  private release(raw: RawResult): void {
    const e = raw.entry;
    const pre = e.dependsOn ? this.judged.get(e.dependsOn) : undefined;
    const ctx: StatusContext = { ...this.ctx, ...(pre ? { precondition: pre } : {}) };
    this.judged.set(e.id, judge(raw, e, ctx, 'quality').status);
    this.emit(toCaseResult(raw, ctx, this.recordSlots));
    const waiting = this.held.get(e.id);
    if (waiting) {
      this.held.delete(e.id);
      for (const w of waiting) this.release(w);
    }
  }
}
