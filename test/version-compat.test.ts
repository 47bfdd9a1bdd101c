// Version compatibility: `run --api-minor N`, `compat` over several minors, and `compare` as a regression check.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { API_SLOTS, PJRT_API_MINOR, layoutOf } from '../src/abi/index.js';
import { makeArgs, setSpokenMinor, UnsupportedError } from '../src/ffi/index.js';
import { ResultsFile, StreamHeader, type Status } from '../src/config/results.js';
import { ComparisonReport, CompatReport } from '../src/config/version-compat.js';
import { ConfigError } from '../src/config/errors.js';
import { compatReport, defaultMinors, parseMinors, renderCompat } from '../src/cli/compat.js';
import { cli, oneErrorLine, tmpDir, WITHOUT_FRAMEWORK_TIER } from './runner-helpers.js';

const SINCE = new Map(API_SLOTS.map((s) => [s.name, s.since]));

function results(rows: [string, Status, string?][], run: Partial<ResultsFile['run']> = {}, createOptions: Record<string, number> = {}): ResultsFile {
  return {
    schemaVersion: 1, cts: { version: '0.1.0' }, startedAt: '', finishedAt: '', durationMs: 0, interrupted: false,
    run: { strict: false, maxTier: 1, filters: [], excludes: [], retries: 0, jobs: 1, apiMinor: 114, ...run }, plugin: { name: 'p', path: '/p.so', createOptions },
    environment: { node: '', platform: '', arch: '', cpus: 1, hostname: '' },
    results: rows.map(([id, status, message]) => ({ id, area: 'a.b', tier: 1, status, durationMs: 1, source: 'header' as const, cite: 't', requires: {}, ...(message ? { message } : {}) })),
    totals: { byStatus: {}, byTier: {} }, capabilities: {}, staleExpectations: [], exitCode: 0,
  };
}

/** The case families made one per corpus program or per exhaustive (op, type). */
const CORPUS_FAMILIES = ['tier1.program.run.*', 'tier1.program_forms.text_and_artifact_agree.*', 'tier1.aot_compile.program.*', 'tier2.exhaustive.**'];

describe('version compatibility', function () {
  this.timeout(60_000);
  const dir = tmpDir();

  describe('run --api-minor', () => {
    let r100: ResultsFile;
    before(() => {
      const json = path.join(dir, 'm100.json');
      // --api-minor sets the minor the CTS's own binding speaks; tier 4's JAX loads the plugin itself, so it is left out.
      // So are the corpus-driven families (2,700 of the cases): each program goes through the compile, execute and
      // transfer Args the suites' own cases already send at this minor, so they would repeat that proof.
      const r = cli(['run', '--api-minor', '100', '--jobs', '2', '--json', json, ...WITHOUT_FRAMEWORK_TIER, ...CORPUS_FAMILIES.flatMap((f) => ['--exclude', f])]);
      assert.ok(r.code === 0, r.stdout.slice(-3000) + r.stderr);
      r100 = ResultsFile.parse(JSON.parse(readFileSync(json, 'utf8')));
    });

    it('at 0.100 on the reference plugin: every case that exists at 0.100 passes, the rest are unsupported "needs 0.M"', () => {
      assert.equal(r100.run.apiMinor, 100);
      assert.match(cli(['run', '--api-minor', '100', '--list', '--tier', '0']).stdout, /tier0\./);
      for (const c of r100.results) {
        const newer = Math.max(c.requires.minMinor ?? 0, ...(c.requires.slots ?? []).map((s) => SINCE.get(s) ?? 0));
        if (newer > 100) {
          assert.equal(c.status, 'unsupported', c.id);
          assert.match(c.message ?? '', /needs 0\.\d+/, c.id);
        } else if (c.status !== 'pass') {
          // Only something newer than 0.100 (a field the case needs) may make a case unsupported.
          assert.equal(c.status, 'unsupported', `${c.id}: ${c.status} ${c.message ?? ''}`);
          const m = /needs 0\.(\d+)/.exec(c.message ?? '');
          assert.ok(m && Number(m[1]) > 100, `${c.id}: ${c.message ?? ''}`);
        }
      }
      assert.ok(r100.results.filter((c) => c.status === 'pass').length > 1000);
    });

    it('the .jsonl stream starts with a header naming the run, the minor spoken included', () => {
      const [head, ...rest] = readFileSync(path.join(dir, 'm100.jsonl'), 'utf8').trim().split('\n');
      const h = StreamHeader.parse(JSON.parse(head!));
      assert.equal(h.apiMinor, 100);
      assert.equal(h.plugin.name, 'reference');
      assert.deepEqual(h.plugin.createOptions, { device_count: 4 });
      assert.equal(rest.length, r100.results.length);
    });

    it('Args of the spoken minor: its struct_size and layout; a newer field or struct is UnsupportedError "needs 0.M"', () => {
      setSpokenMinor(100);
      try {
        const a = makeArgs('PJRT_Client_CreateErrorBuffer_Args');
        assert.equal(a.structSize, layoutOf('PJRT_Client_CreateErrorBuffer_Args', 100).structSize);
        assert.ok(a.structSize < layoutOf('PJRT_Client_CreateErrorBuffer_Args').structSize, 'payload (0.103) is not part of it');
        assert.throws(() => a.ptr('payload', null), (e: Error) => e instanceof UnsupportedError && /payload: needs 0\.103 \(the CTS speaks 0\.100\)/.test(e.message));
        setSpokenMinor(80);
        assert.throws(() => makeArgs('PJRT_Event_Create_Args'), (e: Error) => e instanceof UnsupportedError && /needs 0\.89/.test(e.message));
      } finally {
        setSpokenMinor(PJRT_API_MINOR);
      }
      assert.equal(makeArgs('PJRT_Client_CreateErrorBuffer_Args').structSize, layoutOf('PJRT_Client_CreateErrorBuffer_Args').structSize);
    });

    it('rejects minors it cannot speak: one line, exit 2', () => {
      for (const v of ['0', '28', '115', 'x', '1.5']) oneErrorLine(cli(['run', '--api-minor', v, '--list']), /--api-minor/);
    });
  });

  describe('compat', () => {
    it('prints a cases × minors matrix over five minors and writes it as JSON', () => {
      const json = path.join(dir, 'compat.json');
      const r = cli(['compat', '--minors', '114,100,89,80,29', '--tier', '2', '--filter', 'tier2.events.*', '--filter', 'tier1.buffer.copy_to_memory*', '--json', json, '--jobs', '2']);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /case\s+0\.114\s+0\.100\s+0\.89\s+0\.80\s+0\.29/);
      assert.match(r.stdout, /tier2\.events\.create_and_set\s+pass\s+pass\s+pass\s+unsupported\s+unsupported/);
      assert.match(r.stdout, /no case that passes at 0\.114 fails at an older minor/);
      const rep = CompatReport.parse(JSON.parse(readFileSync(json, 'utf8')));
      assert.deepEqual(rep.minors, [114, 100, 89, 80, 29]);
      assert.equal(rep.windowViolations.length, 0);
      assert.equal(rep.cases.find((c) => c.id === 'tier1.buffer.copy_to_memory')?.statuses['29'], 'unsupported');
      // At 0.80 the cases needing 0.82 (CreateErrorBuffer) and 0.89 (Event_Create) are unsupported, saying so.
      const at80 = rep.cases.filter((c) => c.statuses['80'] === 'unsupported');
      assert.ok(at80.length >= 7, JSON.stringify(rep.counts));
      for (const c of at80) assert.match(c.messages?.['80'] ?? '', /needs 0\.(82|89) \(the CTS speaks 0\.80\)/);
      assert.equal(rep.counts['80']?.['fail'], undefined);
      assert.ok(!rep.cases.some((c) => Object.values(c.statuses).every((s) => s === 'pass')), 'only cases that differ');
    });

    it('a case passing at the newest minor and failing at an older one breaks the window: exit 1', () => {
      const runs = new Map([[114, results([['a.b.1', 'pass'], ['a.b.2', 'pass'], ['a.b.3', 'fail']])], [100, results([['a.b.1', 'fail', 'boom'], ['a.b.2', 'unsupported'], ['a.b.3', 'fail']])]]);
      const rep = CompatReport.parse(compatReport(runs, { maxTier: 1, filters: [], excludes: [] }));
      assert.deepEqual(rep.windowViolations.map((v) => [v.id, v.minor]), [['a.b.1', 100]]);
      assert.equal(rep.exitCode, 1);
      assert.deepEqual(rep.cases.map((c) => c.id), ['a.b.1', 'a.b.2']);
      assert.match(renderCompat(rep), /COMPATIBILITY WINDOW BROKEN: 1 case\(s\)[\s\S]*a\.b\.1 at 0\.100: fail {2}boom/);
    });

    it('--minors takes lists and ranges; defaults are the plugin\'s own and 6, 12, 24 older, down to 0.29', () => {
      assert.deepEqual(parseMinors('114,108,102,90'), [114, 108, 102, 90]);
      assert.deepEqual(parseMinors('90..114:6'), [114, 108, 102, 96, 90]);
      assert.deepEqual(parseMinors('100..102,29'), [102, 101, 100, 29]);
      assert.deepEqual(defaultMinors(114), [114, 108, 102, 90]);
      assert.deepEqual(defaultMinors(40), [40, 34, 29]);
      for (const bad of ['', '114', '28,114', '114,115', 'a..b', '90..114:0']) assert.throws(() => parseMinors(bad), ConfigError, bad);
      oneErrorLine(cli(['compat', '--minors', '114,20']), /--minors/);
    });
  });

  describe('compare', () => {
    const write = (name: string, f: ResultsFile): string => {
      const file = path.join(dir, name);
      writeFileSync(file, JSON.stringify(f));
      return file;
    };

    it('pass → unsupported/skip is a regression unless --allow-new-unsupported', () => {
      const a = write('c-a.json', results([['a.b.1', 'pass'], ['a.b.2', 'pass']]));
      const b = write('c-b.json', results([['a.b.1', 'unsupported'], ['a.b.2', 'skip']]));
      const r = cli(['compare', a, b, '--json']);
      assert.equal(r.code, 1, r.stderr);
      const c = ComparisonReport.parse(JSON.parse(r.stdout));
      assert.deepEqual(c.regressions.map((x) => x.id), ['a.b.1', 'a.b.2']);
      assert.equal(c.exitCode, 1);
      const ok = cli(['compare', a, b, '--allow-new-unsupported', '--json']);
      assert.equal(ok.code, 0);
      assert.deepEqual(ComparisonReport.parse(JSON.parse(ok.stdout)).newlyUnsupported.map((x) => x.id), ['a.b.1', 'a.b.2']);
    });

    it('ids missing from the new run are an error (with the count) unless --allow-removed', () => {
      const a = write('r-a.json', results([['a.b.1', 'pass'], ['a.b.2', 'pass'], ['a.b.3', 'fail']]));
      const b = write('r-b.json', results([['a.b.1', 'pass']]));
      const r = cli(['compare', a, b]);
      assert.equal(r.code, 1);
      assert.match(r.stdout, /error: 2 id\(s\) of the old run are missing from the new one/);
      assert.equal(cli(['compare', a, b, '--allow-removed']).code, 0);
    });

    it('refuses runs of another CTS version, API minor, selection or create options (exit 2, one line) unless --force', () => {
      const a = write('m-a.json', results([['a.b.1', 'pass']]));
      const cases: [string, ResultsFile, RegExp][] = [
        ['cts', { ...results([['a.b.1', 'pass']]), cts: { version: '0.2.0' } }, /CTS version 0\.1\.0 vs 0\.2\.0/],
        ['minor', results([['a.b.1', 'pass']], { apiMinor: 100 }), /API minor spoken 114 vs 100/],
        ['tier', results([['a.b.1', 'pass']], { maxTier: 0 }), /--tier 1 vs 0/],
        ['filter', results([['a.b.1', 'pass']], { filters: ['a.*'] }), /--filter none vs a\.\*/],
        ['shard', results([['a.b.1', 'pass']], { shard: '1/2' }), /--shard none vs 1\/2/],
        ['programs', results([['a.b.1', 'pass']], { programs: '/x' }), /--programs none vs \/x/],
        ['opts', results([['a.b.1', 'pass']], {}, { device_count: 2 }), /create options \{\} vs \{"device_count":2\}/],
      ];
      for (const [name, f, re] of cases) {
        const b = write(`m-${name}.json`, f);
        oneErrorLine(cli(['compare', a, b]), re);
        const forced = cli(['compare', a, b, '--force', '--json']);
        assert.equal(forced.code, 0, forced.stderr);
        assert.equal(ComparisonReport.parse(JSON.parse(forced.stdout)).mismatches.length, 1);
      }
    });

    it('reads .jsonl streams by their header; a stream without one is bad input', () => {
      // The stream and the results file of the 0.100 run above are the same run.
      const jsonl = path.join(dir, 'm100.jsonl');
      const r = cli(['compare', jsonl, path.join(dir, 'm100.json'), '--json']);
      assert.equal(r.code, 0, r.stderr);
      const c = ComparisonReport.parse(JSON.parse(r.stdout));
      assert.equal(c.old.apiMinor, 100);
      assert.equal(c.regressions.length + c.removed.length + c.added.length, 0);
      const headless = path.join(dir, 'headless.jsonl');
      writeFileSync(headless, readFileSync(jsonl, 'utf8').split('\n').slice(1).join('\n'));
      oneErrorLine(cli(['compare', headless, jsonl]), /headless\.jsonl: line 1: expected a header record/);
    });
  });
});
