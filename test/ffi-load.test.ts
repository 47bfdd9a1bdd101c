import assert from 'node:assert/strict';
import { API_SLOTS, slotOffset, PJRT_API_MAJOR, PJRT_API_MINOR, apiStructSize } from '../src/abi/index.js';
import { PluginLoadError, Plugin } from '../src/pjrt/index.js';
import { apiHeaderSize } from '../src/ffi/index.js';
import { buildNative, scratchFile } from './ffi-native.js';

function loadError(file: string): PluginLoadError {
  try {
    Plugin.load(file);
  } catch (e) {
    assert.ok(e instanceof PluginLoadError, `expected PluginLoadError, got ${String(e)}`);
    assert.ok(e.message.startsWith(file), `message names the file: ${e.message}`);
    assert.ok(!e.message.includes('\n'), 'one line');
    return e;
  }
  assert.fail(`${file} loaded`);
}

describe('ffi loader', function () {
  this.timeout(60000);

  it('loads a well-formed table and reads its version and struct_size', () => {
    const p = Plugin.load(buildNative('fake_api'));
    assert.deepEqual(p.apiVersion, { major: PJRT_API_MAJOR, minor: PJRT_API_MINOR });
    assert.equal(p.structSize, apiStructSize());
    assert.equal(p.slotState('PJRT_Client_Create'), 'null');
  });

  it('reports slots beyond struct_size without reading them', () => {
    const last = API_SLOTS[API_SLOTS.length - 1]!.name;
    const size = slotOffset(last); // the last slot falls off
    const p = Plugin.load(buildNative('fake_api', { FAKE_STRUCT_SIZE: size }, 'short'));
    assert.equal(p.slotState(last), 'beyond');
    assert.equal(p.slotState(API_SLOTS[API_SLOTS.length - 2]!.name), 'null');
    assert.throws(() => p.raw.fn(last), (e: Error) => e.name === 'UnsupportedError' && /beyond/.test(e.message));
  });

  it('loads with RTLD_GLOBAL on request', () => {
    assert.equal(Plugin.load(buildNative('fake_api'), { global: true }).apiVersion.major, PJRT_API_MAJOR);
  });

  it('walks the extension chain in order and stops at a loop', () => {
    const chain = Plugin.load(buildNative('fake_api', { FAKE_EXT: 1 }, 'ext')).extensionChain();
    assert.deepEqual(chain.entries.map((e) => e.typeName), ['Layouts', 'MemoryDescriptions']);
    assert.equal(chain.loop, false);
    const loop = Plugin.load(buildNative('fake_api', { FAKE_EXT: 2 }, 'extloop')).extensionChain();
    assert.equal(loop.entries.length, 2);
    assert.equal(loop.loop, true);
  });

  it('missing file', () => {
    assert.equal(loadError('/nonexistent/dir/libnothing.so').kind, 'missing');
  });

  it('not a shared library (text file named .so), with dlerror text', () => {
    const e = loadError(scratchFile('text.so', 'this is not an ELF file\n'));
    assert.equal(e.kind, 'not_loadable');
    assert.match(e.message, /cannot load shared library: .+/);
  });

  it('a directory', () => {
    assert.equal(loadError(scratchFile('x', '').replace(/\/x$/, '')).kind, 'not_loadable');
  });

  it('no GetPjrtApi symbol', () => {
    const e = loadError(buildNative('fake_api', { FAKE_MODE: 2 }, 'nosym'));
    assert.equal(e.kind, 'no_symbol');
    assert.match(e.message, /GetPjrtApi/);
  });

  it('GetPjrtApi returns NULL', () => {
    assert.equal(loadError(buildNative('fake_api', { FAKE_MODE: 1 }, 'null')).kind, 'null_api');
  });

  it('struct_size below the header', () => {
    const e = loadError(buildNative('fake_api', { FAKE_STRUCT_SIZE: apiHeaderSize() - 8 }, 'tiny'));
    assert.equal(e.kind, 'bad_struct_size');
    assert.match(e.message, /smaller/);
  });

  it('absurdly large struct_size', () => {
    const e = loadError(buildNative('fake_api', { FAKE_STRUCT_SIZE: 2 << 20 }, 'huge'));
    assert.equal(e.kind, 'bad_struct_size');
    assert.match(e.message, /large/);
  });

  it('major version other than ours', () => {
    const e = loadError(buildNative('fake_api', { FAKE_MAJOR: PJRT_API_MAJOR + 1 }, 'major'));
    assert.equal(e.kind, 'major_mismatch');
    assert.match(e.message, new RegExp(`major version ${PJRT_API_MAJOR + 1}\\.`));
  });
});
