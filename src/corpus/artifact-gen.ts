// Writing the committed portable artifacts (src/corpus/artifacts.ts) with jaxlib, through
// scripts/serialize-artifacts.py: used by scripts/gen-artifacts.ts and test/artifacts.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROBE_PROGRAM } from '../harness/program-forms.js';
import { packageRoot } from '../runner/paths.js';
import {
  artifactsDir, corpusDir, corpusIndexFile, suiteIndexFile, textSha256, VHLO_VERSIONS,
  type ArtifactWriter, type CorpusArtifactIndex, type SuiteArtifactIndex,
} from './artifacts.js';

export interface SerializeJob { key: string; text: string; versions: readonly string[]; each?: boolean }
export interface SerializeResult { key: string; artifacts: { version: string; bytes: Uint8Array }[]; error?: string }

export const serializerPath = (): string => path.join(packageRoot(), 'scripts', 'serialize-artifacts.py');

/** Runs the jaxlib serializer on `jobs` (versions tried in order; the first that works, or each with `each`). */
export function serialize(python: string, jobs: readonly SerializeJob[]): { writer: ArtifactWriter; results: SerializeResult[] } {
  const r = spawnSync(python, [serializerPath()], { input: JSON.stringify({ jobs }), encoding: 'utf8', maxBuffer: 1 << 30, timeout: 1_800_000 });
  if (r.error) throw new Error(`serialize-artifacts.py: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`serialize-artifacts.py exited with ${r.status ?? r.signal}: ${r.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  const out = JSON.parse(r.stdout) as ArtifactWriter & { results: { key: string; artifacts: { version: string; bytes: string }[]; error?: string }[] };
  return {
    writer: { jaxlib: out.jaxlib, minimum: out.minimum, current: out.current },
    results: out.results.map((x) => ({
      key: x.key,
      artifacts: x.artifacts.map((a) => ({ version: a.version, bytes: new Uint8Array(Buffer.from(a.bytes, 'base64')) })),
      ...(x.error !== undefined ? { error: x.error } : {}),
    })),
  };
}

/** The corpus's programs: name → text. */
export function corpusTexts(dir = corpusDir()): Map<string, string> {
  const names = readdirSync(dir).filter((f) => f.endsWith('.mlir')).map((f) => f.slice(0, -'.mlir'.length)).sort();
  return new Map(names.map((n) => [n, readFileSync(path.join(dir, `${n}.mlir`), 'utf8')]));
}

/** Every distinct text recorded by `PJRT_CTS_RECORD_PROGRAMS` runs into these directories, in a stable order. */
export function recordedTexts(dirs: readonly string[]): string[] {
  const texts = new Set<string>();
  for (const d of dirs) {
    for (const f of readdirSync(d).filter((x) => x.endsWith('.jsonl')).sort()) {
      for (const line of readFileSync(path.join(d, f), 'utf8').split('\n')) if (line.trim()) texts.add((JSON.parse(line) as { text: string }).text);
    }
  }
  return [...texts].sort((a, b) => (textSha256(a) < textSha256(b) ? -1 : 1));
}

/** The versions a program is tried at, oldest first (jaxlib refuses those outside its range). */
export const ALL_VERSIONS: readonly string[] = VHLO_VERSIONS;

const VERSIONS_SUBDIR = 'versions';

export interface GenReport {
  writer: ArtifactWriter;
  corpus: { count: number; bytes: number; byVersion: Record<string, number>; failed: Record<string, string> };
  suites: { count: number; bytes: number; byVersion: Record<string, number>; rejected: Record<string, string> } | undefined;
  versions: { count: number; bytes: number };
}

function tally(versions: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of versions) out[v] = (out[v] ?? 0) + 1;
  return out;
}

const firstLine = (s: string): string => s.split('\n')[0]!.slice(0, 200);

/**
 * Regenerates fixtures/programs/<name>.mlirbc (+ fixtures/artifacts/corpus.json), the every-version program, and — when `recorded`
 * names record-mode directories — fixtures/artifacts/<sha256>.mlirbc (+ index.json), replacing what was there.
 */
export function generateArtifacts(python: string, recorded: readonly string[] | undefined): GenReport {
  const corpus = corpusTexts();
  const corpusSet = new Set(corpus.values());
  const corpusJobs = [...corpus].map(([name, text]) => ({ key: name, text, versions: ALL_VERSIONS }));
  const previous = existsSync(suiteIndexFile()) ? (JSON.parse(readFileSync(suiteIndexFile(), 'utf8')) as SuiteArtifactIndex) : undefined;
  const suiteTexts = recorded ? recordedTexts(recorded).filter((t) => !corpusSet.has(t)) : undefined;
  const suiteJobs = (suiteTexts ?? []).map((text) => ({ key: textSha256(text), text, versions: ALL_VERSIONS }));
  const versionJob = { key: 'versions', text: PROBE_PROGRAM, versions: ALL_VERSIONS, each: true };
  const { writer, results } = serialize(python, [...corpusJobs, ...suiteJobs, versionJob]);
  const byKey = new Map(results.map((r) => [r.key, r]));

  // The corpus.
  const cdir = corpusDir();
  for (const f of readdirSync(cdir)) if (f.endsWith('.mlirbc')) rmSync(path.join(cdir, f));
  const corpusIndex: CorpusArtifactIndex = { ...writer, programs: {} };
  const failed: Record<string, string> = {};
  let corpusBytes = 0;
  for (const [name, text] of corpus) {
    const r = byKey.get(name)!;
    const a = r.artifacts[0];
    if (!a) { failed[name] = firstLine(r.error ?? 'no artifact'); continue; }
    writeFileSync(path.join(cdir, `${name}.mlirbc`), a.bytes);
    corpusBytes += a.bytes.length;
    corpusIndex.programs[name] = { version: a.version, sha256: textSha256(text) };
  }
  const adir = artifactsDir();
  mkdirSync(path.join(adir, VERSIONS_SUBDIR), { recursive: true });
  writeFileSync(corpusIndexFile(), JSON.stringify(corpusIndex, null, 1) + '\n');

  // The suites' texts (kept as they were without recordings) and the every-version program.
  const suiteIndex: SuiteArtifactIndex = { ...writer, programs: previous?.programs ?? {}, rejected: previous?.rejected ?? {}, versions: { sha256: textSha256(PROBE_PROGRAM), files: {} } };
  let suiteReport: GenReport['suites'];
  if (suiteTexts) {
    for (const f of readdirSync(adir)) if (f.endsWith('.mlirbc')) rmSync(path.join(adir, f));
    suiteIndex.programs = {};
    suiteIndex.rejected = {};
    let bytes = 0;
    for (const text of suiteTexts) {
      const sha = textSha256(text);
      const r = byKey.get(sha)!;
      const a = r.artifacts[0];
      if (!a) { suiteIndex.rejected[sha] = firstLine(r.error ?? 'no artifact'); continue; }
      writeFileSync(path.join(adir, `${sha}.mlirbc`), a.bytes);
      bytes += a.bytes.length;
      suiteIndex.programs[sha] = { version: a.version };
    }
    suiteReport = { count: Object.keys(suiteIndex.programs).length, bytes, byVersion: tally(Object.values(suiteIndex.programs).map((p) => p.version)), rejected: suiteIndex.rejected };
  }
  const vdir = path.join(adir, VERSIONS_SUBDIR);
  for (const f of readdirSync(vdir)) rmSync(path.join(vdir, f));
  let versionBytes = 0;
  for (const a of byKey.get('versions')!.artifacts) {
    const rel = `${VERSIONS_SUBDIR}/${a.version}.mlirbc`;
    writeFileSync(path.join(adir, rel), a.bytes);
    versionBytes += a.bytes.length;
    suiteIndex.versions.files[a.version] = rel;
  }
  writeFileSync(suiteIndexFile(), JSON.stringify(suiteIndex, null, 1) + '\n');
  return {
    writer,
    corpus: { count: Object.keys(corpusIndex.programs).length, bytes: corpusBytes, byVersion: tally(Object.values(corpusIndex.programs).map((p) => p.version)), failed },
    suites: suiteReport,
    versions: { count: Object.keys(suiteIndex.versions.files).length, bytes: versionBytes },
  };
}
