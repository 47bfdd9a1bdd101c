// `pjrt-cts repro <results> <id>… -o DIR` and `run --repro-dir DIR`: one folder per case that reproduces its failure
// without the CTS. Program cases get a Python script over jaxlib's client (program.ts); API cases a C program where a
// family covers them (c-families.ts), else their recorded call sequence (api.ts). API cases are run once more with
// the call log on, on the run's plugin when it is here (same SHA-256), else on the bundled reference plugin.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ConfigError } from '../config/errors.js';
import { ctsVersion } from '../config/paths.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';
import { FAILED, type CaseResult, type ResultsFile } from '../config/results.js';
import type { CatalogueEntry } from '../harness/types.js';
import { loadCatalogue } from '../runner/catalogue.js';
import { sha256File } from '../runner/identity.js';
import { named, refuseOverwrites } from '../runner/output-paths.js';
import { ensureDir } from '../runner/outputs.js';
import { pluginsFilePath, resolvePlugin } from '../runner/plugins.js';
import { loadResultsOrStream } from '../runner/stream-results.js';
import { writeApiRepro } from './api.js';
import { recordCases } from './calls.js';
import { namedValueOfJson } from './json-options.js';
import { writeProgramRepro } from './program.js';
import { isProgramCase, programSource, type ProgramSource } from './program-source.js';
import type { ReproExtras } from './readme.js';

export type ReproKind = 'python' | 'c' | 'calls';
export interface WrittenRepro { id: string; dir: string; kind: ReproKind; what: string }

/** A results file, its `.jsonl` stream, or either gzipped (`.json.gz`, as runs are archived). */
export function loadRunFile(file: string): ResultsFile {
  if (!existsSync(file)) throw new ConfigError(file, '$', 'no such results file');
  if (statSync(file).isDirectory()) throw new ConfigError(file, '$', 'expected a results file (run --json) or its .jsonl stream, but it is a directory');
  if (!file.endsWith('.gz')) return loadResultsOrStream(file);
  const dir = mkdtempSync(path.join(tmpdir(), 'pjrt-cts-repro-'));
  try {
    const plain = path.join(dir, path.basename(file, '.gz'));
    try {
      writeFileSync(plain, gunzipSync(readFileSync(file)));
    } catch (e) {
      throw new ConfigError(file, '$', `cannot be gunzipped (${(e as Error).message})`);
    }
    return loadResultsOrStream(plain);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `DIR` is no input the results derive (the CLI's path check has made sure it is a writable directory, or can be one). */
export function checkReproDir(flag: string, dir: string, inputs: readonly { flag: string; path: string | undefined; dir?: boolean }[]): void {
  refuseOverwrites(inputs.map((i) => named(i.flag, i.path, i.dir)), [named(flag, dir)]);
}

/**
 * Where API cases are recorded, in the run's environment: the run's plugin when it is on this machine (same library),
 * with the run's create options and environment; else, when the run's library is a build of the bundled reference
 * plugin (its file name), this checkout's build with the run's create options and environment; else the reference
 * plugin with the run's reference-plugin faults (PJRT_REFERENCE_FAULTS and the `faults` create option: a run that had
 * them on stood in for a defect with them).
 */
async function recordingPlugin(run: ResultsFile): Promise<{ plugin: ResolvedPlugin; why: string }> {
  const lib = run.plugin.path;
  const createOptions = Object.fromEntries(Object.entries(run.plugin.createOptions ?? {}).map(([k, v]) => [k, namedValueOfJson(v)]));
  const env = run.plugin.env ?? {};
  if (existsSync(lib) && (!run.plugin.sha256 || (await sha256File(lib)) === run.plugin.sha256)) {
    try {
      const entry = resolvePlugin(pluginsFilePath(), run.plugin.name, {}, { build: false });
      if (realpathSync(entry.library) === realpathSync(lib)) return { plugin: { ...entry, createOptions, env: { ...entry.env, ...env } }, why: 'the run\'s plugin entry, present here' };
    } catch { /* not an entry of this checkout's plugins.json */ }
    return { plugin: { name: run.plugin.name, library: lib, createOptions, env, rtldGlobal: false, byPath: true }, why: 'the run\'s plugin library, present here' };
  }
  const reference = resolvePlugin(pluginsFilePath(), 'reference');
  const absent = `the run's plugin library \`${path.basename(lib)}\` is not on this machine${existsSync(lib) ? ' (another build: its SHA-256 differs)' : ''}`;
  if (path.basename(lib) === path.basename(reference.library)) {
    return { plugin: { ...reference, createOptions, env: { ...reference.env, ...env } }, why: `${absent}; this checkout's build of it, with the run's create options and environment` };
  }
  const faults = env['PJRT_REFERENCE_FAULTS'];
  const faultOption = run.plugin.createOptions?.['faults'];
  return {
    plugin: {
      ...reference,
      ...(faults ? { env: { ...reference.env, PJRT_REFERENCE_FAULTS: faults } } : {}),
      ...(typeof faultOption === 'string' ? { createOptions: { ...reference.createOptions, faults: faultOption } } : {}),
    },
    why: `${absent}${faults || typeof faultOption === 'string' ? '; the reference plugin, with the run\'s reference-plugin faults' : ''}`,
  };
}

/** Why a case of the run has no reproducer, or undefined: only a recorded failure can be reproduced. */
function notReproducible(r: CaseResult): string | undefined {
  if (FAILED.has(r.status)) return undefined;
  return `the case ended ${r.status} in this run: there is no failure to reproduce (a reproducer is written for ${[...FAILED].join(', ')})`;
}

/** Workers that record API cases at a time. */
const RECORDING_LANES = 2;

/**
 * Writes the reproducer of each id into `<out>/<id>/`; the ids must be cases of `run`. Every case is checked (a
 * failure of the run, a case of this CTS, its program at hand) before anything is written: a refusal creates nothing.
 */
export async function writeReproducers(run: ResultsFile, ids: readonly string[], out: string, resultsFile: string, extra: ReproExtras = {}, flag = '--output'): Promise<WrittenRepro[]> {
  const byId = new Map(run.results.map((r) => [r.id, r]));
  const results = ids.map((id) => byId.get(id)!);
  const programs = run.run.programs;
  const refused = results.find((r) => notReproducible(r) !== undefined);
  if (refused) throw new ConfigError(resultsFile, refused.id, notReproducible(refused)!);
  const planned: { r: CaseResult; src?: ProgramSource; entry?: CatalogueEntry }[] = [];
  let catalogue: Map<string, CatalogueEntry> | undefined;
  for (const r of results) {
    let entry: CatalogueEntry | undefined;
    if (!isProgramCase(r.id)) {
      catalogue ??= new Map((await loadCatalogue(programs)).map((e) => [e.id, e]));
      entry = catalogue.get(r.id);
      if (!entry) throw new ConfigError(resultsFile, r.id, `not a case of this CTS (${ctsVersion()}): it cannot be run again to record its calls`);
    }
    const src = await programSource(r.id, programs, run, entry);
    if (typeof src === 'string') throw new ConfigError(resultsFile, r.id, src);
    planned.push({ r, ...(src ? { src } : {}), ...(entry ? { entry } : {}) });
  }
  if (!planned.length) return [];
  ensureDir(out, flag);
  const written = new Map<string, WrittenRepro>();
  const api: { r: CaseResult; entry: CatalogueEntry }[] = [];
  for (const { r, src, entry } of planned) {
    const dir = path.join(out, r.id);
    rmSync(dir, { recursive: true, force: true });
    if (src !== undefined) {
      const w = writeProgramRepro(dir, r, run, resultsFile, src, ctsVersion(), extra);
      written.set(r.id, { id: r.id, dir, kind: 'python', what: `repro.py over ${w.programFile} (${w.form})` });
    } else {
      api.push({ r, entry: entry! });
    }
  }
  if (api.length) {
    const recorder = await recordingPlugin(run);
    const recs = await recordCases(api.map((a) => ({ entry: a.entry })), recorder.plugin, recorder.why, { ...(programs ? { programs } : {}), lanes: RECORDING_LANES });
    api.forEach(({ r }, i) => {
      const dir = path.join(out, r.id);
      const w = writeApiRepro(dir, r, run, resultsFile, recs[i]!, ctsVersion(), extra);
      written.set(r.id, { id: r.id, dir, kind: w.kind, what: w.kind === 'c' ? `repro.c (${w.family})` : `calls.txt (${w.why})` });
    });
  }
  return results.map((r) => written.get(r.id)!);
}

export interface ReproOptions { results: string; ids: string[]; out: string; extra?: ReproExtras }

/** `pjrt-cts repro`: checks its inputs (ConfigError → exit 2), writes the reproducers, names each on stdout. */
export async function reproCommand(o: ReproOptions, write: (s: string) => void): Promise<number> {
  const run = loadRunFile(o.results);
  checkReproDir('--output', o.out, [{ flag: 'results', path: o.results }, { flag: '--programs', path: run.run.programs, dir: true }]);
  const known = new Set(run.results.map((r) => r.id));
  const unknown = o.ids.find((id) => !known.has(id));
  if (unknown !== undefined) throw new ConfigError(o.results, unknown, `no case with this id in the results (${run.results.length} cases; \`pjrt-cts list\` names them)`);
  for (const w of await writeReproducers(run, [...new Set(o.ids)], o.out, o.results, o.extra)) write(`${w.dir}: ${w.kind} reproducer, ${w.what}\n`);
  return 0;
}

/** The case a root cause's reproducer is made of: its first failing case. */
const representative = (ids: readonly string[], byId: ReadonlyMap<string, CaseResult>): string | undefined => ids.find((id) => byId.has(id));

/**
 * `run --repro-dir DIR`: one reproducer per root cause (and per rule under a broken foundation), of its first case;
 * each root cause records where it is (`repro`). They are written together (their API cases recorded in one
 * schedule); when that fails, one by one, and a reproducer that cannot be written is named on stderr. The run's
 * verdict does not change.
 */
export async function reproduceRootCauses(file: ResultsFile, dir: string, resultsFile: string, warn: (s: string) => void): Promise<void> {
  const byId = new Map(file.results.map((r) => [r.id, r]));
  const groups = (file.rootCauses ?? []).flatMap((rc) => [rc, ...(rc.following ?? [])]).flatMap((g) => {
    const id = representative(g.ids, byId);
    return id === undefined ? [] : [{ g, id }];
  });
  try {
    const written = new Map((await writeReproducers(file, [...new Set(groups.map((x) => x.id))], dir, resultsFile, {}, '--repro-dir')).map((w) => [w.id, w.dir]));
    for (const { g, id } of groups) g.repro = written.get(id)!;
    return;
  } catch { /* one of them cannot be written: each on its own, below */ }
  for (const { g, id } of groups) {
    try {
      const [w] = await writeReproducers(file, [id], dir, resultsFile, {}, '--repro-dir');
      if (w) g.repro = w.dir;
    } catch (e) {
      warn(`pjrt-cts: note: no reproducer for ${id}: ${e instanceof Error ? e.message : String(e)}\n`);
    }
  }
}
