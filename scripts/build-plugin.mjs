#!/usr/bin/env node
// Configures and builds the reference plugin with CMake.
// Default: Release build in build/reference-plugin, and the call-trace shim (native/call-trace) in build/call-trace.
// --asan: AddressSanitizer+UBSan build of the plugin in build/reference-plugin-asan.
// --tsan: ThreadSanitizer build of the plugin in build/reference-plugin-tsan.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The builds, by flag: directory, CMake build type and the sanitizer options it sets.
const VARIANTS = {
  release: { dir: 'reference-plugin', type: 'Release', cmake: ['-DPJRT_REFERENCE_SANITIZE=OFF', '-DPJRT_REFERENCE_TSAN=OFF'] },
  asan: { dir: 'reference-plugin-asan', type: 'Debug', cmake: ['-DPJRT_REFERENCE_SANITIZE=ON', '-DPJRT_REFERENCE_TSAN=OFF'] },
  tsan: { dir: 'reference-plugin-tsan', type: 'Debug', cmake: ['-DPJRT_REFERENCE_SANITIZE=OFF', '-DPJRT_REFERENCE_TSAN=ON'] },
};
const variantName = process.argv.includes('--asan') ? 'asan' : process.argv.includes('--tsan') ? 'tsan' : 'release';
const variant = VARIANTS[variantName];
const src = path.join(root, 'fixtures', 'reference-plugin');
const out = path.join(root, 'build', variant.dir);
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
run(['-S', src, '-B', out, `-DCMAKE_BUILD_TYPE=${variant.type}`, ...variant.cmake]);
run(['--build', out, '-j', jobs]);
if (variantName === 'release') {
  run(['-S', shimSrc, '-B', shimOut, '-DCMAKE_BUILD_TYPE=Release']);
  run(['--build', shimOut, '-j', jobs]);
}
