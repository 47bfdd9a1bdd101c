#!/usr/bin/env node
// pjrt-cts command line. Exit codes: 0 ok / gate passed, 1 gate failed (or regressions for compare),
// 2 bad usage or bad input, 3 the CTS itself failed, 130 interrupted (SIGINT), 143 terminated (SIGTERM).
import { Command, CommanderError, Help, Option } from 'commander';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CreateOptionError, parseCreateOptions } from '../src/cli/create-option.js';
import { ConfigError } from '../src/config/errors.js';
import { checkNumericEnv, envNumber } from '../src/config/env-numbers.js';
import { timerProblem } from '../src/config/timer.js';
import { refuseEmptyValues } from '../src/cli/empty-values.js';
import { checkDeclaredPaths } from '../src/cli/path-roles.js';
import { loadCatalogue } from '../src/runner/catalogue.js';
import { compareRuns, incompleteRuns, renderComparison } from '../src/cli/compare.js';
import { loadRun } from '../src/runner/run-diff.js';
import { compatCommand, parseMinors } from '../src/cli/compat.js';
import { discoverAll, discoverySources, pythonProblem, torchXlaProblem, discoveredLine } from '../src/runner/discover.js';
import { ctsVersion, packageRoot } from '../src/config/paths.js';
import { loadPluginsFile, pluginsFilePath, resolvePlugin, resolvePluginArg } from '../src/runner/plugins.js';
import { buildReference } from '../src/runner/reference-build.js';
import { DEFAULT_MAX_CALL_FAILURES, DEFAULT_MAX_CLIENT_FAILURES, DEFAULT_WARMUP_TIMEOUT_MS, printList, runCommand } from '../src/cli/run.js';
import { writeSchemas } from '../src/runner/schemas.js';
import { SOAK_MAX_REPETITIONS } from '../src/runner/repetitions.js';
import { checkGlobs, selectCases } from '../src/runner/select.js';
import { checkTiers } from '../src/runner/limits.js';
import { EXIT } from '../src/runner/summary.js';
import { watchSignals } from '../src/runner/interrupt.js';
import { jsonSchemaOf, SCHEMA_FILES, type SchemaName } from '../src/config/json-schema.js';
import { registerXlaCommands } from '../src/xla/cli.js';
import { endRunKv, prepareRunKv, registerNodeCommand, runKvOptions } from '../src/cli/kv.js';
import { apiMinorProblem, OLDEST_API_MINOR } from '../src/ffi/minor.js';
import { PJRT_API_MINOR } from '../src/abi/index.js';
import { INFO_TIMEOUT_MS } from '../src/cli/isolated.js';
import { NODES_WAIT_MS } from '../src/cli/kv.js';
import { tierRange } from '../src/runner/limits.js';

const collect = (v: string, prev: string[]): string[] => [...prev, v];
/** "0–3": the tiers the suites have, for the help of --tier. */
const TIERS = tierRange();

function int(flag: string, min: number): (v: string) => number {
  return (v) => {
    if (!/^\d+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v))) throw new ConfigError(flag, v, `expected an integer ≥ ${min}`);
    return Number(v);
  };
}

/** A timeout in ms: an integer ≥ min that a timer can wait (src/config/timer.ts). */
function ms(flag: string, min: number): (v: string) => number {
  return (v) => {
    const n = int(flag, min)(v);
    const problem = timerProblem(n);
    if (problem) throw new ConfigError(flag, v, `expected ${problem}`);
    return n;
  };
}

/** `--api-minor N`: an integer minor the ABI table can describe (0.29 … its newest). */
function apiMinorArg(flag: string): (v: string) => number {
  return (v) => {
    const n = /^\d+$/.test(v) ? Number(v) : NaN;
    const problem = apiMinorProblem(n);
    if (problem) throw new ConfigError(flag, v, problem);
    return n;
  };
}

function gateTier(v: string): number {
  const m = /^(?:tier)?(\d+)$/.exec(v);
  if (!m) throw new ConfigError('--gate', v, 'expected tierN, e.g. tier1');
  return Number(m[1]);
}

// ---- stdout that may close under us (`pjrt-cts list | head`) ----------------------------------------------
/** Set once stdout's reader has gone away (EPIPE): further output is dropped. */
let stdoutClosed = false;
/** While a run is in progress a closed stdout must not end the process: the reports still have to be written. */
let keepGoingOnEpipe = false;

function onStreamError(stream: 'stdout' | 'stderr'): (e: NodeJS.ErrnoException) => void {
  return (e) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') {
      if (stream === 'stdout') process.stderr.write(`pjrt-cts: error: cannot write to stdout: ${e.message}\n`);
      return;
    }
    if (stream === 'stdout') stdoutClosed = true;
    // A reader that stopped reading wanted no more: end quietly, keeping the exit code so far.
    if (!keepGoingOnEpipe) process.exit(process.exitCode ?? 0);
  };
}
process.stdout.on('error', onStreamError('stdout'));
process.stderr.on('error', onStreamError('stderr'));

/** process.stdout as the run's console reporter sees it: writes after EPIPE are dropped instead of throwing. */
const safeStdout = new Proxy(process.stdout, {
  get(target, prop, receiver) {
    if (prop === 'write') {
      return (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
        if (stdoutClosed || target.destroyed) return true;
        try {
          return (target.write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
        } catch {
          stdoutClosed = true;
          return true;
        }
      };
    }
    const v = Reflect.get(target, prop, receiver) as unknown;
    return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
  },
});

const out = (s: string): void => {
  if (!stdoutClosed) safeStdout.write(s);
};

// ---- help ---------------------------------------------------------------------------------------------------
const EXIT_HELP = `
Exit codes:
  0    the gate passed; without --gate: no case failed, crashed or timed out unwaived
  1    the gate failed (or a case failed; a run stopped by --max-failures/--bail or by client creation
       failing repeatedly); compare: a regression or removed ids; compat: a case passing at the newest
       minor fails at an older one
  2    bad usage or bad input (one line on stderr: pjrt-cts: error: <where>: <what was expected>): an empty
       option value, a selection of zero cases (an empty --shard too), an output path that is an input or another
       output, a timeout above 2147483647 ms; also a plugin that cannot be loaded, rejects its create options, or
       crashes or hangs in the preflight or in info
  3    the CTS itself failed (reports written so far are kept), or a report could not be written (a full
       disk: stderr names the file and the reason; the other reports are written, none is left truncated)
  130  interrupted (SIGINT); 143 terminated (SIGTERM): reports are written with "interrupted": true (also
       before the first case: "interruptedBefore" says whether the cases were being listed or the preflight ran)

Environment:
  PJRT_CTS_CONFIG                 the plugins.json to use (default ./plugins.json, else the package's)
  PJRT_NAMES_AND_LIBRARY_PATHS    name:path,... plugins for discover and {"discover": "env:<name>"}
  PJRT_LIBRARY_PATH               a plugin library for discover
  PJRT_CTS_PREFLIGHT_TIMEOUT_MS   the preflight's deadline (default 30000, at most --timeout)
  PJRT_CTS_INFO_TIMEOUT_MS        info's deadline (default ${INFO_TIMEOUT_MS})
  PJRT_CTS_NODES_WAIT_MS          run --nodes-external: how long to wait for the nodes to register (default ${NODES_WAIT_MS})
  PJRT_CTS_PYTHON                 the python with jax/jaxlib for xla-check and expect, and for discover (default python3)
  PJRT_CTS_CALL_LOG               a file that gets every PJRT call of a worker with its arguments, one JSON line before and
                                  one after each (what repro records; off by default)
  PJRT_REFERENCE_FAULTS           the reference plugin's named faults to switch on: name[,name=arg]
                                  (fixtures/reference-plugin/faults.json)
  PJRT_CTS_CACHE, XDG_CACHE_HOME  where the reference plugin is built outside a checkout
                                  (default ~/.cache/pjrt-cts/<version>/reference-plugin)
  NO_COLOR, FORCE_COLOR           console colours
  PJRT_CTS_DEBUG                  print stack traces of internal errors

Results: run --json FILE writes FILE and streams to FILEl as results arrive; without --json the stream goes to
  .cts-out/run-<time>.jsonl in the working directory.
More: ${path.join(packageRoot(), 'README.md')} (every option, the plugins.json fields, expectations files);
  the plugins.json format: pjrt-cts schema --print plugins.schema.json
`;

const pluginOpts = (c: Command): Command =>
  c.option('-p, --plugin <name|path>', 'plugins.json entry or path to a plugin library (default: the default entry)')
    .option('-c, --config <file>', 'plugins.json to use (default: $PJRT_CTS_CONFIG, ./plugins.json, the package\'s)')
    .option('-o, --create-option <k=v>', 'client create option, repeatable; k:type=v forces a type (string,int64,float,bool,int64list)', collect, []);

/** The CLI's commander definition (test/output-paths.test.ts reads every command's options from it). */
export function build(): Command {
  const program = new Command('pjrt-cts').description('Conformance test suite for PJRT plugins').version(ctsVersion());
  program.exitOverride();
  program.hook('preAction', (_, action) => {
    checkNumericEnv();
    refuseEmptyValues(action);
    checkDeclaredPaths(action);
  });
  // "(default: false)" on a switch and "(default: [])" on a repeatable option say nothing.
  const help = new Help();
  program.configureHelp({ optionDescription: (opt) => help.optionDescription(opt).replace(/ \(default: (false|\[\])\)/, '') });
  // One error prefix for commander's own messages too, on one line ("(Did you mean …?)" joined).
  program.configureOutput({
    writeOut: (s) => out(s),
    writeErr: (s) => void process.stderr.write(s),
    outputError: (s, write) => write(`pjrt-cts: ${s.trim().replace(/^error: /, 'error: ').replace(/\s*\n\s*/g, ' ')}\n`),
  });
  program.showSuggestionAfterError(true);
  program.addHelpText('after', EXIT_HELP);

  const run = pluginOpts(program.command('run').description('run the conformance tests against a plugin'))
    .option('-t, --tier <n>', `run tiers ≤ n (${TIERS})`, int('--tier', 0))
    .option('-g, --gate <tierN>', 'exit 1 unless every case of tiers ≤ N passed (or was waived) and at least one ran; implies --tier N', gateTier)
    .option('-f, --filter <glob>', 'only ids matching (picomatch), repeatable', collect, [])
    .option('-x, --exclude <glob>', 'leave out ids matching, repeatable', collect, [])
    .option('-e, --expectations <file>', 'expectations file (default: the plugin entry\'s)')
    .option('--junit <file>', 'write JUnit XML')
    .option('--json <file>', 'write the results file (results stream next to it as .jsonl; without --json: to .cts-out/run-<time>.jsonl)')
    .option('--html <file>', 'write the HTML report of the run (as `pjrt-cts report` does)')
    .option('-j, --jobs <n>', 'parallel worker processes', int('--jobs', 1), 1)
    .option('--timeout <ms>', 'per-case timeout unless the case declares one', ms('--timeout', 1), 60000)
    .option('-r, --retries <n>', 'rerun failing cases up to n times; failed-then-passed is reported flaky', int('--retries', 0), 0)
    .option('--repeat <n>', 'soak: run the selection n times in the same workers; a case whose verdict changes between repetitions is flaky and fails the run, and the results give each repetition\'s verdict and each worker\'s memory per repetition', int('--repeat', 1))
    .option('--soak <ms>', `soak: repeat the selection until ms have passed (no repetition starts later), at most --repeat times (default ${SOAK_MAX_REPETITIONS})`, ms('--soak', 1))
    .option('--shard <i/n>', 'run only shard i of n (by id hash; 1-based)')
    .option('--max-failures <n>', 'stop after n failures (fail, crash, timeout); the rest are recorded as not run', int('--max-failures', 1))
    .option('-b, --bail', 'stop after the first failure (--max-failures 1)', false)
    .option('--max-client-failures <k>', `stop when creating a client crashes or hangs in k cases in a row (0: never)`, int('--max-client-failures', 0), DEFAULT_MAX_CLIENT_FAILURES)
    .option('--max-call-failures <k>', 'when another PJRT call crashes or hangs in k cases in a row, skip the remaining cases that need it (0: never)', int('--max-call-failures', 0), DEFAULT_MAX_CALL_FAILURES)
    .option('--write-expectations <file>', 'write a baseline expectations file: every non-pass with its message as the reason')
    .option('--rerun-failed <results.json>', 'run only the cases that did not pass in an earlier results file or .jsonl stream')
    .option('--strict', 'certification run: every tier, no filters or expectations; skipped/unsupported required cases fail', false)
    .option('--certify [list]', 'certification run (as --strict) that fails unless every case of the must-pass list passed (default: certification/must-pass-<CTS version>.json)')
    .option('-l, --list', 'print the selected ids and exit without loading the plugin', false)
    .option('--programs <dir>', 'add the cases of an external program corpus (external.program.run.<name>)')
    .option('--matrix', 'print the capability matrix after the run', false)
    .option('--compile-only', 'create no client: run the cases that need none and compile ahead of time (PJRT_Compile) against a topology; the others are skipped', false)
    .option('--topology <name>', 'with --compile-only: the name given to PJRT_TopologyDescription_Create (default: the entry\'s "topology")')
    .option('--record-slots', 'record in each result the PJRT_Api slots the case called', false)
    .option('--repro-dir <dir>', 'after the run, write one reproducer per root cause into dir (as `pjrt-cts repro` does); each root cause names its folder')
    .option('--warmup-timeout <ms>', 'deadline of the compile in each worker\'s warm-up (a trivial program compiled and run before its first case; creating its client and running it keep --timeout; 0: no warm-up)', ms('--warmup-timeout', 0), DEFAULT_WARMUP_TIMEOUT_MS)
    .option('--api-minor <n>', `speak PJRT API 0.n (n from ${OLDEST_API_MINOR} to ${PJRT_API_MINOR}, the default): Args struct sizes and PJRT_Api slots of a framework built against that header`, apiMinorArg('--api-minor'))
    .option('--no-preflight', 'do not check first that the library loads, creates a client and neither crashes nor hangs')
    .option('--kv <url>', 'tier 3: keep the nodes\' key-value store in etcd (etcd://host:port) instead of a directory')
    .option('--run-id <id>', 'with --kv: the run\'s key namespace in etcd (default: random; with --nodes-external: default)')
    .option('--nodes-external <n>', 'with --kv: tier-3 nodes are n `pjrt-cts node` processes (any host) instead of local children', int('--nodes-external', 1))
    .action(async (o: Record<string, unknown>) => {
      const opt = o as {
        plugin?: string; config?: string; createOption: string[]; tier?: number; gate?: number; filter: string[]; exclude: string[];
        expectations?: string; junit?: string; json?: string; html?: string; maxCallFailures: number; jobs: number; timeout: number; retries: number; shard?: string;
        strict: boolean; list: boolean; programs?: string; matrix: boolean; recordSlots: boolean; preflight: boolean; maxFailures?: number; bail: boolean;
        maxClientFailures: number; writeExpectations?: string; rerunFailed?: string; apiMinor?: number; warmupTimeout: number;
        compileOnly: boolean; topology?: string; certify?: string | true; reproDir?: string; repeat?: number; soak?: number;
      };
      keepGoingOnEpipe = !opt.list;
      const maxFailures = opt.bail ? 1 : opt.maxFailures;
      const kvOpts = o as { kv?: string; runId?: string; nodesExternal?: number };
      const kv = runKvOptions(kvOpts);
      const kvLog = (s: string) => void process.stderr.write(s);
      // Signals are watched from here on (etcd, the listing and the preflight come before any case).
      const signals = opt.list ? undefined : watchSignals();
      if (!opt.list) await prepareRunKv(kv, kvLog);
      process.exitCode = await runCommand({
        ...(signals ? { signal: signals.signal } : {}),
        createOptions: parseCreateOptions(opt.createOption),
        filters: opt.filter, excludes: opt.exclude, jobs: opt.jobs, timeoutMs: opt.timeout, retries: opt.retries,
        strict: opt.strict, ...(opt.certify !== undefined ? { certify: opt.certify } : {}), list: opt.list, matrix: opt.matrix, recordSlots: opt.recordSlots, preflight: opt.preflight, stdout: safeStdout,
        maxClientFailures: opt.maxClientFailures, maxCallFailures: opt.maxCallFailures, compileOnly: opt.compileOnly, ...(opt.topology !== undefined ? { topology: opt.topology } : {}),
        ...(maxFailures !== undefined ? { maxFailures } : {}),
        ...(opt.writeExpectations ? { writeExpectations: path.resolve(opt.writeExpectations) } : {}),
        ...(opt.rerunFailed ? { rerunFailed: path.resolve(opt.rerunFailed) } : {}),
        ...(opt.apiMinor !== undefined ? { apiMinor: opt.apiMinor } : {}), warmupTimeoutMs: opt.warmupTimeout,
        ...(opt.plugin ? { plugin: opt.plugin } : {}), ...(opt.config ? { config: opt.config } : {}),
        ...(opt.tier !== undefined ? { tier: opt.tier } : {}), ...(opt.gate !== undefined ? { gate: opt.gate } : {}),
        ...(opt.expectations ? { expectations: path.resolve(opt.expectations) } : {}),
        ...(opt.junit ? { junit: opt.junit } : {}), ...(opt.json ? { json: opt.json } : {}), ...(opt.html ? { html: opt.html } : {}),
        ...(opt.shard ? { shard: opt.shard } : {}), ...(opt.programs ? { programs: path.resolve(opt.programs) } : {}),
        ...(opt.reproDir !== undefined ? { reproDir: opt.reproDir } : {}),
        ...(opt.repeat !== undefined ? { repeat: opt.repeat } : {}), ...(opt.soak !== undefined ? { soakMs: opt.soak } : {}),
      }).finally(() => {
        signals?.dispose();
        return opt.list ? undefined : endRunKv(kv, kvLog);
      });
    });
  run.addHelpText('after', EXIT_HELP);
  registerNodeCommand(program, async (...a) => (await import('../suites/_lib/multinode.js')).nodeShare(...a));

  program.command('list').description('list case ids, tiers, requirements and the faults each catches (loads no plugin)')
    .option('--json', 'JSON output', false)
    .option('-t, --tier <n>', `only tiers ≤ n (${TIERS})`, int('--tier', 0))
    .option('-f, --filter <glob>', 'only ids matching, repeatable', collect, [])
    .option('-x, --exclude <glob>', 'leave out ids matching, repeatable', collect, [])
    .option('--programs <dir>', 'include an external program corpus')
    .action(async (o: { json: boolean; tier?: number; filter: string[]; exclude: string[]; programs?: string }) => {
      checkGlobs('--filter', o.filter);
      checkGlobs('--exclude', o.exclude);
      const all = await loadCatalogue(o.programs ? path.resolve(o.programs) : undefined);
      checkTiers(all, o);
      printList(selectCases(all, { maxTier: o.tier ?? Infinity, filters: o.filter, excludes: o.exclude }), o.json, safeStdout);
    });

  pluginOpts(program.command('info').description('what a plugin says about itself (loaded in a child process)'))
    .option('--json', 'JSON output', false)
    .option('--timeout <ms>', `how long the plugin may take to answer everything (default: $PJRT_CTS_INFO_TIMEOUT_MS, else ${INFO_TIMEOUT_MS})`, ms('--timeout', 1))
    .action(async (o: { plugin?: string; config?: string; createOption: string[]; json: boolean; timeout?: number }) => {
      const p = resolvePluginArg(o.config, o.plugin, parseCreateOptions(o.createOption));
      const { runInfoIsolated, INFO_TIMEOUT_MS } = await import('../src/cli/isolated.js');
      const timeout = o.timeout ?? envNumber('PJRT_CTS_INFO_TIMEOUT_MS') ?? INFO_TIMEOUT_MS;
      process.exitCode = await runInfoIsolated({ plugin: p.library, createOptions: p.createOptions, json: o.json, global: p.rtldGlobal }, p.env, timeout);
    });

  program.command('compare').description('compare two runs (results files or .jsonl streams); exit 1 on a regression (pass → fail/crash/timeout/unsupported/skip) or removed ids, 2 when the runs differ in CTS version, API minor, selection or create options')
    .argument('<old>').argument('<new>')
    .option('--json', 'JSON output (schemas/compare.schema.json)', false)
    .option('--allow-new-unsupported', 'pass → unsupported/skip is not a regression', false)
    .option('--allow-removed', 'ids of the old run missing from the new one are not an error', false)
    .option('--force', 'compare runs whose CTS version, API minor, selection or create options differ', false)
    .action((a: string, b: string, o: { json: boolean; allowNewUnsupported: boolean; allowRemoved: boolean; force: boolean }) => {
      const [oldRun, newRun] = [loadRun(a), loadRun(b)];
      const c = compareRuns(oldRun, newRun, o);
      const incomplete = incompleteRuns(oldRun, newRun);
      out(o.json ? JSON.stringify(c, null, 2) + '\n' : renderComparison(c, { ...o, incomplete }));
      if (o.json) for (const line of incomplete) process.stderr.write(`pjrt-cts compare: note: ${line}\n`);
      process.exitCode = c.exitCode;
    });

  program.command('report').description('write one self-contained HTML page of a results file or .jsonl stream (with --compare: regressions and fixes)')
    .argument('<results>', 'results file (run --json) or its .jsonl stream')
    .option('--compare <old>', 'an older results file (or .jsonl stream) to compare with')
    .option('--compat <file>', 'a compat --json file: its cases × API minors matrix')
    .requiredOption('-o, --output <file>', 'the HTML file to write')
    .action(async (file: string, o: { compare?: string; compat?: string; output: string }) => {
      const { writeHtmlReport } = await import('../reporters/html.js');
      out(`${writeHtmlReport(file, o)}\n`);
    });

  pluginOpts(program.command('compat').description('run a selection (default tiers 0–1) at several PJRT API minors and print the cases whose status differs; exit 1 when a case passing at the newest fails at an older one'))
    .option('--minors <list>', 'minors to speak: 114,108,102,90 or a range 90..114 or 90..114:6 (default: the plugin\'s own and 6, 12, 24 older, down to 0.29)', parseMinors)
    .option('-t, --tier <n>', `run tiers ≤ n (${TIERS})`, int('--tier', 0), 1)
    .option('-f, --filter <glob>', 'only ids matching (picomatch), repeatable', collect, [])
    .option('-x, --exclude <glob>', 'leave out ids matching, repeatable', collect, [])
    .option('-e, --expectations <file>', 'expectations file (default: the plugin entry\'s)')
    .option('-j, --jobs <n>', 'parallel worker processes', int('--jobs', 1), 1)
    .option('--timeout <ms>', 'per-case timeout unless the case declares one', ms('--timeout', 1), 60000)
    .option('--json <file>', 'write the matrix as JSON (schemas/compat.schema.json)')
    .action(async (o: { plugin?: string; config?: string; createOption: string[]; minors?: number[]; tier: number; filter: string[]; exclude: string[]; expectations?: string; jobs: number; timeout: number; json?: string }) => {
      keepGoingOnEpipe = true;
      process.exitCode = await compatCommand({
        createOptions: parseCreateOptions(o.createOption), tier: o.tier, filters: o.filter, excludes: o.exclude, jobs: o.jobs,
        timeoutMs: o.timeout, retries: 0, stdout: safeStdout,
        ...(o.minors ? { minors: o.minors } : {}), ...(o.json ? { json: o.json } : {}),
        ...(o.plugin ? { plugin: o.plugin } : {}), ...(o.config ? { config: o.config } : {}),
        ...(o.expectations ? { expectations: path.resolve(o.expectations) } : {}),
      });
    });

  program.command('repro').description('write a standalone reproducer of each case: a Python script over jaxlib for program cases, a C program (cc repro.c -ldl) or the recorded PJRT call sequence for API cases (docs/repro.md)')
    .argument('<results>', 'results file (run --json), its .jsonl stream, or either gzipped')
    .argument('<case-id...>', 'the cases to reproduce')
    .requiredOption('-o, --output <dir>', 'the directory to write them into, one folder per case')
    .option('--note <text>', 'a paragraph for every README\'s notes (e.g. what the run stood in for); repeatable', collect, [])
    .option('--plugin-path <path>', 'the plugin library the READMEs\' commands name (default: the run\'s)')
    .action(async (file: string, ids: string[], o: { output: string; note: string[]; pluginPath?: string }) => {
      const { reproCommand } = await import('../src/repro/index.js');
      process.exitCode = await reproCommand({ results: file, ids, out: o.output, extra: { notes: o.note, ...(o.pluginPath ? { pluginPath: o.pluginPath } : {}) } }, out);
    });

  program.command('check-programs').description('check a --programs directory before a run: each sidecar against its program\'s signature, then every program on the bundled reference plugin; exit 2 naming each it rejects (probably a broken program)')
    .argument('<dir>', 'a program directory (<name>.mlir + <name>.json)')
    .action(async (dir: string) => {
      const { checkPrograms } = await import('../src/cli/program-blame.js');
      process.exitCode = await checkPrograms(path.resolve(dir), safeStdout, process.stderr);
    });

  program.command('discover').description('PJRT plugins found on this machine and the plugins.json entries (loads no plugin)')
    .option('-c, --config <file>', 'plugins.json to use')
    .option('--json', 'JSON output', false)
    .action((o: { config?: string; json: boolean }) => {
      const file = pluginsFilePath(o.config);
      const configured = Object.keys(loadPluginsFile(file).plugins).map((name) => {
        try {
          return { name, source: file, path: resolvePlugin(file, name, {}, { build: false }).library, exists: true };
        } catch (e) {
          return { name, source: file, path: '', exists: false, problem: (e as Error).message };
        }
      });
      const found = discoverAll();
      if (o.json) {
        out(JSON.stringify({ configured, discovered: found }, null, 2) + '\n');
        return;
      }
      out(`plugins.json (${file}):\n`);
      // Each problem without its "(see `pjrt-cts discover`)": this is that command.
      for (const c of configured) out(`  ${c.name}\t${c.exists ? c.path : `unavailable: ${'problem' in c ? c.problem?.replace(/ \(see `pjrt-cts discover`\)$/, '') : ''}`}\n`);
      out('discovered:\n');
      if (!found.length) out(`  (none: ${discoverySources().join('; ')})\n`);
      else if (pythonProblem()) out(`  (${pythonProblem()}: no python package was searched)\n`);
      else if (torchXlaProblem()) out(`  (${torchXlaProblem()})\n`);
      for (const d of found) out(`  ${discoveredLine(d)}\n`);
    });

  program.command('schema').description('write JSON Schemas of plugins.json, expectations and results files')
    .option('--out <dir>', 'directory (default: the current directory)')
    .addOption(new Option('--print <name>', 'print one schema instead').choices(Object.keys(SCHEMA_FILES)))
    .action((o: { out?: string; print?: SchemaName }) => {
      if (o.print) out(JSON.stringify(jsonSchemaOf(o.print), null, 2) + '\n');
      else for (const f of writeSchemas(o.out ?? '.')) out(`${f}\n`);
    });

  program.command('build-reference').description('build the bundled reference plugin into the per-user cache (done on first use otherwise)')
    .option('--force', 'rebuild even if it is there', false)
    .action((o: { force: boolean }) => {
      out(`${buildReference({ force: o.force })}\n`);
    });
  pluginOpts(program.command('jax-tests').description('run JAX\'s own test files (a JAX source checkout, unpatched) under pytest against the plugin, as JAX loads plugins; each file isolated, failures triaged into root causes (docs/jax-tests.md)'))
    .requiredOption('--jax-src <dir>', 'a JAX source checkout of the installed jax\'s version (git tag jax-vX.Y.Z)')
    .argument('[files...]', 'test files or globs under the checkout (tests/ may be left out); default: every tests/**/*_test.py')
    .option('--smoke', 'the smoke selection (a few files that finish in minutes on 2 cores: docs/jax-tests.md)', false)
    .option('-k, --keyword <expr>', 'pytest -k expression: only the tests it selects')
    .option('--jax-cpu', 'run on JAX\'s own CPU backend instead of a plugin (the referee to compare a plugin\'s run with)', false)
    .option('--from-results <file>', 'a CTS results file of the same plugin: tests of element types it shows lacking are unsupported')
    .option('-e, --expectations <file>', 'a baseline (--write-expectations of an earlier run): only what changed fails')
    .option('--write-expectations <file>', 'write the baseline to accept: one entry per root cause, compile and run failures apart')
    .option('--rerun-failed <results.json>', 'run only the tests an earlier jax-tests run did not pass')
    .option('--json <file>', 'write the results file (streamed next to it as .jsonl)')
    .option('--junit <file>', 'write JUnit XML (one testcase per JAX test)')
    .option('--html <file>', 'write the HTML report')
    .option('-j, --jobs <n>', 'test files run in parallel', int('--jobs', 1), 1)
    .option('--timeout <ms>', 'per-test timeout', ms('--timeout', 1), 300000)
    .option('-r, --retries <n>', 'rerun a failed, crashed or hung test up to n times in a fresh process; failed-then-passed is flaky', int('--retries', 0), 1)
    .option('--call-trace', 'load the plugin through the call-trace shim (build/call-trace) and group failures by the PJRT call and error', false)
    .action(async (files: string[], o: { plugin?: string; config?: string; createOption: string[]; jaxSrc: string; smoke: boolean; keyword?: string; jaxCpu: boolean; fromResults?: string; expectations?: string; writeExpectations?: string; rerunFailed?: string; json?: string; junit?: string; html?: string; jobs: number; timeout: number; retries: number; callTrace: boolean }) => {
      keepGoingOnEpipe = true;
      const { jaxTestsCommand } = await import('../src/jax-tests/command.js');
      const { createOption, timeout, ...rest } = o;
      process.exitCode = await jaxTestsCommand({ ...rest, files, createOptions: parseCreateOptions(createOption), timeoutMs: timeout, stdout: safeStdout });
    });

  registerXlaCommands(program, out);
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
  // Workers are gone by now; exit even if a plugin left threads behind. Writes to a pipe are asynchronous and
  // process.exit drops what is still queued, so drain both streams first (a closed one has nothing to drain).
  await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((resolve) => {
    if (s.destroyed || (s === process.stdout && stdoutClosed)) return resolve();
    s.write('', () => resolve());
  })));
  process.exit(process.exitCode ?? 0);
}

/** Whether this module is the process's entry (node dist/bin/pjrt-cts.js, npx pjrt-cts), not imported by a test. */
function isEntry(): boolean {
  try {
    return process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

if (isEntry()) void main();
