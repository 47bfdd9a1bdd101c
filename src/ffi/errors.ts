// Error classes thrown by the binding. src/pjrt re-exports them for test authors.

/** A PJRT call returned a PJRT_Error (or an event completed with one). `message` is the plugin's text verbatim. */
export class PjrtError extends Error {
  override readonly name = 'PjrtError';
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
    readonly slot: string,
  ) {
    super(message);
  }
  override toString(): string {
    return `PjrtError: ${this.slot}: ${this.codeName}: ${this.message}`;
  }
}

/** The slot a call needs is null or lies beyond the plugin's PJRT_Api.struct_size (or an extension lacks it). */
export class UnsupportedError extends Error {
  override readonly name = 'UnsupportedError';
  constructor(
    readonly slot: string,
    readonly reason: string,
  ) {
    super(`${slot}: ${reason}`);
  }
}

export type PluginLoadErrorKind =
  | 'missing'
  | 'not_loadable'
  | 'no_symbol'
  | 'null_api'
  | 'bad_struct_size'
  | 'major_mismatch';

/** PluginLoadError's detail when GetPjrtApi returns NULL (the plugin's reason, if any, is on its stderr). */
export const NULL_API = 'GetPjrtApi() returned NULL';

/** The plugin file could not be turned into a usable PJRT_Api. The message is one line and names the file. */
export class PluginLoadError extends Error {
  override readonly name = 'PluginLoadError';
  constructor(
    readonly kind: PluginLoadErrorKind,
    readonly path: string,
    detail: string,
  ) {
    super(`${path}: ${detail.replace(/\s*\n\s*/g, ' ').trim()}`);
  }
}
