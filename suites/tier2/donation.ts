// Tier 2 — input donation: donated inputs are consumed, non-donatable indices honoured, double donation rejected.
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { compileText } from '../_lib/exec.js';
import { f32, readF32 } from '../_lib/patterns.js';
import { addOneDonor } from '../_lib/programs.js';
import type { Client } from '../../src/pjrt/index.js';

const t = area('tier2.donation', { tier: 2, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute', 'PJRT_Buffer_IsDeleted'] } });

async function setup(client: Client) {
  const exe = await compileText(client, addOneDonor([4]));
  const device = exe.addressableDevices()[0]!;
  const up = (xs: number[]) => client.upload(f32(xs), { dtype: 'f32', dims: [4], device });
  return { exe, a: await up([1, 2, 3, 4]), b: await up([10, 20, 30, 40]) };
}

t.case('donated_input_deleted', { catches: ['donation_ignored'] }).run(async ({ client }) => {
  const { exe, a, b } = await setup(client);
  const { outputs } = await exe.execute([[a, b]]);
  check.equal(readF32(await outputs[0]![0]!.toHost()), [11, 22, 33, 44], 'the donating program must compute a + b');
  check.equal(a.isDeleted(), true, 'an input donated to Execute (jax.buffer_donor) must be deleted afterwards');
  check.equal(b.isDeleted(), false, 'an input that is not a donor must stay alive');
});

t.case('non_donatable_honoured', { catches: ['donates_non_donatable'] }).run(async ({ client }) => {
  const { exe, a, b } = await setup(client);
  await exe.execute([[a, b]], { nonDonatable: [0] });
  check.equal(a.isDeleted(), false, 'an input listed in non_donatable_input_indices must not be donated');
  check.equal(readF32(await a.toHost()), [1, 2, 3, 4], 'a non-donated input must keep its contents');
});

t.case('use_after_donation_errors', { catches: ['donation_ignored'] }).run(async ({ client }) => {
  const { exe, a, b } = await setup(client);
  await exe.execute([[a, b]]);
  await check.rejects(() => a.toHost(), 'reading a donated buffer must fail (it has been consumed)');
});

t.case('double_donation_rejected', { catches: ['donation_ignored'] }).run(async ({ client }) => {
  const { exe, a, b } = await setup(client);
  await exe.execute([[a, b]]);
  await check.rejects(() => exe.execute([[a, b]]), 'executing with an already-donated buffer must be rejected cleanly (not crash)');
});
