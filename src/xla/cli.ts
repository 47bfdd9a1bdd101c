// `pjrt-cts xla-check` and `pjrt-cts expect`: XLA's CPU compiler (jaxlib) as the referee of a program corpus.
import type { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config/errors.js';
import { packageRoot } from '../config/paths.js';
import { expectCommand, xlaCheckCommand } from './crosscheck.js';

function dirArg(flag: string, v: string): string {
  const d = path.resolve(v);
  if (!existsSync(d) || !statSync(d).isDirectory()) throw new ConfigError(flag, v, 'expected a directory of <name>.mlir + <name>.json programs');
  return d;
}

export function registerXlaCommands(program: Command, out: (s: string) => void): void {
  const err = (s: string): void => void process.stderr.write(s);
  program.command('xla-check').description('run a program corpus through XLA\'s CPU compiler (jaxlib) and compare with the sidecars; exit 1 on a disagreement')
    .option('--programs <dir>', 'corpus directory (default: the built-in corpus)')
    .option('--python <exe>', 'a python that imports jax (default: $PJRT_CTS_PYTHON, else .cache/xla-venv/bin/python)')
    .option('--only <name>', 'only this program, repeatable', (v: string, p: string[]) => [...p, v], [] as string[])
    .option('--sample <k>', 'only every k-th program (by name)')
    .option('--no-invalid', 'do not check that the suites\' invalid programs are rejected')
    .option('--form <form>', 'text: compile each <name>.mlir; artifact: its portable artifact <name>.mlirbc (docs/artifacts.md)', 'text')
    .option('--json <file>', 'write the comparison as JSON')
    .action(async (o: { programs?: string; python?: string; only: string[]; sample?: string; invalid: boolean; form: string; json?: string }) => {
      if (o.form !== 'text' && o.form !== 'artifact') throw new ConfigError('--form', o.form, 'expected text or artifact');
      if (o.sample !== undefined && !/^[1-9]\d*$/.test(o.sample)) throw new ConfigError('--sample', o.sample, 'expected an integer ≥ 1');
      const { code } = await xlaCheckCommand({
        programs: o.programs ? dirArg('--programs', o.programs) : path.join(packageRoot(), 'fixtures', 'programs'),
        ...(o.python ? { python: o.python } : {}),
        ...(o.only.length ? { only: o.only } : {}),
        ...(o.sample ? { sample: Number(o.sample) } : {}),
        invalid: o.invalid,
        form: o.form,
        ...(o.json ? { json: o.json } : {}),
        write: out,
        writeErr: err,
      });
      process.exitCode = code;
    });

  program.command('expect').description('fill (or --check) the sidecars\' outputs of a program directory with XLA\'s CPU results (needs jax)')
    .requiredOption('--programs <dir>', 'directory of <name>.mlir + <name>.json programs (outputs may be missing)')
    .option('--check', 'compare instead of writing; exit 1 when an output does not match', false)
    .option('--python <exe>', 'a python that imports jax (default: $PJRT_CTS_PYTHON, else .cache/xla-venv/bin/python)')
    .action((o: { programs: string; check: boolean; python?: string }) => {
      process.exitCode = expectCommand({
        programs: dirArg('--programs', o.programs),
        check: o.check,
        ...(o.python ? { python: o.python } : {}),
        write: out,
        writeErr: err,
      });
    });
}
