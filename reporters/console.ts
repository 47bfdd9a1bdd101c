// Console output: a live progress line on a TTY, plain lines otherwise; the summary ends with a plain line
// `pjrt-cts: N passed, N failed, …`, preceded by `N passed, N failed` alone on its line when more follows the counts.
import { Chalk, type ChalkInstance } from 'chalk';
import { FAILING, type CaseResult, type Status } from '../src/config/results.js';
import { configNeedOf } from '../src/config/needs-config.js';
import { renderMatrix } from './matrix.js';
import type { Reporter, RunEnd, RunStart } from '../src/runner/reporter.js';

export interface ConsoleOptions { stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }; color?: boolean; matrix?: boolean }

function colorWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0') return true;
  return !!stream.isTTY;
}

const LABEL: Record<Status, string> = {
  pass: 'PASS', fail: 'FAIL', warn: 'WARN', crash: 'CRASH', timeout: 'TIMEOUT', unsupported: 'UNSUPPORTED', skip: 'SKIP', xfail: 'XFAIL', xpass: 'XPASS', flaky: 'FLAKY',
};
const QUIET: ReadonlySet<Status> = new Set(['pass', 'unsupported', 'skip']);

const sec = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** Message lines printed under a failure (once, when it arrives). */
const MESSAGE_LINES = 25;
/** Case ids shown under a rule in the summary; the rest are counted. */
const IDS_SHOWN = 3;
/** Rules listed in the summary; the rest are counted. */
const RULES_SHOWN = 20;

export class ConsoleReporter implements Reporter {
  private readonly c: ChalkInstance;
  private readonly live: boolean;
  private total = 0;
  private done = 0;
  private nextMark = 0;
  private progressShown = false;
  private readonly counts: Partial<Record<Status, number>> = {};

  constructor(private readonly o: ConsoleOptions) {
    this.c = new Chalk({ level: o.color ?? colorWanted(o.stream) ? 1 : 0 });
    this.live = !!o.stream.isTTY;
  }

  private write(s: string): void {
    this.o.stream.write(s);
  }

  private clearProgress(): void {
    if (this.progressShown) this.write('\r\x1b[2K');
    this.progressShown = false;
  }

  private paint(s: Status, text: string): string {
    const c = this.c;
    return FAILING.has(s) || s === 'xpass' ? c.red(text) : s === 'pass' ? c.green(text) : s === 'flaky' || s === 'xfail' || s === 'warn' ? c.yellow(text) : c.dim(text);
  }

  begin(s: Pick<RunStart, 'total' | 'pluginLabel'>): void {
    this.total = s.total;
    // A run that learns its cases as it goes (jax-tests: pytest collects them) says no count.
    this.write(`pjrt-cts: running ${s.total ? `${s.total} case(s) ` : ''}against ${s.pluginLabel}\n`);
  }

  /** A line of its own between the case lines (a live progress line is cleared first). */
  note(line: string): void {
    this.clearProgress();
    this.write(`${line}\n`);
  }

  start(id: string): void {
    if (!this.live) return;
    const width = (this.o.stream.columns || 100) - 1; // 0 columns (`script`, some CI terminals): no width known
    const notPassed = (Object.entries(this.counts) as [Status, number][]).filter(([st, k]) => st !== 'pass' && k > 0);
    const tally = notPassed.map(([st, k]) => `${k} ${st}`).join(' ');
    const line = `[${this.done}/${this.total}]${tally ? ` ${tally}` : ''}  ${id}`.slice(0, width);
    this.clearProgress();
    this.write(this.c.dim(line));
    this.progressShown = true;
  }

  result(r: CaseResult): void {
    this.done++;
    this.counts[r.status] = (this.counts[r.status] ?? 0) + 1;
    if (!QUIET.has(r.status)) {
      this.clearProgress();
      // Each failure is printed once, here, with its message; the summary lists rules and counts only.
      const [first, ...more] = (r.message ?? '').split('\n');
      this.write(`${this.paint(r.status, LABEL[r.status].padEnd(7))} ${r.id} (${Math.round(r.durationMs)} ms)${first ? `: ${first}` : ''}\n`);
      if (FAILING.has(r.status)) for (const l of more.filter(Boolean).slice(0, MESSAGE_LINES - 1)) this.write(`      ${l}\n`);
    } else if (!this.live && this.total >= 20 && this.done >= this.nextMark) {
      this.write(`… ${this.done}/${this.total}\n`);
      this.nextMark = this.done + Math.ceil(this.total / 10);
    }
  }

  private ids(ids: readonly string[]): string {
    return `${ids.slice(0, IDS_SHOWN).join(', ')}${ids.length > IDS_SHOWN ? `, … ${ids.length - IDS_SHOWN} more` : ''}`;
  }

  end(e: RunEnd): void {
    const r = e.file;
    const info = e;
    this.clearProgress();
    const c = this.c;
    const list = r.results;
    const n = (...s: Status[]): number => list.filter((x) => s.includes(x.status)).length;
    this.write('\n');
    for (const tier of Object.keys(r.totals.byTier).sort()) {
      const t = r.totals.byTier[tier]!;
      const parts = Object.entries(t).sort().map(([s, k]) => `${k} ${s}`);
      this.write(`tier ${tier}: ${parts.join(', ')}\n`);
    }
    const section = (title: string, items: CaseResult[]): void => {
      if (!items.length) return;
      this.write(`\n${c.bold(title)} (${items.length})\n`);
      for (const x of items) {
        this.write(`  ${this.paint(x.status, LABEL[x.status])} ${x.id}\n`);
        const first = (x.message ?? '').split('\n').find(Boolean);
        if (first) this.write(`      ${first}\n`);
      }
    };
    const causes = r.rootCauses ?? [];
    if (causes.length) {
      const failed = n('fail', 'crash', 'timeout');
      this.write(`\n${c.bold('Failures by broken rule')} (${failed} failure(s), ${causes.length} rule(s); each failure is printed above)\n`);
      for (const g of causes.slice(0, RULES_SHOWN)) {
        const head = g.foundation ? `${c.bold(`foundation broken (${g.foundation})`)}: ` : '';
        this.write(`  ${head}${g.count} × ${this.paint(g.status, LABEL[g.status])} ${g.rule}\n      e.g. ${g.message.slice(0, 200)}\n      in ${this.ids(g.ids)}\n`);
        if (g.repro) this.write(`      reproducer: ${g.repro}\n`);
        const f = g.following ?? [];
        if (f.length) {
          this.write(`      probably following from it: ${f.reduce((a, x) => a + x.count, 0)} failure(s) of cases that build on it, ${f.length} rule(s)\n`);
          for (const x of f.slice(0, 5)) this.write(`        ${x.count} × ${x.rule} (${this.ids(x.ids)})${x.repro ? `; reproducer: ${x.repro}` : ''}\n`);
          if (f.length > 5) this.write(`        … ${f.length - 5} more rule(s) (rootCauses in the JSON results)\n`);
        }
      }
      if (causes.length > RULES_SHOWN) this.write(`  … ${causes.length - RULES_SHOWN} more rule(s) (rootCauses in the JSON results)\n`);
    }
    if (r.coverage?.selfTests) {
      this.write(`\n${r.coverage.selfTests} of ${r.coverage.selected} selected case(s) are self-tests of the reference plugin; a foreign plugin can execute at most ${r.coverage.selected - r.coverage.selfTests}.\n`);
    }
    section('Warnings (quality checks: reported, never gate-failing)', list.filter((x) => x.status === 'warn'));
    section('Unexpected passes (waived but passed: update the expectations)', list.filter((x) => x.status === 'xpass'));
    section('Flaky (failed, then passed on retry)', list.filter((x) => x.status === 'flaky'));
    if (info.stale.length) {
      this.write(`\n${c.bold('Stale expectations')} (match no case id, or their rule was broken by no case the run selected) (${info.stale.length})\n`);
      for (const s of info.stale) this.write(`  ${[...s.tests, ...(s.rules ?? []).map((r) => `rule ${r}`)].join(', ')}: ${s.reason}\n`);
    }
    const needs = new Map<string, number>();
    for (const x of list) {
      const field = x.status === 'skip' ? configNeedOf(x.message) : undefined;
      if (field) needs.set(field, (needs.get(field) ?? 0) + 1);
    }
    if (needs.size) {
      this.write(`\n${c.bold('Skipped for want of configuration')} (plugins.json entry fields that would enable them): ${[...needs].map(([f, k]) => `${f} (${k} case${k === 1 ? '' : 's'})`).join(', ')}\n`);
    }
    if (this.o.matrix) this.write(`\n${c.bold('Capability matrix')}\n${renderMatrix(r.capabilities)}\n`);
    const k = r.counters;
    if (k) {
      const ph = k.phaseMs;
      this.write(`workers: ${k.workersStarted} started (${k.workersReplaced} replaced); clients: ${k.clientsCreated} created (${k.sharedClientsCreated} shared); programs compiled: ${k.programsCompiled}; peak worker memory ${k.peakWorkerRssMiB} MiB\n`);
      this.write(`time in the plugin: load ${sec(ph.load)}, create ${sec(ph.create)}, compile ${sec(ph.compile)}, execute ${sec(ph.execute)}, transfer ${sec(ph.transfer)}\n`);
      for (const why of k.sharedClientResets.slice(0, 10)) this.write(`  shared client replaced: ${why}\n`);
    }
    for (const f of info.outputs.files) this.write(`${f}\n`);
    this.write(`${info.verdict}; time ${(r.durationMs / 1000).toFixed(1)} s\n`);
    const failed = n('fail', 'crash', 'timeout');
    const rest: [Status, string][] = [['warn', 'warned'], ['unsupported', 'unsupported'], ['skip', 'skipped'], ['xfail', 'xfail'], ['xpass', 'xpass'], ['flaky', 'flaky']];
    const detail = failed ? ` (${[['fail', 'fail'], ['crash', 'crash'], ['timeout', 'timeout']].filter(([s]) => n(s as Status)).map(([s, w]) => `${n(s as Status)} ${w}`).join(', ')})` : '';
    const tail = rest.filter(([s]) => n(s)).map(([s, w]) => `, ${n(s)} ${w}`).join('');
    const counts = `${n('pass')} passed, ${failed} failed`;
    const more = `${detail}${tail}${r.interrupted ? ', interrupted' : ''}`;
    // CI tools read a plain "N passed, N failed" line: the last line is one when nothing follows the counts.
    if (more) this.write(`${counts}\n`);
    this.write(`pjrt-cts: ${counts}${more}\n`);
  }
}
