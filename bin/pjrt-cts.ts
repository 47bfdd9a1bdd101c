#!/usr/bin/env node
// pjrt-cts command line. Exit codes: 0 ok / gate passed, 1 gate failed (or regressions for compare),
// 2 bad usage or bad input, 3 the CTS itself failed, 130 interrupted.
import { Command, CommanderError, Option } from 'commander';
import path from 'node:path';
import { CreateOptionError, parseCreateOptions } from '../src/cli/create-option.js';
import { ConfigError } from '../src/config/errors.js';
import { loadCatalogue } from '../src/runner/catalogue.js';
import { compareResults, loadResults, renderComparison } from '../src/runner/compare.js';
import { discoverAll } from '../src/runner/discover.js';
import { ctsVersion, packageRoot } from '../src/runner/paths.js';
import { loadPluginsFile, pluginsFilePath, resolvePlugin } from '../src/runner/plugins.js';
import { printList, runCommand } from '../src/runner/run.js';
import { writeSchemas } from '../src/runner/schemas.js';
import { selectCases } from '../src/runner/select.js';
import { EXIT } from '../src/runner/summary.js';
import { jsonSchemaOf, SCHEMA_FILES, type SchemaName } from '../src/config/json-schema.js';

const collect = (v: string, prev: string[]): string[] => [...prev, v];

function int(flag: string, min: number): (v: string) => number {
  return (v) => {
    if (!/^\d+$/.test(v) || Number(v) < min) throw new ConfigError(flag, v, `expected an integer ≥ ${min}`);
    return Number(v);
  };
}

function gateTier(v: string): number {
  const m = /^(?:tier)?(\d+)$/.exec(v);
  if (!m) throw new ConfigError('--gate', v, 'expected tierN, e.g. tier1');
  return Number(m[1]);
}

const pluginOpts = (c: Command): Command =>
  c.option('--plugin <name|path>', 'plugins.json entry or path to a plugin library (default: the default entry)')
    .option('--config <file>', 'plugins.json to use (default: $PJRT_CTS_CONFIG, ./plugins.json, the package\'s)')
    .option('--create-option <k=v>', 'client create option, repeatable; k:type=v forces a type (string,int64,float,bool,int64list)', collect, []);

function build(): Command {
  const program = new Command('pjrt-cts').description('Conformance test suite for PJRT plugins').version(ctsVersion());
  program.exitOverride();

  pluginOpts(program.command('run').description('run the conformance tests against a plugin'))
    .option('--tier <n>', 'run tiers ≤ n', int('--tier', 0))
    .option('--gate <tierN>', 'exit 1 unless every case of tiers ≤ N passed (or was waived) and at least one ran; implies --tier N', gateTier)
    .option('--filter <glob>', 'only ids matching (picomatch), repeatable', collect, [])
    .option('--exclude <glob>', 'leave out ids matching, repeatable', collect, [])
    .option('--expectations <file>', 'expectations file (default: the plugin entry\'s)')
    .option('--junit <file>', 'write JUnit XML')
    .option('--json <file>', 'write the results file (results stream next to it as .jsonl)')
    .option('--jobs <n>', 'parallel worker processes', int('--jobs', 1), 1)
    .option('--timeout <ms>', 'per-case timeout unless the case declares one', int('--timeout', 1), 60000)
    .option('--retries <n>', 'rerun failing cases up to n times; failed-then-passed is reported flaky', int('--retries', 0), 0)
    .option('--shard <i/n>', 'run only shard i of n (by id hash; 1-based)')
    .option('--strict', 'certification run: every tier, no filters or expectations; skipped/unsupported required cases fail', false)
    .option('--list', 'print the selected ids and exit without loading the plugin', false)
    .option('--programs <dir>', 'add the cases of an external program corpus (external.program.run.<name>)')
    .option('--matrix', 'print the capability matrix after the run', false)
    .option('--no-preflight', 'do not check first that the library loads and accepts the create options')
    .action(async (o: Record<string, unknown>) => {
      const opt = o as {
        plugin?: string; config?: string; createOption: string[]; tier?: number; gate?: number; filter: string[]; exclude: string[];
        expectations?: string; junit?: string; json?: string; jobs: number; timeout: number; retries: number; shard?: string;
        strict: boolean; list: boolean; programs?: string; matrix: boolean; preflight: boolean;
      };
      process.exitCode = await runCommand({
        createOptions: parseCreateOptions(opt.createOption),
        filters: opt.filter, excludes: opt.exclude, jobs: opt.jobs, timeoutMs: opt.timeout, retries: opt.retries,
        strict: opt.strict, list: opt.list, matrix: opt.matrix, preflight: opt.preflight, stdout: process.stdout,
        ...(opt.plugin ? { plugin: opt.plugin } : {}), ...(opt.config ? { config: opt.config } : {}),
        ...(opt.tier !== undefined ? { tier: opt.tier } : {}), ...(opt.gate !== undefined ? { gate: opt.gate } : {}),
        ...(opt.expectations ? { expectations: path.resolve(opt.expectations) } : {}),
        ...(opt.junit ? { junit: opt.junit } : {}), ...(opt.json ? { json: opt.json } : {}),
        ...(opt.shard ? { shard: opt.shard } : {}), ...(opt.programs ? { programs: path.resolve(opt.programs) } : {}),
      });
    });

  program.command('list').description('list case ids, tiers, requirements and the faults each catches (loads no plugin)')
    .option('--json', 'JSON output', false)
    .option('--tier <n>', 'only tiers ≤ n', int('--tier', 0))
    .option('--filter <glob>', 'only ids matching, repeatable', collect, [])
    .option('--exclude <glob>', 'leave out ids matching, repeatable', collect, [])
    .option('--programs <dir>', 'include an external program corpus')
    .action(async (o: { json: boolean; tier?: number; filter: string[]; exclude: string[]; programs?: string }) => {
      const all = await loadCatalogue(o.programs ? path.resolve(o.programs) : undefined);
      printList(selectCases(all, { maxTier: o.tier ?? Infinity, filters: o.filter, excludes: o.exclude }), o.json, process.stdout);
    });

  pluginOpts(program.command('info').description('what a plugin says about itself (loads it in this process)'))
    .option('--json', 'JSON output', false)
    .action(async (o: { plugin?: string; config?: string; createOption: string[]; json: boolean }) => {
      const p = resolvePlugin(pluginsFilePath(o.config), o.plugin, parseCreateOptions(o.createOption));
      Object.assign(process.env, p.env);
      const { runInfo } = await import('../src/cli/info.js');
      process.exitCode = await runInfo({ plugin: p.library, createOptions: p.createOptions, json: o.json, global: p.rtldGlobal });
    });

  program.command('compare').description('compare two results files; exit 1 on a regression (pass → fail/crash/timeout)')
    .argument('<old>').argument('<new>')
    .option('--json', 'JSON output', false)
    .action((a: string, b: string, o: { json: boolean }) => {
      const c = compareResults(loadResults(a), loadResults(b));
      process.stdout.write(o.json ? JSON.stringify(c, null, 2) + '\n' : renderComparison(c));
      process.exitCode = c.regressions.length ? EXIT.gateFailed : EXIT.ok;
    });

  program.command('discover').description('PJRT plugins found on this machine and the plugins.json entries')
    .option('--config <file>', 'plugins.json to use')
    .option('--json', 'JSON output', false)
    .action((o: { config?: string; json: boolean }) => {
      const file = pluginsFilePath(o.config);
      const configured = Object.keys(loadPluginsFile(file).plugins).map((name) => {
        try {
          return { name, source: file, path: resolvePlugin(file, name).library, exists: true };
        } catch (e) {
          return { name, source: file, path: '', exists: false, problem: (e as Error).message };
        }
      });
      const found = discoverAll();
      if (o.json) {
        process.stdout.write(JSON.stringify({ configured, discovered: found }, null, 2) + '\n');
        return;
      }
      process.stdout.write(`plugins.json (${file}):\n`);
      for (const c of configured) process.stdout.write(`  ${c.name}\t${c.exists ? c.path : `unavailable: ${'problem' in c ? c.problem : ''}`}\n`);
      process.stdout.write('discovered:\n');
      if (!found.length) process.stdout.write('  (none: no jax_plugins package for python3, PJRT_NAMES_AND_LIBRARY_PATHS and PJRT_LIBRARY_PATH unset)\n');
      for (const d of found) process.stdout.write(`  ${d.name}\t${d.path}\t(${d.source}${d.exists ? '' : ', missing'})\n`);
    });

  program.command('schema').description('write JSON Schemas of plugins.json, expectations and results files')
    .option('--out <dir>', 'directory', path.join(packageRoot(), 'schemas'))
    .addOption(new Option('--print <name>', 'print one schema instead').choices(Object.keys(SCHEMA_FILES)))
    .action((o: { out: string; print?: SchemaName }) => {
      if (o.print) process.stdout.write(JSON.stringify(jsonSchemaOf(o.print), null, 2) + '\n');
      else for (const f of writeSchemas(o.out)) process.stdout.write(`${f}\n`);
    });
  return program;
}

async function main(): Promise<void> {
  try {
    await build().parseAsync(process.argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      process.exitCode = e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.exitCode === 0 ? 0 : EXIT.usage;
    } else if (e instanceof ConfigError || e instanceof CreateOptionError) {
      process.stderr.write(`pjrt-cts: error: ${e.message}\n`);
      process.exitCode = EXIT.usage;
    } else {
      const err = e as Error;
      process.stderr.write(`pjrt-cts: internal error: ${err.message}\n${process.env['PJRT_CTS_DEBUG'] ? `${err.stack}\n` : ''}`);
      process.exitCode = EXIT.internal;
    }
  }
  // Workers are gone by now; exit even if a plugin (info) left threads behind. Writes to a pipe are
  // asynchronous and process.exit drops what is still queued, so drain both streams first.
  await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((resolve) => s.write('', () => resolve()))));
  process.exit(process.exitCode ?? 0);
}

void main();
