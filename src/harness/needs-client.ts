// Decides from a run function's parameter whether the case needs a client: a destructuring pattern that names
// client/device/devices (or a rest element), or a whole-context parameter. No parameter or other names: no client.
const CLIENT_KEYS = new Set(['client', 'device', 'devices']);

function matching(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return src.length;
}

function topLevelKeys(pattern: string): { keys: string[]; rest: boolean } {
  const keys: string[] = [];
  let depth = 0;
  let token = '';
  let expectKey = true;
  let rest = false;
  for (const c of pattern) {
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') depth--;
    if (depth === 0) {
      if (c === ',') {
        if (expectKey && token) keys.push(token);
        expectKey = true;
        token = '';
        continue;
      }
      if (expectKey && /[\w$.]/.test(c)) token += c;
      else if (expectKey && token) {
        keys.push(token);
        expectKey = false;
      }
    }
  }
  if (expectKey && token) keys.push(token);
  for (const k of keys) if (k.startsWith('...')) rest = true;
  return { keys: keys.map((k) => k.replace(/^\.\.\./, '')), rest };
}

export function needsClient(fn: (...args: never[]) => unknown): boolean {
  let src = fn.toString().trim().replace(/^async\s*/, '');
  if (src.startsWith('function')) src = src.slice(src.indexOf('('));
  if (!src.startsWith('(')) return /^[\w$]+\s*=>/.test(src);
  const params = src.slice(1, matching(src, 0)).trim();
  if (params === '') return false;
  if (!params.startsWith('{')) return true;
  const { keys, rest } = topLevelKeys(params.slice(1, matching(params, 0)));
  return rest || keys.some((k) => CLIENT_KEYS.has(k));
}
