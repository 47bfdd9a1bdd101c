// Every child process the CTS starts ends with its parent (#26 item 6): the parent is killed with SIGKILL (no
// handler runs) while its child is blocked in a plugin call that never returns, and the child must be gone within
// a few seconds.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, ROOT, tmpDir } from './runner-helpers.js';

const PLUGIN = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
const NODE_CHILD = path.join(ROOT, 'dist', 'suites', '_lib', 'multinode-child.js');

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Live (not zombie) processes whose parent is `ppid`. */
function childrenOf(ppid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(parent) === ppid && state !== 'Z') out.push(Number(d));
    } catch { /* gone */ }
  }
  return out;
}

const alive = (pid: number): boolean => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').slice(-200).includes(') Z ');
  } catch {
    return false;
  }
};

/** Waits until `pred` holds (polling), up to `ms`. */
async function until(pred: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (pred()) return true;
    await sleep(100);
  }
  return pred();
}

/** Starts `parent`, waits for a child of it that has been running `settleMs`, SIGKILLs the parent; the child must go. */
async function childDiesWithParent(parent: ChildProcess, settleMs = 1500): Promise<void> {
  try {
    let kids: number[] = [];
    assert.ok(await until(() => (kids = childrenOf(parent.pid!)).length > 0, 20_000), 'the parent started no child');
    await sleep(settleMs); // the child is now in the plugin call that never returns
    kids = childrenOf(parent.pid!);
    parent.kill('SIGKILL');
    assert.ok(await until(() => kids.every((k) => !alive(k)), 5_000), `children ${kids.join(', ')} outlived their parent`);
  } finally {
    parent.kill('SIGKILL');
  }
}

describe('children end with their parent', function () {
  this.timeout(60_000);
  before(function () {
    if (!existsSync(PLUGIN)) this.skip();
  });

  it('a run\'s worker blocked in PJRT_Client_PlatformName', async () => {
    const env = { ...process.env, PJRT_REFERENCE_FAULTS: 'hang_in=PJRT_Client_PlatformName' };
    await childDiesWithParent(spawn(process.execPath, [CLI, 'run', '--no-preflight', '--filter', 'tier0.runner.platform_name', '--json', path.join(tmpDir(), 'r.json')], { env, stdio: 'ignore' }));
  });

  it('info\'s child blocked in PJRT_Client_Create', async () => {
    const env = { ...process.env, PJRT_REFERENCE_FAULTS: 'hang_in=PJRT_Client_Create' };
    await childDiesWithParent(spawn(process.execPath, [CLI, 'info', '--timeout', '600000'], { env, stdio: 'ignore' }));
  });

  it('a multi-node node process blocked in PJRT_Client_Create', async () => {
    // The launcher as suites/_lib/multinode.ts runs it; the node hangs creating its client.
    const launcher = `
      import { spawn } from 'node:child_process';
      const { parentPidEnv } = await import(${JSON.stringify(path.join(ROOT, 'dist', 'src', 'ffi', 'parent-pid.js'))});
      const spec = { pluginPath: ${JSON.stringify(PLUGIN)}, global: false, options: {}, kvDir: '/tmp' };
      spawn(process.execPath, [${JSON.stringify(NODE_CHILD)}, JSON.stringify(spec)], { stdio: 'ignore', env: { ...process.env, ...parentPidEnv() } });
      setInterval(() => {}, 1000);`;
    const env = { ...process.env, PJRT_REFERENCE_FAULTS: 'hang_in=PJRT_Client_Create' };
    await childDiesWithParent(spawn(process.execPath, ['--input-type=module', '-e', launcher], { env, stdio: 'ignore' }));
  });
});
