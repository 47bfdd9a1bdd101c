// The programs the suites run with outputs they define: each such case declares its program, arguments and expected
// outputs here, as data, when its suite file is loaded, so that a reproducer (src/repro/suite-source.ts) takes them
// from the same values the case runs instead of from its source text. A case whose program depends on the device
// count (the replicated ones) declares a function of it.

/** A host value: dtype, dims and its host bytes (as the CTS uploads them). */
export interface DeclaredValue {
  dtype: string;
  dims: readonly number[];
  data: Uint8Array;
}

/** An expected output: its bytes, compared as the case compares them (exact; floats: NaN is any NaN), or any value. */
export interface DeclaredOutput {
  dtype: string;
  dims: readonly number[];
  data?: Uint8Array;
  /** the value is implementation-defined: why any value passes (the case demands only that Execute completes) */
  anyValue?: string;
}

export interface SuiteProgram {
  description: string;
  /** the rule the case checks the outputs by: its failure, and the reproducer's, start with it */
  rule: string;
  text: string;
  /** replicas, each on its own device (one partition each) */
  replicas: number;
  /** per replica, per argument */
  inputs: readonly (readonly DeclaredValue[])[];
  /** per replica, per output */
  outputs: readonly (readonly DeclaredOutput[])[];
}

/** A program, or one made for the number of addressable devices (a reason instead when that count cannot run it). */
export type Declared = SuiteProgram | ((devices: number) => SuiteProgram | string);

const declared = new Map<string, Declared>();

/** Declares the program of case `id` (its full id); returns the declaration for the case body to use. */
export function declareProgram<T extends Declared>(id: string, p: T): T {
  declared.set(id, p);
  return p;
}

/**
 * The program of case `id` for a client of `devices` addressable devices: undefined when the case declares none
 * (the suites must be loaded), a string when it cannot be made for that count.
 */
export function declaredProgram(id: string, devices: number): SuiteProgram | string | undefined {
  const d = declared.get(id);
  return typeof d === 'function' ? d(devices) : d;
}

/** The ids of every declared program. */
export const declaredProgramIds = (): string[] => [...declared.keys()];
