// Tier 3 over a real etcd (Debian's etcd-server; .ci/run installs it): `run --kv etcd://…` with local node
// processes, `pjrt-cts node` + `run --nodes-external` as on several hosts, namespacing, the errors for an
// unreachable etcd and bad options, and an etcd that dies while a node waits on it.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { listKeys, openEtcd, etcdProblem } from '../src/kv/etcd.js';
import { EtcdKvStore } from '../src/kv/etcd-sync.js';
import { parseKvUrl, runRoot } from '../src/kv/url.js';
import { CLI, ROOT, cli, cliAsync, oneErrorLine } from './runner-helpers.js';

interface Etcd { proc: ChildProcess; dir: string; url: string; host: string }

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

const ETCD_MISSING = 'etcd not found on PATH: install Debian\'s etcd-server (apt-get install -y etcd-server; npm test\'s pretest and .ci/run do it as root) to run the tier-3 etcd tests';
const hasEtcd = (): boolean => spawnSync('sh', ['-c', 'command -v etcd'], { encoding: 'utf8' }).status === 0;

/** A single-member etcd listening on loopback only (client and peer ports), with a temp data dir. */
async function startEtcd(): Promise<Etcd> {
  if (!hasEtcd()) throw new Error(ETCD_MISSING);
  const [client, peer] = [await freePort(), await freePort()];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pjrt-cts-etcd-'));
  const c = `http://127.0.0.1:${client}`;
  const p = `http://127.0.0.1:${peer}`;
  const proc = spawn('etcd', [
    '--name', 'cts', '--data-dir', path.join(dir, 'data'),
    '--listen-client-urls', c, '--advertise-client-urls', c,
    '--listen-peer-urls', p, '--initial-advertise-peer-urls', p, '--initial-cluster', `cts=${p}`,
  ], { stdio: 'ignore' });
  const e: Etcd = { proc, dir, url: `etcd://127.0.0.1:${client}`, host: c };
  const end = Date.now() + 15000;
  while ((await etcdProblem(parseKvUrl(e.url), 1000)) !== null) {
    if (Date.now() > end || proc.exitCode !== null) {
      stopEtcd(e);
      throw new Error(`etcd on ${c} did not come up within 15 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return e;
}

function stopEtcd(e: Etcd | undefined): void {
  if (!e) return;
  if (e.proc.exitCode === null && e.proc.signalCode === null) e.proc.kill('SIGKILL');
  rmSync(e.dir, { recursive: true, force: true });
}

interface Done { code: number | null; stdout: string; stderr: string; ms: number }
/** Waits for a child, killing it (and failing) past `deadlineMs`: nothing may hang. */
function finish(child: ChildProcess, deadlineMs: number): Promise<Done> {
  const t0 = Date.now();
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after ${deadlineMs} ms:\n${stdout}\n${stderr}`));
    }, deadlineMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

const records = (jsonl: string) => readFileSync(jsonl, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => typeof r['status'] === 'string');

/** One etcd (and a temp dir) for the enclosing describe block: started before its cases, killed and removed after;
 *  `restart` replaces it with a fresh one. */
function etcdForSuite(): { etcd(): Etcd; tmp(): string; restart(): Promise<Etcd> } {
  let etcd: Etcd | undefined;
  let tmp: string | undefined;
  before(async function () {
    // npm test's pretest (scripts/ensure-etcd.mjs) installs etcd where it can; elsewhere these tests are pending.
    if (!hasEtcd()) {
      console.log(`      (pending: ${ETCD_MISSING})`);
      this.skip();
    }
    tmp = mkdtempSync(path.join(os.tmpdir(), 'pjrt-cts-kv-test-'));
    etcd = await startEtcd();
  });
  after(() => {
    stopEtcd(etcd);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });
  const restart = async (): Promise<Etcd> => {
    stopEtcd(etcd);
    return (etcd = await startEtcd());
  };
  return { etcd: () => etcd!, tmp: () => tmp!, restart };
}

describe('tier 3 over etcd', function () {
  this.timeout(60000);
  const env = etcdForSuite();

  it('rejects bad --kv, --run-id, --nodes-external and node options with one line (exit 2)', () => {
    oneErrorLine(cli(['run', '--kv', 'http://127.0.0.1:2379']), /--kv: http:\/\/127\.0\.0\.1:2379: expected etcd:\/\/host:port/);
    oneErrorLine(cli(['run', '--kv', 'etcd://127.0.0.1:99999']), /--kv: .*port between 1 and 65535/);
    oneErrorLine(cli(['run', '--nodes-external', '2']), /--nodes-external: 2: needs --kv/);
    oneErrorLine(cli(['run', '--run-id', 'x']), /--run-id: x: needs --kv/);
    oneErrorLine(cli(['run', '--kv', env.etcd().url, '--run-id', 'a/b']), /--run-id: a\/b: expected 1 to 64 characters/);
    oneErrorLine(cli(['run', '--kv', env.etcd().url, '--nodes-external', '0']), /--nodes-external: 0: expected an integer ≥ 1/);
    oneErrorLine(cli(['node', '--kv', env.etcd().url, '--node-id', '2', '--num-nodes', '2']), /--node-id: 2: must be below --num-nodes/);
    oneErrorLine(cli(['node', '--kv', env.etcd().url, '--node-id', 'x', '--num-nodes', '2']), /--node-id: x: expected a non-negative integer/);
    oneErrorLine(cli(['node', '--node-id', '0', '--num-nodes', '2']), /required option '--kv <url>'/);
  });

  it('an unreachable etcd is exit 2 with one line before any case', async () => {
    const dead = `etcd://127.0.0.1:${await freePort()}`;
    const json = path.join(env.tmp(), 'dead.json');
    const r = cli(['run', '--filter', 'tier3.**', '--kv', dead, '--json', json]);
    oneErrorLine(r, new RegExp(`--kv: ${dead}: cannot reach etcd`));
    assert.doesNotMatch(r.stdout, /running \d+ case/);
    const n = cli(['node', '--kv', dead, '--node-id', '0', '--num-nodes', '1']);
    oneErrorLine(n, /cannot reach etcd/);
  });

  it('keeps each namespace to itself (two runs sharing one etcd never see each other\'s keys)', async () => {
    const ep = parseKvUrl(env.etcd().url);
    const a = new EtcdKvStore(ep, `${runRoot('ns-a')}kv/x/`);
    const b = new EtcdKvStore(ep, `${runRoot('ns-b')}kv/x/`);
    a.put('k', new Uint8Array([1, 2]));
    assert.deepEqual([...a.get('k', 1000)], [1, 2]);
    assert.equal(b.tryGet('k'), undefined);
    assert.throws(() => b.get('k', 200), (e: { codeName?: string }) => e.codeName === 'DEADLINE_EXCEEDED');
    const c = openEtcd(env.etcd().host);
    try {
      assert.deepEqual(await listKeys(c, runRoot('ns-a')), ['kv/x/k']);
      await c.delete().prefix('pjrt-cts/').exec();
    } finally {
      c.close();
    }
  });

  it('runs tier 3 with local node processes through etcd, then removes the run\'s keys', async () => {
    const json = path.join(env.tmp(), 'local.json');
    // The two-node cases, a three-node bring-up and the namespace check (the rest is the same path again).
    const sel = ['--filter', 'tier3.multinode.*.2', '--filter', 'tier3.multinode.bring_up.3', '--filter', 'tier3.multinode.keys_namespaced'];
    const r = await finish(cliAsync(['run', ...sel, '--kv', env.etcd().url, '--run-id', 'local1', '--json', json]), 55000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const recs = records(`${json}l`);
    assert.equal(recs.length, 7, `${recs.length} records`);
    for (const x of recs) assert.equal(x['status'], 'pass', JSON.stringify(x));
    const c = openEtcd(env.etcd().host);
    try {
      assert.deepEqual(await listKeys(c, runRoot('local1')), []);
    } finally {
      c.close();
    }
  });

  it('a coordinator with --nodes-external collects the reports of `pjrt-cts node` processes', async () => {
    const nodes = [0, 1].map((i) => spawn(process.execPath, [CLI, 'node', '--kv', env.etcd().url, '--node-id', String(i), '--num-nodes', '2', '--run-id', 'ext1'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }));
    const nodeDone = nodes.map((n) => finish(n, 55000));
    const json = path.join(env.tmp(), 'ext.json');
    const r = await finish(cliAsync(['run', '--filter', 'tier3.multinode.{bring_up,global_devices_agree,keys_namespaced}{,.*}', '--kv', env.etcd().url, '--nodes-external', '2', '--run-id', 'ext1', '--json', json]), 50000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const byId = Object.fromEntries(records(`${json}l`).map((x) => [x['id'], x['status']]));
    assert.equal(byId['tier3.multinode.bring_up.2'], 'pass');
    assert.equal(byId['tier3.multinode.global_devices_agree.2'], 'pass');
    assert.equal(byId['tier3.multinode.keys_namespaced'], 'pass');
    assert.equal(byId['tier3.multinode.bring_up.3'], 'skip', 'three nodes needed, two external (a run setting: skip)');
    for (const d of await Promise.all(nodeDone)) {
      assert.equal(d.code, 0, d.stderr);
      assert.match(d.stderr, /the coordinator is done/);
    }
  });
});

describe('tier 3 over etcd: a coordinator that goes away', function () {
  this.timeout(30000);
  const env = etcdForSuite();

  it('its nodes exit 1 with one line instead of waiting for ever', async () => {
    const node = spawn(process.execPath, [CLI, 'node', '--kv', env.etcd().url, '--node-id', '0', '--num-nodes', '1', '--run-id', 'gone1'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const done = finish(node, 25000);
    const c = openEtcd(env.etcd().host);
    try {
      while ((await listKeys(c, `${runRoot('gone1')}nodes/`)).length === 0) await new Promise((r) => setTimeout(r, 20));
      await c.put(`${runRoot('gone1')}coordinator`).value('1').exec();
      await new Promise((r) => setTimeout(r, 300));
      await c.delete().key(`${runRoot('gone1')}coordinator`).exec();
    } finally {
      c.close();
    }
    const r = await done;
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /pjrt-cts: error: node 0: the coordinator of run 'gone1' went away without finishing/);
  });
});

describe('tier 3 over an etcd that dies', function () {
  this.timeout(60000);
  const env = etcdForSuite();

  it('a get in flight fails UNAVAILABLE soon after etcd dies, well before its own deadline', () => {
    const store = new EtcdKvStore(parseKvUrl(env.etcd().url), `${runRoot('dies')}kv/x/`);
    store.put('warm', new Uint8Array([1]));
    // The kill is scheduled outside this (blocked) thread.
    spawn('sh', ['-c', `sleep 0.5; kill -9 ${env.etcd().proc.pid}`], { stdio: 'ignore' });
    const t0 = Date.now();
    assert.throws(() => store.get('never', 20000), (e: { codeName?: string; message: string }) => e.codeName === 'UNAVAILABLE' && /etcd unreachable/.test(e.message));
    assert.ok(Date.now() - t0 < 10000, `failed after ${Date.now() - t0} ms`);
  });

  it('a run whose etcd dies mid-run fails the cases in flight cleanly and ends', async () => {
    const etcd = await env.restart();
    const json = path.join(env.tmp(), 'dies.json');
    const run = cliAsync(['run', '--filter', 'tier3.multinode.{bring_up,global_devices_agree}.*', '--kv', etcd.url, '--run-id', 'dies1', '--json', json]);
    const done = finish(run, 50000);
    // Kill etcd as soon as the first node has written a key: the launch in flight loses its store.
    const c = openEtcd(etcd.host);
    const t0 = Date.now();
    try {
      while (Date.now() - t0 < 20000) {
        const keys = await listKeys(c, `${runRoot('dies1')}kv/`).catch(() => []);
        if (keys.length > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      c.close();
    }
    etcd.proc.kill('SIGKILL');
    const r = await done;
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const recs = records(`${json}l`);
    assert.equal(recs.length, 4, r.stdout);
    for (const x of recs) assert.ok(x['status'] === 'pass' || x['status'] === 'fail', JSON.stringify(x));
    const failed = recs.filter((x) => x['status'] === 'fail');
    assert.ok(failed.length >= 3, `${failed.length} failed`);
    assert.ok(failed.every((x) => /etcd unreachable|UNAVAILABLE/.test(String(x['message']))), JSON.stringify(failed.map((x) => x['message'])));
  });
});
