// Loading a corpus directory: every `<name>.json` sidecar is validated and paired with `<name>.mlir`.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KeyedCache, treesKey } from '../config/keyed-cache.js';
import { jsonTooDeep } from '../config/load-json.js';
import { readRegularFile } from '../config/read-file.js';
import { jsonPath, SidecarSchema, type Sidecar, type Tolerance, type Value } from './schema.js';
import { packValue } from './values.js';

export interface HostValue {
  dtype: string;
  dims: number[];
  /** little-endian row-major bytes */
  bytes: Uint8Array;
  spec: Value;
  /** the tolerance that applies to this value (output override or the sidecar's) */
  tolerance: Tolerance;
  /** outputs: other accepted results (same dtype and dims), each with the reason the answer is open */
  alternatives: { reason: string; data: Value['data'] }[];
  /** outputs: elements whose value is implementation-defined (not compared), with the reason */
  implementationDefined: { reason: string; elements: number[] }[];
}

export interface CorpusEntry {
  name: string;
  /** `<idPrefix>.<name>` */
  id: string;
  jsonFile: string;
  mlirFile: string;
  program: string;
  description: string;
  ops: string[];
  dtypes: string[];
  /** the reference plugin's faults the sidecar says the program's values expose (absent: it declares none) */
  catches?: string[];
  replicas: number;
  /** SPMD partitions per replica */
  partitions: number;
  /** arguments per program instance (instance = replica · partitions + partition): inputs[instance][arg] */
  inputs: HostValue[][];
  /** expected results per program instance: outputs[instance][result] */
  outputs: HostValue[][];
  tolerance: Tolerance;
}

export class CorpusError extends Error {
  constructor(
    readonly file: string,
    readonly path: string,
    reason: string,
  ) {
    super(`${file}: ${path}: ${reason}`);
    this.name = 'CorpusError';
  }
}

/** Names are file stems: letters, digits, `_`, `-`, `.`. */
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** The bytes are packed on first use: the sidecar's schema has already checked every element, and a process that
 * lists the cases, or runs some of them, never needs the others' bytes. */
function host(v: Value, tol: Tolerance): HostValue {
  let bytes: Uint8Array | undefined;
  return {
    dtype: v.dtype, dims: v.dims, spec: v, tolerance: v.tolerance ?? tol, alternatives: v.alternatives ?? [], implementationDefined: v.implementationDefined ?? [],
    get bytes(): Uint8Array {
      return (bytes ??= packValue(v));
    },
  };
}

/** A sidecar and its program, validated: `name` is the file stem, the directory is the caller's. */
interface Validated { name: string; sidecar: Sidecar; program: string }

/** Parse and validate one sidecar + program pair; throws CorpusError naming the file and JSON path. */
function validate(jsonFile: string): Validated {
  const name = basename(jsonFile, '.json');
  if (!NAME.test(name)) throw new CorpusError(jsonFile, '$', `file name '${name}' is not a valid id segment`);
  const sidecar = readRegularFile(jsonFile);
  if (!('text' in sidecar)) throw new CorpusError(jsonFile, '$', sidecar.notRegular ? `expected a sidecar file, but it is ${sidecar.notRegular}` : `cannot read it: ${sidecar.problem}`);
  let raw: unknown;
  try {
    raw = JSON.parse(sidecar.text);
  } catch (e) {
    throw new CorpusError(jsonFile, '$', `not valid JSON: ${(e as Error).message}`);
  }
  const deep = jsonTooDeep(raw);
  if (deep) throw new CorpusError(jsonFile, '$', deep);
  const r = SidecarSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new CorpusError(jsonFile, jsonPath(i.path), i.message);
  }
  const s = r.data;
  const mlirFile = jsonFile.replace(/\.json$/, '.mlir');
  if (!existsSync(mlirFile)) throw new CorpusError(jsonFile, '$', `program file ${basename(mlirFile)} is missing`);
  const text = readRegularFile(mlirFile);
  if (!('text' in text)) throw new CorpusError(mlirFile, '$', text.notRegular ? `expected a program file, but it is ${text.notRegular}` : `cannot read it: ${text.problem}`);
  const program = text.text;
  for (const key of ['replicas', 'partitions'] as const) {
    const m = new RegExp(`mhlo\\.num_${key}\\s*=\\s*(\\d+)`).exec(program);
    const declared = m ? Number(m[1]) : 1;
    if (declared !== s[key]) throw new CorpusError(jsonFile, `$.${key}`, `is ${s[key]} but ${basename(mlirFile)} declares mhlo.num_${key} = ${declared}`);
  }
  return { name, sidecar: s, program };
}

function entryOf(v: Validated, dir: string, idPrefix: string): CorpusEntry {
  const s = v.sidecar;
  const name = v.name;
  const jsonFile = join(dir, `${name}.json`);
  const perReplica = <T>(x: T[] | T[][]): T[][] => (s.replicas * s.partitions > 1 ? (x as T[][]) : [x as T[]]);
  return {
    name,
    id: `${idPrefix}.${name}`,
    jsonFile,
    mlirFile: join(dir, `${name}.mlir`),
    program: v.program,
    description: s.description,
    ops: s.ops,
    dtypes: s.dtypes,
    ...(s.catches ? { catches: s.catches } : {}),
    replicas: s.replicas,
    partitions: s.partitions,
    inputs: perReplica(s.inputs).map((vs) => vs.map((x) => host(x, s.tolerance))),
    outputs: perReplica(s.outputs).map((vs) => vs.map((x) => host(x, s.tolerance))),
    tolerance: s.tolerance,
  };
}

/** Parse and validate one sidecar + program pair; throws CorpusError naming the file and JSON path. */
export function loadEntry(jsonFile: string, idPrefix = 'tier1.program'): CorpusEntry {
  return entryOf(validate(jsonFile), dirname(jsonFile), idPrefix);
}

/**
 * Validated directories, kept in the per-user cache: reading and validating every sidecar of the built-in corpus is
 * about half a second of CPU, which every worker that runs a program case paid at its start (and a crashing plugin
 * pays per crash). The key covers the directory's files and the code that validates them (all of dist/src: the
 * schema leans on the dtype table, the float formats and the JSON readers).
 */
const validatedDirs = new KeyedCache<Validated[]>('corpus');
const CODE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));

/** Every entry of a corpus directory, sorted by name. A `.mlir` without a sidecar is an error too. */
export function loadCorpus(dir: string, opts: { idPrefix?: string } = {}): CorpusEntry[] {
  const files = readdirSync(dir).sort();
  for (const f of files) {
    if (f.endsWith('.mlir') && !files.includes(f.replace(/\.mlir$/, '.json'))) {
      throw new CorpusError(join(dir, f), '$', 'program has no .json sidecar');
    }
  }
  const key = treesKey([dir, CODE_DIR]);
  let validated = validatedDirs.get(key);
  if (!validated) {
    validated = files.filter((f) => f.endsWith('.json')).map((f) => validate(join(dir, f)));
    validatedDirs.set(key, validated);
  }
  return validated.map((v) => entryOf(v, dir, opts.idPrefix ?? 'tier1.program'));
}

const loaded = new Map<string, readonly CorpusEntry[]>();

/**
 * The built-in corpus as the suites see it: loaded once per process (three suite files read the same directory), so
 * every entry is shared and must not be changed.
 */
export function loadCorpusOnce(dir: string): readonly CorpusEntry[] {
  let entries = loaded.get(dir);
  if (!entries) loaded.set(dir, (entries = Object.freeze(loadCorpus(dir))));
  return entries;
}
