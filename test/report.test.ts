// `pjrt-cts report`: a self-contained HTML page from a real run's results (plus a fake failing case), valid HTML,
// no network references, every message escaped; bad input and bad output paths are one line, exit 2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HtmlValidate } from 'html-validate';
import { renderHtmlReport, templatesDir } from '../reporters/html.js';
import { ResultsFile, type CaseResult } from '../src/config/results.js';
import { CompatReport } from '../src/config/version-compat.js';
import { cli, oneErrorLine, ROOT, tmpDir } from './runner-helpers.js';

const LIB = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
/** Small but varied: the runner smoke cases (one of them `quality`) and programs that record capabilities. */
const FILTERS = ['--filter', 'tier0.runner.*', '--filter', 'tier1.program.run.a[bn]*'];
const EVIL = '<img src="http://evil.example/x.png"> & <script>alert("pwned")</script>';

async function validate(html: string): Promise<void> {
  const report = await new HtmlValidate({ extends: ['html-validate:recommended'] }).validateString(html);
  const problems = report.results.flatMap((r) => r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`));
  assert.deepEqual(problems, [], problems.join('\n'));
}

/** Nothing is fetched when the page is viewed: no scripts, stylesheets, images, frames, fonts or absolute URLs. */
function assertSelfContained(html: string): void {
  // Real tags only: escaped text (`&lt;img src=…`) is not markup.
  const tags = html.match(/<[a-z!][^>]*>/gi) ?? [];
  assert.ok(tags.length > 100);
  for (const t of tags) {
    assert.doesNotMatch(t, /^<(script|link|img|iframe|object|embed|video|audio|source|base)\b/i, t);
    // Attribute values are escaped text (a title may quote a message holding a URL); only the names that fetch matter.
    for (const [, name, value] of t.matchAll(/\s([\w:-]+)(?:="([^"]*)")?/g)) {
      assert.ok(!['src', 'srcset', 'action', 'formaction', 'data', 'poster', 'style', 'background'].includes(name!.toLowerCase()), `${name} in ${t}`);
      if (name!.toLowerCase() === 'href') assert.match(value ?? '', /^#[\w-]+$/, `only in-page links: ${t}`);
    }
  }
  assert.doesNotMatch(html, /@import|url\(|@font-face/i);
}

describe('pjrt-cts report', function () {
  this.timeout(60_000);
  let dir: string;
  let newFile: string;
  let oldFile: string;
  let changed: { regression: string; fix: string };

  before(function () {
    if (!existsSync(LIB)) this.skip();
    dir = tmpDir();
    oldFile = path.join(dir, 'old.json');
    const r = cli(['run', '--json', oldFile, ...FILTERS]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const old = ResultsFile.parse(JSON.parse(readFileSync(oldFile, 'utf8')));
    assert.ok(Object.keys(old.capabilities).length > 0, 'the run records capabilities');
    // The newer run: one case that passed now fails (with markup and a URL in its message), one that failed in
    // the old run passes now, and a quality case warns.
    const passing = old.results.filter((c) => c.status === 'pass' && c.source !== 'quality');
    const quality = old.results.find((c) => c.source === 'quality');
    assert.ok(passing.length >= 2 && quality, 'a varied selection');
    changed = { regression: passing[0]!.id, fix: passing[1]!.id };
    const now = structuredClone(old);
    const set = (c: CaseResult, status: CaseResult['status'], message?: string): void => {
      c.status = status;
      if (message) c.message = message;
    };
    set(now.results.find((c) => c.id === changed.regression)!, 'fail', `expected 1, got 2: ${EVIL}\nsecond line ${EVIL}`);
    set(now.results.find((c) => c.id === quality.id)!, 'warn', 'a quality check found it lacking');
    const recount = (f: ResultsFile): void => {
      f.totals = { byStatus: {}, byTier: {} };
      for (const c of f.results) {
        f.totals.byStatus[c.status] = (f.totals.byStatus[c.status] ?? 0) + 1;
        const t = (f.totals.byTier[String(c.tier)] ??= {});
        t[c.status] = (t[c.status] ?? 0) + 1;
      }
    };
    now.rootCauses = [{ count: 1, status: 'fail', message: `expected 1, got 2: ${EVIL}`, ids: [changed.regression] }];
    assert.equal(old.capabilities['abs/s32'], true);
    now.capabilities['abs/f32'] = false;
    now.capabilities['abs/f16'] = 'warn';
    now.exitCode = 1;
    recount(now);
    set(old.results.find((c) => c.id === changed.fix)!, 'fail', 'it used to fail');
    recount(old);
    newFile = path.join(dir, 'new.json');
    writeFileSync(newFile, JSON.stringify(now, null, 2));
    writeFileSync(oldFile, JSON.stringify(old, null, 2));
  });

  it('writes one valid, self-contained page with identity, counts, non-passes, root causes, counters, matrix and changes', async () => {
    const out = path.join(dir, 'sub', 'report.html');
    const r = cli(['report', newFile, '--compare', oldFile, '-o', out]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.stdout.trim(), out);
    const html = readFileSync(out, 'utf8');
    await validate(html);
    assertSelfContained(html);
    const now = ResultsFile.parse(JSON.parse(readFileSync(newFile, 'utf8')));
    // identity
    for (const s of [now.plugin.name, now.plugin.path, now.plugin.sha256!, `0.${now.plugin.apiVersion!.minor}`, now.cts.version, 'reference_plugin_version']) {
      assert.ok(html.includes(s), `the page shows ${s}`);
    }
    // counts per tier and status, warn included
    assert.match(html, /<th scope="col" class="st-warn">warn<\/th>/);
    assert.match(html, /<th scope="row">tier 1<\/th>/);
    // the failure, its source and cite, escaped; never raw markup
    assert.ok(html.includes(changed.regression));
    assert.ok(html.includes('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;'), 'messages are escaped');
    assert.ok(html.includes('&lt;img src=&quot;http://evil.example/x.png&quot;&gt; &amp;'));
    assert.ok(!html.includes(EVIL));
    const failing = now.results.find((c) => c.id === changed.regression)!;
    assert.ok(html.includes(`class="src src-${failing.source}"`));
    assert.ok(html.includes(failing.cite.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')), 'the cite');
    assert.match(html, /badge st-warn">warn<\/span> 1 case\(s\): a quality check failed/);
    // root causes, counters, capability grid (colored cells), changes
    assert.match(html, /<section id="causes">/);
    assert.match(html, /Programs compiled/);
    assert.match(html, /Peak worker memory/);
    assert.match(html, /<td class="cap cap-no" title="abs\/f32: lacking">✗<\/td>/);
    assert.match(html, /<td class="cap cap-warn" title="abs\/f16: [^"]*">!<\/td>/);
    assert.match(html, /<td class="cap cap-yes" title="abs\/s32: works">✓<\/td>/);
    assert.match(html, /Regressions \(1\)/);
    assert.match(html, /Fixes \(1\)/);
    assert.match(html, /New warnings \(quality checks\) \(1\)/);
    const changes = html.slice(html.indexOf('<section id="compare">'), html.indexOf('</section>', html.indexOf('<section id="compare">')));
    assert.ok(changes.includes(changed.regression) && changes.includes(changed.fix));
    assert.ok(!changes.includes('second line'), 'a change shows the first line of its message');
  });

  it('--compat adds the cases × API minors matrix and its window violations', async () => {
    const now = ResultsFile.parse(JSON.parse(readFileSync(newFile, 'utf8')));
    const compat = CompatReport.parse({
      cts: now.cts, plugin: { name: now.plugin.name, path: now.plugin.path, apiMinor: now.plugin.apiVersion?.minor },
      minors: [114, 90, 40], selection: { maxTier: 1, filters: ['tier0.runner.*'], excludes: [] },
      counts: { 114: { pass: 4 }, 90: { pass: 3, fail: 1 }, 40: { pass: 2, unsupported: 1, fail: 1 } },
      cases: [
        { id: changed.fix, statuses: { 114: 'pass', 90: 'pass', 40: 'unsupported' }, messages: { 40: 'needs 0.41' } },
        { id: changed.regression, statuses: { 114: 'pass', 90: 'fail', 40: 'fail' }, messages: { 90: `bad size ${EVIL}` } },
      ],
      windowViolations: [{ id: changed.regression, minor: 90, status: 'fail', message: `bad size ${EVIL}` }],
      exitCode: 1,
    });
    const file = path.join(dir, 'compat.json');
    writeFileSync(file, JSON.stringify(compat));
    const out = path.join(dir, 'compat.html');
    const r = cli(['report', newFile, '--compat', file, '-o', out]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const html = readFileSync(out, 'utf8');
    await validate(html);
    assertSelfContained(html);
    const sec = html.slice(html.indexOf('<section id="compat">'), html.indexOf('</section>', html.indexOf('<section id="compat">')));
    assert.match(sec, /<th scope="col">0\.114<\/th><th scope="col">0\.90<\/th><th scope="col">0\.40<\/th>/);
    assert.match(sec, /1 case\(s\) pass at the newest minor and fail at an older one/);
    assert.ok(sec.includes('title="needs 0.41">unsupported</span>'));
    assert.ok(sec.includes('bad size &lt;img src=&quot;http://evil.example/x.png&quot;&gt;') && !sec.includes(EVIL));
    assert.doesNotMatch(html, /id="compare"/);
    // A compat file that is not one: one line, exit 2.
    oneErrorLine(cli(['report', newFile, '--compat', newFile, '-o', out]), /new\.json: \$\.plugin: expected no key/);
  });

  it('renders a results file without optional parts, and a passing run without --compare', async () => {
    const now = ResultsFile.parse(JSON.parse(readFileSync(oldFile, 'utf8')));
    delete now.rootCauses;
    delete now.counters;
    delete now.coverage;
    now.capabilities = {};
    now.results = now.results.map((c) => ({ ...c, status: 'pass' as const }));
    const html = renderHtmlReport({ results: now, generatedAt: new Date(0) });
    await validate(html);
    assertSelfContained(html);
    assert.match(html, /Every case passed\./);
    assert.doesNotMatch(html, /id="(matrix|counters|causes|compare)"/);
    assert.match(html, /1970-01-01T00:00:00.000Z/);
  });

  it('bad input is one line, exit 2, and writes nothing', () => {
    const out = path.join(dir, 'bad.html');
    const notJson = path.join(dir, 'x.json');
    writeFileSync(notJson, '{ nope');
    oneErrorLine(cli(['report', notJson, '-o', out]), /x\.json: \$: expected JSON/);
    const wrong = path.join(dir, 'wrong.json');
    writeFileSync(wrong, JSON.stringify({ ...JSON.parse(readFileSync(newFile, 'utf8')), schemaVersion: 2 }));
    oneErrorLine(cli(['report', wrong, '-o', out]), /wrong\.json: \$\.schemaVersion: expected 1/);
    oneErrorLine(cli(['report', newFile, '--compare', wrong, '-o', out]), /wrong\.json: \$\.schemaVersion/);
    oneErrorLine(cli(['report', path.join(dir, 'missing.json'), '-o', out]), /cannot read .*missing\.json: no such file \(ENOENT\)/);
    oneErrorLine(cli(['report', newFile]), /required option '-o, --output <file>' not specified/);
    assert.ok(!existsSync(out));
  });

  it('the templates ship in the package', () => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, r.stderr);
    const files = (JSON.parse(r.stdout.slice(r.stdout.indexOf('['))) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    const templates = readdirSync(templatesDir()).filter((f) => f.endsWith('.eta'));
    assert.ok(templates.includes('report.eta'));
    for (const t of templates) assert.ok(files.includes(`reporters/templates/${t}`), `${t} is in the tarball`);
    assert.ok(files.includes('dist/reporters/html.js'));
  });

  it('an output path that cannot be written is one line, exit 2, before rendering', () => {
    const d = path.join(dir, 'a-dir');
    mkdirSync(d);
    oneErrorLine(cli(['report', newFile, '-o', d]), /--output: .*a-dir: expected a file path, but it is a directory/);
    oneErrorLine(cli(['report', newFile, '-o', path.join(newFile, 'r.html')]), /--output: .*new\.json\/r\.html: expected a writable file path/);
  });
});
