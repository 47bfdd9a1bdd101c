#!/usr/bin/env node
// Configures and builds the reference plugin with CMake.
// Default: Release build in build/reference-plugin. --asan: AddressSanitizer+UBSan build in build/reference-plugin-asan.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const asan = process.argv.includes('--asan');
const src = path.join(root, 'fixtures', 'reference-plugin');
const out = path.join(root, 'build', asan ? 'reference-plugin-asan' : 'reference-plugin');
if (!existsSync(path.join(src, 'CMakeLists.txt'))) {
  console.error(`build-plugin: ${src}/CMakeLists.txt not found`);
  process.exit(2);
}
const run = (args) => {
  const r = spawnSync('cmake', args, { stdio: 'inherit' });
  if (r.error) { console.error(`build-plugin: cannot run cmake: ${r.error.message}`); process.exit(2); }
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run(['-S', src, '-B', out, `-DCMAKE_BUILD_TYPE=${asan ? 'Debug' : 'Release'}`, `-DPJRT_REFERENCE_SANITIZE=${asan ? 'ON' : 'OFF'}`]);
run(['--build', out, '-j', String(Math.max(1, cpus().length))]);
