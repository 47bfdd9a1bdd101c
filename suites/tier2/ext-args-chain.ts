// Tier 2 — extension chains on Args. The chains a caller puts on Args are inputs the plugin must walk or ignore:
// XLA's C-API client (xla/pjrt/c_api_client/pjrt_c_api_client.cc) sets PJRT_Client_Compile_Args.extension_start
// (InitializeArgsAndCompile) and PJRT_LoadedExecutable_Execute_Args.extension_start (PjRtCApiLoadedExecutable::
// Execute) to a PJRT_Profiler_Extension from pjrt::CreatePjrtProfilerExtension: profiler_api null, a traceme context
// id. Every JAX program on a C-API plugin goes through those two calls with that chain.
import { area, programFor } from '../../src/harness/index.js';
import { argsExtension, type Client, type LoadedExecutable } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { BASIC_EXECUTE } from '../_lib/exec.js';
import { addOne } from '../_lib/programs.js';
import { f32, readF32 } from '../_lib/patterns.js';
import { soleOutput } from '../_lib/outputs.js';

const t = area('tier2.ext.args_chain', { tier: 2, dependsOn: BASIC_EXECUTE, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute'] } });
const DIMS = [4];
const CHAIN_CITE = 'XLA\'s C-API client passes a PJRT_Profiler_Extension (profiler_api null, "valid only when used as an args extension": traceme_context_id) as extension_start of PJRT_Client_Compile_Args and PJRT_LoadedExecutable_Execute_Args';
const UNKNOWN_TYPE = 0x7fff_0000;

/** addOne in the form the plugin compiles (text or portable artifact), with `ext` on the Compile Args. */
const compileWith = async (client: Client, ext = argsExtension({ tracemeContextId: 42n })): Promise<LoadedExecutable> =>
  client.compile(await programFor(client, addOne(DIMS)), {}, ext);

async function runAddOne(client: Client, exe: LoadedExecutable, ext = argsExtension({ tracemeContextId: 43n })): Promise<number[]> {
  const x = await client.upload(f32([1, 2, 3, 4]), { dtype: 'f32', dims: DIMS, device: exe.addressableDevices()[0]! });
  return readF32(await soleOutput(await exe.execute([[x]], { argsExtension: ext })).toHost({ dtype: 'f32', dims: DIMS }));
}

t.case('compile_with_profiler_extension', {
  source: 'framework',
  cite: `${CHAIN_CITE} (InitializeArgsAndCompile): a plugin that refuses or misreads that chain cannot compile any JAX program`,
  catches: ['args_extension_start_rejected', 'args_profiler_api_assumed'],
}).run(async ({ client }) => {
  await compileWith(client);
});

t.case('execute_with_profiler_extension', {
  source: 'framework',
  cite: `${CHAIN_CITE} (PjRtCApiLoadedExecutable::Execute): the call must run the program as without it`,
  catches: ['args_extension_start_rejected', 'args_profiler_api_assumed'],
}).run(async ({ client }) => {
  const out = await runAddOne(client, await client.compileCached(await programFor(client, addOne(DIMS))));
  check.ok(check.deepEqual(out, [2, 3, 4, 5]), 'x + 1 with a Profiler extension on the Execute Args', '[2,3,4,5]', JSON.stringify(out));
});

t.case('unknown_args_extension_skipped', {
  source: 'quality',
  cite: 'PJRT_Extension_Base: "The framework can go through this chain to find an extension" — a reader looks for the types it knows and skips the rest (pjrt::FindExtension); a newer framework may chain a type an older plugin has never heard of',
  catches: ['args_extension_start_rejected'],
}).run(async ({ client }) => {
  const chain = (): ReturnType<typeof argsExtension> => argsExtension({ type: UNKNOWN_TYPE, next: argsExtension({ tracemeContextId: 44n }) });
  const exe = await compileWith(client, chain());
  const out = await runAddOne(client, exe, chain());
  check.ok(check.deepEqual(out, [2, 3, 4, 5]), 'x + 1 with an unknown extension type chained before the Profiler extension', '[2,3,4,5]', JSON.stringify(out));
});
