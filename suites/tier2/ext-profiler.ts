// Tier 2 — the Profiler extension (pjrt_c_api_profiler_extension.h): its PLUGIN_Profiler_Api table
// (xla/backends/profiler/plugin/profiler_c_api.h), driven the way XLA's PluginTracer
// (xla/backends/profiler/plugin/plugin_tracer.cc) drives it when JAX's profiler starts a trace.
import { area } from '../../src/harness/index.js';
import { layoutOf } from '../../src/abi/index.js';
import { ProfilerApi } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { wireFormatError } from '../_lib/wire.js';

const t = area('tier2.ext.profiler', { tier: 2, client: 'none' });
const REQUIRED = ['create', 'destroy', 'start', 'stop', 'collect_data'] as const;

t.case('api_table', {
  source: 'framework',
  cite: 'PluginTracer ignores a PLUGIN_Profiler_Api whose struct_size is below PROFILER_STRUCT_SIZE(PLUGIN_Profiler_Api, collect_data) ("Unexpected PLUGIN_Profiler_Api size") and then calls create, start, stop, collect_data and destroy unconditionally',
  catches: ['profiler_api_struct_size_short'],
}).run(({ plugin }) => {
  const p = new ProfilerApi(plugin.raw);
  const f = layoutOf('PLUGIN_Profiler_Api').field('collect_data');
  check.ok(p.structSize >= f.offset + f.size, 'PLUGIN_Profiler_Api.struct_size must cover collect_data (PluginTracer refuses a smaller table)', `≥ ${f.offset + f.size}`, `${p.structSize}`);
  for (const name of REQUIRED) {
    check.ok(p.pointer(name) !== null, `PLUGIN_Profiler_Api.${name} must be set: PluginTracer calls it without a null check`, 'a function', 'null');
  }
});

/** create → start → stop → collect → destroy, as one PluginTracer session. */
function session(p: ProfilerApi): { bytes: Uint8Array; firstCallBuffer: boolean } {
  const prof = p.call('create', (a) => a.bytes('options', 'options_size', new Uint8Array(0))).getPtr('profiler');
  check.ok(prof !== null, 'PLUGIN_Profiler_Create must return a profiler', 'a profiler', 'null');
  try {
    p.call('start', (a) => a.ptr('profiler', prof));
    p.call('stop', (a) => a.ptr('profiler', prof));
    return p.collect(prof);
  } finally {
    p.call('destroy', (a) => a.ptr('profiler', prof));
  }
}

t.case('session_collects_xspace', {
  source: 'framework',
  cite: 'PluginTracer::CollectData parses the collected bytes as a tensorflow.profiler.XSpace (xspace.ParseFromArray(args.buffer, args.buffer_size_in_bytes)) after create (options: a serialized ProfileOptions, empty here), start and stop. XLA\'s own plugin side (plugin_tracer_impl.cc PLUGIN_Profiler_CollectData) reports the serialized size + 1, a trailing zero byte, which C++ protobuf parsing takes as the message\'s end (tag 0): accepted',
  catches: ['profiler_collect_truncated'],
}).run(({ plugin }) => {
  const { bytes } = session(new ProfilerApi(plugin.raw));
  const err = wireFormatError(bytes, { zeroTagEnds: true });
  check.ok(err === null, 'the collected profile must be a serialized XSpace (protobuf wire format)', 'a well-formed message', `${bytes.length} bytes: ${err ?? ''}`);
});

t.case('session_has_data', {
  source: 'quality',
  cite: 'an empty XSpace is a valid answer, but a profiler that collects nothing after a start/stop session gives its users no trace at all',
  catches: ['profiler_collect_empty'],
}).run(({ plugin }) => {
  const { bytes } = session(new ProfilerApi(plugin.raw));
  check.ok(bytes.length > 0, 'a start/stop session should collect some profile data (quality)', '> 0 bytes', '0 bytes');
});
