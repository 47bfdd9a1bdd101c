// plugins.json `topologyOptions`: options PJRT_TopologyDescription_Create gets over the entry's create options (the GPU
// plugin's `topology` shape, which PJRT_Client_Create rejects). A client of one device, a compile target of four: the
// ahead-of-time cases compile the 4-replica programs the client cannot run, and the results record the options.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cli, ROOT, tmpDir } from './runner-helpers.js';

const LIB = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');

describe('plugins.json topologyOptions', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(LIB)) this.skip();
  });

  it('reach PJRT_TopologyDescription_Create only, over createOptions, and are recorded', function () {
    const dir = tmpDir();
    const config = path.join(dir, 'plugins.json');
    writeFileSync(config, JSON.stringify({
      default: 'one',
      plugins: { one: { library: LIB, createOptions: { device_count: 1 }, topologyOptions: { device_count: 4 } } },
    }));
    const json = path.join(dir, 'r.json');
    const r = cli(['run', '-c', config, '--json', json, '-f', 'tier1.aot_compile.program.all_reduce_add_f32_r4', '-f', 'tier1.program.run.all_reduce_add_f32_r4', '-f', 'tier1.topology.topology_create']);
    const results = JSON.parse(readFileSync(json, 'utf8')) as { plugin: { topologyOptions?: Record<string, unknown> }; results: { id: string; status: string; message?: string }[] };
    const status = Object.fromEntries(results.results.map((x) => [x.id, x.status]));
    assert.deepEqual(status, {
      'tier1.aot_compile.program.all_reduce_add_f32_r4': 'pass',
      'tier1.program.run.all_reduce_add_f32_r4': 'unsupported',
      'tier1.topology.topology_create': 'pass',
    }, r.stdout + r.stderr);
    assert.deepEqual(results.plugin.topologyOptions, { device_count: 4 });
  });
});
