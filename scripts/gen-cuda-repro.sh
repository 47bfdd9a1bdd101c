#!/usr/bin/env bash
# Regenerates docs/validation/cuda-repro/, the reproducers of the CUDA run's genuine findings (docs/validation/cuda.md
# D1-D3), after npm run build: D2 from the H100 run's results (the shared reference data's
# cuda-run-16mib-stacks.json.gz, given as the argument), D1 and D3 from the one-case runs of the reference plugin with
# the fault that stands in for each (docs/validation/data/cuda-repro-d{1,3}-reference.json, made with
#   PJRT_REFERENCE_FAULTS=view_null_delete_callback_called pjrt-cts run -p build/reference-plugin/libpjrt_reference.so \
#     -f tier2.dlpack.view_without_delete_callback --json docs/validation/data/cuda-repro-d1-reference.json
#   PJRT_REFERENCE_FAULTS=program_read_as_c_string pjrt-cts run -p build/reference-plugin/libpjrt_reference.so \
#     -f tier1.compile.reads_only_code_size.truncated -f tier1.aot_compile.reads_only_code_size.truncated \
#     --json docs/validation/data/cuda-repro-d3-reference.json
# then their environment.hostname blanked and their paths made portable with
#   node dist/scripts/portable-results.js docs/validation/data/cuda-repro-d{1,3}-reference.json
# so that the plugin is named by its file name and sha256: repro records them again on this checkout's build of the
# reference plugin, with the run's create options and fault). Every README's commands name JAX's CUDA plugin; no file names a directory of this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 1 ] || [ ! -f "$1" ]; then echo "usage: scripts/gen-cuda-repro.sh <cuda-run-16mib-stacks.json.gz>" >&2; exit 2; fi
OUT=docs/validation/cuda-repro
CUDA_SO='$(python3 -c "import os, jax_plugins.xla_cuda13 as p; print(os.path.join(os.path.dirname(p.__file__), \"xla_cuda_plugin.so\"))")'
H100=$1
rm -rf "$OUT"
node dist/bin/pjrt-cts.js repro "$H100" tier1.program.run.dot_general_matmul_s8_to_s32 -o "$OUT" --plugin-path "$CUDA_SO" \
  --note 'D2 of pjrt-cts'"'"'s `docs/validation/cuda.md`, generated from the H100 run itself (`cuda-run-16mib-stacks.json.gz`, kept with the project'"'"'s shared reference data): there every element came back exactly twice the product. Here `repro.py` was run on XLA'"'"'s CPU client (it passes) and on the reference plugin with the fault `op_off_by_one=dot_general` and `--no-case-options` (the case options are the `cuda` entry'"'"'s; it shows the wrong values); it has not been run on a GPU. On JAX'"'"'s CUDA plugin it is expected to print the `fail:` line above.'
node dist/bin/pjrt-cts.js repro docs/validation/data/cuda-repro-d1-reference.json tier2.dlpack.view_without_delete_callback -o "$OUT" --plugin-path "$CUDA_SO" \
  --note 'D1 of pjrt-cts'"'"'s `docs/validation/cuda.md`. The H100 run predates this case: it met the abort in three other cases, which then passed no on_delete_callback (SIGABRT, `std::bad_function_call`, in `PJRT_Buffer_Destroy`). This reproducer was generated from a one-case run of the bundled reference plugin (`docs/validation/data/cuda-repro-d1-reference.json`) with the fault `view_null_delete_callback_called` on, which makes the reference plugin do what XLA'"'"'s GPU client does; the calls are the ones the CTS makes on any plugin. On JAX'"'"'s CUDA plugin (jax-cuda13-pjrt 0.11.2) it is expected to print `tier2.dlpack.view_without_delete_callback: crash: the worker process died during PJRT_Buffer_Destroy: killed by SIGABRT`, with libstdc++'"'"'s `terminate called after throwing an instance of '"'"'std::bad_function_call'"'"'` on stderr. It has not been run on a GPU.' \
  --note 'The client is created with no create options (the plugin'"'"'s defaults); to create it as the `cuda` entry of plugins.json does, add `-o platform_name=cuda -o allocator=bfc -o preallocate=false -o memory_fraction=0.05`.'
node dist/bin/pjrt-cts.js repro docs/validation/data/cuda-repro-d3-reference.json tier1.compile.reads_only_code_size.truncated tier1.aot_compile.reads_only_code_size.truncated -o "$OUT" --plugin-path "$CUDA_SO" \
  --note 'D3 of pjrt-cts'"'"'s `docs/validation/cuda.md`. The H100 run predates this case: there the same first 80 bytes of a module, sent with no NUL after them, crashed `PJRT_Client_Compile` and `PJRT_Compile` with SIGSEGV in three `rejects_bad_program` cases. This reproducer was generated from a run of the bundled reference plugin (`docs/validation/data/cuda-repro-d3-reference.json`) with the fault `program_read_as_c_string` on, which makes its compiler take the program'"'"'s length from strlen(code) and so read past code_size, as XLA'"'"'s MLIR parser does when it reports an error at the end of a truncated text; the calls (the 80 bytes right before an unreadable page) are the ones the CTS makes on any plugin. On JAX'"'"'s CUDA plugin it is expected to print the `crash: … killed by SIGSEGV` line above (libtpu, built from the same parser, crashes there), and with `--code-placement guard_after_nul` (a NUL after the bytes, as a std::string has) to reject the program with an error. Neither has been run on a GPU.' \
  --note 'No create options are passed (the plugin'"'"'s defaults); `-o name=value` passes some to the client and the topology, e.g. the `cuda` entry'"'"'s `-o platform_name=cuda`.'
