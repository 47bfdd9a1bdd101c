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

/** The worker's compile target (src/harness/compile-only.ts); a plugin that creates no topology is unsupported. */
export async function compileTarget(ctx: CaseContext<unknown>): Promise<TopologyDescription> {
  return unimplementedIsUnsupported(ctx, 'the plugin creates no topology to compile against', () => compileTopology(ctx.plugin, ctx.config));
}
