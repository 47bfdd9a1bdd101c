// Tier 2 — ahead-of-time compilation: PJRT_Compile against a topology (no client), PJRT_Client_Load of the result,
// serialization of an AOT executable, and compiling against a created topology. A plugin without an AOT compiler
// for its platform makes a case unsupported (see _lib/aot.ts).
import { area, programFor, type CaseContext } from '../../src/harness/index.js';
import type { Client, Executable, LoadedExecutable, Program, TopologyDescription } from '../../src/pjrt/index.js';
import type { CompileOptions } from '../../src/proto/index.js';
import * as check from '../_lib/check.js';
import { topologyCreateOptions } from '../../src/harness/compile-only.js';
import { noCompilerIsUnsupported } from '../_lib/aot.js';
import { BASIC_EXECUTE, compileText } from '../_lib/exec.js';
import { f32, readF32 } from '../_lib/patterns.js';
import { addAndMul } from '../_lib/programs.js';
import { checkedOutputs } from '../_lib/outputs.js';

const t = area('tier2.aot', { tier: 2, requires: { slots: ['PJRT_Compile', 'PJRT_Client_TopologyDescription'] } });

/**
 * PJRT_Compile of `code` against `topology`; a platform without an AOT compiler is unsupported (_lib/aot.ts). Against
 * the client's own runtime topology the client is passed too, as PjRtCApiClient::Compile passes `args.client = this`;
 * against a created topology none, as JAX's deviceless compile does.
 */
async function aotCompile(ctx: CaseContext<unknown>, target: { topology: TopologyDescription; client?: Client }, code: string, options: CompileOptions = {}): Promise<Executable> {
  const program: Program = await programFor(ctx.client, code); // the form the plugin compiles (text or artifact)
  return noCompilerIsUnsupported(ctx, () => ctx.plugin.compile(target.topology, program, options, { scope: ctx.scope, ...(target.client ? { client: target.client } : {}) }), target);
}

/** The client's runtime topology (with the client, to compile for it); UNIMPLEMENTED is unsupported. */
async function runtimeTopology(ctx: CaseContext<unknown>): Promise<{ topology: TopologyDescription; client: Client }> {
  const topology = await check.unimplementedIsUnsupported(ctx, 'the client has no runtime topology', () => ctx.client.topology());
  return { topology, client: ctx.client };
}

/** Outputs of addAndMul([3]) on (1,2,3), (4,5,6) on the executable's first device. */
async function outputsOf(client: Client, exe: LoadedExecutable): Promise<number[][]> {
  const dev = exe.addressableDevices()[0]!;
  const a = await client.upload(f32([1, 2, 3]), { dtype: 'f32', dims: [3], device: dev });
  const b = await client.upload(f32([4, 5, 6]), { dtype: 'f32', dims: [3], device: dev });
  const outputs = checkedOutputs(await exe.execute([[a, b]]), 2);
  return Promise.all(outputs[0]!.map(async (o) => readF32(await o.toHost({ dtype: 'f32', dims: [3] }))));
}

t.case('compile_load_execute', {
  source: 'header',
  cite: 'PJRT_Compile: "Compiles a program in specified format (such as MLIR or HLO) with given `options`. The returned executable must be loaded by a compatible PJRT_Client before execution"; PJRT_Client_Load: "Loads a PJRT_Executable" — the client\'s own runtime topology is compatible, and the loaded program computes what PJRT_Client_Compile\'s does',
  catches: ['crash_in=PJRT_Compile', 'crash_in=PJRT_Client_Load'],
  dependsOn: BASIC_EXECUTE,
  requires: { slots: ['PJRT_Client_Load'] },
}).run(async (ctx) => {
  const exe = await aotCompile(ctx, await runtimeTopology(ctx), addAndMul([3]));
  const loaded = await ctx.client.load(exe);
  const direct = await compileText(ctx.client, addAndMul([3]));
  check.equal(await outputsOf(ctx.client, loaded), await outputsOf(ctx.client, direct), 'an AOT-compiled, loaded executable must compute what a client compile of the same program computes');
});

t.case('compile_keeps_device_assignment', {
  source: 'header',
  cite: 'PJRT_Compile "with given `options`" (a "Serialized CompileOptionsProto", whose device_assignment places the computation); PJRT_LoadedExecutable_AddressableDevices: "a list of devices this executable will run on" — after PJRT_Client_Load, the assigned device',
  catches: ['aot_compile_ignores_options', 'client_load_wrong_devices'],
  requires: { slots: ['PJRT_Client_Load', 'PJRT_LoadedExecutable_AddressableDevices'] },
}).run(async (ctx) => {
  if (ctx.devices.length < 2) return ctx.skip('needs two addressable devices');
  const target = ctx.devices[ctx.devices.length - 1]!;
  const exe = await aotCompile(ctx, await runtimeTopology(ctx), addAndMul([3]), { deviceAssignment: [[target.id]] });
  const loaded = await ctx.client.load(exe);
  check.equal(loaded.addressableDevices().map((d) => d.id), [target.id], 'an AOT executable assigned to one device must be loaded onto that device');
});

t.case('serialize_deserialize_execute', {
  source: 'header',
  cite: 'PJRT_Executable_Serialize: "Returns a platform-specific serialization of `executable`"; PJRT_Executable_DeserializeAndLoad: "Deserializes an executable serialized by `PJRT_Executable_Serialize`" — an AOT executable\'s serialization loads and computes what the program computes (serialization UNIMPLEMENTED → unsupported)',
  catches: ['deserialize_different_program'],
  dependsOn: BASIC_EXECUTE,
  requires: { slots: ['PJRT_Executable_Serialize', 'PJRT_Executable_DeserializeAndLoad'] },
}).run(async (ctx) => {
  const exe = await aotCompile(ctx, await runtimeTopology(ctx), addAndMul([3]));
  const bytes = await check.unimplementedIsUnsupported(ctx, 'serialization is platform-specific', () => exe.serialize());
  const loaded = await check.unimplementedIsUnsupported(ctx, 'serialization is platform-specific', () => ctx.client.deserializeAndLoad(bytes));
  const direct = await compileText(ctx.client, addAndMul([3]));
  check.equal(await outputsOf(ctx.client, loaded), await outputsOf(ctx.client, direct), 'a deserialized AOT executable must compute what a client compile of the same program computes');
});

t.case('compile_against_created_topology', {
  source: 'header',
  cite: 'PJRT_TopologyDescription_Create "Creates and initializes a new PJRT_TopologyDescription"; PJRT_Compile compiles against a topology without a client; PJRT_Executable_NumOutputs "Gets the number of outputs per device produced by `executable`" — two for (a + b, a * b). Create or Compile UNIMPLEMENTED (XLA\'s CPU plugin) → unsupported',
  catches: ['topology_create_empty'],
  requires: { slots: ['PJRT_TopologyDescription_Create', 'PJRT_Executable_NumOutputs'] },
}).run(async (ctx) => {
  const topology = await check.unimplementedIsUnsupported(ctx, 'the platform cannot create topologies', () =>
    ctx.plugin.createTopology({ options: topologyCreateOptions(ctx.config), scope: ctx.scope }),
  );
  const exe = await aotCompile(ctx, { topology }, addAndMul([3]));
  check.equal(exe.numOutputs(), 2, 'NumOutputs of (a + b, a * b) compiled against a created topology');
});
