// The PJRT_Program a compile call takes, with its code where the program's `placement` puts it. By default the code
// goes out as a framework's std::string holds it (XLA's clients pass `module.data()`, `code_size = module.size()`):
// code_size bytes and a NUL after them, not counted. The guard placements put the code right before a PROT_NONE page,
// so a plugin that reads past what it was given faults at once instead of reading whatever follows in the heap.
import { guardedBytes, type Args, type RawApi } from '../ffi/index.js';

/**
 * - `terminated` (default): code_size bytes and a NUL after them;
 * - `guard_after_code`: the last byte of the code is the last readable byte;
 * - `guard_after_nul`: a NUL after the code, then the guard page (what a framework's buffer allows, and no byte more);
 * - `zeroed_after_call`: as `terminated`, and every byte is zeroed once the call returned (the caller reuses its buffer:
 *   PJRT_Client_Compile_Args.program "Only needs to stay alive for the duration of the Compile call").
 */
export type CodePlacement = 'terminated' | 'guard_after_code' | 'guard_after_nul' | 'zeroed_after_call';

export interface Program {
  code: string | Uint8Array;
  /** 'mlir' (default), 'hlo', … */
  format?: string;
  placement?: CodePlacement;
}

function codeBytes(code: string | Uint8Array): Uint8Array {
  return typeof code === 'string' ? Buffer.from(code, 'utf8') : code;
}

/** The PJRT_Program Args of `program`, and `release` to call once the compile call has returned. */
export function programArgs(api: RawApi, program: Program): { args: Args; release(): void } {
  const code = codeBytes(program.code);
  const args = api.args('PJRT_Program').bytes('format', 'format_size', program.format ?? 'mlir').size('code_size', code.byteLength);
  const placement = program.placement ?? 'terminated';
  if (placement === 'terminated' || placement === 'zeroed_after_call') {
    const withNul = new Uint8Array(code.byteLength + 1);
    withNul.set(code);
    args.bytes('code', null, withNul);
    return { args, release: () => (placement === 'zeroed_after_call' ? withNul.fill(0) : undefined) };
  }
  const guarded = guardedBytes(code, { nulAfter: placement === 'guard_after_nul' });
  args.ptr('code', guarded.address);
  return { args, release: () => guarded.release() };
}
