// Tier 2 — input donation. The header makes donation a hint: a program marks donors (XLA reads the argument
// attributes `jax.buffer_donor` and `tf.aliasing_output`), `PJRT_ExecuteOptions.non_donatable_input_indices` lets
// the caller forbid it, and a plugin may decline to donate. A caller tells that an input was donated by
// PJRT_Buffer_IsDeleted after Execute (what JAX's Array.is_deleted() reads; XLA's buffers report a donated buffer
// as deleted). Cases about what follows a donation apply only when the plugin took it.
import { area, type CaseContext } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { BASIC_EXECUTE, compileText } from '../_lib/exec.js';
import { f32, readF32 } from '../_lib/patterns.js';
import type { Buffer, Client, LoadedExecutable } from '../../src/pjrt/index.js';
import { soleOutput } from '../_lib/outputs.js';

const t = area('tier2.donation', { tier: 2, dependsOn: BASIC_EXECUTE, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute', 'PJRT_Buffer_IsDeleted'] } });

/** The two ways XLA reads a donor from a StableHLO module's argument attributes. */
const DONOR_ATTR = {
  jax: '{jax.buffer_donor = true}',
  tf: '{tf.aliasing_output = 0 : i32}',
} as const;
type DonorKind = keyof typeof DONOR_ATTR;

/** a + b with %arg0 marked as a donor; the result has a's shape, so it can take a's memory. */
function donorProgram(kind: DonorKind): string {
  const t4 = 'tensor<4xf32>';
  return `module @jit_add_donor_${kind} {
  func.func public @main(%arg0: ${t4} ${DONOR_ATTR[kind]}, %arg1: ${t4}) -> ${t4} {
    %0 = stablehlo.add %arg0, %arg1 : ${t4}
    return %0 : ${t4}
  }
}
`;
}

/** Every output of the donor program: f32[4] (read into a destination of that size, no size query). */
const F32_4 = { dtype: 'f32', dims: [4] } as const;
const A = [1, 2, 3, 4];
const B = [10, 20, 30, 40];
const SUM = [11, 22, 33, 44];

async function setup(client: Client, kind: DonorKind = 'jax'): Promise<{ exe: LoadedExecutable; a: Buffer; b: Buffer; fresh: (xs: number[]) => Promise<Buffer> }> {
  const exe = await compileText(client, donorProgram(kind));
  const device = exe.addressableDevices()[0]!;
  const fresh = (xs: number[]) => client.upload(f32(xs), { dtype: 'f32', dims: [4], device });
  return { exe, a: await fresh(A), b: await fresh(B), fresh };
}

/**
 * Executes once with a donor that is not donated (non_donatable) — the positive control that the program runs
 * and its inputs are readable — then once donating `a`. Returns whether the plugin took the donation.
 */
async function donateA(ctx: CaseContext<unknown>): Promise<{ exe: LoadedExecutable; a: Buffer; b: Buffer; donated: boolean }> {
  const { exe, a, b } = await setup(ctx.client);
  await check.control('read the donor input before any execution', async () => {
    await a.readyEvent().await();
    check.equal(readF32(await a.toHost()), A, 'the uploaded input holds its values');
  });
  await check.control('execute with the same inputs, donation forbidden by non_donatable_input_indices', async () => {
    await soleOutput(await exe.execute([[a, b]], { nonDonatable: [0] })).toHost(F32_4);
  });
  await exe.execute([[a, b]]);
  return { exe, a, b, donated: a.isDeleted() };
}

const DECLINED = 'the plugin declined to donate input 0 (PJRT_Buffer_IsDeleted is false after Execute); donation is a hint, so there is no donated buffer to use';

t.case('donated_input_deleted', {
  source: 'quality',
  cite: 'donation is only a hint in pjrt_c_api.h (non_donatable_input_indices; a plugin may decline), but a user who marks an argument jax.buffer_donor (jax.jit donate_argnums) expects its memory to be reused: a plugin that never donates doubles the peak memory of in-place updates',
  catches: ['donation_ignored'],
}).run(async ({ client }) => {
  const { exe, a, b } = await setup(client, 'jax');
  await exe.execute([[a, b]]);
  check.equal(a.isDeleted(), true, 'an input marked jax.buffer_donor should be donated (IsDeleted after Execute); declining is allowed but wastes memory');
});

t.case('aliased_input_deleted', {
  source: 'quality',
  cite: 'as donated_input_deleted, for the other donor marking XLA reads: tf.aliasing_output (TensorFlow, and JAX for aliased outputs) — a plugin that ignores it never reuses the input memory',
  catches: ['donation_ignored'],
}).run(async ({ client }) => {
  const { exe, a, b } = await setup(client, 'tf');
  await exe.execute([[a, b]]);
  check.equal(a.isDeleted(), true, 'an input marked tf.aliasing_output should be donated (IsDeleted after Execute); declining is allowed but wastes memory');
});

t.case('donating_program_computes', {
  source: 'header',
  cite: 'PJRT_LoadedExecutable_Execute: "Executes on devices addressable by the client", outputs in output_lists; donation (non_donatable_input_indices) concerns only where inputs live, never the result',
  catches: ['op_off_by_one=add'],
}).params([{ id: 'jax_buffer_donor', kind: 'jax' as DonorKind }, { id: 'tf_aliasing_output', kind: 'tf' as DonorKind }])
  .run(async ({ client, p }) => {
    const { exe, a, b } = await setup(client, p.kind);
    check.equal(readF32(await soleOutput(await exe.execute([[a, b]])).toHost(F32_4)), SUM, `a program with a donor argument (${DONOR_ATTR[p.kind]}) must compute a + b whether or not the plugin donates`);
  });

t.case('non_donor_input_alive', {
  source: 'header',
  cite: 'PJRT_Buffer_IsDeleted: "True if and only if PJRT_Buffer_Delete has previously been called"; only inputs the program marks (may-alias) are candidates for donation (PJRT_ExecuteOptions.non_donatable_input_indices doc)',
  catches: ['donates_non_donor'],
}).run(async ({ client }) => {
  const { exe, a, b } = await setup(client);
  await exe.execute([[a, b]]);
  check.equal(b.isDeleted(), false, 'an input the program does not mark as a donor must not be consumed by Execute (IsDeleted stays false)');
  check.equal(readF32(await b.toHost()), B, 'an input the program does not mark as a donor must keep its values');
});

t.case('undonated_input_intact', {
  source: 'framework',
  cite: 'JAX tells a donated array by PJRT_Buffer_IsDeleted (jax/_src/array.py ArrayImpl.is_deleted / _check_if_deleted raise "Array has been deleted"); an input that does not report deleted is read again as-is, so a plugin that declines a donation must leave the input intact',
  catches: ['is_deleted_stale'],
}).run(async ({ client }) => {
  const { exe, a, b } = await setup(client);
  await exe.execute([[a, b]]);
  if (a.isDeleted()) return; // donated: use_after_donation_errors covers what follows
  const r = await check.okOrCleanError(() => a.toHost(), 'reading an input that IsDeleted reports alive');
  check.ok(r.error === undefined, 'an input that PJRT_Buffer_IsDeleted reports alive after Execute (donation declined) must stay readable', 'its values', () => `${r.error!.codeName} "${r.error!.message}"`);
  check.equal(readF32(r.value!), A, 'an input whose donation was declined must keep its values');
});

t.case('non_donatable_honoured', {
  source: 'header',
  cite: 'PJRT_ExecuteOptions.non_donatable_input_indices: "A list of indices denoting the input buffers that should not be donated … a higher-level PJRT caller can instruct PJRT client not to donate specific input buffers"',
  catches: ['donates_non_donatable'],
}).run(async ({ client }) => {
  const { exe, a, b } = await setup(client);
  await exe.execute([[a, b]], { nonDonatable: [0] });
  check.equal(a.isDeleted(), false, 'an input listed in non_donatable_input_indices must not be donated (IsDeleted stays false)');
  check.equal(readF32(await a.toHost()), A, 'an input listed in non_donatable_input_indices must keep its contents');
});

t.case('ready_event_after_donation_errors', {
  source: 'header',
  cite: 'PJRT_Buffer_ReadyEvent: "If the buffer has been deleted or donated, the returned event will immediately indicate an error"',
  control: 'the input is read, and the program executed with donation forbidden, before the donating execution; the input\'s ready event before donation completes without error',
  catches: ['ready_event_ignores_deletion'],
}).run(async (ctx) => {
  const { a, donated } = await donateA(ctx);
  if (!donated) return ctx.unsupported(DECLINED);
  const ev = a.readyEvent();
  check.equal(ev.isReady(), true, 'the ready event of a donated buffer must indicate its error immediately (IsReady true at once)');
  await check.rejects(() => ev.await(), 'the ready event of a donated buffer must carry an error');
});

t.case('use_after_donation_errors', {
  source: 'header',
  cite: 'PJRT_Buffer_ReadyEvent: "If the buffer has been deleted or donated, the returned event will immediately indicate an error" — a donated buffer has no value to copy, so PJRT_Buffer_ToHostBuffer of it must report an error (any code; at the call or through its event)',
  control: 'the input is read, and the program executed with donation forbidden, before the donating execution',
  catches: ['use_after_delete_crashes'],
}).run(async (ctx) => {
  const { a, donated } = await donateA(ctx);
  if (!donated) return ctx.unsupported(DECLINED);
  await check.rejects(() => a.toHost(), 'reading a donated buffer (IsDeleted after Execute) must fail: it has been consumed');
});

t.case('double_donation_rejected', {
  source: 'header',
  cite: 'PJRT_Buffer_ReadyEvent: "If the buffer has been deleted or donated, the returned event will immediately indicate an error" — an execution whose input was already donated has no input value, so it must fail (any code; at the call or through its outputs)',
  control: 'the same program executes with the same arguments before the first donation (donation forbidden), and the donating execution succeeds',
  catches: ['execute_no_arg_check'],
}).run(async (ctx) => {
  const { exe, a, b, donated } = await donateA(ctx);
  if (!donated) return ctx.unsupported(DECLINED);
  await check.rejects(async () => {
    return soleOutput(await exe.execute([[a, b]])).toHost(F32_4);
  }, 'executing with an already-donated buffer must fail cleanly (an error from Execute or in its outputs), not compute or crash');
});
