// PyTorch/XLA's plugin convention: an entry point of the group `torch_xla.plugins` names a DevicePlugin class
// (torch_xla/experimental/plugins.py, register_installed_plugins: `ep.load()()`), whose library_path() is the PJRT
// library and whose client_create_options() its create options. Reading them runs the plugin's Python code, in
// $PJRT_CTS_PYTHON, but never loads the library.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fromZod } from '../config/errors.js';
import { CreateOptionValue } from '../config/plugins.js';

export const TORCH_XLA_GROUP = 'torch_xla.plugins';

/** A registration as read: its library and create options (plugins.json spelling), or why it cannot be used. */
export interface TorchXlaPlugin { name: string; path: string; createOptions?: Record<string, CreateOptionValue>; problem?: string }

// Create options keep the types PJRT_NamedValue has (what torch_xla's PjRtValueType converts to), in plugins.json
// spelling: an int beyond JSON's exact range as {"int64": "<digits>"}, a float as {"float": x} (2.0 stays a float).
// The JSON goes to a copy of fd 1 and fd 1 becomes stderr, so what a plugin prints on import cannot corrupt it.
const PY = `import importlib.metadata as md, json, math, os
out = os.fdopen(os.dup(1), 'w')
os.dup2(2, 1)
eps = md.entry_points()
eps = eps.select(group=${JSON.stringify(TORCH_XLA_GROUP)}) if hasattr(eps, 'select') else eps.get(${JSON.stringify(TORCH_XLA_GROUP)}, ())

class Unusable(Exception): pass

def wire(k, v):
    if isinstance(v, (bool, str)): return v
    if isinstance(v, int): return v if abs(v) < 2**53 else {'int64': str(v)}
    if isinstance(v, float) and math.isfinite(v): return {'float': v}
    if isinstance(v, (list, tuple)) and all(isinstance(x, int) and not isinstance(x, bool) for x in v): return list(v)
    raise Unusable(f'client_create_options()[{k!r:.60}] is {type(v).__name__} {v!r:.60}: expected a str, bool, int, finite float or list of ints')

def read(ep):
    step = 'loading it'
    try:
        from torch_xla.experimental.plugins import DevicePlugin
        obj = ep.load()
        plugin = obj() if isinstance(obj, type) else obj
        if not isinstance(plugin, DevicePlugin):
            raise Unusable(f'it is a {type(plugin).__name__}, not a torch_xla.experimental.plugins.DevicePlugin')
        step = 'library_path()'
        lib = plugin.library_path()
        if not isinstance(lib, str): raise Unusable(f'library_path() returned {type(lib).__name__} {lib!r:.60}, not a str')
        step = 'client_create_options()'
        opts = plugin.client_create_options()
        if not isinstance(opts, dict): raise Unusable(f'client_create_options() returned {type(opts).__name__} {opts!r:.60}, not a dict')
        for k in opts:
            if not isinstance(k, str): raise Unusable(f'client_create_options() has a key that is not a str: {k!r:.60}')
        return {'path': lib, 'createOptions': {k: wire(k, v) for k, v in opts.items()}}
    except Unusable as e:
        return {'problem': str(e)}
    except BaseException as e:
        first = (str(e).strip().splitlines() or [''])[0]
        return {'problem': f'{step} raised {type(e).__name__}' + (f': {first}' if first else '')}

json.dump([{'name': ep.name, 'value': ep.value, **read(ep)} for ep in eps], out)
`;

const Reported = z.array(z.object({
  name: z.string(), value: z.string(), path: z.string().optional(), createOptions: z.unknown().optional(), problem: z.string().optional(),
}));
const Options = z.record(z.string().min(1), CreateOptionValue);

/** Importing a plugin's package may import torch: slower than the other python probes. */
const PROBE_TIMEOUT_MS = 60_000;

export interface TorchXlaProbe { plugins: TorchXlaPlugin[]; problem?: string }
const probed = new Map<string, TorchXlaProbe>();

/** Every `torch_xla.plugins` entry point of `python`, each usable or with its problem in one line naming it. */
export function torchXlaPlugins(python: string): TorchXlaProbe {
  let p = probed.get(python);
  if (!p) probed.set(python, (p = probe(python)));
  return p;
}

function probe(python: string): TorchXlaProbe {
  const r = spawnSync(python, ['-c', PY], { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
  const asked = `when asked for its ${TORCH_XLA_GROUP} entry points`;
  if (r.error) {
    const timedOut = (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT';
    return { plugins: [], problem: timedOut ? `${python} did not answer within ${PROBE_TIMEOUT_MS / 1000} s ${asked}` : `${python} cannot be run ${asked}: ${r.error.message}` };
  }
  if (r.status !== 0) {
    const last = r.stderr.trim().split('\n').pop();
    return { plugins: [], problem: `${python} failed ${asked} (${r.signal ? `killed by ${r.signal}` : `exit code ${r.status ?? '?'}`})${last ? `: ${last}` : ''}` };
  }
  let reported: z.infer<typeof Reported>;
  try {
    reported = Reported.parse(JSON.parse(r.stdout));
  } catch {
    return { plugins: [], problem: `${python} did not list its ${TORCH_XLA_GROUP} entry points` };
  }
  return { plugins: reported.map(checked) };
}

/** The registration with its create options validated as plugins.json's are, and its library checked to exist. */
function checked(e: z.infer<typeof Reported>[number]): TorchXlaPlugin {
  const label = `${TORCH_XLA_GROUP} entry point ${e.name} (${e.value})`;
  if (e.problem !== undefined || e.path === undefined) return { name: e.name, path: '', problem: `${label}: ${e.problem ?? 'no library path'}` };
  const lib = path.resolve(e.path);
  const options = Options.safeParse(e.createOptions ?? {});
  if (!options.success) return { name: e.name, path: lib, problem: fromZod(`${label}: client_create_options()`, options.error, e.createOptions).message };
  if (!existsSync(lib)) return { name: e.name, path: lib, problem: `${label}: library_path() returned ${lib}, which does not exist` };
  return { name: e.name, path: lib, createOptions: options.data };
}
