// StableHLO portable artifacts (VHLO MLIR bytecode) of the programs the CTS compiles, as frameworks send them.
// JAX serializes every program with stablehlo::serializePortableArtifact at the plugin's reported version
// (xla/pjrt/mlir_to_hlo.cc); a plugin may accept nothing else. We cannot serialize in TypeScript, so the artifacts
// are made by jaxlib (scripts/gen-artifacts.ts → scripts/serialize-artifacts.py) and committed:
//   fixtures/programs/<name>.mlirbc      one per corpus program, index fixtures/artifacts/corpus.json
//   fixtures/artifacts/<sha256>.mlirbc   one per program text the suites compile, index fixtures/artifacts/index.json
//   fixtures/artifacts/versions/<v>.mlirbc  one small program at every VHLO version jaxlib writes
// A text's artifact is found by the SHA-256 of its UTF-8 text. docs/artifacts.md.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../config/paths.js';

/** The script that regenerates every artifact (named by "no artifact" messages). */
export const GEN_ARTIFACTS = 'node dist/scripts/gen-artifacts.js';

/** The trivial program of the probe (f32[] + 1); its artifact is committed like every other suite program's; src/harness/program-forms.ts probes with it. */
export const PROBE_PROGRAM = `module @pjrt_cts_program_form_probe {
  func.func public @main(%arg0: tensor<f32>) -> tensor<f32> {
    %c = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.add %arg0, %c : tensor<f32>
    return %0 : tensor<f32>
  }
}
`;

/** The StableHLO ops of PROBE_PROGRAM (and the return every function has): a fault of the artifact reader in one of
 *  these makes the plugin look as if it accepted no artifacts at all. */
export const PROBE_OPS: readonly string[] = ['constant', 'add', 'return'];

/**
 * The VHLO versions, oldest first, as stablehlo/dialect/VhloDialect.td lists them (0.13.0 was never a VHLO
 * version). jaxlib writes those between its stablehlo.get_minimum_version() and get_current_version().
 */
export const VHLO_VERSIONS = [
  '0.9.0', '0.10.0', '0.11.0', '0.12.0', '0.14.0', '0.15.0', '0.16.0', '0.17.0', '0.18.0', '0.19.0', '0.20.0',
  '1.0.0', '1.1.0', '1.2.0', '1.3.0', '1.4.0', '1.5.0', '1.6.0', '1.7.0', '1.8.0', '1.9.0', '1.10.0', '1.11.0',
  '1.12.0', '1.13.0', '1.14.0', '1.15.0', '1.16.0', '1.17.0', '1.18.0', '1.19.0', '1.20.0',
] as const;

/** -1, 0, 1 for two `major.minor.patch` versions. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

export const textSha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Who wrote an index: the jaxlib version and the VHLO range it could write. */
export interface ArtifactWriter { jaxlib: string; minimum: string; current: string }

/** fixtures/artifacts/corpus.json (not in the corpus directory, whose every .json is a sidecar): corpus program name → the target version it is serialized at and its text's hash. */
export interface CorpusArtifactIndex extends ArtifactWriter {
  programs: Record<string, { version: string; sha256: string }>;
}

/** fixtures/artifacts/index.json. */
export interface SuiteArtifactIndex extends ArtifactWriter {
  /** text hash → the target version of `<hash>.mlirbc`, and the replicas and partitions the suites compile it for; the text is texts/<hash>.mlir */
  programs: Record<string, { version: string; replicas: number; partitions: number }>;
  /** texts the suites compile that jaxlib refuses to serialize (the deliberately invalid ones): hash → why */
  rejected: Record<string, string>;
  /** one program at every version: its text's hash, and version → file under fixtures/artifacts */
  versions: { sha256: string; files: Record<string, string> };
}

export const corpusDir = (): string => path.join(packageRoot(), 'fixtures', 'programs');
export const artifactsDir = (): string => path.join(packageRoot(), 'fixtures', 'artifacts');
export const corpusIndexFile = (): string => path.join(artifactsDir(), 'corpus.json');
export const suiteIndexFile = (): string => path.join(artifactsDir(), 'index.json');
export const suiteTextsDir = (): string => path.join(artifactsDir(), 'texts');
/** The text of a program the suites compile (index.json "programs" and "rejected"), for the AOT cases (tier1.aot_compile.suite_program). */
export const suiteTextFile = (sha: string): string => path.join(suiteTextsDir(), `${sha}.mlir`);

function readJson<T>(file: string): T | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

export const readCorpusIndex = (): CorpusArtifactIndex | undefined => readJson<CorpusArtifactIndex>(corpusIndexFile());
export const readSuiteIndex = (): SuiteArtifactIndex | undefined => readJson<SuiteArtifactIndex>(suiteIndexFile());

interface StoredArtifact { file: string; version: string }

let byHash: Map<string, StoredArtifact> | undefined;

/** text hash → stored artifact, over both indexes (read once per process). */
function hashes(): Map<string, StoredArtifact> {
  if (byHash) return byHash;
  byHash = new Map();
  const corpus = readCorpusIndex();
  for (const [name, e] of Object.entries(corpus?.programs ?? {})) byHash.set(e.sha256, { file: path.join(corpusDir(), `${name}.mlirbc`), version: e.version });
  const suites = readSuiteIndex();
  for (const [sha, e] of Object.entries(suites?.programs ?? {})) byHash.set(sha, { file: path.join(artifactsDir(), `${sha}.mlirbc`), version: e.version });
  return byHash;
}

/** The committed artifact of this program text, if there is one. */
export function storedArtifact(text: string): StoredArtifact | undefined {
  const a = hashes().get(textSha256(text));
  return a && existsSync(a.file) ? a : undefined;
}

/** The small program serialized at every version: its text hash and version → absolute file. */
export function versionArtifacts(): { sha256: string; files: Map<string, string> } | undefined {
  const v = readSuiteIndex()?.versions;
  if (!v) return undefined;
  const files = new Map(Object.entries(v.files).map(([ver, f]) => [ver, path.join(artifactsDir(), f)] as const));
  return { sha256: v.sha256, files };
}
