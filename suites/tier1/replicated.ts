// Tier 1 — replicated execution over the default device assignment: pmap(x + psum(x)), replica_id and
// every collective, each on one device and on every addressable device, checked against computed values.
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { runReplicated } from '../_lib/exec.js';
import { f32, readF32 } from '../_lib/patterns.js';
import * as prog from '../_lib/programs.js';
import type { CollectiveProgram } from '../_lib/programs.js';

const t = area('tier1.replicated', {
  tier: 1,
  requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute', 'PJRT_Client_DefaultDeviceAssignment'] },
});

const SPANS = [
  { id: 'one', count: (_n: number) => 1 },
  { id: 'all', count: (n: number) => n },
];

// psum over all replicas cannot tell wrong groups; collective.all_reduce_singleton_groups.all catches that.
t.case('pmap_psum', { catches: ['op_off_by_one=add'] })
  .params(SPANS)
  .run(async ({ client, p }) => {
    const n = p.count(client.addressableDevices().length);
    const xs = prog.iota(n);
    const sum = xs.reduce((a, b) => a + b, 0);
    const out = await runReplicated(client, prog.pmapPsum(n), n, xs.map((x) => [{ dtype: 'f32', dims: [1], data: f32([x]) }]));
    check.equal(out.map((o) => readF32(o[0]!)[0]), xs.map((x) => x + sum), `pmap(x + psum(x)) over arange(${n}) must give each element plus the sum`);
  });

// On one replica the right id is 0 anyway.
t.case('replica_id', { catches: (p: { id: string }) => (p.id === 'all' ? ['replica_id_zero'] : ['crash_in=PJRT_LoadedExecutable_Execute']) })
  .params(SPANS)
  .run(async (ctx) => {
    const n = ctx.p.count(ctx.client.addressableDevices().length);
    const out = await runReplicated(ctx.client, prog.replicaId(n), n, prog.iota(n).map(() => []));
    const ids = out.map((o) => new Uint32Array(o[0]!.slice().buffer)[0]);
    check.equal(ids, prog.iota(n), 'stablehlo.replica_id must return each replica its own index');
  });

const COLLECTIVES: readonly { id: string; make: (n: number) => CollectiveProgram; catches: string[]; minDevices?: number }[] = [
  { id: 'all_reduce', make: (n) => prog.allReduce(n), catches: ['crash_in=PJRT_LoadedExecutable_Execute'] },
  { id: 'all_reduce_singleton_groups', make: (n) => prog.allReduce(n, prog.iota(n).map((r) => [r])), catches: ['all_reduce_wrong_groups'], minDevices: 2 },
  { id: 'all_gather', make: (n) => prog.allGather(n), catches: ['crash_in=PJRT_LoadedExecutable_Execute'] },
  { id: 'reduce_scatter', make: (n) => prog.reduceScatter(n), catches: ['crash_in=PJRT_LoadedExecutable_Execute'] },
  { id: 'all_to_all', make: (n) => prog.allToAll(n), catches: ['crash_in=PJRT_LoadedExecutable_Execute'] },
  {
    id: 'collective_permute',
    make: (n) => prog.collectivePermute(n, n === 1 ? [[0, 0]] : prog.iota(n - 1).map((r) => [r, r + 1] as [number, number])),
    catches: ['collective_permute_reversed'],
    minDevices: 2,
  },
];

const collectiveRows = COLLECTIVES.flatMap((c) => SPANS.map((s) => ({ ...c, id: `${c.id}.${s.id}`, span: s })));

t.case('collective', { catches: (p: { catches: string[]; span: { id: string } }) => (p.span.id === 'all' ? p.catches : ['crash_in=PJRT_LoadedExecutable_Execute']) })
  .params(collectiveRows)
  .run(async (ctx) => {
    const p = ctx.p;
    const n = p.span.count(ctx.client.addressableDevices().length);
    if (p.span.id === 'all' && n < (p.minDevices ?? 1)) return ctx.skip(`needs ${p.minDevices} addressable devices`);
    const c = p.make(n);
    const out = await runReplicated(ctx.client, c.text, n, c.inputs.map((x) => [{ dtype: 'f32', dims: c.inputDims, data: f32(x) }]));
    check.equal(out.map((o) => readF32(o[0]!)), c.outputs, `${p.id} over ${n} replica(s) must give the values the StableHLO spec defines`);
  });
