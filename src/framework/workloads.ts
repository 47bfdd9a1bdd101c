// The framework tier's workloads: what each runs in JAX (its code is src/framework/jax_workloads.py, keyed by name),
// why a framework user needs it, and the reference-plugin faults under which JAX on the plugin computes something
// other than JAX's CPU backend. Data only; suites/tier4/jax.ts makes one case of each.

export interface Workload {
  /** The case name and the driver's key. */
  name: string;
  description: string;
  /** Which JAX path depends on what the workload exercises. */
  cite: string;
  /** Devices the workload spans (a plugin with fewer is `unsupported`). */
  devices: number;
  /** Runs with jax_enable_x64. */
  x64?: boolean;
  /**
   * JAX's deviceless ahead-of-time path: lowers and compiles for the topology the plugin creates from the entry's
   * `topology` (jax.experimental.topologies), runs nothing, and needs no client: it runs in `--compile-only` too.
   */
  aot?: true;
  /**
   * Python modules beyond jax the workload imports (JAX imports some only on the path that needs them, e.g.
   * flatbuffers for jax.export's serialization): without one the case is `skip`, naming what to install.
   */
  pythonModules?: readonly string[];
  /**
   * Faults of fixtures/reference-plugin/faults.json it catches. Empty where JAX itself refuses the feature on every
   * platform it does not list (jax-refusals.ts): the reference plugin's platform is not listed, so the workload's
   * values are compared only on a plugin JAX enables it for, and no reference fault can show there.
   */
  catches: readonly string[];
}

const AOT_SHARDINGS = 'JAX reads a compiled executable\'s output shardings back from its optimized program (pjrt_executable.cc GetOutputShardings), so a plugin must report the shardings it compiled for';
const LOWERING = 'JAX lowers every jit to StableHLO with Shardy (jax/_src/interpreters/mlir.py) and hands it to PJRT_Client_Compile as a portable artifact (pjrt_c_api_client.cc)';

export const WORKLOADS: readonly Workload[] = [
  {
    name: 'random',
    description: 'jax.random: split, normal, uniform and raw bits from a threefry key, as JAX CPU computes them',
    cite: `${LOWERING}; every jax.random program carries sdy.mesh @empty_mesh and an sdy.sharding_constraint on the key`,
    devices: 1,
    catches: ['op_off_by_one=xor', 'sdy_unsupported'],
  },
  {
    name: 'jit_grad_vmap',
    description: 'jit of grad and vmap of a tanh layer loss',
    cite: `${LOWERING}; grad and vmap are program transformations whose output reaches the plugin as ordinary StableHLO`,
    devices: 1,
    catches: ['op_off_by_one=tanh'],
  },
  {
    name: 'control_flow',
    description: 'lax.scan, while_loop, cond and fori_loop under jit',
    cite: `${LOWERING}; scan, while_loop and fori_loop lower to stablehlo.while, cond to stablehlo.case`,
    devices: 1,
    catches: ['while_one_extra_iteration'],
  },
  {
    name: 'x64',
    description: 'f64 and s64 arithmetic with jax_enable_x64',
    cite: `${LOWERING}; with jax_enable_x64 JAX keeps 64-bit types (jax/_src/config.py enable_x64)`,
    devices: 1,
    x64: true,
    catches: ['op_off_by_one=exponential'],
  },
  {
    name: 'complex',
    description: 'complex64 elementwise arithmetic, exp and a reduction',
    cite: `${LOWERING}; jnp's complex arithmetic and sums lower to StableHLO on complex element types`,
    devices: 1,
    catches: ['complex_multiply_sign_wrong'],
  },
  {
    name: 'bf16_f8',
    description: 'a bf16 matmul and an f8e4m3fn round trip',
    cite: `${LOWERING}; bf16 and the f8 types are jnp dtypes (ml_dtypes) that lower to their StableHLO element types`,
    devices: 1,
    catches: ['h2d_drops_last_byte'],
  },
  {
    name: 'sort_linalg_fft_conv',
    description: 'sort, argsort, inverse, Cholesky, solve, FFT, inverse FFT and a convolution',
    cite: `${LOWERING}; jnp.sort, jnp.linalg, jnp.fft and lax.conv lower to stablehlo.sort, cholesky/triangular_solve (or their expansions), fft and convolution`,
    devices: 1,
    catches: ['fft_inverse_unscaled'],
  },
  {
    name: 'named_sharding',
    description: 'jit over a NamedSharding on two devices (sharded input, replicated output)',
    cite: `${LOWERING}; a NamedSharding becomes sdy.mesh and sdy.sharding attributes with mhlo.num_partitions = 2, and JAX reads the output shardings back from the executable's optimized program (pjrt_executable.cc GetOutputShardings)`,
    devices: 2,
    catches: ['sdy_unsupported', 'sdy_shards_swapped'],
  },
  {
    name: 'shard_map_collectives',
    description: 'shard_map with psum, all_gather and ppermute on two devices',
    cite: `${LOWERING}; jax.shard_map lowers to sdy.manual_computation whose body holds stablehlo.all_reduce, all_gather and collective_permute`,
    devices: 2,
    catches: ['op_off_by_one=all_reduce', 'sdy_unsupported'],
  },
  {
    name: 'device_put',
    description: 'device_put between devices and memory kinds, then async dispatch and block_until_ready',
    cite: 'jax.device_put to another device calls PJRT_Buffer_CopyToDevice, to a memory kind PJRT_Buffer_CopyToMemory (pjrt_c_api_client.cc); block_until_ready awaits the buffer\'s ready event',
    devices: 2,
    catches: ['op_off_by_one=multiply'],
  },
  {
    name: 'donation',
    description: 'jit with donate_argnums',
    cite: 'JAX sets up input/output aliasing for donated arguments (jax/_src/interpreters/mlir.py) on the platforms it lists in _platforms_with_donation',
    devices: 1,
    catches: [],
  },
  {
    name: 'export_roundtrip',
    description: 'jax.export: serialize, deserialize and call an exported function',
    cite: 'jax.export serializes the lowered module (jax/_src/export/_export.py); calling the deserialized function compiles a module that calls it as a private function with a quoted symbol name',
    devices: 1,
    pythonModules: ['flatbuffers'],
    catches: ['op_off_by_one=sine'],
  },
  {
    name: 'compile_cache',
    description: 'the persistent compilation cache: a second process loads the first one\'s executable',
    cite: 'jax/_src/compilation_cache.py stores PJRT_Executable_Serialize\'s bytes and a later process loads them with PJRT_Executable_DeserializeAndLoad, on the platforms is_cache_used lists',
    devices: 1,
    catches: [],
  },
  {
    name: 'aot_analysis',
    description: 'AOT lower().compile() with cost_analysis, memory_analysis and memory_stats, then a call',
    cite: 'jax.stages.Compiled.cost_analysis / memory_analysis call PJRT_Executable_GetCostAnalysis and GetCompiledMemoryStats; Device.memory_stats calls PJRT_Device_MemoryStats',
    devices: 1,
    catches: ['op_off_by_one=tanh'],
  },
  {
    name: 'python_callbacks',
    description: 'jax.pure_callback under jit',
    cite: 'jax/_src/callback.py emit_python_callback lowers host callbacks for the platforms it lists',
    devices: 1,
    catches: [],
  },
  {
    name: 'dlpack',
    description: 'DLPack export of a device array to numpy and import of a numpy array',
    cite: 'jax.Array.__dlpack__ (jax/_src/array.py) and jax.dlpack exchange device memory with other frameworks through PJRT_Buffer_UnsafePointer / external references',
    devices: 1,
    catches: [],
  },
  {
    name: 'aot_named_sharding',
    description: 'ahead of time, deviceless: jit over a NamedSharding on every device of the plugin\'s topology, lowered and compiled for it; the executable keeps the requested output shardings',
    cite: `jax.experimental.topologies.get_topology_desc creates the compile target through PJRT_TopologyDescription_Create and Lowered.compile calls PJRT_Compile (jax/_src/xla_bridge.py make_pjrt_topology; for TPU make_pjrt_tpu_topology); ${AOT_SHARDINGS}`,
    devices: 2,
    aot: true,
    catches: ['sdy_unsupported'],
  },
  {
    name: 'aot_shard_map',
    description: 'ahead of time, deviceless: shard_map with psum and all_gather over the topology\'s devices, compiled for it',
    cite: `jax.shard_map lowers to sdy.manual_computation with collectives inside, compiled through PJRT_Compile for the topology; ${AOT_SHARDINGS}`,
    devices: 2,
    aot: true,
    catches: ['sdy_unsupported'],
  },
  {
    name: 'aot_random',
    description: 'ahead of time, deviceless: jax.random.normal under jit, compiled for the plugin\'s topology',
    cite: 'every jax.random program carries sdy.mesh @empty_mesh and an sdy.sharding_constraint on its key; Lowered.compile sends it to PJRT_Compile',
    devices: 1,
    aot: true,
    catches: ['sdy_unsupported'],
  },
];
