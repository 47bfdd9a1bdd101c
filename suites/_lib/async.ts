// A client whose asynchronous work completes late (the plugin's completion-delay create option), so that
// not-yet-ready states are observable. Without such an option (or when the plugin rejects it) there is none.
import type { Client } from '../../src/pjrt/index.js';
import { isPjrtError } from './errors.js';
import { newClient, type ClientCtx } from './clients.js';
import { completionDelayOption } from './config.js';

export const DELAY_MS = 300;

/** The slow client, or why there is none (no completion-delay option for this plugin, or the plugin rejected it). */
export async function slowClientOrWhy(ctx: ClientCtx & { client: Client }, delayMs = DELAY_MS): Promise<Client | string> {
  const opt = completionDelayOption(ctx.config);
  if (opt === undefined) return 'the plugins.json entry names no completionDelayOption, so not-yet-ready states cannot be forced';
  try {
    return await newClient(ctx, { [opt]: BigInt(delayMs) });
  } catch (e) {
    if (isPjrtError(e)) return `the plugin rejected the completion-delay create option '${opt}': ${e.codeName} "${e.message}"`;
    throw e;
  }
}

export async function slowClient(ctx: ClientCtx & { client: Client }, delayMs = DELAY_MS): Promise<Client | undefined> {
  const c = await slowClientOrWhy(ctx, delayMs);
  return typeof c === 'string' ? undefined : c;
}
