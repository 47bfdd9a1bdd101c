// Writes schemas/*.json (JSON Schema for editors and consumers) from the zod schemas.
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from './atomic-write.js';
import path from 'node:path';
import { checkOutputDir, ensureDir } from './outputs.js';
import { ConfigError } from '../config/errors.js';
import { jsonSchemaOf, SCHEMA_FILES, type SchemaName } from '../config/json-schema.js';
import { named, refuseOverwrites } from './output-paths.js';
import { configRead } from './run-paths.js';

/** A file there already that is not one of our schemas (someone's own file of that name) is never overwritten. */
function ours(file: string): boolean {
  try {
    return /^pjrt-cts /.test(String((JSON.parse(readFileSync(file, 'utf8')) as { title?: unknown }).title));
  } catch {
    return false;
  }
}

export function writeSchemas(dir: string): string[] {
  checkOutputDir(dir, '--out');
  const names = Object.keys(SCHEMA_FILES) as SchemaName[];
  const files = names.map((name) => path.join(dir, name));
  refuseOverwrites([named('--config', configRead({}))], files.map((f) => named('--out', f)));
  const foreign = files.find((f) => existsSync(f) && !ours(f));
  if (foreign) throw new ConfigError('--out', dir, `expected a directory without files of these names that are not pjrt-cts schemas: ${foreign} would be overwritten`);
  ensureDir(dir, '--out');
  return names.map((name, i) => {
    writeFileAtomic(files[i]!, JSON.stringify(jsonSchemaOf(name), null, 2) + '\n');
    return files[i]!;
  });
}
