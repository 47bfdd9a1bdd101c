// The list of cases, obtained from a worker (the parent imports no suite file and so never the object model).
import { startWorker, type RunningChunk } from './child.js';
import { FatalWorkerError } from './scheduler.js';
import type { CatalogueEntry } from '../harness/types.js';
import { existsSync, statSync } from 'node:fs';
import { ConfigError } from '../config/errors.js';
import { CorpusError, loadCorpus, type CorpusEntry } from '../corpus/index.js';
import { checkSignature } from '../corpus/signature.js';
import { suitesDir } from '../config/paths.js';
import { suiteFiles } from '../worker/load-suites.js';
import { cachedCatalogue, catalogueKey, storeCatalogue } from './catalogue-cache.js';

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
  const cached = checkedCache(programs);
  if (cached.catalogue) return cached.catalogue;
  const { catalogue } = await listCases(programs, process.env, false);
  storeCatalogue(cached.key, catalogue);
  return catalogue;
}

/** The inputs checked (bad ones are exit 2 whether cached or not), then the cached catalogue if there is one. */
function checkedCache(programs: string | undefined): { key: string; catalogue?: CatalogueEntry[] } {
  checkSuites();
  if (programs) checkExternalCorpus(programs);
  const key = catalogueKey(programs);
  const catalogue = cachedCatalogue(key);
  return { key, ...(catalogue ? { catalogue } : {}) };
}

/**
 * The catalogue, from a list worker that then stays: started with the environment a run worker will have, it becomes
 * the run's first worker (its suites are imported already: `run` saves a whole import before the first case).
 * `spare` more workers start once `sparesAfter` settles (the preflight: on two CPUs a third process would only slow
 * the listing) and import the suites meanwhile, to become the run's other workers. Whoever takes the workers either
 * hands them on (scheduler `adopt`) or ends them.
 */
export async function loadCatalogueKeepingWorkers(
  programs: string | undefined, env: NodeJS.ProcessEnv, spare: number, sparesAfter: Promise<unknown> = Promise.resolve(),
): Promise<{ catalogue: CatalogueEntry[]; workers: RunningChunk[] }> {
  // A cached catalogue: no list worker to keep, and the scheduler's workers import only the suite files they need.
  const cached = checkedCache(programs);
  if (cached.catalogue) return { catalogue: cached.catalogue, workers: [] };
  const listing = listCases(programs, env, true).then((r) => (storeCatalogue(cached.key, r.catalogue), r));
  let stopped = false;
  const spares = sparesAfter.then(
    () => (stopped ? [] : Array.from({ length: spare }, () => startWorker({ type: 'import', ...(programs ? { programs } : {}) }, env, { onResult: () => undefined }, () => 0))),
    () => [],
  );
  try {
    const r = await listing;
    return { catalogue: r.catalogue, workers: [r.worker, ...(await spares)] };
  } catch (e) {
    // Not waited for: the spares start only once the preflight settles, and the error is due now.
    stopped = true;
    void spares.then((ws) => ws.forEach((w) => w.kill()));
    throw e;
  }
}

/** The compiled suites must be there: a directory without any would make every selection empty, for no reason said. */
function checkSuites(): void {
  const dir = suitesDir();
  if (suiteFiles(dir).length) return;
  const what = !existsSync(dir) ? 'no such directory' : !statSync(dir).isDirectory() ? 'not a directory' : 'it holds no compiled suite file (tier<N>/<area>.js)';
  if (process.env['PJRT_CTS_SUITES']) throw new ConfigError('$PJRT_CTS_SUITES', dir, `expected a directory of compiled suites: ${what}`);
  throw new ConfigError(dir, 'the compiled suites', `${what}: this installation is incomplete (in a checkout: npm run build)`);
}

async function listCases(programs: string | undefined, env: NodeJS.ProcessEnv, stay: boolean): Promise<{ catalogue: CatalogueEntry[]; worker: RunningChunk }> {
  let answered: (cases: CatalogueEntry[]) => void = () => undefined;
  const catalogue = new Promise<CatalogueEntry[]>((resolve) => (answered = resolve));
  const w = startWorker({ type: 'list', ...(programs ? { programs } : {}), ...(stay ? { stay } : {}) }, env, { onResult: () => undefined, onCatalogue: (c) => answered(c) }, () => 0);
  const first = await Promise.race([catalogue.then((cases) => ({ cases })), w.done.then((end) => ({ end }))]);
  if ('cases' in first && stay) return { catalogue: first.cases, worker: w };
  const end = await w.done;
  if (end.fatal) throw new FatalWorkerError(`loading the suites failed: ${end.fatal}`);
  if (!end.catalogue) throw new FatalWorkerError(`loading the suites failed: the worker ${end.death ?? 'sent no catalogue'}\n${end.stderrTail.join('\n')}`);
  return { catalogue: end.catalogue, worker: w };
}
