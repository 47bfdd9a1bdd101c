// dlopen + GetPjrtApi + header sanity checks. Never reads a PJRT_Api byte the plugin did not promise.
import koffi, { assertCallStacks } from './koffi.js';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { API_SLOTS, PJRT_API_MAJOR, layoutOf, slotOffset } from '../abi/index.js';
import { dlopen, dlsym, dlerror, RTLD_GLOBAL, RTLD_NODELETE, RTLD_NOW } from './libc.js';
import { readU64, readI32, type Ptr } from './mem.js';
import { NULL_API, PluginLoadError } from './errors.js';

/** Plugins with a PJRT_Api bigger than this are treated as corrupt (the real one is about 1 KiB). */
export const MAX_API_STRUCT_SIZE = 1 << 20;

export interface LoadedApi {
  readonly path: string;
  readonly handle: Ptr;
  readonly apiPtr: Ptr;
  readonly structSize: number;
  readonly major: number;
  readonly minor: number;
}

const GetPjrtApiProto = koffi.proto('void *PjrtCtsGetPjrtApi(void)');

/** Bytes before the first slot: struct_size, extension_start and the embedded PJRT_Api_Version. */
export function apiHeaderSize(): number {
  return slotOffset(API_SLOTS[0]!.name);
}

function versionOffsets(): { major: number; minor: number } {
  const base = layoutOf('PJRT_Api').field('pjrt_api_version').offset;
  const v = layoutOf('PJRT_Api_Version');
  return { major: base + v.field('major_version').offset, minor: base + v.field('minor_version').offset };
}

function resolvePath(p: string): string {
  // dlopen only searches the current directory for names with a slash.
  if (existsSync(p)) return path.resolve(p);
  if (p.includes('/')) throw new PluginLoadError('missing', p, 'file not found');
  return p;
}

export function loadApi(file: string, opts: { global?: boolean } = {}): LoadedApi {
  assertCallStacks();
  const resolved = resolvePath(file);
  if (existsSync(resolved) && statSync(resolved).isDirectory()) {
    throw new PluginLoadError('not_loadable', file, 'is a directory, not a shared library');
  }
  dlerror(); // clear any stale error
  const handle = dlopen(resolved, RTLD_NOW | RTLD_NODELETE | (opts.global ? RTLD_GLOBAL : 0));
  if (handle === null) {
    throw new PluginLoadError('not_loadable', file, `cannot load shared library: ${dlerror() || 'dlopen failed'}`);
  }
  const sym = dlsym(handle, 'GetPjrtApi');
  if (sym === null) throw new PluginLoadError('no_symbol', file, 'does not export GetPjrtApi');
  const apiPtr = koffi.call(sym, GetPjrtApiProto) as Ptr | null;
  if (apiPtr === null || apiPtr === 0n) throw new PluginLoadError('null_api', file, NULL_API);
  const structSize = readU64(apiPtr, 0);
  const header = apiHeaderSize();
  if (structSize < BigInt(header)) {
    throw new PluginLoadError(
      'bad_struct_size',
      file,
      `PJRT_Api.struct_size ${structSize} is smaller than the ${header}-byte header`,
    );
  }
  if (structSize > BigInt(MAX_API_STRUCT_SIZE)) {
    throw new PluginLoadError(
      'bad_struct_size',
      file,
      `PJRT_Api.struct_size ${structSize} is implausibly large (> ${MAX_API_STRUCT_SIZE} bytes)`,
    );
  }
  const vo = versionOffsets();
  const major = readI32(apiPtr, vo.major);
  const minor = readI32(apiPtr, vo.minor);
  if (major !== PJRT_API_MAJOR) {
    throw new PluginLoadError(
      'major_mismatch',
      file,
      `PJRT API major version ${major}.${minor} is not supported (this CTS speaks ${PJRT_API_MAJOR}.x)`,
    );
  }
  return { path: resolved, handle, apiPtr, structSize: Number(structSize), major, minor };
}
