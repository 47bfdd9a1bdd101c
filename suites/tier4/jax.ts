// Tier 4, the framework tier: JAX itself, pointed at the plugin as JAX loads plugins, runs a workload of ours and
// must compute what JAX's CPU backend computes. A tier of its own because it stands on every tier below and needs
// a Python with JAX: a vendor's `--gate tier1` does not pay for it, `--gate tier4` does. The workloads are data
// (src/framework/workloads.ts); JAX runs them in a process of its own (src/framework/run-workload.ts), so a crash or
// hang in the plugin under JAX ends that process, never the worker.
import { area } from '../../src/harness/index.js';
import { jaxPython, missingPythonModule, runWorkload } from '../../src/framework/run-workload.js';
import { WORKLOADS } from '../../src/framework/workloads.js';
import * as check from '../_lib/check.js';
import { failShardy, refusesShardy } from '../_lib/shardy.js';

/** JAX's import and both backends' compiles take a few seconds; the slowest workload (the compile cache's two
 * processes) about twenty on two loaded cores. */
const WORKLOAD_TIMEOUT_MS = 180_000;

// A workload that runs programs needs a client, made by JAX in its process; an ahead-of-time one needs only the
// topology, so it is a case of the compile-only profile too.
const t = area('tier4.jax', { tier: 4, client: 'process', slow: true, timeoutMs: WORKLOAD_TIMEOUT_MS + 10_000 });
const aot = area('tier4.jax_aot', { tier: 4, client: 'none', slow: true, timeoutMs: WORKLOAD_TIMEOUT_MS + 10_000 });

for (const w of WORKLOADS) {
  (w.aot ? aot : t).case(w.name, { description: w.description, source: 'framework', cite: w.cite, catches: w.catches }).run(async (ctx) => {
    const jax = jaxPython();
    if ('problem' in jax) return ctx.skip(jax.problem);
    const missing = missingPythonModule(jax.python, w);
    if (missing) return ctx.skip(missing);
    const outcome = await runWorkload(jax.python, ctx.config, w, WORKLOAD_TIMEOUT_MS);
    if (outcome.kind === 'pass') return;
    if (outcome.kind === 'unsupported' && refusesShardy(outcome.message)) failShardy(`JAX's ${w.name} on the plugin: ${outcome.message.slice(0, 400)}`);
    if (outcome.kind === 'unsupported') ctx.unsupported(outcome.message);
    if (outcome.kind === 'refused') {
      const r = outcome.refusal;
      ctx.skip(`refused by JAX itself, not the plugin: JAX enables ${r.feature} only on the platforms ${r.file} ${r.symbol} lists (${r.platforms.join(', ')}). ${r.remedy}. JAX said: ${outcome.message.split('\n')[0]}`);
    }
    if (outcome.kind === 'fail') {
      check.fail({ key: `jax.${w.name}: values`, text: `JAX on the plugin must compute what JAX's CPU backend computes (${w.name})` },
        'the values of JAX\'s CPU backend', `${outcome.message}${outcome.calls ? ` (PJRT calls: ${outcome.calls})` : ''}`);
    }
    if (outcome.kind === 'error' && outcome.phase === 'plugin' && refusesShardy(outcome.message)) {
      failShardy(`JAX's ${w.name} on the plugin raised ${outcome.type}: ${outcome.message.split('\n')[0]!.slice(0, 400)}${outcome.calls ? ` (PJRT call: ${outcome.calls})` : ''}`);
    }
    if (outcome.kind === 'error') {
      const where = outcome.phase === 'cpu' ? 'on JAX\'s CPU backend (the referee; the plugin was not involved)' : 'on the plugin';
      check.fail({ key: `jax.${w.name}: runs`, text: `JAX must run ${w.name} on the plugin as it does on its CPU backend` },
        'no error', `${outcome.type} ${where}${outcome.code ? ` with PJRT error ${outcome.code}` : ''}: ${outcome.message.split('\n')[0]!.slice(0, 600)}${outcome.calls && outcome.phase !== 'cpu' ? ` (PJRT call: ${outcome.calls})` : ''}`);
    }
    check.fail({ key: `jax.${w.name}: process`, text: `JAX's process running ${w.name} on the plugin must end with a verdict` },
      'a verdict', outcome.kind === 'died' ? `${outcome.message}${outcome.calls ? ` (PJRT call: ${outcome.calls})` : ''}` : 'none');
  });
}
