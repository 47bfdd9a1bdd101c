// When a compiler's refusal of a valid program is a capability the plugin lacks (`unsupported`), not a failure: one
// rule for every area that compiles programs (tier1.program.run, tier1.aot_compile, tier1.execute, tier2.exhaustive, …).
//
// What is core is decided once: the element types of src/abi/dtypes.ts marked `core` (pred, s8–s64, u8–u64, f16,
// bf16, f32, f64), and every StableHLO op the corpus runs. A plugin declines a core op on core types only as the
// header lets it say "not implemented": UNIMPLEMENTED; any other refusal there (pjrt-ocl's INTERNAL "Unsupported
// floating-point type" for a bf16 reduce) is a failure. A program built around a type outside the
// core set (the f8, f6, f4 and sub-byte types, complex) needs arithmetic a plugin may simply not have — XLA:GPU refuses
// f6 with UNKNOWN "failed to legalize operation 'arith.mulf'" and INTERNAL "Failed to translate module to LLVM IR" —
// so any compile error there is that capability's absence, with the compiler's message (libtpu's INVALID_ARGUMENT
// "INT2 is not supported for rank 1" and "Unexpected operand type for FFT: c128[2,6]" among them). A wrong answer is
// never a capability: it stays a failure wherever it shows.
import { dtype } from '../../src/abi/dtypes.js';
import { isPjrtError } from './errors.js';

const COMPILE_SLOTS = new Set(['PJRT_Client_Compile', 'PJRT_Compile']);

/** The element types among `dtypes` (dtype names) outside the core set. */
export function optionalTypes(dtypes: readonly string[]): string[] {
  return [...new Set(dtypes)].filter((d) => !dtype(d).core).sort();
}

/** The first non-empty line of a compiler's message (XLA:GPU's cuDNN refusals start with a newline). */
function firstLine(message: string): string {
  return message.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
}

/**
 * The `unsupported` reason when `e`, an error from compiling a program of element types `dtypes`, is a capability
 * the plugin lacks (see the file's comment); undefined when it is a failure.
 */
export function compileDeclined(e: unknown, dtypes: readonly string[]): string | undefined {
  // NOT_FOUND from PJRT_Compile is no compiler at all (XLA's CPU plugin registers none): the AOT cases say so themselves.
  if (!isPjrtError(e) || !COMPILE_SLOTS.has(e.slot) || e.codeName === 'NOT_FOUND') return undefined;
  const said = `${e.slot} returned ${e.codeName} ("${firstLine(e.message)}")`;
  const optional = optionalTypes(dtypes);
  if (optional.length > 0) return `the compiler declines a program of ${optional.join(', ')} (not a core element type): ${said}`;
  if (e.codeName === 'UNIMPLEMENTED') return `the compiler declines the program: ${said}`;
  return undefined;
}

/**
 * The `unsupported` reason when `e`, an error from creating a buffer of element type `dtypeName`, says the plugin lacks
 * the type: UNIMPLEMENTED, or for a type outside the core set INVALID_ARGUMENT — the header neither requires every
 * PJRT_Buffer_Type nor names the code for one a plugin lacks (pjrt-ocl: INVALID_ARGUMENT "unsupported buffer dtype").
 */
export function typeRefused(e: unknown, dtypeName: string): string | undefined {
  if (!isPjrtError(e)) return undefined;
  if (e.codeName === 'UNIMPLEMENTED' || (e.codeName === 'INVALID_ARGUMENT' && !dtype(dtypeName).core)) return `${e.slot}: ${e.codeName} "${firstLine(e.message)}"`;
  return undefined;
}

/** Runs `f`, which compiles (and may run) a program of element types `dtypes`; a declined compile ends the case unsupported. */
export async function declinedIsUnsupported<T>(ctx: { unsupported(reason: string): never }, dtypes: readonly string[], f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    const declined = compileDeclined(e, dtypes);
    if (declined) ctx.unsupported(declined);
    throw e;
  }
}
