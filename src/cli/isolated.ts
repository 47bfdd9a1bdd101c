// Runs `info` in a child process, as the runner runs cases: a plugin that crashes or hangs while loading,
// initializing, creating a client or answering a query ends the child, not the CLI. The CLI then says in one line
// which call was in flight and how the child ended (exit 2).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../config/errors.js';
import { CALL_FD_ENV } from '../worker/call-record.js';
import { CallFile } from '../runner/call-file.js';
import { CALLBACK_WAIT, parseCallMark } from '../ffi/call-stats.js';
import { parentPidEnv } from '../ffi/parent-pid.js';
import { lastPluginLine, withNullApiReason } from '../runner/plugin-stderr.js';
import type { InfoOptions } from './info.js';

const ERROR_PREFIX = 'pjrt-cts: error: ';
/** How much of the child's stderr is kept (the end of it). */
const STDERR_KEEP = 64 * 1024;

/** How long `info` may take in all (PJRT_CTS_INFO_TIMEOUT_MS overrides). */
export const INFO_TIMEOUT_MS = 60_000;

export async function runInfoIsolated(opts: InfoOptions, env: Record<string, string>, timeoutMs = INFO_TIMEOUT_MS): Promise<number> {
  const calls = new CallFile();
  const child = fork(fileURLToPath(new URL('./info-child.js', import.meta.url)), [], {
    env: { ...process.env, ...env, ...CALL_FD_ENV, ...parentPidEnv() },
    serialization: 'advanced',
    // stderr is held back: a plugin's own lines are quoted in the one error line (plugin-stderr.ts), else passed on.
    stdio: ['ignore', 'inherit', 'pipe', 'ipc', calls.fd],
    execArgv: [],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-STDERR_KEEP);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  // The CLI's own Ctrl-C / SIGTERM take the child with them.
  const forward = (sig: NodeJS.Signals): void => void child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const end = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.on('error', (error) => resolve({ code: null, signal: null, error }));
    child.on('close', (code, signal) => resolve({ code, signal }));
    child.send(opts);
  });
  clearTimeout(timer);
  process.removeListener('SIGINT', forward);
  process.removeListener('SIGTERM', forward);
  const { call, waiting } = parseCallMark(calls.read());
  calls.close();
  const where = call ? ` in ${call}${waiting ? ` (${CALLBACK_WAIT})` : ''}` : ' (no plugin call in flight)';
  const lines = stderr.split('\n');
  const last = lastPluginLine(lines);
  const output = last ? `; its last output: ${last}` : '';
  // The child's own error line names a plugin that returned NULL from GetPjrtApi: its reason joins that line.
  const error = end.code === 2 ? lines.find((l) => l.startsWith(ERROR_PREFIX)) : undefined;
  if (error && withNullApiReason(error, lines) !== error) {
    process.stderr.write(`${withNullApiReason(error, lines)}\n`);
    return 2;
  }
  const expected = !timedOut && !end.signal && (end.code === 0 || end.code === 2 || end.code === 3);
  if (expected) process.stderr.write(stderr);
  if (end.error) throw new Error(`cannot start the info process: ${end.error.message}`);
  if (timedOut) throw new ConfigError(opts.plugin, 'info', `the plugin did not answer within ${timeoutMs} ms${where}: it hangs (the child process was killed)`);
  if (end.signal === 'SIGINT' || end.signal === 'SIGTERM') return end.signal === 'SIGINT' ? 130 : 143;
  if (end.signal) throw new ConfigError(opts.plugin, 'info', `the plugin crashed${where}: the child process was killed by ${end.signal}${output}`);
  if (end.code !== 0 && end.code !== 2 && end.code !== 3) {
    throw new ConfigError(opts.plugin, 'info', `the plugin ended the process${where}: exit code ${end.code ?? '?'}${output}`);
  }
  return end.code;
}
