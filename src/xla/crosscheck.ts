// XLA as the corpus's referee: run corpus programs through XLA's own CPU compiler (jaxlib, driven by
// scripts/xla-crosscheck.py) and compare its answers with the sidecars' expected outputs under the corpus's own
// comparison rules (src/corpus/compare.ts: tolerance, subnormal flushing, signed zeros, alternatives), so whatever
// latitude the corpus grants applies here unchanged. Also: `expect`, which writes XLA's answers into sidecars.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compareOutput, compareValue, CorpusError, loadCorpus, loadEntry, unpackValue, type CorpusEntry, type HostValue } from '../corpus/index.js';
import { formatJson } from '../corpus/gen/json.js';
import { packageRoot } from '../config/paths.js';
import { BAD_PROGRAMS } from '../../suites/_lib/programs.js';

// ---- finding a Python with jax --------------------------------------------------------------------------------

/** The venv `.ci/run` creates, relative to the package root. */
const VENV_PYTHON = path.join('.cache', 'xla-venv', 'bin', 'python');

export const INSTALL_HINT =
  'install jax with `python3 -m venv .cache/xla-venv && .cache/xla-venv/bin/pip install jax==0.10.2 jaxlib==0.10.2` ' +
  '(offline from the image\'s wheel store: add `--index-url file:///opt/pypi/simple --extra-index-url file:///opt/pypi-more/simple`), ' +
  'or point PJRT_CTS_PYTHON at a python that can `import jax`';

interface PythonChoice {
  python: string;
  /** where it came from: `PJRT_CTS_PYTHON`, `--python` or the venv path */
  source: string;
}

/** `explicit` (a --python flag), else $PJRT_CTS_PYTHON, else `.cache/xla-venv/bin/python` when it exists, else null. */
export function findPython(explicit?: string, env: NodeJS.ProcessEnv = process.env): PythonChoice | null {
  if (explicit) return { python: explicit, source: '--python' };
  const e = env['PJRT_CTS_PYTHON'];
  if (e) return { python: e, source: 'PJRT_CTS_PYTHON' };
  const venv = path.join(packageRoot(), VENV_PYTHON);
  return existsSync(venv) ? { python: venv, source: venv } : null;
}

/** Null when `python` can import jax and jaxlib, else why not (one line). */
export function jaxProblem(python: string): string | null {
  const r = spawnSync(python, ['-c', 'import jax, jaxlib, ml_dtypes, numpy'], { encoding: 'utf8', timeout: 120_000 });
  if (r.error) return `cannot run ${python}: ${r.error.message}`;
  if (r.status !== 0) return `${python} cannot import jax: ${(r.stderr.trim().split('\n').pop() ?? '').trim()}`;
  return null;
}

/** A Python that imports jax, or why there is none (with the install recipe). */
export function pythonWithJax(explicit?: string): { python: string } | { problem: string } {
  const p = findPython(explicit);
  if (!p) return { problem: `jax is not installed (no PJRT_CTS_PYTHON, no ${VENV_PYTHON}): ${INSTALL_HINT}` };
  const why = jaxProblem(p.python);
  return why ? { problem: `${why} (from ${p.source}); ${INSTALL_HINT}` } : { python: p.python };
}

// ---- running XLA --------------------------------------------------------------------------------------------

interface XlaValue {
  dtype: string;
  dims: number[];
  hex: string;
}

interface XlaError {
  stage: 'inputs' | 'compile' | 'execute';
  code: string;
  message: string;
}

interface XlaProgram {
  name: string;
  expect: 'valid' | 'invalid';
  status: 'ok' | 'error';
  replicas: number;
  partitions?: number;
  /** the input bytes XLA was given, per program instance (replica-major) and argument (hex) */
  inputs?: string[][];
  /** XLA's results per program instance */
  outputs?: XlaValue[][];
  error?: XlaError;
  ms?: number;
}

interface XlaReport {
  tool: 'xla-crosscheck';
  jax: string;
  jaxlib: string;
  platform: string;
  platform_version: string;
  devices: number;
  seconds: number;
  programs: XlaProgram[];
}

function scriptPath(): string {
  return path.join(packageRoot(), 'scripts', 'xla-crosscheck.py');
}

interface RunXlaOptions {
  python: string;
  /** corpus directory */
  programs: string;
  /** directories of programs XLA must reject */
  invalid?: string[];
  /** only these program names */
  only?: string[];
  /** compile `<name>.mlir` (text, default) or its portable artifact `<name>.mlirbc` (docs/artifacts.md) */
  form?: 'text' | 'artifact';
  timeoutMs?: number;
}

/** Run scripts/xla-crosscheck.py and parse its report. Throws with the script's stderr on failure. */
export function runXla(o: RunXlaOptions): XlaReport {
  const dir = mkdtempSync(path.join(tmpdir(), 'pjrt-cts-xla-'));
  const out = path.join(dir, 'report.json');
  try {
    const args = [scriptPath(), '--programs', o.programs, '--out', out];
    for (const d of o.invalid ?? []) args.push('--invalid', d);
    for (const n of o.only ?? []) args.push('--only', n);
    if (o.form) args.push('--form', o.form);
    const r = spawnSync(o.python, args, { encoding: 'utf8', timeout: o.timeoutMs ?? 600_000, maxBuffer: 64 << 20 });
    if (r.error) throw new Error(`xla-crosscheck.py: ${r.error.message}`);
    if (r.status !== 0) throw new Error(`xla-crosscheck.py exited with ${r.status ?? r.signal}: ${r.stderr.trim().split('\n').slice(-5).join(' | ')}`);
    return JSON.parse(readFileSync(out, 'utf8')) as XlaReport;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The programs every compiler must reject (suites/_lib/programs.ts BAD_PROGRAMS, the ones tier1.compile.* sends)
 * written to a temporary directory as `<id>.mlir`. The corpus itself has no invalid programs.
 */
export function writeInvalidPrograms(): { dir: string; names: string[]; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'pjrt-cts-invalid-'));
  for (const p of BAD_PROGRAMS) writeFileSync(path.join(dir, `${p.id}.mlir`), p.text);
  return { dir, names: BAD_PROGRAMS.map((p) => p.id), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

// ---- comparing ----------------------------------------------------------------------------------------------

interface Disagreement {
  program: string;
  /** replica, output index (absent for whole-program findings) */
  replica?: number;
  output?: number;
  message: string;
}

interface CrossCheckResult {
  programs: number;
  /** valid programs whose every output XLA's answer matches */
  agree: number;
  /** … of which bit-identical to the expected data in every output */
  exact: number;
  /** outputs accepted only through the output's tolerance (ulp/abs/rel, subnormalsMayFlush, signedZeros) */
  viaTolerance: number;
  /** outputs accepted only through an alternative: reason → count */
  viaAlternative: Record<string, number>;
  /** every output XLA's answer matches only through tolerance or an alternative: program, label, how */
  accepted: { program: string; output: string; via: string }[];
  /** invalid programs XLA rejected, and how (code → count) */
  invalid: number;
  invalidRejected: number;
  rejectCodes: Record<string, number>;
  disagreements: Disagreement[];
  /** programs that disagree */
  disagreeing: string[];
}

const fromHex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
const eqBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Compare XLA's report with the corpus entries it ran (entries not in the report are ignored). */
export function crossCheck(entries: readonly CorpusEntry[], report: XlaReport): CrossCheckResult {
  const res: CrossCheckResult = {
    programs: 0, agree: 0, exact: 0, viaTolerance: 0, viaAlternative: {}, accepted: [], invalid: 0, invalidRejected: 0, rejectCodes: {}, disagreements: [], disagreeing: [],
  };
  const byName = new Map(entries.map((e) => [e.name, e]));
  for (const p of report.programs) {
    const before = res.disagreements.length;
    const add = (d: Omit<Disagreement, 'program'>) => res.disagreements.push({ program: p.name, ...d });
    if (p.expect === 'invalid') {
      res.invalid++;
      if (p.status === 'error') {
        res.invalidRejected++;
        res.rejectCodes[p.error!.code] = (res.rejectCodes[p.error!.code] ?? 0) + 1;
      } else add({ message: 'XLA compiled a program that must be rejected' });
      continue;
    }
    const e = byName.get(p.name);
    if (!e) continue;
    res.programs++;
    if (p.status === 'error') {
      const err = p.error!;
      add({ message: `XLA ${err.stage === 'inputs' ? 'could not use the sidecar' : `failed at ${err.stage}`}: ${err.code}: ${err.message.split('\n')[0]}` });
    } else {
      checkInputs(e, p, add);
      let exact = true;
      const outs = p.outputs ?? [];
      if (outs.length !== e.outputs.length) add({ message: `XLA ran ${outs.length} program instances, the sidecar expects ${e.outputs.length}` });
      e.outputs.forEach((want, r) => {
        const got = outs[r] ?? [];
        if (got.length !== want.length) add({ replica: r, message: `XLA returned ${got.length} outputs, the sidecar expects ${want.length}` });
        want.forEach((w, i) => {
          const g = got[i];
          if (!g) return;
          const label = `output ${i}${instanceLabel(e, r, ' of ')}`;
          if (g.dtype !== w.dtype || g.dims.join(',') !== w.dims.join(',')) {
            exact = false;
            add({ replica: r, output: i, message: `${label}: XLA gives ${g.dtype}[${g.dims.join(',')}], the sidecar expects ${w.dtype}[${w.dims.join(',')}]` });
            return;
          }
          const bytes = fromHex(g.hex);
          if (eqBytes(bytes, w.bytes)) return;
          exact = false;
          const why = compareOutput(w, bytes, label);
          if (why !== null) return add({ replica: r, output: i, message: why });
          if (compareValue(w.spec, bytes, w.tolerance) === null) {
            res.viaTolerance++;
            res.accepted.push({ program: p.name, output: label, via: `tolerance ${JSON.stringify(w.tolerance)}` });
          } else {
            const alt = w.alternatives.find((a) => compareValue({ ...w.spec, data: a.data }, bytes, w.tolerance) === null);
            const reason = alt?.reason ?? '(an alternative)';
            res.viaAlternative[reason] = (res.viaAlternative[reason] ?? 0) + 1;
            res.accepted.push({ program: p.name, output: label, via: `alternative: ${reason}` });
          }
        });
      });
      if (res.disagreements.length === before) {
        res.agree++;
        if (exact) res.exact++;
      }
    }
    if (res.disagreements.length > before) res.disagreeing.push(p.name);
  }
  return res;
}

/** `replica r` (or `replica r partition p`) after `sep`; empty for a one-instance program. */
function instanceLabel(e: CorpusEntry, i: number, sep: string): string {
  if (e.replicas * e.partitions === 1) return '';
  return e.partitions > 1 ? `${sep}replica ${Math.floor(i / e.partitions)} partition ${i % e.partitions}` : `${sep}replica ${i}`;
}

/** XLA must have been given exactly the corpus's input bytes (the Python side decodes the sidecar itself). */
function checkInputs(e: CorpusEntry, p: XlaProgram, add: (d: Omit<Disagreement, 'program'>) => void): void {
  e.inputs.forEach((vs: HostValue[], r) =>
    vs.forEach((v, k) => {
      const h = p.inputs?.[r]?.[k];
      if (h === undefined || !eqBytes(fromHex(h), v.bytes)) {
        add({ replica: r, message: `input ${k}${instanceLabel(e, r, ' of ')}: xla-crosscheck.py decoded the sidecar to other bytes than the corpus loader (a bug in the script)` });
      }
    }),
  );
}

export function renderCrossCheck(res: CrossCheckResult, report: XlaReport, maxShown = 200): string {
  const lines: string[] = [];
  lines.push(`XLA cross-check (jaxlib ${report.jaxlib}, ${report.platform}, ${report.devices} host devices, ${report.seconds} s in XLA):`);
  for (const d of res.disagreements.slice(0, maxShown)) lines.push(`  DISAGREE ${d.program}: ${d.message}`);
  if (res.disagreements.length > maxShown) lines.push(`  … and ${res.disagreements.length - maxShown} more`);
  const alt = Object.entries(res.viaAlternative);
  lines.push(
    `${res.programs} programs: ${res.agree} agree (${res.exact} bit-identical; outputs accepted through tolerance: ${res.viaTolerance}, ` +
      `through an alternative: ${alt.reduce((a, [, n]) => a + n, 0)}), ${res.disagreeing.length} disagree`,
  );
  for (const [reason, n] of alt) lines.push(`  ${n} × alternative: ${reason}`);
  if (res.invalid) {
    const codes = Object.entries(res.rejectCodes).map(([c, n]) => `${c} ${n}`).join(', ');
    lines.push(`${res.invalid} invalid programs: ${res.invalidRejected} rejected by XLA${codes ? ` (${codes})` : ''}, ${res.invalid - res.invalidRejected} accepted`);
  }
  lines.push(res.disagreements.length ? `${res.disagreements.length} unexplained disagreement(s) in ${res.disagreeing.length} program(s)` : '0 unexplained disagreements');
  return lines.join('\n') + '\n';
}

// ---- commands -----------------------------------------------------------------------------------------------

interface XlaCheckOptions {
  programs: string;
  python?: string;
  /** only these names */
  only?: string[];
  /** every k-th program (sorted by name) */
  sample?: number;
  /** also check that the suites' invalid programs are rejected (default true) */
  invalid?: boolean;
  /** compile the programs' portable artifacts instead of their text */
  form?: 'text' | 'artifact';
  json?: string;
  write: (s: string) => void;
  writeErr: (s: string) => void;
}

/** Exit code: 0 no unexplained disagreement, 1 some, 2 no jax / bad corpus. */
export async function xlaCheckCommand(o: XlaCheckOptions): Promise<{ code: number; result?: CrossCheckResult }> {
  const py = pythonWithJax(o.python);
  if ('problem' in py) {
    o.writeErr(`pjrt-cts: error: xla-check: ${py.problem}\n`);
    return { code: 2 };
  }
  const entries = loadCorpus(o.programs);
  let only = o.only;
  if (o.sample && o.sample > 1) only = entries.filter((_, i) => i % o.sample! === 0).map((e) => e.name);
  const inv = o.invalid === false ? undefined : writeInvalidPrograms();
  try {
    const report = runXla({ python: py.python, programs: o.programs, ...(inv ? { invalid: [inv.dir] } : {}), ...(only ? { only } : {}), ...(o.form ? { form: o.form } : {}) });
    const result = crossCheck(entries, report);
    if (o.json) writeFileSync(o.json, JSON.stringify({ report: { ...report, programs: undefined }, result }, null, 2) + '\n');
    o.write(renderCrossCheck(result, report));
    return { code: result.disagreements.length ? 1 : 0, result };
  } finally {
    inv?.cleanup();
  }
}

interface ExpectOptions {
  programs: string;
  python?: string;
  /** compare instead of writing; exit 1 on a mismatch */
  check: boolean;
  write: (s: string) => void;
  writeErr: (s: string) => void;
}

/**
 * `pjrt-cts expect`: fill each sidecar's `outputs` with XLA's CPU results (per-output `tolerance` kept; an output's
 * `alternatives` kept while its dtype and dims stay the same), or with `check`, report the outputs XLA's answers do
 * not match under the corpus rules. Exit: 0 done / all match, 1 mismatches (check) or XLA errors, 2 no jax.
 */
export function expectCommand(o: ExpectOptions): number {
  const py = pythonWithJax(o.python);
  if ('problem' in py) {
    o.writeErr(`pjrt-cts: error: expect: ${py.problem}\n`);
    return 2;
  }
  const sidecars = readdirSync(o.programs).filter((f) => f.endsWith('.json')).sort();
  const report = runXla({ python: py.python, programs: o.programs });
  let failed = 0;
  let changed = 0;
  let mismatched = 0;
  for (const p of report.programs) {
    const file = path.join(o.programs, `${p.name}.json`);
    if (p.status !== 'ok') {
      failed++;
      o.writeErr(`${p.name}: XLA ${p.error!.stage === 'inputs' ? 'could not use the sidecar' : `failed at ${p.error!.stage}`}: ${p.error!.code}: ${p.error!.message.split('\n')[0]}\n`);
      continue;
    }
    if (o.check) {
      let e: CorpusEntry;
      try {
        e = loadEntry(file, 'external.program');
      } catch (err) {
        if (!(err instanceof CorpusError)) throw err;
        mismatched++;
        o.write(`${p.name}: ${err.message}\n`);
        continue;
      }
      const res = crossCheck([e], { ...report, programs: [p] });
      if (res.disagreements.length) {
        mismatched++;
        for (const d of res.disagreements) o.write(`${p.name}: ${d.message}\n`);
      }
      continue;
    }
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const count = (k: string) => (typeof raw[k] === 'number' ? (raw[k] as number) : 1);
    const instances = count('replicas') * count('partitions');
    const old = raw['outputs'];
    const oldPer: unknown[][] = Array.isArray(old) ? (instances > 1 ? (old as unknown[][]) : [old]) : [];
    const fresh = p.outputs!.map((vs, r) =>
      vs.map((v, i) => {
        const value: Record<string, unknown> = unpackValue(v.dtype, v.dims, fromHex(v.hex)) as unknown as Record<string, unknown>;
        const prev = oldPer[r]?.[i] as Record<string, unknown> | undefined;
        if (prev && typeof prev === 'object') {
          if (prev['tolerance'] !== undefined) value['tolerance'] = prev['tolerance'];
          const same = prev['dtype'] === v.dtype && JSON.stringify(prev['dims']) === JSON.stringify(v.dims);
          if (same && prev['alternatives'] !== undefined) value['alternatives'] = prev['alternatives'];
        }
        return value;
      }),
    );
    const next = { ...raw, outputs: instances > 1 ? fresh : fresh[0] };
    const text = formatJson(next) + '\n';
    if (text !== readFileSync(file, 'utf8')) {
      writeFileSync(file, text);
      changed++;
    }
    loadEntry(file, 'external.program'); // the result must be a valid sidecar
  }
  const n = report.programs.length;
  if (o.check) {
    o.write(`${n} programs: ${n - failed - mismatched} match XLA's CPU results, ${mismatched} do not, ${failed} failed in XLA (jaxlib ${report.jaxlib})\n`);
    return mismatched || failed ? 1 : 0;
  }
  o.write(`${n} of ${sidecars.length} sidecars run: ${changed} updated, ${n - failed - changed} unchanged, ${failed} failed in XLA (jaxlib ${report.jaxlib})\n`);
  return failed ? 1 : 0;
}

/**
 * Element types XLA's CPU compiler (jaxlib 0.10.2) stores but does not compute with, so it cannot referee programs
 * that do arithmetic in them: converting to f6 gives "Invalid XLA PrimitiveType", converting from f6 an LLVM error,
 * and any arithmetic "failed to legalize operation" (checked with every exhaustive program of both f6 types).
 */
export const XLA_CPU_UNCOMPUTED_TYPES: Readonly<Record<string, string>> = {
  f6e2m3fn: 'XLA\'s CPU compiler does not compute in f6 types (arithmetic fails to legalize)',
  f6e3m2fn: 'XLA\'s CPU compiler does not compute in f6 types (arithmetic fails to legalize)',
};
