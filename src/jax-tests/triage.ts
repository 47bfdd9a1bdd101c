// A JAX test's record as a CTS raw result: its status (capability skips are `unsupported`), its message, and the
// rule key its failure is grouped by (src/runner/root-causes.ts groups by rule): a framework refusal
// (src/framework/jax-refusals.ts), else the PJRT call and error from the call record, else JAX's error normalised
// (compile and run failures apart: `jax-compile:…`, `jax-run:…`).
import { jaxRefusalOf } from '../framework/jax-refusals.js';
import type { CatalogueEntry } from '../harness/types.js';
import type { RawResult } from '../runner/scheduler.js';
import { deviceShortfall } from './capabilities.js';
import type { DiedTest, TestRecord } from './file-runner.js';
import type { PytestOutcome } from './pytest-process.js';
import type { Blame } from './call-blame.js';

/** How our pytest plugin marks a capability skip (pytest_plugin/pjrt_cts_jax.py CAPABILITY_PREFIX). */
const CAPABILITY_PREFIX = 'pjrt-cts capability: ';
/** The rule prefixes of the two failure phases a baseline keeps apart. */
export const PHASE_RULE = { compile: 'jax-compile', run: 'jax-run' } as const;
export const REFUSAL_RULE = 'jax-refusal';
const MESSAGE_CHARS = 4000;

/** An error's first line with what varies between tests masked: numbers, addresses, shapes' sizes. */
export function normalizeError(text: string): string {
  return text.split('\n').map((l) => l.trim()).find((l) => l !== '')!
    ?.replace(/0x[0-9a-f]+/gi, '0x#').replace(/\d+(\.\d+)?(e[-+]?\d+)?/gi, '#').replace(/\s+/g, ' ').slice(0, 140) ?? '';
}

function failureMessage(o: PytestOutcome): string {
  // The exception's own words first ("AssertionError: \nNot equal…" reads as its first non-empty line).
  const head = o.exc ? `${o.exc}: ${(o.excMessage ?? '').trim()}`.trim() : '';
  return [head, o.message ?? ''].filter(Boolean).join('\n\n').slice(0, MESSAGE_CHARS);
}

export interface Judged { status: RawResult['status']; message?: string; rule?: string; call?: string; phase?: 'compile' | 'run' }

function judgeFailure(o: PytestOutcome, blame: Blame | undefined): Judged {
  const message = failureMessage(o);
  const refusal = jaxRefusalOf(`${o.excMessage ?? ''}\n${o.message ?? ''}`);
  const phase = o.phase ?? 'run';
  if (refusal) {
    return {
      status: 'fail', phase, rule: `${REFUSAL_RULE}:${refusal.feature}`,
      message: `framework refusal (JAX, not the plugin): ${refusal.feature} is enabled only for ${refusal.platforms.join(', ')} (${refusal.file} ${refusal.symbol}); ${refusal.remedy}\n\n${message}`,
    };
  }
  if (blame) return { status: 'fail', phase, rule: blame.rule, message: `${blame.text}\n\n${message}` };
  return { status: 'fail', phase, rule: `${PHASE_RULE[phase]}:${o.exc ?? 'Error'}: ${normalizeError(o.excMessage || o.message || 'no message')}`, message };
}

function judgeDied(d: DiedTest, blame: Blame | undefined): Judged {
  return { status: d.how, message: blame ? `${blame.text}\n${d.message}` : d.message, call: blame?.rule.split(':')[0] ?? 'jax-test' };
}

export function judge(o: PytestOutcome, devices: number | undefined, blame?: Blame): Judged {
  if (o.outcome === 'passed') return { status: 'pass', ...(o.message ? { message: o.message } : {}) };
  if (o.outcome === 'skipped') {
    const msg = o.message ?? 'skipped';
    if (msg.startsWith(CAPABILITY_PREFIX)) return { status: 'unsupported', message: msg.slice(CAPABILITY_PREFIX.length) };
    const short = deviceShortfall(msg, devices);
    return short ? { status: 'unsupported', message: short } : { status: 'skip', message: `skipped by JAX: ${msg}` };
  }
  return judgeFailure(o, blame);
}

/** The raw result of a record (its entry made by the caller); `blame(record)`: the call record's word, if any. */
export function rawResult(entry: CatalogueEntry, rec: TestRecord, devices: number | undefined, blame?: Blame): RawResult & { phase?: 'compile' | 'run' } {
  const j = rec.died ? judgeDied(rec.died, blame) : judge(rec.outcome!, devices, blame);
  const durationMs = (rec.outcome?.duration ?? 0) * 1000;
  let status = j.status;
  let message = j.message;
  if (rec.flakyFrom && status === 'pass') {
    status = 'flaky';
    const before = 'how' in rec.flakyFrom ? rec.flakyFrom.message : failureMessage(rec.flakyFrom);
    message = `passed on attempt ${rec.attempts} after: ${before}`;
  }
  return {
    entry, status, durationMs, attempts: rec.attempts,
    ...(message ? { message } : {}), ...(j.rule ? { rule: j.rule } : {}), ...(j.call ? { call: j.call } : {}), ...(j.phase ? { phase: j.phase } : {}),
  };
}
