// The result model: one record per case (JSON Lines stream and final file) and the final results file.
import { z } from 'zod';

export const STATUSES = ['pass', 'fail', 'warn', 'crash', 'timeout', 'unsupported', 'skip', 'xfail', 'xpass', 'flaky'] as const;
export const Status = z.enum(STATUSES);
export type Status = z.infer<typeof Status>;

/** The source of a case's demand (see src/harness/types.ts). */
export const Source = z.enum(['header', 'framework', 'quality']);

/** Statuses that break a gate unless waived. A `quality` case's fail, crash or timeout is recorded as `warn`. */
export const FAILING: ReadonlySet<Status> = new Set<Status>(['fail', 'crash', 'timeout']);
/** Statuses that record a failure, gate-failing or not: FAILING, a quality case's `warn`, a waived `xfail`, a `flaky` pass after one. */
export const FAILED: ReadonlySet<Status> = new Set<Status>([...FAILING, 'warn', 'xfail', 'flaky']);
/** Statuses that mean the case body did not run. */
export const NOT_EXECUTED: ReadonlySet<Status> = new Set<Status>(['unsupported', 'skip']);

export const Requirements = z.strictObject({
  minMinor: z.number().int().min(0).optional(),
  slots: z.array(z.string()).optional(),
  capabilities: z.array(z.string()).optional(),
});
export type Requirements = z.infer<typeof Requirements>;

/**
 * A float output of a corpus program that matched within its tolerance: the largest error observed over its
 * elements (ULPs of its own type, absolute, and relative over the elements whose expected value is nonzero) and the
 * bound it had to stay within (the output's tolerance).
 */
export const ObservedError = z.strictObject({
  /** 'output 0', or 'replica 1 output 0' */
  output: z.string(),
  dtype: z.string(),
  ulp: z.number().min(0),
  abs: z.number().min(0),
  rel: z.number().min(0),
  bound: z.strictObject({ ulp: z.number().optional(), abs: z.number().optional(), rel: z.number().optional() }),
});
export type ObservedError = z.infer<typeof ObservedError>;

/**
 * A lifetime case's cycles: how much of each measure grew from the reading before the measured cycles to the one after
 * them (both after the warm-up cycles and a full garbage collection). Bytes and threads; a measure the plugin or the
 * C library does not offer is absent.
 */
export const LifetimeGrowth = z.strictObject({
  cycles: z.number().int().min(1),
  /** PJRT_Device_MemoryStats bytes_in_use on the case's device */
  deviceBytesInUse: z.number().int().optional(),
  /** native heap bytes in use over every malloc arena (glibc malloc_info) */
  heapBytes: z.number().int().optional(),
  rssBytes: z.number().int(),
  threads: z.number().int(),
});
export type LifetimeGrowth = z.infer<typeof LifetimeGrowth>;

/**
 * A concurrency case's calls: how many chains of calls ran at once, how many asynchronous calls they made, the most
 * in flight together and for how long two or more were (dispatch to return, an upper bound of the plugin's overlap).
 */
export const ConcurrencyOverlap = z.strictObject({
  chains: z.number().int().min(1),
  calls: z.number().int().min(0),
  maxInFlight: z.number().int().min(0),
  overlapMs: z.number().min(0),
  wallMs: z.number().min(0),
});
export type ConcurrencyOverlap = z.infer<typeof ConcurrencyOverlap>;

/** Measurements a case recorded besides its status (ctx.detail). */
export const CaseDetails = z.strictObject({
  /** corpus programs: per float output that passed, its largest observed error against its bound */
  observedError: z.array(ObservedError).optional(),
  /** lifetime cases: what grew over the measured create/destroy cycles */
  lifetime: LifetimeGrowth.optional(),
  /** concurrency cases: how much their calls overlapped */
  concurrency: ConcurrencyOverlap.optional(),
});
export type CaseDetails = z.infer<typeof CaseDetails>;

export const CaseResult = z.strictObject({
  id: z.string(),
  area: z.string(),
  tier: z.number().int().min(0),
  status: Status,
  durationMs: z.number().min(0),
  message: z.string().optional(),
  /** For a non-pass: the stable key of the rule it broke (API function and property, or slot and error code). */
  rule: z.string().optional(),
  source: Source,
  cite: z.string(),
  selfTest: z.string().optional(),
  requires: Requirements,
  required: z.boolean().optional(),
  attempts: z.number().int().min(1).optional(),
  faultsCaught: z.array(z.string()).optional(),
  expectation: z.strictObject({ reason: z.string(), issue: z.string().optional(), status: z.array(z.string()) }).optional(),
  capabilities: z.record(z.string(), z.boolean()).optional(),
  details: CaseDetails.optional(),
  /** With run --record-slots: the PJRT_Api slots the case called. */
  slots: z.array(z.string()).optional(),
  /** With run --repeat / --soak: each repetition's own verdict, in order (the case's status sums them up). */
  repetitions: z.array(z.strictObject({ status: Status, durationMs: z.number().min(0), message: z.string().optional() })).optional(),
});
export type CaseResult = z.infer<typeof CaseResult>;

/**
 * A soak (run --repeat / --soak): how many repetitions ran, the cases whose verdict changed between them (flaky or
 * racy), and each worker's resident set at the end of each repetition it took part in (MiB; null where it ran none).
 */
export const SoakReport = z.strictObject({
  repetitions: z.number().int().min(1),
  changed: z.array(z.string()),
  workers: z.array(z.strictObject({ worker: z.number().int().min(1), rssMiB: z.array(z.number().nullable()) })),
});
export type SoakReport = z.infer<typeof SoakReport>;

const AttrValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.number(), z.string()]))]);

/**
 * One element of the PJRT_Api extension chain: its type (and name when the CTS knows it), base.struct_size and, for
 * the extensions the CTS describes (src/abi/extensions.ts), the state of each pointer member — functions, the
 * profiler's table — (`beyond`: past the plugin's struct_size). Extensions carry no version field; struct_size is what tells their versions apart.
 */
export const ExtensionReport = z.strictObject({
  type: z.number().int(),
  typeName: z.string(),
  structSize: z.number().int(),
  struct: z.string().optional(),
  members: z.record(z.string(), z.enum(['present', 'null', 'beyond'])).optional(),
});
export type ExtensionReport = z.infer<typeof ExtensionReport>;
const ExtensionChainReport = z.strictObject({ chain: z.array(ExtensionReport), loop: z.boolean() });
export type ExtensionChainReport = z.infer<typeof ExtensionChainReport>;

export const PluginIdentity = z.strictObject({
  name: z.string(),
  path: z.string(),
  sha256: z.string().optional(),
  apiVersion: z.strictObject({ major: z.number().int(), minor: z.number().int() }).optional(),
  structSize: z.number().int().optional(),
  platformName: z.string().optional(),
  platformVersion: z.string().optional(),
  attributes: z.record(z.string(), AttrValue).optional(),
  /** every element of the PJRT_Api extension chain, known or not */
  extensions: ExtensionChainReport.optional(),
  devices: z.array(z.strictObject({ id: z.number(), kind: z.string(), processIndex: z.number().optional() })).optional(),
  createOptions: z.record(z.string(), AttrValue).optional(),
  /** plugins.json `topologyOptions`: what PJRT_TopologyDescription_Create was given over createOptions. */
  topologyOptions: z.record(z.string(), AttrValue).optional(),
  /** The stack the plugin's functions ran on in the workers: koffi's own, for synchronous and `.async` calls (bytes). */
  callStack: z.strictObject({ syncBytes: z.number().int(), asyncBytes: z.number().int() }).optional(),
  /** The environment the workers gave the plugin: its plugins.json `env`, and the PJRT_, XLA_ and TPU_ variables they inherited. */
  env: z.record(z.string(), z.string()).optional(),
  /** The program forms the plugin compiles (src/harness/program-forms.ts) and how that was decided. */
  programForms: z.strictObject({
    accepted: z.array(z.enum(['text', 'artifact'])),
    how: z.enum(['declared', 'probed']),
    rejected: z.record(z.string(), z.string()),
  }).optional(),
});
export type PluginIdentity = z.infer<typeof PluginIdentity>;

export const CapabilityValue = z.union([z.boolean(), z.literal('warn')]);
export type CapabilityValue = z.infer<typeof CapabilityValue>;

const Counts = z.record(z.string(), z.number().int().min(0));

export const ResultsFile = z.strictObject({
  schemaVersion: z.literal(1),
  cts: z.strictObject({ version: z.string() }),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().min(0),
  interrupted: z.boolean(),
  /**
   * A run interrupted (SIGINT, SIGTERM) before its cases started: what it was doing — listing the cases (the preflight
   * runs meanwhile) or waiting for the preflight — and the preflight's state then: not started, still running (for
   * `ms`, with the plugin call in flight), or passed.
   */
  interruptedBefore: z.strictObject({
    phase: z.enum(['listing', 'preflight']),
    preflight: z.strictObject({ state: z.enum(['not started', 'running', 'passed', 'failed', 'off']), ms: z.number().min(0).optional(), call: z.string().optional() }),
  }).optional(),
  /** Set when the run stopped early (--max-failures, --bail, client creation failing K times in a row): why. */
  stopped: z.string().optional(),
  run: z.strictObject({
    strict: z.boolean(),
    gate: z.number().int().optional(),
    maxTier: z.number().int(),
    filters: z.array(z.string()),
    excludes: z.array(z.string()),
    shard: z.string().optional(),
    retries: z.number().int(),
    jobs: z.number().int(),
    expectations: z.string().optional(),
    /** The external program corpus added with --programs. */
    programs: z.string().optional(),
    /** The PJRT API minor the CTS spoke (`run --api-minor`; its newest when not given). Absent in older files. */
    apiMinor: z.number().int().optional(),
    /**
     * `run --compile-only`: no client was created; the cases that need one were skipped ("compile-only profile:
     * needs a client") and the AOT cases compiled against the topology created from `topology`. Absent: a full run.
     */
    profile: z.strictObject({ name: z.literal('compile-only'), topology: z.string() }).optional(),
    /** `run --certify`: the must-pass list the run was judged against (path, its CTS version, sha256 of its bytes, case count). */
    certify: z.strictObject({ list: z.string(), ctsVersion: z.string(), sha256: z.string(), cases: z.number().int().min(0) }).optional(),
    /**
     * `run --rerun-failed`: the results file it read and the ids it selected from it, so a rerun of this run knows what
     * this one selected (src/runner/rerun.ts).
     */
    rerun: z.strictObject({ file: z.string(), ids: z.array(z.string()) }).optional(),
    /** --timeout, --warmup-timeout and the stop limits (absent in older files). */
    timeoutMs: z.number().int().optional(),
    warmupTimeoutMs: z.number().int().optional(),
    maxFailures: z.number().int().optional(),
    maxClientFailures: z.number().int().optional(),
    maxCallFailures: z.number().int().optional(),
    /** `run --repeat N`: the most repetitions of each case (absent: one). */
    repeat: z.number().int().min(1).optional(),
    /** `run --soak MS`: no repetition started after this many milliseconds. */
    soakMs: z.number().int().min(1).optional(),
  }),
  plugin: PluginIdentity,
  environment: z.strictObject({ node: z.string(), platform: z.string(), arch: z.string(), cpus: z.number(), hostname: z.string() }),
  results: z.array(CaseResult),
  totals: z.strictObject({ byStatus: Counts, byTier: z.record(z.string(), Counts) }),
  /** Per 'row/column': true, false, or 'warn' when only `quality` cases recorded it as lacking. */
  capabilities: z.record(z.string(), CapabilityValue),
  staleExpectations: z.array(z.strictObject({ tests: z.array(z.string()), rules: z.array(z.string()).optional(), reason: z.string() })),
  /** Failures grouped by identical first message line, largest first. */
  /**
   * Failures by the rule they broke (src/runner/root-causes.ts), a broken foundation first with the failures of the
   * cases that build on it under `following`; `message` is the first failure's first line, as an example.
   */
  /** PJRT calls that crashed or hung in K cases in a row (src/runner/stop-policy.ts): the cases needing them were skipped. */
  blocked: z.array(z.strictObject({ call: z.string(), how: z.enum(['hanging', 'crashing']), firstCase: z.string(), cases: z.number().int().min(0) })).optional(),
  /** `run --certify`: whether every must-pass case passed, and those that did not (src/runner/certify.ts). */
  certification: z.strictObject({ certified: z.boolean(), missing: z.array(z.strictObject({ id: z.string(), status: z.string() })) }).optional(),
  rootCauses: z.array(z.strictObject({
    rule: z.string().optional(), count: z.number().int().min(1), status: Status, message: z.string(), ids: z.array(z.string()),
    foundation: z.string().optional(),
    following: z.array(z.strictObject({ rule: z.string(), count: z.number().int().min(1), ids: z.array(z.string()), repro: z.string().optional() })).optional(),
    /** run --repro-dir: the folder of the group's reproducer (src/repro). */
    repro: z.string().optional(),
  })).optional(),
  /** What the workers did: processes, clients, compiles and wall time per phase (see src/runner/counters.ts). */
  counters: z.strictObject({
    workersStarted: z.number().int().min(0),
    workersReplaced: z.number().int().min(0),
    clientsCreated: z.number().int().min(0),
    sharedClientsCreated: z.number().int().min(0),
    sharedClientResets: z.array(z.string()),
    /** The plugin allows one live client per process though its entry has no maxLiveClients: how a worker found it. */
    clientLimit: z.string().optional(),
    programsCompiled: z.number().int().min(0),
    peakWorkerRssMiB: z.number().min(0),
    phaseMs: z.strictObject({ load: z.number(), create: z.number(), compile: z.number(), execute: z.number(), transfer: z.number() }),
  }).optional(),
  /**
   * The workers' warm-up (a trivial program compiled and run before the first case, under --warmup-timeout): the
   * first failure if one failed (it never fails a case), else the first worker's. Absent when there was none.
   */
  warmup: z.strictObject({ ok: z.boolean(), ms: z.number().min(0), message: z.string().optional() }).optional(),
  /** `run --repeat` / `--soak`: repetitions, cases whose verdict changed, each worker's memory per repetition. */
  soak: SoakReport.optional(),
  /** Cases that can run only on the reference plugin (self-tests), and how many cases were selected in all. */
  coverage: z.strictObject({ selected: z.number().int().min(0), selfTests: z.number().int().min(0) }).optional(),
  exitCode: z.number().int(),
});
export type ResultsFile = z.infer<typeof ResultsFile>;

/**
 * The first line of a run's `.jsonl` stream: the run's identity, so the stream alone can be compared
 * (`pjrt-cts compare`). Case records follow, one per line (they have a string `id`; this header has none).
 */
export const StreamHeader = z.strictObject({
  type: z.literal('header'),
  schemaVersion: z.literal(1),
  cts: z.strictObject({ version: z.string() }),
  startedAt: z.string(),
  run: ResultsFile.shape.run,
  plugin: z.strictObject({ name: z.string(), path: z.string(), createOptions: PluginIdentity.shape.createOptions, topologyOptions: PluginIdentity.shape.topologyOptions }),
  apiMinor: z.number().int(),
  /** How many cases the run selected: a stream with fewer case records was interrupted. Absent in older streams. */
  selected: z.number().int().min(0).optional(),
});
export type StreamHeader = z.infer<typeof StreamHeader>;
