// Compile-and-run helpers: single device and replicated over an explicit device assignment.
// None of them asks the plugin for anything a case does not test on its own: no DefaultDeviceAssignment (JAX's
// single-device jit never calls it; an explicit assignment is what `jax.pmap(devices=…)` passes) and no
// ToHostBuffer size query (outputs are read into destinations sized from their expected dtype and dims, as
// XLA's PjRtCApiBuffer::ToLiteral does).
import { programFor } from '../../src/harness/index.js';
import type { Buffer, Client, Device, LoadedExecutable } from '../../src/pjrt/index.js';
import * as check from './check.js';
import { checkedOutputs } from './outputs.js';

interface HostArray {
  dtype: string;
  dims: number[];
  data: Uint8Array;
}

/** The dtype and dims of an expected output. */
export interface OutSpec {
  dtype: string;
  dims: readonly number[];
}

/**
 * The basic execution case (jitted x + 1 on f32). A case that runs a program to test something else (an extension,
 * a callback, donation, events) depends on it: when x + 1 is already wrong, that case's failure is this one's.
 */
export const BASIC_EXECUTE = 'tier1.execute.add_one.f32';

type TextCompileOptions = { numReplicas?: number; deviceAssignment?: number[][] };

/**
 * Compiles a StableHLO text in a form the plugin accepts: the text itself, or its committed portable artifact for a
 * plugin that takes only artifacts (src/harness/program-forms.ts; no artifact → the case is unsupported).
 */
export async function compileText(client: Client, text: string, options: TextCompileOptions = {}): Promise<LoadedExecutable> {
  return client.compile(await programFor(client, text), options);
}

/** Sends the text as it is, whatever forms the plugin accepts: for texts a case expects to be rejected. */
export function compileRaw(client: Client, text: string, options: TextCompileOptions = {}): Promise<LoadedExecutable> {
  return client.compile({ code: text, format: 'mlir' }, options);
}

/** Host bytes of an output whose dtype and dims the case expects (the destination is sized from them). */
export function readOut(b: Buffer, out: OutSpec): Promise<Uint8Array> {
  return b.toHost({ dtype: out.dtype, dims: out.dims });
}

/** Creates an argument's buffer on `device` (default: client.upload; a case may judge the upload's errors itself). */
export type Upload = (a: HostArray, device: Device) => Promise<Buffer>;

/**
 * Runs a one-replica program on `device` (default: the executable's first device); host bytes of every output,
 * read into destinations sized from `outs` (the expected output dtypes and dims).
 */
export async function run1(client: Client, text: string, args: HostArray[], outs: readonly OutSpec[], device?: Device, upload?: Upload): Promise<Uint8Array[]> {
  const exe = await client.compileCached(await programFor(client, text)); // running, not testing compile: once per worker
  const dev = device ?? exe.addressableDevices()[0]!;
  const bufs = await Promise.all(args.map((a) => (upload ? upload(a, dev) : client.upload(a.data, { dtype: a.dtype, dims: a.dims, device: dev }))));
  const outputs = checkedOutputs(await exe.execute([bufs]), outs.length);
  return Promise.all(outputs[0]!.map((b, k) => readOut(b, outs[k]!)));
}

/** The first n addressable devices' ids as a [replica][partition] table (no DefaultDeviceAssignment call). */
export function assignment(client: Client, n: number): number[][] {
  const devices = client.addressableDevices();
  if (devices.length < n) throw new Error(`assignment: ${n} replicas need ${n} addressable devices, the client has ${devices.length}`);
  return devices.slice(0, n).map((d) => [d.id]);
}

/**
 * Runs an n-replica program; args[r] are replica r's arguments; returns outputs[r][k] host bytes. `outs` (the
 * expected output dtypes and dims, the same on every replica) sizes the destinations; without it the plugin's
 * size query is used.
 */
export async function runReplicated(client: Client, text: string, n: number, args: HostArray[][], outs?: readonly OutSpec[]): Promise<Uint8Array[][]> {
  const da = assignment(client, n);
  const devices = client.addressableDevices().slice(0, n); // the devices of `da`, without a LookupDevice call
  const exe = await client.compileCached(await programFor(client, text), { numReplicas: n, deviceAssignment: da });
  const bufs = await Promise.all(
    devices.map((device, r) => Promise.all(args[r]!.map((a) => client.upload(a.data, { dtype: a.dtype, dims: a.dims, device })))),
  );
  const result = await exe.execute(bufs);
  const outputs = outs ? checkedOutputs(result, outs.length) : result.outputs;
  outputs.forEach((row, r) => row.forEach((b, k) => {
    const want = outs?.[k];
    if (!want) return;
    check.equal(b.elementType(), want.dtype, `replica ${r} output ${k}: PJRT_Buffer_ElementType must be the program's result type`);
    check.equal(b.dims(), [...want.dims], `replica ${r} output ${k}: PJRT_Buffer_Dimensions must be the program's result shape`);
  }));
  return Promise.all(outputs.map((row) => Promise.all(row.map((b, k) => (outs?.[k] ? readOut(b, outs[k]) : b.toHost())))));
}
