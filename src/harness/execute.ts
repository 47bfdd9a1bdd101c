// Runs one case inside a worker: requirement checks first (→ unsupported), then the body, then cleanup.
import { performance } from 'node:perf_hooks';
import type { Client, Device } from '../pjrt/index.js';
import type { Scope } from '../pjrt/scope.js';
import type { CaseDetails, Status } from '../config/results.js';
import { capabilityProbe } from './capabilities.js';
import { needsMinor, slotSince, spokenMinor } from '../pjrt/index.js';
import { noteStatedLimit, ownClient, statesClientLimit, withClientLimit } from './own-client.js';
import type { PluginSession } from './session.js';
import { isUnsupportedError, SkipSignal, UnsupportedSignal } from './signals.js';
import { COMPILE_ONLY_SKIP, profileSkip } from './compile-only.js';
import { needsConfigMessage } from '../config/needs-config.js';
import type { CaseContext, CaseDef } from './types.js';

export interface CaseOutcome {
  status: Extract<Status, 'pass' | 'fail' | 'unsupported' | 'skip'>;
  durationMs: number;
  message?: string;
  capabilities?: Record<string, boolean>;
  details?: CaseDetails;
  /** The PJRT_Api slots the case called (filled by the worker). */
  slots?: string[];
  /** For a failure: the stable key of the broken rule (ruleOf). */
  rule?: string;
}

const capabilityCache = new Map<string, true | string>();

/** Forgets the capability verdicts probed so far (the plugin's configuration changed: PluginSession.switchCreateOptions). */
export function forgetCapabilities(): void {
  capabilityCache.clear();
}

/** undefined when every requirement is met, otherwise the reason. */
async function unmet(def: CaseDef, session: PluginSession, probeClient: () => Promise<Client>): Promise<string | undefined> {
  const r = def.requires;
  if (r.minMinor === undefined && !r.slots && !r.capabilities) return undefined;
  const plugin = session.plugin();
  if (r.minMinor !== undefined && plugin.apiVersion.minor < r.minMinor) {
    return `needs PJRT API minor ≥ ${r.minMinor}, the plugin reports 0.${plugin.apiVersion.minor}`;
  }
  // `run --api-minor N`: the CTS behaves as a framework of 0.N, which knows nothing newer.
  if (r.minMinor !== undefined && spokenMinor() < r.minMinor) return needsMinor(r.minMinor);
  for (const slot of r.slots ?? []) {
    const state = plugin.slotState(slot);
    const full = slot.startsWith('PJRT_') ? slot : `PJRT_${slot}`;
    if (slotSince(full) > spokenMinor()) return needsMinor(slotSince(full));
    if (state !== 'present') return `${slot} is ${state === 'null' ? 'null' : 'beyond PJRT_Api.struct_size'}`;
  }
  for (const cap of r.capabilities ?? []) {
    let verdict = capabilityCache.get(cap);
    if (verdict === undefined) {
      const probe = capabilityProbe(cap);
      if (!probe) throw new Error(`pjrt-cts: case ${def.id} requires unknown capability "${cap}" (defineCapability it)`);
      const v = await probe({ plugin: () => session.plugin(), client: probeClient });
      verdict = v === true ? true : typeof v === 'string' ? v : `lacks capability ${cap}`;
      capabilityCache.set(cap, verdict);
    }
    if (verdict !== true) return verdict;
  }
  return undefined;
}

/**
 * The stable key of what a failure broke: a check's rule key (suites/_lib/check.ts), or for a plugin error its
 * slot and code; undefined for anything else (the message's first line stands in).
 */
export function ruleOf(e: unknown): string | undefined {
  if (!(e instanceof Error)) return undefined;
  const x = e as Error & { key?: unknown; slot?: unknown; codeName?: unknown };
  if (e.name === 'ConformanceFailure' && typeof x.key === 'string') return x.key;
  if (e.name === 'PjrtError' && typeof x.slot === 'string' && typeof x.codeName === 'string') return `${x.slot}:${x.codeName}`;
  return undefined;
}

function describe(e: unknown): string {
  if (!(e instanceof Error)) return `thrown: ${String(e)}`;
  const plain = ['ConformanceFailure', 'PjrtError', 'PluginLoadError'].includes(e.name);
  let msg = plain ? e.message : `${e.name}: ${e.message}`;
  if (e.name === 'PjrtError') msg = String(e);
  if (!plain) {
    const at = e.stack?.split('\n').find((l) => /\/(suites|test)\//.test(l));
    if (at) msg += ` (${at.trim()})`;
  }
  return msg;
}

/** The client a case declared, obtained before its body runs; the shared one is pointed at the case's scope. */
async function clientFor(def: CaseDef, session: PluginSession, scope: Scope): Promise<Client | undefined> {
  if (def.client === 'none' || def.client === 'process') return undefined;
  if (def.client === 'fresh') return ownClient(session, def.id, scope);
  const c = await session.sharedClient();
  c.useScope(scope);
  return c;
}

interface RunCaseOptions {
  timeoutMs: number;
}

export async function runCase(def: CaseDef, session: PluginSession, opts: RunCaseOptions): Promise<CaseOutcome> {
  const t0 = performance.now();
  const scope = new session.pjrt.Scope();
  const notes: string[] = [];
  const caps: Record<string, boolean> = {};
  const details: CaseDetails = {};
  let client: Client | undefined;
  const done = (status: CaseOutcome['status'], message?: string): CaseOutcome => {
    const all = [message, ...notes].filter((x): x is string => !!x);
    const out: CaseOutcome = { status, durationMs: performance.now() - t0 };
    if (all.length) out.message = all.join('\n');
    if (Object.keys(caps).length) out.capabilities = caps;
    if (Object.keys(details).length) out.details = details;
    return out;
  };
  let outcome: CaseOutcome;
  /** Whether the case body started: the slots called from then on are the case's (the harness's own before it are not). */
  let calling = false;
  try {
    const skipped = profileSkip(def.client, session.config);
    // A capability probe that needs a client cannot have one in the compile-only profile.
    const probeClient = (): Promise<Client> => (session.config.compileOnly ? Promise.reject(new SkipSignal(COMPILE_ONLY_SKIP)) : session.sharedClient());
    const reason = skipped ? undefined : await unmet(def, session, probeClient);
    if (skipped) {
      outcome = done('skip', skipped);
    } else if (reason) {
      outcome = done('unsupported', reason);
    } else {
      client = await clientFor(def, session, scope);
      const extra: Client[] = [];
      const live = (): number =>
        (session.hasSharedClient ? 1 : 0) + (def.client === 'fresh' && client && !client.destroyed ? 1 : 0) + extra.filter((c) => !c.destroyed).length;
      const devices: Device[] = client ? client.addressableDevices() : [];
      const ctx: CaseContext<unknown> = {
        id: def.id,
        p: def.p,
        get plugin() { return session.plugin(); },
        get client() {
          if (!client) throw new Error(`pjrt-cts: case ${def.id} declared client: 'none' but uses ctx.client`);
          return client;
        },
        get device() {
          const d = devices[0];
          if (!d) throw new UnsupportedSignal('the client has no addressable device');
          return d;
        },
        get devices() { return devices; },
        scope,
        config: session.config,
        timeoutMs: opts.timeoutMs,
        skip(reason) { throw new SkipSignal(reason); },
        unsupported(reason) { throw new UnsupportedSignal(reason); },
        needsConfig(field, why) {
          throw new SkipSignal(needsConfigMessage(field, session.config.byPath ? undefined : session.config.name, why));
        },
        capability(key, ok) { caps[key] = (caps[key] ?? true) && ok; },
        detail(key, value) { details[key] = value; },
        log(message) { notes.push(message); },
        async newClient(overrides = {}, o = {}) {
          // A case not using the shared client may have it released to make room (own-client.ts).
          const usesShared = def.client === 'shared';
          const needed = live() + 1 - (!usesShared && session.hasSharedClient ? 1 : 0);
          const limit = session.liveClientLimit();
          if (limit && needed > limit.max) throw new UnsupportedSignal(`needs ${needed} live clients in one process; ${limit.reason}`);
          const options = { ...(o.replaceConfigured ? {} : session.config.createOptions), ...overrides };
          const create = (): Promise<Client> => session.plugin().createClient({ options, scope });
          let c: Client;
          try {
            c = usesShared ? await create() : await withClientLimit(session, def.id, create);
          } catch (e) {
            // Refused while others lived, with a code that states a limit: a capability the plugin lacks by design.
            const lived = live();
            if (statesClientLimit(e, lived)) throw new UnsupportedSignal(`needs ${lived + 1} live clients in one process; ${noteStatedLimit(session, def.id, e, lived).reason}`);
            throw e;
          }
          session.counters.clientsCreated++;
          extra.push(c);
          return c;
        },
      };
      session.pjrt.beginCaseCalls();
      calling = true;
      await (def.fn as (c: CaseContext<unknown>) => unknown)(ctx);
      outcome = done('pass');
    }
  } catch (e) {
    if (e instanceof SkipSignal) outcome = done('skip', e.message);
    else if (isUnsupportedError(e)) outcome = done('unsupported', e.message);
    else {
      outcome = done('fail', describe(e));
      const rule = ruleOf(e);
      if (rule) outcome.rule = rule;
    }
  }
  try {
    await scope.dispose();
  } catch (e) {
    if (outcome.status === 'pass') {
      outcome = done('fail', `cleanup: ${describe(e)}`);
      const rule = ruleOf(e);
      if (rule) outcome.rule = rule;
    }
  }
  if (calling) {
    const called = session.pjrt.caseCalls();
    if (called.length) outcome.slots = called;
  }
  if (def.client === 'shared' && session.hasSharedClient) {
    (await session.sharedClient()).useScope(undefined);
    const broken = await session.checkSharedClient(def.id);
    if (broken) outcome.message = [outcome.message, `the worker's shared client was replaced: ${broken}`].filter(Boolean).join('\n');
  }
  return outcome;
}
