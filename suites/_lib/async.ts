// A client whose asynchronous work completes late (the plugin's completion-delay create option), so that
// not-yet-ready states are observable. Without such an option the caller skips timing-dependent checks.
import type { Client } from '../../src/pjrt/index.js';
import { newClient, type ClientCtx } from './clients.js';
import { completionDelayOption } from './config.js';

export const DELAY_MS = 300;

export async function slowClient(ctx: ClientCtx & { client: Client }, delayMs = DELAY_MS): Promise<Client | undefined> {
  const opt = completionDelayOption(ctx.config, ctx.client.platformName());
  if (opt === undefined) return undefined;
  return newClient(ctx, { [opt]: BigInt(delayMs) });
}
