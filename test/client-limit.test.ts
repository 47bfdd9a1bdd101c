// One live client per process given only as a create option (#28 item 4): the four cases that create a client of
// their own pass on both personalities and the limit is recorded. The plugin states the limit (FAILED_PRECONDITION
// while another client lives), so the case that needs two clients is unsupported with the plugin's words, and one that
// wanted a second, slow client says that is why it could not observe (#34 item 6); a plugin that refuses a second
// client with INTERNAL states no limit, and that case warns.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import { ROOT, cli, tmpDir } from './runner-helpers.js';

const PLUGIN = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
const OWN_CLIENT = ['tier0.plugin.initialize', 'tier0.runner.client_create_destroy', 'tier1.client.create_destroy_repeatedly', 'tier1.client.destroy_after_buffer_use'];

describe('one live client per process, given only as a create option', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(PLUGIN)) this.skip();
  });

  it('a second client refused with INTERNAL states no limit: the case that needs two clients warns (single_client_only)', () => {
    const dir = tmpDir();
    try {
      const json = path.join(dir, 'r.json');
      const r = cli(['run', '--filter', 'tier1.client.two_clients_at_once', '--json', json], { env: { PJRT_REFERENCE_FAULTS: 'single_client_only' } });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const res = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
      assert.equal(res.results[0]!.status, 'warn', res.results[0]!.message);
      assert.match(res.results[0]!.message ?? '', /INTERNAL/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const personality of ['reference', 'reference-xla']) {
    it(`${personality}: no case fails; the limit is recorded once`, () => {
      const dir = tmpDir();
      try {
        const json = path.join(dir, 'r.json');
        // A shared case first, so its client lives when the first case of its own asks for another.
        const filters = ['tier0.runner.platform_name', ...OWN_CLIENT, 'tier1.client.two_clients_at_once', 'tier2.events.transfer_not_ready_early',
          'tier2.device_control.poison_execution_by_launch_id'].flatMap((f) => ['--filter', f]);
        const r = cli(['run', '-p', personality, '-o', 'max_live_clients=1', '--jobs', '1', ...filters, '--json', json]);
        assert.equal(r.code, 0, r.stdout + r.stderr);
        const res = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
        const status = Object.fromEntries(res.results.map((x) => [x.id, x.status]));
        for (const id of OWN_CLIENT) assert.equal(status[id], 'pass', `${id}: ${res.results.find((x) => x.id === id)?.message ?? ''}`);
        assert.equal(status['tier2.events.transfer_not_ready_early'], 'pass');
        const two = res.results.find((x) => x.id === 'tier1.client.two_clients_at_once')!;
        assert.equal(two.status, 'unsupported', two.message);
        assert.match(two.message ?? '', /^needs 2 live clients in one process; the plugin allows one live client per process: at tier\S+, PJRT_Client_Create refused another with FAILED_PRECONDITION "PJRT_Client_Create: max_live_clients = 1/);
        const poison = res.results.find((x) => x.id === 'tier2.device_control.poison_execution_by_launch_id')!;
        assert.equal(poison.status, 'skip', poison.message);
        assert.match(poison.message ?? '', /could not be observed; there is no slow client: needs 2 live clients in one process; the plugin allows one live client per process/);
        assert.doesNotMatch(poison.message ?? '', /completionDelayOption/, 'the entry names one: that is not what is missing');
        assert.match(res.counters!.clientLimit ?? '', /^one live client per process: at tier\S+, PJRT_Client_Create failed while the worker's shared client lived \(FAILED_PRECONDITION/);
        assert.equal(res.counters!.sharedClientResets.filter((s) => /retried$/.test(s)).length, 1, 'found once, then the shared client is released first');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
