// CompileOptions (a small TS shape) → serialized xla.CompileOptionsProto bytes, through protobufjs and our .proto.
import type protobuf from 'protobufjs';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface ArgumentLayout {
  /** xla.PrimitiveType number */
  elementType: number;
  dims: number[];
  minorToMajor?: number[];
}

export interface CompileOptions {
  numReplicas?: number;
  numPartitions?: number;
  /** [replica][partition] → device id. */
  deviceAssignment?: number[][];
  /**
   * Default -1, "not set", as JAX sends it (ExecutableBuildOptions' default, encoded explicitly: proto3's absent 0 would
   * pin device 0, and XLA's ExecutableBuildOptionsFromProto applies any value but -1).
   */
  deviceOrdinal?: number;
  useSpmdPartitioning?: boolean;
  useShardyPartitioner?: boolean;
  compilePortableExecutable?: boolean;
  parameterIsTupledArguments?: boolean;
  argumentLayouts?: ArgumentLayout[];
  processIndex?: number;
  /** Default 1, ExecutableBuildOptions' default (an absent proto3 field would read 0 processes). */
  processCount?: number;
  envOptionOverrides?: Record<string, string | boolean | bigint | number>;
  profileVersion?: number;
}

const here = path.dirname(fileURLToPath(import.meta.url));
// dist/src/proto/index.js finds the source file at src/proto/ (tsc does not copy .proto files).
const candidates = [path.join(here, 'compile_options.proto'), path.resolve(here, '../../../src/proto/compile_options.proto')];

/** protobufjs is loaded on the first encode, so a process that never compiles (a multi-node child) never loads it. */
const loadProtobuf = (): typeof protobuf => createRequire(import.meta.url)('protobufjs') as typeof protobuf;

let root: protobuf.Root | null = null;
function compileOptionsType(): protobuf.Type {
  if (root === null) {
    const file = candidates.find((c) => existsSync(c));
    if (file === undefined) throw new Error(`compile_options.proto not found (looked in ${candidates.join(', ')})`);
    root = loadProtobuf().loadSync(file);
  }
  return root.lookupType('pjrtcts.CompileOptionsProto');
}

function override(v: string | boolean | bigint | number): Record<string, unknown> {
  if (typeof v === 'string') return { stringField: v };
  if (typeof v === 'boolean') return { boolField: v };
  if (typeof v === 'bigint') return { intField: v.toString() };
  return { doubleField: v };
}

/** The plain object protobufjs encodes (exported for tests). */
function compileOptionsObject(o: CompileOptions): Record<string, unknown> {
  const replicas = o.numReplicas ?? o.deviceAssignment?.length ?? 1;
  const partitions = o.numPartitions ?? o.deviceAssignment?.[0]?.length ?? 1;
  const build: Record<string, unknown> = { numReplicas: replicas, numPartitions: partitions };
  build.deviceOrdinal = o.deviceOrdinal ?? -1;
  if (o.useSpmdPartitioning !== undefined) build.useSpmdPartitioning = o.useSpmdPartitioning;
  if (o.useShardyPartitioner !== undefined) build.useShardyPartitioner = o.useShardyPartitioner;
  if (o.processIndex !== undefined) build.processIndex = o.processIndex;
  build.processCount = o.processCount ?? 1;
  if (o.deviceAssignment !== undefined) {
    const da = o.deviceAssignment;
    const computations = da[0]?.length ?? 0;
    build.deviceAssignment = {
      replicaCount: da.length,
      computationCount: computations,
      // one entry per computation (partition), listing the device of every replica
      computationDevices: Array.from({ length: computations }, (_, c) => ({ replicaDeviceIds: da.map((row) => row[c]) })),
    };
  }
  const msg: Record<string, unknown> = { executableBuildOptions: build };
  if (o.compilePortableExecutable !== undefined) msg.compilePortableExecutable = o.compilePortableExecutable;
  if (o.parameterIsTupledArguments !== undefined) msg.parameterIsTupledArguments = o.parameterIsTupledArguments;
  if (o.profileVersion !== undefined) msg.profileVersion = o.profileVersion;
  if (o.argumentLayouts !== undefined) {
    msg.argumentLayouts = o.argumentLayouts.map((l) => ({
      elementType: l.elementType,
      dimensions: l.dims,
      ...(l.minorToMajor ? { layout: { minorToMajor: l.minorToMajor } } : {}),
    }));
  }
  if (o.envOptionOverrides !== undefined) {
    msg.envOptionOverrides = Object.fromEntries(Object.entries(o.envOptionOverrides).map(([k, v]) => [k, override(v)]));
  }
  return msg;
}

/** Serialized CompileOptionsProto. Defaults: 1 replica, 1 partition, no device assignment, device_ordinal -1, process_count 1. */
export function encodeCompileOptions(o: CompileOptions = {}): Uint8Array {
  const T = compileOptionsType();
  return T.encode(T.fromObject(compileOptionsObject(o))).finish();
}

/** Decodes bytes of our subset back to a plain object (tests; GetCompileOptions inspection). */
export function decodeCompileOptions(bytes: Uint8Array): Record<string, unknown> {
  const T = compileOptionsType();
  return T.toObject(T.decode(bytes), { longs: String, defaults: false }) as Record<string, unknown>;
}

/** A serialized DeviceAssignmentProto as [replica][computation] device ids. */
export function decodeDeviceAssignment(bytes: Uint8Array): number[][] {
  const T = compileOptionsType().root.lookupType('pjrtcts.DeviceAssignmentProto');
  const o = T.toObject(T.decode(bytes), { longs: Number, defaults: true }) as {
    replicaCount: number;
    computationCount: number;
    computationDevices: { replicaDeviceIds: number[] }[];
  };
  return Array.from({ length: o.replicaCount }, (_, r) => Array.from({ length: o.computationCount }, (_, c) => o.computationDevices[c]?.replicaDeviceIds[r] ?? -1));
}

interface DecodedShape {
  /** xla.PrimitiveType number */
  elementType: number;
  dims: number[];
  /** empty when the shape has no layout */
  minorToMajor: number[];
}

/** A serialized xla.ShapeProto (our subset: element type, dimensions, layout.minor_to_major). */
export function decodeShape(bytes: Uint8Array): DecodedShape {
  const T = compileOptionsType().root.lookupType('pjrtcts.ShapeProto');
  const o = T.toObject(T.decode(bytes), { longs: Number, defaults: true }) as { elementType: number; dimensions: number[]; layout?: { minorToMajor: number[] } };
  return { elementType: o.elementType, dims: o.dimensions, minorToMajor: o.layout?.minorToMajor ?? [] };
}
