// Named capabilities a case may require (`requires.capabilities`), each decided by a probe in the worker.
import type { Client, Plugin } from '../pjrt/index.js';

export interface ProbeHost { plugin(): Plugin; client(): Promise<Client> }
/** true: present; false or a string (the reason): absent. */
export type Probe = (host: ProbeHost) => boolean | string | Promise<boolean | string>;

const probes = new Map<string, Probe>();

export function defineCapability(name: string, probe: Probe): void {
  if (probes.has(name) && probes.get(name) !== probe) throw new Error(`pjrt-cts: capability ${name} defined twice`);
  probes.set(name, probe);
}

export function capabilityProbe(name: string): Probe | undefined {
  return probes.get(name);
}

defineCapability('multi_device', async (h) => {
  const n = (await h.client()).addressableDevices().length;
  return n >= 2 || `needs at least 2 addressable devices, the client has ${n}`;
});
