// Ahead-of-time compilation and topology (de)serialization need a compiler for the topology's platform. A plugin
// without one answers UNIMPLEMENTED or, as XLA's CPU plugin does, NOT_FOUND "No compiler factory for platform: cpu"
// (XLA's PjRtCompilerRegistry: PJRT_Compile and PJRT_TopologyDescription_Deserialize look the compiler up there, and
// the CPU plugin links none): both make a case unsupported.
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
