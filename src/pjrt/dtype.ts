// dtype names (src/abi/dtypes.ts) ↔ PJRT_Buffer_Type values.
import { dtype, dtypeByPjrt } from '../abi/dtypes.js';
import { enumMember, enumValue } from '../abi/index.js';

export function bufferTypeOf(name: string): number {
  return enumValue('PJRT_Buffer_Type', dtype(name).pjrt);
}

/** The dtype name for a PJRT_Buffer_Type value ('f32'), or the enum member lowercased, or `type_<n>`. */
export function dtypeNameOf(value: number): string {
  const m = enumMember('PJRT_Buffer_Type', value);
  if (m === undefined) return `type_${value}`;
  return dtypeByPjrt(m)?.name ?? m.toLowerCase();
}
