// Tier 1 — the program corpus (fixtures/programs): each program compiled, run on its inputs (per replica),
// and its outputs compared with the sidecar's expected values. Records the op × dtype capability matrix.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { area, externalProgramsDir, type CaseContext } from '../../src/harness/index.js';
import { dtype } from '../../src/abi/index.js';
import { compareValue, loadCorpus, type CorpusEntry, type HostValue } from '../../src/corpus/index.js';
import { packageRoot } from '../../src/runner/paths.js';
import * as check from '../_lib/check.js';
import { isPjrtError } from '../_lib/errors.js';
import { assignment } from '../_lib/exec.js';

const t = area('tier1.program', { tier: 1, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute'] } });

/** Whether adding one to every element of `v` changes it (the op_off_by_one fault on a one-op program's result). */
function plusOneShows(v: HostValue): boolean {
  const d = dtype(v.dtype);
  const data = v.spec.data;
  if (d.kind === 'pred') return data.some((x) => x === false);
  if (d.kind === 'float') return data.some((x) => x === '-0' || (typeof x === 'number' && Math.abs(x) < 2 ** (d.mantissaBits ?? 0)));
  return (d.kind === 'sint' || d.kind === 'uint') && data.length > 0;
}

/** A one-op program returns that op's result, so `op_off_by_one=<op>` shows wherever +1 does. Other programs
 *  (regions, branches, reducers) catch the execute crash; their semantic faults are claimed by tier1.execute. */
function catchesOf(e: CorpusEntry): string[] {
  const [op] = e.ops;
  if (e.ops.length === 1 && op && e.outputs.flat().some(plusOneShows)) return [`op_off_by_one=${op}`];
  return ['crash_in=PJRT_LoadedExecutable_Execute'];
}

const dir = path.join(packageRoot(), 'fixtures', 'programs');
const entries: CorpusEntry[] = existsSync(dir) ? loadCorpus(dir) : [];
const rows = entries.map((e) => ({ id: e.name, entry: e }));

async function runEntry(ctx: CaseContext<unknown>, e: CorpusEntry): Promise<Uint8Array[][]> {
  const { client } = ctx;
  const n = e.replicas;
  if (client.addressableDevices().length < n) ctx.skip(`needs ${n} addressable devices`);
  const da = assignment(client, n);
  let exe;
  try {
    exe = await client.compile({ code: e.program, format: 'mlir' }, { numReplicas: n, deviceAssignment: da });
  } catch (err) {
    if (isPjrtError(err) && err.codeName === 'UNIMPLEMENTED') {
      for (const op of e.ops) for (const d of e.dtypes) ctx.capability(`${op}/${d}`, false);
      ctx.unsupported(`compile: ${err.message}`);
    }
    throw err;
  }
  const args = await Promise.all(
    da.map(([id], r) => Promise.all(e.inputs[r]!.map((v) => client.upload(v.bytes, { dtype: v.dtype, dims: v.dims, device: client.lookupDevice(id!) })))),
  );
  const { outputs } = await exe.execute(args);
  return Promise.all(outputs.map((row) => Promise.all(row.map((b) => b.toHost()))));
}

/** Runs one corpus program and compares every replica's outputs with the sidecar's values. */
async function checkEntry(ctx: CaseContext<{ entry: CorpusEntry }>): Promise<void> {
  const e = ctx.p.entry;
  const got = await runEntry(ctx, e);
  const problems: string[] = [];
  e.outputs.forEach((outs, r) => {
    check.equal(got[r]!.length, outs.length, `${e.name}: replica ${r} must return every result of the program`);
    outs.forEach((want, k) => {
      const why = compareValue(want.spec, got[r]![k]!, want.tolerance, `replica ${r} output ${k}`);
      if (why) problems.push(why);
    });
  });
  for (const op of e.ops) for (const d of e.dtypes) ctx.capability(`${op}/${d}`, problems.length === 0);
  if (problems.length) check.fail(`${e.name}: results must match the StableHLO reference values (${e.description})`, 'the sidecar outputs', problems.join('; '));
}

if (rows.length > 0) {
  t.case('run', { catches: (p: { entry: CorpusEntry }) => catchesOf(p.entry) }).params(rows).run(checkEntry);
}

// --programs <dir>: a vendor's own corpus in the same format, as external.program.run.<name>.
const externalDir = externalProgramsDir();
if (externalDir) {
  const external = area('external.program', { tier: 1, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute'] } });
  const externalRows = loadCorpus(externalDir, { idPrefix: 'external.program' }).map((e) => ({ id: e.name, entry: e }));
  if (externalRows.length > 0) {
    external.case('run', { catches: ['crash_in=PJRT_LoadedExecutable_Execute'] }).params(externalRows).run(checkEntry);
  }
}
