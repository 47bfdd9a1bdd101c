// The forms in which a plugin accepts a StableHLO program under format "mlir": `text` (the textual IR) and
// `artifact` (a portable artifact: VHLO MLIR bytecode, what JAX sends). Decided once per worker process: declared in
// plugins.json (`programForms`), else probed by compiling a trivial program in each form (an error: not accepted).
// Cases that run programs send the text when it is accepted, else the committed artifact of that text
// (src/corpus/artifacts.ts); a text without one makes the case unsupported, naming the script that writes it.
import { readFileSync, statSync } from 'node:fs';
import { compareVersions, GEN_ARTIFACTS, PROBE_PROGRAM, storedArtifact } from '../corpus/artifacts.js';
import type { Client, Program } from '../pjrt/index.js';
import { UnsupportedSignal } from './signals.js';

export const PROGRAM_FORMS = ['text', 'artifact'] as const;
export type ProgramForm = (typeof PROGRAM_FORMS)[number];

export { PROBE_PROGRAM };

export interface ProgramForms {
  accepted: ProgramForm[];
  how: 'declared' | 'probed';
  /** per form not accepted: why (the plugin's error, or the declaration) */
  rejected: Partial<Record<ProgramForm, string>>;
}

let declared: readonly ProgramForm[] | undefined;
let decided: Promise<ProgramForms> | undefined;
let settled: ProgramForms | undefined;

/** Forgets the probed forms (the plugin's configuration changed: PluginSession.switchCreateOptions); declared ones stay. */
export function forgetProgramForms(): void {
  decided = undefined;
  settled = undefined;
}

/** The forms decided so far in this process (undefined before the first programForms call has settled). */
export const knownProgramForms = (): ProgramForms | undefined => settled;

let pluginCurrent: string | undefined;

/**
 * The plugin's `stablehlo_current_version` attribute ([major, minor, patch]), if it reports one: an artifact newer
 * than that is not sent (the case is unsupported), as XLA's C-API client never serializes beyond it.
 */
export function noteStablehloCurrentVersion(v: unknown): void {
  pluginCurrent = versionString(v);
}

/** `major.minor.patch` of a PJRT_NamedValue kInt64List of three, else undefined. */
export function versionString(v: unknown): string | undefined {
  return Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'bigint' || typeof x === 'number') ? v.map(String).join('.') : undefined;
}

/** The VHLO version an artifact was written at: its producer string `StableHLO_v<major.minor.patch>`. */
export function artifactVersion(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 64)).toString('latin1');
  return /StableHLO_v(\d+\.\d+\.\d+)/.exec(head)?.[1];
}

/** The plugins.json declaration of this worker's plugin (undefined: probe). */
export function declareProgramForms(forms: readonly ProgramForm[] | undefined): void {
  declared = forms;
  decided = undefined;
  settled = undefined;
}

/** The artifact bytes of `text`, or undefined when none is committed. `file`: a corpus's own `<name>.mlirbc`. */
export function artifactOf(text: string, file?: string): Uint8Array | undefined {
  if (file) {
    try {
      // Not a regular file (a FIFO would block the read): as if there were none.
      if (statSync(file).isFile()) return new Uint8Array(readFileSync(file));
    } catch { /* fall back to the store */ }
  }
  const a = storedArtifact(text);
  return a ? new Uint8Array(readFileSync(a.file)) : undefined;
}

const describe = (e: unknown): string => (e instanceof Error ? e.message.split('\n')[0]! : String(e));

async function probeForm(client: Client, form: ProgramForm): Promise<string | undefined> {
  let code: string | Uint8Array = PROBE_PROGRAM;
  if (form === 'artifact') {
    const bytes = artifactOf(PROBE_PROGRAM);
    if (!bytes) return `no committed artifact of the probe program (run ${GEN_ARTIFACTS})`;
    code = bytes;
  }
  try {
    const exe = await client.compile({ code, format: 'mlir' });
    exe.destroy();
    return undefined;
  } catch (e) {
    return `PJRT_Client_Compile of the probe program as ${form}: ${describe(e)}`;
  }
}

/** The forms this worker's plugin accepts: declared, else probed on `client` once per process. */
export function programForms(client: Client): Promise<ProgramForms> {
  decided ??= (async (): Promise<ProgramForms> => {
    if (declared) {
      const rejected: ProgramForms['rejected'] = {};
      for (const f of PROGRAM_FORMS) if (!declared.includes(f)) rejected[f] = 'not in plugins.json programForms';
      return { accepted: [...declared], how: 'declared', rejected };
    }
    const accepted: ProgramForm[] = [];
    const rejected: ProgramForms['rejected'] = {};
    for (const f of PROGRAM_FORMS) {
      const why = await probeForm(client, f);
      if (why === undefined) accepted.push(f);
      else rejected[f] = why;
    }
    return { accepted, how: 'probed', rejected };
  })();
  void decided.then((f) => (settled = f), () => undefined);
  return decided;
}

/**
 * The program to send for a StableHLO text: the text when the plugin accepts text (or accepts neither form: the
 * plugin's own error then shows), else the committed artifact; none → the case is unsupported.
 */
export async function programFor(client: Client, text: string, artifactFile?: string): Promise<Program> {
  const forms = await programForms(client);
  if (forms.accepted.includes('text') || !forms.accepted.includes('artifact')) return { code: text, format: 'mlir' };
  const bytes = artifactOf(text, artifactFile);
  if (!bytes) {
    throw new UnsupportedSignal(`the plugin accepts programs only as portable artifacts and this program text has no committed artifact (run ${GEN_ARTIFACTS})`);
  }
  const version = artifactVersion(bytes);
  if (pluginCurrent && version && compareVersions(version, pluginCurrent) > 0) {
    throw new UnsupportedSignal(`the program's portable artifact needs StableHLO ${version} (the lowest version it serializes at); the plugin reads up to stablehlo_current_version ${pluginCurrent}`);
  }
  return { code: bytes, format: 'mlir' };
}
