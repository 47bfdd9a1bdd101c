// Programs as JAX >= 0.7 sends them: with Shardy (the sdy dialect). One home for what the suites say about it: the
// build options JAX compiles with, and the one root cause a plugin that refuses sdy gets wherever it shows (the
// corpus's sdy programs, the framework tier's workloads).
import type { CompileOptions } from '../../src/proto/index.js';
import * as check from './check.js';

/** The JAX release that made Shardy the default (jax_use_shardy_partitioner, jax/_src/config.py). */
export const SHARDY_SINCE_JAX = '0.7.0';

/**
 * The SPMD build options of a program on `partitions` partitions, as JAX sets them: use_spmd_partitioning for more
 * than one partition (jax/_src/interpreters/pxla.py), use_shardy_partitioner from jax_use_shardy_partitioner
 * (jax/_src/compiler.py get_compile_options; true by default since 0.7.0). Without the latter XLA's partitioner
 * rejects the sdy ops such a program carries ("a custom call named 'xla.sdy.*' which shouldn't appear").
 */
export function spmdBuildOptions(partitions: number): Pick<CompileOptions, 'useSpmdPartitioning' | 'useShardyPartitioner'> {
  return partitions > 1 ? { useSpmdPartitioning: true, useShardyPartitioner: true } : {};
}

/**
 * Whether a compiler's message refuses a Shardy op: it names an sdy.* op, or the dialect (MLIR's "Dialect `sdy' not
 * found"), outside a bracketed list (pjrt-ocl lists the ops it knows, sdy's among them, when it refuses another; a
 * list cut short runs to the end).
 */
export function refusesShardy(message: string): boolean {
  return /\bsdy\.[a-z_]+|[`'"]sdy[`'"]/.test(message.replace(/\[[^\]]*(?:\]|$)/g, ''));
}

/** Fails with the Shardy root cause: `slot` refused a program as JAX sends it, saying `said`. */
export function failShardy(said: string): never {
  return check.fail(
    { key: 'shardy:compiles', text: `a plugin compiles programs as JAX sends them: every JAX since ${SHARDY_SINCE_JAX} lowers with Shardy (jax_use_shardy_partitioner, on by default), so each jit program carries sdy ops (sdy.mesh, sdy.sharding, sdy.sharding_constraint on every jax.random key, sdy.manual_computation for shard_map); a plugin that refuses them fails jax.random and every sharded program` },
    'the sdy ops compile',
    said,
  );
}
