// Recognising the object model's errors without depending on their class identity (a suite may be
// compiled against a different copy of src/pjrt than the one that threw).
import { enumDef } from '../../src/abi/enums.js';

export interface PjrtErrorLike {
  code: number;
  codeName: string;
  message: string;
  slot: string;
}

export const ERROR_CODES: readonly string[] = enumDef('PJRT_Error_Code').members.map((m) => m.name);
export const codeName = (code: number): string => ERROR_CODES[code] ?? `code ${code}`;

export function isPjrtError(e: unknown): e is PjrtErrorLike {
  if (!e || typeof e !== 'object') return false;
  const o = e as Record<string, unknown>;
  return typeof o.code === 'number' && typeof o.message === 'string' && typeof o.slot === 'string';
}

/** The object model's UnsupportedError, or the harness's unsupported/skip signals (ctx.unsupported / ctx.skip):
 *  outcomes a check must pass through untouched, never count as the error it expected. */
export function isUnsupported(e: unknown): boolean {
  const name = !!e && typeof e === 'object' ? (e as { name?: unknown }).name : undefined;
  return name === 'UnsupportedError' || name === 'UnsupportedSignal' || name === 'SkipSignal';
}
