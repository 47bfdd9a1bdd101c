// Writes schemas/*.json (JSON Schema for editors and consumers) from the zod schemas.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkOutputDir } from './outputs.js';
import { jsonSchemaOf, SCHEMA_FILES, type SchemaName } from '../config/json-schema.js';

export function writeSchemas(dir: string): string[] {
  checkOutputDir(dir, '--out');
  return (Object.keys(SCHEMA_FILES) as SchemaName[]).map((name) => {
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify(jsonSchemaOf(name), null, 2) + '\n');
    return file;
  });
}
