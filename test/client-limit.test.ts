// One live client per process given only as a create option (#28 item 4): the four cases that create a client of
// their own pass on both personalities, the limit is recorded, and the quality case that needs two clients warns.
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

  for (const personality of ['reference', 'reference-xla']) {
    it(`${personality}: no case fails; the limit is recorded once`, () => {
      const dir = tmpDir();
      try {
        const json = path.join(dir, 'r.json');
        // A shared case first, so its client lives when the first case of its own asks for another.
        const filters = ['tier0.runner.platform_name', ...OWN_CLIENT, 'tier1.client.two_clients_at_once', 'tier2.events.transfer_not_ready_early'].flatMap((f) => ['--filter', f]);
        const r = cli(['run', '-p', personality, '-o', 'max_live_clients=1', '--jobs', '1', ...filters, '--json', json]);
        assert.equal(r.code, 0, r.stdout + r.stderr);
        const res = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
        const status = Object.fromEntries(res.results.map((x) => [x.id, x.status]));
        for (const id of OWN_CLIENT) assert.equal(status[id], 'pass', `${id}: ${res.results.find((x) => x.id === id)?.message ?? ''}`);
        assert.equal(status['tier2.events.transfer_not_ready_early'], 'pass');
        assert.equal(status['tier1.client.two_clients_at_once'], 'warn'); // quality: two live clients are not allowed here
        assert.match(res.counters!.clientLimit ?? '', /^one live client per process: at tier\S+, PJRT_Client_Create failed while the worker's shared client lived \(FAILED_PRECONDITION/);
        assert.equal(res.counters!.sharedClientResets.filter((s) => /retried$/.test(s)).length, 1, 'found once, then the shared client is released first');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
