// Compile-and-run helpers: single device and replicated over the default device assignment.
import type { Client, Device, LoadedExecutable } from '../../src/pjrt/index.js';

export interface HostArray {
  dtype: string;
  dims: number[];
  data: Uint8Array;
}

export function compileText(client: Client, text: string, options: { numReplicas?: number; deviceAssignment?: number[][] } = {}): Promise<LoadedExecutable> {
  return client.compile({ code: text, format: 'mlir' }, options);
}

/** Runs a one-replica program on `device` (default: the executable's first device); host bytes of every output. */
export async function run1(client: Client, text: string, args: HostArray[], device?: Device): Promise<Uint8Array[]> {
  const exe = await compileText(client, text);
  const dev = device ?? exe.addressableDevices()[0]!;
  const bufs = await Promise.all(args.map((a) => client.upload(a.data, { dtype: a.dtype, dims: a.dims, device: dev })));
  const { outputs } = await exe.execute([bufs]);
  return Promise.all(outputs[0]!.map((b) => b.toHost()));
}

/** The first n device ids of the default assignment, as a [replica][partition] table. */
export function assignment(client: Client, n: number): number[][] {
  return client.defaultDeviceAssignment(n, 1).map((id) => [id]);
}

/** Runs an n-replica program; args[r] are replica r's arguments; returns outputs[r][k] host bytes. */
export async function runReplicated(client: Client, text: string, n: number, args: HostArray[][]): Promise<Uint8Array[][]> {
  const da = assignment(client, n);
  const exe = await compileText(client, text, { numReplicas: n, deviceAssignment: da });
  const bufs = await Promise.all(
    da.map(([id], r) => Promise.all(args[r]!.map((a) => client.upload(a.data, { dtype: a.dtype, dims: a.dims, device: client.lookupDevice(id!) })))),
  );
  const { outputs } = await exe.execute(bufs);
  return Promise.all(outputs.map((row) => Promise.all(row.map((b) => b.toHost()))));
}
