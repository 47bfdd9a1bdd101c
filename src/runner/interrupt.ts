// SIGINT and SIGTERM as an AbortSignal whose reason is the signal's name, from the moment a run starts (before its
// preflight and listing, not only once cases run): whenever one arrives, the run ends with a results file saying
// what it knew then.

export interface SignalWatch {
  signal: AbortSignal;
  /** Removes the handlers (a second signal then ends the process as usual). */
  dispose(): void;
}

export function watchSignals(): SignalWatch {
  const ac = new AbortController();
  const on = (sig: NodeJS.Signals): void => {
    if (!ac.signal.aborted) ac.abort(sig);
  };
  process.once('SIGINT', on);
  process.once('SIGTERM', on);
  return {
    signal: ac.signal,
    dispose: () => {
      process.removeListener('SIGINT', on);
      process.removeListener('SIGTERM', on);
    },
  };
}

/** The signal's name: its abort reason when that is one ('SIGTERM'), else SIGINT (a test's plain abort()). */
export const signalNameOf = (s: AbortSignal): string => (typeof s.reason === 'string' && /^SIG[A-Z]+$/.test(s.reason) ? s.reason : 'SIGINT');

/** Settles as `p` does, or rejects with Aborted as soon as `signal` aborts (`p` is left to `onLeft`). */
export class Aborted extends Error {
  override readonly name = 'Aborted';
}

export function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined, onLeft: (p: Promise<T>) => void = () => undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) {
    onLeft(p);
    return Promise.reject(new Aborted());
  }
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => {
      onLeft(p);
      reject(new Aborted());
    };
    signal.addEventListener('abort', abort, { once: true });
    p.then(
      (v) => { signal.removeEventListener('abort', abort); resolve(v); },
      (e: unknown) => { signal.removeEventListener('abort', abort); reject(e instanceof Error ? e : new Error(String(e))); },
    );
  });
}
