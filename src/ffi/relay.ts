// Callbacks from plugin threads reach JS through koffi's relay (a threadsafe function served by the event loop).
// After an action that may make a plugin call back from its own thread, let the loop turn a few times before counting.

/** Lets relayed callbacks run: `rounds` turns of setImmediate, each followed by a `ms` timer. */
export async function drainRelayedCallbacks(rounds = 3, ms = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await new Promise<void>((r) => setImmediate(r));
    await new Promise<void>((r) => setTimeout(r, ms));
  }
}

/**
 * Turns the loop (`ms` timers) until `done()` holds or `timeoutMs` passed, then, with `settle`, a few turns more (so
 * that a call right after the awaited one is seen too). Resolves with the final `done()`.
 */
export async function waitForRelayedCallbacks(done: () => boolean, timeoutMs = 2000, ms = 10, settle = true): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!done() && Date.now() < end) await drainRelayedCallbacks(1, ms);
  if (settle) await drainRelayedCallbacks();
  return done();
}
