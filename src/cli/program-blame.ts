// A user's program that the plugin rejects is not always the plugin's fault. The bundled reference plugin is asked
// too: when it rejects the same program, the case's message says so (after a run), and `check-programs` asks it
// before one.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { FAILING, type CaseResult, type ResultsFile } from '../config/results.js';
import { packageRoot } from '../config/paths.js';
import { runCommand } from './run.js';

const BROKEN_PROGRAM = 'rejected by the reference plugin too: probably a broken program';
const EXTERNAL = 'external.program.';

const discard = (): NodeJS.WritableStream => new Writable({ write: (_c, _e, cb) => cb() });

/** The reference plugin's results for the external programs of `programs` (all of them, or those of `ids`). */
async function referenceResults(programs: string, ids?: readonly string[]): Promise<{ code: number; results: CaseResult[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pjrt-cts-programs-'));
  let file: ResultsFile | undefined;
  try {
    const code = await runCommand({
      config: path.join(packageRoot(), 'plugins.json'), plugin: 'reference', createOptions: {}, filters: ids ? [...ids] : [`${EXTERNAL}**`],
      excludes: [], jobs: 1, timeoutMs: 60_000, retries: 0, strict: false, list: false, matrix: false, stdout: discard(),
      programs, json: path.join(dir, 'reference.json'), onResults: (f) => (file = f),
    });
    return { code, results: file?.results ?? [] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** After a run with --programs: external programs that failed on the plugin and on the reference plugin say so. */
export async function markBrokenPrograms(results: CaseResult[], programs: string | undefined, library: string): Promise<void> {
  if (!programs) return;
  const failing = results.filter((r) => r.id.startsWith(EXTERNAL) && FAILING.has(r.status));
  if (!failing.length || path.basename(library).startsWith('libpjrt_reference')) return;
  const ref = new Map((await referenceResults(programs, failing.map((r) => r.id))).results.map((r) => [r.id, r]));
  for (const r of failing) {
    const x = ref.get(r.id);
    if (!x || !FAILING.has(x.status)) continue;
    const theirs = (x.message ?? x.status).split('\n')[0]!;
    r.message = `${BROKEN_PROGRAM}${(r.message ?? '').startsWith(theirs) ? '' : ` (it says: ${theirs})`}; ${r.message ?? ''}`.trimEnd();
  }
}

/**
 * `pjrt-cts check-programs DIR`: each sidecar against its program's signature (exit 2 at the first that disagrees,
 * naming it), then every program on the reference plugin. Returns the exit code: 0 when it accepts all of them,
 * 2 when some are probably broken (one line each on `err`).
 */
export async function checkPrograms(programs: string, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { code, results } = await referenceResults(programs);
  const broken = results.filter((r) => FAILING.has(r.status));
  const file = (id: string): string => path.join(programs, `${id.slice(`${EXTERNAL}run.`.length)}.mlir`);
  for (const r of broken) err.write(`pjrt-cts: error: ${file(r.id)}: ${BROKEN_PROGRAM}: ${(r.message ?? r.status).split('\n')[0]}\n`);
  const other = results.filter((r) => !FAILING.has(r.status) && r.status !== 'pass');
  for (const r of other) out.write(`${r.id}: ${r.status}${r.message ? `: ${r.message.split('\n')[0]}` : ''}\n`);
  out.write(`pjrt-cts check-programs: ${results.length - broken.length} of ${results.length} program(s) accepted by the reference plugin\n`);
  return broken.length ? 2 : code === 3 ? code : 0;
}
