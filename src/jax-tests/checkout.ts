// `jax-tests`' inputs checked before anything runs, each failure one line (ConfigError, exit 2): the JAX checkout
// (its version, read from jax/version.py as JAX's setup.py reads it), the python that runs it (jax and pytest
// installed, the same JAX version), and the test files asked for.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { ConfigError } from '../config/errors.js';

/** Where a JAX checkout keeps its version (`_version = "0.10.2"`) and its tests. */
const VERSION_FILE = path.join('jax', 'version.py');
export const TESTS_DIR = 'tests';
/** JAX's test files, as JAX's own pytest runs name them. */
const TEST_FILE = /_test\.py$/;

/** The python that runs JAX's tests: $PJRT_CTS_PYTHON, else python3. */
export const pythonFor = (env: NodeJS.ProcessEnv = process.env): string => env['PJRT_CTS_PYTHON'] || 'python3';

/** The version a checkout declares, or a ConfigError naming what is missing. */
export function checkoutVersion(dir: string): string {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConfigError('--jax-src', dir, 'expected a JAX source checkout (a directory); none there');
  const file = path.join(dir, VERSION_FILE);
  if (!existsSync(file)) throw new ConfigError('--jax-src', dir, `expected a JAX source checkout: ${VERSION_FILE} is missing`);
  const m = /^_version\s*(?::\s*str\s*)?=\s*["']([^"']+)["']/m.exec(readFileSync(file, 'utf8'));
  if (!m) throw new ConfigError(file, '_version', 'expected a line _version = "X.Y.Z"');
  if (!existsSync(path.join(dir, TESTS_DIR))) throw new ConfigError('--jax-src', dir, `expected a JAX source checkout: ${TESTS_DIR}/ is missing`);
  return m[1]!;
}

interface InstalledJax { jax: string; pytest: string; python: string }

// jax's version from its installed metadata (importing jax takes seconds); pytest imported, as the run will.
const PROBE = `
import json, sys, importlib.util, importlib.metadata as md
out = {"python": sys.version.split()[0], "jax": None, "pytest": None}
if importlib.util.find_spec("jax") is not None:
    try:
        out["jax"] = md.version("jax")
    except md.PackageNotFoundError:
        pass
try:
    import pytest
    out["pytest"] = pytest.__version__
except Exception:
    pass
print(json.dumps(out))
`;

/** jax's and pytest's versions in `python`, or a ConfigError saying which is missing. */
export function installedJax(python: string): InstalledJax {
  const r = spawnSync(python, ['-c', PROBE], { encoding: 'utf8', timeout: 120_000 });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : (r.stderr.trim().split('\n').at(-1) ?? `exit ${r.status}`);
    throw new ConfigError('$PJRT_CTS_PYTHON', python, `expected a python that runs (${why})`);
  }
  const v = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { jax: string | null; pytest: string | null; python: string };
  if (!v.jax) throw new ConfigError('$PJRT_CTS_PYTHON', python, 'expected a python with jax installed (import jax failed)');
  if (!v.pytest) throw new ConfigError('$PJRT_CTS_PYTHON', python, 'expected a python with pytest installed (import pytest failed)');
  return { jax: v.jax, pytest: v.pytest, python: v.python };
}

/** The checkout's version when it is the installed jax's; else the one-line refusal. */
export function checkVersions(dir: string, python: string): { version: string; installed: InstalledJax } {
  const version = checkoutVersion(dir);
  const installed = installedJax(python);
  if (installed.jax !== version) {
    throw new ConfigError('--jax-src', dir, `is JAX ${version} but ${python} has jax ${installed.jax}: check out the tag jax-v${installed.jax} (or install jax ${version})`);
  }
  return { version, installed };
}

/** Every test file of the checkout, relative to it (tests/foo_test.py), sorted. */
function allTestFiles(dir: string): string[] {
  const root = path.join(dir, TESTS_DIR);
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const d of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) walk(r);
      else if (TEST_FILE.test(d.name)) out.push(`${TESTS_DIR}/${r}`);
    }
  };
  walk('');
  return out.sort();
}

/**
 * The test files selected by `patterns` (globs or paths relative to the checkout; `tests/` may be left out), all of
 * them when there is none. A pattern that selects nothing is an unknown file: a ConfigError.
 */
export function selectTestFiles(dir: string, patterns: readonly string[]): string[] {
  const all = allTestFiles(dir);
  if (!patterns.length) return all;
  const chosen = new Set<string>();
  for (const p of patterns) {
    const rel = p.startsWith(`${TESTS_DIR}/`) ? p : `${TESTS_DIR}/${p}`;
    const isMatch = picomatch(rel);
    const hits = all.filter((f) => f === rel || isMatch(f));
    if (!hits.length) throw new ConfigError('jax-tests', p, `expected a test file of ${path.join(dir, TESTS_DIR)} (a *_test.py path or glob); none matches`);
    for (const h of hits) chosen.add(h);
  }
  return all.filter((f) => chosen.has(f));
}
