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

export function isUnsupported(e: unknown): boolean {
  return !!e && typeof e === 'object' && (e as { name?: unknown }).name === 'UnsupportedError';
}
