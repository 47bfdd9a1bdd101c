// The case registry, filled when suite files are imported.
import type { CaseDef, CatalogueEntry, Requirements, RequiresSpec } from './types.js';

const cases = new Map<string, CaseDef>();
const fileOf = new Map<string, string>();
let currentFile: string | undefined;

/** The suite file being imported (relative path); cases registered meanwhile belong to it. */
export function setCurrentFile(file: string | undefined): void {
  currentFile = file;
}

const SEGMENT = /^[A-Za-z0-9_+=:-]+(\.[A-Za-z0-9_+=:-]+)*$/;

export function validateIdPart(part: string, what: string): void {
  if (!SEGMENT.test(part)) throw new Error(`pjrt-cts: ${what} "${part}" must be dot-separated segments of letters, digits, _ + = : -`);
}

export function registerCase(def: CaseDef): void {
  if (cases.has(def.id)) throw new Error(`pjrt-cts: duplicate case id ${def.id}`);
  cases.set(def.id, def);
  if (currentFile) fileOf.set(def.id, currentFile);
}

/** In registration order (suite files are imported in sorted path order, so this is deterministic). */
export function allCases(): readonly CaseDef[] {
  return [...cases.values()];
}

export function getCase(id: string): CaseDef | undefined {
  return cases.get(id);
}


const slotName = (s: string): string => (s.startsWith('PJRT_') ? s : `PJRT_${s}`);

export function normalizeRequires(spec: RequiresSpec | undefined): Requirements {
  if (!spec) return {};
  if (Array.isArray(spec)) return { slots: (spec as readonly string[]).map(slotName) };
  const r = spec as Requirements;
  const out: Requirements = {};
  if (r.minMinor !== undefined) out.minMinor = r.minMinor;
  if (r.slots?.length) out.slots = r.slots.map(slotName);
  if (r.capabilities?.length) out.capabilities = [...r.capabilities];
  return out;
}

export function mergeRequires(a: Requirements, b: Requirements): Requirements {
  const out: Requirements = {};
  const minor = Math.max(a.minMinor ?? -1, b.minMinor ?? -1);
  if (minor >= 0) out.minMinor = minor;
  const slots = [...new Set([...(a.slots ?? []), ...(b.slots ?? [])])];
  if (slots.length) out.slots = slots;
  const caps = [...new Set([...(a.capabilities ?? []), ...(b.capabilities ?? [])])];
  if (caps.length) out.capabilities = caps;
  return out;
}

export function catalogueEntry(d: CaseDef): CatalogueEntry {
  const e: CatalogueEntry = {
    id: d.id, area: d.area, tier: d.tier, catches: [...d.catches], source: d.source, cite: d.cite, requires: d.requires, required: d.required,
  };
  if (d.selfTest) e.selfTest = d.selfTest;
  if (d.control) e.control = d.control;
  if (d.dependsOn) e.dependsOn = d.dependsOn;
  if (d.timeoutMs !== undefined) e.timeoutMs = d.timeoutMs;
  if (d.slow) e.slow = true;
  if (d.heavy) e.heavy = true;
  if (d.description) e.description = d.description;
  const file = fileOf.get(d.id);
  if (file) e.file = file;
  return e;
}
