// One run, five outputs (JSONL, JSON, JUnit, console, HTML): every case has the same status in each. The run has
// failing preconditions (fault error_code_out_of_range breaks tier0.errors.provoked.*), so their dependents
// (tier0.errors.provoked_code.*) are judged `skip` when their results arrive, before anything is written.
// Also: with h2d_drops_last_byte, the failures of the transfer cases read as one broken rule, the upload's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cli, tmpDir } from './runner-helpers.js';
import type { CaseResult, ResultsFile } from '../src/config/results.js';

const LABEL_TO_STATUS: Record<string, string> = {
  PASS: 'pass', FAIL: 'fail', WARN: 'warn', CRASH: 'crash', TIMEOUT: 'timeout', UNSUPPORTED: 'unsupported', SKIP: 'skip', XFAIL: 'xfail', XPASS: 'xpass', FLAKY: 'flaky',
};
const unescape = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

function statusesOfJsonl(file: string): Map<string, string> {
  const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id?: string; status?: string });
  return new Map(lines.filter((l) => typeof l.id === 'string').map((l) => [l.id!, l.status!]));
}

function statusesOfJunit(file: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of readFileSync(file, 'utf8').matchAll(/<testcase classname="([^"]+)" name="([^"]+)"[^>]*status="(\w+)"[^>]*?(\/?)>([\s\S]*?)(?:<\/testcase>|(?=<testcase)|(?=<\/testsuite>))/g)) {
    const [, area, name, status, , body] = m;
    const id = `${unescape(area!)}.${unescape(name!).replace(/ \[\w+\]$/, '')}`;
    // The element must say the same as the attribute.
    const el = /<failure /.test(body!) ? 'fail' : /<error type="(\w+)"/.exec(body!)?.[1] ?? /<skipped message="(\w+):/.exec(body!)?.[1] ?? (/ \[(\w+)\]$/.exec(unescape(name!))?.[1] ?? 'pass');
    assert.equal(el, status, `JUnit element and status attribute of ${id}`);
    out.set(id, status!);
  }
  return out;
}

/** The console prints a line per non-quiet case (pass, skip and unsupported are counted only). */
function statusesOfConsole(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^(PASS|FAIL|WARN|CRASH|TIMEOUT|SKIP|XFAIL|XPASS|FLAKY|UNSUPPORTED) +(\S+) \(\d+ ms\)/gm)) out.set(m[2]!, LABEL_TO_STATUS[m[1]!]!);
  return out;
}

function statusesOfHtml(file: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of readFileSync(file, 'utf8').matchAll(/<tr data-id="([^"]+)" data-status="(\w+)">/g)) out.set(unescape(m[1]!), m[2]!);
  return out;
}

describe('the outputs of a run agree', function () {
  this.timeout(120_000);

  it('JSONL, JSON, JUnit, console and HTML give every case the same status, dependents of failed preconditions included', () => {
    const dir = tmpDir();
    const f = (x: string): string => path.join(dir, x);
    const r = cli(['run', '--filter', 'tier0.errors.**', '--jobs', '2', '--warmup-timeout', '0', '--json', f('r.json'), '--junit', f('r.xml'), '--html', f('r.html')], {
      env: { PJRT_REFERENCE_FAULTS: 'error_code_out_of_range' },
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const json = JSON.parse(readFileSync(f('r.json'), 'utf8')) as ResultsFile;
    const truth = new Map(json.results.map((c: CaseResult) => [c.id, c.status]));
    const skipped = json.results.filter((c) => c.status === 'skip' && /^depends on tier0\.errors\.provoked\./.test(c.message ?? ''));
    assert.ok(skipped.length >= 3, `dependents skipped: ${JSON.stringify(json.totals.byStatus)}`);
    assert.deepEqual(statusesOfJsonl(f('r.jsonl')), truth, 'JSONL');
    assert.deepEqual(statusesOfJunit(f('r.xml')), truth, 'JUnit');
    const quiet = new Set(['pass', 'skip', 'unsupported']);
    assert.deepEqual(statusesOfConsole(r.stdout), new Map([...truth].filter(([, s]) => !quiet.has(s))), 'console case lines');
    const n = (s: string): number => [...truth.values()].filter((x) => x === s).length;
    assert.match(r.stdout, new RegExp(`^pjrt-cts: ${n('pass')} passed, ${n('fail')} failed \\(${n('fail')} fail\\)(, ${n('warn')} warned)?, ${n('skip')} skipped$`, 'm'));
    assert.deepEqual(statusesOfHtml(f('r.html')), new Map([...truth].filter(([, s]) => s !== 'pass')), 'HTML');
    // The page lists failures by broken rule, names the plugin's environment and every run option.
    const html = readFileSync(f('r.html'), 'utf8');
    assert.match(html, /<code>PJRT_Error_GetCode:a-code-other-than-ok<\/code> — 5 case\(s\)/);
    assert.match(html, /PJRT_REFERENCE_FAULTS=error_code_out_of_range/);
    assert.match(html, /--timeout 60000 --warmup-timeout 0/);
  });

  it('with h2d_drops_last_byte, the transfer, buffer and DLPack failures read as one broken rule: the upload', () => {
    const dir = tmpDir();
    const r = cli(['run', '--filter', 'tier1.transfer.**', '--filter', 'tier1.buffer.**', '--filter', 'tier2.dlpack.**', '--jobs', '2', '--warmup-timeout', '0', '--json', path.join(dir, 'r.json')], {
      env: { PJRT_REFERENCE_FAULTS: 'h2d_drops_last_byte' },
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const json = JSON.parse(readFileSync(path.join(dir, 'r.json'), 'utf8')) as ResultsFile;
    const failed = json.results.filter((c) => c.status === 'fail').length;
    assert.ok(failed > 100, `failures: ${failed}`);
    const causes = json.rootCauses ?? [];
    assert.ok(causes.length <= 3, causes.map((c) => `${c.count} ${c.rule}`).join('\n'));
    assert.equal(causes[0]!.foundation, 'upload and read-back');
    assert.match(causes[0]!.rule ?? '', /^PJRT_Client_BufferFromHostBuffer:/);
    assert.equal(causes.reduce((a, c) => a + c.count + (c.following ?? []).reduce((b, x) => b + x.count, 0), 0), failed, 'every failure is under a rule once');
    assert.match(r.stdout, /foundation broken \(upload and read-back\): \d+ × FAIL PJRT_Client_BufferFromHostBuffer:/);
  });
});
