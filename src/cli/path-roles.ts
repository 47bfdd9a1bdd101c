// Which option or argument of which command names a path, and whether the command reads or writes it. Every command
// line is checked against this table before its action runs (checkDeclaredPaths, the CLI's preAction hook): an output
// that is an input or another output, or that cannot be written, is exit 2. A command whose paths are partly derived
// (run: the plugin library and expectations an entry names, the .jsonl stream) checks those too, through the same
// checkOutputs. test/output-paths.test.ts enumerates the CLI's commander definitions: an option that takes a value
// and is neither here nor known not to be a path fails it, so a new output cannot escape the check.
import type { Command } from 'commander';
import { checkOutputs, named, type NamedPath } from '../runner/output-paths.js';

/** `input-dir`: a directory whose files are read (an output inside it would be read next time); `output-dir`: written into. */
export type PathRole = 'input' | 'input-dir' | 'output' | 'output-dir';

/** Per command: its path options (by long flag) and path arguments (by name, in angle brackets). */
export const PATH_ROLES: Readonly<Record<string, Readonly<Record<string, PathRole>>>> = {
  run: {
    '--config': 'input', '--expectations': 'input', '--rerun-failed': 'input', '--certify': 'input', '--programs': 'input-dir',
    '--json': 'output', '--junit': 'output', '--html': 'output', '--write-expectations': 'output', '--repro-dir': 'output-dir',
  },
  repro: { '<results>': 'input', '--output': 'output-dir' },
  list: { '--programs': 'input-dir' },
  info: { '--config': 'input' },
  compare: { '<old>': 'input', '<new>': 'input' },
  report: { '<results>': 'input', '--compare': 'input', '--compat': 'input', '--output': 'output' },
  compat: { '--config': 'input', '--expectations': 'input', '--json': 'output' },
  'check-programs': { '<dir>': 'input-dir' },
  discover: { '--config': 'input' },
  schema: { '--out': 'output-dir' },
  node: { '--config': 'input' },
  'xla-check': { '--programs': 'input-dir', '--python': 'input', '--json': 'output' },
  // expect rewrites the sidecars of --programs in place: that is what it is for.
  expect: { '--programs': 'input-dir', '--python': 'input' },
  'jax-tests': {
    '--config': 'input', '--jax-src': 'input-dir', '--from-results': 'input', '--expectations': 'input', '--rerun-failed': 'input',
    '--json': 'output', '--junit': 'output', '--html': 'output', '--write-expectations': 'output',
  },
};

/** The paths a parsed command line names, by role (options not given and `--certify` without a list are left out). */
export function declaredPaths(cmd: Command): { inputs: NamedPath[]; outputs: NamedPath[] } {
  const roles = PATH_ROLES[cmd.name()] ?? {};
  const inputs: NamedPath[] = [];
  const outputs: NamedPath[] = [];
  const add = (key: string, label: string, value: unknown): void => {
    const role = roles[key];
    if (role === undefined || typeof value !== 'string') return;
    const p = named(label, value, role === 'input-dir' || role === 'output-dir')!;
    (role === 'input' || role === 'input-dir' ? inputs : outputs).push(p);
  };
  // In the table's order, so a clash between two outputs names them the same way whatever order the options came in.
  for (const key of Object.keys(roles)) {
    const opt = cmd.options.find((o) => o.long === key);
    const arg = cmd.registeredArguments.findIndex((a) => `<${a.name()}>` === key);
    if (opt) add(key, key, cmd.getOptionValue(opt.attributeName()));
    else if (arg >= 0) add(key, key, cmd.processedArgs[arg]);
  }
  return { inputs, outputs };
}

/** The preAction check: the command's declared outputs against its declared inputs and each other, and writable. */
export function checkDeclaredPaths(cmd: Command): void {
  const { inputs, outputs } = declaredPaths(cmd);
  if (outputs.length) checkOutputs(outputs, inputs);
}
