// An empty value is never "the default": `--plugin "$PLUGIN_SO"` with the variable unset must not certify the bundled
// reference plugin, nor `--json ""` send the results elsewhere. Every option value and argument of the command line
// is checked before the action runs (the CLI's preAction hook); an empty one is bad input naming it (exit 2).
import type { Command } from 'commander';
import { ConfigError } from '../config/errors.js';

const isEmpty = (v: unknown): boolean => v === '' || (Array.isArray(v) && v.some((x) => x === ''));

export function refuseEmptyValues(cmd: Command): void {
  for (const opt of cmd.options) {
    if (isEmpty(cmd.getOptionValue(opt.attributeName()))) {
      throw new ConfigError(opt.long ?? opt.flags, '""', 'expected a value; got an empty string (from a variable that is unset or empty?)');
    }
  }
  cmd.registeredArguments.forEach((arg, i) => {
    if (isEmpty(cmd.processedArgs[i])) throw new ConfigError(`<${arg.name()}>`, '""', 'expected a value; got an empty string (from a variable that is unset or empty?)');
  });
}
