// Ahead-of-time compilation and topology (de)serialization need a compiler for the topology's platform. A plugin
// without one answers UNIMPLEMENTED or, as XLA's CPU plugin does, NOT_FOUND "No compiler factory for platform: cpu"
// (XLA's PjRtCompilerRegistry: PJRT_Compile and PJRT_TopologyDescription_Deserialize look the compiler up there, and
// the CPU plugin links none): both make a case unsupported.
import { compileTopology } from '../../src/harness/compile-only.js';
import type { CaseContext } from '../../src/harness/index.js';
import type { TopologyDescription } from '../../src/pjrt/index.js';
import { unimplementedIsUnsupported } from './check.js';
import { isPjrtError } from './errors.js';

const NO_COMPILER = ['UNIMPLEMENTED', 'NOT_FOUND'];

export async function noCompilerIsUnsupported<T>(ctx: { unsupported(reason: string): never }, f: () => Promise<T> | T): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (isPjrtError(e) && NO_COMPILER.includes(e.codeName)) {
      ctx.unsupported(`${e.slot} returned ${e.codeName} ("${e.message}"): the platform has no compiler for this topology (XLA's CPU plugin registers none)`);
    }
    throw e;
  }
}

/** How long one ahead-of-time compile may take: a TPU convolution compiles in ~20 s, far beyond an execute's deadline. */
export const COMPILE_TIMEOUT_MS = 180_000;

/**
 * A valid program the compiler declines for a capability it lacks (an element type, an op on a type): UNIMPLEMENTED,
 * or an error whose message says the feature is not supported (libtpu: INVALID_ARGUMENT "INT2 is not supported for
 * rank 1", or "Unexpected operand type for FFT: c128"). The corpus's programs are valid (XLA's CPU compiler referees them), so such an answer is a capability
 * verdict, never a failure; any other error is.
 */
export function capabilityDeclined(e: unknown): string | undefined {
  if (!isPjrtError(e)) return undefined;
  // libtpu on c128 FFT: INVALID_ARGUMENT "Unexpected operand type for FFT: c128[2,6]" (a type the backend lacks).
  const said = /\b(not (yet )?supported|unsupported|not implemented|unimplemented|unexpected (operand|element) type)\b/i.test(e.message);
  if (e.codeName === 'UNIMPLEMENTED' || (said && ['INVALID_ARGUMENT', 'INTERNAL', 'FAILED_PRECONDITION', 'UNKNOWN'].includes(e.codeName))) {
    return `the compiler declines the program: ${e.slot} returned ${e.codeName} ("${e.message.split('\n')[0]}")`;
  }
  return undefined;
}

/** The worker's compile target (src/harness/compile-only.ts); a plugin that creates no topology is unsupported. */
export async function compileTarget(ctx: CaseContext<unknown>): Promise<TopologyDescription> {
  return unimplementedIsUnsupported(ctx, 'the plugin creates no topology to compile against', () => compileTopology(ctx.plugin, ctx.config));
}
