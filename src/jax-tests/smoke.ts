// `jax-tests --smoke`: a few files of JAX's own tests that finish in minutes on 2 cores, on the reference plugin's
// interpreter as on JAX's CPU backend, and still touch the paths a plugin serves (jit, transfers, compile errors,
// several devices, callbacks, donation). Timings: docs/jax-tests.md.
export const SMOKE_FILES: readonly string[] = [
  'tests/api_util_test.py',
  'tests/jax_jit_test.py',
  'tests/device_test.py',
  'tests/x64_context_test.py',
  'tests/transfer_guard_test.py',
];
