// Ahead-of-time compilation and topology (de)serialization need a compiler for the topology's platform. A plugin
// without one answers UNIMPLEMENTED or, as XLA's CPU plugin does, NOT_FOUND "No compiler factory for platform: cpu"
// (XLA's PjRtCompilerRegistry: PJRT_Compile and PJRT_TopologyDescription_Deserialize look the compiler up there, and
// the CPU plugin links none): both make a case unsupported. For PJRT_Compile that answer is the platform's only when
// the compiler gives it to the probe program (f32[] + 1) too: a compiler that compiles the probe and answers
// NOT_FOUND to a core program has a broken core path, a failure.
import { compileTopology } from '../../src/harness/compile-only.js';
import { artifactOf, PROBE_PROGRAM, type CaseContext } from '../../src/harness/index.js';
import type { Client, Program, TopologyDescription } from '../../src/pjrt/index.js';
import { unimplementedIsUnsupported } from './check.js';
import { isPjrtError } from './errors.js';

const NO_COMPILER = ['UNIMPLEMENTED', 'NOT_FOUND'];

/** A target to compile the probe program for: a topology, and the client PJRT_Compile is given with it (if any). */
export interface CompileTarget {
  topology: TopologyDescription;
  client?: Client;
}

/**
 * Runs `f`. Its UNIMPLEMENTED or NOT_FOUND means no compiler for the platform — `unsupported` — from
 * PJRT_TopologyDescription_Deserialize always, from PJRT_Compile when the probe program compiled for `probe` is
 * refused the same way (else the error is returned to the caller, who judges it as any refusal). A PJRT_Compile error
 * without a `probe` is returned too.
 */
export async function noCompilerIsUnsupported<T>(ctx: CaseContext<unknown>, f: () => Promise<T> | T, probe?: CompileTarget): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (isPjrtError(e) && NO_COMPILER.includes(e.codeName)) {
      const said = `${e.slot} returned ${e.codeName} ("${e.message}")`;
      if (e.slot !== 'PJRT_Compile') ctx.unsupported(`${said}: the platform has no compiler for this topology (XLA's CPU plugin registers none)`);
      const refusal = probe && (await probeRefusal(ctx, probe));
      if (isPjrtError(refusal) && NO_COMPILER.includes(refusal.codeName)) {
        ctx.unsupported(`${said}, and ${refusal.codeName} to the probe program (f32[] + 1) too: the platform has no compiler for this topology (XLA's CPU plugin registers none)`);
      }
      if (probe && refusal === undefined) ctx.log(`${said}, but the probe program (f32[] + 1) compiles for the same target: the platform has a compiler`);
    }
    throw e;
  }
}

const probed = new WeakMap<TopologyDescription, Promise<unknown>>();

/** PJRT_Compile of the probe program for `target`: undefined when it compiles, else its error. Once per topology. */
function probeRefusal(ctx: CaseContext<unknown>, target: CompileTarget): Promise<unknown> {
  let p = probed.get(target.topology);
  if (!p) {
    p = (async () => {
      try {
        await ctx.plugin.compile(target.topology, aotProgram(ctx, PROBE_PROGRAM), {}, { scope: ctx.scope, ...(target.client ? { client: target.client } : {}) });
        return undefined;
      } catch (e) {
        return e;
      }
    })();
    probed.set(target.topology, p);
  }
  return p;
}

/** `text` in the form the plugin compiles (plugins.json programForms; text unless it declares artifacts only). */
export function aotProgram(ctx: CaseContext<unknown>, text: string, artifactFile?: string): Program {
  const forms = ctx.config.programForms;
  if (!forms || forms.includes('text')) return { code: text, format: 'mlir' };
  const bytes = artifactOf(text, artifactFile);
  if (!bytes) ctx.unsupported('the plugin compiles portable artifacts only and this program has none');
  return { code: bytes, format: 'mlir' };
}

/** How long one ahead-of-time compile may take: a TPU convolution compiles in ~20 s, far beyond an execute's deadline. */
export const COMPILE_TIMEOUT_MS = 180_000;

/** The worker's compile target (src/harness/compile-only.ts); a plugin that creates no topology is unsupported. */
export async function compileTarget(ctx: CaseContext<unknown>): Promise<TopologyDescription> {
  return unimplementedIsUnsupported(ctx, 'the plugin creates no topology to compile against', () => compileTopology(ctx.plugin, ctx.config));
}
