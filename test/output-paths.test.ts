// Every path a command writes goes through one check before anything runs (src/cli/path-roles.ts, checkOutputs): an
// output that is an input or another output, or an empty value, is exit 2 naming it. The options are enumerated from
// the CLI's own commander definitions, so a new option that takes a value must be classified here or in
// PATH_ROLES, and a new output is checked against every input and output of its command without a new test.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command, Option } from 'commander';
import { CommanderError } from 'commander';
import { build } from '../bin/pjrt-cts.js';
import { PATH_ROLES, type PathRole } from '../src/cli/path-roles.js';
import { ConfigError } from '../src/config/errors.js';
import { cli, oneErrorLine, ROOT, tmpDir } from './runner-helpers.js';

/** Options that take a value that is not a path the command reads or writes, and why. */
const NOT_PATHS: Readonly<Record<string, string>> = {
  '--plugin': 'an entry name or a library path: run and compat check the library they resolve against their outputs',
  '--create-option': 'k=v', '--tier': 'a number', '--gate': 'tierN', '--filter': 'a glob', '--exclude': 'a glob', '--jobs': 'a number',
  '--timeout': 'ms', '--retries': 'a number', '--shard': 'i/n', '--max-failures': 'a number', '--max-client-failures': 'a number',
  '--max-call-failures': 'a number', '--topology': 'a topology name', '--warmup-timeout': 'ms', '--api-minor': 'a number',
  '--repeat': 'a number', '--soak': 'ms',
  '--kv': 'a URL', '--run-id': 'an id', '--nodes-external': 'a number', '--node-id': 'a number', '--num-nodes': 'a number',
  '--minors': 'a list of numbers', '--print': 'a schema name', '--only': 'a program name', '--sample': 'a number', '--form': 'text or artifact',
  '<case-id>': 'case ids', '--keyword': 'a pytest -k expression', '<files>': 'globs of test files inside --jax-src',
  '--note': 'a paragraph of text', '--plugin-path': 'text the reproducers\' READMEs print; never opened by repro',
};

/** Values for options a command requires that are not paths. */
const SAMPLES: Readonly<Record<string, string>> = { '--kv': 'etcd://127.0.0.1:1', '--node-id': '0', '--num-nodes': '1' };

const takesValue = (o: Option): boolean => o.required || o.optional;
const keysOf = (c: Command): string[] => [
  ...c.options.filter(takesValue).map((o) => o.long!),
  ...c.registeredArguments.map((a) => `<${a.name()}>`),
];

/** The CLI with every action replaced: a command line the checks let through must not run anything here. */
function program(): Command {
  const p = build();
  for (const c of p.commands) c.action(() => { throw new Error(`pjrt-cts ${c.name()}: the action was reached`); });
  return p;
}

/** Parses one command line in this process; the error the checks threw (undefined: none). */
async function parse(args: string[]): Promise<Error | undefined> {
  const errWrite = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write; // commander's own messages: the error is checked
  try {
    await program().parseAsync(['node', 'pjrt-cts', ...args]);
    return undefined;
  } catch (e) {
    return e as Error;
  } finally {
    process.stderr.write = errWrite;
  }
}

describe('output paths: one check for every path any command writes, from the CLI\'s own definitions', function () {
  this.timeout(60_000);
  const commands = build().commands;
  const dir = tmpDir();
  let n = 0;
  /** A fresh path of a role: an existing file or directory for inputs, a new file or directory for outputs. */
  const fresh = (role: PathRole): string => {
    const p = path.join(dir, `p${n++}${role.endsWith('dir') ? '' : '.json'}`);
    if (role === 'input') writeFileSync(p, '{"untouched": true}\n');
    if (role === 'input-dir') mkdirSync(p);
    return p;
  };
  /** The arguments and required options of a command, with values that pass their parsers. */
  const base = (c: Command): Map<string, string> => {
    const roles = PATH_ROLES[c.name()] ?? {};
    const m = new Map<string, string>();
    for (const a of c.registeredArguments) { const k = `<${a.name()}>`; m.set(k, roles[k] ? fresh(roles[k]) : 'x'); }
    for (const o of c.options.filter((x) => x.mandatory)) m.set(o.long!, roles[o.long!] ? fresh(roles[o.long!]!) : SAMPLES[o.long!] ?? 'x');
    return m;
  };
  const argv = (c: Command, m: Map<string, string>): string[] => [
    c.name(), ...c.registeredArguments.map((a) => m.get(`<${a.name()}>`)!),
    ...[...m].filter(([k]) => !k.startsWith('<')).flatMap(([k, v]) => [k, v]),
  ];

  it('every option that takes a value, and every argument, is classified: a path the command reads or writes, or none', () => {
    const unclassified = commands.flatMap((c) => keysOf(c).filter((k) => !(k in (PATH_ROLES[c.name()] ?? {})) && !(k in NOT_PATHS)).map((k) => `${c.name()} ${k}`));
    assert.deepEqual(unclassified, [], 'add each to PATH_ROLES (src/cli/path-roles.ts) with its role, or to NOT_PATHS here with why it is no path');
    const stale = Object.entries(PATH_ROLES).flatMap(([name, roles]) => {
      const c = commands.find((x) => x.name() === name);
      return Object.keys(roles).filter((k) => !c || !keysOf(c).includes(k)).map((k) => `${name} ${k}`);
    });
    assert.deepEqual(stale, [], 'PATH_ROLES names options the CLI does not have');
  });

  for (const c of commands) {
    const roles = PATH_ROLES[c.name()] ?? {};
    const outputs = Object.keys(roles).filter((k) => roles[k]!.startsWith('output'));
    for (const out of outputs) {
      const others = Object.keys(roles).filter((k) => k !== out);
      if (!others.length) continue; // schema --out: the command reads nothing
      it(`${c.name()} ${out} is refused when it names another path of the command, before anything runs`, async () => {
        for (const other of others) {
          const m = base(c);
          const role = roles[other]!;
          const target = role === 'input-dir' ? fresh(role) : fresh(role === 'input' ? 'input' : 'output');
          m.set(other, target);
          // Inside an input directory: a file the next run would read as part of it.
          m.set(out, role === 'input-dir' ? path.join(target, 'r.json') : target);
          const before = role === 'input' ? readFileSync(target, 'utf8') : undefined;
          const e = await parse(argv(c, m));
          assert.ok(e instanceof ConfigError, `${argv(c, m).join(' ')}: ${e?.message ?? 'accepted'}`);
          assert.match(e.message, /expected a path (that is not an input|of its own|outside the)/);
          if (before !== undefined) assert.equal(readFileSync(target, 'utf8'), before, 'the input is left as it was');
        }
      });
    }
  }

  it('an empty value of any option or argument of any command is bad input naming it', async () => {
    for (const c of commands) {
      for (const k of keysOf(c)) {
        const m = base(c);
        m.set(k, '');
        const e = await parse(argv(c, m));
        assert.ok(e instanceof ConfigError || e instanceof CommanderError, `${c.name()} ${k} "": ${e?.message ?? 'accepted'}`);
        assert.ok(e.message.includes(k.replace(/^<|>$/g, '')), `${c.name()} ${k} "": the message names it: ${e.message}`);
      }
    }
  });

  it('run: the outputs are checked against what the run resolves too (the library and expectations an entry names)', () => {
    const lib = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
    oneErrorLine(cli(['run', '--tier', '0', '--html', lib]), /--html: .*libpjrt_reference\.so: expected a path that is not an input: it is the --plugin/);
    const d = tmpDir();
    const exp = path.join(d, 'exp.json');
    writeFileSync(exp, '{"expectations": []}\n');
    const config = path.join(d, 'plugins.json');
    writeFileSync(config, JSON.stringify({ default: 'r', plugins: { r: { library: lib, expectations: 'exp.json' } } }));
    oneErrorLine(cli(['run', '--tier', '0', '-c', config, '--junit', exp]), /--junit: .*exp\.json: expected a path that is not an input: it is the --expectations/);
    assert.equal(readFileSync(exp, 'utf8'), '{"expectations": []}\n');
    oneErrorLine(cli(['run', '--tier', '0', '--json', path.join(d, 'r.json'), '--html', path.join(d, 'r.jsonl')]), /--html: .*r\.jsonl: expected a path of its own: --json \(its \.jsonl stream\) writes/);
  });

  it('an empty --plugin, --config or --json fails the run at once (an unset CI variable must not test the default plugin)', () => {
    for (const flag of ['--plugin', '--config', '--json', '--html']) {
      oneErrorLine(cli(['run', '--gate', 'tier1', flag, '']), new RegExp(`^pjrt-cts: error: ${flag}: "": expected a value`));
    }
  });
});
