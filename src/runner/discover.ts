// Finds PJRT plugins installed on this machine without loading them.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { CreateOptionValue } from '../config/plugins.js';
import { TORCH_XLA_GROUP, torchXlaPlugins } from './torch-xla-plugins.js';

type DiscoverySource = 'jax_plugins' | typeof TORCH_XLA_GROUP | 'python' | 'PJRT_NAMES_AND_LIBRARY_PATHS' | 'PJRT_LIBRARY_PATH';
/** A plugin found: its library, the create options it brings (torch_xla.plugins), or why it cannot be used. */
export interface DiscoveredPlugin { name: string; path: string; source: DiscoverySource; exists: boolean; createOptions?: Record<string, CreateOptionValue>; problem?: string }

const PY = 'import json, site, sys\n' +
  'dirs = list(getattr(site, "getsitepackages", lambda: [])()) + [site.getusersitepackages()] + [p for p in sys.path if p.endswith("-packages")]\n' +
  'print(json.dumps(dirs))';

/** The python discovery asks: $PJRT_CTS_PYTHON, else python3 on PATH. */
export const pythonOf = (env: NodeJS.ProcessEnv = process.env): string => env['PJRT_CTS_PYTHON'] || 'python3';

interface PythonProbe { dirs: string[]; problem?: string }
const probed = new Map<string, PythonProbe>();

/** The site-packages directories of `python`, or why there are none (it cannot be run, or it failed). */
function probePython(python: string): PythonProbe {
  let p = probed.get(python);
  if (p) return p;
  const r = spawnSync(python, ['-c', PY], { encoding: 'utf8', timeout: 15000 });
  const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
  if (r.error) p = { dirs: [], problem: `${python} cannot be run: ${code === 'ENOENT' ? 'no such program' : code === 'EACCES' ? 'permission denied' : r.error.message}` };
  else if (r.status !== 0 || !r.stdout) p = { dirs: [], problem: `${python} failed (${r.signal ? `killed by ${r.signal}` : `exit code ${r.status ?? '?'}`}) when asked for its site-packages` };
  else {
    try {
      p = { dirs: [...new Set(JSON.parse(r.stdout) as string[])].filter((d) => existsSync(d)) };
    } catch {
      p = { dirs: [], problem: `${python} did not list its site-packages` };
    }
  }
  probed.set(python, p);
  return p;
}

/** site-packages directories of $PJRT_CTS_PYTHON (else python3 on PATH); [] when it cannot be run. */
export function pythonSitePackages(python = pythonOf()): string[] {
  return probePython(python).dirs;
}

/** Why the python discovery asks cannot be asked (named as set: `$PJRT_CTS_PYTHON=…`), or undefined. */
export function pythonProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const problem = probePython(pythonOf(env)).problem;
  return problem && env['PJRT_CTS_PYTHON'] ? `$PJRT_CTS_PYTHON=${problem}` : problem;
}

/** jax_plugins/<pkg>/*.so under each site-packages dir (e.g. jax_plugins/xla_cuda13/xla_cuda_plugin.so). */
export function jaxPlugins(siteDirs: string[] = pythonSitePackages()): DiscoveredPlugin[] {
  const out: DiscoveredPlugin[] = [];
  for (const site of siteDirs) {
    const base = path.join(site, 'jax_plugins');
    if (!existsSync(base)) continue;
    for (const pkg of readdirSync(base).sort()) {
      const dir = path.join(base, pkg);
      if (!statSync(dir).isDirectory()) continue;
      for (const f of readdirSync(dir).sort()) {
        if (f.endsWith('.so')) out.push({ name: pkg, path: path.join(dir, f), source: 'jax_plugins', exists: true });
      }
    }
  }
  return out;
}

/** The `torch_xla.plugins` entry points of $PJRT_CTS_PYTHON (else python3), broken ones with their problem. */
export function torchXlaEntryPoints(python = pythonOf()): DiscoveredPlugin[] {
  if (probePython(python).problem) return [];
  return torchXlaPlugins(python).plugins.map((p) => ({ ...p, source: TORCH_XLA_GROUP, exists: p.path !== '' && existsSync(p.path) }));
}

/** Why the python (which runs) could not list its torch_xla.plugins entry points, or undefined. */
export function torchXlaProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const python = pythonOf(env);
  return probePython(python).problem ? undefined : torchXlaPlugins(python).problem;
}

/**
 * Python packages that ship their plugin as `<package>/lib<package>.so`, as the `libtpu` package does (JAX loads
 * it from there, or from TPU_LIBRARY_PATH: jax/_src/cloud_tpu_init.py, xla_bridge.py).
 */
const PYTHON_PACKAGE_PLUGINS = ['libtpu'] as const;

/** `<site>/<package>/<package>.so` (or `lib<package>.so`) of the first site-packages dir that has it. */
export function pythonPackagePlugins(siteDirs: string[] = pythonSitePackages(), packages: readonly string[] = PYTHON_PACKAGE_PLUGINS): DiscoveredPlugin[] {
  const out: DiscoveredPlugin[] = [];
  for (const pkg of packages) {
    const bare = pkg.replace(/^lib/, '');
    for (const site of siteDirs) {
      const file = [`lib${bare}.so`, `${bare}.so`].map((f) => path.join(site, pkg, f)).find((f) => existsSync(f));
      if (!file) continue;
      out.push({ name: pkg, path: file, source: 'python', exists: true });
      break;
    }
  }
  return out;
}

/** PJRT_NAMES_AND_LIBRARY_PATHS=name:path,name:path and PJRT_LIBRARY_PATH=path. */
export function envPlugins(env: NodeJS.ProcessEnv = process.env): DiscoveredPlugin[] {
  const out: DiscoveredPlugin[] = [];
  for (const item of (env['PJRT_NAMES_AND_LIBRARY_PATHS'] ?? '').split(',')) {
    const i = item.indexOf(':');
    if (i <= 0) continue;
    const p = item.slice(i + 1).trim();
    out.push({ name: item.slice(0, i).trim(), path: p, source: 'PJRT_NAMES_AND_LIBRARY_PATHS', exists: existsSync(p) });
  }
  const single = env['PJRT_LIBRARY_PATH'];
  if (single) out.push({ name: path.basename(single).replace(/^lib|\.so.*$/g, ''), path: single, source: 'PJRT_LIBRARY_PATH', exists: existsSync(single) });
  return out;
}

/** `discover`'s line for a plugin: name, library (or why it cannot be used), where it was found and what it brings. */
export function discoveredLine(d: DiscoveredPlugin): string {
  if (d.problem) return `${d.name}\tunavailable: ${d.problem}\t(${d.source})`;
  const options = d.createOptions && Object.keys(d.createOptions).length ? `, create options ${JSON.stringify(d.createOptions)}` : '';
  return `${d.name}\t${d.path}\t(${d.source}${d.exists ? '' : ', missing'}${options})`;
}

export function discoverAll(): DiscoveredPlugin[] {
  const sites = pythonSitePackages();
  return [...envPlugins(), ...jaxPlugins(sites), ...torchXlaEntryPoints(), ...pythonPackagePlugins(sites)];
}

/** What each discovery source holds, for `discover` to say why it found nothing: unset, or set but malformed. */
export function discoverySources(env: NodeJS.ProcessEnv = process.env): string[] {
  const names = env['PJRT_NAMES_AND_LIBRARY_PATHS'];
  const bad = (names ?? '').split(',').filter((item) => item.trim() && item.indexOf(':') <= 0);
  return [
    pythonProblem(env) ?? torchXlaProblem(env)
      ?? `no jax_plugins package, ${TORCH_XLA_GROUP} entry point or ${PYTHON_PACKAGE_PLUGINS.join(' or ')} package for ${pythonOf(env)}`,
    names === undefined || names === '' ? 'PJRT_NAMES_AND_LIBRARY_PATHS unset'
      : bad.length ? `PJRT_NAMES_AND_LIBRARY_PATHS has no name:path item (${bad.map((b) => JSON.stringify(b)).join(', ')} ${bad.length > 1 ? 'are' : 'is'} not name:path)` : 'PJRT_NAMES_AND_LIBRARY_PATHS names nothing',
    env['PJRT_LIBRARY_PATH'] ? 'PJRT_LIBRARY_PATH set' : 'PJRT_LIBRARY_PATH unset',
  ];
}
