// The special functions of CHLO (erf, erfc, erf_inv, lgamma, digamma) in double precision, and next_after on a
// type's bit patterns: the oracle of the CHLO corpus programs. Accurate to about 1e-13 relative, far inside the
// bounds the programs allow an f32 result.
import type { DtypeRow } from '../abi/dtypes.js';
import { bitsToFloat, floatToBits } from './floats.js';

const SQRT_PI = Math.sqrt(Math.PI);

/** erfc(x) for x >= 2: the continued fraction e^{-x²}/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))). */
function erfcLarge(x: number): number {
  let t = x;
  for (let k = 80; k >= 1; k--) t = x + k / 2 / t;
  return Math.exp(-x * x) / SQRT_PI / t;
}

/** erf(x) by its Maclaurin series (|x| < 2), else from the continued fraction of erfc. */
export function erf(x: number): number {
  if (Number.isNaN(x)) return x;
  if (Math.abs(x) >= 2) return Math.sign(x) * (1 - erfcLarge(Math.abs(x)));
  let term = x, sum = x;
  for (let n = 1; n < 200 && Math.abs(term) > 1e-17 * Math.abs(sum); n++) {
    term *= (-x * x) / n;
    sum += term / (2 * n + 1);
  }
  return (2 / SQRT_PI) * sum;
}

export function erfc(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x >= 2) return erfcLarge(x);
  if (x <= -2) return 2 - erfcLarge(-x);
  return 1 - erf(x);
}

/** The inverse of erf on (-1, 1) by Newton steps from Winitzki's closed form; ±1 give ±inf, outside NaN. */
export function erfInv(y: number): number {
  if (Number.isNaN(y) || y < -1 || y > 1) return NaN;
  if (y === 1 || y === -1) return y * Infinity;
  if (y === 0) return y;
  const a = 0.147, w = -Math.log((1 - y) * (1 + y)), t = 2 / (Math.PI * a) - w / 2;
  let x = Math.sign(y) * Math.sqrt(Math.sqrt(t * t + w / a) - t);
  for (let i = 0; i < 6; i++) x -= (erf(x) - y) / ((2 / SQRT_PI) * Math.exp(-x * x));
  return x;
}

// Lanczos approximation, g = 7, 9 coefficients (about 15 significant digits).
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** log|Γ(x)|: +inf at the poles (non-positive integers) and at ±inf. */
export function lgamma(x: number): number {
  if (Number.isNaN(x)) return x;
  if (!Number.isFinite(x)) return Infinity;
  if (x <= 0 && Number.isInteger(x)) return Infinity;
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  for (let k = 1; k < 9; k++) a += LANCZOS[k]! / (z + k);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** ψ(x): reflection below 1/2, the recurrence up to 10, then the asymptotic series; NaN at the poles. */
export function digamma(x: number): number {
  if (Number.isNaN(x) || x === -Infinity) return NaN;
  if (x <= 0 && Number.isInteger(x)) return NaN;
  if (x < 0.5) return digamma(1 - x) - Math.PI / Math.tan(Math.PI * x);
  let r = 0;
  while (x < 10) {
    r -= 1 / x;
    x += 1;
  }
  const f = 1 / (x * x);
  return r + Math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))));
}

/** The value of type `d` next to x in the direction of y (x = y: y; either NaN: NaN), on the type's bit patterns. */
export function nextAfter(d: DtypeRow, x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === y) return y;
  const bits = BigInt(d.bits);
  if (x === 0) return bitsToFloat(d, (y < 0 ? 1n << (bits - 1n) : 0n) | 1n);
  const b = floatToBits(d, x);
  return bitsToFloat(d, x < y === x > 0 ? b + 1n : b - 1n);
}

const BERNOULLI_2J = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510, 43867 / 798, -174611 / 330];

/**
 * Hurwitz ζ(x, q) = Σ_{k≥0} (q + k)^-x for x > 1, q > 0: 20 terms, then Euler–Maclaurin with 10 Bernoulli terms.
 * (The corpus takes it only inside that domain.)
 */
export function zeta(x: number, q: number): number {
  if (Number.isNaN(x) || Number.isNaN(q) || x < 1 || q <= 0) return NaN;
  if (x === 1) return Infinity;
  const n = 20;
  let s = 0;
  for (let k = 0; k < n; k++) s += Math.pow(q + k, -x);
  const a = q + n;
  s += Math.pow(a, 1 - x) / (x - 1) + Math.pow(a, -x) / 2;
  let fact = 1, rising = x, pow = Math.pow(a, -x - 1);
  for (let j = 1; j <= BERNOULLI_2J.length; j++) {
    fact *= (2 * j - 1) * (2 * j);
    s += (BERNOULLI_2J[j - 1]! / fact) * rising * pow;
    rising *= (x + 2 * j - 1) * (x + 2 * j);
    pow /= a * a;
  }
  return s;
}

/** ψ⁽ⁿ⁾(x) = (−1)^(n+1) n! ζ(n + 1, x) for a natural n (n = 0: digamma); other n: NaN. */
export function polygamma(n: number, x: number): number {
  if (Number.isNaN(n) || Number.isNaN(x) || n < 0 || !Number.isInteger(n)) return NaN;
  if (n === 0) return digamma(x);
  let fact = 1;
  for (let k = 2; k <= n; k++) fact *= k;
  return (n % 2 === 0 ? -1 : 1) * fact * zeta(n + 1, x);
}

/** I₁(x)·e^{−|x|} by the power series of I₁ (all terms positive, so exact to rounding for |x| up to a few hundred). */
export function besselI1e(x: number): number {
  if (Number.isNaN(x)) return x;
  const ax = Math.abs(x);
  if (ax === Infinity) return Math.sign(x) * 0;
  let term = ax / 2, sum = term;
  for (let k = 1; k < 1000 && term > 1e-17 * sum; k++) {
    term *= (ax * ax) / 4 / (k * (k + 1));
    sum += term;
  }
  return Math.sign(x) * sum * Math.exp(-ax);
}
