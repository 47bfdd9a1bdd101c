// A client whose asynchronous work completes late (the plugin's completion-delay create option), so that
// not-yet-ready states are observable. Without such an option (or when the plugin rejects it) there is none.
import type { Buffer, Client } from '../../src/pjrt/index.js';
import { isPjrtError, isUnsupported } from './errors.js';
import type { CaseContext } from '../../src/harness/index.js';
import { completionDelayOption } from './config.js';

const DELAY_MS = 300;

/** The slow client, or why there is none (no completion-delay option for this plugin, the plugin rejected it, or no
 *  second live client is allowed). */
export async function slowClientOrWhy(ctx: CaseContext<unknown>, delayMs = DELAY_MS): Promise<Client | string> {
  const opt = completionDelayOption(ctx.config);
  if (opt === undefined) return 'the plugins.json entry names no completionDelayOption, so not-yet-ready states cannot be forced';
  try {
    return await ctx.newClient({ [opt]: BigInt(delayMs) });
  } catch (e) {
    if (isPjrtError(e)) return `the plugin rejected the completion-delay create option '${opt}': ${e.codeName} "${e.message}"`;
    if (isUnsupported(e)) return (e as Error).message; // e.g. one more live client than the entry's maxLiveClients
    throw e;
  }
}

/** The slow client for a case that cannot run without one: `skip` (needs completionDelayOption) when the entry names no
 *  such option, `unsupported` when the plugin rejects it or allows no second live client. */
export async function needSlowClient(ctx: CaseContext<unknown>, why: string, delayMs = DELAY_MS): Promise<Client> {
  if (completionDelayOption(ctx.config) === undefined) return ctx.needsConfig('completionDelayOption', why);
  const c = await slowClientOrWhy(ctx, delayMs);
  return typeof c === 'string' ? ctx.unsupported(c) : c;
}

/**
 * Ends a case that could not observe what it needed (`why`) for want of a slow client: `skip` naming the plugins.json
 * field when the entry has none, else `skip` with the real reason (`reason`, from slowClientOrWhy: a rejected option,
 * one live client per process, …).
 */
export function withoutSlowClient(ctx: CaseContext<unknown>, why: string, reason: string): never {
  if (completionDelayOption(ctx.config) === undefined) return ctx.needsConfig('completionDelayOption', why);
  return ctx.skip(`${why}; there is no slow client: ${reason}`);
}

export async function slowClient(ctx: CaseContext<unknown>, delayMs = DELAY_MS): Promise<Client | undefined> {
  const c = await slowClientOrWhy(ctx, delayMs);
  return typeof c === 'string' ? undefined : c;
}

/** Waits for `b` to be ready (its ready event's error, if any, is thrown) and destroys the event. */
export async function awaitReady(b: Buffer): Promise<void> {
  const e = b.readyEvent();
  try {
    await e.await();
  } finally {
    e.destroy();
  }
}
