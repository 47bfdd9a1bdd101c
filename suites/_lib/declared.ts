// A case that runs a program it declared (src/harness/suite-programs.ts) checks the outputs against the declaration,
// as a corpus case checks its sidecar's: exactly (a float NaN is any NaN, the sign of a zero counts), an
// implementation-defined output not at all, one finding per output that differs — the words the reproducer's script
// prints (src/corpus/verdict.ts).
import { compareBytes, DECLARED_EXPECTED, findingsText, instanceLabel, outputLabel } from '../../src/corpus/index.js';
import { declaredProgram, type CaseContext } from '../../src/harness/index.js';
import * as check from './check.js';

/** `got`: per replica, per output, its host bytes. */
export function checkDeclared(ctx: CaseContext<unknown>, got: readonly (readonly Uint8Array[])[]): void {
  const p = declaredProgram(ctx.id, ctx.client.addressableDevices().length);
  if (p === undefined || typeof p === 'string') throw new Error(`${ctx.id} declares no program${p ? ` for this client: ${p}` : ''}`);
  const problems: string[] = [];
  p.outputs.forEach((want, r) => {
    const who = instanceLabel(r, p.replicas, 1);
    const row = got[r] ?? [];
    if (row.length !== want.length) problems.push(`${who ? `${who}: ` : ''}expected ${want.length} outputs, got ${row.length}`);
    want.slice(0, row.length).forEach((o, k) => {
      if (o.anyValue !== undefined || o.data === undefined) return;
      const m = compareBytes(o.dtype, o.dims, o.data, row[k]!, {}, outputLabel(who, k));
      if (m) problems.push(m);
    });
  });
  if (problems.length) check.fail(p.rule, DECLARED_EXPECTED, findingsText(problems));
}
