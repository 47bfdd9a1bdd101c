// Outputs never overwrite inputs: before a command writes anything, every output path is compared with every input
// (plugin library, plugins.json, expectations, programs, results read) and with every other output, as real paths
// (symlinks, `./` forms and hard links resolve to the same file), and probed for writing. A problem is one
// ConfigError line (exit 2). checkOutputs is the one entry point: every path a command writes goes through it.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config/errors.js';
import { checkOutputDir, checkOutputFile } from './outputs.js';

/** A path a command reads or writes, with the option that named it (`--json`, `--plugin`, …). */
export interface NamedPath {
  flag: string;
  path: string;
  /** A directory: an input one (`--programs`), where an output that would be read as part of it (a top-level .json,
   *  .mlir or .mlirbc file) clashes too; an output one (`schema --out`), written into. */
  dir?: boolean;
}

/** The real path of `p`, or of its deepest existing ancestor joined with the rest (a file not written yet). */
function realPath(p: string): string {
  const abs = path.resolve(p);
  const rest: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      return path.join(realpathSync(cur), ...rest);
    } catch {
      const up = path.dirname(cur);
      if (up === cur) return abs;
      rest.unshift(path.basename(cur));
      cur = up;
    }
  }
}

/** Device and inode of an existing file (hard links), else undefined. */
function inode(p: string): string | undefined {
  try {
    const s = statSync(p);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}

function clashes(out: string, other: NamedPath): boolean {
  const real = realPath(other.path);
  if (out === real) return true;
  if (other.dir && path.dirname(out) === real && /\.(json|mlir|mlirbc)$/.test(out)) return true;
  const a = inode(out);
  return a !== undefined && a === inode(real);
}

/**
 * Throws a ConfigError naming the output and what it would overwrite when an output path is an input, lies inside
 * an input directory, or is another output. Undefined paths (options not given) are ignored.
 */
export function refuseOverwrites(inputs: readonly (NamedPath | undefined)[], outputs: readonly (NamedPath | undefined)[]): void {
  const ins = inputs.filter((x): x is NamedPath => x !== undefined);
  const outs = outputs.filter((x): x is NamedPath => x !== undefined);
  outs.forEach((o, i) => {
    const real = realPath(o.path);
    const input = ins.find((x) => clashes(real, x));
    if (input) {
      throw new ConfigError(o.flag, o.path, input.dir
        ? `expected a path outside the --programs directory ${input.path}: the next run would read it as one of its programs`
        : `expected a path that is not an input: it is the ${input.flag} ${input.path}, which writing would overwrite`);
    }
    const other = outs.slice(0, i).find((x) => clashes(real, x));
    if (other) throw new ConfigError(o.flag, o.path, `expected a path of its own: ${other.flag} writes ${other.path} too, and one would overwrite the other`);
  });
}

/** A NamedPath when `p` is given. */
export const named = (flag: string, p: string | undefined, dir = false): NamedPath | undefined => (p === undefined ? undefined : { flag, path: p, ...(dir ? { dir } : {}) });

/**
 * Every output of a command, before anything runs: none is an input or another output (refuseOverwrites), and each can
 * be written (a file: creatable, not a directory or FIFO; a directory: creatable and writable). Undefined entries
 * (options not given) are ignored.
 */
export function checkOutputs(outputs: readonly (NamedPath | undefined)[], inputs: readonly (NamedPath | undefined)[]): void {
  refuseOverwrites(inputs, outputs);
  for (const o of outputs) {
    if (o === undefined) continue;
    if (o.dir) checkOutputDir(o.path, o.flag);
    else checkOutputFile(o.path, o.flag);
  }
}
