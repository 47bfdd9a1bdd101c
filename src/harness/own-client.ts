// A client of a case's own, next to the worker's shared one. Some plugins allow one live client per process (the
// TPU runtime on hardware). The entry can say so (maxLiveClients: 1); when it does not, the first PJRT_Client_Create
// that fails while the shared client lives is retried once after releasing the shared client. If the retry works,
// the worker records the limit (counters.clientLimit) and from then on releases the shared client first.
import { PjrtError } from '../ffi/index.js';
import type { Client } from '../pjrt/index.js';
import type { Scope } from '../pjrt/scope.js';
import type { LiveClientLimit, PluginSession } from './session.js';

/** Codes that say the request was wrong, not that a client is in the way (a rejected option stays rejected). */
const NOT_A_LIMIT: ReadonlySet<string> = new Set(['INVALID_ARGUMENT', 'UNIMPLEMENTED']);
/**
 * Codes with which a plugin states a limit when it refuses one more client while others live: a precondition (the
 * device is held) or a resource. Any other refusal (INTERNAL, UNKNOWN, …) states nothing and stays a failure.
 */
const STATES_A_LIMIT: ReadonlySet<string> = new Set(['FAILED_PRECONDITION', 'RESOURCE_EXHAUSTED']);

/** Whether `e`, PJRT_Client_Create's refusal while `lived` clients lived, states a limit of `lived` live clients. */
export function statesClientLimit(e: unknown, lived: number): e is PjrtError {
  return lived > 0 && e instanceof PjrtError && STATES_A_LIMIT.has(e.codeName);
}

/** Records a limit the plugin stated (the reason quotes its words); a case that needs more clients is `unsupported`. */
export function noteStatedLimit(session: PluginSession, caseId: string, e: PjrtError, lived: number): LiveClientLimit {
  session.statedClientLimit ??= {
    max: lived,
    reason: `the plugin allows ${lived === 1 ? 'one live client per process' : `${lived} live clients per process`}: at ${caseId}, PJRT_Client_Create refused another with ${e.codeName} "${e.message}" while ${lived} lived`,
  };
  return session.statedClientLimit;
}

/**
 * Creates a client with `create` for case `caseId`, which is not using the shared client: the shared client is
 * released first when the plugin allows one live client, or after a failed attempt (then retried once).
 */
export async function withClientLimit(session: PluginSession, caseId: string, create: () => Promise<Client>): Promise<Client> {
  if (session.oneLiveClient && session.hasSharedClient) {
    await session.dropSharedClient(`${caseId} needs a client of its own and the plugin allows one live client per process`);
  }
  try {
    return await create();
  } catch (e) {
    if (!(e instanceof PjrtError) || NOT_A_LIMIT.has(e.codeName) || !session.hasSharedClient) throw e;
    const failed = `PJRT_Client_Create failed while the worker's shared client lived (${e.codeName}: ${e.message})`;
    await session.dropSharedClient(`${caseId}: ${failed}; the shared client was released and the call retried`);
    const client = await create();
    session.counters.clientLimit ??=
      `one live client per process: at ${caseId}, ${failed}, and succeeded once the shared client was released ` +
      '(maxLiveClients: 1 in the plugins.json entry says so up front)';
    if (statesClientLimit(e, 1)) noteStatedLimit(session, caseId, e, 1);
    return client;
  }
}

/** A new client with the configured create options for a case of its own (`client: 'fresh'`), owned by `scope`. */
export const ownClient = (session: PluginSession, caseId: string, scope: Scope): Promise<Client> =>
  withClientLimit(session, caseId, () => session.createClient(scope));
