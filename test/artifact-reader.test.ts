// The reference plugin's StableHLO portable-artifact reader (VHLO bytecode, src/hlo/bytecode_reader.cc +
// vhlo_to_text.cc): an artifact compiles to the same program as its text, and broken artifacts fail cleanly.
// Fixtures: test/fixtures/artifacts/<program>@<target version>.mlirbc, serialized by jaxlib
// (stablehlo.serialize_portable_artifact_str) from fixtures/programs/<program>.mlir, and one plain
// stablehlo-dialect bytecode file (jax's mlir.module_to_bytecode). PJRT_CTS_ARTIFACT_DIR=<dir> runs the same comparison over every
// <program>@<version>.mlirbc in <dir> (the full sweep).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEntry, type CorpusEntry } from '../src/corpus/index.js';
import { Plugin, Scope, PjrtError, type Client } from '../src/pjrt/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LIB = process.env.PJRT_CTS_REFERENCE_PLUGIN ?? path.join(root, 'build/reference-plugin/libpjrt_reference.so');
const fixtureDir = path.join(root, 'test/fixtures/artifacts');
const artifactDir = process.env.PJRT_CTS_ARTIFACT_DIR ?? fixtureDir;
const programDir = path.join(root, 'fixtures/programs');

interface Artifact {
  file: string;
  program: string;
  version: string;
}

function artifacts(dir: string): Artifact[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.mlirbc'))
    .sort()
    .map((f) => {
      const [program, version] = f.slice(0, -'.mlirbc'.length).split('@') as [string, string];
      return { file: path.join(dir, f), program, version };
    })
    .filter((a) => existsSync(path.join(programDir, `${a.program}.json`)));
}

/** Compiles `code` and runs it on the sidecar's inputs; returns every output's bytes, instance by instance. */
async function run(client: Client, code: string | Uint8Array, entry: CorpusEntry): Promise<{ name: string; outputs: Uint8Array[][] }> {
  const exe = await client.compile({ code, format: 'mlir' }, { numReplicas: entry.replicas, numPartitions: entry.partitions });
  const devices = client.addressableDevices();
  const args = await Promise.all(
    entry.inputs.map((values, r) => Promise.all(values.map((v) => client.upload(v.bytes, { dtype: v.dtype, dims: v.dims, device: devices[r] })))),
  );
  const { outputs } = await exe.execute(args);
  return { name: exe.executable().name(), outputs: await Promise.all(outputs.map((bufs) => Promise.all(bufs.map((b) => b.toHost())))) };
}

async function compileError(client: Client, code: Uint8Array): Promise<PjrtError | null> {
  try {
    await client.compile({ code, format: 'mlir' });
    return null;
  } catch (e) {
    if (e instanceof PjrtError) return e;
    throw e;
  }
}

describe('reference plugin: StableHLO portable artifacts', function () {
  this.timeout(600000);
  let plugin: Plugin;
  let scope: Scope;
  let client: Client;
  let xla: Client;
  before(async function () {
    if (!existsSync(LIB)) this.skip();
    plugin = Plugin.load(LIB);
    plugin.initialize();
    scope = new Scope();
    client = await plugin.createClient({ scope, options: { device_count: 4n } });
    xla = await plugin.createClient({ scope, options: { device_count: 4n, personality: 'xla' } });
  });
  after(async () => {
    await scope?.dispose();
  });

  it('every artifact runs byte-identically to its text program (same outputs, same executable name)', async () => {
    const list = artifacts(artifactDir);
    assert.ok(list.length > 0, `no artifacts in ${artifactDir}`);
    const failures: string[] = [];
    for (const a of list) {
      const entry = loadEntry(path.join(programDir, `${a.program}.json`));
      const fromText = await run(client, entry.program, entry);
      try {
        const fromArtifact = await run(client, new Uint8Array(readFileSync(a.file)), entry);
        assert.deepEqual(fromArtifact, fromText);
      } catch (e) {
        failures.push(`${a.program}@${a.version}: ${(e as Error).message.split('\n')[0]}`);
      }
    }
    assert.deepEqual(failures, [], `${failures.length} of ${list.length} artifacts differ`);
  });

  it('reads the artifacts of every bytecode version jaxlib writes (0.9.0 -> 0, 0.12.0 -> 3, 0.14.0 -> 4, >= 0.15.0 -> 6)', () => {
    const versions = new Set(artifacts(fixtureDir).map((a) => readFileSync(a.file)[4]));
    assert.deepEqual([...versions].sort((x, y) => x - y), [0, 3, 4, 6].map((v) => 2 * v + 1)); // varint: (v << 1) | 1
  });

  it('an op the interpreter lacks is UNIMPLEMENTED naming the VHLO op, in both personalities', async () => {
    const code = new Uint8Array(readFileSync(path.join(fixtureDir, 'batch_norm_inference_unsupported@1.17.0.mlirbc')));
    for (const c of [client, xla]) {
      const e = await compileError(c, code);
      assert.equal(e?.codeName, 'UNIMPLEMENTED');
      assert.match(e!.message, /vhlo\.batch_norm_inference_v1/);
    }
  });

  it('a complex constant (dense hex in the artifact; the text form has no complex literals here) compiles and runs', async () => {
    // main(x: c64[2]) = imag(x + [(1.5, -2), (3, 4.25)])
    const exe = await client.compile({ code: new Uint8Array(readFileSync(path.join(fixtureDir, 'complex_constant@1.17.0.mlirbc'))), format: 'mlir' });
    const x = new Float32Array([1, 10, 2, 20]);
    const arg = await client.upload(new Uint8Array(x.buffer), { dtype: 'c64', dims: [2], device: client.addressableDevices()[0] });
    const { outputs } = await exe.execute([[arg]]);
    const host = await outputs[0]![0]!.toHost();
    assert.deepEqual([...new Float32Array(host.buffer, host.byteOffset, 2)], [8, 24.25]);
  });

  it('an artifact outside the supported target window, or plain (non-VHLO) MLIR bytecode, is UNIMPLEMENTED', async () => {
    const code = Buffer.from(readFileSync(path.join(fixtureDir, 'tan_f32@1.17.0.mlirbc')));
    const at = code.indexOf('StableHLO_v1.17.0');
    assert.ok(at > 0);
    code.write('StableHLO_v9.99.0', at, 'latin1');
    const future = await compileError(client, new Uint8Array(code));
    assert.equal(future?.codeName, 'UNIMPLEMENTED');
    assert.match(future!.message, /v9\.99\.0/);
    // what jax's mlir.module_to_bytecode writes: stablehlo/func dialects, no VHLO
    const plain = await compileError(client, new Uint8Array(readFileSync(path.join(fixtureDir, 'abs_f32_plain_stablehlo.bytecode'))));
    assert.equal(plain?.codeName, 'UNIMPLEMENTED');
    assert.match(plain!.message, /only VHLO portable artifacts/);
  });

  it('a truncated artifact is INVALID_ARGUMENT (UNKNOWN with the StableHLO version note under xla)', async () => {
    const code = new Uint8Array(readFileSync(path.join(fixtureDir, 'while_counter@1.17.0.mlirbc')));
    const cut = code.subarray(0, code.length - 40);
    const ref = await compileError(client, cut);
    assert.equal(ref?.codeName, 'INVALID_ARGUMENT');
    assert.match(ref!.message, /malformed/);
    const x = await compileError(xla, cut);
    assert.equal(x?.codeName, 'UNKNOWN');
    assert.match(x!.message, /Failed to parse using StableHLO v1\.17\.0/);
  });

  it('truncated and bit-flipped artifacts compile or fail with INVALID_ARGUMENT / UNIMPLEMENTED, never crash', async () => {
    let seed = 12345;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
    const codes = new Map<string, number>();
    for (const a of artifacts(fixtureDir)) {
      const code = new Uint8Array(readFileSync(a.file));
      const variants: Uint8Array[] = [];
      for (let n = 0; n < code.length; n += 7) variants.push(code.subarray(0, n));
      for (let k = 0; k < 40; ++k) {
        const v = code.slice();
        v[rand(v.length)] ^= 1 << rand(8);
        variants.push(v);
      }
      for (const v of variants) {
        const e = await compileError(client, v);
        const name = e?.codeName ?? 'OK';
        codes.set(name, (codes.get(name) ?? 0) + 1);
      }
    }
    for (const name of codes.keys()) assert.ok(['OK', 'INVALID_ARGUMENT', 'UNIMPLEMENTED'].includes(name), `unexpected ${name}`);
    assert.ok((codes.get('INVALID_ARGUMENT') ?? 0) > 0);
  });
});
