// The capabilities a plugin declared it lacks, so JAX tests that need them are `unsupported` with that reason
// instead of failing: element types from a CTS results file of the same plugin (its capability matrix, recorded by
// `run`: 'op/dtype' cells), and a second device from the plugin's own answer (the device count JAX sees).
import { DTYPES, type DtypeRow } from '../abi/dtypes.js';
import { loadResultsOrStream } from '../runner/stream-results.js';

export interface LackedCapability {
  /** e.g. "f64" */
  name: string;
  reason: string;
  /** The spellings of it in JAX test names (numpy's dtype name, the short name), matched as whole words. */
  tokens: string[];
}

/** numpy's (ml_dtypes') name of an element type: float64, int8, bfloat16, float8_e4m3fn, complex64, bool. */
export function numpyName(d: DtypeRow): string {
  if (d.kind === 'pred') return 'bool';
  if (d.name === 'bf16') return 'bfloat16';
  if (d.kind === 'sint') return `int${d.bits}`;
  if (d.kind === 'uint') return `uint${d.bits}`;
  if (d.kind === 'complex') return `complex${d.bits}`;
  if (d.kind === 'float' && /^f\d+$/.test(d.name)) return `float${d.bits}`;
  return `float${d.bits}_${d.name.replace(/^f\d/, '')}`;
}

/**
 * The element types a results file shows lacking: a dtype column of its capability matrix with cells recorded and
 * none of them true (every program of that type was declined or failed).
 */
export function lackedFromResults(file: string): LackedCapability[] {
  const r = loadResultsOrStream(file);
  const seen = new Map<string, boolean>();
  for (const [key, v] of Object.entries(r.capabilities)) {
    const dt = key.slice(key.indexOf('/') + 1);
    seen.set(dt, (seen.get(dt) ?? false) || v === true);
  }
  const out: LackedCapability[] = [];
  for (const d of DTYPES) {
    if (seen.get(d.name) !== false) continue;
    const cells = Object.keys(r.capabilities).filter((k) => k.endsWith(`/${d.name}`)).length;
    out.push({ name: d.name, tokens: [...new Set([numpyName(d), d.name])], reason: `the plugin lacks ${d.name} (${numpyName(d)}): none of its ${cells} capability cell(s) held in ${file}` });
  }
  return out;
}

/** JAX's own skip messages that mean "needs more devices", with the count they ask for. */
const DEVICE_NEED = /(?:need|needs|require|requires|required|at least|more than|>=?|only)\s*(?:at least\s*)?(?:more\s*)?(?:>=?\s*)?(\d+|two|multiple|several)\s+(?:\w+\s+)?devices?/i;

/**
 * When JAX skipped a test for want of devices and the plugin has fewer than asked: the capability reason, from the
 * plugin's own answer (the device count JAX saw).
 */
export function deviceShortfall(skipMessage: string, devices: number | undefined): string | undefined {
  const m = DEVICE_NEED.exec(skipMessage);
  if (!m || devices === undefined) return undefined;
  const word = m[1]!.toLowerCase();
  const needed = /^\d+$/.test(word) ? Number(word) + (/more than/i.test(m[0]) ? 1 : 0) : 2;
  if (devices >= needed) return undefined;
  return `the plugin reports ${devices} device(s) and the test needs ${needed}: ${skipMessage}`;
}
