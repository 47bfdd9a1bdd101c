// What a plugin wrote on stderr, as the one-line errors of the preflight and `info` quote it. A plugin that
// refuses to load (GetPjrtApi returns NULL) can say why only there.
import { NULL_API } from '../ffi/errors.js';

const MAX_CHARS = 300;

/** The plugin's last line of output (not the CTS's own `pjrt-cts:` lines), shortened; undefined when none. */
export function lastPluginLine(lines: readonly string[]): string | undefined {
  const own = lines.map((l) => l.trim()).filter((l) => l && !l.startsWith('pjrt-cts'));
  const last = own.at(-1);
  return last === undefined ? undefined : last.length > MAX_CHARS ? `${last.slice(0, MAX_CHARS - 1)}…` : last;
}

/** `message`, with the plugin's reason appended when it is the NULL-from-GetPjrtApi error and the plugin said one. */
export function withNullApiReason(message: string, lines: readonly string[]): string {
  if (!message.endsWith(NULL_API)) return message;
  const reason = lastPluginLine(lines);
  return reason ? `${message}; the plugin wrote on stderr: ${reason}` : message;
}
