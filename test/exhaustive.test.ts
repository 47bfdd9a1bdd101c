import assert from 'node:assert/strict';
import { dtype } from '../src/abi/dtypes.js';
import { checkResults, gridSide, GRID_SIDE, hostBytes, inputsOf, smallFloatTypes } from '../src/corpus/exhaustive.js';
import { BOUNDS, boundOf } from '../src/oracle/accuracy.js';
import { BINARY, UNARY } from '../src/oracle/elementwise.js';
import { bitsToFloat, epsilon, floatToBits, roundTo, smallestNormal } from '../src/oracle/floats.js';

const f16 = dtype('f16');
const bf16 = dtype('bf16');

/** The oracle's own answer as result bytes (what a perfect plugin returns). */
function oracleBytes(op: string, d: typeof f16, args: number[][], tweak?: (i: number, bits: number) => number): Uint8Array {
  const out = args[0]!.map((_, i) => {
    const xs = args.map((a) => bitsToFloat(d, BigInt(a[i]!)));
    const v = UNARY[op] ? UNARY[op]!.float!(xs[0]!) : BINARY[op]!.float!(xs[0]!, xs[1]!);
    const b = Number(floatToBits(d, roundTo(d, v)));
    return tweak ? tweak(i, b) : b;
  });
  return hostBytes(d, out);
}

describe('exhaustive numerics: bounds and checker', () => {
  it('restates XLA\'s bounds per type, each entry naming its source', () => {
    assert.equal(boundOf('exponential', f16)!.rel, 5 * epsilon(f16));
    assert.equal(boundOf('exponential', f16)!.abs, 2 * smallestNormal(f16));
    assert.equal(boundOf('exponential', bf16)!.rel, 2 * epsilon(bf16));
    assert.equal(boundOf('atan2', dtype('f32'))!.ulp, 3);
    assert.equal(boundOf('divide', f16)!.ulp, 1);
    assert.equal(boundOf('maximum', f16)!.strictZeros, false);
    assert.equal(boundOf('remainder', f16)!.xla, false);
    assert.equal(boundOf('abs', f16), undefined);
    for (const [op, b] of Object.entries(BOUNDS)) assert.match(b.source, b.xla ? /xla\/tests\/exhaustive\/.*TEST\(/ : /^ours: /, op);
  });

  it('enumerates every pattern and a full grid with the specials', () => {
    for (const d of smallFloatTypes()) {
      assert.equal(inputsOf('sine', d).args[0]!.length, 2 ** d.bits);
      const side = gridSide(d);
      assert.equal(new Set(side).size, Math.min(GRID_SIDE, 2 ** d.bits), d.name);
      const values = side.map((b) => bitsToFloat(d, BigInt(b)));
      // every special the type has (f8e4m3fn has no infinity, fnuz types no -0, f4/f6 no NaN, f8e8m0fnu no zero or sign)
      const all = Array.from({ length: 2 ** d.bits }, (_, b) => bitsToFloat(d, BigInt(b)));
      for (const want of [0, Infinity, -Infinity, 1, -1, smallestNormal(d)].filter((v) => all.includes(v))) assert.ok(values.includes(want), `${d.name}: ${want}`);
      if (all.some((v) => Number.isNaN(v))) assert.ok(values.some((v) => Number.isNaN(v)), `${d.name}: NaN`);
      if (all.some((v) => Object.is(v, -0))) assert.ok(values.some((v) => Object.is(v, -0)), `${d.name}: -0`);
    }
  });

  it('passes the oracle\'s own results and measures a plugin\'s distance', () => {
    const inputs = inputsOf('exponential', f16);
    const exact = checkResults('exponential', f16, inputs, oracleBytes('exponential', f16, inputs.args));
    assert.equal(exact.mismatches, 0);
    assert.equal(exact.maxUlp, 0);
    // one ulp up on every finite positive result: inside exp's relative bound
    const near = checkResults('exponential', f16, inputs, oracleBytes('exponential', f16, inputs.args, (_i, b) => (b > 0 && b < 0x7bff ? b + 1 : b)));
    assert.equal(near.mismatches, 0);
    assert.equal(near.maxUlp, 1);
  });

  it('catches one ulp where the bound is exact, and names the input', () => {
    const inputs = inputsOf('multiply', bf16);
    const at = inputs.args[0]!.findIndex((b, i) => bitsToFloat(bf16, BigInt(b)) === 1 && bitsToFloat(bf16, BigInt(inputs.args[1]![i]!)) === 2);
    const r = checkResults('multiply', bf16, inputs, oracleBytes('multiply', bf16, inputs.args, (i, b) => (i === at ? b + 1 : b)));
    assert.equal(r.mismatches, 1);
    assert.deepEqual(r.first[0]!.inputs, inputs.args.map((a) => a[at]));
  });

  it('accepts subnormal inputs read as zero, and flushed subnormal results only where the bound allows', () => {
    const inputs = inputsOf('add', f16);
    const sub = (b: number) => { const v = bitsToFloat(f16, BigInt(b)); return v !== 0 && Math.abs(v) < smallestNormal(f16); };
    // a plugin that flushes subnormal inputs of add: each such element is the sum with that input read as +0 or -0
    const flushedInputs = oracleBytes('add', f16, inputs.args.map((a) => a.map((b) => (sub(b) ? (b & 0x8000) : b))));
    const r = checkResults('add', f16, inputs, flushedInputs);
    assert.equal(r.mismatches, 0);
    assert.ok(r.substituted > 0);
    // f16 add allows no flushed result from normal operands: 1.5·2^-14 − 2^-14 must stay 2^-15
    const flushedOutputs = oracleBytes('add', f16, inputs.args, (_i, b) => (sub(b) && b !== 0 ? 0 : b));
    assert.ok(checkResults('add', f16, inputs, flushedOutputs).mismatches > 0);
    // bf16 add does (XLA's CPU flushes)
    const bin = inputsOf('add', bf16);
    const subB = (b: number) => { const v = bitsToFloat(bf16, BigInt(b)); return v !== 0 && Math.abs(v) < smallestNormal(bf16); };
    assert.equal(checkResults('add', bf16, bin, oracleBytes('add', bf16, bin.args, (_i, b) => (subB(b) ? b & 0x8000 : b))).mismatches, 0);
  });
});
