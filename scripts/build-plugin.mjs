#!/usr/bin/env node
// Configures and builds the reference plugin with CMake.
// Default: Release build in build/reference-plugin, and the call-trace shim (native/call-trace) in build/call-trace.
// --asan: AddressSanitizer+UBSan build of the plugin in build/reference-plugin-asan.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const asan = process.argv.includes('--asan');
const src = path.join(root, 'fixtures', 'reference-plugin');
const out = path.join(root, 'build', asan ? 'reference-plugin-asan' : 'reference-plugin');
const shimSrc = path.join(root, 'native', 'call-trace');
const shimOut = path.join(root, 'build', 'call-trace');
for (const dir of [src, shimSrc]) {
  if (!existsSync(path.join(dir, 'CMakeLists.txt'))) {
    console.error(`build-plugin: ${dir}/CMakeLists.txt not found`);
    process.exit(2);
  }
}
const run = (args) => {
  const r = spawnSync('cmake', args, { stdio: 'inherit' });
  if (r.error) { console.error(`build-plugin: cannot run cmake: ${r.error.message}`); process.exit(2); }
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const jobs = String(Math.max(1, cpus().length));
run(['-S', src, '-B', out, `-DCMAKE_BUILD_TYPE=${asan ? 'Debug' : 'Release'}`, `-DPJRT_REFERENCE_SANITIZE=${asan ? 'ON' : 'OFF'}`]);
run(['--build', out, '-j', jobs]);
if (!asan) {
  run(['-S', shimSrc, '-B', shimOut, '-DCMAKE_BUILD_TYPE=Release']);
  run(['--build', shimOut, '-j', jobs]);
}
