import assert from 'node:assert/strict';
import { parseCreateOption, parseCreateOptions, CreateOptionError } from '../src/cli/create-option.js';
import { runInfo } from '../src/cli/info.js';
import { InfoDocument } from '../src/cli/info-schema.js';
import { encodeCompileOptions, decodeCompileOptions } from '../src/proto/index.js';
import { PJRT_API_MAJOR } from '../src/abi/index.js';
import { buildNative, scratchFile } from './ffi-native.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('ffi cli: create options', () => {
  it('infers types', () => {
    assert.deepEqual(parseCreateOptions(['a=123', 'b=-1.5', 'c=true', 'd=false', 'e=[1, -2,3]', 'f=hello', 'g=', 'h=1e3', 'i=[]']), {
      a: 123n, b: -1.5, c: true, d: false, e: [1n, -2n, 3n], f: 'hello', g: '', h: 1000, i: [],
    });
  });
  it('explicit types', () => {
    assert.deepEqual(parseCreateOption('k:string=123'), ['k', '123']);
    assert.deepEqual(parseCreateOption('k:int64=-9223372036854775808'), ['k', -9223372036854775808n]);
    assert.deepEqual(parseCreateOption('k:float=2'), ['k', 2]);
    assert.deepEqual(parseCreateOption('k:bool=true'), ['k', true]);
    assert.deepEqual(parseCreateOption('k:int64list=[4]'), ['k', [4n]]);
    assert.deepEqual(parseCreateOption('k=a=b'), ['k', 'a=b']);
  });
  for (const bad of ['novalue', '=1', 'k:int64=1.5', 'k:int64=9223372036854775808', 'k:bool=yes', 'k:int64list=1,2', 'k:blob=1', 'k=[1,x]']) {
    it(`rejects ${bad}`, () => assert.throws(() => parseCreateOption(bad), CreateOptionError));
  }
  it('rejects a repeated key', () => assert.throws(() => parseCreateOptions(['a=1', 'a=2']), /twice/));
});

describe('ffi cli: compile options proto', () => {
  it('1 replica x 1 partition, device_ordinal -1 and process_count 1 (ExecutableBuildOptions\' defaults, as JAX sends them)', () => {
    assert.equal(hex(encodeCompileOptions()), '1a1208ffffffffffffffffff0120012801b80101');
  });
  it('the single-device options of the official C API test (device_ordinal 0, device 0 assigned)', () => {
    assert.equal(hex(encodeCompileOptions({ deviceAssignment: [[0]], deviceOrdinal: 0 })), '1a12200128014a09080110011a030a0100b80101');
  });
  it('device assignment is [replica][partition], stored per computation', () => {
    const o = decodeCompileOptions(encodeCompileOptions({ deviceAssignment: [[0, 1], [2, 3], [4, 5]] }));
    assert.deepEqual(o.executableBuildOptions, {
      deviceOrdinal: '-1', numReplicas: '3', numPartitions: '2', processCount: '1',
      deviceAssignment: { replicaCount: 3, computationCount: 2, computationDevices: [{ replicaDeviceIds: ['0', '2', '4'] }, { replicaDeviceIds: ['1', '3', '5'] }] },
    });
  });
  it('unset device ordinal and env overrides', () => {
    const o = decodeCompileOptions(encodeCompileOptions({ deviceOrdinal: -1, envOptionOverrides: { xla_flag: true, n: 3n } }));
    assert.deepEqual((o.executableBuildOptions as Record<string, unknown>).deviceOrdinal, '-1');
    assert.deepEqual(o.envOptionOverrides, { xla_flag: { boolField: true }, n: { intField: '3' } });
  });
});

async function info(plugin: string, json = true, createOptions = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runInfo({ plugin, createOptions, json }, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join('\n'), err };
}

describe('ffi cli: info', function () {
  this.timeout(60000);

  it('JSON document of the mock plugin validates against the schema', async () => {
    const r = await info(buildNative('mock_plugin'));
    assert.equal(r.code, 0);
    const doc = InfoDocument.parse(JSON.parse(r.out));
    assert.equal(doc.platform?.name, 'mock');
    assert.deepEqual(doc.apiVersion.plugin, { major: 0, minor: 89 });
    assert.deepEqual(doc.attributes.find((a) => a.name === 'big'), { name: 'big', kind: 'kInt64', value: '-9007199254740993' });
    assert.equal(doc.slots.find((s) => s.name === 'PJRT_Compile')?.state, 'null');
    assert.equal(doc.slots.find((s) => s.name === 'PJRT_Device_GetAttributes')?.state, 'beyond');
    assert.ok(doc.problems.some((p) => p.what === 'PJRT_Client_Devices' && /null/.test(p.message)));
  });

  it('human output', async () => {
    const r = await info(buildNative('mock_plugin'), false);
    assert.equal(r.code, 0);
    assert.match(r.out, /platform\S*\s+mock/);
    assert.match(r.out, /beyond struct_size/);
  });

  const cases: [string, () => string, RegExp][] = [
    ['missing file', () => '/nonexistent/libx.so', /file not found/],
    ['text file', () => scratchFile('info-text.so', 'hello'), /cannot load shared library/],
    ['no symbol', () => buildNative('fake_api', { FAKE_MODE: 2 }, 'nosym'), /GetPjrtApi/],
    ['NULL api', () => buildNative('fake_api', { FAKE_MODE: 1 }, 'null'), /NULL/],
    ['bad struct_size', () => buildNative('fake_api', { FAKE_STRUCT_SIZE: 8 }, 'tiny2'), /struct_size/],
    ['major 1', () => buildNative('fake_api', { FAKE_MAJOR: PJRT_API_MAJOR + 1 }, 'major'), /major/],
  ];
  for (const [name, file, re] of cases) {
    it(`exit 2 and one error line: ${name}`, async () => {
      const f = file();
      const r = await info(f);
      assert.equal(r.code, 2);
      assert.equal(r.out, '');
      assert.equal(r.err.length, 1);
      assert.ok(r.err[0]!.startsWith(`pjrt-cts: error: ${f}: `), r.err[0]);
      assert.match(r.err[0]!, re);
      assert.ok(!r.err[0]!.includes('\n'));
    });
  }

  it('exit 2 when the plugin rejects the create options', async () => {
    const r = await info(buildNative('mock_plugin'), true, { reject: true });
    assert.equal(r.code, 2);
    assert.equal(r.err.length, 1);
    assert.match(r.err[0]!, /^pjrt-cts: error: .*PJRT_Client_Create failed: INVALID_ARGUMENT: create option 'reject'/);
  });
});
