// The list of cases, obtained from a worker (the parent imports no suite file and so never the object model).
import { startWorker } from './child.js';
import { FatalWorkerError } from './scheduler.js';
import type { CatalogueEntry } from '../harness/types.js';

export async function loadCatalogue(programs?: string): Promise<CatalogueEntry[]> {
  const w = startWorker({ type: 'list', ...(programs ? { programs } : {}) }, process.env, { onResult: () => undefined }, () => 0);
  const end = await w.done;
  if (end.fatal) throw new FatalWorkerError(`loading the suites failed: ${end.fatal}`);
  if (!end.catalogue) throw new FatalWorkerError(`loading the suites failed: the worker ${end.death ?? 'sent no catalogue'}\n${end.stderrTail.join('\n')}`);
  return end.catalogue;
}
