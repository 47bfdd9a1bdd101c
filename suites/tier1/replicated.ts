// Tier 1 — replicated execution: pmap(x + psum(x)), replica_id and every collective, each on one device and on every
// addressable device, checked against computed values. The device assignment is explicit (the first n addressable
// devices, as PyTorch/XLA's PjRtComputationClient::Compile builds DeviceAssignment(device_count, 1) itself), so these
// cases need no PJRT_Client_DefaultDeviceAssignment; outputs are read into destinations sized from their expected
// dtype and dims (no ToHostBuffer size query).
import { area, declareProgram, params, type SuiteProgram } from '../../src/harness/index.js';
import { checkDeclared } from '../_lib/declared.js';
import { declinedIsUnsupported } from '../_lib/declined.js';
import { runReplicated } from '../_lib/exec.js';
import { f32 } from '../_lib/patterns.js';
import * as prog from '../_lib/programs.js';
import type { CollectiveProgram } from '../_lib/programs.js';

const t = area('tier1.replicated', {
  tier: 1,
  requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute'] },
});

/** Replicated programs: what the StableHLO spec defines, and which framework runs programs this way. */
const SPEC =
  'the StableHLO spec (openxla/stablehlo docs/spec.md) defines replica_id and the cross-replica collectives (all_reduce, all_gather, ' +
  'reduce_scatter, all_to_all, collective_permute over replica_groups / source_target_pairs); PyTorch/XLA runs every non-SPMD program ' +
  'with num_replicas = device count and an explicit DeviceAssignment (torch_xla/csrc/runtime/pjrt_computation_client.cc, ' +
  'PjRtComputationClient::Compile), and JAX lowers lax.psum to stablehlo.all_reduce (jax/_src/lax/parallel.py)';

const SPANS = [
  { id: 'one', count: (_n: number) => 1 },
  { id: 'all', count: (n: number) => n },
];

/** A program over n replicas with each replica's arguments and expected outputs, declared for the reproducers. */
function replicated(id: string, make: (n: number, span: string) => SuiteProgram | string): void {
  for (const span of SPANS) declareProgram(`tier1.replicated.${id}.${span.id}`, (devices: number) => make(span.count(devices), span.id));
}

replicated('pmap_psum', (n) => {
  const xs = prog.iota(n);
  const sum = xs.reduce((a, b) => a + b, 0);
  return {
    description: `pmap(x + psum(x)) over arange(${n})`, rule: `pmap(x + psum(x)) over arange(${n}) must give each element plus the sum`, text: prog.pmapPsum(n), replicas: n,
    inputs: xs.map((x) => [{ dtype: 'f32', dims: [1], data: f32([x]) }]), outputs: xs.map((x) => [{ dtype: 'f32', dims: [1], data: f32([x + sum]) }]),
  };
});
replicated('replica_id', (n) => ({
  description: `stablehlo.replica_id over ${n} replica(s)`, rule: 'stablehlo.replica_id must return each replica its own index', text: prog.replicaId(n), replicas: n,
  inputs: prog.iota(n).map(() => []), outputs: prog.iota(n).map((r) => [{ dtype: 'u32', dims: [], data: new Uint8Array(Uint32Array.from([r]).buffer) }]),
}));

// psum over all replicas cannot tell wrong groups; collective.all_reduce_singleton_groups.all catches that.
t.case('pmap_psum', { description: 'x + psum(x) over the replicas gives each element plus the sum', source: 'framework', cite: `x + psum(x): stablehlo.all_reduce with an add region over one group of all replicas, as lax.psum lowers; ${SPEC}`, catches: ['op_off_by_one=add'] })
  .params(SPANS)
  .run(async (ctx) => {
    const { client, p } = ctx;
    const n = p.count(client.addressableDevices().length);
    checkDeclared(ctx, await declinedIsUnsupported(ctx, ['f32'], () => runReplicated(client, prog.pmapPsum(n), n, prog.iota(n).map((x) => [{ dtype: 'f32', dims: [1], data: f32([x]) }]), [{ dtype: 'f32', dims: [1] }])));
  });

// On one replica the right id is 0 anyway.
t.case('replica_id', { description: 'stablehlo.replica_id gives each replica its own index', source: 'framework', cite: `stablehlo.replica_id returns the replica's index in the device assignment; ${SPEC}`, catches: (p: { id: string }) => (p.id === 'all' ? ['replica_id_zero'] : ['op_off_by_one=replica_id']) })
  .params(SPANS)
  .run(async (ctx) => {
    const n = ctx.p.count(ctx.client.addressableDevices().length);
    checkDeclared(ctx, await declinedIsUnsupported(ctx, ['u32'], () => runReplicated(ctx.client, prog.replicaId(n), n, prog.iota(n).map(() => []), [{ dtype: 'u32', dims: [] }])));
  });

const COLLECTIVES: readonly { id: string; op: string; make: (n: number) => CollectiveProgram; catches: string[]; minDevices?: number }[] = [
  { id: 'all_reduce', op: 'all_reduce', make: (n) => prog.allReduce(n), catches: ['op_off_by_one=all_reduce'] },
  { id: 'all_reduce_singleton_groups', op: 'all_reduce', make: (n) => prog.allReduce(n, prog.iota(n).map((r) => [r])), catches: ['all_reduce_wrong_groups'], minDevices: 2 },
  { id: 'all_gather', op: 'all_gather', make: (n) => prog.allGather(n), catches: ['op_off_by_one=all_gather'] },
  { id: 'reduce_scatter', op: 'reduce_scatter', make: (n) => prog.reduceScatter(n), catches: ['op_off_by_one=reduce_scatter'] },
  { id: 'all_to_all', op: 'all_to_all', make: (n) => prog.allToAll(n), catches: ['op_off_by_one=all_to_all'] },
  {
    id: 'collective_permute',
    op: 'collective_permute',
    make: (n) => prog.collectivePermute(n, n === 1 ? [[0, 0]] : prog.iota(n - 1).map((r) => [r, r + 1] as [number, number])),
    catches: ['collective_permute_reversed'],
    minDevices: 2,
  },
];

for (const c of COLLECTIVES) {
  replicated(`collective.${c.id}`, (n, span) => {
    if (span === 'all' && n < (c.minDevices ?? 1)) return `needs ${c.minDevices} addressable devices`;
    const p = c.make(n);
    return {
      description: `${c.id} over ${n} replica(s)`, rule: `${c.id} over ${n} replica(s) must give the values the StableHLO spec defines`, text: p.text, replicas: n,
      inputs: p.inputs.map((x) => [{ dtype: 'f32', dims: p.inputDims, data: f32(x) }]), outputs: p.outputs.map((y) => [{ dtype: 'f32', dims: [y.length], data: f32(y) }]),
    };
  });
}

const collectiveRows = params().combineWithParams(COLLECTIVES).combine('span', SPANS);

t.case('collective', { description: 'each cross-replica collective computes its spec\'s result on one and on all replicas', source: 'framework', cite: SPEC, catches: (p: { catches: string[]; op: string; span: { id: string } }) => (p.span.id === 'all' ? p.catches : [`op_off_by_one=${p.op}`]) })
  .params(collectiveRows)
  .run(async (ctx) => {
    const p = ctx.p;
    const n = p.span.count(ctx.client.addressableDevices().length);
    if (p.span.id === 'all' && n < (p.minDevices ?? 1)) return ctx.skip(`needs ${p.minDevices} addressable devices`);
    const c = p.make(n);
    checkDeclared(ctx, await declinedIsUnsupported(ctx, ['f32'], () => runReplicated(ctx.client, c.text, n, c.inputs.map((x) => [{ dtype: 'f32', dims: c.inputDims, data: f32(x) }]), [{ dtype: 'f32', dims: [c.outputs[0]!.length] }])));
  });
