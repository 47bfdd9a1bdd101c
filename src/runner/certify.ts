// `run --certify`: a strict run judged against a must-pass list (src/config/must-pass.ts). Certification holds when
// every listed case passed; `unsupported` counts only for a case the list marks optional, with its reason.
import path from 'node:path';
import type { CaseResult } from '../config/results.js';
import { loadMustPass, type LoadedMustPass } from '../config/must-pass.js';
import { ConfigError } from '../config/errors.js';
import { ctsVersion, packageRoot } from '../config/paths.js';

/** The list `--certify` uses when given no file: the one committed for this CTS version. */
export function defaultMustPassFile(): string {
  return path.join(packageRoot(), 'certification', `must-pass-${ctsVersion()}.json`);
}

export function loadCertification(file: string | true): LoadedMustPass {
  const loaded = loadMustPass(file === true ? defaultMustPassFile() : path.resolve(file));
  const v = ctsVersion();
  if (loaded.list.ctsVersion !== v) {
    throw new ConfigError(loaded.file, '$.ctsVersion', `expected the must-pass list of this CTS version (${v}), got ${loaded.list.ctsVersion}`);
  }
  return loaded;
}

export interface CertificationOutcome {
  certified: boolean;
  /** Must-pass cases that did not pass (optional ones reported unsupported are not here), with their status. */
  missing: { id: string; status: string }[];
  text: string;
}

export function certify(results: readonly CaseResult[], m: LoadedMustPass): CertificationOutcome {
  const byId = new Map(results.map((r) => [r.id, r]));
  const missing: CertificationOutcome['missing'] = [];
  for (const c of m.list.cases) {
    const status = byId.get(c.id)?.status ?? 'not run';
    if (status === 'pass' || (status === 'unsupported' && c.optional)) continue;
    missing.push({ id: c.id, status });
  }
  const n = m.list.cases.length;
  const label = `must-pass ${m.list.ctsVersion} (${n} cases)`;
  if (!missing.length) return { certified: true, missing, text: `certified against ${label}` };
  const shown = missing.slice(0, 5).map((x) => `${x.id} (${x.status})`).join(', ');
  const more = missing.length > 5 ? `, ${missing.length - 5} more` : '';
  return { certified: false, missing, text: `NOT certified against ${label}: ${missing.length} did not pass: ${shown}${more}` };
}
