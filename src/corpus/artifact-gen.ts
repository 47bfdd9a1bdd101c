// Writing the committed portable artifacts (src/corpus/artifacts.ts) with jaxlib, through
// scripts/serialize-artifacts.py: used by scripts/gen-artifacts.ts and test/artifacts.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../config/paths.js';
import {
  artifactsDir, corpusDir, suiteTextFile, suiteTextsDir, corpusIndexFile, PROBE_PROGRAM, readSuiteIndex, suiteIndexFile, textSha256, VHLO_VERSIONS,
  type ArtifactWriter, type CorpusArtifactIndex, type SuiteArtifactIndex,
} from './artifacts.js';

interface SerializeJob { key: string; text: string; versions: readonly string[]; each?: boolean }
interface SerializeResult { key: string; artifacts: { version: string; bytes: Uint8Array }[]; error?: string }

const serializerPath = (): string => path.join(packageRoot(), 'scripts', 'serialize-artifacts.py');

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

/** A text a reference run compiled, with the replicas and partitions it was compiled for (1 × 1 when not recorded). */
export interface RecordedProgram { text: string; replicas: number; partitions: number }

/** The module's own `mhlo.num_replicas` / `mhlo.num_partitions`, when its text states them. */
export function moduleDevices(text: string): { replicas?: number; partitions?: number } {
  const head = /^\s*module\b[^{]*\battributes\s*\{([^}]*)\}/m.exec(text)?.[1] ?? '';
  const attr = (name: string): number | undefined => {
    const m = new RegExp(`\\bmhlo\\.${name}\\s*=\\s*(\\d+)`).exec(head);
    return m ? Number(m[1]) : undefined;
  };
  const replicas = attr('num_replicas');
  const partitions = attr('num_partitions');
  return { ...(replicas !== undefined ? { replicas } : {}), ...(partitions !== undefined ? { partitions } : {}) };
}

/**
 * Every distinct text recorded by `PJRT_CTS_RECORD_PROGRAMS` runs into these directories, in a stable order, with the
 * devices the module states (else those recorded; a text compiled for several device counts keeps the largest).
 */
export function recordedPrograms(dirs: readonly string[]): RecordedProgram[] {
  const byText = new Map<string, RecordedProgram>();
  for (const d of dirs) {
    for (const f of readdirSync(d).filter((x) => x.endsWith('.jsonl')).sort()) {
      for (const line of readFileSync(path.join(d, f), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const r = JSON.parse(line) as { text: string; replicas?: number; partitions?: number };
        // What the module says wins; the compile options recorded are the fallback (absent when they came serialized).
        const stated = moduleDevices(r.text);
        const p = { text: r.text, replicas: stated.replicas ?? r.replicas ?? 1, partitions: stated.partitions ?? r.partitions ?? 1 };
        const had = byText.get(p.text);
        if (!had || p.replicas * p.partitions > had.replicas * had.partitions) byText.set(p.text, p);
      }
    }
  }
  return [...byText.values()].sort((a, b) => (textSha256(a.text) < textSha256(b.text) ? -1 : 1));
}

/** The texts alone (recordedPrograms). */
export const recordedTexts = (dirs: readonly string[]): string[] => recordedPrograms(dirs).map((p) => p.text);

/** The versions a program is tried at, oldest first (jaxlib refuses those outside its range). */
const ALL_VERSIONS: readonly string[] = VHLO_VERSIONS;

const VERSIONS_SUBDIR = 'versions';

/** What the committed artifacts should be: every file's bytes and both indexes. */
interface ArtifactPlan {
  writer: ArtifactWriter;
  /** absolute path → bytes, every .mlirbc */
  files: Map<string, Uint8Array>;
  corpusIndex: CorpusArtifactIndex;
  /** the suites' part is the previous index's when no recorded texts were given */
  suiteIndex: SuiteArtifactIndex;
  /** corpus programs jaxlib could not serialize: name → why */
  failed: Record<string, string>;
  /** whether the suites' store was planned from recorded texts */
  suitesPlanned: boolean;
}

const firstLine = (s: string): string => s.split('\n')[0]!.slice(0, 200);

/**
 * Serializes every corpus program at the lowest version that works, `suiteTexts` (texts a reference run compiles;
 * corpus programs among them are left out) likewise, and the probe program at every version.
 */
export function planArtifacts(python: string, suitePrograms: readonly RecordedProgram[] | undefined): ArtifactPlan {
  const corpus = corpusTexts();
  const corpusSet = new Set(corpus.values());
  const suites = suitePrograms?.filter((p) => !corpusSet.has(p.text));
  const { writer, results } = serialize(python, [
    ...[...corpus].map(([name, text]) => ({ key: `corpus:${name}`, text, versions: ALL_VERSIONS })),
    ...(suites ?? []).map(({ text }) => ({ key: `suite:${textSha256(text)}`, text, versions: ALL_VERSIONS })),
    { key: 'versions', text: PROBE_PROGRAM, versions: ALL_VERSIONS, each: true },
  ]);
  const byKey = new Map(results.map((r) => [r.key, r]));
  const files = new Map<string, Uint8Array>();
  const corpusIndex: CorpusArtifactIndex = { ...writer, programs: {} };
  const failed: Record<string, string> = {};
  for (const [name, text] of corpus) {
    const r = byKey.get(`corpus:${name}`)!;
    const a = r.artifacts[0];
    if (!a) { failed[name] = firstLine(r.error ?? 'no artifact'); continue; }
    files.set(path.join(corpusDir(), `${name}.mlirbc`), a.bytes);
    corpusIndex.programs[name] = { version: a.version, sha256: textSha256(text) };
  }
  const previous = readSuiteIndex();
  const suiteIndex: SuiteArtifactIndex = { ...writer, programs: {}, rejected: {}, versions: { sha256: textSha256(PROBE_PROGRAM), files: {} } };
  if (suites) {
    for (const { text, replicas, partitions } of suites) {
      const sha = textSha256(text);
      const r = byKey.get(`suite:${sha}`)!;
      const a = r.artifacts[0];
      files.set(suiteTextFile(sha), new TextEncoder().encode(text));
      if (!a) {
        suiteIndex.rejected[sha] = firstLine(r.error ?? 'no artifact');
        continue;
      }
      files.set(path.join(artifactsDir(), `${sha}.mlirbc`), a.bytes);
      suiteIndex.programs[sha] = { version: a.version, replicas, partitions };
    }
  } else if (previous) {
    suiteIndex.programs = previous.programs;
    suiteIndex.rejected = previous.rejected;
    const shas = Object.keys(previous.programs);
    const kept = [...shas.map((sha) => path.join(artifactsDir(), `${sha}.mlirbc`)), ...[...shas, ...Object.keys(previous.rejected)].map(suiteTextFile)];
    for (const f of kept) if (existsSync(f)) files.set(f, new Uint8Array(readFileSync(f)));
  }
  for (const a of byKey.get('versions')!.artifacts) {
    const rel = `${VERSIONS_SUBDIR}/${a.version}.mlirbc`;
    files.set(path.join(artifactsDir(), rel), a.bytes);
    suiteIndex.versions.files[a.version] = rel;
  }
  return { writer, files, corpusIndex, suiteIndex, failed, suitesPlanned: suites !== undefined };
}

export const indexJson = (index: CorpusArtifactIndex | SuiteArtifactIndex): string => JSON.stringify(index, null, 1) + '\n';

const listFiles = (dir: string, ext: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(ext)).map((f) => path.join(dir, f)) : []);

/** Every committed .mlirbc now on disk (the corpus's, the suites', the every-version ones). */
export function committedArtifactFiles(): string[] {
  return [...listFiles(corpusDir(), '.mlirbc'), ...listFiles(artifactsDir(), '.mlirbc'), ...listFiles(path.join(artifactsDir(), VERSIONS_SUBDIR), '.mlirbc')].sort();
}

/** Replaces the committed artifacts and indexes with the plan's. */
export function writeArtifacts(plan: ArtifactPlan): void {
  for (const f of [...committedArtifactFiles(), ...listFiles(suiteTextsDir(), '.mlir')]) if (!plan.files.has(f)) rmSync(f);
  mkdirSync(path.join(artifactsDir(), VERSIONS_SUBDIR), { recursive: true });
  mkdirSync(suiteTextsDir(), { recursive: true });
  for (const [f, bytes] of plan.files) writeFileSync(f, bytes);
  writeFileSync(corpusIndexFile(), indexJson(plan.corpusIndex));
  writeFileSync(suiteIndexFile(), indexJson(plan.suiteIndex));
}

function tally(versions: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of versions) out[v] = (out[v] ?? 0) + 1;
  return out;
}

interface PlanSummary {
  corpus: { count: number; bytes: number; byVersion: Record<string, number> };
  suites: { count: number; bytes: number; byVersion: Record<string, number>; rejected: number };
  versions: { count: number; bytes: number };
}

export function summarize(plan: ArtifactPlan): PlanSummary {
  const size = (f: string): number => plan.files.get(f)?.length ?? 0;
  const corpusFiles = Object.keys(plan.corpusIndex.programs).map((n) => path.join(corpusDir(), `${n}.mlirbc`));
  const suiteFiles = Object.keys(plan.suiteIndex.programs).map((s) => path.join(artifactsDir(), `${s}.mlirbc`));
  const versionFiles = Object.values(plan.suiteIndex.versions.files).map((r) => path.join(artifactsDir(), r));
  const sum = (fs: string[]): number => fs.reduce((n, f) => n + size(f), 0);
  return {
    corpus: { count: corpusFiles.length, bytes: sum(corpusFiles), byVersion: tally(Object.values(plan.corpusIndex.programs).map((p) => p.version)) },
    suites: { count: suiteFiles.length, bytes: sum(suiteFiles), byVersion: tally(Object.values(plan.suiteIndex.programs).map((p) => p.version)), rejected: Object.keys(plan.suiteIndex.rejected).length },
    versions: { count: versionFiles.length, bytes: sum(versionFiles) },
  };
}
