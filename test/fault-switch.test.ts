// The reference plugin's `faults` create option (faults switched per client, as PJRT_REFERENCE_FAULTS switches them per
// process) and the scheduler's per-case create options, which the fault matrix uses to prove many claims in one worker.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CatalogueEntry } from '../src/harness/types.js';
import { loadCatalogue } from '../src/runner/catalogue.js';
import { pluginsFilePath, resolvePlugin } from '../src/runner/plugins.js';
import { schedule } from '../src/runner/scheduler.js';
import { cli, oneErrorLine, ROOT } from './runner-helpers.js';

const PLUGIN = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
/** A header case that claims `error_code_out_of_range` and `empty_error_message` and needs nothing but a client. */
const CASE = 'tier0.errors.provoked.lookup_device_negative';

describe('faults switched per client', function () {
  this.timeout(60_000);
  before(function () {
    if (!existsSync(PLUGIN)) this.skip();
  });

  it('the create option switches a fault on for the run; without it the same case passes', () => {
    const on = cli(['run', '-p', 'reference', '--filter', CASE, '-o', 'faults=error_code_out_of_range']);
    assert.equal(on.code, 1, on.stdout + on.stderr);
    const off = cli(['run', '-p', 'reference', '--filter', CASE]);
    assert.equal(off.code, 0, off.stdout + off.stderr);
  });

  it('rejects a fault read at load and an unknown fault: one line, exit 2', () => {
    oneErrorLine(cli(['run', '-p', 'reference', '--filter', CASE, '-o', 'faults=crash_in=PJRT_Client_Create']), /option faults: fault 'crash_in' is read once, when GetPjrtApi builds the API table/);
    oneErrorLine(cli(['run', '-p', 'reference', '--filter', CASE, '-o', 'faults=no_such_fault']), /option faults: unknown fault 'no_such_fault'/);
  });

  it('one worker runs cases under different faults in a row, switching back to none', async () => {
    const plugin = resolvePlugin(pluginsFilePath(), 'reference');
    const entry = (await loadCatalogue()).find((e) => e.id === CASE)!;
    const runs: [CatalogueEntry, string][] = [[{ ...entry }, ''], [{ ...entry }, 'error_code_out_of_range'], [{ ...entry }, 'wrong_error_code,empty_error_message'], [{ ...entry }, '']];
    const faultsOf = new Map(runs);
    const statuses: string[] = [];
    const { counters } = await schedule(
      { cases: runs.map(([e]) => e), plugin, jobs: 1, retries: 0, defaultTimeoutMs: 10_000, createOptionsFor: (e) => ({ ...plugin.createOptions, faults: faultsOf.get(e)! }) },
      { onResult: (r) => statuses.push(r.status) },
    );
    assert.deepEqual(statuses, ['pass', 'fail', 'fail', 'pass']);
    assert.equal(counters.workersStarted, 1);
  });
});
