// JUnit XML: one <testsuite> per area, one <testcase> per id; plugin identity as <properties>.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { CaseResult, ResultsFile } from '../src/config/results.js';

const secs = (ms: number): string => (ms / 1000).toFixed(3);
const firstLine = (s: string | undefined): string => (s ?? '').split('\n')[0]!.slice(0, 500);
// XML 1.0 cannot carry most control characters; plugin messages sometimes do.
const clean = (s: string): string => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd');

function properties(r: ResultsFile): [string, string][] {
  const p = r.plugin;
  const out: [string, string][] = [['cts.version', r.cts.version], ['plugin.name', p.name], ['plugin.path', p.path]];
  if (p.sha256) out.push(['plugin.sha256', p.sha256]);
  if (p.apiVersion) out.push(['plugin.apiVersion', `${p.apiVersion.major}.${p.apiVersion.minor}`]);
  if (p.platformName) out.push(['plugin.platform', p.platformName]);
  if (p.platformVersion) out.push(['plugin.platformVersion', p.platformVersion]);
  for (const [k, v] of Object.entries(p.attributes ?? {})) out.push([`plugin.attribute.${k}`, JSON.stringify(v)]);
  for (const [k, v] of Object.entries(p.createOptions ?? {})) out.push([`plugin.createOption.${k}`, JSON.stringify(v)]);
  return out;
}

function addCase(suite: XMLBuilder, c: CaseResult): void {
  const tc = suite.ele('testcase', { classname: c.area, name: c.id.slice(c.area.length + 1) || c.id, time: secs(c.durationMs) });
  const msg = clean(c.message ?? '');
  switch (c.status) {
    case 'fail':
      tc.ele('failure', { type: 'fail', message: firstLine(msg) }).txt(msg);
      break;
    case 'crash':
    case 'timeout':
      tc.ele('error', { type: c.status, message: firstLine(msg) }).txt(msg);
      break;
    case 'unsupported':
    case 'skip':
      tc.ele('skipped', { message: `${c.status}: ${firstLine(msg)}` });
      break;
    case 'xfail':
      tc.ele('skipped', { message: `xfail: ${c.expectation?.reason ?? ''}` });
      if (msg) tc.ele('system-out').txt(msg);
      break;
    case 'xpass':
    case 'flaky':
      tc.ele('system-out').txt(`${c.status}: ${msg}`);
      break;
    case 'pass':
      break;
  }
}

export function renderJunit(r: ResultsFile): string {
  const areas = new Map<string, CaseResult[]>();
  for (const c of r.results) (areas.get(c.area) ?? areas.set(c.area, []).get(c.area)!).push(c);
  const n = (list: CaseResult[], ...s: CaseResult['status'][]): number => list.filter((c) => s.includes(c.status)).length;
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', {
    name: `pjrt-cts ${r.plugin.name}`, tests: r.results.length, failures: n(r.results, 'fail'), errors: n(r.results, 'crash', 'timeout'),
    skipped: n(r.results, 'unsupported', 'skip', 'xfail'), time: secs(r.durationMs), timestamp: r.startedAt,
  });
  const props = properties(r);
  for (const [area, list] of areas) {
    const s = root.ele('testsuite', {
      name: area, tests: list.length, failures: n(list, 'fail'), errors: n(list, 'crash', 'timeout'),
      skipped: n(list, 'unsupported', 'skip', 'xfail'), time: secs(list.reduce((a, c) => a + c.durationMs, 0)), timestamp: r.startedAt,
    });
    const pe = s.ele('properties');
    for (const [name, value] of props) pe.ele('property', { name, value: clean(value) });
    for (const c of list) addCase(s, c);
  }
  return root.end({ prettyPrint: true });
}

export function writeJunitReport(file: string, r: ResultsFile): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, renderJunit(r));
}
