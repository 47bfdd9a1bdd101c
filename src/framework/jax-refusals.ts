// What JAX itself refuses to do on a platform it does not list: features JAX enables per platform name, so a new
// plugin lacks them whatever its PJRT implementation does. A failure whose message matches one of these is a
// framework refusal, not a plugin bug. Data only; JAX 0.10.2's sources are the citation (read, never copied).

export interface JaxRefusal {
  /** A short stable name: the rule key is `jax-refusal:<feature>`. */
  feature: string;
  /** Where JAX decides it, in a JAX source checkout. */
  file: string;
  symbol: string;
  /** The platforms JAX allows, as that symbol lists them. */
  platforms: readonly string[];
  /** Matches the error or warning JAX raises on any other platform. */
  pattern: RegExp;
  /** What a plugin vendor can do about it. */
  remedy: string;
}

export const JAX_REFUSALS: readonly JaxRefusal[] = [
  {
    feature: 'buffer donation',
    file: 'jax/_src/interpreters/mlir.py',
    symbol: '_platforms_with_donation',
    platforms: ['cpu', 'cuda', 'rocm', 'tpu', 'neuron'],
    // warnings.warn("Some donated buffers were not usable: …\nDonation is not implemented for (...)": platforms is a tuple in 0.10.2), an error under
    // JAX's pytest configuration (filterwarnings = error).
    pattern: /Donation is not implemented for [[(]/,
    remedy: 'JAX sets up input/output aliasing only for the platforms it lists; the plugin\'s PJRT donation is never asked for. Ask JAX to list the platform (the PJRT side is checked by tier2.donation)',
  },
  {
    feature: 'python callbacks',
    file: 'jax/_src/callback.py',
    symbol: 'emit_python_callback',
    platforms: ['cpu', 'cuda', 'rocm', 'tpu'],
    pattern: /`EmitPythonCallback` not supported on \S+ backend|Partitioned callback not implemented on \S+ backend/,
    remedy: 'jax.pure_callback, io_callback and jax.debug.print lower only for the platforms JAX lists; a plugin needs JAX to list it (and host callbacks through the FFI extension)',
  },
  {
    feature: 'dlpack export',
    file: 'jax/_src/array.py',
    symbol: 'ArrayImpl.__dlpack_device__',
    platforms: ['cpu', 'gpu (cuda, rocm)'],
    // jaxlib's DLPack export names the device it cannot describe ("Device <platform>:0 cannot be used as a DLPack device")
    pattern: /__dlpack__ device only supported for CPU and GPU|Unknown GPU platform for __dlpack__|cannot be used as a DLPack device/,
    remedy: 'JAX exports DLPack tensors only from CPU and CUDA/ROCm arrays; nothing a plugin can change (its PJRT DLPack paths are checked by tier2.dlpack)',
  },
  {
    feature: 'persistent compilation cache',
    file: 'jax/_src/compilation_cache.py',
    symbol: 'is_cache_used (supported_platforms)',
    platforms: ['tpu', 'gpu', 'cpu', 'neuron'],
    // the framework tier's driver asks is_cache_used itself (src/framework/jax_workloads.py) and says so in these words
    pattern: /JAX does not use its persistent compilation cache on platform/,
    remedy: 'JAX reads and writes its persistent compilation cache only for the platforms it lists, so a plugin\'s executables are recompiled in every process whatever PJRT_Executable_Serialize does (checked by tier2.executable serialization cases). Ask JAX to list the platform',
  },
];

/** The refusal an error message shows, if any. */
export function jaxRefusalOf(message: string): JaxRefusal | undefined {
  return JAX_REFUSALS.find((r) => r.pattern.test(message));
}
