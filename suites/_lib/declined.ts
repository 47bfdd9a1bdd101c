// When a compiler's refusal of a valid program is a capability the plugin lacks (`unsupported`), not a failure: one
// rule for every area that compiles programs (tier1.program.run, tier1.aot_compile, tier1.execute, tier2.exhaustive, …).
//
// What is core is decided once: the element types of src/abi/dtypes.ts marked `core` (pred, s8–s64, u8–u64, f16,
// bf16, f32, f64), and every StableHLO op the corpus runs. A plugin declines a core op on core types only as the
// header lets it say "not implemented": UNIMPLEMENTED; any other refusal there (pjrt-ocl's INTERNAL "Unsupported
// floating-point type" for a bf16 reduce) is a failure. A program built only of types outside the core set (the f8,
// f6, f4 and sub-byte types, complex) needs arithmetic a plugin may simply not have — XLA:GPU refuses f6 with UNKNOWN
// "failed to legalize operation 'arith.mulf'" and INTERNAL "Failed to translate module to LLVM IR" — so any compile
// error there is that capability's absence, with the compiler's message (libtpu's INVALID_ARGUMENT "INT2 is not
// supported for rank 1" and "Unexpected operand type for FFT: c128[2,6]" among them). A program that mixes the two
// (convert_bf16_to_f8e4m3, add_then_convert_s4: s4 and s32) is refused either for its non-core type or for its core
// path, and only evidence tells which: its core twin (src/corpus/core-twin.ts: the same program, s4 → s8, f8 → f16,
// c64 → f32) compiles — the refusal is the non-core type's; the twin is refused too — the core path is broken, a
// failure (UNIMPLEMENTED there: the core rule's decline); the program has no twin (fft, complex need a complex type) —
// the op itself is the capability. A wrong answer is never a capability: it stays a failure wherever it shows.
import { dtype } from '../../src/abi/dtypes.js';
import { coreTwin } from '../../src/corpus/core-twin.js';
import * as check from './check.js';
import { failShardy, refusesShardy } from './shardy.js';
import { isPjrtError, isUnsupported } from './errors.js';

const COMPILE_SLOTS = new Set(['PJRT_Client_Compile', 'PJRT_Compile']);

/** The element types among `dtypes` (dtype names) outside the core set. */
export function optionalTypes(dtypes: readonly string[]): string[] {
  return [...new Set(dtypes)].filter((d) => !dtype(d).core).sort();
}

/** The first non-empty line of a compiler's message (XLA:GPU's cuDNN refusals start with a newline). */
function firstLine(message: string): string {
  return message.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
}

/** What a program is, to judge its refusal: its element types and, to build its core twin, its text and ops. */
export interface RefusedProgram {
  dtypes: readonly string[];
  text?: string;
  ops?: readonly string[];
}

/** Compiles a core twin's text as the program was compiled (same options, same target). */
export type TwinCompile = (text: string) => Promise<unknown>;

/**
 * The `unsupported` reason when `e`, an error from compiling `program`, is a capability the plugin lacks (see the
 * file's comment); undefined when it is a failure. A program that mixes core and non-core types is judged by its core
 * twin, compiled with `compileTwin`; without its text, ops and `compileTwin` its refusal is a failure. A twin refused
 * for a core path fails the case here, with both refusals.
 */
export async function compileDeclined(e: unknown, program: RefusedProgram, compileTwin?: TwinCompile): Promise<string | undefined> {
  if (!isPjrtError(e) || !COMPILE_SLOTS.has(e.slot)) return undefined;
  const said = `${e.slot} returned ${e.codeName} ("${firstLine(e.message)}")`;
  // Shardy is never a capability to decline: JAX sends it in every program (shardy.ts).
  if (program.ops?.some((op) => op.startsWith('sdy.')) && refusesShardy(e.message)) failShardy(said);
  const optional = optionalTypes(program.dtypes);
  const declined = `the compiler declines a program of ${optional.join(', ')} (not a core element type)`;
  if (optional.length === 0) return e.codeName === 'UNIMPLEMENTED' ? `the compiler declines the program: ${said}` : undefined;
  if (optional.length === new Set(program.dtypes).size) return `${declined}: ${said}`;
  if (program.text === undefined || program.ops === undefined || compileTwin === undefined) return undefined;
  const twin = coreTwin(program.text, program.dtypes, program.ops);
  if (twin.text === undefined) return `${declined}; ${twin.none}: ${said}`;
  let refused: unknown;
  try {
    await compileTwin(twin.text);
    return `${declined}; its core twin (${twin.replaced}) compiles: ${said}`;
  } catch (t) {
    if (isUnsupported(t)) return `${declined}; its core twin (${twin.replaced}) could not be sent (${t instanceof Error ? t.message : String(t)}), so the refusal is taken as the type's: ${said}`;
    refused = t;
  }
  if (isPjrtError(refused) && refused.codeName === 'UNIMPLEMENTED') return `the compiler declines the program and its core twin (${twin.replaced}): ${said}`;
  const twinSaid = isPjrtError(refused) ? `${refused.codeName} ("${firstLine(refused.message)}")` : String(refused);
  return check.fail(
    { key: `${e.slot}:core-twin-compiles`, text: `a program refused for its non-core type (${optional.join(', ')}) has a core twin (${twin.replaced}) that compiles; here the twin is refused too, so the refusal is of a core path` },
    'the core twin compiles',
    `the program: ${e.codeName} ("${firstLine(e.message)}"); its twin: ${twinSaid}`,
  );
}

/**
 * The `unsupported` reason when `e`, an error from creating a buffer of element type `dtypeName` (the upload call or
 * its events: callers wrap nothing else in it), says the plugin lacks the type: UNIMPLEMENTED, or for a type outside
 * the core set INVALID_ARGUMENT — the header neither requires every PJRT_Buffer_Type nor names the code for one a
 * plugin lacks (pjrt-ocl: INVALID_ARGUMENT "unsupported buffer dtype"). Execute and read-back of a type the compiler
 * accepted and the upload created have no such excuse.
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
    const declined = await compileDeclined(e, { dtypes });
    if (declined) ctx.unsupported(declined);
    throw e;
  }
}
