// Thrown by ctx.skip / ctx.unsupported to end a case with that status.
export class SkipSignal extends Error {
  override readonly name = 'SkipSignal';
}
export class UnsupportedSignal extends Error {
  override readonly name = 'UnsupportedSignal';
}

/** Duck-typed so that the harness never imports the object model. */
export function isUnsupportedError(e: unknown): e is Error & { slot?: string; reason?: string } {
  return e instanceof Error && (e.name === 'UnsupportedError' || e instanceof UnsupportedSignal);
}
