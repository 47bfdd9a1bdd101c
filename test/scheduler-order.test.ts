// The scheduler's queue: slow cases start first, and a case sent ahead to a worker that then dies is run by the next
// worker instead of being charged with the death.
import assert from 'node:assert/strict';
import { loadCatalogue } from '../src/runner/catalogue.js';
import { schedule, type RawResult } from '../src/runner/scheduler.js';
import type { CatalogueEntry } from '../src/harness/types.js';
import type { ResolvedPlugin } from '../src/config/resolved-plugin.js';
import { FAKE_SUITES } from './runner-helpers.js';

const NO_PLUGIN: ResolvedPlugin = { name: 'none', library: '/dev/null', createOptions: {}, env: {}, rtldGlobal: false };

describe('scheduler queue (fake suites)', function () {
  this.timeout(60_000);
  let catalogue: CatalogueEntry[];
  const saved = process.env['PJRT_CTS_SUITES'];
  before(async () => {
    process.env['PJRT_CTS_SUITES'] = FAKE_SUITES;
    catalogue = await loadCatalogue();
  });
  after(() => {
    if (saved === undefined) delete process.env['PJRT_CTS_SUITES'];
    else process.env['PJRT_CTS_SUITES'] = saved;
  });
  const entry = (id: string): CatalogueEntry => {
    const e = catalogue.find((c) => c.id === id);
    assert.ok(e, id);
    return { ...e };
  };
  const run = async (cases: CatalogueEntry[]) => {
    const started: string[] = [];
    const results: RawResult[] = [];
    const { counters } = await schedule(
      { cases, plugin: NO_PLUGIN, jobs: 1, retries: 0, defaultTimeoutMs: 20_000 },
      { onStart: (id) => started.push(id), onResult: (r) => results.push(r) },
    );
    return { started, status: Object.fromEntries(results.map((r) => [r.entry.id, r.status])), counters };
  };

  it('starts tier 0, then the cases marked slow, then the others, each in its order', async () => {
    const ids = ['tier0.basic.pass.a.x', 'tier0.basic.pass.a.y', 'tier0.basic.pass.b.x', 'tier0.basic.pass.b.y'];
    // Only the scheduler reads tier and slow: the worker runs the case by id.
    const cases = ids.map(entry).map((e) => ({ ...e, tier: 1 }));
    cases[2] = { ...cases[2]!, slow: true };
    cases[3] = { ...cases[3]!, slow: true };
    const { started } = await run([...cases, entry('tier0.basic.fail')]);
    assert.deepEqual(started, ['tier0.basic.fail', 'tier0.basic.pass.b.x', 'tier0.basic.pass.b.y', 'tier0.basic.pass.a.x', 'tier0.basic.pass.a.y']);
  });

  it('a case sent ahead to a worker that crashes runs in the next worker, uncharged', async () => {
    // The queue is long enough that the worker is sent its first two cases at once: the crashing one and the next.
    const pass = ['a.x', 'a.y', 'b.x', 'b.y'].map((p) => entry(`tier0.basic.pass.${p}`));
    const queue = [entry('tier1.faults.segv'), ...pass, entry('tier0.basic.fail')].map((e) => ({ ...e, tier: 1 }));
    const { status, counters, started } = await run(queue);
    assert.equal(status['tier1.faults.segv'], 'crash');
    for (const e of pass) assert.equal(status[e.id], 'pass', e.id);
    assert.equal(status['tier0.basic.fail'], 'fail');
    assert.equal(counters.workersStarted, 2);
    assert.deepEqual(started.slice(0, 2), ['tier1.faults.segv', 'tier0.basic.pass.a.x'], 'the case held behind the crash started once, in the new worker');
  });
});
