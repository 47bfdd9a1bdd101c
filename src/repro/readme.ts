// The README of a reproducer: what it shows, how to run it, what the case got (and so what a reproduction prints),
// the case's citation, and which plugin, run and CTS it came from.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../config/paths.js';
import type { CaseResult, ResultsFile } from '../config/results.js';
import { ownOutcome } from '../runner/status.js';
import { placeholderPaths, pluginPlaceholder, portablePath } from './portable.js';

/**
 * What `repro` is told besides the results: paragraphs for every README (`--note`), and the plugin its commands name
 * (`--plugin-path`: e.g. the library of the plugin a reference run stood in for).
 */
export interface ReproExtras { notes?: readonly string[]; pluginPath?: string }

/** The plugin the README's commands name: `--plugin-path`, else a placeholder with the library's file name. */
export const commandPlugin = (run: ResultsFile, extra: ReproExtras): string => extra.pluginPath ?? pluginPlaceholder(run.plugin.path);

/**
 * The line a reproducer prints when the case's failure shows, as the case ended it: `<id>: <status>: <first line>`,
 * with the status the case's body ended with (a quality case's `warn` is the `fail`, `crash` or `timeout` under it).
 */
export function verdictLine(r: CaseResult): string {
  const own = ownOutcome(r);
  return `${r.id}: ${own.status}: ${own.message.split('\n')[0]!}`;
}

/** The plugin's environment as a reproducer shows it: the reference plugin's fault switch apart, paths as placeholders. */
export function pluginEnv(run: ResultsFile): { env: Record<string, string>; faults?: string } {
  const { PJRT_REFERENCE_FAULTS: faults, ...rest } = run.plugin.env ?? {};
  return { env: Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, placeholderPaths(v)])), ...(faults ? { faults } : {}) };
}

/** The reference plugin's named faults the run had on ($PJRT_REFERENCE_FAULTS or the `faults` create option), with their effects. */
function faultsOn(run: ResultsFile): string | undefined {
  const named = [run.plugin.env?.['PJRT_REFERENCE_FAULTS'], run.plugin.createOptions?.['faults']].filter((x): x is string => typeof x === 'string' && x !== '').join(',');
  if (!named) return undefined;
  let effects = new Map<string, string>();
  try {
    const table = JSON.parse(readFileSync(path.join(packageRoot(), 'fixtures', 'reference-plugin', 'faults.json'), 'utf8')) as { faults: { name: string; effect: string }[] };
    effects = new Map(table.faults.map((f) => [f.name, f.effect]));
  } catch { /* an installed package without the fixture: the names alone */ }
  const list = [...new Set(named.split(',').map((f) => f.trim()).filter(Boolean))];
  const { faults } = pluginEnv(run);
  const how = faults
    ? ` On the reference plugin the failure shows with \`PJRT_REFERENCE_FAULTS=${faults}\` set, as in the run.`
    : ' On the reference plugin the failure shows with the run\'s create options (their `faults`), which the reproducer passes by default.';
  return `The run was on the reference plugin with the named fault${list.length > 1 ? 's' : ''} ${list.map((f) => `\`${f}\`${effects.has(f.split('=')[0]!) ? ` (${effects.get(f.split('=')[0]!)})` : ''}`).join('; ')} on, standing in for a defect; without ${list.length > 1 ? 'them' : 'it'} the reference plugin passes this case (npm test's fault matrix runs every case clean).${how}`;
}

export interface ReadmeInput {
  result: CaseResult;
  run: ResultsFile;
  resultsFile: string;
  ctsVersion: string;
  /** one paragraph: what the reproducer does */
  shows: string;
  /** the commands, each with a line saying what it does */
  commands: { cmd: string; what: string }[];
  /** what it prints when the failure reproduces, and when the plugin behaves */
  expect: string[];
  files: { name: string; what: string }[];
  notes?: string[];
  extra?: ReproExtras;
}

const fence = (s: string): string => `\`\`\`\n${s}\n\`\`\``;

function notesOf(i: ReadmeInput): string[] {
  const fault = faultsOn(i.run);
  const notes = [...(i.extra?.notes ?? []), ...(fault ? [fault] : []), ...(i.notes ?? [])];
  return notes.length ? ['## Notes', '', ...notes.flatMap((n) => [n, '']), ''] : [];
}

export function readme(i: ReadmeInput): string {
  const r = i.result;
  const p = i.run.plugin;
  const { env, faults } = pluginEnv(i.run);
  const shownEnv = { ...env, ...(faults ? { PJRT_REFERENCE_FAULTS: faults } : {}) };
  const identity = [
    `- plugin: \`${p.name}\`, library \`${path.basename(p.path)}\`${p.sha256 ? ` (sha256 ${p.sha256})` : ''}`,
    ...(p.platformName ? [`- platform: ${p.platformName}${p.platformVersion ? `, version \`${p.platformVersion}\`` : ''}`] : []),
    ...(p.apiVersion ? [`- PJRT API of the plugin: ${p.apiVersion.major}.${p.apiVersion.minor}; the CTS spoke 0.${i.run.run.apiMinor ?? '?'}`] : []),
    ...(p.createOptions && Object.keys(p.createOptions).length ? [`- create options: \`${JSON.stringify(p.createOptions)}\``] : []),
    ...(Object.keys(shownEnv).length ? [`- environment of the plugin: \`${JSON.stringify(shownEnv)}\``] : []),
    `- run: pjrt-cts ${i.run.cts.version}, ${i.run.startedAt} (results file \`${portablePath(i.resultsFile)}\`); reproducer written by pjrt-cts ${i.ctsVersion}`,
  ];
  return [
    `# Reproducer: \`${r.id}\``,
    '',
    `The case ended **${r.status}** on \`${p.name}\`, the run's plugin${r.rule ? ` (rule \`${r.rule}\`)` : ''}. ${i.shows}`,
    '',
    '## Run it',
    '',
    ...i.commands.flatMap((c) => [c.what, '', fence(c.cmd), '']),
    '## What it prints',
    '',
    ...i.expect.flatMap((e) => [e, '']),
    '## What the CTS recorded',
    '',
    fence((r.message ?? `(${r.status}, no message)`).trimEnd()),
    '',
    `Demand (${r.source}): ${r.cite}`,
    '',
    ...(r.expectation ? [`Waived by the run's expectations: ${r.expectation.reason}${r.expectation.issue ? ` (${r.expectation.issue})` : ''}`, ''] : []),
    '## Where it comes from',
    '',
    ...identity,
    '',
    '## Files',
    '',
    ...i.files.map((f) => `- \`${f.name}\`: ${f.what}`),
    '',
    ...notesOf(i),
    'Once this is filed upstream, cite the issue in the plugin\'s expectations file: `{ "tests": "' + r.id + '", "status": "' + r.status + '", "reason": "…", "issue": "<url>" }`.',
    '',
  ].join('\n');
}
