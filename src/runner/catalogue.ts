// The list of cases, obtained from a worker (the parent imports no suite file and so never the object model).
import { startWorker } from './child.js';
import { FatalWorkerError } from './scheduler.js';
import type { CatalogueEntry } from '../harness/types.js';
import { existsSync, statSync } from 'node:fs';
import { ConfigError } from '../config/errors.js';
import { CorpusError, loadCorpus, type CorpusEntry } from '../corpus/index.js';
import { checkSignature } from '../corpus/signature.js';

/** An external corpus is a person's input: check it here, so a bad one is exit 2 with its file and JSON path. */
function checkExternalCorpus(dir: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConfigError('--programs', dir, 'expected a directory of <name>.mlir + <name>.json programs');
  let found: unknown[];
  try {
    found = loadCorpus(dir, { idPrefix: 'external.program' });
    for (const e of found as CorpusEntry[]) checkSignature(e);
  } catch (e) {
    if (e instanceof CorpusError) throw new ConfigError(e.file, e.path, e.message.slice(`${e.file}: ${e.path}: `.length));
    throw e;
  }
  // An empty corpus would add no case and pass: a wrong directory must not look like a green run.
  if (!found.length) throw new ConfigError('--programs', dir, 'expected at least one program (<name>.mlir + <name>.json), but the directory has none');
}

export async function loadCatalogue(programs?: string): Promise<CatalogueEntry[]> {
  if (programs) checkExternalCorpus(programs);
  const w = startWorker({ type: 'list', ...(programs ? { programs } : {}) }, process.env, { onResult: () => undefined }, () => 0);
  const end = await w.done;
  if (end.fatal) throw new FatalWorkerError(`loading the suites failed: ${end.fatal}`);
  if (!end.catalogue) throw new FatalWorkerError(`loading the suites failed: the worker ${end.death ?? 'sent no catalogue'}\n${end.stderrTail.join('\n')}`);
  return end.catalogue;
}
