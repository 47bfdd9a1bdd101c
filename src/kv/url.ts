// The `--kv` option: where the node processes of tier 3 keep their key-value store. Validated with zod.
import { z } from 'zod';
import { ConfigError } from '../config/errors.js';

/** `etcd://host:port`: an etcd v3 server (its client URL, plain HTTP). */
export interface EtcdEndpoint {
  kind: 'etcd';
  /** the URL as given */
  url: string;
  /** what the etcd client dials: `http://host:port` */
  host: string;
}

const ETCD = /^etcd:\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

const kvUrl = z.string().regex(ETCD, 'expected etcd://host:port').refine((s) => {
  const port = Number(ETCD.exec(s)?.[2]);
  return port >= 1 && port <= 65535;
}, 'expected a port between 1 and 65535');

/** Parses `--kv`; a bad value is a ConfigError (one line, exit 2). */
export function parseKvUrl(v: string, flag = '--kv'): EtcdEndpoint {
  const r = kvUrl.safeParse(v);
  if (!r.success) throw new ConfigError(flag, v, r.error.issues[0]?.message ?? 'expected etcd://host:port');
  const m = ETCD.exec(v)!;
  return { kind: 'etcd', url: v, host: `http://${m[1]}:${m[2]}` };
}

const runId = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'expected 1 to 64 characters of A-Z a-z 0-9 _ . -');

/** Parses `--run-id`: it becomes part of every etcd key of the run, so it is kept to a safe alphabet. */
export function parseRunId(v: string, flag = '--run-id'): string {
  const r = runId.safeParse(v);
  if (!r.success) throw new ConfigError(flag, v, r.error.issues[0]?.message ?? 'invalid run id');
  return v;
}

/** The root of a run's keys in etcd: every key a run (its node stores, tasks, reports) writes lies below it. */
export const runRoot = (runId: string): string => `pjrt-cts/${runId}/`;
