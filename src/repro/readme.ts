// The README of a reproducer: what it shows, how to run it, what the case got (and so what a reproduction prints),
// the case's citation, and which plugin, run and CTS it came from.
import type { CaseResult, ResultsFile } from '../config/results.js';

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
}

const fence = (s: string): string => `\`\`\`\n${s}\n\`\`\``;

export function readme(i: ReadmeInput): string {
  const r = i.result;
  const p = i.run.plugin;
  const identity = [
    `- plugin: \`${p.name}\`, ${p.path}${p.sha256 ? ` (sha256 ${p.sha256})` : ''}`,
    ...(p.platformName ? [`- platform: ${p.platformName} ${p.platformVersion ?? ''}`.trimEnd()] : []),
    ...(p.apiVersion ? [`- PJRT API of the plugin: ${p.apiVersion.major}.${p.apiVersion.minor}; the CTS spoke 0.${i.run.run.apiMinor ?? '?'}`] : []),
    ...(p.createOptions && Object.keys(p.createOptions).length ? [`- create options: \`${JSON.stringify(p.createOptions)}\``] : []),
    ...(p.env && Object.keys(p.env).length ? [`- environment of the plugin: \`${JSON.stringify(p.env)}\``] : []),
    `- run: pjrt-cts ${i.run.cts.version}, ${i.run.startedAt} (results file \`${i.resultsFile}\`); reproducer written by pjrt-cts ${i.ctsVersion}`,
  ];
  return [
    `# Reproducer: \`${r.id}\``,
    '',
    `The case ended **${r.status}** on \`${p.name}\`${r.rule ? ` (rule \`${r.rule}\`)` : ''}. ${i.shows}`,
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
    ...(i.notes?.length ? ['## Notes', '', ...i.notes.flatMap((n) => [n, '']), ''] : []),
    'Once this is filed upstream, cite the issue in the plugin\'s expectations file: `{ "tests": "' + r.id + '", "status": "' + r.status + '", "reason": "…", "issue": "<url>" }`.',
    '',
  ].join('\n');
}
