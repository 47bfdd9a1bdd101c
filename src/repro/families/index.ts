// The API cases a C reproducer is generated for, family by family: each body makes the case's calls in the case's
// order with the case's arguments (what the case chose at run time — program bytes and their placement, compile
// options, topology name, whether a view got an on_delete_callback — is taken from the calls it was recorded making,
// src/repro/calls.ts) and performs the case's check with the case's rule text, so that it prints the verdict line
// the case printed. A case of no family gets its recorded call sequence instead (docs/repro.md: which are covered).
import picomatch from 'picomatch';
import { BUFFERS } from './buffers.js';
import { COMPILE } from './compile.js';
import { EVENTS } from './events.js';
import { QUERIES } from './queries.js';
import type { CBody, Family, FamilyInput } from './recorded.js';
import { TRANSFER_LITERAL } from './transfer-literal.js';
import { VIEWS } from './views.js';

export type { CBody, FamilyInput } from './recorded.js';

const FAMILIES: readonly Family[] = [QUERIES, BUFFERS, EVENTS, VIEWS, TRANSFER_LITERAL, COMPILE];

/** The family that reproduces `id` in C, if any. */
export function familyOf(id: string): { name: string; build: (input: FamilyInput) => CBody | string } | undefined {
  return FAMILIES.find((f) => picomatch(f.covers as string[], { dot: true })(id));
}

/** Every family with the cases it covers (for the docs and the tests). */
export const C_FAMILIES: readonly { name: string; covers: readonly string[] }[] = FAMILIES.map((f) => ({ name: f.name, covers: f.covers }));
