// complex, real, imag and the complex forms of negate, abs, add, subtract, multiply, divide and compare EQ/NE.
// Parts compute in f64 and round once to the part type (f32 for c64, f64 for c128).
import { dtype as dtypeByName, type DtypeRow } from '../abi/dtypes.js';
import { roundTo } from './floats.js';
import { Tensor, partDtype, type Complex } from './tensor.js';

function complexOfPart(p: DtypeRow): DtypeRow {
  if (p.name === 'f32') return dtypeByName('c64');
  if (p.name === 'f64') return dtypeByName('c128');
  throw new Error(`complex: no complex type with ${p.name} parts`);
}

function at(t: Tensor, i: number): Complex {
  return t.get(i) as Complex;
}

/** stablehlo.complex: real and imaginary parts (f32 → c64, f64 → c128). */
export function complexOf(re: Tensor, im: Tensor): Tensor {
  const out = new Tensor(complexOfPart(re.dtype), re.dims);
  for (let i = 0; i < re.size; i++) out.set(i, { re: re.get(i) as number, im: im.get(i) as number });
  return out;
}

/** stablehlo.real / stablehlo.imag; on a float operand the real part is the operand and the imaginary part zero. */
export function complexPart(t: Tensor, part: 're' | 'im'): Tensor {
  if (t.dtype.kind === 'float') return part === 're' ? t : new Tensor(t.dtype, t.dims);
  const out = new Tensor(partDtype(t.dtype), t.dims);
  for (let i = 0; i < t.size; i++) out.set(i, at(t, i)[part]);
  return out;
}

const BINARY: Record<string, (x: Complex, y: Complex) => Complex> = {
  add: (x, y) => ({ re: x.re + y.re, im: x.im + y.im }),
  subtract: (x, y) => ({ re: x.re - y.re, im: x.im - y.im }),
  multiply: (x, y) => ({ re: x.re * y.re - x.im * y.im, im: x.re * y.im + x.im * y.re }),
  divide: (x, y) => {
    const den = y.re * y.re + y.im * y.im;
    return { re: (x.re * y.re + x.im * y.im) / den, im: (x.im * y.re - x.re * y.im) / den };
  },
};

export function complexBinary(op: string, a: Tensor, b: Tensor): Tensor {
  const f = BINARY[op];
  if (!f) throw new Error(`no complex ${op}`);
  const p = partDtype(a.dtype);
  const out = new Tensor(a.dtype, a.dims);
  for (let i = 0; i < a.size; i++) {
    const z = f(at(a, i), at(b, i));
    out.set(i, { re: roundTo(p, z.re), im: roundTo(p, z.im) });
  }
  return out;
}

export function complexNegate(t: Tensor): Tensor {
  const out = new Tensor(t.dtype, t.dims);
  for (let i = 0; i < t.size; i++) out.set(i, { re: -at(t, i).re, im: -at(t, i).im });
  return out;
}

/** abs of a complex number: its modulus, of the part type. */
export function complexAbs(t: Tensor): Tensor {
  const p = partDtype(t.dtype);
  const out = new Tensor(p, t.dims);
  for (let i = 0; i < t.size; i++) out.set(i, roundTo(p, Math.hypot(at(t, i).re, at(t, i).im)));
  return out;
}

/** compare EQ / NE: both parts equal as floats (NaN equals nothing, −0 = +0). */
export function complexCompare(direction: 'EQ' | 'NE', a: Tensor, b: Tensor): Tensor {
  const out = new Tensor(dtypeByName('pred'), a.dims);
  for (let i = 0; i < a.size; i++) {
    const [x, y] = [at(a, i), at(b, i)];
    const eq = x.re === y.re && x.im === y.im;
    out.set(i, direction === 'EQ' ? eq : !eq);
  }
  return out;
}
