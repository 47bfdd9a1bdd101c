// What a reproducer may say of a path: it is pasted into bug reports, so it never names a directory of the machine
// it was made on (an install path, a worktree, a home or temporary folder). A file inside the current directory (a
// checkout) is named relative to it, any other by its file name; the plugin a command runs is a placeholder unless
// `--plugin-path` says what to write; every text a reproducer holds passes through `scrub`, which rewrites what is
// left of this machine's and the run's directories (in messages, environments, recorded strings).
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { packageRoot } from '../config/paths.js';
import type { ResultsFile } from '../config/results.js';

/** `p` relative to the current directory when it lies inside it, else its file name. */
export function portablePath(p: string): string {
  const rel = path.relative(process.cwd(), path.resolve(p));
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : path.basename(p);
}

/** How a command names a plugin library that is not given: a placeholder with its file name. */
export const pluginPlaceholder = (library: string): string => `/path/to/${path.basename(library)}`;

/** An absolute path in running text: a `/` that starts a word, and what follows up to a space, quote or separator. */
const ABSOLUTE = /(?<=^|[\s"'`=:,([{<])\/(?:[^\s"'`,;:)\]}>]+)/g;

/** Rewrites every absolute path in `value` (an environment variable's: one path or a `:` list) as pluginPlaceholder does. */
export const placeholderPaths = (value: string): string => value.replace(ABSOLUTE, (p) => pluginPlaceholder(p));

/**
 * The directories a reproducer must not name, longest first, each with what replaces it: this checkout and the
 * current directory become relative (nothing), the others `…`.
 */
function machineDirs(run: ResultsFile, resultsFile: string, out: string): { dir: string; as: string }[] {
  const relative = [packageRoot(), process.cwd()];
  const other = [homedir(), tmpdir(), path.dirname(path.resolve(resultsFile)), path.resolve(out), path.dirname(run.plugin.path)]
    .filter((d) => path.isAbsolute(d) && d !== path.sep);
  const dirs = [...relative.map((dir) => ({ dir, as: '' })), ...other.map((dir) => ({ dir, as: '…/' }))];
  return dirs.filter((d, i) => dirs.findIndex((x) => x.dir === d.dir) === i).sort((a, b) => b.dir.length - a.dir.length);
}

/** A function that rewrites the machine's directories out of a reproducer's text (see machineDirs). */
export function scrubber(run: ResultsFile, resultsFile: string, out: string): (text: string) => string {
  const dirs = machineDirs(run, resultsFile, out);
  return (text) => dirs.reduce((t, d) => t.split(`${d.dir}/`).join(d.as), text);
}
