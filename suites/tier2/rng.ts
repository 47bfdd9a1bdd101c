// Tier 2 — stablehlo.rng_bit_generator. The spec leaves the bits implementation-defined ("deterministic function of
// initial_state, but … not guaranteed to be deterministic between implementations"), so the corpus (which compares
// values) cannot hold it; these cases run each program more than once: the same state twice gives the same bits
// (two executions), other states give other bits, the output state moves on; XLA's exact bits only as quality.
import { area } from '../../src/harness/index.js';
import type { CaseContext } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { declinedIsUnsupported } from '../_lib/declined.js';
import { run1, type OutSpec } from '../_lib/exec.js';
import { module, tensor } from '../_lib/programs.js';

const t = area('tier2.rng', { tier: 2, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute'] } });

type Algorithm = 'DEFAULT' | 'THREE_FRY' | 'PHILOX';
const MLIR: Readonly<Record<string, string>> = { u8: 'ui8', u32: 'ui32', u64: 'ui64' };

interface RngRow {
  id: string;
  algorithm: Algorithm;
  state: bigint[];
  out: OutSpec;
  /** what XLA's CPU compiler (jaxlib 0.10.2) returns: the algorithms of xla/hlo/builder/lib/prng.cc */
  xla: { state: bigint[]; bits: bigint[] };
}

// THREE_FRY: a rank-2 output with no even dimension, a 64-bit one whose counter wraps, a narrow one, a rank-0 one;
// PHILOX: 3-word states (64-bit output, a counter that carries into the high word) and DEFAULT with a 2-word state.
const ROWS: readonly RngRow[] = [
  { id: 'three_fry_u32_3x5', algorithm: 'THREE_FRY', state: [0x0123456789abcdefn, 42n], out: { dtype: 'u32', dims: [3, 5] },
    xla: { state: [0x0123456789abcdefn, 51n], bits: [2301371841n, 2475193860n, 48415625n, 1946396347n, 4146834173n, 1315168053n, 1283724488n, 1034385149n, 11934475n, 1892624222n, 3933642459n, 2494575077n, 1995733145n, 1065039385n, 739265074n] } },
  { id: 'three_fry_u64_wraps', algorithm: 'THREE_FRY', state: [7n, 0xfffffffffffffffen], out: { dtype: 'u64', dims: [4] },
    xla: { state: [7n, 2n], bits: [11623698188067921303n, 6868590399942727175n, 13563526760692328810n, 5731837475286458671n] } },
  { id: 'three_fry_u8', algorithm: 'THREE_FRY', state: [5n, 9n], out: { dtype: 'u8', dims: [7] },
    xla: { state: [5n, 13n], bits: [113n, 42n, 146n, 162n, 215n, 123n, 204n] } },
  { id: 'three_fry_rank0', algorithm: 'THREE_FRY', state: [3n, 4n], out: { dtype: 'u32', dims: [] },
    xla: { state: [3n, 5n], bits: [555017538n] } },
  { id: 'philox_u64_carry', algorithm: 'PHILOX', state: [1n, 0xffffffffffffffffn, 3n], out: { dtype: 'u64', dims: [5] },
    xla: { state: [1n, 2n, 4n], bits: [11247508148441932096n, 6629372568639681892n, 8119521485933073504n, 12539438364110701005n, 4751010393417666055n] } },
  { id: 'philox_u32', algorithm: 'PHILOX', state: [1n, 2n, 3n], out: { dtype: 'u32', dims: [5] },
    xla: { state: [1n, 4n, 3n], bits: [4031113034n, 1366700262n, 495645701n, 3051723414n, 89414891n] } },
  { id: 'default_u32_2x3', algorithm: 'DEFAULT', state: [1n, 0n], out: { dtype: 'u32', dims: [2, 3] },
    xla: { state: [1n, 2n], bits: [117906450n, 1115841718n, 956895307n, 1839381922n, 995334991n, 4031402112n] } },
];

function rngProgram(r: RngRow): string {
  const st = tensor([r.state.length], 'ui64');
  const out = tensor(r.out.dims, MLIR[r.out.dtype]!);
  return module(
    `jit_rng_${r.id}`,
    `  func.func public @main(%arg0: ${st}) -> (${st}, ${out}) {
    %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = ${r.algorithm} : (${st}) -> (${st}, ${out})
    return %output_state, %output : ${st}, ${out}
  }`,
  );
}

const u64s = (xs: readonly bigint[]) => new Uint8Array(BigUint64Array.from(xs).buffer);
const readU64s = (b: Uint8Array) => [...new BigUint64Array(b.buffer, b.byteOffset, b.byteLength / 8)];
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** One execution from `state`: the output state (as numbers) and the output's bytes. */
async function generate(ctx: CaseContext<unknown>, r: RngRow, state: readonly bigint[]): Promise<{ state: bigint[]; bits: Uint8Array }> {
  const stateSpec: OutSpec = { dtype: 'u64', dims: [state.length] };
  const [s, bits] = await declinedIsUnsupported(ctx, ['u64', r.out.dtype], () => run1(ctx.client, rngProgram(r), [{ dtype: 'u64', dims: [state.length], data: u64s(state) }], [stateSpec, r.out]));
  return { state: readU64s(s!), bits: bits! };
}

const SPEC = 'StableHLO spec rng_bit_generator: "Returns an `output` filled with uniform random bits and an updated output state … The output is guaranteed to be deterministic function of `initial_state`"';

t.case('deterministic', {
  source: 'framework',
  cite: `${SPEC} — two executions from the same initial_state give the same output and output_state (JAX lowers jax.random's rbg generators to it: jax/_src/random/rbg.py _rbg_random_bits)`,
  catches: ['rng_not_deterministic', 'execute_drops_last_output'],
})
  .params(ROWS)
  .run(async (ctx) => {
    const r = ctx.p;
    const first = await generate(ctx, r, r.state);
    const again = await generate(ctx, r, r.state);
    check.equal(hex(again.bits), hex(first.bits), `${r.algorithm}: the same initial_state must give the same bits on every execution`);
    check.equal(again.state, first.state, `${r.algorithm}: the same initial_state must give the same output_state on every execution`);
  });

t.case('state_distinguishes', {
  source: 'framework',
  cite: 'JAX\'s rbg PRNG (jax/_src/random/rbg.py, _rbg_random_bits) draws every random array as `_, bits = lax.rng_bit_generator(key, shape)`, the whole key being the initial_state: keys that differ (split keys, fold_in) must give different bits, or every key would draw the same numbers',
  catches: ['rng_ignores_initial_state'],
})
  .params(ROWS)
  .run(async (ctx) => {
    const r = ctx.p;
    const base = await generate(ctx, r, r.state);
    for (const word of [0, 1]) {
      const other = r.state.map((v, k) => (k === word ? BigInt.asUintN(64, v + 1n) : v));
      const changed = await generate(ctx, r, other);
      check.ok(hex(changed.bits) !== hex(base.bits), `${r.algorithm}: an initial_state that differs in word ${word} must give other bits`, 'different bits', `the same bits ${hex(base.bits)}`);
    }
  });

t.case('state_advances', {
  source: 'quality',
  cite: `${SPEC} — the output state is "updated": fed back as the next initial_state (as XLA's own RngBitGenerator users chain it) it gives new bits; no framework found that chains it (JAX's rbg discards it), hence quality`,
  catches: ['rng_state_not_advanced'],
})
  .params(ROWS)
  .run(async (ctx) => {
    const r = ctx.p;
    const first = await generate(ctx, r, r.state);
    check.ok(first.state.some((v, k) => v !== r.state[k]), `${r.algorithm}: output_state should differ from initial_state`, 'an updated state', `the initial state ${check.show(r.state)}`);
    const next = await generate(ctx, r, first.state);
    check.ok(hex(next.bits) !== hex(first.bits), `${r.algorithm}: generating again from output_state should give new bits`, 'different bits', `the same bits ${hex(first.bits)}`);
  });

t.case('xla_bits', {
  source: 'quality',
  cite: 'the spec leaves the bits implementation-defined ("not guaranteed to be deterministic between implementations"), so only as quality: XLA\'s CPU compiler gives the Threefry-2x32 (20 rounds) and Philox-4x32 (10 rounds) of xla/hlo/builder/lib/prng.cc laid out by RngBitGeneratorExpander (DEFAULT = PHILOX there); a plugin that matches them gives JAX programs the same random numbers as XLA does',
  catches: ['rng_not_deterministic', 'rng_ignores_initial_state', 'rng_state_not_advanced'],
})
  .params(ROWS)
  .run(async (ctx) => {
    const r = ctx.p;
    const got = await generate(ctx, r, r.state);
    const width = r.out.dtype === 'u8' ? 1 : r.out.dtype === 'u32' ? 4 : 8;
    const want = new Uint8Array(r.xla.bits.length * width);
    r.xla.bits.forEach((v, i) => want.set(u64s([v]).subarray(0, width), i * width));
    check.equal(got.state, r.xla.state, `${r.algorithm}: output_state should be XLA's`);
    check.equal(hex(got.bits), hex(want), `${r.algorithm}: the bits should be XLA's`);
  });
