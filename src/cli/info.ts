// `pjrt-cts info`: what a plugin says about itself. Human output (chalk; NO_COLOR honoured) or --json.
import chalk from 'chalk';
import { PJRT_API_MAJOR, PJRT_API_MINOR } from '../abi/index.js';
import type { NamedValue } from '../ffi/index.js';
import { PjrtError, Plugin, PluginLoadError, type Client } from '../pjrt/index.js';
import { tracedAsync, tracedLoad } from '../worker/call-trace.js';
import { CreateOptionError } from './create-option.js';
import { Collector, clientPart, errorText, pluginPart } from './info-collect.js';
import type { InfoDocument, NamedValueJson } from './info-schema.js';

export interface InfoOptions {
  plugin: string;
  createOptions: Record<string, NamedValue>;
  json: boolean;
  global?: boolean;
}

interface InfoIo {
  out?: (line: string) => void;
  err?: (line: string) => void;
}

/**
 * Exit codes: 0 done, 2 the plugin could not be loaded or would not create a client (then what it says without a
 * client is printed first).
 */
export async function runInfo(opts: InfoOptions, io: InfoIo = {}): Promise<number> {
  const out = io.out ?? ((s: string) => process.stdout.write(s + '\n'));
  const err = io.err ?? ((s: string) => process.stderr.write(s + '\n'));
  const fail = (m: string): number => {
    err(`pjrt-cts: error: ${m.replace(/\s*\n\s*/g, ' ')}`);
    return 2;
  };
  let plugin: Plugin;
  try {
    plugin = await tracedLoad(opts.plugin, opts.global ?? false, () => Plugin.load(opts.plugin, { global: opts.global ?? false }));
  } catch (e) {
    if (e instanceof PluginLoadError || e instanceof CreateOptionError) return fail(e.message);
    throw e;
  }
  const c = new Collector();
  if (plugin.has('PJRT_Plugin_Initialize')) c.try('PJRT_Plugin_Initialize', () => plugin.initialize(), undefined);
  const base = pluginPart(plugin, c);
  let client: Client | null = null;
  /** The plugin would not create a client: said last, in one line, after what was readable without one. */
  let clientError: string | undefined;
  try {
    client = await tracedAsync('PJRT_Client_Create', () => plugin.createClient({ options: opts.createOptions }));
  } catch (e) {
    if (e instanceof PjrtError) clientError = `${plugin.path}: PJRT_Client_Create failed: ${e.codeName}: ${e.message}`;
    else c.problems.push({ what: 'PJRT_Client_Create', message: errorText(e) });
  }
  const doc: InfoDocument = {
    ...base,
    ...(client
      ? clientPart(client, c)
      : { platform: null, processIndex: null, devices: [], addressableDevices: [], memories: [] }),
    ...(clientError !== undefined ? { clientError } : {}),
    problems: c.problems,
  };
  const made = client;
  if (made) await tracedAsync('PJRT_Client_Destroy', () => made.destroy()).catch((e: unknown) => c.problems.push({ what: 'PJRT_Client_Destroy', message: errorText(e) }));
  if (opts.json) out(JSON.stringify(doc, null, 2));
  else for (const line of human(doc)) out(line);
  return clientError === undefined ? 0 : fail(clientError);
}

function nv(e: NamedValueJson): string {
  const v = Array.isArray(e.value) ? `[${e.value.join(', ')}]` : typeof e.value === 'string' && e.kind === 'kString' ? JSON.stringify(e.value) : String(e.value);
  return `${e.name} = ${v}`;
}

const mib = (bytes: number): string => `${+(bytes / 2 ** 20).toFixed(2)} MiB`;

function human(d: InfoDocument): string[] {
  const h = (s: string) => chalk.bold(s);
  const dim = (s: string) => chalk.dim(s);
  const v = d.apiVersion;
  const skew = v.plugin.minor < 0 ? chalk.yellow(` (invalid: minor_version ${v.plugin.minor} is negative, no header has it)`)
    : v.plugin.minor === v.ours.minor ? '' : v.plugin.minor < v.ours.minor ? dim(' (older than ours)') : chalk.yellow(' (newer than ours)');
  const L: string[] = [];
  L.push(`${h('plugin')}        ${d.plugin.path}`);
  if (d.plugin.callStack) L.push(`${h('call stack')}    ${mib(d.plugin.callStack.syncBytes)} (sync), ${mib(d.plugin.callStack.asyncBytes)} (async)`);
  L.push(`${h('PJRT API')}      plugin ${v.plugin.major}.${Math.max(0, v.plugin.minor) === v.plugin.minor ? v.plugin.minor : '?'}, ours ${PJRT_API_MAJOR}.${PJRT_API_MINOR}${skew}; struct_size ${d.plugin.structSize}`);
  if (d.platform) {
    L.push(`${h('platform')}      ${d.platform.name ?? '?'} ${dim(d.platform.version ?? '?')}`);
    L.push(`${h('process')}       ${d.processIndex ?? '?'}`);
  }
  L.push(h(`attributes (${d.attributes.length})`));
  for (const a of d.attributes) L.push(`  ${nv(a)} ${dim(a.kind)}`);
  if (d.clientError !== undefined) L.push(`${h('client')}        ${chalk.red('none')} ${dim('(PJRT_Client_Create failed: no platform, devices or memories to show)')}`);
  L.push(h(`devices (${d.devices.length}, addressable ${d.addressableDevices.length})`));
  for (const dev of d.devices) {
    const addr = dev.addressable ? chalk.green('addressable') : dim('not addressable');
    L.push(`  ${chalk.cyan(`#${dev.id}`)} ${dev.kind ?? '?'}  hw ${dev.localHardwareId ?? '?'}  process ${dev.processIndex ?? '?'}  ${addr}` +
      (dev.memories ? `  memories [${dev.memories.join(', ')}] default ${dev.defaultMemory ?? '?'}` : ''));
    if (dev.debugString !== null) L.push(`     debug: ${dev.debugString}`);
    if (dev.toString !== null) L.push(`     str:   ${dev.toString}`);
    for (const a of dev.attributes) L.push(`     ${nv(a)} ${dim(a.kind)}`);
  }
  L.push(h(`memories (${d.memories.length})`));
  for (const m of d.memories) {
    L.push(`  ${chalk.cyan(`#${m.id}`)} ${m.kind ?? '?'} ${dim(`kind id ${m.kindId ?? '?'}`)}  devices [${(m.devices ?? []).join(', ')}]`);
  }
  L.push(h(`extensions (${d.extensions.chain.length})`) + (d.extensions.loop ? chalk.red('  LOOP in the chain') : ''));
  for (const e of d.extensions.chain) {
    const members = Object.entries(e.members ?? {});
    const missing = members.filter(([, st]) => st !== 'present').map(([m, st]) => `${m} ${st}`);
    const known = e.struct ? `, ${e.struct}: ${members.length - missing.length}/${members.length} members` : ', no struct described by this CTS';
    L.push(`  ${e.typeName} ${dim(`type ${e.type}, struct_size ${e.structSize}${known}`)}`);
    if (missing.length) L.push(`    ${dim(missing.join(', '))}`);
  }
  const count = (s: string) => d.slots.filter((x) => x.state === s);
  const nul = count('null');
  const beyond = count('beyond');
  L.push(h('slots') + `         ${chalk.green(`${count('present').length} present`)}, ${nul.length} null, ${beyond.length} beyond struct_size`);
  if (nul.length) L.push(...wrap('  null:   ', nul.map((s) => s.name)));
  if (beyond.length) L.push(...wrap('  beyond: ', beyond.map((s) => s.name)));
  if (d.problems.length) {
    L.push(chalk.yellow(h(`problems (${d.problems.length})`)));
    for (const p of d.problems) L.push(`  ${p.what}: ${p.message}`);
  }
  return L;
}

function wrap(head: string, words: string[], width = 110): string[] {
  const lines: string[] = [];
  let cur = head;
  for (const w of words) {
    if (cur.length + w.length + 1 > width && cur.trim() !== head.trim()) {
      lines.push(cur);
      cur = ' '.repeat(head.length);
    }
    cur += (cur.endsWith(' ') ? '' : ' ') + w;
  }
  lines.push(cur);
  return lines;
}
