// The ops of the StableHLO spec and why the corpus leaves out the ones it does not run. The list is the `###`
// headings of the spec's "Ops" section (openxla/stablehlo docs/spec.md at SPEC_SOURCE.commit), less the
// "(XLA GPU Support) Special custom_call targets" note; update both together when the spec grows.

export const SPEC_SOURCE = { repo: 'openxla/stablehlo', file: 'docs/spec.md', commit: '3c9301c116f97fbaf696959a0ede32712aec587b' } as const;

export const SPEC_OPS: readonly string[] = [
  'abs', 'add', 'after_all', 'all_gather', 'all_reduce', 'all_to_all', 'and', 'async_done', 'async_start', 'atan2',
  'batch_norm_grad', 'batch_norm_inference', 'batch_norm_training', 'bitcast_convert', 'broadcast_in_dim', 'case', 'cbrt',
  'ceil', 'cholesky', 'clamp', 'collective_broadcast', 'collective_permute', 'collective_reduce', 'compare', 'complex',
  'composite', 'concatenate', 'constant', 'convert', 'convolution', 'cosine', 'count_leading_zeros', 'custom_call',
  'divide', 'dot_general', 'dynamic_broadcast_in_dim', 'dynamic_conv', 'dynamic_gather', 'dynamic_iota', 'dynamic_pad',
  'dynamic_reshape', 'dynamic_slice', 'dynamic_update_slice', 'exponential', 'exponential_minus_one', 'fft', 'floor',
  'gather', 'get_dimension_size', 'get_tuple_element', 'if', 'imag', 'infeed', 'iota', 'is_finite', 'log',
  'log_plus_one', 'logistic', 'map', 'maximum', 'minimum', 'multiply', 'negate', 'not', 'optimization_barrier', 'or',
  'outfeed', 'pad', 'partition_id', 'popcnt', 'power', 'real', 'recv', 'reduce', 'reduce_precision', 'reduce_scatter',
  'reduce_window', 'remainder', 'replica_id', 'reshape', 'reverse', 'rng', 'rng_bit_generator', 'round_nearest_afz',
  'round_nearest_even', 'rsqrt', 'scatter', 'select', 'select_and_scatter', 'send', 'shift_left',
  'shift_right_arithmetic', 'shift_right_logical', 'sign', 'sine', 'slice', 'sort', 'sqrt', 'subtract', 'tan', 'tanh',
  'transpose', 'triangular_solve', 'tuple', 'uniform_dequantize', 'uniform_quantize', 'while', 'xor',
];

const DYNAMIC = 'dynamic shapes: JAX\'s `jit` lowers to static shapes, and a PJRT executable\'s outputs have the static dims the corpus compares';
const HOST = 'talks to the host (infeed/outfeed queues, send/recv callbacks) rather than computing a result from its inputs: no value program to compare; the executable suites cover execute options';

/** Why a spec op is not in the corpus. A spec op the corpus does not run must have an entry (gen-corpus-doc checks). */
export const NOT_IN_CORPUS: Readonly<Record<string, string>> = {
  after_all: 'joins tokens only: no tensor result to compare',
  async_start: 'an XLA scheduling hint around one collective ("the asynchrony is not guaranteed"): its result is the wrapped op\'s, which the corpus runs directly',
  async_done: 'pairs with async_start (same reason)',
  batch_norm_grad: 'JAX and flax lower batch normalisation to reduce and elementwise ops, which the corpus runs; no framework path emits it',
  batch_norm_inference: 'as batch_norm_grad',
  batch_norm_training: 'as batch_norm_grad',
  rng: 'its values are implementation-defined draws from a distribution (spec); JAX draws random numbers with threefry in ordinary ops or with rng_bit_generator',
  rng_bit_generator: 'its bits are implementation-defined (spec): tier2.rng checks that one state gives the same bits twice and other states other bits, and compares with XLA\'s bits (quality)',
  collective_broadcast: 'not yet in the corpus: a later addition (not yet checked against the referee)',
  collective_reduce: 'a recent addition to the spec, not yet checked against the referee (XLA\'s CPU compiler of jaxlib 0.10.2); a later corpus addition',
  composite: 'its semantics are its decomposition function, whose ops the corpus runs; the name is a hint a plugin may match or ignore',
  custom_call: 'no portable semantics: the call target is a plugin\'s own (the FFI suites cover the PJRT side)',
  dynamic_broadcast_in_dim: DYNAMIC,
  dynamic_conv: DYNAMIC,
  dynamic_gather: DYNAMIC,
  dynamic_iota: DYNAMIC,
  dynamic_pad: DYNAMIC,
  dynamic_reshape: DYNAMIC,
  get_dimension_size: DYNAMIC,
  infeed: HOST,
  outfeed: HOST,
  send: HOST,
  recv: HOST,
  map: 'being explored for deprecation (the spec: "unused by both frameworks and compilers")',
  optimization_barrier: 'the identity on values (a scheduling barrier only); a later corpus addition',
  uniform_quantize: 'quantized element types (`!quant.uniform`) are not PJRT buffer types: a buffer holds only the storage type, the scale lives in the program',
  uniform_dequantize: 'as uniform_quantize',
};
