// JSON Schema (draft 2020-12) for the files people edit or consume, generated from the zod schemas.
import { z } from 'zod';
import { ExpectationsFile } from './expectations.js';
import { MustPassList } from './must-pass.js';
import { PluginsFile } from './plugins.js';
import { ResultsFile } from './results.js';
import { ComparisonReport, CompatReport } from './version-compat.js';

export const SCHEMA_FILES = {
  'plugins.schema.json': { schema: PluginsFile, title: 'pjrt-cts plugins.json', io: 'input' },
  'expectations.schema.json': { schema: ExpectationsFile, title: 'pjrt-cts expectations file', io: 'input' },
  'results.schema.json': { schema: ResultsFile, title: 'pjrt-cts results file', io: 'output' },
  'compare.schema.json': { schema: ComparisonReport, title: 'pjrt-cts compare --json output', io: 'output' },
  'compat.schema.json': { schema: CompatReport, title: 'pjrt-cts compat --json output', io: 'output' },
  'must-pass.schema.json': { schema: MustPassList, title: 'pjrt-cts must-pass list (certification/)', io: 'input' },
} as const;

export type SchemaName = keyof typeof SCHEMA_FILES;

export function jsonSchemaOf(name: SchemaName): Record<string, unknown> {
  const { schema, title, io } = SCHEMA_FILES[name];
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...out, title };
}
