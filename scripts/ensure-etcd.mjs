#!/usr/bin/env node
// `npm test`'s pretest: the tier-3 etcd tests (test/kv-etcd.test.ts) need Debian's etcd-server on PATH. Install it
// when missing and this machine allows it (root and apt-get, as .ci/run does); otherwise say once how to enable
// them: those tests are then pending, never failed. Never fails itself.
import { spawnSync } from 'node:child_process';

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const say = (s) => console.log(`ensure-etcd: ${s}`);

if (has('etcd')) process.exit(0);
if (process.getuid?.() !== 0 || !has('apt-get')) {
  say('etcd is not on PATH and installing it needs root and apt-get: the etcd tests will be pending (enable them with `apt-get install -y etcd-server`)');
  process.exit(0);
}
say('etcd is not on PATH: installing Debian\'s etcd-server (apt-get) for the tier-3 etcd tests');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const update = spawnSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'], env });
const install = update.status === 0 ? spawnSync('apt-get', ['install', '-y', 'etcd-server'], { stdio: ['ignore', 'ignore', 'inherit'], env }) : update;
if (install.status !== 0 || !has('etcd')) {
  say('could not install etcd-server: the etcd tests will be pending (enable them with `apt-get install -y etcd-server`)');
}
