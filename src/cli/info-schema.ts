// The `pjrt-cts info --json` document.
import { z } from 'zod';
import { ExtensionReport } from '../config/results.js';

/** int64 values are JSON numbers when exactly representable, decimal strings otherwise. */
const Int64Json = z.union([z.number().int(), z.string().regex(/^-?\d+$/)]);

export const NamedValueJson = z.object({
  name: z.string(),
  kind: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.array(Int64Json), z.null()]),
});

const InfoDevice = z.object({
  id: z.number().int().nullable(),
  kind: z.string().nullable(),
  localHardwareId: z.number().int().nullable(),
  processIndex: z.number().int().nullable(),
  addressable: z.boolean().nullable(),
  attributes: z.array(NamedValueJson),
  debugString: z.string().nullable(),
  toString: z.string().nullable(),
  /** ids of the device's addressable memories, null when not addressable or unavailable */
  memories: z.array(z.number().int()).nullable(),
  defaultMemory: z.number().int().nullable(),
});

const InfoMemory = z.object({
  id: z.number().int().nullable(),
  kind: z.string().nullable(),
  kindId: z.number().int().nullable(),
  debugString: z.string().nullable(),
  toString: z.string().nullable(),
  devices: z.array(z.number().int()).nullable(),
});

const InfoExtension = ExtensionReport;

const InfoSlot = z.object({
  name: z.string(),
  since: z.number().int(),
  state: z.enum(['present', 'null', 'beyond']),
});

const InfoProblem = z.object({ what: z.string(), message: z.string() });

export const InfoDocument = z.object({
  /** callStack: the stack the plugin's functions ran on (koffi's own, src/ffi/koffi.ts), bytes */
  plugin: z.object({ path: z.string(), structSize: z.number().int(), callStack: z.object({ syncBytes: z.number().int(), asyncBytes: z.number().int() }).optional() }),
  apiVersion: z.object({
    plugin: z.object({ major: z.number().int(), minor: z.number().int() }),
    ours: z.object({ major: z.number().int(), minor: z.number().int() }),
  }),
  attributes: z.array(NamedValueJson),
  platform: z.object({ name: z.string().nullable(), version: z.string().nullable() }).nullable(),
  processIndex: z.number().int().nullable(),
  devices: z.array(InfoDevice),
  addressableDevices: z.array(z.number().int()),
  memories: z.array(InfoMemory),
  extensions: z.object({ chain: z.array(InfoExtension), loop: z.boolean() }),
  slots: z.array(InfoSlot),
  /** PJRT_Client_Create failed (code and message): the document holds only what is readable without a client */
  clientError: z.string().optional(),
  /** queries that failed (the rest of the document is still filled) */
  problems: z.array(InfoProblem),
});

export type InfoDocument = z.infer<typeof InfoDocument>;
export type InfoDeviceJson = z.infer<typeof InfoDevice>;
export type InfoMemoryJson = z.infer<typeof InfoMemory>;
export type NamedValueJson = z.infer<typeof NamedValueJson>;
