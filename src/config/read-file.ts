// Reading a file a person named (plugins.json, expectations, results, a program and its sidecar): anything that is
// not a regular file (a directory, a FIFO that would block the read forever, a device) and every read error is one
// line that says what and where, never an internal error or a hang.
import { readFileSync, statSync, type Stats } from 'node:fs';

/** The kind of a file that is not a regular one, for messages. */
export function fileKind(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

const ERRNO: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a component of the path is not a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EIO: 'an input/output error',
};

/** A read error as words: `no such file (ENOENT)`. */
export function readErrorText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return code ? `${ERRNO[code] ?? 'cannot be read'} (${code})` : (e as Error).message;
}

/** Why `file` cannot be read as a regular file (`cannot read FILE: …`, or what it is instead), or its text. */
export function readRegularFile(file: string): { text: string } | { problem: string; notRegular?: string } {
  let st: Stats;
  try {
    st = statSync(file);
  } catch (e) {
    return { problem: readErrorText(e) };
  }
  if (!st.isFile()) return { problem: `it is ${fileKind(st)}`, notRegular: fileKind(st) };
  try {
    return { text: readFileSync(file, 'utf8') };
  } catch (e) {
    return { problem: readErrorText(e) };
  }
}
